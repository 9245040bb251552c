#!/usr/bin/env python3
"""Level 10 with Syzygy tables converts tablebase wins and holds tablebase draws against
Stockfish, which has the same tables.

Starts: seeded random legal positions of three and four pieces (`board.is_valid()`, halfmove
clock 0), probed with python-chess's own prober (`chess.syzygy`).

- Wins: the side to move wins by the tables (WDL 2; cursed wins are skipped), spread over the
  endings in WIN_ENDINGS (KRvK, KQvK, KQvKR, KBNvK, KPvK, KQvKP, KRvKB, KRvKN, KBBvK, KPvKP
  first, then other three- and four-piece wins), with a distance to zeroing of at least
  MIN_DTZ plies where the ending has such positions. AgentChess plays the winning side.
- Draws: the side to move draws (WDL 0), has no capture and at least one move that loses, in endings of
  DRAW_ENDINGS where bad play loses (KBvKR, KvKP, KQvKQ, ...). AgentChess plays the side to
  move.

AgentChess (the default player, level 10) is started over UCI (python-chess's client) with
`SyzygyPath` set to the tables, and must list that option; Stockfish defends or attacks with
its own `SyzygyPath` set to the same tables. Both play at --movetime a move, one game at a time,
until checkmate, stalemate, insufficient material, the fifty-move rule (halfmove clock 100,
checked here: python-chess's game-over test only knows the seventy-five-move rule) or a
threefold repetition; a drawn start is stopped after DRAW_PLIES plies.

A win is converted only when AgentChess mates before the fifty-move rule ever applies, with no
repetition. A draw is held when AgentChess is not mated. Every game's AgentChess moves must
report `tbhits` (summed from their `info`) above zero. Every AgentChess move must be legal
(python-chess refuses any other) and the engine must not crash or hang. Its stderr is not
judged, but shown for a game that fails. Any failure prints the start FEN, the moves played
(UCI), the reason and where the tables say the win slipped, and the run exits 1.

The tables directory must hold every three- and four-piece ending; by default it is
../shared/syzygy from the repository root (CI's place), and the run fails when it is missing.

    python3 tests/e2e/syzygy_conversion.py [--agentchess target/release/agentchess] [--wins 20]
        [--draws 10] [--seed 1] [--movetime 0.1] [--stockfish /usr/games/stockfish] [--tables DIR]
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import chess
import chess.engine
import chess.syzygy

import harness

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT.parent / "shared" / "syzygy"

# Wins, the winning side's material first. The first ten are always among the starts.
WIN_ENDINGS = [
    "KRvK", "KQvK", "KQvKR", "KBNvK", "KPvK", "KQvKP", "KRvKB", "KRvKN", "KBBvK", "KPvKP",
    "KRvKP", "KQvKN", "KQvKB", "KPPvK", "KBPvK", "KNPvK", "KRPvK", "KQvKQ", "KRvKR", "KQPvK",
    "KRBvK", "KRNvK", "KQRvK", "KPvKN", "KPvKB",
]
# Draws, AgentChess's material first: endings where a bad move loses.
DRAW_ENDINGS = [
    "KBvKR", "KvKP", "KQvKQ", "KRvKR", "KPvKP", "KNvKR", "KRvKP", "KBvKP", "KNvKP", "KPvKR",
    "KvKBP", "KvKPP", "KvKNP", "KPvKQ",
]
# A win's least distance to zeroing, in plies, where the ending has one within the tries.
MIN_DTZ = 5
TRIES = 4000
# A drawn start is held once this many plies pass without AgentChess mated.
DRAW_PLIES = 150
# No game of these endings lasts so long; a safety net against a loop in this script.
MAX_PLIES = 1000

PIECES = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


@dataclass
class Start:
    kind: str  # "win" or "draw"
    ending: str
    fen: str
    dtz: int
    note: str = ""


@dataclass
class Game:
    start: Start
    moves: list[str] = field(default_factory=list)
    end: str = ""
    ok: bool = False
    tbhits: int = 0
    max_clock: int = 0
    slip: str = ""
    failure: str = ""


def place(ending: str, ours: chess.Color, rng: random.Random) -> chess.Board:
    """A random placement of `ending` (our material first), `ours` to move; perhaps illegal."""
    board = chess.Board(None)
    mine, theirs = ending.split("v")
    free = list(chess.SQUARES)
    rng.shuffle(free)
    for color, material in ((ours, mine), (not ours, theirs)):
        for letter in material:
            piece = chess.KING if letter == "K" else PIECES[letter]
            squares = free if piece != chess.PAWN else [s for s in free if 1 <= chess.square_rank(s) <= 6]
            square = squares[0]
            free.remove(square)
            board.set_piece_at(square, chess.Piece(piece, color))
    board.turn = ours
    return board


def pick_win(ending: str, rng: random.Random, tb: chess.syzygy.Tablebase) -> Optional[Start]:
    """A start where the side to move, holding the first material of `ending`, wins by the
    tables (not a cursed win), its distance to zeroing MIN_DTZ or more if one is found, else
    the longest found."""
    best: Optional[Start] = None
    for _ in range(TRIES):
        board = place(ending, rng.choice(chess.COLORS), rng)
        if not board.is_valid() or tb.probe_wdl(board) != 2:
            continue
        dtz = tb.probe_dtz(board)
        if best is None or dtz > best.dtz:
            best = Start("win", ending, board.fen(), dtz)
        if dtz >= MIN_DTZ:
            break
    if best is not None and best.dtz < MIN_DTZ:
        best.note = f"no win of {MIN_DTZ}+ plies to zeroing in {TRIES} tries"
    return best


def losing_moves(board: chess.Board, tb: chess.syzygy.Tablebase) -> int:
    """How many moves of the side to move give the other side a win by the tables."""
    count = 0
    for move in board.legal_moves:
        board.push(move)
        count += tb.probe_wdl(board) == 2
        board.pop()
    return count


def pick_draw(ending: str, rng: random.Random, tb: chess.syzygy.Tablebase) -> Optional[Start]:
    """A drawn start, the first material of `ending` to move, with no capture and with at least
    one losing move if one is found."""
    fallback: Optional[Start] = None
    for _ in range(TRIES):
        board = place(ending, rng.choice(chess.COLORS), rng)
        if not board.is_valid() or board.is_game_over() or tb.probe_wdl(board) != 0:
            continue
        # Taking the other side's last piece would leave nothing to hold.
        if any(board.is_capture(m) for m in board.legal_moves):
            continue
        losing = losing_moves(board, tb)
        start = Start("draw", ending, board.fen(), 0, f"{losing} of {board.legal_moves.count()} moves lose")
        if losing:
            return start
        fallback = fallback or start
    if fallback is not None:
        fallback.note = f"no move loses (none found in {TRIES} tries)"
    return fallback


def missing_tables(tables: Path) -> list[str]:
    """The table files of the 35 three- and four-piece endings that `tables` lacks (named as
    the generator names them, the stronger side first in the order QRBNP)."""
    endings = [f"K{a}vK" for a in "QRBNP"]
    endings += [f"K{a}{b}vK" for a, b in itertools.combinations_with_replacement("QRBNP", 2)]
    endings += [f"K{a}vK{b}" for a, b in itertools.combinations_with_replacement("QRBNP", 2)]
    files = [f"{e}.{ext}" for e in endings for ext in ("rtbw", "rtbz")]
    return [f for f in files if not (tables / f).exists()]


def slip(board: chess.Board, tb: chess.syzygy.Tablebase) -> Optional[str]:
    """After one of our moves in a won game (the opponent to move): why the tables no longer
    see a win within the fifty-move rule, or None. DTZ may be one ply long (the tables round),
    hence the slack of one."""
    try:
        wdl = tb.probe_wdl(board)
        dtz = tb.probe_dtz(board)
    except (KeyError, chess.syzygy.MissingTableError):
        return None
    if board.is_checkmate():
        return None
    if wdl != -2:
        return f"the tables give the opponent WDL {wdl} (not a loss)"
    if board.halfmove_clock + abs(dtz) > 101:
        return f"{abs(dtz)} plies to zeroing with the clock at {board.halfmove_clock}: past the fifty-move rule"
    return None


def end_of(board: chess.Board) -> Optional[str]:
    """How the game has ended, if it has: the fifty-move rule and threefold repetition
    counted as soon as they apply (a mate on the hundredth half-move is a mate)."""
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient material"
    if board.is_fifty_moves():
        return "fifty-move rule"
    if board.is_repetition(3):
        return "threefold repetition"
    return None


class Players:
    """AgentChess and Stockfish over UCI, restarted after a crash or a hang."""

    def __init__(self, agentchess: str, stockfish: str, tables: Path, stderr: Path) -> None:
        self.cmd, self.sf_cmd, self.tables, self.stderr_path = agentchess, stockfish, tables, stderr
        self.stderr = open(stderr, "a")
        self.ours: Optional[chess.engine.SimpleEngine] = None
        self.theirs: Optional[chess.engine.SimpleEngine] = None

    def start(self) -> None:
        if self.ours is None:
            self.ours = chess.engine.SimpleEngine.popen_uci([self.cmd], stderr=self.stderr, env=harness.engine_env())
            if "SyzygyPath" not in self.ours.options:
                raise SystemExit("FAIL: AgentChess lists no SyzygyPath option")
            self.ours.configure({"SyzygyPath": str(self.tables)})
        if self.theirs is None:
            self.theirs = chess.engine.SimpleEngine.popen_uci([self.sf_cmd], stderr=subprocess.DEVNULL)
            self.theirs.configure({"SyzygyPath": str(self.tables)})

    def stderr_offset(self) -> int:
        self.stderr.flush()
        return self.stderr_path.stat().st_size

    def stderr_since(self, offset: int) -> str:
        self.stderr.flush()
        with open(self.stderr_path) as f:
            f.seek(offset)
            return f.read()

    def drop(self, which: str) -> None:
        engine = self.ours if which == "ours" else self.theirs
        if engine is not None:
            try:
                engine.close()
            except Exception:  # a dead or hung engine: killed by close, whatever it says
                pass
        if which == "ours":
            self.ours = None
        else:
            self.theirs = None

    def close(self) -> None:
        self.drop("ours")
        self.drop("theirs")
        self.stderr.close()


def play(players: Players, start: Start, number: int, movetime: float, tb: chess.syzygy.Tablebase) -> Game:
    game = Game(start)
    board = chess.Board(start.fen)
    ours = board.turn
    limit = chess.engine.Limit(time=movetime)
    players.start()
    assert players.ours is not None and players.theirs is not None
    while True:
        end = end_of(board)
        if end is not None:
            break
        if start.kind == "draw" and len(game.moves) >= DRAW_PLIES:
            end = f"{DRAW_PLIES} plies played"
            break
        if len(game.moves) >= MAX_PLIES:
            end = f"{MAX_PLIES} plies played"
            break
        mover = board.turn == ours
        engine = players.ours if mover else players.theirs
        name = "AgentChess" if mover else "Stockfish"
        try:
            result = engine.play(board, limit, game=("syzygy", number), info=chess.engine.INFO_ALL)
        except (chess.engine.EngineError, TimeoutError) as e:  # a crash, a hang, an illegal move
            players.drop("ours" if mover else "theirs")
            game.failure = f"{name} failed at ply {len(game.moves)}: {type(e).__name__}: {e}"
            game.end = "error"
            return game
        if result.move is None:
            game.failure = f"{name} gave no move at ply {len(game.moves)} in {board.fen()}"
            game.end = "error"
            return game
        if mover:
            game.tbhits += int(result.info.get("tbhits", 0) or 0)
        board.push(result.move)  # python-chess has already refused an illegal move
        game.moves.append(result.move.uci())
        game.max_clock = max(game.max_clock, board.halfmove_clock)
        if mover and start.kind == "win" and not game.slip:
            why = slip(board, tb)
            if why:
                game.slip = f"after AgentChess's {result.move.uci()} at ply {len(game.moves)} ({board.fen()}): {why}"
    game.end = end
    mated = board.is_checkmate()
    if start.kind == "win":
        game.ok = mated and board.turn != ours
        if not game.ok:
            game.failure = f"the win was not converted: {end}" + (" (AgentChess mated)" if mated else "")
    else:
        game.ok = not (mated and board.turn == ours)
        if not game.ok:
            game.failure = "the draw was lost: AgentChess was mated"
    if game.ok and game.tbhits <= 0:
        game.ok = False
        game.failure = "no tbhits reported by AgentChess in a tablebase position"
    return game


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agentchess", default=str(ROOT / "target" / "release" / "agentchess"))
    ap.add_argument("--wins", type=int, default=20)
    ap.add_argument("--draws", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=float, default=0.1, help="seconds a move, both engines")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--tables", default=str(TABLES), help="three- and four-piece Syzygy tables")
    args = ap.parse_args()

    tables = Path(args.tables)
    if not tables.is_absolute():
        tables = (ROOT / tables).resolve()
    if not tables.is_dir():
        print(f"FAIL: no Syzygy tables: {tables} is not a directory (every three- and four-piece table is needed; --tables)")
        return 1
    missing = missing_tables(tables)
    if missing:
        print(f"FAIL: {tables} lacks {len(missing)} three- and four-piece table files: {' '.join(missing[:10])}"
              + (" ..." if len(missing) > 10 else ""))
        return 1
    binary = Path(args.agentchess)
    if not binary.is_absolute():
        binary = (Path.cwd() / binary).resolve()
    if not binary.exists():
        print(f"FAIL: {binary} not found: run `cargo build --release` first (or give --agentchess)")
        return 1
    if not os.access(args.stockfish, os.X_OK):
        print(f"FAIL: Stockfish not found at {args.stockfish} (--stockfish)")
        return 1

    began = time.monotonic()
    rng = random.Random(args.seed)
    print(f"seed {args.seed}, {args.movetime} s a move, tables {tables}, AgentChess {binary}", flush=True)
    starts: list[Start] = []
    with chess.syzygy.open_tablebase(str(tables)) as tb:
        for kind, count, endings, pick in (("win", args.wins, WIN_ENDINGS, pick_win),
                                            ("draw", args.draws, DRAW_ENDINGS, pick_draw)):
            found = 0
            for ending in itertools.cycle(endings):
                if found == count:
                    break
                start = pick(ending, rng, tb)
                if start is None:
                    print(f"note: no {kind} found in {ending} in {TRIES} tries")
                    continue
                starts.append(start)
                found += 1

        problems: list[str] = []
        games: list[Game] = []
        with tempfile.TemporaryDirectory() as tmp:
            players = Players(str(binary), args.stockfish, tables, Path(tmp) / "agentchess-stderr.txt")
            try:
                for number, start in enumerate(starts):
                    offset = players.stderr_offset() if players.ours is not None else 0
                    game = play(players, start, number, args.movetime, tb)
                    games.append(game)
                    shown = f"dtz {start.dtz:>3}" if start.kind == "win" else "draw   "
                    print(f"{start.kind:4} {number + 1:>3} {start.ending:6} {shown} {start.fen:<40} "
                          f"{'ok ' if game.ok else 'BAD'} {game.end}, {len(game.moves)} plies, "
                          f"max clock {game.max_clock}, tbhits {game.tbhits}"
                          + (f"  [{start.note}]" if start.note else ""), flush=True)
                    if not game.ok:
                        problems.append(f"{start.kind} {number + 1} ({start.ending})")
                        print(f"FAIL: {start.kind} from {start.fen}: {game.failure}")
                        print(f"  moves: {' '.join(game.moves)}")
                        if game.slip:
                            print(f"  the tables: the win slipped {game.slip}")
                        stderr = players.stderr_since(offset) if Path(players.stderr_path).exists() else ""
                        if stderr.strip():
                            print("  AgentChess stderr during the game:")
                            print("\n".join("    " + line for line in stderr.splitlines()[-40:]))
            finally:
                players.close()

    elapsed = time.monotonic() - began
    wins = [g for g in games if g.start.kind == "win"]
    draws = [g for g in games if g.start.kind == "draw"]
    converted = [g for g in wins if g.ok]
    plies = [len(g.moves) for g in converted]
    if problems:
        print(f"FAIL: {len(problems)} games failed: {', '.join(problems)}")
        print(f"reproduce: python3 tests/e2e/syzygy_conversion.py --agentchess {args.agentchess} --wins {args.wins} "
              f"--draws {args.draws} --seed {args.seed} --movetime {args.movetime}")
    print(f"syzygy: wins converted {len(converted)}/{len(wins)} "
          f"(plies mean {sum(plies) / max(1, len(plies)):.1f}, max {max(plies, default=0)}; "
          f"max halfmove clock {max((g.max_clock for g in wins), default=0)}), "
          f"draws held {sum(g.ok for g in draws)}/{len(draws)}, "
          f"tbhits {sum(g.tbhits for g in games)} (least in a game {min((g.tbhits for g in games), default=0)}), "
          f"seed {args.seed}, {elapsed:.0f} s", flush=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

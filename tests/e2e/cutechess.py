#!/usr/bin/env python3
"""AgentChess under cutechess-cli, the match runner engine authors use: a CI check and a soak.

CI check (the default), two cutechess-cli runs:
  1. XBoard: a gauntlet of Fairy-Max against every agent level (--levels, default 1-10),
     --xboard-games per level (default 16), from the start position.
  2. UCI: a round robin of the levels and --uci-extra players (default search:depth=2),
     --uci-games per pairing (default 2), from built-in openings played from both sides.
  270 games by default, tc 2+0.02, concurrency 2: about a minute on 2 cores. Fairy-Max plays to
  depth 4 on a clock of its own, 20+0.2 (--fairymax-depth, --fairymax-tc): at 2+0.02 it lost
  on time itself now and then on a busy machine, and a time loss here should be AgentChess's.
  Engines are reused between games, as cutechess-cli does by default, and seeded from --seed;
  with --concurrency 1 a rerun repeats the games. At concurrency 2 which engine process plays
  which game varies, and a reused process's random state with it.

Soak (--soak --games N --state DIR): chunks of one round robin each between the levels,
--soak-players (default search:depth=1,search:depth=2) and Fairy-Max, 110 games a chunk by
default; half the agents speak XBoard and half UCI, the halves swapping every two chunks, and
odd chunks start from the openings, so four chunks cover every combination. Each finished
chunk is saved in DIR (PGN, log, a JSON record), so rerunning the same command resumes.

Chess960 (--chess960 GAMES): cutechess-cli's `-variant fischerandom`, tc 2+0.02, concurrency 2,
half the games each of two pairings: AgentChess (--chess960-player, default level 10) over UCI
against Stockfish (--stockfish; Threads 1, Hash 16, UCI_LimitStrength at --stockfish-elo,
default 2000, so the games are not all short; margins AgentChess does not get, a Move Overhead
of 25 ms and cutechess-cli's timemargin of 100 ms), and AgentChess over
XBoard against Fairy-Max when its `feature variants` names fischerandom (and it takes
setboard), else against AgentChess over UCI: Fairy-Max 5.0b offers neither, so both sides of
those games are AgentChess's. With no openings cutechess-cli draws a random Chess960 start
(FrcBoard::defaultFenString, from -srand) and -repeat plays it from both sides, a new one for
each pair of games.
Every fault below applies; the PGN replay reads each game on `chess.Board(FEN, chess960=True)`
(a game without the Variant tag, or whose FEN is not a Chess960 start, is itself a fault), each
pair of games must be one start with the colours swapped, and the summary counts the
castlings each player made, with the faults by kind for AgentChess and for the others.

Fails (exit 1) on any fault by any engine, each listed with the engine that caused it:
an illegal move, a time loss, a disconnect, a stalled connection, an invalid result claim, an
engine killed by cutechess-cli, a resignation by AgentChess (it never resigns), a game without
a normal end (mate, stalemate, insufficient material, fifty moves, repetition) in cutechess's
output or the PGN, any line cutechess-cli writes to stderr (its warnings), anything on an
engine's stderr, an `Error`/`Illegal` line from an engine, and an AgentChess line that
neither protocol defines (or a UCI `info string`, which AgentChess sends for input it could
not read). With python-chess installed the PGN is also replayed: legal moves, and the final
position must be what the result says. Exit 2: setup error; exit 0 with "skipped" when
cutechess-cli is missing and --allow-skip is given.

    CUTECHESS=$(../shared/tools/cutechess/build.sh) python3 tests/e2e/cutechess.py
    python3 tests/e2e/cutechess.py --engine target/release/agentchess --cutechess PATH --levels 1-10
    python3 tests/e2e/cutechess.py --soak --games 10000 --state soak/   # rerun to resume
    python3 tests/e2e/cutechess.py --chess960 200 --out target/cutechess960
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import queue
import re
import shutil
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[2]
FAIRYMAX_DEFAULT = "/usr/games/fairymax"
STOCKFISH_DEFAULT = "/usr/games/stockfish"
CHESS960 = "fischerandom"  # cutechess-cli's and XBoard's name, and the PGN's Variant tag

# cutechess-cli's own words (projects/lib/src/board/westernboard.cpp) for games that ended by
# the rules; everything else (time, disconnect, stall, illegal move, adjudication) is a fault.
NORMAL_REASONS = {
    "White mates",
    "Black mates",
    "Draw by stalemate",
    "Draw by insufficient mating material",
    "Draw by fifty moves rule",
    "Draw by 3-fold repetition",
}
RESIGNS = re.compile(r"^(White|Black) resigns$")

# Short, sound openings (checked with python-chess), so agent-against-agent games differ even
# though the agents are seeded; castling and an en-passant capture are among the moves sent.
OPENINGS = [
    "e4 e5 Nf3 Nc6 Bb5 a6",
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6",
    "d4 d5 c4 e6 Nc3 Nf6",
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6",
    "e4 e6 d4 d5 Nc3 Bb4",
    "e4 c6 d4 d5 e5 Bf5",
    "c4 e5 Nc3 Nf6 g3 d5 cxd5 Nxd5",
    "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6",
    "d4 Nf6 c4 e6 Nc3 Bb4",
    "e4 d5 exd5 Qxd5 Nc3 Qa5",
    "Nf3 d5 g3 Nf6 Bg2 e6 O-O Be7",
    "e4 e5 f4 exf4 Nf3 g5",
    "d4 f5 g3 Nf6 Bg2 g6",
    "e4 Nf6 e5 d5 exd6 exd6",
    "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4",
    "d4 d5 c4 dxc4 e4 e5",
]

# With -debug, cutechess-cli prints every line to and from an engine as "ms <name(id): text".
DEBUG_LINE = re.compile(r"^\d+ ([<>])(.+)\((\d+)\): (.*)$")
STARTED = re.compile(r"^Started game (\d+) of (\d+) \((.+) vs (.+)\)$")
FINISHED = re.compile(r"^Finished game (\d+) \((.+) vs (.+)\): (\S+) \{(.*)\}$")
TERMINATING = re.compile(r"^Terminating process of engine (.+)\((\d+)\)$")
# The tables cutechess-cli prints between and after games; nothing to check in them.
REPORT_LINE = re.compile(
    r"^(Score of |\.\.\.  |Elo difference|SPRT:|Player: |   \"|Rank |\s*\d+ .*%\s*$|Finished match|$)"
)

# What each protocol lets an engine say; AgentChess saying anything else is reported.
XBOARD_WORDS = {"feature", "move", "pong", "1-0", "0-1", "1/2-1/2", "*", "resign", "offer"}
UCI_WORDS = {"id", "option", "uciok", "readyok", "bestmove", "info"}

CONTEXT_LINES = 40  # engine traffic kept for a fault's report
CONTEXT_SHOWN = 12


@dataclass
class Engine:
    name: str
    cmd: str
    args: list[str]
    proto: str
    ours: bool
    tc: str
    limits: list[str] = field(default_factory=list)  # further cutechess engine options, e.g. depth=4


@dataclass
class Fault:
    kind: str
    engine: str
    detail: str
    context: list[str] = field(default_factory=list)

    def show(self) -> str:
        lines = [f"FAULT [{self.engine}] {self.kind}: {self.detail}"]
        lines += [f"      | {c}" for c in self.context[-CONTEXT_SHOWN:]]
        return "\n".join(lines)


@dataclass
class Game:
    white: str
    black: str
    result: str
    reason: str
    plies: int
    termination: str


# ---------------------------------------------------------------- engines and commands


def agent(binary: str, spec: str, proto: str, seed: int, tc: str) -> Engine:
    """A level ("7") goes in as --level, the way users start it; anything else as --player."""
    if spec.isdigit():
        args, label = ["--level", spec], f"level:{spec}"
    else:
        args, label = ["--player", spec], spec
    return Engine(f"{label}@{proto}", binary, args + ["--seed", str(seed)], proto, ours=True, tc=tc)


def fairymax(path: str, depth: int, tc: str) -> Engine:
    """On two busy cores Fairy-Max loses on time now and then at 2+0.02 (seen: "# times:
    real=1146 cpu=540", then "Black loses on time"; at depth 4 too, "real=418 cpu=120"). Its own
    roomy clock with a depth limit (`sd`) keeps it as fast and far from its flag, so a time
    loss in these runs is AgentChess's; it also makes Fairy-Max's moves repeatable."""
    return Engine("fairymax", path, [], "xboard", ours=False, tc=tc, limits=[f"depth={depth}"] if depth else [])


def stockfish(path: str, elo: int, tc: str) -> Engine:
    """One thread and a small hash, so two games at once fit two cores; below full strength
    (UCI_Elo, 0 for none) so AgentChess holds on and the games run long. Margins of its own, as
    Fairy-Max has its clock: at 2+0.02 with its default Move Overhead (10 ms) Stockfish 15.1
    let its clock sink to about 50 ms and lost 5 of 100 games on time on two busy cores, 3 to
    46 ms late. Its Move Overhead counts 52 times against the clock in sudden death
    (timeman.cpp), so 25 ms keeps about 300 ms back (100 left it no time to think at 2 s), and
    cutechess-cli's `timemargin` lets it be 100 ms late. AgentChess has neither, so a time loss
    here should be AgentChess's."""
    limits = ["timemargin=100", "option.Move Overhead=25", "option.Threads=1", "option.Hash=16"]
    if elo:
        limits += ["option.UCI_LimitStrength=true", f"option.UCI_Elo={elo}"]
    return Engine("stockfish", path, [], "uci", ours=False, tc=tc, limits=limits)


def xboard_features(path: str, timeout: float = 10.0) -> dict[str, str]:
    """The `feature` pairs an XBoard engine sends after `protover 2` (name=value, unquoted)."""
    try:
        proc = subprocess.run([path], input="xboard\nprotover 2\n", capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return {}
    features: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        if line.startswith("feature "):
            features.update(re.findall(r'(\w+)=("[^"]*"|\S+)', line))
    return {k: v.strip('"') for k, v in features.items()}


def plays_chess960(features: dict[str, str]) -> bool:
    """Fischer random in `variants`, and `setboard` (cutechess-cli's `edit` cannot give the start's
    castling rooks, and it warns when it falls back to it)."""
    return CHESS960 in features.get("variants", "").split(",") and features.get("setboard") == "1"


def seed_for(base: int, chunk: int, index: int) -> int:
    return (base * 1_000_003 + chunk * 1_009 + index) % (1 << 31)


def engine_options(e: Engine, stderr_file: Path) -> list[str]:
    opts = ["-engine", f"name={e.name}", f"cmd={e.cmd}", f"proto={e.proto}", f"tc={e.tc}", f"stderr={stderr_file}"]
    return opts + [f"arg={a}" for a in e.args] + e.limits


def cutechess_command(cli: str, engines: list[Engine], work: Path, tag: str, *, tournament: str,
                      games: int, concurrency: int, seed: int, openings: Optional[Path],
                      variant: Optional[str] = None) -> list[str]:
    cmd = [cli, "-tournament", tournament, "-event", f"agentchess {tag}"]
    for i, e in enumerate(engines):
        cmd += engine_options(e, work / f"{tag}.engine{i}.stderr")
    # -recover keeps the tournament going after a crash or stall, so one run lists every fault
    # instead of stopping at the first. "-debug" alone is rejected by this cutechess build
    # ("Empty value for option"); "all" also sends UCI engines `debug on`, which they must take.
    # No -each: cutechess-cli applies it after -engine, so it would override Fairy-Max's clock.
    cmd += ["-games", str(games), "-concurrency", str(concurrency),
            "-recover", "-srand", str(seed), "-pgnout", str(work / f"{tag}.pgn"), "-debug", "all"]
    if openings is not None:
        cmd += ["-openings", f"file={openings}", "format=pgn", "order=sequential", "-repeat"]
    if variant is not None:
        cmd += ["-variant", variant]
        if openings is None and variant == CHESS960:
            # A random start for each game (drawn from -srand), each played from both sides.
            cmd += ["-repeat"]
    return cmd


def write_openings(path: Path) -> Path:
    """PGN rather than EPD, so games start from the initial position with moves and Fairy-Max
    (setboard=0) is not pushed onto the edit command."""
    with path.open("w") as f:
        for i, line in enumerate(OPENINGS):
            sans = line.split()
            moves = " ".join(f"{k // 2 + 1}. {m}" if k % 2 == 0 else m for k, m in enumerate(sans))
            f.write(f'[Event "opening {i + 1}"]\n[Result "*"]\n\n{moves} *\n\n')
    return path


# ---------------------------------------------------------------- watching cutechess-cli


class Monitor:
    """Reads cutechess-cli's output line by line and collects the faults in it."""

    def __init__(self, engines: list[Engine]) -> None:
        self.engines = {e.name: e for e in engines}
        self.faults: list[Fault] = []
        self.recent: collections.deque[str] = collections.deque(maxlen=CONTEXT_LINES)
        self.expected: Optional[int] = None
        self.finished: dict[int, Game] = {}
        self.context: dict[int, list[str]] = {}  # the traffic before each abnormal end
        self.after_write = False  # a multi-line write to an engine continues on unprefixed lines

    def fault(self, kind: str, engine: str, detail: str) -> None:
        self.faults.append(Fault(kind, engine, detail, list(self.recent)))

    def stdout_line(self, line: str) -> bool:
        """Handles one stdout line; True for engine traffic (which CI logs and a soak does not)."""
        m = DEBUG_LINE.match(line)
        if m:
            self.recent.append(line)
            self.after_write = m[1] == ">"
            if m[1] == "<":
                self.engine_said(m[2], m[4])
            return True
        if self.info_line(line):
            self.after_write = False
            return False
        if self.after_write:  # e.g. XBoard's "time 202\notim 202", sent as one write
            self.recent.append(line)
            return True
        self.fault("unrecognised cutechess-cli output", "cutechess-cli", line)
        return False

    def info_line(self, line: str) -> bool:
        if m := STARTED.match(line):
            self.expected = int(m[2])
        elif m := FINISHED.match(line):
            self.game_finished(int(m[1]), m[2], m[3], m[4], m[5])
        elif m := TERMINATING.match(line):
            self.fault("process ended by cutechess-cli (a crash, a stall, or no exit after quit)", m[1], line)
        elif not REPORT_LINE.match(line):
            return False
        return True

    def stderr_line(self, line: str) -> None:
        if not line.strip():
            return
        # "Warning: PV: ..." continues the "Illegal PV move ... from X" warning before it.
        continues = line.startswith("Warning: PV:") and self.faults
        culprit = self.faults[-1].engine if continues else self.blame(line)
        self.fault("cutechess-cli warning", culprit, line)

    def blame(self, text: str) -> str:
        named = [n for n in self.engines if n in text]
        return max(named, key=len) if named else "cutechess-cli"

    def engine_said(self, name: str, text: str) -> None:
        engine = self.engines.get(name)
        if engine is None:
            return
        problem = line_problem(engine, text)
        if problem:
            self.fault(problem, name, text)

    def game_finished(self, number: int, white: str, black: str, result: str, reason: str) -> None:
        self.finished[number] = Game(white, black, result, reason, 0, "")
        if reason not in NORMAL_REASONS:
            self.context[number] = list(self.recent)


def line_problem(engine: Engine, text: str) -> Optional[str]:
    """What is wrong with a line an engine sent, if anything."""
    word = text.split()[0] if text.split() else ""
    # Fairy-Max answers `result` after its own claim with this; cutechess-cli takes it as the
    # game's end on purpose (xboardengine.cpp), so only AgentChess is held to it.
    if not engine.ours and text.startswith("Error (unknown command): result"):
        return None
    if word.startswith(("Error", "Illegal", "tellusererror")):
        return "engine reports an error"
    if not engine.ours:
        return None  # other engines' chatter (Fairy-Max's "# ..." and "tellics") is their style
    if engine.proto == "uci":
        if word == "info" and text.split()[1:2] == ["string"]:
            return "AgentChess info string (it sends these for input it could not read)"
        return None if word in UCI_WORDS else "line UCI does not define"
    if word in XBOARD_WORDS or word[:1].isdigit():
        return None
    return "line XBoard does not define"


def reason_problem(reason: str, white: str, black: str, result: str, engines: dict[str, Engine],
                   plies: Optional[int] = None) -> Optional[tuple[str, str]]:
    """(fault kind, culprit) for a game that did not end by the rules. A draw by timeout (the
    flag fell but the other side cannot mate) names no side: it is the side to move."""
    if reason in NORMAL_REASONS:
        return None
    side = reason.split()[0] if reason.split() and reason.split()[0] in ("White", "Black") else None
    if reason == "Draw by timeout" and plies is not None:
        side = "White" if plies % 2 == 0 else "Black"
    if m := RESIGNS.match(reason):
        culprit = white if m[1] == "White" else black
        ours = engines.get(culprit) is not None and engines[culprit].ours
        return ("AgentChess resigned (it never resigns: a misread result claim?)", culprit) if ours else None
    if result == "1-0":
        culprit = black
    elif result == "0-1":
        culprit = white
    elif side:
        culprit = white if side == "White" else black
    else:
        culprit = f"{white} or {black}"
    return (f"abnormal end: {reason}", culprit)


def pump(stream, tag: str, lines: queue.Queue) -> None:
    for line in stream:
        lines.put((tag, line.rstrip("\r\n")))
    lines.put((tag, None))


def follow(lines: queue.Queue, monitor: Monitor, log, stall: float, log_traffic: bool, kill) -> None:
    open_streams = 2
    while open_streams:
        try:
            tag, line = lines.get(timeout=stall)
        except queue.Empty:
            monitor.fault("stall", "cutechess-cli", f"no output for {stall:.0f} s; killed the run")
            kill()
            stall = 3600.0
            continue
        if line is None:
            open_streams -= 1
        elif tag == "err":
            log.write(f"stderr: {line}\n")
            monitor.stderr_line(line)
        else:
            traffic = monitor.stdout_line(line)
            if log_traffic or not traffic:
                log.write(line + "\n")


def run_cutechess(cmd: list[str], monitor: Monitor, log_path: Path, stall: float, log_traffic: bool) -> float:
    """Runs cutechess-cli to the end (or kills it after `stall` silent seconds); its seconds."""
    started = time.monotonic()
    # A session of its own, so a hung run is ended with its engines and nothing else.
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, errors="replace", start_new_session=True)
    lines: queue.Queue = queue.Queue()
    for stream, tag in ((proc.stdout, "out"), (proc.stderr, "err")):
        threading.Thread(target=pump, args=(stream, tag, lines), daemon=True).start()
    try:
        with log_path.open("w") as log:
            log.write("$ " + shlex.join(cmd) + "\n")  # quoted: "option.Move Overhead=25"
            follow(lines, monitor, log, stall, log_traffic, lambda: os.killpg(proc.pid, signal.SIGKILL))
        rc = proc.wait()
    except BaseException:
        # Interrupted (Ctrl-C, SIGTERM): its own session would otherwise outlive us.
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    if rc != 0:
        monitor.fault("cutechess-cli exit status", "cutechess-cli", f"exit status {rc}")
    return time.monotonic() - started


# ---------------------------------------------------------------- the PGN


TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
COMMENT = re.compile(r"\{([^}]*)\}")


def read_pgn(path: Path) -> list[tuple[dict, str]]:
    """(tags, movetext) per game; cutechess-cli writes tags first, then the movetext."""
    games, tags, text = [], {}, []
    if not path.exists():
        return games
    for line in path.read_text(errors="replace").splitlines():
        m = TAG.match(line)
        if m and text:
            games.append((tags, " ".join(text)))
            tags, text = {}, []
        if m:
            tags[m[1]] = m[2]
        elif line.strip():
            text.append(line.strip())
    if tags:
        games.append((tags, " ".join(text)))
    return games


def game_from_pgn(tags: dict, movetext: str) -> Game:
    """The result's description is the end of the last comment (", White mates")."""
    comments = COMMENT.findall(movetext)
    reason = comments[-1].split(", ")[-1] if comments else ""
    return Game(tags.get("White", "?"), tags.get("Black", "?"), tags.get("Result", "?"), reason,
                int(tags.get("PlyCount", "0") or 0), tags.get("Termination", ""))


def judge_games(monitor: Monitor, games: list[Game]) -> None:
    """One fault per game that did not end by the rules, from cutechess-cli's account of it;
    the PGN adds the side to move and is itself held to a normal Termination."""
    for number, said in sorted(monitor.finished.items()):
        plies = games[number - 1].plies if number <= len(games) else None
        if problem := reason_problem(said.reason, said.white, said.black, said.result, monitor.engines, plies):
            where = f"game {number} ({said.white} vs {said.black}): {said.result} {{{said.reason}}}, {plies} plies"
            monitor.faults.append(Fault(problem[0], problem[1], where, monitor.context.get(number, [])))
    for i, g in enumerate(games, 1):
        said = monitor.finished.get(i)
        if said is not None and said.reason not in NORMAL_REASONS:
            continue  # reported above
        abnormal = reason_problem(g.reason, g.white, g.black, g.result, monitor.engines, g.plies)
        if g.termination or g.result not in ("1-0", "0-1", "1/2-1/2") or abnormal:
            where = f"PGN game {i} ({g.white} vs {g.black}): {g.result} {{{g.reason}}}"
            monitor.faults.append(Fault(f"PGN: no normal end (Termination '{g.termination}')",
                                        f"{g.white} or {g.black}", where))


def replay(path: Path, chess960: bool = False) -> list[str]:
    """python-chess's opinion of every game: legal moves, and a final position that fits. With
    `chess960` every game must be a Chess960 one (see replay_chess960)."""
    import chess.pgn

    problems = []
    with path.open() as f:
        number = 0
        while (game := chess.pgn.read_game(f)) is not None:
            number += 1
            problem = replay_problem(game, game.end().comment.split(", ")[-1], chess960)
            if problem:
                who = f"{game.headers['White']} vs {game.headers['Black']}"
                problems.append(f"PGN game {number} ({who}): {problem}")
    return problems


def replay_problem(game, reason: str, chess960: bool = False) -> Optional[str]:
    if game.errors:
        return f"python-chess cannot replay it: {game.errors[0]}"
    if chess960 or game.headers.is_chess960():
        board, problem = replay_chess960(game)
        if board is None:
            return problem
    else:
        board = game.end().board()
    fits = {
        "White mates": lambda: board.is_checkmate() and board.turn is False,
        "Black mates": lambda: board.is_checkmate() and board.turn is True,
        "Draw by stalemate": board.is_stalemate,
        "Draw by insufficient mating material": board.is_insufficient_material,
        "Draw by fifty moves rule": lambda: board.halfmove_clock >= 100,
        "Draw by 3-fold repetition": lambda: board.is_repetition(3),
    }
    if reason in fits and not fits[reason]():
        return f"final position does not fit '{reason}' (FEN {board.fen()})"
    return None


def replay_chess960(game):
    """(final board, None) or (None, problem) for a Chess960 game, replayed on
    `chess.Board(FEN, chess960=True)`: cutechess-cli's Variant tag (python-chess reads the
    movetext by it, castling as O-O/O-O-O) and a FEN tag holding a Chess960 start, with every
    move legal there in Chess960's rules."""
    import chess

    variant = game.headers.get("Variant", "")
    if not game.headers.is_chess960():
        return None, f"Variant tag '{variant}', not a Chess960 one ({CHESS960})"
    fen = game.headers.get("FEN", "")
    try:
        board = chess.Board(fen, chess960=True)
    except ValueError as err:
        return None, f"FEN tag '{fen}': {err}"
    if board.chess960_pos() is None:
        return None, f"FEN tag '{fen}' is not a Chess960 start"
    for ply, move in enumerate(game.mainline_moves(), 1):
        if move not in board.legal_moves:
            return None, f"ply {ply}: {move.uci()} is not legal in {board.fen()} (Chess960)"
        board.push(move)
    return board, None


def have_python_chess() -> bool:
    try:
        import chess.pgn  # noqa: F401
    except ImportError:
        return False
    return True


def replay_all(paths: list[Path], chess960: bool = False) -> tuple[list[Fault], str]:
    if not have_python_chess():
        return [], "PGN replay: python-chess not installed, skipped"
    faults = [Fault("PGN replay", "python-chess", problem) for p in paths for problem in replay(p, chess960)]
    return faults, f"PGN replay with python-chess: {len(faults)} disagreements"


def cross_check(monitor: Monitor, games: list[Game], tag: str) -> None:
    """cutechess-cli's own account, its PGN and the schedule must agree on every game."""
    expected = monitor.expected or 0
    if len(monitor.finished) != expected or len(games) != expected:
        monitor.fault("missing games", "cutechess-cli",
                      f"{tag}: scheduled {expected}, finished {len(monitor.finished)}, in the PGN {len(games)}")
    for number, g in monitor.finished.items():
        if number <= len(games) and games[number - 1].reason != g.reason:
            monitor.fault("PGN disagrees", "cutechess-cli",
                          f"{tag} game {number}: output '{g.reason}', PGN '{games[number - 1].reason}'")


def stderr_faults(work: Path, tag: str, engines: list[Engine], monitor: Monitor) -> None:
    for i, e in enumerate(engines):
        path = work / f"{tag}.engine{i}.stderr"
        text = path.read_text(errors="replace").strip() if path.exists() else ""
        if not text:
            path.unlink(missing_ok=True)  # a soak would leave thousands of empty files
        else:
            first = text.splitlines()[:5]
            monitor.faults.append(Fault("engine stderr", e.name, f"{path}: " + " / ".join(first)))


# ---------------------------------------------------------------- one run, start to end


@dataclass
class RunReport:
    tag: str
    games: list[Game]
    faults: list[Fault]
    seconds: float
    command: list[str]


def play(cli: str, engines: list[Engine], work: Path, tag: str, args: argparse.Namespace, *, tournament: str,
         games: int, seed: int, openings: Optional[Path], log_traffic: bool,
         variant: Optional[str] = None) -> RunReport:
    cmd = cutechess_command(cli, engines, work, tag, tournament=tournament, games=games,
                            concurrency=args.concurrency, seed=seed, openings=openings, variant=variant)
    # cutechess-cli appends to the PGN and stderr files: a rerun (or a resumed chunk) starts clean.
    for old in work.glob(f"{tag}.*"):
        old.unlink()
    monitor = Monitor(engines)
    seconds = run_cutechess(cmd, monitor, work / f"{tag}.log", args.stall_timeout, log_traffic)
    pgn_games = [game_from_pgn(t, m) for t, m in read_pgn(work / f"{tag}.pgn")]
    judge_games(monitor, pgn_games)
    cross_check(monitor, pgn_games, tag)
    stderr_faults(work, tag, engines, monitor)
    return RunReport(tag, pgn_games, monitor.faults, seconds, cmd)


# ---------------------------------------------------------------- summaries


def tally(games: list[Game], order: list[str], key=lambda name: name) -> dict:
    """W/L/D per pairing, from the point of view of the player named first in `order`."""
    rank = {n: i for i, n in enumerate(order)}
    table: dict = collections.defaultdict(lambda: [0, 0, 0])
    for g in games:
        w, b = key(g.white), key(g.black)
        first, second = (w, b) if rank.get(w, 99) <= rank.get(b, 99) else (b, w)
        winner = {"1-0": w, "0-1": b}.get(g.result)
        column = 0 if winner == first else 1 if winner == second else 2
        table[(first, second)][column] += 1
    return dict(sorted(table.items(), key=lambda kv: (rank.get(kv[0][0], 99), rank.get(kv[0][1], 99))))


def print_tally(table: dict) -> None:
    print(f"  {'pairing':52s} {'W':>5s} {'L':>5s} {'D':>5s}   (W/L for the first named)")
    for (a, b), (w, l, d) in table.items():
        print(f"  {a + ' - ' + b:52s} {w:5d} {l:5d} {d:5d}")


def print_reasons(games: list[Game]) -> None:
    print("  result reasons:")
    for reason, n in collections.Counter(g.reason for g in games).most_common():
        print(f"  {n:6d}  {reason}")


def print_faults(faults: list[Fault]) -> None:
    if not faults:
        print("0 faults")
        return
    by_engine = collections.Counter(f.engine for f in faults)
    print(f"{len(faults)} faults (" + ", ".join(f"{e}: {n}" for e, n in by_engine.most_common()) + ")")
    for f in faults:
        print(f.show())


# ---------------------------------------------------------------- CI mode


def ci(args: argparse.Namespace, cli: str, work: Path) -> int:
    levels = [str(n) for n in args.levels]
    extra = [s for s in args.uci_extra.split(",") if s]
    xb = [fairymax(args.fairymax, args.fairymax_depth, args.fairymax_tc)]
    xb += [agent(args.engine, lv, "xboard", seed_for(args.seed, 0, i), args.tc) for i, lv in enumerate(levels)]
    uci = [agent(args.engine, s, "uci", seed_for(args.seed, 1, i), args.tc) for i, s in enumerate(levels + extra)]
    openings = write_openings(work / "openings.pgn")
    runs = []
    for tag, engines, tournament, games, ops, what in (
        ("xboard", xb, "gauntlet", args.xboard_games, None, "Fairy-Max against each level over XBoard"),
        ("uci", uci, "round-robin", args.uci_games, openings, "round robin over UCI, from the openings"),
    ):
        print(f"== cutechess-cli: {what}: {', '.join(e.name for e in engines)}", flush=True)
        run = play(cli, engines, work, tag, args, tournament=tournament, games=games, seed=args.seed,
                   openings=ops, log_traffic=True)
        print(f"   {len(run.games)} games in {run.seconds:.1f} s, {len(run.faults)} faults; "
              f"log {work / (tag + '.log')}", flush=True)
        runs.append((run, [e.name for e in engines]))
    replay_faults, replay_note = replay_all([work / "xboard.pgn", work / "uci.pgn"])
    return ci_summary(runs, replay_faults, replay_note)


def ci_summary(runs: list, replay_faults: list[Fault], replay_note: str, extra: tuple[str, ...] = ()) -> int:
    games = [g for run, _ in runs for g in run.games]
    seconds = sum(run.seconds for run, _ in runs)
    faults = [f for run, _ in runs for f in run.faults] + replay_faults
    print(f"\n== summary: {len(games)} games in {seconds:.0f} s ({seconds / max(len(games), 1):.2f} s a game)")
    for run, order in runs:
        print(f"  {run.tag}:")
        print_tally(tally(run.games, order))
    print_reasons(games)
    print("  " + replay_note)
    for line in extra:
        print("  " + line)
    print_faults(faults)
    return 1 if faults else 0


# ---------------------------------------------------------------- Chess960 mode


def chess960(args: argparse.Namespace, cli: str, work: Path) -> int:
    if args.chess960 % 4:
        print("error: --chess960 takes a multiple of 4 (two pairings, each start played from both sides)",
              file=sys.stderr)
        return 2
    half, player = args.chess960 // 2, args.chess960_player
    features = xboard_features(args.fairymax)
    if plays_chess960(features):
        opponent = fairymax(args.fairymax, args.fairymax_depth, args.fairymax_tc)
    else:
        opponent = agent(args.engine, player, "uci", seed_for(args.seed, 3, 1), args.tc)
        variants = [v for v in features.get("variants", "").split(",") if v]
        print(f"{features.get('myname', args.fairymax)} does not play {CHESS960} ({len(variants)} variants, "
              f"{CHESS960} not among them; setboard={features.get('setboard', '?')}): AgentChess over XBoard "
              f"plays AgentChess over UCI instead", flush=True)
    pairings = (
        ("chess960-uci", [agent(args.engine, player, "uci", seed_for(args.seed, 2, 0), args.tc),
                          stockfish(args.stockfish, args.stockfish_elo, args.tc)]),
        ("chess960-xboard", [agent(args.engine, player, "xboard", seed_for(args.seed, 3, 0), args.tc), opponent]),
    )
    runs = []
    for k, (tag, engines) in enumerate(pairings):
        print(f"== cutechess-cli: Chess960 ({CHESS960}), {half} games from random starts, each from both "
              f"sides: {' vs '.join(e.name for e in engines)}", flush=True)
        # -srand differs between the pairings, so they play different starts.
        run = play(cli, engines, work, tag, args, tournament="round-robin", games=half,
                   seed=seed_for(args.seed, 2 + k, 99), openings=None, log_traffic=True, variant=CHESS960)
        print(f"   {len(run.games)} games in {run.seconds:.1f} s, {len(run.faults)} faults; "
              f"log {work / (tag + '.log')}", flush=True)
        runs.append((run, [e.name for e in engines]))
    paths = [work / f"{tag}.pgn" for tag, _ in pairings]
    replay_faults, replay_note = replay_all(paths, chess960=True)
    clocks = {e.name: e.tc for _, engines in pairings for e in engines}
    lines, start_faults = chess960_report(paths, clocks) if have_python_chess() else ([], [])
    faults = [f for run, _ in runs for f in run.faults] + replay_faults + start_faults
    ours = {e.name for _, engines in pairings for e in engines if e.ours}
    lines += fault_kinds(faults, ours)
    return ci_summary(runs, replay_faults + start_faults, replay_note, tuple(lines))


def chess960_report(paths: list[Path], clocks: dict[str, str]) -> tuple[list[str], list[Fault]]:
    """Report lines (the starts, each player's castlings and the least it had left on its clock
    after a move, from the move times in the PGN) and a fault for each pair of games,
    the 1st and 2nd, 3rd and 4th, ..., that is not one start played with the colours swapped, as
    -repeat plays them (the PGN holds the games in their numbers' order). Starts are drawn
    afresh for each pair, so two pairs may share one (50 draws from 960 do more often than not)."""
    import chess.pgn

    lines, faults = [], []
    for path in paths:
        played: list[tuple[str, str, str]] = []  # (FEN, White, Black) in game order
        castlings: collections.Counter = collections.Counter()
        least: dict[str, float] = {}  # seconds left on a player's clock after its move, at least
        with path.open() as f:
            while (game := chess.pgn.read_game(f)) is not None:
                white, black = game.headers.get("White", "?"), game.headers.get("Black", "?")
                played.append((game.headers.get("FEN", ""), white, black))
                castlings.update({white: 0, black: 0})
                board = game.board()
                left = {name: clock_start(clocks.get(name, "")) for name in (white, black)}
                for node in game.mainline():
                    mover = white if board.turn else black
                    if board.is_castling(node.move):
                        castlings[mover] += 1
                    spent = MOVE_TIME.search(node.comment)
                    if left[mover] is not None and spent:
                        base, inc = left[mover]
                        left[mover] = (base - float(spent[1]) + inc, inc)
                        least[mover] = min(least.get(mover, math.inf), base - float(spent[1]) + inc)
                    board.push(node.move)
        for k in range(0, len(played), 2):
            pair = played[k:k + 2]
            if len(pair) != 2 or pair[0][0] != pair[1][0] or pair[0][1:] != pair[1][:0:-1]:
                faults.append(Fault("Chess960 start not played once from each side", "cutechess-cli",
                                    f"{path.name} games {k + 1}-{k + len(pair)}: {pair}"))
        lines.append(f"{path.stem}: {len(played)} games, {len(played) // 2} pairs from "
                     f"{len({fen for fen, _, _ in played})} different Chess960 starts; castlings: "
                     + ", ".join(f"{name} {n}" for name, n in castlings.most_common())
                     + "; least left on a clock after a move (increment added): "
                     + ", ".join(f"{name} {1000 * t:.0f} ms" for name, t in sorted(least.items())))
    return lines, faults


MOVE_TIME = re.compile(r"(?:^| )(\d+(?:\.\d+)?)s(?:,|$)")  # cutechess-cli's "+0.25/9 0.074s" comment


def clock_start(tc: str) -> Optional[tuple[float, float]]:
    """(seconds, increment) of a cutechess-cli sudden-death tc, "2+0.02"; None for another kind."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", tc)
    return (float(m[1]), float(m[2] or 0)) if m else None


def fault_kinds(faults: list[Fault], ours: set[str]) -> list[str]:
    """The faults by kind, AgentChess's apart (a fault naming "A or B" counts as AgentChess's
    when either is)."""
    mine = collections.Counter(category(f) for f in faults if any(n in ours for n in f.engine.split(" or ")))
    others = collections.Counter(category(f) for f in faults if not any(n in ours for n in f.engine.split(" or ")))
    kinds = ("illegal moves", "time forfeits", "stalls", "crashes", "engines ended", "other faults")
    return [f"faults by {who}: " + ", ".join(f"{k} {c[k]}" for k in kinds)
            for who, c in (("AgentChess", mine), ("the others (opponents, cutechess-cli, python-chess)", others))]


# ---------------------------------------------------------------- soak mode


def soak_engines(args: argparse.Namespace, chunk: int) -> list[Engine]:
    specs = [str(n) for n in args.levels] + [s for s in args.soak_players.split(",") if s]
    protos = ("xboard", "uci")
    engines = [agent(args.engine, s, protos[(i + chunk // 2) % 2], seed_for(args.seed, chunk, i), args.tc)
               for i, s in enumerate(specs)]
    return engines + [fairymax(args.fairymax, args.fairymax_depth, args.fairymax_tc)]


def soak_config(args: argparse.Namespace) -> dict:
    """What a resumed soak must share with the run it continues."""
    return {"engine": str(Path(args.engine).resolve()), "levels": args.levels, "players": args.soak_players,
            "tc": args.tc, "fairymax": [args.fairymax_depth, args.fairymax_tc],
            "games_per_pairing": args.soak_pairing_games,
            "seed": args.seed, "concurrency": args.concurrency}


def open_state(state: Path, config: dict) -> None:
    state.mkdir(parents=True, exist_ok=True)
    path = state / "config.json"
    if path.exists():
        old = json.loads(path.read_text())
        if old != config:
            raise SystemExit(f"{state} holds a soak with other settings ({old}); use another --state")
    else:
        path.write_text(json.dumps(config, indent=1))


def run_chunk(args: argparse.Namespace, cli: str, state: Path, chunk: int, openings: Path) -> dict:
    engines = soak_engines(args, chunk)
    tag = f"chunk-{chunk:05d}"
    run = play(cli, engines, state, tag, args, tournament="round-robin", games=args.soak_pairing_games,
               seed=seed_for(args.seed, chunk, 99), openings=openings if chunk % 2 else None,
               log_traffic=args.transcript)
    replay_faults, _ = replay_all([state / f"{tag}.pgn"])
    record = {"chunk": chunk, "seconds": run.seconds, "command": run.command,
              "games": [asdict(g) for g in run.games], "faults": [asdict(f) for f in run.faults + replay_faults]}
    tmp = state / f"{tag}.json.tmp"
    tmp.write_text(json.dumps(record))
    tmp.replace(state / f"{tag}.json")  # a chunk counts as done only once its record is whole
    return record


def soak(args: argparse.Namespace, cli: str) -> int:
    state = Path(args.state)
    open_state(state, soak_config(args))
    openings = write_openings(state / "openings.pgn")
    players = len(soak_engines(args, 0))
    per_chunk = players * (players - 1) // 2 * args.soak_pairing_games
    chunks = math.ceil(args.games / per_chunk)
    print(f"soak: {chunks} chunks of {per_chunk} games ({players} players, round robin), state in {state}",
          flush=True)
    records, started, fresh_games = [], time.monotonic(), 0
    for k in range(chunks):
        done = state / f"chunk-{k:05d}.json"
        if done.exists():  # resuming: finished chunks count, unfinished ones are played again
            records.append(json.loads(done.read_text()))
            continue
        records.append(run_chunk(args, cli, state, k, openings))
        fresh_games += len(records[-1]["games"])
        print_progress(records, k, chunks, per_chunk, fresh_games, time.monotonic() - started)
    return soak_summary(records, args)


def print_progress(records: list, k: int, chunks: int, per_chunk: int, fresh_games: int, elapsed: float) -> None:
    """Wall time, replay and bookkeeping included, so the estimate is what waiting will cost."""
    played = sum(len(r["games"]) for r in records)
    faults = sum(len(r["faults"]) for r in records)
    per_game = elapsed / max(fresh_games, 1)
    left = (chunks - k - 1) * per_chunk * per_game
    print(f"chunk {k + 1}/{chunks}: {played} games, {faults} faults, {per_game:.3f} s a game, "
          f"elapsed {clock(elapsed)}, about {clock(left)} left", flush=True)
    for f in records[-1]["faults"]:
        print(Fault(**f).show(), flush=True)


def category(f: Fault) -> str:
    """The soak's headline counts, in cutechess-cli's words (projects/lib/src/board/result.cpp)."""
    text = f"{f.kind} {f.detail}".lower()
    # "engines ended" first: that fault's own words ("a crash, a stall, or no exit after quit")
    # would otherwise count it among the stalls.
    for name, words in (("engines ended", ("process ended",)),
                        ("illegal moves", ("illegal move",)), ("time forfeits", ("on time", "timeout")),
                        ("stalls", ("stall", "no response to ping")),
                        ("crashes", ("disconnect", "exit status", "not started in time"))):
        if any(w in text for w in words):
            return name
    return "other faults"


def clock(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def soak_summary(records: list, args: argparse.Namespace) -> int:
    games = [Game(**g) for r in records for g in r["games"]]
    faults = [Fault(**f) for r in records for f in r["faults"]]
    seconds = sum(r["seconds"] for r in records)
    spec = lambda name: name.split("@")[0]  # noqa: E731 - both protocols' games count together
    order = [f"level:{n}" for n in args.levels] + [s for s in args.soak_players.split(",") if s] + ["fairymax"]
    print(f"\n== soak summary: {len(games)} games in {len(records)} chunks, {seconds:.0f} s of play "
          f"({seconds / max(len(games), 1):.3f} s a game at concurrency {args.concurrency})")
    print_tally(tally(games, order, key=spec))
    print_reasons(games)
    print("  PGN replay with python-chess: " + ("every game" if have_python_chess() else "skipped, not installed"))
    categories = collections.Counter(category(f) for f in faults)
    for name in ("illegal moves", "time forfeits", "stalls", "crashes", "engines ended", "other faults"):
        print(f"  {name:14s} {categories[name]}")
    print_faults(faults)
    return 1 if faults else 0


# ---------------------------------------------------------------- setup


def parse_levels(text: str) -> list[int]:
    """"1-8", "1,3,5-8"."""
    levels: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        levels += range(int(lo), int(hi or lo) + 1)
    return levels


def find_cutechess(given: Optional[str]) -> Optional[str]:
    """A path the caller names is the one used or none: a typo must not pick up another build."""
    candidate = given or os.environ.get("CUTECHESS") or shutil.which("cutechess-cli")
    return candidate if candidate and os.access(candidate, os.X_OK) else None


def preflight(binary: str, specs: list[str]) -> Optional[str]:
    """An engine that refuses its arguments fails at once with a plain message, rather than as
    a stream of disconnects (e.g. --levels 1-11, a level that does not exist)."""
    for spec in specs:
        cmd = [binary] + agent(binary, spec, "xboard", 1, "").args
        try:
            proc = subprocess.run(cmd, input="quit\n", capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired) as err:
            return f"{' '.join(cmd)}: {err}"
        if proc.returncode != 0 or proc.stderr.strip():
            first = (proc.stderr.strip().splitlines() or [""])[0]
            return f"{' '.join(cmd)} exits {proc.returncode}: {first}"
    return None


def arguments() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.environ.get("AGENTCHESS", str(ROOT / "target/release/agentchess")),
                    help="agentchess binary (default: $AGENTCHESS, then target/release/agentchess)")
    ap.add_argument("--cutechess", help="cutechess-cli (default: $CUTECHESS, then PATH)")
    ap.add_argument("--fairymax", default=shutil.which("fairymax") or FAIRYMAX_DEFAULT)
    ap.add_argument("--fairymax-depth", type=int, default=4, help="Fairy-Max's depth limit (0: clock only)")
    ap.add_argument("--fairymax-tc", default="20+0.2", help="Fairy-Max's clock (the agents play on --tc)")
    ap.add_argument("--allow-skip", action="store_true", help="exit 0 when cutechess-cli is not available")
    ap.add_argument("--levels", type=parse_levels, default=parse_levels("1-10"), help="e.g. 1-8, 1-9, 1,3,5-8")
    ap.add_argument("--xboard-games", type=int, default=16, help="games of each level against Fairy-Max")
    ap.add_argument("--uci-games", type=int, default=2, help="games per pairing in the UCI round robin")
    ap.add_argument("--uci-extra", default="search:depth=2", help="players beside the levels over UCI")
    ap.add_argument("--tc", default="2+0.02", help="the agents' clock, cutechess-cli's moves/time+increment")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stall-timeout", type=float, default=120.0, help="seconds of silence before a run is killed")
    ap.add_argument("--out", help="directory for PGNs and logs (default: a fresh temporary one, kept)")
    ap.add_argument("--soak", action="store_true")
    ap.add_argument("--games", type=int, default=10000, help="soak: games in all (whole chunks)")
    ap.add_argument("--state", default="cutechess-soak", help="soak: directory to keep and resume from")
    ap.add_argument("--soak-players", default="search:depth=1,search:depth=2", help="soak: players beside the levels")
    ap.add_argument("--soak-pairing-games", type=int, default=2, help="soak: games per pairing in each chunk")
    ap.add_argument("--transcript", action="store_true", help="soak: log all engine traffic too")
    ap.add_argument("--chess960", type=int, default=0, metavar="GAMES",
                    help="Chess960 mode: GAMES (a multiple of 4) in all, half against Stockfish over UCI, "
                         "half over XBoard (see above)")
    ap.add_argument("--chess960-player", default="10", help="Chess960: AgentChess's level or player spec")
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or STOCKFISH_DEFAULT)
    ap.add_argument("--stockfish-elo", type=int, default=2000, help="Chess960: Stockfish's UCI_Elo (0: full strength)")
    return ap.parse_args()


def main() -> int:
    args = arguments()
    # SIGTERM (CI timeouts) unwinds like Ctrl-C, so a running cutechess-cli is ended too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    cli = find_cutechess(args.cutechess)
    if cli is None:
        if args.allow_skip:
            print("skipped: cutechess-cli not available (give --cutechess PATH or CUTECHESS)")
            return 0
        print("error: cutechess-cli not available (give --cutechess PATH or CUTECHESS, "
              "or --allow-skip)", file=sys.stderr)
        return 2
    needed = [("agentchess", args.engine), ("fairymax", args.fairymax)]
    needed += [("stockfish", args.stockfish)] if args.chess960 else []
    for what, path in needed:
        if not os.access(path, os.X_OK):
            print(f"error: {what} not found at {path}", file=sys.stderr)
            return 2
    extra = args.soak_players if args.soak else args.uci_extra
    specs = [str(n) for n in args.levels] + [s for s in extra.split(",") if s]
    if args.chess960:
        specs = [args.chess960_player]
    if problem := preflight(args.engine, specs):
        print(f"error: {problem}", file=sys.stderr)
        return 2
    print(f"agentchess {args.engine} (tc {args.tc}), fairymax {args.fairymax} (depth {args.fairymax_depth}, "
          f"tc {args.fairymax_tc}), cutechess-cli {cli}, concurrency {args.concurrency}, seed {args.seed}",
          flush=True)
    if args.soak:
        return soak(args, cli)
    work = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="agentchess-cutechess-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.chess960:
        print(f"stockfish {args.stockfish} (Threads 1, Hash 16, UCI_Elo {args.stockfish_elo or 'off'}), "
              f"AgentChess as {args.chess960_player}", flush=True)
        return chess960(args, cli, work)
    return ci(args, cli, work)


if __name__ == "__main__":
    sys.exit(main())

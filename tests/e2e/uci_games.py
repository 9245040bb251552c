#!/usr/bin/env python3
"""AgentChess through python-chess's UCI client: the path tools that speak only UCI take.

Plays seeded games between two AgentChess processes in UCI mode (a level against the searcher),
with real clocks, and checks every move is legal, every game ends by the rules or the ply cap,
options set through `setoption` take effect, and `go depth` analysis returns a score and a
legal principal variation. Any complaint of an engine fails the run too: a warning python-chess
logs about it, a line on its stderr at warning level or above, a player fault it reports
(harness.py says which).

    python3 tests/e2e/uci_games.py [--games 4] [--base 2] [--inc 0.05]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import chess
import chess.engine

import harness

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("AGENTCHESS", ROOT / "target" / "release" / "agentchess"))
PLY_CAP = 400


def start(*args: str) -> chess.engine.SimpleEngine:
    return chess.engine.SimpleEngine.popen_uci([str(BINARY), "--seed", "1", *args], env=harness.engine_env())


def complaints(engine: chess.engine.SimpleEngine, label: str) -> list[str]:
    """What the engine complained about since the last call (see harness.LineLog)."""
    return [f"{label}: {w}" for w in harness.LOG.take_warnings(engine.protocol)]


def play(white: chess.engine.SimpleEngine, black: chess.engine.SimpleEngine, base: float, inc: float, game: int) -> tuple[str, list[str]]:
    """One game with clocks kept here; returns the result and the problems seen. A new `game`
    key makes python-chess send `ucinewgame`."""
    board = chess.Board()
    clocks = {chess.WHITE: base, chess.BLACK: base}
    problems: list[str] = []
    while not board.is_game_over(claim_draw=True) and board.ply() < PLY_CAP:
        engine = white if board.turn == chess.WHITE else black
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        started = time.monotonic()
        result = engine.play(board, limit, game=game)
        spent = time.monotonic() - started
        clocks[board.turn] -= spent
        if clocks[board.turn] < 0:
            problems.append(f"{'white' if board.turn else 'black'} lost on time at ply {board.ply()}")
            return ("0-1" if board.turn == chess.WHITE else "1-0"), problems
        clocks[board.turn] += inc
        if result.move is None or result.move not in board.legal_moves:
            problems.append(f"illegal or no move {result.move} in {board.fen()}")
            return "*", problems
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return (outcome.result() if outcome else "1/2-1/2"), problems


def check_analysis(problems: list[str]) -> None:
    """`go depth 3` for the searcher: depth 3, a centipawn or mate score, a legal line."""
    with start("--player", "search:depth=4") as engine:
        board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        if info.get("depth") != 3:
            problems.append(f"analysis depth {info.get('depth')}, wanted 3")
        if "score" not in info:
            problems.append("analysis without a score")
        pv = info.get("pv") or []
        probe = board.copy()
        for move in pv:
            if move not in probe.legal_moves:
                problems.append(f"illegal pv move {move} in {probe.fen()}")
                break
            probe.push(move)
        if len(pv) < 2:
            problems.append(f"searcher pv too short: {pv}")
        mate = chess.Board("7k/8/5K2/8/8/8/8/1R6 w - - 0 1")
        info = engine.analyse(mate, chess.engine.Limit(depth=3))
        if info["score"].white() != chess.engine.Mate(2):
            problems.append(f"mate in 2 reported as {info['score']}")
        problems += complaints(engine, "analysis")


def check_options(problems: list[str]) -> None:
    """The Level option must change the player: the queen is attacked by the knight; level 4
    takes a pawn with it (Qxb2), level 5 and up answer with the attack request dxc6."""
    board = chess.Board("7k/6pp/2n5/3P4/3Q4/8/1p6/6K1 w - - 0 1")
    with start("--level", "4") as engine:
        if "Level" not in engine.options:
            problems.append("no Level option")
            return
        before = engine.play(board, chess.engine.Limit(time=0.1)).move
        engine.configure({"Level": 7})
        l7 = engine.play(board, chess.engine.Limit(time=0.1)).move
        if (before, l7) != (chess.Move.from_uci("d4b2"), chess.Move.from_uci("d5c6")):
            problems.append(f"level 4 then 7 played {before}, {l7}; expected d4b2, d5c6")
        # The searcher is told apart from the agents by its depth: 2 plies, where an agent says 1.
        engine.configure({"Player": "search:depth=2"})
        played = engine.play(board, chess.engine.Limit(time=0.5), info=chess.engine.INFO_BASIC)
        if played.move not in board.legal_moves or played.info.get("depth") != 2:
            problems.append(f"searcher via option played {played.move} at depth {played.info.get('depth')}; expected depth 2")
        problems += complaints(engine, "options")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--base", type=float, default=2.0, help="seconds per game per side")
    ap.add_argument("--inc", type=float, default=0.05)
    args = ap.parse_args()
    if not BINARY.exists():
        raise SystemExit(f"{BINARY} not found: run `cargo build --release` first (or set AGENTCHESS)")

    problems: list[str] = []
    results: dict[str, int] = {}
    with start("--level", "7") as agents, start("--player", "search:depth=2") as searcher:
        for i in range(args.games):
            white, black = (agents, searcher) if i % 2 == 0 else (searcher, agents)
            result, seen = play(white, black, args.base, args.inc, game=i)
            names = ("L7", "search d2") if i % 2 == 0 else ("search d2", "L7")
            print(f"  game {i + 1}: {names[0]} - {names[1]} {result}" + (f"  {seen}" if seen else ""))
            results[result] = results.get(result, 0) + 1
            problems += seen + complaints(agents, f"game {i + 1} L7") + complaints(searcher, f"game {i + 1} search d2")
    check_analysis(problems)
    check_options(problems)
    # Every engine here is ours and has quit: whatever is left was said on the way out.
    problems += [f"after quitting: {w}" for w in harness.LOG.take_all_warnings()]
    print(f"{args.games} UCI games {results}; analysis and options checked; {len(problems)} problems")
    harness.print_problems(problems, "  problem: ")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Check: the engine answers `isready` and `ping` while it searches, and `memory` at once.

Over UCI, `isready` during `go infinite`, `go ponder` and `go movetime` (level 10, from several
positions): `readyok` must come while the search goes on, that is before any `bestmove` and
with more thinking after it. Over XBoard, `ping` during `analyze` and while pondering (`hard`):
`pong` must come with the analysis still running. Then `memory 4096` followed by `ping` (the
table is taken and zeroed before the answer, as Stockfish does before `readyok`: the delay is
the time 4 GB takes), and `new` followed by `ping` after a search has filled a 1024 MB table
(the table emptied in place).

Each answer is timed from the moment its line is written to the moment the answer is read;
the median and the largest delay are printed in milliseconds. A missing answer, or one that
comes only with the search's end, fails the check; the delays themselves depend on the machine
and its load, and `--max-ms` turns the largest into an exit status only when asked.

    cargo build --release
    python3 tests/e2e/answer_latency.py [--engine target/release/agentchess] [--rounds 10] [--max-ms 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from pipe_engine import POSITIONS, Engine, Failure

ROOT = Path(__file__).resolve().parents[2]


def answer_while_searching(e: Engine, ask: str, answer: str, stop_prefix: str, think: float) -> float:
    """Sends `ask` after `think` seconds of a search, expects `answer` before the search's own
    end (`stop_prefix`), and more thinking after it; milliseconds to the answer."""
    time.sleep(think)
    sent = e.send(ask)
    seen, got = e.until(answer, timeout=20)
    if any(line.startswith(stop_prefix) for line in seen):
        raise Failure(f"{ask!r} was answered only after the search ended: {seen}")
    return (got - sent) * 1000


def uci_rounds(engine: str, rounds: int, think: float) -> dict[str, list[float]]:
    e = Engine([engine])
    e.send("uci")
    e.until("uciok")
    delays: dict[str, list[float]] = {"go infinite": [], "go ponder": [], "go movetime": []}
    for i in range(rounds):
        fen = POSITIONS[i % len(POSITIONS)]
        for go, end in (
            ("go infinite", "stop"),
            ("go ponder wtime 60000 btime 60000", "stop"),
            ("go movetime 5000", None),
        ):
            for line in ("ucinewgame", "position fen " + fen, "isready"):
                e.send(line)
            e.until("readyok")
            e.send(go)
            delays[" ".join(go.split()[:2])].append(answer_while_searching(e, "isready", "readyok", "bestmove", think))
            if end:
                e.send(end)
            e.until("bestmove", timeout=20)
    err = e.close()
    if err.strip():
        raise Failure(f"stderr over UCI: {err.strip()[:500]}")
    return delays


def xboard_rounds(engine: str, rounds: int, think: float) -> dict[str, list[float]]:
    e = Engine([engine])
    e.send("xboard")
    e.send("protover 2")
    e.until("feature done=1")
    delays: dict[str, list[float]] = {"analyze": [], "pondering": [], "memory 4096": [], "new, 1024 MB used": []}
    for i in range(rounds):
        fen = POSITIONS[i % len(POSITIONS)]
        for line in ("new", "force", "post", "setboard " + fen, "analyze"):
            e.send(line)
        delays["analyze"].append(answer_while_searching(e, f"ping {i}", f"pong {i}", "never", think))
        e.send("exit")
        # Pondering: the engine moves (st 1), then thinks on the opponent's time.
        for line in ("new", "hard", "nopost", "setboard " + fen, "st 1", "go"):
            e.send(line)
        e.until("move ")
        delays["pondering"].append(answer_while_searching(e, f"ping p{i}", f"pong p{i}", "never", think))
        e.send("force")
        e.send("easy")
    # `memory`: the size changes each time, so that each one is a new table.
    for i in range(rounds):
        sent = e.send(f"memory {4096 - i}")
        e.send(f"ping m{i}")
        _, got = e.until(f"pong m{i}")
        delays["memory 4096"].append((got - sent) * 1000)
    e.send("memory 1024")
    for i in range(rounds):
        # A search of a second writes into the table, then a new game clears it.
        for line in ("new", "force", "setboard " + POSITIONS[i % len(POSITIONS)], "st 1", "go"):
            e.send(line)
        e.until("move ")
        sent = e.send("new")
        e.send(f"ping n{i}")
        _, got = e.until(f"pong n{i}")
        delays["new, 1024 MB used"].append((got - sent) * 1000)
    err = e.close()
    if err.strip():
        raise Failure(f"stderr over XBoard: {err.strip()[:500]}")
    return delays


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=str(ROOT / "target" / "release" / "agentchess"))
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--think", type=float, default=0.3, help="seconds of searching before the question")
    ap.add_argument("--max-ms", type=float, help="exit 1 when the largest delay during a search is above this")
    args = ap.parse_args()
    try:
        results = {**uci_rounds(args.engine, args.rounds, args.think), **xboard_rounds(args.engine, args.rounds, args.think)}
    except Failure as e:
        print(f"FAIL: {e}")
        return 1
    worst = 0.0
    for name, d in results.items():
        if not name.startswith(("memory", "new")):
            worst = max(worst, max(d))
        print(f"{name:20} {len(d)} answers: median {statistics.median(d):.2f} ms, largest {max(d):.2f} ms")
    if args.max_ms is not None and worst > args.max_ms:
        print(f"FAIL: largest delay during a search {worst:.2f} ms is above {args.max_ms} ms")
        return 1
    print("every answer came while the engine searched")
    return 0


if __name__ == "__main__":
    sys.exit(main())

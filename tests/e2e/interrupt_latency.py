#!/usr/bin/env python3
"""Benchmark: how soon the engine answers an interrupt in the middle of a long think.

Over XBoard, `?` while level 10 thinks on a 30 s `st` (the reply is its `move`); over UCI,
`stop` during `go infinite` (the reply is `bestmove`). Each is timed from the moment the line is
written to the moment the reply is read, after a think of a few hundred milliseconds so that the
tree is deep in an iteration, from several positions. Prints the median and the largest delay
in milliseconds. A benchmark, not a test: the figures depend on the machine and its load, and
`--max-ms` turns the largest into an exit status only when asked.

    cargo build --release
    python3 tests/e2e/interrupt_latency.py [--engine target/release/agentchess] [--rounds 20] [--max-ms 20] [--threads 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from pipe_engine import POSITIONS, Engine

ROOT = Path(__file__).resolve().parents[2]


def time_interrupts(engine: str, rounds: int, think: float, protocol: str, threads: int = 1) -> list[float]:
    """Milliseconds from the interrupt written to the reply read, once a position: XBoard `?`
    during a 30 s `st` think (the reply is `move`), UCI `stop` during `go infinite` (`bestmove`)."""
    xboard = protocol == "xboard"
    e = Engine([engine, "--threads", str(threads)])
    if xboard:
        e.send("xboard")
        e.send("protover 2")
        e.until("feature done=1")
    else:
        e.send("uci")
        e.until("uciok")
    delays = []
    for i in range(rounds):
        fen = POSITIONS[i % len(POSITIONS)]
        if xboard:
            for line in ("new", "force", "setboard " + fen, "st 30", "post", "go"):
                e.send(line)
        else:
            for line in ("ucinewgame", "position fen " + fen, "isready"):
                e.send(line)
            e.until("readyok")
            e.send("go infinite")
        time.sleep(think)
        sent = e.send("?" if xboard else "stop")
        _, got = e.until("move " if xboard else "bestmove ")
        delays.append((got - sent) * 1000)
    e.close()
    return delays


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=str(ROOT / "target" / "release" / "agentchess"))
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--think", type=float, default=0.3, help="seconds of thinking before the interrupt")
    ap.add_argument("--max-ms", type=float, help="exit 1 when the largest delay is above this")
    ap.add_argument("--threads", type=int, default=1, help="level 10's search threads (--threads)")
    args = ap.parse_args()
    worst = 0.0
    for name, protocol in (("xboard ?", "xboard"), ("uci stop", "uci")):
        d = time_interrupts(args.engine, args.rounds, args.think, protocol, args.threads)
        worst = max(worst, max(d))
        print(f"{name:9} {args.threads} thread(s), {len(d)} interrupts: median {statistics.median(d):.2f} ms, largest {max(d):.2f} ms")
    if args.max_ms is not None and worst > args.max_ms:
        print(f"largest delay {worst:.2f} ms is above {args.max_ms} ms", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

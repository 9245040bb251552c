#!/usr/bin/env python3
"""Level 10 on more than one thread: the time to reach a depth and the nodes a second, against
one thread, on the WAC positions `bench` gives level 10 (every third one).

For each position and each thread count: `ucinewgame` (an empty table), `go depth D`, and the
time and nodes of the `info` line that completes depth D. The speed-up of a position is its
time on one thread over its time on N; the script prints the median speed-up and the ratio of
nodes a second (all nodes over all time), and fails when --min-speedup or --min-nps is given
and not reached. Threads of one count run one position after the other, the counts side by side
in one run, so that both see the same machine.

    cargo build --release
    python3 tests/e2e/smp_speedup.py --threads 2 --depth 13 --positions 30
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def positions(count: int) -> list[str]:
    lines = [l for l in (ROOT / "tests" / "data" / "wac.epd").read_text().splitlines() if l.strip()]
    fens = []
    for line in lines[::3]:
        fields = line.split()
        fens.append(" ".join(fields[:4]) + " 0 1")
    return fens[:count]


class Engine:
    def __init__(self, exe: str, threads: int):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name Threads value {threads}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word: str) -> list[str]:
        seen = []
        for line in self.p.stdout:
            line = line.strip()
            seen.append(line)
            if line.startswith("info string") and "Threads" in line:
                raise SystemExit(f"the engine refused the thread count: {line}")
            if line.split()[:1] == [word]:
                return seen
        raise SystemExit(f"the engine ended before '{word}'")

    def to_depth(self, fen: str, depth: int) -> tuple[int, int]:
        """Milliseconds and nodes when depth `depth` was complete."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait("readyok")
        self.send(f"go depth {depth}")
        found = None
        for line in self.wait("bestmove"):
            f = line.split()
            if f[:2] == ["info", "depth"] and "time" in f and "nodes" in f and int(f[2]) >= depth:
                found = found or (int(f[f.index("time") + 1]), int(f[f.index("nodes") + 1]))
        if found is None:
            # A mate or a single move ends the search before the depth: it says nothing.
            return (0, 0)
        return found

    def quit(self) -> None:
        self.send("quit")
        self.p.wait(timeout=10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agentchess", default=str(ROOT / "target" / "release" / "agentchess"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--min-speedup", type=float)
    ap.add_argument("--min-nps", type=float)
    args = ap.parse_args()
    fens = positions(args.positions)
    one, many = Engine(args.agentchess, 1), Engine(args.agentchess, args.threads)
    speedups, totals = [], {1: [0, 0], args.threads: [0, 0]}
    try:
        for i, fen in enumerate(fens, 1):
            t1, n1 = one.to_depth(fen, args.depth)
            tn, nn = many.to_depth(fen, args.depth)
            if min(t1, tn) <= 0:
                print(f"{i:3} {fen}: below depth {args.depth} or too fast to time, left out")
                continue
            speedups.append(t1 / tn)
            totals[1][0] += t1
            totals[1][1] += n1
            totals[args.threads][0] += tn
            totals[args.threads][1] += nn
            print(f"{i:3} 1 thread {t1:6} ms {n1:9} nodes | {args.threads} threads {tn:6} ms {nn:9} nodes | {t1 / tn:5.2f}x", flush=True)
    finally:
        one.quit()
        many.quit()
    if not speedups:
        print("no position reached the depth", file=sys.stderr)
        return 1
    median = statistics.median(speedups)
    nps = {k: 1000 * n / t for k, (t, n) in totals.items()}
    ratio = nps[args.threads] / nps[1]
    print(f"{len(speedups)} positions at depth {args.depth}: median time-to-depth speed-up "
          f"{median:.2f}x at {args.threads} threads (mean {statistics.mean(speedups):.2f}x); "
          f"nodes a second {nps[1]:.0f} -> {nps[args.threads]:.0f} ({ratio:.2f}x)")
    failed = (args.min_speedup is not None and median < args.min_speedup) or (args.min_nps is not None and ratio < args.min_nps)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

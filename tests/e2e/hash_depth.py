#!/usr/bin/env python3
"""A large `Hash` costs no depth in the game's first moves: its memory is taken before
`readyok`, not by the first searches that touch it.

For each size (default 16 and 4096 MB) a fresh engine gets `setoption name Hash`, then
`isready` (the time to `readyok` is reported), `ucinewgame`, and plays the first --moves moves
of a game as White at --tc (10 s + 0.1 s), each reply the one its line expects (`ponder`), the
clock kept as a GUI would. The depth of each move's last `info` line is read. Fails (exit 1)
when a size's mean depth is below --min-ratio (0.8) of the first size's.

    python3 tests/e2e/hash_depth.py [--sizes 16,4096] [--moves 3] [--tc 10+0.1] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("AGENTCHESS", ROOT / "target" / "release" / "agentchess"))


def game(mb: int, moves: int, base_ms: int, inc_ms: int) -> tuple[float, list[int]]:
    """Seconds to `readyok` after the Hash is set, and the depth of each of our moves."""
    proc = subprocess.Popen([str(BINARY)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin and proc.stdout

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(prefix: str) -> list[str]:
        lines = []
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("agentchess ended")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send("uci")
    until("uciok")
    start = time.monotonic()
    send(f"setoption name Hash value {mb}")
    send("isready")
    until("readyok")
    ready = time.monotonic() - start
    send("ucinewgame")
    played: list[str] = []
    depths = []
    clock = base_ms
    for _ in range(moves):
        send("position startpos" + (" moves " + " ".join(played) if played else ""))
        began = time.monotonic()
        send(f"go wtime {clock} btime {base_ms} winc {inc_ms} binc {inc_ms}")
        lines = until("bestmove")
        clock = clock - int((time.monotonic() - began) * 1000) + inc_ms
        infos = [l for l in lines if l.startswith("info depth")]
        depths.append(int(infos[-1].split()[2]) if infos else 0)
        words = lines[-1].split()
        if len(words) < 4:
            break
        played += [words[1], words[3]]
    send("quit")
    proc.wait(timeout=30)
    return ready, depths


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="16,4096")
    ap.add_argument("--moves", type=int, default=3)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--min-ratio", type=float, default=0.8)
    args = ap.parse_args()
    base, inc = args.tc.split("+")
    base_ms, inc_ms = int(float(base) * 1000), int(float(inc) * 1000)
    sizes = [int(s) for s in args.sizes.split(",")]
    means = {}
    for mb in sizes:
        all_depths = []
        for _ in range(args.rounds):
            ready, depths = game(mb, args.moves, base_ms, inc_ms)
            all_depths += depths
            print(f"Hash {mb:>5} MB: readyok after {ready:.2f} s, depths {depths}")
        means[mb] = sum(all_depths) / max(1, len(all_depths))
    first = means[sizes[0]]
    bad = False
    for mb in sizes:
        ratio = means[mb] / first if first else 0.0
        print(f"Hash {mb:>5} MB: mean depth {means[mb]:.1f}, {ratio:.0%} of Hash {sizes[0]}'s")
        bad |= ratio < args.min_ratio
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

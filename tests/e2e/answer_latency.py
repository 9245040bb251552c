#!/usr/bin/env python3
"""Check: the engine answers `isready` and `ping` while it searches, and `memory` at once.

Over UCI, `isready` during `go infinite`, `go ponder` and `go movetime` (level 10, from several
positions): `readyok` must come while the search goes on, that is before any `bestmove` and
with more thinking after it. Over XBoard, `ping` during `analyze` and while pondering (`hard`):
`pong` must come with the analysis still running. Then `memory 4096` followed by `ping` (the
table is allocated as it is used, so the answer does not wait for 4 GB to be written), and
`new` followed by `ping` after a search has filled a 1024 MB table.

Each answer is timed from the moment its line is written to the moment the answer is read;
the median and the largest delay are printed in milliseconds. A missing answer, or one that
comes only with the search's end, fails the check; the delays themselves depend on the machine
and its load, and `--max-ms` turns the largest into an exit status only when asked.

    cargo build --release
    python3 tests/e2e/answer_latency.py [--engine target/release/agentchess] [--rounds 10] [--max-ms 50]
"""

from __future__ import annotations

import argparse
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/2R3K1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


class Failure(Exception):
    pass


class Engine:
    """The engine on pipes; its output read on a thread, each line with the time it was read."""

    def __init__(self, cmd: list[str]) -> None:
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[tuple[str, float]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put((line.rstrip("\n"), time.perf_counter()))
        self.lines.put(("", -1.0))

    def send(self, line: str) -> float:
        """Writes a line; the time just before it was written."""
        assert self.proc.stdin is not None
        at = time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return at

    def until(self, prefix: str, timeout: float = 60.0) -> tuple[list[str], float]:
        """The lines up to and with the first starting with `prefix`, and when that one came."""
        seen = []
        end = time.time() + timeout
        while True:
            try:
                line, at = self.lines.get(timeout=max(0.0, end - time.time()))
            except queue.Empty:
                raise Failure(f"no line starting with {prefix!r} within {timeout} s after {seen[-5:]}") from None
            if at < 0:
                raise Failure(f"the engine closed its output waiting for {prefix!r}")
            seen.append(line)
            if line.startswith(prefix):
                return seen, at

    def close(self) -> str:
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        assert self.proc.stderr is not None
        return self.proc.stderr.read()


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

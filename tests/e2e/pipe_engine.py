"""The engine on pipes, for the checks and benchmarks that time its answers
(answer_latency.py, interrupt_latency.py): a few positions to search from, and the engine
with its output read on a thread, each line with the moment it was read."""

from __future__ import annotations

import queue
import subprocess
import threading
import time

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

#!/usr/bin/env python3
"""Fuzzing the protocol input: random, truncated and mutated lines of XBoard and UCI, among real
commands, some sent in bursts and some a few milliseconds apart, to the built engine.

Every session starts a fresh engine (`uci`, or `xboard` and `protover 2`) and sends it lines
drawn from a seeded generator: real commands of its protocol (moves, positions, clocks, searches
that end by themselves and searches that do not, analysis, pondering, options), real lines cut
short or with characters and tokens changed, words of the other protocol, random tokens,
random bytes (invalid UTF-8, control characters, CR-LF), empty lines and lines of 20,000
characters. After every line that is not a well-formed command, and every so often, the engine
must answer `ping`/`isready`; after every bad line it must also play a legal move in a known
position (checked with python-chess). Fails on:

- a panic: any line on stderr (the engine logs nothing at warning level for bad input), an
  `internal error` reply, or the process ending other than by a `quit` the fuzzer sent;
- a hang: no answer to `ping`/`isready` within --patience seconds, after the fuzzer has told a
  search in progress to stop (`?`, `stop`, `exit`) as a GUI would;
- an illegal move, or no move, in the known position.

Prints the counts (lines, bad lines, sessions, answers, moves checked) and the seed; the same
seed replays the same lines. Tables stay small (at most 64 MB): a table is taken and zeroed
when sized and emptied in place by every new game, seconds for 4 GB, which
`answer_latency.py` and `hash_depth.py` measure instead. CI runs about a minute of it; the soak
is a million lines:

    cargo build --release
    python3 tests/e2e/fuzz_protocol.py --lines 20000 --seed 1          # CI
    python3 tests/e2e/fuzz_protocol.py --lines 1000000 --seed 7        # the soak (about an hour)
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parents[2]

FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "7k/8/5K2/8/8/8/8/1R6 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
    "8/8/8/8/8/8/8/K6k w - - 0 1",
]
BAD_FENS = ["garbage", "8/8/8/8 w - -", "44/8/8/8/8/8/8/K6k w - - 0 1", "8/8/8/8/8/8/8/K6k x - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "8/8/8/8/8/8/8/KK5k w - - 0 1"]
MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "d2d4", "d7d5", "e1g1", "e8g8", "a7a8q", "e7e8n", "h2h4", "O-O",
         "Nf3", "e4", "Qxf7#", "0000", "a1a1", "z9z9", "e2e5"]
XBOARD_WORDS = ["xboard", "protover", "accepted", "rejected", "new", "variant", "random", "force", "go",
                "playother", "white", "black", "level", "st", "sd", "nps", "time", "otim", "usermove", "?",
                "ping", "draw", "result", "setboard", "edit", "hint", "bk", "undo", "remove", "hard", "easy",
                "post", "nopost", "analyze", "exit", ".", "name", "rating", "ics", "computer", "pause",
                "resume", "memory", "cores", "egtpath", "option", "exclude", "include", "help"]
UCI_WORDS = ["uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop",
             "ponderhit", "help", "name", "value", "startpos", "fen", "moves", "wtime", "btime", "winc",
             "binc", "movestogo", "depth", "nodes", "mate", "movetime", "infinite", "ponder", "searchmoves"]
NUMBERS = ["0", "1", "-1", "2", "64", "65", "4096", "4097", "99999999999999999999", "1e9", "1e309", "nan",
           "0.5", "-0", "1.", ".5", "2abc", "0x10", "1,5"]


class Failure(Exception):
    pass


def xboard_real(rng: random.Random) -> str:
    fen = rng.choice(FENS + BAD_FENS[:2])
    choices = [
        "new", "force", "go", "playother", "white", "black", "level 40 0:05 0", "level 0 0:02 0.1", "st 0.05",
        "st 1", "sd 3", "sd 1", "nps 5000", f"time {rng.randint(0, 3000)}", f"otim {rng.randint(0, 3000)}",
        f"usermove {rng.choice(MOVES)}", rng.choice(MOVES), "?", "draw", "result 1-0 {White mates}",
        "result *", f"setboard {fen}", "edit", "#", "Pa4", "xe2", "c", ".", "hint", "bk", "undo", "remove",
        "hard", "easy", "post", "nopost", "analyze", "exit", "name fuzz", "rating 2000 1800", "ics -",
        "computer", "pause", "resume", f"memory {rng.choice([1, 16, 64])}", "cores 2",
        "egtpath syzygy /nowhere", "option Level=5", "option Level=10", "option MultiPV=3", "option MultiPV=1",
        "option Player=search:depth=2", "option Player=level:10", "option Features=level9",
        "option LimitStrength=1", "option LimitStrength=0", "option Elo=1200", "option Seed=7",
        f"exclude {rng.choice(MOVES)}", "exclude all", "include all", f"include {rng.choice(MOVES)}",
        "accepted debug", "rejected debug", "variant normal", "protover 2", "xboard", "random", "help",
    ]
    return rng.choice(choices)


def uci_real(rng: random.Random) -> str:
    moves = " ".join(rng.sample(MOVES, rng.randint(0, 3)))
    fen = rng.choice(FENS + BAD_FENS[:2])
    choices = [
        "uci", "isready", "ucinewgame", "position startpos", f"position startpos moves {moves}",
        f"position fen {fen}", f"position fen {fen} moves {moves}", "go depth 2", "go movetime 20",
        "go nodes 2000", "go wtime 1000 btime 1000 winc 10 binc 10", "go wtime 50 btime 50 movestogo 1",
        "go infinite", "go ponder wtime 1000 btime 1000", "stop", "ponderhit", "go mate 2",
        "go searchmoves e2e4 d2d4 depth 2", "setoption name Hash value 8", "setoption name Hash value 64",
        "setoption name MultiPV value 2", "setoption name MultiPV value 1", "setoption name Level value 3",
        "setoption name Level value 10", "setoption name UCI_LimitStrength value true",
        "setoption name UCI_LimitStrength value false", "setoption name UCI_Elo value 1500",
        "setoption name Ponder value true", "setoption name Player value search:depth=2",
        "setoption name Player value level:10", "setoption name Seed value 3", "debug on", "debug off",
        "register later", "help",
    ]
    return rng.choice(choices)


def mutate(rng: random.Random, line: str) -> str:
    """A real line changed the way a broken GUI, a pipe or a person would change it."""
    kind = rng.randrange(9)
    chars = list(line)
    tokens = line.split()
    if kind == 0 and line:
        return line[: rng.randrange(len(line))]  # cut short
    if kind == 1 and chars:
        chars[rng.randrange(len(chars))] = chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 32), 0xFFFD]))
        return "".join(chars)
    if kind == 2:
        chars.insert(rng.randrange(len(chars) + 1), rng.choice("0123456789-.eE +/=#?"))
        return "".join(chars)
    if kind == 3 and chars:
        del chars[rng.randrange(len(chars))]
        return "".join(chars)
    if kind == 4 and tokens:
        tokens[rng.randrange(len(tokens))] = rng.choice(NUMBERS + MOVES + XBOARD_WORDS + UCI_WORDS)
        return " ".join(tokens)
    if kind == 5 and len(tokens) > 1:
        rng.shuffle(tokens)
        return " ".join(tokens)
    if kind == 6:
        return line + " " + " ".join(rng.choice(NUMBERS + UCI_WORDS + XBOARD_WORDS) for _ in range(rng.randint(1, 4)))
    if kind == 7:
        return line.upper()
    return "  " + line.replace(" ", "\t") + " \r"


def garbage(rng: random.Random) -> bytes:
    """A line that is nothing at all."""
    kind = rng.randrange(6)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))).replace(b"\n", b"")
    if kind == 1:
        return b"x" * 20_000
    if kind == 2:
        return b""
    if kind == 3:
        return b" \t \r"
    if kind == 4:
        words = XBOARD_WORDS + UCI_WORDS + NUMBERS + MOVES
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 8))).encode()
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(rng.randint(1, 30))).encode()


UCI_COMMANDS = {"uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop",
                "ponderhit", "quit", "help"}


def command_of(line: bytes, uci: bool) -> str | None:
    """The command the engine reads `line` as: XBoard's first word; UCI's first known word (UCI
    skips unknown words before a command)."""
    words = line.decode("utf-8", "replace").split()
    if not words:
        return None
    if not uci:
        return words[0]
    return next((w for w in words if w in UCI_COMMANDS), None)


@dataclass
class Counts:
    lines: int = 0
    bad: int = 0
    sessions: int = 0
    answers: int = 0
    moves: int = 0
    quits: int = 0
    moved_now: int = 0
    slowest_answer: float = 0.0


@dataclass
class Session:
    engine: str
    uci: bool
    patience: float
    counts: Counts
    proc: subprocess.Popen = field(init=False)
    out: queue.Queue = field(init=False)
    err: list = field(init=False)
    sent: list = field(init=False)
    log: list = field(init=False)
    pings: int = 0
    owed: int = 0

    def __post_init__(self) -> None:
        env = dict(os.environ)
        env.pop("RUST_LOG", None)
        self.proc = subprocess.Popen([self.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.out = queue.Queue()
        self.err = []
        self.sent = []
        self.log = []
        threading.Thread(target=self._read, args=(self.proc.stdout, self.out), daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        self.counts.sessions += 1
        if self.uci:
            self.send(b"uci")
            self.expect(lambda l: l == "uciok", "uciok")
            self.owed = 0
        else:
            self.send(b"xboard")
            self.send(b"protover 2")
            self.expect(lambda l: l.startswith("feature") and "done=1" in l, "feature done=1")

    @staticmethod
    def _read(pipe, q: queue.Queue) -> None:
        for raw in pipe:
            q.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        q.put(None)

    def _read_err(self) -> None:
        for raw in self.proc.stderr:
            self.err.append(raw.decode("utf-8", "replace").rstrip())

    def send(self, line: bytes) -> None:
        if self.uci and command_of(line, True) == "isready":
            # Its `readyok` comes in order with the others: a sync waits for them all.
            self.owed += 1
        self.sent.append(line)
        del self.sent[:-20]
        self.log.append(b"> " + line)
        del self.log[:-60]
        try:
            self.proc.stdin.write(line + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Failure(f"the engine closed its input; last lines sent: {self.sent[-5:]}") from None

    def check_line(self, line: str) -> None:
        if self.uci and line == "readyok":
            self.owed -= 1
        if "internal error" in line:
            raise Failure(f"a panic caught by the engine: {line!r}; last lines sent: {self.sent[-5:]}")
        if self.err:
            raise Failure(f"stderr: {self.err[:5]}; last lines sent: {self.sent[-5:]}")

    def expect(self, done, what: str, timeout: float | None = None) -> list[str]:
        """Lines up to the one `done` accepts; a Failure after `timeout` seconds."""
        deadline = time.time() + (timeout or self.patience)
        seen = []
        while True:
            try:
                line = self.out.get(timeout=max(0.0, deadline - time.time()))
            except queue.Empty:
                raise Failure(f"no {what} within {timeout or self.patience} s; last lines sent: "
                              f"{self.sent[-8:]}; last lines read: {seen[-5:]}") from None
            if line is None:
                raise Failure(f"the engine ended (status {self.proc.wait()}) waiting for {what}; "
                              f"stderr {self.err[:5]}; last lines sent: {self.sent[-8:]}")
            self.check_line(line)
            self.log.append(b"< " + line.encode())
            seen.append(line)
            if done(line):
                return seen

    def sync(self) -> None:
        """`ping`/`isready` answered. A search in progress that does not end by itself (a `go`
        on a long clock, analysis) is first given a while, then told to stop, as a GUI would."""
        self.pings += 1
        token = f"fz{self.pings}"
        start = time.time()
        ask, answer = (b"isready", "readyok") if self.uci else (f"ping {token}".encode(), f"pong {token}")
        self.send(ask)

        def answered(line: str) -> bool:
            return line == answer and (not self.uci or self.owed == 0)

        if self.uci:
            # UCI answers `isready` at once, searching or not.
            self.expect(answered, answer)
        else:
            try:
                self.expect(answered, answer, timeout=min(3.0, self.patience))
            except Failure:
                # Thinking on its own move on a long clock, XBoard answers after the move: move now.
                self.counts.moved_now += 1
                self.send(b"?")
                self.expect(answered, answer + " after ?")
        self.counts.answers += 1
        self.counts.slowest_answer = max(self.counts.slowest_answer, time.time() - start)

    def probe_move(self, rng: random.Random) -> None:
        """A legal move in a known position, whatever state the lines left the engine in."""
        board = chess.Board(rng.choice(FENS[:7]))
        for _ in range(rng.randint(0, 4)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over(claim_draw=True):
            return
        if self.uci:
            for line in ("stop", "ponderhit", "ucinewgame", "setoption name MultiPV value 1",
                         f"position fen {board.fen()}"):
                self.send(line.encode())
            self.sync()
            # A `bestmove` still held from the lines before comes out with the stops above.
            self.drain()
            self.send(b"go depth 1")
            got = self.expect(lambda l: l.startswith("bestmove"), "bestmove")
            move = got[-1].split()[1] if len(got[-1].split()) > 1 else ""
        else:
            for line in ("exit", "?", "force", "new", "force", "easy", "option MultiPV=1", f"setboard {board.fen()}",
                         "sd 1", "st 1"):
                self.send(line.encode())
            self.sync()
            self.drain()
            self.send(b"go")
            got = self.expect(lambda l: l.startswith("move ") or l.startswith("1-0") or l.startswith("0-1")
                              or l.startswith("1/2-1/2"), "move")
            move = got[-1].split()[1] if got[-1].startswith("move ") else ""
            self.send(b"force")
        try:
            ok = chess.Move.from_uci(move) in board.legal_moves
        except ValueError:
            ok = False
        if not ok:
            raise Failure(f"illegal or no move {move!r} in {board.fen()}: {got[-5:]}; the exchange:\n"
                          + "\n".join(l.decode("utf-8", "replace")[:100] for l in self.log[-40:]))
        self.counts.moves += 1

    def drain(self) -> None:
        while True:
            try:
                line = self.out.get_nowait()
            except queue.Empty:
                return
            if line is None:
                raise Failure(f"the engine ended; last lines sent: {self.sent[-8:]}")
            self.check_line(line)

    def close(self) -> None:
        try:
            self.send(b"quit")
        except Failure:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure("quit did not end the engine within 10 s") from None
        time.sleep(0.05)
        if self.err:
            raise Failure(f"stderr: {self.err[:5]}")


def run(engine: str, lines: int, seed: int, session_lines: int, patience: float, progress: bool) -> Counts:
    rng = random.Random(seed)
    counts = Counts()
    session = None
    in_session = 0
    started = time.time()
    while counts.lines < lines:
        if session is None or in_session >= session_lines:
            if session is not None:
                session.close()
            session = Session(engine, uci=rng.random() < 0.5, patience=patience, counts=counts)
            in_session = 0
        uci = session.uci
        roll = rng.random()
        if roll < 0.6:
            line, bad = (uci_real(rng) if uci else xboard_real(rng)).encode(), False
        elif roll < 0.8:
            line, bad = mutate(rng, uci_real(rng) if uci else xboard_real(rng)).encode("utf-8", "replace"), True
        elif roll < 0.88:
            line, bad = (xboard_real(rng) if uci else uci_real(rng)).encode(), True
        else:
            line, bad = garbage(rng), True
        line = line.replace(b"\n", b" ")
        if command_of(line, uci) == "quit":
            counts.quits += 1
            continue
        session.send(line)
        counts.lines += 1
        counts.bad += bad
        in_session += 1
        # Timing: mostly a burst, sometimes a pause that lets a search get under way.
        if rng.random() < 0.05:
            time.sleep(rng.choice([0.001, 0.005, 0.02]))
        if bad:
            session.sync()
            session.probe_move(rng)
        elif rng.random() < 0.1:
            session.sync()
        session.drain()
        if progress and counts.lines % 10_000 == 0:
            rate = counts.lines / max(1e-9, time.time() - started)
            print(f"{counts.lines} lines, {counts.bad} bad, {counts.sessions} sessions, {rate:.0f} lines/s", flush=True)
    if session is not None:
        session.close()
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=str(ROOT / "target" / "release" / "agentchess"))
    ap.add_argument("--lines", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--session-lines", type=int, default=2000, help="lines before a fresh engine")
    ap.add_argument("--patience", type=float, default=30.0, help="seconds an answer may take")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()
    started = time.time()
    try:
        c = run(args.engine, args.lines, args.seed, args.session_lines, args.patience, args.progress)
    except Failure as e:
        print(f"FAIL (seed {args.seed}): {e}")
        return 1
    print(f"fuzz seed {args.seed}: {c.lines} lines ({c.bad} bad) in {c.sessions} sessions, "
          f"{c.answers} ping/isready answered (slowest {c.slowest_answer * 1000:.0f} ms; {c.moved_now} after `?` "
          f"ended a long think on its own move), {c.moves} legal moves checked, 0 panics, 0 hangs, "
          f"{time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Game harness for the end-to-end tests: AgentChess driven by python-chess's XBoard client
(or its UCI client, for a Side with protocol "uci").

python-chess (`pip install chess`) plays the GUI: it starts the engines with popen_xboard, keeps
the clocks, and after every game checks what a GUI would hold against an engine:

- illegal or unparsable moves and `Error`/`Illegal move` lines (python-chess raises on them),
- crashes (the process ends) and hangs (no move long after the clock would have fallen),
- time losses (the harness charges each side the wall time its move took),
- result claims: every `1-0 {...}`-style line AgentChess prints must match the final position,
  and an `offer draw` with a move must mean that move made a claimable draw,
- warnings: anything python-chess warns about while talking to AgentChess (a rejected feature,
  unexpected output) is a problem, and so is every line on the engine's stderr at warning level
  or above, or in no log format at all (a panic message);
- player faults: when its player panics or chooses an illegal move or none, AgentChess plays
  the first legal move and says so, on stderr at error level and, over UCI, in an
  `info string fault: ...` line (XBoard `# fault: ...` with debug on). Either is a problem.

The engines are started with RUST_LOG at `warn` or more verbose, so that no environment hides
their complaints, and whatever an engine still says after its last game (read while it quits)
is kept for `late_problems()`, which every script checks at its end.

Used by play_games.py, soak.py and windows_wine.py; run those, not this file.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import chess
import chess.engine

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("AGENTCHESS", ROOT / "target" / "release" / "agentchess"))
PHALANX = shutil.which("phalanx") or "/usr/games/phalanx"

CLAIM = re.compile(r"^(1-0|0-1|1/2-1/2) \{(.*)\}$")
# env_logger's line: `[2026-01-01T00:00:00Z INFO  agentchess::protocol] text`.
LOG_LINE = re.compile(r"^\[\S+\s+(TRACE|DEBUG|INFO|WARN|ERROR)\s")
# The engine's report of a player failure on stdout (UCI info string, XBoard debug line).
FAULT_LINE = re.compile(r"^(info string|#) fault: ")

# Slack on top of a side's clock before a silent engine counts as hung.
HANG_SLACK = 10.0


@dataclass
class Side:
    """One engine taking part: how to start it and which options python-chess sets."""

    name: str
    cmd: list[str]
    ours: bool
    options: dict = field(default_factory=dict)
    protocol: str = "xboard"  # or "uci": python-chess's UCI client plays the same games


def agentchess(level: Optional[int] = None, seed: int = 1, player: Optional[str] = None, via_option: bool = True) -> Side:
    """AgentChess at a level. With via_option the level is set through python-chess's
    `configure` (the `option Level=N` path); otherwise on the command line."""
    cmd = [str(BINARY), "--seed", str(seed)]
    options = {}
    if player is not None:
        cmd += ["--player", player]
        name = f"AgentChess {player}"
    else:
        if via_option:
            options["Level"] = level
        else:
            cmd += ["--level", str(level)]
        name = f"AgentChess L{level}"
    return Side(name, cmd, ours=True, options=options)


def phalanx() -> Side:
    # -l- keeps phalanx from writing learning files; it still plays from its book.
    return Side("Phalanx", [PHALANX, "-l-"], ours=False)


def engine_env(**extra: str) -> dict[str, str]:
    """The environment to start AgentChess in: RUST_LOG may make it say more than warnings and
    errors on stderr, never less, since those are what the checks watch."""
    env = dict(os.environ, **extra)
    if env.get("RUST_LOG", "").strip().lower() not in ("trace", "debug", "info", "warn"):
        env["RUST_LOG"] = "warn"
    return env


def is_problem_on_stderr(line: str) -> bool:
    """A stderr line the checks must not let pass: a log line at warning level or above, or a
    line in no log format (a panic message, a backtrace). Blank lines say nothing."""
    m = LOG_LINE.match(line)
    return bool(line.strip()) and (m is None or m.group(1) in ("WARN", "ERROR"))


class LineLog(logging.Handler):
    """Collects, per engine, the lines it prints and its complaints, from python-chess's log.

    A complaint is a warning python-chess logs about the engine (a rejected feature, unexpected
    output), a line on its stderr (python-chess logs each one as a warning) that
    `is_problem_on_stderr`, or a player fault it reports on stdout: in a normal session there
    must be none."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: dict[int, list[str]] = {}
        self.warnings: dict[int, list[str]] = {}

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args if isinstance(record.args, tuple) else ()
        if record.msg == "%s: >> %s" and len(args) == 2:
            proto, line = args
            self.lines.setdefault(id(proto), []).append(line)
            if FAULT_LINE.match(line):
                self.warnings.setdefault(id(proto), []).append(f"player fault reported: {line}")
        if record.msg == "%s: stderr >> %s" and len(args) == 2:
            proto, line = args
            if is_problem_on_stderr(line):
                self.warnings.setdefault(id(proto), []).append(f"stderr: {line}")
        elif record.levelno >= logging.WARNING:
            key = id(args[0]) if args else 0
            self.warnings.setdefault(key, []).append(record.getMessage())

    def take(self, proto: object) -> list[str]:
        return self.lines.pop(id(proto), [])

    def take_warnings(self, proto: object) -> list[str]:
        """The warnings logged about `proto` since the last call (and those about no engine in
        particular)."""
        return self.warnings.pop(id(proto), []) + self.warnings.pop(0, [])

    def forget(self, ending: str) -> None:
        """Drops every warning that ends with `ending` (one a caller has dealt with)."""
        for found in self.warnings.values():
            found[:] = [w for w in found if not w.endswith(ending)]

    def take_all_warnings(self) -> list[str]:
        found = [w for ws in self.warnings.values() for w in ws]
        self.warnings.clear()
        return found


LOG = LineLog()
# Complaints of our engines that arrived after their last game, while they quit.
LATE: list[str] = []


def print_problems(problems: list[str], prefix: str = "PROBLEM: ", limit: int = 30) -> None:
    """Prints the first `limit` problems and how many more there were: an engine that fails on
    every move would otherwise bury the log (each fault is several stderr lines)."""
    for p in problems[:limit]:
        print(f"{prefix}{p}", flush=True)
    if len(problems) > limit:
        print(f"{prefix}... and {len(problems) - limit} more", flush=True)


def late_problems() -> list[str]:
    """What our engines complained about after their last game was checked: a script's last
    check, once every engine has quit."""
    found, LATE[:] = list(LATE), []
    return found
_engine_logger = logging.getLogger("chess.engine")
_engine_logger.setLevel(logging.DEBUG)
_engine_logger.addHandler(LOG)
_engine_logger.propagate = False


@dataclass
class GameRecord:
    white: str
    black: str
    result: str = "*"
    reason: str = ""
    plies: int = 0
    moves: list[str] = field(default_factory=list)
    start_fen: str = chess.STARTING_FEN
    problems: list[str] = field(default_factory=list)

    def pgn_line(self) -> str:
        return f"{self.white} - {self.black}: {self.result} {{{self.reason}}} in {self.plies} plies"


def outcome(board: chess.Board) -> Optional[tuple[str, str]]:
    """The game's end by the rules AgentChess claims by (3-fold, 50 moves, dead material), as
    (result, reason in XBoard's words), or None while it goes on."""
    if board.is_checkmate():
        return ("0-1", "Black mates") if board.turn == chess.WHITE else ("1-0", "White mates")
    if board.is_stalemate():
        return ("1/2-1/2", "Stalemate")
    if board.is_insufficient_material():
        return ("1/2-1/2", "Insufficient material")
    if board.halfmove_clock >= 100:
        return ("1/2-1/2", "Draw by fifty-move rule")
    if board.is_repetition(3):
        return ("1/2-1/2", "Draw by repetition")
    return None


class Player:
    """A running engine process."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.transport = None
        self.engine: Optional[chess.engine.Protocol] = None

    async def start(self) -> None:
        # Phalanx writes files next to itself or into HOME; keep them out of the tree.
        env = engine_env(HOME=os.environ.get("E2E_HOME", "/tmp"))
        popen = chess.engine.popen_uci if self.side.protocol == "uci" else chess.engine.popen_xboard
        self.transport, self.engine = await popen(self.side.cmd, env=env)
        if self.side.options:
            await self.engine.configure(self.side.options)
            # configure only sends; a ping makes any reply to it arrive now.
            await self.engine.ping()

    def warnings(self) -> list[str]:
        """What python-chess warned about this engine since the last call; only ours count."""
        if self.engine is None:
            return []
        found = LOG.take_warnings(self.engine)
        return found if self.side.ours else []

    async def stop(self) -> None:
        if self.engine is not None:
            try:
                await asyncio.wait_for(self.engine.quit(), 10)
            except Exception:
                if self.transport is not None:
                    self.transport.close()
            LATE.extend(f"{self.side.name} after its last game: {w}" for w in self.warnings())
        self.engine = None

    @property
    def alive(self) -> bool:
        return self.engine is not None and self.engine.returncode.done() is False


async def play_game(
    white: Player,
    black: Player,
    base: float,
    inc: float,
    start: Optional[chess.Board] = None,
    max_plies: int = 1500,
) -> GameRecord:
    board = start.copy() if start is not None else chess.Board()
    rec = GameRecord(white.side.name, black.side.name, start_fen=board.root().fen())
    clocks = {chess.WHITE: base, chess.BLACK: base}
    game_id = object()
    history: list[tuple[bool, float, float]] = []
    players = {chess.WHITE: white, chess.BLACK: black}
    for p in players.values():
        LOG.take(p.engine)

    def finish(result: str, reason: str) -> None:
        rec.result, rec.reason = result, reason

    while True:
        over = outcome(board)
        if over:
            finish(*over)
            break
        if len(board.move_stack) >= max_plies:
            finish("1/2-1/2", "adjudicated: move limit")
            break
        mover = players[board.turn]
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], white_inc=inc, black_inc=inc
        )
        t0 = time.monotonic()
        try:
            res = await asyncio.wait_for(
                mover.engine.play(board, limit, game=game_id), clocks[board.turn] + HANG_SLACK
            )
        except asyncio.TimeoutError:
            rec.problems.append(f"{mover.side.name} hung at ply {len(board.move_stack)} ({board.fen()})")
            finish("0-1" if board.turn else "1-0", f"{mover.side.name} hangs")
            break
        except chess.engine.EngineTerminatedError as e:
            rec.problems.append(f"{mover.side.name} died at ply {len(board.move_stack)}: {e}")
            finish("0-1" if board.turn else "1-0", f"{mover.side.name} crashed")
            break
        except chess.engine.EngineError as e:
            rec.problems.append(f"{mover.side.name} protocol error at ply {len(board.move_stack)} ({board.fen()}): {e}")
            finish("0-1" if board.turn else "1-0", f"{mover.side.name} protocol error")
            break
        spent = time.monotonic() - t0
        history.append((board.turn, clocks[board.turn], spent))
        clocks[board.turn] -= spent
        if clocks[board.turn] < 0:
            who = mover.side.name
            if mover.side.ours:
                recent = ", ".join(f"{c:.3f}-{s:.3f}" for t, c, s in history[-12:] if t == board.turn)
                rec.problems.append(f"{who} lost on time at ply {len(board.move_stack)}; clock-spent: {recent}")
            finish("0-1" if board.turn else "1-0", f"{who} loses on time")
            break
        clocks[board.turn] += inc
        if res.resigned:
            finish("0-1" if board.turn else "1-0", f"{mover.side.name} resigns")
            break
        if res.move is None:
            rec.problems.append(f"{mover.side.name} gave no move at ply {len(board.move_stack)} ({board.fen()})")
            finish("0-1" if board.turn else "1-0", f"{mover.side.name} gave no move")
            break
        if res.move not in board.legal_moves:
            rec.problems.append(f"{mover.side.name} played illegal {res.move} in {board.fen()}")
            finish("0-1" if board.turn else "1-0", "illegal move")
            break
        board.push(res.move)
        # UCI has no result claims or draw offers; the GUI judges the game's end.
        if mover.side.ours and mover.side.protocol == "xboard":
            check_claims(rec, mover, board, res)

    rec.plies = len(board.move_stack)
    rec.moves = [m.uci() for m in board.move_stack]
    for p in players.values():
        rec.problems += [f"{p.side.name} warning: {w}" for w in p.warnings()]
    for p in players.values():
        if p.alive:
            try:
                await asyncio.wait_for(p.engine.send_game_result(board), 10)
            except Exception as e:  # a dead engine was already reported above
                rec.problems.append(f"{p.side.name}: sending the result failed: {e!r}")
    return rec


def check_claims(rec: GameRecord, mover: Player, board: chess.Board, res: chess.engine.PlayResult) -> None:
    """After one of our moves: its claims must state the game's end exactly."""
    over = outcome(board)
    lines = LOG.take(mover.engine)
    for line in lines:
        m = CLAIM.match(line)
        if m:
            if over is None or (m.group(1), m.group(2)) != over:
                rec.problems.append(f"{mover.side.name} claimed '{line}' but the game is {over} ({board.fen()})")
        elif line.startswith(("White", "Black")) or "Draw" in line:
            rec.problems.append(f"{mover.side.name} printed a line a GUI reads as a claim: {line!r}")
    if res.draw_offered and not (over and over[1] in ("Draw by repetition", "Draw by fifty-move rule")):
        rec.problems.append(f"{mover.side.name} offered a draw its move did not create ({board.fen()})")
    if over and over[0] != "1/2-1/2" and not any(CLAIM.match(l) for l in lines):
        rec.problems.append(f"{mover.side.name} mated without claiming it ({board.fen()})")


def random_opening(rng: random.Random, plies: int) -> chess.Board:
    """A start position a few random plies in, so that games differ (and setboard gets used)."""
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    if board.is_game_over():
        return chess.Board()
    return board


def require_binary() -> None:
    if not BINARY.exists():
        raise SystemExit(f"{BINARY} not found: run `cargo build --release` first (or set AGENTCHESS)")

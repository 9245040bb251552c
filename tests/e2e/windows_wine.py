#!/usr/bin/env python3
"""agentchess.exe, the Windows build, checked under Wine: what a WinBoard user on Windows runs.

Cross-compile it first (README, "On Windows"), then:

    cargo build --release --target x86_64-pc-windows-gnu
    cargo build --release                                  # the Linux build it plays against
    CUTECHESS=$(../shared/tools/cutechess/build.sh) python3 tests/e2e/windows_wine.py

Checks, each fault listed and counted:

- the build: `--version` names the version and x86_64-pc-windows-gnu, the same version as the
  Linux build; XBoard `myname` and UCI `id name` carry it; the .exe is a plain console program
  (PE subsystem CUI) that says nothing on stderr when a GUI starts it over pipes;
- Windows line endings: whole XBoard and UCI sessions sent with CRLF;
- the input thread: `?` ends a long search in play with its move, `exit` ends analysis, UCI
  `stop` ends `go infinite`, and a GUI closing stdin (idle or during analysis) ends the engine
  with exit status 0;
- paths with backslashes, relative and with a drive letter, for --pgn, --out and suite files;
- games with the Linux build: python-chess over XBoard and over UCI (harness.py's checks: no
  illegal move, hang, time loss, false claim or warning), and cutechess-cli runs over both
  protocols (cutechess.py's checks).

Wine 8 (Debian 12) lacks ProcessPrng in bcryptprimitives.dll, which Rust's standard library
imports, so the .exe cannot even start there. tests/e2e/wine/processprng.c is a stand-in
built here with the same mingw and found through WINEPATH, only when this Wine needs it and only
for these checks; it is never put beside agentchess.exe.

Exit 0 when there are no faults, 1 on any fault, 2 when something needed is missing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import queue
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Callable, Optional

import chess
import chess.engine
import chess.pgn

import cutechess
import harness

ROOT = harness.ROOT
TARGET = "x86_64-pc-windows-gnu"
STANDIN_SOURCE = Path(__file__).resolve().parent / "wine" / "processprng.c"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# How long a check waits for a line or an exit before it calls the engine stuck. Not a timing
# claim: a working engine answers in milliseconds; this only keeps a hung one from hanging CI.
STALL = 60.0
DEEP = ["--player", "search:depth=8", "--seed", "1"]  # a search that runs long unless stopped
PE_SUBSYSTEM_CUI = 3
# Every Windows since 10 has these; the api-ms-win-* API sets are Windows' own too.
SYSTEM_DLLS = {"kernel32.dll", "ntdll.dll", "msvcrt.dll", "bcryptprimitives.dll", "advapi32.dll", "ws2_32.dll",
               "userenv.dll", "bcrypt.dll"}


class Wine:
    """A Wine prefix of our own, and how to start agentchess.exe in it."""

    def __init__(self, loader: str, exe: Path, work: Path) -> None:
        self.loader = loader
        self.exe = exe
        self.work = work
        self.env = dict(os.environ, WINEPREFIX=str(work / "prefix"), WINEDEBUG="-all")
        self.env.pop("DISPLAY", None)  # console programs only; no window may open
        self.wrapper = work / "agentchess-wine"

    def command(self, *args: str) -> list[str]:
        return [str(self.wrapper), *args]

    def start(self) -> str:
        """Makes the prefix, keeps one wineserver for every process of the run, and says
        whether the stand-in DLL is in use."""
        # No pipes to the wineserver: it outlives the call, and a pipe it holds would never end.
        quiet = dict(env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([self.loader, "wineboot", "--init"], timeout=300, **quiet)
        subprocess.run(["wineserver", "-p"], timeout=60, **quiet)
        bare = subprocess.run([self.loader, str(self.exe), "--version"], env=self.env, capture_output=True,
                              timeout=STALL)
        if bare.returncode == 0:
            note = "this Wine has ProcessPrng: no stand-in needed"
        else:
            dll = build_standin(self.work / "standin")
            self.env["WINEPATH"] = windows_path(dll.parent)
            note = (f"the .exe does not start alone under this Wine (exit status {bare.returncode}; Wine 8 "
                    f"lacks ProcessPrng): using the test stand-in {dll}")
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items() if k.startswith("WINE"))
        self.wrapper.write_text(f"#!/bin/sh\n# agentchess.exe under Wine, for windows_wine.py\n"
                                f"unset DISPLAY\nexport {exports}\nexec {shlex.quote(self.loader)} {shlex.quote(str(self.exe))} \"$@\"\n")
        self.wrapper.chmod(0o755)
        return note

    def stop(self) -> None:
        subprocess.run(["wineserver", "-k"], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=60)


def find_wine() -> Optional[str]:
    # Debian's wine64 package alone installs only /usr/lib/wine/wine64; `wine` adds /usr/bin/wine.
    for candidate in (shutil.which("wine64"), shutil.which("wine"), "/usr/lib/wine/wine64"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def build_standin(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    dll = folder / "bcryptprimitives.dll"
    subprocess.run(["x86_64-w64-mingw32-gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-o", str(dll),
                    str(STANDIN_SOURCE), "-ladvapi32"], check=True)
    return dll


def windows_path(path: Path) -> str:
    """Wine maps the Unix root to drive Z:."""
    return "Z:" + str(path.resolve()).replace("/", "\\")


def pe_subsystem(exe: Path) -> int:
    """The Subsystem field of the PE optional header (3: console, 2: GUI): a console program is
    what every GUI expects of an engine, started with pipes and no window."""
    head = exe.read_bytes()[:4096]
    pe = struct.unpack_from("<I", head, 0x3C)[0]
    if head[pe:pe + 4] != b"PE\0\0":
        raise ValueError(f"{exe} is not a PE file")
    return struct.unpack_from("<H", head, pe + 24 + 68)[0]


def imported_dlls(exe: Path) -> list[str]:
    out = subprocess.run(["x86_64-w64-mingw32-objdump", "-p", str(exe)], capture_output=True, text=True, check=True)
    return sorted({m[1].lower() for m in re.finditer(r"DLL Name: (\S+)", out.stdout)})


def check_build(wine: Wine, linux: str, problems: list[str]) -> str:
    """What a user copies is agentchess.exe alone: a console program that needs only DLLs
    Windows has (no mingw runtime DLL), says which build it is, and has no stand-in beside it.
    Returns the version."""
    version, target = version_of(wine.command())
    linux_version, _ = version_of([linux])
    print(f"  agentchess.exe --version: {version} ({target})", flush=True)
    if target != TARGET or not version or version != linux_version:
        problems.append(f"--version says {version} ({target}); expected {linux_version} ({TARGET})")
    if (subsystem := pe_subsystem(wine.exe)) != PE_SUBSYSTEM_CUI:
        problems.append(f"PE subsystem {subsystem}, expected {PE_SUBSYSTEM_CUI} (console)")
    dlls = imported_dlls(wine.exe)
    print(f"  imports: {', '.join(dlls)}", flush=True)
    if foreign := [d for d in dlls if d not in SYSTEM_DLLS and not d.startswith("api-ms-win-")]:
        problems.append(f"agentchess.exe needs DLLs Windows does not have: {foreign}")
    if (wine.exe.parent / "bcryptprimitives.dll").exists():
        problems.append(f"a bcryptprimitives.dll lies beside {wine.exe}: the stand-in must never ship")
    return version


def version_of(cmd: list[str]) -> tuple[str, str]:
    """(version, target) from `agentchess --version`: "agentchess 0.1.0 (TARGET)"."""
    out = subprocess.run([*cmd, "--version"], capture_output=True, text=True, timeout=STALL)
    m = re.fullmatch(r"agentchess (\S+) \((\S+)\)\s*", out.stdout)
    return (m[1], m[2]) if m else ("", f"unreadable: {out.stdout!r} {out.stderr!r}")


# ---------------------------------------------------------------- raw sessions over pipes


class Session:
    """One engine process over pipes, as a GUI holds it: lines are read on threads, so a check
    can wait for a line, or for the exit, with a deadline."""

    def __init__(self, cmd: list[str], problems: list[str], what: str) -> None:
        self.what = what
        self.problems = problems
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        self.stderr: list[str] = []
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._read, args=(self.proc.stderr, self.stderr.append), daemon=True).start()

    @staticmethod
    def _read(stream, put: Callable) -> None:
        for raw in stream:
            put(raw.decode(errors="replace").rstrip("\r\n"))

    def send(self, text: str) -> None:
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def expect(self, wanted: Callable[[str], bool], description: str) -> Optional[str]:
        """The first line from now on that is `wanted`, or None (a problem) if none comes."""
        while True:
            try:
                line = self.lines.get(timeout=STALL)
            except queue.Empty:
                self.problems.append(f"{self.what}: no {description} within {STALL:.0f} s; last lines {self.seen[-5:]}")
                return None
            self.seen.append(line)
            if line.split()[:1] and line.split()[0] in ("Error", "Illegal", "tellusererror"):
                self.problems.append(f"{self.what}: engine said {line!r}")
            if wanted(line):
                return line

    def close_input(self) -> None:
        self.proc.stdin.close()

    def finish(self, how: str) -> None:
        """Waits for the exit; it must come, with status 0 and nothing on stderr."""
        try:
            status = self.proc.wait(timeout=STALL)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            self.problems.append(f"{self.what}: still running {STALL:.0f} s after {how}; killed")
            return
        if status != 0:
            self.problems.append(f"{self.what}: exit status {status} after {how}")
        if self.stderr:
            self.problems.append(f"{self.what}: stderr {self.stderr[:5]}")


def legal(fen: str, moves: list[str], reply: str) -> bool:
    board = chess.Board(fen)
    for m in moves:
        board.push_uci(m)
    try:
        return chess.Move.from_uci(reply) in board.legal_moves
    except ValueError:
        return False


def thinking(line: str) -> bool:
    return bool(re.match(r"^\d+ ", line))


def check_xboard_crlf(wine: Wine, version: str, problems: list[str]) -> None:
    """A whole XBoard session with Windows line endings: an engine that kept the `\\r` would
    answer `xboard` and the moves with errors."""
    s = Session(wine.command("--seed", "1"), problems, "XBoard with CRLF")
    s.send("xboard\r\nprotover 2\r\n")
    s.expect(lambda l: "done=1" in l, "feature done=1")
    names = [m[1] for l in s.seen if (m := re.search(r'myname="([^"]*)"', l))]
    if not names or not names[0].startswith(f"AgentChess {version} "):
        problems.append(f"XBoard myname {names} does not carry 'AgentChess {version}'")
    s.send("new\r\nforce\r\nusermove e2e4\r\ngo\r\n")
    move = s.expect(lambda l: l.startswith("move "), "move")
    if move and not legal(chess.STARTING_FEN, ["e2e4"], move.split()[1]):
        problems.append(f"XBoard with CRLF: illegal reply {move!r} to e2e4")
    s.send("ping 7\r\n")
    s.expect(lambda l: l == "pong 7", "pong 7")
    s.send("quit\r\n")
    s.finish("quit")


def check_uci_crlf(wine: Wine, version: str, problems: list[str]) -> None:
    """The same for UCI, and `stop` ending `go infinite`, which has no end of its own."""
    s = Session(wine.command(*DEEP), problems, "UCI with CRLF")
    s.send("uci\r\n")
    s.expect(lambda l: l == "uciok", "uciok")
    if f"id name AgentChess {version}" not in s.seen:
        problems.append(f"UCI id name does not carry 'AgentChess {version}': {s.seen[:2]}")
    s.send("isready\r\nposition startpos moves e2e4 e7e5\r\ngo depth 2\r\n")
    best = s.expect(lambda l: l.startswith("bestmove "), "bestmove for go depth 2")
    if best and not legal(chess.STARTING_FEN, ["e2e4", "e7e5"], best.split()[1]):
        problems.append(f"UCI with CRLF: illegal {best!r}")
    s.send(f"position fen {KIWIPETE}\r\ngo infinite\r\n")
    s.expect(lambda l: l.startswith("info depth 1 "), "info depth 1")
    s.send("stop\r\n")
    best = s.expect(lambda l: l.startswith("bestmove "), "bestmove after stop")
    if best and not legal(KIWIPETE, [], best.split()[1]):
        problems.append(f"UCI stop: illegal {best!r}")
    s.send("quit\r\n")
    s.finish("quit")


def check_interrupts(wine: Wine, problems: list[str]) -> None:
    """`?` in play and `exit` in analysis reach a deep search through the input thread."""
    s = Session(wine.command(*DEEP), problems, "XBoard interrupts")
    # st 600: ten minutes a move, so only `?` can end this search before depth 8.
    s.send(f"xboard\nprotover 2\npost\nsetboard {KIWIPETE}\nst 600\ngo\n")
    s.expect(thinking, "thinking line")
    s.send("?\r\n")
    move = s.expect(lambda l: l.startswith("move "), "move after ?")
    if move:
        depths = [int(l.split()[0]) for l in s.seen if thinking(l)]
        if depths[-1] >= 8:
            problems.append(f"`?` did not cut the search short: it reached depth {depths[-1]}")
        if not legal(KIWIPETE, [], move.split()[1]):
            problems.append(f"`?`: illegal {move!r}")
    s.send(f"force\nsetboard {KIWIPETE}\nanalyze\n")
    s.expect(thinking, "analysis line")
    s.send("exit\r\nping 9\r\n")
    s.expect(lambda l: l == "pong 9", "pong 9 after exit")
    s.send("quit\n")
    s.finish("quit")


def check_closed_input(wine: Wine, problems: list[str]) -> None:
    """A GUI that goes away closes our stdin: the engine exits, idle or in the middle of
    analysis (XBoard `analyze`, UCI `go infinite`, both without an end of their own)."""
    s = Session(wine.command("--seed", "1"), problems, "stdin closed when idle")
    s.send("xboard\nprotover 2\n")
    s.expect(lambda l: "done=1" in l, "feature done=1")
    s.close_input()
    s.finish("stdin closed")
    for protocol, start, first in (("XBoard", f"xboard\nprotover 2\npost\nsetboard {KIWIPETE}\nanalyze\n", thinking),
                                   ("UCI", f"uci\nposition fen {KIWIPETE}\ngo infinite\n",
                                    lambda l: l.startswith("info depth 1 "))):
        s = Session(wine.command(*DEEP), problems, f"stdin closed during {protocol} analysis")
        s.send(start)
        s.expect(first, "first analysis line")
        s.close_input()
        s.finish("stdin closed")


def check_backslash_paths(wine: Wine, problems: list[str]) -> None:
    """--pgn, --out and suite files named the Windows way, relative and with a drive letter,
    land where Windows would put them (a program that took `\\` for a letter would write files
    called `out\\games.pgn` instead)."""
    where = wine.work / "paths"
    shutil.rmtree(where, ignore_errors=True)
    (where / "data").mkdir(parents=True)
    (where / "out").mkdir()
    shutil.copy(ROOT / "tests" / "data" / "mate1.epd", where / "data" / "mate1.epd")
    positions = len([l for l in (where / "data" / "mate1.epd").read_text().splitlines() if l.strip()])
    runs = [
        ["match", "level:7", "level:3", "--games", "2", "--seed", "1", "--pgn", r"out\games.pgn", "--out", r"out\run"],
        ["suite", r"data\mate1.epd", "--csv", r"out\suite.csv"],
        ["suite", windows_path(where / "data" / "mate1.epd"), "--csv", windows_path(where / "out" / "suite-abs.csv")],
    ]
    for args in runs:
        out = subprocess.run(wine.command(*args), cwd=where, capture_output=True, text=True, timeout=300)
        if out.returncode != 0 and not out.stdout and not out.stderr:
            # Every way the program fails says so on stderr, and a match reports its progress
            # there: a status with no word at all is Wine not starting it, seen once on a fresh
            # machine. Once more, and the second answer is the one judged.
            print(f"  note: Wine ended agentchess.exe {' '.join(args)} with status {out.returncode} "
                  "and no output; run again")
            out = subprocess.run(wine.command(*args), cwd=where, capture_output=True, text=True, timeout=300)
        if out.returncode != 0:
            problems.append(f"agentchess.exe {' '.join(args)}: exit status {out.returncode}: {out.stderr.strip()[:300]}")
    stray = [p.name for p in where.rglob("*") if "\\" in p.name]
    if stray:
        problems.append(f"files named with a backslash instead of in folders: {stray}")
    games = 0
    if (where / "out" / "games.pgn").exists():
        with (where / "out" / "games.pgn").open() as f:
            while chess.pgn.read_game(f) is not None:
                games += 1
    if games != 2:
        problems.append(f"out\\games.pgn holds {games} games, expected 2")
    if not (where / "out" / "run" / "games.csv").exists():
        problems.append("--out out\\run did not write out/run/games.csv")
    for name in ("suite.csv", "suite-abs.csv"):
        csv = where / "out" / name
        rows = len(csv.read_text().splitlines()) - 1 if csv.exists() else 0
        if rows != positions:
            problems.append(f"{name}: {rows} rows, expected one per position ({positions})")


# ---------------------------------------------------------------- games against the Linux build

# Starts of the .exe under python-chess before a miss of its start-up window counts.
START_TRIES = 3


async def start_under_wine(player: harness.Player, protocol: str) -> None:
    """python-chess gives an XBoard engine a fixed 2 s from `protover 2` to its last feature,
    and a Wine process on a loaded machine can take longer than that just to start. Up to
    START_TRIES tries are taken, each miss printed and python-chess's warning about it dropped;
    an engine that never declares its features still fails."""
    for tries_left in range(START_TRIES - 1, -1, -1):
        try:
            await player.start()
            return
        except chess.engine.EngineError as missed:
            if tries_left == 0:
                raise
            print(f"  python-chess {protocol}: the .exe missed python-chess's start-up window ({missed}); "
                  f"trying again", flush=True)
            harness.LOG.forget(": Timeout during initialization")
            await asyncio.sleep(1.0)


async def python_chess_games(wine: Wine, linux: str, version: str, games: int, problems: list[str]) -> int:
    """Games with clocks through python-chess, the .exe against the Linux build, over each
    protocol, colours alternating; harness.play_game holds both to its checks."""
    pairs = {
        "xboard": (["--level", "7"], ["--level", "5"]),
        "uci": (["--player", "search:depth=2"], ["--level", "7"]),
    }
    played = 0
    for protocol, (win_args, linux_args) in pairs.items():
        for g in range(games):
            win = harness.Side(f"windows {' '.join(win_args)} ({protocol})", wine.command(*win_args, "--seed", str(g + 1)),
                               ours=True, protocol=protocol)
            lin = harness.Side(f"linux {' '.join(linux_args)} ({protocol})", [linux, *linux_args, "--seed", str(g + 11)],
                               ours=True, protocol=protocol)
            players = [harness.Player(win), harness.Player(lin)]
            await start_under_wine(players[0], protocol)
            await players[1].start()
            name = players[0].engine.id.get("name", "")
            if not name.startswith(f"AgentChess {version}"):
                problems.append(f"python-chess {protocol}: the .exe's name is {name!r}, not 'AgentChess {version} ...'")
            white, black = players if g % 2 == 0 else players[::-1]
            rec = await harness.play_game(white, black, base=10.0, inc=0.1)
            for p in players:
                await p.stop()
            played += 1
            print(f"  python-chess {protocol}: {rec.pgn_line()}", flush=True)
            problems += [f"python-chess {protocol}: {p}" for p in rec.problems]
    return played


def cutechess_games(wine: Wine, linux: str, cli: str, args: argparse.Namespace) -> tuple[int, list]:
    """cutechess-cli runs, the .exe against the Linux build, over XBoard and over UCI, from
    cutechess.py's openings; its Monitor holds every engine to its checks."""
    work = wine.work / "cutechess"
    work.mkdir(parents=True, exist_ok=True)
    openings = cutechess.write_openings(work / "openings.pgn")
    runs = []
    for proto, win_spec, linux_spec in (("xboard", "7", "5"), ("uci", "search:depth=2", "7")):
        win = cutechess.agent(str(wine.wrapper), win_spec, proto, 1, args.tc)
        lin = cutechess.agent(linux, linux_spec, proto, 2, args.tc)
        engines = [dataclasses.replace(win, name="windows-" + win.name), dataclasses.replace(lin, name="linux-" + lin.name)]
        run = cutechess.play(cli, engines, work, f"wine-{proto}", args, tournament="round-robin",
                             games=args.cutechess_games, seed=1, openings=openings, log_traffic=True)
        print(f"  cutechess-cli {proto}: {len(run.games)} games in {run.seconds:.1f} s, {len(run.faults)} faults; "
              f"log {work / f'wine-{proto}.log'}", flush=True)
        cutechess.print_tally(cutechess.tally(run.games, [e.name for e in engines]))
        runs.append(run)
    replay_faults, note = cutechess.replay_all([work / f"wine-{p}.pgn" for p in ("xboard", "uci")])
    print("  " + note)
    games = [g for run in runs for g in run.games]
    cutechess.print_reasons(games)
    return len(games), [f for run in runs for f in run.faults] + replay_faults


# ---------------------------------------------------------------- the run


def arguments() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", default=str(ROOT / "target" / TARGET / "release" / "agentchess.exe"))
    ap.add_argument("--linux", default=str(harness.BINARY), help="the Linux build it plays against")
    ap.add_argument("--cutechess", help="cutechess-cli (default: $CUTECHESS, then PATH)")
    ap.add_argument("--allow-skip", action="store_true",
                    help="exit 0 with a note when Wine, mingw or the .exe is missing")
    ap.add_argument("--games", type=int, default=2, help="python-chess games per protocol")
    ap.add_argument("--cutechess-games", type=int, default=8, help="cutechess-cli games per protocol")
    ap.add_argument("--tc", default="4+0.04", help="cutechess-cli clock of both engines")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--stall-timeout", type=float, default=120.0, help="cutechess-cli: seconds of silence before a run is killed")
    ap.add_argument("--out", help="work folder: Wine prefix, stand-in DLL, PGNs and logs (default: a fresh temporary one)")
    return ap.parse_args()


def missing(args: argparse.Namespace, wine: Optional[str], cli: Optional[str]) -> Optional[str]:
    if wine is None:
        return "Wine not found (Debian: apt-get install wine64)"
    if shutil.which("x86_64-w64-mingw32-gcc") is None:
        return "x86_64-w64-mingw32-gcc not found (Debian: apt-get install gcc-mingw-w64-x86-64)"
    if not Path(args.exe).is_file():
        return f"{args.exe} not found: cargo build --release --target {TARGET}"
    if not os.access(args.linux, os.X_OK):
        return f"{args.linux} not found: cargo build --release"
    if cli is None:
        return "cutechess-cli not available (give --cutechess PATH or CUTECHESS)"
    return None


def main() -> int:
    args = arguments()
    loader = find_wine()
    cli = cutechess.find_cutechess(args.cutechess)
    if reason := missing(args, loader, cli):
        print(("skipped: " if args.allow_skip else "error: ") + reason)
        return 0 if args.allow_skip else 2
    work = Path(args.out).resolve() if args.out else Path(tempfile.mkdtemp(prefix="agentchess-wine-"))
    work.mkdir(parents=True, exist_ok=True)
    wine = Wine(loader, Path(args.exe).resolve(), work)
    print(f"agentchess.exe {wine.exe}, Wine {loader}, Linux build {args.linux}, cutechess-cli {cli}, work {work}",
          flush=True)
    try:
        print(wine.start(), flush=True)
        return run_checks(wine, args, cli)
    finally:
        wine.stop()


def run_checks(wine: Wine, args: argparse.Namespace, cli: str) -> int:
    problems: list[str] = []
    build: dict = {}  # the version, which the later checks look for in myname and id name
    checks = [
        ("the build: version and target, console program, system DLLs only",
         lambda: build.update(version=check_build(wine, args.linux, problems))),
        ("XBoard session with CRLF line endings", lambda: check_xboard_crlf(wine, build["version"], problems)),
        ("UCI session with CRLF line endings, stop ends go infinite",
         lambda: check_uci_crlf(wine, build["version"], problems)),
        ("? ends a search in play, exit ends analysis", lambda: check_interrupts(wine, problems)),
        ("stdin closed: idle, during XBoard analysis, during UCI go infinite", lambda: check_closed_input(wine, problems)),
        ("backslash paths for --pgn, --out and suite files", lambda: check_backslash_paths(wine, problems)),
    ]
    for what, check in checks:
        before = len(problems)
        check()
        print(f"  {what}: {'ok' if len(problems) == before else 'FAULT'}", flush=True)
    pychess = asyncio.run(python_chess_games(wine, args.linux, build["version"], args.games, problems))
    problems += [f"python-chess: {w}" for w in harness.late_problems()]
    problems += [f"unattributed python-chess warning: {w}" for w in harness.LOG.take_all_warnings()]
    cute_games, cute_faults = cutechess_games(wine, args.linux, cli, args)
    faults = len(problems) + len(cute_faults)
    print(f"\n== windows build under Wine: {pychess + cute_games} games ({pychess} python-chess, "
          f"{cute_games} cutechess-cli), {len(checks)} checks; {faults} faults")
    for p in problems:
        print("FAULT", p)
    for f in cute_faults:
        print(f.show())
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())

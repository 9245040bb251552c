#!/usr/bin/env python3
"""Real XBoard: a match between two AgentChess levels loaded from engines.ini, under Xvfb.

Runs `xboard @engines.ini -fcp <A's command> -se B -mg N ... -sgf games.pgn -xexit` inside `xvfb-run`,
always under `timeout` (an error popup would make xboard wait forever), then checks the saved
PGN: N games, each ended by mate (with the right winner) or a draw the board really shows
(stalemate, dead material, repetition, fifty moves), and no comment that betrays a forfeit
(false claim, illegal move, time loss, crash). xboard passes an engine's stderr on as its output,
so its debug file also shows every complaint of the engines: a log line at warning level or
above, a panic, a player fault reported (harness.py's rules); any of them is a problem, even
when the game went on with the fallback move. Optionally saves a screenshot of the board.

    cargo build --release
    python3 tests/e2e/xboard_match.py [--games 2] [--first "AgentChess L10"] [--second "AgentChess L3"]
                                      [--out target/e2e-xboard] [--screenshot board.png]

Needs `apt-get install xboard xvfb` (and imagemagick for --screenshot) and `pip install chess`.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness

ROOT = Path(__file__).resolve().parents[2]
BIN_DIR = Path(os.environ.get("AGENTCHESS_DIR", ROOT / "target" / "release"))
XBOARD = "/usr/games/xboard"

BAD_COMMENT = re.compile(r"false|illegal|forfeit|time|crash|exit|stall|disconnect|resign", re.IGNORECASE)
# An engine's line in xboard's debug file: `1234 <first : text`, `1234 <second: text`.
ENGINE_LINE = re.compile(r"^\d+ <(first|second)\s*: ?(.*)$")


def engine_list() -> dict[str, str]:
    """Nickname -> engine command, from engines.ini's -firstChessProgramNames."""
    text = (ROOT / "engines.ini").read_text()
    return dict(re.findall(r'"([^"]+)" -fcp "([^"]+)"', text))


def inner(args: argparse.Namespace) -> int:
    """Runs under xvfb-run: xboard itself, plus the screenshot."""
    # xboard 4.9.1 evaluates `-fe X || -se Y`, so with -fe the -se is never read: the first
    # engine goes in as the command its engines.ini line names, the second by nickname.
    cmd = [
        XBOARD,
        f"@{ROOT / 'engines.ini'}",
        "-fcp", engine_list()[args.first],
        "-se", args.second,
        "-mg", str(args.games),
        "-tc", args.tc,
        "-inc", str(args.inc),
        "-xponder",
        "-sgf", str(args.out / "games.pgn"),
        "-xexit",
        "-saveSettingsOnExit", "false",
        "-soundProgram", "/bin/true",
        # With a screenshot to take, pause between games long enough to take it.
        "-matchPause", "3000" if args.screenshot else "300",
        "-animateMoving", "false",
        "-popupExitMessage", "false",
        "-popupMoveErrors", "false",
        "-autoInstall", "",
        # The first-run tip balloon would sit on the board in the screenshot.
        "-messageSuppress", "Right-clicking menu item or dialog text pops up help on it",
        "-debug", "-nameOfDebugFile", str(args.out / "xboard-debug.txt"),
    ]
    print(" ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd)
    if args.screenshot:
        take_screenshot(proc, args.out / "games.pgn", Path(args.screenshot))
    return proc.wait()


def take_screenshot(proc: subprocess.Popen, pgn: Path, png: Path) -> None:
    """The engines move in microseconds, so a shot at a fixed time is a gamble. Instead wait for
    the first finished game in the PGN and shoot during the pause before the next one."""
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        if pgn.exists() and "[Result" in pgn.read_text(errors="replace"):
            time.sleep(0.5)
            subprocess.run(["import", "-window", "root", str(png)], check=False)
            # Xvfb has no window manager: xboard sits in the top-left corner of a black screen.
            subprocess.run(
                ["convert", str(png), "-bordercolor", "black", "-border", "1", "-trim", "+repage", str(png)],
                check=False,
            )
            print(f"screenshot saved to {png}", flush=True)
            return
        time.sleep(0.05)
    print("no screenshot: the match ended before a game was saved (use --games 2 or more)", flush=True)


def check_pgn(path: Path, games: int, distinct_players: bool) -> list[str]:
    import chess
    import chess.pgn

    problems = []
    if not path.exists():
        return [f"{path} was not written"]
    seen = 0
    names = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            seen += 1
            h = game.headers
            names.update((h.get("White"), h.get("Black")))
            label = f"game {seen} ({h.get('White')} - {h.get('Black')}, {h.get('Result')})"
            if game.errors:
                problems.append(f"{label}: PGN errors {game.errors}")
            board = game.end().board()
            comment = game.end().comment
            result = h.get("Result")
            print(f"{label}: {len(board.move_stack)} plies {{{comment}}}")
            for side in ("White", "Black"):
                if not h.get(side, "").startswith("AgentChess"):
                    problems.append(f"{label}: {side} is {h.get(side)!r}")
            if BAD_COMMENT.search(comment):
                problems.append(f"{label}: ended with '{comment}'")
            if result in ("1-0", "0-1"):
                winner = chess.WHITE if result == "1-0" else chess.BLACK
                if not (board.is_checkmate() and board.turn != winner):
                    problems.append(f"{label}: decisive result without mate ({board.fen()})")
            elif result == "1/2-1/2":
                drawn = (
                    board.is_stalemate()
                    or board.is_insufficient_material()
                    or board.halfmove_clock >= 100
                    or board.is_repetition(3)
                )
                if not drawn:
                    problems.append(f"{label}: draw in a live position ({board.fen()})")
            else:
                problems.append(f"{label}: unfinished ({result})")
    if seen != games:
        problems.append(f"{seen} games in {path}, expected {games}")
    if distinct_players and len(names) != 2:
        problems.append(f"expected two different engines, the PGN names {sorted(names)}")
    return problems


def check_engine_output(path: Path) -> list[str]:
    """The engines' complaints in xboard's debug file, which holds their stdout and stderr
    lines alike: log lines at warning level or above, panics (the message and its backtrace are
    in no log format, but the `panicked at` line names it), player faults reported on stdout."""
    if not path.exists():
        return [f"{path} was not written"]
    problems = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = ENGINE_LINE.match(line.rstrip("\n"))
            if m is None:
                continue
            who, text = m.groups()
            level = harness.LOG_LINE.match(text)
            if (level and level.group(1) in ("WARN", "ERROR")) or harness.FAULT_LINE.match(text) or " panicked at " in text:
                problems.append(f"{who} engine: {text}")
    return problems


def outer(args: argparse.Namespace) -> int:
    binary = BIN_DIR / "agentchess"
    if not binary.exists():
        print(f"{binary} not found: run `cargo build --release` first")
        return 1
    listed = engine_list()
    for nick in (args.first, args.second):
        if nick not in listed:
            print(f"'{nick}' is not in engines.ini (listed: {', '.join(listed)})")
            return 1
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "games.pgn").unlink(missing_ok=True)
    (args.out / "xboard-debug.txt").unlink(missing_ok=True)
    home = tempfile.mkdtemp(prefix="xboard-home-")
    # xboard finds engines by PATH; its own settings go to a scratch HOME, never the user's.
    # RUST_LOG no quieter than warnings, which the check of the debug file looks for.
    env = harness.engine_env(PATH=f"{BIN_DIR}:/usr/games:{os.environ.get('PATH', '')}", HOME=home)
    cmd = [
        "timeout", "-k", "10", str(args.timeout),
        "xvfb-run", "-a", "-s", "-screen 0 1280x1024x24",
        sys.executable, str(Path(__file__).resolve()), "--inner",
        "--games", str(args.games), "--first", args.first, "--second", args.second,
        "--tc", args.tc, "--inc", str(args.inc), "--out", str(args.out.resolve()),
    ]
    if args.screenshot:
        cmd += ["--screenshot", str(Path(args.screenshot).resolve())]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    print(proc.stdout, end="")
    print(proc.stderr, end="", file=sys.stderr)
    problems = []
    if proc.returncode == 124:
        problems.append(f"xboard did not finish within {args.timeout} s")
    elif proc.returncode != 0:
        problems.append(f"xboard exited with status {proc.returncode}")
    if "final score" not in proc.stdout + proc.stderr:
        problems.append("xboard printed no final score")
    problems += check_pgn(args.out / "games.pgn", args.games, args.first != args.second)
    problems += check_engine_output(args.out / "xboard-debug.txt")
    print(f"{len(problems)} problems")
    harness.print_problems(problems)
    return 1 if problems else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--first", default="AgentChess L10", help="nickname from engines.ini")
    ap.add_argument("--second", default="AgentChess L3", help="nickname from engines.ini")
    ap.add_argument("--tc", default="0:10", help="xboard -tc (minutes or min:sec per game)")
    ap.add_argument("--inc", type=float, default=0.1)
    ap.add_argument("--out", type=Path, default=ROOT / "target" / "e2e-xboard")
    ap.add_argument("--timeout", type=int, default=900, help="seconds before xboard is killed")
    ap.add_argument("--screenshot", help="save a PNG of the board after the first game (needs --games 2 or more)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.exit(inner(args) if args.inner else outer(args))


if __name__ == "__main__":
    main()

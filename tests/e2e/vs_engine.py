#!/usr/bin/env python3
"""AgentChess against real engines, through `agentchess`'s own external-engine players: a thin
check over `agentchess tournament`/`match` with `uci:`/`xboard:` specs (src/players/external/).

It runs, as issue 12 asks CI to:

    agentchess tournament --levels 1-9 "uci:/usr/games/stockfish,depth=1" --games N
    agentchess match "level:10,nodes=20000" "uci:/usr/games/stockfish,depth=1" --games 20
    agentchess match level:7 "xboard:/usr/games/fairymax,sd=1" --games 20

and fails (exit 1) when a run exits non-zero, reports any fault ("Faults: none" is required: a
crash, a silent engine, an illegal move, a false result claim or a time forfeit of either side
is a fault), or when a game's PGN disagrees with python-chess: every move must be legal there,
and the Result must be python-chess's own outcome of the final position (mate, stalemate,
threefold, fifty moves, dead material) -- so a wrong result claim accepted by the runner, or a
game ended early, shows here. Engine draw offers are never accepted by the runner, so a
game that ends in a draw must be a draw by the rules.

An engine binary that is absent is skipped with a message. Needs `pip install chess`.

    python3 tests/e2e/vs_engine.py [--games 100] [--fairymax-games 20]
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("AGENTCHESS", ROOT / "target" / "release" / "agentchess"))


def which(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name) or (name if os.path.exists(name) else None)
        if found:
            return found
    return None


def check_pgn(text: str) -> list[str]:
    """Problems with the games of a PGN file, replayed by python-chess."""
    problems = []
    stream = io.StringIO(text)
    count = 0
    while (game := chess.pgn.read_game(stream)) is not None:
        count += 1
        label = f"game {game.headers.get('Round')} {game.headers.get('White')} vs {game.headers.get('Black')}"
        if game.errors:
            problems.append(f"{label}: python-chess could not read it: {game.errors[0]}")
            continue
        board = game.board()
        for move in game.mainline_moves():
            if move not in board.legal_moves:
                problems.append(f"{label}: illegal {move} in {board.fen()}")
                break
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        result = game.headers.get("Result")
        termination = game.headers.get("Termination", "")
        if outcome is None:
            # Only a move cap or a fault may end a game that is not over; faults are refused below.
            if "cap" not in termination.lower():
                problems.append(f"{label}: {result} ({termination}) but the game is not over: {board.fen()}")
        elif outcome.result() != result:
            problems.append(f"{label}: Result {result} ({termination}), python-chess says {outcome.result()} ({outcome.termination.name})")
    if count == 0:
        problems.append("no games in the PGN")
    return problems


def run(args: list[str], pgn: Path) -> list[str]:
    cmd = [str(BINARY), *args, "--pgn", str(pgn)]
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    out = proc.stdout
    tail = out.strip().splitlines()[-1] if out.strip() else "(no output)"
    print("  ", tail)
    problems = []
    if proc.returncode != 0:
        problems.append(f"exit status {proc.returncode}: {proc.stderr.strip()[-500:]}")
    if "Faults: none" not in out:
        faults = out[out.find("Faults:"):].split("\n\n")[0] if "Faults:" in out else "no Faults line"
        problems.append(f"faults reported:\n{faults}")
    for line in proc.stderr.splitlines():
        if any(word in line for word in ("WARN", "ERROR", "panicked")):
            problems.append(f"stderr: {line}")
    if pgn.exists():
        problems += check_pgn(pgn.read_text())
    else:
        problems.append("no PGN written")
    table = [l for l in out.splitlines() if " vs " in l and "-" in l][:12]
    for line in table:
        print("   ", line)
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games a pairing in the Stockfish tournament")
    ap.add_argument("--fairymax-games", type=int, default=20)
    ap.add_argument("--level10-games", type=int, default=20, help="games of level 10 (20,000 nodes a move) against Stockfish")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    if not BINARY.exists():
        print(f"{BINARY} not built (cargo build --release)", file=sys.stderr)
        return 2
    runs = []
    stockfish = which("stockfish", "/usr/games/stockfish")
    if stockfish:
        runs.append(["tournament", "--levels", "1-9", f"uci:{stockfish},depth=1", "--games", str(args.games)])
        # Level 10 at a fixed node budget, so that the run takes as long on any machine.
        runs.append(["match", "level:10,nodes=20000", f"uci:{stockfish},depth=1", "--games", str(args.level10_games)])
    else:
        print("stockfish not installed: its tournament is skipped")
    fairymax = which("fairymax", "/usr/games/fairymax")
    if fairymax:
        runs.append(["match", "level:7", f"xboard:{fairymax},sd=1", "--games", str(args.fairymax_games)])
    else:
        print("fairymax not installed: its match is skipped")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, r in enumerate(runs):
            problems = run([*r, "--threads", str(args.threads)], Path(tmp) / f"run{i}.pgn")
            for p in problems:
                print("FAIL", p)
            failed += bool(problems)
    print(f"{len(runs)} runs, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

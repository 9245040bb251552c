#!/usr/bin/env python3
"""AgentChess levels against a real, depth-limited engine: the thesis's Crafty-at-depth-1 column
(Table 3.1, Tables 3.4-3.5) with a peer that is installed here instead of our own searcher.

AgentChess runs as a subprocess through its XBoard interface (python-chess's XBoard client);
the opponent is Stockfish over UCI (`go depth D`). (Fairy-Max and Phalanx were tried: through
python-chess the first lacks `setboard` and the second refuses `sd`, so neither can be held to
a depth here.)
Colours alternate, games end by the rules (python-chess adjudicates mate, stalemate, threefold
repetition, the fifty-move rule and insufficient material) or at a ply cap, counted apart.
Every AgentChess move is checked for legality. Prints the results table; `--pgn` keeps the games.

    python3 tests/e2e/vs_engine.py --engine stockfish --depth 1 --levels 1-8 --games 20
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("AGENTCHESS", ROOT / "target" / "release" / "agentchess"))
ENGINES = {
    "stockfish": ("/usr/games/stockfish", "uci"),
}


def open_engine(cmd: list[str], protocol: str) -> chess.engine.SimpleEngine:
    if protocol == "uci":
        return chess.engine.SimpleEngine.popen_uci(cmd)
    return chess.engine.SimpleEngine.popen_xboard(cmd)


def play(ours, theirs, ours_white: bool, depth: int, cap: int) -> tuple[str, str, chess.Board]:
    """One game; returns the result, why it ended, and the final board."""
    board = chess.Board()
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.result(), outcome.termination.name.lower().replace("_", " "), board
        if board.ply() >= cap:
            return "1/2-1/2", "ply cap", board
        our_turn = (board.turn == chess.WHITE) == ours_white
        if our_turn:
            move = ours.play(board, chess.engine.Limit(time=1.0)).move
            if move not in board.legal_moves:
                raise SystemExit(f"AgentChess played illegal {move} in {board.fen()}")
        else:
            move = theirs.play(board, chess.engine.Limit(depth=depth)).move
        board.push(move)


def parse_levels(text: str) -> list[int]:
    levels: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        levels += range(int(lo), int(hi or lo) + 1)
    return levels


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", choices=sorted(ENGINES), default="stockfish")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--levels", default="1-8")
    ap.add_argument("--games", type=int, default=20, help="games per level (colours alternate)")
    ap.add_argument("--cap", type=int, default=600, help="ply cap, counted apart from the rules' draws")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn", type=Path)
    args = ap.parse_args()
    path, protocol = ENGINES[args.engine]
    if not Path(path).exists():
        raise SystemExit(f"{path} not found: apt-get install {args.engine}")
    if not BINARY.exists():
        raise SystemExit(f"{BINARY} not found: run `cargo build --release` first (or set AGENTCHESS)")

    opponent = f"{args.engine} depth {args.depth}"
    pgn_out = open(args.pgn, "w") if args.pgn else None
    print(f"{'player':<10} {'vs ' + opponent:<22} {'wins':>5} {'losses':>6} {'draws':>6} {'capped':>6}")
    theirs = open_engine([path], protocol)
    try:
        for level in parse_levels(args.levels):
            wins = losses = draws = capped = 0
            ours = open_engine([str(BINARY), "--level", str(level), "--seed", str(args.seed)], "xboard")
            try:
                for i in range(args.games):
                    ours_white = i % 2 == 0
                    result, why, board = play(ours, theirs, ours_white, args.depth, args.cap)
                    won = result == ("1-0" if ours_white else "0-1")
                    lost = result == ("0-1" if ours_white else "1-0")
                    wins, losses = wins + won, losses + lost
                    draws += not won and not lost and why != "ply cap"
                    capped += why == "ply cap"
                    if pgn_out:
                        game = chess.pgn.Game.from_board(board)
                        game.headers.update({
                            "Event": f"AgentChess vs {opponent}", "Site": "AgentChess",
                            "Date": datetime.date.today().strftime("%Y.%m.%d"), "Round": str(i + 1),
                            "White": f"AgentChess L{level}" if ours_white else opponent,
                            "Black": opponent if ours_white else f"AgentChess L{level}",
                            "Result": result, "Termination": why,
                        })
                        print(game, file=pgn_out, end="\n\n")
            finally:
                ours.quit()
            print(f"{'Level ' + str(level):<10} {'':<22} {wins:>5} {losses:>6} {draws:>6} {capped:>6}", flush=True)
    finally:
        theirs.quit()
        if pgn_out:
            pgn_out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Differential move-generation check against an independent generator, python-chess.

Plays seeded random games (biased towards captures, checks, promotions, castling and en
passant so that the rare rules come up often), collects positions along the way, counts their
legal moves to depth 2 (and depth 3 for a sample) with python-chess, and has
`agentchess perft --suite` check every count. The perft suite in tests/data is fixed; this one is
new positions every seed. Exits non-zero on any mismatch.

    python3 tests/e2e/perft_vs_python_chess.py [--positions 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("AGENTCHESS", ROOT / "target" / "release" / "agentchess"))


def perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def interesting(board: chess.Board, move: chess.Move) -> bool:
    # A double pawn step is what makes en passant possible on the next move.
    double_step = (board.piece_type_at(move.from_square) == chess.PAWN
                   and abs(move.to_square - move.from_square) == 16)
    return (board.is_capture(move) or board.gives_check(move) or move.promotion is not None
            or board.is_castling(move) or board.is_en_passant(move) or double_step)


def positions(count: int, rng: random.Random) -> list[chess.Board]:
    """Positions from random games; special moves are preferred two times in three."""
    out: list[chess.Board] = []
    while len(out) < count:
        board = chess.Board()
        for _ in range(rng.randint(10, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            special = [m for m in moves if interesting(board, m)]
            move = rng.choice(special if special and rng.random() < 2 / 3 else moves)
            board.push(move)
            # The opening, where castling rights and double steps live, is sampled more densely.
            if rng.random() < (0.3 if board.ply() < 30 else 0.1):
                out.append(board.copy(stack=False))
            if board.is_game_over():
                break
    return out[:count]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not BINARY.exists():
        raise SystemExit(f"{BINARY} not found: run `cargo build --release` first (or set AGENTCHESS)")
    rng = random.Random(args.seed)
    boards = positions(args.positions, rng)
    features = {"en passant": 0, "castling": 0, "promotion": 0, "in check": 0}
    with tempfile.TemporaryDirectory() as tmp:
        suite = Path(tmp) / "random.epd"
        with open(suite, "w") as f:
            for i, board in enumerate(boards):
                counts = [f";D1 {perft(board, 1)}", f";D2 {perft(board, 2)}"]
                if i % 10 == 0:
                    counts.append(f";D3 {perft(board, 3)}")
                f.write(f"{board.fen()} {' '.join(counts)}\n")
                legal = list(board.legal_moves)
                features["en passant"] += any(board.is_en_passant(m) for m in legal)
                features["castling"] += any(board.is_castling(m) for m in legal)
                features["promotion"] += any(m.promotion for m in legal)
                features["in check"] += board.is_check()
        result = subprocess.run([str(BINARY), "perft", "--suite", str(suite)], capture_output=True, text=True)
    print(result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr)
    print(f"{len(boards)} random positions (seed {args.seed}); with legal moves of each kind: {features}")
    if result.returncode != 0:
        print(result.stdout)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

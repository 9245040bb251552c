#!/usr/bin/env python3
"""Checks tests/data/annotate_reasons.txt against Stockfish: every line's FEN reads, its move is
legal, and Stockfish (depth 18) finds that the move loses at least 0.2 of the winning chances
(annotate's rule: 2 / (1 + exp(-0.00368208 cp)) - 1, cp capped at +-1000, a mate as the cap)
and that its best move is another. With --mirror FEN MOVE it prints the position with the
colours swapped (and the move), for adding a line of the other colour.

    python3 tests/data/verify_annotate_reasons.py [--depth 18]
    python3 tests/data/verify_annotate_reasons.py --mirror "6k1/5ppp/8/8/8/8/1q3PPP/R5K1 w - - 0 1" h3
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import chess
import chess.engine

HERE = Path(__file__).resolve().parent


def chances(score: chess.engine.PovScore, turn: chess.Color) -> float:
    s = score.pov(turn)
    if s.is_mate():
        cp = 1000 if s.mate() > 0 else -1000
    else:
        cp = max(-1000, min(1000, s.score()))
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=18)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--mirror", nargs=2, metavar=("FEN", "MOVE"))
    args = ap.parse_args()
    if args.mirror:
        board = chess.Board(args.mirror[0])
        move = board.parse_san(args.mirror[1])
        mirrored = board.mirror()
        flip = chess.Move(chess.square_mirror(move.from_square), chess.square_mirror(move.to_square), move.promotion)
        print(f"{mirrored.fen()} | {mirrored.san(flip)}")
        return 0
    bad = 0
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        for n, line in enumerate((HERE / "annotate_reasons.txt").read_text().splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            fen, san, motif, piece, _ = [f.strip() for f in line.split("|")]
            board = chess.Board(fen)
            if not board.is_valid():
                print(f"line {n}: invalid position {fen}")
                bad += 1
                continue
            move = board.parse_san(san)
            mover = board.turn
            before = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            board.push(move)
            if board.is_game_over():
                print(f"line {n}: {san} ends the game")
                bad += 1
                continue
            after = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            loss = chances(before["score"], mover) - chances(after["score"], mover)
            best = before["pv"][0]
            ok = loss >= 0.2 and best != move
            bad += not ok
            print(f"line {n}: {'ok ' if ok else 'BAD'} {motif:11} {piece:4} {san:7} loss {loss:.2f} "
                  f"({before['score'].pov(mover)} -> {after['score'].pov(mover)}), best {chess.Board(fen).san(best)}")
    finally:
        engine.quit()
    print(f"{bad} line(s) fail")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Reference answers of python-chess's Syzygy prober for `tests/syzygy.rs`.

Random legal positions over the endings whose tables are in a directory (both colours for the
stronger side, either side to move, no castling, no en passant), each line
`FEN;WDL;DTZ` as `chess.syzygy` answers (WDL -2 to 2 from the side to move's view, DTZ in
plies, signed the same way). Fixed seed: the same tables give the same file.

    python3 tests/data/make_syzygy_reference.py > tests/data/syzygy_reference.txt
    python3 tests/data/make_syzygy_reference.py --tables ../shared/syzygy --seed 2 > /tmp/all.txt
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

import chess
import chess.syzygy

PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def endings(tables: Path) -> list[str]:
    names = {p.stem for p in tables.glob("*.rtbw")} & {p.stem for p in tables.glob("*.rtbz")}
    return sorted(n for n in names if re.fullmatch(r"K[QRBNP]*vK[QRBNP]*", n))


def random_position(rng: random.Random, ending: str) -> chess.Board:
    strong, weak = ending.split("v")
    colours = (chess.WHITE, chess.BLACK) if rng.random() < 0.5 else (chess.BLACK, chess.WHITE)
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, len(strong) + len(weak))
        ok = True
        for letters, colour in zip((strong, weak), colours):
            for letter in letters:
                square = squares.pop()
                if letter == "P" and chess.square_rank(square) in (0, 7):
                    ok = False
                board.set_piece_at(square, chess.Piece(PIECES[letter], colour))
        board.turn = rng.random() < 0.5
        if ok and board.is_valid():
            return board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=Path, default=Path(__file__).resolve().parent / "syzygy")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names = endings(args.tables)
    with chess.syzygy.open_tablebase(str(args.tables)) as tablebase:
        for _ in range(args.count):
            board = random_position(rng, rng.choice(names))
            print(f"{board.fen()};{tablebase.probe_wdl(board)};{tablebase.probe_dtz(board)}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes tests/data/openings.epd: start positions for seeded matches.

Each is EIGHT random legal plies from the initial position (every legal move equally likely,
random.Random(SEED)), kept only when Stockfish at depth 12 scores it within +/-LIMIT centipawns
for the side to move and no two are the same position. Deterministic players (level 9 with
`placement`, Stockfish at a fixed depth) replay the same game from the same start, so a match
between them needs many starts to be more than a few games repeated.

    python3 tests/data/make_openings.py > tests/data/openings.epd
"""
import random
import sys
from pathlib import Path

import chess
import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
from harness import random_opening  # noqa: E402

SEED = 20261127
COUNT = 500
PLIES = 8
LIMIT = 60
STOCKFISH = "/usr/games/stockfish"


def main() -> None:
    rng = random.Random(SEED)
    seen = set()
    out = []
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH) as engine:
        engine.configure({"Threads": 1, "Hash": 16})
        while len(out) < COUNT:
            # (A game over within the plies comes back as the initial position.)
            board = random_opening(rng, PLIES)
            if board.is_game_over() or board.ply() != PLIES:
                continue
            key = board.epd()
            if key in seen:
                continue
            seen.add(key)
            info = engine.analyse(board, chess.engine.Limit(depth=12))
            score = info["score"].relative
            if score.is_mate() or abs(score.score()) > LIMIT:
                continue
            out.append(key)
    sys.stdout.write("".join(f"{epd}\n" for epd in out))


if __name__ == "__main__":
    main()

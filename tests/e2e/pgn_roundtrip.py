#!/usr/bin/env python3
"""Plays a seeded match with the built binary and reads every game of its PGN back with
python-chess: the headers, the result, and each move must replay legally to the stated end."""
import subprocess
import sys
import tempfile
import os

import chess
import chess.pgn

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/agentchess"

def main():
    with tempfile.TemporaryDirectory() as tmp:
        pgn_path = os.path.join(tmp, "games.pgn")
        subprocess.run([BIN, "match", "level:7", "search:depth=1,range=30", "--games", "20",
                        "--seed", "3", "--pgn", pgn_path], check=True, stdout=subprocess.DEVNULL)
        games = 0
        with open(pgn_path) as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                assert not game.errors, game.errors
                for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result", "Termination"):
                    assert tag in game.headers, tag
                board = game.end().board()
                result = game.headers["Result"]
                reason = game.headers["Termination"]
                if "mates" in reason:
                    assert board.is_checkmate(), (reason, board.fen())
                    assert result == ("1-0" if board.turn == chess.BLACK else "0-1")
                elif reason == "Stalemate":
                    assert board.is_stalemate()
                elif reason == "Insufficient material":
                    assert board.is_insufficient_material()
                elif reason == "Draw by fifty-move rule":
                    assert board.halfmove_clock >= 100
                elif reason == "Draw by repetition":
                    assert board.is_repetition(3)
                else:
                    raise AssertionError("unexpected termination " + reason)
                games += 1
        assert games == 20, games
    print(f"pgn round trip: {games} passed, 0 failed")

if __name__ == "__main__":
    main()

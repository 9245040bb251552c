#!/usr/bin/env python3
"""Plays a seeded match with the built binary and reads every game of its PGN back with
python-chess: the headers, the result, and each move must replay legally to the stated end.
The match's --out folder is checked too: its JSON files must parse and agree with the PGN."""
import csv
import json
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
        out_dir = os.path.join(tmp, "out")
        subprocess.run([BIN, "match", "level:7", "search:depth=1,range=30", "--games", "20",
                        "--seed", "3", "--pgn", pgn_path, "--out", out_dir], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
        check_out_folder(out_dir, pgn_path)
        commented = check_comments(tmp)
        from_openings = check_openings(tmp)
    print(f"pgn round trip: {games} passed, 0 failed; results.json, curves.json and CSVs agree; "
          f"{commented} moves read back with their reasons; {from_openings} games from openings")


def check_openings(tmp):
    """Games started from --openings (one with Black to move) read back from their FEN."""
    openings = os.path.join(tmp, "openings.epd")
    with open(openings, "w") as f:
        f.write("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n")
        f.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm Nf6;\n")
    path = os.path.join(tmp, "openings.pgn")
    subprocess.run([BIN, "match", "level:7", "level:3", "--games", "4", "--seed", "3",
                    "--openings", openings, "--pgn", path], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    games = 0
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            assert not game.errors, game.errors
            assert game.headers["SetUp"] == "1"
            assert game.board().fen() == chess.Board(game.headers["FEN"]).fen()
            assert len(list(game.mainline_moves())) > 0
            games += 1
    assert games == 4, games
    return games


def check_comments(tmp):
    """With --comments every move carries its reason, and the moves are the same as without."""
    path = os.path.join(tmp, "commented.pgn")
    subprocess.run([BIN, "match", "level:7", "search:depth=1,range=30", "--games", "4",
                    "--seed", "3", "--pgn", path, "--comments"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    plain = os.path.join(tmp, "games.pgn")
    moves = 0
    with open(path) as f, open(plain) as g:
        for _ in range(4):
            game, same = chess.pgn.read_game(f), chess.pgn.read_game(g)
            assert not game.errors, game.errors
            nodes = list(game.mainline())
            assert all(n.comment for n in nodes), [n.ply() for n in nodes if not n.comment][:5]
            assert [n.move for n in nodes] == list(same.mainline_moves())
            moves += len(nodes)
    return moves


def check_out_folder(out_dir, pgn_path):
    with open(os.path.join(out_dir, "results.json")) as f:
        results = json.load(f)
    assert results["games"] == 20, results["games"]
    (pairing,) = results["pairings"]
    assert pairing["wins"] + pairing["draws"] + pairing["losses"] == 20, pairing
    with open(os.path.join(out_dir, "curves.json")) as f:
        curves = json.load(f)
    level7 = next(p for p in curves["pairings"] if p["player"] == "level:7")
    assert level7["counters_by_move"][0]["move"] == 1
    assert level7["counters_by_move"][0]["decisions"] == 20, level7["counters_by_move"][0]
    # The JSON curve and the CSV curve are the same numbers.
    with open(os.path.join(out_dir, "counters_by_move.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["player"] == "level:7"]
    assert len(rows) == len(level7["counters_by_move"])
    for row, point in zip(rows, level7["counters_by_move"]):
        assert int(row["incorrect_threats"]) == point["incorrect_threats"], (row, point)
    # Every game is running at move 1 of the material curve; none beyond the longest game.
    # games.csv lists the PGN's games in order, with the same results and lengths.
    with open(os.path.join(out_dir, "games.csv")) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 20, len(rows)
    longest = 0
    with open(pgn_path) as f:
        i = 0
        while (game := chess.pgn.read_game(f)) is not None:
            longest = max(longest, (game.end().ply() + 1) // 2)
            assert rows[i]["result"] == game.headers["Result"], (rows[i], game.headers)
            assert int(rows[i]["plies"]) == game.end().ply(), (rows[i], game.end().ply())
            assert rows[i]["white"] == game.headers["White"]
            i += 1
    assert level7["material"][0]["share_running"] == 1.0
    assert len(level7["material"]) == longest, (len(level7["material"]), longest)

if __name__ == "__main__":
    main()

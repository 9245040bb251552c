#!/usr/bin/env python3
"""The PGN the built binary writes, judged by an independent reader, python-chess.

Plays seeded matches (`match --pgn`, with `--comments`, from `--openings`) and for every game:

- the file reads back without errors, with the tags a PGN reader needs, and every tag line is
  well-formed and round-trips (python-chess's value, escaped again, is the text in the file);
- every move's SAN in the file is exactly what python-chess writes for that move
  (`board.san()`): disambiguation, capture marks, promotion, check and mate marks;
- the Termination tag is what the final position shows, the Result is what that Termination
  means, and both agree with python-chess's own verdict on the position (`board.outcome()`);
- the match's --out folder (JSON, CSV) agrees with the PGN.

Every check is an explicit test that survives `python3 -O`; exits 1 on any problem.

    cargo build --release
    python3 tests/e2e/pgn_roundtrip.py [target/release/agentchess]
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import tempfile

import chess
import chess.pgn

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/agentchess"

TAG_LINE = re.compile(r'^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]$')
REQUIRED_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "Termination")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

# Termination tag -> (Result it implies, whether the final position shows it, python-chess's
# terminations that agree with it).
DRAWN = "1/2-1/2"
TERMINATIONS = {
    "White mates": ("1-0", lambda b: b.is_checkmate() and b.turn == chess.BLACK, {chess.Termination.CHECKMATE}),
    "Black mates": ("0-1", lambda b: b.is_checkmate() and b.turn == chess.WHITE, {chess.Termination.CHECKMATE}),
    "Stalemate": (DRAWN, lambda b: b.is_stalemate(), {chess.Termination.STALEMATE}),
    "Insufficient material": (DRAWN, lambda b: b.is_insufficient_material(), {chess.Termination.INSUFFICIENT_MATERIAL}),
    "Draw by fifty-move rule": (DRAWN, lambda b: b.halfmove_clock >= 100,
                                {chess.Termination.FIFTY_MOVES, chess.Termination.SEVENTYFIVE_MOVES}),
    "Draw by repetition": (DRAWN, lambda b: b.is_repetition(3),
                           {chess.Termination.THREEFOLD_REPETITION, chess.Termination.FIVEFOLD_REPETITION}),
}


class Checks:
    """Problems found, with how many games were checked and how many of them had one."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.games = 0
        self.failed_games = 0

    def check(self, ok: bool, what: str) -> bool:
        if not ok:
            self.problems.append(what)
        return ok


def pgn_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def pgn_unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def raw_games(path: str) -> list[tuple[list[str], str]]:
    """The file's games as written: (tag lines, movetext), split at the blank lines PGN's export
    format puts after the tags and after the movetext."""
    with open(path, encoding="utf-8") as f:
        blocks = [b for b in f.read().split("\n\n") if b.strip()]
    games = []
    for i in range(0, len(blocks) - 1, 2):
        games.append((blocks[i].splitlines(), blocks[i + 1]))
    if len(blocks) % 2:
        games.append((blocks[-1].splitlines(), ""))
    return games


def san_tokens(movetext: str) -> list[str]:
    """The move words of raw movetext: comments, NAGs, move numbers and the result removed."""
    text = re.sub(r"\{[^}]*\}", " ", movetext)
    text = re.sub(r";[^\n]*", " ", text)
    words = []
    for word in text.split():
        word = re.sub(r"^\d+\.(\.\.)?", "", word)
        if word and not word.startswith("$") and word not in RESULTS:
            words.append(word)
    return words


def check_game(c: Checks, label: str, raw: tuple[list[str], str], game: chess.pgn.Game) -> None:
    before = len(c.problems)
    c.games += 1
    tag_lines, movetext = raw
    c.check(not game.errors, f"{label}: python-chess read errors {game.errors}")
    for tag in REQUIRED_TAGS:
        c.check(tag in game.headers, f"{label}: no {tag} tag")
    for line in tag_lines:
        m = TAG_LINE.match(line)
        if not c.check(m is not None, f"{label}: malformed tag line {line!r}"):
            continue
        name, text = m.group(1), m.group(2)
        value = game.headers.get(name)
        c.check(value == pgn_unescape(text) and pgn_escape(value) == text,
                f"{label}: tag line {line!r} reads back as {value!r}")

    board = game.board()
    moves = list(game.mainline_moves())
    written = san_tokens(movetext)
    c.check(len(written) == len(moves), f"{label}: {len(written)} move words in the file, python-chess read {len(moves)} moves")
    for ply, (move, text) in enumerate(zip(moves, written)):
        expected = board.san(move)
        if not c.check(text == expected, f"{label}: ply {ply + 1} written {text!r}, python-chess writes {expected!r} ({board.fen()})"):
            break
        board.push(move)

    board = game.end().board()
    result = game.headers.get("Result")
    reason = game.headers.get("Termination", "")
    known = TERMINATIONS.get(reason)
    if c.check(known is not None, f"{label}: unexpected Termination {reason!r}"):
        implied, shows, agreeing = known
        c.check(result == implied, f"{label}: Result {result} with Termination {reason!r} (which means {implied})")
        c.check(shows(board), f"{label}: Termination {reason!r} but the final position does not show it ({board.fen()})")
        verdict = board.outcome(claim_draw=True)
        if c.check(verdict is not None, f"{label}: python-chess finds the game still going ({board.fen()})"):
            c.check(verdict.result() == result, f"{label}: Result {result}, python-chess says {verdict.result()} ({verdict.termination})")
            # python-chess names the first rule that applies; ours must be one that applies.
            holds = {t for t in agreeing if rule_holds(board, t)}
            c.check(bool(holds), f"{label}: {reason!r} does not hold for python-chess ({board.fen()})")
    if len(c.problems) > before:
        c.failed_games += 1


def rule_holds(board: chess.Board, termination: chess.Termination) -> bool:
    return {
        chess.Termination.CHECKMATE: board.is_checkmate,
        chess.Termination.STALEMATE: board.is_stalemate,
        chess.Termination.INSUFFICIENT_MATERIAL: board.is_insufficient_material,
        chess.Termination.FIFTY_MOVES: board.can_claim_fifty_moves,
        chess.Termination.SEVENTYFIVE_MOVES: board.is_seventyfive_moves,
        chess.Termination.THREEFOLD_REPETITION: lambda: board.is_repetition(3),
        chess.Termination.FIVEFOLD_REPETITION: board.is_fivefold_repetition,
    }[termination]()


def check_file(c: Checks, path: str, what: str, expected_games: int) -> list[chess.pgn.Game]:
    raw = raw_games(path)
    games = []
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    c.check(len(games) == expected_games, f"{what}: {len(games)} games read, {expected_games} played")
    c.check(len(raw) == len(games), f"{what}: {len(raw)} games in the text, python-chess read {len(games)}")
    for i, (text, game) in enumerate(zip(raw, games)):
        check_game(c, f"{what} game {i + 1}", text, game)
    return games


def run(*args: str) -> None:
    subprocess.run([BIN, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> int:
    c = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        pgn_path = os.path.join(tmp, "games.pgn")
        out_dir = os.path.join(tmp, "out")
        # A spread of players, so that the games reach mates, promotions, castling and draws
        # of every kind the rules know.
        run("match", "level:7", "search:depth=1,range=30", "--games", "20", "--seed", "3", "--pgn", pgn_path, "--out", out_dir)
        games = check_file(c, pgn_path, "match", 20)
        check_out_folder(c, out_dir, games)
        commented = check_comments(c, tmp, games)
        from_openings = check_openings(c, tmp)
        more = os.path.join(tmp, "more.pgn")
        run("match", "random", "level:2", "--games", "30", "--seed", "5", "--pgn", more)
        check_file(c, more, "random - level:2", 30)
        check_coverage(c, [more, pgn_path])
    passed = c.games - c.failed_games
    for p in c.problems:
        print("PROBLEM:", p)
    print(f"pgn round trip: {commented} commented moves, {from_openings} games from openings; "
          f"{len(c.problems)} problems")
    print(f"pgn round trip: {passed} passed, {c.failed_games} failed")
    return 1 if c.problems else 0


def check_coverage(c: Checks, paths: list[str]) -> None:
    """The games must have put the SAN rules to work: a check that the comparison above saw
    disambiguations, promotions, castling, checks and mates at all."""
    seen = {"disambiguation": 0, "promotion": 0, "castling": 0, "check": 0, "mate": 0, "capture": 0}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                board = game.board()
                for move in game.mainline_moves():
                    san = board.san(move)
                    piece = board.piece_type_at(move.from_square)
                    seen["disambiguation"] += piece != chess.PAWN and piece != chess.KING and len(san.rstrip("+#").replace("x", "")) > 3
                    seen["promotion"] += "=" in san
                    seen["castling"] += san.startswith("O-O")
                    seen["check"] += san.endswith("+")
                    seen["mate"] += san.endswith("#")
                    seen["capture"] += "x" in san
                    board.push(move)
    print(f"SAN compared with python-chess, of which: {seen}")
    for kind, n in seen.items():
        c.check(n > 0, f"no {kind} in any game: the SAN comparison never saw one")


def check_openings(c: Checks, tmp: str) -> int:
    """Games started from --openings (one with Black to move) read back from their FEN."""
    openings = os.path.join(tmp, "openings.epd")
    with open(openings, "w") as f:
        f.write("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n")
        f.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm Nf6;\n")
    path = os.path.join(tmp, "openings.pgn")
    run("match", "level:7", "level:3", "--games", "4", "--seed", "3", "--openings", openings, "--pgn", path)
    games = check_file(c, path, "openings", 4)
    for i, game in enumerate(games):
        label = f"openings game {i + 1}"
        c.check(game.headers.get("SetUp") == "1", f"{label}: no SetUp tag")
        fen = game.headers.get("FEN", "")
        c.check(game.board().fen() == chess.Board(fen).fen(), f"{label}: starts at {game.board().fen()}, FEN tag {fen}")
        c.check(len(list(game.mainline_moves())) > 0, f"{label}: no moves")
    return len(games)


def check_comments(c: Checks, tmp: str, plain: list[chess.pgn.Game]) -> int:
    """With --comments every move carries its reason, and the moves are the same as without."""
    path = os.path.join(tmp, "commented.pgn")
    run("match", "level:7", "search:depth=1,range=30", "--games", "4", "--seed", "3", "--pgn", path, "--comments")
    games = check_file(c, path, "commented", 4)
    moves = 0
    for i, (game, same) in enumerate(zip(games, plain)):
        nodes = list(game.mainline())
        bare = [n.ply() for n in nodes if not n.comment]
        c.check(not bare, f"commented game {i + 1}: plies {bare[:5]} have no comment")
        c.check([n.move for n in nodes] == list(same.mainline_moves()), f"commented game {i + 1}: other moves than without comments")
        moves += len(nodes)
    return moves


def check_out_folder(c: Checks, out_dir: str, games: list[chess.pgn.Game]) -> None:
    with open(os.path.join(out_dir, "results.json")) as f:
        results = json.load(f)
    c.check(results["games"] == 20, f"results.json: {results['games']} games")
    pairings = results["pairings"]
    if c.check(len(pairings) == 1, f"results.json: {len(pairings)} pairings"):
        p = pairings[0]
        c.check(p["wins"] + p["draws"] + p["losses"] == 20, f"results.json: pairing {p}")
    with open(os.path.join(out_dir, "curves.json")) as f:
        curves = json.load(f)
    level7 = next((p for p in curves["pairings"] if p["player"] == "level:7"), None)
    if not c.check(level7 is not None, "curves.json: no level:7 pairing"):
        return
    first = level7["counters_by_move"][0]
    c.check(first["move"] == 1 and first["decisions"] == 20, f"curves.json: first point {first}")
    # The JSON curve and the CSV curve are the same numbers.
    with open(os.path.join(out_dir, "counters_by_move.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["player"] == "level:7"]
    c.check(len(rows) == len(level7["counters_by_move"]), "counters_by_move.csv and curves.json differ in length")
    for row, point in zip(rows, level7["counters_by_move"]):
        c.check(int(row["incorrect_threats"]) == point["incorrect_threats"], f"CSV {row} against JSON {point}")
    # games.csv lists the PGN's games in order, with the same results and lengths.
    with open(os.path.join(out_dir, "games.csv")) as f:
        rows = list(csv.DictReader(f))
    c.check(len(rows) == len(games), f"games.csv: {len(rows)} rows, {len(games)} games")
    for row, game in zip(rows, games):
        c.check(row["result"] == game.headers["Result"], f"games.csv {row} against {dict(game.headers)}")
        c.check(int(row["plies"]) == game.end().ply(), f"games.csv {row}: PGN has {game.end().ply()} plies")
        c.check(row["white"] == game.headers["White"], f"games.csv {row}: White is {game.headers['White']}")
    # Every game is running at move 1 of the material curve; none beyond the longest game.
    longest = max(((g.end().ply() + 1) // 2 for g in games), default=0)
    c.check(level7["material"][0]["share_running"] == 1.0, f"material curve starts {level7['material'][0]}")
    c.check(len(level7["material"]) == longest, f"material curve {len(level7['material'])} moves, longest game {longest}")


if __name__ == "__main__":
    sys.exit(main())

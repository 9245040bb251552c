#!/usr/bin/env python3
"""The PGN `agentchess annotate` writes, read back by an independent reader, python-chess.

Makes a few seeded games (`agentchess match`, low levels that blunder), annotates them, and
checks that python-chess reads every game without an error, that each game's moves are the
input's moves, that every move after which the game goes on carries an evaluation
(`[%eval]`, read by python-chess's own `node.eval()`), that every mark is a NAG python-chess
knows ($6 ?!, $2 ?, $4 ??) agreeing with the comment's words, that every marked move comes with
its better move as a variation that begins with the move the comment names, and that the
players' summary is the game's first comment. Exits 1 on any problem.

    cargo build --release
    python3 tests/e2e/annotate_pgn.py [--agentchess target/release/agentchess] [--keep DIR]
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parents[2]
MARKS = {6: "Inaccuracy", 2: "Mistake", 4: "Blunder"}


def games_of(text: str) -> list[chess.pgn.Game]:
    out, stream = [], io.StringIO(text)
    while (g := chess.pgn.read_game(stream)) is not None:
        out.append(g)
    return out


def check(source: chess.pgn.Game, annotated: chess.pgn.Game, number: int) -> list[str]:
    problems = []
    where = f"game {number}"
    if annotated.errors:
        problems.append(f"{where}: python-chess read errors {annotated.errors}")
    if list(source.mainline_moves()) != list(annotated.mainline_moves()):
        problems.append(f"{where}: the moves differ from the input's")
    if not re.match(r"White \(.*\): \d+ inaccurac", " ".join(annotated.comment.split())):
        problems.append(f"{where}: no players' summary as the first comment: {annotated.comment[:60]!r}")
    for tag, value in source.headers.items():
        if annotated.headers.get(tag) != value:
            problems.append(f"{where}: tag {tag} is {annotated.headers.get(tag)!r}, not {value!r}")
    marked = 0
    for node in annotated.mainline():
        label = f"{where} {node.parent.board().fullmove_number}{'.' if node.turn() == chess.BLACK else '...'} {node.san()}"
        over = node.board().is_game_over(claim_draw=False)
        if node.eval() is None and not over:
            problems.append(f"{label}: no evaluation")
        # Comments are wrapped over lines like the movetext.
        comment = " ".join(node.comment.split())
        nags = [n for n in node.nags if n in MARKS]
        if len(nags) > 1 or len(nags) != len(node.nags):
            problems.append(f"{label}: unexpected NAGs {node.nags}")
        for n in nags:
            marked += 1
            if not comment.split("]")[-1].strip().startswith(MARKS[n] + ":"):
                problems.append(f"{label}: marked {MARKS[n]} but the comment says {comment!r}")
            better = re.search(r"Better: (\S+)\.$", comment)
            alternatives = node.parent.variations[1:]
            if better is None or not alternatives:
                problems.append(f"{label}: a mark with no better move or no variation")
            elif node.parent.board().san(alternatives[0].move) != better.group(1):
                problems.append(f"{label}: the variation begins {alternatives[0].san()}, the comment says {better.group(1)}")
        if not nags and re.search(r"(Inaccuracy|Mistake|Blunder):", comment):
            problems.append(f"{label}: the comment names a mark the move does not carry")
    print(f"{where}: {len(list(annotated.mainline_moves()))} moves, {marked} marked")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agentchess", default=str(ROOT / "target" / "release" / "agentchess"))
    ap.add_argument("--keep", help="keep the games and the annotation in this folder")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        games = work / "games.pgn"
        subprocess.run([args.agentchess, "match", "level:2", "level:5", "--games", "4", "--seed", "7",
                        "--pgn", str(games)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # A game from a FEN with Black to move, and one with comments, variations and NAGs of its own.
        extra = ('[Event "from a FEN"]\n[SetUp "1"]\n[FEN "r3k3/8/8/8/3n4/8/8/R2QK3 b Qq - 0 30"]\n[Result "*"]\n\n'
                 '30... Kd7 31. Qg4+ Kc7 32. Qg7+ Kb6 *\n\n'
                 '[Event "commented"]\n[Result "1-0"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Qh5 $2 Nc6 '
                 '3. Bc4 Nf6 $4 4. Qxf7# 1-0\n\n')
        games.write_text(games.read_text() + extra)
        out = subprocess.run([args.agentchess, "annotate", str(games), "--nodes", "20000"],
                             check=True, capture_output=True, text=True)
        source, annotated = games_of(games.read_text()), games_of(out.stdout)
        problems = []
        if len(source) != len(annotated):
            problems.append(f"{len(source)} games in, {len(annotated)} out")
        for i, (s, a) in enumerate(zip(source, annotated), 1):
            problems += check(s, a, i)
        if args.keep:
            (work / "annotated.pgn").write_text(out.stdout)
    if problems:
        print("FAIL:\n" + "\n".join(problems), file=sys.stderr)
        return 1
    print(f"ok: {len(annotated)} annotated games read back by python-chess {chess.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Check: AgentChess under fastchess, the UCI match runner OpenBench and most engine authors use.

Two steps, both with fastchess built from the snapshot in ../shared/tools/fastchess:
  1. `fastchess --compliance`: fastchess's own UCI compliance check of the engine.
  2. An SPRT match as engine authors run one: level 10 (the default) over UCI against
     Stockfish with UCI_LimitStrength at --stockfish-elo, --tc (default 2+0.02, both engines),
     from tests/data/openings.epd in random order with each opening played from both sides,
     --rounds pairs of games at most, --concurrency 2, `-sprt` (the test ends early when it
     decides), the options OpenBench's presets set (Threads=1, Hash).

Fails (exit 1) on any fault fastchess reports about AgentChess: a compliance step that fails, a
`Warning;` line (an illegal PV move, a bestmove that does not start the PV, a mating PV that
does not end in mate, an option the engine lacks, no output, ...), a game it lost on time, by
an illegal move, a disconnect or a stall, a timeout or crash in fastchess's per-player summary;
and on a non-zero exit status of fastchess, or any line AgentChess wrote on stderr. Stockfish
gets a time margin of 100 ms (fastchess's `timemargin`), AgentChess none, so that a time loss
on a loaded machine is AgentChess's to find; Stockfish's own faults, and its warnings about its
lines at limited strength (its move is not its PV's first, its mating PVs stop short: how
UCI_LimitStrength plays), are counted and printed, not failed on. Prints the games played, the
score and fastchess's SPRT verdict.

    FASTCHESS=$(../shared/tools/fastchess/build.sh) python3 tests/e2e/fastchess.py
    python3 tests/e2e/fastchess.py --rounds 50 --tc 8+0.08     # 100 games, OpenBench's STC
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# fastchess's words for a game no engine may lose this way (game/pgn, matchmaking).
BAD_ENDINGS = ("loses on time", "illegal move", "disconnect", "stall", "crash")


def fastchess_binary(given: str | None) -> str:
    if given:
        return given
    if os.environ.get("FASTCHESS"):
        return os.environ["FASTCHESS"]
    build = ROOT.parent / "shared" / "tools" / "fastchess" / "build.sh"
    return subprocess.run([str(build)], check=True, capture_output=True, text=True).stdout.strip()


def judge(text: str, faults: list[str]) -> tuple[int, list[str]]:
    """Reads fastchess's output: the games finished, AgentChess's faults (added to `faults`) and
    Stockfish's (returned, by kind)."""
    games = 0
    theirs: list[str] = []
    player = None
    for line in text.splitlines():
        if "Warning;" in line:
            if re.search(r"from Stockfish-\d+\s*$", line):
                theirs.append(re.sub(r" - move .*| - from .*| from Stockfish.*", "", line.strip()))
            else:
                faults.append(line.strip())
        m = re.match(r"Finished game \d+ \((.+) vs (.+)\): \S+ \{(White|Black) (.*)\}", line)
        if line.startswith("Finished game"):
            games += 1
        if m and any(word in m.group(4).lower() for word in BAD_ENDINGS):
            loser = m.group(1) if m.group(3) == "White" else m.group(2)
            (faults if loser == "AgentChess" else theirs).append(line.strip() if loser == "AgentChess" else m.group(4))
        m = re.match(r"\s*Player: (.+)", line)
        if m:
            player = m.group(1).strip()
        m = re.match(r"\s*(Timeouts|Crashed): (\d+)", line)
        if m and int(m.group(2)) > 0:
            (faults if player == "AgentChess" else theirs).append(f"{player} {m.group(1)}: {m.group(2)}")
    if games == 0:
        faults.append("no game finished")
    return games, theirs


def strip_colours(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=str(ROOT / "target" / "release" / "agentchess"))
    ap.add_argument("--fastchess", help="the fastchess binary (default: $FASTCHESS, else build it)")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--stockfish-elo", type=int, default=1800)
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--rounds", type=int, default=10, help="pairs of games at most (one opening, both colours)")
    ap.add_argument("--sprt", default="elo0=0 elo1=50 alpha=0.05 beta=0.05")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "target" / "fastchess"))
    args = ap.parse_args()
    # Absolute: fastchess runs in it and starts the wrapper by this path.
    out = Path(args.out).resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    fastchess = fastchess_binary(args.fastchess)
    engine = str(Path(args.engine).resolve())
    faults: list[str] = []

    compliance = subprocess.run(
        [fastchess, "--compliance", engine], capture_output=True, text=True, timeout=300, cwd=out
    )
    text = strip_colours(compliance.stdout + compliance.stderr)
    (out / "compliance.txt").write_text(text)
    if compliance.returncode != 0 or "passed all compliance checks" not in text:
        faults.append("compliance: " + " | ".join(l for l in text.splitlines() if "Failed" in l)[:500])

    # AgentChess's stderr goes to a file of its own (fastchess reads engines' stdout only).
    stderr_file = out / "agentchess.stderr"
    wrapper = out / "agentchess.sh"
    wrapper.write_text(f'#!/bin/sh\nexec "{engine}" "$@" 2>>"{stderr_file}"\n')
    wrapper.chmod(0o755)
    stderr_file.write_text("")
    pgn = out / "games.pgn"
    command = [
        fastchess,
        "-engine", f"cmd={wrapper}", "name=AgentChess", "option.Threads=1", "option.Hash=16",
        "-engine", f"cmd={args.stockfish}", f"name=Stockfish-{args.stockfish_elo}", "timemargin=100", "option.Threads=1",
        "option.Hash=16", "option.UCI_LimitStrength=true", f"option.UCI_Elo={args.stockfish_elo}",
        "-each", "proto=uci", f"tc={args.tc}",
        "-openings", f"file={ROOT / 'tests' / 'data' / 'openings.epd'}", "format=epd", "order=random",
        "-rounds", str(args.rounds), "-repeat", "-concurrency", str(args.concurrency),
        "-sprt", *args.sprt.split(),
        "-check-mate-pvs",
        "-pgnout", f"file={pgn}", "append=false",
        "-ratinginterval", "0",
    ]
    (out / "command.txt").write_text(" ".join(command) + "\n")
    timeout = 60 + args.rounds * 2 * 600
    # In the output folder: fastchess saves its state there (config.json) as it goes.
    match = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=out)
    text = strip_colours(match.stdout + match.stderr)
    (out / "fastchess.txt").write_text(text)
    if match.returncode != 0:
        faults.append(f"fastchess exited {match.returncode}")
    games, theirs = judge(text, faults)
    noise = stderr_file.read_text().strip()
    if noise:
        faults.append(f"AgentChess on stderr: {noise[:500]}")
    verdict = next((l.strip() for l in reversed(text.splitlines()) if l.startswith("SPRT") or "LLR" in l), "")
    score = next((l.strip() for l in reversed(text.splitlines()) if l.strip().startswith("Games:")), "")
    print(f"fastchess: compliance {'passed' if not any(f.startswith('compliance') for f in faults) else 'FAILED'}; "
          f"{games} games at {args.tc} against Stockfish UCI_Elo {args.stockfish_elo}; {score}; {verdict}; "
          f"Stockfish's own: {len(theirs)} ({'; '.join(sorted(set(theirs)))[:300]})")
    if faults:
        print(f"FAIL: {len(faults)} fault(s):")
        for f in faults[:30]:
            print("  " + f)
        print(f"(the output is in {out})")
        return 1
    print(f"no fault (output in {out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

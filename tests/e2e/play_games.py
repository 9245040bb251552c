#!/usr/bin/env python3
"""End-to-end games: AgentChess, driven by python-chess's XBoard client, plays complete games
against phalanx and against a second AgentChess process at another level.

It checks the handshake (ping, setboard, memory, the Level option (default 10, range 1..10)), that the Level option
set through python-chess is accepted, and that every game ends by the rules (mate, stalemate,
dead material, repetition, fifty moves) or by a phalanx failure, with no illegal move, crash, hang,
time loss or false claim by AgentChess.

    cargo build --release
    python3 tests/e2e/play_games.py [--games-per-pairing 2] [--base 5 --inc 0.05]

Needs `pip install chess` and phalanx (`apt-get install phalanx`); without phalanx the phalanx
games are skipped with a note (use --require-phalanx in CI). Exit status 0 = all good.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys

import chess

import harness


async def check_handshake() -> list[str]:
    problems = []
    p = harness.Player(harness.Side("AgentChess", [str(harness.BINARY), "--seed", "1"], ours=True))
    await p.start()
    feats = p.engine.features
    for name in ("ping", "setboard", "usermove", "time", "reuse", "playother", "analyze", "memory"):
        if feats.get(name) != 1:
            problems.append(f"feature {name}={feats.get(name)!r}, expected 1")
    for name in ("sigint", "colors"):
        if feats.get(name) != 0:
            problems.append(f"feature {name}={feats.get(name)!r}, expected 0")
    if "sigterm" in feats:
        problems.append(f"feature sigterm={feats['sigterm']!r} declared (python-chess rejects sigterm=0)")
    if not str(feats.get("myname", "")).startswith("AgentChess"):
        problems.append(f"myname={feats.get('myname')!r}")
    level = p.engine.options.get("Level")
    if level is None or (level.type, level.default, level.min, level.max) != ("spin", 10, 1, 10):
        problems.append(f"Level option is {level!r}, expected spin 10 1..10")
    # Analysis must answer and stop cleanly too.
    with await p.engine.analysis(chess.Board(), chess.engine.Limit(time=0.2)) as analysis:
        await asyncio.wait_for(analysis.wait(), 10)
        if analysis.info.get("pv") is None:
            problems.append("analyze gave no PV")
    problems += [f"warning: {w}" for w in p.warnings()]
    await p.stop()
    return problems


async def run(args: argparse.Namespace) -> int:
    harness.require_binary()
    problems = await check_handshake() if args.player is None else []
    rng = random.Random(args.seed)
    pairings = []
    have_phalanx = os.path.exists(harness.PHALANX)
    if have_phalanx:
        pairings.append((args.level_a, None))
    elif args.require_phalanx:
        print(f"phalanx not found at {harness.PHALANX}")
        return 1
    else:
        print("phalanx not installed: skipping the phalanx games")
    pairings.append((args.level_a, args.level_b))

    records = []
    for level_a, level_b in pairings:
        ours = harness.Player(harness.agentchess(level_a, seed=rng.randrange(1 << 30), player=args.player))
        other = harness.Player(
            harness.phalanx() if level_b is None else harness.agentchess(level_b, seed=rng.randrange(1 << 30), player=args.player)
        )
        await ours.start()
        await other.start()
        for g in range(args.games_per_pairing):
            white, black = (ours, other) if g % 2 == 0 else (other, ours)
            rec = await harness.play_game(white, black, args.base, args.inc)
            records.append(rec)
            print(rec.pgn_line(), flush=True)
            harness.print_problems(rec.problems, "  PROBLEM: ", limit=10)
            if not ours.alive or not other.alive:
                break
        await ours.stop()
        await other.stop()

    problems += [p for r in records for p in r.problems]
    problems += harness.late_problems()
    print(f"{len(records)} games, {len(problems)} problems")
    harness.print_problems(problems)
    return 1 if problems else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games-per-pairing", type=int, default=2)
    ap.add_argument("--base", type=float, default=5.0, help="seconds per game per side")
    ap.add_argument("--inc", type=float, default=0.05, help="increment in seconds")
    ap.add_argument("--level-a", type=int, default=10)
    ap.add_argument("--level-b", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--player", help="play this player spec instead of levels (e.g. random)")
    ap.add_argument("--require-phalanx", action="store_true")
    sys.exit(asyncio.run(run(ap.parse_args())))


if __name__ == "__main__":
    main()

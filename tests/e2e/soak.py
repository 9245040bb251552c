#!/usr/bin/env python3
"""Soak: many fast games through python-chess's XBoard client, checking that AgentChess never
plays an illegal move, crashes, hangs, loses on time or claims falsely.

By default 200 games at 1 s + 0.01 s per side (the issue's bar): three in four against a second
AgentChess at a random level (1-10), one in four against phalanx (skipped if it is not installed).
Half the games start a few random plies in, from the move list or from a `setboard` FEN. Engine
processes are reused across games (reuse=1) and restarted every 50 games.

    cargo build --release
    python3 tests/e2e/soak.py [--games 200] [--base 1 --inc 0.01] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import sys
import time

import chess

import harness

RESTART_EVERY = 50


async def run(args: argparse.Namespace) -> int:
    harness.require_binary()
    rng = random.Random(args.seed)
    use_phalanx = os.path.exists(harness.PHALANX) and not args.no_phalanx
    if not use_phalanx:
        print("phalanx not used: all games are AgentChess against AgentChess")

    def ours(level: int) -> harness.Player:
        return harness.Player(harness.agentchess(level, seed=rng.randrange(1 << 30), player=args.player))

    problems: list[str] = []
    results = collections.Counter()
    reasons = collections.Counter()
    started = time.monotonic()
    a = b = ph = None
    for g in range(args.games):
        if g % RESTART_EVERY == 0:
            for p in (a, b, ph):
                if p is not None:
                    await p.stop()
            a, b = ours(rng.randint(1, 10)), ours(rng.randint(1, 10))
            await a.start()
            await b.start()
            ph = None
            if use_phalanx:
                ph = harness.Player(harness.phalanx())
                await ph.start()
        opponent = ph if (ph is not None and g % 8 in (3, 6)) else b
        # A level change between games goes through `option Level=N` on a running engine.
        if args.player is None and g % 7 == 0:
            level = rng.randint(1, 10)
            await a.engine.configure({"Level": level})
            a.side.name = f"AgentChess L{level}"
        start = None
        if g % 2 == 1:
            start = harness.random_opening(rng, rng.randint(2, 10))
            if g % 4 == 1:
                start = chess.Board(start.fen())  # no move list: python-chess sends setboard
        white, black = (a, opponent) if g % 2 == 0 else (opponent, a)
        rec = await harness.play_game(white, black, args.base, args.inc, start=start)
        results[rec.result] += 1
        reasons[rec.reason] += 1
        status = "ok" if not rec.problems else "PROBLEMS"
        print(f"{g + 1:4d} {rec.pgn_line()} [{status}]", flush=True)
        harness.print_problems(rec.problems, "     PROBLEM: ", limit=10)
        problems += rec.problems
        for p in (a, b, ph):
            if p is not None and not p.alive:
                problems.append(f"{p.side.name} is no longer running after game {g + 1}")
                await p.stop()
                await p.start()
    for p in (a, b, ph):
        if p is not None:
            await p.stop()
    problems += harness.late_problems()

    elapsed = time.monotonic() - started
    print(f"\n{args.games} games in {elapsed:.0f} s; results {dict(results)}")
    for reason, n in reasons.most_common():
        print(f"  {n:4d}  {reason}")
    print(f"{len(problems)} problems")
    harness.print_problems(problems)
    return 1 if problems else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--base", type=float, default=1.0)
    ap.add_argument("--inc", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--player", help="play this player spec instead of levels (e.g. random)")
    ap.add_argument("--no-phalanx", action="store_true")
    sys.exit(asyncio.run(run(ap.parse_args())))


if __name__ == "__main__":
    main()

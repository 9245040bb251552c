#!/usr/bin/env python3
"""What a python-chess user meets first, over XBoard and UCI, checked through python-chess itself:

- analysis to a depth returns, whatever the player: over XBoard the agents of levels 1-9 are
  analysed by level 10's tree over the same agents and the searcher searches on past its
  configured depth (python-chess waited forever for depth 2 before); over UCI `go depth N`
  returns within the player's own depth;
- the default player (level 10) analyses the same way over both protocols: `Limit(depth=4)`
  reports depth 4, searched, and `Limit(time=0.5)` takes about half a second and reports the
  depths it searched;
- a refused option value is visible to the client: the next command raises EngineError, and
  the old player stays;
- strength by Elo: `configure({"UCI_LimitStrength": True, "UCI_Elo": 1500})` over UCI (and
  `LimitStrength`/`Elo` over XBoard) plays, and says which setting plays (UCI `info string`);
  an Elo outside the offered range is refused by the client (UCI) or the engine (XBoard);
- several lines and some moves only: `analyse(..., multipv=3)` over UCI gives three lines with
  three different first moves, and `root_moves` over both protocols (`exclude`/`include` over
  XBoard, `go searchmoves` over UCI) keeps the analysis to the moves given;
- search threads: `configure({"Threads": 2})` over UCI and `configure({"cores": 2})` over
  XBoard (announced by `feature smp=1`) are taken, and a game's move and an analysis to a depth
  come back with them;
- a whole session (handshake, options, games, analysis, quit) logs no warning at all (before:
  "Rejecting feature sigterm=0" and "Unexpected engine output: 'stat01: ...'" every time).

Exits non-zero on any problem.

    cargo build --release
    python3 tests/e2e/client_checks.py
"""

from __future__ import annotations

import asyncio
import sys

import chess
import chess.engine

import harness

TIMEOUT = 60.0
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


async def open_engine(protocol: str, *args: str):
    cmd = [str(harness.BINARY), "--seed", "1", *args]
    if protocol == "uci":
        return await chess.engine.popen_uci(cmd)
    return await chess.engine.popen_xboard(cmd)


async def check_analysis(protocol: str, problems: list[str]) -> None:
    """Analysis to a depth beyond what the player would look at in play."""
    for args, depth in ([(), 2], [("--level", "1"), 10], [("--player", "search:depth=3"), 4]):
        transport, engine = await open_engine(protocol, *args)
        for fen in (chess.STARTING_FEN, KIWIPETE):
            board = chess.Board(fen)
            try:
                info = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=depth)), TIMEOUT)
            except asyncio.TimeoutError:
                problems.append(f"{protocol} {args}: analyse(depth={depth}) did not return in {TIMEOUT:.0f} s")
                continue
            got = info.get("depth", 0)
            # XBoard analysis is open-ended: the engine must reach the depth the client waits
            # for. UCI `go depth N` is a limit: the player answers within its own depth.
            wanted = depth if protocol == "xboard" else 1
            if got < wanted:
                problems.append(f"{protocol} {args}: analysis ended at depth {got}, asked for {depth}")
            pv = info.get("pv") or []
            probe = board.copy()
            for move in pv:
                if move not in probe.legal_moves:
                    problems.append(f"{protocol} {args}: illegal pv move {move} in {probe.fen()}")
                    break
                probe.push(move)
            if not pv:
                problems.append(f"{protocol} {args}: analysis without a line")
        problems += [f"{protocol} {args}: warning: {w}" for w in harness.LOG.take_warnings(engine)]
        await engine.quit()


async def check_same_way(problems: list[str]) -> None:
    """The default player over XBoard and UCI: the same analysis for the same limits."""
    import time
    for protocol in ("xboard", "uci"):
        transport, engine = await open_engine(protocol)
        board = chess.Board(KIWIPETE)
        info = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=4)), TIMEOUT)
        if info.get("depth") != 4:
            problems.append(f"{protocol} default: analyse(depth=4) reported depth {info.get('depth')}")
        start = time.monotonic()
        info = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(time=0.5)), TIMEOUT)
        took = time.monotonic() - start
        if not 0.3 <= took <= 3.0:
            problems.append(f"{protocol} default: analyse(time=0.5) took {took:.2f} s")
        if info.get("depth", 0) < 3:
            problems.append(f"{protocol} default: analyse(time=0.5) reached depth {info.get('depth')} only")
        problems += [f"{protocol} default: warning: {w}" for w in harness.LOG.take_warnings(engine)]
        await engine.quit()


async def check_lines(problems: list[str]) -> None:
    """MultiPV over UCI, and analysis of some root moves only over both protocols."""
    board = chess.Board(KIWIPETE)
    transport, engine = await open_engine("uci")
    infos = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=4), multipv=3), TIMEOUT)
    firsts = {info["pv"][0] for info in infos if info.get("pv")}
    if len(infos) != 3 or len(firsts) != 3:
        problems.append(f"uci: analyse(multipv=3) gave {len(infos)} lines starting with {sorted(map(str, firsts))}")
    problems += [f"uci multipv: warning: {w}" for w in harness.LOG.take_warnings(engine)]
    await engine.quit()
    only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("g2g3")]
    for protocol in ("xboard", "uci"):
        transport, engine = await open_engine(protocol)
        info = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=4), root_moves=only), TIMEOUT)
        first = info.get("pv", [None])[0]
        if first not in only:
            problems.append(f"{protocol}: analyse(root_moves=a2a3 g2g3) gave a line starting with {first}")
        problems += [f"{protocol} root_moves: warning: {w}" for w in harness.LOG.take_warnings(engine)]
        await engine.quit()


async def client_refuses(engine, options: dict, protocol: str, problems: list[str]) -> None:
    """python-chess checks a spin's range itself: a value outside it never reaches the engine."""
    try:
        await engine.configure(options)
        problems.append(f"{protocol}: {options} accepted by the client")
    except chess.engine.EngineError:
        pass


async def check_refused_option(problems: list[str]) -> None:
    """XBoard: `configure` only sends; the refusal must surface at the next command, and the
    engine must keep playing as before."""
    transport, engine = await open_engine("xboard", "--level", "7")
    board = chess.Board("7k/6pp/2n5/3P4/3Q4/8/1p6/6K1 w - - 0 1")
    await engine.configure({"Player": "garbage"})
    try:
        await asyncio.wait_for(engine.play(board, chess.engine.Limit(time=0.1)), TIMEOUT)
        problems.append("xboard: Player=garbage went unnoticed: the next play raised nothing")
    except chess.engine.EngineError as e:
        if "garbage" not in str(e):
            problems.append(f"xboard: the refusal does not name the value: {e}")
    # The old player (level 7) stays: it answers the attack on its queen with dxc6.
    result = await asyncio.wait_for(engine.play(board, chess.engine.Limit(time=0.1)), TIMEOUT)
    if result.move != chess.Move.from_uci("d5c6"):
        problems.append(f"xboard: after the refused option the engine played {result.move}, level 7 plays d5c6")
    harness.LOG.take_warnings(engine)  # the refusal itself is allowed to be loud
    await engine.quit()

    # UCI: python-chess checks a spin's range itself.
    transport, engine = await open_engine("uci")
    await client_refuses(engine, {"Level": 99}, "uci", problems)
    harness.LOG.take_warnings(engine)
    await engine.quit()


async def check_strength(problems: list[str]) -> None:
    """The Elo options the way lichess-bot and GUIs set them."""
    transport, engine = await open_engine("uci")
    elo = engine.options["UCI_Elo"]
    if not (elo.min <= 1500 <= elo.max) or engine.options["UCI_LimitStrength"].type != "check":
        problems.append(f"uci: UCI_Elo {elo} / UCI_LimitStrength not offered as spin/check")
    await engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1500})
    result = await asyncio.wait_for(engine.play(chess.Board(), chess.engine.Limit(time=0.5), info=chess.engine.INFO_ALL), TIMEOUT)
    said = result.info.get("string", "")
    if result.move is None or "Elo 1500 plays" not in said:
        problems.append(f"uci: UCI_Elo 1500 played {result.move} and said {said!r}")
    await client_refuses(engine, {"UCI_Elo": elo.max + 1}, "uci", problems)
    harness.LOG.take_warnings(engine)
    await engine.quit()

    transport, engine = await open_engine("xboard")
    await engine.configure({"LimitStrength": True, "Elo": 1600})
    result = await asyncio.wait_for(engine.play(chess.Board(), chess.engine.Limit(time=0.5)), TIMEOUT)
    if result.move is None:
        problems.append("xboard: Elo 1600 played no move")
    # python-chess checks the spin's range itself, as it does over UCI.
    await client_refuses(engine, {"Elo": 99999}, "xboard", problems)
    harness.LOG.take_warnings(engine)
    await engine.quit()


async def check_threads(problems: list[str]) -> None:
    """Level 10 on two threads the way a client sets them, over both protocols."""
    for protocol, options in (("uci", {"Threads": 2}), ("xboard", {"cores": 2})):
        transport, engine = await open_engine(protocol)
        if protocol == "uci" and engine.options["Threads"].max < 2:
            print("one core: Threads 2 is not offered here")
            await engine.quit()
            continue
        await engine.configure(options)
        board = chess.Board(KIWIPETE)
        result = await asyncio.wait_for(engine.play(board, chess.engine.Limit(time=0.3)), TIMEOUT)
        if result.move not in board.legal_moves:
            problems.append(f"{protocol} {options}: played {result.move}")
        info = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=8)), TIMEOUT)
        if info.get("depth", 0) < 8 or not info.get("pv"):
            problems.append(f"{protocol} {options}: analysis to depth 8 gave {info}")
        problems += [f"{protocol} {options}: warning: {w}" for w in harness.LOG.take_warnings(engine)]
        await engine.quit()


async def check_quiet_session(problems: list[str]) -> None:
    """A whole ordinary session, both protocols: handshake, option, a short game, analysis,
    quit. python-chess must log no warning about it."""
    for protocol in ("xboard", "uci"):
        transport, engine = await open_engine(protocol, "--level", "7")
        await engine.configure({"Level": 5})
        board = chess.Board()
        for _ in range(20):
            if board.is_game_over():
                break
            result = await asyncio.wait_for(engine.play(board, chess.engine.Limit(time=0.05), game="g"), TIMEOUT)
            board.push(result.move)
        try:
            await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=3)), TIMEOUT)
        except asyncio.TimeoutError:
            problems.append(f"{protocol} session: analyse(depth=3) did not return in {TIMEOUT:.0f} s ({board.fen()})")
            transport.close()
            continue
        await engine.ping()
        problems += [f"{protocol} session: warning: {w}" for w in harness.LOG.take_warnings(engine)]
        await engine.quit()


async def run() -> int:
    harness.require_binary()
    problems: list[str] = []
    for protocol in ("xboard", "uci"):
        await check_analysis(protocol, problems)
    await check_same_way(problems)
    await check_lines(problems)
    await check_refused_option(problems)
    await check_strength(problems)
    await check_threads(problems)
    await check_quiet_session(problems)
    problems += [f"unattributed warning: {w}" for w in harness.LOG.take_all_warnings()]
    print(f"python-chess client checks: analysis to depth (xboard, uci), the default player's analysis alike over both, multipv and root moves, refused option, strength by Elo, threads, quiet sessions; {len(problems)} problems")
    for p in problems:
        print("  PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(run()))

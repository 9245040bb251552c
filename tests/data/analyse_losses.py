#!/usr/bin/env python3
"""Where a player's games are lost: reads a PGN from `agentchess match ... --pgn F` and prints
two tables (an analysis tool behind README's figures, not a test).

1. First errors: in every game the player did not win, its first move that loses at least
   `--drop` centipawns by Stockfish's judgement at `--depth` (from a position not already lost
   by 3 pawns), classified by the reply Stockfish then gives (a capture of the piece that just
   moved, another capture, a check, a fork of two pieces, or quiet) and, for quiet replies,
   whether a pawn steps up to hit one of the player's pieces.
2. Leads kept: for every game, the player's largest material lead held for five plies running
   (pawn 1, knight and bishop 3, rook 5, queen 9), by band, against the result; and how the
   games lost after a lead of 3 or more ended (mated, after how many checks in a row).

    agentchess match level:9 "uci:/usr/games/stockfish,depth=1" \\
        --openings tests/data/openings.epd --games 300 --seed 3 --pgn /tmp/sf.pgn
    python3 tests/data/analyse_losses.py /tmp/sf.pgn --player level:9
"""
import argparse
from collections import Counter

import chess
import chess.engine
import chess.pgn

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def material(board: chess.Board, side: chess.Color) -> int:
    return sum(VALUES[p.piece_type] * (1 if p.color == side else -1) for p in board.piece_map().values())


def games(path: str, player: str):
    """Each game with the player's colour and whether it won."""
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            white = game.headers["White"].startswith(player)
            if not white and not game.headers["Black"].startswith(player):
                continue
            side = chess.WHITE if white else chess.BLACK
            won = game.headers["Result"] == ("1-0" if white else "0-1")
            yield game, side, won


def reply_kind(after: chess.Board, played: chess.Move, reply: chess.Move, side: chess.Color) -> str:
    """What Stockfish's reply to the error does (`after` is the position after the error)."""
    kinds = []
    if after.is_capture(reply):
        kinds.append("takes the piece that moved" if reply.to_square == played.to_square else "capture")
    if after.gives_check(reply):
        kinds.append("check")
    mover = after.piece_type_at(reply.from_square)
    then = after.copy()
    then.push(reply)
    hits = [sq for sq in then.attacks(reply.to_square) if (p := then.piece_at(sq)) and p.color == side and p.piece_type not in (chess.PAWN, chess.KING)]
    if len(hits) >= 2:
        kinds.append("fork")
    if kinds:
        return " + ".join(kinds)
    if mover == chess.PAWN and hits:
        return "quiet: a pawn hits the piece that moved" if played.to_square in hits else "quiet: a pawn hits a piece"
    return "quiet: other"


def first_errors(path: str, player: str, depth: int, drop: int) -> None:
    engine = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    engine.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(depth=depth)
    kinds, plies, n = Counter(), [], 0
    for game, side, won in games(path, player):
        if won:
            continue
        n += 1
        board = game.board()
        for ply, move in enumerate(game.mainline_moves()):
            if board.turn == side:
                before = engine.analyse(board, limit)["score"].pov(side).score(mate_score=10000)
                after = board.copy()
                after.push(move)
                if not after.is_game_over():
                    info = engine.analyse(after, limit)
                    score = info["score"].pov(side).score(mate_score=10000)
                    if before > -300 and before - score >= drop:
                        kinds[reply_kind(after, move, info["pv"][0], side)] += 1
                        plies.append(ply)
                        break
            board.push(move)
    engine.quit()
    plies.sort()
    median = plies[len(plies) // 2] if plies else "-"
    print(f"first errors (>= {drop} cp at depth {depth}) in {n} games not won: {len(plies)}, median ply {median}")
    for kind, count in kinds.most_common():
        print(f"  {count:4}  {kind}")


def leads(path: str, player: str) -> None:
    table, thrown = Counter(), Counter()
    for game, side, won in games(path, player):
        board, balance, their_checks = game.board(), [], []
        for move in game.mainline_moves():
            if board.turn != side:
                their_checks.append(board.gives_check(move))
            board.push(move)
            balance.append(material(board, side))
        held = max((min(balance[i:i + 5]) for i in range(len(balance) - 4)), default=0)
        band = "5 or more" if held >= 5 else "3 to 4" if held >= 3 else "under 3"
        result = "won" if won else "drawn" if game.headers["Result"] == "1/2-1/2" else "lost"
        table[band, result] += 1
        # How a lead of a piece or more was lost: mated, and after how many checks in a row.
        if held >= 3 and result == "lost":
            thrown["games"] += 1
            if board.is_checkmate():
                thrown["mated"] += 1
                thrown["two checks"] += all(their_checks[-2:])
                thrown["three checks"] += all(their_checks[-3:])
    print("largest lead held five plies running, by result:")
    for band in ("5 or more", "3 to 4", "under 3"):
        row = {r: table[band, r] for r in ("won", "drawn", "lost")}
        print(f"  {band:>9}: {sum(row.values()):4} games, won {row['won']}, drawn {row['drawn']}, lost {row['lost']}")
    print(
        f"lost after a lead of 3 or more: {thrown['games']} games, {thrown['mated']} mated, "
        f"{thrown['two checks']} with the winner's last two moves checks, {thrown['three checks']} with its last three"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("--player", default="level:9", help="the player's name as the PGN gives it (a prefix)")
    parser.add_argument("--depth", type=int, default=10, help="Stockfish's depth for the judgement")
    parser.add_argument("--drop", type=int, default=150, help="centipawns a move must lose to count as an error")
    args = parser.parse_args()
    leads(args.pgn, args.player)
    first_errors(args.pgn, args.player, args.depth, args.drop)


if __name__ == "__main__":
    main()

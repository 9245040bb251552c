//! Their traps: a quiet step of theirs up to a piece of ours (not a pawn) that then has no
//! way out, weighed as the opponent's agents would see it (`their_trap`), with the sieves that
//! keep it cheap (`trap_squares`, `has_open_square`, `pin_line`) and what the trapped piece
//! loses (`trapped_loss`). One of the opponent's answers (`answer.rs`).

use super::material::{immediate, most_valuable};
use crate::agents::eval::Eval;
use crate::agents::features::Features;
use crate::agents::scene::Scene;
use crate::board::values::value;
use crate::board::{Bitboard, Move, Piece, Position, Square, attacks};

/// Their best quiet move-attack on a piece of ours with no way out, in `after` (their move):
/// a piece of theirs steps, where we cannot win it, to attack a piece of ours (not a pawn);
/// what it wins is the least we lose among the ways out of the attacked piece: its own moves,
/// and the captures of the attacker. A piece worth no more than the attacker and guarded loses
/// nothing where it stands (the exchange there is its threat), so only one it does not pay to
/// take is safe. Every piece of ours is asked, not only those worth more than the attacker: a
/// knight run to b2 and shut in there by Qc1 is trapped too.
///
/// Thesis 4.1 counts only the captures the opponent has now; the losses against
/// `search:depth=2` show the quiet attack is the reply the agents most often miss (a pawn
/// stepping up to a piece, a piece cornered with no square left).
///
/// Only a trap winning more than `floor` (their best answer so far) can change their answer,
/// so one that cannot is not looked at: the result is exact above `floor`, and below `enough`
/// (once one wins that much, the rest is not looked at: see `best_answer`).
pub(super) fn their_trap(
    after: &Position,
    features: Features,
    guarded: &[Bitboard; 5],
    floor: i32,
    enough: i32,
) -> i32 {
    use crate::board::Color;
    let tables = attacks::tables();
    let them = after.side_to_move();
    let us = !them;
    let occ = after.occupied();
    let ev = Eval::new(after, features);
    let mut best = 0;
    // Our pieces but pawns (whose ways out are few and odd) and the king (a check is not a
    // trap).
    let trappable = after.by_color(us) & !after.pieces(us, Piece::Pawn) & !after.pieces(us, Piece::King);
    // A trap never wins more than the piece trapped.
    let most = most_valuable(after, trappable);
    for piece in Piece::ALL[..5].iter().copied() {
        for from in after.pieces(them, piece) {
            if most <= best.max(floor) {
                break;
            }
            let already = tables.piece_attacks(piece, them, from, occ);
            let reach = match piece {
                Piece::Pawn => {
                    let step = if them == Color::White { 1 } else { -1 };
                    let one = from.offset(0, step).filter(|s| !occ.contains(*s));
                    let two = one
                        .filter(|_| from.relative(them).rank() == 1)
                        .and_then(|s| s.offset(0, step))
                        .filter(|s| !occ.contains(*s));
                    one.map_or(Bitboard::EMPTY, |s| s.bb()) | two.map_or(Bitboard::EMPTY, |s| s.bb())
                }
                _ => already & !occ & !guarded[piece.index()],
            };
            for to in reach & trap_squares(after, from, piece, trappable & !already, best.max(floor)) {
                if piece == Piece::Pawn && to.relative(them).rank() == 7 {
                    continue; // a promotion, asked elsewhere
                }
                let occ_to = occ.without(from).with(to);
                let targets = tables.piece_attacks(piece, them, to, occ_to) & trappable & !already;
                if most_valuable(after, targets) <= best.max(floor)
                    || targets.into_iter().all(|t| has_open_square(after, t, from, to, piece, occ_to))
                {
                    continue;
                }
                let step = Move::new(from, to);
                if !after.is_legal(step) || ev.threat_at(&Scene::after(after, step), to, piece) > 0 {
                    continue;
                }
                best = best.max(trapped_loss(&after.play(step), targets, to, features));
                if best >= enough {
                    return best;
                }
            }
        }
    }
    best
}

/// The squares from which their `piece` on `from` would attack one of `targets` worth more
/// than `floor` (everywhere for a pawn, whose one or two steps are cheaper to try than this).
/// Seen from the targets, with the piece gone from `from`: the square it steps to is at the end
/// of the line, where it blocks nothing.
fn trap_squares(after: &Position, from: Square, piece: Piece, targets: Bitboard, floor: i32) -> Bitboard {
    let tables = attacks::tables();
    if piece == Piece::Pawn {
        return Bitboard::FULL;
    }
    let occ = after.occupied().without(from);
    // The targets worth more than `floor`, by kind.
    let dear =
        Piece::ALL[..5].iter().filter(|&&k| value(k) > floor).fold(Bitboard::EMPTY, |b, &k| b | after.by_piece(k));
    let mut squares = Bitboard::EMPTY;
    for target in targets & dear {
        squares |= tables.piece_attacks(piece, !after.side_to_move(), target, occ);
    }
    squares
}

/// Can our piece on `target` step to a square no piece of theirs attacks, once their `piece`
/// has gone from `from` to `to` (occupancy `occ`)? A cheap first sieve: pins and exchanges are
/// left to `trapped_loss`.
fn has_open_square(after: &Position, target: Square, from: Square, to: Square, piece: Piece, occ: Bitboard) -> bool {
    let tables = attacks::tables();
    let them = after.side_to_move();
    let kind = after.piece_on(target);
    if kind == Piece::Pawn {
        return true; // a pawn's ways out are few and odd (pushes, captures): never trapped here
    }
    let occ_off = occ.without(target);
    let squares = tables.piece_attacks(kind, !them, target, occ)
        & !after.by_color(!them)
        & pin_line(after, target, to, piece, occ_off);
    let reach = tables.piece_attacks(piece, them, to, occ_off);
    Iterator::any(&mut (squares & !reach).into_iter(), |sq| {
        after.attackers_to(sq, them, occ_off).without(from).is_empty()
    })
}

/// Where our piece on `target` may step once their `piece` has gone to `to` (`occ_off`: the
/// occupancy with `target` empty): along the line to `to` when the mover pins it there to our
/// king, anywhere otherwise. A queen interposed against a check (Qd2 against Qa5+) and pinned by
/// the bishop that attacks it (Bb4) has squares to go to but none it may take: the sieve let it
/// go free, and the interposition was rated as a threat on their queen. Only the mover's pin is
/// asked, as `trapped_loss` answers it in full (taking the mover is one of its ways out); a pin
/// by a slider already there may be broken by taking that slider, which it does not ask:
/// asking those too did not play better.
fn pin_line(after: &Position, target: Square, to: Square, piece: Piece, occ_off: Bitboard) -> Bitboard {
    let tables = attacks::tables();
    let king = after.king_square(!after.side_to_move());
    let rays = match piece {
        Piece::Bishop => tables.bishop_rays(king),
        Piece::Rook => tables.rook_rays(king),
        Piece::Queen => tables.queen_rays(king),
        _ => return Bitboard::FULL,
    };
    let between = tables.between(king, to);
    match rays.contains(to) && between.contains(target) && (between & occ_off).is_empty() {
        true => between.with(to),
        false => Bitboard::FULL,
    }
}

/// What we lose in `next` (our move, after their quiet attack from `to`) on the best of the
/// `targets`: for each, the least of its threat where it stands and what each way out costs
/// (one of its moves, or a capture of the attacker: the threat where the mover lands, less
/// what it takes, plus what is still threatened on the target).
fn trapped_loss(next: &Position, targets: Bitboard, to: Square, features: Features) -> i32 {
    let ev = Eval::new(next, features);
    let now = Scene::now(next);
    let ways = next.legal_moves_from(targets | next.attackers_to(to, next.side_to_move(), next.occupied()));
    let mut best = 0;
    for target in targets {
        let kind = next.piece_on(target);
        let mut least = ev.threat_at(&now, target, kind);
        for &mv in ways.iter().filter(|m| m.from() == target || m.to() == to) {
            if least <= 0 {
                break;
            }
            let scene = Scene::after(next, mv);
            let mover = next.moving_piece(mv);
            let landed = mv.promotion().unwrap_or(mover);
            let mut cost = ev.threat_at(&scene, mv.to(), landed) - immediate(next, mv);
            if mv.from() != target {
                cost += ev.threat_at(&scene, target, kind);
            }
            least = least.min(cost.max(0));
        }
        best = best.max(least);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::forks::{guarded_below, their_fork};
    use super::*;
    use crate::agents::wac_and_one_move_on;

    /// The value of the piece on `sq` (0 when empty).
    fn value_at(pos: &Position, sq: Square) -> i32 {
        pos.piece_kind_at(sq).map_or(0, value)
    }

    #[test]
    fn the_floors_of_their_fork_and_trap_change_nothing_above_them() {
        // Asked with a floor, the answer is the same as without one whenever it is above the
        // floor, and at most the floor otherwise: what best_answer compares is unchanged.
        let features = Features::level(9).unwrap();
        let (mut forks, mut traps) = (0, 0);
        for p in wac_and_one_move_on().iter().filter(|p| !p.is_check()) {
            let guarded = guarded_below(p);
            let (fork, trap) =
                (their_fork(p, features, &guarded, 0, i32::MAX), their_trap(p, features, &guarded, 0, i32::MAX));
            forks += usize::from(fork > 0);
            traps += usize::from(trap > 0);
            for floor in [50, 100, 300, 350, 500] {
                let (f, t) = (
                    their_fork(p, features, &guarded, floor, i32::MAX),
                    their_trap(p, features, &guarded, floor, i32::MAX),
                );
                assert!(if fork > floor { f == fork } else { f <= floor }, "{p:?} fork {fork} {f} floor {floor}");
                assert!(if trap > floor { t == trap } else { t <= floor }, "{p:?} trap {trap} {t} floor {floor}");
            }
        }
        assert!(forks > 100 && traps > 10, "{forks} {traps}");
    }

    #[test]
    fn trap_squares_hold_every_square_attacking_a_target() {
        let mut seen = 0;
        for p in wac_and_one_move_on() {
            let them = p.side_to_move();
            let occ = p.occupied();
            let ours = p.by_color(!them) & !p.pieces(!them, Piece::King);
            for from in p.by_color(them) & !p.pieces(them, Piece::King) {
                let piece = p.piece_kind_at(from).unwrap();
                for floor in [0, 300] {
                    let squares = trap_squares(&p, from, piece, ours, floor);
                    for to in !occ {
                        let hit = attacks::piece_attacks(piece, them, to, occ.without(from).with(to)) & ours;
                        if hit.into_iter().map(|t| value_at(&p, t)).max().is_some_and(|v| v > floor) {
                            assert!(squares.contains(to), "{p:?} {from} {to}");
                            seen += 1;
                        }
                    }
                }
            }
        }
        assert!(seen > 100_000, "{seen}");
    }
}

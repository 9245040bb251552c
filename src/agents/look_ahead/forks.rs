//! Their forks: a piece of theirs stepping safely to a square from which it attacks two of ours
//! that we cannot both save (`their_fork`), found from the squares a fork could come from
//! (`fork_squares`) and bounded by what it could win (`fork_ceiling`); and the squares where a
//! piece of theirs would step under threat whatever guards it (`guarded_below`), which their
//! forks and traps pass over. One of the opponent's answers (`answer.rs`).

use super::material::{most_valuable, second_dearest};
use crate::agents::eval::Eval;
use crate::agents::features::Features;
use crate::agents::fork::{fork, unless_taken};
use crate::agents::scene::Scene;
use crate::board::{Bitboard, Move, Piece, Position, attacks};

/// Their best fork in `after` (their move): a piece of theirs that can step, safely, to a square
/// from which it attacks two of ours (or checks and attacks one) that we cannot both save.
///
/// Only a fork winning more than `floor` (their best answer so far) can change their answer, so
/// a square from which none can is not looked at: the result is exact above `floor`, and below
/// `enough` (once one wins that much, the rest is not looked at: see `best_answer`).
pub(super) fn their_fork(
    after: &Position,
    features: Features,
    guarded: &[Bitboard; 5],
    floor: i32,
    enough: i32,
) -> i32 {
    let tables = attacks::tables();
    let them = after.side_to_move();
    // Forks worth fearing hit two pieces, or the king and a piece; two pawns are not worth it.
    let ours = after.by_color(!them);
    // Two pawns are not worth fearing: a fork hits at least one piece (or the king).
    let pieces = ours & !after.pieces(!them, Piece::Pawn);
    let occ = after.occupied();
    // A fork never wins more than the dearest piece it hits.
    if most_valuable(after, ours & !after.pieces(!them, Piece::King)) <= floor {
        return 0;
    }
    let ev = Eval::new(after, features);
    let mut fork_squares = fork_squares(them, ours, pieces);
    // The forking piece would be under threat there (the fork is not safe).
    for (squares, guarded) in fork_squares.iter_mut().zip(guarded) {
        *squares &= !*guarded;
    }
    let mut best = 0;
    // By kind, so that a kind with no square to fork from is passed over whole.
    for piece in Piece::ALL[..5].iter().copied().filter(|p| fork_squares[p.index()].any()) {
        for from in after.pieces(them, piece) {
            let reach = match piece {
                Piece::Pawn => {
                    let step = if them == crate::board::Color::White { 1 } else { -1 };
                    from.offset(0, step).filter(|s| !occ.contains(*s)).map_or(crate::board::Bitboard::EMPTY, |s| s.bb())
                }
                _ => tables.piece_attacks(piece, them, from, occ) & !occ,
            };
            for to in reach & fork_squares[piece.index()] {
                let occ_to = occ.without(from).with(to);
                let hit = tables.piece_attacks(piece, them, to, occ_to);
                if !(hit & ours).more_than_one()
                    || (hit & pieces).is_empty()
                    || fork_ceiling(after, hit & ours) <= best.max(floor)
                {
                    continue;
                }
                // A plain step (pawns on the seventh rank promote, and are asked elsewhere).
                if piece == Piece::Pawn && to.relative(them).rank() == 7 {
                    continue;
                }
                let scene = Scene::after(after, Move::new(from, to));
                if ev.threat_at(&scene, to, piece) > 0 {
                    continue;
                }
                if let Some(f) = fork(&ev, &scene, to, piece).and_then(|f| unless_taken(&scene, after, to, piece, f)) {
                    best = best.max(f.gain);
                    if best >= enough {
                        return best;
                    }
                }
            }
        }
    }
    best
}

/// By kind of their piece (not the king), the squares where one of ours worth less, free to
/// take, attacks it in `after` (their move): a piece of theirs that steps there is under threat
/// whatever guards it, by the exchange as by the thesis's estimate (the cheaper piece takes first
/// and may stop after the recapture), which spares working out the threat there. A piece of ours
/// between our king and one of their sliders on the king's lines may be pinned (the board
/// between not asked): left out. The step itself only empties its square and fills the one
/// stepped to, which take no attack away from there.
pub(super) fn guarded_below(after: &Position) -> [Bitboard; 5] {
    let tables = attacks::tables();
    let us = !after.side_to_move();
    let occ = after.occupied();
    let free = !king_pin_lines(after, us);
    let pawns = (after.pieces(us, Piece::Pawn) & free).pawn_attacks(us == crate::board::Color::White);
    let attacked = |kind: Piece| {
        (after.pieces(us, kind) & free)
            .into_iter()
            .fold(Bitboard::EMPTY, |b, sq| b | tables.piece_attacks(kind, us, sq, occ))
    };
    let knights = pawns | attacked(Piece::Knight);
    let bishops = knights | attacked(Piece::Bishop);
    [Bitboard::EMPTY, pawns, knights, bishops, bishops | attacked(Piece::Rook)]
}

/// By kind of piece (not the king), the squares from which one of theirs (`them`) would attack
/// two of `ours`, one of them among `pieces`, on an empty board: a superset of those from which
/// it does on the real one, since a piece there attacks no more than its empty-board lines.
/// Seen from the targets, once for all their pieces (a piece on `to` reaches `t` along a line
/// or a leap exactly when one on `t` reaches `to` the same way; a pawn of the other colour), so
/// that `their_fork` looks up the attacks only from these squares.
fn fork_squares(them: crate::board::Color, ours: Bitboard, pieces: Bitboard) -> [Bitboard; 5] {
    let tables = attacks::tables();
    let (mut one, mut two, mut piece) = ([Bitboard::EMPTY; 4], [Bitboard::EMPTY; 4], [Bitboard::EMPTY; 4]);
    for target in ours {
        let from =
            [tables.pawn(!them, target), tables.knight(target), tables.bishop_rays(target), tables.rook_rays(target)];
        let is_piece = pieces.contains(target);
        for k in 0..4 {
            two[k] |= one[k] & from[k];
            one[k] |= from[k];
            if is_piece {
                piece[k] |= from[k];
            }
        }
    }
    // A queen's: a target's diagonals and lines never share a square, so two targets seen one
    // along a diagonal, the other along a line, are two.
    let (b, r) = (Piece::Bishop.index(), Piece::Rook.index());
    let queen = (two[b] | two[r] | (one[b] & one[r])) & (piece[b] | piece[r]);
    [two[0] & piece[0], two[1] & piece[1], two[b] & piece[b], two[r] & piece[r], queen]
}

/// The most a fork on `targets` can guarantee (`fork::Tally`): each capture wins at most the
/// piece taken, and the opponent saves the best one unless the king is among them (a check).
fn fork_ceiling(pos: &Position, targets: Bitboard) -> i32 {
    match (targets & pos.by_piece(Piece::King)).any() {
        true => most_valuable(pos, targets),
        false => second_dearest(pos, targets),
    }
}

/// `color`'s king's lines to each enemy slider that stands on them on an empty board: the
/// squares between (the board between not asked) and the slider's. Only a piece standing there
/// can be pinned to that king.
pub(super) fn king_pin_lines(pos: &Position, color: crate::board::Color) -> Bitboard {
    let tables = attacks::tables();
    let king = pos.king_square(color);
    let queens = pos.pieces(!color, Piece::Queen);
    let sliders = (tables.rook_rays(king) & (pos.pieces(!color, Piece::Rook) | queens))
        | (tables.bishop_rays(king) & (pos.pieces(!color, Piece::Bishop) | queens));
    sliders.into_iter().fold(Bitboard::EMPTY, |b, s| b | tables.between(king, s).with(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::wac_and_one_move_on;
    use crate::board::Square;
    use crate::board::values::value;

    /// Level 9 without `placement`, so that the worths below are material alone.
    fn level9_material() -> Features {
        Features::level(9).unwrap().without(Features::PLACEMENT)
    }

    /// `fork_squares` and `fork_ceiling` against their plain statements: the squares from which
    /// a piece of each kind sees two targets (one a piece) on an empty board, and the second
    /// dearest target (the dearest with the king among them), target by target.
    #[test]
    fn fork_squares_and_ceilings_are_the_plain_ones() {
        let t = attacks::tables();
        let mut seen = 0;
        for p in wac_and_one_move_on().into_iter().step_by(7) {
            let them = p.side_to_move();
            let ours = p.by_color(!them);
            let pieces = ours & !p.pieces(!them, Piece::Pawn);
            let squares = fork_squares(them, ours, pieces);
            for (k, piece) in Piece::ALL[..5].iter().copied().enumerate() {
                for sq in Square::all() {
                    let empty_board = |target: Square| match piece {
                        Piece::Pawn => t.pawn(them, sq).contains(target),
                        Piece::Knight => t.knight(sq).contains(target),
                        Piece::Bishop => t.bishop_rays(sq).contains(target),
                        Piece::Rook => t.rook_rays(sq).contains(target),
                        _ => t.queen_rays(sq).contains(target),
                    };
                    let hit =
                        ours.into_iter().filter(|&target| empty_board(target)).fold(Bitboard::EMPTY, |b, s| b.with(s));
                    assert_eq!(
                        squares[k].contains(sq),
                        hit.more_than_one() && (hit & pieces).any(),
                        "{p:?} {piece:?} {sq}"
                    );
                }
            }
            for sq in Square::all() {
                let targets = attacks::piece_attacks(Piece::Queen, them, sq, p.occupied()) | t.knight(sq);
                let targets = targets & ours;
                let mut values: Vec<i32> = targets
                    .into_iter()
                    .filter_map(|s| p.piece_kind_at(s))
                    .filter(|&k| k != Piece::King)
                    .map(value)
                    .collect();
                values.sort_unstable_by(|a, b| b.cmp(a));
                let check = (targets & p.by_piece(Piece::King)).any();
                let plain = if check { values.first() } else { values.get(1) }.copied().unwrap_or(0);
                assert_eq!(fork_ceiling(&p, targets), plain, "{p:?} {sq}");
                seen += 1;
            }
        }
        assert!(seen > 10_000, "{seen}");
    }

    /// Every step of theirs (not a pawn's, not the king's) onto a square `guarded_below` names
    /// for that kind leaves the piece under threat there, by the exchange (level 9) and by the
    /// thesis's estimate (level 7): their fork and trap may pass those squares over unasked.
    #[test]
    fn a_step_onto_a_square_a_cheaper_piece_guards_is_under_threat() {
        let (mut guarded_steps, mut steps) = (0, 0);
        for p in wac_and_one_move_on().into_iter().step_by(3) {
            let guarded = guarded_below(&p);
            for &mv in p.legal_moves().iter() {
                let piece = p.moving_piece(mv);
                if matches!(piece, Piece::Pawn | Piece::King) || p.is_capture(mv) {
                    continue;
                }
                steps += 1;
                if !guarded[piece.index()].contains(mv.to()) {
                    continue;
                }
                guarded_steps += 1;
                let scene = Scene::after(&p, mv);
                for features in [level9_material(), Features::level(7).unwrap()] {
                    let threat = Eval::new(&p, features).threat_at(&scene, mv.to(), piece);
                    assert!(threat > 0, "{p:?} {mv} {features:?}: {threat}");
                }
            }
        }
        // Enough of both kinds of step for the claim to be tested (and the set not empty).
        assert!(guarded_steps > 1_000 && steps > 2 * guarded_steps, "{guarded_steps} of {steps}");
    }
}

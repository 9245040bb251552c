//! Promotion (level 9, `Features::PROMOTION`): passed pawns are agents with a goal, and the
//! opponent's promotions are threats to answer.
//!
//! The thesis's agents see material only (1.1) and say nothing of promotion: a pawn push is
//! worth nothing to them unless it plans a capture, and an enemy pawn about to queen is no
//! threat to any agent, so a searcher wins many of its games against the thesis's levels by
//! promoting. With this feature:
//!
//! - a pawn that is passed after its move (no enemy pawn ahead of it on its own or a
//!   neighbouring file) adds a bonus that grows as it nears the last rank (`PASSED_BONUS`);
//! - a passed pawn that is unstoppable after its move, by the rule of the square (the defender
//!   has only king and pawns, the path is clear, and its king cannot reach the queening square
//!   in time), is worth nearly a queen: `UNSTOPPABLE` less a little per step still to go;
//! - the push must be safe: the landing square's threat is subtracted as for every move;
//! - an enemy pawn that can promote on its next move is a threat (`threats`): the moves that
//!   capture it, stand on its queening square, or guard that square are its answers, offered to
//!   the MasterAgent as candidates (look-ahead then weighs them against the promotion).

use crate::board::values::{PAWN_VALUE, QUEEN_VALUE, value};
use crate::board::{Bitboard, Color, Move, Piece, Position, Square, attacks};

/// Bonus for a passed pawn by the relative rank it stands on after its move (0 = first rank).
pub(crate) const PASSED_BONUS: [i32; 8] = [0, 0, 5, 10, 20, 40, 70, 0];

/// An unstoppable pawn is worth a queen less the pawn, less this much per step still to go.
pub(crate) const STEP_COST: i32 = 25;

/// The worth of an unstoppable pawn on the doorstep.
pub(crate) const UNSTOPPABLE: i32 = QUEEN_VALUE - PAWN_VALUE;

/// The squares in front of a pawn of `color` on `sq`, up to the last rank.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let mut span = Bitboard::EMPTY;
    let mut at = sq;
    let step = if color == Color::White { 1 } else { -1 };
    while let Some(next) = at.offset(0, step) {
        span = span.with(next);
        at = next;
    }
    span
}

/// Is a pawn of `color` on `sq` passed: no enemy pawn in front of it on its file or a
/// neighbouring one?
pub(crate) fn is_passed(pos: &Position, color: Color, sq: Square) -> bool {
    let mut zone = front_span(color, sq);
    for df in [-1, 1] {
        if let Some(side) = sq.offset(df, 0) {
            zone |= front_span(color, side);
        }
    }
    (zone & pos.pieces(!color, Piece::Pawn)).is_empty()
}

/// Steps a pawn of `color` on `sq` still needs to promote (a pawn on its first move may step
/// twice, which the rule of the square counts as one step fewer).
fn steps_to_go(color: Color, sq: Square) -> i32 {
    let rank = sq.relative(color).rank() as i32;
    (7 - rank - i32::from(rank == 1)).max(0)
}

/// The rule of the square: can the enemy king still catch our passed pawn on `sq` (with the
/// occupancy `occ`)? Only asked when the defender has nothing but king and pawns; then the pawn
/// is unstoppable when nothing stands on its path and the defending king, `defender_to_move` or
/// not, is further from the queening square than the pawn.
pub(crate) fn unstoppable(pos: &Position, color: Color, sq: Square, occ: Bitboard, defender_to_move: bool) -> bool {
    let defender = !color;
    let heavy = pos.by_color(defender) & !(pos.pieces(defender, Piece::King) | pos.pieces(defender, Piece::Pawn));
    if heavy.any() || (front_span(color, sq) & occ).any() || !is_passed(pos, color, sq) {
        return false;
    }
    let queening = Square::new(sq.file(), color.promotion_rank());
    let king = pos.king_square(defender);
    let distance =
        (king.file() as i32 - queening.file() as i32).abs().max((king.rank() as i32 - queening.rank() as i32).abs());
    distance - i32::from(defender_to_move) > steps_to_go(color, sq)
}

/// What a pawn move to `to` is worth toward promotion, for the mover in `pos` (the position
/// before the move; `occ` after it). The promotion itself is counted as material elsewhere.
pub(crate) fn push_value(pos: &Position, to: Square, occ: Bitboard) -> i32 {
    let us = pos.side_to_move();
    if to.relative(us).rank() == 7 || !is_passed(pos, us, to) {
        return 0;
    }
    if unstoppable(pos, us, to, occ, true) {
        return UNSTOPPABLE - STEP_COST * steps_to_go(us, to);
    }
    PASSED_BONUS[to.relative(us).rank() as usize]
}

/// The opponent's pawns that can promote on their next move, with the square they would queen on
/// (a push or a capture).
pub(crate) fn threats(pos: &Position) -> Vec<(Square, Square)> {
    let them = !pos.side_to_move();
    let mut out = Vec::new();
    for pawn in pos.pieces(them, Piece::Pawn) & seventh_rank(them) {
        let step = if them == Color::White { 1 } else { -1 };
        if let Some(ahead) = pawn.offset(0, step)
            && !pos.occupied().contains(ahead)
        {
            out.push((pawn, ahead));
        }
        for target in attacks::pawn(them, pawn) & pos.by_color(pos.side_to_move()) {
            out.push((pawn, target));
        }
    }
    out
}

/// Does our legal move `mv` answer the promotion of the pawn on `pawn` on `queening`: it takes
/// the pawn, stands on the queening square, or guards it?
pub(crate) fn answers(pos: &Position, mv: Move, pawn: Square, queening: Square) -> bool {
    let captured = crate::agents::counters::captured_square(pos, mv);
    if captured == Some(pawn) || mv.to() == queening {
        return true;
    }
    let piece = mv.promotion().unwrap_or(pos.moving_piece(mv));
    let occ = pos.occupied().without(mv.from()).with(mv.to());
    attacks::piece_attacks(piece, pos.side_to_move(), mv.to(), occ).contains(queening)
}

/// The rank from which `color`'s pawns promote with their next step.
pub(crate) fn seventh_rank(color: Color) -> Bitboard {
    Bitboard::rank(if color == Color::White { 6 } else { 1 })
}

/// The material a promotion on its own wins: the queen less the pawn.
pub(crate) fn promotion_gain() -> i32 {
    value(Piece::Queen) - value(Piece::Pawn)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn passed_pawns() {
        let p = pos("4k3/p7/8/1P6/8/8/5P2/4K3 w - - 0 1");
        assert!(!is_passed(&p, Color::White, sq("b5")), "the a7 pawn stands in front on a neighbouring file");
        assert!(is_passed(&p, Color::White, sq("f2")));
        assert!(!is_passed(&p, Color::Black, sq("a7")), "b5 is ahead of a7 for Black");
    }

    #[test]
    fn the_rule_of_the_square() {
        // White pawn b5, Black king g5: the king is 4 steps (b8) away... distance from g5 to b8
        // is 5, the pawn needs 3 steps: unstoppable, whoever moves.
        let p = pos("8/8/8/1P4k1/8/8/8/4K3 w - - 0 1");
        assert!(unstoppable(&p, Color::White, sq("b5"), p.occupied(), true));
        // King on d6: 2 steps to b8 (Chebyshev: c7, b8) with the move: caught.
        let p = pos("8/8/3k4/1P6/8/8/8/4K3 w - - 0 1");
        assert!(!unstoppable(&p, Color::White, sq("b5"), p.occupied(), true));
        // A defender with a piece is never outrun by this rule.
        let p = pos("8/8/8/1P4k1/8/8/8/n3K3 w - - 0 1");
        assert!(!unstoppable(&p, Color::White, sq("b5"), p.occupied(), true));
    }

    #[test]
    fn pushes_are_worth_more_near_the_end() {
        let p = pos("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
        let v2 = push_value(&p, sq("a3"), p.occupied());
        assert!(v2 > 0);
        // Far from the defending king the pawn runs: nearly a queen.
        let p = pos("7k/8/8/P7/8/8/8/4K3 w - - 0 1");
        let v = push_value(&p, sq("a6"), p.occupied());
        assert_eq!(v, UNSTOPPABLE - 2 * STEP_COST);
    }

    #[test]
    fn promotion_threats_and_answers() {
        // Black pawn b2 queens on b1 or takes on a1/c1.
        let p = pos("4k3/8/8/8/8/8/1p6/R3K3 w - - 0 1");
        let t = threats(&p);
        assert!(t.contains(&(sq("b2"), sq("b1"))) && t.contains(&(sq("b2"), sq("a1"))), "{t:?}");
        let rb1 = p.parse_uci("a1b1").unwrap();
        assert!(answers(&p, rb1, sq("b2"), sq("b1")));
        let ke2 = p.parse_uci("e1e2").unwrap();
        assert!(!answers(&p, ke2, sq("b2"), sq("b1")));
        assert_eq!(promotion_gain(), 800);
    }
}

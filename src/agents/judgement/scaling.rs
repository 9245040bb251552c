//! Endings that material alone would call won but that are drawn or nearly so: the endgame
//! part of the judgement is scaled toward zero for the side ahead.

use super::score::FULL_SCALE;
use crate::board::values::value;
use crate::board::{Bitboard, Color, Piece, Position};

fn non_pawn(pos: &Position, side: Color) -> i32 {
    [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .iter()
        .map(|&p| pos.pieces(side, p).count() as i32 * value(p))
        .sum()
}

/// How much of the endgame score stands when `strong` is the side ahead, out of `FULL_SCALE`.
pub(super) fn scale(pos: &Position, strong: Color) -> i32 {
    let weak = !strong;
    let strong_pawns = pos.pieces(strong, Piece::Pawn).count();
    let (ours, theirs) = (non_pawn(pos, strong), non_pawn(pos, weak));
    // No pawns to promote and at most a minor piece more: a rook against a minor, two knights.
    if strong_pawns == 0 {
        let only_knights = pos.pieces(strong, Piece::Knight).count() as i32 * value(Piece::Knight) == ours;
        if ours - theirs <= value(Piece::Bishop) || (only_knights && theirs == 0 && ours <= 2 * value(Piece::Knight)) {
            return FULL_SCALE / 8;
        }
    }
    // Bishops of opposite colours and nothing else: the pawns seldom get through.
    let bishops = |c: Color| pos.pieces(c, Piece::Bishop);
    let only_bishops = |c: Color| ours.max(theirs) == value(Piece::Bishop) && non_pawn(pos, c) == value(Piece::Bishop);
    if only_bishops(strong) && only_bishops(weak) {
        let light = |b: Bitboard| (b & Bitboard::LIGHT_SQUARES).any();
        if light(bishops(strong)) != light(bishops(weak)) {
            return FULL_SCALE / 2;
        }
    }
    FULL_SCALE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale_of(fen: &str) -> i32 {
        scale(&Position::from_fen(fen).unwrap(), Color::White)
    }

    #[test]
    fn drawish_endings_are_scaled_down() {
        assert_eq!(scale_of("4k3/8/8/8/8/8/8/2R1Kb2 w - - 0 1"), FULL_SCALE / 8, "rook against bishop");
        assert_eq!(scale_of("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1"), FULL_SCALE / 8, "two knights");
        assert_eq!(scale_of("4k3/8/8/8/8/8/8/2Q1Kr2 w - - 0 1"), FULL_SCALE, "queen against rook wins");
        assert_eq!(scale_of("4k3/8/8/8/8/8/8/1BN1K3 w - - 0 1"), FULL_SCALE, "bishop and knight mate");
        // Opposite bishops with a pawn more.
        assert_eq!(scale_of("2b1k3/8/8/8/8/2P5/P7/2B1K3 w - - 0 1"), FULL_SCALE / 2);
        assert_eq!(scale_of("4kb2/8/8/8/8/2P5/P7/2B1K3 w - - 0 1"), FULL_SCALE, "same colour");
    }
}

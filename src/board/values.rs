//! Material values, thesis Table 2.2 (section 2.2.4). The only place piece values live: the agents,
//! the searcher and the experiments all weigh material with them.

use crate::board::{Color, Piece, Position};

pub const PAWN_VALUE: i32 = 100;
pub const KNIGHT_VALUE: i32 = 300;
pub const BISHOP_VALUE: i32 = 350;
pub const ROOK_VALUE: i32 = 500;
pub const QUEEN_VALUE: i32 = 900;
/// The thesis's "infinite": above any material a side can own (even nine queens, two rooks,
/// two bishops and two knights come to 10,400), yet far from `i32` overflow when profits and
/// threats are added and subtracted.
pub const KING_VALUE: i32 = 100_000;

/// Table 2.2, indexed by [`Piece::index`].
const VALUES: [i32; 6] = [PAWN_VALUE, KNIGHT_VALUE, BISHOP_VALUE, ROOK_VALUE, QUEEN_VALUE, KING_VALUE];

/// The material value of a piece kind (thesis Table 2.2).
#[inline]
pub const fn value(piece: Piece) -> i32 {
    VALUES[piece.index()]
}

/// The usual count of material (pawn 1, knight and bishop 3, rook 5, queen 9), both sides
/// together: 78 in the initial position. The scale the win/draw/loss model's material is on
/// (`players::wdl`), as engines and their users count it, not the thesis's values.
pub fn material_points(pos: &Position) -> u32 {
    const POINTS: [u32; 5] = [1, 3, 3, 5, 9];
    Piece::ALL[..5]
        .iter()
        .zip(POINTS)
        .map(|(&p, points)| points * (pos.pieces(Color::White, p).count() + pos.pieces(Color::Black, p).count()))
        .sum()
}

/// Material of `side` minus its opponent's, kings left out.
pub fn material_balance(pos: &Position, side: Color) -> i32 {
    Piece::ALL[..5]
        .iter()
        .map(|&p| value(p) * (pos.pieces(side, p).count() as i32 - pos.pieces(!side, p).count() as i32))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_2_2() {
        assert_eq!(value(Piece::Pawn), 100);
        assert_eq!(value(Piece::Knight), 300);
        assert_eq!(value(Piece::Bishop), 350);
        assert_eq!(value(Piece::Rook), 500);
        assert_eq!(value(Piece::Queen), 900);
        let most_material = 9 * QUEEN_VALUE + 2 * (ROOK_VALUE + BISHOP_VALUE + KNIGHT_VALUE);
        assert!(value(Piece::King) > most_material);
    }

    #[test]
    fn material_balance_by_side() {
        let pos = Position::from_fen("4k3/pp6/8/8/8/8/8/RN2K3 w - - 0 1").unwrap();
        assert_eq!(material_balance(&pos, Color::White), 600);
        assert_eq!(material_balance(&pos, Color::Black), -600);
        assert_eq!(material_balance(&Position::startpos(), Color::White), 0);
    }
}

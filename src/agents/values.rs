//! Material values, thesis Table 2.2 (section 2.2.4). The only place piece values live.

use crate::board::Piece;

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
}

//! What the pieces on the board are worth, as the look-ahead asks it: the dearest and the
//! second dearest on a set of squares (the most a capture or a fork can win), what a move wins
//! at once, and whether a capture can leave a side without material to mate with. Shared by the
//! opponent's answers, the traps and forks they may set, and the candidates' worths.

use crate::board::values::value;
use crate::board::{Bitboard, Move, Piece, Position};

/// The value of the most valuable piece on `squares` (0 when empty; kings are never among them).
pub(super) fn most_valuable(pos: &Position, squares: Bitboard) -> i32 {
    // Piece::ALL lists the kinds from the cheapest up.
    Piece::ALL[..5].iter().rev().find(|&&p| (squares & pos.by_piece(p)).any()).map_or(0, |&p| value(p))
}

/// The value of the second dearest piece on `squares` (0 with fewer than two; kings are never
/// among them): by kind from the dearest down (Piece::ALL lists them from the cheapest up), the
/// first kind with two pieces there, or the second kind with any.
pub(super) fn second_dearest(pos: &Position, squares: Bitboard) -> i32 {
    let mut seen = false;
    for &kind in Piece::ALL[..5].iter().rev() {
        let of_kind = squares & pos.by_piece(kind);
        if of_kind.any() {
            if seen || of_kind.more_than_one() {
                return value(kind);
            }
            seen = true;
        }
    }
    0
}

/// What our legal move `mv` wins on the board now: the piece it takes and its promotion.
pub(crate) fn immediate(pos: &Position, mv: Move) -> i32 {
    let piece = pos.moving_piece(mv);
    pos.captured_piece(mv).map_or(0, value) + mv.promotion().map_or(0, |p| value(p) - value(piece))
}

/// Would taking our piece on `sq` in `after` leave us (`us`) without material to mate with
/// (a lone minor piece or nothing) while they too have nothing but minor pieces?
pub(super) fn leaves_no_mate(after: &Position, sq: crate::board::Square, us: crate::board::Color) -> bool {
    let heavy_or_pawns = |side| {
        (after.pieces(side, Piece::Queen) | after.pieces(side, Piece::Rook) | after.pieces(side, Piece::Pawn))
            .without(sq)
    };
    let minors = (after.pieces(us, Piece::Knight) | after.pieces(us, Piece::Bishop)).without(sq).count();
    heavy_or_pawns(us).is_empty() && minors <= 1 && heavy_or_pawns(!us).is_empty()
}

/// Could taking some piece of ours leave us without mating material (`leaves_no_mate`)?
pub(super) fn may_leave_no_mate(after: &Position, us: crate::board::Color) -> bool {
    let heavy_or_pawns =
        |side| after.pieces(side, Piece::Queen) | after.pieces(side, Piece::Rook) | after.pieces(side, Piece::Pawn);
    let minors = (after.pieces(us, Piece::Knight) | after.pieces(us, Piece::Bishop)).count();
    // The piece taken may be the one heavy piece or pawn, or one of two minor pieces.
    heavy_or_pawns(!us).is_empty()
        && match heavy_or_pawns(us).count() {
            0 => minors <= 2,
            1 => minors <= 1,
            _ => false,
        }
}

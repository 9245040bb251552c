//! The king agent: the pawns in front of it and the files beside it, their pawns coming, the
//! weight of the attack on its zone, the castling it keeps, and how far it is from the nearest
//! pawn.

use super::pawns::{distance, relative_rank};
use super::score::Sink;
use super::terms::*;
use crate::board::{Bitboard, CastleRights, Color, Piece, Position};

/// Both kings' terms into `sink`; `danger` is the attack each king's zone is under.
pub(super) fn kings(pos: &Position, danger: [i32; 2], sink: &mut impl Sink) {
    for us in Color::BOTH {
        let them = !us;
        let king = pos.king_square(us);
        let rank = relative_rank(us, king);
        let ours = pos.pieces(us, Piece::Pawn);
        let theirs = pos.pieces(them, Piece::Pawn);
        let lo = king.file().saturating_sub(1);
        let hi = (king.file() + 1).min(7);
        for file in lo..=hi {
            let on_file = Bitboard::file(file);
            let nearest = (ours & on_file)
                .filter(|&sq| relative_rank(us, sq) > rank)
                .map(|sq| relative_rank(us, sq) - rank)
                .min();
            let shelter = match nearest {
                Some(1) => 0,
                Some(2) => 1,
                _ => 2,
            };
            sink.side(us, KING_SHELTER + shelter, 1);
            let storm = (theirs & on_file)
                .filter(|&sq| relative_rank(us, sq) > rank && relative_rank(us, sq) <= rank + 3)
                .count();
            sink.side(us, KING_STORM, storm as i32);
            if (on_file & ours).is_empty() {
                sink.side(us, if (on_file & theirs).is_empty() { KING_OPEN_FILE } else { KING_HALF_OPEN_FILE }, 1);
            }
        }
        sink.side(us, KING_DANGER + danger[us.index()].clamp(0, 15) as usize, 1);
        // In an ending the king is a piece that must reach the pawns, its own and theirs.
        if let Some(near) = pos.by_piece(Piece::Pawn).map(|sq| distance(king, sq)).min() {
            sink.side(us, KING_PAWN_DISTANCE + near as usize, 1);
        }
        let rights = pos.castling();
        let kept =
            i32::from(rights.has(CastleRights::king_side(us))) + i32::from(rights.has(CastleRights::queen_side(us)));
        sink.side(us, CASTLING_RIGHT, kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::judgement::score::Trace;

    #[test]
    fn a_castled_king_behind_its_pawns_and_one_in_the_open() {
        let pos = Position::from_fen("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1").unwrap();
        let mut t = Trace::default();
        kings(&pos, [0, 0], &mut t);
        assert_eq!(t.counts[KING_SHELTER], 3, "three pawns one step ahead of White's king");
        assert_eq!(t.counts[KING_SHELTER + 2], -3, "none in front of Black's");
        assert_eq!(t.counts[KING_HALF_OPEN_FILE], -3, "White's pawns on the files beside Black's king");
        assert_eq!(t.counts[KING_PAWN_DISTANCE + 1], 1, "White's king next to its pawns");
        assert_eq!(t.counts[KING_PAWN_DISTANCE + 6], -1, "Black's king six squares from f2, g2, h2");
    }
}

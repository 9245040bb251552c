//! The king agent: the pawns in front of it and the files beside it, their pawns coming, the
//! weight of the attack on its zone, the castling it keeps, and how far it is from the nearest
//! pawn.

use super::pawns::relative_rank;
use super::score::{S, Sink, Sum};
use super::terms::*;
use crate::board::{Bitboard, CastleRights, Color, Piece, Position};

/// Both kings' terms into `sink`; `danger` is the attack each king's zone is under.
#[cfg(test)]
fn kings(pos: &Position, danger: [i32; 2], sink: &mut impl Sink) {
    kings_and_pawns(pos, sink);
    kings_beside_pawns(pos, danger, sink);
}

/// The kings' terms that depend on the pawns and the kings' squares alone: the shelter in
/// front, the storm coming, the open files beside, the nearest pawn.
pub(super) fn kings_and_pawns(pos: &Position, sink: &mut impl Sink) {
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
        // In an ending the king is a piece that must reach the pawns, its own and theirs.
        if let Some(near) = pos.by_piece(Piece::Pawn).map(|sq| king.distance(sq)).min() {
            sink.side(us, KING_PAWN_DISTANCE + near as usize, 1);
        }
    }
}

/// The kings' other terms: the attack on their zone (`danger`) and the castling they keep.
pub(super) fn kings_beside_pawns(pos: &Position, danger: [i32; 2], sink: &mut impl Sink) {
    for us in Color::BOTH {
        sink.side(us, KING_DANGER + danger[us.index()].clamp(0, 15) as usize, 1);
        let rights = pos.castling();
        let kept =
            i32::from(rights.has(CastleRights::king_side(us))) + i32::from(rights.has(CastleRights::queen_side(us)));
        sink.side(us, CASTLING_RIGHT, kept);
    }
}

/// The kings' terms that depend on the pawns and the kings' squares alone
/// (`kings_and_pawns`), kept by both sides' pawns and both kings' squares: a leaf's king and
/// pawns are most often a position's met before.
pub struct KingCache {
    weights: &'static [S; COUNT],
    slots: Vec<KingSlot>,
}

#[derive(Clone, Copy, Default)]
struct KingSlot {
    white: u64,
    black: u64,
    /// The kings' squares, White's in the low six bits; never 0 for a real position (both
    /// kings on a1), which makes an empty slot no position's.
    kings: u16,
    score: S,
}

const KING_SLOTS: usize = 1 << 14;

impl KingCache {
    pub fn new(weights: &'static [S; COUNT]) -> KingCache {
        KingCache { weights, slots: vec![KingSlot::default(); KING_SLOTS] }
    }

    /// `kings_and_pawns` of `pos` from White's side.
    pub(super) fn score(&mut self, pos: &Position) -> S {
        let white = pos.pieces(Color::White, Piece::Pawn).0;
        let black = pos.pieces(Color::Black, Piece::Pawn).0;
        let kings = (pos.king_square(Color::White).index() | pos.king_square(Color::Black).index() << 6) as u16;
        let key = (white ^ black.rotate_left(17) ^ u64::from(kings).wrapping_mul(0x2545_F491_4F6C_DD1D))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = &mut self.slots[(key >> 50) as usize];
        if slot.white != white || slot.black != black || slot.kings != kings {
            let mut sum = Sum::new(self.weights);
            kings_and_pawns(pos, &mut sum);
            *slot = KingSlot { white, black, kings, score: sum.total };
        }
        slot.score
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

    /// The cache gives what the terms give, first time and again, and tells apart positions
    /// that differ by a king's square alone.
    #[test]
    fn the_cache_gives_the_kings_pawn_terms() {
        let weights = &crate::agents::judgement::weights::WEIGHTS;
        let mut cache = KingCache::new(weights);
        for fen in
            ["6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", "6k1/8/8/8/8/8/5PPP/2K5 w - - 0 1", "8/8/8/4k3/8/8/8/K7 w - - 0 1"]
        {
            let pos = Position::from_fen(fen).unwrap();
            let mut sum = Sum::new(weights);
            kings_and_pawns(&pos, &mut sum);
            assert_eq!(cache.score(&pos), sum.total, "{fen}");
            assert_eq!(cache.score(&pos), sum.total, "again: {fen}");
        }
    }
}

//! The pawn agents: what each pawn knows of itself and its neighbours (doubled, isolated,
//! backward, connected, passed) and the space they give their pieces, cached by the pawns'
//! squares since they seldom move; and what a passed pawn knows of the pieces around it (a free
//! path, a blockader, the kings' distances, the rule of the square, a rook behind it), judged
//! fresh at every leaf.

use super::score::{S, Sink, Sum};
use super::terms::*;
use crate::board::{Bitboard, Color, Piece, Position, Square, attacks};

/// Square-indexed masks for each colour (White 0, Black 1).
type Masks = [[u64; 64]; 2];

/// The squares ahead of `sq` for `color` on the files `lo..=hi` (clamped to the board).
const fn ahead(color: usize, sq: usize, lo: i32, hi: i32) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut bits = 0u64;
    let mut rank = 0;
    while rank < 8 {
        let is_ahead = if color == 0 { rank > r } else { rank < r };
        if is_ahead {
            let mut file = f + lo;
            while file <= f + hi {
                if file >= 0 && file < 8 {
                    bits |= 1 << (rank * 8 + file);
                }
                file += 1;
            }
        }
        rank += 1;
    }
    bits
}

const fn masks(lo: i32, hi: i32, skip_own_file: bool) -> Masks {
    let mut m = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            m[c][sq] = ahead(c, sq, lo, hi);
            if skip_own_file {
                m[c][sq] &= !ahead(c, sq, 0, 0);
            }
            sq += 1;
        }
        c += 1;
    }
    m
}

/// The squares ahead on the pawn's own file.
static FRONT: Masks = masks(0, 0, false);
/// The squares ahead on its own and the neighbouring files: no enemy pawn there, it is passed.
static PASSED_SPAN: Masks = masks(-1, 1, false);
/// The squares ahead on the neighbouring files: where enemy pawns could attack it from as it
/// advances, or where our pawns could come to support a piece.
pub(super) static ATTACK_SPAN: Masks = masks(-1, 1, true);

fn neighbour_files(file: u8) -> Bitboard {
    let f = Bitboard::file(file);
    Bitboard(((f.0 << 1) & !Bitboard::FILE_A.0) | ((f.0 >> 1) & !Bitboard::FILE_H.0))
}

/// The rank of `sq` as `color` counts it (0 its home rank, 7 the promotion rank).
#[inline]
pub(super) fn relative_rank(color: Color, sq: Square) -> usize {
    sq.relative(color).rank() as usize
}

/// The pawn structure of one side: its terms into `sink`, its passed pawns returned.
fn side_structure(pos: &Position, us: Color, sink: &mut impl Sink) -> Bitboard {
    let c = us.index();
    let white = us == Color::White;
    let ours = pos.pieces(us, Piece::Pawn);
    let theirs = pos.pieces(!us, Piece::Pawn);
    let their_attacks = theirs.pawn_attacks(!white);
    let our_attacks = ours.pawn_attacks(white);
    let mut passed = Bitboard::EMPTY;
    for sq in ours {
        let rank = relative_rank(us, sq);
        let neighbours = neighbour_files(sq.file()) & ours;
        let ahead_on_file = Bitboard(FRONT[c][sq.index()]) & ours;
        if ahead_on_file.any() {
            sink.side(us, PAWN_DOUBLED, 1);
        }
        if neighbours.is_empty() {
            sink.side(us, PAWN_ISOLATED, 1);
        } else {
            let behind_or_level = neighbours & !Bitboard(ATTACK_SPAN[c][sq.index()]);
            let stop = sq.bb().forward(white);
            if behind_or_level.is_empty() && (stop & their_attacks).any() {
                sink.side(us, PAWN_BACKWARD, 1);
            }
        }
        let beside = neighbours & Bitboard::rank(sq.rank());
        if our_attacks.contains(sq) || beside.any() {
            sink.side(us, PAWN_CONNECTED + rank, 1);
        }
        if (Bitboard(PASSED_SPAN[c][sq.index()]) & theirs).is_empty() && ahead_on_file.is_empty() {
            sink.side(us, PASSED + rank, 1);
            passed = passed.with(sq);
        }
    }
    sink.side(us, SPACE, space(us, ours, their_attacks));
    passed
}

/// The room our pawns give our pieces: the squares of files c to f on our second to fourth
/// ranks that their pawns do not attack and ours do not stand on, those up to three squares
/// behind one of our pawns counted twice (a piece there is shielded).
fn space(us: Color, ours: Bitboard, their_attacks: Bitboard) -> i32 {
    let white = us == Color::White;
    let centre_files = Bitboard::file(2) | Bitboard::file(3) | Bitboard::file(4) | Bitboard::file(5);
    let ranks =
        [1, 2, 3].into_iter().fold(Bitboard::EMPTY, |acc, r| acc | Bitboard::rank(if white { r } else { 7 - r }));
    let room = centre_files & ranks & !ours & !their_attacks;
    let mut behind = ours.forward(!white);
    behind |= behind.forward(!white);
    behind |= behind.forward(!white);
    (room.count() + (room & behind).count()) as i32
}

/// Both sides' pawn structure into `sink`; the passed pawns of White and Black.
pub(super) fn structure(pos: &Position, sink: &mut impl Sink) -> [Bitboard; 2] {
    [side_structure(pos, Color::White, sink), side_structure(pos, Color::Black, sink)]
}

/// A passed pawn among the pieces: its way ahead, a blockader, the kings' distances to the
/// square in front of it, and whether their king can still catch it in a pawn ending.
pub(super) fn passers(pos: &Position, passed: [Bitboard; 2], sink: &mut impl Sink) {
    let occ = pos.occupied();
    for us in Color::BOTH {
        let white = us == Color::White;
        let them = !us;
        let our_king = pos.king_square(us);
        let their_king = pos.king_square(them);
        let their_pieces = pos.by_color(them) & !pos.pieces(them, Piece::Pawn) & !pos.pieces(them, Piece::King);
        for sq in passed[us.index()] {
            let rank = relative_rank(us, sq);
            let stop = sq.bb().forward(white).lsb();
            let path = Bitboard(FRONT[us.index()][sq.index()]);
            let weight = rank as i32 - 1;
            sink.side(us, PASSED_OUR_KING, our_king.distance(stop) * weight);
            sink.side(us, PASSED_THEIR_KING, their_king.distance(stop) * weight);
            // A rook behind a passer, seeing it along the file, gains range as it advances.
            let behind = attacks::tables().rook(sq, occ) & Bitboard::file(sq.file()) & !path;
            if (behind & pos.pieces(us, Piece::Rook)).any() {
                sink.side(us, PASSED_ROOK_BEHIND, 1);
            }
            if (behind & pos.pieces(them, Piece::Rook)).any() {
                sink.side(us, PASSED_ROOK_BEHIND + 1, 1);
            }
            if (path & occ).is_empty() {
                sink.side(us, PASSED_FREE + rank, 1);
                if their_pieces.is_empty() {
                    let promotion = Square::new(sq.file(), us.promotion_rank());
                    // From its home rank the pawn's first step is a double one.
                    let steps = 7 - rank as i32 - i32::from(rank == 1);
                    let tempo = i32::from(pos.side_to_move() == them);
                    if their_king.distance(promotion) - tempo > steps {
                        sink.side(us, PASSED_UNSTOPPABLE, 1);
                    }
                }
            } else if pos.by_color(them).contains(stop) {
                sink.side(us, PASSED_BLOCKED + rank, 1);
            }
        }
    }
}

/// The pawn structures met, by the squares of both sides' pawns: the structure's score (from
/// White's side) and the passed pawns, so that a leaf with known pawns skips the pawn agents.
pub struct PawnCache {
    weights: &'static [S; COUNT],
    slots: Vec<Slot>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    white: u64,
    black: u64,
    score: S,
    passed: [Bitboard; 2],
}

const SLOTS: usize = 1 << 14;

impl PawnCache {
    /// An empty cache of structures scored by `weights`.
    pub fn new(weights: &'static [S; COUNT]) -> PawnCache {
        // An empty slot holds no pawns and scores nothing, which is right for a position
        // without pawns.
        PawnCache { weights, slots: vec![Slot::default(); SLOTS] }
    }

    /// The structure of `pos`: its score from White's side and the passed pawns.
    pub(super) fn structure(&mut self, pos: &Position) -> (S, [Bitboard; 2]) {
        let white = pos.pieces(Color::White, Piece::Pawn).0;
        let black = pos.pieces(Color::Black, Piece::Pawn).0;
        let key = (white ^ black.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = &mut self.slots[(key >> 50) as usize];
        if slot.white != white || slot.black != black {
            let mut sum = Sum::new(self.weights);
            let passed = structure(pos, &mut sum);
            *slot = Slot { white, black, score: sum.total, passed };
        }
        (slot.score, slot.passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::judgement::score::Trace;

    fn trace(fen: &str) -> Trace {
        let pos = Position::from_fen(fen).unwrap();
        let mut t = Trace::default();
        let passed = structure(&pos, &mut t);
        passers(&pos, passed, &mut t);
        t
    }

    #[test]
    fn a_passed_pawn_is_known_by_its_rank() {
        // White's b-pawn on the sixth has no black pawn ahead on files a-c; Black's h-pawn is
        // stopped by nothing either.
        let t = trace("4k3/8/1P6/8/8/8/6p1/4K3 w - - 0 1");
        assert_eq!(t.counts[PASSED + 5], 1);
        assert_eq!(t.counts[PASSED + 6], -1, "Black's g2 pawn is on its seventh rank");
        // A pawn with an enemy pawn ahead on a neighbouring file is not passed.
        let t = trace("4k3/2p5/8/1P6/8/8/8/4K3 w - - 0 1");
        assert_eq!((PASSED..PASSED + 8).map(|i| t.counts[i]).sum::<i32>(), 0);
    }

    #[test]
    fn doubled_isolated_and_backward_pawns() {
        // White: doubled c-pawns, isolated like the e-pawn; Black's d6 and e5 guard each other.
        let t = trace("4k3/8/3p4/4p3/2P1P3/2P5/8/4K3 w - - 0 1");
        assert_eq!(t.counts[PAWN_DOUBLED], 1);
        assert_eq!(t.counts[PAWN_ISOLATED], 3);
        // Black's d6 has no pawn beside or behind it and White's e4 attacks d5, its next square.
        let t = trace("4k3/8/3p4/2P1p3/4P3/8/8/4K3 b - - 0 1");
        assert_eq!(t.counts[PAWN_BACKWARD], -1, "d6 cannot be supported and d5 is attacked");
    }

    #[test]
    fn the_rule_of_the_square() {
        // Black's king on h8 cannot catch the a-pawn on a5 (three steps, king five away).
        let t = trace("7k/8/8/P7/8/8/8/4K3 b - - 0 1");
        assert_eq!(t.counts[PASSED_UNSTOPPABLE], 1);
        // On d8 it can.
        let t = trace("3k4/8/8/P7/8/8/8/4K3 b - - 0 1");
        assert_eq!(t.counts[PASSED_UNSTOPPABLE], 0);
        // With a black knight on the board the rule does not apply.
        let t = trace("7k/8/8/P7/8/8/8/4K1n1 b - - 0 1");
        assert_eq!(t.counts[PASSED_UNSTOPPABLE], 0);
    }

    #[test]
    fn the_cache_gives_what_the_agents_say() {
        let weights = &crate::agents::judgement::weights::WEIGHTS;
        let mut cache = PawnCache::new(weights);
        for fen in ["4k3/8/3p4/2P1p3/4P3/8/8/4K3 b - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"] {
            let pos = Position::from_fen(fen).unwrap();
            let mut sum = Sum::new(weights);
            let passed = structure(&pos, &mut sum);
            assert_eq!(cache.structure(&pos), (sum.total, passed));
            assert_eq!(cache.structure(&pos), (sum.total, passed), "again, from the cache");
        }
    }

    #[test]
    fn space_behind_the_pawns() {
        // White's pawns on d4 and e4: the c-f squares of ranks 2-4 but d4, e4 (12 - 2 = 10),
        // of which d2, d3, e2, e3 lie behind a pawn and count twice.
        let pos = Position::from_fen("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1").unwrap();
        let (ours, theirs) = (pos.pieces(Color::White, Piece::Pawn), pos.pieces(Color::Black, Piece::Pawn));
        assert_eq!(space(Color::White, ours, theirs.pawn_attacks(false)), 14);
        // A black pawn on e5 attacks d4, where our pawn stands, and f4, which is lost.
        let pos = Position::from_fen("4k3/8/8/4p3/3PP3/8/8/4K3 w - - 0 1").unwrap();
        let (ours, theirs) = (pos.pieces(Color::White, Piece::Pawn), pos.pieces(Color::Black, Piece::Pawn));
        assert_eq!(space(Color::White, ours, theirs.pawn_attacks(false)), 13);
    }

    #[test]
    fn a_rook_behind_a_passed_pawn() {
        let counts = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let mut t = Trace::default();
            let passed = structure(&pos, &mut t);
            passers(&pos, passed, &mut t);
            (t.counts[PASSED_ROOK_BEHIND], t.counts[PASSED_ROOK_BEHIND + 1])
        };
        // White's rook on a1 behind its a5 passer; Black's rook on a8 is in front, not behind.
        assert_eq!(counts("r5k1/8/8/P7/8/8/8/R5K1 w - - 0 1"), (1, 0));
        // Black's rook on a2 behind White's a5 passer.
        assert_eq!(counts("6k1/8/8/P7/8/8/r7/6K1 w - - 0 1"), (0, 1));
        // A knight between the rook and the pawn: the rook does not see it.
        assert_eq!(counts("6k1/8/8/P7/8/N7/8/R5K1 w - - 0 1"), (0, 0));
    }
}

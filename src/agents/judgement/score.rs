//! Scores in two parts, the middlegame's and the endgame's, blended by how much material is
//! left; and the sinks a judgement is written into: a sum of weights (the tree's leaves) or a
//! count of each term (the tuner's and `explain`'s trace).

use super::terms;
use crate::board::{Color, Piece, Position};
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A weight or score: (middlegame, endgame) in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// The phase when every piece is on: knights and bishops 1, rooks 2, queens 4.
pub const FULL_PHASE: i32 = 24;

/// How much of the middlegame is left, 0 (pawns and kings) to `FULL_PHASE` (every piece on);
/// more pieces than at the start (promotions) count as the start.
pub fn phase(pos: &Position) -> i32 {
    let n = |p: Piece| pos.by_piece(p).count() as i32;
    (n(Piece::Knight) + n(Piece::Bishop) + 2 * n(Piece::Rook) + 4 * n(Piece::Queen)).min(FULL_PHASE)
}

/// The endgame part is scaled by `scale / FULL_SCALE` (drawish endings, `scaling`).
pub const FULL_SCALE: i32 = 128;

/// One number from the two parts: the middlegame's share is the phase.
#[inline]
pub fn blend(s: S, phase: i32, scale: i32) -> i32 {
    (s.0 * phase + s.1 * (FULL_PHASE - phase) * scale / FULL_SCALE) / FULL_PHASE
}

/// Where the judgement's terms go: each call says that White (+) or Black (-) got `count` of
/// weight `index`.
pub trait Sink {
    fn add(&mut self, index: usize, count: i32);

    /// `count` of the term for `side`: positive for White, negative for Black.
    #[inline]
    fn side(&mut self, side: Color, index: usize, count: i32) {
        self.add(index, if side == Color::White { count } else { -count });
    }
}

/// The weighted sum, from White's side.
pub struct Sum {
    weights: &'static [S; terms::COUNT],
    pub total: S,
}

impl Sum {
    pub fn new(weights: &'static [S; terms::COUNT]) -> Sum {
        Sum { weights, total: S::default() }
    }
}

impl Sink for Sum {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.total += self.weights[index] * count;
    }
}

/// How often each term occurred, White's less Black's.
#[derive(Clone, Debug)]
pub struct Trace {
    pub counts: [i32; terms::COUNT],
}

impl Default for Trace {
    fn default() -> Trace {
        Trace { counts: [0; terms::COUNT] }
    }
}

impl Sink for Trace {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.counts[index] += count;
    }
}

impl Trace {
    /// The weighted sum of the counts under `weights`, from White's side.
    pub fn score(&self, weights: &[S]) -> S {
        self.counts.iter().zip(weights).fold(S::default(), |acc, (&c, &w)| acc + w * c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::judgement::weights::WEIGHTS;

    #[test]
    fn the_blend_moves_from_middlegame_to_endgame_with_the_phase() {
        let s = S(100, 200);
        assert_eq!(blend(s, FULL_PHASE, FULL_SCALE), 100);
        assert_eq!(blend(s, 0, FULL_SCALE), 200);
        assert_eq!(blend(s, 12, FULL_SCALE), 150);
        assert_eq!(blend(s, 0, FULL_SCALE / 2), 100);
        assert_eq!(phase(&Position::startpos()), FULL_PHASE);
    }

    #[test]
    fn a_trace_weighs_to_the_sum() {
        let mut sum = Sum::new(&WEIGHTS);
        let mut trace = Trace::default();
        for (i, c) in [(0, 3), (7, -2), (terms::TEMPO, 1)] {
            sum.add(i, c);
            trace.add(i, c);
        }
        assert_eq!(trace.score(&WEIGHTS), sum.total);
    }
}

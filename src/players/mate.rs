//! Mate scores, from a search's scale to a decision's: a search scores a mate `n` plies away
//! as its mate score less `n` (negated for the side mated), and a decision reports it as moves
//! to mate. Level 10's tree and the conventional searcher each have their own scale.

/// The largest score, in centipawns, a decision reports: the range GUIs read as centipawns.
pub const MAX_REPORTED: i32 = 100_000;

/// How a search scores mates: `mate` is a mate on the board, `mate - n` a mate `n` plies from
/// the root, and every score at least `least` in size is a mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateScores {
    pub mate: i32,
    pub least: i32,
}

impl MateScores {
    /// Moves to mate when `score` is a mate: `n` when the side to move mates in `n`, `-n` when
    /// it is mated in `n`.
    pub fn moves(self, score: i32) -> Option<i32> {
        match score {
            s if s >= self.least => Some((self.mate - s + 1) / 2),
            s if s <= -self.least => Some(-((self.mate + s) / 2)),
            _ => None,
        }
    }

    /// `score` as a decision reports it: moves to mate when it is one, and the score clamped
    /// to `MAX_REPORTED`.
    pub fn reported(self, score: i32) -> (Option<i32>, i32) {
        (self.moves(score), score.clamp(-MAX_REPORTED, MAX_REPORTED))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCALE: MateScores = MateScores { mate: 1000, least: 900 };

    /// A mate given on ply 1, 3 or 5 is a mate in 1, 2 or 3; taken on ply 2 or 4, mated in 1 or 2.
    #[test]
    fn plies_to_mate_are_moves_to_mate() {
        let moves = |plies: i32| SCALE.moves(1000 - plies);
        assert_eq!([1, 3, 5].map(moves), [Some(1), Some(2), Some(3)]);
        let mated = |plies: i32| SCALE.moves(-(1000 - plies));
        assert_eq!([2, 4].map(mated), [Some(-1), Some(-2)]);
        assert_eq!(SCALE.moves(-1000), Some(0), "mated on the board");
        assert_eq!((SCALE.moves(900), SCALE.moves(-900)), (Some(50), Some(-50)));
        assert_eq!((SCALE.moves(899), SCALE.moves(-899), SCALE.moves(0)), (None, None, None));
    }

    #[test]
    fn a_reported_score_is_clamped() {
        let scale = MateScores { mate: 1_000_000, least: 999_001 };
        assert_eq!(scale.reported(999_999), (Some(1), MAX_REPORTED));
        assert_eq!(scale.reported(-999_998), (Some(-1), -MAX_REPORTED));
        assert_eq!(scale.reported(-250), (None, -250));
    }
}

//! Evaluations and winning chances: what a judge's score means to a player, and the marks a
//! move earns by the chances it loses.
//!
//! Marks go by the loss of winning chances, not of centipawns, so that dropping a pawn in a
//! position already lost by a rook is no blunder while the same pawn in an even position may
//! be. Winning chances are a logistic map of the centipawn score onto [-1, 1], with Lichess's
//! slope (0.00368208 a centipawn, the score capped at ±1000 and a mate counted as the cap);
//! the marks have Lichess's thresholds: a loss of 0.1 is an inaccuracy, 0.2 a mistake, 0.3 a
//! blunder.

use crate::players::level10::TABLEBASE_WIN;
use std::fmt;

/// The slope of the logistic map from centipawns to winning chances.
pub const SLOPE: f64 = 0.003_682_08;

/// Scores beyond this many centipawns count as this many (a mate too).
pub const CAP: i32 = 1000;

/// What a judge's centipawn is worth on the map's scale: the slope was fitted to Stockfish's
/// centipawns, and a judge whose scores run smaller marks the same error as a smaller loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale(pub f64);

impl Scale {
    /// A judge on Stockfish's scale (an engine).
    pub const SAME: Scale = Scale(1.0);
    /// The agents' tree: its scores of a position are smaller than Stockfish's of the same one
    /// (docs/annotate.md has the choice of 1.2 and its check on games it was not chosen on).
    pub const AGENTS: Scale = Scale(1.2);

    /// Winning chances in [-1, 1] of `score` from this judge: 1 a sure win, 0 even, -1 a sure
    /// loss. A mate given or suffered is the bound itself; a mate to come counts as the cap.
    pub fn chances(self, score: Score) -> f64 {
        let cp = match score {
            Score::Won => return 1.0,
            Score::Lost => return -1.0,
            Score::Cp(c) => (f64::from(c) * self.0).clamp(-f64::from(CAP), f64::from(CAP)),
            s => f64::from(s.capped_cp()),
        };
        2.0 / (1.0 + (-SLOPE * cp).exp()) - 1.0
    }

    /// Winning chances as a percentage, 0 (lost) to 100 (won), 50 even.
    pub fn percent(self, score: Score) -> f64 {
        50.0 + 50.0 * self.chances(score)
    }
}

/// A judge's evaluation from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// The side mates in `n` (`n > 0`) or is mated in `-n` (`n < 0`).
    Mate(i32),
    /// The side has given mate (the game is over).
    Won,
    /// The side is mated (the game is over).
    Lost,
}

impl Score {
    /// The same evaluation from the other side.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(n) => Score::Mate(-n),
            Score::Won => Score::Lost,
            Score::Lost => Score::Won,
        }
    }

    /// Centipawns within ±`CAP`, a mate counted as the cap.
    pub fn capped_cp(self) -> i32 {
        match self {
            Score::Cp(c) => c.clamp(-CAP, CAP),
            Score::Mate(n) if n > 0 => CAP,
            Score::Mate(_) => -CAP,
            Score::Won => CAP,
            Score::Lost => -CAP,
        }
    }

    /// The score as a PGN `[%eval]` value, given from White's side: pawns with two decimals,
    /// or `#n` / `#-n` for a mate; none once the game is over.
    pub fn eval_text(self) -> Option<String> {
        match self {
            Score::Cp(c) => Some(format!("{:.2}", f64::from(c) / 100.0)),
            Score::Mate(n) => Some(format!("#{n}")),
            Score::Won | Score::Lost => None,
        }
    }
}

impl fmt::Display for Score {
    /// "+1.25", "-0.40", "a tablebase win", "mate in 3", "mated in 2", "mate", "mated".
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Score::Cp(c) if c >= TABLEBASE_WIN => f.write_str("a tablebase win"),
            Score::Cp(c) if c <= -TABLEBASE_WIN => f.write_str("a tablebase loss"),
            Score::Cp(c) => write!(f, "{:+.2}", f64::from(c) / 100.0),
            Score::Mate(n) if n > 0 => write!(f, "mate in {n}"),
            Score::Mate(n) => write!(f, "mated in {}", -n),
            Score::Won => f.write_str("mate"),
            Score::Lost => f.write_str("mated"),
        }
    }
}

/// The usual marks of a move that lost winning chances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The loss of winning chances (on the [-1, 1] scale) from which a move earns the mark.
    pub fn threshold(self) -> f64 {
        match self {
            Mark::Inaccuracy => 0.1,
            Mark::Mistake => 0.2,
            Mark::Blunder => 0.3,
        }
    }

    /// The mark a loss of winning chances earns, if any.
    pub fn for_loss(loss: f64) -> Option<Mark> {
        Mark::ALL.into_iter().rev().find(|m| loss >= m.threshold())
    }

    /// The suffix after the move in PGN (and its NAG: `?!` is $6, `?` $2, `??` $4).
    pub fn suffix(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "Inaccuracy",
            Mark::Mistake => "Mistake",
            Mark::Blunder => "Blunder",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAME: Scale = Scale::SAME;

    #[test]
    fn chances_are_a_capped_logistic_map() {
        assert_eq!(SAME.chances(Score::Cp(0)), 0.0);
        let pawn = SAME.chances(Score::Cp(100));
        assert!((pawn - 0.182).abs() < 0.001, "{pawn}");
        assert!((SAME.chances(Score::Cp(-100)) + pawn).abs() < 1e-12);
        assert_eq!(SAME.chances(Score::Cp(5000)), SAME.chances(Score::Cp(CAP)));
        assert_eq!(SAME.chances(Score::Mate(3)), SAME.chances(Score::Cp(CAP)));
        assert!((SAME.chances(Score::Mate(-1)) + SAME.chances(Score::Cp(CAP))).abs() < 1e-12);
        assert_eq!((SAME.chances(Score::Won), SAME.chances(Score::Lost)), (1.0, -1.0));
    }

    #[test]
    fn the_same_pawn_is_a_blunder_when_even_and_nothing_when_lost() {
        let loss = |before: i32, after: i32| SAME.chances(Score::Cp(before)) - SAME.chances(Score::Cp(after));
        // Three pawns from an even position.
        assert_eq!(Mark::for_loss(loss(0, -300)), Some(Mark::Blunder));
        // A pawn when already a rook down.
        assert_eq!(Mark::for_loss(loss(-500, -600)), None);
        assert_eq!(Mark::for_loss(loss(0, -60)), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(loss(0, -120)), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(0.0999), None);
    }

    #[test]
    fn a_judge_with_smaller_scores_loses_more_chances_by_the_same_error() {
        let loss = |scale: Scale| scale.chances(Score::Cp(0)) - scale.chances(Score::Cp(-150));
        assert!(loss(Scale::AGENTS) > loss(SAME));
        assert_eq!(Scale(2.0).chances(Score::Cp(-150)), SAME.chances(Score::Cp(-300)));
        // The cap and the mates are the map's own, whatever the judge.
        assert_eq!(Scale::AGENTS.chances(Score::Cp(900)), SAME.chances(Score::Cp(CAP)));
        assert_eq!(Scale::AGENTS.chances(Score::Mate(2)), SAME.chances(Score::Mate(2)));
        assert_eq!(Scale::AGENTS.percent(Score::Won), 100.0);
    }

    #[test]
    fn scores_flip_and_print() {
        assert_eq!(Score::Mate(2).flip(), Score::Mate(-2));
        assert_eq!(Score::Won.flip(), Score::Lost);
        assert_eq!(Score::Cp(-45).eval_text().as_deref(), Some("-0.45"));
        assert_eq!(Score::Mate(-3).eval_text().as_deref(), Some("#-3"));
        assert_eq!(Score::Lost.eval_text(), None);
        assert_eq!(Score::Cp(125).to_string(), "+1.25");
        assert_eq!(Score::Mate(-2).to_string(), "mated in 2");
    }
}

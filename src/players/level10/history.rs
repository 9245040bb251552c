//! What the tree learns from the nodes its moves ended, to order the moves of the nodes after.
//!
//! Two tables, each score moved toward ±`LIMIT` (less as it nears it) by 32 times the square
//! of the depth left, so that a move that keeps ending nodes nears the limit and the pull
//! toward it acts: up for the move that ended a node, down for the moves of its kind tried before
//! it there. Quiet moves are known by their two squares, captures by the piece that takes, the
//! square and the piece taken, both by side. Between searches what was learned counts for an
//! eighth; a new game forgets it.

use crate::board::{Move, Position};

/// A score never goes beyond this either way.
const LIMIT: i32 = 16_384;

pub struct History {
    quiet: Box<[[[i32; 64]; 64]; 2]>,
    captures: Box<[[[[i32; 6]; 64]; 6]; 2]>,
}

/// `score` moved by `bonus` (a malus when negative), less as it nears the limit.
fn nudge(score: &mut i32, bonus: i32) {
    *score += bonus - *score * bonus.abs() / LIMIT;
}

/// The bonus a move that ended a node searched `depth` plies deep earns.
pub fn bonus(depth: i32) -> i32 {
    (32 * depth * depth).min(1_600)
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History { quiet: Box::new([[[0; 64]; 64]; 2]), captures: Box::new([[[[0; 6]; 64]; 6]; 2]) }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self.quiet = [[[0; 64]; 64]; 2];
        *self.captures = [[[[0; 6]; 64]; 6]; 2];
    }

    /// Between searches: what was learned counts for less.
    pub fn age(&mut self) {
        self.quiet.iter_mut().flatten().flatten().for_each(|s| *s /= 8);
        self.captures.iter_mut().flatten().flatten().flatten().for_each(|s| *s /= 8);
    }

    /// The score of the quiet move `mv` in `pos`.
    pub fn quiet(&self, pos: &Position, mv: Move) -> i32 {
        self.quiet[pos.side_to_move().index()][mv.from().index()][mv.to().index()]
    }

    /// `bonus` (negative: a malus) for the quiet move `mv` in `pos`.
    pub fn reward_quiet(&mut self, pos: &Position, mv: Move, bonus: i32) {
        nudge(&mut self.quiet[pos.side_to_move().index()][mv.from().index()][mv.to().index()], bonus);
    }

    /// Where the capture `mv` is kept: side, piece that takes, square, piece taken.
    fn capture_index(pos: &Position, mv: Move) -> Option<(usize, usize, usize, usize)> {
        let taken = pos.captured_piece(mv)?;
        Some((pos.side_to_move().index(), pos.moving_piece(mv).index(), mv.to().index(), taken.index()))
    }

    /// The score of the capture `mv` (0 for a move that takes nothing).
    pub fn capture(&self, pos: &Position, mv: Move) -> i32 {
        History::capture_index(pos, mv).map_or(0, |(side, piece, to, taken)| self.captures[side][piece][to][taken])
    }

    /// `bonus` (negative: a malus) for the capture `mv`; nothing for a move that takes nothing.
    pub fn reward_capture(&mut self, pos: &Position, mv: Move, bonus: i32) {
        if let Some((side, piece, to, taken)) = History::capture_index(pos, mv) {
            nudge(&mut self.captures[side][piece][to][taken], bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "4k3/8/8/2p1p3/8/3N4/8/4K3 w - - 0 1";

    #[test]
    fn scores_stay_within_the_limit_and_age() {
        let pos = Position::from_fen(FEN).unwrap();
        let (c5, quiet) = (pos.parse_uci("d3c5").unwrap(), pos.parse_uci("e1d2").unwrap());
        let mut history = History::new();
        for _ in 0..1000 {
            history.reward_capture(&pos, c5, bonus(30));
            history.reward_quiet(&pos, quiet, -bonus(30));
        }
        assert!((LIMIT - 400..=LIMIT).contains(&history.capture(&pos, c5)));
        assert!((-LIMIT..=-LIMIT + 400).contains(&history.quiet(&pos, quiet)));
        // A quiet move has no capture score, and a capture's bonus is no quiet move's.
        let quiet_score = history.quiet(&pos, quiet);
        history.reward_capture(&pos, quiet, 400);
        assert_eq!(history.capture(&pos, quiet), 0);
        assert_eq!(history.quiet(&pos, quiet), quiet_score);
        let before_aging = history.capture(&pos, c5);
        history.age();
        assert_eq!(history.capture(&pos, c5), before_aging / 8);
        history.clear();
        assert_eq!(history.capture(&pos, c5), 0);
        assert_eq!(history.quiet(&pos, quiet), 0);
    }
}

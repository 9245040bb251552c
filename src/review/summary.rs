//! A player's game in a few numbers: the marks, the average loss a move, and the phase where
//! the game was lost (the phase in which the player gave away the most winning chances).

use super::chances::Mark;
use super::{Annotated, MoveNote};
use crate::board::values::value;
use crate::board::{Color, Piece, Position};
use std::fmt;

/// Plies of the opening: the first ten moves of each side, unless the pieces are off by then.
pub const OPENING_PLIES: usize = 20;

/// The endgame: at most this much material other than pawns and kings, both sides together
/// (thesis values; a rook and a minor piece each is 1,700).
pub const ENDGAME_MATERIAL: i32 = 2600;

/// A player's loss below this many winning chances over a whole phase is not called losing
/// the game there.
const LOST_AT_LEAST: f64 = 0.1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    Opening,
    Middlegame,
    Endgame,
}

impl Phase {
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Middlegame, Phase::Endgame];

    /// The phase of `pos`, the game's `ply`-th position from its start (the start of a game
    /// from a FEN counts from that FEN's move number).
    pub fn of(pos: &Position, ply: usize) -> Phase {
        let pieces: i32 = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
            .into_iter()
            .map(|p| value(p) * pos.by_piece(p).count() as i32)
            .sum();
        if pieces <= ENDGAME_MATERIAL {
            Phase::Endgame
        } else if ply < OPENING_PLIES {
            Phase::Opening
        } else {
            Phase::Middlegame
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middlegame => "middlegame",
            Phase::Endgame => "endgame",
        }
    }
}

/// One player's summary of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSummary {
    pub color: Color,
    pub name: String,
    pub moves: usize,
    /// Inaccuracies, mistakes, blunders.
    pub marks: [usize; 3],
    /// Average centipawn loss a move (scores capped at ±1000, a mate as the cap).
    pub average_cp: f64,
    /// Average loss of winning chances a move, in percentage points of the [-1, 1] scale's half
    /// (so 100 is a won game thrown away).
    pub average_chances: f64,
    /// Winning chances lost in each phase (opening, middlegame, endgame).
    pub lost_by_phase: [f64; 3],
    /// The move that lost the most winning chances, if any lost some.
    pub costliest: Option<usize>,
}

impl PlayerSummary {
    /// The phase where the player lost the most winning chances, if that was enough to matter.
    pub fn phase_lost(&self) -> Option<Phase> {
        let (i, lost) = self.lost_by_phase.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1))?;
        (*lost >= LOST_AT_LEAST).then_some(Phase::ALL[i])
    }

    pub fn count(&self, mark: Mark) -> usize {
        self.marks[mark as usize]
    }
}

/// The summary of `color`'s moves in a game.
pub fn summarise(game: &Annotated, color: Color) -> PlayerSummary {
    let mine: Vec<&MoveNote> = game.notes.iter().filter(|n| n.mover() == color).collect();
    let mut marks = [0; 3];
    let mut lost_by_phase = [0.0; 3];
    let (mut cp, mut chances) = (0.0, 0.0);
    for n in &mine {
        if let Some(m) = n.mark {
            marks[m as usize] += 1;
        }
        if n.has_better() {
            cp += f64::from((n.before.capped_cp() - n.after.capped_cp()).max(0));
        }
        chances += n.loss;
        lost_by_phase[Phase::of(&n.pos, n.ply) as usize] += n.loss;
    }
    let costliest = mine.iter().filter(|n| n.loss > 0.0).max_by(|a, b| a.loss.total_cmp(&b.loss)).map(|n| n.ply);
    let moves = mine.len();
    let per = |x: f64| if moves == 0 { 0.0 } else { x / moves as f64 };
    PlayerSummary {
        color,
        name: game.player(color).to_string(),
        moves,
        marks,
        average_cp: per(cp),
        average_chances: per(chances) * 50.0,
        lost_by_phase,
        costliest,
    }
}

/// "1 inaccuracy", "2 mistakes".
fn count_text(n: usize, mark: Mark) -> String {
    let word = match (mark, n == 1) {
        (Mark::Inaccuracy, true) => "inaccuracy",
        (Mark::Inaccuracy, false) => "inaccuracies",
        (Mark::Mistake, true) => "mistake",
        (Mark::Mistake, false) => "mistakes",
        (Mark::Blunder, true) => "blunder",
        (Mark::Blunder, false) => "blunders",
    };
    format!("{n} {word}")
}

impl fmt::Display for PlayerSummary {
    /// "White (Carlsen): 2 inaccuracies, 1 mistake, 0 blunders, average loss a move 34 cp and
    /// 2.1% of winning chances; lost most in the middlegame"
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{} ({}): {}, {}, {}, average loss a move {:.0} cp and {:.1}% of winning chances",
            self.color,
            self.name,
            count_text(self.count(Mark::Inaccuracy), Mark::Inaccuracy),
            count_text(self.count(Mark::Mistake), Mark::Mistake),
            count_text(self.count(Mark::Blunder), Mark::Blunder),
            self.average_cp,
            self.average_chances,
        )?;
        match self.phase_lost() {
            Some(p) => write!(f, "; lost most in the {}", p.name()),
            None => f.write_str("; lost nothing that matters"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_go_by_move_and_material() {
        let start = Position::startpos();
        assert_eq!(Phase::of(&start, 0), Phase::Opening);
        assert_eq!(Phase::of(&start, OPENING_PLIES), Phase::Middlegame);
        // Rook and bishop each: an endgame whatever the move.
        let ending = Position::from_fen("4k3/3r1b2/8/8/8/8/3R1B2/4K3 w - - 0 1").unwrap();
        assert_eq!(Phase::of(&ending, 4), Phase::Endgame);
    }

    #[test]
    fn mark_counts_are_worded() {
        assert_eq!(count_text(1, Mark::Inaccuracy), "1 inaccuracy");
        assert_eq!(count_text(2, Mark::Inaccuracy), "2 inaccuracies");
        assert_eq!(count_text(0, Mark::Mistake), "0 mistakes");
        assert_eq!(count_text(3, Mark::Blunder), "3 blunders");
    }
}

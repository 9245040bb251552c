//! What the tree learns from the nodes its moves ended, to order, reduce and prune the moves of
//! the nodes after.
//!
//! Four tables. Quiet moves are known by their two squares and side (the butterfly history),
//! and by the move they answer one and two plies before: a piece of a colour arriving on a
//! square, then another (the continuation histories). Captures are known by the piece that
//! takes, the square and the piece taken, by side. Each score is moved toward ±`LIMIT` (less as
//! it nears it) by a bonus that grows with the depth left: up for the move that ended a node,
//! down for the moves of its kind tried before it there. Beside them, the quiet move that last
//! refuted each move (the counter move). Between searches what was learned counts for an
//! eighth; a new game forgets it.

use crate::board::{Move, Position};

/// A score never goes beyond this either way.
const LIMIT: i32 = 16_384;

/// A piece of a colour arriving on a square: how a continuation history knows a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

/// Twelve pieces (six a colour) on 64 squares.
const PIECE_TO: usize = 12 * 64;

impl PieceTo {
    /// No move (the root, or a null move).
    pub const NONE: PieceTo = PieceTo(u16::MAX);

    /// The move `mv` of the side to move in `pos`: the piece it moves and where to.
    #[inline]
    pub fn of(pos: &Position, mv: Move) -> PieceTo {
        let piece = pos.side_to_move().index() * 6 + pos.moving_piece(mv).index();
        PieceTo((piece * 64 + mv.to().index()) as u16)
    }

    #[inline]
    fn index(self) -> Option<usize> {
        (self != PieceTo::NONE).then_some(self.0 as usize)
    }
}

/// The two moves before a node's, one ply and two plies back, which its quiet moves answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    pub before: [PieceTo; 2],
}

impl Context {
    /// The root's, with no move before it.
    #[cfg(test)]
    pub const NONE: Context = Context { before: [PieceTo::NONE; 2] };
}

/// What the histories say of a quiet move: its butterfly score and its two continuation scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuietScore {
    pub butterfly: i32,
    pub continuation: [i32; 2],
}

impl QuietScore {
    /// The three together: the move's order and what reductions read.
    #[inline]
    pub fn total(self) -> i32 {
        self.butterfly + self.continuation[0] + self.continuation[1]
    }
}

pub struct History {
    quiet: Box<[[[i32; 64]; 64]; 2]>,
    captures: Box<[[[[i32; 6]; 64]; 6]; 2]>,
    /// `[plies back - 1][the earlier move][this move]`, flattened.
    continuation: Box<[i16]>,
    counters: Box<[Move; PIECE_TO]>,
}

/// `score` moved by `bonus` (a malus when negative), less as it nears the limit.
#[inline]
fn nudge(score: &mut i32, bonus: i32) {
    *score += bonus - *score * bonus.abs() / LIMIT;
}

#[inline]
fn nudge16(score: &mut i16, bonus: i32) {
    let mut s = i32::from(*score);
    nudge(&mut s, bonus);
    *score = s as i16;
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
        History {
            quiet: Box::new([[[0; 64]; 64]; 2]),
            captures: Box::new([[[[0; 6]; 64]; 6]; 2]),
            continuation: vec![0; 2 * PIECE_TO * PIECE_TO].into_boxed_slice(),
            counters: Box::new([Move::NULL; PIECE_TO]),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self.quiet = [[[0; 64]; 64]; 2];
        *self.captures = [[[[0; 6]; 64]; 6]; 2];
        self.continuation.fill(0);
        self.counters.fill(Move::NULL);
    }

    /// Between searches: what was learned counts for less.
    pub fn age(&mut self) {
        self.quiet.iter_mut().flatten().flatten().for_each(|s| *s /= 8);
        self.captures.iter_mut().flatten().flatten().flatten().for_each(|s| *s /= 8);
        self.continuation.iter_mut().for_each(|s| *s /= 8);
    }

    /// The butterfly score of the quiet move `mv` in `pos`.
    pub fn quiet(&self, pos: &Position, mv: Move) -> i32 {
        self.quiet[pos.side_to_move().index()][mv.from().index()][mv.to().index()]
    }

    #[inline]
    fn continuation_slot(back: usize, before: PieceTo, now: PieceTo) -> Option<usize> {
        Some((back * PIECE_TO + before.index()?) * PIECE_TO + now.index()?)
    }

    /// Every history's score of the quiet move `mv` in `pos`, played after the moves of `context`.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, mv: Move, context: &Context) -> QuietScore {
        let now = PieceTo::of(pos, mv);
        let continuation = std::array::from_fn(|back| {
            History::continuation_slot(back, context.before[back], now).map_or(0, |i| i32::from(self.continuation[i]))
        });
        QuietScore { butterfly: self.quiet(pos, mv), continuation }
    }

    /// `bonus` (negative: a malus) for the quiet move `mv` in `pos` after the moves of `context`,
    /// in every history.
    pub fn reward_quiet(&mut self, pos: &Position, mv: Move, context: &Context, bonus: i32) {
        nudge(&mut self.quiet[pos.side_to_move().index()][mv.from().index()][mv.to().index()], bonus);
        let now = PieceTo::of(pos, mv);
        for back in 0..2 {
            if let Some(i) = History::continuation_slot(back, context.before[back], now) {
                nudge16(&mut self.continuation[i], bonus);
            }
        }
    }

    /// The quiet move that last refuted the move one ply before (`Move::NULL`: none known).
    #[inline]
    pub fn counter(&self, context: &Context) -> Move {
        context.before[0].index().map_or(Move::NULL, |i| self.counters[i])
    }

    /// `mv` refuted the move one ply before.
    pub fn set_counter(&mut self, context: &Context, mv: Move) {
        if let Some(i) = context.before[0].index() {
            self.counters[i] = mv;
        }
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

/// The kind of piece a `PieceTo` names.
#[cfg(test)]
fn piece_of(p: PieceTo) -> Option<crate::board::Piece> {
    p.index().map(|i| crate::board::Piece::from_index(i / 64 % 6))
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
            history.reward_quiet(&pos, quiet, &Context::NONE, -bonus(30));
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

    /// A quiet move rewarded after one move is scored after that move, not after another; the
    /// counter move is kept by the move it answers.
    #[test]
    fn continuation_scores_follow_the_move_answered() {
        let before = Position::from_fen("4k3/8/8/2p1p3/8/3N4/8/4K3 b - - 0 1").unwrap();
        let (c4, e4) = (before.parse_uci("c5c4").unwrap(), before.parse_uci("e5e4").unwrap());
        let after_c4 = Context { before: [PieceTo::of(&before, c4), PieceTo::NONE] };
        let after_e4 = Context { before: [PieceTo::of(&before, e4), PieceTo::NONE] };
        assert_eq!(piece_of(after_c4.before[0]), Some(crate::board::Piece::Pawn));
        let pos = before.play(c4);
        let ne1 = pos.parse_uci("d3b2").unwrap();
        let mut history = History::new();
        history.reward_quiet(&pos, ne1, &after_c4, bonus(10));
        let scored = history.quiet_score(&pos, ne1, &after_c4);
        assert!(scored.continuation[0] > 0 && scored.continuation[1] == 0, "{scored:?}");
        assert_eq!(scored.total(), scored.butterfly + scored.continuation[0]);
        assert_eq!(history.quiet_score(&pos, ne1, &after_e4).continuation, [0, 0]);
        assert_eq!(history.counter(&after_c4), Move::NULL);
        history.set_counter(&after_c4, ne1);
        assert_eq!(history.counter(&after_c4), ne1);
        assert_eq!(history.counter(&after_e4), Move::NULL);
        assert_eq!(history.counter(&Context::NONE), Move::NULL);
    }
}

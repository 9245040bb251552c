//! Per-game counters of the things the thesis measured in chapter 3, for a match runner.

use crate::board::{Bitboard, Move, MoveKind, Position, Square};

/// What one MasterAgent did during a game (reset by `Player::new_game`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Decisions made.
    pub decisions: u32,
    /// Decisions where an attack request could be made: the attack-request feature is on and
    /// some agent is threatened (Figure 3.3, the bottom lines).
    pub attack_request_rounds: u32,
    /// Decisions that played an attack-request answer (Figure 3.3, the top lines).
    pub attack_requests_performed: u32,
    /// Attack-request rounds where the worst threatened agent moved itself instead (Figure 3.3).
    pub threatened_moved_itself: u32,
    /// Decisions where defense requests were open (at level 8 only when all of the threatened
    /// agent's own options lose material).
    pub defense_request_rounds: u32,
    /// Decisions that played a defense-request answer (Table 3.8).
    pub defense_requests_used: u32,
    /// Moves played for the capture they planned next (Table 3.9, "planned"). A planned check
    /// counts: the thesis's agents plan to take the king like any other piece.
    pub move_attacks_planned: u32,
    /// Planned captures really made on the next own move by the same piece (Table 3.9,
    /// "performed"). Needs consecutive moves of one game (`Player::decide`).
    pub move_attacks_performed: u32,
    /// Own pieces the opponent captured on its reply.
    pub own_pieces_captured: u32,
    /// Of those, pieces the agents had estimated not threatened (Figure 3.5).
    pub incorrect_threats: u32,
}

/// What a decision leaves for checking against the next two moves of the game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    /// Number of moves in the game before our move.
    pub ply: usize,
    pub mv: Move,
    /// The position after our move, where the opponent's reply is played.
    pub after: Position,
    /// Squares of own pieces estimated not threatened (the mover at its destination).
    pub safe: Bitboard,
    /// For a move-attack: the square the piece now stands on and the square it plans to take on.
    pub plan: Option<(Square, Square)>,
}

impl Pending {
    /// The opponent's reply to this decision, if `moves` continues it directly.
    pub fn reply(&self, moves: &[Move]) -> Option<Move> {
        (moves.len() == self.ply + 2 && moves[self.ply] == self.mv).then(|| moves[self.ply + 1])
    }
}

/// The square of the piece `mv` captures in `pos`, if it captures.
pub(crate) fn captured_square(pos: &Position, mv: Move) -> Option<Square> {
    if !pos.is_capture(mv) {
        return None;
    }
    Some(match mv.kind() {
        MoveKind::EnPassant => Square::new(mv.to().file(), mv.from().rank()),
        _ => mv.to(),
    })
}

impl Counters {
    /// Books the opponent's reply to our last decision (incorrect threats).
    pub(crate) fn book_reply(&mut self, pending: &Pending, reply: Move) {
        if let Some(sq) = captured_square(&pending.after, reply) {
            self.own_pieces_captured += 1;
            if pending.safe.contains(sq) {
                self.incorrect_threats += 1;
            }
        }
    }

    /// Books whether `mv`, our move now, carries out the move-attack planned last time.
    pub(crate) fn book_plan(&mut self, pending: &Pending, pos: &Position, mv: Move) {
        if pending.plan == Some((mv.from(), mv.to())) && pos.is_capture(mv) {
            self.move_attacks_performed += 1;
        }
    }
}

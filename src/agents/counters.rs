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
    /// Decisions taken by the general choice's best attack (`Rule::Attack`).
    pub rule_attack: u32,
    /// ... by the general choice's best move (`Rule::Move`).
    pub rule_move: u32,
    /// ... by the worst threatened agent's own action (`Rule::ThreatenedAgent`). With
    /// `attack_requests_performed` and `defense_requests_used` the five rules add up to
    /// `decisions`.
    pub rule_threatened_agent: u32,
    /// Decisions where defense consideration disregarded every move and the MasterAgent decided
    /// without it.
    pub defense_consideration_fallbacks: u32,
    /// Moves played for a double move-attack (level 9's fork: two targets, or check and a
    /// target).
    pub forks_planned: u32,
    /// Forks whose piece took one of its targets on the next own move.
    pub forks_performed: u32,
    /// Decisions where the capture of the most valuable piece within reach was left alone
    /// because the whole exchange on its square loses (level 9's exchange).
    pub exchanges_declined: u32,
    /// Moves that mated.
    pub mates_delivered: u32,
    /// Moves that promoted a pawn.
    pub promotions: u32,
    /// Level 9's rules that decide a move, beside the thesis's five (all of them add up to
    /// `decisions`): a mate in one, the mating net, look-ahead overruling the thesis's choice,
    /// and (without look-ahead) an answer to a promotion threat.
    pub rule_mate: u32,
    pub rule_mating_net: u32,
    pub rule_look_ahead: u32,
    pub rule_promotion_answer: u32,
}

/// Applies `$op` field by field; one list of fields keeps `add` and `since` in step with the struct.
macro_rules! each_field {
    ($a:expr, $b:expr, $op:tt) => {
        Counters {
            decisions: $a.decisions $op $b.decisions,
            attack_request_rounds: $a.attack_request_rounds $op $b.attack_request_rounds,
            attack_requests_performed: $a.attack_requests_performed $op $b.attack_requests_performed,
            threatened_moved_itself: $a.threatened_moved_itself $op $b.threatened_moved_itself,
            defense_request_rounds: $a.defense_request_rounds $op $b.defense_request_rounds,
            defense_requests_used: $a.defense_requests_used $op $b.defense_requests_used,
            move_attacks_planned: $a.move_attacks_planned $op $b.move_attacks_planned,
            move_attacks_performed: $a.move_attacks_performed $op $b.move_attacks_performed,
            own_pieces_captured: $a.own_pieces_captured $op $b.own_pieces_captured,
            incorrect_threats: $a.incorrect_threats $op $b.incorrect_threats,
            rule_attack: $a.rule_attack $op $b.rule_attack,
            rule_move: $a.rule_move $op $b.rule_move,
            rule_threatened_agent: $a.rule_threatened_agent $op $b.rule_threatened_agent,
            defense_consideration_fallbacks: $a.defense_consideration_fallbacks $op $b.defense_consideration_fallbacks,
            forks_planned: $a.forks_planned $op $b.forks_planned,
            forks_performed: $a.forks_performed $op $b.forks_performed,
            exchanges_declined: $a.exchanges_declined $op $b.exchanges_declined,
            mates_delivered: $a.mates_delivered $op $b.mates_delivered,
            promotions: $a.promotions $op $b.promotions,
            rule_mate: $a.rule_mate $op $b.rule_mate,
            rule_mating_net: $a.rule_mating_net $op $b.rule_mating_net,
            rule_look_ahead: $a.rule_look_ahead $op $b.rule_look_ahead,
            rule_promotion_answer: $a.rule_promotion_answer $op $b.rule_promotion_answer,
        }
    };
}

impl Counters {
    pub fn add(&self, other: &Counters) -> Counters {
        each_field!(self, other, +)
    }

    /// What was counted since `before` (an earlier snapshot of the same counters).
    pub fn since(&self, before: &Counters) -> Counters {
        each_field!(self, before, -)
    }

    pub fn is_zero(&self) -> bool {
        *self == Counters::default()
    }

    pub const COUNT: usize = 23;

    /// Every counter's name, in the order of `values`: the column names of the CSV and JSON
    /// outputs.
    pub const NAMES: [&'static str; Counters::COUNT] = [
        "decisions",
        "attack_request_rounds",
        "attack_requests_performed",
        "threatened_moved_itself",
        "defense_request_rounds",
        "defense_requests_used",
        "move_attacks_planned",
        "move_attacks_performed",
        "own_pieces_captured",
        "incorrect_threats",
        "rule_attack",
        "rule_move",
        "rule_threatened_agent",
        "defense_consideration_fallbacks",
        "forks_planned",
        "forks_performed",
        "exchanges_declined",
        "mates_delivered",
        "promotions",
        "rule_mate",
        "rule_mating_net",
        "rule_look_ahead",
        "rule_promotion_answer",
    ];

    /// The inverse of `values`.
    pub fn from_values(v: [u32; Counters::COUNT]) -> Counters {
        Counters {
            decisions: v[0],
            attack_request_rounds: v[1],
            attack_requests_performed: v[2],
            threatened_moved_itself: v[3],
            defense_request_rounds: v[4],
            defense_requests_used: v[5],
            move_attacks_planned: v[6],
            move_attacks_performed: v[7],
            own_pieces_captured: v[8],
            incorrect_threats: v[9],
            rule_attack: v[10],
            rule_move: v[11],
            rule_threatened_agent: v[12],
            defense_consideration_fallbacks: v[13],
            forks_planned: v[14],
            forks_performed: v[15],
            exchanges_declined: v[16],
            mates_delivered: v[17],
            promotions: v[18],
            rule_mate: v[19],
            rule_mating_net: v[20],
            rule_look_ahead: v[21],
            rule_promotion_answer: v[22],
        }
    }

    pub fn values(&self) -> [u32; Counters::COUNT] {
        [
            self.decisions,
            self.attack_request_rounds,
            self.attack_requests_performed,
            self.threatened_moved_itself,
            self.defense_request_rounds,
            self.defense_requests_used,
            self.move_attacks_planned,
            self.move_attacks_performed,
            self.own_pieces_captured,
            self.incorrect_threats,
            self.rule_attack,
            self.rule_move,
            self.rule_threatened_agent,
            self.defense_consideration_fallbacks,
            self.forks_planned,
            self.forks_performed,
            self.exchanges_declined,
            self.mates_delivered,
            self.promotions,
            self.rule_mate,
            self.rule_mating_net,
            self.rule_look_ahead,
            self.rule_promotion_answer,
        ]
    }
}

/// The counters of one game broken down by the decision they belong to, for the thesis's
/// curves by move number (Figures 3.3 and 3.5). An event is booked at the decision it judges:
/// an incorrect threat at the move whose estimate was wrong, a performed move-attack at the move
/// that planned it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CounterLog {
    /// (ply of the decision: moves played before it, counts booked for it), in game order.
    /// One decision's counts are a few at most, so a byte each keeps a long round robin's logs
    /// small (18 bytes a decision instead of 64).
    entries: Vec<(u32, [u8; Counters::COUNT])>,
}

impl CounterLog {
    pub(crate) fn book(&mut self, ply: usize, delta: Counters) {
        if delta.is_zero() {
            return;
        }
        let ply = ply as u32;
        let index = match self.entries.iter().rposition(|(p, _)| *p == ply) {
            Some(i) => i,
            None => {
                self.entries.push((ply, [0; Counters::COUNT]));
                self.entries.sort_by_key(|(p, _)| *p);
                self.entries.iter().rposition(|(p, _)| *p == ply).unwrap_or(0)
            }
        };
        let counts = &mut self.entries[index].1;
        for (slot, v) in counts.iter_mut().zip(delta.values()) {
            *slot = slot.saturating_add(u8::try_from(v).unwrap_or(u8::MAX));
        }
    }

    /// Per decision: the full move number it was made in (1-based, as a PGN counts moves from
    /// the start position) and its counts.
    pub fn by_full_move(&self) -> impl Iterator<Item = (usize, Counters)> + '_ {
        self.entries.iter().map(|(ply, c)| (*ply as usize / 2 + 1, Counters::from_values(c.map(u32::from))))
    }

    pub fn totals(&self) -> Counters {
        self.by_full_move().fold(Counters::default(), |acc, (_, c)| acc.add(&c))
    }
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
    /// For a fork: the square the forking piece stands on and the squares of its targets.
    pub fork: Option<(Square, Bitboard)>,
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
        if pending.fork.is_some_and(|(at, targets)| at == mv.from() && targets.contains(mv.to())) && pos.is_capture(mv)
        {
            self.forks_performed += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(decisions: u32, incorrect: u32) -> Counters {
        Counters { decisions, incorrect_threats: incorrect, ..Counters::default() }
    }

    #[test]
    fn names_and_values_cover_every_field() {
        // Each field set to a distinct value must show up exactly once in `values`.
        let c = Counters {
            decisions: 1,
            attack_request_rounds: 2,
            attack_requests_performed: 3,
            threatened_moved_itself: 4,
            defense_request_rounds: 5,
            defense_requests_used: 6,
            move_attacks_planned: 7,
            move_attacks_performed: 8,
            own_pieces_captured: 9,
            incorrect_threats: 10,
            rule_attack: 11,
            rule_move: 12,
            rule_threatened_agent: 13,
            defense_consideration_fallbacks: 14,
            forks_planned: 15,
            forks_performed: 16,
            exchanges_declined: 17,
            mates_delivered: 18,
            promotions: 19,
            rule_mate: 20,
            rule_mating_net: 21,
            rule_look_ahead: 22,
            rule_promotion_answer: 23,
        };
        assert_eq!(c.values().to_vec(), (1..=23).collect::<Vec<u32>>());
        assert_eq!(Counters::from_values(c.values()), c);
        assert_eq!(c.add(&c).since(&c), c);
        assert_eq!(Counters::NAMES.len(), c.values().len());
    }

    #[test]
    fn add_and_since_are_inverse() {
        let a = Counters { attack_request_rounds: 3, move_attacks_planned: 2, ..one(5, 1) };
        let b = Counters { own_pieces_captured: 4, ..one(1, 0) };
        assert_eq!(a.add(&b).since(&b), a);
        assert_eq!(a.add(&b).decisions, 6);
        assert!(a.since(&a).is_zero());
    }

    #[test]
    fn log_books_by_ply_and_sums_to_totals() {
        let mut log = CounterLog::default();
        log.book(0, one(1, 0));
        log.book(2, one(1, 0));
        // A late booking (the reply showed the estimate at ply 0 was wrong) lands on ply 0.
        log.book(0, one(0, 1));
        log.book(4, Counters::default());
        let rows: Vec<(usize, Counters)> = log.by_full_move().collect();
        assert_eq!(rows, vec![(1, one(1, 1)), (2, one(1, 0))]);
        assert_eq!(log.totals(), one(2, 1));
        // Black's decisions: ply 1 is in full move 1, ply 3 in move 2.
        let mut black = CounterLog::default();
        black.book(3, one(1, 0));
        black.book(1, one(1, 0));
        assert_eq!(black.by_full_move().map(|(m, _)| m).collect::<Vec<_>>(), vec![1, 2]);
    }
}

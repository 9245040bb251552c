//! The piece agent (thesis 2.1.2, 2.2.2): one per own piece. It knows its threat where it
//! stands and estimates each of its legal moves: an attack (capture) by what it takes, a move by
//! the capture it plans to make next from the new square (a move-attack). It also answers the
//! worst threatened agent's requests and checks a move against the other agents (defense
//! consideration). All of it is estimation on [`Scene`]s, with the estimator context and its
//! threat estimate (`Eval`) from `eval.rs`; no move is played.

use super::eval::Eval;
use super::features::Features;
use super::fork::{Fork, Tally, threat_value, unless_taken};
use super::placement::Placement;
use super::promotion::push_value;
use super::scene::Scene;
use crate::board::values::{KING_VALUE, value};
use crate::board::{Bitboard, Move, MoveKind, Piece, Square, attacks};

/// One own piece and its threat status where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agent {
    pub square: Square,
    pub piece: Piece,
    /// What the opponent is estimated to win by capturing this piece next move (0: not threatened).
    pub threat: i32,
}

/// Whether a move captures (an "attack" in the thesis's vocabulary) or not (a "move").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Attack,
    Move,
}

/// An agent's estimate of one of its legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    pub mv: Move,
    /// Index of the agent making the move in the MasterAgent's agent list (at most 32 agents;
    /// a byte keeps the estimate small, and the poll copies many).
    pub agent: u8,
    pub action: Action,
    /// Estimated material gain of the move (thesis 2.2.1 "profit"; negative is a loss).
    pub profit: i32,
    /// For a move-attack: the square it plans to capture on next and the piece there.
    pub plan: Option<(Square, Piece)>,
    /// Level 9: what the move threatens next, as `fork::threat_value` counts it (a fork's
    /// guaranteed gain or a share of a lone threat), plus a passed pawn's progress; 0 without
    /// those features. Already part of `profit`; look-ahead weighs it on its own.
    pub threat: i32,
    /// Level 9: the targets of the fork the move makes; empty when it makes none (a plain
    /// bitboard rather than an `Option`, which would double its size).
    pub fork_targets: Bitboard,
    /// The threat on the moved piece where it lands, when the estimate worked it out
    /// (`NO_LANDING` otherwise): the look-ahead asks it again of its candidates. Two bytes
    /// (see `landing_of`), which keep the estimate within the 24 bytes it had.
    pub landing: i16,
}

// The poll copies an estimate for every legal move: keep it as small as before `landing`.
const _: () = assert!(std::mem::size_of::<Estimate>() <= 24);

/// `Estimate::landing` when the estimate did not work the threat out.
pub(crate) const NO_LANDING: i16 = i16::MIN;

/// A landing threat as `Estimate::landing` keeps it: a piece other than the king is never
/// threatened more than its own value, which fits; anything else is not kept.
#[inline]
fn landing_of(threat: i32) -> i16 {
    i16::try_from(threat).ok().filter(|&t| t != NO_LANDING).unwrap_or(NO_LANDING)
}

impl Estimate {
    /// The threat on the moved piece where it lands (see `landing`), if worked out.
    #[inline]
    pub fn landing(&self) -> Option<i32> {
        (self.landing != NO_LANDING).then_some(i32::from(self.landing))
    }

    /// The targets of the fork the move makes, if any.
    #[inline]
    pub fn fork(&self) -> Option<Bitboard> {
        (!self.fork_targets.is_empty()).then_some(self.fork_targets)
    }

    /// Index of the moving agent in the MasterAgent's agent list.
    #[inline]
    pub fn agent_index(&self) -> usize {
        usize::from(self.agent)
    }
}

/// What a non-capturing move is worth (`Eval::move_profit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveValue {
    pub profit: i32,
    pub plan: Option<(Square, Piece)>,
    /// The part of `profit` that is only threatened (level 9).
    pub threat: i32,
    pub fork: Option<Bitboard>,
    /// The threat where the piece lands, when worked out (`Estimate::landing`).
    pub landing: i16,
}

impl<'a> Eval<'a> {
    /// The agent on `sq` as it stands now.
    pub fn agent(&self, now: &Scene, sq: Square) -> Agent {
        let piece = self.pos.piece_on(sq);
        Agent { square: sq, piece, threat: self.threat_at(now, sq, piece) }
    }

    /// The agent's estimate of its legal move `mv`, and the scene after it.
    ///
    /// - attack: the captured piece's value (plus any promotion gain); with threat and backup,
    ///   minus the threat on the capturing piece where it lands.
    /// - move: the best capture it plans from the new square (foundation: the most valuable
    ///   target; threat and backup: that target's value minus the threat on the square captured
    ///   on); with move-attack consideration, a move onto a threatened square plans nothing and
    ///   is worth minus that threat.
    #[inline(always)]
    pub fn estimate(&self, index: usize, agent: &Agent, mv: Move) -> (Estimate, Scene) {
        let scene = self.scene_after(mv);
        let piece = mv.promotion().unwrap_or(agent.piece);
        let gain = value(piece) - value(agent.piece);
        // Level 9: what the move gains in placement counts beside material.
        let placed = match self.features.has(Features::PLACEMENT) {
            true => self.placement.get_or_init(|| Placement::of(self.pos)).gain_moving(self.pos, mv, agent.piece),
            false => 0,
        };
        let mut est = match self.pos.captured_piece(mv) {
            Some(victim) => {
                let danger = match (self.backup(), mv.kind()) {
                    (false, _) => 0,
                    (true, MoveKind::EnPassant) => self.threat_at(&scene, mv.to(), piece),
                    (true, _) => self.arrival_threat(&scene, mv.from(), mv.to(), piece),
                };
                // Level 9: a capture that is safe where it lands may also fork from there.
                let (threat, fork) = match self.features.has(Features::FORK) && danger == 0 {
                    true => self.threat_from(&scene, mv.to(), piece, agent.piece == Piece::Pawn),
                    false => (0, None),
                };
                let profit = value(victim) + gain - danger + threat;
                let landing = if self.backup() { landing_of(danger) } else { NO_LANDING };
                Estimate {
                    mv,
                    agent: index as u8,
                    action: Action::Attack,
                    profit,
                    plan: None,
                    threat,
                    fork_targets: fork.unwrap_or(Bitboard::EMPTY),
                    landing,
                }
            }
            None => {
                let check_arrival = self.features.has(Features::MOVE_ATTACK);
                let v = self.move_profit(&scene, mv.to(), piece, gain, check_arrival);
                Estimate {
                    mv,
                    agent: index as u8,
                    action: Action::Move,
                    profit: v.profit,
                    plan: v.plan,
                    threat: v.threat,
                    fork_targets: v.fork.unwrap_or(Bitboard::EMPTY),
                    landing: v.landing,
                }
            }
        };
        est.profit += placed;
        (est, scene)
    }

    /// Profit of a non-capturing move to `to` (see [`Eval::estimate`]).
    #[inline(always)]
    pub(crate) fn move_profit(
        &self,
        scene: &Scene,
        to: Square,
        piece: Piece,
        gain: i32,
        check_arrival: bool,
    ) -> MoveValue {
        // Legal king moves never land on an attacked square.
        let mut landing = NO_LANDING;
        if check_arrival && piece != Piece::King {
            let danger = self.threat_at(scene, to, piece);
            if danger > 0 {
                return MoveValue {
                    profit: gain - danger,
                    plan: None,
                    threat: 0,
                    fork: None,
                    landing: landing_of(danger),
                };
            }
            landing = 0;
        }
        if self.features.has(Features::FORK) || self.features.has(Features::PROMOTION) {
            // Level 9 (`fork.rs`, `promotion.rs`): what the move threatens is weighed by what the
            // opponent can still prevent, and a passed pawn's step counts.
            let safe = check_arrival || piece == Piece::King || self.threat_at(scene, to, piece) <= 0;
            let (plan, fork) = self.plan_and_fork(scene, to, piece, safe && self.features.has(Features::FORK));
            // A king's fork is never taken: it stands only where no piece of theirs attacks.
            let fork = if piece == Piece::King {
                fork
            } else {
                fork.and_then(|f| unless_taken(scene, self.pos, to, piece, f))
            };
            let (threat, fork) =
                if safe { self.threat_of(scene, to, plan, fork, piece == Piece::Pawn && gain == 0) } else { (0, None) };
            let plan = plan.map(|(_, target, victim)| (target, victim));
            return MoveValue { profit: gain + threat, plan, threat, fork, landing };
        }
        match self.plan_attack(scene, to, piece) {
            Some((profit, target, victim)) => {
                MoveValue { profit: gain + profit, plan: Some((target, victim)), threat: 0, fork: None, landing }
            }
            None => MoveValue { profit: gain, plan: None, threat: 0, fork: None, landing },
        }
    }

    /// Level 9: what our `piece` standing safely on `to` threatens next: a fork's guaranteed
    /// gain or a share of a lone threat (`fork`), and for a pawn its progress toward promotion
    /// (`promotion`). With either feature off its part is 0 (a lone threat then counts whole,
    /// as the thesis's move-attack does).
    fn threat_from(&self, scene: &Scene, to: Square, piece: Piece, pawn_step: bool) -> (i32, Option<Bitboard>) {
        let (plan, fork) = self.plan_and_fork(scene, to, piece, self.features.has(Features::FORK));
        self.threat_of(scene, to, plan, fork, pawn_step)
    }

    /// `threat_from` given the planned attack and the fork from `to` (`plan_and_fork`).
    #[inline(always)]
    fn threat_of(
        &self,
        scene: &Scene,
        to: Square,
        plan: Option<(i32, Square, Piece)>,
        fork: Option<Fork>,
        pawn_step: bool,
    ) -> (i32, Option<Bitboard>) {
        let single = plan.map_or(0, |(profit, _, _)| profit);
        let (mut threat, mut targets) = (single, None);
        if self.features.has(Features::FORK) {
            threat = threat_value(fork, single);
            targets = fork.map(|f| f.targets);
        }
        if pawn_step && self.features.has(Features::PROMOTION) {
            threat += push_value(self.pos, to, scene.occ);
        }
        (threat, targets)
    }

    /// The best capture our `piece` on `from` could make next, as (profit, square, victim).
    /// Capturing the king ends the game, so it is worth the king's value with no threat after
    /// (thesis 2.2.4); with `mating` (level 9) a check is no free attack on the king and plans
    /// nothing by itself (it counts in a fork). Planned attacks estimated to lose material are
    /// no plan at all.
    #[inline(always)]
    fn plan_attack(&self, scene: &Scene, from: Square, piece: Piece) -> Option<(i32, Square, Piece)> {
        self.plan_and_fork(scene, from, piece, false).0
    }

    /// `plan_attack`, and with `with_fork` also `fork::fork`, from one pass over the targets:
    /// both estimate the same captures, so each exchange is estimated once.
    #[inline(always)]
    fn plan_and_fork(
        &self,
        scene: &Scene,
        from: Square,
        piece: Piece,
        with_fork: bool,
    ) -> (Option<(i32, Square, Piece)>, Option<Fork>) {
        let us = self.pos.side_to_move();
        let targets = attacks::piece_attacks(piece, us, from, scene.occ) & scene.theirs;
        // `fork` looks for two targets or more.
        let with_fork = with_fork && targets.more_than_one();
        let mut best: Option<(i32, Square, Piece)> = None;
        let mut tally = Tally::default();
        for target in targets {
            let victim = self.pos.piece_on(target);
            let profit = if victim == Piece::King {
                if with_fork {
                    tally.check(target);
                }
                if self.features.has(Features::MATING) {
                    continue;
                }
                KING_VALUE
            } else {
                let after = scene.then_capture(from, target, piece);
                // Our king may never capture a defended piece, whatever the level assumes.
                if piece == Piece::King && after.their_attackers(self.pos, target).any() {
                    continue;
                }
                // After one quiet move (not castling) the board after this capture is the one
                // after the same capture straight from where the piece came.
                let threat = match (self.backup() || with_fork).then(|| scene.quiet_step_origin(self.pos)) {
                    None => 0,
                    Some(Some(origin)) => self.arrival_threat(&after, origin, target, piece),
                    Some(None) => self.threat_at(&after, target, piece),
                };
                if with_fork {
                    tally.capture(target, value(victim) - threat);
                }
                value(victim) - if self.backup() { threat } else { 0 }
            };
            if profit >= 0 && best.is_none_or(|(p, _, _)| profit > p) {
                best = Some((profit, target, victim));
            }
        }
        (best, if with_fork { tally.fork() } else { None })
    }

    /// Defense consideration (level 7): the worst threat the move leaves on any *other* agent.
    /// Only agents whose threat can grow are asked: those on a line through a square the move
    /// empties (a blocker moved away) and those the mover defended from where it stood.
    /// (The poll asks `exposure_over_suspects`, with each agent's suspects found once.)
    #[cfg(test)]
    pub fn exposure(&self, scene: &Scene, mover: Square) -> i32 {
        self.exposure_over(scene, mover, 0, i32::MAX)
    }

    /// `exposure` where only the part above `floor` matters, and only up to `enough`: exact when
    /// the worst threat lies between the two, at most `floor` when it is no more than that, at
    /// least `enough` when it is that much or more. A threat never exceeds the threatened
    /// piece's value, so agents worth no more than `floor` are not asked, and the most valuable
    /// are asked first.
    #[cfg(test)]
    pub fn exposure_over(&self, scene: &Scene, mover: Square, floor: i32, enough: i32) -> i32 {
        self.exposure_over_suspects(scene, mover, self.exposure_suspects(mover), floor, enough)
    }

    /// The agents whose threat may grow when the piece on `mover` leaves its square, wherever it
    /// goes: those it defends from there and those on the lines through the square. The same
    /// for every move of the piece, so the poll asks it once an agent.
    #[inline(always)]
    pub fn exposure_suspects(&self, mover: Square) -> Bitboard {
        self.pos.attacks_from(mover) | attacks::queen(mover, self.pos.occupied())
    }

    /// `exposure_over` given `exposure_suspects(mover)`.
    #[inline(always)]
    pub fn exposure_over_suspects(
        &self,
        scene: &Scene,
        mover: Square,
        mover_suspects: Bitboard,
        floor: i32,
        enough: i32,
    ) -> i32 {
        let pos = self.pos;
        // The mover's square is always emptied; en passant and castling empty a second one.
        let opened = pos.occupied() & !scene.occ;
        let mut suspects = mover_suspects;
        for sq in opened.without(mover) {
            suspects |= attacks::queen(sq, pos.occupied());
        }
        // With the exchange, a piece their pieces cannot attack has no threat.
        suspects &= pos.by_color(pos.side_to_move()) & scene.occ & !scene.arrivals() & scene.their_reach();
        // Often none: the kinds are then not gone through.
        if suspects.is_empty() {
            return 0;
        }
        let mut worst = 0;
        // Piece::ALL lists the kinds from the cheapest up.
        for &piece in Piece::ALL.iter().rev().take_while(|&&p| value(p) > floor) {
            for sq in suspects & pos.by_piece(piece) {
                worst = worst.max(self.threat_at(scene, sq, piece));
                if worst >= enough {
                    return worst;
                }
            }
        }
        worst
    }

    /// How a defense-request answer is valued: as a move that always checks its own arrival
    /// square (the thesis's supporting agent "is also evaluating the danger it might put itself
    /// into"), whether or not move-attack consideration is on.
    pub(crate) fn defense_profit(&self, scene: &Scene, agent: &Agent, mv: Move) -> MoveValue {
        let piece = mv.promotion().unwrap_or(agent.piece);
        let gain = value(piece) - value(agent.piece);
        self.move_profit(scene, mv.to(), piece, gain, true)
    }

    /// A blocking defender must itself be defended where it stands, so that it is not
    /// "sacrificing itself for nothing" (thesis 2.2.2, level 6).
    pub fn block_is_backed(&self, scene: &Scene, to: Square) -> bool {
        let attackers = scene.their_attackers(self.pos, to);
        attackers.is_empty() || scene.is_defended(self.pos, to, attackers)
    }
}

/// Squares where one of our pieces would cut a sliding `attackers` piece off from `target`.
pub(crate) fn block_squares(attackers: Bitboard, target: Square) -> Bitboard {
    attackers.fold(Bitboard::EMPTY, |b, a| b | attacks::between(a, target))
}

/// Defense balance (level 9, `Features::DEFENSE_BALANCE`): a defense-request answer is taken
/// only when it saves more than it exposes. Thesis 3.2.3: defense requests helped against some
/// opponents and hurt against others, and "a different or more advanced logic for considering
/// defense request is needed"; 4.3: "the logic determining the use of defense request should
/// probably be balanced in some other way". Level 8 restricted them to when the threatened
/// agent's own options all lose; this rule weighs each answer instead: what it takes off the
/// worst threat (`saved`) must exceed both what it leaves another agent exposed to and the
/// threat on the helper where it lands.
#[inline]
pub(crate) fn defense_balance(saved: i32, exposed: i32, landing: i32) -> bool {
    saved > exposed.max(landing)
}

/// Defense consideration's verdict (thesis 2.2.2, level 7): a move or attack that leaves another
/// agent threatened worse than the worst threat before moving (`worst_before`) is disregarded,
/// unless it is an attack whose profit is higher than what it exposes.
#[inline]
pub(crate) fn disregarded(action: Action, profit: i32, exposed: i32, worst_before: i32) -> bool {
    exposed > worst_before && (action == Action::Move || profit <= exposed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn setup(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn estimate(pos: &Position, level: u32, uci: &str) -> Estimate {
        let ev = Eval::new(pos, Features::level(level).unwrap());
        let mv = pos.parse_uci(uci).unwrap();
        let agent = ev.agent(&Scene::now(pos), mv.from());
        ev.estimate(0, &agent, mv).0
    }

    #[test]
    fn attack_profit_counts_the_landing_threat_from_level_two() {
        // Qd1xd5 takes a pawn the e6 pawn defends.
        let pos = setup("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
        assert_eq!(estimate(&pos, 1, "d1d5").profit, 100);
        assert_eq!(estimate(&pos, 2, "d1d5").profit, 100 - 900);
    }

    #[test]
    fn move_attack_arrival_is_checked_from_level_three() {
        // Nb1-c3 lands where the b4 pawn attacks it and plans Nxd5 on an undefended rook.
        let pos = setup("4k3/8/8/3r4/1p6/8/8/1N2K3 w - - 0 1");
        let l2 = estimate(&pos, 2, "b1c3");
        assert_eq!((l2.profit, l2.plan.map(|p| p.1)), (500, Some(Piece::Rook)));
        let l3 = estimate(&pos, 3, "b1c3");
        assert_eq!((l3.profit, l3.plan), (-300, None));
    }

    #[test]
    fn a_check_plans_to_take_the_king() {
        let pos = setup("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let e = estimate(&pos, 3, "a1a8");
        assert_eq!((e.profit, e.plan.map(|p| p.1)), (KING_VALUE, Some(Piece::King)));
    }

    #[test]
    fn exposure_over_a_floor_agrees_with_the_whole_exposure() {
        let wac = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wac.epd"));
        let mut exposed = 0;
        for p in crate::agents::epd_positions(wac) {
            let ev = Eval::new(&p, Features::level(9).unwrap());
            for &mv in p.legal_moves().iter() {
                let scene = Scene::after(&p, mv);
                let whole = ev.exposure(&scene, mv.from());
                exposed += usize::from(whole > 0);
                for floor in [0, 100, 300, 350, 500] {
                    for enough in [floor + 1, 400, i32::MAX] {
                        let e = ev.exposure_over(&scene, mv.from(), floor, enough);
                        let agrees = if whole <= floor {
                            e <= floor
                        } else if whole < enough {
                            e == whole
                        } else {
                            e >= enough
                        };
                        assert!(agrees, "{p:?} {mv} whole {whole} over {floor} up to {enough}: {e}");
                    }
                }
            }
        }
        assert!(exposed > 500, "{exposed}");
    }

    #[test]
    fn with_move_attack_a_move_is_valued_as_a_defense_answer_is() {
        // The MasterAgent takes a defense-request answer's value from the agent's estimate
        // when move-attack consideration already checks the arrival square.
        let wac = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wac.epd"));
        for level in 3..=9 {
            // (A defense answer's value is material; `placement` adds to the agent's own.)
            let features = Features::level(level).unwrap().without(Features::PLACEMENT);
            for p in crate::agents::epd_positions(wac) {
                let ev = Eval::new(&p, features);
                let now = Scene::now(&p);
                for &mv in p.legal_moves().iter().filter(|&&mv| !p.is_capture(mv)) {
                    let agent = ev.agent(&now, mv.from());
                    let (est, scene) = ev.estimate(0, &agent, mv);
                    let v = ev.defense_profit(&scene, &agent, mv);
                    assert_eq!(
                        (est.profit, est.plan, est.threat, est.fork()),
                        (v.profit, v.plan, v.threat, v.fork),
                        "{p:?} {mv}"
                    );
                }
            }
        }
    }

    #[test]
    fn an_estimates_landing_is_the_threat_where_the_piece_lands() {
        // What the look-ahead and the defense balance take from the estimate instead of
        // working it out again.
        let wac = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wac.epd"));
        let features = Features::level(9).unwrap();
        let mut known = 0;
        for p in crate::agents::epd_positions(wac) {
            let ev = Eval::new(&p, features).knowing_their_attacks();
            let plain = Eval::new(&p, features);
            let now = ev.scene_now();
            for &mv in p.legal_moves().iter() {
                let (est, _) = ev.estimate(0, &ev.agent(&now, mv.from()), mv);
                if let Some(landing) = est.landing() {
                    let scene = Scene::after(&p, mv);
                    let piece = scene.kind_at(&p, mv.to()).unwrap();
                    assert_eq!(landing, plain.threat_at(&scene, mv.to(), piece), "{p:?} {mv}");
                    known += 1;
                }
            }
        }
        assert!(known > 5000, "{known}");
    }

    #[test]
    fn disregard_rule() {
        assert!(disregarded(Action::Move, 0, 900, 400));
        assert!(disregarded(Action::Attack, 300, 900, 400));
        assert!(!disregarded(Action::Attack, 901, 900, 400));
        assert!(!disregarded(Action::Move, 0, 400, 400));
    }
}

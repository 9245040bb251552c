//! The MasterAgent (thesis 2.1.2, 2.2.2, 2.2.3): polls the agents, finds the worst threatened
//! one, runs the request rounds and decides with the rules of the active features. Levels 1-8
//! do no search: one pass over the legal moves, each estimated by its agent (the thesis's "1.5
//! plies").
//!
//! Level 9's rules hook in at three points, each in a module of its own: `mating` before the
//! poll (mate in one, mate in two to four by checks, the mating net), `defense_balance` inside it
//! (which defense-request answers count), and `promotion` and `look_ahead` after the thesis's
//! decision (which candidate is finally played). The MasterAgent's side of those hooks is in
//! `level9.rs`; the counters and the words for a decision (reasons, explain mode) in
//! `report.rs`, so that this file reads as the thesis's poll and decision.

mod level9;
mod report;

pub use report::Reason;

use super::agent::{Action, Agent, Estimate, NO_LANDING, block_squares, defense_balance, disregarded};
use super::counters::{CounterLog, Counters, Pending};
use super::eval::{ArrivalMemo, Eval};
use super::features::Features;
use super::look_ahead::{Threatened, Weighed};
use super::scene::Scene;
use crate::board::{self, Bitboard, Game, Move, MoveList, Piece, Position, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The seed a MasterAgent uses unless told otherwise, so that runs are reproducible.
pub const DEFAULT_SEED: u64 = 2005;

/// A side has at most 16 pieces in any legal game; the rest is slack for odd FENs.
/// Pieces beyond it get no agent (their moves are only played as the last-resort fallback).
const MAX_AGENTS: usize = 32;
const NO_AGENT: u8 = u8::MAX;

/// Which rule chose the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The best attack of all agents.
    Attack,
    /// The best move of all agents.
    Move,
    /// The worst threatened agent's own attack or move.
    ThreatenedAgent,
    /// Another agent captures an attacker of the worst threatened agent.
    AttackRequest,
    /// Another agent guards the worst threatened agent or blocks its attacker.
    DefenseRequest,
    /// Level 9 (`mating`): a move that mates now.
    Mate,
    /// Level 9 (`mating`): the mating net against a bare king.
    MatingNet,
    /// Level 9 (`look_ahead`): another candidate, because the opponent's best answer makes the
    /// thesis's choice worse.
    LookAhead,
    /// Level 9 (`promotion`, without look-ahead): an answer to the opponent's promotion threat.
    PromotionAnswer,
}

/// The MasterAgent's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub mv: Move,
    pub rule: Rule,
    /// The move's own estimated profit.
    pub profit: i32,
    /// Profit minus the threat the move leaves on the worst threatened agent.
    pub net: i32,
    /// Defense consideration disregarded every move, so the decision was made without it.
    pub fallback: bool,
    /// "L5 attack request: Nf3xe5 removes attacker of Qd4 (net 300)", in words when read.
    pub reason: Reason,
    /// For a move-attack: the square it plans to capture on next, and the piece there.
    pub plan: Option<(Square, Piece)>,
    /// Moves estimated.
    pub evaluated: u32,
    /// Level 9: the targets of the fork the move makes, if any.
    pub fork: Option<Bitboard>,
}

/// A move in the running, with the threat it leaves on the worst threatened agent.
#[derive(Clone, Copy, Debug)]
struct Cand {
    est: Estimate,
    residual: i32,
}

impl Cand {
    fn net(&self) -> i32 {
        self.est.profit - self.residual
    }
}

/// The best candidate so far under key `K`; equal keys are broken uniformly at random
/// (reservoir sampling, so no list of ties is kept).
#[derive(Clone, Copy, Debug)]
struct Best<K> {
    key: K,
    cand: Cand,
    ties: u32,
}

#[inline]
fn offer<K: PartialOrd + Copy>(slot: &mut Option<Best<K>>, key: K, cand: Cand, rng: &mut StdRng) {
    match slot {
        None => *slot = Some(Best { key, cand, ties: 1 }),
        Some(b) if key > b.key => *b = Best { key, cand, ties: 1 },
        Some(b) if key == b.key => {
            b.ties += 1;
            if rng.random_range(0..b.ties) == 0 {
                b.cand = cand;
            }
        }
        Some(_) => {}
    }
}

/// Move-attack consideration (level 3): at equal profit, a move planning an attack ranks above
/// one that plans nothing.
type MoveKey = (i32, bool);

#[derive(Clone, Copy, Debug)]
struct Report {
    agent: Agent,
    attack: Option<Best<i32>>,
    mv: Option<Best<MoveKey>>,
}

/// Everything one poll of the agents produced.
struct Round {
    /// One report an agent, at most `MAX_AGENTS`.
    agents: Vec<Report>,
    n: usize,
    worst: Option<usize>,
    /// The worst threat (0 when no agent is threatened).
    threat: i32,
    attack_answer: Option<Best<i32>>,
    defense_answer: Option<Best<i32>>,
    evaluated: u32,
    /// The capture of the most valuable piece within reach and its estimated profit (for the
    /// exchanges-declined counter).
    richest_capture: Option<(i32, Estimate)>,
    /// With look-ahead: the estimate of every capture and check, the candidates that force the
    /// opponent's hand.
    forcing: Vec<Estimate>,
    /// With look-ahead: the estimate of every legal move, for when the candidates all fall short.
    estimates: Vec<Estimate>,
}

impl Round {
    fn empty() -> Round {
        Round {
            agents: Vec::new(),
            n: 0,
            worst: None,
            threat: 0,
            attack_answer: None,
            defense_answer: None,
            evaluated: 0,
            richest_capture: None,
            forcing: Vec::new(),
            estimates: Vec::new(),
        }
    }
}

/// The lists a level 9 decision fills, kept from one decision to the next (emptied, their room
/// kept) so that each decision neither allocates them anew nor fills a fixed array for every
/// agent there could be.
#[derive(Default)]
struct Scratch {
    /// `Round::agents`, `Round::forcing` and `Round::estimates`.
    agents: Vec<Report>,
    forcing_estimates: Vec<Estimate>,
    estimates: Vec<Estimate>,
    /// Look-ahead's lists (`level9.rs`): the agents' proposals, the forcing moves, the
    /// candidates with their worths, and those weighed.
    proposals: Vec<Cand>,
    forcing: Vec<Cand>,
    candidates: Vec<Cand>,
    worths: Vec<(Move, Weighed)>,
    weighed: Vec<(Cand, i32)>,
    /// By candidate, what it wins and threatens before any answer, when its ceiling asked.
    befores: Vec<Option<i32>>,
    /// Our threatened pieces, for the ceilings.
    threatened: Vec<Threatened>,
}

/// The decision before it is put into words.
struct Verdict {
    cand: Cand,
    rule: Rule,
    attack_round: bool,
    defense_round: bool,
    /// Level 9: the candidate as good by the look-ahead that placement turned down
    /// (`placement_at_equal_worth`), or that left them more checks (`perpetual_escape`), which
    /// the reason names.
    tied: Option<Move>,
}

pub struct MasterAgent {
    features: Features,
    rng: StdRng,
    counters: Counters,
    /// The same counts by decision; only `decide` (which sees the game) books it.
    log: CounterLog,
    pending: Option<Pending>,
    explain: bool,
    explanation: Vec<String>,
    scratch: Scratch,
    /// The game `choose` asks about, restarted each time (a new one allocated once a decision).
    game: Option<Game>,
}

impl MasterAgent {
    pub fn new(features: Features, seed: u64) -> MasterAgent {
        MasterAgent {
            features,
            rng: StdRng::seed_from_u64(seed),
            counters: Counters::default(),
            log: CounterLog::default(),
            pending: None,
            explain: false,
            explanation: Vec::new(),
            scratch: Scratch::default(),
            game: None,
        }
    }

    /// The preset for level `n` (1..=9): thesis Table 2.1, and level 9.
    pub fn with_level(n: u32, seed: u64) -> Result<MasterAgent, super::FeatureError> {
        Ok(MasterAgent::new(Features::level(n)?, seed))
    }

    pub fn features(&self) -> Features {
        self.features
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The counters by decision, for curves by move number.
    pub fn counter_log(&self) -> &CounterLog {
        &self.log
    }

    pub fn reset_counters(&mut self) {
        self.counters = Counters::default();
        self.log = CounterLog::default();
        self.pending = None;
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }

    /// Keep the explain lines of each decision for [`MasterAgent::explanation`] (the protocol's
    /// thinking output). They are logged at debug level either way.
    pub fn set_explain(&mut self, on: bool) {
        self.explain = on;
        self.explanation.clear();
    }

    /// The explain lines of the last decision (empty unless `set_explain(true)`).
    pub fn explanation(&self) -> &[String] {
        &self.explanation
    }

    /// Decides a move in `pos` alone (no game before it); `None` only when there is no legal
    /// move.
    pub fn choose(&mut self, pos: &Position) -> Option<Choice> {
        let mut game = self.game.take().unwrap_or_else(|| Game::new(*pos));
        game.restart(*pos);
        let choice = self.choose_in(&game);
        self.game = Some(game);
        choice
    }

    /// Decides a move in the game's current position; the moves before it matter only to level
    /// 9, which will not repeat a position while it is ahead.
    pub fn choose_in(&mut self, game: &Game) -> Option<Choice> {
        let pos = game.position();
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let explain = self.explain || log::log_enabled!(log::Level::Debug);
        self.explanation.clear();
        // Level 9's rules ask which moves check more than once: find them once.
        let checks = if self.features.has(Features::MATING) || self.features.has(Features::LOOK_AHEAD) {
            board::checks(pos, &legal)
        } else {
            MoveList::new()
        };
        if self.features.has(Features::MATING)
            && let Some(choice) = self.mating_rules(game, &legal, &checks)
        {
            if explain {
                self.explain_lines(vec![format!("decision: {}", choice.reason)]);
            }
            return Some(choice);
        }

        let mut features = self.features;
        let mut round = self.poll(pos, &legal, features, &checks);
        let mut verdict = decide(&round, features, &mut self.rng);
        let mut fallback = false;
        if verdict.is_none() && features.has(Features::DEFENSE_CONSIDERATION) {
            // Defense consideration disregarded every move; a move must still be made.
            features = features.without(Features::DEFENSE_CONSIDERATION);
            round = self.poll(pos, &legal, features, &checks);
            verdict = decide(&round, features, &mut self.rng);
            fallback = true;
        }
        let mut verdict = verdict.unwrap_or_else(|| last_resort(pos, &legal));
        let mut weighed = Vec::new();
        if self.features.has(Features::LOOK_AHEAD) {
            (verdict, weighed) = self.look_ahead(game, &round, verdict, &legal, &checks, explain);
        } else if self.features.has(Features::PROMOTION) {
            verdict = level9::answer_promotion(pos, self.features, &legal, verdict);
        }

        let reason = self.reason(pos, &round, &verdict, fallback, &weighed);
        if explain {
            self.explain_round(pos, &round, &reason, &weighed);
        }
        self.count(pos, &round, &verdict, fallback);
        let evaluated = round.evaluated;
        // The lists go back for the next decision.
        self.scratch.agents = round.agents;
        self.scratch.forcing_estimates = round.forcing;
        self.scratch.estimates = round.estimates;
        self.scratch.weighed = weighed;
        Some(Choice {
            mv: verdict.cand.est.mv,
            rule: verdict.rule,
            profit: verdict.cand.est.profit,
            net: verdict.cand.net(),
            fallback,
            reason,
            plan: verdict.cand.est.plan.filter(|_| verdict.cand.est.action == Action::Move),
            evaluated,
            fork: verdict.cand.est.fork(),
        })
    }

    /// What the agents put forward in `pos` (legal moves `legal`), for level 10's tree to try
    /// first: every agent's best attack and best move, the answers to the worst threatened
    /// agent's requests, the MasterAgent's own choice by the thesis's rules, and with
    /// look-ahead the forcing moves and threats it would weigh (captures, checks, moves that
    /// threaten). Appended to `out`, each once. The mating rules and the look-ahead's weighing
    /// are left out: the tree looks ahead itself. The same position always gets the same
    /// proposals: ties between equal candidates are broken by a generator seeded from the
    /// position, so that a tree meeting it again (and its table) sees the same moves.
    pub fn proposals(&mut self, pos: &Position, legal: &MoveList, out: &mut MoveList) {
        if legal.is_empty() {
            return;
        }
        self.rng = StdRng::seed_from_u64(pos.hash());
        let features = self.features;
        let checks = if features.has(Features::LOOK_AHEAD) { board::checks(pos, legal) } else { MoveList::new() };
        let round = self.poll(pos, legal, features, &checks);
        let mut add = |mv: Move| {
            if !out.contains(mv) {
                out.push(mv);
            }
        };
        if let Some(verdict) = decide(&round, features, &mut self.rng) {
            add(verdict.cand.est.mv);
        }
        for report in &round.agents[..round.n] {
            for best in [report.attack.map(|b| b.cand), report.mv.map(|b| b.cand)].into_iter().flatten() {
                add(best.est.mv);
            }
        }
        for answer in [round.attack_answer, round.defense_answer].into_iter().flatten() {
            add(answer.cand.est.mv);
        }
        for est in &round.forcing {
            add(est.mv);
        }
        for est in round.estimates.iter().filter(|e| e.threat > 0 && e.profit >= 0) {
            add(est.mv);
        }
        self.scratch.agents = round.agents;
        self.scratch.forcing_estimates = round.forcing;
        self.scratch.estimates = round.estimates;
    }

    /// Figure 2.2a-c: every agent reports its threat; the worst threat is found; then every
    /// agent estimates its moves (checking the others when defense consideration is on) and
    /// answers the worst threatened agent's requests.
    fn poll(&mut self, pos: &Position, legal: &MoveList, features: Features, checks: &MoveList) -> Round {
        let memo = ArrivalMemo::new();
        let ev = Eval::new(pos, features).knowing_their_attacks().with_memo(&memo);
        let now = ev.scene_now();
        let mut r = Round::empty();
        r.agents = std::mem::take(&mut self.scratch.agents);
        r.agents.clear();
        let mut index = [NO_AGENT; 64];
        // Each agent's `exposure_suspects`, asked at its first move.
        let mut suspects = [None; MAX_AGENTS];
        for sq in pos.by_color(pos.side_to_move()) {
            if r.n == MAX_AGENTS {
                break;
            }
            index[sq.index()] = r.n as u8;
            r.agents.push(Report { agent: ev.agent(&now, sq), attack: None, mv: None });
            r.n += 1;
        }
        if features.has(Features::LOOK_AHEAD) {
            r.forcing = std::mem::take(&mut self.scratch.forcing_estimates);
            r.estimates = std::mem::take(&mut self.scratch.estimates);
            r.forcing.clear();
            r.estimates.clear();
            r.forcing.reserve(legal.len());
            r.estimates.reserve(legal.len());
        }
        let (worst, threat) = worst_threat(&r.agents[..r.n], &mut self.rng);
        r.worst = worst;
        r.threat = threat;

        let wounded = worst.map(|i| r.agents[i].agent);
        let w_attackers = wounded.map_or(Bitboard::EMPTY, |a| now.their_attackers(pos, a.square));
        let blocks = wounded.map_or(Bitboard::EMPTY, |a| block_squares(w_attackers, a.square));
        // Level 9: a move off the wounded agent's reach leaves its threat as it was, so it
        // answers no defense request, found without an exchange. (The king's threat is its
        // whole value whoever defends it.)
        let w_reach = wounded
            .filter(|w| features.has(Features::EXCHANGE) && w.piece != Piece::King)
            .map(|w| Threatened::one(pos, w.square, threat));
        let dc = features.has(Features::DEFENSE_CONSIDERATION);
        let balance = features.has(Features::DEFENSE_BALANCE);
        let look_ahead = features.has(Features::LOOK_AHEAD);
        let attack_requests = features.has(Features::ATTACK_REQUEST);
        let defense_requests = features.any_defense_request();
        // Where the checks land: a move landing elsewhere is none of them, found without
        // looking through the list.
        let check_squares = checks.iter().fold(Bitboard::EMPTY, |b, c| b.with(c.to()));

        for &mv in legal.iter() {
            let i = index[mv.from().index()];
            if i == NO_AGENT {
                continue;
            }
            let i = i as usize;
            let agent = r.agents[i].agent;
            let (est, scene) = ev.estimate(i, &agent, mv);
            r.evaluated += 1;
            if look_ahead {
                if est.action == Action::Attack || (check_squares.contains(mv.to()) && checks.contains(mv)) {
                    r.forcing.push(est);
                }
                r.estimates.push(est);
            }
            if let Some(victim) = pos.captured_piece(mv) {
                let worth = crate::board::values::value(victim);
                if r.richest_capture.is_none_or(|(v, e)| worth > v || (worth == v && est.profit > e.profit)) {
                    r.richest_capture = Some((worth, est));
                }
            }
            // Defense consideration (level 7): a move that exposes another agent more than it
            // gains is disregarded, as an agent's own choice and as a request answer alike. That
            // only asks whether the exposure tops the worst threat and, for an attack, reaches its
            // profit (a request answer that is an attack has the same profit), so the exposure is
            // counted only above the one and up to the other.
            // Without move-attack consideration a request answer is valued again (another
            // profit), so the exposure is then counted in full above the worst threat.
            let enough = match est.action {
                _ if !features.has(Features::MOVE_ATTACK) => i32::MAX,
                Action::Attack => est.profit.max(threat + 1),
                _ => threat + 1,
            };
            let mover_suspects = match dc || balance {
                true => *suspects[i].get_or_insert_with(|| ev.exposure_suspects(mv.from())),
                false => Bitboard::EMPTY,
            };
            let exposed =
                if dc { ev.exposure_over_suspects(&scene, mv.from(), mover_suspects, threat, enough) } else { 0 };
            let defense_consideration = |c: &Cand| !dc || !disregarded(c.est.action, c.est.profit, exposed, threat);

            let considered = defense_consideration(&Cand { est, residual: 0 });
            if considered {
                let cand = Cand { est, residual: 0 };
                let report = &mut r.agents[i];
                match est.action {
                    Action::Attack => offer(&mut report.attack, est.profit, cand, &mut self.rng),
                    Action::Move => offer(&mut report.mv, move_key(features, &est), cand, &mut self.rng),
                }
            }
            let Some(w) = wounded.filter(|_| Some(i) != worst) else { continue };
            if attack_requests
                && let Some(cand) =
                    attack_request(&ev, &scene, est, w, w_attackers, threat).filter(&defense_consideration)
            {
                offer(&mut r.attack_answer, cand.net(), cand, &mut self.rng);
            }
            let untouched = || {
                w_reach.is_some_and(|t| {
                    agent.piece != Piece::King && t.untouched_by(mv, mv.promotion().unwrap_or(agent.piece))
                })
            };
            // Two answers known to fail before the exchange on w's square is worked out: with
            // move-attack consideration an answer keeps the mover's estimate, which defense
            // consideration has already judged (`considered`); and the balance never takes one
            // that lands where it is threatened as much as w was, since it saves at most that.
            let doomed = || {
                (features.has(Features::MOVE_ATTACK) && !considered)
                    || (balance && mv.promotion().is_none() && est.landing().is_some_and(|landing| landing >= threat))
            };
            if defense_requests
                && !untouched()
                && !doomed()
                && let Some(cand) =
                    defense_request(&ev, &scene, est, &agent, w, blocks, threat).filter(&defense_consideration)
                && (!balance || {
                    // The balance weighs the whole exposure, below the worst threat too; only
                    // whether it reaches what the answer saves matters, so it is counted from just
                    // below that (`exposure_over`: any piece worth less cannot reach it).
                    let saved = threat - cand.residual;
                    let exposed = ev.exposure_over_suspects(&scene, mv.from(), mover_suspects, saved - 1, saved);
                    // The mover's own estimate worked it out, unless it promotes (asked of the pawn).
                    let landing = match est.landing().filter(|_| mv.promotion().is_none()) {
                        Some(landing) => landing,
                        None => ev.threat_at(&scene, mv.to(), agent.piece),
                    };
                    defense_balance(saved, exposed, landing)
                })
            {
                offer(&mut r.defense_answer, cand.net(), cand, &mut self.rng);
            }
        }
        r
    }

    /// Own pieces the active level estimates not threatened after `mv`: the others where they
    /// stand (as estimated before moving), the mover where it lands.
    fn safe_squares(&self, pos: &Position, mv: Move) -> Bitboard {
        let ev = Eval::new(pos, self.features);
        let now = Scene::now(pos);
        let mut safe = Bitboard::EMPTY;
        for sq in pos.by_color(pos.side_to_move()).without(mv.from()) {
            if ev.agent(&now, sq).threat == 0 {
                safe = safe.with(sq);
            }
        }
        let piece = mv.promotion().unwrap_or(pos.moving_piece(mv));
        if ev.threat_at(&Scene::after(pos, mv), mv.to(), piece) == 0 {
            safe = safe.with(mv.to());
        }
        safe
    }
}

/// Attack request (level 5, thesis 2.2.2): another agent's capture answers the worst threatened
/// agent `w` when it takes one of w's attackers and leaves w less threatened than before.
fn attack_request(
    ev: &Eval,
    scene: &Scene,
    est: Estimate,
    w: Agent,
    w_attackers: Bitboard,
    threat: i32,
) -> Option<Cand> {
    if est.action != Action::Attack || !scene.captured.is_some_and(|c| w_attackers.contains(c)) {
        return None;
    }
    let residual = ev.threat_at(scene, w.square, w.piece);
    (residual < threat).then_some(Cand { est, residual })
}

/// Defense request (level 6; level 8 opens it only when w's own options lose material, see
/// `decide`): another agent's move answers when it leaves w less threatened, by guarding w or
/// by blocking its attacker from a square that is itself backed. The answer is valued with the
/// defended material counted in (`Eval::defense_profit`).
fn defense_request(
    ev: &Eval,
    scene: &Scene,
    est: Estimate,
    agent: &Agent,
    w: Agent,
    blocks: Bitboard,
    threat: i32,
) -> Option<Cand> {
    if est.action != Action::Move {
        return None;
    }
    let residual = ev.threat_at(scene, w.square, w.piece);
    let to = est.mv.to();
    let backed = !blocks.contains(to) || ev.block_is_backed(scene, to);
    if residual >= threat || !backed {
        return None;
    }
    if ev.features.has(Features::MOVE_ATTACK) {
        // The agent's own estimate already checked the arrival square: it is the same value.
        return Some(Cand { est, residual });
    }
    let v = ev.defense_profit(scene, agent, est.mv);
    Some(Cand {
        est: Estimate {
            profit: v.profit,
            plan: v.plan,
            threat: v.threat,
            fork_targets: v.fork.unwrap_or(Bitboard::EMPTY),
            ..est
        },
        residual,
    })
}

/// Move-attack consideration's ranking of moves.
fn move_key(features: Features, est: &Estimate) -> MoveKey {
    (est.profit, features.has(Features::MOVE_ATTACK) && est.plan.is_some())
}

/// The worst threatened agent: the highest threat, ties at random.
fn worst_threat(reports: &[Report], rng: &mut StdRng) -> (Option<usize>, i32) {
    let (mut worst, mut threat, mut ties) = (None, 0, 0u32);
    for (i, rep) in reports.iter().enumerate() {
        let t = rep.agent.threat;
        if t <= 0 || t < threat {
            continue;
        }
        if t > threat {
            (worst, threat, ties) = (Some(i), t, 1);
        } else {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                worst = Some(i);
            }
        }
    }
    (worst, threat)
}

/// Attack or move (levels 1 and 2): attacks come first; with threat and backup consideration
/// a move is preferred when the attack loses material and the move does better.
fn pick(features: Features, attack: Option<Cand>, mv: Option<Cand>) -> Option<(Cand, Rule)> {
    match (attack, mv) {
        (Some(a), Some(m)) => {
            let attack_first =
                !features.has(Features::THREAT_AND_BACKUP) || a.est.profit >= 0 || a.est.profit >= m.est.profit;
            Some(if attack_first { (a, Rule::Attack) } else { (m, Rule::Move) })
        }
        (Some(a), None) => Some((a, Rule::Attack)),
        (None, Some(m)) => Some((m, Rule::Move)),
        (None, None) => None,
    }
}

/// The MasterAgent's rules over one round of reports (thesis 2.2.2, each level's "MasterAgent").
fn decide(r: &Round, features: Features, rng: &mut StdRng) -> Option<Verdict> {
    let reports = &r.agents[..r.n];
    let mut best_attack: Option<Best<i32>> = None;
    let mut best_move: Option<Best<MoveKey>> = None;
    for rep in reports {
        if let Some(b) = rep.attack {
            offer(&mut best_attack, b.key, b.cand, rng);
        }
        if let Some(b) = rep.mv {
            offer(&mut best_move, b.key, b.cand, rng);
        }
    }
    let general = pick(features, best_attack.map(|b| b.cand), best_move.map(|b| b.cand));
    let Some(w) = r.worst else {
        let (cand, rule) = general?;
        return Some(Verdict { cand, rule, attack_round: false, defense_round: false, tied: None });
    };
    let threat = r.threat;
    let general = general.map(|(mut c, rule)| {
        // Level 4's assumption: another agent's move does nothing for the threatened agent.
        c.residual = if c.est.agent_index() == w { 0 } else { threat };
        (c, rule)
    });

    let own = pick(features, reports[w].attack.map(|b| b.cand), reports[w].mv.map(|b| b.cand))
        .map(|(c, _)| (c, Rule::ThreatenedAgent));
    let mut rescue = own;
    let attack_round = features.has(Features::ATTACK_REQUEST);
    if attack_round {
        rescue = prefer_answer(rescue, r.attack_answer, Rule::AttackRequest);
    }
    let defense_round = features.has(Features::DEFENSE_REQUEST)
        || (features.has(Features::RESTRICTED_DEFENSE_REQUEST) && own.is_none_or(|(c, _)| c.est.profit < 0));
    if defense_round {
        rescue = prefer_answer(rescue, r.defense_answer, Rule::DefenseRequest);
    }

    let (cand, rule) = match (general, rescue) {
        (Some(g), Some(s)) => {
            let take_general =
                if features.has(Features::THREAT_MOVE) { g.0.net() > s.0.net() } else { g.0.est.profit >= threat };
            if take_general { g } else { s }
        }
        (g, s) => g.or(s)?,
    };
    Some(Verdict { cand, rule, attack_round, defense_round, tied: None })
}

/// A request answer replaces the threatened agent's own action only when strictly better.
fn prefer_answer(current: Option<(Cand, Rule)>, answer: Option<Best<i32>>, rule: Rule) -> Option<(Cand, Rule)> {
    match (current, answer) {
        (Some(c), Some(a)) if a.cand.net() <= c.0.net() => Some(c),
        (_, Some(a)) => Some((a.cand, rule)),
        (c, None) => c,
    }
}

/// Only reached when no agent owns a legal move (more pieces than agents in an odd FEN).
fn last_resort(pos: &Position, legal: &MoveList) -> Verdict {
    let mv = legal[0];
    let action = if pos.is_capture(mv) { Action::Attack } else { Action::Move };
    let est = Estimate {
        mv,
        agent: 0,
        action,
        profit: 0,
        plan: None,
        threat: 0,
        fork_targets: Bitboard::EMPTY,
        landing: NO_LANDING,
    };
    Verdict { cand: Cand { est, residual: 0 }, rule: Rule::Move, attack_round: false, defense_round: false, tied: None }
}

/// The MasterAgent in a game: what the `Player` built on it (`players::agents`) asks.
impl MasterAgent {
    /// "AgentChess level 7", or the feature list when the set is no level.
    pub fn title(&self) -> String {
        match self.features.as_level() {
            Some(n) => format!("AgentChess level {n}"),
            None => format!("AgentChess features {}", self.features),
        }
    }

    /// Decides and books the counters that need the game: whether the opponent took a piece
    /// estimated safe, and whether last move's planned attack is carried out now.
    pub fn choose_in_game(&mut self, game: &Game) -> Option<Choice> {
        let pending = self.pending.take();
        let pos = game.position();
        let ply = game.moves().len();
        let continued = pending.and_then(|p| p.reply(game.moves()).map(|reply| (p, reply)));
        let mut before = self.counters;
        if let Some((p, reply)) = &continued {
            self.counters.book_reply(p, *reply);
            self.log.book(p.ply, self.counters.since(&before));
            before = self.counters;
        }
        let choice = self.choose_in(game)?;
        self.log.book(ply, self.counters.since(&before));
        if let Some((p, _)) = &continued {
            before = self.counters;
            self.counters.book_plan(p, pos, choice.mv);
            self.log.book(p.ply, self.counters.since(&before));
        }
        let plan = choice.plan.map(|(target, _)| (choice.mv.to(), target));
        let after = pos.play(choice.mv);
        self.pending = Some(Pending {
            ply,
            mv: choice.mv,
            after,
            safe: self.safe_squares(pos, choice.mv),
            plan,
            fork: choice.fork.map(|targets| (choice.mv.to(), targets)),
        });
        Some(choice)
    }
}

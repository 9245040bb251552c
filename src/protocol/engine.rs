//! The protocols' handle on move choice: a `Player` plus the guard rails that keep a faulty
//! player from costing a game (an illegal move, no move, or a panic all fall back to a legal move).
//! A fallback is a bug, never a normal event: each one is counted, logged at error level on
//! stderr and marked on the `Thought`, so that the protocols and the end-to-end checks can see it.

use super::clock::SearchLimits;
use crate::agents::Features;
use crate::board::{Game, Move, Position};
use crate::players::spec::{PlayerSpec, SpecError};
use crate::players::{Player, StopSignal};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a player cannot be the engine's own.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum OwnPlayerError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("'{0}': external engines play in match, tournament, thesis and suite, not as the engine's own player")]
    External(Box<PlayerSpec>),
}

/// The engine's own player: any spec but an external engine (that is for the research
/// commands).
fn own_player(spec: &PlayerSpec, seed: u64) -> Result<Box<dyn Player>, OwnPlayerError> {
    if spec.is_external() {
        return Err(OwnPlayerError::External(Box::new(spec.clone())));
    }
    Ok(spec.build(seed))
}

/// Level when none is given: the strongest agent configuration.
pub const DEFAULT_LEVEL: u8 = 9;
pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 9;
/// What the `Level` option shows when the player is not a level's preset (a custom feature
/// set, the searcher, random): the option's range starts there so the GUI can show it, and
/// setting it is refused.
pub const NO_LEVEL: u8 = 0;

/// A chosen move and what the protocol reports about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    pub mv: Move,
    /// Centipawns from the mover's point of view (the MasterAgent's estimated profit).
    pub score: i32,
    /// Moves to mate (negative: being mated), when the player knows.
    pub mate: Option<i32>,
    /// Plies the player looked ahead.
    pub depth: u32,
    /// The expected line, starting with `mv`; always legal from the position thought about.
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub reason: String,
    /// Set when the player failed and the move is the fallback: what went wrong.
    pub fault: Option<String>,
}

pub struct Engine {
    player: Box<dyn Player>,
    spec: PlayerSpec,
    seed: u64,
    /// Report zero elapsed time, so that transcripts are byte-for-byte reproducible.
    frozen_time: bool,
    interrupt: Interrupt,
    faults: u32,
}

/// How the input side reaches a decision in progress: the protocol loop reads lines on its own
/// thread, so a `?`, `stop` or `exit` that arrives while the player thinks can end the thinking
/// instead of waiting behind it.
pub type Interrupt = StopSignal;

impl Engine {
    pub fn new(spec: PlayerSpec, seed: u64) -> Result<Engine, OwnPlayerError> {
        let player = own_player(&spec, seed)?;
        Ok(Engine::with_player(player, spec, seed))
    }

    /// An engine around a given player, which the engine reports as `spec` (tests use a
    /// deterministic one).
    pub fn with_player(mut player: Box<dyn Player>, spec: PlayerSpec, seed: u64) -> Engine {
        let interrupt = Interrupt::default();
        player.watch_stop(interrupt.clone());
        Engine { player, spec, seed, frozen_time: false, interrupt, faults: 0 }
    }

    /// The handle the input side uses to interrupt a decision.
    pub fn interrupt(&self) -> Interrupt {
        self.interrupt.clone()
    }

    pub fn freeze_time(mut self) -> Engine {
        self.frozen_time = true;
        self
    }

    pub fn spec(&self) -> &PlayerSpec {
        &self.spec
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many times the player has failed (panicked, chosen an illegal move or none) since
    /// this engine was made; each time a fallback move was played or a line was cut short.
    pub fn faults(&self) -> u32 {
        self.faults
    }

    /// Counts and logs a player failure; returns the text the protocols report.
    fn fault(&mut self, what: String) -> String {
        self.faults += 1;
        let text = format!("player {:?} {what} (fault {} this session)", self.spec.to_string(), self.faults)
            .replace(char::is_control, " ");
        log::error!("{text}");
        text
    }

    /// The level this engine plays at: its agents' features when they are a level's preset
    /// (`--features foundation` is level 1), else None (a custom set, the searcher, random).
    pub fn level(&self) -> Option<u8> {
        self.agent_features()?.as_level().map(|n| n as u8)
    }

    /// The agent feature flags this engine plays with, as the comma list `features:` takes, or
    /// "-" for a player that is not made of agents.
    pub fn features(&self) -> String {
        self.agent_features().map_or_else(|| "-".to_string(), |f| f.to_string())
    }

    fn agent_features(&self) -> Option<Features> {
        self.spec.agent_features()
    }

    /// Swaps in the player for a new spec; on error the current player stays.
    pub fn set_spec(&mut self, spec: PlayerSpec) -> Result<(), OwnPlayerError> {
        let mut player = own_player(&spec, self.seed)?;
        player.watch_stop(self.interrupt.clone());
        self.player = player;
        self.spec = spec;
        Ok(())
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.player.set_seed(seed);
    }

    pub fn new_game(&mut self) {
        self.player.new_game();
    }

    /// A legal move for the side to move, or None when there is none.
    ///
    /// `limits` is what the GUI allows for this move: the agents need microseconds and ignore
    /// it, a searching player stops within it.
    pub fn think(&mut self, game: &Game, limits: &SearchLimits) -> Option<Thought> {
        self.think_reporting(game, limits, &mut |_| {})
    }

    /// `think`, telling `on_step` about each completed step of a longer decision (a searcher's
    /// iterations), for thinking output while it runs.
    pub fn think_reporting(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        on_step: &mut dyn FnMut(Thought),
    ) -> Option<Thought> {
        let legal = game.position().legal_moves();
        if legal.is_empty() {
            return None;
        }
        log::debug!("thinking with {limits:?}");
        let elapsed = stopwatch(self.frozen_time);
        let mut report = |d: &crate::players::Decision| {
            if legal.contains(d.mv) {
                on_step(thought_of(game, d, elapsed()));
            }
        };
        self.interrupt.begin(limits.infinite);
        let decision = catch_unwind(AssertUnwindSafe(|| self.player.decide_reporting(game, limits, &mut report)));
        let thought = match decision {
            Ok(Some(d)) if legal.contains(d.mv) => {
                let first = thought_of(game, &d, elapsed());
                Ok(if limits.infinite { self.extend_line(game, first, on_step, &elapsed) } else { first })
            }
            Ok(Some(d)) => Err(format!("chose the illegal move {}", d.mv)),
            Ok(None) => Err("chose no move".to_string()),
            Err(_) => Err("panicked".to_string()),
        };
        self.interrupt.end();
        Some(thought.unwrap_or_else(|why| {
            let mv = legal[0];
            let fault = self.fault(format!("{why}; played the first legal move {mv} instead"));
            Thought {
                mv,
                score: 0,
                mate: None,
                depth: 0,
                pv: vec![mv],
                nodes: 0,
                elapsed: elapsed(),
                reason: format!("fallback: {why}"),
                fault: Some(fault),
            }
        }))
    }

    /// Analysis of a player that judges one move at a time (the agents): its line is extended
    /// ply by ply with what its twin would play on both sides, each longer line reported as one
    /// more ply of depth, until the line ends the game, `MAX_LINE` plies, or a stop. A client
    /// that analyses to a depth (python-chess's `Limit(depth=N)`) thus gets its depth, and the
    /// GUI sees where the agents' choices lead. Players that search report their own depth.
    fn extend_line(
        &mut self,
        game: &Game,
        first: Thought,
        on_step: &mut dyn FnMut(Thought),
        elapsed: &dyn Fn() -> Duration,
    ) -> Thought {
        let Some(mut twin) = self.player.twin() else { return first };
        // Every line is a step, the deepest too (as a searcher reports its last iteration): the
        // protocols show the steps as they come and the deepest once more with the decision.
        on_step(first.clone());
        let root = game.position().side_to_move();
        let mut line = game.clone();
        for &m in &first.pv {
            line.play(m);
        }
        let mut best = first;
        while best.pv.len() < MAX_LINE && line.outcome().is_none() && !self.interrupt.is_raised() {
            let legal = line.position().legal_moves();
            let next = match catch_unwind(AssertUnwindSafe(|| twin.decide(&line))) {
                Ok(Some(d)) if legal.contains(d.mv) => d,
                failed => {
                    // The game goes on in this line, so the twin owed us a legal move.
                    let why = match failed {
                        Ok(Some(d)) => format!("chose the illegal move {}", d.mv),
                        Ok(None) => "chose no move".to_string(),
                        Err(_) => "panicked".to_string(),
                    };
                    let plies = best.pv.len();
                    best.fault =
                        Some(self.fault(format!("{why} while extending the analysis line; line cut at {plies} plies")));
                    break;
                }
            };
            line.play(next.mv);
            let plies = best.pv.len() as i32 + 1;
            let mated = line.position().is_checkmate();
            let mut pv = best.pv.clone();
            pv.push(next.mv);
            let drawn = line.outcome().is_some_and(|o| o.winner().is_none());
            let longer = Thought {
                mv: best.mv,
                // The material the line ends in, as the root mover sees it (a draw is a draw).
                score: if drawn { 0 } else { crate::board::values::material_balance(line.position(), root) },
                mate: mated.then(|| if plies % 2 == 1 { (plies + 1) / 2 } else { -plies / 2 }),
                depth: plies as u32,
                pv,
                nodes: best.nodes + next.nodes,
                elapsed: elapsed(),
                reason: best.reason.clone(),
                fault: None,
            };
            on_step(longer.clone());
            best = longer;
        }
        // A line that ends the game has nothing deeper to see: it holds at every depth, as a
        // searcher's mate holds, so a client waiting for depth N is told so at once.
        if line.outcome().is_some() && best.depth < MAX_LINE as u32 {
            best = Thought { depth: MAX_LINE as u32, elapsed: elapsed(), ..best };
            on_step(best.clone());
        }
        best
    }
}

/// A stopwatch started now (reading zero when time is frozen for transcripts).
fn stopwatch(frozen: bool) -> impl Fn() -> Duration {
    let start = Instant::now();
    move || if frozen { Duration::ZERO } else { start.elapsed() }
}

/// Longest line analysis extends for a player that does not search, and the depth at which a
/// line that ended the game is reported as complete.
pub const MAX_LINE: usize = 64;

/// A legal decision as the protocols show it.
fn thought_of(game: &Game, d: &crate::players::Decision, elapsed: Duration) -> Thought {
    // A mate in one is known whoever chose the move.
    let mate = d.mate.or_else(|| game.position().play(d.mv).is_checkmate().then_some(1));
    let pv = legal_line(game.position(), d.mv, &d.pv);
    Thought {
        mv: d.mv,
        score: d.score,
        mate,
        depth: d.depth,
        pv,
        nodes: d.nodes,
        elapsed,
        reason: d.reason.clone(),
        fault: None,
    }
}

/// The player's line checked move by move: it must start with the move played, and it is cut
/// at the first move that is not legal where it stands, so a GUI is never shown an impossible
/// line.
fn legal_line(pos: &Position, mv: Move, line: &[Move]) -> Vec<Move> {
    let mut out = vec![mv];
    if line.first() != Some(&mv) {
        return out;
    }
    let mut at = pos.play(mv);
    for &m in &line[1..] {
        if !at.is_legal(m) {
            break;
        }
        out.push(m);
        at = at.play(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_cut_at_its_first_illegal_move() {
        let pos = Position::startpos();
        let mv = |p: &Position, uci: &str| p.parse_uci(uci).unwrap();
        let e4 = mv(&pos, "e2e4");
        let e5 = mv(&pos.play(e4), "e7e5");
        let nf3 = mv(&pos.play(e4).play(e5), "g1f3");
        assert_eq!(legal_line(&pos, e4, &[e4, e5, nf3]), vec![e4, e5, nf3]);
        // e2e4 again after 1.e4 e5 is not legal: the line stops before it.
        assert_eq!(legal_line(&pos, e4, &[e4, e5, e4, nf3]), vec![e4, e5]);
        // A line that does not start with the move played is dropped.
        assert_eq!(legal_line(&pos, e4, &[e5]), vec![e4]);
        assert_eq!(legal_line(&pos, e4, &[]), vec![e4]);
    }
}

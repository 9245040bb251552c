//! A player picks a move in a game: the agents at some level, a searcher, or a random mover.
//! The protocol loop, the match runner and the test-suite runner all talk to this trait;
//! [`crate::spec`] builds one from its name.

use crate::board::{Game, Move};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A chosen move with what the player can say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub mv: Move,
    /// The player's evaluation after the move, in centipawns from the mover's point of view
    /// (the agents: material after the move, thesis values; the searcher: its search score).
    pub score: i32,
    /// Moves to mate: `Some(n)` when the mover mates in `n`, `Some(-n)` when it is mated in `n`.
    pub mate: Option<i32>,
    /// Plies looked ahead (1 for players that judge the move alone; the searcher's last
    /// completed iteration).
    pub depth: u32,
    /// The line expected to follow, starting with `mv` (just `mv` for players that do not look
    /// ahead; empty means the same).
    pub pv: Vec<Move>,
    /// Why this move, in words (the agents' explanation, or the searcher's principal variation).
    pub reason: String,
    /// Work done (agent queries or search nodes), for thinking output.
    pub nodes: u64,
}

/// What one decision may spend. `None` means "no limit of this kind". The agents decide in
/// microseconds and ignore it; a searching player must obey it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Aim to have a move by then: stop starting new iterations after it.
    pub soft_time: Option<std::time::Duration>,
    /// Must have moved by then, whatever the search is doing.
    pub hard_time: Option<std::time::Duration>,
    /// Plies (`sd`, UCI `depth`).
    pub depth: Option<u32>,
    /// Nodes (`nps` × seconds, UCI `nodes`).
    pub nodes: Option<u64>,
    /// Analyse until told to stop (analyze mode, UCI `go infinite`).
    pub infinite: bool,
}

/// Why a player gave no move in a position that has legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoMove {
    /// It resigned (an external engine can).
    Resign,
    /// Something went wrong, in words: the engine crashed, said nothing in time, sent an
    /// illegal move, ran out of time...
    Fault(String),
}

pub trait Player: Send {
    fn name(&self) -> String;
    /// The move to play, or `None` when the side to move has no legal move.
    fn decide(&mut self, game: &Game) -> Option<Decision>;
    /// The same within a budget; players that do not search ignore it.
    fn decide_within(&mut self, game: &Game, _limits: &SearchLimits) -> Option<Decision> {
        self.decide(game)
    }
    /// The same, telling `progress` about each completed step of a longer decision (a
    /// searcher's iterations), for thinking output while it runs. Players that decide in one
    /// step report nothing.
    fn decide_reporting(&mut self, game: &Game, limits: &SearchLimits, _progress: &mut dyn FnMut(&Decision)) -> Option<Decision> {
        self.decide_within(game, limits)
    }
    fn set_seed(&mut self, _seed: u64) {}
    fn new_game(&mut self) {}
    /// A twin that decides as this player would from here on, leaving this one untouched: for
    /// players that judge one move at a time, analysis extends their line by asking the twin
    /// what it would play next, ply after ply. Players that search give their own line (None).
    fn twin(&self) -> Option<Box<dyn Player>> {
        None
    }
    /// The signal the GUI side raises to make a long decision end now (`?`, `stop`, `exit`).
    /// Only players that may think for long need to watch it; the agents decide in
    /// microseconds.
    fn watch_stop(&mut self, _signal: StopSignal) {}
    /// Why the last `decide` gave no move although there were legal moves, when the player
    /// knows (external engines).
    fn no_move(&self) -> Option<NoMove> {
        None
    }
    /// The thesis's per-game counters, for players made of agents.
    fn counters(&self) -> Option<crate::agents::Counters> {
        self.counter_log().map(|log| log.totals())
    }
    /// The same counters by decision (for curves by move number).
    fn counter_log(&self) -> Option<crate::agents::CounterLog> {
        None
    }
}

/// Tells a decision in progress to end now. One atomic state, so that a stop meant for one
/// decision can never land on the next: it only turns "thinking" into "stop", and each
/// decision starts from "thinking". `close` is the exception: once the input is gone (end of
/// input, `quit`) every decision from then on is told to stop, whenever it starts.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(std::sync::Arc<std::sync::atomic::AtomicU8>);

const IDLE: u8 = 0;
/// A decision for a move in a game, within its time.
const THINKING: u8 = 1;
/// An open-ended one: analysis, UCI `go infinite` or `go ponder`.
const ANALYSING: u8 = 2;
const STOP: u8 = 3;
/// The input is closed for good: nothing is thought about at length any more.
const CLOSED: u8 = 4;

impl StopSignal {
    /// A decision starts; `open_ended` for analysis.
    pub fn begin(&self, open_ended: bool) {
        let state = if open_ended { ANALYSING } else { THINKING };
        self.settle(state);
    }

    /// The decision is over.
    pub fn end(&self) {
        self.settle(IDLE);
    }

    /// Moves to `state` unless the signal is closed.
    fn settle(&self, state: u8) {
        use std::sync::atomic::Ordering::SeqCst;
        let _ = self.0.fetch_update(SeqCst, SeqCst, |now| (now != CLOSED).then_some(state));
    }

    /// Asks the decision in progress to end now: any decision when `always`, otherwise only an
    /// open-ended one. Does nothing between decisions.
    pub fn raise(&self, always: bool) {
        use std::sync::atomic::Ordering::SeqCst;
        if always {
            let _ = self.0.compare_exchange(THINKING, STOP, SeqCst, SeqCst);
        }
        let _ = self.0.compare_exchange(ANALYSING, STOP, SeqCst, SeqCst);
    }

    /// The input is gone (end of input or `quit`): the decision in progress and any later one
    /// end at once, with what they have (a searcher still completes depth 1).
    pub fn close(&self) {
        self.0.store(CLOSED, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn is_raised(&self) -> bool {
        matches!(self.0.load(std::sync::atomic::Ordering::Relaxed), STOP | CLOSED)
    }

    pub fn is_thinking(&self) -> bool {
        matches!(self.0.load(std::sync::atomic::Ordering::Relaxed), THINKING | ANALYSING | STOP)
    }
}

/// Plays a uniformly random legal move; a baseline and a test opponent.
pub struct RandomPlayer {
    rng: StdRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: StdRng::seed_from_u64(seed) }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[self.rng.random_range(0..moves.len())];
        let mate = game.position().play(mv).is_checkmate().then_some(1);
        Some(Decision { mv, score: 0, mate, depth: 1, pv: vec![mv], reason: "random".to_string(), nodes: 0 })
    }

    fn set_seed(&mut self, seed: u64) {
        self.rng = StdRng::seed_from_u64(seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_player_is_reproducible_and_legal() {
        let game = Game::startpos();
        let a = RandomPlayer::new(7).decide(&game).unwrap();
        let b = RandomPlayer::new(7).decide(&game).unwrap();
        assert_eq!(a, b);
        assert!(game.position().is_legal(a.mv));
    }

    #[test]
    fn a_closed_signal_stops_every_later_decision() {
        let signal = StopSignal::default();
        signal.begin(false);
        signal.raise(true);
        assert!(signal.is_raised());
        signal.end();
        signal.begin(false);
        assert!(!signal.is_raised(), "a stop must not carry over to the next decision");
        signal.close();
        assert!(signal.is_raised());
        signal.end();
        signal.begin(true);
        assert!(signal.is_raised(), "after close every decision is told to stop");
    }
}

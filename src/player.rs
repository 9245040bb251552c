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
    fn decide_reporting(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        _progress: &mut dyn FnMut(&Decision),
    ) -> Option<Decision> {
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
///
/// Input lines are numbered in the order they arrive. The loop says which line it is handling
/// (`taking`), each decision remembers the line it belongs to, and a stop raised for line `n`
/// only ends a decision begun for an earlier line. Without the numbers the reader thread, which
/// queues a line before raising the stop, could stop the very analysis that line started
/// (`analyze`, UCI `go infinite`) when the loop was quicker than the reader.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(std::sync::Arc<Signal>);

#[derive(Debug, Default)]
struct Signal {
    /// The decision's state in the low byte, the number of the line it belongs to above it.
    state: std::sync::atomic::AtomicU64,
    /// The line the loop is handling now.
    line: std::sync::atomic::AtomicU64,
}

const IDLE: u8 = 0;
/// A decision for a move in a game, within its time.
const THINKING: u8 = 1;
/// An open-ended one: analysis, UCI `go infinite` or `go ponder`.
const ANALYSING: u8 = 2;
const STOP: u8 = 3;
/// The input is closed for good: nothing is thought about at length any more.
const CLOSED: u8 = 4;

fn pack(state: u8, line: u64) -> u64 {
    (line << 8) | state as u64
}

fn unpack(v: u64) -> (u8, u64) {
    ((v & 0xff) as u8, v >> 8)
}

impl StopSignal {
    /// The loop is handling input line `n` (numbered from 1 in arrival order): decisions begun
    /// from now on belong to it.
    pub fn taking(&self, n: u64) {
        self.0.line.store(n, std::sync::atomic::Ordering::SeqCst);
    }

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
        let line = self.0.line.load(SeqCst);
        let _ = self.0.state.fetch_update(SeqCst, SeqCst, |now| (unpack(now).0 != CLOSED).then_some(pack(state, line)));
    }

    /// Asks the decision in progress to end now: any decision when `always`, otherwise only an
    /// open-ended one. Does nothing between decisions.
    pub fn raise(&self, always: bool) {
        self.raise_for_line(u64::MAX >> 8, always);
    }

    /// `raise` on behalf of input line `n`: a decision that line itself (or a later one)
    /// started is left alone.
    pub fn raise_for_line(&self, n: u64, always: bool) {
        use std::sync::atomic::Ordering::SeqCst;
        let _ = self.0.state.fetch_update(SeqCst, SeqCst, |now| {
            let (state, line) = unpack(now);
            let stoppable = state == ANALYSING || (always && state == THINKING);
            (stoppable && line < n).then_some(pack(STOP, line))
        });
    }

    /// The input is gone (end of input or `quit`): the decision in progress and any later one
    /// end at once, with what they have (a searcher still completes depth 1).
    pub fn close(&self) {
        self.0.state.store(pack(CLOSED, 0), std::sync::atomic::Ordering::SeqCst);
    }

    pub fn is_raised(&self) -> bool {
        matches!(unpack(self.0.state.load(std::sync::atomic::Ordering::Relaxed)).0, STOP | CLOSED)
    }

    pub fn is_thinking(&self) -> bool {
        matches!(unpack(self.0.state.load(std::sync::atomic::Ordering::Relaxed)).0, THINKING | ANALYSING | STOP)
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

    /// The line that started a decision cannot stop it, however late the reader raises for it;
    /// a later line can.
    #[test]
    fn a_line_never_stops_the_decision_it_started() {
        let signal = StopSignal::default();
        signal.taking(5);
        signal.begin(true);
        signal.raise_for_line(5, true);
        assert!(!signal.is_raised(), "analysis stopped by the line that began it");
        signal.raise_for_line(4, true);
        assert!(!signal.is_raised());
        signal.raise_for_line(6, false);
        assert!(signal.is_raised());
        signal.end();
        signal.taking(7);
        signal.begin(false);
        signal.raise_for_line(8, false);
        assert!(!signal.is_raised(), "a timed decision ignores a raise meant for analysis");
        signal.raise_for_line(8, true);
        assert!(signal.is_raised());
    }
}

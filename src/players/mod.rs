//! A player picks a move in a game: the agents at some level, a searcher, a random mover or an
//! external engine. The protocol loop, the match runner and the test-suite runner all talk to
//! the [`Player`] trait; [`spec`] builds one from its name.

mod agents;
mod budget;
pub mod external;
pub mod level10;
mod mate;
mod pv;
mod random;
mod repetition;
pub mod search;
pub mod spec;
mod stop;
pub mod strength;
pub mod wdl;

pub use random::RandomPlayer;
pub use stop::{Activity, Ending, StopSignal};

use crate::board::syzygy::Tablebase;
use crate::board::{Game, Move};

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
    /// Which of several lines this is when more than one was asked for (`SearchLimits::lines`):
    /// 1 for the best, 2 for the next best and so on; 0 when only one line was asked for.
    pub multipv: u32,
    /// Endgame tablebase probes that answered (UCI `tbhits`); 0 for players without tables.
    pub tbhits: u64,
}

/// Syzygy tables for a searching player, and where it probes them (UCI `SyzygyPath`,
/// `SyzygyProbeDepth`, `SyzygyProbeLimit`; XBoard `egtpath syzygy`).
#[derive(Clone, Debug)]
pub struct TablebaseUse {
    pub tables: Tablebase,
    /// The least remaining depth at which the tree probes a node with as many pieces as
    /// `pieces`; with fewer it probes at any depth.
    pub probe_depth: u32,
    /// The most pieces (kings included) probed, at most what the tables hold.
    pub pieces: u32,
}

impl TablebaseUse {
    pub fn new(tables: Tablebase, probe_depth: u32, probe_limit: u32) -> TablebaseUse {
        let pieces = probe_limit.min(tables.max_pieces());
        TablebaseUse { tables, probe_depth, pieces }
    }
}

/// What one decision may spend. `None` means "no limit of this kind". The agents decide in
/// microseconds and ignore it; a searching player must obey it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// Search for a mate in this many moves and stop once one is found (UCI `go mate`).
    pub mate: Option<u32>,
    /// Only these moves at the root (UCI `go searchmoves`); empty means every legal move.
    /// Players that search obey it; the agents of levels 1-9 judge every move.
    pub root_moves: Vec<Move>,
    /// Best lines to report at each depth (UCI `MultiPV`, the XBoard option of the same name);
    /// 0 and 1 both mean one. Level 10's tree obeys it; players that do not search report one.
    pub lines: u32,
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
    /// The player that analyses for this one (XBoard `analyze`, UCI `go infinite`): one that
    /// looks ahead, so that every depth it reports is a depth it searched. Players that search
    /// analyse for themselves (None); the agents of levels 1-9, which judge one move at a
    /// time, hand analysis to level 10's tree over the same agents.
    fn analyst(&self) -> Option<Box<dyn Player>> {
        None
    }
    /// Whether thinking on the opponent's time helps this player's next decision (a table it
    /// keeps); players that decide afresh each time do not ponder.
    fn ponders(&self) -> bool {
        false
    }
    /// Sizes the table the player keeps between positions (XBoard `memory`, UCI `Hash`), in
    /// megabytes, as near the size asked as the memory to be had allows: the megabytes it got.
    /// Players without one ignore it (None).
    fn set_table_mb(&mut self, _mb: usize) -> Option<usize> {
        None
    }
    /// Searches on `n` threads (UCI `Threads`, XBoard `cores`): the number it took. Players
    /// that do not search, or search on one thread only, ignore it (None).
    fn set_threads(&mut self, _n: usize) -> Option<usize> {
        None
    }
    /// Endgame tables to probe, or none. Only level 10's tree uses them; other players
    /// ignore them.
    fn set_tablebase(&mut self, _tables: Option<TablebaseUse>) {}
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

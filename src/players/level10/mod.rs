//! Level 10: level 9's agents thinking ahead for as long as the clock allows (the thesis's
//! "increasing its search depth", chapter 6, and its question in 4.1: can agents "keep up
//! with the traditional approach when estimating several moves ahead").
//!
//! At the nodes far enough from the leaves the side to move's agents say which moves are
//! worth trying first (`order`), and where the tree stops they judge the position
//! (`agents::judge`), with a quiescence over the captures their exchange estimate does not
//! lose (`tree`). The tree is searched by iterative deepening within the budget the protocol
//! hands over: each completed depth is reported at once, and the search stops early when the
//! best move has stayed the same, later when it keeps changing, never past the hard limit.

mod history;
mod node;
mod order;
pub mod params;
mod quiesce;
mod table;
mod tree;
mod zeroed;

pub use table::{DEFAULT_MB, MAX_MB};

/// The least score level 10 gives a tablebase win (a win the tables see, less the plies to
/// reach it): what readers of its scores tell apart from a material lead.
pub const TABLEBASE_WIN: i32 = tree::TB_WIN - tree::MAX_PLY as i32;

use super::budget::Budget;
use super::mate::MateScores;
use super::{Decision, Player, SearchLimits, StopSignal, TablebaseUse};
use crate::agents::{Features, MasterAgent, variety};
use crate::board::syzygy::Wdl;
use crate::board::{Game, Move, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tree::{INFINITY, MATE, MATE_BOUND, Parts, TB_WIN, Tree};

/// What a move may spend when nobody says (no clock, no depth, no node count: an in-process
/// game, cutechess-cli's `tc=inf`): this many nodes, about a second on one core.
pub const DEFAULT_NODES: u64 = 400_000;

/// The deepest iteration.
const MAX_DEPTH: i32 = 100;

/// A helper thread's stack: a process's main thread's, on which the main search runs.
const HELPER_STACK: usize = 8 << 20;

/// How many plies deeper than the main thread's iteration a helper thread's begins.
const AHEAD: i32 = 2;

/// `go mate N` searches at most this many plies a move of the mate, and [`MATE_MARGIN`] more.
const MATE_PLIES_PER_MOVE: i32 = 4;

/// See [`MATE_PLIES_PER_MOVE`].
const MATE_MARGIN: i32 = 4;

/// The most search threads a player takes (UCI `Threads`, XBoard `cores`).
pub const MAX_THREADS: usize = 256;

pub struct Level10 {
    features: Features,
    /// The main search thread's tree: it decides the move and watches the budget.
    tree: Tree,
    /// The search threads wanted, the main one included.
    threads: usize,
    /// The other threads' trees (Lazy SMP: each searches the same root over the one shared
    /// table, which is all they give the main thread). Made at the first search that needs
    /// them and kept, with their history, until the game or the table changes.
    helpers: Vec<Tree>,
    stop: Option<StopSignal>,
    /// A fixed number of nodes a move (`level:10,nodes=N`), whatever the clock allows.
    nodes_per_move: Option<u64>,
    /// The game's seed for `variety`, which level 10 uses only at a node budget (a strength
    /// below its best, chosen by the user): at full strength it plays its best move.
    salt: u64,
}

impl Level10 {
    /// The tree with the parts `features` has on, the agents' own rules (what they propose)
    /// being the rest of the set, and a table of `table_mb` megabytes.
    pub fn new(features: Features, seed: u64, table_mb: usize) -> Level10 {
        let parts = Parts {
            agent_selection: features.has(Features::AGENT_SELECTION),
            agent_pruning: features.has(Features::AGENT_PRUNING),
            agent_reductions: features.has(Features::AGENT_REDUCTIONS),
            threat_guard: features.has(Features::THREAT_GUARD),
            agent_leaves: features.has(Features::AGENT_LEAVES),
            quiescence: features.has(Features::QUIESCENCE),
            leaf_checks: features.has(Features::LEAF_CHECKS),
            transposition: features.has(Features::TRANSPOSITION),
            null_move: features.has(Features::NULL_MOVE),
        };
        let agents = MasterAgent::new(features.without(Features::TREE_PARTS), seed);
        Level10 {
            features,
            tree: Tree::new(parts, agents, table_mb),
            threads: 1,
            helpers: Vec::new(),
            stop: None,
            nodes_per_move: None,
            salt: seed,
        }
    }

    /// Searches on `n` threads (at least 1, at most `MAX_THREADS`); the number it took.
    pub fn set_threads(&mut self, n: usize) -> usize {
        self.threads = n.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.threads - 1);
        self.threads
    }

    /// The helpers' trees for a search: as many as the threads ask, sharing the table.
    fn ready_helpers(&mut self) {
        while self.helpers.len() + 1 < self.threads {
            let agents = MasterAgent::new(self.features.without(Features::TREE_PARTS), self.salt);
            self.helpers.push(Tree::sharing(self.tree.parts, agents, Arc::clone(&self.tree.table)));
        }
    }

    /// The same player searching `nodes` nodes a move when given: a strength that does not
    /// depend on the machine or the clock (whose hard limit still holds).
    pub fn with_nodes_per_move(self, nodes: Option<u64>) -> Level10 {
        Level10 { nodes_per_move: nodes, ..self }
    }

    /// Resizes the transposition table (XBoard `memory`, UCI `Hash`), emptying it: to `mb`
    /// megabytes, or when that much memory is not to be had, to the largest half, quarter, ...
    /// of it that is. Returns the megabytes it got.
    pub fn set_table_mb(&mut self, mb: usize) -> usize {
        // The old table goes first (the helpers hold it too): its memory may be what the new
        // one needs.
        self.helpers.clear();
        self.tree.table = Arc::new(table::Table::new(1));
        let (table, got) = table::Table::largest(mb);
        self.tree.table = Arc::new(table);
        got
    }

    pub fn table_bytes(&self) -> usize {
        self.tree.table.bytes()
    }

    fn think(&mut self, game: &Game, limits: &SearchLimits, progress: &mut dyn FnMut(&Decision)) -> Option<Decision> {
        let pos = *game.position();
        let mut legal = pos.legal_moves();
        if legal.is_empty() {
            return None;
        }
        // `go searchmoves`: the root's moves among those asked for (all of them if none of the
        // asked moves is legal; the protocol refuses such a list before it gets here).
        let restricted = !limits.root_moves.is_empty() && legal.iter().any(|m| limits.root_moves.contains(m));
        if restricted {
            legal.retain(|m| limits.root_moves.contains(&m));
        }
        self.tree.root_moves = if restricted { legal.iter().copied().collect() } else { Vec::new() };
        let fixed;
        let limits = match self.nodes_per_move {
            Some(n) if !limits.infinite => {
                fixed = SearchLimits { nodes: Some(n), soft_time: None, ..limits.clone() };
                &fixed
            }
            _ => limits,
        };
        let start = Instant::now();
        if let Some(decided) = self.tablebase_root(&pos, limits, legal.as_slice()) {
            progress(&decided);
            return Some(decided);
        }
        let unlimited =
            limits.soft_time.is_none() && limits.depth.is_none() && limits.nodes.is_none() && limits.mate.is_none();
        let threads = self.threads > 1;
        let halt = Arc::new(AtomicBool::new(false));
        // The main thread's iteration under way, which the helpers keep ahead of.
        let main_depth = AtomicI32::new(0);
        let budget = Budget {
            nodes: if unlimited && !limits.infinite { Some(DEFAULT_NODES) } else { limits.nodes },
            shared_nodes: threads.then(|| Arc::new(AtomicU64::new(0))),
            ..Budget::within(limits, start, self.stop.clone())
        };
        // A mate in N is N moves of ours and N - 1 replies, but the tree reduces and prunes the
        // moves it does not expect to matter, so a nominal depth of about twice that is needed
        // before every line of the mate is searched to its end (WAC 191's mate in three shows at
        // depth 15).
        let mate_depth = limits.mate.map(|n| MATE_PLIES_PER_MOVE * n as i32 + MATE_MARGIN);
        let max_depth = [limits.depth.map(|d| d as i32), mate_depth]
            .into_iter()
            .flatten()
            .min()
            .map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));
        self.tree.start(game.position_hashes(), budget.clone());
        let vary = self.features.has(Features::VARIETY) && self.nodes_per_move.is_some() && variety::in_opening(&pos);
        self.tree.variety = vary.then_some(self.salt);
        self.ready_helpers();
        for helper in &mut self.helpers {
            helper.join(game.position_hashes(), Budget { halt: Some(Arc::clone(&halt)), ..budget.clone() });
            helper.root_moves.clone_from(&self.tree.root_moves);
            helper.variety = self.tree.variety;
            helper.tablebase.clone_from(&self.tree.tablebase);
            helper.share_tbhits(&self.tree);
        }
        let search = Search {
            pos: &pos,
            legal: legal.as_slice(),
            limits,
            max_depth,
            start,
            stop: self.stop.as_ref(),
            main_depth: threads.then_some(&main_depth),
        };
        let (tree, helpers) = (&mut self.tree, &mut self.helpers);
        // The helpers end when the main thread has decided, and are joined before the move is
        // given: none outlives its search.
        std::thread::scope(|scope| {
            let mut running = Vec::with_capacity(helpers.len());
            for (i, helper) in helpers.iter_mut().enumerate() {
                let (pos, main_depth) = (&pos, &main_depth);
                // The main thread's stack, for the same depth of recursion. A thread the
                // system will not give is a helper less, not a failed search.
                let made = std::thread::Builder::new()
                    .name(format!("helper {}", i + 1))
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || help(helper, pos, i + 1, max_depth, main_depth));
                match made {
                    Ok(thread) => running.push(thread),
                    Err(e) => log::warn!("search thread {} not started: {e}", i + 1),
                }
            }
            // Raised however the main thread ends; after a panic the scope waits for the helpers.
            let halt = Halt(&halt);
            let decided = search.deepen(tree, progress);
            drop(halt);
            // Joined one by one, not left to the scope, which waits only for their work to end:
            // a joined thread is gone from the system too when the move is given.
            for thread in running {
                if thread.join().is_err() {
                    log::error!("a search thread panicked");
                }
            }
            decided
        })
    }
}

impl Level10 {
    /// The tables' move at a root they cover, when a move is to be played (not analysis, a
    /// search for a mate or several lines): the best result under the fifty-move rule, and
    /// among moves of that result the quickest to win, the slowest to lose.
    fn tablebase_root(&self, pos: &Position, limits: &SearchLimits, legal: &[Move]) -> Option<Decision> {
        let tb = self.tree.tablebase.as_ref()?;
        if limits.infinite || limits.mate.is_some() || limits.lines > 1 || pos.occupied().count() > tb.pieces {
            return None;
        }
        let (mv, wdl, dtz) = tb.tables.best_root_move(pos, pos.halfmove_clock())?;
        if !legal.contains(&mv) {
            return None;
        }
        let mates = pos.play(mv).is_checkmate();
        let score = match wdl {
            _ if mates => MATE - 1,
            Wdl::Win => TB_WIN - dtz.abs(),
            Wdl::CursedWin => 1,
            Wdl::Draw => 0,
            Wdl::BlessedLoss => -1,
            Wdl::Loss => -TB_WIN + dtz.abs(),
        };
        let result = match wdl {
            Wdl::Win => "a win",
            Wdl::CursedWin => "a win the fifty-move rule draws",
            Wdl::Draw => "a draw",
            Wdl::BlessedLoss => "a loss the fifty-move rule draws",
            Wdl::Loss => "a loss",
        };
        Some(Decision {
            mv,
            score,
            mate: mates.then_some(1),
            depth: 1,
            pv: vec![mv],
            reason: format!("tablebase: {result}, {} plies to a capture or pawn move", dtz.abs()),
            nodes: 0,
            multipv: 0,
            tbhits: 1,
        })
    }
}

/// Ends the helper threads when dropped.
struct Halt<'a>(&'a AtomicBool);

impl Drop for Halt<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// One search from the root: what it is given, the same for every iteration.
struct Search<'a> {
    pos: &'a Position,
    legal: &'a [Move],
    limits: &'a SearchLimits,
    max_depth: i32,
    start: Instant,
    stop: Option<&'a StopSignal>,
    /// Where the main thread tells the helpers its iteration, when there are any.
    main_depth: Option<&'a AtomicI32>,
}

impl Search<'_> {
    /// The main thread's iterative deepening: each completed depth reported, and the move.
    fn deepen(&self, tree: &mut Tree, progress: &mut dyn FnMut(&Decision)) -> Option<Decision> {
        let (pos, legal, limits, start) = (self.pos, self.legal, self.limits, self.start);
        // MultiPV: how many lines each iteration reports, each tagged with its rank.
        let lines = (limits.lines.max(1) as usize).min(legal.len());
        let rank = |k: usize| if lines > 1 { k as u32 } else { 0 };
        let mut best: Option<(Move, i32, Vec<Move>, i32)> = None;
        let mut clock = TimeUse::default();
        for depth in 1..=self.max_depth {
            // A stop is seen between depths too, however small the tree (the tree looks only
            // every so many nodes): a mate under analysis, for one, takes a few nodes a depth.
            if depth > 1 && self.stop.is_some_and(StopSignal::is_raised) {
                break;
            }
            tree.must_finish = depth == 1;
            if let Some(main_depth) = self.main_depth {
                main_depth.store(depth, Ordering::Relaxed);
            }
            let previous = best.as_ref().map(|b| b.1);
            let Some(score) = iterate(tree, pos, depth, previous) else {
                // The last iteration's best is searched first: a move that raised alpha after
                // it in the cut iteration beat it, with the score its finished search gave
                // (the stopped search's own result means nothing).
                if let Some((mv, found)) = tree.root_best
                    && best.as_ref().is_some_and(|b| b.0 != mv)
                {
                    best = Some((mv, found, tree.root_pv(), depth - 1));
                }
                break;
            };
            let pv = tree.root_pv();
            let mv = pv.first().copied().unwrap_or(legal[0]);
            let pv = if pv.is_empty() { vec![mv] } else { pv };
            clock.iteration(mv, score, tree.root_share(mv));
            best = Some((mv, score, pv.clone(), depth));
            progress(&decision(tree, mv, score, pv, depth, start, rank(1)));
            if lines > 1 && !self.next_lines(tree, mv, depth, lines, progress) {
                break;
            }

            // `go mate N`: a mate in N or fewer found is what was asked.
            if limits.mate.is_some_and(|n| score >= MATE_BOUND && (MATE - score + 1) / 2 <= n as i32) {
                break;
            }
            if limits.infinite {
                continue;
            }
            if legal.len() == 1 && limits.depth.is_none() && limits.nodes.is_none() {
                break;
            }
            // A mate found within the depth searched will not get nearer.
            if score.abs() >= MATE_BOUND && MATE - score.abs() <= depth {
                break;
            }
            // A fixed time a move (`st`, `movetime`) is spent whole: the hard limit ends it.
            if let Some(soft) = limits.soft_time.filter(|&soft| limits.hard_time.is_none_or(|hard| soft < hard)) {
                let aim = soft.mul_f64(clock.factor(&tree.params, depth));
                let aim = limits.hard_time.map_or(aim, |hard| aim.min(hard));
                // The next depth takes a few times this one: one begun past about half the aim
                // would most likely be cut off unfinished.
                if start.elapsed() >= aim.mul_f64(f64::from(tree.params.time_next_iteration) / 100.0) {
                    break;
                }
            }
        }
        tree.must_finish = false;
        let (mv, score, pv, depth) = best?;
        Some(decision(tree, mv, score, pv, depth, start, rank(1)))
    }

    /// MultiPV: after an iteration's best line, the next best ones down to rank `lines`, each
    /// searched at the same depth over the root moves not yet shown, and reported as found.
    /// False when the budget ran out part way (the iteration's best move stands).
    fn next_lines(
        &self,
        tree: &mut Tree,
        best: Move,
        depth: i32,
        lines: usize,
        progress: &mut dyn FnMut(&Decision),
    ) -> bool {
        let asked = std::mem::take(&mut tree.root_moves);
        let mut shown = vec![best];
        let mut complete = true;
        for rank in 2..=lines {
            let rest: Vec<Move> = self.legal.iter().copied().filter(|m| !shown.contains(m)).collect();
            if rest.is_empty() {
                break;
            }
            tree.root_moves = rest;
            let score = tree.search(self.pos, depth, -INFINITY, INFINITY, 0);
            if tree.aborted() {
                complete = false;
                break;
            }
            let pv = tree.root_pv();
            let Some(&mv) = pv.first() else { break };
            shown.push(mv);
            progress(&decision(tree, mv, score, pv, depth, self.start, rank as u32));
        }
        tree.root_moves = asked;
        complete
    }
}

/// How much of its aim a move spends, as the iterations tell: more while the best move keeps
/// changing, while the score falls, and while the best move takes a small share of the
/// nodes (the others are close); less when all three say the choice is settled.
#[derive(Default)]
struct TimeUse {
    /// The best move of the last iteration, and how many iterations in a row it stayed.
    last: Option<Move>,
    stable: i32,
    /// The scores of the iterations so far.
    scores: Vec<i32>,
    /// The last iteration's best move's share of the root's nodes.
    share: f64,
}

impl TimeUse {
    fn iteration(&mut self, mv: Move, score: i32, share: f64) {
        self.stable = if self.last == Some(mv) { self.stable + 1 } else { 0 };
        self.last = Some(mv);
        self.scores.push(score);
        self.share = share;
    }

    /// The aim's multiple after the iteration at `depth`.
    fn factor(&self, p: &params::Params, depth: i32) -> f64 {
        if depth < 4 {
            return 1.0;
        }
        let stability = 1.0 + f64::from(p.time_stability) / 100.0 * f64::from(4 - self.stable.min(8));
        let n = self.scores.len();
        let fall = match (self.scores.get(n.saturating_sub(4)), self.scores.last()) {
            (Some(&then), Some(&now)) if then.abs() < MATE_BOUND && now.abs() < MATE_BOUND => then - now,
            _ => 0,
        };
        let falling = (1.0 + f64::from(fall * p.time_score_fall) / 100.0).clamp(0.8, 1.6);
        let spread = (f64::from(p.time_node_share) / 100.0 * (1.0 - self.share) + 0.5).max(0.5);
        (stability * falling * spread).clamp(0.4, 3.0)
    }
}

/// One iteration at `depth`, in a window around the last one's score that widens until the
/// score falls inside it; None when the budget ran out first. After a fail high the search
/// goes on a ply shallower (the move that failed high is most likely the best, and a shallower
/// search proves it sooner); after a fail low, at the full depth again.
fn iterate(tree: &mut Tree, pos: &Position, depth: i32, previous: Option<i32>) -> Option<i32> {
    let p = tree.params;
    let mut widen = p.aspiration_window;
    let (mut alpha, mut beta) = match previous {
        Some(s) if depth >= p.aspiration_depth && s.abs() < MATE_BOUND => (s - widen, s + widen),
        _ => (-INFINITY, INFINITY),
    };
    let mut searched = depth;
    loop {
        let score = tree.search(pos, searched, alpha, beta, 0);
        if tree.aborted() {
            return None;
        }
        if score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (score - widen).max(-INFINITY);
            searched = depth;
        } else if score >= beta {
            beta = (score + widen).min(INFINITY);
            if score.abs() < MATE_BOUND {
                searched = (searched - 1).max(depth - 3).max(1);
            }
        } else {
            return Some(score);
        }
        widen += widen * (p.aspiration_growth - 16) / 16;
        if widen > 1_000 {
            (alpha, beta) = (-INFINITY, INFINITY);
        }
    }
}

/// A helper thread's search: iterative deepening from the root like the main thread's, each
/// iteration at least `AHEAD` deeper than the main thread's under way, so that the threads do
/// not walk the same tree in step, until the main thread has decided. Its results reach the
/// main thread through the table only.
fn help(tree: &mut Tree, pos: &Position, id: usize, max_depth: i32, main_depth: &AtomicI32) {
    let mut previous = None;
    let mut depth = (id % 2) as i32;
    while depth < max_depth {
        depth = (depth + 1).max(main_depth.load(Ordering::Relaxed) + AHEAD).min(max_depth);
        match iterate(tree, pos, depth, previous) {
            Some(score) => previous = Some(score),
            None => return,
        }
    }
}

/// How the tree's scores count mates.
const MATES: MateScores = MateScores { mate: MATE, least: MATE_BOUND };

fn decision(tree: &Tree, mv: Move, score: i32, pv: Vec<Move>, depth: i32, start: Instant, multipv: u32) -> Decision {
    let (mate, shown) = MATES.reported(score);
    let nodes = tree.all_nodes();
    let elapsed = start.elapsed();
    let reason = match mate {
        Some(n) if n > 0 => format!("mate in {n} (depth {depth})"),
        Some(n) => format!("mated in {} (depth {depth})", -n),
        None => format!("score {score:+} at depth {depth}, {nodes} nodes in {}", millis(elapsed)),
    };
    let tbhits = tree.tbhits();
    Decision { mv, score: shown, mate, depth: depth as u32, pv, reason, nodes, multipv, tbhits }
}

fn millis(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}

impl Player for Level10 {
    fn name(&self) -> String {
        let name = match self.features.as_level() {
            Some(n) => format!("AgentChess level {n}"),
            None => format!("AgentChess features {}", self.features),
        };
        match self.nodes_per_move {
            Some(n) => format!("{name}, {n} nodes a move"),
            None => name,
        }
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        self.think(game, &SearchLimits::default(), &mut |_| {})
    }

    fn decide_within(&mut self, game: &Game, limits: &SearchLimits) -> Option<Decision> {
        self.think(game, limits, &mut |_| {})
    }

    fn decide_reporting(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        progress: &mut dyn FnMut(&Decision),
    ) -> Option<Decision> {
        self.think(game, limits, progress)
    }

    fn new_game(&mut self) {
        // The helpers let go of the table first, for the main tree to empty the one table
        // they all share (they are made again, sharing it, at the next search).
        self.helpers.clear();
        self.tree.new_game();
    }

    fn set_seed(&mut self, seed: u64) {
        self.salt = seed;
    }

    fn set_table_mb(&mut self, mb: usize) -> Option<usize> {
        Some(Level10::set_table_mb(self, mb))
    }

    fn ponders(&self) -> bool {
        true
    }

    fn set_threads(&mut self, n: usize) -> Option<usize> {
        Some(Level10::set_threads(self, n))
    }

    fn set_tablebase(&mut self, tables: Option<TablebaseUse>) {
        for helper in &mut self.helpers {
            helper.tablebase = None;
        }
        self.tree.tablebase = tables;
    }

    fn watch_stop(&mut self, signal: StopSignal) {
        self.stop = Some(signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn level10() -> Level10 {
        Level10::new(Features::level(10).unwrap(), 1, 1)
    }

    fn best(fen: &str, nodes: u64) -> Decision {
        let game = Game::new(Position::from_fen(fen).unwrap());
        let limits = SearchLimits { nodes: Some(nodes), ..SearchLimits::default() };
        level10().decide_within(&game, &limits).expect("a legal move")
    }

    /// Mates in three whose first move is quiet (no check, no capture): WAC 191 and 203.
    #[test]
    fn finds_a_mate_in_three_that_begins_with_a_quiet_move() {
        for (fen, first) in [
            ("2r1Rn1k/1p1q2pp/p7/5p2/3P4/1B4P1/P1P1QP1P/6K1 w - - 0 1", "e2c4"),
            ("r4rk1/5ppp/p3q1n1/2p2NQ1/4n3/P3P3/1B3PPP/1R3RK1 w - - 0 1", "g5h6"),
        ] {
            let d = best(fen, 2_000_000);
            assert_eq!((d.mv.to_string().as_str(), d.mate), (first, Some(3)), "{fen}: {d:?}");
        }
    }

    /// Level 9 plays Rd4, which loses to a quiet reply two plies later: ...Qe5 lines up with the
    /// bishop on h2 and the king. Level 10 sees the reply and takes the bishop instead.
    #[test]
    fn avoids_the_move_level9_loses_to_a_quiet_reply() {
        let fen = "5rk1/3r1p1p/3b2pQ/8/4q3/4B2P/3R1PP1/4R1K1 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let level9: crate::players::spec::PlayerSpec = "level:9".parse().unwrap();
        let nine = level9.build(1).decide(&Game::new(pos)).expect("a move").mv;
        assert_eq!(nine.to_string(), "d2d4", "the position no longer shows what it is for");
        let ten = best(fen, 100_000);
        assert_ne!(ten.mv, nine, "{ten:?}");
        // Its own move is worth at least two pawns more to White than level 9's, by its answer
        // to that move.
        let after = pos.play(nine);
        let reply = level10()
            .decide_within(&Game::new(after), &SearchLimits { nodes: Some(100_000), ..SearchLimits::default() })
            .unwrap();
        assert!(ten.score + reply.score >= 200, "level 10's move {ten:?} against the reply {reply:?}");
    }

    /// Each part of the tree follows its own feature: level 10 has every part but
    /// `agent-pruning`, `agent-reductions` and `threat-guard` (which `level10,X` adds), and
    /// `level10,-X` turns off part X alone.
    #[test]
    fn each_part_follows_its_feature() {
        let parts = |list: &str| Level10::new(Features::parse(list).unwrap(), 1, 1).tree.parts;
        let full = parts("level10");
        assert!(!full.agent_pruning && !full.agent_reductions && !full.threat_guard);
        let with = parts("level10,agent-reductions");
        assert!(with.agent_reductions);
        assert_eq!(Parts { agent_reductions: false, ..with }, full);
        let guarded = parts("level10,threat-guard");
        assert!(guarded.threat_guard);
        assert_eq!(Parts { threat_guard: false, ..guarded }, full);
        type Field = fn(&mut Parts) -> &mut bool;
        let off: [(&str, Field); 6] = [
            ("agent-selection", |p| &mut p.agent_selection),
            ("agent-leaves", |p| &mut p.agent_leaves),
            ("quiescence", |p| &mut p.quiescence),
            ("leaf-checks", |p| &mut p.leaf_checks),
            ("transposition", |p| &mut p.transposition),
            ("null-move", |p| &mut p.null_move),
        ];
        for (name, field) in off {
            let mut expected = full;
            assert!(*field(&mut expected), "level 10 has {name}");
            *field(&mut expected) = false;
            assert_eq!(parts(&format!("level10,-{name}")), expected, "{name}");
        }
    }

    /// The table is as large as asked (XBoard `memory`, UCI `Hash`), through the player too.
    #[test]
    fn the_table_follows_the_size_asked() {
        let mut player = level10();
        assert_eq!(player.table_bytes(), 1 << 20);
        Player::set_table_mb(&mut player, 24);
        assert_eq!(player.table_bytes(), 24 << 20);
        assert_eq!(Level10::new(Features::level(10).unwrap(), 1, DEFAULT_MB).table_bytes(), DEFAULT_MB << 20);
    }

    /// An iteration cut off by the budget keeps a root move that beat the last iteration's best
    /// with the score it got, never the 0 a stopped search returns: White is a piece or more
    /// down whatever it plays, at every budget.
    #[test]
    fn a_cut_iteration_reports_the_score_found() {
        for fen in [
            "r1b1k2r/ppp2ppp/2n2n2/3p4/3P4/2N2N2/PPP2PPP/R1B1K3 w Qkq - 0 1",
            "r2qk2r/pp3ppp/2n1bn2/2bpp3/4P3/2NP1N2/PPP2PPP/R1BQKB2 w Qkq - 0 1",
            "2r3k1/pp3ppp/2n1b3/3p4/3P4/2P1B3/PP3PPP/5RK1 w - - 0 1",
        ] {
            for nodes in (1..=60).map(|i| 150 * i) {
                let d = best(fen, nodes);
                assert!(d.score < -100, "{nodes} nodes: {d:?}");
            }
        }
    }

    /// The aim grows while the best move changes, while the score falls, and while the other
    /// root moves take many of the nodes; it shrinks when all three say the move is settled.
    #[test]
    fn the_aim_follows_how_settled_the_choice_is() {
        let p = params::Params::default();
        let (a, b) = (Move::from_raw(0x0421), Move::from_raw(0x0862));
        let run = |moves: &[Move], scores: &[i32], share: f64| {
            let mut clock = TimeUse::default();
            for (&mv, &score) in moves.iter().zip(scores) {
                clock.iteration(mv, score, share);
            }
            clock.factor(&p, moves.len() as i32)
        };
        let settled = run(&[a; 10], &[20; 10], 0.9);
        let changing = run(&[a, b, a, b, a, b, a, b, a, b], &[20; 10], 0.9);
        let falling = run(&[a; 10], &[80, 80, 80, 80, 80, 80, 80, 60, 40, 20], 0.9);
        let spread = run(&[a; 10], &[20; 10], 0.3);
        assert!(settled < 1.0, "{settled}");
        assert!(changing > settled && falling > settled && spread > settled, "{changing} {falling} {spread}");
        assert_eq!(run(&[a, b, a], &[0, 50, -50], 0.1), 1.0, "below depth 4 the aim stands");
    }

    #[test]
    fn takes_a_free_queen() {
        let d = best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 20_000);
        assert_eq!(d.mv.to_string(), "d2d5");
    }

    /// On four threads the node budget is the threads' together, the nodes reported are all
    /// of theirs, and the move is as good: the helpers share the table, not the decision.
    #[test]
    fn threads_share_the_node_budget_and_find_the_same_mates() {
        let mut player = level10();
        assert_eq!(player.set_threads(4), 4);
        for (fen, first) in [
            ("2r1Rn1k/1p1q2pp/p7/5p2/3P4/1B4P1/P1P1QP1P/6K1 w - - 0 1", "e2c4"),
            ("r4rk1/5ppp/p3q1n1/2p2NQ1/4n3/P3P3/1B3PPP/1R3RK1 w - - 0 1", "g5h6"),
        ] {
            let game = Game::new(Position::from_fen(fen).unwrap());
            let d = player
                .decide_within(&game, &SearchLimits { nodes: Some(2_000_000), ..SearchLimits::default() })
                .unwrap();
            assert_eq!((d.mv.to_string().as_str(), d.mate), (first, Some(3)), "{fen}: {d:?}");
        }
        let game = Game::new(
            Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap(),
        );
        for nodes in [5_000, 50_000, 300_000] {
            let d =
                player.decide_within(&game, &SearchLimits { nodes: Some(nodes), ..SearchLimits::default() }).unwrap();
            // Each thread looks at the budget every 256 nodes of its own.
            assert!(d.nodes >= nodes && d.nodes <= nodes + 4 * 256, "{nodes} asked, {} searched", d.nodes);
        }
    }

    /// On two threads `tbhits` is every thread's probes: the helper's count with the main
    /// tree's (a five-piece position whose captures lead into the four-piece tables).
    #[test]
    fn tbhits_count_every_threads_probes() {
        let tables = crate::board::syzygy::Tablebase::open("tests/data/syzygy").unwrap();
        let mut player = level10();
        assert_eq!(player.set_threads(2), 2);
        player.set_tablebase(Some(TablebaseUse::new(tables, 1, 7)));
        let game = Game::new(Position::from_fen("8/8/8/3k4/8/8/1n6/KQ1r4 w - - 0 1").unwrap());
        let d =
            player.decide_within(&game, &SearchLimits { nodes: Some(1_000_000), ..SearchLimits::default() }).unwrap();
        let (main, helper) = (player.tree.stats.tbhits, player.helpers[0].stats.tbhits);
        // The decision is made while the helper still runs: it counts on until it is halted.
        assert!(main > 0 && helper > 0, "main {main}, helper {helper}");
        assert!(d.tbhits > main && d.tbhits <= main + helper, "{} of main {main}, helper {helper}", d.tbhits);
    }
}

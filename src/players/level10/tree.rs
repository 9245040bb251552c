//! Level 10's tree: the agents' proposals searched ahead with alpha-beta.
//!
//! A principal-variation search (negamax alpha-beta; moves after the first are tried with a
//! null window and searched again only when they beat it), extended by a ply when in check,
//! with quiescence at its leaves. Around it, each a named part that can be switched off
//! (`Parts`): the agents' selection of the moves tried (`order`), their judgement of the leaves
//! (`agents::judge`), the quiescence, the transposition table (`table`), and null-move
//! pruning. Positions that repeat one on the path or in the game, the fifty-move rule and
//! material that cannot mate are draws inside the tree, as in the game; mates are scored by
//! their distance, so that the nearest is preferred.
//!
//! This file holds the tree's state and what every node asks of it (the budget, the draws, the
//! principal variation, the judgement); `node.rs` searches a node step by step, `quiesce.rs`
//! the leaves, with the margins and depths of `params.rs`.

use super::history::{Context, History, PieceTo};
use super::order::Selection;
use super::params::Params;
use super::table::{Bound, Table};
use crate::agents;
use crate::agents::judgement::{KnownThreat, S, Style};
use crate::board::syzygy::Wdl;
use crate::board::{Move, Position};
use crate::players::TablebaseUse;
use crate::players::budget::{Budget, Spending};
use crate::players::pv::PvTable;
use crate::players::repetition;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The deepest the tree goes, quiescence and extensions included.
pub const MAX_PLY: usize = 120;
/// A mate now; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const INFINITY: i32 = MATE + 1;
/// A win the endgame tables know of, at the root; `TB_WIN - n` at `n` plies from it. Above
/// any judgement, below every mate (the tables tell a win, not its distance to mate).
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;
/// Scores beyond this are the tables' wins or mates.
const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Which of level 10's parts are on (its features, `--features level10,-part`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    /// The agents are asked at the nodes far from the leaves (`order::POLL_DEPTH`) and their
    /// proposals tried first among quiet moves.
    pub agent_selection: bool,
    /// Quiet moves the agents did not propose are searched a ply shallower, and not at all
    /// near the leaves.
    pub agent_pruning: bool,
    /// Late quiet moves reduced by what the agents know: less for a proposed move or one that
    /// takes the worst threatened piece away, more for one the exchange estimate loses.
    pub agent_reductions: bool,
    /// No null move or cut on the static judgement while a piece of the side to move hangs.
    pub threat_guard: bool,
    /// Leaves judged by the agents, each of its own piece. Off: by the conventional judgement
    /// with piece-square tables.
    pub agent_leaves: bool,
    /// Captures the agents' exchange estimate does not lose are played out at the leaves.
    pub quiescence: bool,
    /// The first ply of the leaves also tries the quiet checks that keep the checking piece.
    pub leaf_checks: bool,
    /// The transposition table.
    pub transposition: bool,
    /// A side that stays ahead after passing its move is not searched further (null move).
    pub null_move: bool,
}

/// How often the tree looks at the clock and the flags, in nodes.
const CHECK_EVERY: u64 = 256;

/// What the tree did, counted over a search: the tests read it to see that a technique acts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Null-move searches begun.
    pub null_tries: u64,
    /// Null-move searches begun right after a null move (which would only repeat the position
    /// two plies up: never, since the double null was fixed).
    pub null_after_null: u64,
    /// Searches of the other moves to see whether the table's move is singular, and how they
    /// ended: the table's move extended (once or twice), or the node cut (multi-cut).
    pub singular_tries: u64,
    pub singular_extensions: u64,
    pub double_extensions: u64,
    pub multicuts: u64,
    /// Endgame table probes that answered.
    pub tbhits: u64,
}

/// What the tree keeps of each ply of the line it is searching.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    /// The static judgement (`-INFINITY` in check).
    pub eval: i32,
    /// Quiet moves that caused a cut-off at this ply (two per ply).
    pub killers: [Move; 2],
    /// The move played from this ply's node to the next (`Move::NULL` for a null move).
    pub played: Move,
    /// The piece it moved and where to (`PieceTo::NONE` for a null move).
    pub moved: PieceTo,
    /// A move this ply's node leaves out: the table's move while the others are searched to
    /// see whether it is singular (`Move::NULL`: none).
    pub excluded: Move,
    /// Double extensions on the line down to this ply.
    pub doubles: u8,
    /// What the pieces' material and squares of this ply's position weigh in the judgement:
    /// the agents' knowledge of their own squares, kept move by move (`Placement::after`).
    pub placed: S,
}

impl Frame {
    const EMPTY: Frame = Frame {
        eval: -INFINITY,
        killers: [Move::NULL; 2],
        played: Move::NULL,
        moved: PieceTo::NONE,
        excluded: Move::NULL,
        doubles: 0,
        placed: S(0, 0),
    };
}

pub struct Tree {
    pub parts: Parts,
    /// The margins, depths and reductions the search uses (`params.rs`).
    pub params: Params,
    pub table: Arc<Table>,
    pub nodes: u64,
    /// The budget as this tree spends it: once it ran out, every score is thrown away.
    spending: Spending,
    /// Depth 1 is finished whatever the budget says, so that there always is a move.
    pub must_finish: bool,
    /// Hashes of the game's positions and the current path's, for repetitions.
    pub(super) path: Vec<u64>,
    /// Where the root stands in `path`: positions before it are the game's.
    root_index: usize,
    /// The line being searched, ply by ply.
    pub(super) stack: Box<[Frame; MAX_PLY + 1]>,
    /// Which moves ended nodes before.
    pub(super) history: History,
    /// The principal variation found below each ply.
    pub(super) pv: PvTable<MAX_PLY>,
    pub selection: Selection,
    /// `variety` at a chosen strength, in the opening: the game's salt, which moves every
    /// leaf's judgement by a few centipawns (`agents::variety::leaf_offset`).
    pub variety: Option<u64>,
    /// The root moves to search (UCI `go searchmoves`); empty means every move.
    pub root_moves: Vec<Move>,
    /// The root move that last raised alpha in the current search from the root, with its
    /// score: what an iteration cut off by the budget found (its search below was finished).
    pub root_best: Option<(Move, i32)>,
    /// The agents' judgement of the leaves, with what it remembers between them.
    judgement: agents::Judge,
    /// The nodes searched below each root move (by its two squares) in this search.
    root_nodes: Box<[u64; 64 * 64]>,
    pub stats: Stats,
    /// Syzygy tables to probe inside the tree, if any.
    pub tablebase: Option<TablebaseUse>,
    /// Table probes that answered in this search, by every thread: a helper counts into the
    /// main tree's (`share_tbhits`), so that `tbhits` is the search's, not one thread's.
    tbhits: Arc<AtomicU64>,
}

impl Tree {
    pub fn new(parts: Parts, agents: crate::agents::MasterAgent, table_mb: usize) -> Tree {
        Tree::sharing(parts, agents, Arc::new(Table::new(table_mb)))
    }

    /// A tree reading and writing `table`, which other trees (search threads) may share.
    pub fn sharing(parts: Parts, agents: crate::agents::MasterAgent, table: Arc<Table>) -> Tree {
        Tree {
            parts,
            params: Params::default(),
            table,
            nodes: 0,
            spending: Spending::new(CHECK_EVERY),
            must_finish: false,
            path: Vec::new(),
            root_index: 0,
            stack: Box::new([Frame::EMPTY; MAX_PLY + 1]),
            history: History::new(),
            pv: PvTable::new(),
            selection: Selection::new(parts.agent_selection.then_some(agents)),
            variety: None,
            root_moves: Vec::new(),
            root_best: None,
            judgement: agents::Judge::new(if parts.agent_leaves { Style::Agents } else { Style::Tables }),
            root_nodes: Box::new([0; 64 * 64]),
            stats: Stats::default(),
            tablebase: None,
            tbhits: Arc::new(AtomicU64::new(0)),
        }
    }

    /// A new search from a game whose positions hash to `history` (the current one last).
    pub fn start(&mut self, history: Vec<u64>, budget: Budget) {
        self.join(history, budget);
        self.table.next_search();
        self.tbhits = Arc::new(AtomicU64::new(0));
    }

    /// A helper thread's probes counted with `main`'s, for the search `main` began.
    pub fn share_tbhits(&mut self, main: &Tree) {
        self.tbhits = Arc::clone(&main.tbhits);
    }

    /// The table probes that answered in this search, every thread's.
    pub fn tbhits(&self) -> u64 {
        self.tbhits.load(Ordering::Relaxed)
    }

    /// The same for a helper thread, joining the search the main thread's `start` began.
    pub fn join(&mut self, history: Vec<u64>, budget: Budget) {
        self.root_index = history.len().saturating_sub(1);
        self.path = history;
        self.spending.start(budget);
        self.nodes = 0;
        *self.stack = [Frame::EMPTY; MAX_PLY + 1];
        self.history.age();
        self.stats = Stats::default();
        self.root_nodes.fill(0);
    }

    /// The nodes searched below `mv` at the root, counted as it is searched.
    #[inline]
    pub(super) fn count_root_nodes(&mut self, mv: Move, nodes: u64) {
        self.root_nodes[mv.from().index() * 64 + mv.to().index()] += nodes;
    }

    /// The share of this search's nodes spent below the root move `mv`.
    pub fn root_share(&self, mv: Move) -> f64 {
        let below = self.root_nodes[mv.from().index() * 64 + mv.to().index()];
        below as f64 / self.nodes.max(1) as f64
    }

    /// The nodes searched so far by this tree and, in a search on several threads, the others.
    pub fn all_nodes(&self) -> u64 {
        self.spending.all_nodes(self.nodes)
    }

    /// The principal variation of the last search from the root.
    pub fn root_pv(&self) -> Vec<Move> {
        self.pv.line(0).to_vec()
    }

    /// Forgets the game. The table is emptied only by its one owner (no helper thread holds
    /// it now); otherwise this tree takes a new one of the same size.
    pub fn new_game(&mut self) {
        match Arc::get_mut(&mut self.table) {
            Some(table) => table.clear(),
            None => self.table = Arc::new(Table::new(self.table.bytes() >> 20)),
        }
        self.history.clear();
    }

    /// True once the search must give up: the budget ran out (past depth 1) or it was told to
    /// stop. Looks at the clock and the flags every `CHECK_EVERY` nodes.
    #[inline]
    pub(super) fn out_of_budget(&mut self) -> bool {
        self.spending.spent(self.nodes) && !self.must_finish
    }

    /// The search was stopped and what it returns now means nothing.
    #[inline]
    pub(super) fn aborted(&self) -> bool {
        self.spending.stopped() && !self.must_finish
    }

    /// The leaf judgement of `pos`, at `ply`, from the side to move.
    #[inline]
    pub(super) fn judge(&mut self, pos: &Position, ply: usize) -> i32 {
        self.judge_with_threat(pos, ply).0
    }

    /// `judge`, and the worst threat on the side to move where the judgement worked it out.
    #[inline]
    pub(super) fn judge_with_threat(&mut self, pos: &Position, ply: usize) -> (i32, KnownThreat) {
        let (judged, threat) = self.judgement.judge_placed(pos, Some(self.stack[ply].placed));
        match self.variety {
            Some(salt) => (judged + agents::variety::leaf_offset(salt, pos.hash()), threat),
            None => (judged, threat),
        }
    }

    /// Draws the tree knows without looking at moves: the fifty-move rule, material that
    /// cannot mate, and a repetition within the fifty-move window: of a position met on the
    /// searched line (from the root on), where either side could repeat it again, or met twice
    /// in the game before, where this would be the third time.
    pub(super) fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 || pos.is_insufficient_material() {
            return true;
        }
        let mut before_root = 0;
        for i in repetition::earlier(&self.path, pos) {
            if i >= self.root_index {
                return true;
            }
            before_root += 1;
        }
        before_root >= 2
    }

    /// Steps onto the position `next` reached by `mv` from `pos` at `ply` (a null move is
    /// `Move::NULL`): its key joins the path, the move the line, and the table is asked for its
    /// bucket ahead of the probe.
    #[inline]
    pub(super) fn enter(&mut self, pos: &Position, next: &Position, mv: Move, ply: usize) {
        if self.parts.transposition {
            self.table.prefetch(next.hash());
        }
        self.path.push(next.hash());
        let placed = self.stack[ply].placed;
        self.stack[ply + 1].placed =
            if mv == Move::NULL { placed } else { self.judgement.placement().after(pos, mv, placed) };
        let frame = &mut self.stack[ply];
        frame.played = mv;
        frame.moved = if mv == Move::NULL { PieceTo::NONE } else { PieceTo::of(pos, mv) };
    }

    /// Sets up the root's frame: what its pieces' material and squares weigh.
    pub(super) fn enter_root(&mut self, pos: &Position) {
        self.place(pos, 0);
    }

    /// Sets what the pieces' material and squares weigh at `ply` from `pos` itself (the root's,
    /// or a position a test starts from at a ply of its choice).
    pub(super) fn place(&mut self, pos: &Position, ply: usize) {
        self.stack[ply].placed = self.judgement.placement().sum(pos);
    }

    /// The moves one and two plies before the node at `ply`, which its quiet moves answer.
    #[inline]
    pub(super) fn context(&self, ply: usize) -> Context {
        let back = |n: usize| if ply >= n { self.stack[ply - n].moved } else { PieceTo::NONE };
        Context { before: [back(1), back(2)] }
    }

    /// Steps back from the position `enter` stepped onto.
    #[inline]
    pub(super) fn leave(&mut self) {
        self.path.pop();
    }
}

/// The score of a drawn position (`Tree::is_draw`): a mate given on the fiftieth move still
/// counts as a mate.
impl Tree {
    /// The endgame tables' score of a node `ply` plies from the root with `depth` left to
    /// search: probed just after a capture or a pawn move (the tables count the fifty-move
    /// rule from there), with no castling right, within the piece limit (at the limit itself
    /// only from the probe depth on). Cursed wins and blessed losses are draws a pawn's hair
    /// from zero.
    pub(super) fn probe_tablebase(&mut self, pos: &Position, depth: i32, ply: usize) -> Option<i32> {
        let tb = self.tablebase.as_ref()?;
        let pieces = pos.occupied().count();
        if pieces > tb.pieces
            || (pieces == tb.pieces && depth < tb.probe_depth as i32)
            || pos.halfmove_clock() != 0
            || pos.castling().0 != 0
        {
            return None;
        }
        let wdl = tb.tables.probe_wdl(pos)?;
        self.stats.tbhits += 1;
        self.tbhits.fetch_add(1, Ordering::Relaxed);
        Some(match wdl {
            Wdl::Win => TB_WIN - ply as i32,
            Wdl::CursedWin => 1,
            Wdl::Draw => 0,
            Wdl::BlessedLoss => -1,
            Wdl::Loss => -TB_WIN + ply as i32,
        })
    }
}

pub(super) fn draw_score(pos: &Position, ply: usize) -> i32 {
    if pos.halfmove_clock() >= 100 && pos.is_checkmate() { -MATE + ply as i32 } else { 0 }
}

/// Mate scores, and the endgame tables' wins and losses, are kept in the table counted from
/// the node that stores them.
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_table(score: i32, ply: usize) -> i32 {
    if score >= TB_BOUND {
        score - ply as i32
    } else if score <= -TB_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Whether a stored `score` with `bound` settles a window (`alpha`, `beta`).
#[inline]
pub(super) fn settles(score: i32, bound: Bound, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    #[test]
    fn mate_scores_travel_through_the_table_by_distance() {
        // Mate in 5 plies from the root, stored at ply 2: 3 plies from there.
        let stored = to_table(MATE - 5, 2);
        assert_eq!(stored, MATE - 3);
        assert_eq!(from_table(stored, 4), MATE - 7);
        assert_eq!(from_table(to_table(-MATE + 6, 1), 1), -MATE + 6);
        assert_eq!(from_table(to_table(123, 9), 3), 123);
    }

    /// A tree with the agents' judgement at its leaves and none of their move signals, with or
    /// without the table and the null move.
    pub fn plain_tree(table_and_null_move: bool) -> Tree {
        let parts = Parts {
            agent_selection: false,
            agent_pruning: false,
            agent_reductions: false,
            threat_guard: false,
            agent_leaves: true,
            quiescence: true,
            leaf_checks: true,
            transposition: table_and_null_move,
            null_move: table_and_null_move,
        };
        let agents = crate::agents::MasterAgent::new(crate::agents::Features::level(9).unwrap(), 1);
        Tree::new(parts, agents, 1)
    }

    /// A position met once in the game before the root is no draw when the line comes back to
    /// it (the game goes on); met on the line itself, or twice before, it is.
    #[test]
    fn repetitions_count_within_the_line_or_three_times() {
        let mut tree = plain_tree(true);
        let start = Position::from_fen("6k1/8/8/8/8/8/5Q2/6K1 w - - 20 40").unwrap();
        let line = ["g1h1", "g8h8", "h1g1", "h8g8"];
        let mut positions = vec![start];
        for mv in line {
            let last = *positions.last().unwrap();
            positions.push(last.play(last.parse_uci(mv).unwrap()));
        }
        let hashes: Vec<u64> = positions.iter().map(|p| p.hash()).collect();
        assert_eq!(hashes[0], hashes[4]);
        // The game is the start and Kh1: the root. The line Kh8 Kg1 Kg8 comes back to the
        // start, met once before the root.
        tree.start(hashes[..2].to_vec(), Budget::default());
        tree.path.extend(&hashes[2..5]);
        assert!(!tree.is_draw(&positions[4]), "once before the root is no draw");
        // The root is the start itself (game: start, Kh1, Kh8, Kg1, Kg8 would be the line).
        tree.start(hashes[..1].to_vec(), Budget::default());
        tree.path.extend(&hashes[1..5]);
        assert!(tree.is_draw(&positions[4]), "the line returns to the root");
        // The game met the start twice already; coming back makes three.
        let game: Vec<u64> = [&hashes[..4], &hashes[..2]].concat();
        tree.start(game, Budget::default());
        tree.path.extend(&hashes[2..5]);
        assert!(tree.is_draw(&positions[4]), "a third time");
    }

    #[test]
    fn a_stored_bound_settles_only_its_side_of_the_window() {
        assert!(settles(5, Bound::Exact, 10, 20));
        assert!(settles(25, Bound::Lower, 10, 20));
        assert!(!settles(15, Bound::Lower, 10, 20));
        assert!(settles(10, Bound::Upper, 10, 20));
        assert!(!settles(15, Bound::Upper, 10, 20));
    }
}

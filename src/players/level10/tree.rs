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

use super::history::{self, History};
use super::order::{Kind, Node, Picker, Scored, Selection};
use super::table::{Bound, Entry, Table};
use crate::agents;
use crate::agents::judgement::{KnownThreat, Style};
use crate::board::{Bitboard, Move, MoveKind, MoveList, Piece, Position, gives_check};
use crate::players::StopSignal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The deepest the tree goes, quiescence and extensions included.
pub const MAX_PLY: usize = 120;
/// A mate now; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const INFINITY: i32 = MATE + 1;

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

/// When the tree must stop: checked every `CHECK_EVERY` nodes.
#[derive(Clone, Default)]
pub struct Budget {
    pub deadline: Option<Instant>,
    pub nodes: Option<u64>,
    pub stop: Option<StopSignal>,
    /// With more than one search thread: the nodes all of them searched, each adding its own
    /// as it checks the budget, so that a node budget is the threads' together.
    pub shared_nodes: Option<Arc<AtomicU64>>,
    /// A helper thread's end: raised by the main thread once it has decided.
    pub halt: Option<Arc<AtomicBool>>,
}

const CHECK_EVERY: u64 = 256;

/// The quiet history score worth a ply less (or, below zero, more) of late-move reduction.
const HISTORY_PER_PLY: i32 = 2_000;

/// The plies a quiet move's history `score` takes off its late-move reduction (adds, below zero).
fn history_plies(score: i32) -> i32 {
    (score / HISTORY_PER_PLY).clamp(-2, 2)
}

/// Late-move reductions, in plies, by depth and by the number of moves tried before.
fn reduction(depth: i32, tried: usize) -> i32 {
    let (d, n) = (depth.max(1) as f32, tried.max(1) as f32);
    (0.75 + d.ln() * n.ln() / 2.25) as i32
}

/// Near the leaves, once this many moves are searched the other quiet ones are left out
/// (late-move pruning): more with depth, and twice as many when the line is going our way.
fn late_move_limit(depth: i32, improving: bool) -> Option<usize> {
    (depth <= 5).then(|| (3 + (depth * depth) as usize) * (1 + usize::from(improving)))
}

/// What pruning takes a node to be worth: its judgement, or the table's score where its bound
/// says the true score lies beyond the judgement on that side (a mate score is left to the search).
fn refined_eval(eval: i32, stored: Option<(i32, Bound)>) -> i32 {
    match stored {
        Some((score, bound)) if score.abs() < MATE_BOUND => match bound {
            Bound::Exact => score,
            Bound::Lower => eval.max(score),
            Bound::Upper => eval.min(score),
        },
        _ => eval,
    }
}

pub struct Tree {
    pub parts: Parts,
    pub table: Arc<Table>,
    pub nodes: u64,
    /// The nodes already added to the budget's shared count.
    published: u64,
    /// Set once the budget ran out: every score from then on is thrown away.
    pub stopped: bool,
    budget: Budget,
    next_check: u64,
    /// Depth 1 is finished whatever the budget says, so that there always is a move.
    pub must_finish: bool,
    /// Hashes of the game's positions and the current path's, for repetitions.
    path: Vec<u64>,
    /// Where the root stands in `path`: positions before it are the game's.
    root_index: usize,
    /// Quiet moves that caused a cut-off at each ply (two per ply).
    killers: [[Move; 2]; MAX_PLY],
    /// The static judgement at each ply of the current line (`-INFINITY` in check).
    evals: [i32; MAX_PLY],
    /// Which moves ended nodes before.
    history: History,
    /// The principal variation found below each ply.
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
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
}

impl Tree {
    pub fn new(parts: Parts, agents: crate::agents::MasterAgent, table_mb: usize) -> Tree {
        Tree::sharing(parts, agents, Arc::new(Table::new(table_mb)))
    }

    /// A tree reading and writing `table`, which other trees (search threads) may share.
    pub fn sharing(parts: Parts, agents: crate::agents::MasterAgent, table: Arc<Table>) -> Tree {
        Tree {
            parts,
            table,
            nodes: 0,
            published: 0,
            stopped: false,
            budget: Budget::default(),
            next_check: 0,
            must_finish: false,
            path: Vec::new(),
            root_index: 0,
            killers: [[Move::NULL; 2]; MAX_PLY],
            evals: [-INFINITY; MAX_PLY],
            history: History::new(),
            pv: Box::new([[Move::NULL; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            selection: Selection::new(parts.agent_selection.then_some(agents)),
            variety: None,
            root_moves: Vec::new(),
            root_best: None,
            judgement: agents::Judge::new(if parts.agent_leaves { Style::Agents } else { Style::Tables }),
        }
    }

    /// A new search from a game whose positions hash to `history` (the current one last).
    pub fn start(&mut self, history: Vec<u64>, budget: Budget) {
        self.join(history, budget);
        self.table.next_search();
    }

    /// The same for a helper thread, joining the search the main thread's `start` began.
    pub fn join(&mut self, history: Vec<u64>, budget: Budget) {
        self.root_index = history.len().saturating_sub(1);
        self.path = history;
        self.budget = budget;
        self.nodes = 0;
        self.published = 0;
        self.next_check = 0;
        self.stopped = false;
        self.killers = [[Move::NULL; 2]; MAX_PLY];
        self.history.age();
    }

    /// The nodes searched so far by this tree and, in a search on several threads, the others.
    pub fn all_nodes(&self) -> u64 {
        match &self.budget.shared_nodes {
            Some(shared) => shared.load(Ordering::Relaxed) + self.nodes - self.published,
            None => self.nodes,
        }
    }

    /// The principal variation of the last search from the root.
    pub fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
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

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return !self.must_finish;
        }
        if self.nodes >= self.next_check {
            let counted = match &self.budget.shared_nodes {
                Some(shared) => {
                    let all = shared.fetch_add(self.nodes - self.published, Ordering::Relaxed);
                    let all = all + self.nodes - self.published;
                    self.published = self.nodes;
                    all
                }
                None => self.nodes,
            };
            self.next_check = match self.budget.nodes {
                Some(n) => self.nodes + CHECK_EVERY.min(n.saturating_sub(counted)),
                None => self.nodes + CHECK_EVERY,
            };
            let late = self.budget.deadline.is_some_and(|d| Instant::now() >= d);
            let many = self.budget.nodes.is_some_and(|n| counted >= n);
            let told = self.budget.stop.as_ref().is_some_and(|s| s.is_raised())
                || self.budget.halt.as_ref().is_some_and(|h| h.load(Ordering::Relaxed));
            self.stopped = late || many || told;
        }
        self.stopped && !self.must_finish
    }

    /// The leaf judgement from the side to move.
    #[inline]
    fn judge(&mut self, pos: &Position) -> i32 {
        self.judge_with_threat(pos).0
    }

    /// `judge`, and the worst threat on the side to move where the judgement worked it out.
    #[inline]
    fn judge_with_threat(&mut self, pos: &Position) -> (i32, KnownThreat) {
        let (judged, threat) = self.judgement.judge_with_threat(pos);
        match self.variety {
            Some(salt) => (judged + agents::variety::leaf_offset(salt, pos.hash()), threat),
            None => (judged, threat),
        }
    }

    /// Draws the tree knows without looking at moves: the fifty-move rule, material that
    /// cannot mate, and a repetition within the fifty-move window: of a position met on the
    /// searched line (from the root on), where either side could repeat it again, or met twice
    /// in the game before, where this would be the third time.
    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 || pos.is_insufficient_material() {
            return true;
        }
        let key = pos.hash();
        let window = pos.halfmove_clock() as usize;
        let last = self.path.len() - 1;
        let mut before_root = 0;
        for back in (2..=window.min(last)).step_by(2) {
            if self.path[last - back] == key {
                if last - back >= self.root_index {
                    return true;
                }
                before_root += 1;
            }
        }
        before_root >= 2
    }

    fn set_pv(&mut self, ply: usize, mv: Move) {
        let below = self.pv_len[ply + 1].min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=below].copy_from_slice(&tail[0][..below]);
        self.pv_len[ply] = below + 1;
    }

    fn remember_cut(&mut self, pos: &Position, mv: Move, ply: usize, depth: i32, quiets: &[Move]) {
        let bonus = history::bonus(depth);
        self.history.reward_quiet(pos, mv, bonus);
        for &q in quiets {
            if q != mv {
                self.history.reward_quiet(pos, q, -bonus);
            }
        }
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
    }

    /// The score of `pos` searched `depth` plies deep, within the window (`alpha`, `beta`);
    /// `pos` is the last position on the path.
    pub fn search(&mut self, pos: &Position, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        if ply == 0 {
            self.root_best = None;
        }
        if self.out_of_budget() {
            return 0;
        }
        if ply > 0 {
            if self.is_draw(pos) {
                return draw_score(pos, ply);
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = pos.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply, self.parts.leaf_checks);
        }
        if ply >= MAX_PLY - 2 {
            return self.judge(pos);
        }
        self.nodes += 1;

        let key = pos.hash();
        let entry = if self.parts.transposition { self.table.probe(key) } else { None };
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
        {
            let score = from_table(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }
        // The worst threatened piece of the side to move, asked once a node (the judgement
        // works it out on the way; pruning and reductions ask it).
        let mut worst: KnownThreat = None;
        let static_eval = match (in_check, entry) {
            (true, _) => -INFINITY,
            (false, Some(e)) => e.eval,
            (false, None) => {
                let (judged, threat) = self.judge_with_threat(pos);
                worst = threat;
                judged
            }
        };
        self.evals[ply] = static_eval;
        let eval = if in_check {
            static_eval
        } else {
            refined_eval(static_eval, entry.map(|e| (from_table(e.score, ply), e.bound)))
        };
        // A node worth a deep search that the table knows nothing of: a shallower search
        // first finds it a move to begin with, cheaper than searching blind.
        if depth >= 4 && entry.is_none_or(|e| e.mv.is_none()) && self.parts.transposition {
            depth -= 1;
        }
        // Better than two plies ago (our last turn): the line is going our way, so the
        // node is pruned and reduced less eagerly. Unknown (in check then or now): assume so.
        let improving = ply < 2 || in_check || self.evals[ply - 2] == -INFINITY || static_eval > self.evals[ply - 2];

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Far enough above beta that a few plies will not bring it back.
            let far_above = depth <= 4 && eval - 100 * (depth - i32::from(improving)) >= beta;
            let null_move = self.parts.null_move && depth >= 3 && eval >= beta && has_pieces(pos);
            // A piece of ours hangs: the judgement does not know whether we can save it.
            let hanging = (far_above || null_move)
                && self.parts.threat_guard
                && worst.get_or_insert_with(|| agents::worst_threat(pos)).is_some();
            if far_above && !hanging {
                return eval;
            }
            if null_move && !hanging {
                let r = 3 + depth / 4;
                let next = pos.null_move();
                self.path.push(next.hash());
                let score = -self.search(&next, depth - 1 - r, -beta, -beta + 1, ply + 1);
                self.path.pop();
                if self.stopped && !self.must_finish {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut moves = MoveList::new();
        pos.generate(&mut moves, Bitboard::FULL);
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let restricted = ply == 0 && !self.root_moves.is_empty();
        if restricted {
            moves.retain(|m| self.root_moves.contains(&m));
        }
        let tt_move = entry.and_then(|e| e.mv).filter(|m| moves.contains(*m));
        let node = Node { pos, legal: &moves, table: tt_move, killers: self.killers[ply], depth, in_check };
        let picker = Picker::new(&node, &self.history, &mut self.selection);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut tried = 0usize;
        let mut quiets = [Move::NULL; 64];
        let mut n_quiets = 0;
        let mut captures = [Move::NULL; 32];
        let mut n_captures = 0;
        for (mv, kind) in picker {
            let quiet = matches!(kind, Kind::Quiet | Kind::Killer | Kind::Proposed | Kind::Unproposed);
            // Asked of the move unplayed: a move pruned below is never played.
            let gives_check = gives_check(pos, mv);
            let prunable = !pv_node && !in_check && !gives_check && best > -MATE_BOUND;
            if prunable && quiet {
                // Near the leaves, a quiet move that cannot bring the score up to alpha, or one
                // the agents did not propose, is not tried.
                if kind == Kind::Unproposed && depth <= 2 && self.parts.agent_pruning {
                    continue;
                }
                if late_move_limit(depth, improving).is_some_and(|limit| tried >= limit) {
                    continue;
                }
                if depth <= 4 && eval + 120 * depth <= alpha {
                    continue;
                }
            }
            if prunable && kind == Kind::BadCapture && depth <= 2 {
                continue;
            }
            let mut next = *pos;
            next.make_move(mv);
            if self.parts.transposition {
                self.table.prefetch(next.hash());
            }
            self.path.push(next.hash());
            let score = if tried == 0 {
                -self.search(&next, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && !gives_check {
                    r = reduction(depth, tried);
                    if kind == Kind::Unproposed && self.parts.agent_pruning {
                        r += 1;
                    }
                    if self.parts.agent_reductions && r > 0 {
                        if kind == Kind::Proposed {
                            r -= 1;
                        }
                        let threatened = *worst.get_or_insert_with(|| agents::worst_threat(pos));
                        if threatened.is_some_and(|(sq, _)| mv.from() == sq) {
                            r -= 1;
                        } else if agents::capture_gain(pos, mv) < 0 {
                            r += 1;
                        }
                    }
                    if pv_node {
                        r -= 1;
                    }
                    if kind == Kind::Killer {
                        r -= 1;
                    }
                    // A quiet move that often ended nodes is searched deeper, one that
                    // often failed shallower.
                    if matches!(kind, Kind::Quiet | Kind::Proposed | Kind::Unproposed) {
                        r -= history_plies(self.history.quiet(pos, mv));
                    }
                    if !improving {
                        r += 1;
                    }
                    r = r.clamp(0, depth - 2);
                } else if depth >= 3 && kind == Kind::BadCapture && !gives_check {
                    r = 1;
                }
                let mut s = -self.search(&next, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if s > alpha && r > 0 {
                    s = -self.search(&next, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    s = -self.search(&next, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            self.path.pop();
            if self.stopped && !self.must_finish {
                return 0;
            }
            tried += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.set_pv(ply, mv);
                    if ply == 0 {
                        self.root_best = Some((mv, score));
                    }
                    if score >= beta {
                        if quiet {
                            self.remember_cut(pos, mv, ply, depth, &quiets[..n_quiets]);
                        }
                        // The captures tried before the move that ended the node did not.
                        let bonus = history::bonus(depth);
                        for &c in &captures[..n_captures] {
                            self.history.reward_capture(pos, c, -bonus);
                        }
                        self.history.reward_capture(pos, mv, bonus);
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = mv;
                n_quiets += 1;
            }
            if pos.is_capture(mv) && n_captures < captures.len() {
                captures[n_captures] = mv;
                n_captures += 1;
            }
        }
        if tried == 0 {
            // Every move was pruned: the node is as good as its static judgement.
            return static_eval.max(alpha);
        }
        // A root searched over some of its moves only is not worth what the table would say.
        if self.parts.transposition && !restricted {
            let bound = if best >= beta {
                Bound::Lower
            } else if alpha > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let eval = if in_check { 0 } else { static_eval };
            self.table.store(key, Entry { mv: best_move, score: to_table(best, ply), depth, bound, eval });
        }
        best
    }

    /// The leaves: the side to move may stand on the judgement or capture, trying the captures
    /// and promotions the agents' exchange estimate does not lose; in check, every evasion. At
    /// the first ply of the leaves (`checks`) the quiet checks that do not lose the checking
    /// piece come after the captures: a mate or a double attack begun with a check lies just
    /// past where the search stops.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        self.pv_len[ply] = 0;
        if self.out_of_budget() {
            return 0;
        }
        // A quiet check and a quiet evasion can bring back a position of the line or the game
        // (`search` looked at the first ply of the leaves; after a capture nothing repeats).
        if !checks && pos.halfmove_clock() > 0 && self.is_draw(pos) {
            return draw_score(pos, ply);
        }
        self.nodes += 1;
        if ply >= MAX_PLY - 2 {
            return self.judge(pos);
        }
        // What the table knows of this position from any depth settles a leaf as well, and
        // its stored judgement saves judging again.
        let entry = if self.parts.transposition { self.table.probe(pos.hash()) } else { None };
        if let Some(e) = entry
            && beta - alpha == 1
        {
            let score = from_table(e.score, ply);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }
        let in_check = pos.is_check();
        let mut moves = MoveList::new();
        let stand = if in_check {
            pos.generate(&mut moves, Bitboard::FULL);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            -INFINITY
        } else {
            if pos.is_insufficient_material() {
                return 0;
            }
            let stand = match entry {
                Some(e) => e.eval,
                _ => self.judge(pos),
            };
            if stand >= beta || !self.parts.quiescence {
                return stand;
            }
            alpha = alpha.max(stand);
            pos.legal_captures_and_promotions_into(&mut moves);
            if checks {
                for &mv in crate::board::checking_moves(pos).iter() {
                    if !pos.is_capture(mv) && mv.kind() != MoveKind::Promotion {
                        moves.push(mv);
                    }
                }
            }
            stand
        };
        let mut scored = Scored::new();
        for &mv in moves.iter() {
            let key = if in_check {
                pos.captured_piece(mv).map_or(0, |p| 1000 + crate::board::values::value(p))
            } else {
                if !pos.is_capture(mv) && mv.kind() != MoveKind::Promotion {
                    // A quiet check: after every capture, unless the checker is lost.
                    if agents::capture_gain(pos, mv) < 0 {
                        continue;
                    }
                    scored.push((-1, mv));
                    continue;
                }
                // Promotions to a knight, bishop or rook are left to the full search.
                if mv.kind() == MoveKind::Promotion && mv.promotion() != Some(Piece::Queen) {
                    continue;
                }
                let victim = pos.captured_piece(mv).map_or(0, crate::board::values::value);
                // Even winning everything it takes would leave it below alpha.
                if stand + victim + 200 <= alpha && mv.kind() != MoveKind::Promotion {
                    continue;
                }
                let gain = agents::capture_gain(pos, mv);
                if gain < 0 {
                    continue;
                }
                gain * 16 + victim
            };
            scored.push((key, mv));
        }
        let scored = scored.as_mut_slice();
        scored.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
        let mut best = stand;
        for &(_, mv) in scored.iter() {
            let mut next = *pos;
            next.make_move(mv);
            if self.parts.transposition {
                self.table.prefetch(next.hash());
            }
            self.path.push(next.hash());
            let score = -self.quiesce(&next, -beta, -alpha, ply + 1, false);
            self.path.pop();
            if self.stopped && !self.must_finish {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The score of a drawn position (`Tree::is_draw`): a mate given on the fiftieth move still
/// counts as a mate.
fn draw_score(pos: &Position, ply: usize) -> i32 {
    if pos.halfmove_clock() >= 100 && pos.is_checkmate() { -MATE + ply as i32 } else { 0 }
}

/// A side with only pawns and king may be in zugzwang, where passing would be best: no null
/// move there.
fn has_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    (pos.by_color(us) & !pos.pieces(us, Piece::Pawn) & !pos.pieces(us, Piece::King)).any()
}

/// Mate scores are kept in the table counted from the node that stores them.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
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
    fn plain_tree(table_and_null_move: bool) -> Tree {
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

    /// The first ply of the leaves tries quiet checks after the captures, so a mate by a quiet
    /// check is seen where the search ends; deeper leaves (and `checks` off) stand on the
    /// judgement.
    #[test]
    fn the_leaves_see_a_mate_by_a_quiet_check() {
        let mut tree = plain_tree(false);
        // Ra8 mates on the back rank; nothing can be taken.
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        tree.start(vec![pos.hash()], Budget::default());
        assert_eq!(tree.quiesce(&pos, -INFINITY, INFINITY, 0, true), MATE - 1);
        let standing = tree.quiesce(&pos, -INFINITY, INFINITY, 0, false);
        assert!(standing < MATE_BOUND, "{standing}");
    }

    /// A quiet check and a quiet evasion in the leaves can come back to the root: a draw there,
    /// as in the search, not a position judged and played on.
    #[test]
    fn the_leaves_see_a_repetition_by_quiet_checks() {
        let mut tree = plain_tree(false);
        let root = Position::from_fen("6k1/p7/4Q3/8/8/8/1R6/K7 b - - 10 60").unwrap();
        let mut line = vec![root];
        for mv in ["g8f8", "e6d6", "f8g8", "d6e6"] {
            let last = *line.last().unwrap();
            line.push(last.play(last.parse_uci(mv).unwrap()));
        }
        let back = line[4];
        assert_eq!(back.hash(), root.hash());
        // Without the line, the position is judged: White is a queen and a rook up.
        tree.start(vec![root.hash()], Budget::default());
        let judged = tree.quiesce(&back, -INFINITY, INFINITY, 4, false);
        assert!(judged < -500, "{judged}");
        // Reached by the line from the root, it is a draw.
        tree.start(vec![root.hash()], Budget::default());
        tree.path.extend(line[1..].iter().map(|p| p.hash()));
        assert_eq!(tree.quiesce(&back, -INFINITY, INFINITY, 4, false), 0);
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
    fn late_moves_are_left_out_only_near_the_leaves_and_later_when_improving() {
        assert_eq!(late_move_limit(6, true), None);
        assert_eq!(late_move_limit(1, false), Some(4));
        assert_eq!(late_move_limit(1, true), Some(8));
        assert!(late_move_limit(5, false) > late_move_limit(4, false));
    }

    #[test]
    fn the_table_refines_the_judgement_only_where_its_bound_allows() {
        assert_eq!(refined_eval(50, None), 50);
        assert_eq!(refined_eval(50, Some((80, Bound::Exact))), 80);
        assert_eq!(refined_eval(50, Some((20, Bound::Exact))), 20);
        assert_eq!(refined_eval(50, Some((80, Bound::Lower))), 80);
        assert_eq!(refined_eval(50, Some((20, Bound::Lower))), 50, "at least 20 says nothing against 50");
        assert_eq!(refined_eval(50, Some((20, Bound::Upper))), 20);
        assert_eq!(refined_eval(50, Some((80, Bound::Upper))), 50);
        assert_eq!(refined_eval(50, Some((MATE - 3, Bound::Lower))), 50, "a mate is the search's to find");
    }

    #[test]
    fn history_moves_a_reduction_by_at_most_two_plies_either_way() {
        assert_eq!(history_plies(0), 0);
        assert_eq!(history_plies(HISTORY_PER_PLY - 1), 0);
        assert_eq!(history_plies(HISTORY_PER_PLY), 1);
        assert_eq!(history_plies(-HISTORY_PER_PLY), -1);
        assert_eq!(history_plies(16_384), 2);
        assert_eq!(history_plies(-16_384), -2);
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(reduction(3, 1), 0);
        assert!(reduction(10, 20) > reduction(4, 4));
        assert!(reduction(20, 40) < 10);
    }
}

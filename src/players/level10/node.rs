//! One node of level 10's tree, step by step: what ends it before any move is searched (a
//! draw, the mate distance, the table), its static judgement, the cuts that need no move
//! (reverse futility, the null move), then its moves in the order `order` gives them, each
//! perhaps left out (late-move, futility and exchange pruning) or searched shallower
//! (late-move reductions), and what it learned kept in the table.

use super::history::{self, Context, QuietScore};
use super::order::{Kind, Node, Picker};
use super::params::Params;
use super::table::{Bound, Entry};
use super::tree::{INFINITY, MATE, MATE_BOUND, MAX_PLY, Tree, draw_score, from_table, settles, to_table};
use crate::agents;
use crate::agents::judgement::KnownThreat;
use crate::board::{Bitboard, Move, MoveList, Piece, Position, gives_check, see_at_least};

/// What a node knows once it has probed the table and judged its position.
#[derive(Clone, Copy)]
struct Here {
    ply: usize,
    depth: i32,
    pv_node: bool,
    in_check: bool,
    /// The table's entry for the position.
    entry: Option<Entry>,
    /// The static judgement (`-INFINITY` in check).
    static_eval: i32,
    /// The judgement refined by the table's bound, for pruning.
    eval: i32,
    /// Better than two plies ago: the line is going our way.
    improving: bool,
}

impl Tree {
    /// The score of `pos` searched `depth` plies deep, within the window (`alpha`, `beta`);
    /// `pos` is the last position on the path.
    pub fn search(&mut self, pos: &Position, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv.clear(ply);
        if ply == 0 {
            self.root_best = None;
            self.enter_root(pos);
        }
        if self.out_of_budget() {
            return 0;
        }
        if ply > 0 {
            if self.is_draw(pos) {
                return draw_score(pos, ply);
            }
            // No mate found further away can beat one already certain nearer the root.
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
            return self.judge(pos, ply);
        }
        self.nodes += 1;

        let excluded = self.stack[ply].excluded != Move::NULL;
        let entry = if self.parts.transposition { self.table.probe(pos.hash()) } else { None };
        if let Some(e) = entry
            && !pv_node
            && !excluded
            && e.depth >= depth
        {
            let score = from_table(e.score, ply);
            if settles(score, e.bound, alpha, beta) {
                return score;
            }
        }
        if ply > 0
            && !excluded
            && let Some(score) = self.probe_tablebase(pos, depth, ply)
        {
            return score;
        }
        // The worst threatened piece of the side to move, asked once a node (the judgement
        // works it out on the way; pruning and reductions ask it).
        let mut worst: KnownThreat = None;
        let static_eval = match (in_check, entry) {
            (true, _) => -INFINITY,
            (false, Some(e)) => e.eval,
            (false, None) => {
                let (judged, threat) = self.judge_with_threat(pos, ply);
                worst = threat;
                judged
            }
        };
        self.stack[ply].eval = static_eval;
        let eval = if in_check {
            static_eval
        } else {
            refined_eval(static_eval, entry.map(|e| (from_table(e.score, ply), e.bound)))
        };
        // A node worth a deep search that the table knows nothing of: a shallower search
        // first finds it a move to begin with, cheaper than searching blind.
        if depth >= self.params.iir_depth
            && entry.is_none_or(|e| e.mv.is_none())
            && self.parts.transposition
            && !excluded
        {
            depth -= 1;
        }
        let improving =
            ply < 2 || in_check || self.stack[ply - 2].eval == -INFINITY || static_eval > self.stack[ply - 2].eval;
        let here = Here { ply, depth, pv_node, in_check, entry, static_eval, eval, improving };

        if !excluded && let Some(score) = self.cut_before_moves(pos, &here, beta, &mut worst) {
            return score;
        }
        self.search_moves(pos, &here, alpha, beta, &mut worst)
    }

    /// The cuts a node takes without searching its moves: a judgement far above beta (reverse
    /// futility), and a side still above beta after passing its move (the null move).
    fn cut_before_moves(&mut self, pos: &Position, here: &Here, beta: i32, worst: &mut KnownThreat) -> Option<i32> {
        let Here { ply, depth, pv_node, in_check, eval, improving, .. } = *here;
        if pv_node || in_check || beta.abs() >= MATE_BOUND {
            return None;
        }
        let p = &self.params;
        // Far enough above beta that a few plies will not bring it back.
        let far_above = depth <= p.rfp_depth && eval - p.rfp_margin * (depth - i32::from(improving)) >= beta;
        // A null move after a null move would only come back to the position two plies up.
        let after_null = ply > 0 && self.stack[ply - 1].played == Move::NULL;
        let null_move = self.parts.null_move && depth >= p.nmp_depth && eval >= beta && !after_null && has_pieces(pos);
        // A piece of ours hangs: the judgement does not know whether we can save it.
        let hanging = (far_above || null_move)
            && self.parts.threat_guard
            && worst.get_or_insert_with(|| agents::worst_threat(pos)).is_some();
        if far_above && !hanging {
            return Some(eval);
        }
        if null_move && !hanging {
            let r = p.nmp_base + depth / p.nmp_depth_div + ((eval - beta) / p.nmp_eval_div).min(3);
            self.stats.null_tries += 1;
            if after_null {
                self.stats.null_after_null += 1;
            }
            let next = pos.null_move();
            self.enter(pos, &next, Move::NULL, ply);
            let score = -self.search(&next, depth - 1 - r, -beta, -beta + 1, ply + 1);
            self.leave();
            if self.aborted() {
                return Some(0);
            }
            if score >= beta {
                return Some(if score >= MATE_BOUND { beta } else { score });
            }
        }
        None
    }

    /// The node's moves searched in order, best first; what the node found stored in the table.
    fn search_moves(&mut self, pos: &Position, here: &Here, mut alpha: i32, beta: i32, worst: &mut KnownThreat) -> i32 {
        let Here { ply, depth, in_check, entry, static_eval, .. } = *here;
        let mut moves = MoveList::new();
        pos.generate(&mut moves, Bitboard::FULL);
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let restricted = ply == 0 && !self.root_moves.is_empty();
        if restricted {
            moves.retain(|m| self.root_moves.contains(&m));
        }
        let excluded = self.stack[ply].excluded;
        let tt_move = entry.and_then(|e| e.mv).filter(|&m| moves.contains(m) && m != excluded);
        let extension = match self.singular(pos, here, beta, tt_move) {
            Singular::Cut(score) => return score,
            Singular::Extend(plies) => plies,
        };
        let context = self.context(ply);
        let node =
            Node { pos, legal: &moves, table: tt_move, killers: self.stack[ply].killers, context, depth, in_check };
        let mut picker = Picker::new(node);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut tried = 0usize;
        let mut quiets = [Move::NULL; 64];
        let mut n_quiets = 0;
        let mut captures = [Move::NULL; 32];
        let mut n_captures = 0;
        while let Some((mv, kind, scores)) = picker.next(&self.history, &mut self.selection) {
            if mv == excluded {
                continue;
            }
            let quiet = kind.is_quiet();
            // A checking move is never pruned: asked of the move unplayed, and only of one that
            // would be, so that a pruned move is never played.
            if self.prunes(pos, here, alpha, best, tried, mv, kind, scores) && !gives_check(pos, mv) {
                continue;
            }
            let mut next = *pos;
            next.make_move(mv);
            self.enter(pos, &next, mv, ply);
            let nodes_before = self.nodes;
            let extended = if Some(mv) == tt_move { extension } else { 0 };
            self.stack[ply + 1].doubles = self.stack[ply].doubles + u8::from(extended >= 2);
            let score = if tried == 0 {
                -self.search(&next, depth - 1 + extended, -beta, -alpha, ply + 1)
            } else {
                let r = self.reduction(pos, here, mv, kind, tried, scores, worst);
                let mut s = -self.search(&next, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if s > alpha && r > 0 {
                    s = -self.search(&next, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    s = -self.search(&next, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            self.leave();
            if ply == 0 {
                self.count_root_nodes(mv, self.nodes - nodes_before);
            }
            if self.aborted() {
                return 0;
            }
            tried += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.pv.set(ply, mv);
                    if ply == 0 {
                        self.root_best = Some((mv, score));
                    }
                    if score >= beta {
                        let tried_before = (&quiets[..n_quiets], &captures[..n_captures]);
                        self.remember_cut(pos, mv, quiet, ply, depth, &context, tried_before);
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
            // Every other move left out: the one excluded is singular. Every move was pruned:
            // the node is as good as its static judgement.
            return if excluded != Move::NULL { alpha } else { static_eval.max(alpha) };
        }
        // A root searched over some of its moves only is not worth what the table would say,
        // nor a node searched without one of its moves.
        if self.parts.transposition && !restricted && excluded == Move::NULL {
            let bound = if best >= beta {
                Bound::Lower
            } else if alpha > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let eval = if in_check { 0 } else { static_eval };
            self.table.store(pos.hash(), Entry { mv: best_move, score: to_table(best, ply), depth, bound, eval });
        }
        best
    }

    /// Whether the table's move is singular (every other move, searched half as deep, stays
    /// clearly below its stored score), and so searched deeper; or whether several moves
    /// reach beta, which ends the node (multi-cut).
    fn singular(&mut self, pos: &Position, here: &Here, beta: i32, tt_move: Option<Move>) -> Singular {
        let Here { ply, depth, pv_node, in_check, entry, .. } = *here;
        let p = self.params;
        let (Some(mv), Some(e)) = (tt_move, entry) else { return Singular::Extend(0) };
        let stored = from_table(e.score, ply);
        if p.singular_depth == 0
            || depth < p.singular_depth
            || ply == 0
            || in_check
            || e.depth < depth - 3
            || e.bound == Bound::Upper
            || stored.abs() >= MATE_BOUND
        {
            return Singular::Extend(0);
        }
        let singular_beta = stored - depth * p.singular_margin / 16;
        self.stats.singular_tries += 1;
        self.stack[ply].excluded = mv;
        let score = self.search(pos, (depth - 1) / 2, singular_beta - 1, singular_beta, ply);
        self.stack[ply].excluded = Move::NULL;
        if score < singular_beta {
            self.stats.singular_extensions += 1;
            let double = !pv_node
                && score < singular_beta - p.singular_double
                && i32::from(self.stack[ply].doubles) < p.singular_doubles;
            self.stats.double_extensions += u64::from(double);
            Singular::Extend(1 + i32::from(double))
        } else if singular_beta >= beta {
            // Another move beats beta too, searched half as deep: the node will.
            self.stats.multicuts += 1;
            Singular::Cut(singular_beta)
        } else {
            Singular::Extend(0)
        }
    }

    /// Whether a move of `kind`, the `tried`-th searched, with the history `scores` (a quiet
    /// move's), is left out unless it gives check: near the leaves a quiet move that cannot
    /// bring the score up to alpha and has not often ended nodes, one past the late-move count,
    /// one that failed after the same moves before, one that loses material by static exchange,
    /// one the agents did not propose (`agent-pruning`), and a capture that loses too much.
    #[allow(clippy::too_many_arguments)]
    fn prunes(
        &self,
        pos: &Position,
        here: &Here,
        alpha: i32,
        best: i32,
        tried: usize,
        mv: Move,
        kind: Kind,
        scores: QuietScore,
    ) -> bool {
        let Here { depth, pv_node, in_check, eval, improving, .. } = *here;
        if pv_node || in_check || best <= -MATE_BOUND {
            return false;
        }
        let p = &self.params;
        if kind.is_quiet() {
            let continuation_depth = p.cmh_prune_depth - i32::from(improving);
            (kind == Kind::Unproposed && depth <= 2 && self.parts.agent_pruning)
                || late_move_limit(p, depth, improving).is_some_and(|limit| tried >= limit)
                || (depth <= p.futility_depth
                    && eval + p.futility_base + p.futility_margin * depth <= alpha
                    && scores.total() < p.futility_history)
                || (depth <= continuation_depth
                    && (scores.continuation[0] < -p.cmh_prune_limit || scores.continuation[1] < -2 * p.cmh_prune_limit))
                || (depth <= p.see_depth && !see_at_least(pos, mv, -p.see_quiet_margin * depth))
        } else {
            kind == Kind::BadCapture
                && depth <= p.see_depth
                && !see_at_least(pos, mv, -p.see_capture_margin * depth * depth)
        }
    }

    /// The plies a late move is searched shallower by (late-move reductions).
    #[allow(clippy::too_many_arguments)]
    fn reduction(
        &self,
        pos: &Position,
        here: &Here,
        mv: Move,
        kind: Kind,
        tried: usize,
        scores: QuietScore,
        worst: &mut KnownThreat,
    ) -> i32 {
        let Here { depth, pv_node, in_check, improving, .. } = *here;
        let quiet = kind.is_quiet();
        if depth < 3 || gives_check(pos, mv) {
            return 0;
        }
        if !quiet || in_check {
            return i32::from(kind == Kind::BadCapture);
        }
        let p = &self.params;
        let mut r = late_move_reduction(p, depth, tried);
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
        if matches!(kind, Kind::Killer | Kind::Counter) {
            r -= 1;
        }
        // A quiet move that often ended nodes is searched deeper, one that often failed
        // shallower.
        r -= history_plies(p, scores.total());
        if !improving {
            r += 1;
        }
        r.clamp(0, depth - 2)
    }

    /// What a cut by `mv` teaches: a quiet move's histories rise and those of the quiet moves
    /// tried before it fall, and it becomes the ply's first killer and the counter to the move
    /// before; the captures tried before it fall and a capture that cut rises.
    #[allow(clippy::too_many_arguments)]
    fn remember_cut(
        &mut self,
        pos: &Position,
        mv: Move,
        quiet: bool,
        ply: usize,
        depth: i32,
        context: &Context,
        (quiets, captures): (&[Move], &[Move]),
    ) {
        let bonus = history::bonus(depth);
        if quiet {
            self.history.reward_quiet(pos, mv, context, bonus);
            for &q in quiets {
                if q != mv {
                    self.history.reward_quiet(pos, q, context, -bonus);
                }
            }
            let killers = &mut self.stack[ply].killers;
            if killers[0] != mv {
                killers[1] = killers[0];
                killers[0] = mv;
            }
            self.history.set_counter(context, mv);
        }
        for &c in captures {
            self.history.reward_capture(pos, c, -bonus);
        }
        self.history.reward_capture(pos, mv, bonus);
    }
}

/// What the singular search says of the table's move.
enum Singular {
    /// Searched this many plies deeper than the other moves.
    Extend(i32),
    /// The node ends with this score.
    Cut(i32),
}

/// The plies a quiet move's history `score` takes off its late-move reduction (adds, below zero).
fn history_plies(p: &Params, score: i32) -> i32 {
    (score / p.lmr_history).clamp(-2, 2)
}

/// Late-move reductions, in plies, by depth and by the number of moves tried before.
fn late_move_reduction(p: &Params, depth: i32, tried: usize) -> i32 {
    let (d, n) = (depth.max(1) as f32, tried.max(1) as f32);
    (p.lmr_base as f32 / 100.0 + d.ln() * n.ln() / (p.lmr_divisor as f32 / 100.0)) as i32
}

/// Near the leaves, once this many moves are searched the other quiet ones are left out
/// (late-move pruning): more with depth, and twice as many when the line is going our way.
fn late_move_limit(p: &Params, depth: i32, improving: bool) -> Option<usize> {
    (depth <= p.lmp_depth).then(|| ((p.lmp_base + 100 * depth * depth) * (1 + i32::from(improving)) / 200) as usize)
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

/// A side with only pawns and king may be in zugzwang, where passing would be best: no null
/// move there.
fn has_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    (pos.by_color(us) & !pos.pieces(us, Piece::Pawn) & !pos.pieces(us, Piece::King)).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::budget::Budget;
    use crate::players::level10::tree::Stats;
    use crate::players::level10::tree::tests::plain_tree;

    #[test]
    fn late_moves_are_left_out_only_near_the_leaves_and_later_when_improving() {
        let p = Params::default();
        assert_eq!(late_move_limit(&p, p.lmp_depth + 1, true), None);
        assert_eq!(late_move_limit(&p, 1, false), Some(2));
        assert_eq!(late_move_limit(&p, 1, true), Some(4));
        assert!(late_move_limit(&p, 5, false) > late_move_limit(&p, 4, false));
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
        let p = Params::default();
        assert_eq!(history_plies(&p, 0), 0);
        assert_eq!(history_plies(&p, p.lmr_history - 1), 0);
        assert_eq!(history_plies(&p, p.lmr_history), 1);
        assert_eq!(history_plies(&p, -p.lmr_history), -1);
        assert_eq!(history_plies(&p, 16_384), 2);
        assert_eq!(history_plies(&p, -16_384), -2);
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let p = Params::default();
        assert_eq!(late_move_reduction(&p, 3, 1), 0);
        assert!(late_move_reduction(&p, 10, 20) > late_move_reduction(&p, 4, 4));
        assert!(late_move_reduction(&p, 20, 40) < 10);
    }

    /// Nodes a tree with `params` searches from each of `fens` to `depth`, and its counters.
    fn searched(params: Params, fens: &[&str], depth: i32) -> (u64, Stats) {
        let mut nodes = 0;
        let mut stats = Stats::default();
        for fen in fens {
            let mut tree = plain_tree(true);
            tree.params = params;
            let pos = Position::from_fen(fen).unwrap();
            tree.start(vec![pos.hash()], Budget::default());
            for d in 1..=depth {
                tree.search(&pos, d, -INFINITY, INFINITY, 0);
            }
            nodes += tree.nodes;
            stats.singular_tries += tree.stats.singular_tries;
            stats.singular_extensions += tree.stats.singular_extensions;
            stats.multicuts += tree.stats.multicuts;
        }
        (nodes, stats)
    }

    /// Middlegames with play on both sides, where every technique has moves to act on.
    const MIDDLEGAMES: [&str; 3] = [
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12",
    ];

    /// Each pruning, reduction and extension the search keeps acts: switched off by its
    /// depth limit (0), the same searches visit another number of nodes. Singular extensions
    /// are seen in their counters too.
    #[test]
    fn each_technique_changes_the_tree() {
        let depth = 9;
        let (base, stats) = searched(Params::default(), &MIDDLEGAMES, depth);
        type SwitchOff = fn(&mut Params);
        let off: [(&str, SwitchOff); 8] = [
            ("reverse futility", |p| p.rfp_depth = 0),
            ("late-move pruning", |p| p.lmp_depth = 0),
            ("futility pruning", |p| p.futility_depth = 0),
            ("continuation-history pruning", |p| p.cmh_prune_depth = 0),
            ("static exchange pruning", |p| p.see_depth = 0),
            ("singular extensions", |p| p.singular_depth = 0),
            ("internal iterative reduction", |p| p.iir_depth = 99),
            ("history in the reductions", |p| p.lmr_history = i32::MAX / 4),
        ];
        for (name, switch_off) in off {
            let mut params = Params::default();
            switch_off(&mut params);
            let (nodes, _) = searched(params, &MIDDLEGAMES, depth);
            assert_ne!(nodes, base, "{name}: the same {base} nodes without it");
        }
        assert!(stats.singular_tries > 0 && stats.singular_extensions > 0, "{stats:?}");
        let none = Params { singular_depth: 0, ..Params::default() };
        assert_eq!(searched(none, &MIDDLEGAMES, depth).1.singular_tries, 0);
    }

    /// A null move never follows a null move: passing twice comes back to the position two
    /// plies up, which the tree would score as a repetition. Searched from positions where one
    /// side stands well (null moves tried often), on a halfmove clock that lets repetitions count.
    #[test]
    fn a_null_move_never_follows_a_null_move() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 10 4",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 12 6",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 12 10",
        ] {
            let mut tree = plain_tree(true);
            let pos = Position::from_fen(fen).unwrap();
            tree.start(vec![pos.hash()], Budget::default());
            for depth in 1..=11 {
                tree.search(&pos, depth, -INFINITY, INFINITY, 0);
            }
            assert!(tree.stats.null_tries > 100, "{fen}: {:?}", tree.stats);
            assert_eq!(tree.stats.null_after_null, 0, "{fen}: {:?}", tree.stats);
        }
    }
}

//! Which moves the tree tries at a node, and in what order (`agent-selection`).
//!
//! With the agents' selection, the side to move's agents are polled at the node as the
//! MasterAgent polls them for a decision, and what they put forward is tried first among the
//! quiet moves: every agent's best attack and best move, the answers to the worst threatened
//! agent's attack and defense requests, the MasterAgent's own choice, and the forcing moves
//! (captures and checks) and threats the look-ahead weighs. What they proposed in a position is
//! kept by its key, since iterative deepening comes back to the same nodes. The other quiet
//! moves are `Unproposed`, which the tree may search shallower (`agent-pruning`). Without the
//! selection quiet moves come by how often they refuted a position before (killers, and
//! `history`), the traditional way.
//!
//! Either way the move the transposition table remembers comes first, then captures and
//! promotions that the agents' exchange estimate says do not lose (by what they take, then by
//! how often the same capture ended a node before, `history`), and losing captures last.

use std::mem::MaybeUninit;

use super::history::{Context, History, QuietScore};
use crate::agents::MasterAgent;
use crate::board::values::value;
use crate::board::{Bitboard, MAX_MOVES, Move, MoveKind, MoveList, Piece, Position, see_at_least};

/// How the tree treats a move (the order it comes in, best first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The table's move.
    Table,
    /// A capture or promotion that does not lose by the exchange estimate.
    GoodCapture,
    /// A quiet move that refuted a sibling position.
    Killer,
    /// The quiet move that last refuted the move before (the counter move).
    Counter,
    /// A quiet move the agents proposed.
    Proposed,
    /// A quiet move (the agents not asked).
    Quiet,
    /// A quiet move none of the agents proposed.
    Unproposed,
    /// A capture that loses by the exchange estimate.
    BadCapture,
}

impl Kind {
    /// A move that neither captures nor promotes.
    #[inline]
    pub fn is_quiet(self) -> bool {
        matches!(self, Kind::Quiet | Kind::Killer | Kind::Counter | Kind::Proposed | Kind::Unproposed)
    }
}

/// Nodes with at least this much depth left ask the agents. Below it a poll costs more than
/// the order it brings: at equal nodes the tree plays as well without those polls, and at
/// the clock the nodes saved make it deeper (docs/level10.md).
const POLL_DEPTH: i32 = 6;

/// What the agents proposed in a position, kept by its key.
#[derive(Clone, Copy)]
struct Kept {
    key: u64,
    len: u8,
    moves: [Move; KEPT],
}

/// Positions whose proposals are kept, and the most kept for one.
const CACHED: usize = 1 << 16;
const KEPT: usize = 28;

/// The agents who propose moves, and what they proposed at the last node that asked.
pub struct Selection {
    master: Option<MasterAgent>,
    proposed: MoveList,
    kept: Vec<Kept>,
}

impl Selection {
    /// The selection by these agents, or none (every legal move).
    pub fn new(master: Option<MasterAgent>) -> Selection {
        let empty = Kept { key: 0, len: u8::MAX, moves: [Move::NULL; KEPT] };
        let kept = if master.is_some() { vec![empty; CACHED] } else { Vec::new() };
        Selection { master, proposed: MoveList::new(), kept }
    }

    /// Polls the agents at `pos` (or recalls what they proposed there); `false` when the
    /// selection is off or not used at this depth.
    fn poll(&mut self, pos: &Position, legal: &MoveList, depth: i32) -> bool {
        let Some(master) = self.master.as_mut().filter(|_| depth >= POLL_DEPTH) else { return false };
        self.proposed.clear();
        let key = pos.hash();
        let slot = &mut self.kept[(key as usize) & (CACHED - 1)];
        if slot.key == key && slot.len != u8::MAX {
            for &mv in &slot.moves[..slot.len as usize] {
                self.proposed.push(mv);
            }
            return true;
        }
        master.proposals(pos, legal, &mut self.proposed);
        // More proposals than a slot holds: asked again next time.
        if self.proposed.len() <= KEPT {
            slot.key = key;
            slot.len = self.proposed.len() as u8;
            slot.moves[..self.proposed.len()].copy_from_slice(self.proposed.as_slice());
        }
        true
    }
}

/// Up to `MAX_MOVES` moves, each with what a node knows of it, left uninitialised past their
/// length as `MoveList` is: writing all 256 entries at every node took most of a node's
/// ordering time.
pub struct Scored<T: Copy> {
    items: [MaybeUninit<T>; MAX_MOVES],
    len: usize,
}

impl<T: Copy> Scored<T> {
    #[inline]
    pub fn new() -> Scored<T> {
        // SAFETY: an array of `MaybeUninit` needs no initialisation (as in `MoveList::new`).
        let items = unsafe { MaybeUninit::<[MaybeUninit<T>; MAX_MOVES]>::uninit().assume_init() };
        Scored { items, len: 0 }
    }

    /// Appends an entry. Panics past `MAX_MOVES`, which no node's moves reach.
    #[inline]
    pub fn push(&mut self, item: T) {
        self.items[self.len] = MaybeUninit::new(item);
        self.len += 1;
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: the first `len` entries were written by `push`, and `MaybeUninit<T>` has the
        // layout of `T`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.len) }
    }
}

/// Hands out a node's moves best first: the table's move before anything else is looked at,
/// then the others, each scored once (when the table's move did not end the node) and picked
/// by selection (the first few usually end the node, so sorting the rest would be wasted).
pub struct Picker<'a> {
    node: Node<'a>,
    stage: Stage,
    /// Each move's key, apart from the rest so that picking the best scans a compact list.
    keys: Scored<i32>,
    moves: Scored<(Move, Kind, QuietScore)>,
    next: usize,
}

/// What the picker hands out next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The table's move, if there is one.
    Table,
    /// The other moves, to be scored first.
    Score,
    /// The other moves, scored.
    Rest,
}

const GOOD: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = 1 << 26;
const BAD: i32 = -(1 << 28);
/// Proposed quiet moves rank above every unproposed one.
const PROPOSED: i32 = 1 << 24;

/// What the tree knows of a node when it orders its moves.
#[derive(Clone, Copy)]
pub struct Node<'a> {
    pub pos: &'a Position,
    pub legal: &'a MoveList,
    /// The table's move, if it is legal here.
    pub table: Option<Move>,
    pub killers: [Move; 2],
    /// The moves before this node's, which its quiet moves answer (continuation histories).
    pub context: Context,
    pub depth: i32,
    pub in_check: bool,
}

impl<'a> Picker<'a> {
    pub fn new(node: Node<'a>) -> Picker<'a> {
        Picker { node, stage: Stage::Table, keys: Scored::new(), moves: Scored::new(), next: 0 }
    }

    /// The next move, how the tree treats it and what the histories say of it (a quiet
    /// move's), or None when every move was handed out. The histories and the agents are asked
    /// when the moves other than the table's are first needed.
    pub fn next(&mut self, history: &History, selection: &mut Selection) -> Option<(Move, Kind, QuietScore)> {
        if self.stage == Stage::Table {
            self.stage = Stage::Score;
            if let Some(mv) = self.node.table {
                let Node { pos, context, .. } = self.node;
                let scores =
                    if is_tactical(pos, mv) { QuietScore::default() } else { history.quiet_score(pos, mv, &context) };
                return Some((mv, Kind::Table, scores));
            }
        }
        if self.stage == Stage::Score {
            self.stage = Stage::Rest;
            self.score(history, selection);
        }
        let keys = &mut self.keys.as_mut_slice()[self.next..];
        let mut best = 0;
        for i in 1..keys.len() {
            // The last of equal keys (as `max_by_key` would give).
            if keys[i] >= keys[best] {
                best = i;
            }
        }
        let first = *keys.first()?;
        keys[0] = keys[best];
        keys[best] = first;
        let moves = &mut self.moves.as_mut_slice()[self.next..];
        moves.swap(0, best);
        let (mv, kind, scores) = moves[0];
        self.next += 1;
        Some((mv, kind, scores))
    }

    /// Scores every move but the table's.
    fn score(&mut self, history: &History, selection: &mut Selection) {
        let Node { pos, legal, table, killers, context, depth, in_check } = self.node;
        let counter = history.counter(&context);
        let selecting = !in_check && selection.poll(pos, legal, depth);
        // The proposed moves' targets by origin: a quiet move is looked up in one step (a
        // quiet move is known by its two squares).
        let mut proposed = [Bitboard::EMPTY; 64];
        if selecting {
            for &mv in selection.proposed.iter() {
                proposed[mv.from().index()] = proposed[mv.from().index()].with(mv.to());
            }
        }
        for &mv in legal.iter() {
            if Some(mv) == table {
                continue;
            }
            let tactical = is_tactical(pos, mv);
            let scores = if tactical { QuietScore::default() } else { history.quiet_score(pos, mv, &context) };
            let (key, kind) = if tactical {
                // The most valuable victim first, by the least valuable attacker, then by how
                // often the same capture ended a node before.
                let victim = pos.captured_piece(mv).map_or(0, value) + mv.promotion().map_or(0, value);
                let attacker = pos.moving_piece(mv).index() as i32;
                let under = mv.promotion().is_some_and(|p| p != Piece::Queen);
                if !under && see_at_least(pos, mv, 0) {
                    (GOOD + victim * 8 - attacker + history.capture(pos, mv) / 8, Kind::GoodCapture)
                } else {
                    (BAD + victim * 8 - attacker, Kind::BadCapture)
                }
            } else if killers.contains(&mv) {
                (KILLER + i32::from(killers[0] == mv), Kind::Killer)
            } else if mv == counter {
                (COUNTER, Kind::Counter)
            } else {
                let h = scores.total();
                if selecting && !proposed[mv.from().index()].contains(mv.to()) {
                    (h, Kind::Unproposed)
                } else if selecting {
                    (PROPOSED + h, Kind::Proposed)
                } else {
                    (h, Kind::Quiet)
                }
            };
            self.keys.push(key);
            self.moves.push((mv, kind, scores));
        }
    }
}

/// A capture or a promotion.
#[inline]
fn is_tactical(pos: &Position, mv: Move) -> bool {
    pos.is_capture(mv) || mv.kind() == MoveKind::Promotion
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::level10::history::bonus;

    /// A scored list holds what was pushed, in order, up to a whole node's moves.
    #[test]
    fn a_scored_list_holds_what_was_pushed() {
        let mut list = Scored::new();
        assert!(list.as_mut_slice().is_empty());
        for i in 0..MAX_MOVES as i32 {
            list.push((i, -i));
        }
        let held = list.as_mut_slice();
        assert_eq!(held.len(), MAX_MOVES);
        assert!(held.iter().enumerate().all(|(i, &(a, b))| a == i as i32 && b == -a));
    }

    /// The moves `selection` and `history` put first at a node of `depth` in `pos`, in order.
    fn picked(
        pos: &Position,
        table: Option<Move>,
        history: &History,
        selection: &mut Selection,
        depth: i32,
    ) -> Vec<(Move, Kind)> {
        let legal = pos.legal_moves();
        let node = Node {
            pos,
            legal: &legal,
            table,
            killers: [Move::NULL; 2],
            context: Context::NONE,
            depth,
            in_check: pos.is_check(),
        };
        let mut picker = Picker::new(node);
        let mut picked = Vec::new();
        while let Some((m, k, _)) = picker.next(history, selection) {
            picked.push((m, k));
        }
        picked
    }

    fn order(fen: &str, table: Option<&str>) -> Vec<(String, Kind)> {
        let pos = Position::from_fen(fen).unwrap();
        let table = table.map(|t| pos.parse_uci(t).unwrap());
        picked(&pos, table, &History::new(), &mut Selection::new(None), 5)
            .into_iter()
            .map(|(m, k)| (m.to_string(), k))
            .collect()
    }

    #[test]
    fn the_table_move_then_winning_captures_then_quiet_then_losing_captures() {
        // Qxg4 takes a pawn nothing defends; Qxd5 gives the queen for a pawn.
        let fen = "4k3/8/4p3/3p4/5pp1/8/8/3QK3 w - - 0 1";
        let moves = order(fen, Some("e1f2"));
        assert_eq!(moves[0], ("e1f2".to_string(), Kind::Table));
        let first_capture = moves.iter().position(|(_, k)| *k == Kind::GoodCapture).unwrap();
        let first_quiet = moves.iter().position(|(_, k)| *k == Kind::Quiet).unwrap();
        let bad = moves.iter().position(|(m, _)| m == "d1d5").unwrap();
        assert!(first_capture < first_quiet);
        assert_eq!(moves[bad].1, Kind::BadCapture);
        assert_eq!(bad, moves.len() - 1, "the losing capture comes last: {moves:?}");
        let legal = Position::from_fen(fen).unwrap().legal_moves().len();
        assert_eq!(moves.len(), legal, "every legal move once");
    }

    /// With the agents asked, the quiet moves they proposed and only those come as `Proposed`,
    /// the first time (polled) and the second (recalled by the position's key); below
    /// `POLL_DEPTH` quiet moves come as the usual order has them.
    #[test]
    fn the_proposed_quiet_moves_are_the_agents_proposals() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        let pos = Position::from_fen(fen).unwrap();
        let legal = pos.legal_moves();
        let mut asked = MasterAgent::new(crate::agents::Features::level(9).unwrap(), 1);
        let mut proposals = MoveList::new();
        asked.proposals(&pos, &legal, &mut proposals);
        let mut selection = Selection::new(Some(MasterAgent::new(crate::agents::Features::level(9).unwrap(), 1)));
        let history = History::new();
        for _ in 0..2 {
            let picked = picked(&pos, None, &history, &mut selection, POLL_DEPTH);
            let proposed: Vec<Move> = picked.iter().filter(|(_, k)| *k == Kind::Proposed).map(|&(m, _)| m).collect();
            let quiet_proposals: Vec<Move> =
                proposals.iter().copied().filter(|&m| !pos.is_capture(m) && m.promotion().is_none()).collect();
            assert!(!proposed.is_empty());
            assert_eq!(proposed.len(), quiet_proposals.len(), "{proposed:?} vs {quiet_proposals:?}");
            assert!(proposed.iter().all(|m| quiet_proposals.contains(m)));
            assert!(picked.iter().any(|(_, k)| *k == Kind::Unproposed));
        }
        // Nearer the leaves the agents are not asked, nor their kept proposals recalled.
        let below: Vec<Kind> =
            picked(&pos, None, &history, &mut selection, POLL_DEPTH - 1).into_iter().map(|(_, k)| k).collect();
        assert!(below.iter().all(|k| !matches!(k, Kind::Proposed | Kind::Unproposed)), "{below:?}");
        assert!(below.contains(&Kind::Quiet));
    }

    /// Between two captures alike (the same piece taking the same kind, neither losing), the
    /// one that ended nodes before comes first.
    #[test]
    fn captures_that_ended_nodes_before_come_first() {
        let pos = Position::from_fen("4k3/8/8/2p1p3/8/3N4/8/4K3 w - - 0 1").unwrap();
        let (c5, e5) = (pos.parse_uci("d3c5").unwrap(), pos.parse_uci("d3e5").unwrap());
        for (good, bad) in [(c5, e5), (e5, c5)] {
            let mut history = History::new();
            for _ in 0..1000 {
                history.reward_capture(&pos, good, bonus(20));
                history.reward_capture(&pos, bad, -bonus(20));
            }
            let first = picked(&pos, None, &history, &mut Selection::new(None), 5)[0];
            assert_eq!(first, (good, Kind::GoodCapture));
        }
    }
}

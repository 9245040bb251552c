//! Mating (level 9, `Features::MATING`): the end of the game as a goal.
//!
//! Thesis 6: "Currently any attack of the opponent king is prioritized which often can cause a
//! disorganized witch-hunt of the king. Logic considering which move-attack of the king is most
//! promising to lead to check mate could be introduced." And 3.1.3: with a bare king left, the
//! stronger side "looses most of its pieces while trying to attack the opponent's king until the
//! rule is executed". The issue measured it: levels 3-8 strip the opponent to a bare king in
//! about 30% of their games and mate in only 27-35% of those; in `7k/8/6K1/8/8/8/8/6Q1 w` every
//! level plays Qh1+ instead of Qg7#. Three rules:
//!
//! 1. **Mate in one is always played** (`mate_in_one`): the MasterAgent asks every check
//!    whether it leaves the king a move, before anything else.
//! 2. **A check is not a free attack on the king**: with this feature a planned capture of the
//!    king earns nothing by itself (`Eval::plan_attack`); a check counts only as one of a
//!    fork's targets (`fork.rs`), where it forces the opponent's hand.
//! 3. **The mating net** (`mating_net`): when the opponent has nothing but its king (and
//!    perhaps pawns) and we have a queen or a rook, the king's agent and the heavy pieces' agents
//!    work together. Every legal move is judged by the worst the defending king can make of it:
//!    the squares its king could still reach (the "box": a flood fill through squares none of
//!    ours attacks), then our king's distance to it, then its distance from the edge. Moves
//!    that stalemate, leave a piece for the king to take, or repeat a position are never chosen
//!    while another move is left; a reply after which we mate in one ends the search for a move.
//!    Without a queen or rook the same judgement uses other measures: a pawn run led by our king
//!    (`run_score`), or bishop and knight driving the king to the bishop's corner
//!    (`bishop_knight_score`).

use crate::board::values::value;
use crate::board::{
    Bitboard, Color, FewMoves, Game, KingSteps, Move, MoveList, Piece, Position, Square, attacks, check_test,
    checking_moves, few_replies, for_each_check,
};

/// Does our legal move `mv` of our `piece` leave them no legal move? `leaves_no_legal_move`,
/// asked only when their king has no step left: the checks tried for mate mostly leave it one,
/// and `steps` (of `pos`, worked out once for all of them) answers that for less.
#[inline(always)]
fn mates(pos: &Position, steps: &KingSteps, piece: Piece, mv: Move) -> bool {
    !pos.keeps_a_king_step(steps, piece, mv) && pos.leaves_no_legal_move(mv)
}

/// A move that mates now, if there is one.
pub(crate) fn mate_in_one(pos: &Position, legal: &MoveList) -> Option<Move> {
    // `mate_among(pos, &checks(pos, legal))`, without listing the checks first.
    let checking = check_test(pos);
    legal.iter().copied().find(|&mv| checking(mv) && pos.leaves_no_legal_move(mv))
}

/// The first of `checks` (checking moves) that mates.
pub(crate) fn mate_among(pos: &Position, checks: &MoveList) -> Option<Move> {
    checks.iter().copied().find(|&mv| pos.leaves_no_legal_move(mv))
}

/// Checks that leave more replies than this are not followed up for a mate in two or three.
const MATE_IN_TWO_REPLIES: usize = 4;

/// A mate in three's second check must leave the king at most this many replies (its first
/// check, as a mate in two's, `MATE_IN_TWO_REPLIES`): the look-ahead asks every finalist
/// whether the opponent then mates in three, so the search is kept to the narrow lines such
/// mates take. Measured against 4 (README, Level 9): WAC 68 instead of 69, about 3% fewer
/// instructions a decision, play against Stockfish at depth 1 as good.
const MATE_IN_THREE_LATER_REPLIES: usize = 2;

/// A mate in four's first check must leave the king at most this many replies (its later
/// checks, as a mate in three's, `MATE_IN_THREE_LATER_REPLIES`): the sacrifice that opens the
/// king. Measured (README, Level 9) against the mate in three alone: with 2, WAC 74 and ECM 72
/// solved instead of 68 and 63 for about 3.4% more instructions; with 1, 70 and 69 for 2%; with
/// 4, 76 and 72 for 7%.
const MATE_IN_FOUR_FIRST_REPLIES: usize = 2;

/// The most positions a mate in four by checks may look at, after the mate in three's.
const MATE_IN_FOUR_BUDGET: u32 = 200;

/// The most positions a mate in three by checks may look at before it gives up (the rare
/// position with many checks each met in few ways), so that it never costs more than a few
/// hundred microseconds.
const MATE_IN_THREE_BUDGET: u32 = 200;

/// One of `checks` after which every reply allows a mate in one: the king's attackers look one check
/// further when the first one leaves the king a way out (a "move-attack of the king … most
/// promising to lead to check mate", thesis 6). Only checks are tried, and only mates after
/// them, so it stays a handful of positions.
#[cfg(test)]
pub(crate) fn mate_in_two(pos: &Position, checks: &MoveList) -> Option<Move> {
    root_mate_by_checks(pos, checks, 2, MATE_IN_TWO_REPLIES, &mut { u32::MAX })
}

/// The same one check further: a check after which every reply allows a mate in two by checks
/// (WAC's sacrifices on the king: Rxh6+ Kg8 Rh8+ Kxh8 Qh5+ …). At most `MATE_IN_THREE_BUDGET`
/// positions are looked at.
#[cfg(test)]
pub(crate) fn mate_in_three(pos: &Position, checks: &MoveList) -> Option<Move> {
    root_mate_by_checks(pos, checks, 3, MATE_IN_TWO_REPLIES, &mut { MATE_IN_THREE_BUDGET })
}

/// The same two checks further: the plain statement of `mate_in_two_to_four`'s mate in four.
#[cfg(test)]
fn mate_in_four(pos: &Position, checks: &MoveList, budget: &mut u32) -> Option<Move> {
    root_mate_by_checks(pos, checks, 4, MATE_IN_FOUR_FIRST_REPLIES, budget)
}

/// The first of `checks` that mates within `moves` of our moves, every one a check that leaves
/// the king at most `most` replies (the checks after the first, `MATE_IN_THREE_LATER_REPLIES`);
/// `budget` counts the positions looked at and ends the look (None) when it runs out. The
/// plain statement of the rule, which `mate_in_two_or_three` (through `first_mate_by_checks`)
/// is held to.
#[cfg(test)]
fn mate_by_checks(pos: &Position, checks: &MoveList, moves: u32, most: usize, budget: &mut u32) -> Option<Move> {
    mate_by_checks_ordered(pos, checks, moves, most, false, budget)
}

/// `mate_by_checks` for our first check (`root_mate_by_checks`), whose replies are tried from
/// the one that leaves us the fewest checks (in the order listed at equal count), or for the
/// checks after it (`mate_by_checks`), whose replies are tried in the order listed.
#[cfg(test)]
fn mate_by_checks_ordered(
    pos: &Position,
    checks: &MoveList,
    moves: u32,
    most: usize,
    ordered: bool,
    budget: &mut u32,
) -> Option<Move> {
    checks.iter().copied().find(|&mv| {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let after = pos.play(mv);
        if moves == 1 {
            return !after.has_legal_move();
        }
        let replies = after.legal_moves();
        if replies.is_empty() {
            return true; // a check with no reply is mate
        }
        // A check the king can meet in many ways is no mating attack.
        let mut replies = replies.as_slice().to_vec();
        if ordered {
            replies.sort_by_cached_key(|&r| checks_of(&after.play(r)).len());
        }
        replies.len() <= most
            && replies.iter().all(|&r| {
                let next = after.play(r);
                let next_checks = checks_of(&next);
                mate_by_checks(&next, &next_checks, moves - 1, MATE_IN_THREE_LATER_REPLIES, budget).is_some()
            })
    })
}

/// The plain rule for our first check (`mate_in_two_to_four`): `mate_by_checks`, the first
/// check's replies tried from the one that leaves us the fewest checks. Every reply must allow
/// the mate, so the order changes only how soon a check that mates nowhere is given up, and so
/// how much of the budget it takes.
#[cfg(test)]
fn root_mate_by_checks(pos: &Position, checks: &MoveList, moves: u32, most: usize, budget: &mut u32) -> Option<Move> {
    mate_by_checks_ordered(pos, checks, moves, most, true, budget)
}

/// `mate_by_checks` for the checks after the first (so at most `MATE_IN_THREE_LATER_REPLIES`
/// replies), the same answer and the same budget spent, with less work: the last check is
/// tested for mate without being made (`leaves_no_legal_move`).
fn first_mate_by_checks(pos: &Position, checks: &[Move], moves: u32, budget: &mut u32) -> Option<Move> {
    // Worked out for the first check tried for mate, if any.
    let mut steps = None;
    checks.iter().copied().find(|&mv| {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if moves == 1 {
            let piece = pos.piece_kind_at(mv.from()).unwrap_or(Piece::Pawn);
            return mates(pos, steps.get_or_insert_with(|| pos.king_steps()), piece, mv);
        }
        let mut after = *pos;
        after.make_move(mv);
        // Listed in place (a list returned by value is a copy of all its room), and only until
        // there are too many to follow up.
        let mut replies = FewMoves::new(MATE_IN_THREE_LATER_REPLIES);
        few_replies(&after, &mut replies);
        if replies.list.is_empty() {
            return true;
        }
        !replies.too_many()
            && replies.list.iter().all(|&r| {
                let mut next = after;
                next.make_move(r);
                if moves == 2 {
                    return first_mating_check(&next, budget).is_some();
                }
                first_mate_by_checks(&next, checks_of(&next).as_slice(), moves - 1, budget).is_some()
            })
    })
}

/// `first_mate_by_checks(pos, &checks_of(pos), 1, budget)` with the checks tested as the
/// generator finds them, not listed first.
fn first_mating_check(pos: &Position, budget: &mut u32) -> Option<Move> {
    let (mut found, mut steps) = (None, None);
    for_each_check(pos, &mut |piece, mv| {
        if found.is_none() && *budget > 0 {
            *budget -= 1;
            if mates(pos, steps.get_or_insert_with(|| pos.king_steps()), piece, mv) {
                found = Some(mv);
            }
        }
    });
    found
}

/// Mate in two, else mate in three (`mate_in_two`, `mate_in_three`), and which of them: both
/// look at each of our checks, their replies and our checks after each reply, so those are
/// worked out once for the two (`RootChecks`). The two functions stay as the plain statement
/// of the rules, which a test holds this to.
pub(crate) fn mate_in_two_or_three(pos: &Position, checks: &MoveList) -> Option<(Move, u32)> {
    mate_in_two_or_three_within(pos, checks, &mut { MATE_IN_THREE_BUDGET })
}

/// `mate_in_two_or_three` with the mate in three's budget given (and what is left of it
/// returned in it), so that a test can hold the budget's spending to the rule's.
fn mate_in_two_or_three_within(pos: &Position, checks: &MoveList, budget: &mut u32) -> Option<(Move, u32)> {
    // With no budget the mate in four looks at nothing.
    mate_in_two_to_four_within(pos, checks, budget, &mut 0)
}

/// Mate in two, three or four by checks, the first found, and in how many: the MasterAgent's
/// own search before the poll. The mate in four is the mate in three one check further, from a
/// first check that leaves at most `MATE_IN_FOUR_FIRST_REPLIES` replies and within a budget of
/// its own (`MATE_IN_FOUR_BUDGET`); it goes over the same checks after each reply as the mate
/// in three, which `RootChecks` keeps worked out (`Second`).
pub(crate) fn mate_in_two_to_four(pos: &Position, checks: &MoveList) -> Option<(Move, u32)> {
    mate_in_two_to_four_within(pos, checks, &mut { MATE_IN_THREE_BUDGET }, &mut { MATE_IN_FOUR_BUDGET })
}

/// `mate_in_two_to_four` with the budgets given (see `mate_in_two_or_three_within`).
fn mate_in_two_to_four_within(
    pos: &Position,
    checks: &MoveList,
    three: &mut u32,
    four: &mut u32,
) -> Option<(Move, u32)> {
    let mut roots = RootChecks::new(pos, checks);
    if let Some(mv) = roots.mate_by_checks(2, &mut { u32::MAX }) {
        return Some((mv, 2));
    }
    if let Some(mv) = roots.mate_by_checks(3, three) {
        return Some((mv, 3));
    }
    roots.mate_by_checks(4, four).map(|mv| (mv, 4))
}

/// Our checks in `pos`, each worked out (`RootCheck`) when first asked for. Both searches ask
/// for them in order from the first, so they are kept in that order.
struct RootChecks<'a> {
    pos: &'a Position,
    checks: &'a MoveList,
    roots: Vec<RootCheck>,
    /// Our checks after each reply worked out, end to end (`Reply::checks` says where).
    moves: Vec<Move>,
    /// Those checks' replies, each when first asked for, in the same places as in `moves`
    /// (the mate in three and the mate in four go over the same ones).
    seconds: Vec<Second>,
    /// After each of those replies looked at, the position and our checks there (those of
    /// `seconds[k]` at `k * MATE_IN_THREE_LATER_REPLIES` on): the mate in three tries them for
    /// a mate in one, and the mate in four, after the same replies, for a mate in two.
    thirds: Vec<Option<Reply>>,
}

/// One of our checks after a reply to our first: how many replies it leaves (up to one more
/// than are followed up; `Second::UNKNOWN` until asked) and those replies when few enough.
#[derive(Clone, Copy)]
struct Second {
    count: u8,
    replies: [Move; MATE_IN_THREE_LATER_REPLIES],
}

impl Second {
    const UNKNOWN: Second = Second { count: u8::MAX, replies: [Move::NULL; MATE_IN_THREE_LATER_REPLIES] };
}

/// One of our checks: the position after it, its replies (kept only when few enough to be
/// followed up), and after each of those looked at, the position and our checks there.
struct RootCheck {
    after: Position,
    /// How many replies, counted only up to one more than are followed up.
    count: usize,
    replies: [Move; MATE_IN_TWO_REPLIES],
    next: [Option<Reply>; MATE_IN_TWO_REPLIES],
}

/// A reply to one of our checks: the position after it and where its checks lie in
/// `RootChecks::moves`.
struct Reply {
    position: Position,
    checks: std::ops::Range<usize>,
}

/// `RootChecks`' lists: `roots`, `moves`, `seconds` and `thirds`.
type Lists = (Vec<RootCheck>, Vec<Move>, Vec<Second>, Vec<Option<Reply>>);

thread_local! {
    /// The lists of the thread's last search, emptied and lent to its next (`RootChecks`): a
    /// search a decision, and one a look-ahead finalist, each allocated its own before.
    static LISTS: std::cell::Cell<Lists> = const { std::cell::Cell::new((Vec::new(), Vec::new(), Vec::new(), Vec::new())) };
}

impl<'a> RootChecks<'a> {
    fn new(pos: &'a Position, checks: &'a MoveList) -> RootChecks<'a> {
        let (mut roots, mut moves, mut seconds, mut thirds) = LISTS.take();
        roots.clear();
        moves.clear();
        seconds.clear();
        thirds.clear();
        roots.reserve(checks.len());
        // Room for the checks after a few dozen replies at once: grown from nothing, the list
        // was reallocated several times a search.
        moves.reserve(if checks.is_empty() { 0 } else { 64 });
        RootChecks { pos, checks, roots, moves, seconds, thirds }
    }

    /// Our check `mv` worked out: only the replies' count is needed when there are many.
    fn root(pos: &Position, mv: Move) -> RootCheck {
        let mut after = *pos;
        after.make_move(mv);
        // Listed in place (a list returned by value is a copy of all its room), and only until
        // there are too many to follow up.
        let mut list = FewMoves::new(MATE_IN_TWO_REPLIES);
        few_replies(&after, &mut list);
        let mut replies = [Move::default(); MATE_IN_TWO_REPLIES];
        if !list.too_many() {
            replies[..list.list.len()].copy_from_slice(list.list.as_slice());
        }
        RootCheck { after, count: list.list.len(), replies, next: [const { None }; MATE_IN_TWO_REPLIES] }
    }

    /// `root_mate_by_checks(pos, checks, moves, most, budget)` for `moves` of two or more, the
    /// same moves looked at in the same order (the first check's replies from the one that
    /// leaves us the fewest checks).
    fn mate_by_checks(&mut self, moves: u32, budget: &mut u32) -> Option<Move> {
        for i in 0..self.checks.len() {
            if *budget == 0 {
                continue;
            }
            *budget -= 1;
            let mv = self.checks[i];
            if self.roots.len() == i {
                self.roots.push(Self::root(self.pos, mv));
            }
            let root = &mut self.roots[i];
            if root.count == 0 {
                return Some(mv); // a check with no reply is mate
            }
            // A check the king can meet in many ways is no mating attack.
            if root.count > if moves == 4 { MATE_IN_FOUR_FIRST_REPLIES } else { MATE_IN_TWO_REPLIES } {
                continue;
            }
            let count = root.count;
            // Every reply must allow the mate: the one that leaves us the fewest checks is
            // tried first, as it gives the search up soonest where there is no mate. One that
            // leaves us none settles it at once, and the replies after it are not worked out.
            let mut unchecked = false;
            for j in 0..count {
                let root = &mut self.roots[i];
                let reply = root.next[j].get_or_insert_with(|| {
                    let mut position = root.after;
                    position.make_move(root.replies[j]);
                    let start = self.moves.len();
                    for_each_check(&position, &mut |_, mv| self.moves.push(mv));
                    Reply { position, checks: start..self.moves.len() }
                });
                if reply.checks.is_empty() {
                    unchecked = true;
                    break;
                }
            }
            if unchecked {
                continue;
            }
            let mut order: [usize; MATE_IN_TWO_REPLIES] = std::array::from_fn(|j| j);
            let next = &self.roots[i].next;
            order[..count].sort_by_key(|&j| next[j].as_ref().map_or(0, |r| r.checks.len()));
            let every = order[..count].iter().all(|&j| {
                let Some(reply) = self.roots[i].next[j].as_ref() else { return false };
                if moves == 2 {
                    first_mate_by_checks(&reply.position, &self.moves[reply.checks.clone()], 1, budget).is_some()
                } else {
                    self.later(i, j, moves - 1, budget)
                }
            });
            if every {
                return Some(mv);
            }
        }
        None
    }

    /// `first_mate_by_checks` after reply `j` to our check `i`, for `moves` of two or more, the
    /// same checks looked at in the same order, each check's replies, the positions after them
    /// and our checks there worked out once for the mate in three and the mate in four.
    fn later(&mut self, i: usize, j: usize, moves: u32, budget: &mut u32) -> bool {
        let Some(reply) = self.roots[i].next[j].as_ref() else { return false };
        let checks = reply.checks.clone();
        // Room up to these checks' place in `moves`; what no reply has asked for yet is unknown.
        if self.seconds.len() < checks.end {
            self.seconds.resize(checks.end, Second::UNKNOWN);
            self.thirds.resize_with(checks.end * MATE_IN_THREE_LATER_REPLIES, || None);
        }
        let position = &reply.position;
        for k in checks {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let mv = self.moves[k];
            // The position after the check, made only if its replies or a reply's position are
            // not yet known (filled in place: a position moved about is copied whole).
            let mut after = None;
            if self.seconds[k].count == Second::UNKNOWN.count {
                let after = after.insert(*position);
                after.make_move(mv);
                let mut replies = FewMoves::new(MATE_IN_THREE_LATER_REPLIES);
                few_replies(after, &mut replies);
                let mut second =
                    Second { count: replies.list.len() as u8, replies: [Move::NULL; MATE_IN_THREE_LATER_REPLIES] };
                if !replies.too_many() {
                    second.replies[..replies.list.len()].copy_from_slice(replies.list.as_slice());
                }
                self.seconds[k] = second;
            }
            let second = self.seconds[k];
            if second.count == 0 {
                return true; // a check with no reply is mate
            }
            if usize::from(second.count) > MATE_IN_THREE_LATER_REPLIES {
                continue;
            }
            let every = (0..usize::from(second.count)).all(|r| {
                let third = match &mut self.thirds[k * MATE_IN_THREE_LATER_REPLIES + r] {
                    Some(third) => &*third,
                    unknown => {
                        let mut next = *after.get_or_insert_with(|| position.play(mv));
                        next.make_move(second.replies[r]);
                        let start = self.moves.len();
                        for_each_check(&next, &mut |_, c| self.moves.push(c));
                        &*unknown.insert(Reply { position: next, checks: start..self.moves.len() })
                    }
                };
                first_mate_by_checks(&third.position, &self.moves[third.checks.clone()], moves - 1, budget).is_some()
            });
            if every {
                return true;
            }
        }
        false
    }
}

impl Drop for RootChecks<'_> {
    fn drop(&mut self) {
        LISTS.set((
            std::mem::take(&mut self.roots),
            std::mem::take(&mut self.moves),
            std::mem::take(&mut self.seconds),
            std::mem::take(&mut self.thirds),
        ));
    }
}

fn checks_of(pos: &Position) -> MoveList {
    checking_moves(pos)
}

/// The mating net applies: the opponent has only its king and pawns, and we have a queen or a
/// rook to drive it with.
pub(crate) fn is_mating_phase(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let their_pieces = pos.by_color(them) & !(pos.pieces(them, Piece::King) | pos.pieces(them, Piece::Pawn));
    let bare = pos.by_color(them).count() == 1;
    their_pieces.is_empty()
        && (has_heavy(pos, us) || (bare && (pos.pieces(us, Piece::Pawn).any() || minor_mate(pos, us).is_some())))
}

/// Without a queen or rook against a bare king the net is first a pawn run, led by the most
/// advanced pawn (lower is better, and any position with a queen or rook, scored by
/// `net_score`, is better still):
/// - a pawn their king can no longer catch (outside its square, thesis 6's "rule of the square")
///   just runs, and each step forward counts;
/// - otherwise our king leads it in: it heads for the squares two ranks in front of the pawn on a
///   neighbouring file (from there it clears the way; standing on the pawn's own path only
///   blocks it), and a pawn nearer their king than ours with no piece to guard it is in danger;
/// - a pawn next to their king with nothing of ours guarding it is lost.
fn run_score(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let pawns = pos.pieces(us, Piece::Pawn);
    let Some(lead) = pawns.into_iter().max_by_key(|sq| sq.relative(us).rank()) else { return 2 * RUN_OFFSET };
    let rank = lead.relative(us).rank() as i32;
    let (ours, theirs) = (pos.king_square(us), pos.king_square(!us));
    let their_reach = attacks::king(theirs);
    let guarded = |p: Square| pos.attackers_to(p, us, pos.occupied()).any();
    let loose = (pawns & their_reach).into_iter().filter(|&p| !guarded(p)).count() as i32;
    let mut score = RUN_OFFSET - rank * 20 + loose * 60;
    if !runs_free(pos, lead) {
        let ahead = |df: i8| lead.relative(us).offset(df, 2.min(7 - rank as i8)).map(|s| s.relative(us));
        let key = [ahead(-1), ahead(1)].into_iter().flatten().map(|k| distance(ours, k)).min().unwrap_or(0);
        let blocks = on_path(ours, lead, us);
        let pieces = pos.by_color(us) & !(pos.pieces(us, Piece::King) | pawns);
        let guarded_by_piece = (pos.attackers_to(lead, us, pos.occupied()) & pieces).any();
        let in_danger = !guarded_by_piece && distance(theirs, lead) < distance(ours, lead);
        score += key * 6 + i32::from(blocks) * 40 + i32::from(in_danger) * 40;
    }
    score
}

/// Can the pawn on `pawn` (ours, our move) queen before their king catches it? The pawn's moves
/// to the last rank (one fewer from its first rank) against their king's steps to the queening
/// square; our own king on its path stops it.
fn runs_free(pos: &Position, pawn: Square) -> bool {
    let us = pos.side_to_move();
    let rank = pawn.relative(us).rank() as i32;
    let queening = Square::new(pawn.file(), 7).relative(us);
    let steps = if rank == 1 { 5 } else { 7 - rank };
    !on_path(pos.king_square(us), pawn, us) && distance(pos.king_square(!us), queening) > steps
}

/// Is `sq` on the path of `us`'s pawn on `pawn`, ahead of it on its file?
fn on_path(sq: Square, pawn: Square, us: Color) -> bool {
    sq.file() == pawn.file() && sq.relative(us).rank() > pawn.relative(us).rank()
}

/// What a knight's or bishop's move costs in the mating net while a queen or rook does the
/// driving (`endgame KRBNK --positions 200`: 193 mated without it, 199 with it).
const MINOR_STEP_COST: i32 = 200;

/// Above any `net_score`: a pawn still running is worse than a queen or rook on the board.
const RUN_OFFSET: i32 = 1_000_000;

/// Bishop and knight (or two bishops on both colours) and no pawn: the colour of the corners
/// the defending king must be driven to (true: light squares; two bishops: any corner, None
/// when neither).
fn minor_mate(pos: &Position, side: Color) -> Option<Option<bool>> {
    if pos.pieces(side, Piece::Pawn).any() {
        return None; // pawns are to be queened first (`run_score`)
    }
    let bishops = pos.pieces(side, Piece::Bishop);
    let knights = pos.pieces(side, Piece::Knight);
    let light = |sq: Square| (sq.file() + sq.rank()) % 2 == 1;
    let colours = bishops.into_iter().fold((false, false), |(l, d), b| (l || light(b), d || !light(b)));
    if colours.0 && colours.1 {
        return Some(None); // bishops on both colours mate in any corner, knights or not
    }
    (bishops.any() && knights.any()).then(|| Some(light(bishops.lsb())))
}

/// The corners a bishop-and-knight mate can happen in: those of the bishop's colour (true:
/// light), or all four (None, bishops on both colours).
fn mating_corners(light: Option<bool>) -> impl Iterator<Item = Square> {
    [Square::new(0, 0), Square::new(7, 0), Square::new(0, 7), Square::new(7, 7)]
        .into_iter()
        .filter(move |&c| light.is_none_or(|l| ((c.file() + c.rank()) % 2 == 1) == l))
}

/// Distance of `sq` from the nearest corner of the colour a bishop-and-knight mate needs.
fn corner_distance(sq: Square, light: Option<bool>) -> i32 {
    mating_corners(light).map(|c| distance(sq, c)).min().unwrap_or(0)
}

fn has_heavy(pos: &Position, side: Color) -> bool {
    (pos.pieces(side, Piece::Queen) | pos.pieces(side, Piece::Rook)).any()
}

/// The squares the king of `defender` could reach, one king step at a time, through squares
/// that no piece of the attacker attacks (seen through the defending king) and that hold none of
/// its own pieces: the box it is confined to.
pub(crate) fn king_box(pos: &Position, defender: Color) -> Bitboard {
    let king = pos.king_square(defender);
    let open = !covered_for_king(pos, defender) & !pos.by_color(defender);
    let mut reach = king.bb();
    loop {
        let mut grown = reach;
        for sq in reach {
            grown |= attacks::king(sq) & open;
        }
        if grown == reach {
            return reach;
        }
        reach = grown;
    }
}

fn distance(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32).abs().max((a.rank() as i32 - b.rank() as i32).abs())
}

fn edge_distance(sq: Square) -> i32 {
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    f.min(7 - f).min(r).min(7 - r)
}

/// The squares next to the king of `defender` that it could step to: none of the attacker's
/// pieces attacks them (seen through the king) and none of its own stands there.
fn king_mobility(pos: &Position, defender: Color) -> i32 {
    let king = pos.king_square(defender);
    (attacks::king(king) & !covered_for_king(pos, defender) & !pos.by_color(defender)).count() as i32
}

/// The squares the attacker's pieces attack, seen through the king of `defender` (a king
/// stepping back along a checking line is still in check).
fn covered_for_king(pos: &Position, defender: Color) -> Bitboard {
    let occ = pos.occupied().without(pos.king_square(defender));
    let attacker = !defender;
    let mut covered = Bitboard::EMPTY;
    for sq in pos.by_color(attacker) {
        let (_, piece) = pos.piece_at(sq).expect("a piece of the attacker");
        covered |= attacks::piece_attacks(piece, attacker, sq, occ);
    }
    covered
}

/// King steps along files and ranks from `sq` to the nearest corner of the bishop's colour: unlike
/// `corner_distance` it still falls as the king is pushed along the edge toward that corner.
fn corner_steps(sq: Square, light: bool) -> i32 {
    mating_corners(Some(light))
        .map(|c| (sq.file() as i32 - c.file() as i32).abs() + (sq.rank() as i32 - c.rank() as i32).abs())
        .min()
        .unwrap_or(0)
}

/// How far the bare king is from being mated by bishop and knight in `pos` (the attacker to
/// move; lower is better). The box that measures the heavy pieces' net says little here (a
/// bishop and a knight cut off no rank or file), so the drive is measured by what the mate
/// needs: the king in a corner of the bishop's colour (`corner_distance`, and `corner_steps`
/// along the edge), our king near it and in front of it toward the centre, knight and bishop
/// close, and the fewest squares it would keep after our best next move. Two of our pieces
/// within its reach where one is unguarded lose one of them (the king takes the loose one, or
/// the guard when the loose one moves): that counts as a piece lost.
/// Weights from `endgame KBNK` runs (tuned on seeds 1 and 3, 200 starts each; on seeds 2, 4, 5
/// and 6, 300 each, 87.0% mated, 80.3% without the in-front, knight and bishop terms).
fn bishop_knight_score(pos: &Position, light: bool) -> i32 {
    let us = pos.side_to_move();
    let them = !us;
    let theirs = pos.king_square(them);
    let legal = pos.legal_moves();
    if mate_in_one(pos, &legal).is_some() {
        return -1000;
    }
    let reach = attacks::king(theirs);
    let near = pos.by_color(us) & !pos.pieces(us, Piece::King) & reach;
    let loose = near.into_iter().filter(|&p| !pos.attackers_to(p, us, pos.occupied()).any()).count() as i32;
    let falls = loose >= 1 && near.count() >= 2;
    let mobility = king_mobility(pos, them);
    let next = legal
        .iter()
        .filter(|&&mv| !hangs(pos, mv))
        .map(|&mv| king_mobility(&pos.play(mv), them))
        .min()
        .unwrap_or(mobility);
    let ours = pos.king_square(us);
    // Our king belongs in front of theirs, toward the centre; knight and bishop close by.
    let toward = |c: u8| if c < 4 { 2 } else { -2 };
    let in_front = theirs.offset(toward(theirs.file()), toward(theirs.rank())).unwrap_or(theirs);
    let near = |kind: Piece| pos.pieces(us, kind).into_iter().map(|sq| distance(sq, theirs)).min().unwrap_or(0);
    corner_distance(theirs, Some(light)) * 130
        + corner_steps(theirs, light) * 13
        + distance(ours, theirs) * 4
        + distance(ours, in_front) * 3
        + near(Piece::Knight) * 6
        + near(Piece::Bishop) * 3
        + next * 9
        + edge_distance(theirs) * 4
        + if falls { 30_000 } else { loose * 40 }
}

/// How far the defending king is from being mated in `pos` (the attacker to move): the box it
/// would be left after our best next move (so that a cut or a check the position allows counts
/// now, which is how the rook wins its tempo), then the box now, our king's distance to theirs,
/// and its distance from the edge. Lower is better for the attacker.
fn net_score(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let minor = if has_heavy(pos, us) { None } else { minor_mate(pos, us) };
    if let Some(Some(light)) = minor {
        return bishop_knight_score(pos, light);
    }
    let them = !us;
    let theirs = pos.king_square(them);
    let legal = pos.legal_moves();
    if mate_in_one(pos, &legal).is_some() {
        return -1000;
    }
    let region = king_box(pos, them);
    let now = region.count() as i32;
    let next = legal
        .iter()
        .filter(|&&mv| !hangs(pos, mv))
        .map(|&mv| king_box(&pos.play(mv), them).count() as i32)
        .min()
        .unwrap_or(now);
    let ours = pos.king_square(us);
    // Our king behind their king, between it and the edge it is driven to, cannot help mate.
    let behind = if in_band(ours, region) { 48 } else { 0 };
    // With bishops on both colours only the corners mate: drive the king there.
    let edge = match minor {
        Some(light) => corner_distance(theirs, light) * 60,
        None => edge_distance(theirs) * 2,
    };
    next * 16 + now * 4 + distance(ours, opposition_square(theirs, region)) * 8 + distance(ours, theirs) + edge + behind
}

/// Is `sq` within the rows (or files) that the box `region` spans along its narrow side, where
/// the edge it is pressed against lies? Only meaningful for a box against an edge.
fn in_band(sq: Square, region: Bitboard) -> bool {
    let (mut files, mut ranks) = ((8u8, 0u8), (8u8, 0u8));
    for s in region {
        files = (files.0.min(s.file()), files.1.max(s.file()));
        ranks = (ranks.0.min(s.rank()), ranks.1.max(s.rank()));
    }
    let edge_rank = ranks.0 == 0 || ranks.1 == 7;
    let edge_file = files.0 == 0 || files.1 == 7;
    if ranks.1 - ranks.0 <= files.1 - files.0 && edge_rank {
        (ranks.0..=ranks.1).contains(&sq.rank())
    } else if edge_file {
        (files.0..=files.1).contains(&sq.file())
    } else {
        false
    }
}

/// Where our king belongs to help mate the king on `king` confined to `region`: two steps in
/// front of it, toward the centre, across the narrow side of its box (the king that will be
/// checked along the edge must face ours there, in opposition).
fn opposition_square(king: Square, region: Bitboard) -> Square {
    let (mut files, mut ranks) = ((8u8, 0u8), (8u8, 0u8));
    for sq in region {
        files = (files.0.min(sq.file()), files.1.max(sq.file()));
        ranks = (ranks.0.min(sq.rank()), ranks.1.max(sq.rank()));
    }
    let toward = |c: u8| if c < 4 { 2 } else { -2 };
    let along_ranks = ranks.1 - ranks.0 <= files.1 - files.0;
    let (df, dr) = if along_ranks { (0, toward(king.rank())) } else { (toward(king.file()), 0) };
    king.offset(df, dr).unwrap_or(king)
}

/// Would our move leave the moved piece next to their king with nothing of ours guarding it?
fn hangs(pos: &Position, mv: Move) -> bool {
    let us = pos.side_to_move();
    let piece = pos.piece_kind_at(mv.from()).unwrap_or(Piece::Pawn);
    if piece == Piece::King || !attacks::king(pos.king_square(!us)).contains(mv.to()) {
        return false;
    }
    let occ = pos.occupied().without(mv.from()).with(mv.to());
    !pos.attackers_to(mv.to(), us, occ).without(mv.from()).any()
}

/// Material of `side` (thesis values, kings left out).
fn material(pos: &Position, side: Color) -> i32 {
    Piece::ALL[..5].iter().map(|&p| value(p) * pos.pieces(side, p).count() as i32).sum()
}

/// Our move in the mating phase, and a few words on it, or None when no legal move is left.
/// `game` gives the positions so far, so that none is repeated.
pub(crate) fn mating_net(
    game: &Game,
    legal: &MoveList,
    pick: &mut dyn FnMut(usize) -> usize,
) -> Option<(Move, String)> {
    let pos = game.position();
    if let Some(mv) = mate_in_one(pos, legal) {
        return Some((mv, "mate".to_string()));
    }
    let us = pos.side_to_move();
    let seen: Vec<u64> = game_hashes(game);
    let times = |hash: u64| seen.iter().filter(|&&h| h == hash).count();
    // (rank, score): rank 0 is a sound move, 1 one that repeats a position, 2 one that
    // stalemates or lets the defender repeat a position a third time; only the best rank is
    // chosen from, and within it the lowest worst-reply score (a piece lost counts heavily).
    let mut best: Option<((u8, i32), Vec<Move>)> = None;
    for &mv in legal.iter() {
        let after = pos.play(mv);
        let replies = after.legal_moves();
        // No reply is stalemate (mate was found above): a draw, as is a reply that repeats a
        // position a third time.
        let rank = if replies.is_empty()
            || times(after.hash()) >= 2
            || replies.iter().any(|&r| times(after.play(r).hash()) >= 2)
        {
            2
        } else if times(after.hash()) >= 1 || after.halfmove_clock() >= 100 {
            1
        } else {
            0
        };
        // A reply that takes a piece of ours or promotes a pawn of theirs outweighs any box.
        let mut worst = i32::MIN;
        let mut loses = false;
        for &reply in replies.iter() {
            let next = after.play(reply);
            let lost = material(&after, us) - material(&next, us) + material(&next, !us) - material(&after, !us);
            loses |= lost > 0;
            let net = has_heavy(&next, us) || (next.by_color(!us).count() == 1 && minor_mate(&next, us).is_some());
            let score = if net { net_score(&next) } else { run_score(&next) } + lost * 100;
            worst = worst.max(score);
        }
        // Losing material is worse than repeating a position once (with bishop and knight it
        // is the draw itself).
        let rank = if loses { rank.max(1) } else { rank };
        // Beside a queen or rook a minor piece's step is seldom progress, and always a new
        // position: without a cost the net could shuffle it until the fifty-move rule.
        let minor = matches!(pos.piece_kind_at(mv.from()), Some(Piece::Knight | Piece::Bishop));
        let worst = if minor && has_heavy(pos, us) { worst + MINOR_STEP_COST } else { worst };
        let key = (rank, worst);
        match &mut best {
            Some((k, moves)) if key == *k => moves.push(mv),
            Some((k, _)) if key > *k => {}
            _ => best = Some((key, vec![mv])),
        }
    }
    let ((rank, score), moves) = best?;
    let mv = moves[pick(moves.len())];
    let after = pos.play(mv);
    let words = format!(
        "box {} squares, worst reply {score}{}",
        king_box(&after, !us).count(),
        if rank > 0 { " (no sound move)" } else { "" }
    );
    Some((mv, words))
}

/// The hashes of every position of the game with the side to move of the current one's
/// opponent, i.e. the positions our move could repeat.
fn game_hashes(game: &Game) -> Vec<u64> {
    game.position_hashes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::checks;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// The WAC positions and the mates in one.
    fn wac_and_mates() -> Vec<Position> {
        let suites = [include_str!("../../tests/data/wac.epd"), include_str!("../../tests/data/mate1.epd")];
        suites.iter().flat_map(|s| crate::agents::epd_positions(s)).collect()
    }

    /// `root` and the positions after each of its legal moves.
    fn one_move_on(root: Position) -> impl Iterator<Item = Position> {
        std::iter::once(root).chain(root.legal_moves().to_vec().into_iter().map(move |m| root.play(m)))
    }

    /// `mate_in_one` (each move asked in turn) finds the first mate among the listed checks,
    /// over WAC, ECM and the mates and the positions one move later.
    #[test]
    fn mate_in_one_is_the_first_mate_among_the_checks() {
        let suites = [
            include_str!("../../tests/data/wac.epd"),
            include_str!("../../tests/data/ecm.epd"),
            include_str!("../../tests/data/mate1.epd"),
        ];
        let mut mates = 0;
        for root in suites.iter().flat_map(|s| crate::agents::epd_positions(s)) {
            for p in one_move_on(root) {
                let legal = p.legal_moves();
                let want = checks(&p, &legal).iter().copied().find(|&m| !p.play(m).has_legal_move());
                assert_eq!(mate_in_one(&p, &legal), want, "{}", p.to_fen());
                mates += usize::from(want.is_some());
            }
        }
        assert!(mates > 100, "only {mates} mates");
    }

    #[test]
    fn mate_in_one_is_found() {
        // Qg7# (the king f7 guards g7).
        let p = pos("7k/5K2/8/8/8/8/8/6Q1 w - - 0 1");
        let mv = mate_in_one(&p, &p.legal_moves()).expect("a mate in one");
        assert!(p.play(mv).is_checkmate());
        // With the king on g6 instead the queen cannot reach g7, and no check mates.
        let p = pos("7k/8/6K1/8/8/8/8/6Q1 w - - 0 1");
        assert!(mate_in_one(&p, &p.legal_moves()).is_none());
    }

    #[test]
    fn mate_in_two_by_checks_is_found() {
        // The back rank: Qd8+ Rxd8 Rxd8#.
        let p = pos("2r3k1/5ppp/8/8/8/8/3Q1PPP/3R2K1 w - - 0 1");
        assert!(mate_in_one(&p, &p.legal_moves()).is_none());
        let mv = mate_in_two(&p, &checks(&p, &p.legal_moves())).expect("a mate in two");
        assert_eq!(mv.to_string(), "d2d8");
        // No check leads to mate here.
        let p = pos("7k/8/8/8/8/8/8/K5Q1 w - - 0 1");
        assert!(mate_in_two(&p, &checks(&p, &p.legal_moves())).is_none());
    }

    #[test]
    fn mate_in_two_or_three_is_mate_in_two_else_mate_in_three() {
        let (mut twos, mut threes) = (0, 0);
        for root in wac_and_mates() {
            for p in one_move_on(root) {
                let checks = checks(&p, &p.legal_moves());
                let want =
                    mate_in_two(&p, &checks).map(|m| (m, 2)).or_else(|| mate_in_three(&p, &checks).map(|m| (m, 3)));
                assert_eq!(mate_in_two_or_three(&p, &checks), want, "{}", p.to_fen());
                twos += usize::from(want.is_some_and(|(_, n)| n == 2));
                threes += usize::from(want.is_some_and(|(_, n)| n == 3));
            }
        }
        assert!(twos > 20 && threes > 20, "{twos} {threes}");
    }

    /// The search with the mate in four (`RootChecks` with its `Second`s kept for both the mate
    /// in three and four) finds what the plain rules find, spending the same budgets.
    #[test]
    fn mate_in_two_to_four_is_the_plain_rules_in_turn() {
        let mut fours = 0;
        for root in wac_and_mates() {
            for p in one_move_on(root) {
                let checks = checks(&p, &p.legal_moves());
                for (three, four) in [(MATE_IN_THREE_BUDGET, MATE_IN_FOUR_BUDGET), (30, 30), (200, 4), (0, 0)] {
                    let (mut want_three, mut want_four) = (three, four);
                    let want = mate_in_two(&p, &checks)
                        .map(|m| (m, 2))
                        .or_else(|| {
                            root_mate_by_checks(&p, &checks, 3, MATE_IN_TWO_REPLIES, &mut want_three).map(|m| (m, 3))
                        })
                        .or_else(|| mate_in_four(&p, &checks, &mut want_four).map(|m| (m, 4)));
                    let (mut left_three, mut left_four) = (three, four);
                    assert_eq!(
                        mate_in_two_to_four_within(&p, &checks, &mut left_three, &mut left_four),
                        want,
                        "{} {three} {four}",
                        p.to_fen()
                    );
                    assert_eq!((left_three, left_four), (want_three, want_four), "{} {three} {four}", p.to_fen());
                    fours += usize::from(want.is_some_and(|(_, n)| n == 4));
                }
            }
        }
        assert!(fours > 10, "{fours} mates in four");
    }

    /// The search behind `mate_in_two_or_three` (`RootChecks`, `first_mate_by_checks`) finds
    /// what the plain rule (`mate_by_checks`) finds and spends the same budget doing so,
    /// whatever the budget: over WAC and the mates, and the positions one move later.
    #[test]
    fn the_mate_search_spends_the_rules_budget() {
        let (mut found, mut spent_out) = (0, 0);
        for root in wac_and_mates() {
            for p in one_move_on(root) {
                let checks = checks(&p, &p.legal_moves());
                for start in [0, 1, 4, 30, MATE_IN_THREE_BUDGET] {
                    for moves in 1..=3 {
                        let (mut want_left, mut left) = (start, start);
                        let want = mate_by_checks(&p, &checks, moves, MATE_IN_THREE_LATER_REPLIES, &mut want_left);
                        assert_eq!(
                            first_mate_by_checks(&p, checks.as_slice(), moves, &mut left),
                            want,
                            "{} {moves} {start}",
                            p.to_fen()
                        );
                        assert_eq!(left, want_left, "{} {moves} {start}", p.to_fen());
                    }
                    let (mut want_left, mut left) = (start, start);
                    let want = root_mate_by_checks(&p, &checks, 2, MATE_IN_TWO_REPLIES, &mut { u32::MAX })
                        .map(|m| (m, 2))
                        .or_else(|| {
                            root_mate_by_checks(&p, &checks, 3, MATE_IN_TWO_REPLIES, &mut want_left).map(|m| (m, 3))
                        });
                    assert_eq!(mate_in_two_or_three_within(&p, &checks, &mut left), want, "{} {start}", p.to_fen());
                    assert_eq!(left, want_left, "{} {start}", p.to_fen());
                    found += usize::from(want.is_some());
                    spent_out += usize::from(want_left == 0);
                }
            }
        }
        assert!(found > 100 && spent_out > 100, "{found} mates found, the budget spent {spent_out} times");
    }

    #[test]
    fn mate_in_three_by_checks_is_found_within_its_budget() {
        // WAC.219: Qf1+ Bg1 Qf3+ Bxf3 Bxf3# (every reply allows a mate in two by checks).
        let p = pos("7k/p4q1p/1pb5/2p5/4B2Q/2P1B3/P6P/7K b - - 0 1");
        let checks = checks(&p, &p.legal_moves());
        assert!(mate_in_two(&p, &checks).is_none());
        assert_eq!(mate_in_three(&p, &checks).expect("a mate in three").to_string(), "f7f1");
        // With no budget left nothing is found.
        assert!(root_mate_by_checks(&p, &checks, 3, MATE_IN_TWO_REPLIES, &mut 0).is_none());
        // A lone queen against a king in the open has no mate in three by checks.
        let p = pos("8/8/3k4/8/8/8/8/K5Q1 w - - 0 1");
        assert!(mate_in_three(&p, &checks_of(&p)).is_none());
    }

    #[test]
    fn bishop_and_knight_drive_to_the_bishops_corner() {
        // The bishop on c1 (dark): a1 and h8 are the mating corners.
        let p = pos("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1");
        assert!(is_mating_phase(&p));
        assert_eq!(minor_mate(&p, Color::White), Some(Some(false)));
        assert_eq!(corner_distance(Square::parse("b2").unwrap(), Some(false)), 1);
        assert_eq!(corner_distance(Square::parse("b7").unwrap(), Some(false)), 6);
        // Two bishops on both colours: any corner.
        let p = pos("8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1");
        assert_eq!(minor_mate(&p, Color::White), Some(None));
        assert_eq!(corner_distance(Square::parse("b7").unwrap(), None), 1);
        // With a knight beside them too: still any corner, not the first bishop's.
        assert_eq!(minor_mate(&pos("8/8/8/4k3/8/8/8/2B1KBN1 w - - 0 1"), Color::White), Some(None));
        // Two knights cannot force mate, and with a pawn the pawn is queened first.
        assert!(!is_mating_phase(&pos("8/8/8/4k3/8/8/8/2N1KN2 w - - 0 1")));
        assert_eq!(minor_mate(&pos("8/8/8/4k3/8/8/4P3/2B1KN2 w - - 0 1"), Color::White), None);
    }

    #[test]
    fn a_pawn_outside_the_kings_square_runs_free() {
        let a3 = Square::parse("a3").unwrap();
        // Five moves to queen (the first a double step would be four) against seven king steps.
        assert!(runs_free(&pos("8/8/8/8/8/P7/8/K6k w - - 0 1"), a3));
        // Their king on e5 reaches a8 in four.
        assert!(!runs_free(&pos("8/8/8/4k3/8/P7/8/K7 w - - 0 1"), a3));
        // Our own king on its path stops it.
        assert!(!runs_free(&pos("K7/8/8/8/8/P7/8/7k w - - 0 1"), a3));
        // Black's pawn runs down the board.
        assert!(runs_free(&pos("k6K/8/p7/8/8/8/8/8 b - - 0 1"), Square::parse("a6").unwrap()));
        assert!(!runs_free(&pos("k7/8/p7/8/4K3/8/8/8 b - - 0 1"), Square::parse("a6").unwrap()));
    }

    #[test]
    fn corner_steps_fall_along_the_edge_toward_the_bishops_corner() {
        // Dark corners a1 and h8: from a8 (a light corner) seven steps, fewer each step down.
        let steps: Vec<i32> =
            ["a8", "a7", "a6", "a2", "a1"].iter().map(|s| corner_steps(Square::parse(s).unwrap(), false)).collect();
        assert_eq!(steps, vec![7, 6, 5, 1, 0]);
        assert_eq!(corner_steps(Square::parse("b1").unwrap(), true), 6);
    }

    #[test]
    fn the_box_is_where_the_king_can_still_go() {
        // The rook d1 cuts the king a5 off on the a-c files and covers the first rank: 21 squares.
        let p = pos("8/8/8/k7/8/8/8/3RK3 b - - 0 1");
        assert_eq!(king_box(&p, Color::Black).count(), 21);
        // The queen c6 (giving check) leaves the king a8 with a7 and b8 only.
        let p = pos("k7/8/2Q5/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(king_box(&p, Color::Black).count(), 3);
    }

    #[test]
    fn the_net_never_stalemates_and_mates_when_it_can() {
        let game = Game::new(pos("7k/5K2/8/8/8/8/8/6Q1 w - - 0 1"));
        let (mv, _) = mating_net(&game, &game.position().legal_moves(), &mut |_| 0).unwrap();
        assert!(game.position().play(mv).is_checkmate());
        // Qf7 would stalemate the king h8: the net never plays it, whatever the tie-break.
        let game = Game::new(pos("7k/8/8/6K1/8/8/8/5Q2 w - - 0 1"));
        for seed in 0..8 {
            let (mv, _) = mating_net(&game, &game.position().legal_moves(), &mut |n| seed % n).unwrap();
            let after = game.position().play(mv);
            assert!(!after.is_stalemate(), "{mv}");
        }
    }
}

//! Mate by checks (level 9, `mating`): a mate in one is always played (`mate_in_one`,
//! `mate_among`), and before the poll the MasterAgent looks for a mate in two, three or four in
//! which every move of ours is a check leaving the king few replies (`mate_in_two_to_four`); the
//! look-ahead asks the same of the opponent, mate in two or three, for each finalist
//! (`mate_in_two_or_three`). Only checks are tried, only while the king has few ways out, and
//! each search within a budget of positions (`limits.rs`), so that this stays the
//! thesis's "move-attack of the king … most promising to lead to check mate" and not a search
//! of every move. The plain statement of each rule is kept beside the search, for the tests to
//! hold it to.

use crate::agents::limits::{
    MATE_IN_FOUR_BUDGET, MATE_IN_FOUR_FIRST_REPLIES, MATE_IN_THREE_BUDGET, MATE_IN_THREE_LATER_REPLIES,
    MATE_IN_TWO_BUDGET, MATE_IN_TWO_REPLIES, OUR_MATE_BY_CHECKS,
};
use crate::board::{
    FewMoves, KingSteps, Move, MoveList, Piece, Position, check_test, checking_moves, few_replies, for_each_check,
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

/// One of `checks` after which every reply allows a mate in one: the king's attackers look one check
/// further when the first one leaves the king a way out (a "move-attack of the king … most
/// promising to lead to check mate", thesis 6). Only checks are tried, and only mates after
/// them, so it stays a handful of positions; at most `MATE_IN_TWO_BUDGET` are looked at.
#[cfg(test)]
pub(crate) fn mate_in_two(pos: &Position, checks: &MoveList) -> Option<Move> {
    root_mate_by_checks(pos, checks, 2, MATE_IN_TWO_REPLIES, &mut { MATE_IN_TWO_BUDGET })
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
            let piece = pos.moving_piece(mv);
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

// The mates in two, three and four are the three searches below.
const _: () = assert!(OUR_MATE_BY_CHECKS == 4, "mate_in_two_to_four_within looks for mates in two, three and four");

/// `mate_in_two_to_four` with the budgets of the mate in three and four given (see
/// `mate_in_two_or_three_within`); the mate in two's is `MATE_IN_TWO_BUDGET`.
fn mate_in_two_to_four_within(
    pos: &Position,
    checks: &MoveList,
    three: &mut u32,
    four: &mut u32,
) -> Option<(Move, u32)> {
    let mut roots = RootChecks::new(pos, checks);
    if let Some(mv) = roots.mate_by_checks(2, &mut { MATE_IN_TWO_BUDGET }) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::checks;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// The WAC positions and the mates in one.
    fn wac_and_mates() -> Vec<Position> {
        let suites = [include_str!("../../../tests/data/wac.epd"), include_str!("../../../tests/data/mate1.epd")];
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
            include_str!("../../../tests/data/wac.epd"),
            include_str!("../../../tests/data/ecm.epd"),
            include_str!("../../../tests/data/mate1.epd"),
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
                    let want = root_mate_by_checks(&p, &checks, 2, MATE_IN_TWO_REPLIES, &mut { MATE_IN_TWO_BUDGET })
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
}

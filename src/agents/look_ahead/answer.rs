//! The opponent's answer to a candidate: the position after our move handed to their agents,
//! who report their best capture or promotion, a pawn's step to promote, their best fork and
//! trap, and their best check (`best_answer`); after our check, their best reply to it
//! followed one step further (`best_evasion`).

use super::captures::{back_after, back_ceiling};
use super::forks::{guarded_below, their_fork};
use super::material::{immediate, most_valuable};
use super::traps::their_trap;
use crate::agents::agent::Estimate;
use crate::agents::eval::Eval;
use crate::agents::features::Features;
use crate::agents::promotion::{self, promotion_gain};
use crate::agents::scene::Scene;
use crate::board::values::value;
use crate::board::{Bitboard, Move, MoveList, Piece, Position, checking_moves_into};

/// The opponent's agents' best answer to our move, from `after` (their move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Answer {
    /// What it wins them (never below zero, except after a check, where every reply may lose),
    /// or `MATE`.
    pub gain: i32,
    /// The square of ours it takes, if it is a capture.
    pub takes: Option<crate::board::Square>,
}

/// Their best attack (a capture or promotion, estimated as our agents estimate theirs: with
/// `exchange`, the whole exchange on each square), their best move-attack (a fork, with
/// `fork`; a trap) and their best check, after our move (their mates are asked by
/// `final_check`). The board is the real one
/// after our move, so discovered attacks are seen.
///
/// Asked of our own agents in the scene after our move, which is cheaper than playing out
/// their moves: the threat on each of our pieces they attack is what their best capture of it
/// wins. Their forks are looked for among the squares their pieces can reach.
///
/// Only whether their answer wins `enough` may matter (see `weigh`): once it is known to, the
/// rest is not looked at, and the answer returned wins at least `enough` but maybe less than
/// their best. Below `enough` it is exact. (`check`: whether our move gives check, which the
/// caller knows.)
pub(crate) fn best_answer(
    pos: &Position,
    est: &Estimate,
    after: &Position,
    check: bool,
    features: Features,
    enough: i32,
) -> Answer {
    if check {
        // In check they may only answer the check, so each of their few replies is followed one
        // step further: what it takes, against our best capture after it.
        return best_evasion(after, features, enough, true);
    }
    let ev = Eval::new(pos, features);
    let scene = Scene::after(pos, est.mv);
    let mut best = Answer { gain: 0, takes: None };
    for sq in scene.our_pieces() & scene.their_attacks(pos) {
        let piece = scene.piece_on(pos, sq);
        if piece == Piece::King {
            continue; // a check: their move is forced elsewhere, and mates are asked above
        }
        // A capture wins at most the piece taken: one worth no more than the best so far
        // cannot beat it.
        if value(piece) <= best.gain {
            continue;
        }
        // The moved piece's threat where it landed is in its estimate, when worked out.
        let landing = est.landing().filter(|_| sq == est.mv.to());
        let gain = landing.unwrap_or_else(|| ev.threat_at(&scene, sq, piece));
        if gain > best.gain {
            best = Answer { gain, takes: Some(sq) };
            if gain >= enough {
                return best;
            }
        }
    }
    let promotion = their_promotion(after, features);
    if promotion > best.gain {
        best = Answer { gain: promotion, takes: None };
    }
    // A pawn's step to the seventh rank can win no more than the promotion it threatens.
    if features.has(Features::PROMOTION) && best.gain < promotion_gain() {
        let push = their_step_to_promote(after, features);
        if push > best.gain {
            best = Answer { gain: push, takes: None };
        }
    }
    if best.gain >= enough {
        return best;
    }
    // Where a piece of theirs would step under threat: their fork and trap both pass it over.
    let guarded = guarded_below(after);
    if features.has(Features::FORK) {
        let fork = their_fork(after, features, &guarded, best.gain, enough);
        if fork > best.gain {
            best = Answer { gain: fork, takes: None };
        }
        if best.gain >= enough {
            return best;
        }
    }
    let trap = their_trap(after, features, &guarded, best.gain, enough);
    if trap > best.gain {
        best = Answer { gain: trap, takes: None };
    }
    if best.gain >= enough {
        return best;
    }
    let check = their_check(after, features, best.gain, enough);
    if check > best.gain {
        best = Answer { gain: check, takes: None };
    }
    best
}

/// Their best check in `after` (their move) and what follows it: what the check takes, less
/// the best our agents then do in reply (`best_evasion` from our side: in check we have few
/// replies, each followed by their best capture). A check that forks the king and a piece, or
/// uncovers an attack on one, wins that piece; one we answer by taking the checker costs them.
/// Exact above `floor` (what their other answers already win) and below `enough`; once a check
/// is known to win `enough`, the others are not looked at (`best_answer`).
fn their_check(after: &Position, features: Features, floor: i32, enough: i32) -> i32 {
    let us = !after.side_to_move();
    // After the check they take at most what it took and one piece of ours.
    let richest = most_valuable(after, after.by_color(us) & !after.pieces(us, Piece::King));
    let mut best = floor;
    let mut checks = MoveList::new();
    checking_moves_into(after, &mut checks);
    // The checks taking the most first: the likeliest best, and once one taking `taken` cannot
    // beat the best so far, none after it can. (The best is the same in any order.)
    checks.as_mut_slice().sort_unstable_by_key(|&c| std::cmp::Reverse(immediate(after, c)));
    for &c in checks.iter() {
        let taken = immediate(after, c);
        if taken + richest <= best || best >= enough {
            break;
        }
        // Only a reply of ours winning back less than `taken - best` leaves them more than the
        // best so far: once one wins that much, the others need not be looked at.
        let mut next = *after;
        next.make_move(c);
        let ours_back = best_evasion(&next, features, taken - best, false).gain;
        best = best.max(taken - ours_back);
    }
    best
}

/// Their best answer when our move gives check: every legal reply (they have few), what it
/// takes less what our agents' best capture then wins back. A check that leaves them only
/// replies losing material is worth that material (a negative answer). With `safe` (our check;
/// `their_check` keeps the plain count), after a reply that hits back our capture wins only what
/// `safe_capture` leaves it (not asked after every reply: it undervalues the follow-up of key
/// checks), and we may lose a piece besides
/// (`back_after`). Exact below `stop`; once a reply is found winning `stop`, that one is
/// returned, with what it is known to win at least (`stop` or more): when the reply taking the
/// most leaves us attacking nothing worth its gain, our captures after it are not worked out
/// (`back_ceiling`; asked of every reply, it cost more than it saved).
fn best_evasion(after: &Position, features: Features, stop: i32, safe: bool) -> Answer {
    // The replies taking the most come first: they are the likeliest best, which makes the
    // others cheaper to rule out (or ends the look at `stop`). At equal gain the reply listed
    // first still wins (`takes` is the same as in the listed order).
    // (Listed in place: a list returned by value is copied whole.)
    let mut replies = MoveList::new();
    after.generate(&mut replies, Bitboard::FULL);
    let answer =
        |reply: Move, gain: i32| Answer { gain, takes: crate::agents::counters::captured_square(after, reply) };
    // The first of them, found without ordering the rest: often it settles the answer alone.
    let mut first: Option<(usize, i32)> = None;
    for (i, &r) in replies.iter().enumerate() {
        let taken = immediate(after, r);
        if first.is_none_or(|(_, most)| taken > most) {
            first = Some((i, taken));
        }
    }
    let Some((first, most)) = first else { return Answer { gain: 0, takes: None } };
    let mut next = *after;
    next.make_move(replies[first]);
    // What we take back after it is at most what we then attack: when even that leaves the
    // reply winning `stop`, nothing more need be known.
    let at_least = most - back_ceiling(&next);
    if at_least >= stop {
        return answer(replies[first], at_least);
    }
    let gain = most - back_after(&next, replies[first], features, safe, i32::MAX);
    // A reply wins at most what it takes and (after our check, `back_after_hit`) the dearest
    // piece of ours besides.
    let them = after.side_to_move();
    let besides =
        if safe { most_valuable(after, after.by_color(!them) & !after.pieces(!them, Piece::King)) } else { 0 };
    // It wins `stop`; or as much as any later reply (none takes more) could.
    if gain >= stop || gain >= most + besides {
        return answer(replies[first], gain);
    }
    let mut order: Vec<(i32, usize)> = replies.iter().enumerate().map(|(i, &r)| (immediate(after, r), i)).collect();
    order.sort_by_key(|&(taken, i)| (std::cmp::Reverse(taken), i));
    let mut best: (Answer, usize) = (answer(replies[first], gain), first);
    for (taken, i) in order.into_iter().filter(|&(_, i)| i != first) {
        // A reply that cannot win more than the best so far is passed over (nor one that could
        // only equal it but is listed later), and our answer need only be known up to where it
        // would.
        let (b, j) = best;
        if taken + besides < b.gain || (taken + besides == b.gain && i > j) {
            continue;
        }
        // Listed earlier, it also wins by taking exactly as much as the best.
        let enough = taken - b.gain + i32::from(i < j);
        let mut next = *after;
        next.make_move(replies[i]);
        let gain = taken - back_after(&next, replies[i], features, safe, enough);
        if gain > b.gain || (gain == b.gain && i < j) {
            best = (answer(replies[i], gain), i);
            if gain >= stop {
                break;
            }
        }
    }
    best.0
}

/// What their best promotion wins in `after` (their move): the queen less the pawn, less what
/// we take back on the queening square.
fn their_promotion(after: &Position, features: Features) -> i32 {
    let them = after.side_to_move();
    let pawns = after.pieces(them, Piece::Pawn) & promotion::seventh_rank(them);
    if pawns.is_empty() {
        return 0;
    }
    let ev = Eval::new(after, features);
    let mut best = 0;
    for &mv in after.legal_captures_and_promotions().iter() {
        if mv.promotion() != Some(Piece::Queen) {
            continue;
        }
        let scene = Scene::after(after, mv);
        let gain = after.captured_piece(mv).map_or(0, value) + value(Piece::Queen) - value(Piece::Pawn);
        best = best.max(gain - ev.threat_at(&scene, mv.to(), Piece::Queen));
    }
    best
}

/// With `promotion`: a pawn of theirs stepping safely to the seventh rank when no move of ours
/// then answers its promotion (takes it, stands on its queening square or guards it,
/// `promotion::answers`): the promotion is as good as played, a queen for the pawn. Asking only
/// their promotion now (`their_promotion`) would let a pawn one step further back walk through
/// (a7 and a8=Q with our knight and bishop away from a8). Pawns on the sixth rank with the
/// square ahead empty are rare, so our replies are listed only then.
fn their_step_to_promote(after: &Position, features: Features) -> i32 {
    use crate::board::Color;
    let them = after.side_to_move();
    let sixth = Bitboard::rank(if them == Color::White { 5 } else { 2 });
    let step = if them == Color::White { 1 } else { -1 };
    let ev = Eval::new(after, features);
    for from in after.pieces(them, Piece::Pawn) & sixth {
        let (Some(to), Some(queening)) = (from.offset(0, step), from.offset(0, 2 * step)) else { continue };
        if after.occupied().contains(to) || after.occupied().contains(queening) {
            continue;
        }
        // A step where we win the pawn is answered by taking it.
        let mv = Move::new(from, to);
        if !after.is_legal(mv) || ev.threat_at(&Scene::after(after, mv), to, Piece::Pawn) > 0 {
            continue;
        }
        let next = after.play(mv);
        if !next.legal_moves().iter().any(|&reply| promotion::answers(&next, reply, to, queening)) {
            return promotion_gain();
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::wac_and_one_move_on;

    #[test]
    fn best_evasion_is_the_first_listed_reply_of_the_best_gain() {
        // The plain statement: every reply in the listed order, our whole best capture after it.
        let plain = |after: &Position, features: Features, safe: bool| {
            let mut best: Option<Answer> = None;
            for &reply in after.legal_moves().iter() {
                let next = after.play(reply);
                let back = back_after(&next, reply, features, safe, i32::MAX);
                let gain = immediate(after, reply) - back;
                if best.is_none_or(|b| gain > b.gain) {
                    best = Some(Answer { gain, takes: crate::agents::counters::captured_square(after, reply) });
                }
            }
            best.unwrap_or(Answer { gain: 0, takes: None })
        };
        let features = Features::level(9).unwrap();
        let mut checks = 0;
        // Checks one and two moves on from WAC.
        let two_on = wac_and_one_move_on()
            .into_iter()
            .flat_map(|p| p.legal_moves().iter().map(|&mv| p.play(mv)).collect::<Vec<_>>());
        for p in wac_and_one_move_on().iter().chain(two_on.collect::<Vec<_>>().iter()).filter(|p| p.is_check()) {
            for safe in [false, true] {
                let exact = plain(p, features, safe);
                assert_eq!(best_evasion(p, features, i32::MAX, safe), exact, "{p:?}");
                for stop in [-300, 0, 100, 500] {
                    let cut = best_evasion(p, features, stop, safe);
                    assert!(
                        if exact.gain < stop { cut == exact } else { cut.gain >= stop && cut.gain <= exact.gain },
                        "{p:?} {stop}"
                    );
                }
            }
            checks += 1;
        }
        assert!(checks > 10_000, "{checks}");
    }
}

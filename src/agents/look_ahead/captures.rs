//! What a side wins back by capturing, as the look-ahead follows a check one step further: our
//! best capture after their reply to a check (`back_after`, `best_capture`, `safe_capture` when
//! the reply may hit back, `back_after_hit` when it does), and the most it can be
//! (`back_ceiling`), which often settles a reply without working the captures out.

use super::material::{immediate, most_valuable};
use crate::agents::eval::Eval;
use crate::agents::features::Features;
use crate::agents::fork::Tally;
use crate::agents::promotion::{self, promotion_gain};
use crate::agents::scene::Scene;
use crate::board::values::value;
use crate::board::{Move, MoveList, Piece, Position, attacks};

/// The most `back_after` can win in `next`: the dearest piece of theirs (not the king) the side
/// to move attacks, or a pawn taken en passant, and a queen's promotion besides when it has a
/// pawn on the seventh rank (a capture wins no more than the piece taken and the promotion).
pub(super) fn back_ceiling(next: &Position) -> i32 {
    let us = next.side_to_move();
    let attacked = Scene::now(next).our_attacks(next) & next.by_color(!us) & !next.pieces(!us, Piece::King);
    let dearest = most_valuable(next, attacked);
    let en_passant = if next.ep_square().is_some() { value(Piece::Pawn) } else { 0 };
    let promotion =
        if (next.pieces(us, Piece::Pawn) & promotion::seventh_rank(us)).any() { promotion_gain() } else { 0 };
    dearest.max(en_passant) + promotion
}

/// What we win back in `next` (our move) after their `reply` to a check: our best capture, and
/// after our own check (`safe`) a reply that hits back leaves us only what `safe_capture`
/// leaves, or, by a piece other than their king, `back_after_hit`. (A king step next to our
/// checker rarely hits a piece we cannot keep, and counting it would misjudge key checks whose
/// sacrifices stand en prise by design.)
pub(super) fn back_after(next: &Position, reply: Move, features: Features, safe: bool, enough: i32) -> i32 {
    match safe && reply_attacks(next, reply) {
        true if next.piece_kind_at(reply.to()) != Some(Piece::King) => back_after_hit(next, features, enough),
        true => safe_capture(next, features, enough),
        false => best_capture(next, features, enough),
    }
}

/// `back_after` when their reply to our check hits one of our pieces: `safe_capture`, or, when
/// no capture wins anything, minus the second dearest threat on our pieces: we save one, not
/// both. Bb5+ c6 with our queen attacked by a pawn already, and Qa4+ Bd7 with a knight en prise,
/// would otherwise count the reply as harmless because our quiet move "keeps what stands".
fn back_after_hit(next: &Position, features: Features, enough: i32) -> i32 {
    // Whether any capture wins something is always asked: only then is the loss counted.
    let back = safe_capture(next, features, enough.max(1));
    if back > 0 {
        return back;
    }
    // Their threats on our pieces tallied as a fork of theirs: it guarantees the second.
    let ev = Eval::new(next, features);
    let now = Scene::now(next);
    let mut tally = Tally::default();
    for sq in now.our_pieces() & now.their_attacks(next) {
        let kind = next.piece_on(sq);
        if kind != Piece::King {
            tally.capture(sq, ev.threat_at(&now, sq, kind));
        }
    }
    -tally.fork().map_or(0, |f| f.gain)
}

/// Whether the piece that made `reply` (now in `next`, our move) attacks a piece of ours, not a
/// pawn or the king: an interposition or a king step that hits back.
fn reply_attacks(next: &Position, reply: Move) -> bool {
    let us = next.side_to_move();
    let piece = next.piece_on(reply.to());
    let hits = attacks::tables().piece_attacks(piece, !us, reply.to(), next.occupied());
    (hits & next.by_color(us) & !next.pieces(us, Piece::King) & !next.pieces(us, Piece::Pawn)).any()
}

/// What the side to move in `pos` wins back after a check and its reply: its best capture (or
/// promotion) less the opponent's best capture after it, or nothing (a quiet move keeps what
/// stands). The reply to a check may itself attack (a piece interposed that hits our queen), and
/// a capture that leaves a dearer piece hanging wins nothing. Exact below `enough`, at least
/// `enough` otherwise.
fn safe_capture(pos: &Position, features: Features, enough: i32) -> i32 {
    let mut best = 0;
    let mut captures = MoveList::new();
    pos.legal_captures_and_promotions_into(&mut captures);
    // The capture taking the most first: what it wins often leaves the others nothing to beat.
    let first =
        captures.iter().enumerate().max_by_key(|&(i, &mv)| (immediate(pos, mv), std::cmp::Reverse(i))).map(|(i, _)| i);
    for i in first.into_iter().chain((0..captures.len()).filter(|&i| Some(i) != first)) {
        if best >= enough {
            break;
        }
        let mv = captures[i];
        let taken = immediate(pos, mv);
        if taken <= best {
            continue;
        }
        let mut next = *pos;
        next.make_move(mv);
        best = best.max(taken - best_capture(&next, features, taken - best));
    }
    best
}

/// What the best capture (or promotion) of the side to move in `pos` wins, estimated by its
/// agents (with `exchange`, the whole exchange), never below zero; exact below `enough`, and
/// at least `enough` otherwise (the caller only asks whether it reaches that much).
fn best_capture(pos: &Position, features: Features, enough: i32) -> i32 {
    let ev = Eval::new(pos, features);
    let mut best = 0;
    let mut captures = MoveList::new();
    pos.legal_captures_and_promotions_into(&mut captures);
    for &mv in captures.iter() {
        if best >= enough {
            break;
        }
        let victim = pos.captured_piece(mv);
        if victim.is_none() && mv.promotion().is_none() {
            continue;
        }
        let piece = pos.moving_piece(mv);
        let landed = mv.promotion().unwrap_or(piece);
        // The threat where it lands only takes away: a capture worth no more than the best so
        // far without it cannot beat it.
        let taken = victim.map_or(0, value) + value(landed) - value(piece);
        if taken <= best {
            continue;
        }
        let scene = Scene::after(pos, mv);
        best = best.max(taken - ev.threat_at(&scene, mv.to(), landed));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::wac_and_one_move_on;

    /// `back_ceiling` is never below what `back_after` wins back, whichever way it is asked (a
    /// promotion and en passant included), and is often above it (a guarded piece attacked).
    #[test]
    fn what_we_win_back_never_tops_back_ceiling() {
        let features = Features::level(9).unwrap();
        let (mut above, mut promotions) = (0, 0);
        for p in wac_and_one_move_on() {
            let ceiling = back_ceiling(&p);
            let exact = best_capture(&p, features, i32::MAX);
            for back in [exact, safe_capture(&p, features, i32::MAX), back_after_hit(&p, features, i32::MAX)] {
                assert!(back <= ceiling, "{p:?} {back} {ceiling}");
            }
            above += usize::from(exact < ceiling);
            promotions += usize::from(exact > value(Piece::Queen));
        }
        assert!(above > 1000 && promotions > 0, "{above} {promotions}");
    }

    #[test]
    fn best_capture_is_exact_below_enough() {
        let features = Features::level(9).unwrap();
        let mut wins = 0;
        for p in wac_and_one_move_on() {
            let exact = best_capture(&p, features, i32::MAX);
            wins += usize::from(exact > 0);
            for enough in [1, 100, 300, 500, 900] {
                let b = best_capture(&p, features, enough);
                assert!(if exact < enough { b == exact } else { b >= enough }, "{p:?} {exact} {b} enough {enough}");
            }
        }
        assert!(wins > 1000, "{wins}");
    }
}

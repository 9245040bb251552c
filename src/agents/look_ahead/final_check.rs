//! The finalist's own check: the look-ahead's worth of a candidate leaves out what costs a
//! move generation or more (a mate it gives, a stalemate, a mate it lets them give), so the
//! candidate about to be played is asked that last (`final_check`), and `MATE` is the worth of
//! a mate on the worths' scale.

use crate::agents::features::Features;
use crate::agents::limits::THEIR_MATE_BY_CHECKS;
use crate::agents::mating::{mate_among, mate_in_two_or_three};
use crate::board::values::material_balance;
use crate::board::{Move, MoveList, Position, checking_moves_into};

/// The worth of a reply that mates us, and of a move that mates them.
pub(crate) const MATE: i32 = 1_000_000;

// Their mate in one, then in two or three by checks: the two questions `final_check` asks.
const _: () = assert!(THEIR_MATE_BY_CHECKS == 3, "final_check asks their mate in one, two or three by checks");

/// What `worth` leaves for the candidate about to be played, because it costs a move
/// generation or more: does it mate or stalemate them, or let them mate us? The worth it
/// really has then, or None when it stands. Only the finalists are asked (mates are rare).
pub(crate) fn final_check(pos: &Position, mv: Move, features: Features) -> Option<i32> {
    let us = pos.side_to_move();
    let mut after = *pos;
    after.make_move(mv);
    if !after.has_legal_move() {
        return Some(if after.is_check() { MATE } else { -material_balance(&after, us) });
    }
    // Their checks alone, not every reply, are listed to look for their mate.
    if !features.has(Features::MATING) {
        return None;
    }
    let mut theirs = MoveList::new();
    checking_moves_into(&after, &mut theirs);
    if mate_among(&after, &theirs).is_some() {
        return Some(-MATE);
    }
    // Their mate in two or three by checks (a queen check that opens the way to the next, the
    // king walled in by its own pawns; a rook given up on our king's file first) is the most
    // common way a move loses outright: a step worse than their mate in one for each move
    // further off, so that a move allowing the later mate is preferred when all lose.
    mate_in_two_or_three(&after, &theirs).map(|(_, moves)| -MATE + moves as i32 - 1)
}

//! What the side to move's agents stand under at a leaf: each agent's threat from the whole
//! exchange on its square. The side to move can save one threatened piece with its move, or
//! take something itself, which the tree's quiescence tries; a second piece under threat it
//! cannot save too.

use super::score::Sink;
use super::terms::*;
use crate::agents::exchange::exchange_threat;
use crate::agents::scene::Scene;
use crate::board::{Bitboard, Piece, Position, Square};

/// The side to move's worst threatened piece, where it stands and what it stands to lose.
pub fn worst_threat(pos: &Position) -> Option<(Square, i32)> {
    match threatened(pos, pos.attacked_by(!pos.side_to_move(), pos.occupied())) {
        (Some(sq), first, _) if first > 0 => Some((sq, first)),
        _ => None,
    }
}

/// The worst threatened piece's square and threat, and the second largest threat, given every
/// square the side not to move attacks.
fn threatened(pos: &Position, their_attacks: Bitboard) -> (Option<Square>, i32, i32) {
    let us = pos.side_to_move();
    let mut attacked = pos.by_color(us) & !pos.pieces(us, Piece::King) & their_attacks;
    let Some(first_sq) = attacked.next() else { return (None, 0, 0) };
    let scene = Scene::now(pos);
    let (mut worst, mut first, mut second) =
        (first_sq, exchange_threat(pos, &scene, first_sq, pos.piece_on(first_sq)), 0);
    for sq in attacked {
        let threat = exchange_threat(pos, &scene, sq, pos.piece_on(sq));
        if threat > first {
            second = first;
            (worst, first) = (sq, threat);
        } else if threat > second {
            second = threat;
        }
    }
    (Some(worst), first, second)
}

/// The threats' terms into `sink`, counted in quarter pawns; the worst threatened piece, as
/// `worst_threat` tells it, for a caller that asks next. `their_attacks`: every square the side
/// not to move attacks.
pub(super) fn threats(pos: &Position, their_attacks: Bitboard, sink: &mut impl Sink) -> Option<(Square, i32)> {
    let (worst, first, second) = threatened(pos, their_attacks);
    let us = pos.side_to_move();
    sink.side(us, WORST_THREAT, first / 25);
    sink.side(us, SECOND_THREAT, second / 25);
    worst.filter(|_| first > 0).map(|sq| (sq, first))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest and second largest threat on the side to move's pieces (0 where fewer are
    /// threatened).
    fn worst_two(pos: &Position) -> (i32, i32) {
        let (_, first, second) = threatened(pos, pos.attacked_by(!pos.side_to_move(), pos.occupied()));
        (first, second)
    }

    /// Two pieces attacked at once (a fork) weigh on the side to move; one does not.
    #[test]
    fn a_second_threatened_piece_is_seen() {
        let forked = Position::from_fen("4k3/8/8/5q2/3N4/1r6/8/K7 b - - 0 1").unwrap();
        let single = Position::from_fen("4k3/8/8/8/3N4/1r6/8/K7 b - - 0 1").unwrap();
        assert_eq!(worst_two(&forked), (900, 500));
        assert_eq!(worst_two(&single), (500, 0));
        // Rook and queen guard each other: the knight wins 200 from the rook (rook for knight).
        let guarded = Position::from_fen("4k3/8/2r1q3/8/3N4/8/8/K7 b - - 0 1").unwrap();
        assert_eq!(worst_two(&guarded).1, 200);
    }
}

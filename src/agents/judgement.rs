//! How the agents judge a position where level 10's tree stops looking (`agent-leaves`), and
//! what a capture wins by their exchange estimate (the tree's quiescence and move order).
//!
//! A leaf is judged the agents' way, from the side to move: the material of thesis Table 2.2,
//! what each side's pieces think of their squares (`placement`), and the threats pending on
//! the board as each agent estimates its own (`exchange`). The side to move can save one
//! threatened piece with its move, or take something itself, which the tree's quiescence
//! tries; a second piece under threat it cannot save too, so half of the second worst threat
//! counts against it (half, because a move that saves both, or a counter-threat, is often
//! there).

use super::exchange::exchange_threat;
use super::placement;
use super::scene::Scene;
use crate::board::values::{material_balance, value};
use crate::board::{Move, MoveKind, Piece, Position};

/// The share of the second worst threat against the side to move that counts at a leaf, in
/// halves.
const SECOND_THREAT_HALVES: i32 = 1;

/// Being the side to move is worth a little: it can take first.
const TEMPO: i32 = 10;

/// Material alone, from the side to move (thesis Table 2.2): a leaf with `agent-leaves` off.
pub fn material(pos: &Position) -> i32 {
    material_balance(pos, pos.side_to_move())
}

/// The agents' judgement of `pos` from the side to move, in centipawns.
pub fn judge(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let placed = placement::standing(pos, us) - placement::standing(pos, !us);
    material_balance(pos, us) + placed + TEMPO - second_threat(pos) * SECOND_THREAT_HALVES / 2
}

/// The second largest threat on the side to move's pieces (0 with fewer than two threatened),
/// each agent's threat estimated from the whole exchange on its square.
fn second_threat(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let scene = Scene::now(pos);
    let (mut first, mut second) = (0, 0);
    let king = pos.pieces(us, Piece::King);
    for sq in pos.by_color(us) & !king {
        if pos.attackers_to(sq, !us, occ).is_empty() {
            continue;
        }
        let piece = pos.piece_on(sq);
        let threat = exchange_threat(pos, &scene, sq, piece);
        if threat > first {
            second = first;
            first = threat;
        } else if threat > second {
            second = threat;
        }
    }
    second
}

/// What the capture or promotion `mv` wins for the side to move when the opponent answers on
/// the square as the agents' exchange estimate expects: what it takes, what the promotion adds,
/// less what the opponent then wins from the piece that took (never more than it, as the
/// opponent need not recapture). Negative: the capture loses material.
pub fn capture_gain(pos: &Position, mv: Move) -> i32 {
    let mover = pos.moving_piece(mv);
    let taken = pos.captured_piece(mv).map_or(0, value);
    let (arrives, promoted) = match (mv.kind(), mv.promotion()) {
        (MoveKind::Promotion, Some(p)) => (p, value(p) - value(Piece::Pawn)),
        _ => (mover, 0),
    };
    let scene = Scene::after(pos, mv);
    taken + promoted - exchange_threat(pos, &scene, mv.to(), arrives)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gain(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        capture_gain(&pos, pos.parse_uci(uci).unwrap())
    }

    #[test]
    fn a_capture_gains_what_the_exchange_leaves() {
        // A free pawn.
        assert_eq!(gain("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100);
        // A pawn defended by a pawn: the queen is lost for it.
        assert_eq!(gain("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 900);
        // A knight for a defended pawn: still a loss.
        assert_eq!(gain("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 100 - 300);
        // Rook takes rook; their rook and then their king take back, our second rook between:
        // a rook for a rook.
        assert_eq!(gain("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
        // With their king far away the second rook wins the exchange.
        assert_eq!(gain("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 500);
    }

    #[test]
    fn a_promotion_gains_the_new_piece() {
        assert_eq!(gain("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 800);
        // Promoting where a rook takes the queen at once wins nothing.
        assert_eq!(gain("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), 800 - 900);
    }

    /// The judgement is the same for both colours in mirrored positions (from the side to move).
    #[test]
    fn the_colours_are_judged_alike() {
        let pairs = [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            ),
            ("8/5k2/3p4/8/2P5/8/4K3/8 w - - 0 1", "8/4k3/8/2p5/8/3P4/5K2/8 b - - 0 1"),
        ];
        for (a, b) in pairs {
            let (a, b) = (Position::from_fen(a).unwrap(), Position::from_fen(b).unwrap());
            assert_eq!(judge(&a), judge(&b));
        }
    }

    /// Two pieces attacked at once (a fork) weigh on the side to move; one does not.
    #[test]
    fn a_second_threatened_piece_counts_against_the_side_to_move() {
        let forked = Position::from_fen("4k3/8/8/5q2/3N4/1r6/8/K7 b - - 0 1").unwrap();
        let single = Position::from_fen("4k3/8/8/8/3N4/1r6/8/K7 b - - 0 1").unwrap();
        assert_eq!(second_threat(&forked), 500);
        assert_eq!(second_threat(&single), 0);
        // Rook and queen guard each other: the knight wins 200 from the rook (rook for knight).
        let guarded = Position::from_fen("4k3/8/2r1q3/8/3N4/8/8/K7 b - - 0 1").unwrap();
        assert_eq!(second_threat(&guarded), 200);
    }
}

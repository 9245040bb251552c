//! Static exchange, asked as a yes-or-no question: does a move win at least `threshold`
//! (in the thesis's material values, `values.rs`) when both sides then capture on its square,
//! cheapest piece first, each free to stop? Sliders behind a piece that took join the exchange.
//! Pins are not looked at, nor checks: the question is cheap and the search that asks it near
//! its leaves prefers a fast answer to a perfect one (the agents' exchange estimate,
//! `agents::exchange`, weighs pins).

use super::values::value;
use super::{Bitboard, Move, MoveKind, Piece, Position, attacks};

/// Whether the legal move `mv` wins at least `threshold` by static exchange.
pub fn see_at_least(pos: &Position, mv: Move, threshold: i32) -> bool {
    // Castling moves no piece into danger it was not in; en passant takes a pawn on a square
    // the exchange does not begin on: both taken as their gain alone.
    if mv.kind() == MoveKind::Castle {
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let taken = match mv.kind() {
        MoveKind::EnPassant => value(Piece::Pawn),
        _ => pos.piece_kind_at(to).map_or(0, value),
    };
    let promoted = mv.promotion().map_or(0, |p| value(p) - value(Piece::Pawn));
    // What we stand to win if they do not answer.
    let mut balance = taken + promoted - threshold;
    if balance < 0 {
        return false;
    }
    // What they win back if they take the piece that arrived, and we stop.
    let arrived = mv.promotion().unwrap_or(pos.moving_piece(mv));
    balance -= value(arrived);
    if balance >= 0 {
        return true;
    }
    let t = attacks::tables();
    let mut occ = pos.occupied().without(from).with(to);
    if mv.kind() == MoveKind::EnPassant {
        occ = occ.without(super::Square::new(to.file(), from.rank()));
    }
    let queens = pos.by_piece(Piece::Queen);
    let diagonal = pos.by_piece(Piece::Bishop) | queens;
    let straight = pos.by_piece(Piece::Rook) | queens;
    let mut attackers = attackers_of(pos, to, occ) & occ;
    let mut side = !pos.side_to_move();
    loop {
        let mine = attackers & pos.by_color(side);
        if mine.is_empty() {
            break;
        }
        // The cheapest of them takes, and the other side is to answer. The balance, negamaxed,
        // is now what the side that took stands to win if the other takes this piece back and
        // stops. A king is worth more than anything it could take: it takes only where nothing
        // takes it back (else the loop goes on, the king is taken, and its side has lost).
        let (sq, piece) = cheapest(pos, mine);
        side = !side;
        balance = -balance - 1 - value(piece);
        if balance >= 0 {
            break;
        }
        occ = occ.without(sq);
        // Sliders behind the piece that took now see the square.
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= t.bishop(to, occ) & diagonal;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            attackers |= t.rook(to, occ) & straight;
        }
        attackers &= occ;
    }
    // The side left to move lost the exchange.
    side != pos.side_to_move()
}

/// Every piece of either side attacking `sq` when the board holds `occ`.
#[inline]
fn attackers_of(pos: &Position, sq: super::Square, occ: Bitboard) -> Bitboard {
    let t = attacks::tables();
    let white = super::Color::White;
    let black = super::Color::Black;
    let pawns = pos.by_piece(Piece::Pawn);
    let queens = pos.by_piece(Piece::Queen);
    (t.pawn(black, sq) & pawns & pos.by_color(white))
        | (t.pawn(white, sq) & pawns & pos.by_color(black))
        | (t.knight(sq) & pos.by_piece(Piece::Knight))
        | (t.king(sq) & pos.by_piece(Piece::King))
        | (t.bishop(sq, occ) & (pos.by_piece(Piece::Bishop) | queens))
        | (t.rook(sq, occ) & (pos.by_piece(Piece::Rook) | queens))
}

/// The least valuable piece among `among` (not empty), and its square.
#[inline]
fn cheapest(pos: &Position, among: Bitboard) -> (super::Square, Piece) {
    for piece in Piece::ALL {
        let these = among & pos.by_piece(piece);
        if these.any() {
            return (these.lsb(), piece);
        }
    }
    unreachable!("cheapest of an empty set")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        see_at_least(&pos, pos.parse_uci(uci).unwrap(), threshold)
    }

    /// The largest threshold a move still meets, found by asking `see_at_least` itself.
    fn gain(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_uci(uci).unwrap();
        (-2000..=2000).rev().find(|&t| see_at_least(&pos, mv, t)).unwrap()
    }

    #[test]
    fn a_free_capture_and_a_defended_one() {
        assert_eq!(gain("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100);
        assert_eq!(gain("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 900);
        assert_eq!(gain("4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 100 - 300);
    }

    #[test]
    fn a_slider_behind_joins_the_exchange() {
        // Rook takes rook with a second rook behind; their rook and then their king take back.
        assert_eq!(gain("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
        // With their king far away the second rook wins the exchange.
        assert_eq!(gain("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 500);
    }

    #[test]
    fn a_quiet_move_onto_an_attacked_square_loses_the_piece() {
        // The knight to d5, where a pawn takes it and nothing takes back.
        assert_eq!(gain("4k3/8/4p3/8/8/4N3/8/4K3 w - - 0 1", "e3d5"), -300);
        assert!(see("4k3/8/4p3/8/8/4N3/8/4K3 w - - 0 1", "e3c4", 0));
    }

    #[test]
    fn a_promotion_counts_the_new_piece() {
        assert_eq!(gain("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 800);
        // The rook takes the new queen and nothing takes back: the pawn is lost.
        assert_eq!(gain("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), -100);
    }

    #[test]
    fn a_king_takes_only_what_nothing_defends() {
        // The king may take the rook on e2: nothing of Black's defends it.
        assert!(see("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1e2", 500));
        // Defended by the other rook, the king cannot take.
        let pos = Position::from_fen("4k3/4r3/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        assert!(pos.parse_uci("e1e2").is_err(), "the king may not take a defended rook at all");
    }
}

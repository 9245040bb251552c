//! Words for the explain mode and the decision reasons: agents as "Qd4", moves as "Nf3xe5",
//! the look-ahead's mate worths as "(they mate in 3)".

use super::look_ahead::MATE;
use crate::board::{Move, MoveKind, Piece, Position, Square};
use std::fmt::Write;

fn letter(piece: Piece) -> char {
    piece.to_char().to_ascii_uppercase()
}

/// An agent's name: piece letter and square ("Qd4", "Pe4").
pub fn agent_name(piece: Piece, sq: Square) -> String {
    format!("{}{}", letter(piece), sq)
}

/// Long algebraic with the piece letter: "Nf3xe5", "e2-e4", "e7-e8=Q", "O-O".
/// Unlike SAN it needs no legality work, and it names the agent's square, which the reasons
/// are about.
pub fn move_text(pos: &Position, mv: Move) -> String {
    let mut s = String::with_capacity(10);
    if mv.kind() == MoveKind::Castle {
        s.push_str(if mv.to().file() == 6 { "O-O" } else { "O-O-O" });
        return s;
    }
    let piece = pos.moving_piece(mv);
    if piece != Piece::Pawn {
        s.push(letter(piece));
    }
    let sep = if pos.is_capture(mv) { 'x' } else { '-' };
    let _ = write!(s, "{}{}{}", mv.from(), sep, mv.to());
    if let Some(p) = mv.promotion() {
        let _ = write!(s, "={}", letter(p));
    }
    s
}

/// A planned capture: "Nc3xd5 (R)".
pub fn plan_text(piece: Piece, from: Square, target: Square, victim: Piece) -> String {
    format!("{}{}x{} ({})", letter(piece), from, target, letter(victim))
}

/// A piece kind as its capital letter, for "takes R".
pub fn kind_text(piece: Piece) -> char {
    letter(piece)
}

/// A piece kind in words, for the annotation's sentences ("the knight on e5").
pub(crate) fn piece_word(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

/// What a worth `final_check` gave means, for the reasons and explain mode to add after the
/// number (" (they mate in 3)"), since -999998 says nothing to a reader; empty for any other.
pub(crate) fn mate_words(worth: i32) -> String {
    // Theirs are -MATE for a mate in one and one more for each move further (final_check).
    const FURTHEST: i32 = 8;
    match worth {
        MATE => " (mates)".to_string(),
        w if (-MATE..-MATE + FURTHEST).contains(&w) => format!(" (they mate in {})", w + MATE + 1),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        let pos = Position::from_fen("k7/4P3/8/4p3/8/5N2/8/4K2R w K - 0 1").unwrap();
        assert_eq!(move_text(&pos, pos.parse_uci("f3e5").unwrap()), "Nf3xe5");
        assert_eq!(move_text(&pos, pos.parse_uci("e7e8q").unwrap()), "e7-e8=Q");
        assert_eq!(move_text(&pos, pos.parse_uci("e1g1").unwrap()), "O-O");
        assert_eq!(agent_name(Piece::Queen, Square::parse("d4").unwrap()), "Qd4");
    }

    #[test]
    fn mate_worths_are_put_in_words() {
        assert_eq!(mate_words(-100), "");
        assert_eq!(mate_words(MATE - 1), "");
        assert_eq!(mate_words(MATE), " (mates)");
        assert_eq!(mate_words(-MATE), " (they mate in 1)");
        assert_eq!(mate_words(-MATE + 2), " (they mate in 3)");
    }
}

//! Move notation: coordinate (e2e4, e7e8q, e1g1) and SAN (Nf3, exd5, O-O, e8=Q+), in and out.
//! Parsing checks syntax first, then legality in the position.

use super::{Bitboard, Move, MoveKind, Piece, Position, Square};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("not a move: '{0}'")]
    Syntax(String),
    #[error("illegal move: '{0}'")]
    Illegal(String),
    #[error("ambiguous move: '{0}'")]
    Ambiguous(String),
}

/// How a castling move is written in coordinate notation. Each form is also read (`parse_uci`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CastlingNotation {
    /// The king's move to its destination, `e1g1`, as standard chess writes it (UCI, XBoard). A
    /// Chess960 castling whose king moves fewer than two files is written as `KingTakesRook`,
    /// since a king's step, or no move at all, would read the same.
    #[default]
    KingsMove,
    /// The king takes its own rook, `e1h1`: UCI with `UCI_Chess960` on.
    KingTakesRook,
    /// `O-O` and `O-O-O`: XBoard in `fischerandom`, as cutechess and xboard send it.
    San,
}

fn shorten(s: &str) -> String {
    s.chars().take(16).collect()
}

impl Position {
    /// Coordinate notation: e2e4, e7e8q (also e7e8=q, E7E8Q, e7e8Q), castling as O-O / O-O-O /
    /// 0-0 / 0-0-0, as the king taking its own rook (e1h1; Chess960's way), or as the king's
    /// move (e1g1) where no other move of the king goes there.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if let Some(mv) = self.parse_castle_token(t)? {
            return Ok(mv);
        }
        let lower: String = t.chars().filter(|&c| c != '=').collect::<String>().to_ascii_lowercase();
        let b = lower.as_bytes();
        if !(b.len() == 4 || b.len() == 5) || !lower.is_ascii() {
            return Err(MoveError::Syntax(shorten(t)));
        }
        let from = Square::parse(&lower[0..2]).ok_or_else(|| MoveError::Syntax(shorten(t)))?;
        let to = Square::parse(&lower[2..4]).ok_or_else(|| MoveError::Syntax(shorten(t)))?;
        let promo = match b.get(4) {
            None => None,
            Some(&c) => match Piece::from_char(c as char) {
                Some(p @ (Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen)) => Some(p),
                _ => return Err(MoveError::Syntax(shorten(t))),
            },
        };
        let legal = self.legal_moves_from(from.bb());
        let ordinary = legal.iter().find(|m| m.kind() != MoveKind::Castle && m.to() == to && m.promotion() == promo);
        let castling = || {
            let castles = || legal.iter().filter(|m| m.kind() == MoveKind::Castle && promo.is_none());
            castles().find(|&&m| self.castling_rook(m).0 == to).or_else(|| castles().find(|m| m.to() == to))
        };
        ordinary.or_else(castling).copied().ok_or_else(|| MoveError::Illegal(shorten(t)))
    }

    /// Coordinate notation for the legal move `mv`, castling written as `castling` says.
    pub fn coordinate(&self, mv: Move, castling: CastlingNotation) -> String {
        if mv.kind() != MoveKind::Castle {
            return mv.to_string();
        }
        let takes_rook = || format!("{}{}", mv.from(), self.castling_rook(mv).0);
        match castling {
            CastlingNotation::KingTakesRook => takes_rook(),
            CastlingNotation::San => (if mv.to().file() == 6 { "O-O" } else { "O-O-O" }).to_string(),
            // A king that moves fewer than two files could be making an ordinary step (or none).
            CastlingNotation::KingsMove if mv.from().file().abs_diff(mv.to().file()) < 2 => takes_rook(),
            CastlingNotation::KingsMove => mv.to_string(),
        }
    }

    /// A line of legal moves from this position in coordinate notation (see `coordinate`).
    pub fn coordinate_line(&self, line: &[Move], castling: CastlingNotation) -> Vec<String> {
        let mut at = *self;
        line.iter()
            .map(|&mv| {
                let text = at.coordinate(mv, castling);
                at.make_move(mv);
                text
            })
            .collect()
    }

    fn parse_castle_token(&self, t: &str) -> Result<Option<Move>, MoveError> {
        let core = t.trim_end_matches(['+', '#', '!', '?']);
        let long = match core {
            "O-O" | "0-0" | "o-o" => false,
            "O-O-O" | "0-0-0" | "o-o-o" => true,
            _ => return Ok(None),
        };
        let ksq = self.king_square(self.side_to_move());
        self.legal_moves_from(ksq.bb())
            .iter()
            .copied()
            .find(|m| m.kind() == MoveKind::Castle && (m.to().file() == 2) == long)
            .map(Some)
            .ok_or_else(|| MoveError::Illegal(shorten(t)))
    }

    /// Standard algebraic notation, tolerant of a missing or extra check sign and of
    /// annotations (!, ?), and of a promotion written without '=' (e8Q).
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if let Some(mv) = self.parse_castle_token(t)? {
            return Ok(mv);
        }
        let core = t.trim_end_matches(['+', '#', '!', '?']);
        if core.is_empty() || core.len() > 8 || !core.is_ascii() {
            return Err(MoveError::Syntax(shorten(t)));
        }
        let mut s = core.as_bytes().to_vec();
        // Promotion suffix.
        let mut promo = None;
        if let Some(&last) = s.last()
            && matches!(last, b'Q' | b'R' | b'B' | b'N' | b'q' | b'r' | b'n')
            && s.len() >= 3
        {
            let before = s[s.len() - 2];
            if before == b'=' || before.is_ascii_digit() {
                promo = Piece::from_char(last as char);
                s.pop();
                if s.last() == Some(&b'=') {
                    s.pop();
                }
            }
        }
        let piece = match s.first() {
            Some(b'N') => Piece::Knight,
            Some(b'B') => Piece::Bishop,
            Some(b'R') => Piece::Rook,
            Some(b'Q') => Piece::Queen,
            Some(b'K') => Piece::King,
            Some(b'a'..=b'h') => Piece::Pawn,
            _ => return Err(MoveError::Syntax(shorten(t))),
        };
        let body: Vec<u8> = if piece == Piece::Pawn { s.clone() } else { s[1..].to_vec() };
        let body: Vec<u8> = body.into_iter().filter(|&c| c != b'x' && c != b'-' && c != b':').collect();
        if body.len() < 2 || body.len() > 4 {
            return Err(MoveError::Syntax(shorten(t)));
        }
        let to_txt = std::str::from_utf8(&body[body.len() - 2..]).unwrap_or("");
        let to = Square::parse(to_txt).ok_or_else(|| MoveError::Syntax(shorten(t)))?;
        let mut from_file = None;
        let mut from_rank = None;
        for &c in &body[..body.len() - 2] {
            match c {
                b'a'..=b'h' => from_file = Some(c - b'a'),
                b'1'..=b'8' => from_rank = Some(c - b'1'),
                _ => return Err(MoveError::Syntax(shorten(t))),
            }
        }
        if promo.is_some() && piece != Piece::Pawn {
            return Err(MoveError::Syntax(shorten(t)));
        }
        let us = self.side_to_move();
        let mut found: Option<Move> = None;
        for &m in self.legal_moves_from(self.pieces(us, piece)).iter() {
            if m.to() != to || m.kind() == MoveKind::Castle {
                continue;
            }
            if from_file.is_some_and(|f| m.from().file() != f) || from_rank.is_some_and(|r| m.from().rank() != r) {
                continue;
            }
            if m.promotion() != promo {
                continue;
            }
            if found.is_some() {
                return Err(MoveError::Ambiguous(shorten(t)));
            }
            found = Some(m);
        }
        found.ok_or_else(|| MoveError::Illegal(shorten(t)))
    }

    /// Coordinate or SAN, whichever the text is.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        match self.parse_uci(text) {
            Ok(m) => Ok(m),
            Err(MoveError::Syntax(_)) => self.parse_san(text),
            Err(e) => Err(e),
        }
    }

    /// SAN of a legal move, with disambiguation, `=Q`, `+` and `#`.
    pub fn to_san(&self, mv: Move) -> String {
        let mut s = String::with_capacity(8);
        let from = mv.from();
        let to = mv.to();
        let piece = self.moving_piece(mv);
        if mv.kind() == MoveKind::Castle {
            s.push_str(if to.file() == 6 { "O-O" } else { "O-O-O" });
        } else if piece == Piece::Pawn {
            if self.is_capture(mv) {
                s.push(from.file_char());
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = mv.promotion() {
                s.push('=');
                s.push(p.to_char().to_ascii_uppercase());
            }
        } else {
            s.push(piece.to_char().to_ascii_uppercase());
            let us = self.side_to_move();
            let others = self.pieces(us, piece).without(from);
            let mut rivals = Bitboard::EMPTY;
            for m in self.legal_moves_from(others).iter() {
                if m.to() == to {
                    rivals |= m.from().bb();
                }
            }
            if rivals.any() {
                let same_file = (rivals & Bitboard::file(from.file())).any();
                let same_rank = (rivals & Bitboard::rank(from.rank())).any();
                if !same_file {
                    s.push(from.file_char());
                } else if !same_rank {
                    s.push(from.rank_char());
                } else {
                    s.push(from.file_char());
                    s.push(from.rank_char());
                }
            }
            if self.is_capture(mv) {
                s.push('x');
            }
            s.push_str(&to.to_string());
        }
        let next = self.play(mv);
        if next.is_check() {
            s.push(if next.legal_moves().is_empty() { '#' } else { '+' });
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinate_forms() {
        let p = Position::startpos();
        assert_eq!(p.parse_uci("e2e4").unwrap().to_string(), "e2e4");
        assert!(matches!(p.parse_uci("e2e5"), Err(MoveError::Illegal(_))));
        assert!(matches!(p.parse_uci("e2"), Err(MoveError::Syntax(_))));
        assert!(matches!(p.parse_uci("O-O"), Err(MoveError::Illegal(_))));
        let promo = Position::from_fen("8/4P3/8/8/8/8/8/K6k w - - 0 1").unwrap();
        for t in ["e7e8q", "e7e8=q", "E7E8Q", "e7e8Q"] {
            assert_eq!(promo.parse_uci(t).unwrap().to_string(), "e7e8q", "{t}");
        }
        let castle = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(castle.parse_uci("O-O").unwrap().to_string(), "e1g1");
        assert_eq!(castle.parse_uci("0-0-0").unwrap().to_string(), "e1c1");
        assert_eq!(castle.parse_uci("e1g1").unwrap().kind(), MoveKind::Castle);
    }

    #[test]
    fn san_forms() {
        let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = p.parse_uci("a1a8").unwrap();
        assert_eq!(p.to_san(m), "Rxa8+");
        let knights = Position::from_fen("k7/8/8/8/8/8/8/KN3N2 w - - 0 1").unwrap();
        let m = knights.parse_uci("b1d2").unwrap();
        assert_eq!(knights.to_san(m), "Nbd2");
        assert_eq!(knights.parse_san("Nbd2").unwrap(), m);
        assert!(matches!(knights.parse_san("Nd2"), Err(MoveError::Ambiguous(_))));
        let mate = Position::from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1").unwrap();
        let m = mate.parse_san("Rh8").unwrap();
        assert_eq!(mate.to_san(m), "Rh8#");
    }
}

//! FEN parsing and printing. Every way a FEN can be wrong is a distinct error value.

use super::{Bitboard, Color, Piece, Position, Square};
use thiserror::Error;

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("FEN has {0} fields, expected 4 to 6 (placement, side, castling, en passant, halfmove, fullmove)")]
    FieldCount(usize),
    #[error("board has {0} ranks, expected 8")]
    RankCount(usize),
    #[error("bad piece letter '{letter}' in rank {rank}")]
    BadPiece { letter: char, rank: u8 },
    #[error("rank {rank} is too long ({files} files)")]
    RankTooLong { rank: u8, files: u32 },
    #[error("rank {rank} is too short ({files} files)")]
    RankTooShort { rank: u8, files: u32 },
    #[error("rank {rank} has two digits in a row ('{digits}'): a run of empty squares is one digit")]
    DigitsInARow { rank: u8, digits: String },
    #[error("{color} has {count} kings, expected exactly one")]
    KingCount { color: Color, count: u32 },
    #[error("{color} has more than {max} {what}")]
    TooMany { color: Color, what: &'static str, max: u32 },
    #[error("pawn on the first or eighth rank ({0})")]
    PawnOnBackRank(Square),
    #[error("bad side to move '{0}', expected 'w' or 'b'")]
    BadSide(String),
    #[error("the side not to move ({0}) is in check")]
    OpponentInCheck(Color),
    #[error("bad castling field '{0}'")]
    BadCastling(String),
    #[error("castling right '{right}' without its king on its back rank and a rook there on that side")]
    CastlingWithoutPieces { right: char },
    #[error("bad en-passant field '{0}'")]
    BadEnPassant(String),
    #[error("impossible en-passant square {0}")]
    ImpossibleEnPassant(Square),
    #[error("bad half-move clock '{0}'")]
    BadHalfmove(String),
    #[error("bad full-move number '{0}'")]
    BadFullmove(String),
    #[error("empty FEN")]
    Empty,
}

/// The piece-placement field of a FEN (ranks 8 to 1), for any board that can say what stands
/// on a square: a `Position`, or a board being edited that is not a legal position yet.
pub fn placement_fen(piece_at: impl Fn(Square) -> Option<(Color, Piece)>) -> String {
    let mut s = String::with_capacity(72);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match piece_at(Square::new(file, rank)) {
                Some((c, p)) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.fen_char(c));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

impl Position {
    /// Parses a FEN. The counters may be left out (they default to 0 and 1), as in EPD.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() < 4 || fields.len() > 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        parse_placement(&mut pos, fields[0])?;

        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSide(truncate(other))),
        };
        pos.read_castling(fields[2])?;
        pos.ep = parse_ep(&pos, fields[3])?;
        if let Some(h) = fields.get(4) {
            pos.halfmove =
                h.parse::<u32>().ok().filter(|&n| n <= 10_000).ok_or_else(|| FenError::BadHalfmove(truncate(h)))?;
        }
        if let Some(f) = fields.get(5) {
            // Some tools write move number 0; read it as 1 rather than refuse the position (a
            // refused `setboard` makes every later move illegal, which GUIs score as a forfeit).
            pos.fullmove = f
                .parse::<u32>()
                .ok()
                .filter(|&n| n <= 100_000)
                .ok_or_else(|| FenError::BadFullmove(truncate(f)))?
                .max(1);
        }
        let them = !pos.side;
        if pos.is_attacked(pos.king_square(them), pos.side) {
            return Err(FenError::OpponentInCheck(them));
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The six-field FEN.
    pub fn to_fen(&self) -> String {
        let mut s = placement_fen(|sq| self.piece_at(sq));
        s.push(' ');
        s.push(if self.side == Color::White { 'w' } else { 'b' });
        s.push(' ');
        s.push_str(&self.castling_fen());
        s.push(' ');
        match self.ep {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// The same position with the board turned around and the colours swapped: what is good
    /// for one side here is as good for the other there.
    pub fn mirrored(&self) -> Position {
        let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let placement = placement_fen(|sq| self.piece_at(Square::new(sq.file(), 7 - sq.rank())));
        let placement: String = placement.chars().map(swap).collect();
        let side = if self.side == Color::White { 'b' } else { 'w' };
        let castling = self.castling_fen();
        let castling: String = if castling == "-" { castling } else { castling.chars().map(swap).collect() };
        let ep = self.ep.map_or("-".to_string(), |sq| Square::new(sq.file(), 7 - sq.rank()).to_string());
        let fen = format!("{placement} {side} {castling} {ep} {} {}", self.halfmove, self.fullmove);
        Position::from_fen(&fen).expect("the mirror image of a legal position is legal")
    }
}

/// Error messages quote the input; keep a hostile 4 KB token from flooding them.
fn truncate(s: &str) -> String {
    s.chars().take(16).collect()
}

fn parse_placement(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, row) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: u32 = 0;
        let mut last_digit = None;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::BadPiece { letter: c, rank: rank + 1 });
                }
                if let Some(before) = last_digit {
                    return Err(FenError::DigitsInARow { rank: rank + 1, digits: format!("{before}{c}") });
                }
                last_digit = Some(c);
                file += d;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::BadPiece { letter: c, rank: rank + 1 })?;
                if file >= 8 {
                    return Err(FenError::RankTooLong { rank: rank + 1, files: file + 1 });
                }
                let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                pos.put(color, piece, Square::new(file as u8, rank));
                file += 1;
                last_digit = None;
            }
            if file > 8 {
                return Err(FenError::RankTooLong { rank: rank + 1, files: file });
            }
        }
        if file < 8 {
            return Err(FenError::RankTooShort { rank: rank + 1, files: file });
        }
    }
    for color in Color::BOTH {
        let kings = pos.pieces(color, Piece::King).count();
        if kings != 1 {
            return Err(FenError::KingCount { color, count: kings });
        }
        if pos.pieces(color, Piece::Pawn).count() > 8 {
            return Err(FenError::TooMany { color, what: "pawns", max: 8 });
        }
        if pos.by_color(color).count() > 16 {
            return Err(FenError::TooMany { color, what: "pieces", max: 16 });
        }
    }
    let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
    if let Some(sq) = (pos.by_piece(Piece::Pawn) & back_ranks).first() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    Ok(())
}

fn parse_ep(pos: &Position, field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let sq = Square::parse(field).ok_or_else(|| FenError::BadEnPassant(truncate(field)))?;
    // The square must lie behind a pawn of the side that just moved two squares, with the
    // square itself and the pawn's start square empty.
    let (ep_rank, dir): (u8, i8) = match pos.side {
        Color::White => (5, -1),
        Color::Black => (2, 1),
    };
    let mover = !pos.side;
    let ok = sq.rank() == ep_rank
        && pos.pieces(mover, Piece::Pawn).contains(Square::new(sq.file(), (ep_rank as i8 + dir) as u8))
        && !pos.occupied().contains(sq)
        && !pos.occupied().contains(Square::new(sq.file(), (ep_rank as i8 - dir) as u8));
    if ok { Ok(Some(sq)) } else { Err(FenError::ImpossibleEnPassant(sq)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_startpos() {
        assert_eq!(Position::from_fen(STARTPOS).unwrap().to_fen(), STARTPOS);
    }

    #[test]
    fn counters_default() {
        let p = Position::from_fen("8/8/8/8/8/8/8/K6k w - -").unwrap();
        assert_eq!(p.to_fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
        // Move number 0, which some tools write, reads as 1.
        let p = Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 0").unwrap();
        assert_eq!(p.to_fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
    }

    #[test]
    fn each_error_is_named() {
        use FenError::*;
        type Case = (&'static str, fn(&FenError) -> bool);
        let cases: &[Case] = &[
            ("", |e| matches!(e, Empty)),
            ("8/8/8/8/8/8/8/K6k w", |e| matches!(e, FieldCount(2))),
            ("8/8/8/8/8/8/K6k w - - 0 1", |e| matches!(e, RankCount(7))),
            ("8/8/8/8/8/8/8/K6x w - - 0 1", |e| matches!(e, BadPiece { letter: 'x', .. })),
            ("8/8/8/8/8/8/8/K7k w - - 0 1", |e| matches!(e, RankTooLong { .. })),
            ("8/8/8/8/8/8/8/K5k w - - 0 1", |e| matches!(e, RankTooShort { .. })),
            ("44/8/8/8/8/8/8/K6k w - - 0 1", |e| matches!(e, DigitsInARow { rank: 8, digits } if digits == "44")),
            ("71/8/8/8/8/8/8/K6k w - - 0 1", |e| matches!(e, DigitsInARow { rank: 8, .. })),
            ("8/8/8/8/8/8/8/K33k1 w - - 0 1", |e| matches!(e, DigitsInARow { rank: 1, .. })),
            ("8/8/8/8/8/8/8/K7 w - - 0 1", |e| matches!(e, KingCount { color: Color::Black, count: 0 })),
            ("8/8/8/8/8/8/8/KK5k w - - 0 1", |e| matches!(e, KingCount { color: Color::White, count: 2 })),
            ("P7/8/8/8/8/8/8/K6k w - - 0 1", |e| matches!(e, PawnOnBackRank(_))),
            ("8/8/8/8/8/8/8/K6k x - - 0 1", |e| matches!(e, BadSide(_))),
            ("8/8/8/8/8/8/8/K5rk b - - 0 1", |e| matches!(e, OpponentInCheck(Color::White))),
            ("8/8/8/8/8/8/8/K6k w X - 0 1", |e| matches!(e, BadCastling(_))),
            ("8/8/8/8/8/8/8/K6k w K - 0 1", |e| matches!(e, CastlingWithoutPieces { right: 'K' })),
            ("8/8/8/8/8/8/8/K6k w - e9 0 1", |e| matches!(e, BadEnPassant(_))),
            ("8/8/8/8/8/8/8/K6k w - e6 0 1", |e| matches!(e, ImpossibleEnPassant(_))),
            ("8/8/8/8/8/8/8/K6k w - - x 1", |e| matches!(e, BadHalfmove(_))),
            ("8/8/8/8/8/8/8/K6k w - - 0 -1", |e| matches!(e, BadFullmove(_))),
        ];
        for (fen, check) in cases {
            let err = Position::from_fen(fen).expect_err(fen);
            assert!(check(&err), "{fen}: got {err:?}");
        }
    }

    #[test]
    fn accepts_valid_ep() {
        let p = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3").unwrap();
        assert_eq!(p.ep_square(), Square::parse("e3"));
    }
}

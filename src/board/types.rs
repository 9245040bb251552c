//! The small value types of the board: colours, piece kinds, squares and castling rights.

use std::fmt;
use std::ops::Not;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The rank (0-based) a pawn of this colour promotes on.
    #[inline]
    pub const fn promotion_rank(self) -> u8 {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }

    /// The rank (0-based) this colour's pieces start on.
    #[inline]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opponent()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece kind, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Piece {
    pub const ALL: [Piece; 6] = [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];
    /// The kinds a pawn may promote to, best first.
    pub const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Piece {
        match i {
            0 => Piece::Pawn,
            1 => Piece::Knight,
            2 => Piece::Bishop,
            3 => Piece::Rook,
            4 => Piece::Queen,
            _ => Piece::King,
        }
    }

    /// Lower-case letter, as in FEN for black and in coordinate promotions.
    pub const fn to_char(self) -> char {
        match self {
            Piece::Pawn => 'p',
            Piece::Knight => 'n',
            Piece::Bishop => 'b',
            Piece::Rook => 'r',
            Piece::Queen => 'q',
            Piece::King => 'k',
        }
    }

    /// Parses a piece letter in either case.
    pub fn from_char(c: char) -> Option<Piece> {
        Some(match c.to_ascii_lowercase() {
            'p' => Piece::Pawn,
            'n' => Piece::Knight,
            'b' => Piece::Bishop,
            'r' => Piece::Rook,
            'q' => Piece::Queen,
            'k' => Piece::King,
            _ => return None,
        })
    }

    /// The letter with the case FEN uses for this colour.
    pub fn fen_char(self, color: Color) -> char {
        match color {
            Color::White => self.to_char().to_ascii_uppercase(),
            Color::Black => self.to_char(),
        }
    }
}

/// A square, 0 = a1, 1 = b1, ..., 63 = h8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    #[inline]
    pub const fn from_index(i: usize) -> Square {
        Square(i as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// King steps from `self` to `other`: the larger of the file and the rank distance.
    #[inline]
    pub const fn distance(self, other: Square) -> i32 {
        let files = (self.file() as i32 - other.file() as i32).abs();
        let ranks = (self.rank() as i32 - other.rank() as i32).abs();
        if files > ranks { files } else { ranks }
    }

    /// How far from the board's edge: 0 on the edge, 3 on the four centre squares.
    #[inline]
    pub const fn edge_distance(self) -> i32 {
        let (f, r) = (self.file() as i32, self.rank() as i32);
        let file = if f < 7 - f { f } else { 7 - f };
        let rank = if r < 7 - r { r } else { 7 - r };
        if file < rank { file } else { rank }
    }

    #[inline]
    pub const fn bb(self) -> super::Bitboard {
        super::Bitboard(1u64 << self.0)
    }

    /// The square with the same file and rank seen from `color`'s side (a1 <-> a8 for Black).
    #[inline]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => Square(self.0 ^ 56),
        }
    }

    /// Offsets the square; `None` when it leaves the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f > 7 || r < 0 || r > 7 { None } else { Some(Square::new(f as u8, r as u8)) }
    }

    /// Parses "e4" (lower-case file letter, rank digit).
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        if f < 8 && r < 8 { Some(Square::new(f, r)) } else { None }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }

    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    pub fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl std::str::FromStr for Square {
    type Err = ();
    fn from_str(s: &str) -> Result<Square, ()> {
        Square::parse(s).ok_or(())
    }
}

/// Castling rights as four bits: white king side, white queen side, black king side, black queen side.
/// Which rook each right castles with is the position's to say (`Position::castling_rook_square`):
/// in Chess960 the king and rooks may start on any files. "King side" is towards the h-file,
/// where the king lands on g; "queen side" towards the a-file, where it lands on c.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastleRights(pub u8);

impl CastleRights {
    pub const WHITE_KING: u8 = 1;
    pub const WHITE_QUEEN: u8 = 2;
    pub const BLACK_KING: u8 = 4;
    pub const BLACK_QUEEN: u8 = 8;
    pub const NONE: CastleRights = CastleRights(0);
    pub const ALL: CastleRights = CastleRights(15);

    #[inline]
    pub const fn king_side(color: Color) -> u8 {
        match color {
            Color::White => Self::WHITE_KING,
            Color::Black => Self::BLACK_KING,
        }
    }

    #[inline]
    pub const fn queen_side(color: Color) -> u8 {
        match color {
            Color::White => Self::WHITE_QUEEN,
            Color::Black => Self::BLACK_QUEEN,
        }
    }

    /// The right's bit's index: 0 White king side, 1 White queen side, 2 Black king side, 3 Black
    /// queen side (the bit is `1 << slot`).
    #[inline]
    pub const fn slot(color: Color, king_side: bool) -> usize {
        2 * color.index() + if king_side { 0 } else { 1 }
    }

    /// Both of a colour's rights.
    #[inline]
    pub const fn both(color: Color) -> u8 {
        Self::king_side(color) | Self::queen_side(color)
    }

    #[inline]
    pub const fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_king_steps_and_steps_to_the_edge() {
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(sq("a1").distance(sq("h8")), 7);
        assert_eq!(sq("e4").distance(sq("g5")), 2);
        assert_eq!(sq("c3").distance(sq("c3")), 0);
        assert_eq!(sq("b7").distance(sq("e7")), 3);
        assert_eq!(sq("a5").edge_distance(), 0);
        assert_eq!(sq("g2").edge_distance(), 1);
        assert_eq!(sq("c6").edge_distance(), 2);
        assert_eq!(sq("d4").edge_distance(), 3);
        assert_eq!(sq("e5").edge_distance(), 3);
        for a in 0..64 {
            for b in 0..64 {
                let (a, b) = (Square::from_index(a), Square::from_index(b));
                assert_eq!(a.distance(b), b.distance(a));
            }
        }
    }
}

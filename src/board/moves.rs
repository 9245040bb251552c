//! Moves as 16 bits, and a fixed-capacity move list that never allocates.

use super::{Piece, Square};
use std::fmt;
use std::mem::MaybeUninit;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Normal,
    Promotion,
    EnPassant,
    /// The king's two-square move; the rook moves with it.
    Castle,
}

/// from (6 bits) | to (6 bits) | kind (2 bits) | promotion piece (2 bits: N, B, R, Q).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// A placeholder value; never a legal move (from == to == a1).
    pub const NULL: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6)
    }

    #[inline]
    pub const fn with_kind(from: Square, to: Square, kind: MoveKind) -> Move {
        let k = match kind {
            MoveKind::Normal => 0,
            MoveKind::Promotion => 1,
            MoveKind::EnPassant => 2,
            MoveKind::Castle => 3,
        };
        Move(from.0 as u16 | (to.0 as u16) << 6 | k << 12)
    }

    #[inline]
    pub const fn promotion_to(from: Square, to: Square, piece: Piece) -> Move {
        let p = (piece as u16).saturating_sub(1) & 3;
        Move(from.0 as u16 | (to.0 as u16) << 6 | 1 << 12 | p << 14)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 6 & 63) as u8)
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }

    #[inline]
    pub const fn promotion(self) -> Option<Piece> {
        if self.0 >> 12 & 3 == 1 { Some(Piece::from_index((self.0 >> 14) as usize + 1)) } else { None }
    }

    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The move whose `raw` is `bits` (a transposition table keeps moves so); whether it is
    /// legal anywhere is for the caller to check.
    #[inline]
    pub const fn from_raw(bits: u16) -> Move {
        Move(bits)
    }

    /// Coordinate notation: e2e4, e7e8q; castling as the king's move (e1g1).
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.to_char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most moves any legal chess position has is 218; 256 leaves room.
pub const MAX_MOVES: usize = 256;

/// Left uninitialised past `len`: zeroing 512 bytes per node showed up in perft profiles.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Clone for MoveList {
    fn clone(&self) -> MoveList {
        let mut out = MoveList::new();
        for &m in self.iter() {
            out.push(m);
        }
        out
    }
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        // Not `[MaybeUninit::uninit(); MAX_MOVES]`: where a list is built straight into a larger
        // value, that repeat was compiled to a memset of the 512 bytes.
        // SAFETY: an array of `MaybeUninit` needs no initialisation (the pattern the
        // `MaybeUninit` documentation gives for building an array element by element).
        let moves = unsafe { MaybeUninit::<[MaybeUninit<Move>; MAX_MOVES]>::uninit().assume_init() };
        MoveList { moves, len: 0 }
    }

    /// Empties the list, keeping it for reuse.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move. Panics past 256 moves, which no legal position reaches (218 at most).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`, and MaybeUninit<Move> has the
        // layout of Move.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            // SAFETY: i < len, written by push.
            let m = unsafe { self.moves[i].assume_init() };
            if keep(m) {
                self.moves[j] = MaybeUninit::new(m);
                j += 1;
            }
        }
        self.len = j;
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    pub fn to_vec(&self) -> Vec<Move> {
        self.as_slice().to_vec()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_decodes() {
        let m = Move::promotion_to(Square::new(4, 6), Square::new(4, 7), Piece::Knight);
        assert_eq!(m.promotion(), Some(Piece::Knight));
        assert_eq!(m.to_string(), "e7e8n");
        let q = Move::promotion_to(Square::new(4, 6), Square::new(3, 7), Piece::Queen);
        assert_eq!(q.to_string(), "e7d8q");
        let c = Move::with_kind(Square::new(4, 0), Square::new(6, 0), MoveKind::Castle);
        assert_eq!(c.kind(), MoveKind::Castle);
        assert_eq!(c.promotion(), None);
        assert_eq!(c.to_string(), "e1g1");
    }
}

//! The principal variation as a search backs it up: a triangular table, one line for each ply
//! of the path being searched. A node forgets its line as it begins (`clear`); a move that
//! raises alpha makes the line that move followed by its child's line (`set`). The root's line
//! is the search's principal variation. Level 10's tree and the conventional searcher keep one.

use crate::board::Move;

/// The lines below each of the first `N` plies; a line is at most `N` moves long.
pub struct PvTable<const N: usize> {
    lines: Box<[[Move; N]; N]>,
    len: [usize; N],
}

impl<const N: usize> PvTable<N> {
    pub fn new() -> PvTable<N> {
        PvTable { lines: Box::new([[Move::NULL; N]; N]), len: [0; N] }
    }

    /// The node at `ply` has no line (yet).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// `mv` followed by the line of the node below it (at `ply + 1`) is the line at `ply`.
    #[inline]
    pub fn set(&mut self, ply: usize, mv: Move) {
        let below = self.len[ply + 1].min(N - 1);
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=below].copy_from_slice(&tail[0][..below]);
        self.len[ply] = below + 1;
    }

    /// The line found at `ply`.
    #[inline]
    pub fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply][..self.len[ply]]
    }
}

impl<const N: usize> Default for PvTable<N> {
    fn default() -> PvTable<N> {
        PvTable::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_the_move_and_the_line_below_it() {
        let m = |raw: u16| Move::from_raw(raw);
        let mut pv = PvTable::<8>::new();
        // A leaf at ply 3 has no line; the node at ply 2 found its best move there.
        pv.clear(3);
        pv.set(2, m(0x0421));
        assert_eq!(pv.line(2), [m(0x0421)]);
        pv.set(1, m(0x0862));
        assert_eq!(pv.line(1), [m(0x0862), m(0x0421)]);
        // A better move at ply 2 later, whose own child found nothing: the line shrinks.
        pv.clear(3);
        pv.set(2, m(0x0c63));
        pv.set(1, m(0x0862));
        assert_eq!(pv.line(1), [m(0x0862), m(0x0c63)]);
        pv.set(0, m(0x1084));
        assert_eq!(pv.line(0), [m(0x1084), m(0x0862), m(0x0c63)]);
        pv.clear(0);
        assert!(pv.line(0).is_empty());
    }

    /// A line never outgrows the table: the deepest moves are left off.
    #[test]
    fn a_line_is_at_most_the_table_long() {
        let mut pv = PvTable::<3>::new();
        let m = Move::from_raw(0x0421);
        pv.lines[2][0] = m;
        pv.len[2] = 3;
        pv.set(1, m);
        assert_eq!(pv.line(1).len(), 3);
        pv.set(0, m);
        assert_eq!(pv.line(0).len(), 3);
    }
}

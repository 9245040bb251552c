//! What its square is worth to each piece, in either style of judgement: the agents' own
//! (each agent knows a few things of its square: how far forward and central a pawn stands,
//! how central a knight or king, a knight or bishop still at home, a king off its back rank)
//! or the conventional piece-square tables (a weight for every piece on every square).
//!
//! What a piece knows of its square depends on nothing else on the board, so each piece's
//! material and square come to one weight by colour, kind and square (`Placement`): a
//! position's sum is a lookup a piece, and a move changes it by the few pieces it moves
//! (`Placement::after`), which is how a tree keeps it from ply to ply.

use super::Style;
use super::pawns::relative_rank;
use super::score::{S, Sink, Sum};
use super::terms::*;
use crate::board::{Color, Move, MoveKind, Piece, Position, Square};

/// Every piece's material (the kings' aside) into `sink`.
pub(super) fn material(pos: &Position, sink: &mut impl Sink) {
    for side in Color::BOTH {
        for (i, piece) in [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen].into_iter().enumerate()
        {
            sink.side(side, MATERIAL + i, pos.pieces(side, piece).count() as i32);
        }
    }
}

/// Every piece's square into `sink`, the way `style` weighs squares.
pub(super) fn squares(pos: &Position, style: Style, sink: &mut impl Sink) {
    for us in Color::BOTH {
        for piece in Piece::ALL {
            for sq in pos.pieces(us, piece) {
                match style {
                    Style::Agents => agents_square(us, piece, sq, sink),
                    Style::Tables => sink.side(us, TABLE + 64 * piece.index() + sq.relative(us).index(), 1),
                }
            }
        }
    }
}

/// The weight of one piece of `us` on `sq`, its material and its square, from White's side.
fn one_piece(style: Style, us: Color, piece: Piece, sq: Square) -> S {
    let mut sum = Sum::new(style.weights());
    if piece != Piece::King {
        sum.side(us, MATERIAL + piece.index(), 1);
    }
    match style {
        Style::Agents => agents_square(us, piece, sq, &mut sum),
        Style::Tables => sum.side(us, TABLE + 64 * piece.index() + sq.relative(us).index(), 1),
    }
    sum.total
}

/// Every piece's material and square as one weight by colour, kind and square, in one style:
/// what `material` and `squares` give a position, summed a piece at a time.
pub struct Placement {
    weights: Box<[[[S; 64]; 6]; 2]>,
}

impl Placement {
    pub fn new(style: Style) -> Placement {
        let mut weights = Box::new([[[S::default(); 64]; 6]; 2]);
        for us in Color::BOTH {
            for piece in Piece::ALL {
                for (i, w) in weights[us.index()][piece.index()].iter_mut().enumerate() {
                    *w = one_piece(style, us, piece, Square::from_index(i));
                }
            }
        }
        Placement { weights }
    }

    #[inline]
    fn of(&self, us: Color, piece: Piece, sq: Square) -> S {
        self.weights[us.index()][piece.index()][sq.index()]
    }

    /// The material and squares of every piece of `pos`, from White's side.
    pub fn sum(&self, pos: &Position) -> S {
        let mut total = S::default();
        for us in Color::BOTH {
            for piece in Piece::ALL {
                for sq in pos.pieces(us, piece) {
                    total += self.of(us, piece, sq);
                }
            }
        }
        total
    }

    /// `sum` after the legal move `mv`, given `before`, the sum of `pos`.
    #[inline]
    pub fn after(&self, pos: &Position, mv: Move, before: S) -> S {
        let us = pos.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let mover = pos.moving_piece(mv);
        let arrives = mv.promotion().unwrap_or(mover);
        let mut total = before - self.of(us, mover, from) + self.of(us, arrives, to);
        match mv.kind() {
            MoveKind::EnPassant => total -= self.of(!us, Piece::Pawn, Square::new(to.file(), from.rank())),
            MoveKind::Castle => {
                let (rook_from, rook_to) = pos.castling_rook(mv);
                total = total - self.of(us, Piece::Rook, rook_from) + self.of(us, Piece::Rook, rook_to);
            }
            _ => {
                if let Some(taken) = pos.piece_kind_at(to) {
                    total -= self.of(!us, taken, to);
                }
            }
        }
        total
    }
}

/// The agents' knowledge of their squares.
fn agents_square(us: Color, piece: Piece, sq: Square, sink: &mut impl Sink) {
    let rank = relative_rank(us, sq);
    match piece {
        Piece::Pawn => {
            sink.side(us, PAWN_ADVANCE + rank, 1);
            if sq.file() == 3 || sq.file() == 4 {
                sink.side(us, PAWN_CENTRE + rank, 1);
            }
        }
        Piece::Knight => {
            sink.side(us, KNIGHT_CENTRE + sq.edge_distance() as usize, 1);
            if rank == 0 {
                sink.side(us, MINOR_UNDEVELOPED, 1);
            }
        }
        Piece::Bishop if rank == 0 => sink.side(us, MINOR_UNDEVELOPED, 1),
        Piece::King => {
            sink.side(us, KING_CENTRE + sq.edge_distance() as usize, 1);
            sink.side(us, KING_FILE + sq.file().min(7 - sq.file()) as usize, 1);
            sink.side(us, KING_OFF_BACK_RANK, rank as i32);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::judgement::score::Trace;

    /// The placement's sum is what `material` and `squares` give, in both styles, and a move
    /// changes it as the position after the move sums: over WAC and every move from there
    /// (captures, promotions, castling and en passant among them).
    #[test]
    fn the_placement_sums_and_follows_moves_exactly() {
        for style in [Style::Agents, Style::Tables] {
            let placement = Placement::new(style);
            for pos in crate::board::epd_positions(include_str!("../../../tests/data/wac.epd")) {
                let mut sum = Sum::new(style.weights());
                material(&pos, &mut sum);
                squares(&pos, style, &mut sum);
                let here = placement.sum(&pos);
                assert_eq!(here, sum.total, "{}", pos.to_fen());
                for &mv in pos.legal_moves().iter() {
                    assert_eq!(
                        placement.after(&pos, mv, here),
                        placement.sum(&pos.play(mv)),
                        "{mv} in {}",
                        pos.to_fen()
                    );
                }
            }
        }
        let pos = Position::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1").unwrap();
        let placement = Placement::new(Style::Agents);
        for uci in ["e1g1", "e1c1", "e5d6"] {
            let mv = pos.parse_uci(uci).unwrap();
            assert_eq!(placement.after(&pos, mv, placement.sum(&pos)), placement.sum(&pos.play(mv)), "{uci}");
        }
    }

    #[test]
    fn each_style_weighs_the_squares_its_way() {
        let pos = Position::from_fen("6k1/8/8/8/3N4/8/4P3/6K1 w - - 0 1").unwrap();
        let mut agents = Trace::default();
        squares(&pos, Style::Agents, &mut agents);
        assert_eq!(agents.counts[KNIGHT_CENTRE + 3], 1);
        assert_eq!(agents.counts[PAWN_CENTRE + 1], 1);
        assert_eq!(agents.counts[KING_FILE + 1], 0, "both kings on the g-file");
        let mut tables = Trace::default();
        squares(&pos, Style::Tables, &mut tables);
        let d4 = Square::parse("d4").unwrap().index();
        assert_eq!(tables.counts[TABLE + 64 * Piece::Knight.index() + d4], 1);
        // Black's king on g8 is White's g1 seen from the other side: the two cancel.
        assert_eq!(tables.counts[TABLE + 64 * Piece::King.index() + 6], 0);
        assert_eq!(tables.counts[KNIGHT_CENTRE + 3], 0);
    }
}

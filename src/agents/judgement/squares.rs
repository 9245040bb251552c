//! What its square is worth to each piece, in either style of judgement: the agents' own
//! (each agent knows a few things of its square: how far forward and central a pawn stands,
//! how central a knight or king, a knight or bishop still at home, a king off its back rank)
//! or the conventional piece-square tables (a weight for every piece on every square).

use super::Style;
use super::pawns::relative_rank;
use super::score::Sink;
use super::terms::*;
use crate::board::{Color, Piece, Position, Square};

/// How far `sq` is from the edge: 0 on the edge, 3 on the four centre squares.
#[inline]
pub(super) fn centrality(sq: Square) -> usize {
    let (f, r) = (sq.file(), sq.rank());
    f.min(7 - f).min(r).min(7 - r) as usize
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
            sink.side(us, KNIGHT_CENTRE + centrality(sq), 1);
            if rank == 0 {
                sink.side(us, MINOR_UNDEVELOPED, 1);
            }
        }
        Piece::Bishop if rank == 0 => sink.side(us, MINOR_UNDEVELOPED, 1),
        Piece::King => {
            sink.side(us, KING_CENTRE + centrality(sq), 1);
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

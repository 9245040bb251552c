//! The chess core: bitboards, attack tables, positions, legal move generation, FEN and move
//! notation, game history with the draw rules, and perft.

pub mod attacks;
mod bitboard;
pub mod epd;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
pub mod perft;
mod position;
mod types;
pub mod values;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, STARTPOS, placement_fen};
pub use game::{Game, Outcome};
pub(crate) use movegen::{FewMoves, KingSteps, MoveSink, PROMOTION_RANKS};
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList};
pub use notation::MoveError;
pub use position::Position;
pub use types::{CastleRights, Color, Piece, Square};

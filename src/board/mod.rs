//! The chess core: bitboards, attack tables, positions, legal move generation, FEN and move
//! notation, game history with the draw rules, and perft.

pub mod attacks;
mod bitboard;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
pub mod perft;
mod position;
mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{placement_fen, FenError, STARTPOS};
pub use game::{Game, Outcome};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use notation::MoveError;
pub use position::Position;
pub(crate) use movegen::{FewMoves, KingSteps, MoveSink, PROMOTION_RANKS};
pub use types::{CastleRights, Color, Piece, Square};

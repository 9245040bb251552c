//! The chess core: bitboards, attack tables, positions, legal move generation (and check
//! generation, `checks.rs`; castling, Chess960's included, `castling.rs`), FEN and move
//! notation, PGN games read into positions and moves (`pgn_reader.rs`), game history with the
//! draw rules, perft, and Syzygy endgame table probes (`syzygy.rs`).

pub mod attacks;
mod bitboard;
mod castling;
mod checks;
pub mod epd;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
pub mod perft;
pub mod pgn_reader;
mod position;
mod see;
pub mod syzygy;
mod types;
pub mod values;
pub mod zobrist;

pub use bitboard::Bitboard;
pub(crate) use checks::{
    check_test, checking_moves, checking_moves_into, checks, few_replies, for_each_check, gives_check,
};
pub use fen::{FenError, STARTPOS, placement_fen};
pub use game::{Game, Outcome};
pub(crate) use movegen::{FewMoves, KingSteps, MoveSink, PROMOTION_RANKS};
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList};
pub use notation::{CastlingNotation, MoveError};
pub use position::Position;
pub use see::see_at_least;
pub use types::{CastleRights, Color, Piece, Square};

/// The positions of an EPD text (each line's first four fields, before any `;`), for the tests
/// over the suites; lines that are no position are left out.
#[cfg(test)]
pub(crate) fn epd_positions(text: &str) -> Vec<Position> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split(';').next().unwrap_or("").split_whitespace().take(4).collect();
            Position::from_fen(&format!("{} 0 1", fields.join(" "))).ok()
        })
        .collect()
}

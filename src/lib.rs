//! AgentChess: a chess engine where every own piece is an agent and a MasterAgent decides.
//!
//! - [`board`]: bitboards, positions, legal move generation, FEN and notation, perft.
//! - [`player`]: anything that picks a move in a game (agents, searcher, random).

pub mod board;
pub mod player;

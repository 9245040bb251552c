//! AgentChess: a chess engine where every own piece is an agent and a MasterAgent decides.
//!
//! - [`board`]: bitboards, positions, legal move generation, FEN and notation, perft.
//! - [`agents`]: the per-piece Agents and the MasterAgent, levels 1–8 as feature tiers.
//! - [`player`]: anything that picks a move in a game (agents, searcher, random).
//! - [`protocol`]: the XBoard/WinBoard loop (and UCI).

// Only the protocol writer and the research subcommands' reports (`cli`) may print to stdout:
// anything else there would corrupt the protocol stream.
#![deny(clippy::print_stdout)]

pub mod agents;
pub mod board;
pub mod cli;
pub mod experiments;
pub mod player;
pub mod protocol;
pub mod search;

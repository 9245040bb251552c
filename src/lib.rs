//! AgentChess: a chess engine where every own piece is an agent and a MasterAgent decides.
//!
//! The layers, each using only those above it in this list:
//! - [`board`]: bitboards, positions, legal move generation, FEN, EPD, PGN reading and notation,
//!   material values, perft.
//! - [`agents`]: the per-piece Agents and the MasterAgent; the levels as sets of named features.
//! - [`players`]: anything that picks a move in a game: the agents, the conventional searcher,
//!   a random mover, real engines over UCI or XBoard; players by name (`level:7`, a
//!   `PlayerSpec`).
//! - [`protocol`]: the XBoard/WinBoard loop (and UCI); [`experiments`]: matches, tournaments,
//!   suites and reports.
//! - [`tuning`]: the judgement's weights and the win/draw/loss model fitted to games;
//!   [`review`]: games judged move by move (`agentchess annotate`). Both may use the
//!   experiments' game playing and formats, never the other way round.
//! - [`cli`]: the subcommands behind the binary.

// Only the protocol writer and the research subcommands' reports (`cli`) may print to stdout:
// anything else there would corrupt the protocol stream.
#![deny(clippy::print_stdout)]

pub mod agents;
pub mod board;
pub mod cli;
pub mod experiments;
pub mod players;
pub mod protocol;
pub mod review;
pub mod tuning;

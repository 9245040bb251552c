//! AgentChess: a chess engine where every own piece is an agent and a MasterAgent decides.
//!
//! - [`board`]: bitboards, positions, legal move generation, FEN and notation, perft.
//! - [`agents`]: the per-piece Agents and the MasterAgent, levels 1–8 as feature tiers.
//! - [`player`]: anything that picks a move in a game (agents, searcher, random).
//! - [`search`]: the conventional alpha-beta searcher, the thesis's Crafty stand-in.
//! - [`external`]: real engines (UCI, XBoard) as players, each in a subprocess.
//! - [`spec`]: players by name (`level:7`, `search:depth=2`), above all of the above.
//! - [`experiments`], [`cli`]: matches, tournaments, suites and reports.
//! - [`protocol`]: the XBoard/WinBoard loop (and UCI).

// Only the protocol writer and the research subcommands' reports (`cli`) may print to stdout:
// anything else there would corrupt the protocol stream.
#![deny(clippy::print_stdout)]

pub mod agents;
pub mod board;
pub mod cli;
pub mod experiments;
pub mod external;
pub mod player;
pub mod protocol;
pub mod search;
pub mod spec;

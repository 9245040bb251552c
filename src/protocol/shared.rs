//! What both protocols share: the engine's name and version, the sink for thinking lines while
//! a decision runs, how a GUI's move is read, how input is quoted back, and what a person at
//! the prompt is told.

use crate::board::{Move, Position};

/// Static facts about the build that go into the handshake (XBoard `myname`, UCI `id name`).
pub const ENGINE_NAME: &str = "AgentChess";
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where thinking lines go while a long decision still runs (the loop's writer); without one,
/// only the final line is given, with the move.
pub type LiveOutput<'a, R> = Box<dyn FnMut(&R) + 'a>;

/// Reads a GUI move: coordinate (any case, `=` tolerated), castling as O-O, or SAN.
pub fn parse_move(pos: &Position, text: &str) -> Option<Move> {
    pos.parse_move(text).ok().or_else(|| {
        let lower = text.to_ascii_lowercase();
        (lower != text).then(|| pos.parse_uci(&lower).ok()).flatten()
    })
}

/// What a person at the prompt is told: on stderr when stdin is a terminal, and in reply to
/// `help` (as `#` lines in XBoard, `info string` in UCI).
pub const HELP: [&str; 4] = [
    "AgentChess speaks XBoard/WinBoard (CECP v2); send `uci` as the first line for UCI.",
    "Try: xboard, protover 2, new, e2e4 (a move), go, post, analyze, setboard FEN, quit.",
    "Load it in XBoard (xboard -fcp agentchess), cutechess-cli or python-chess to play a game.",
    "Options and subcommands (match, tournament, suite, thesis, explain, perft): agentchess --help",
];

/// Longest command text echoed back in an error line; the rest is cut off so that a 100 KB line
/// costs one short reply.
pub const ECHO_LIMIT: usize = 80;

/// Input text as it may be quoted back to the GUI: bounded in length, one line.
pub fn echo(text: &str) -> String {
    let clean: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if clean.chars().count() <= ECHO_LIMIT {
        clean
    } else {
        let mut cut: String = clean.chars().take(ECHO_LIMIT).collect();
        cut.push_str("...");
        cut
    }
}

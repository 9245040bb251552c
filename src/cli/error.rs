//! What can go wrong in a subcommand, and the exit status each error means: 2 when the command
//! line, or a file or player it names, cannot be used (nothing was run, or what was run is
//! incomplete); 1 when a run did its work but something in it failed (a wrong count, a file
//! not written, lines skipped).

use crate::board::{FenError, MoveError};
use crate::experiments::OpeningsError;
use crate::experiments::endgame::MaterialError;
use crate::experiments::sprt::SprtError;
use crate::players::external::EngineError;
use crate::players::spec::SpecError;
use crate::protocol::engine::OwnPlayerError;
use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum CliError {
    #[error("perft needs a DEPTH (or --suite FILE)")]
    NoDepth,
    #[error("--threads {asked}: this machine has {cores} cores")]
    TooManyThreads { asked: u32, cores: usize },
    #[error("bad FEN: {0}")]
    BadFen(FenError),
    #[error("move '{text}': {source}")]
    BadMove { text: String, source: MoveError },
    #[error("cannot read {}: {source}", .path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{}: no positions in it (an EPD file has one a line)", .path.display())]
    EmptySuite { path: PathBuf },
    #[error("{}: {source}", .path.display())]
    Openings { path: PathBuf, source: OpeningsError },
    #[error("--sprt: {0}")]
    Sprt(#[from] SprtError),
    #[error(transparent)]
    Levels(#[from] LevelsError),
    #[error(transparent)]
    Material(#[from] MaterialError),
    #[error("bad player spec '{spec}': {source}")]
    BadSpec { spec: String, source: SpecError },
    /// An external engine that cannot be started or fails its handshake.
    #[error("bad player spec '{spec}': {source}")]
    Unplayable { spec: String, source: EngineError },
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    OwnPlayer(#[from] OwnPlayerError),
    #[error("--anchor {anchor} is not one of the players ({players})")]
    Anchor { anchor: String, players: String },
    #[error("{0}: too few scored moves to fit the model (each of four bands of material needs {1})")]
    TooFewScores(String, usize),
    #[error("--syzygy is for AgentChess's own judges; give {0} its tables in its spec: ...,option.SyzygyPath=DIR")]
    EngineTables(String),
    #[error("--syzygy {path}: {source}")]
    Tables { path: String, source: crate::board::syzygy::TbError },
    #[error("a tournament needs at least two players")]
    TooFewPlayers,
    /// A suite run that ended without its results (a panic, logged).
    #[error("not run")]
    SuiteNotRun,
    #[error("cannot write {}: {source}", .path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error(
        "--player {0}: a judge must search to give scores (level:N, elo:N, features:..., search:..., uci:..., xboard:...); it does not search"
    )]
    JudgeDoesNotSearch(String),
    #[error("{0} game(s) lost by a player's fault (listed above); --allow-faults exits 0 with them")]
    Faults(usize),
    #[error("{}: {what} is also read as input; it would be overwritten (name another file)", .path.display())]
    OutputIsInput { path: PathBuf, what: &'static str },
    #[error("cannot write to {}: {source}", .dir.display())]
    WriteDir { dir: PathBuf, source: std::io::Error },
    /// Each malformed line was named on stderr as it was read; the results of the rest are out.
    #[error("{0} malformed EPD line(s) skipped")]
    MalformedEpd(usize),
    /// Perft suite lines that could not be read, each named on stderr.
    #[error("{0} perft suite line(s) unreadable")]
    PerftUnreadable(u32),
    /// Wrong perft counts, each shown on stdout.
    #[error("{0} perft count(s) wrong")]
    PerftMismatch(u32),
    #[error("protocol I/O failed: {0}")]
    ProtocolIo(std::io::Error),
    /// A weights file the tuner cannot go on from.
    #[error("{}: {source}", .path.display())]
    Weights { path: PathBuf, source: crate::tuning::source::SourceError },
    #[error("{0}: no positions to fit")]
    NoPositions(String),
    /// A PGN input with no game in it.
    #[error("no game in {0}")]
    NoGames(String),
    /// Games that could not be read, each named on stderr; the others were annotated.
    #[error("{0} game(s) could not be read (named above); the others are annotated")]
    BadGames(usize),
    /// A player gave no move in a position that has one (an engine that failed).
    #[error("{spec} gave no move: {why}")]
    NoMove { spec: String, why: String },
}

/// `--levels 1-8`, `2,5,7`: a level list that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LevelsError {
    #[error("bad level list '{0}' (e.g. 1-8 or 2,5,7)")]
    Unreadable(String),
    #[error("levels are 1 to 9, got '{0}'")]
    OutOfRange(String),
    #[error("level range '{part}' runs backwards (write {hi}-{lo})")]
    Backwards { part: String, lo: u32, hi: u32 },
}

impl CliError {
    /// The exit status: the one place where an error becomes one.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Write { .. }
            | CliError::WriteDir { .. }
            | CliError::MalformedEpd(_)
            | CliError::PerftMismatch(_)
            | CliError::ProtocolIo(_)
            | CliError::BadGames(_)
            | CliError::NoMove { .. }
            | CliError::Faults(_) => 1,
            _ => 2,
        }
    }

    /// Says what went wrong on stderr, where it was not said already: perft's wrong counts are
    /// on stdout and its unreadable lines named one by one; the skipped EPD lines are a note
    /// after the results; an I/O failure of the protocol is logged.
    pub fn report(&self) {
        match self {
            CliError::PerftMismatch(_) | CliError::PerftUnreadable(_) => {}
            CliError::MalformedEpd(_) => errln!("{self}"),
            CliError::ProtocolIo(_) => log::error!("{self}"),
            _ => errln!("error: {self}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Input that cannot be used is status 2; a run that failed in part is status 1.
    #[test]
    fn exit_statuses() {
        let io = || std::io::Error::other("disk full");
        let spec = "level:0".parse::<crate::players::spec::PlayerSpec>().unwrap_err();
        for (error, code) in [
            (CliError::NoDepth, 2),
            (CliError::Read { path: "x.epd".into(), source: io() }, 2),
            (CliError::BadSpec { spec: "level:0".into(), source: spec.clone() }, 2),
            (CliError::Spec(spec), 2),
            (CliError::TooFewPlayers, 2),
            (CliError::PerftUnreadable(1), 2),
            (CliError::Write { path: "a.pgn".into(), source: io() }, 1),
            (CliError::WriteDir { dir: "out".into(), source: io() }, 1),
            (CliError::MalformedEpd(3), 1),
            (CliError::PerftMismatch(1), 1),
            (CliError::ProtocolIo(io()), 1),
            (CliError::NoGames("x.pgn".into()), 2),
            (CliError::BadGames(1), 1),
        ] {
            assert_eq!(error.exit_code(), code, "{error}");
        }
        let bad = CliError::BadSpec {
            spec: "level:0".into(),
            source: "level:0".parse::<crate::players::spec::PlayerSpec>().unwrap_err(),
        };
        assert_eq!(bad.to_string(), "bad player spec 'level:0': agent level 0 does not exist (levels are 1 to 10)");
    }
}

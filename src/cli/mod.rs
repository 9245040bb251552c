//! The subcommands behind the binary, one module each: perft, match, tournament, suite, thesis,
//! explain, endgame, bench, calibrate, tune, annotate, fit-wdl, and with no subcommand the engine itself. [`args`] reads the
//! command line into one options value per subcommand; each subcommand's `run` takes it and
//! returns a [`CliError`] when it fails, which says the exit status. Reports go to stdout,
//! progress and errors to stderr.

// The research subcommands' reports are their stdout, written through `outln!`.
#![allow(clippy::print_stdout)]

/// `println!` for reports, but a closed stdout (`agentchess thesis | head`) ends the program
/// quietly, as it ends `cat`, instead of panicking. Files such as the PGN are complete at that
/// point: each is written and flushed before its report line.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// `print!` with the same care.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if write!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// `errln!` for progress and errors, but a closed stderr (`agentchess suite x.epd 2>&1 | head
/// -1`) is not a reason to panic: the line is dropped and the work goes on to its own end.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod annotate;
pub mod args;
mod bench;
mod calibrate;
mod endgame;
mod engine;
mod error;
mod explain;
mod fit_wdl;
mod matches;
mod output;
mod perft;
mod rate;
mod run;
mod suite;
mod thesis;
mod tournament;
mod tune;

pub use args::{Cli, Command};
pub use bench::{BenchReport, bench};
pub use error::{CliError, LevelsError};
pub use run::{RunOptions, balanced_games, distinct_labels, faults_text};
pub use thesis::thesis_players;
pub use tournament::parse_levels;

/// Runs what the command line asks for.
pub fn run(cli: &Cli) -> Result<(), CliError> {
    match &cli.command {
        None => engine::run(&cli.engine),
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Match(args)) => matches::run(args),
        Some(Command::Tournament(args)) => tournament::run(args),
        Some(Command::Suite(args)) => suite::run(args),
        Some(Command::Thesis(args)) => thesis::run(args),
        Some(Command::Explain(args)) => explain::run(args),
        Some(Command::Endgame(args)) => endgame::run(args),
        Some(Command::Bench) => bench::run(),
        Some(Command::Calibrate(args)) => calibrate::run(args),
        Some(Command::Tune(args)) => tune::run(args),
        Some(Command::Annotate(args)) => annotate::run(args),
        Some(Command::FitWdl(args)) => fit_wdl::run(args),
        Some(Command::Rate(args)) => rate::run(args),
    }
}

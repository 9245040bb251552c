//! The `agentchess` binary: with no subcommand it speaks XBoard (or UCI) on stdin/stdout;
//! subcommands run perft and the research tools (`agentchess::cli`).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = agentchess::cli::Cli::parse();
    match agentchess::cli::run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            e.report();
            ExitCode::from(e.exit_code())
        }
    }
}

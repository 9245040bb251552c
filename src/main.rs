//! The `agentchess` binary: with no subcommand it speaks XBoard (or UCI) on stdin/stdout;
//! subcommands run perft and the research tools.

use agentchess::board::perft::{divide, parse_suite_line, perft};
use agentchess::board::Position;
use agentchess::protocol::{self, Engine};
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "agentchess", version, about = "AgentChess: a multi-agent chess engine for XBoard/WinBoard")]
struct Cli {
    /// Agent level, 1 (weakest) to 8 (all agent features).
    #[arg(long, global = true, default_value_t = 7, value_parser = clap::value_parser!(u8).range(1..=8))]
    level: u8,
    /// Agent features to switch on instead of a level, comma-separated.
    #[arg(long, global = true, value_name = "LIST")]
    features: Option<String>,
    /// Seed for every random choice (default: a fresh one, shown in the Seed option).
    #[arg(long, global = true, value_name = "S")]
    seed: Option<u64>,
    /// Player spec (level:N, features:LIST, random, ...); overrides --level and --features.
    #[arg(long, global = true, value_name = "SPEC")]
    player: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator test), or run a perft suite.
    Perft {
        /// Depth to count (not needed with --suite).
        depth: Option<u32>,
        /// Position to start from (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move, as Stockfish's `go perft` does.
        #[arg(long)]
        divide: bool,
        /// EPD perft suite (`FEN ;D1 n ;D2 n ...`) to check.
        #[arg(long)]
        suite: Option<String>,
        /// With --suite: skip depths above this.
        #[arg(long, default_value_t = u32::MAX)]
        max_depth: u32,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, fen, divide, suite, max_depth }) => {
            run_perft(depth, fen.as_deref(), divide, suite.as_deref(), max_depth)
        }
        None => run_protocol(&cli),
    }
}

/// No subcommand: speak XBoard (or UCI) on stdin/stdout until `quit` or end of input.
fn run_protocol(cli: &Cli) -> ExitCode {
    let spec = match (&cli.player, &cli.features) {
        (Some(p), _) => p.clone(),
        (None, Some(f)) => format!("features:{f}"),
        (None, None) => format!("level:{}", cli.level),
    };
    let seed = cli.seed.unwrap_or_else(rand::random);
    let engine = match Engine::new(&spec, seed) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    log::info!("player {spec}, seed {seed}");
    match protocol::run(std::io::stdin().lock(), std::io::stdout().lock(), engine) {
        Ok(()) => ExitCode::SUCCESS,
        // The GUI closed our output: nobody is left to play for, which is not an engine failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("protocol I/O failed: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_perft(depth: Option<u32>, fen: Option<&str>, show_divide: bool, suite: Option<&str>, max_depth: u32) -> ExitCode {
    if let Some(path) = suite {
        return run_perft_suite(path, max_depth);
    }
    let Some(depth) = depth else {
        eprintln!("error: perft needs a DEPTH (or --suite FILE)");
        return ExitCode::from(2);
    };
    let pos = match fen.map(Position::from_fen).unwrap_or_else(|| Ok(Position::startpos())) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let nodes = if show_divide {
        let rows = divide(&pos, depth);
        for (mv, n) in &rows {
            println!("{mv}: {n}");
        }
        println!();
        println!("Nodes searched: {}", rows.iter().map(|r| r.1).sum::<u64>());
        rows.iter().map(|r| r.1).sum()
    } else {
        let n = perft(&pos, depth);
        println!("{n}");
        n
    };
    let secs = start.elapsed().as_secs_f64();
    log::info!("perft {depth}: {nodes} nodes in {secs:.3} s ({:.1} Mnps)", nodes as f64 / secs.max(1e-9) / 1e6);
    ExitCode::SUCCESS
}

fn run_perft_suite(path: &str, max_depth: u32) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut checked, mut failed) = (0u32, 0u32);
    let start = Instant::now();
    for (i, line) in text.lines().enumerate() {
        let case = match parse_suite_line(line) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => {
                println!("line {}: malformed: {e}", i + 1);
                failed += 1;
                continue;
            }
        };
        let pos = match Position::from_fen(&case.fen) {
            Ok(p) => p,
            Err(e) => {
                println!("line {}: bad FEN '{}': {e}", i + 1, case.fen);
                failed += 1;
                continue;
            }
        };
        for &(depth, expected) in case.depths.iter().filter(|d| d.0 <= max_depth) {
            let got = perft(&pos, depth);
            checked += 1;
            if got != expected {
                failed += 1;
                println!("MISMATCH line {}: {} depth {depth}: expected {expected}, got {got}", i + 1, case.fen);
            }
        }
    }
    println!("{checked} counts checked, {failed} failed, {:.2} s", start.elapsed().as_secs_f64());
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

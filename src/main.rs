//! The `agentchess` binary: with no subcommand it speaks XBoard (or UCI) on stdin/stdout;
//! subcommands run perft and the research tools.

use agentchess::cli;
use agentchess::protocol::{self, Engine};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "agentchess", version, about = "AgentChess: a multi-agent chess engine for XBoard/WinBoard")]
struct Cli {
    /// Agent level, 1 (weakest) to 8 (all agent features).
    #[arg(long, global = true, default_value_t = 7, value_parser = clap::value_parser!(u8).range(1..=8))]
    level: u8,
    /// Agent features to switch on instead of a level, comma-separated.
    #[arg(long, global = true, value_name = "LIST")]
    features: Option<String>,
    /// Seed for every random choice (engine default: a fresh one, shown in the Seed option;
    /// match, tournament, suite and thesis default: 1).
    #[arg(long, global = true, value_name = "S")]
    seed: Option<u64>,
    /// Player spec (level:N, features:LIST, random, ...); overrides --level and --features.
    /// (`suite` takes it several times: one run per player.)
    #[arg(long, global = true, value_name = "SPEC")]
    player: Vec<String>,
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
    /// Play games between two players in-process (specs: level:N, features:LIST, search:depth=N, random).
    Match {
        /// First player spec: White in games 1, 3, 5, ...
        a: String,
        /// Second player spec.
        b: String,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Round robin between players (or --levels 1-8), the thesis's Table 3.1 design.
    Tournament {
        /// Player specs (level:N, features:LIST, search:depth=N,..., random).
        players: Vec<String>,
        /// Levels to add as players, e.g. 1-8 or 2,5,7.
        #[arg(long)]
        levels: Option<String>,
        /// Play only the first player's pairings (a gauntlet: the first player against each
        /// of the others).
        #[arg(long)]
        gauntlet: bool,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Run EPD test suites: each player's move is checked against bm/am.
    Suite {
        /// EPD files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write every position with the move played to this CSV.
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// The thesis's chapter 3 in one run (Tables 3.1 and 3.10).
    ///
    /// The Table 3.1 round robin of levels 1-8 and search:depth=1, then the WAC and ECM suites
    /// (Table 3.10) for the levels and the searcher at depths 1-3. With --out, every table,
    /// curve, chart, the PGN and suites.csv go there.
    Thesis {
        #[command(flatten)]
        run: RunArgs,
    },
    /// Why a player chooses its move in a position (the agents' explain mode).
    ///
    /// For the agents: every agent's threat, best attack and best move, the worst threat, the
    /// request answers and the rule that decided. With --levels, one line per level.
    Explain {
        /// Position (default: the initial one).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from it first, in SAN or coordinates.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Compare levels instead, e.g. 1-8: what each plays and why.
        #[arg(long)]
        levels: Option<String>,
    },
    /// Behaviour fingerprint: one signature that only a change of play changes.
    ///
    /// Folds perft 3 of the suite positions, every level's and the searcher's move on the WAC
    /// positions and a seeded match into one 64-bit signature.
    Bench,
}

#[derive(clap::Args)]
struct RunArgs {
    /// Games per pairing (colours alternate).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Optional hard cap in full moves (off by default; reported apart from the rules' draws).
    #[arg(long)]
    move_cap: Option<usize>,
    /// Folder for CSV/JSON tables, SVG charts, PGN and summary.
    #[arg(long)]
    out: Option<PathBuf>,
    /// PGN file of all games (written as games finish).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Comment every move in the PGN with the player's reason ("L7 attack request: ...").
    #[arg(long)]
    comments: bool,
    /// Start positions (FEN or EPD lines), each played twice per pairing with colours swapped.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
}

impl RunArgs {
    /// `seed` is the global --seed (default 1 here, so runs are reproducible); game i's seed
    /// is derived from it, so every game replays alone.
    fn options(&self, seed: Option<u64>) -> Result<cli::RunOptions, String> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let openings = match &self.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                agentchess::experiments::parse_openings(&text).map_err(|e| format!("{}: {e}", path.display()))?
            }
            None => Vec::new(),
        };
        Ok(cli::RunOptions {
            games: self.games,
            seed: seed.unwrap_or(1),
            threads: self.threads.unwrap_or(cores).max(1),
            move_cap: self.move_cap,
            out: self.out.clone(),
            pgn: self.pgn.clone(),
            comments: self.comments,
            openings,
        })
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let seed = cli.seed;
    match &cli.command {
        Some(Command::Perft { depth, fen, divide, suite, max_depth }) => {
            cli::run_perft(*depth, fen.as_deref(), *divide, suite.as_deref(), *max_depth)
        }
        Some(Command::Match { a, b, run }) => match run.options(seed) {
            Ok(opts) => cli::run_match(a, b, &opts),
            Err(e) => usage_error(&e),
        },
        Some(Command::Tournament { players, levels, gauntlet, run }) => {
            let mut players = players.clone();
            if let Some(l) = levels {
                match cli::parse_levels(l) {
                    Ok(v) => players.extend(v),
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            match run.options(seed) {
                Ok(opts) => cli::run_tournament(&players, *gauntlet, &opts),
                Err(e) => usage_error(&e),
            }
        }
        Some(Command::Suite { files, csv }) => {
            let mut players = cli.player.clone();
            if players.is_empty() {
                players.push("level:7".to_string());
            }
            cli::run_suite_cmd(files, &players, seed.unwrap_or(1), csv.as_ref())
        }
        Some(Command::Thesis { run }) => match run.options(seed) {
            Ok(opts) => cli::run_thesis(&opts),
            Err(e) => usage_error(&e),
        },
        Some(Command::Bench) => cli::run_bench(),
        Some(Command::Explain { fen, moves, levels }) => {
            let spec = player_spec(&cli);
            cli::run_explain(fen.as_deref(), moves, &spec, levels.as_deref(), seed.unwrap_or(1))
        }
        None => run_protocol(&cli),
    }
}

/// No subcommand: speak XBoard (or UCI) on stdin/stdout until `quit` or end of input.
fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// The player the global options name: --player, else --features, else --level.
fn player_spec(cli: &Cli) -> String {
    match (cli.player.first(), &cli.features) {
        (Some(p), _) => p.clone(),
        (None, Some(f)) => format!("features:{f}"),
        (None, None) => format!("level:{}", cli.level),
    }
}

fn run_protocol(cli: &Cli) -> ExitCode {
    let spec = player_spec(cli);
    let seed = cli.seed.unwrap_or_else(rand::random);
    let engine = match Engine::new(&spec, seed) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    log::info!("player {spec}, seed {seed}");
    // The input goes to a reader thread, which needs an owned, sendable handle.
    match protocol::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout().lock(), engine) {
        Ok(()) => ExitCode::SUCCESS,
        // The GUI closed our output: nobody is left to play for, which is not an engine failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("protocol I/O failed: {e}");
            ExitCode::FAILURE
        }
    }
}

//! The `agentchess` binary: with no subcommand it speaks XBoard (or UCI) on stdin/stdout;
//! subcommands run perft and the research tools.

use agentchess::cli;
use agentchess::protocol::{self, Engine};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// `agentchess --version`: the version and the target the binary was built for, so that a
/// WinBoard user can tell which build a GUI started.
const LONG_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("AGENTCHESS_TARGET"), ")");

#[derive(Parser)]
#[command(
    name = "agentchess",
    version = LONG_VERSION,
    about = "AgentChess: a multi-agent chess engine for XBoard/WinBoard (and UCI)",
    long_about = "AgentChess: a multi-agent chess engine for XBoard/WinBoard (and UCI).\n\n\
                  With no subcommand it is the engine on stdin/stdout (the options below choose \
                  its player); the subcommands run perft and the research tools, each with \
                  options of its own (agentchess help SUBCOMMAND).",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(flatten)]
    engine: PlayerArgs,
    /// Seed for every random choice (default: a fresh one, shown in the Seed option).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Which player: the engine's own options and `explain`'s.
#[derive(Args)]
struct PlayerArgs {
    /// Agent level: 1 (weakest) to 8 are the thesis's, 9 adds the thesis's future work.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=9), conflicts_with_all = ["features", "player"])]
    level: Option<u8>,
    /// Agent features to switch on instead of a level, comma-separated (see docs/agents.md).
    #[arg(long, value_name = "LIST", conflicts_with = "player")]
    features: Option<String>,
    /// Player spec: level:N, features:LIST, search:depth=N[,eval=E][,range=R], random.
    #[arg(long, value_name = "SPEC")]
    player: Option<String>,
}

impl PlayerArgs {
    /// The spec these options name (--player, else --features, else --level, else the default level).
    fn spec(&self) -> String {
        match (&self.player, &self.features, self.level) {
            (Some(p), _, _) => p.clone(),
            (None, Some(f), _) => format!("features:{f}"),
            (None, None, level) => format!("level:{}", level.unwrap_or(protocol::engine::DEFAULT_LEVEL)),
        }
    }
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
        /// With --suite: skip depths above this (default: every depth the suite gives).
        #[arg(long, value_name = "DEPTH")]
        max_depth: Option<u32>,
    },
    /// Play games between two players in-process (specs: level:N, features:LIST, search:depth=N, random).
    Match {
        /// First player spec: White in games 1, 3, 5, ...
        a: String,
        /// Second player spec.
        b: String,
        /// Sequential test of A against B: play game pairs (one opening, colours swapped) until
        /// the pentanomial GSPRT accepts H0 (Elo <= elo0) or H1 (Elo >= elo1), normalised Elo,
        /// or --games (default 20000 here) is reached. E.g. elo0=0,elo1=10,alpha=0.05,beta=0.05.
        #[arg(long, value_name = "elo0=E0,elo1=E1[,alpha=A,beta=B]")]
        sprt: Option<String>,
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
        /// A player to run (repeat for several); default level:9.
        #[arg(long, value_name = "SPEC")]
        player: Vec<String>,
        /// Write every position with the move played to this CSV.
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Seed of the players, reseeded for every position (default 1).
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = at_least_one)]
        threads: Option<u32>,
    },
    /// The thesis's chapter 3 in one run (Tables 3.1 and 3.10).
    ///
    /// The Table 3.1 round robin of levels 1-8 and search:depth=1, then the WAC and ECM suites
    /// (Table 3.10) for the levels and the searcher at depths 1-3. With --out, every table,
    /// curve, chart, the PGN and suites.csv go there.
    Thesis {
        /// Put this player where the thesis had Crafty, e.g. "uci:/usr/games/stockfish,depth=1":
        /// in the round robin as given, in the suites at depths 1, 2 and 3 (its depth= or sd=
        /// setting changed; a spec without one plays the suites as given).
        #[arg(long, value_name = "SPEC")]
        opponent: Option<String>,
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
        /// Compare levels instead, e.g. 1-9: what each plays and why.
        #[arg(long, conflicts_with_all = ["level", "features", "player"])]
        levels: Option<String>,
        #[command(flatten)]
        player: PlayerArgs,
        /// Seed of the player's random tie-breaks (default 1).
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
    },
    /// Endgame drill: a player with a winning edge (White) against a defender from random
    /// legal positions; how many it mates before the fifty-move rule.
    Endgame {
        /// The material, each side from its king: KQK, KRK, KBNK, ...
        material: String,
        /// Start positions to play.
        #[arg(long, default_value_t = 100, value_parser = at_least_one)]
        positions: u32,
        /// The attacker.
        #[arg(long, default_value = "level:9")]
        player: String,
        /// The defender.
        #[arg(long, default_value = "search:depth=3")]
        defender: String,
        /// Seed of the start positions and the players.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long, value_parser = at_least_one)]
        threads: Option<u32>,
    },
    /// Behaviour fingerprint: one signature that only a change of play changes.
    ///
    /// Folds perft 3 of the suite positions, every level's and the searcher's move on the WAC
    /// positions and a seeded match into one 64-bit signature.
    Bench,
}

#[derive(Args)]
struct RunArgs {
    /// Games per pairing (colours alternate; default 100, and 20000 as the cap of an SPRT).
    #[arg(long, value_parser = at_least_one)]
    games: Option<u32>,
    /// Seed of the run; game i's seed is derived from it, so every game replays alone.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = at_least_one)]
    threads: Option<u32>,
    /// Optional hard cap in full moves (off by default; reported apart from the rules' draws).
    #[arg(long, value_parser = at_least_one)]
    move_cap: Option<u32>,
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
    /// The player rated 0 in the rating list (default: level:1 when it plays, else the first).
    #[arg(long, value_name = "SPEC")]
    anchor: Option<String>,
}

/// A count that only makes sense from 1 up (games, threads, a move cap).
fn at_least_one(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl RunArgs {
    fn options(&self) -> Result<cli::RunOptions, String> {
        self.options_with(100)
    }

    /// The options, with `default_games` when --games is not given.
    fn options_with(&self, default_games: u32) -> Result<cli::RunOptions, String> {
        let asked = self.games.unwrap_or(default_games);
        let openings = match &self.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                agentchess::experiments::parse_openings(&text).map_err(|e| format!("{}: {e}", path.display()))?
            }
            None => Vec::new(),
        };
        let games = cli::balanced_games(asked as usize, openings.len());
        if games != asked as usize {
            eprintln!(
                "note: --games {} with {} opening(s): playing {games} games a pairing, so that every opening used is played with both colours",
                asked,
                openings.len().max(1)
            );
        }
        if !openings.is_empty() && games / 2 < openings.len() {
            eprintln!("note: {games} games a pairing use the first {} of the {} openings", games / 2, openings.len());
        }
        Ok(cli::RunOptions {
            games,
            seed: self.seed,
            threads: self.threads.map_or_else(cores, |t| t as usize),
            move_cap: self.move_cap.map(|m| m as usize),
            out: self.out.clone(),
            pgn: self.pgn.clone(),
            comments: self.comments,
            openings,
            anchor: self.anchor.clone(),
        })
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let Some(command) = &cli.command else { return run_protocol(&cli) };
    match command {
        Command::Perft { depth, fen, divide, suite, max_depth } => {
            cli::run_perft(*depth, fen.as_deref(), *divide, suite.as_deref(), *max_depth)
        }
        Command::Match { a, b, sprt: None, run } => match run.options() {
            Ok(opts) => cli::run_match(a, b, &opts),
            Err(e) => usage_error(&e),
        },
        Command::Match { a, b, sprt: Some(sprt), run } => {
            let config = match agentchess::experiments::sprt::SprtConfig::parse(sprt) {
                Ok(c) => c,
                Err(e) => return usage_error(&format!("--sprt: {e}")),
            };
            match run.options_with(20_000) {
                Ok(opts) => cli::run_sprt_match(a, b, config, &opts),
                Err(e) => usage_error(&e),
            }
        }
        Command::Tournament { players, levels, gauntlet, run } => {
            let mut players = players.clone();
            if let Some(l) = levels {
                match cli::parse_levels(l) {
                    Ok(v) => players.extend(v),
                    Err(e) => return usage_error(&e),
                }
            }
            match run.options() {
                Ok(opts) => cli::run_tournament(&players, *gauntlet, &opts),
                Err(e) => usage_error(&e),
            }
        }
        Command::Suite { files, player, csv, seed, threads } => {
            let players = if player.is_empty() {
                vec![format!("level:{}", protocol::engine::DEFAULT_LEVEL)]
            } else {
                player.clone()
            };
            let threads = threads.map_or_else(cores, |t| t as usize);
            cli::run_suite_cmd(files, &players, *seed, csv.as_ref(), threads)
        }
        Command::Thesis { opponent, run } => match run.options() {
            Ok(opts) => cli::run_thesis(&opts, opponent.as_deref()),
            Err(e) => usage_error(&e),
        },
        Command::Bench => cli::run_bench(),
        Command::Endgame { material, positions, player, defender, seed, threads } => {
            let threads = threads.map_or_else(cores, |t| t as usize);
            cli::run_endgame(material, *positions as usize, player, defender, *seed, threads)
        }
        Command::Explain { fen, moves, levels, player, seed } => {
            cli::run_explain(fen.as_deref(), moves, &player.spec(), levels.as_deref(), *seed)
        }
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// No subcommand: speak XBoard (or UCI) on stdin/stdout until `quit` or end of input.
fn run_protocol(cli: &Cli) -> ExitCode {
    let spec = cli.engine.spec();
    let seed = cli.seed.unwrap_or_else(rand::random);
    let engine = match Engine::new(&spec, seed) {
        Ok(e) => e,
        Err(e) => return usage_error(&e),
    };
    log::info!("player {spec}, seed {seed}");
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        // A person, not a GUI: say what this is and how to leave (`help` repeats it).
        eprintln!("{} -- type `help` for more, `quit` to leave.", agentchess::protocol::HELP[0]);
    }
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

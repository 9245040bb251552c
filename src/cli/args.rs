//! The command line: the engine's options and each subcommand's, as clap reads them. Every
//! subcommand's function takes its own options value from here.

use crate::players::spec::{PlayerSpec, SpecError};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

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
pub struct Cli {
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

// The engine's own options (no subcommand): its player and seed.
#[derive(Args)]
pub struct EngineArgs {
    #[command(flatten)]
    pub player: PlayerArgs,
    /// Seed for every random choice (default: a fresh one, shown in the Seed option).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Search threads for level 10 and analysis (default 1; UCI `Threads` and XBoard `cores`
    /// set it too), at most one a core.
    #[arg(long, value_name = "N", value_parser = at_least_one)]
    pub threads: Option<u32>,
}

/// Which player: the engine's own options and `explain`'s.
#[derive(Args)]
pub struct PlayerArgs {
    /// Agent level: 1 (weakest) to 8 are the thesis's, 9 adds the thesis's future work, 10
    /// (the default) thinks ahead with the clock.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10), conflicts_with_all = ["features", "player"])]
    pub level: Option<u8>,
    /// Agent features to switch on instead of a level, comma-separated (see docs/agents.md).
    #[arg(long, value_name = "LIST", conflicts_with = "player")]
    pub features: Option<String>,
    /// Player spec: level:N (level:10,nodes=N for a fixed budget), elo:N (the calibrated
    /// setting nearest N Elo, as UCI_Elo chooses it), features:LIST,
    /// search:depth=N[,eval=E][,range=R], random, uci:CMD[,...] or xboard:CMD[,...] (docs/experiments.md).
    #[arg(long, value_name = "SPEC")]
    pub player: Option<String>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree (move generator test), or run a perft suite.
    Perft(PerftArgs),
    /// Play games between two players in-process (specs: level:N[,nodes=N], elo:N, features:LIST,
    /// search:depth=N, random, and engines as uci:CMD[,...] or xboard:CMD[,...]).
    Match(MatchArgs),
    /// Round robin between players (or --levels 1-8), the thesis's Table 3.1 design.
    Tournament(TournamentArgs),
    /// Run EPD test suites: each player's move is checked against bm/am.
    Suite(SuiteArgs),
    /// The thesis's chapter 3 in one run (Tables 3.1 and 3.10).
    ///
    /// The Table 3.1 round robin of levels 1-8 and search:depth=1, then the WAC and ECM suites
    /// (Table 3.10) for the levels and the searcher at depths 1-3. With --out, every table,
    /// curve, chart, the PGN and suites.csv go there.
    Thesis(ThesisArgs),
    /// Why a player chooses its move in a position (the agents' explain mode).
    ///
    /// For the agents: every agent's threat, best attack and best move, the worst threat, the
    /// request answers and the rule that decided. With --levels, one line per level.
    Explain(ExplainArgs),
    /// Endgame drill: a player with a winning edge (White) against a defender from random
    /// legal positions; how many it mates before the fifty-move rule.
    Endgame(EndgameArgs),
    /// Behaviour fingerprint: three signatures that only a change of play changes.
    ///
    /// Folds perft 3 of the suite positions, the moves of levels 1-8 and the searcher on the WAC
    /// positions and a seeded match into one 64-bit signature; level 9's moves and match into a
    /// second; level 10's at a fixed node budget into a third. The last line gives level 10's
    /// nodes and speed.
    Bench,
    /// Rate every level on Stockfish's UCI_Elo scale (the table behind UCI_Elo and README's
    /// levels table).
    ///
    /// Stockfish with UCI_LimitStrength at several UCI_Elo values anchors the scale: level 9
    /// and level 10 at each node budget play the two anchors around them, levels 1-8 hang from
    /// level 9 by the agents' own games; one maximum-likelihood rating list of all games, each
    /// anchor then placed at its nominal value and the settings between anchors in proportion
    /// (the list shifted once on the anchors' mean beside it).
    /// Fairy-Max and HoiChess play too when present (cross-checks). --games is the games of
    /// one engine pairing; the agents' own pairings play 5 to 30 times as many.
    Calibrate(CalibrateArgs),
    /// Fit the judgement's weights to games level 10 plays itself (Texel's method).
    ///
    /// Plays --games self-play games at --nodes a move from the openings (a few random moves
    /// into each), keeps every quiet position labelled by the game's result in DIR/positions.txt,
    /// then fits the weights of level 10's leaf judgement so that a logistic map of the
    /// judgement predicts those results, checkpointing DIR/weights.rs as it goes. Stopped at any
    /// point and run again with the same options, it goes on where it stopped. --write puts the
    /// weights where the build reads them (src/agents/judgement/weights.rs). docs/tuning.md has
    /// the recipe.
    Tune(TuneArgs),
    /// Judge every move of one or many games and explain the mistakes, as PGN (and a page).
    ///
    /// Level 10's tree (or --player) judges every position at the budget given (--nodes or
    /// --time a position); each move's loss of winning chances gives its mark (?! ? ??), and
    /// the agents say why in words: what it left hanging and to which capture, the fork, mate
    /// or promotion it allowed or missed, the exchange it lost, the threat it ignored. The
    /// annotated PGN goes to stdout; with --out, also DIR/annotated.pgn, DIR/index.html and
    /// DIR/moves.csv (every move's scores, loss, mark and reason).
    Annotate(AnnotateArgs),
    /// Fit the win/draw/loss model behind UCI_ShowWDL to games' scores and results.
    ///
    /// Reads every move's score from the PGN comments (cutechess-cli and fastchess write
    /// `{+0.35/12 0.123s}`) with the game's result, fits the model (docs/tuning.md), and prints
    /// it as the constant src/players/wdl.rs holds, with a table of the win, draw and loss
    /// shares seen and expected by score, for the fitted model and the built-in one.
    FitWdl(FitWdlArgs),
    /// Rate players from games against anchors held at public ratings (cutechess-cli PGNs).
    ///
    /// Each player not named an anchor gets the rating that best explains its games against
    /// the anchors (each held at the Elo given, as Ordo's -m holds them), with a 95% interval;
    /// games between two anchors or two others are left out. How the upper rungs of UCI_Elo
    /// were rated against Fairy-Max, HoiChess and Phalanx at 10 s + 0.1 s
    /// (docs/calibration.md).
    Rate(RateArgs),
}

// `rate`.
#[derive(Args)]
pub struct RateArgs {
    /// PGN files of finished games (their White, Black and Result tags are read).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// An anchor and its public rating, NAME=ELO as the PGNs name it (e.g. phalanx=2610).
    #[arg(long, value_name = "NAME=ELO", value_parser = anchor, required = true)]
    pub anchor: Vec<(String, f64)>,
    /// Also fit one line, Elo against the logarithm of the nodes, to every player whose name
    /// ends in nodes-N (a node budget), and give its value at each budget.
    #[arg(long)]
    pub nodes_line: bool,
}

fn anchor(text: &str) -> Result<(String, f64), String> {
    let (name, elo) = text.rsplit_once('=').ok_or_else(|| format!("'{text}' is not NAME=ELO"))?;
    let elo: f64 = elo.trim().parse().map_err(|_| format!("'{elo}' is not an Elo"))?;
    if name.trim().is_empty() || !elo.is_finite() {
        return Err(format!("'{text}' is not NAME=ELO"));
    }
    Ok((name.trim().to_string(), elo))
}

// `fit-wdl`.
#[derive(Args)]
pub struct FitWdlArgs {
    /// PGN files of finished games with scores in their comments.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Only this player's scores (its name in the White/Black tags).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Games held out of the fit: the tables are for these instead.
    #[arg(long, value_name = "PGN", num_args = 1..)]
    pub check: Vec<PathBuf>,
}

// `tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// Folder for the positions, the checkpoints and the fitted weights (made if missing).
    #[arg(long, default_value = "tuning")]
    pub dir: PathBuf,
    /// Self-play games to learn from.
    #[arg(long, value_parser = at_least_one, default_value_t = 4000)]
    pub games: u32,
    /// Nodes a move in the self-play games.
    #[arg(long, value_parser = at_least_one, default_value_t = 5000)]
    pub nodes: u32,
    /// Seed of the games (each game's random moves and variety come from it).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Start positions (FEN or EPD lines; default: the project's tests/data/openings.epd).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Steps of the fit over all positions.
    #[arg(long, value_parser = at_least_one, default_value_t = 2000)]
    pub steps: u32,
    /// How far a weight moves in one step at first, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// How hard each weight is pulled back toward the built-in one (a weight few positions
    /// see stays near it); 0 lets every weight go where the positions say.
    #[arg(long, default_value_t = 1e-6)]
    pub pull: f64,
    /// Checks of the held-out positions' error (one every 100 steps) without a lower one
    /// before the fit stops, keeping the weights of the lowest; 0 fits every step and keeps
    /// the last.
    #[arg(long, default_value_t = 0)]
    pub patience: u32,
    /// Worker threads, one game or position each (default: all cores); each player in them
    /// searches on one thread.
    #[arg(long, value_parser = at_least_one)]
    pub threads: Option<u32>,
    /// Also write the fitted weights here (e.g. src/agents/judgement/weights.rs, or tables.rs
    /// for --style tables).
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// Whose judgement to fit: the agents' (level 10's leaves) or the conventional one with
    /// piece-square tables (level 10 without agent-leaves).
    #[arg(long, value_enum, default_value_t = JudgementStyle::Agents)]
    pub style: JudgementStyle,
    /// Also search every position at this many nodes (level 10, kept in DIR/searched.txt) and
    /// fit to a blend of the game's result and the search's score.
    #[arg(long, value_name = "NODES", value_parser = at_least_one)]
    pub search_nodes: Option<u32>,
    /// With --search-nodes: the share of the game's result in each label, the rest the
    /// result the search's score expects.
    #[arg(long, value_name = "SHARE", value_parser = share, default_value_t = 0.5)]
    pub result_share: f64,
}

/// A share between 0 and 1.
fn share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{text} is not a share between 0 and 1")),
    }
}

/// `tune --style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum JudgementStyle {
    Agents,
    Tables,
}

impl JudgementStyle {
    pub fn style(self) -> crate::agents::judgement::Style {
        match self {
            JudgementStyle::Agents => crate::agents::judgement::Style::Agents,
            JudgementStyle::Tables => crate::agents::judgement::Style::Tables,
        }
    }
}

// `annotate`.
#[derive(Args)]
pub struct AnnotateArgs {
    /// PGN file of one or many games ("-" or none: standard input).
    pub file: Option<PathBuf>,
    /// Folder for index.html (the page: chart, boards, reasons), annotated.pgn and moves.csv.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Syzygy tables for the judge (a folder of .rtbw/.rtbz files, as UCI's SyzygyPath): the
    /// positions they cover are judged by them. An engine judge takes its own in its spec
    /// (uci:CMD,option.SyzygyPath=DIR).
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<String>,
    /// Seconds of judging a position (instead of --nodes).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds, conflicts_with = "nodes")]
    pub time: Option<f64>,
    /// Nodes of judging a position (default 250000, about a third of a second).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// The judge: a player that searches (default level:10; levels 1-9 are judged by level
    /// 10's tree over their agents, as in analysis).
    #[arg(long, value_name = "SPEC", default_value = "level:10")]
    pub player: String,
    /// Judge the two positions around every move marked `?!` or worse again, at N times the
    /// budget (default 1: no second look; 4 marks closer to a stronger judge's at about twice
    /// the time). Only with annotate's own budget, not a spec's.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub second_look: u32,
    /// Seed of the judge's random tie-breaks.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, one game each at a time (default: all cores); the judge searches on one
    /// thread in each.
    #[arg(long, value_parser = at_least_one)]
    pub threads: Option<u32>,
}

// `calibrate`.
#[derive(Args)]
#[command(mut_arg("games", |a| a.help("Games of each engine pairing (colours alternate; default 200); the agents' own pairings play 5 to 30 times as many")))]
pub struct CalibrateArgs {
    /// Stockfish, the anchors (UCI_LimitStrength=true at each UCI_Elo).
    #[arg(long, value_name = "CMD", default_value = "/usr/games/stockfish")]
    pub stockfish: String,
    /// Fairy-Max (a cross-check over XBoard; left out when the file is absent).
    #[arg(long, value_name = "CMD", default_value = "/usr/games/fairymax")]
    pub fairymax: String,
    /// HoiChess (a cross-check over XBoard; left out when the file is absent).
    #[arg(long, value_name = "CMD", default_value = "/usr/games/hoichess")]
    pub hoichess: String,
    /// The engines' time control, SECS+INC (the agents do not use a clock).
    #[arg(long, value_name = "SECS+INC", default_value = "1+0.01", value_parser = time_control)]
    pub tc: String,
    /// Write setting, Elo and interval to this CSV.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Games of this calibration already played (a PGN it wrote, e.g. of a run cut short):
    /// they count, and the games with their seeds are not played again. Give --pgn another file.
    #[arg(long, value_name = "PGN")]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
}

// `perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Depth to count, 0 to 15 (not needed with --suite). Fifteen is the deepest count anyone
    /// has published for the start position; deeper would not end in a lifetime.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=15))]
    pub depth: Option<u32>,
    /// Position to start from (default: the initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move, as Stockfish's `go perft` does.
    #[arg(long)]
    pub divide: bool,
    /// EPD perft suite (`FEN ;D1 n ;D2 n ...`) to check (its own depths: a DEPTH, --fen or
    /// --divide beside it would be ignored, so they are refused).
    #[arg(long, conflicts_with_all = ["depth", "fen", "divide"])]
    pub suite: Option<String>,
    /// With --suite: skip depths above this (default: every depth the suite gives).
    #[arg(long, value_name = "DEPTH", conflicts_with_all = ["depth", "fen", "divide"])]
    pub max_depth: Option<u32>,
}

// `match`.
#[derive(Args)]
#[command(mut_arg("games", |a| a.help("Games (colours alternate; default 100; with --sprt, the most, default 20000)")))]
pub struct MatchArgs {
    /// First player spec: White in games 1, 3, 5, ...
    pub a: String,
    /// Second player spec.
    pub b: String,
    /// Sequential test of A against B: play game pairs (one opening, colours swapped) until
    /// the pentanomial GSPRT accepts H0 (Elo <= elo0) or H1 (Elo >= elo1), normalised Elo,
    /// or --games (default 20000 here) is reached. E.g. elo0=0,elo1=10,alpha=0.05,beta=0.05.
    #[arg(long, value_name = "elo0=E0,elo1=E1[,alpha=A,beta=B]")]
    pub sprt: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
}

// `tournament`.
#[derive(Args)]
#[command(mut_arg("games", |a| a.help("Games per pairing (colours alternate; default 100)")))]
pub struct TournamentArgs {
    /// Player specs (level:N, features:LIST, search:depth=N,..., random).
    pub players: Vec<String>,
    /// Levels to add as players, e.g. 1-8 or 2,5,7.
    #[arg(long)]
    pub levels: Option<String>,
    /// Play only the first player's pairings (a gauntlet: the first player against each
    /// of the others).
    #[arg(long)]
    pub gauntlet: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

// `suite`.
#[derive(Args)]
pub struct SuiteArgs {
    /// EPD files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// A player to run (repeat for several); default level:10.
    #[arg(long, value_name = "SPEC")]
    pub player: Vec<String>,
    /// Seconds a position for players that think ahead (level 10, the searcher; default: their
    /// own budget, e.g. level 10's 400,000 nodes). The agents of levels 1-9 decide at once.
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    pub time: Option<f64>,
    /// Write every position with the move played to this CSV.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Seed of the players, reseeded for every position (default 1).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, one game or position each (default: all cores); each player in them
    /// searches on one thread.
    #[arg(long, value_parser = at_least_one)]
    pub threads: Option<u32>,
}

// `thesis`.
#[derive(Args)]
#[command(mut_arg("games", |a| a.help("Games per pairing (colours alternate; default 100; 1000 gives the sample the significance tests need)")))]
pub struct ThesisArgs {
    /// Put this player where the thesis had Crafty, e.g. "uci:/usr/games/stockfish,depth=1":
    /// in the round robin as given, in the suites at depths 1, 2 and 3 (its depth= or sd=
    /// setting changed; a spec without one plays the suites as given).
    #[arg(long, value_name = "SPEC")]
    pub opponent: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
}

// `explain`.
#[derive(Args)]
pub struct ExplainArgs {
    /// Position (default: the initial one).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from it first, in SAN or coordinates.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Compare levels instead, e.g. 1-9: what each plays and why.
    #[arg(long, conflicts_with_all = ["level", "features", "player"])]
    pub levels: Option<String>,
    #[command(flatten)]
    pub player: PlayerArgs,
    /// Seed of the player's random tie-breaks (default 1).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Syzygy tables for level 10's tree (a folder of .rtbw/.rtbz files, as UCI's SyzygyPath).
    #[arg(long, value_name = "DIR", conflicts_with = "levels")]
    pub syzygy: Option<String>,
}

// `endgame`.
#[derive(Args)]
pub struct EndgameArgs {
    /// The material, each side from its king: KQK, KRK, KBNK, ...
    pub material: String,
    /// Start positions to play.
    #[arg(long, default_value_t = 100, value_parser = at_least_one)]
    pub positions: u32,
    /// The attacker.
    #[arg(long, default_value = "level:9")]
    pub player: String,
    /// The defender.
    #[arg(long, default_value = "search:depth=3")]
    pub defender: String,
    /// Seed of the start positions and the players.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, one game or position each (default: all cores); each player in them
    /// searches on one thread.
    #[arg(long, value_parser = at_least_one)]
    pub threads: Option<u32>,
}

// What `match`, `tournament` and `thesis` share.
#[derive(Args)]
pub struct RunArgs {
    /// Games per pairing (colours alternate).
    #[arg(long, value_parser = at_least_one)]
    pub games: Option<u32>,
    /// Seed of the run; game i's seed is derived from it, so every game replays alone.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, one game or position each (default: all cores); each player in them
    /// searches on one thread.
    #[arg(long, value_parser = at_least_one)]
    pub threads: Option<u32>,
    /// Optional hard cap in full moves (off by default; reported apart from the rules' draws).
    #[arg(long, value_parser = at_least_one)]
    pub move_cap: Option<u32>,
    /// Folder for CSV/JSON tables, SVG charts, PGN and summary.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// PGN file of all games (written as games finish).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Comment every move in the PGN with the player's reason ("L7 attack request: ...").
    #[arg(long)]
    pub comments: bool,
    /// Start positions (FEN or EPD lines), each played twice per pairing with colours swapped.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The player rated 0 in the rating list (default: level:1 when it plays, else the first).
    #[arg(long, value_name = "SPEC")]
    pub anchor: Option<String>,
    /// Exit 0 although games were lost by a player's fault (an engine that crashed, went
    /// silent or played an illegal move); without it such a run exits 1 after its report.
    #[arg(long)]
    pub allow_faults: bool,
}

/// A count that only makes sense from 1 up (games, threads, a move cap).
#[derive(Debug, thiserror::Error)]
pub enum CountError {
    #[error("must be at least 1")]
    Zero,
    #[error("'{0}' is not a whole number")]
    NotANumber(String),
}

fn at_least_one(text: &str) -> Result<u32, CountError> {
    match text.parse::<u32>() {
        Ok(0) => Err(CountError::Zero),
        Ok(n) => Ok(n),
        Err(_) => Err(CountError::NotANumber(text.to_string())),
    }
}

/// The worker threads: as asked, else one a core.
pub fn threads(asked: Option<u32>) -> usize {
    asked.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |t| t as usize)
}

impl PlayerArgs {
    /// The player these options name (--player, else --features, else --level, else the
    /// default level), read.
    pub fn spec(&self) -> Result<PlayerSpec, SpecError> {
        match (&self.player, &self.features, self.level) {
            (Some(p), _, _) => p.parse(),
            (None, Some(f), _) => PlayerSpec::features(f),
            (None, None, level) => PlayerSpec::level(level.unwrap_or(crate::protocol::engine::DEFAULT_LEVEL).into()),
        }
    }

    /// The same as it was written, for messages about it.
    pub fn spec_text(&self) -> String {
        match (&self.player, &self.features, self.level) {
            (Some(p), _, _) => p.clone(),
            (None, Some(f), _) => format!("features:{f}"),
            (None, None, level) => format!("level:{}", level.unwrap_or(crate::protocol::engine::DEFAULT_LEVEL)),
        }
    }
}

/// Reads the spec `text` names, for a message that quotes it when it names no player.
pub fn read_spec(text: &str) -> Result<PlayerSpec, super::CliError> {
    text.parse().map_err(|source| super::CliError::BadSpec { spec: text.to_string(), source })
}

/// Every player can play: an external engine starts and answers its handshake. Checked where
/// the specs are read, before any game.
/// The tables `--syzygy` names, probed as the engine's `SyzygyProbeDepth` and
/// `SyzygyProbeLimit` default to; none without the option.
pub fn open_tables(path: Option<&str>) -> Result<Option<crate::players::TablebaseUse>, super::CliError> {
    let Some(path) = path else { return Ok(None) };
    let tables = crate::board::syzygy::Tablebase::open(path)
        .map_err(|source| super::CliError::Tables { path: path.to_string(), source })?;
    use crate::protocol::engine::{PROBE_DEPTH, PROBE_LIMIT};
    Ok(Some(crate::players::TablebaseUse::new(tables, PROBE_DEPTH.0, PROBE_LIMIT.0)))
}

pub fn probe_players(specs: &[PlayerSpec]) -> Result<(), super::CliError> {
    for spec in specs {
        spec.probe().map_err(|source| super::CliError::Unplayable { spec: spec.to_string(), source })?;
    }
    Ok(())
}

/// A time in seconds above zero (and below a day).
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t > 0.0 && t < 86_400.0 => Ok(t),
        _ => Err(format!("'{text}' is not a number of seconds above 0 and below a day (86400)")),
    }
}

/// An engine time control, `SECS+INC` or `MOVES/SECS+INC`, with time on the clock.
fn time_control(text: &str) -> Result<String, String> {
    crate::players::external::parse_time_control(text).map(|_| text.to_string()).map_err(|e| e.to_string())
}

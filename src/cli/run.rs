//! What `match`, `tournament` and `thesis` share: the run's options, the players' names, and
//! playing the games and reporting them.

use super::CliError;
use super::args::{RunArgs, threads};
use super::suite::{LoadedSuite, suite_tables};
use crate::board::Position;
use crate::experiments::game::GameRecord;
use crate::experiments::report::Report;
use crate::experiments::thesis::Crafty;
use crate::experiments::{Job, run_jobs};
use crate::players::spec::PlayerSpec;
use std::path::PathBuf;
use std::time::Instant;

/// Options shared by `match` and `tournament`.
pub struct RunOptions {
    pub games: usize,
    pub seed: u64,
    pub threads: usize,
    pub move_cap: Option<usize>,
    pub out: Option<PathBuf>,
    pub pgn: Option<PathBuf>,
    /// PGN moves carry the players' reasons as comments.
    pub comments: bool,
    /// Start positions, each played twice per pairing with colours swapped (empty: the
    /// initial position).
    pub openings: Vec<Position>,
    /// The rating list's player at 0 (default: level:1 when it plays, else the first player).
    pub anchor: Option<String>,
    pub allow_faults: bool,
}

impl RunOptions {
    /// The run's end: an error when a game was lost by a player's fault, unless allowed.
    pub(super) fn fault_check(&self, games: &[GameRecord]) -> Result<(), CliError> {
        match faulty(games).count() {
            0 => Ok(()),
            _ if self.allow_faults => Ok(()),
            n => Err(CliError::Faults(n)),
        }
    }

    /// The options of `args`, with `default_games` when --games is not given; the openings
    /// file is read here.
    pub fn new(args: &RunArgs, default_games: u32) -> Result<RunOptions, CliError> {
        let asked = args.games.unwrap_or(default_games);
        if let (Some(pgn), Some(openings)) = (&args.pgn, &args.openings) {
            super::output::check_not_input(pgn, &[openings.as_path()], "--pgn")?;
        }
        let openings = match &args.openings {
            Some(path) => {
                let text =
                    std::fs::read_to_string(path).map_err(|source| CliError::Read { path: path.clone(), source })?;
                crate::experiments::parse_openings(&text)
                    .map_err(|source| CliError::Openings { path: path.clone(), source })?
            }
            None => Vec::new(),
        };
        let games = balanced_games(asked as usize, openings.len());
        if games != asked as usize {
            errln!(
                "note: --games {} with {} opening(s): playing {games} games a pairing, so that every opening used is played with both colours",
                asked,
                openings.len().max(1)
            );
        }
        if !openings.is_empty() && games / 2 < openings.len() {
            errln!("note: {games} games a pairing use the first {} of the {} openings", games / 2, openings.len());
        }
        if let Some(dir) = &args.out {
            super::output::check_dir(dir)?;
        }
        if let Some(path) = &args.pgn {
            super::output::check_file(path)?;
        }
        Ok(RunOptions {
            games,
            seed: args.seed,
            threads: threads(args.threads),
            move_cap: args.move_cap.map(|m| m as usize),
            out: args.out.clone(),
            pgn: args.pgn.clone(),
            comments: args.comments,
            openings,
            anchor: args.anchor.clone(),
            allow_faults: args.allow_faults,
        })
    }

    pub(super) fn pgn(&self, g: &GameRecord, event: &str, date: &str) -> String {
        if self.comments {
            crate::experiments::pgn::to_pgn_commented(g, event, date)
        } else {
            crate::experiments::pgn::to_pgn(g, event, date)
        }
    }

    /// Writes the PGN of `games` in game order, when asked for.
    pub(super) fn write_pgn(&self, games: &[GameRecord], event: &str, date: &str) -> Result<(), CliError> {
        if let Some(path) = &self.pgn {
            let text: String = games.iter().map(|g| self.pgn(g, event, date)).collect();
            std::fs::write(path, text).map_err(|source| CliError::Write { path: path.clone(), source })?;
        }
        Ok(())
    }
}

/// Games a pairing actually plays: an even number (each opening, or the initial position, is
/// played in a pair with colours swapped), and with N openings a multiple of 2N once every
/// opening is in use, so that no opening is played more often than another.
pub fn balanced_games(games: usize, openings: usize) -> usize {
    let pair = games.div_ceil(2) * 2;
    if openings == 0 || pair <= 2 * openings {
        return pair;
    }
    pair.div_ceil(2 * openings) * 2 * openings
}

/// Tells the players of a run apart: a player given twice (`match level:7 level:7`) becomes
/// copies 1 and 2, `level:7#1` and `level:7#2` in every table, file and PGN, and plays as itself.
pub fn distinct_labels(specs: &[PlayerSpec]) -> Vec<PlayerSpec> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let copies = specs.iter().filter(|t| *t == s).count();
            if copies == 1 {
                return s.clone();
            }
            let nth = specs[..i].iter().filter(|t| *t == s).count() as u32 + 1;
            s.clone().with_copy(nth)
        })
        .collect()
}

/// The players' names in the tables: their specs as written.
pub(super) fn names(players: &[PlayerSpec]) -> Vec<String> {
    players.iter().map(PlayerSpec::to_string).collect()
}

/// An anchor must be one of the players (after `distinct_labels`).
pub(super) fn check_anchor(players: &[PlayerSpec], opts: &RunOptions) -> Result<(), CliError> {
    let names = names(players);
    match &opts.anchor {
        Some(a) if !names.contains(a) => Err(CliError::Anchor { anchor: a.clone(), players: names.join(", ") }),
        _ => Ok(()),
    }
}

/// What `thesis` adds to its round robin: Table 3.10's suites, run after the games, and the
/// comparison of everything with the thesis's numbers.
pub(super) struct ThesisPart<'s> {
    pub suites: &'s [LoadedSuite],
    pub players: Vec<PlayerSpec>,
    /// Who the thesis's Crafty rows are compared with.
    pub crafty: Crafty,
}

/// Plays the jobs, writes the files and prints the report; returns the games.
pub(super) fn run_and_report(
    players: &[PlayerSpec],
    mut jobs: Vec<Job>,
    opts: &RunOptions,
    event: &str,
    thesis: Option<ThesisPart>,
) -> Result<Vec<GameRecord>, CliError> {
    for job in &mut jobs {
        job.keep_reasons = opts.comments;
    }
    let start = Instant::now();
    // Each finished game is appended to the PGN file at once (in finishing order, Round = game
    // number), so Ctrl-C or a crash never loses a finished game; the file is rewritten in game
    // order at the end.
    let date = crate::experiments::pgn::today();
    let sink = match &opts.pgn {
        Some(path) => Some(std::sync::Mutex::new(
            std::fs::File::create(path).map_err(|source| CliError::Write { path: path.clone(), source })?,
        )),
        None => None,
    };
    let on_done = |g: &GameRecord| {
        if let Some(f) = &sink {
            use std::io::Write;
            let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
            let _ = f.write_all(opts.pgn(g, event, &date).as_bytes());
            let _ = f.flush();
        }
    };
    let games = run_jobs(&jobs, opts.threads, opts.move_cap, true, &on_done);
    let secs = start.elapsed().as_secs_f64();
    let players = &names(players);
    let mut report = Report::new(players, &games).with_anchor(opts.anchor.clone());
    let mut bad_epd_lines = 0;
    if let Some(part) = thesis {
        let (counts, rows) = suite_tables(
            part.suites,
            &part.players,
            opts.seed,
            opts.threads,
            &crate::players::SearchLimits::default(),
        )?;
        if let Some(dir) = &opts.out {
            std::fs::create_dir_all(dir)
                .and_then(|_| std::fs::write(dir.join("suites.csv"), rows))
                .map_err(|source| CliError::WriteDir { dir: dir.clone(), source })?;
        }
        bad_epd_lines = part.suites.iter().map(|s| s.bad_lines).sum();
        report = report.with_suites(counts).compare_with_thesis(part.crafty);
    }
    // Files first: a reader that closes stdout early (`| head`) ends the program at the report.
    opts.write_pgn(&games, event, &date)?;
    if let Some(dir) = &opts.out {
        report
            .write_all(dir, event, opts.comments)
            .map_err(|source| CliError::WriteDir { dir: dir.clone(), source })?;
        errln!("tables, curves, charts, PGN and index.html written to {}", dir.display());
    }
    out!("{}", report.summary());
    if !opts.openings.is_empty() {
        outln!("\nGame pairs (one opening, colours swapped; from the first player's side)");
        for (i, x) in players.iter().enumerate() {
            for y in &players[i + 1..] {
                let pairs = crate::experiments::sprt::pairs_of(&games, x, y);
                if pairs.pairs() > 0 {
                    outln!("{}", crate::experiments::sprt::pairs_text(&format!("{x} vs {y}"), &pairs));
                }
            }
        }
    }
    outln!("\n{}", faults_text(&games).trim_end());
    outln!(
        "\n{} of {} games in {secs:.2} s ({:.1} games/s, {} threads)",
        games.len(),
        jobs.len(),
        games.len() as f64 / secs.max(1e-9),
        opts.threads
    );
    if bad_epd_lines > 0 {
        return Err(CliError::MalformedEpd(bad_epd_lines));
    }
    Ok(games)
}

/// The games a player lost by its fault.
fn faulty(games: &[GameRecord]) -> impl Iterator<Item = &GameRecord> {
    use crate::experiments::game::Termination;
    games.iter().filter(|g| matches!(g.termination, Termination::PlayerFault(_)))
}

/// Games lost by a player's fault (an external engine that crashed, went silent, played an
/// illegal move...), each with its reason; "Faults: none" when there were none.
pub fn faults_text(games: &[GameRecord]) -> String {
    let faulty: Vec<_> = faulty(games).collect();
    if faulty.is_empty() {
        return "Faults: none\n".to_string();
    }
    let mut text = format!("Faults: {} games\n", faulty.len());
    for g in faulty {
        text.push_str(&format!("game {:>5} {} vs {}: {}\n", g.index + 1, g.white, g.black, g.termination_text()));
    }
    text
}

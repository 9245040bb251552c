//! The research subcommands behind the binary: perft, match, tournament, suite, thesis. Each returns
//! an exit code; reports go to stdout, progress and errors to stderr.

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

use crate::board::Position;
use crate::board::epd::EpdError;
use crate::board::perft::{divide, perft};
use crate::experiments::report::{Report, csv_field};
use crate::experiments::suite::{SuiteCount, parse_epd_line, run_suite, table_lines};
use crate::experiments::{Job, assign_openings, match_jobs, run_jobs};
use crate::players::spec::player_from_spec;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

pub fn run_perft(
    depth: Option<u32>,
    fen: Option<&str>,
    show_divide: bool,
    suite: Option<&str>,
    max_depth: Option<u32>,
) -> ExitCode {
    if let Some(path) = suite {
        return run_perft_suite(path, max_depth.unwrap_or(u32::MAX));
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
            outln!("{mv}: {n}");
        }
        outln!();
        outln!("Nodes searched: {}", rows.iter().map(|r| r.1).sum::<u64>());
        rows.iter().map(|r| r.1).sum()
    } else {
        let n = perft(&pos, depth);
        outln!("{n}");
        n
    };
    let secs = start.elapsed().as_secs_f64();
    log::info!("perft {depth}: {nodes} nodes in {secs:.3} s ({:.1} Mnps)", nodes as f64 / secs.max(1e-9) / 1e6);
    ExitCode::SUCCESS
}

/// Checks every count of a perft suite. Exit status: 0 all counts right, 1 a count is wrong,
/// 2 the file or one of its lines cannot be read (each bad line is named on stderr).
pub fn run_perft_suite(path: &str, max_depth: u32) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut checked, mut failed, mut unreadable) = (0u32, 0u32, 0u32);
    let start = Instant::now();
    for (i, line) in text.lines().enumerate() {
        let epd = match crate::board::epd::parse(line) {
            Ok(Some(e)) => e,
            Ok(None) => continue,
            Err(EpdError::Position { fen, source }) => {
                eprintln!("error: {path} line {}: bad FEN '{fen}': {source}", i + 1);
                unreadable += 1;
                continue;
            }
            Err(e) => {
                eprintln!("error: {path} line {}: malformed: {e}", i + 1);
                unreadable += 1;
                continue;
            }
        };
        let counts = match epd.perft_counts() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {path} line {}: malformed: {e}", i + 1);
                unreadable += 1;
                continue;
            }
        };
        let pos = epd.position;
        for &(depth, expected) in counts.iter().filter(|d| d.0 <= max_depth) {
            let got = perft(&pos, depth);
            checked += 1;
            if got != expected {
                failed += 1;
                outln!("MISMATCH line {}: {} depth {depth}: expected {expected}, got {got}", i + 1, epd.fen);
            }
        }
    }
    outln!(
        "{checked} counts checked, {failed} failed, {unreadable} unreadable lines, {:.2} s",
        start.elapsed().as_secs_f64()
    );
    match (failed, unreadable) {
        (0, 0) => ExitCode::SUCCESS,
        (_, 0) => ExitCode::FAILURE,
        _ => ExitCode::from(2),
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

/// Names that tell the players of a run apart: a spec given twice (`match level:7 level:7`)
/// becomes `level:7#1` and `level:7#2` in every table, file and PGN, and plays as itself.
pub fn distinct_labels(specs: &[String]) -> Vec<String> {
    specs
        .iter()
        .map(|s| {
            let copies = specs.iter().filter(|t| *t == s).count();
            if copies == 1 {
                return s.clone();
            }
            let nth = specs.iter().take_while(|t| !std::ptr::eq(*t, s)).filter(|t| *t == s).count() + 1;
            format!("{s}#{nth}")
        })
        .collect()
}

fn check_specs(specs: &[String]) -> Result<(), ExitCode> {
    for s in specs {
        if let Err(e) = crate::players::spec::check_spec(s) {
            eprintln!("error: bad player spec '{s}': {e}");
            return Err(ExitCode::from(2));
        }
    }
    Ok(())
}

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
}

impl RunOptions {
    fn pgn(&self, g: &crate::experiments::game::GameRecord, event: &str, date: &str) -> String {
        if self.comments {
            crate::experiments::pgn::to_pgn_commented(g, event, date)
        } else {
            crate::experiments::pgn::to_pgn(g, event, date)
        }
    }
}

/// What `thesis` adds to its round robin: Table 3.10's suites, run after the games, and the
/// comparison of everything with the thesis's numbers.
struct ThesisPart<'s> {
    suites: &'s [LoadedSuite],
    players: Vec<String>,
}

/// An anchor must be one of the players (after `distinct_labels`).
fn check_anchor(players: &[String], opts: &RunOptions) -> Result<(), ExitCode> {
    match &opts.anchor {
        Some(a) if !players.contains(a) => {
            eprintln!("error: --anchor {a} is not one of the players ({})", players.join(", "));
            Err(ExitCode::from(2))
        }
        _ => Ok(()),
    }
}

fn run_and_report(
    players: &[String],
    mut jobs: Vec<Job>,
    opts: &RunOptions,
    event: &str,
    thesis: Option<ThesisPart>,
) -> ExitCode {
    for job in &mut jobs {
        job.keep_reasons = opts.comments;
    }
    let start = Instant::now();
    // Each finished game is appended to the PGN file at once (in finishing order, Round = game
    // number), so Ctrl-C or a crash never loses a finished game; the file is rewritten in game
    // order at the end.
    let date = crate::experiments::pgn::today();
    let sink = match &opts.pgn {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(std::sync::Mutex::new(f)),
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let on_done = |g: &crate::experiments::game::GameRecord| {
        if let Some(f) = &sink {
            use std::io::Write;
            let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
            let _ = f.write_all(opts.pgn(g, event, &date).as_bytes());
            let _ = f.flush();
        }
    };
    let games = run_jobs(&jobs, opts.threads, opts.move_cap, true, &on_done);
    let secs = start.elapsed().as_secs_f64();
    let mut report = Report::new(players, &games).with_anchor(opts.anchor.clone());
    let mut bad_epd_lines = 0;
    if let Some(part) = thesis {
        let (counts, rows) = match suite_tables(part.suites, &part.players, opts.seed, opts.threads) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        if let Some(dir) = &opts.out
            && let Err(e) = std::fs::create_dir_all(dir).and_then(|_| std::fs::write(dir.join("suites.csv"), rows))
        {
            eprintln!("error: cannot write to {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        bad_epd_lines = part.suites.iter().map(|s| s.bad_lines).sum();
        report = report.with_suites(counts).compare_with_thesis();
    }
    // Files first: a reader that closes stdout early (`| head`) ends the program at the report.
    if let Some(pgn) = &opts.pgn {
        let text: String = games.iter().map(|g| opts.pgn(g, event, &date)).collect();
        if let Err(e) = std::fs::write(pgn, text) {
            eprintln!("error: cannot write {}: {e}", pgn.display());
            return ExitCode::FAILURE;
        }
    }
    if let Some(dir) = &opts.out {
        if let Err(e) = report.write_all(dir, event, opts.comments) {
            eprintln!("error: cannot write to {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        eprintln!("tables, curves, charts, PGN and index.html written to {}", dir.display());
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
        eprintln!("{bad_epd_lines} malformed EPD line(s) skipped");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Games lost by a player's fault (an external engine that crashed, went silent, played an
/// illegal move...), each with its reason; "Faults: none" when there were none.
pub fn faults_text(games: &[crate::experiments::game::GameRecord]) -> String {
    use crate::experiments::game::Termination;
    let faulty: Vec<_> = games.iter().filter(|g| matches!(g.termination, Termination::PlayerFault(_))).collect();
    if faulty.is_empty() {
        return "Faults: none\n".to_string();
    }
    let mut text = format!("Faults: {} games\n", faulty.len());
    for g in faulty {
        text.push_str(&format!("game {:>5} {} vs {}: {}\n", g.index + 1, g.white, g.black, g.termination_text()));
    }
    text
}

pub fn run_match(a: &str, b: &str, opts: &RunOptions) -> ExitCode {
    let players = distinct_labels(&[a.to_string(), b.to_string()]);
    if let Err(code) = check_specs(&players) {
        return code;
    }
    if let Err(code) = check_anchor(&players, opts) {
        return code;
    }
    let (a, b) = (&players[0], &players[1]);
    let mut jobs = match_jobs(a, b, opts.games, opts.seed, 0);
    assign_openings(&mut jobs, &opts.openings);
    run_and_report(&players, jobs, opts, &format!("{a} vs {b}"), None)
}

/// `match A B --sprt ...`: game pairs, the LLR folded over them in pair order (so the games a
/// decision takes do not depend on the threads), stopping at the first pair whose LLR crosses a
/// bound; the games after it that were already being played are left out of every table.
pub fn run_sprt_match(a: &str, b: &str, config: crate::experiments::sprt::SprtConfig, opts: &RunOptions) -> ExitCode {
    use crate::experiments::sprt::{Pentanomial, SprtState, points_for};
    let players = distinct_labels(&[a.to_string(), b.to_string()]);
    if let Err(code) = check_specs(&players).and_then(|_| check_anchor(&players, opts)) {
        return code;
    }
    let (a, b) = (&players[0], &players[1]);
    let mut jobs = match_jobs(a, b, opts.games, opts.seed, 0);
    assign_openings(&mut jobs, &opts.openings);
    for job in &mut jobs {
        job.keep_reasons = opts.comments;
    }
    struct Fold {
        points: Vec<Option<f64>>,
        next_pair: usize,
        pairs: Pentanomial,
        state: Option<SprtState>,
    }
    let fold = std::sync::Mutex::new(Fold {
        points: vec![None; jobs.len()],
        next_pair: 0,
        pairs: Pentanomial::default(),
        state: None,
    });
    let start = Instant::now();
    let on_done = |g: &crate::experiments::game::GameRecord| -> bool {
        let mut f = fold.lock().unwrap_or_else(|e| e.into_inner());
        if f.state.is_some_and(|s| s.decision.is_some()) {
            return true;
        }
        f.points[g.index] = Some(points_for(g, a));
        while let (Some(Some(x)), Some(Some(y))) =
            (f.points.get(2 * f.next_pair).copied(), f.points.get(2 * f.next_pair + 1).copied())
        {
            f.pairs.add(x, y);
            f.next_pair += 1;
            let state = SprtState::new(config, f.pairs);
            f.state = Some(state);
            if state.decision.is_some() || f.next_pair.is_multiple_of(10) {
                eprintln!("{} ({:.0} s)", state.progress_line(), start.elapsed().as_secs_f64());
            }
            if state.decision.is_some() {
                return true;
            }
        }
        false
    };
    let mut games = crate::experiments::run_jobs_until(&jobs, opts.threads, opts.move_cap, false, &on_done);
    let fold = fold.into_inner().unwrap_or_else(|e| e.into_inner());
    let state = fold.state.unwrap_or_else(|| SprtState::new(config, Pentanomial::default()));
    games.retain(|g| g.index < 2 * fold.next_pair);
    let secs = start.elapsed().as_secs_f64();
    let event = format!("{a} vs {b}, SPRT");
    let report = Report::new(&players, &games).with_anchor(opts.anchor.clone());
    let date = crate::experiments::pgn::today();
    if let Some(pgn) = &opts.pgn {
        let text: String = games.iter().map(|g| opts.pgn(g, &event, &date)).collect();
        if let Err(e) = std::fs::write(pgn, text) {
            eprintln!("error: cannot write {}: {e}", pgn.display());
            return ExitCode::FAILURE;
        }
    }
    if let Some(dir) = &opts.out {
        let written = report
            .write_all(dir, &event, opts.comments)
            .and_then(|_| std::fs::write(dir.join("sprt.json"), state.to_json(a, b)));
        if let Err(e) = written {
            eprintln!("error: cannot write to {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        eprintln!("tables, curves, charts, PGN, sprt.json and index.html written to {}", dir.display());
    }
    out!("{}", report.summary());
    outln!("\n{}", faults_text(&games).trim_end());
    outln!("\n{}", state.summary(a, b, opts.games).trim_end());
    outln!(
        "\n{} games in {secs:.2} s ({:.1} games/s, {} threads)",
        games.len(),
        games.len() as f64 / secs.max(1e-9),
        opts.threads
    );
    ExitCode::SUCCESS
}

/// A round robin; with `gauntlet` only the first player's pairings are played (the thesis's
/// "level 7 against its opponents" design of Tables 3.2-3.4 and Figure 3.1).
pub fn run_tournament(players: &[String], gauntlet: bool, opts: &RunOptions) -> ExitCode {
    round_robin(players, gauntlet, opts, None)
}

fn round_robin(players: &[String], gauntlet: bool, opts: &RunOptions, thesis: Option<ThesisPart>) -> ExitCode {
    if players.len() < 2 {
        eprintln!("error: a tournament needs at least two players");
        return ExitCode::from(2);
    }
    let players = &distinct_labels(players);
    if let Err(code) = check_specs(players).and_then(|_| check_anchor(players, opts)) {
        return code;
    }
    let mut jobs = Vec::new();
    let mut pairing = 0;
    for (i, a) in players.iter().enumerate() {
        for b in &players[i + 1..] {
            if !gauntlet || i == 0 {
                let mut pairing_jobs = match_jobs(a, b, opts.games, opts.seed, pairing);
                assign_openings(&mut pairing_jobs, &opts.openings);
                jobs.extend(pairing_jobs);
            }
            // Numbered either way, so a gauntlet's games are those of the full round robin.
            pairing += 1;
        }
    }
    let event = match (&thesis, gauntlet) {
        (Some(_), _) => format!("AgentChess thesis run, {} games a pairing, seed {}", opts.games, opts.seed),
        (None, true) => format!("AgentChess gauntlet of {}", players[0]),
        (None, false) => "AgentChess round robin".to_string(),
    };
    run_and_report(players, jobs, opts, &event, thesis)
}

/// `--levels 1-8` or `--levels 1,3,7` into level specs.
pub fn parse_levels(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (a.trim().parse::<u32>(), b.trim().parse::<u32>()),
            None => (part.trim().parse::<u32>(), part.trim().parse::<u32>()),
        };
        let (Ok(lo), Ok(hi)) = (lo, hi) else { return Err(format!("bad level list '{text}' (e.g. 1-8 or 2,5,7)")) };
        if lo < 1 || hi > 9 {
            return Err(format!("levels are 1 to 9, got '{part}'"));
        }
        if lo > hi {
            return Err(format!("level range '{part}' runs backwards (write {hi}-{lo})"));
        }
        out.extend((lo..=hi).map(|l| format!("level:{l}")));
    }
    Ok(out)
}

/// An EPD suite read and parsed: its name, its positions, and how many lines were malformed
/// (each one already named on stderr).
struct LoadedSuite {
    name: String,
    records: Vec<crate::experiments::suite::EpdRecord>,
    bad_lines: usize,
}

fn parse_suite(name: &str, origin: &str, text: &str) -> LoadedSuite {
    let mut suite = LoadedSuite { name: name.to_string(), records: Vec::new(), bad_lines: 0 };
    for (i, line) in text.lines().enumerate() {
        match parse_epd_line(line, i + 1) {
            Ok(Some(r)) => suite.records.push(r),
            Ok(None) => {}
            Err(e) => {
                eprintln!("{origin}: {e}");
                suite.bad_lines += 1;
            }
        }
    }
    suite
}

/// Every player on every suite, the (suite, player) runs shared out over `threads` workers
/// with a progress line on stderr as each finishes. Returns the Table 3.10 counts and the CSV of
/// every position, in suite and player order whatever the order of finishing.
fn suite_tables(
    suites: &[LoadedSuite],
    players: &[String],
    seed: u64,
    threads: usize,
) -> Result<(Vec<SuiteCount>, String), String> {
    let tasks: Vec<(usize, usize)> = (0..suites.len()).flat_map(|s| (0..players.len()).map(move |p| (s, p))).collect();
    type Slot = std::sync::Mutex<Option<Result<Vec<crate::experiments::suite::SuiteResult>, String>>>;
    let results: Vec<Slot> = tasks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, tasks.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let t = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(s, p)) = tasks.get(t) else { break };
                    let outcome = run_suite(&suites[s].records, &players[p], seed);
                    if let Ok(rows) = &outcome {
                        let solved = rows.iter().filter(|r| r.solved).count();
                        let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        eprintln!(
                            "suite {} {}: {solved}/{} solved ({finished}/{} runs, {:.1} s)",
                            suites[s].name,
                            players[p],
                            rows.len(),
                            tasks.len(),
                            start.elapsed().as_secs_f64()
                        );
                    }
                    *results[t].lock().unwrap_or_else(|e| e.into_inner()) = Some(outcome);
                }
            });
        }
    });
    let mut csv = String::from("suite,player,id,fen,played,solved\n");
    let mut counts = Vec::new();
    for (&(s, p), slot) in tasks.iter().zip(results) {
        let rows = slot.into_inner().unwrap_or_else(|e| e.into_inner()).unwrap_or_else(|| Err("not run".into()))?;
        let (name, player) = (&suites[s].name, &players[p]);
        let solved = rows.iter().filter(|r| r.solved).count();
        counts.push(SuiteCount { suite: name.clone(), player: player.clone(), solved, positions: rows.len() });
        for r in &rows {
            csv.push_str(&format!(
                "{},{},{},{},{},{}\n",
                csv_field(name),
                csv_field(player),
                csv_field(&r.id),
                csv_field(&r.fen),
                r.played,
                r.solved
            ));
        }
    }
    Ok((counts, csv))
}

/// Runs every player on every suite: the Table 3.10 rows on stdout, every position in `csv`.
fn run_suites(
    suites: &[LoadedSuite],
    players: &[String],
    seed: u64,
    threads: usize,
    csv: Option<&PathBuf>,
) -> ExitCode {
    let (table, rows) = match suite_tables(suites, players, seed, threads) {
        Ok((counts, rows)) => (table_lines(&counts), rows),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // Files first, so that closing stdout early cannot lose them.
    if let Some(path) = csv
        && let Err(e) = std::fs::write(path, rows)
    {
        eprintln!("error: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    for line in table {
        outln!("{line}");
    }
    let bad_lines: usize = suites.iter().map(|s| s.bad_lines).sum();
    if bad_lines > 0 {
        eprintln!("{bad_lines} malformed EPD line(s) skipped");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

pub fn run_suite_cmd(
    files: &[PathBuf],
    players: &[String],
    seed: u64,
    csv: Option<&PathBuf>,
    threads: usize,
) -> ExitCode {
    if let Err(code) = check_specs(players) {
        return code;
    }
    let mut suites = Vec::new();
    for file in files {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        let name = file.file_stem().map_or("suite".into(), |s| s.to_string_lossy().into_owned());
        suites.push(parse_suite(&name, &file.display().to_string(), &text));
    }
    run_suites(&suites, players, seed, threads, csv)
}

/// The two suites of the thesis's Table 3.10 that are public, built in so `thesis` runs anywhere.
const WAC: &str = include_str!("../tests/data/wac.epd");
const ECM: &str = include_str!("../tests/data/ecm.epd");

const PERFT_SUITE: &str = include_str!("../tests/data/perft.epd");

/// FNV-1a, 64 bits: a stable fold of everything `bench` saw into one number.
struct Signature(u64);

impl Signature {
    fn new() -> Signature {
        Signature(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, text: &str) {
        for b in text.bytes().chain(std::iter::once(b'\n')) {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// What `bench` measured, for the report and for tests.
pub struct BenchReport {
    pub perft_positions: usize,
    pub perft_nodes: u64,
    pub decisions: usize,
    pub games: usize,
    /// Changes when and only when some move, count or game of perft, levels 1-8 or the searcher
    /// changes: commits that change behaviour say so by the new signature (as Stockfish's
    /// `bench` does). Levels 1-8 follow the thesis, so this one should stay put.
    pub signature: u64,
    /// The same for level 9: its move on the WAC positions and a seeded match against level 7.
    pub level9_signature: u64,
    /// The work done, the same on every run: perft's leaves and the nodes (agent queries,
    /// search nodes) the WAC decisions report. OpenBench reads it from `bench`'s last line.
    pub nodes: u64,
}

/// The behaviour fingerprint: perft 3 of every suite position, the move of every level 1-8 and
/// of the searcher at depths 1 and 2 on the 300 WAC positions (seed 1), and a seeded 10-game
/// match of level 7 against level 3; then apart, level 9's move on the WAC positions and a
/// seeded 10-game match of level 9 against level 7.
pub fn bench() -> BenchReport {
    let mut sig = Signature::new();
    let mut report = BenchReport {
        perft_positions: 0,
        perft_nodes: 0,
        decisions: 0,
        games: 0,
        signature: 0,
        level9_signature: 0,
        nodes: 0,
    };
    let perft_cases = PERFT_SUITE.lines().filter_map(|l| crate::board::epd::parse(l).ok().flatten());
    for case in perft_cases.filter(|e| e.perft_counts().is_ok()) {
        let nodes = perft(&case.position, 3);
        sig.add(&format!("{} {nodes}", case.fen));
        report.perft_positions += 1;
        report.perft_nodes += nodes;
    }
    let wac = parse_suite("wac", "built-in wac.epd", WAC);
    for spec in thesis_players(1..=2) {
        for record in &wac.records {
            let Ok(pos) = Position::from_fen(&record.fen) else { continue };
            let mut player = player_from_spec(&spec, 1).expect("thesis players are valid specs");
            let decision = player.decide(&crate::board::Game::new(pos));
            report.nodes += decision.as_ref().map_or(0, |d| d.nodes);
            let mv = decision.map_or("none".to_string(), |d| d.mv.to_string());
            sig.add(&format!("{spec} {} {mv}", record.fen));
            report.decisions += 1;
        }
    }
    let jobs = match_jobs("level:7", "level:3", 10, 1, 0);
    for game in run_jobs(&jobs, 2, None, false, &|_| {}) {
        sig.add(&format!("{} {}", game.san().join(" "), game.result()));
        report.games += 1;
    }
    report.signature = sig.0;

    let mut sig9 = Signature::new();
    for record in &wac.records {
        let Ok(pos) = Position::from_fen(&record.fen) else { continue };
        let mut player = player_from_spec("level:9", 1).expect("level 9 exists");
        let decision = player.decide(&crate::board::Game::new(pos));
        report.nodes += decision.as_ref().map_or(0, |d| d.nodes);
        let mv = decision.map_or("none".to_string(), |d| d.mv.to_string());
        sig9.add(&format!("level:9 {} {mv}", record.fen));
        report.decisions += 1;
    }
    for game in run_jobs(&match_jobs("level:9", "level:7", 10, 1, 0), 2, None, false, &|_| {}) {
        sig9.add(&format!("{} {}", game.san().join(" "), game.result()));
        report.games += 1;
    }
    report.level9_signature = sig9.0;
    report.nodes += report.perft_nodes;
    report
}

pub fn run_bench() -> ExitCode {
    let start = Instant::now();
    let r = bench();
    outln!("perft       {} positions at depth 3, {} nodes", r.perft_positions, r.perft_nodes);
    outln!("decisions   {} (levels 1-9 and search depths 1-2 on 300 WAC positions)", r.decisions);
    outln!("games       {} (level:7 vs level:3 and level:9 vs level:7, seed 1)", r.games);
    outln!("signature   {:016x} (perft, levels 1-8, searcher)", r.signature);
    outln!("level 9     {:016x}", r.level9_signature);
    let secs = start.elapsed().as_secs_f64();
    outln!("time        {secs:.2} s");
    // Last, for distributed testing (OpenBench's client reads the last line matching
    // `\d+ nodes` and `\d+ nps`): the same node count on every run, and the speed.
    outln!("{} nodes {} nps", r.nodes, (r.nodes as f64 / secs.max(1e-9)) as u64);
    ExitCode::SUCCESS
}

/// The position `explain` looks at: a FEN (or the start) and moves played from it.
fn explain_position(fen: Option<&str>, moves: &[String]) -> Result<crate::board::Game, String> {
    let start = match fen {
        Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    let mut game = crate::board::Game::new(start);
    for text in moves {
        let mv = game.position().parse_move(text).map_err(|e| format!("move '{text}': {e}"))?;
        game.play(mv);
    }
    Ok(game)
}

/// Why a player chooses its move in a position: for the agents every agent's threat, best
/// attack and best move, the worst threat, the request answers and the rule that decided (the
/// explain mode); for other players their decision and line. With `levels`, one line per level:
/// what each would play and why.
pub fn run_explain(fen: Option<&str>, moves: &[String], spec: &str, levels: Option<&str>, seed: u64) -> ExitCode {
    // Everything that can fail is checked before the first line of the report.
    let checked = explain_position(fen, moves).and_then(|game| {
        let specs = match levels {
            Some(list) => parse_levels(list)?,
            None => vec![spec.to_string()],
        };
        for s in &specs {
            player_from_spec(s, seed).map_err(|e| format!("bad player spec '{s}': {e}"))?;
        }
        Ok((game, specs))
    });
    let (game, specs) = match checked {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let pos = *game.position();
    outln!("position {}", pos.to_fen());
    if pos.legal_moves().is_empty() {
        outln!("no legal move: {}", game.outcome().map_or("game over".to_string(), |o| o.reason().to_string()));
        return ExitCode::SUCCESS;
    }
    if levels.is_some() {
        for spec in &specs {
            let mut player = player_from_spec(spec, seed).expect("checked above");
            if let Some(d) = player.decide(&game) {
                outln!("{spec:<8} {:<6} {}", pos.to_san(d.mv), d.reason);
            }
        }
        return ExitCode::SUCCESS;
    }
    let features = match crate::players::spec::strip_label(spec).split_once(':') {
        Some(("level", n)) => n.parse().ok().and_then(|n| crate::agents::Features::level(n).ok()),
        Some(("features", list)) => crate::agents::Features::parse(list).ok(),
        _ => None,
    };
    match features {
        Some(features) => {
            let mut master = crate::agents::MasterAgent::new(features, seed);
            master.set_explain(true);
            // `decide` sees the game (repetitions, the moves before), as in play.
            if let Some(d) = crate::players::Player::decide(&mut master, &game) {
                for line in master.explanation() {
                    outln!("{line}");
                }
                outln!("move {}", pos.to_san(d.mv));
            }
        }
        None => {
            let mut player = player_from_spec(spec, seed).expect("checked above");
            if let Some(d) = player.decide(&game) {
                let mut at = pos;
                let line: Vec<String> =
                    d.pv.iter()
                        .map(|&m| {
                            let san = at.to_san(m);
                            at = at.play(m);
                            san
                        })
                        .collect();
                outln!("{}", d.reason);
                outln!("line {}", line.join(" "));
                outln!("move {}", pos.to_san(d.mv));
            }
        }
    }
    ExitCode::SUCCESS
}

/// The endgame drill: mates, moves and every failure with its start position.
pub fn run_endgame(
    material: &str,
    positions: usize,
    player: &str,
    defender: &str,
    seed: u64,
    threads: usize,
) -> ExitCode {
    use crate::experiments::endgame::{Material, drill};
    let material_spec = match Material::parse(material) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let games = match drill(&material_spec, positions, player, defender, seed, threads) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mated: Vec<_> = games.iter().filter(|g| g.mated()).collect();
    let longest = mated.iter().map(|g| g.moves).max().unwrap_or(0);
    let mean = mated.iter().map(|g| g.moves).sum::<usize>() as f64 / mated.len().max(1) as f64;
    for g in games.iter().filter(|g| !g.mated()) {
        outln!("not mated: {} ({}, {} moves): {}", g.start, g.outcome.reason(), g.moves, g.san.join(" "));
    }
    outln!(
        "{} {player} vs {defender}: {} of {} mated ({:.1}%), mean {mean:.1} moves, longest {longest}, {:.1} s",
        material.to_ascii_uppercase(),
        mated.len(),
        games.len(),
        100.0 * mated.len() as f64 / games.len().max(1) as f64,
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// The players of the thesis's experiments: levels 1-8 and the searcher standing in for Crafty.
pub fn thesis_players(search_depths: std::ops::RangeInclusive<u32>) -> Vec<String> {
    (1..=8).map(|l| format!("level:{l}")).chain(search_depths.map(|d| format!("search:depth={d}"))).collect()
}

/// The thesis's chapter 3 in one run: the Table 3.1 round robin (levels 1-8 and the searcher at
/// depth 1 where the thesis had Crafty at depth 1), then the Table 3.10 suites (WAC, ECM) for the
/// levels and the searcher at depths 1-3, and one report of both: every table, curve and chart
/// of the match report, the rating list, and each of the thesis's numbers beside ours, tested.
///
/// With `opponent` (a real engine, `uci:/usr/games/stockfish,depth=1`), that player takes
/// Crafty's place: in the round robin as given, in the suites at depths 1-3.
pub fn run_thesis(opts: &RunOptions, opponent: Option<&str>) -> ExitCode {
    outln!("== Table 3.1: round robin, {} games per pairing, seed {} ==", opts.games, opts.seed);
    let suites = [parse_suite("wac", "built-in wac.epd", WAC), parse_suite("ecm", "built-in ecm.epd", ECM)];
    let Some(opponent) = opponent else {
        return round_robin(
            &thesis_players(1..=1),
            false,
            opts,
            Some(ThesisPart { suites: &suites, players: thesis_players(1..=3) }),
        );
    };
    let at_depths = [1, 2, 3].map(|d| at_depth(opponent, d));
    crate::experiments::thesis::set_crafty(at_depths.clone());
    let levels: Vec<String> = (1..=8).map(|l| format!("level:{l}")).collect();
    let games_players: Vec<String> = levels.iter().cloned().chain([opponent.to_string()]).collect();
    let mut suite_players = levels;
    for spec in at_depths {
        if !suite_players.contains(&spec) {
            suite_players.push(spec);
        }
    }
    round_robin(&games_players, false, opts, Some(ThesisPart { suites: &suites, players: suite_players }))
}

/// `spec` with its search depth set to `depth`: the `depth=` (UCI) or `sd=` (XBoard) setting of
/// an external engine, the searcher's `depth=`; a spec without one is returned as it is.
pub fn at_depth(spec: &str, depth: u32) -> String {
    let Some((kind, rest)) = spec.split_once(':') else { return spec.to_string() };
    let key = match kind {
        "uci" | "search" => "depth",
        "xboard" => "sd",
        _ => return spec.to_string(),
    };
    let parts: Vec<String> = rest
        .split(',')
        .map(|p| match p.trim().split_once('=') {
            Some((k, _)) if k.trim() == key => format!("{key}={depth}"),
            _ => p.to_string(),
        })
        .collect();
    format!("{kind}:{}", parts.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opponent_goes_to_depths_1_to_3() {
        assert_eq!(
            at_depth("uci:/usr/games/stockfish,depth=1,option.Threads=1", 3),
            "uci:/usr/games/stockfish,depth=3,option.Threads=1"
        );
        assert_eq!(at_depth("xboard:fairymax,sd=1", 2), "xboard:fairymax,sd=2");
        assert_eq!(at_depth("search:depth=1", 2), "search:depth=2");
        assert_eq!(at_depth("uci:engine,movetime=100", 2), "uci:engine,movetime=100");
        assert_eq!(at_depth("level:7", 2), "level:7");
    }

    #[test]
    fn level_lists() {
        assert_eq!(parse_levels("1-3").unwrap(), vec!["level:1", "level:2", "level:3"]);
        assert_eq!(parse_levels("2,7").unwrap(), vec!["level:2", "level:7"]);
        assert!(parse_levels("0-9").is_err());
        assert!(parse_levels("x").is_err());
    }

    #[test]
    fn built_in_suites_parse_whole() {
        for (name, text, count) in [("wac", WAC, 300), ("ecm", ECM, 879)] {
            let suite = parse_suite(name, name, text);
            assert_eq!((suite.records.len(), suite.bad_lines), (count, 0), "{name}");
        }
        let players = thesis_players(1..=3);
        assert_eq!(players.len(), 11);
        assert_eq!((players[0].as_str(), players[10].as_str()), ("level:1", "search:depth=3"));
        assert!(players.iter().all(|p| player_from_spec(p, 1).is_ok()));
    }
}

//! `suite`: EPD test suites, each player's move checked against `bm`/`am`; also Table 3.10 of
//! `thesis`.

use super::CliError;
use super::args::{SuiteArgs, threads};
use super::args::{probe_players, read_spec};
use crate::experiments::report::csv_field;
use crate::experiments::suite::{EpdRecord, SuiteCount, SuiteResult, parse_epd_line, run_suite_within, table_lines};
use crate::players::SearchLimits;
use crate::players::spec::PlayerSpec;
use std::path::Path;
use std::time::Instant;

/// The two suites of the thesis's Table 3.10 that are public, built in so `thesis` runs anywhere.
pub(super) const WAC: &str = include_str!("../../tests/data/wac.epd");
pub(super) const ECM: &str = include_str!("../../tests/data/ecm.epd");

pub fn run(args: &SuiteArgs) -> Result<(), CliError> {
    let players = if args.player.is_empty() {
        vec![PlayerSpec::level(crate::protocol::engine::DEFAULT_LEVEL.into())?]
    } else {
        args.player.iter().map(|p| read_spec(p)).collect::<Result<_, _>>()?
    };
    probe_players(&players)?;
    let mut suites = Vec::new();
    for file in &args.files {
        let text = std::fs::read_to_string(file).map_err(|source| CliError::Read { path: file.clone(), source })?;
        let name = file.file_stem().map_or("suite".into(), |s| s.to_string_lossy().into_owned());
        suites.push(parse_suite(&name, &file.display().to_string(), &text));
    }
    if let Some(path) = &args.csv {
        super::output::check_file(path)?;
    }
    let limits = match args.time {
        Some(t) => {
            let t = std::time::Duration::from_secs_f64(t);
            SearchLimits { soft_time: Some(t), hard_time: Some(t), ..SearchLimits::default() }
        }
        None => SearchLimits::default(),
    };
    run_suites(&suites, &players, args.seed, threads(args.threads), &limits, args.csv.as_deref())
}

/// An EPD suite read and parsed: its name, its positions, and how many lines were malformed
/// (each one already named on stderr).
pub(super) struct LoadedSuite {
    pub name: String,
    pub records: Vec<EpdRecord>,
    pub bad_lines: usize,
}

pub(super) fn parse_suite(name: &str, origin: &str, text: &str) -> LoadedSuite {
    let mut suite = LoadedSuite { name: name.to_string(), records: Vec::new(), bad_lines: 0 };
    for (i, line) in text.lines().enumerate() {
        match parse_epd_line(line, i + 1) {
            Ok(Some(r)) => suite.records.push(r),
            Ok(None) => {}
            Err(e) => {
                errln!("{origin}: {e}");
                suite.bad_lines += 1;
            }
        }
    }
    suite
}

/// Every player on every suite, the (suite, player) runs shared out over `threads` workers
/// with a progress line on stderr as each finishes. Returns the Table 3.10 counts and the CSV of
/// every position, in suite and player order whatever the order of finishing.
pub(super) fn suite_tables(
    suites: &[LoadedSuite],
    players: &[PlayerSpec],
    seed: u64,
    threads: usize,
    limits: &SearchLimits,
) -> Result<(Vec<SuiteCount>, String), CliError> {
    let tasks: Vec<(usize, usize)> = (0..suites.len()).flat_map(|s| (0..players.len()).map(move |p| (s, p))).collect();
    type Slot = std::sync::Mutex<Option<Vec<SuiteResult>>>;
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
                    let rows = run_suite_within(&suites[s].records, &players[p], seed, limits);
                    let solved = rows.iter().filter(|r| r.solved).count();
                    let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    errln!(
                        "suite {} {}: {solved}/{} solved ({finished}/{} runs, {:.1} s)",
                        suites[s].name,
                        players[p],
                        rows.len(),
                        tasks.len(),
                        start.elapsed().as_secs_f64()
                    );
                    *results[t].lock().unwrap_or_else(|e| e.into_inner()) = Some(rows);
                }
            });
        }
    });
    let mut csv = String::from("suite,player,id,fen,played,solved\n");
    let mut counts = Vec::new();
    for (&(s, p), slot) in tasks.iter().zip(results) {
        let rows = slot.into_inner().unwrap_or_else(|e| e.into_inner()).ok_or(CliError::SuiteNotRun)?;
        let (name, player) = (&suites[s].name, &players[p].to_string());
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
    players: &[PlayerSpec],
    seed: u64,
    threads: usize,
    limits: &SearchLimits,
    csv: Option<&Path>,
) -> Result<(), CliError> {
    let (counts, rows) = suite_tables(suites, players, seed, threads, limits)?;
    // Files first, so that closing stdout early cannot lose them.
    if let Some(path) = csv {
        std::fs::write(path, rows).map_err(|source| CliError::Write { path: path.to_path_buf(), source })?;
    }
    for line in table_lines(&counts) {
        outln!("{line}");
    }
    let bad_lines: usize = suites.iter().map(|s| s.bad_lines).sum();
    if bad_lines > 0 {
        return Err(CliError::MalformedEpd(bad_lines));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_suites_parse_whole() {
        for (name, text, count) in [("wac", WAC, 300), ("ecm", ECM, 879)] {
            let suite = parse_suite(name, name, text);
            assert_eq!((suite.records.len(), suite.bad_lines), (count, 0), "{name}");
        }
    }
}

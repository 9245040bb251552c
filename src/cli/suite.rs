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
        let suite = parse_suite(&name, &file.display().to_string(), &text);
        if suite.records.is_empty() && suite.bad_lines == 0 {
            return Err(CliError::EmptySuite { path: file.clone() });
        }
        suites.push(suite);
    }
    if let Some(path) = &args.csv {
        let inputs: Vec<&Path> = args.files.iter().map(|f| f.as_path()).collect();
        super::output::check_not_input(path, &inputs, "--csv")?;
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

/// Every player on every suite, shared out over `threads` workers in parts of a suite (every
/// position is decided afresh, so the parts are independent: one suite with one player uses
/// every thread too), with a progress line on stderr as each (suite, player) run finishes.
/// Returns the Table 3.10 counts and the CSV of every position, in suite and player order
/// whatever the order of finishing.
pub(super) fn suite_tables(
    suites: &[LoadedSuite],
    players: &[PlayerSpec],
    seed: u64,
    threads: usize,
    limits: &SearchLimits,
) -> Result<(Vec<SuiteCount>, String), CliError> {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    let runs: Vec<(usize, usize)> = (0..suites.len()).flat_map(|s| (0..players.len()).map(move |p| (s, p))).collect();
    // Parts of about a run's share of the threads, halved again so that the workers even out.
    let parts_per_run = (2 * threads).div_ceil(runs.len().max(1)).max(1);
    let tasks: Vec<(usize, std::ops::Range<usize>)> = runs
        .iter()
        .enumerate()
        .flat_map(|(r, &(s, _))| parts(suites[s].records.len(), parts_per_run).into_iter().map(move |range| (r, range)))
        .collect();
    type Slot = std::sync::Mutex<Option<Vec<SuiteResult>>>;
    let results: Vec<Slot> = tasks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let left: Vec<AtomicUsize> =
        runs.iter().enumerate().map(|(r, _)| AtomicUsize::new(tasks.iter().filter(|t| t.0 == r).count())).collect();
    let solved: Vec<AtomicUsize> = runs.iter().map(|_| AtomicUsize::new(0)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, tasks.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let t = next.fetch_add(1, Relaxed);
                    let Some((r, range)) = tasks.get(t) else { break };
                    let (s, p) = runs[*r];
                    let rows = run_suite_within(&suites[s].records[range.clone()], &players[p], seed, limits);
                    solved[*r].fetch_add(rows.iter().filter(|row| row.solved).count(), Relaxed);
                    *results[t].lock().unwrap_or_else(|e| e.into_inner()) = Some(rows);
                    if left[*r].fetch_sub(1, Relaxed) == 1 {
                        let finished = done.fetch_add(1, Relaxed) + 1;
                        errln!(
                            "suite {} {}: {}/{} solved ({finished}/{} runs, {:.1} s)",
                            suites[s].name,
                            players[p],
                            solved[*r].load(Relaxed),
                            suites[s].records.len(),
                            runs.len(),
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    let mut by_run: Vec<Vec<SuiteResult>> = runs.iter().map(|_| Vec::new()).collect();
    for ((r, _), slot) in tasks.iter().zip(results) {
        by_run[*r].extend(slot.into_inner().unwrap_or_else(|e| e.into_inner()).ok_or(CliError::SuiteNotRun)?);
    }
    let mut csv = String::from("suite,player,id,fen,played,solved\n");
    let mut counts = Vec::new();
    for (&(s, p), rows) in runs.iter().zip(by_run) {
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

/// `0..len` cut into at most `n` ranges of as even a length as can be (one empty range for an
/// empty suite, so that its run still reports).
fn parts(len: usize, n: usize) -> Vec<std::ops::Range<usize>> {
    let n = n.clamp(1, len.max(1));
    (0..n).map(|k| (k * len / n)..((k + 1) * len / n)).collect()
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
    fn parts_cover_the_suite_in_order() {
        assert_eq!(parts(10, 3), [0..3, 3..6, 6..10]);
        assert_eq!(parts(2, 5), [0..1, 1..2]);
        assert_eq!(parts(0, 4), vec![std::ops::Range { start: 0, end: 0 }]);
        assert_eq!(parts(7, 1), vec![std::ops::Range { start: 0, end: 7 }]);
    }

    #[test]
    fn built_in_suites_parse_whole() {
        for (name, text, count) in [("wac", WAC, 300), ("ecm", ECM, 879)] {
            let suite = parse_suite(name, name, text);
            assert_eq!((suite.records.len(), suite.bad_lines), (count, 0), "{name}");
        }
    }
}

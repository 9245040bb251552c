//! The thesis's experiments, in-process: matches, round robins, EPD test suites and the
//! statistics and charts of chapter 3.

pub mod calibration;
pub mod endgame;
pub mod formats;
pub mod game;
pub mod pgn;
pub mod ratings;
pub mod report;
pub mod sprt;
pub mod stats;
pub mod suite;
pub mod svg;
pub mod thesis;

use crate::board::{Color, Position};
use crate::players::spec::PlayerSpec;
use game::{GameRecord, Played, play_game};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// When set, running games finish and no new ones start (for embedding the runner).
pub static STOP: AtomicBool = AtomicBool::new(false);

/// Game `i`'s seed, derived from the match seed so every game can be replayed alone.
pub fn game_seed(match_seed: u64, pairing: u64, i: u64) -> u64 {
    let mut z = match_seed ^ pairing.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One scheduled game: the two players in colour order and the game's seed.
#[derive(Clone, Debug)]
pub struct Job {
    pub white: PlayerSpec,
    pub black: PlayerSpec,
    pub seed: u64,
    /// Keep each move's reason (for PGN comments); off by default, since in a long round robin
    /// the reasons would be most of the memory.
    pub keep_reasons: bool,
    /// Where the game starts (the initial position unless openings are given).
    pub start: Position,
}

/// Games between `a` and `b`, colours alternating (a is White in even games).
pub fn match_jobs(a: &PlayerSpec, b: &PlayerSpec, games: usize, seed: u64, pairing: u64) -> Vec<Job> {
    (0..games)
        .map(|i| {
            let (w, bl) = if i % 2 == 0 { (a, b) } else { (b, a) };
            Job {
                white: w.clone(),
                black: bl.clone(),
                seed: game_seed(seed, pairing, i as u64),
                keep_reasons: false,
                start: Position::startpos(),
            }
        })
        .collect()
}

/// Starts a pairing's games from `openings` in turn, each opening twice in a row so that both
/// players get it with either colour (games 0 and 1 the first opening, 2 and 3 the second, ...).
pub fn assign_openings(jobs: &mut [Job], openings: &[Position]) {
    if openings.is_empty() {
        return;
    }
    for (i, job) in jobs.iter_mut().enumerate() {
        job.start = openings[(i / 2) % openings.len()];
    }
}

/// Opening positions from a file: one FEN or EPD line each (the four position fields and, when
/// present, the move counters; EPD operations such as `bm` or `id` may follow); blank lines and
/// `#` comments are skipped. A bad line is an error naming it.
pub fn parse_openings(text: &str) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at_line = |source| OpeningsError::Line { line: i + 1, source };
        let Some(epd) = crate::board::epd::parse(line).map_err(at_line)? else { continue };
        if epd.position.legal_moves().is_empty() {
            return Err(OpeningsError::GameOver { line: i + 1 });
        }
        out.push(epd.position);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

/// Why an openings file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    #[error("line {line}: {source}")]
    Line { line: usize, source: crate::board::epd::EpdError },
    #[error("line {line}: the game is already over there")]
    GameOver { line: usize },
    #[error("no positions")]
    Empty,
}

/// Plays one job. The white player gets the game seed, the black one a derived seed.
pub fn run_job(index: usize, job: &Job, move_cap: Option<usize>) -> GameRecord {
    let mut white = job.white.build(job.seed);
    let mut black = job.black.build(job.seed ^ 0x5bd1_e995);
    let start = job.start;
    let Played { termination, moves, mut reasons, material, bare_king, fault } =
        play_game(white.as_mut(), black.as_mut(), start, move_cap);
    if !job.keep_reasons {
        reasons = Vec::new();
    }
    GameRecord {
        index,
        seed: job.seed,
        white: job.white.to_string(),
        black: job.black.to_string(),
        start_fen: start.to_fen(),
        moves,
        reasons,
        termination,
        material,
        bare_king,
        counters: [white.counter_log(), black.counter_log()],
        fault,
    }
}

/// Runs the jobs on `threads` threads; progress goes to stderr and `on_done` sees each game as
/// it finishes. The records of finished games are returned in job order.
pub fn run_jobs(
    jobs: &[Job],
    threads: usize,
    move_cap: Option<usize>,
    progress: bool,
    on_done: &(dyn Fn(&GameRecord) + Sync),
) -> Vec<GameRecord> {
    run_jobs_until(jobs, threads, move_cap, progress, &|g| {
        on_done(g);
        false
    })
}

/// [`run_jobs`], where `on_done` may end the run: once it returns true no new game starts (the
/// games being played finish and are returned too).
pub fn run_jobs_until(
    jobs: &[Job],
    threads: usize,
    move_cap: Option<usize>,
    progress: bool,
    on_done: &(dyn Fn(&GameRecord) -> bool + Sync),
) -> Vec<GameRecord> {
    let enough = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameRecord>>> = Mutex::new(vec![None; jobs.len()]);
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    if STOP.load(Ordering::Relaxed) || enough.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs.len() {
                        break;
                    }
                    // One broken game must not cost the others: a panic is logged and the game dropped.
                    let rec = std::panic::catch_unwind(|| run_job(i, &jobs[i], move_cap));
                    match rec {
                        Ok(r) => {
                            if on_done(&r) {
                                enough.store(true, Ordering::Relaxed);
                            }
                            results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                        }
                        Err(_) => log::error!("game {i} ({} vs {}) panicked; left out", jobs[i].white, jobs[i].black),
                    }
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if progress && (d.is_multiple_of(50) || d == jobs.len()) {
                        let secs = start.elapsed().as_secs_f64();
                        let rate = d as f64 / secs.max(1e-9);
                        // A closed stderr loses the progress line, not the games.
                        use std::io::Write as _;
                        let _ = writeln!(
                            std::io::stderr(),
                            "{d}/{} games, {rate:.1} games/s, eta {:.0} s",
                            jobs.len(),
                            (jobs.len() - d) as f64 / rate
                        );
                    }
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect()
}

/// Result of game `g` from the point of view of `player` (by name): 1, ½ or 0 as (w, d, l).
pub fn wdl_for(g: &GameRecord, player: &str) -> stats::Wdl {
    let mut w = stats::Wdl::default();
    let color = if g.white == player { Color::White } else { Color::Black };
    match g.termination.winner() {
        None => w.draws += 1,
        Some(c) if c == color => w.wins += 1,
        Some(_) => w.losses += 1,
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_distinct_and_stable() {
        assert_eq!(game_seed(1, 0, 5), game_seed(1, 0, 5));
        assert_ne!(game_seed(1, 0, 5), game_seed(1, 0, 6));
        assert_ne!(game_seed(1, 0, 5), game_seed(2, 0, 5));
        let (a, b) = ("level:1".parse().unwrap(), "random".parse().unwrap());
        let jobs = match_jobs(&a, &b, 4, 7, 0);
        assert_eq!((&jobs[0].white, &jobs[0].black), (&a, &b));
        assert_eq!((&jobs[1].white, &jobs[1].black), (&b, &a));
    }

    #[test]
    fn random_players_finish_by_the_rules() {
        let random = PlayerSpec::random();
        let jobs = match_jobs(&random, &random, 4, 3, 0);
        let recs = run_jobs(&jobs, 2, None, false, &|_| {});
        assert_eq!(recs.len(), 4);
        for r in &recs {
            assert!(matches!(r.termination, game::Termination::Rules(_)), "{:?}", r.termination);
            assert_eq!(r.material.len(), r.moves.len() + 1);
        }
        let again = run_jobs(&jobs, 1, None, false, &|_| {});
        assert_eq!(recs.iter().map(|r| r.san()).collect::<Vec<_>>(), again.iter().map(|r| r.san()).collect::<Vec<_>>());
    }
}

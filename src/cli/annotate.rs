//! `annotate`: games judged move by move, their mistakes marked and explained. The annotated
//! PGN goes to stdout in the input's order as games finish; progress goes to stderr.

use super::CliError;
use super::args::{AnnotateArgs, open_tables, probe_players, read_spec, threads};
use crate::board::pgn_reader::{PgnGame, read_games};
use crate::players::{Player, SearchLimits};
use crate::review::chances::{Mark, Scale};
use crate::review::{Annotated, Judging, SecondLook, Tick, annotate_all, page, pgn_out::to_pgn, table};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Nodes a position when neither --nodes nor --time is given: a 40-move game in under a minute
/// on one core (docs/annotate.md has the measurement).
pub const DEFAULT_NODES: u64 = 250_000;

pub fn run(args: &AnnotateArgs) -> Result<(), CliError> {
    let spec = read_spec(&args.player)?;
    if spec.kind == crate::players::spec::PlayerKind::Random {
        return Err(CliError::JudgeDoesNotSearch(spec.to_string()));
    }
    if args.syzygy.is_some() && spec.is_external() {
        return Err(CliError::EngineTables(spec.to_string()));
    }
    probe_players(std::slice::from_ref(&spec))?;
    let tables = open_tables(args.syzygy.as_deref())?;
    let (origin, text) = read_input(args.file.as_deref())?;
    let mut games = Vec::new();
    let mut bad = 0;
    for read in read_games(&text) {
        match read {
            Ok(g) => games.push(g),
            Err(e) => {
                errln!("{origin}: {e}");
                bad += 1;
            }
        }
    }
    if games.is_empty() {
        return Err(CliError::NoGames(origin));
    }
    if let Some(dir) = &args.out {
        super::output::check_dir(dir)?;
    }
    let budget = match (args.time, args.nodes) {
        (Some(t), _) => Budget::Seconds(t),
        (None, nodes) => Budget::Nodes(nodes.unwrap_or(DEFAULT_NODES)),
    };
    // An engine's spec, or a level at a node budget, carries its own budget.
    let own_budget = spec.is_external() || spec.nodes.is_some();
    let second = if own_budget || args.second_look == 1 { None } else { Some(args.second_look) };
    let judge_name = match (own_budget, second) {
        (true, _) => spec.to_string(),
        (false, None) => format!("{spec}, {} a position", budget.words()),
        (false, Some(n)) => {
            format!("{spec}, {} a position, {} around a marked move", budget.words(), budget.times(n).words())
        }
    };
    let make_judge = || -> Box<dyn Player> {
        let player = spec.build(args.seed);
        // The agents of levels 1-9 judge one move at a time: level 10's tree over the same
        // agents analyses for them, as in the protocols' analysis.
        let mut judge = player.analyst().unwrap_or(player);
        judge.set_tablebase(tables.clone());
        judge
    };
    // An engine's centipawns are taken as Stockfish's, to which the winning-chances map was
    // fitted; the agents' tree (every level here) scores on a smaller scale.
    let scale = if spec.is_external() { Scale::SAME } else { Scale::AGENTS };
    let second_look = second.map(|n| SecondLook {
        limits: budget.times(n).limits(),
        from_loss: Mark::Inaccuracy.threshold(),
        cost: n as usize,
    });
    let judging = Judging { limits: budget.limits(), name: judge_name, scale, second_look };
    let progress = Progress::new(&games);
    let written = Mutex::new(InOrder { next: 0, ready: BTreeMap::new() });
    let kept: Mutex<Vec<Option<Annotated>>> = Mutex::new(vec![None; games.len()]);
    let done = |i: usize, a: Annotated| {
        progress.game_done();
        let pgn = to_pgn(&a);
        if args.out.is_some() {
            lock(&kept)[i] = Some(a);
        }
        let mut w = lock(&written);
        w.ready.insert(i, pgn);
        loop {
            let next = w.next;
            let Some(text) = w.ready.remove(&next) else { break };
            out!("{text}");
            w.next += 1;
        }
    };
    annotate_all(&games, &make_judge, &judging, threads(args.threads), &|t| progress.tick(t), &done);
    progress.finish();
    if let Some(dir) = &args.out {
        let annotated: Vec<Annotated> =
            kept.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect();
        write_out(dir, &annotated)?;
        errln!("index.html, annotated.pgn and moves.csv written to {}", dir.display());
    }
    if bad > 0 {
        return Err(CliError::BadGames(bad));
    }
    Ok(())
}

/// The judge's budget a position, as given on the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Budget {
    Seconds(f64),
    Nodes(u64),
}

impl Budget {
    fn times(self, n: u32) -> Budget {
        match self {
            Budget::Seconds(t) => Budget::Seconds(t * f64::from(n)),
            Budget::Nodes(nodes) => Budget::Nodes(nodes.saturating_mul(u64::from(n))),
        }
    }

    fn limits(self) -> SearchLimits {
        match self {
            Budget::Seconds(t) => {
                let t = Duration::from_secs_f64(t);
                SearchLimits { soft_time: Some(t), hard_time: Some(t), ..SearchLimits::default() }
            }
            Budget::Nodes(n) => SearchLimits { nodes: Some(n), ..SearchLimits::default() },
        }
    }

    /// "250000 nodes", "2 s".
    fn words(self) -> String {
        match self {
            Budget::Seconds(t) => format!("{t} s"),
            Budget::Nodes(n) => format!("{n} nodes"),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The PGN text and where it came from (a file, or standard input for none or "-"). Bytes that
/// are not UTF-8 (Latin-1 names in old files) are replaced, not refused.
fn read_input(file: Option<&Path>) -> Result<(String, String), CliError> {
    let mut bytes = Vec::new();
    let origin = match file.filter(|f| *f != Path::new("-")) {
        Some(path) => {
            bytes = std::fs::read(path).map_err(|source| CliError::Read { path: path.to_path_buf(), source })?;
            path.display().to_string()
        }
        None => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|source| CliError::Read { path: "standard input".into(), source })?;
            "standard input".to_string()
        }
    };
    Ok((origin, String::from_utf8_lossy(&bytes).into_owned()))
}

fn write_out(dir: &Path, games: &[Annotated]) -> Result<(), CliError> {
    let wrap = |source| CliError::WriteDir { dir: dir.to_path_buf(), source };
    let pgn: String = games.iter().map(to_pgn).collect();
    std::fs::write(dir.join("annotated.pgn"), pgn).map_err(wrap)?;
    let mut csv = String::from(table::HEADER);
    for (i, g) in games.iter().enumerate() {
        csv.push_str(&table::rows(i + 1, g));
    }
    std::fs::write(dir.join("moves.csv"), csv).map_err(wrap)?;
    std::fs::write(dir.join("index.html"), page(games)).map_err(wrap)
}

/// Finished games waiting for the ones before them.
struct InOrder {
    next: usize,
    ready: BTreeMap<usize, String>,
}

/// The progress on stderr: a bar redrawn in place on a terminal, a line a game otherwise.
/// Positions looked at again join the count when their round begins; the bar and the time
/// left go by work, a position looked at again at N times the budget being N first looks.
struct Progress {
    positions: AtomicUsize,
    work: AtomicUsize,
    games: usize,
    judged: AtomicUsize,
    done: AtomicUsize,
    finished: AtomicUsize,
    start: Instant,
    drawn: Mutex<Instant>,
    terminal: bool,
}

/// Redraw the bar at most this often.
const REDRAW: Duration = Duration::from_millis(200);

impl Progress {
    fn new(games: &[PgnGame]) -> Progress {
        let positions = games.iter().map(|g| g.moves.len() + 1).sum();
        Progress {
            positions: AtomicUsize::new(positions),
            work: AtomicUsize::new(positions),
            games: games.len(),
            judged: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            start: Instant::now(),
            drawn: Mutex::new(Instant::now()),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    fn tick(&self, tick: Tick) {
        match tick {
            Tick::Judged { cost } => {
                self.judged.fetch_add(1, Ordering::Relaxed);
                self.done.fetch_add(cost, Ordering::Relaxed);
            }
            Tick::Planned { positions, cost } => {
                self.positions.fetch_add(positions, Ordering::Relaxed);
                self.work.fetch_add(positions * cost, Ordering::Relaxed);
                return;
            }
        }
        if self.terminal {
            let mut drawn = lock(&self.drawn);
            if drawn.elapsed() >= REDRAW {
                *drawn = Instant::now();
                let _ = write!(std::io::stderr(), "\r{}", self.line());
            }
        }
    }

    fn game_done(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
        if !self.terminal {
            errln!("{}", self.line());
        }
    }

    fn finish(&self) {
        if self.terminal {
            let _ = writeln!(std::io::stderr(), "\r{}", self.line());
        }
    }

    /// "[########............] 812/2410 positions, 3/10 games, 41 s, about 80 s left"
    fn line(&self) -> String {
        let judged = self.judged.load(Ordering::Relaxed);
        let positions = self.positions.load(Ordering::Relaxed);
        let games = self.finished.load(Ordering::Relaxed);
        let share = self.done.load(Ordering::Relaxed) as f64 / self.work.load(Ordering::Relaxed).max(1) as f64;
        let width = 24;
        let filled = ((share * width as f64).round() as usize).min(width);
        let secs = self.start.elapsed().as_secs_f64();
        let left = if judged > 0 && judged < positions {
            format!(", about {:.0} s left", secs / share - secs)
        } else {
            String::new()
        };
        format!(
            "annotate [{}{}] {judged}/{} positions, {games}/{} games, {secs:.0} s{left}",
            "#".repeat(filled),
            ".".repeat(width - filled),
            positions,
            self.games
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second look's round joins the count of positions when it begins, and the bar goes by
    /// work: a position looked at again at four times the budget is four first looks.
    #[test]
    fn the_bar_counts_the_second_look() {
        let games = read_games("1. e4 e5 2. Nf3 *\n");
        let games: Vec<PgnGame> = games.into_iter().map(|g| g.expect("a good game")).collect();
        let progress = Progress::new(&games);
        for _ in 0..4 {
            progress.tick(Tick::Judged { cost: 1 });
        }
        assert!(progress.line().contains("[########################] 4/4 positions"), "{}", progress.line());
        progress.tick(Tick::Planned { positions: 2, cost: 4 });
        assert!(progress.line().contains("[########................] 4/6 positions"), "{}", progress.line());
        progress.tick(Tick::Judged { cost: 4 });
        assert!(progress.line().contains("[################........] 5/6 positions"), "{}", progress.line());
    }
}

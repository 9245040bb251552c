//! `tune`: self-play games into labelled positions, then the judgement's weights fitted to them
//! (see `tuning`). Both steps go on from where a run that was stopped left off.

use super::CliError;
use super::args::{TuneArgs, threads};
use crate::agents::judgement::Style;
use crate::agents::judgement::terms::{COUNT, term_of};
use crate::experiments::{parse_openings, run_jobs_until};
use crate::players::spec::PlayerSpec;
use crate::tuning::fit::{self, Adam, HeldOutStop};
use crate::tuning::{self, data, label, source};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Steps between checkpoints of the fit.
const CHECKPOINT: u32 = 100;

pub fn run(args: &TuneArgs) -> Result<(), CliError> {
    let threads = threads(args.threads);
    std::fs::create_dir_all(&args.dir).map_err(|source| CliError::WriteDir { dir: args.dir.clone(), source })?;
    let openings = match &args.openings {
        Some(path) => {
            let text = read(path)?;
            parse_openings(&text).map_err(|source| CliError::Openings { path: path.clone(), source })?
        }
        None => parse_openings(tuning::OPENINGS).expect("the project's openings parse"),
    };
    let player: PlayerSpec = format!("level:10,nodes={}", args.nodes).parse()?;
    let positions = args.dir.join("positions.txt");
    let games = play(args, &player, &openings, &positions, threads)?;
    let text = read(&positions)?;
    let style = args.style.style();
    let text = match args.search_nodes {
        Some(nodes) => {
            let searched = args.dir.join("searched.txt");
            search_positions(&text, nodes, &searched, threads)?;
            // The scores become expected results by the map that fits the results best.
            let (results, _) = tuning::samples(&text, style, threads);
            let k = fit::fit_k(&results, &fit::to_real(style.weights()));
            label::blended_text(&read(&searched)?, args.result_share, k)
        }
        None => text,
    };
    let (samples, held_out) = tuning::samples(&text, style, threads);
    if samples.is_empty() {
        return Err(CliError::NoPositions(positions.display().to_string()));
    }
    errln!("tune: {} positions from {games} games, {} held out", samples.len(), held_out.len());
    let fitted = fit_weights(args, &samples, &held_out, threads)?;
    let held = |w: &[crate::agents::judgement::score::S]| fit::error(&held_out, &fit::to_real(w), fitted.k);
    let builtin = style.weights();
    outln!(
        "positions   {} (quiet, from {games} games of level 10 at {} nodes a move; one game in {} held out: {})",
        samples.len(),
        args.nodes,
        tuning::HELD_OUT_EVERY,
        held_out.len()
    );
    outln!("k           {:.4}", fitted.k);
    outln!("error       {:.6} with the built-in weights, {:.6} fitted", fitted.before, fitted.after);
    outln!("held out    {:.6} with the built-in weights, {:.6} fitted", held(builtin), held(&fitted.weights));
    outln!("weights     {}", checkpoint_files(args).0.display());
    outln!("largest changes:");
    let mut changes: Vec<(usize, i32)> = (0..COUNT)
        .map(|i| (i, (fitted.weights[i].0 - builtin[i].0).abs() + (fitted.weights[i].1 - builtin[i].1).abs()))
        .collect();
    changes.sort_by_key(|&(i, d)| (std::cmp::Reverse(d), i));
    for &(i, _) in changes.iter().take(10) {
        let (name, at) = term_of(i);
        let (old, new) = (builtin[i], fitted.weights[i]);
        outln!("  {name} [{at}]: ({}, {}) -> ({}, {})", old.0, old.1, new.0, new.1);
    }
    if let Some(path) = &args.write {
        write(path, &source::write(&fitted.weights, style))?;
        outln!("written     {}", path.display());
    }
    Ok(())
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|source| CliError::Read { path: path.to_path_buf(), source })
}

/// Writes `text` whole or not at all (a checkpoint cut off half written would not read back).
fn write(path: &Path, text: &str) -> Result<(), CliError> {
    let err = |source| CliError::Write { path: path.to_path_buf(), source };
    let partial = PathBuf::from(format!("{}.partial", path.display()));
    std::fs::write(&partial, text).map_err(err)?;
    std::fs::rename(&partial, path).map_err(err)
}

/// A file of whole games the tuner appends to from several threads: opened with the games it
/// already holds complete (a game cut off while being written is dropped), and the first write
/// that fails kept for the end.
struct GameFile {
    path: PathBuf,
    file: Mutex<std::fs::File>,
    failed: Mutex<Option<std::io::Error>>,
}

impl GameFile {
    /// The file at `path` (made if missing) and the numbers of the games it holds.
    fn resume(path: &Path) -> Result<(GameFile, std::collections::HashSet<usize>), CliError> {
        let text = if path.exists() { read(path)? } else { String::new() };
        let (done, complete) = data::finished(&text);
        if complete < text.len() {
            write(path, &text[..complete])?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| CliError::Write { path: path.to_path_buf(), source })?;
        let games = GameFile { path: path.to_path_buf(), file: Mutex::new(file), failed: Mutex::new(None) };
        Ok((games, done))
    }

    /// Appends one game's lines; false once a write has failed (this one or another's).
    fn append(&self, lines: &str) -> bool {
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if failed.is_some() {
            return false;
        }
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = f.write_all(lines.as_bytes()).and_then(|_| f.flush()) {
            *failed = Some(e);
            return false;
        }
        true
    }

    /// The first failed write, if any.
    fn finish(self) -> Result<(), CliError> {
        match self.failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(source) => Err(CliError::Write { path: self.path, source }),
            None => Ok(()),
        }
    }
}

/// Plays the games not yet in the positions file and appends theirs; the number of games in
/// the file.
fn play(
    args: &TuneArgs,
    player: &PlayerSpec,
    openings: &[crate::board::Position],
    positions: &Path,
    threads: usize,
) -> Result<usize, CliError> {
    let (file, done) = GameFile::resume(positions)?;
    let all = data::jobs(player, openings, args.games as usize, args.seed);
    let (numbers, todo): (Vec<usize>, Vec<_>) = all.into_iter().enumerate().filter(|(i, _)| !done.contains(i)).unzip();
    if todo.is_empty() {
        return Ok(done.len());
    }
    errln!("tune: {} games to play ({} in {} already)", todo.len(), done.len(), positions.display());
    let played = AtomicUsize::new(0);
    let start = Instant::now();
    run_jobs_until(&todo, threads, None, false, &|record| {
        let mut record = record.clone();
        record.index = numbers[record.index];
        if !file.append(&data::game_lines(&record)) {
            return true;
        }
        let n = played.fetch_add(1, Ordering::Relaxed) + 1;
        progress("games", n, todo.len(), start);
        false
    });
    errln!();
    file.finish()?;
    Ok(done.len() + played.into_inner())
}

/// Searches every position of the games in `text` not yet in the searched file at `nodes`
/// (level 10 without variety, one game a thread) and appends them with their scores.
fn search_positions(text: &str, nodes: u32, searched: &Path, threads: usize) -> Result<(), CliError> {
    let mut games = tuning::games(text);
    let (file, done) = GameFile::resume(searched)?;
    games.retain(|(n, _)| !done.contains(n));
    if games.is_empty() {
        return Ok(());
    }
    errln!("tune: searching the positions of {} games at {nodes} nodes ({} done)", games.len(), done.len());
    let spec: PlayerSpec = format!("features:level10,-variety,nodes={nodes}").parse()?;
    let (next, finished) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut player = spec.build(1);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((n, lines)) = games.get(i) else { break };
                    player.new_game();
                    let mut out = String::new();
                    for line in lines {
                        let Some((pos, _)) = data::parse_line(line) else { continue };
                        let game = crate::board::Game::new(pos);
                        if let Some(d) = player.decide(&game) {
                            let cp = label::white_cp(d.score, d.mate, pos.side_to_move() == crate::board::Color::White);
                            out.push_str(&label::scored_line(line, cp));
                            out.push('\n');
                        }
                    }
                    out.push_str(&data::game_marker(*n));
                    if !file.append(&out) {
                        break;
                    }
                    progress("games searched", finished.fetch_add(1, Ordering::Relaxed) + 1, games.len(), start);
                }
            });
        }
    });
    errln!();
    file.finish()
}

/// One progress line on stderr, rewritten in place.
fn progress(what: &str, done: usize, of: usize, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let eta = (of - done.min(of)) as f64 * secs / done.max(1) as f64;
    let filled = done * 30 / of.max(1);
    let bar = format!("{}{}", "#".repeat(filled), ".".repeat(30 - filled));
    let _ = write!(std::io::stderr(), "\r[{bar}] {done}/{of} {what}, {secs:.0} s, eta {eta:.0} s ");
}

struct Fitted {
    weights: Vec<crate::agents::judgement::score::S>,
    k: f64,
    before: f64,
    after: f64,
}

/// Fits from the checkpoint in the folder when there is one, else from the built-in weights.
/// With a patience, the checkpoint holds the weights the held-out positions judged best so far.
fn fit_weights(
    args: &TuneArgs,
    samples: &fit::Samples,
    held_out: &fit::Samples,
    threads: usize,
) -> Result<Fitted, CliError> {
    let (checkpoint, state) = checkpoint_files(args);
    let style = args.style.style();
    let builtin = fit::to_real(style.weights());
    let (mut weights, k, mut step, best) = match (checkpoint.exists(), read(&state).ok().and_then(|s| parse_state(&s)))
    {
        (true, Some(saved)) => {
            let text = read(&checkpoint)?;
            let w = source::read(&text).map_err(|source| CliError::Weights { path: checkpoint.clone(), source })?;
            errln!("tune: going on from step {} of {}", saved.step, checkpoint.display());
            (fit::to_real(&w), saved.k, saved.step, saved.stop)
        }
        _ => (builtin.clone(), fit::fit_k(samples, &builtin), 0, None),
    };
    let before = fit::error(samples, &builtin, k);
    let watch = args.patience > 0 && !held_out.is_empty();
    let mut stop = best.unwrap_or_else(|| HeldOutStop::new(args.patience, fit::error(held_out, &weights, k)));
    stop.patience = args.patience;
    let mut kept = weights.clone();
    let mut adam = Adam::new(builtin.clone(), args.rate, args.pull);
    let start = Instant::now();
    let todo = args.steps.saturating_sub(step);
    while step < args.steps && !(watch && stop.done()) {
        adam.step(samples, &mut weights, k, threads);
        step += 1;
        let done = (step - (args.steps - todo)) as usize;
        if done.is_multiple_of(10) || step == args.steps {
            progress("steps", done, todo as usize, start);
        }
        if step.is_multiple_of(CHECKPOINT) || step == args.steps {
            if !watch || stop.check(fit::error(held_out, &weights, k)) {
                kept = weights.clone();
            }
            write(&checkpoint, &source::write(&fit::to_whole(&kept), style))?;
            write(&state, &state_text(k, step, watch.then_some(&stop)))?;
        }
    }
    errln!();
    if watch && stop.done() {
        errln!("tune: the held-out error has not fallen for {} checks: stopped at step {step}", stop.patience);
    }
    let whole = fit::to_whole(&kept);
    write(&checkpoint, &source::write(&whole, style))?;
    let after = fit::error(samples, &fit::to_real(&whole), k);
    Ok(Fitted { weights: whole, k, before, after })
}

/// A fit's state as `tune` saves it beside its checkpoint.
#[derive(Debug, PartialEq)]
struct State {
    k: f64,
    step: u32,
    /// The held-out stop's, when the fit watches the held-out positions.
    stop: Option<HeldOutStop>,
}

fn state_text(k: f64, step: u32, stop: Option<&HeldOutStop>) -> String {
    let mut text = format!("k {k}\nstep {step}\n");
    if let Some(s) = stop {
        text += &format!("best {}\nsince {}\n", s.best, s.since);
    }
    text
}

/// Where a fit of the style asked keeps its weights and its state (k and step) in the folder.
fn checkpoint_files(args: &TuneArgs) -> (PathBuf, PathBuf) {
    match args.style.style() {
        Style::Agents => (args.dir.join("weights.rs"), args.dir.join("fit.txt")),
        Style::Tables => (args.dir.join("tables.rs"), args.dir.join("fit-tables.txt")),
    }
}

/// `k K` and `step N` lines of a fit's state file, and `best E` and `since N` where the fit
/// watches its held-out positions.
fn parse_state(text: &str) -> Option<State> {
    let value = |key: &str| text.lines().find_map(|l| l.strip_prefix(key)).map(str::trim);
    let stop = match (value("best "), value("since ")) {
        (Some(best), Some(since)) => {
            Some(HeldOutStop { patience: 0, best: best.parse().ok()?, since: since.parse().ok()? })
        }
        _ => None,
    };
    Some(State { k: value("k ")?.parse().ok()?, step: value("step ")?.parse().ok()?, stop })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_state_reads_back() {
        assert_eq!(parse_state("k 1.25\nstep 300\n"), Some(State { k: 1.25, step: 300, stop: None }));
        assert_eq!(parse_state("k x\nstep 300\n"), None);
        let stop = HeldOutStop { patience: 0, best: 0.0825, since: 2 };
        let text = state_text(1.25, 300, Some(&stop));
        assert_eq!(parse_state(&text), Some(State { k: 1.25, step: 300, stop: Some(stop) }));
        assert_eq!(parse_state("k 1\nstep 3\nbest x\nsince 1\n"), None);
    }
}

//! `match A B`: games between two players, or with `--sprt` a sequential test of A against B.

use super::CliError;
use super::args::MatchArgs;
use super::args::{probe_players, read_spec};
use super::run::{RunOptions, check_anchor, distinct_labels, faults_text, names, run_and_report};
use crate::experiments::game::GameRecord;
use crate::experiments::report::Report;
use crate::experiments::sprt::{Pentanomial, SprtConfig, SprtState, points_for};
use crate::experiments::{assign_openings, match_jobs};
use crate::players::spec::PlayerSpec;
use std::time::Instant;

pub fn run(args: &MatchArgs) -> Result<(), CliError> {
    let sprt = args.sprt.as_deref().map(SprtConfig::parse).transpose()?;
    let opts = RunOptions::new(&args.run, if sprt.is_some() { 20_000 } else { 100 })?;
    let players = distinct_labels(&[read_spec(&args.a)?, read_spec(&args.b)?]);
    probe_players(&players)?;
    check_anchor(&players, &opts)?;
    match sprt {
        Some(config) => run_sprt(&players, config, &opts),
        None => {
            let (a, b) = (&players[0], &players[1]);
            let mut jobs = match_jobs(a, b, opts.games, opts.seed, 0);
            assign_openings(&mut jobs, &opts.openings);
            let games = run_and_report(&players, jobs, &opts, &format!("{a} vs {b}"), None)?;
            opts.fault_check(&games)
        }
    }
}

/// `match A B --sprt ...`: game pairs, the LLR folded over them in pair order (so the games a
/// decision takes do not depend on the threads), stopping at the first pair whose LLR crosses a
/// bound; the games after it that were already being played are left out of every table.
fn run_sprt(players: &[PlayerSpec], config: SprtConfig, opts: &RunOptions) -> Result<(), CliError> {
    let mut jobs = match_jobs(&players[0], &players[1], opts.games, opts.seed, 0);
    let players = &names(players);
    let (a, b) = (&players[0], &players[1]);
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
    let on_done = |g: &GameRecord| -> bool {
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
                errln!("{} ({:.0} s)", state.progress_line(), start.elapsed().as_secs_f64());
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
    let report = Report::new(players, &games).with_anchor(opts.anchor.clone());
    let date = crate::experiments::pgn::today();
    opts.write_pgn(&games, &event, &date)?;
    if let Some(dir) = &opts.out {
        report
            .write_all(dir, &event, opts.comments)
            .and_then(|_| std::fs::write(dir.join("sprt.json"), state.to_json(a, b)))
            .map_err(|source| CliError::WriteDir { dir: dir.clone(), source })?;
        errln!("tables, curves, charts, PGN, sprt.json and index.html written to {}", dir.display());
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
    opts.fault_check(&games)
}

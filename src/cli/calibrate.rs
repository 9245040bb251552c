//! `calibrate`: every level rated on Stockfish's `UCI_Elo` scale (see
//! `experiments::calibration` for the design). The games are played and reported like a
//! tournament's; the calibration table follows, and with --csv goes to a file.

use super::CliError;
use super::args::{CalibrateArgs, probe_players};
use super::run::{RunOptions, names, run_and_report};
use crate::experiments::calibration::{self, Engines, Rated, WIDEST_HALF, anchor_elo, short_name};
use crate::experiments::pgn::{read_results, white_points};
use crate::experiments::ratings::fit;
use crate::experiments::stats::Wdl;
use crate::experiments::{assign_openings, match_jobs};
use crate::players::spec::PlayerSpec;
use std::collections::HashSet;

pub fn run(args: &CalibrateArgs) -> Result<(), CliError> {
    let opts = RunOptions::new(&args.run, 200)?;
    if let Some(path) = &args.csv {
        super::output::check_file(path)?;
    }
    let present = |cmd: &str| {
        let there = std::path::Path::new(cmd.split_whitespace().next().unwrap_or("")).exists();
        if !there {
            errln!("note: {cmd} not found; its cross-check is left out");
        }
        there.then(|| cmd.to_string())
    };
    let engines = Engines {
        stockfish: args.stockfish.clone(),
        tc: args.tc.clone(),
        fairymax: present(&args.fairymax),
        hoichess: present(&format!("{} -x", args.hoichess)),
    };
    let bad = |source| CliError::BadSpec { spec: format!("--stockfish {} --tc {}", args.stockfish, args.tc), source };
    let plan = calibration::schedule(&engines).map_err(bad)?;
    let mut players: Vec<PlayerSpec> = Vec::new();
    for p in &plan {
        for s in [&p.a, &p.b] {
            if !players.contains(s) {
                players.push(s.clone());
            }
        }
    }
    probe_players(&players)?;
    let earlier = match &args.resume {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|source| CliError::Read { path: path.clone(), source })?;
            read_results(&text)
        }
        None => Vec::new(),
    };
    // A game is known by its seed and its players (seeds are numbered by pairing, and another
    // schedule may number other players' games alike).
    let played: HashSet<(u64, &str, &str)> =
        earlier.iter().filter_map(|g| Some((g.seed?, g.white.as_str(), g.black.as_str()))).collect();
    let mut jobs = Vec::new();
    for (i, p) in plan.iter().enumerate() {
        let mut pairing = match_jobs(&p.a, &p.b, opts.games * p.weight as usize, opts.seed, i as u64);
        if p.openings {
            assign_openings(&mut pairing, &opts.openings);
        }
        jobs.extend(pairing.into_iter().filter(|job| {
            !played.contains(&(job.seed, job.white.to_string().as_str(), job.black.to_string().as_str()))
        }));
    }
    if args.resume.is_some() {
        errln!("{} games read back; {} of the schedule's still to play", earlier.len(), jobs.len());
    }
    let event = format!("AgentChess calibration, engines at {}", args.tc);
    let games = run_and_report(&players, jobs, &opts, &event, None)?;
    let names = names(&players);
    let index = |name: &str| names.iter().position(|n| n == name);
    // Only the schedule's pairings count: a file resumed from another schedule may hold games
    // (level 10's budgets against each other) that this design leaves out on purpose.
    let scheduled: HashSet<(usize, usize)> = plan
        .iter()
        .filter_map(|p| Some((index(&p.a.to_string())?, index(&p.b.to_string())?)))
        .flat_map(|(a, b)| [(a, b), (b, a)])
        .collect();
    let mut results: Vec<(usize, usize, Wdl)> = Vec::new();
    let mut foreign = 0;
    let new = games.iter().map(|g| (g.white.as_str(), g.black.as_str(), white_points(g.result())));
    let old = earlier.iter().map(|g| (g.white.as_str(), g.black.as_str(), Some(g.white_points)));
    for (white, black, points) in new.chain(old) {
        let (Some(w), Some(b), Some(points)) = (index(white), index(black), points) else {
            foreign += 1;
            continue;
        };
        if !scheduled.contains(&(w, b)) {
            foreign += 1;
            continue;
        }
        let wdl = match points {
            1.0 => Wdl { wins: 1, draws: 0, losses: 0 },
            0.0 => Wdl { wins: 0, draws: 0, losses: 1 },
            _ => Wdl { wins: 0, draws: 1, losses: 0 },
        };
        results.push((w, b, wdl));
    }
    if foreign > 0 {
        errln!("note: {foreign} games outside this calibration's pairings were left out");
    }
    let list = fit(&names, &results, anchors_first(&names));
    let anchors: Vec<(usize, f64)> =
        names.iter().enumerate().filter_map(|(i, n)| Some((i, f64::from(anchor_elo(n)?)))).collect();
    let shifted = calibration::anchored(&list, &anchors);
    let rated = calibration::on_anchors(&list, &anchors).unwrap_or_else(|| {
        errln!("note: the anchors' fitted order differs from their nominal order; one shift anchors the list");
        shifted.clone()
    });
    outln!(
        "\nCalibration on Stockfish's UCI_Elo scale (engines at {}, seed {}): each anchor at its nominal rating, \
         a setting between two anchors in proportion, below the lowest at its distance from it; \
         'one shift' anchors the whole list once on the anchors' mean",
        args.tc,
        opts.seed
    );
    outln!("{:<24} {:>6} {:>6} {:>9} {:>7} {:>7}   nominal", "setting", "Elo", "95%", "one shift", "games", "score");
    let mut csv = String::from("setting,elo,low,high,one_shift,games,score\n");
    let mut unrated = 0;
    for i in list.ranking().into_iter().rev() {
        let score = list.points[i] / f64::from(list.games[i].max(1));
        let nominal = anchor_elo(&names[i]).map(|e| format!("{e} (anchor)"));
        let (line, row) = table_row(short_name(&names[i]), rated[i], shifted[i], list.games[i], score, nominal);
        unrated += usize::from(!rated[i].is_rating());
        outln!("{line}");
        csv.push_str(&row);
    }
    if unrated > 0 {
        outln!(
            "{unrated} of {} settings have too few games for a rating (a 95% interval wider than \
             ±{WIDEST_HALF:.0}): --games sets how many each pairing plays",
            names.len()
        );
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, csv).map_err(|source| CliError::Write { path: path.clone(), source })?;
        errln!("calibration table written to {}", path.display());
    }
    opts.fault_check(&games)
}

/// A setting's line in the table and its CSV row. A rating the games do not support (see
/// `Rated::is_rating`) is not given: the line says "too few games" and the CSV leaves the
/// rating's fields empty.
fn table_row(name: &str, r: Rated, one: Rated, games: u32, score: f64, nominal: Option<String>) -> (String, String) {
    let score_pc = 100.0 * score;
    if !r.is_rating() {
        let note = nominal.map_or_else(|| "too few games".to_string(), |n| format!("{n}, too few games"));
        let line = format!("{name:<24} {:>6} {:>6} {:>9} {games:>7} {score_pc:>6.1}%   {note}", "-", "-", "-");
        return (line, format!("\"{name}\",,,,,{games},{score:.3}\n"));
    }
    let line = format!(
        "{name:<24} {:>6.0} {:>+6.0} {:>9.0} {games:>7} {score_pc:>6.1}%   {}",
        r.elo,
        r.half,
        one.elo,
        nominal.unwrap_or_default()
    );
    let row = format!(
        "\"{name}\",{:.0},{:.0},{:.0},{:.0},{games},{score:.3}\n",
        r.elo,
        r.elo - r.half,
        r.elo + r.half,
        one.elo
    );
    (line, row)
}

/// The fit's reference player: the first anchor (any player would do, since only differences
/// are used; an anchor is certain to have a finite rating in a full run).
fn anchors_first(names: &[String]) -> usize {
    names.iter().position(|n| anchor_elo(n).is_some()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A setting the games say little about gets no rating, in the table or the CSV.
    #[test]
    fn a_rating_without_support_is_not_printed() {
        let huge = Rated { elo: 4241.0, half: 5_681_837_527.0 };
        let (line, row) = table_row("level:1", huge, huge, 2, 1.0, None);
        assert!(line.contains("too few games") && !line.contains("4241"), "{line}");
        assert_eq!(row, "\"level:1\",,,,,2,1.000\n");
        let sound = Rated { elo: 1306.4, half: 25.2 };
        let (line, row) = table_row("level:9", sound, sound, 400, 0.5, Some("1350 (anchor)".into()));
        assert!(line.contains("  1306    +25 ") && line.ends_with("1350 (anchor)"), "{line}");
        assert_eq!(row, "\"level:9\",1306,1281,1332,1306,400,0.500\n");
    }
}

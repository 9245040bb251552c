//! `tournament`: a round robin (the thesis's Table 3.1 design), or a gauntlet of the first
//! player.

use super::CliError;
use super::args::TournamentArgs;
use super::args::{probe_players, read_spec};
use super::error::LevelsError;
use super::run::{RunOptions, ThesisPart, check_anchor, distinct_labels, run_and_report};
use crate::experiments::{assign_openings, match_jobs};
use crate::players::spec::PlayerSpec;

pub fn run(args: &TournamentArgs) -> Result<(), CliError> {
    let levels = args.levels.as_deref().map(parse_levels).transpose()?.unwrap_or_default();
    let opts = RunOptions::new(&args.run, 100)?;
    if args.players.len() + levels.len() < 2 {
        return Err(CliError::TooFewPlayers);
    }
    let mut players = args.players.iter().map(|p| read_spec(p)).collect::<Result<Vec<_>, _>>()?;
    players.extend(levels);
    round_robin(&players, args.gauntlet, &opts, None)
}

/// A round robin; with `gauntlet` only the first player's pairings are played (the thesis's
/// "level 7 against its opponents" design of Tables 3.2-3.4 and Figure 3.1).
pub(super) fn round_robin(
    players: &[PlayerSpec],
    gauntlet: bool,
    opts: &RunOptions,
    thesis: Option<ThesisPart>,
) -> Result<(), CliError> {
    if players.len() < 2 {
        return Err(CliError::TooFewPlayers);
    }
    let players = &distinct_labels(players);
    probe_players(players)?;
    check_anchor(players, opts)?;
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
    let games = run_and_report(players, jobs, opts, &event, thesis)?;
    opts.fault_check(&games)
}

/// `--levels 1-8` or `--levels 1,3,7` into level specs.
pub fn parse_levels(text: &str) -> Result<Vec<PlayerSpec>, LevelsError> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (a.trim().parse::<u32>(), b.trim().parse::<u32>()),
            None => (part.trim().parse::<u32>(), part.trim().parse::<u32>()),
        };
        let (Ok(lo), Ok(hi)) = (lo, hi) else { return Err(LevelsError::Unreadable(text.to_string())) };
        if lo < 1 || hi > 9 {
            return Err(LevelsError::OutOfRange(part.to_string()));
        }
        if lo > hi {
            return Err(LevelsError::Backwards { part: part.to_string(), lo, hi });
        }
        out.extend((lo..=hi).map(|l| PlayerSpec::level(l).expect("levels 1 to 9 exist")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_lists() {
        let names = |text| parse_levels(text).unwrap().iter().map(PlayerSpec::to_string).collect::<Vec<_>>();
        assert_eq!(names("1-3"), ["level:1", "level:2", "level:3"]);
        assert_eq!(names("2,7"), ["level:2", "level:7"]);
        assert_eq!(parse_levels("0-9"), Err(LevelsError::OutOfRange("0-9".into())));
        assert_eq!(parse_levels("x"), Err(LevelsError::Unreadable("x".into())));
        let backwards = parse_levels("8-1").unwrap_err();
        assert_eq!(backwards.to_string(), "level range '8-1' runs backwards (write 1-8)");
    }
}

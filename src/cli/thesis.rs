//! `thesis`: the thesis's chapter 3 in one run.

use super::CliError;
use super::args::{ThesisArgs, read_spec};
use super::run::{RunOptions, ThesisPart};
use super::suite::{ECM, WAC, parse_suite};
use super::tournament::round_robin;
use crate::experiments::thesis::Crafty;
use crate::players::spec::PlayerSpec;

/// The thesis's levels, 1 to 8.
fn thesis_levels() -> Vec<PlayerSpec> {
    (1..=8).map(|l| PlayerSpec::level(l).expect("levels 1 to 8 exist")).collect()
}

/// The players of the thesis's experiments: levels 1-8 and the searcher standing in for Crafty.
pub fn thesis_players(search_depths: std::ops::RangeInclusive<u32>) -> Vec<PlayerSpec> {
    let searchers = search_depths.map(|d| PlayerSpec::search(&format!("depth={d}")).expect("depths 1 to 8 exist"));
    thesis_levels().into_iter().chain(searchers).collect()
}

/// The thesis's chapter 3 in one run: the Table 3.1 round robin (levels 1-8 and the searcher at
/// depth 1 where the thesis had Crafty at depth 1), then the Table 3.10 suites (WAC, ECM) for the
/// levels and the searcher at depths 1-3, and one report of both: every table, curve and chart
/// of the match report, the rating list, and each of the thesis's numbers beside ours, tested.
///
/// With `--opponent` (a real engine, `uci:/usr/games/stockfish,depth=1`), that player takes
/// Crafty's place: in the round robin as given, in the suites at depths 1-3.
pub fn run(args: &ThesisArgs) -> Result<(), CliError> {
    let opts = RunOptions::new(&args.run, 100)?;
    let opponent = args.opponent.as_deref().map(read_spec).transpose()?;
    outln!("== Table 3.1: round robin, {} games per pairing, seed {} ==", opts.games, opts.seed);
    let suites = [parse_suite("wac", "built-in wac.epd", WAC), parse_suite("ecm", "built-in ecm.epd", ECM)];
    let Some(opponent) = opponent else {
        return round_robin(
            &thesis_players(1..=1),
            false,
            &opts,
            Some(ThesisPart { suites: &suites, players: thesis_players(1..=3), crafty: Crafty::default() }),
        );
    };
    let at_depths = [1, 2, 3].map(|d| opponent.at_depth(d));
    let crafty = Crafty::new(at_depths.clone());
    let levels = thesis_levels();
    let games_players: Vec<PlayerSpec> = levels.iter().cloned().chain([opponent]).collect();
    let mut suite_players = levels;
    for spec in at_depths {
        if !suite_players.contains(&spec) {
            suite_players.push(spec);
        }
    }
    round_robin(&games_players, false, &opts, Some(ThesisPart { suites: &suites, players: suite_players, crafty }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thesis_players() {
        let players: Vec<String> = thesis_players(1..=3).iter().map(PlayerSpec::to_string).collect();
        assert_eq!(players.len(), 11);
        assert_eq!((players[0].as_str(), players[10].as_str()), ("level:1", "search:depth=3"));
        assert_eq!(thesis_levels().len(), 8);
    }
}

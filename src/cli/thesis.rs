//! `thesis`: the thesis's chapter 3 in one run.

use super::CliError;
use super::args::ThesisArgs;
use super::run::{RunOptions, ThesisPart};
use super::suite::{ECM, WAC, parse_suite};
use super::tournament::round_robin;

/// The players of the thesis's experiments: levels 1-8 and the searcher standing in for Crafty.
pub fn thesis_players(search_depths: std::ops::RangeInclusive<u32>) -> Vec<String> {
    (1..=8).map(|l| format!("level:{l}")).chain(search_depths.map(|d| format!("search:depth={d}"))).collect()
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
    outln!("== Table 3.1: round robin, {} games per pairing, seed {} ==", opts.games, opts.seed);
    let suites = [parse_suite("wac", "built-in wac.epd", WAC), parse_suite("ecm", "built-in ecm.epd", ECM)];
    let Some(opponent) = args.opponent.as_deref() else {
        return round_robin(
            &thesis_players(1..=1),
            false,
            &opts,
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
    round_robin(&games_players, false, &opts, Some(ThesisPart { suites: &suites, players: suite_players }))
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
    fn the_thesis_players() {
        let players = thesis_players(1..=3);
        assert_eq!(players.len(), 11);
        assert_eq!((players[0].as_str(), players[10].as_str()), ("level:1", "search:depth=3"));
        assert!(players.iter().all(|p| crate::players::spec::player_from_spec(p, 1).is_ok()));
    }
}

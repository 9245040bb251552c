//! `rate`: players rated from their games against anchors held at public ratings
//! (`experiments::ratings::against_fixed`).

use super::CliError;
use super::args::RateArgs;
use crate::board::pgn_reader::read_games;
use crate::experiments::pgn::white_points;
use crate::experiments::ratings::{FixedRating, against_fixed, line_against_fixed};
use crate::experiments::stats::Wdl;
use std::collections::BTreeMap;

pub fn run(args: &RateArgs) -> Result<(), CliError> {
    let mut games = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path).map_err(|source| CliError::Read { path: path.clone(), source })?;
        for game in read_games(&text) {
            match game {
                Ok(g) => {
                    let tag = |name: &str| g.tag(name).unwrap_or("").to_string();
                    let result = counted_result(g.tag("Result").unwrap_or(""), g.tag("Termination")).to_string();
                    games.push((tag("White"), tag("Black"), result));
                }
                Err(e) => errln!("{}: {e} (skipped)", path.display()),
            }
        }
    }
    let tally = tally(&games, &args.anchor);
    let anchors: Vec<String> = args.anchor.iter().map(|(name, elo)| format!("{name} {elo}")).collect();
    outln!("Rated against the anchors held fixed ({}), from {} games:", anchors.join(", "), tally.counted);
    if tally.left_out > 0 {
        outln!(
            "({} games left out: not between a player and an anchor, unfinished, or ended by an illegal move or a lost connection)",
            tally.left_out
        );
    }
    if args.nodes_line {
        nodes_line(&tally.players);
    }
    let mut rows: Vec<(String, Wdl, FixedRating)> = tally
        .players
        .into_iter()
        .map(|(player, results)| {
            let total = results.iter().fold(Wdl::default(), |t, &(_, w)| t + w);
            (player, total, against_fixed(&results))
        })
        .collect();
    rows.sort_by(|a, b| b.2.elo.total_cmp(&a.2.elo));
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(6).max(6);
    outln!("{:<width$}  games  W-L-D          Elo   95%", "player");
    for (player, w, r) in rows {
        let rating =
            if r.elo.is_finite() { format!("{:5.0}  ±{:.0}", r.elo, r.half) } else { format!("{:>5}", r.elo) };
        let record = format!("{}-{}-{}", w.wins, w.losses, w.draws);
        outln!("{player:<width$}  {:5}  {record:<12}  {rating}", w.games());
    }
    Ok(())
}

/// The node budget a player's name ends with (`nodes-64000`), if any.
fn budget(name: &str) -> Option<u64> {
    name.rsplit_once("nodes-").and_then(|(_, n)| n.parse().ok()).filter(|&n| n > 0)
}

fn nodes_line(players: &BTreeMap<String, Vec<(f64, Wdl)>>) {
    let mut budgets: Vec<u64> = Vec::new();
    let mut results = Vec::new();
    for (name, games) in players {
        if let Some(n) = budget(name) {
            budgets.push(n);
            results.extend(games.iter().map(|&(anchor, w)| ((n as f64).log2(), anchor, w)));
        }
    }
    budgets.sort_unstable();
    let Some((a, b)) = line_against_fixed(&results) else {
        outln!("No line: the budgets' games fix none (two budgets or more, not all won or lost, are needed)");
        return;
    };
    outln!("The line over {} budgets: Elo = {:.0} + {:.1} × log2(nodes)", budgets.len(), a, b);
    let at: Vec<String> = budgets.iter().map(|&n| format!("{n} {:.0}", a + b * (n as f64).log2())).collect();
    outln!("  at each budget: {}", at.join(", "));
}

/// The result that counts: none (`*`) for a game ended by an illegal move or a broken
/// connection, which says how a program speaks its protocol (an XBoard engine set up by `edit`
/// may castle without the right), not how it plays.
fn counted_result<'a>(result: &'a str, termination: Option<&str>) -> &'a str {
    match termination {
        Some("illegal move" | "stalled connection" | "abandoned" | "unterminated") => "*",
        _ => result,
    }
}

/// Each player's W/D/L against each anchor it met (by the anchor's rating), and how many games
/// counted and were left out.
#[derive(Debug, Default, PartialEq)]
struct Tally {
    players: BTreeMap<String, Vec<(f64, Wdl)>>,
    counted: usize,
    left_out: usize,
}

fn tally(games: &[(String, String, String)], anchors: &[(String, f64)]) -> Tally {
    let rating = |name: &str| anchors.iter().find(|(a, _)| a == name).map(|&(_, elo)| elo);
    let mut t = Tally::default();
    for (white, black, result) in games {
        let Some(white_score) = white_points(result) else {
            t.left_out += 1;
            continue;
        };
        let (player, anchor, points) = match (rating(white), rating(black)) {
            (None, Some(elo)) => (white, elo, white_score),
            (Some(elo), None) => (black, elo, 1.0 - white_score),
            _ => {
                t.left_out += 1;
                continue;
            }
        };
        let results = t.players.entry(player.clone()).or_default();
        let at = match results.iter().position(|&(a, _)| a == anchor) {
            Some(at) => at,
            None => {
                results.push((anchor, Wdl::default()));
                results.len() - 1
            }
        };
        let w = &mut results[at].1;
        // The points are exactly 1, 0.5 or 0.
        if points == 1.0 {
            w.wins += 1;
        } else if points == 0.5 {
            w.draws += 1;
        } else {
            w.losses += 1;
        }
        t.counted += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: &str, black: &str, result: &str) -> (String, String, String) {
        (white.into(), black.into(), result.into())
    }

    /// Results are counted from the player's side against the anchor's rating; games between
    /// two anchors, two players or without a result are left out.
    #[test]
    fn games_are_tallied_against_the_anchors() {
        let anchors = [("phalanx".to_string(), 2610.0), ("fairymax".to_string(), 1868.0)];
        let games = [
            game("a", "phalanx", "1-0"),
            game("phalanx", "a", "1-0"),
            game("phalanx", "a", "1/2-1/2"),
            game("fairymax", "a", "0-1"),
            game("a", "b", "1-0"),
            game("phalanx", "fairymax", "1-0"),
            game("b", "fairymax", "*"),
        ];
        let t = tally(&games, &anchors);
        assert_eq!((t.counted, t.left_out), (4, 3));
        let a = &t.players["a"];
        assert_eq!(a[0], (2610.0, Wdl { wins: 1, draws: 1, losses: 1 }));
        assert_eq!(a[1], (1868.0, Wdl { wins: 1, draws: 0, losses: 0 }));
        assert!(!t.players.contains_key("b"));
    }

    #[test]
    fn a_budget_is_read_from_the_end_of_a_name() {
        assert_eq!(budget("nodes-64000"), Some(64000));
        assert_eq!(budget("level10-nodes-500"), Some(500));
        assert_eq!(budget("level10"), None);
        assert_eq!(budget("nodes-many"), None);
        assert_eq!(budget("nodes-0"), None);
    }

    #[test]
    fn a_game_ended_by_an_illegal_move_does_not_count() {
        assert_eq!(counted_result("1-0", Some("illegal move")), "*");
        assert_eq!(counted_result("0-1", Some("stalled connection")), "*");
        assert_eq!(counted_result("0-1", Some("time forfeit")), "0-1");
        assert_eq!(counted_result("1/2-1/2", Some("adjudication")), "1/2-1/2");
        assert_eq!(counted_result("1-0", None), "1-0");
    }
}

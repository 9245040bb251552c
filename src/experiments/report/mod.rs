//! Tables, curves and charts from finished games: the thesis's Table 3.1 matrix, a Table 3.2
//! row per player, per-pairing statistics, material curves and the agents' counters.
//!
//! This module computes them; [`text`] lays them out for the summary and [`files`] writes them
//! to an output folder.

mod files;
mod text;

use super::game::{GameRecord, Termination};
use super::stats::Wdl;
pub use super::formats::csv_field;
use crate::agents::{CounterLog, Counters};
use crate::board::{Color, Outcome};

/// Draw detail per player, as Table 3.2 splits it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawDetail {
    pub stalemate: u32,
    pub repetition: u32,
    pub fifty_moves: u32,
    pub insufficient: u32,
    pub move_cap: u32,
    /// Draws where the opponent had first been reduced to a bare king.
    pub draw_wins: u32,
    /// Draws where the player itself had first been reduced to a bare king.
    pub draw_losses: u32,
}

pub struct Report<'a> {
    pub players: Vec<String>,
    pub games: &'a [GameRecord],
}

impl<'a> Report<'a> {
    pub fn new(players: &[String], games: &'a [GameRecord]) -> Report<'a> {
        Report { players: players.to_vec(), games }
    }

    fn involving(&self, a: &str, b: &str) -> impl Iterator<Item = &GameRecord> {
        let (a, b) = (a.to_string(), b.to_string());
        self.games.iter().filter(move |g| (g.white == a && g.black == b) || (g.white == b && g.black == a))
    }

    /// Wins, draws, losses of `a` against `b`.
    pub fn wdl(&self, a: &str, b: &str) -> Wdl {
        let mut w = Wdl::default();
        for g in self.involving(a, b) {
            let r = super::wdl_for(g, a);
            w.wins += r.wins;
            w.draws += r.draws;
            w.losses += r.losses;
        }
        w
    }

    pub fn total(&self, a: &str) -> Wdl {
        let mut t = Wdl::default();
        for b in &self.players {
            if b != a {
                let w = self.wdl(a, b);
                t.wins += w.wins;
                t.draws += w.draws;
                t.losses += w.losses;
            }
        }
        t
    }

    pub fn draw_detail(&self, a: &str) -> DrawDetail {
        self.draw_detail_vs(a, None)
    }

    /// The draw detail of `a`'s games against `b` (or everyone).
    pub fn draw_detail_vs(&self, a: &str, b: Option<&str>) -> DrawDetail {
        let mut d = DrawDetail::default();
        let against = |g: &&GameRecord| match b {
            Some(b) => (g.white == a && g.black == b) || (g.white == b && g.black == a),
            None => g.white == a || g.black == a,
        };
        for g in self.games.iter().filter(against) {
            if g.termination.winner().is_some() {
                continue;
            }
            match g.termination {
                Termination::Rules(Outcome::Stalemate) => d.stalemate += 1,
                Termination::Rules(Outcome::Threefold) => d.repetition += 1,
                Termination::Rules(Outcome::FiftyMoves) => d.fifty_moves += 1,
                Termination::Rules(Outcome::InsufficientMaterial) => d.insufficient += 1,
                Termination::MoveCap => d.move_cap += 1,
                _ => {}
            }
            let me = if g.white == a { Color::White } else { Color::Black };
            match g.bare_king {
                Some((c, _)) if c != me => d.draw_wins += 1,
                Some(_) => d.draw_losses += 1,
                None => {}
            }
        }
        d
    }

    /// Colour × result table of `a`'s games against `b`, for the chi-square test.
    pub fn colour_table(&self, a: &str, b: &str) -> Vec<Vec<u32>> {
        let mut t = vec![vec![0u32; 3]; 2];
        for g in self.involving(a, b) {
            let row = if g.white == a { 0 } else { 1 };
            let w = super::wdl_for(g, a);
            let col = if w.wins > 0 { 0 } else if w.draws > 0 { 1 } else { 2 };
            t[row][col] += 1;
        }
        t
    }

    /// Mean material difference (row player minus opponent) after each full move, and the
    /// share of games still running then.
    pub fn material_curve(&self, a: &str, b: &str) -> Vec<(usize, f64, f64)> {
        let games: Vec<&GameRecord> = self.involving(a, b).collect();
        let longest = games.iter().map(|g| g.full_moves()).max().unwrap_or(0);
        let mut out = Vec::new();
        for mv in 1..=longest {
            let ply = 2 * mv;
            let mut sum = 0.0;
            let mut running = 0;
            for g in &games {
                let sign = if g.white == a { 1.0 } else { -1.0 };
                // A finished game keeps its final material for the mean (the thesis's curves do
                // the same: a game's last balance stands), and stops counting as running.
                let idx = ply.min(g.material.len() - 1);
                sum += sign * g.material[idx] as f64;
                if g.moves.len() >= ply {
                    running += 1;
                }
            }
            out.push((mv, sum / games.len() as f64, running as f64 / games.len() as f64));
        }
        out
    }

    /// `a`'s own counter logs in its games against `b` (`b == None`: against everyone).
    fn logs<'g>(&'g self, a: &'g str, b: Option<&'g str>) -> impl Iterator<Item = &'g CounterLog> + 'g {
        self.games
            .iter()
            .filter(move |g| match b {
                Some(b) => (g.white == a && g.black == b) || (g.white == b && g.black == a),
                None => (g.white == a) != (g.black == a),
            })
            .filter_map(move |g| if g.white == a { g.counters[0].as_ref() } else { g.counters[1].as_ref() })
    }

    /// Sum of an agent counter over `a`'s games against `b` (a's own agents only).
    pub fn counter_sum(&self, a: &str, b: &str, f: impl Fn(&Counters) -> u32) -> u32 {
        f(&self.counter_total(a, Some(b)))
    }

    /// `a`'s agents' counters summed over its games against `b` (or all opponents).
    pub fn counter_total(&self, a: &str, b: Option<&str>) -> Counters {
        self.logs(a, b).fold(Counters::default(), |acc, log| acc.add(&log.totals()))
    }

    /// `a`'s agents' counters by full move number, summed over its games against `b` (or all
    /// opponents): entry `m - 1` is move `m`. Its `decisions` field is the number of games in
    /// which `a` still made a decision at that move, the base for means per game.
    pub fn counter_curve(&self, a: &str, b: Option<&str>) -> Vec<Counters> {
        let mut curve: Vec<Counters> = Vec::new();
        for log in self.logs(a, b) {
            for (mv, c) in log.by_full_move() {
                if curve.len() < mv {
                    curve.resize(mv, Counters::default());
                }
                curve[mv - 1] = curve[mv - 1].add(&c);
            }
        }
        curve
    }

    /// The pairings that were played (a gauntlet plays only those of its first player).
    fn pairs(&self) -> Vec<(String, String)> {
        let mut v = Vec::new();
        for (i, a) in self.players.iter().enumerate() {
            for b in &self.players[i + 1..] {
                if self.involving(a, b).next().is_some() {
                    v.push((a.clone(), b.clone()));
                }
            }
        }
        v
    }

    /// Players whose agents kept counters.
    fn agent_players(&self) -> Vec<&String> {
        self.players.iter().filter(|p| self.logs(p, None).next().is_some()).collect()
    }

}

/// The counters as CSV values, in the order of `Counters::NAMES`.
fn csv_values(c: &Counters) -> String {
    c.values().iter().map(|v| v.to_string()).collect::<Vec<_>>().join(",")
}

/// A count per decision: with one decision per game and move, the mean per game still running.
fn mean_per_game(count: u32, decisions: u32) -> f64 {
    if decisions == 0 { 0.0 } else { count as f64 / decisions as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(white: &str, black: &str, termination: Termination, bare_king: Option<Color>) -> GameRecord {
        GameRecord {
            index: 0,
            seed: 0,
            white: white.to_string(),
            black: black.to_string(),
            start_fen: crate::board::STARTPOS.to_string(),
            moves: Vec::new(),
            reasons: Vec::new(),
            termination,
            material: vec![0],
            bare_king: bare_king.map(|c| (c, 10)),
            counters: [None, None],
        }
    }

    /// Draw wins and draw losses are told apart by who was left with a bare king first, from
    /// each player's side, and only in drawn games.
    #[test]
    fn draw_wins_and_losses_by_opponent() {
        let draw = Termination::Rules(Outcome::FiftyMoves);
        let games = vec![
            record("a", "b", draw, Some(Color::Black)),  // b bare: a draw win for a
            record("b", "a", draw, Some(Color::White)),  // b bare again
            record("a", "b", draw, Some(Color::White)),  // a bare: a draw loss for a
            record("a", "b", draw, None),
            record("a", "c", draw, Some(Color::Black)),  // against c
            record("a", "b", Termination::Rules(Outcome::Checkmate { winner: Color::White }), Some(Color::Black)),
        ];
        let players = ["a".to_string(), "b".to_string(), "c".to_string()];
        let r = Report::new(&players, &games);
        let ab = r.draw_detail_vs("a", Some("b"));
        assert_eq!((ab.draw_wins, ab.draw_losses, ab.fifty_moves), (2, 1, 4));
        let ba = r.draw_detail_vs("b", Some("a"));
        assert_eq!((ba.draw_wins, ba.draw_losses), (1, 2));
        assert_eq!(r.draw_detail("a").draw_wins, 3);
        let text = r.draws_text();
        let row = text.lines().find(|l| l.starts_with("a vs b")).unwrap();
        assert_eq!(row.split_whitespace().collect::<Vec<_>>()[3..], ["1", "0", "4", "2", "1", "50%", "25%"]);
    }
}

//! Tables, curves and charts from finished games: the thesis's Table 3.1 matrix, a Table 3.2
//! row per player, per-pairing statistics, the rating list, material curves, the agents'
//! counters and, for `thesis`, the comparison with the thesis's own numbers.
//!
//! This module computes them (with [`charts`] building the charts' data and [`fidelity`] the
//! comparison with the thesis); [`text`] lays them out for the summary, [`files`] writes them to
//! an output folder and [`html`] puts them on one page.

mod charts;
pub mod fidelity;
mod files;
mod html;
mod text;

pub use super::formats::csv_field;
use super::game::{GameRecord, Termination};
use super::ratings::RatingList;
use super::stats::Wdl;
use super::suite::SuiteCount;
use super::thesis::Crafty;
use crate::agents::{CounterLog, Counters};
use crate::board::{Color, Outcome};
use std::collections::HashMap;

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
    /// The games of each pairing, by index into `games`, under the players' indices (lower
    /// first): every table asks for a pairing's games many times over.
    by_pair: HashMap<(usize, usize), Vec<usize>>,
    /// Table 3.10's counts, when suites were run with the games (`thesis`).
    pub suites: Vec<SuiteCount>,
    /// Compare every table with the thesis's (`thesis`), with these players in Crafty's place.
    pub thesis: Option<Crafty>,
    /// The rating list's player at 0 (default: level:1 when it played, else the first player).
    pub anchor: Option<String>,
}

impl<'a> Report<'a> {
    pub fn new(players: &[String], games: &'a [GameRecord]) -> Report<'a> {
        let index: HashMap<&str, usize> = players.iter().enumerate().map(|(i, p)| (p.as_str(), i)).collect();
        let mut by_pair: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (k, g) in games.iter().enumerate() {
            if let (Some(&w), Some(&b)) = (index.get(g.white.as_str()), index.get(g.black.as_str()))
                && w != b
            {
                by_pair.entry((w.min(b), w.max(b))).or_default().push(k);
            }
        }
        Report { players: players.to_vec(), games, by_pair, suites: Vec::new(), thesis: None, anchor: None }
    }

    pub fn with_suites(mut self, suites: Vec<SuiteCount>) -> Self {
        self.suites = suites;
        self
    }

    pub fn compare_with_thesis(mut self, crafty: Crafty) -> Self {
        self.thesis = Some(crafty);
        self
    }

    pub fn with_anchor(mut self, anchor: Option<String>) -> Self {
        self.anchor = anchor;
        self
    }

    fn index_of(&self, p: &str) -> Option<usize> {
        self.players.iter().position(|q| q == p)
    }

    fn involving(&self, a: &str, b: &str) -> impl Iterator<Item = &GameRecord> {
        let key = self.index_of(a).zip(self.index_of(b)).map(|(i, j)| (i.min(j), i.max(j)));
        key.and_then(|k| self.by_pair.get(&k)).into_iter().flatten().map(|&k| &self.games[k])
    }

    /// `a`'s games against `b`, or against everyone.
    fn games_of<'s>(&'s self, a: &'s str, b: Option<&'s str>) -> Vec<&'s GameRecord> {
        match b {
            Some(b) => self.involving(a, b).collect(),
            None => self.players.iter().filter(|p| *p != a).flat_map(|p| self.involving(a, p)).collect(),
        }
    }

    /// Bare-king conversion (thesis 3.1.3: the side left with a bare king survives by the
    /// fifty-move rule): of `a`'s games in which the opponent was first reduced to a bare king
    /// while `a` still had mating material (a queen, a rook, a pawn, or two minor pieces that
    /// are not both knights), how many `a` won by mate. Returns (mated, such games).
    pub fn bare_king_conversion(&self, a: &str) -> (u32, u32) {
        let (mut mated, mut games) = (0, 0);
        for g in self.games_of(a, None) {
            let me = if g.white == a { Color::White } else { Color::Black };
            let Some((bare, ply)) = g.bare_king else { continue };
            if bare == me || !mating_material_at(g, ply, me) {
                continue;
            }
            games += 1;
            if g.termination == Termination::Rules(Outcome::Checkmate { winner: me }) {
                mated += 1;
            }
        }
        (mated, games)
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
        for g in self.games_of(a, b) {
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
            let col = if w.wins > 0 {
                0
            } else if w.draws > 0 {
                1
            } else {
                2
            };
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
        self.games_of(a, b)
            .into_iter()
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
            for (j, b) in self.players.iter().enumerate().skip(i + 1) {
                if self.by_pair.contains_key(&(i, j)) {
                    v.push((a.clone(), b.clone()));
                }
            }
        }
        v
    }

    /// Whether `a` and `b` played each other.
    fn played(&self, a: &str, b: &str) -> bool {
        self.involving(a, b).next().is_some()
    }

    /// The rating list of every player from every pairing played.
    pub fn ratings(&self) -> RatingList {
        let results: Vec<(usize, usize, Wdl)> = self
            .pairs()
            .iter()
            .filter_map(|(a, b)| Some((self.index_of(a)?, self.index_of(b)?, self.wdl(a, b))))
            .collect();
        let anchor = self.anchor.as_deref().or(Some("level:1")).and_then(|a| self.index_of(a)).unwrap_or(0);
        super::ratings::fit(&self.players, &results, anchor)
    }

    /// Players whose agents kept counters.
    fn agent_players(&self) -> Vec<&String> {
        self.players.iter().filter(|p| self.logs(p, None).next().is_some()).collect()
    }
}

/// A pairing's statistics, from the first player's side: results, Elo difference with its 95%
/// interval, likelihood of superiority, and the chi-square test of colour against result.
pub struct PairingStats {
    pub a: String,
    pub b: String,
    pub wdl: Wdl,
    /// (estimate, low, high)
    pub elo: (f64, f64, f64),
    pub los: f64,
    /// (statistic, degrees of freedom, p)
    pub colour: (f64, u32, f64),
}

impl Report<'_> {
    /// The statistics of every pairing played, for the summary, the CSV, the JSON and the page.
    pub fn pairing_stats(&self) -> Vec<PairingStats> {
        self.pairs()
            .into_iter()
            .map(|(a, b)| {
                let wdl = self.wdl(&a, &b);
                let colour = super::stats::chi_square(&self.colour_table(&a, &b));
                PairingStats { elo: super::stats::elo_interval(wdl), los: super::stats::los(wdl), colour, wdl, a, b }
            })
            .collect()
    }

    /// Every ordered pair of players that met, with the row player's results and draw detail
    /// (Tables 3.2-3.4).
    fn opponent_rows(&self) -> Vec<(&String, &String, Wdl, DrawDetail)> {
        let mut rows = Vec::new();
        for a in &self.players {
            for b in self.players.iter().filter(|b| *b != a) {
                let w = self.wdl(a, b);
                if w.games() > 0 {
                    rows.push((a, b, w, self.draw_detail_vs(a, Some(b))));
                }
            }
        }
        rows
    }

    /// Every ordered pair whose row player's agents kept counters, with those counters summed.
    fn counter_rows(&self) -> Vec<(&String, &String, Counters)> {
        let mut rows = Vec::new();
        for a in &self.players {
            for b in self.players.iter().filter(|b| *b != a) {
                let c = self.counter_total(a, Some(b));
                if c.decisions > 0 {
                    rows.push((a, b, c));
                }
            }
        }
        rows
    }
}

/// Does `side` have material to mate a bare king with, after `ply` plies of game `g`?
fn mating_material_at(g: &GameRecord, ply: usize, side: Color) -> bool {
    let Ok(mut pos) = crate::board::Position::from_fen(&g.start_fen) else { return false };
    for &mv in &g.moves[..ply.min(g.moves.len())] {
        pos = pos.play(mv);
    }
    use crate::board::Piece;
    let count = |p: Piece| pos.pieces(side, p).count();
    let minors = count(Piece::Knight) + count(Piece::Bishop);
    count(Piece::Queen) + count(Piece::Rook) + count(Piece::Pawn) > 0 || (minors >= 2 && count(Piece::Bishop) >= 1)
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
            fault: None,
        }
    }

    /// `n` games of `a` against `b` (colours alternating) with `a` winning `w`, losing `l` and
    /// drawing the rest, the first `dw` draws with `b` left a bare king, the next `dl` with `a`.
    fn games(a: &str, b: &str, (w, l, d): (usize, usize, usize), (dw, dl): (usize, usize)) -> Vec<GameRecord> {
        (0..w + l + d)
            .map(|i| {
                let (white, black) = if i % 2 == 0 { (a, b) } else { (b, a) };
                let colour_of = |p: &str| if p == white { Color::White } else { Color::Black };
                let (termination, bare) = if i < w {
                    (Termination::Rules(Outcome::Checkmate { winner: colour_of(a) }), None)
                } else if i < w + l {
                    (Termination::Rules(Outcome::Checkmate { winner: colour_of(b) }), None)
                } else {
                    let k = i - w - l;
                    let bare = if k < dw {
                        Some(colour_of(b))
                    } else if k < dw + dl {
                        Some(colour_of(a))
                    } else {
                        None
                    };
                    (Termination::Rules(Outcome::FiftyMoves), bare)
                };
                let mut g = record(white, black, termination, bare);
                g.index = i;
                g
            })
            .collect()
    }

    /// Bare-king conversion counts the games where the opponent was bared while the player
    /// could still mate (a rook counts, a lone knight does not) and, of those, the ones it won
    /// by mate; the opponent's own bare king games do not count for it.
    #[test]
    fn bare_king_conversion_counts_games_with_mating_material() {
        let start = |fen: &str, white: &str, black: &str, termination, bare| {
            let mut g = record(white, black, termination, Some(bare));
            g.start_fen = fen.to_string();
            g.bare_king = Some((bare, 0));
            g
        };
        let krk = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
        let knk = "8/8/8/4k3/8/8/8/1N2K3 w - - 0 1";
        let mate_white = Termination::Rules(Outcome::Checkmate { winner: Color::White });
        let games = vec![
            start(krk, "a", "b", mate_white, Color::Black),
            start(krk, "a", "b", Termination::Rules(Outcome::FiftyMoves), Color::Black),
            start(knk, "a", "b", Termination::Rules(Outcome::InsufficientMaterial), Color::Black),
            // b is the one bared here: a's conversion does not count it, b has nothing to mate with.
            start(
                "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
                "b",
                "a",
                Termination::Rules(Outcome::InsufficientMaterial),
                Color::White,
            ),
        ];
        let players = ["a".to_string(), "b".to_string()];
        let r = Report::new(&players, &games);
        assert_eq!(r.bare_king_conversion("a"), (1, 2));
        assert_eq!(r.bare_king_conversion("b"), (0, 0));
        let text = r.conversion_text();
        assert!(text.contains("a                          1    2   50.0%"), "{text}");
        assert!(!text.contains("\nb "), "{text}");
    }

    /// A cell equal to the thesis's agrees with p = 1; the same counts the other way round
    /// differ; cells of players who did not play are listed as not reproduced; a pairing that
    /// two tables print is compared once, under both.
    #[test]
    fn fidelity_compares_each_cell_with_the_thesis() {
        let players = ["level:3".to_string(), "level:7".to_string(), "level:6".to_string()];
        // Thesis, Table 3.1: level 3 against level 7 11-48-41; Table 3.2: level 7's draw
        // wins and losses against level 3, 10 and 17 of 41.
        let mut all = games("level:3", "level:7", (11, 48, 41), (17, 10));
        all.extend(games("level:7", "level:6", (11, 48, 41), (0, 0)));
        let report = Report::new(&players, &all).compare_with_thesis(Crafty::default());
        let f = report.fidelity();
        assert_eq!(f.results.len(), 2);
        let same = f.results.iter().find(|c| c.player == "level:3").unwrap();
        assert_eq!(
            (same.against.as_str(), same.thesis.as_slice(), same.ours.as_slice()),
            ("level:7", &[11, 48, 41][..], &[11, 48, 41][..])
        );
        assert!((same.p - 1.0).abs() < 1e-9 && !same.differs());
        // Table 3.1 has level 6 against level 7 at 21-24-55: ours is 48-11-41 from level 6's side.
        // The exact p, summed over the 2 x 3 tables by an independent script (Python's
        // math.comb): 1.45117e-4.
        let other = f.result_cell("level:7", "level:6").unwrap().0;
        assert_eq!((other.player.as_str(), other.ours.as_slice()), ("level:6", &[48, 11, 41][..]));
        assert!(other.differs() && (other.p - 1.451_168e-4).abs() < 1e-9, "{}", other.p);
        // Holm over two cells: the smaller p doubled.
        assert!((other.p_holm - (2.0 * other.p).min(1.0)).abs() < 1e-12);
        // Draw detail: level 7 against level 3 (Table 3.2) matches exactly; level 7 against
        // level 6 is printed in Tables 3.2 and 3.4 and compared once.
        let d = f.draws.iter().find(|c| c.against == "level:3").unwrap();
        assert_eq!(
            (d.player.as_str(), d.thesis.as_slice(), d.ours.as_slice()),
            ("level:7", &[10, 17, 14][..], &[10, 17, 14][..])
        );
        let both = f.draws.iter().find(|c| c.against == "level:6" || c.player == "level:6").unwrap();
        assert_eq!(both.source, "Tables 3.2, 3.4");
        assert_eq!(f.draws.len(), 2);
        assert!(f.missing.iter().any(|m| m == "Table 3.1: Level 1 vs Level 2"), "{:?}", f.missing);
        assert!(f.suites.is_empty());
        let text = report.fidelity_text(&f);
        assert!(
            text.contains("2 cells compared (exact test of the two rows), 1 differ significantly, 1 agree"),
            "{text}"
        );
        assert!(text.contains("level:6 vs level:7"), "{text}");
    }

    /// Draw wins and draw losses are told apart by who was left with a bare king first, from
    /// each player's side, and only in drawn games.
    #[test]
    fn draw_wins_and_losses_by_opponent() {
        let draw = Termination::Rules(Outcome::FiftyMoves);
        let games = vec![
            record("a", "b", draw, Some(Color::Black)), // b bare: a draw win for a
            record("b", "a", draw, Some(Color::White)), // b bare again
            record("a", "b", draw, Some(Color::White)), // a bare: a draw loss for a
            record("a", "b", draw, None),
            record("a", "c", draw, Some(Color::Black)), // against c
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

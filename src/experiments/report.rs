//! Tables, curves and charts from finished games: the thesis's Table 3.1 matrix, a Table 3.2
//! row per player, per-pairing statistics, material curves and the agents' counters.

use super::game::{GameRecord, Termination};
use super::formats::{json_num, json_str};
use super::stats::{chi_square, elo_interval, los, Wdl};
use super::svg::svg_chart;
pub use super::formats::csv_field;
use crate::agents::{CounterLog, Counters};
use crate::board::{Color, Outcome};
use std::fmt::Write;

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

    /// Table 3.1: wins/losses/draws of each row player against each column player.
    pub fn matrix_text(&self) -> String {
        let w = self.players.iter().map(|p| p.len()).max().unwrap_or(4).max(8);
        let mut s = String::new();
        let _ = write!(s, "{:w$}", "W/L/D");
        for p in &self.players {
            let _ = write!(s, " {p:>12}");
        }
        s.push('\n');
        for a in &self.players {
            let _ = write!(s, "{a:w$}");
            for b in &self.players {
                let r = self.wdl(a, b);
                if a == b || r.games() == 0 {
                    let _ = write!(s, " {:>12}", "-");
                } else {
                    let _ = write!(s, " {:>12}", format!("{}/{}/{}", r.wins, r.losses, r.draws));
                }
            }
            s.push('\n');
        }
        s
    }

    pub fn players_text(&self) -> String {
        let mut s = String::from("player                 games  wins losses draws  score  stalemate repetition fifty insufficient cap draw-wins\n");
        for a in &self.players {
            let t = self.total(a);
            let d = self.draw_detail(a);
            let _ = writeln!(
                s,
                "{a:<22} {:>5} {:>5} {:>6} {:>5} {:>6.3} {:>10} {:>10} {:>5} {:>12} {:>3} {:>9}",
                t.games(), t.wins, t.losses, t.draws, t.score(), d.stalemate, d.repetition, d.fifty_moves, d.insufficient, d.move_cap, d.draw_wins
            );
        }
        s
    }

    /// The thesis's Tables 3.2-3.4: each player's results against each opponent, with the draws
    /// in which the opponent (draw wins) or the player (draw losses) was first left with a bare
    /// king, as counts and as shares of the draws.
    pub fn draws_text(&self) -> String {
        let mut s = format!(
            "{:<44} {:>5} {:>6} {:>5} {:>9} {:>11} {:>6} {:>6}\n",
            "player vs opponent", "wins", "losses", "draws", "draw-wins", "draw-losses", "dw%", "dl%"
        );
        for a in &self.players {
            for b in self.players.iter().filter(|b| *b != a) {
                let w = self.wdl(a, b);
                if w.games() == 0 {
                    continue;
                }
                let d = self.draw_detail_vs(a, Some(b));
                let pct = |n: u32| format!("{:.0}%", 100.0 * mean_per_game(n, w.draws));
                let _ = writeln!(
                    s,
                    "{:<44} {:>5} {:>6} {:>5} {:>9} {:>11} {:>6} {:>6}",
                    format!("{a} vs {b}"),
                    w.wins,
                    w.losses,
                    w.draws,
                    d.draw_wins,
                    d.draw_losses,
                    pct(d.draw_wins),
                    pct(d.draw_losses)
                );
            }
        }
        s
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

    pub fn pairings_text(&self) -> String {
        let mut s = String::from("pairing                                      W-D-L      score   Elo [95% interval]        LOS   chi2(colour) df  p\n");
        for (a, b) in self.pairs() {
            let w = self.wdl(&a, &b);
            let (e, lo, hi) = elo_interval(w);
            let (chi, df, p) = chi_square(&self.colour_table(&a, &b));
            let _ = writeln!(
                s,
                "{:<44} {:>3}-{}-{:<4} {:>6.3} {:>7.1} [{:>7.1}, {:>7.1}] {:>6.3} {:>10.3} {:>3} {:.3}",
                format!("{a} vs {b}"), w.wins, w.draws, w.losses, w.score(), e, lo, hi, los(w), chi, df, p
            );
        }
        s
    }

    pub fn counters_text(&self) -> String {
        let mut s = String::from("player vs opponent                          atk-req-rounds atk-req-done moved-itself def-req-used ma-planned ma-performed captured incorrect\n");
        for a in &self.players {
            for b in &self.players {
                if a == b {
                    continue;
                }
                let c = |f: fn(&Counters) -> u32| self.counter_sum(a, b, f);
                if c(|x| x.decisions) == 0 {
                    continue;
                }
                let _ = writeln!(
                    s,
                    "{:<44} {:>14} {:>12} {:>12} {:>12} {:>10} {:>12} {:>8} {:>9}",
                    format!("{a} vs {b}"),
                    c(|x| x.attack_request_rounds),
                    c(|x| x.attack_requests_performed),
                    c(|x| x.threatened_moved_itself),
                    c(|x| x.defense_requests_used),
                    c(|x| x.move_attacks_planned),
                    c(|x| x.move_attacks_performed),
                    c(|x| x.own_pieces_captured),
                    c(|x| x.incorrect_threats),
                );
            }
        }
        s
    }

    /// Writes every table and curve as CSV, a JSON summary, SVG charts and the PGN.
    /// `comments`: the PGN's moves carry the players' reasons.
    pub fn write_all(&self, dir: &std::path::Path, event: &str, comments: bool) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let date = super::pgn::today();
        let mut pgn = String::new();
        for g in self.games {
            let text = if comments { super::pgn::to_pgn_commented(g, event, &date) } else { super::pgn::to_pgn(g, event, &date) };
            pgn.push_str(&text);
        }
        std::fs::write(dir.join("games.pgn"), pgn)?;

        let mut m = String::from("row,column,wins,losses,draws,draw_wins,draw_losses\n");
        let mut pairs = String::from("a,b,wins,draws,losses,score,elo,elo_low,elo_high,los,chi2,df,p\n");
        let mut curve = String::from("a,b,move,mean_material_diff,share_running\n");
        let mut counters = format!("player,opponent,{}\n", Counters::NAMES.join(","));
        let mut json_pairs = Vec::new();
        for a in &self.players {
            for b in &self.players {
                if a == b {
                    continue;
                }
                let w = self.wdl(a, b);
                let (ca, cb) = (csv_field(a), csv_field(b));
                let d = self.draw_detail_vs(a, Some(b));
                let _ = writeln!(m, "{ca},{cb},{},{},{},{},{}", w.wins, w.losses, w.draws, d.draw_wins, d.draw_losses);
                let _ = writeln!(counters, "{ca},{cb},{}", csv_values(&self.counter_total(a, Some(b))));
            }
        }
        let mut svg_series = Vec::new();
        for (a, b) in self.pairs() {
            let w = self.wdl(&a, &b);
            let (e, lo, hi) = elo_interval(w);
            let (chi, df, p) = chi_square(&self.colour_table(&a, &b));
            let (ca, cb) = (csv_field(&a), csv_field(&b));
            let _ = writeln!(pairs, "{ca},{cb},{},{},{},{:.4},{e:.2},{lo:.2},{hi:.2},{:.4},{chi:.4},{df},{p:.4}", w.wins, w.draws, w.losses, w.score(), los(w));
            json_pairs.push(format!(
                "{{\"a\":{},\"b\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{:.4},\"elo\":{},\"los\":{:.4},\"chi2\":{chi:.4},\"df\":{df},\"p\":{p:.4}}}",
                json_str(&a), json_str(&b), w.wins, w.draws, w.losses, w.score(), json_num(e), los(w)
            ));
            let cv = self.material_curve(&a, &b);
            for (mv, diff, share) in &cv {
                let _ = writeln!(curve, "{ca},{cb},{mv},{diff:.2},{share:.4}");
            }
            svg_series.push((format!("{a} vs {b}"), cv));
        }
        std::fs::write(dir.join("matrix.csv"), m)?;
        std::fs::write(dir.join("pairings.csv"), pairs)?;
        std::fs::write(dir.join("material.csv"), curve)?;
        std::fs::write(dir.join("counters.csv"), counters)?;
        let players_json: Vec<String> = self.players.iter().map(|p| {
            let t = self.total(p);
            let d = self.draw_detail(p);
            format!("{{\"player\":{},\"wins\":{},\"losses\":{},\"draws\":{},\"draw_wins\":{},\"stalemate\":{},\"repetition\":{},\"fifty_moves\":{},\"insufficient\":{}}}", json_str(p), t.wins, t.losses, t.draws, d.draw_wins, d.stalemate, d.repetition, d.fifty_moves, d.insufficient)
        }).collect();
        std::fs::write(
            dir.join("results.json"),
            format!("{{\"games\":{},\"players\":[{}],\"pairings\":[{}]}}\n", self.games.len(), players_json.join(","), json_pairs.join(",")),
        )?;
        std::fs::write(dir.join("material.svg"), svg_chart("Mean material difference (row player) by move", &svg_series, |p| p.1))?;
        std::fs::write(dir.join("running.svg"), svg_chart("Share of games still running by move", &svg_series, |p| p.2))?;
        self.write_counter_curves(dir)?;
        std::fs::write(dir.join("summary.txt"), self.summary())?;
        Ok(())
    }

    /// Players whose agents kept counters.
    fn agent_players(&self) -> Vec<&String> {
        self.players.iter().filter(|p| self.logs(p, None).next().is_some()).collect()
    }

    /// The counters by move number: a CSV per pairing, and per player (all opponents) the
    /// charts of Figure 3.3 (attack requests performed against the times the worst threatened
    /// agent moved itself) and Figure 3.5 (incorrect threats per game still running).
    fn write_counter_curves(&self, dir: &std::path::Path) -> std::io::Result<()> {
        let mut csv = format!("player,opponent,move,{}\n", Counters::NAMES.join(","));
        for a in self.agent_players() {
            for b in self.players.iter().filter(|b| *b != a) {
                for (i, c) in self.counter_curve(a, Some(b)).iter().enumerate() {
                    let _ = writeln!(csv, "{},{},{},{}", csv_field(a), csv_field(b), i + 1, csv_values(c));
                }
            }
        }
        std::fs::write(dir.join("counters_by_move.csv"), csv)?;
        std::fs::write(dir.join("curves.json"), self.curves_json())?;

        let mut requests = Vec::new();
        let mut threats = Vec::new();
        for a in self.agent_players() {
            let curve = self.counter_curve(a, None);
            let points = |f: &dyn Fn(&Counters) -> f64| -> Vec<(usize, f64, f64)> {
                curve.iter().enumerate().map(|(i, c)| (i + 1, f(c), 0.0)).collect()
            };
            if curve.iter().any(|c| c.attack_request_rounds > 0) {
                requests.push((format!("{a}: attack request performed"), points(&|c| c.attack_requests_performed as f64)));
                requests.push((format!("{a}: threatened agent moved itself"), points(&|c| c.threatened_moved_itself as f64)));
            }
            threats.push((a.to_string(), points(&|c| mean_per_game(c.incorrect_threats, c.decisions))));
        }
        std::fs::write(
            dir.join("attack_requests.svg"),
            svg_chart("Attack requests by move: performed vs threatened agent moved itself (all games)", &requests, |p| p.1),
        )?;
        std::fs::write(
            dir.join("incorrect_threats.svg"),
            svg_chart("Incorrect threats by move (mean per game still running)", &threats, |p| p.1),
        )?;
        Ok(())
    }

    /// Every curve as JSON, for tools that prefer it to the CSVs: per ordered pairing (row
    /// player first) the material curve and the row player's agents' counters by move.
    pub fn curves_json(&self) -> String {
        let mut entries = Vec::new();
        for a in &self.players {
            for b in self.players.iter().filter(|b| *b != a) {
                if self.involving(a, b).next().is_none() {
                    continue;
                }
                let material: Vec<String> = self
                    .material_curve(a, b)
                    .iter()
                    .map(|(mv, diff, share)| format!("{{\"move\":{mv},\"mean_material_diff\":{},\"share_running\":{share:.4}}}", json_num(*diff)))
                    .collect();
                let counters: Vec<String> = self
                    .counter_curve(a, Some(b))
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let fields: Vec<String> =
                            Counters::NAMES.iter().zip(c.values()).map(|(name, v)| format!("\"{name}\":{v}")).collect();
                        format!("{{\"move\":{},{}}}", i + 1, fields.join(","))
                    })
                    .collect();
                entries.push(format!(
                    "{{\"player\":{},\"opponent\":{},\"material\":[{}],\"counters_by_move\":[{}]}}",
                    json_str(a), json_str(b), material.join(","), counters.join(",")
                ));
            }
        }
        format!("{{\"pairings\":[{}]}}\n", entries.join(",\n"))
    }

    /// Which of the MasterAgent's rules chose the moves, per player over all its games: the
    /// share of decisions taken by the general choice's attack or move, by the worst threatened
    /// agent itself, and by an attack or defense request answer.
    pub fn rules_text(&self) -> String {
        let mut s = format!(
            "{:<28} {:>9} {:>8} {:>8} {:>11} {:>9} {:>9} {:>9}\n",
            "player", "decisions", "attack", "move", "threatened", "atk-req", "def-req", "dc-fallbk"
        );
        for a in self.agent_players() {
            let c = self.counter_total(a, None);
            let pct = |n: u32| format!("{:.1}%", 100.0 * mean_per_game(n, c.decisions));
            let _ = writeln!(
                s,
                "{:<28} {:>9} {:>8} {:>8} {:>11} {:>9} {:>9} {:>9}",
                a,
                c.decisions,
                pct(c.rule_attack),
                pct(c.rule_move),
                pct(c.rule_threatened_agent),
                pct(c.attack_requests_performed),
                pct(c.defense_requests_used),
                c.defense_consideration_fallbacks
            );
        }
        s
    }

    /// Figures 3.3 and 3.5 in numbers: per player (all opponents), by stretches of ten moves.
    pub fn counters_by_move_text(&self) -> String {
        const STRETCHES: [(usize, usize); 6] = [(1, 10), (11, 20), (21, 30), (31, 40), (41, 60), (61, usize::MAX)];
        let mut s = format!("{:<28}", "moves");
        for (lo, hi) in STRETCHES {
            let label = if hi == usize::MAX { format!("{lo}+") } else { format!("{lo}-{hi}") };
            let _ = write!(s, " {label:>17}");
        }
        s.push_str("\n  (attack requests performed / threatened agent moved itself; incorrect threats per game)\n");
        for a in self.agent_players() {
            let curve = self.counter_curve(a, None);
            let stretch = |lo: usize, hi: usize| {
                curve.iter().enumerate().filter(|(i, _)| (lo..=hi).contains(&(i + 1))).fold(Counters::default(), |acc, (_, c)| acc.add(c))
            };
            let mut requests = format!("{:<28}", format!("{a} requests"));
            let mut threats = format!("{:<28}", format!("{a} incorrect"));
            for (lo, hi) in STRETCHES {
                let c = stretch(lo, hi);
                let _ = write!(requests, " {:>17}", format!("{}/{}", c.attack_requests_performed, c.threatened_moved_itself));
                let _ = write!(threats, " {:>17.3}", mean_per_game(c.incorrect_threats, c.decisions));
            }
            if curve.iter().any(|c| c.attack_request_rounds > 0) {
                let _ = writeln!(s, "{requests}");
            }
            let _ = writeln!(s, "{threats}");
        }
        s
    }

    pub fn summary(&self) -> String {
        format!(
            "Games: {}\n\nTable 3.1 (wins/losses/draws of row vs column)\n{}\nPer player (Table 3.2 layout)\n{}\nPer opponent, with draw wins and losses (Tables 3.2-3.4)\n{}\nPairings\n{}\nAgent counters (row player's agents)\n{}\nDecisions by rule (all games)\n{}\nBy move number (Figures 3.3, 3.5)\n{}",
            self.games.len(),
            self.matrix_text(),
            self.players_text(),
            self.draws_text(),
            self.pairings_text(),
            self.counters_text(),
            self.rules_text(),
            self.counters_by_move_text()
        )
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

//! The report as files: CSV and JSON of every table and curve, SVG charts, the PGN and the
//! summary, written to one output folder.

use super::{csv_values, mean_per_game, Report};
use crate::agents::Counters;
use crate::experiments::formats::{csv_field, json_num, json_str};
use crate::experiments::stats::{chi_square, elo_interval, los};
use crate::experiments::svg::svg_chart;
use std::fmt::Write;

impl Report<'_> {
    /// Writes every table and curve as CSV, a JSON summary, SVG charts and the PGN.
    /// `comments`: the PGN's moves carry the players' reasons.
    pub fn write_all(&self, dir: &std::path::Path, event: &str, comments: bool) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let date = crate::experiments::pgn::today();
        let mut pgn = String::new();
        for g in self.games {
            let text = if comments { crate::experiments::pgn::to_pgn_commented(g, event, &date) } else { crate::experiments::pgn::to_pgn(g, event, &date) };
            pgn.push_str(&text);
        }
        std::fs::write(dir.join("games.pgn"), pgn)?;

        let mut m = String::from("row,column,wins,losses,draws,draw_wins,draw_losses\n");
        let mut pairs = String::from("a,b,wins,losses,draws,score,elo,elo_low,elo_high,los,chi2,df,p\n");
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
            let _ = writeln!(pairs, "{ca},{cb},{},{},{},{:.4},{e:.2},{lo:.2},{hi:.2},{:.4},{chi:.4},{df},{p:.4}", w.wins, w.losses, w.draws, w.score(), los(w));
            json_pairs.push(format!(
                "{{\"a\":{},\"b\":{},\"wins\":{},\"losses\":{},\"draws\":{},\"score\":{:.4},\"elo\":{},\"elo_low\":{},\"elo_high\":{},\"los\":{:.4},\"chi2\":{chi:.4},\"df\":{df},\"p\":{p:.4}}}",
                json_str(&a), json_str(&b), w.wins, w.losses, w.draws, w.score(), json_num(e), json_num(lo), json_num(hi), los(w)
            ));
            let cv = self.material_curve(&a, &b);
            for (mv, diff, share) in &cv {
                let _ = writeln!(curve, "{ca},{cb},{mv},{diff:.2},{share:.4}");
            }
            svg_series.push((format!("{a} vs {b}"), cv));
        }
        std::fs::write(dir.join("games.csv"), self.games_csv())?;
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

    /// One row per game, for analysis tools that would rather not parse PGN: who played, the
    /// result and why, its length, the side first left with a bare king, the final material
    /// balance and the seed that replays it.
    pub fn games_csv(&self) -> String {
        let mut s = String::from("game,white,black,result,termination,plies,bare_king_first,bare_king_ply,final_material,seed,start_fen\n");
        for g in self.games {
            let (bare, bare_ply) = match g.bare_king {
                Some((c, ply)) => (if c == crate::board::Color::White { "white" } else { "black" }, ply.to_string()),
                None => ("", String::new()),
            };
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{bare},{bare_ply},{},{},{}",
                g.index + 1,
                csv_field(&g.white),
                csv_field(&g.black),
                g.result(),
                csv_field(&g.termination.describe()),
                g.moves.len(),
                g.material.last().copied().unwrap_or(0),
                g.seed,
                csv_field(&g.start_fen)
            );
        }
        s
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
}

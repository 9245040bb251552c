//! The report as text: the tables of the stdout summary, laid out as the thesis's tables are.

use super::fidelity::{Comparison, Family, Fidelity};
use super::{Report, mean_per_game};
use crate::agents::Counters;
use crate::experiments::ratings::RatingList;
use crate::experiments::stats::elo_text;
use crate::experiments::suite::table_lines;
use std::fmt::Write;

impl Report<'_> {
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

    /// One line per player with bare-king games: mated of such games, and the share.
    pub fn conversion_text(&self) -> String {
        let mut s = String::from("player                 mated  of   share\n");
        for a in &self.players {
            let (mated, games) = self.bare_king_conversion(a);
            if games > 0 {
                let _ = writeln!(s, "{a:<22} {mated:>5} {games:>4} {:>6.1}%", 100.0 * mated as f64 / games as f64);
            }
        }
        s
    }

    pub fn players_text(&self) -> String {
        let mut s = String::from(
            "player                 games  wins losses draws  score  stalemate repetition fifty insufficient cap draw-wins\n",
        );
        for a in &self.players {
            let t = self.total(a);
            let d = self.draw_detail(a);
            let _ = writeln!(
                s,
                "{a:<22} {:>5} {:>5} {:>6} {:>5} {:>6.3} {:>10} {:>10} {:>5} {:>12} {:>3} {:>9}",
                t.games(),
                t.wins,
                t.losses,
                t.draws,
                t.score(),
                d.stalemate,
                d.repetition,
                d.fifty_moves,
                d.insufficient,
                d.move_cap,
                d.draw_wins
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
        for (a, b, w, d) in self.opponent_rows() {
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
        s
    }

    pub fn pairings_text(&self) -> String {
        let mut s = String::from(
            "pairing                                      W-L-D      score   Elo [95% interval]        LOS   chi2(colour) df  p\n",
        );
        for st in self.pairing_stats() {
            let (w, (e, lo, hi), (chi, df, p)) = (st.wdl, st.elo, st.colour);
            let _ = writeln!(
                s,
                "{:<44} {:<10} {:>6.3} {:<27} {:>6.3} {:>10.3} {:>3} {:.3}",
                format!("{} vs {}", st.a, st.b),
                format!("{}-{}-{}", w.wins, w.losses, w.draws),
                w.score(),
                elo_text(e, lo, hi),
                st.los,
                chi,
                df,
                p
            );
        }
        s
    }

    pub fn counters_text(&self) -> String {
        let mut s = String::from(
            "player vs opponent                          atk-req-rounds atk-req-done moved-itself def-req-used ma-planned ma-performed captured incorrect\n",
        );
        for (a, b, c) in self.counter_rows() {
            let _ = writeln!(
                s,
                "{:<44} {:>14} {:>12} {:>12} {:>12} {:>10} {:>12} {:>8} {:>9}",
                format!("{a} vs {b}"),
                c.attack_request_rounds,
                c.attack_requests_performed,
                c.threatened_moved_itself,
                c.defense_requests_used,
                c.move_attacks_planned,
                c.move_attacks_performed,
                c.own_pieces_captured,
                c.incorrect_threats,
            );
        }
        s
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
                curve
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| (lo..=hi).contains(&(i + 1)))
                    .fold(Counters::default(), |acc, (_, c)| acc.add(c))
            };
            let mut requests = format!("{:<28}", format!("{a} requests"));
            let mut threats = format!("{:<28}", format!("{a} incorrect"));
            for (lo, hi) in STRETCHES {
                let c = stretch(lo, hi);
                let _ = write!(
                    requests,
                    " {:>17}",
                    format!("{}/{}", c.attack_requests_performed, c.threatened_moved_itself)
                );
                let _ = write!(threats, " {:>17.3}", mean_per_game(c.incorrect_threats, c.decisions));
            }
            if curve.iter().any(|c| c.attack_request_rounds > 0) {
                let _ = writeln!(s, "{requests}");
            }
            let _ = writeln!(s, "{threats}");
        }
        s
    }

    /// The rating list, strongest first, and the likelihood of superiority of every pair.
    pub fn ratings_text(&self, r: &RatingList) -> String {
        let order = r.ranking();
        let w = self.players.iter().map(|p| p.len()).max().unwrap_or(6).max(6);
        let mut s = format!(
            "{:>4} {:<w$} {:>8}  {:<20} {:>6} {:>6}\n",
            "rank", "player", "Elo", "[95% interval]", "games", "score"
        );
        for (rank, &i) in order.iter().enumerate() {
            let score = 100.0 * r.points[i] / r.games[i].max(1) as f64;
            let (lo, hi) = r.interval(i);
            let (elo, interval) = if r.elo[i].is_nan() {
                ("unrated".to_string(), "(no games linking it to the anchor)".to_string())
            } else if r.elo[i].is_infinite() {
                (
                    format!("{}inf", if r.elo[i] > 0.0 { "+" } else { "-" }),
                    format!("(every game {})", if r.elo[i] > 0.0 { "won" } else { "lost" }),
                )
            } else if i == r.anchor {
                (format!("{:+.1}", r.elo[i]), "(anchor)".to_string())
            } else {
                (format!("{:+.1}", r.elo[i]), format!("[{lo:+.1}, {hi:+.1}]"))
            };
            let _ = writeln!(
                s,
                "{:>4} {:<w$} {elo:>8}  {interval:<20} {:>6} {score:>5.1}%",
                rank + 1,
                r.players[i],
                r.games[i]
            );
        }
        if !r.converged {
            s.push_str("(the fit did not converge: a group of players won every game against the rest)\n");
        }
        let _ = writeln!(s, "\nLikelihood of superiority, % (row stronger than column; columns by rank)");
        let _ = write!(s, "{:>4} {:<w$}", "", "");
        for rank in 1..=order.len() {
            let _ = write!(s, " {rank:>5}");
        }
        s.push('\n');
        for (rank, &i) in order.iter().enumerate() {
            let _ = write!(s, "{:>4} {:<w$}", rank + 1, r.players[i]);
            for &j in &order {
                let cell = if i == j { "-".to_string() } else { los_percent(r.los(i, j)) };
                let _ = write!(s, " {cell:>5}");
            }
            s.push('\n');
        }
        s
    }

    /// Where our run departs from the thesis, family by family: the cells that differ
    /// significantly (Holm-corrected, 5%), then the untested counts and figure readings.
    pub fn fidelity_text(&self, f: &Fidelity) -> String {
        let mut s = String::new();
        for (family, cells) in f.families() {
            let differ: Vec<&Comparison> = cells.iter().filter(|c| c.differs()).collect();
            let test = if family == Family::Suites {
                "binomial test against the thesis's share"
            } else {
                "exact test of the two rows"
            };
            let _ = writeln!(
                s,
                "{}: {} cells compared ({test}), {} differ significantly, {} agree",
                family.title(),
                cells.len(),
                differ.len(),
                cells.len() - differ.len()
            );
            if differ.is_empty() {
                continue;
            }
            let _ = writeln!(
                s,
                "  {:<36} {:<10} {:>16} {:>22} {:>10} {:>10}",
                "cell", "table", "thesis", "ours (per thesis n)", "p", "p (Holm)"
            );
            let mut sorted = differ;
            sorted.sort_by(|a, b| a.p.total_cmp(&b.p));
            for c in sorted {
                let _ = writeln!(
                    s,
                    "  {:<36} {:<10} {:>16} {:>22} {:>10.2e} {:>10.2e}",
                    format!("{} vs {}", c.player, c.against),
                    c.source.trim_start_matches("Tables ").trim_start_matches("Table "),
                    counts_text(&c.thesis),
                    c.ours_scaled_text(),
                    c.p,
                    c.p_holm
                );
            }
        }
        if !f.counts.is_empty() {
            let _ = writeln!(
                s,
                "Tables 3.8 and 3.9, counts within games (not tested: no spread to test against), thesis / ours per 100 games:"
            );
            let mut cells: Vec<(&str, &str, &str)> = Vec::new();
            for c in &f.counts {
                if !cells.contains(&(c.source.as_str(), c.player.as_str(), c.against.as_str())) {
                    cells.push((&c.source, &c.player, &c.against));
                }
            }
            for (source, player, against) in cells {
                let values: Vec<String> = f
                    .counts
                    .iter()
                    .filter(|c| c.source == source && c.player == player && c.against == against)
                    .map(|c| format!("{} {:.0} / {:.1}", c.measure.replace('_', " "), c.thesis, c.ours_per_100()))
                    .collect();
                let _ = writeln!(s, "  {:<10} {:<36} {}", source, format!("{player} vs {against}"), values.join(", "));
            }
        }
        for r in &f.readings {
            let ours = r.ours.map_or("-".to_string(), |v| format!("{v:.2}"));
            let _ = writeln!(
                s,
                "{}, {} vs {}, {}: thesis about {}, ours {ours} (read from the text, not tested)",
                r.entry.source,
                r.player,
                r.against,
                r.entry.measure,
                r.entry.value.unwrap_or(f64::NAN)
            );
        }
        if !f.missing.is_empty() {
            let _ = writeln!(s, "Not reproduced here: {}", f.missing.join("; "));
        }
        s
    }

    pub fn summary(&self) -> String {
        let mut s = format!(
            "Games: {}\n\nTable 3.1 (wins/losses/draws of row vs column)\n{}\nPer player (Table 3.2 layout)\n{}\nPer opponent, with draw wins and losses (Tables 3.2-3.4)\n{}\nPairings\n{}\nRating list (maximum likelihood, logistic, draws half points; 95% intervals)\n{}\nAgent counters (row player's agents)\n{}\nDecisions by rule (all games)\n{}\nBy move number (Figures 3.3, 3.5)\n{}",
            self.games.len(),
            self.matrix_text(),
            self.players_text(),
            self.draws_text(),
            self.pairings_text(),
            self.ratings_text(&self.ratings()),
            self.counters_text(),
            self.rules_text(),
            self.counters_by_move_text()
        );
        let _ = write!(
            s,
            "\nBare-king conversion (opponent first left with a bare king, mating material kept: won by mate)\n{}",
            self.conversion_text()
        );
        if !self.suites.is_empty() {
            let _ =
                write!(s, "\nTable 3.10 (test suites: positions solved)\n{}\n", table_lines(&self.suites).join("\n"));
        }
        if self.thesis.is_some() {
            let _ = write!(
                s,
                "\nFidelity to the thesis (5% family-wise, Holm's correction within each table)\n{}",
                self.fidelity_text(&self.fidelity())
            );
        }
        s
    }
}

/// Counts of a cell as the thesis prints them: "11-48-41".
pub(super) fn counts_text(counts: &[u32]) -> String {
    counts.iter().map(u32::to_string).collect::<Vec<_>>().join("-")
}

/// A likelihood of superiority in whole percent, never rounded to a certainty it is not.
pub(super) fn los_percent(p: f64) -> String {
    if p.is_nan() {
        return "?".to_string();
    }
    // The normal approximation never reaches certainty; a rounded 100 would claim it.
    let pct = 100.0 * p;
    if pct > 99.5 {
        ">99".to_string()
    } else if pct < 0.5 {
        "<1".to_string()
    } else {
        format!("{pct:.0}")
    }
}

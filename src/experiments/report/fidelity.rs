//! Our run beside the thesis's chapter 3, cell by cell, with a test where the thesis gives a
//! sample to test against:
//!
//! - Table 3.1 (and the W/L/D columns of Tables 3.2-3.7, which repeat it): the exact test that
//!   the thesis's and our W/L/D of a pairing come from one distribution.
//! - Tables 3.2-3.7, draw detail: the same test on (draw wins, draw losses, other draws).
//! - Table 3.10: a two-sided binomial test of our solved count against the thesis's share.
//!
//! Each family's p-values are corrected with Holm's method for the number of cells compared, so
//! "differs" means significant at 5% family-wise. Tables 3.8 and 3.9 count events within games,
//! which are neither independent nor reported with a spread: they are set side by side (ours
//! per 100 games, as the thesis's 100 games) without a test, as are the few numbers the text
//! states about its figures.

use super::Report;
use crate::agents::Counters;
use crate::experiments::stats::{Wdl, binomial_test, exact_rows_test, holm};
use crate::experiments::thesis::{self, Crafty, Entry, entries};

/// The family-wise error rate of the verdicts.
pub const ALPHA: f64 = 0.05;

/// The families of tested cells; Holm's correction runs within each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Results,
    DrawDetail,
    Suites,
}

impl Family {
    pub fn title(self) -> &'static str {
        match self {
            Family::Results => "Table 3.1, results (wins, losses, draws of the row player)",
            Family::DrawDetail => "Tables 3.2-3.7, draw detail (draw wins, draw losses, other draws)",
            Family::Suites => "Table 3.10, test suites (solved, unsolved)",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Family::Results => "results",
            Family::DrawDetail => "draw_detail",
            Family::Suites => "suites",
        }
    }
}

/// One thesis cell beside ours, tested.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub family: Family,
    /// Where the thesis prints it: "Table 3.1", "Tables 3.2, 3.4".
    pub source: String,
    /// Our player (the row's side) and its opponent, or the suite.
    pub player: String,
    pub against: String,
    /// The counts compared, in the family's order.
    pub thesis: Vec<u32>,
    pub ours: Vec<u32>,
    pub p: f64,
    /// `p` after Holm's correction over the family.
    pub p_holm: f64,
}

impl Comparison {
    pub fn differs(&self) -> bool {
        self.p_holm < ALPHA
    }

    /// The share that sums a cell up: the score for results, the share of draws that were draw
    /// wins for the draw detail, the share solved for suites.
    pub fn summary_share(counts: &[u32], family: Family) -> f64 {
        let total: u32 = counts.iter().sum();
        if total == 0 {
            return f64::NAN;
        }
        match family {
            Family::Results => Wdl { wins: counts[0], losses: counts[1], draws: counts[2] }.score(),
            Family::DrawDetail | Family::Suites => counts[0] as f64 / total as f64,
        }
    }

    /// Our counts at the thesis's sample size, for reading them side by side ("26.5-10.7-62.8";
    /// whole numbers when the samples are the same size).
    pub fn ours_scaled_text(&self) -> String {
        let (t, o) = (self.thesis.iter().sum::<u32>(), self.ours.iter().sum::<u32>());
        if t == o || o == 0 {
            return self.ours.iter().map(u32::to_string).collect::<Vec<_>>().join("-");
        }
        self.ours.iter().map(|&c| format!("{:.1}", c as f64 * t as f64 / o as f64)).collect::<Vec<_>>().join("-")
    }
}

/// A count the thesis reports without a spread (Tables 3.8, 3.9), ours per 100 games beside it.
#[derive(Clone, Debug)]
pub struct Count {
    pub source: String,
    pub player: String,
    pub against: String,
    pub measure: String,
    pub thesis: f64,
    pub ours_total: u32,
    pub games: u32,
}

impl Count {
    pub fn ours_per_100(&self) -> f64 {
        if self.games == 0 { f64::NAN } else { 100.0 * self.ours_total as f64 / self.games as f64 }
    }
}

/// A number the thesis's text states about a figure, and ours measured the same way.
#[derive(Clone, Debug)]
pub struct Reading {
    pub entry: &'static Entry,
    pub player: String,
    pub against: String,
    pub ours: Option<f64>,
}

pub struct Fidelity {
    pub results: Vec<Comparison>,
    pub draws: Vec<Comparison>,
    pub suites: Vec<Comparison>,
    pub counts: Vec<Count>,
    pub readings: Vec<Reading>,
    /// What the text says about each figure, for the charts' captions.
    pub statements: Vec<&'static Entry>,
    /// Thesis cells this run has no counterpart for, one line per table and name.
    pub missing: Vec<String>,
}

impl Fidelity {
    pub fn families(&self) -> [(Family, &[Comparison]); 3] {
        [(Family::Results, &self.results), (Family::DrawDetail, &self.draws), (Family::Suites, &self.suites)]
    }

    /// The comparison of a Table 3.1 pairing, whichever way round it is asked for.
    pub fn result_cell(&self, a: &str, b: &str) -> Option<(&Comparison, bool)> {
        self.results.iter().find_map(|c| {
            if c.player == a && c.against == b {
                Some((c, false))
            } else if c.player == b && c.against == a {
                Some((c, true))
            } else {
                None
            }
        })
    }
}

fn with_holm(mut cells: Vec<Comparison>) -> Vec<Comparison> {
    let adjusted = holm(&cells.iter().map(|c| c.p).collect::<Vec<_>>());
    for (c, p) in cells.iter_mut().zip(adjusted) {
        c.p_holm = p;
    }
    cells
}

impl Report<'_> {
    /// A thesis player's name as one of ours that played in this run.
    fn ours(&self, name: &str) -> Option<String> {
        self.crafty().spec_of(name).filter(|s| self.players.contains(s))
    }

    /// Crafty's stand-ins of a comparison with the thesis (the searcher when there is none).
    pub(super) fn crafty(&self) -> Crafty {
        self.thesis.clone().unwrap_or_default()
    }

    pub fn fidelity(&self) -> Fidelity {
        let mut missing: Vec<String> = Vec::new();
        let mut miss = |source: &str, what: &str| {
            let line = format!("{source}: {what}");
            if !missing.contains(&line) {
                missing.push(line);
            }
        };
        let table = |e: &Entry| e.source.starts_with("Table");
        let mut results = Vec::new();
        for e in entries().iter().filter(|e| e.source == "Table 3.1" && e.measure == "wins") {
            let (Some(a), Some(b)) = (self.ours(&e.player), self.ours(&e.against)) else {
                miss(&e.source, &format!("{} vs {}", e.player, e.against));
                continue;
            };
            let (Some(t), o) = (thesis::wdl(&e.source, &e.player, &e.against), self.wdl(&a, &b)) else { continue };
            if o.games() == 0 {
                miss(&e.source, &format!("{} vs {}", e.player, e.against));
                continue;
            }
            let (tv, ov) = ([t.wins, t.losses, t.draws], [o.wins, o.losses, o.draws]);
            results.push(Comparison {
                family: Family::Results,
                source: e.source.clone(),
                player: a,
                against: b,
                thesis: tv.to_vec(),
                ours: ov.to_vec(),
                p: exact_rows_test(&tv, &ov),
                p_holm: 1.0,
            });
        }
        // The draw detail, once per pairing however many tables print it.
        let mut draws: Vec<Comparison> = Vec::new();
        for e in entries().iter().filter(|e| table(e) && e.measure == "draw_wins") {
            let (Some(a), Some(b)) = (self.ours(&e.player), self.ours(&e.against)) else {
                miss(&e.source, &format!("{} vs {}", e.player, e.against));
                continue;
            };
            if let Some(c) =
                draws.iter_mut().find(|c| (c.player == a && c.against == b) || (c.player == b && c.against == a))
            {
                let number = e.source.trim_start_matches("Table ");
                if !c.source.split([' ', ',']).any(|n| n == number) {
                    let listed = c.source.trim_start_matches("Tables ").trim_start_matches("Table ");
                    c.source = format!("Tables {listed}, {number}");
                }
                continue;
            }
            let n = |m: &str| thesis::value(&e.source, &e.player, &e.against, m).unwrap_or(0.0) as u32;
            let (dw, dl, d) = (n("draw_wins"), n("draw_losses"), n("draws"));
            let ours = self.wdl(&a, &b);
            if ours.games() == 0 {
                miss(&e.source, &format!("{} vs {}", e.player, e.against));
                continue;
            }
            let od = self.draw_detail_vs(&a, Some(&b));
            let tv = [dw, dl, d.saturating_sub(dw + dl)];
            let ov = [od.draw_wins, od.draw_losses, ours.draws.saturating_sub(od.draw_wins + od.draw_losses)];
            draws.push(Comparison {
                family: Family::DrawDetail,
                source: e.source.clone(),
                player: a,
                against: b,
                thesis: tv.to_vec(),
                ours: ov.to_vec(),
                p: exact_rows_test(&tv, &ov),
                p_holm: 1.0,
            });
        }
        let mut suites = Vec::new();
        for e in entries().iter().filter(|e| e.source == "Table 3.10" && e.measure == "solved") {
            let ours = self
                .crafty()
                .spec_of(&e.player)
                .and_then(|p| self.suites.iter().find(|s| s.player == p && s.suite.eq_ignore_ascii_case(&e.against)));
            let (Some(o), Some(t), Some(n)) = (ours, e.value, thesis::value(&e.source, "", &e.against, "positions"))
            else {
                let unmatched = if self.suites.iter().any(|s| s.suite.eq_ignore_ascii_case(&e.against)) {
                    e.player.clone()
                } else {
                    format!("suite {}", e.against)
                };
                miss(&e.source, &unmatched);
                continue;
            };
            let (t, n) = (t as u32, n as u32);
            let (solved, positions) = (o.solved as u32, o.positions as u32);
            suites.push(Comparison {
                family: Family::Suites,
                source: e.source.clone(),
                player: o.player.clone(),
                against: o.suite.clone(),
                thesis: vec![t, n - t],
                ours: vec![solved, positions - solved],
                p: binomial_test(solved, positions, t as f64 / n as f64),
                p_holm: 1.0,
            });
        }
        let mut counts = Vec::new();
        for e in entries()
            .iter()
            .filter(|e| matches!(e.source.as_str(), "Table 3.8" | "Table 3.9") && !e.measure.ends_with("_pct"))
        {
            let (Some(a), Some(b), Some(thesis)) = (self.ours(&e.player), self.ours(&e.against), e.value) else {
                miss(&e.source, &format!("{} vs {}", e.player, e.against));
                continue;
            };
            let field: fn(&Counters) -> u32 = match e.measure.as_str() {
                "defense_requests" => |c| c.defense_requests_used,
                "move_attacks_planned" => |c| c.move_attacks_planned,
                _ => |c| c.move_attacks_performed,
            };
            let games = self.wdl(&a, &b).games();
            counts.push(Count {
                source: e.source.clone(),
                player: a.clone(),
                against: b.clone(),
                measure: e.measure.clone(),
                thesis,
                ours_total: self.counter_sum(&a, &b, field),
                games,
            });
        }
        let readings = entries()
            .iter()
            .filter(|e| e.source.starts_with("Figure") && e.value.is_some())
            .filter_map(|e| {
                let (a, b) = (self.ours(&e.player)?, self.ours(&e.against)?);
                let ours = self.reading(&e.measure, &a, &b);
                Some(Reading { entry: e, player: a, against: b, ours })
            })
            .collect();
        let statements = entries().iter().filter(|e| e.measure == "statement").collect();
        Fidelity {
            results: with_holm(results),
            draws: with_holm(draws),
            suites: with_holm(suites),
            counts,
            readings,
            statements,
            missing,
        }
    }

    /// Our value of a number the thesis states about a figure.
    fn reading(&self, measure: &str, a: &str, b: &str) -> Option<f64> {
        match measure {
            // Figure 3.2: the share of the pairing's games over by move 100.
            "share_ended" => {
                let curve = self.material_curve(a, b);
                Some(curve.get(99).map_or(1.0, |p| 1.0 - p.2))
            }
            // Figure 3.5: incorrect threats per game still running over moves 1-2.
            "incorrect_threats_early" => {
                let curve = self.counter_curve(a, Some(b));
                let early = curve.iter().take(2).fold(Counters::default(), |acc, c| acc.add(c));
                (early.decisions > 0).then(|| early.incorrect_threats as f64 / early.decisions as f64)
            }
            _ => None,
        }
    }
}

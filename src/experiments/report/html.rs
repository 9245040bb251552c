//! The report as one HTML page: the fidelity verdicts (for `thesis`), the rating list, every
//! table (ours beside the thesis's where it has one), the charts and the counters, with links
//! to the files written beside it. Self-contained: inline CSS and SVG, no script, nothing
//! fetched; laid out for a 1280 px window and for paper.

use super::charts::MIN_RUNNING;
use super::fidelity::{ALPHA, Comparison, Family, Fidelity};
use super::text::{counts_text, los_percent};
use super::{Report, mean_per_game};
use crate::experiments::formats::xml_text;
use crate::experiments::ratings::RatingList;
use crate::experiments::stats::elo_text;
use crate::experiments::svg::Chart;
use crate::experiments::thesis;
use std::fmt::Write;

const STYLE: &str = "
body { font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #222; margin: 0 auto; max-width: 1260px; padding: 0 16px 40px; }
h1 { font-size: 26px; margin: 24px 0 4px; }
h2 { font-size: 20px; border-bottom: 1px solid #ccc; margin: 36px 0 8px; padding-bottom: 2px; }
h3 { font-size: 16px; margin: 20px 0 6px; }
p { max-width: 80em; }
nav ul { columns: 4; padding-left: 18px; margin: 6px 0; }
table { border-collapse: collapse; margin: 6px 0 14px; font-size: 13px; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
th, td { border: 1px solid #d8d8d8; padding: 3px 7px; text-align: right; vertical-align: top; }
th { background: #f2f2f2; }
thead th { text-align: center; }
.l { text-align: left; }
.scroll { overflow-x: auto; }
td.differs, tr.differs td { background: #fbe0df; }
td.agrees { background: #e4f3e8; }
.small { font-size: 12px; color: #555; }
.muted { color: #666; }
.side { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
.side figure { flex: 1 1 560px; margin-top: 6px; }
.summary { display: flex; gap: 14px; flex-wrap: wrap; margin: 8px 0 12px; }
.summary div { border: 1px solid #ccc; border-radius: 4px; padding: 8px 12px; min-width: 15em; }
.summary b { font-size: 20px; }
figure { margin: 10px 0 24px; }
figure svg { display: block; max-width: 100%; height: auto; }
.panels { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 6px 16px; }
.panels svg { width: 100%; break-inside: avoid; }
figcaption { font-size: 13px; color: #444; max-width: 80em; }
details.more > summary { font-size: 18px; font-weight: bold; cursor: pointer; margin: 28px 0 6px; }
blockquote { margin: 4px 0 4px 16px; color: #444; font-style: italic; }
@media print {
  body { max-width: none; font-size: 10pt; padding: 0; }
  nav { display: none; }
  h2 { break-after: avoid; }
  table, figure, .summary { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
  td.differs, tr.differs td, td.agrees, th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
";

/// HTML text: XML's escapes and quotes for attributes.
fn esc(s: &str) -> String {
    xml_text(s).replace('"', "&quot;")
}

/// A table: `head` and `rows` hold cell HTML; a cell starting with "<td" or "<th" is taken whole,
/// anything else is wrapped in a right-aligned cell. The first column is left-aligned.
fn table(id: &str, caption: &str, head: &[&str], rows: &[Vec<String>]) -> String {
    let mut s = format!("<div class=\"scroll\"><table id=\"{id}\">\n<caption>{}</caption>\n<thead><tr>", esc(caption));
    for (i, h) in head.iter().enumerate() {
        let _ = write!(s, "<th{}>{}</th>", if i == 0 { " class=\"l\"" } else { "" }, h);
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        s.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            if cell.starts_with("<td") || cell.starts_with("<th") {
                s.push_str(cell);
            } else if i == 0 {
                let _ = write!(s, "<th class=\"l\">{cell}</th>");
            } else {
                let _ = write!(s, "<td>{cell}</td>");
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
    s
}

fn figure(id: &str, svg: &str, caption: &str) -> String {
    format!("<figure id=\"{id}\">\n{svg}<figcaption>{caption}</figcaption>\n</figure>\n")
}

fn p_text(p: f64) -> String {
    if p < 1e-4 { format!("{p:.1e}") } else { format!("{p:.4}") }
}

/// What a family's counts are.
fn family_measure(family: Family) -> &'static str {
    match family {
        Family::Results => "wins-losses-draws",
        Family::DrawDetail => "draw wins-draw losses-other draws",
        Family::Suites => "solved-unsolved",
    }
}

/// A long part of the page, closed until its summary line is clicked (or a link leads into it).
fn folded(title: &str, inner: &str) -> String {
    format!("<details class=\"more\">\n<summary>{}</summary>\n{inner}</details>\n", esc(title))
}

fn verdict_cell(c: &Comparison) -> String {
    let class = if c.differs() { "differs" } else { "agrees" };
    format!("<td class=\"l {class}\">{}</td>", if c.differs() { "differs" } else { "agrees" })
}

impl Report<'_> {
    pub(super) fn html(
        &self,
        event: &str,
        ratings: &RatingList,
        fidelity: Option<&Fidelity>,
        files: &[&str],
    ) -> String {
        let mut body = String::new();
        let mut nav: Vec<(&str, &str)> = Vec::new();
        let _ = writeln!(
            body,
            "<h1>AgentChess report</h1>\n<p class=\"muted\">{} &middot; {} games &middot; {} players: {} &middot; {}</p>",
            esc(event),
            self.games.len(),
            self.players.len(),
            esc(&self.players.join(", ")),
            crate::experiments::pgn::today()
        );
        if let Some(f) = fidelity {
            nav.push(("fidelity", "Fidelity to the thesis"));
            body.push_str(&self.html_fidelity(f));
        }
        // The first screen holds the summary and a chart (the rating list beside its chart);
        // the other charts and the short tables follow, and the long per-cell and per-pairing
        // tables come last, folded, still in the page for search and print.
        nav.push(("ratings", "Rating list"));
        body.push_str(&self.html_ratings(ratings));
        nav.push(("charts", "Charts"));
        body.push_str(&self.html_charts(fidelity));
        nav.push(("results", "Table 3.1: results"));
        body.push_str(&self.html_matrix(fidelity));
        if !self.suites.is_empty() {
            nav.push(("suites-section", "Table 3.10: test suites"));
            body.push_str(&self.html_suites(fidelity));
        }
        if let Some(f) = fidelity {
            nav.push(("fidelity-detail", "Every thesis cell, tested"));
            body.push_str(&folded("Every thesis cell, tested", &self.html_fidelity_detail(f)));
        }
        nav.push(("pairings-section", "Pairings"));
        body.push_str(&folded("Pairings", &self.html_pairings()));
        nav.push(("players-section", "Per player, draw detail"));
        body.push_str(&folded("Per player and draw detail", &self.html_players(fidelity)));
        nav.push(("counters-section", "Agent counters"));
        body.push_str(&folded("Agent counters", &self.html_counters()));
        nav.push(("files", "Files"));
        body.push_str(&html_files(files));
        let toc: String = nav.iter().map(|(id, title)| format!("<li><a href=\"#{id}\">{title}</a></li>")).collect();
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>AgentChess report: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<nav><ul>{toc}</ul></nav>\n{body}</body>\n</html>\n",
            esc(event)
        )
    }

    /// The verdicts at a glance: how many cells differ in each table, and which.
    fn html_fidelity(&self, f: &Fidelity) -> String {
        let mut s = String::from("<section id=\"fidelity\">\n<h2>Fidelity to the thesis</h2>\n");
        let _ = writeln!(
            s,
            "<p>Each of the thesis's numbers beside ours, tested where the thesis gives a sample: W/L/D and draw detail by the exact test that both rows come from one distribution, suite counts by a binomial test against the thesis's share. A cell <b>differs</b> when its p-value, after Holm's correction for the number of cells in its table, is below {ALPHA}; the others agree as far as the samples can tell. The thesis played 100 games a pairing: ours are scaled to its sample where they stand side by side.</p>\n<div class=\"summary\">"
        );
        for (family, cells) in f.families() {
            let differ = cells.iter().filter(|c| c.differs()).count();
            let _ = write!(
                s,
                "<div><b>{differ}</b> of {} differ<br><span class=\"small\">{}</span></div>",
                cells.len(),
                esc(family.title())
            );
        }
        s.push_str("</div>\n");
        let mut differ: Vec<&Comparison> =
            f.families().iter().flat_map(|(_, cells)| cells.iter().filter(|c| c.differs())).collect();
        differ.sort_by(|a, b| a.p_holm.total_cmp(&b.p_holm).then(a.p.total_cmp(&b.p)));
        let rows: Vec<Vec<String>> = differ
            .iter()
            .map(|c| {
                vec![
                    esc(&format!("{} vs {}", c.player, c.against)),
                    format!("<td class=\"l\">{}</td>", esc(&c.source)),
                    format!("<td class=\"l\">{}</td>", esc(family_measure(c.family))),
                    counts_text(&c.thesis),
                    counts_text(&c.ours),
                    c.ours_scaled_text(),
                    p_text(c.p_holm),
                ]
            })
            .collect();
        if rows.is_empty() {
            s.push_str("<p>No cell differs significantly.</p>\n");
        } else {
            let differ = table(
                "fidelity-differ",
                "The cells that differ significantly",
                &["cell", "table", "counts", "thesis", "ours", "ours per thesis n", "p (Holm)"],
                &rows,
            );
            s.push_str(&folded(&format!("The {} cells that differ significantly", rows.len()), &differ));
        }
        s.push_str("<p class=\"small\">Every cell, with its test, is under <a href=\"#fidelity-detail\">Every thesis cell, tested</a> and in <a href=\"fidelity.csv\">fidelity.csv</a>.</p>\n</section>\n");
        s
    }

    fn html_fidelity_detail(&self, f: &Fidelity) -> String {
        let mut s = String::from("<section id=\"fidelity-detail\">\n<h2>Every thesis cell, tested</h2>\n");
        for (family, cells) in f.families() {
            if cells.is_empty() {
                continue;
            }
            let (id, share) = match family {
                Family::Results => ("fidelity-results", "score"),
                Family::DrawDetail => ("fidelity-draws", "draw wins / draws"),
                Family::Suites => ("fidelity-suites", "solved"),
            };
            let mut sorted: Vec<&Comparison> = cells.iter().collect();
            sorted.sort_by(|a, b| a.p_holm.total_cmp(&b.p_holm).then(a.p.total_cmp(&b.p)));
            let rows: Vec<Vec<String>> = sorted
                .iter()
                .map(|c| {
                    let fmt = |v: f64| if v.is_nan() { "-".to_string() } else { format!("{v:.3}") };
                    vec![
                        esc(&format!("{} vs {}", c.player, c.against)),
                        format!("<td class=\"l\">{}</td>", esc(&c.source)),
                        counts_text(&c.thesis),
                        counts_text(&c.ours),
                        c.ours_scaled_text(),
                        fmt(Comparison::summary_share(&c.thesis, family)),
                        fmt(Comparison::summary_share(&c.ours, family)),
                        p_text(c.p),
                        p_text(c.p_holm),
                        verdict_cell(c),
                    ]
                })
                .collect();
            let thesis_head = format!("thesis {share}");
            let ours_head = format!("ours {share}");
            s.push_str(&table(
                id,
                family.title(),
                &[
                    "cell",
                    "table",
                    "thesis",
                    "ours",
                    "ours per thesis n",
                    &thesis_head,
                    &ours_head,
                    "p",
                    "p (Holm)",
                    "verdict",
                ],
                &rows,
            ));
        }
        if !f.counts.is_empty() {
            let rows: Vec<Vec<String>> = f
                .counts
                .iter()
                .map(|c| {
                    vec![
                        esc(&format!("{} vs {}", c.player, c.against)),
                        format!("<td class=\"l\">{}</td>", c.source),
                        format!("<td class=\"l\">{}</td>", esc(&c.measure)),
                        format!("{:.0}", c.thesis),
                        format!("{:.1}", c.ours_per_100()),
                        c.ours_total.to_string(),
                        c.games.to_string(),
                    ]
                })
                .collect();
            s.push_str(&table("fidelity-counts", "Tables 3.8 and 3.9: counts within games, not tested (events within a game are not independent and the thesis gives no spread)", &["cell", "table", "measure", "thesis (100 games)", "ours per 100 games", "ours in all", "our games"], &rows));
        }
        if !f.readings.is_empty() {
            let rows: Vec<Vec<String>> = f
                .readings
                .iter()
                .map(|r| {
                    vec![
                        esc(&format!("{} vs {}", r.player, r.against)),
                        format!("<td class=\"l\">{}</td>", r.entry.source),
                        format!("{}", r.entry.value.unwrap_or(f64::NAN)),
                        r.ours.map_or("-".to_string(), |v| format!("{v:.3}")),
                        format!("<td class=\"l small\">{}</td>", esc(&r.entry.note)),
                    ]
                })
                .collect();
            s.push_str(&table(
                "fidelity-readings",
                "Numbers the thesis's text states about its figures (no sample to test)",
                &["cell", "figure", "thesis", "ours", "what the text says"],
                &rows,
            ));
        }
        if !f.missing.is_empty() {
            let _ = writeln!(
                s,
                "<p class=\"small\">Not reproduced here (no counterpart in this run): {}.</p>",
                esc(&f.missing.join("; "))
            );
        }
        s.push_str("<p class=\"small\">The thesis's numbers are in <code>docs/thesis-chapter3.csv</code> of the AgentChess repository; every tested cell is in <a href=\"fidelity.csv\">fidelity.csv</a>.</p>\n</section>\n");
        s
    }

    fn html_ratings(&self, r: &RatingList) -> String {
        let order = r.ranking();
        let rows: Vec<Vec<String>> = order
            .iter()
            .enumerate()
            .map(|(rank, &i)| {
                let (lo, hi) = r.interval(i);
                let interval = if !r.elo[i].is_finite() || i == r.anchor {
                    if i == r.anchor { "anchor".to_string() } else { "-".to_string() }
                } else {
                    format!("[{lo:+.0}, {hi:+.0}]")
                };
                let elo = if r.elo[i].is_nan() {
                    "unrated".to_string()
                } else if r.elo[i].is_infinite() {
                    format!("{}∞", if r.elo[i] > 0.0 { "+" } else { "−" })
                } else {
                    format!("{:+.0}", r.elo[i])
                };
                vec![
                    format!("<td>{}</td>", rank + 1),
                    format!("<td class=\"l\">{}</td>", esc(&r.players[i])),
                    elo,
                    interval,
                    r.games[i].to_string(),
                    format!("{:.1}%", 100.0 * r.points[i] / r.games[i].max(1) as f64),
                ]
            })
            .collect();
        let mut s = format!(
            "<section id=\"ratings\">\n<h2>Rating list</h2>\n<p>The maximum-likelihood Elo of every player from every game of the run (the logistic model of Ordo and BayesElo, draws as half points), {} fixed at 0; intervals are 95% (sandwich variance, so draws narrow them).{}</p>\n",
            esc(&r.players[r.anchor]),
            if r.converged {
                ""
            } else {
                " <b>The fit did not converge: a group of players won every game against the rest.</b>"
            }
        );
        s.push_str("<div class=\"side\">\n");
        s.push_str(&table(
            "ratings-table",
            "Rating list",
            &["rank", "player", "Elo", "95% interval", "games", "score"],
            &rows,
        ));
        s.push_str(&figure(
            "chart-ratings",
            &self.ratings_chart(r),
            "The rating list as a chart: dots are the ratings, bars their 95% intervals.",
        ));
        s.push_str("</div>\n");
        let mut head: Vec<String> = vec!["row stronger than column".to_string()];
        head.extend(order.iter().map(|&j| esc(&r.players[j])));
        let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
        let rows: Vec<Vec<String>> = order
            .iter()
            .map(|&i| {
                let mut row = vec![esc(&r.players[i])];
                row.extend(order.iter().map(|&j| if i == j { "-".to_string() } else { los_percent(r.los(i, j)) }));
                row
            })
            .collect();
        s.push_str(&table(
            "los",
            "Likelihood of superiority, % (the probability that the row player is the stronger)",
            &head_refs,
            &rows,
        ));
        s.push_str("</section>\n");
        s
    }

    fn html_matrix(&self, fidelity: Option<&Fidelity>) -> String {
        let mut head: Vec<String> = vec!["row vs column".to_string()];
        head.extend(self.players.iter().map(|p| esc(p)));
        let head_refs: Vec<&str> = head.iter().map(String::as_str).collect();
        let rows: Vec<Vec<String>> = self
            .players
            .iter()
            .map(|a| {
                let mut row = vec![esc(a)];
                for b in &self.players {
                    let w = self.wdl(a, b);
                    if a == b || w.games() == 0 {
                        row.push("-".to_string());
                        continue;
                    }
                    let ours = format!("{}-{}-{}", w.wins, w.losses, w.draws);
                    match fidelity.and_then(|f| f.result_cell(a, b)) {
                        Some((c, mirrored)) => {
                            let t = &c.thesis;
                            let thesis = if mirrored { format!("{}-{}-{}", t[1], t[0], t[2]) } else { counts_text(t) };
                            let class = if c.differs() { "differs" } else { "agrees" };
                            row.push(format!("<td class=\"{class}\" title=\"p (Holm) = {}\">{ours}<br><span class=\"small\">thesis {thesis}</span></td>", p_text(c.p_holm)));
                        }
                        None => row.push(ours),
                    }
                }
                row
            })
            .collect();
        let mut s = String::from(
            "<section id=\"results\">\n<h2>Table 3.1: results</h2>\n<p>Wins, losses and draws of the row player against the column player (the thesis's \"row wins, column wins, draws\").",
        );
        if fidelity.is_some() {
            let _ = write!(
                s,
                " Under each cell the thesis's (its Crafty at depth 1 is our {}); red",
                self.crafty().at_depth(1)
            );
            let _ = write!(s, " where the two differ significantly, green where they agree.");
        }
        s.push_str("</p>\n");
        s.push_str(&table("matrix", "Table 3.1", &head_refs, &rows));
        s.push_str("</section>\n");
        s
    }

    fn html_pairings(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .pairing_stats()
            .iter()
            .map(|st| {
                let (w, (e, lo, hi), (chi, df, p)) = (st.wdl, st.elo, st.colour);
                vec![
                    esc(&format!("{} vs {}", st.a, st.b)),
                    format!("{}-{}-{}", w.wins, w.losses, w.draws),
                    format!("{:.3}", w.score()),
                    esc(elo_text(e, lo, hi).trim()),
                    format!("{:.3}", st.los),
                    format!("{chi:.2}"),
                    df.to_string(),
                    format!("{p:.3}"),
                ]
            })
            .collect();
        let mut s = String::from(
            "<section id=\"pairings-section\">\n<h2>Pairings</h2>\n<p>Per pairing, from the first player's side: the score, the Elo difference with its 95% interval, the likelihood of superiority and a chi-square test of colour against result.</p>\n",
        );
        s.push_str(&table(
            "pairings",
            "Pairings",
            &["pairing", "W-L-D", "score", "Elo [95%]", "LOS", "χ² (colour)", "df", "p"],
            &rows,
        ));
        s.push_str("</section>\n");
        s
    }

    fn html_players(&self, fidelity: Option<&Fidelity>) -> String {
        let rows: Vec<Vec<String>> = self
            .players
            .iter()
            .map(|a| {
                let t = self.total(a);
                let d = self.draw_detail(a);
                vec![
                    esc(a),
                    t.games().to_string(),
                    t.wins.to_string(),
                    t.losses.to_string(),
                    t.draws.to_string(),
                    format!("{:.3}", t.score()),
                    d.stalemate.to_string(),
                    d.repetition.to_string(),
                    d.fifty_moves.to_string(),
                    d.insufficient.to_string(),
                    d.move_cap.to_string(),
                    d.draw_wins.to_string(),
                ]
            })
            .collect();
        let mut s = String::from("<section id=\"players-section\">\n<h2>Per player and draw detail</h2>\n");
        s.push_str(&table(
            "players",
            "Per player (Table 3.2 layout)",
            &[
                "player",
                "games",
                "wins",
                "losses",
                "draws",
                "score",
                "stalemate",
                "repetition",
                "fifty moves",
                "insufficient",
                "move cap",
                "draw wins",
            ],
            &rows,
        ));
        let mut rows = Vec::new();
        for (a, b, w, d) in self.opponent_rows() {
            let pct = |n: u32| format!("{:.0}%", 100.0 * mean_per_game(n, w.draws));
            let mut row = vec![
                esc(&format!("{a} vs {b}")),
                w.wins.to_string(),
                w.losses.to_string(),
                w.draws.to_string(),
                d.draw_wins.to_string(),
                d.draw_losses.to_string(),
                pct(d.draw_wins),
                pct(d.draw_losses),
            ];
            if let Some(f) = fidelity {
                // The thesis's draw detail from the row player's side, whichever way it was printed.
                let cell = f.draws.iter().find_map(|c| {
                    if c.player == *a && c.against == *b {
                        Some((c, c.thesis[0], c.thesis[1]))
                    } else if c.player == *b && c.against == *a {
                        Some((c, c.thesis[1], c.thesis[0]))
                    } else {
                        None
                    }
                });
                match cell {
                    Some((c, dw, dl)) => {
                        let draws: u32 = c.thesis.iter().sum();
                        row.push(format!("{dw}, {dl} of {draws}"));
                        row.push(format!("<td class=\"l\">{}</td>", esc(&c.source)));
                        row.push(verdict_cell(c));
                    }
                    None => row.extend(["".to_string(), "".to_string(), "<td></td>".to_string()]),
                }
            }
            rows.push(row);
        }
        let mut head =
            vec!["player vs opponent", "wins", "losses", "draws", "draw wins", "draw losses", "dw %", "dl %"];
        if fidelity.is_some() {
            head.extend(["thesis: draw wins, losses", "table", "verdict"]);
        }
        s.push_str(&table(
            "draws",
            "Per opponent, with draw wins (the opponent was first left with a bare king) and draw losses (Tables 3.2-3.7)",
            &head,
            &rows,
        ));
        s.push_str("</section>\n");
        s
    }

    fn html_counters(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .counter_rows()
            .into_iter()
            .map(|(a, b, c)| {
                vec![
                    esc(&format!("{a} vs {b}")),
                    c.attack_request_rounds.to_string(),
                    c.attack_requests_performed.to_string(),
                    c.threatened_moved_itself.to_string(),
                    c.defense_requests_used.to_string(),
                    c.move_attacks_planned.to_string(),
                    c.move_attacks_performed.to_string(),
                    c.own_pieces_captured.to_string(),
                    c.incorrect_threats.to_string(),
                ]
            })
            .collect();
        let mut s = String::from(
            "<section id=\"counters-section\">\n<h2>Agent counters</h2>\n<p>The row player's agents, summed over its games against the opponent (docs/agents.md defines each counter).</p>\n",
        );
        s.push_str(&table(
            "counters",
            "Agent counters (Tables 3.8, 3.9; Figures 3.3, 3.5)",
            &[
                "player vs opponent",
                "attack-request rounds",
                "attack requests performed",
                "threatened agent moved itself",
                "defense requests used",
                "move-attacks planned",
                "move-attacks performed",
                "own pieces captured",
                "incorrect threats",
            ],
            &rows,
        ));
        let pct = |n: u32, d: u32| format!("{:.1}%", 100.0 * mean_per_game(n, d));
        let rows: Vec<Vec<String>> = self
            .agent_players()
            .into_iter()
            .map(|a| {
                let c = self.counter_total(a, None);
                vec![
                    esc(a),
                    c.decisions.to_string(),
                    pct(c.rule_attack, c.decisions),
                    pct(c.rule_move, c.decisions),
                    pct(c.rule_threatened_agent, c.decisions),
                    pct(c.attack_requests_performed, c.decisions),
                    pct(c.defense_requests_used, c.decisions),
                    c.defense_consideration_fallbacks.to_string(),
                ]
            })
            .collect();
        s.push_str(&table(
            "rules",
            "Decisions by rule (all games)",
            &[
                "player",
                "decisions",
                "general attack",
                "general move",
                "threatened agent itself",
                "attack request",
                "defense request",
                "defense consideration dropped",
            ],
            &rows,
        ));
        s.push_str("</section>\n");
        s
    }

    fn html_charts(&self, fidelity: Option<&Fidelity>) -> String {
        let says = |sources: &[&str]| -> String {
            let Some(f) = fidelity else { return String::new() };
            let mut out = String::new();
            for e in f.statements.iter().filter(|e| sources.contains(&e.source.as_str())) {
                let _ = write!(
                    out,
                    "<blockquote>{} ({} vs {}): {}</blockquote>",
                    e.source,
                    esc(&e.player),
                    esc(&e.against),
                    esc(&e.note)
                );
            }
            for r in f.readings.iter().filter(|r| sources.contains(&r.entry.source.as_str())) {
                let ours = r.ours.map_or("-".to_string(), |v| format!("{v:.2}"));
                let _ = write!(
                    out,
                    "<blockquote>{} ({} vs {}): about {}; ours {ours}. {}</blockquote>",
                    r.entry.source,
                    esc(&r.player),
                    esc(&r.against),
                    r.entry.value.unwrap_or(f64::NAN),
                    esc(&r.entry.note)
                );
            }
            if out.is_empty() {
                out
            } else {
                format!(
                    "<br>What the thesis's text says of its figure (in our words; the figures themselves are not in its text):{out}"
                )
            }
        };
        let chart = |c: Chart, caption: String| {
            let panels: String = c.render_panels().concat();
            let panels = if panels.is_empty() {
                "<p class=\"small empty\">No curve in this run (no player has this counter).</p>\n".to_string()
            } else {
                panels
            };
            let inner = format!(
                "<h3>{}</h3>\n<p class=\"small\">{}</p>\n<div class=\"panels\">\n{panels}</div>\n",
                esc(&c.title),
                esc(&c.note)
            );
            figure(&format!("chart-{}", c.id), &inner, &caption)
        };
        let mut s = format!(
            "<section id=\"charts\">\n<h2>Charts</h2>\n<p>Curves fade (dashed) where fewer than {MIN_RUNNING} of a pairing's games are still running; the strip under each panel shows how many are (log scale, the dashed line at {MIN_RUNNING}).</p>\n"
        );
        s.push_str(&chart(self.material_chart(), format!("Material: one panel per player, its curves against each opponent (<a href=\"material.csv\">material.csv</a>).{}", says(&["Figure 3.1", "Figure 3.2", "Figure 3.4"]))));
        s.push_str(&chart(self.running_chart(), "The share of each pairing's games still running.".to_string()));
        s.push_str(&chart(
            self.attack_requests_chart(),
            format!(
                "Attack requests (<a href=\"counters_by_move.csv\">counters_by_move.csv</a>).{}",
                says(&["Figure 3.3"])
            ),
        ));
        s.push_str(&chart(self.incorrect_threats_chart(), format!("Incorrect threats per game still running (<a href=\"counters_by_move.csv\">counters_by_move.csv</a>).{}", says(&["Figure 3.5"]))));
        s.push_str("</section>\n");
        s
    }

    fn html_suites(&self, fidelity: Option<&Fidelity>) -> String {
        let mut rows = Vec::new();
        for c in &self.suites {
            let mut row = vec![
                esc(&c.player),
                format!("<td class=\"l\">{}</td>", esc(&c.suite)),
                c.solved.to_string(),
                c.positions.to_string(),
                format!("{:.1}%", c.percent()),
            ];
            if let Some(f) = fidelity {
                match f.suites.iter().find(|x| x.player == c.player && x.against == c.suite) {
                    Some(x) => {
                        let n: u32 = x.thesis.iter().sum();
                        row.push(format!("{} ({:.0}%)", x.thesis[0], 100.0 * x.thesis[0] as f64 / n.max(1) as f64));
                        row.push(p_text(x.p_holm));
                        row.push(verdict_cell(x));
                    }
                    None => row.extend(["".to_string(), "".to_string(), "<td></td>".to_string()]),
                }
            }
            rows.push(row);
        }
        let mut head = vec!["player", "suite", "solved", "positions", "share"];
        if fidelity.is_some() {
            head.extend(["thesis solved", "p (Holm)", "verdict"]);
        }
        let mut s = String::from(
            "<section id=\"suites-section\">\n<h2>Table 3.10: test suites</h2>\n<p>Positions where the player's move is the suite's best move (WAC and ECM, built in; the thesis's BWCT, ECE3, TYPP and VA are not public in the form it used). Every position is played by a freshly seeded player.</p>\n",
        );
        s.push_str(&table("suites", "Table 3.10", &head, &rows));
        if fidelity.is_some() {
            let others: Vec<String> = thesis::entries()
                .iter()
                .filter(|e| {
                    e.source == "Table 3.10"
                        && e.measure == "solved"
                        && !self.suites.iter().any(|c| c.suite.eq_ignore_ascii_case(&e.against))
                })
                .map(|e| format!("{} {} {}", e.player, e.against, e.value.unwrap_or(0.0)))
                .collect();
            let _ = writeln!(
                s,
                "<p class=\"small\">The thesis's other suites, for reference: {}.</p>",
                esc(&others.join("; "))
            );
        }
        s.push_str("</section>\n");
        s
    }
}

/// Links to the files written beside the page.
fn html_files(written: &[&str]) -> String {
    const FILES: [(&str, &str); 19] = [
        ("summary.txt", "the summary, as printed"),
        ("games.pgn", "every game"),
        ("games.csv", "one row per game"),
        ("matrix.csv", "Table 3.1 with draw wins and losses"),
        ("pairings.csv", "per pairing: score, Elo, LOS, chi-square"),
        ("ratings.csv", "the rating list with the likelihood of superiority"),
        ("fidelity.csv", "every thesis cell beside ours, tested"),
        ("results.json", "totals, pairings, ratings, fidelity"),
        ("material.csv", "material curves"),
        ("counters.csv", "agent counters per pairing"),
        ("counters_by_move.csv", "agent counters by move"),
        ("curves.json", "every curve as JSON"),
        ("suites.csv", "every suite position with the move played"),
        ("material.svg", "chart"),
        ("running.svg", "chart"),
        ("attack_requests.svg", "chart (Figure 3.3)"),
        ("incorrect_threats.svg", "chart (Figure 3.5)"),
        ("ratings.svg", "chart"),
        ("index.html", "this page"),
    ];
    let items: String = FILES
        .iter()
        .filter(|(f, _)| *f == "index.html" || written.contains(f))
        .map(|(f, what)| format!("<li><a href=\"{f}\">{f}</a> <span class=\"small\">{what}</span></li>"))
        .collect();
    format!("<section id=\"files\">\n<h2>Files</h2>\n<ul>{items}</ul>\n</section>\n")
}

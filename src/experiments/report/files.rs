//! The report as files: CSV and JSON of every table and curve, SVG charts, the PGN and the
//! summary, written to one output folder.

use super::fidelity::Fidelity;
use super::text::counts_text;
use super::{Report, csv_values};
use crate::agents::Counters;
use crate::experiments::formats::{csv_field, json_num, json_str};
use crate::experiments::ratings::RatingList;
use std::fmt::Write;

/// How one file of the report is made.
type Maker<'r> = Box<dyn Fn() -> String + Sync + 'r>;

impl Report<'_> {
    /// Writes every table and curve as CSV, a JSON summary, SVG charts, the PGN and one HTML
    /// page with all of it. `comments`: the PGN's moves carry the players' reasons. The files
    /// are made on all cores: a long round robin's PGN alone takes seconds.
    pub fn write_all(&self, dir: &std::path::Path, event: &str, comments: bool) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let ratings = self.ratings();
        let fidelity = self.thesis.is_some().then(|| self.fidelity());
        // Slowest first, so that no core is left with a long one at the end.
        let mut files: Vec<(&'static str, Maker)> = vec![
            ("games.pgn", Box::new(|| self.pgn(event, comments))),
            ("curves.json", Box::new(|| self.curves_json())),
            ("counters_by_move.csv", Box::new(|| self.counters_by_move_csv())),
            ("games.csv", Box::new(|| self.games_csv())),
            ("incorrect_threats.svg", Box::new(|| self.incorrect_threats_chart().render())),
            ("attack_requests.svg", Box::new(|| self.attack_requests_chart().render())),
            ("material.svg", Box::new(|| self.material_chart().render())),
            ("running.svg", Box::new(|| self.running_chart().render())),
            ("material.csv", Box::new(|| self.material_csv())),
            ("summary.txt", Box::new(|| self.summary())),
            ("matrix.csv", Box::new(|| self.matrix_csv())),
            ("counters.csv", Box::new(|| self.counters_csv())),
            ("pairings.csv", Box::new(|| self.pairings_csv())),
            ("results.json", Box::new(|| self.results_json(&ratings, fidelity.as_ref()))),
            ("ratings.csv", Box::new(|| ratings_csv(&ratings))),
            ("ratings.svg", Box::new(|| self.ratings_chart(&ratings))),
        ];
        if let Some(f) = &fidelity {
            files.push(("fidelity.csv", Box::new(move || fidelity_csv(f))));
        }
        let mut names: Vec<&'static str> = files.iter().map(|(name, _)| *name).collect();
        if !self.suites.is_empty() {
            names.push("suites.csv");
        }
        let mut all = files;
        all.insert(2, ("index.html", Box::new(|| self.html(event, &ratings, fidelity.as_ref(), &names))));
        write_files(dir, &all)
    }

    fn pgn(&self, event: &str, comments: bool) -> String {
        let date = crate::experiments::pgn::today();
        self.games
            .iter()
            .map(|g| {
                if comments {
                    crate::experiments::pgn::to_pgn_commented(g, event, &date)
                } else {
                    crate::experiments::pgn::to_pgn(g, event, &date)
                }
            })
            .collect()
    }

    /// Table 3.1 with the draw detail: every ordered pair of players.
    fn matrix_csv(&self) -> String {
        let mut m = String::from("row,column,wins,losses,draws,draw_wins,draw_losses\n");
        for a in &self.players {
            for b in self.players.iter().filter(|b| *b != a) {
                let w = self.wdl(a, b);
                let d = self.draw_detail_vs(a, Some(b));
                let _ = writeln!(
                    m,
                    "{},{},{},{},{},{},{}",
                    csv_field(a),
                    csv_field(b),
                    w.wins,
                    w.losses,
                    w.draws,
                    d.draw_wins,
                    d.draw_losses
                );
            }
        }
        m
    }

    fn counters_csv(&self) -> String {
        let mut counters = format!("player,opponent,{}\n", Counters::NAMES.join(","));
        for a in &self.players {
            for b in self.players.iter().filter(|b| *b != a) {
                let _ = writeln!(
                    counters,
                    "{},{},{}",
                    csv_field(a),
                    csv_field(b),
                    csv_values(&self.counter_total(a, Some(b)))
                );
            }
        }
        counters
    }

    fn pairings_csv(&self) -> String {
        let mut pairs = String::from("a,b,wins,losses,draws,score,elo,elo_low,elo_high,los,chi2,df,p\n");
        for st in self.pairing_stats() {
            let (w, (e, lo, hi), (chi, df, p)) = (st.wdl, st.elo, st.colour);
            let _ = writeln!(
                pairs,
                "{},{},{},{},{},{:.4},{e:.2},{lo:.2},{hi:.2},{:.4},{chi:.4},{df},{p:.4}",
                csv_field(&st.a),
                csv_field(&st.b),
                w.wins,
                w.losses,
                w.draws,
                w.score(),
                st.los
            );
        }
        pairs
    }

    fn material_csv(&self) -> String {
        let mut curve = String::from("a,b,move,mean_material_diff,share_running\n");
        for (a, b) in self.pairs() {
            let (ca, cb) = (csv_field(&a), csv_field(&b));
            for (mv, diff, share) in self.material_curve(&a, &b) {
                let _ = writeln!(curve, "{ca},{cb},{mv},{diff:.2},{share:.4}");
            }
        }
        curve
    }

    /// Totals per player, statistics per pairing, the rating list and (for `thesis`) the
    /// comparison with the thesis.
    fn results_json(&self, ratings: &RatingList, fidelity: Option<&Fidelity>) -> String {
        let players_json: Vec<String> = self.players.iter().map(|p| {
            let t = self.total(p);
            let d = self.draw_detail(p);
            format!("{{\"player\":{},\"wins\":{},\"losses\":{},\"draws\":{},\"draw_wins\":{},\"stalemate\":{},\"repetition\":{},\"fifty_moves\":{},\"insufficient\":{}}}", json_str(p), t.wins, t.losses, t.draws, d.draw_wins, d.stalemate, d.repetition, d.fifty_moves, d.insufficient)
        }).collect();
        let json_pairs: Vec<String> = self
            .pairing_stats()
            .iter()
            .map(|st| {
                let (w, (e, lo, hi), (chi, df, p)) = (st.wdl, st.elo, st.colour);
                format!(
                    "{{\"a\":{},\"b\":{},\"wins\":{},\"losses\":{},\"draws\":{},\"score\":{:.4},\"elo\":{},\"elo_low\":{},\"elo_high\":{},\"los\":{:.4},\"chi2\":{chi:.4},\"df\":{df},\"p\":{p:.4}}}",
                    json_str(&st.a), json_str(&st.b), w.wins, w.losses, w.draws, w.score(), json_num(e), json_num(lo), json_num(hi), st.los
                )
            })
            .collect();
        let fidelity_json = fidelity.map_or(String::new(), |f| format!(",\"fidelity\":{}", fidelity_json(f)));
        format!(
            "{{\"games\":{},\"players\":[{}],\"pairings\":[{}],\"ratings\":{}{fidelity_json}}}\n",
            self.games.len(),
            players_json.join(","),
            json_pairs.join(","),
            ratings_json(ratings)
        )
    }

    /// Every counter of the row player's agents by move number, per pairing, with the number of
    /// games in which it still decided (`decisions`).
    fn counters_by_move_csv(&self) -> String {
        let mut csv = format!("player,opponent,move,{}\n", Counters::NAMES.join(","));
        for a in self.agent_players() {
            for b in self.players.iter().filter(|b| *b != a) {
                for (i, c) in self.counter_curve(a, Some(b)).iter().enumerate() {
                    let _ = writeln!(csv, "{},{},{},{}", csv_field(a), csv_field(b), i + 1, csv_values(c));
                }
            }
        }
        csv
    }

    /// One row per game, for analysis tools that would rather not parse PGN: who played, the
    /// result and why, its length, the side first left with a bare king, the final material
    /// balance and the seed that replays it.
    pub fn games_csv(&self) -> String {
        let mut s = String::from(
            "game,white,black,result,termination,plies,bare_king_first,bare_king_ply,final_material,seed,start_fen\n",
        );
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
                csv_field(&g.termination_text()),
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
                if !self.played(a, b) {
                    continue;
                }
                let material: Vec<String> = self
                    .material_curve(a, b)
                    .iter()
                    .map(|(mv, diff, share)| {
                        format!(
                            "{{\"move\":{mv},\"mean_material_diff\":{},\"share_running\":{share:.4}}}",
                            json_num(*diff)
                        )
                    })
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
                    json_str(a),
                    json_str(b),
                    material.join(","),
                    counters.join(",")
                ));
            }
        }
        format!("{{\"pairings\":[{}]}}\n", entries.join(",\n"))
    }
}

/// The rating list, strongest first: rating, 95% interval, standard error, games, points,
/// score, then the likelihood that the row player is stronger than each player (a column per
/// player, in the same order).
fn ratings_csv(r: &RatingList) -> String {
    let order = r.ranking();
    let mut s = String::from("rank,player,elo,elo_low,elo_high,se,games,points,score");
    for &j in &order {
        let _ = write!(s, ",{}", csv_field(&format!("los_vs_{}", r.players[j])));
    }
    s.push('\n');
    for (rank, &i) in order.iter().enumerate() {
        let (lo, hi) = r.interval(i);
        let score = r.points[i] / r.games[i].max(1) as f64;
        let _ = write!(
            s,
            "{},{},{},{},{},{},{},{},{score:.4}",
            rank + 1,
            csv_field(&r.players[i]),
            csv_num(r.elo[i]),
            csv_num(lo),
            csv_num(hi),
            csv_num(r.se(i)),
            r.games[i],
            r.points[i]
        );
        for &j in &order {
            let _ = write!(s, ",{}", if i == j { String::new() } else { format!("{:.4}", r.los(i, j)) });
        }
        s.push('\n');
    }
    s
}

/// A rating for CSV: two decimals, `inf`/`-inf` for a perfect score, empty when unrated.
fn csv_num(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else if x.is_infinite() {
        (if x > 0.0 { "inf" } else { "-inf" }).to_string()
    } else {
        format!("{x:.2}")
    }
}

fn ratings_json(r: &RatingList) -> String {
    let players: Vec<String> = r
        .ranking()
        .into_iter()
        .map(|i| {
            let (lo, hi) = r.interval(i);
            let los: Vec<String> = (0..r.players.len()).filter(|&j| j != i).map(|j| format!("{}:{}", json_str(&r.players[j]), json_p(r.los(i, j)))).collect();
            format!(
                "{{\"player\":{},\"elo\":{},\"elo_low\":{},\"elo_high\":{},\"se\":{},\"games\":{},\"points\":{},\"los\":{{{}}}}}",
                json_str(&r.players[i]),
                json_num(r.elo[i]),
                json_num(lo),
                json_num(hi),
                json_num(r.se(i)),
                r.games[i],
                r.points[i],
                los.join(",")
            )
        })
        .collect();
    format!(
        "{{\"anchor\":{},\"converged\":{},\"players\":[{}]}}",
        json_str(&r.players[r.anchor]),
        r.converged,
        players.join(",")
    )
}

/// A probability for JSON, with the precision small p-values need.
fn json_p(p: f64) -> String {
    if p.is_finite() { format!("{p:.6e}") } else { "null".to_string() }
}

/// Every tested thesis cell beside ours: the counts, the shares, p before and after Holm's
/// correction, and the verdict.
fn fidelity_csv(f: &Fidelity) -> String {
    let mut s = String::from("family,source,player,against,thesis,ours,thesis_share,ours_share,p,p_holm,verdict\n");
    for (family, cells) in f.families() {
        for c in cells {
            let share = |v: &[u32]| super::fidelity::Comparison::summary_share(v, family);
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{:.4},{:.4},{:.6e},{:.6e},{}",
                family.key(),
                csv_field(&c.source),
                csv_field(&c.player),
                csv_field(&c.against),
                counts_text(&c.thesis),
                counts_text(&c.ours),
                share(&c.thesis),
                share(&c.ours),
                c.p,
                c.p_holm,
                if c.differs() { "differs" } else { "agrees" }
            );
        }
    }
    s
}

fn fidelity_json(f: &Fidelity) -> String {
    let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let cells: Vec<String> = f
        .families()
        .iter()
        .flat_map(|(family, cells)| {
            cells.iter().map(move |c| {
                format!(
                    "{{\"family\":{},\"source\":{},\"player\":{},\"against\":{},\"thesis\":[{}],\"ours\":[{}],\"p\":{},\"p_holm\":{},\"differs\":{}}}",
                    json_str(family.key()),
                    json_str(&c.source),
                    json_str(&c.player),
                    json_str(&c.against),
                    list(&c.thesis),
                    list(&c.ours),
                    json_p(c.p),
                    json_p(c.p_holm),
                    c.differs()
                )
            })
        })
        .collect();
    let counts: Vec<String> = f
        .counts
        .iter()
        .map(|c| {
            format!(
                "{{\"source\":{},\"player\":{},\"against\":{},\"measure\":{},\"thesis\":{},\"ours\":{},\"games\":{}}}",
                json_str(&c.source),
                json_str(&c.player),
                json_str(&c.against),
                json_str(&c.measure),
                c.thesis,
                c.ours_total,
                c.games
            )
        })
        .collect();
    let readings: Vec<String> = f
        .readings
        .iter()
        .map(|r| {
            format!(
                "{{\"source\":{},\"player\":{},\"against\":{},\"measure\":{},\"thesis\":{},\"ours\":{}}}",
                json_str(&r.entry.source),
                json_str(&r.player),
                json_str(&r.against),
                json_str(&r.entry.measure),
                json_p(r.entry.value.unwrap_or(f64::NAN)),
                json_p(r.ours.unwrap_or(f64::NAN))
            )
        })
        .collect();
    let missing: Vec<String> = f.missing.iter().map(|m| json_str(m)).collect();
    format!(
        "{{\"alpha\":{},\"cells\":[{}],\"counts\":[{}],\"readings\":[{}],\"not_reproduced\":[{}]}}",
        super::fidelity::ALPHA,
        cells.join(","),
        counts.join(","),
        readings.join(","),
        missing.join(",")
    )
}

/// Makes and writes the files on every core, each as soon as a core is free; the first error
/// is returned. How long each took goes to the log (`RUST_LOG=info`).
fn write_files(dir: &std::path::Path, files: &[(&str, Maker)]) -> std::io::Result<()> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failed: std::sync::Mutex<Option<std::io::Error>> = std::sync::Mutex::new(None);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..cores.min(files.len()) {
            scope.spawn(|| {
                while let Some((name, make)) = files.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                    let start = std::time::Instant::now();
                    if let Err(e) = std::fs::write(dir.join(name), make()) {
                        failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                    }
                    log::info!("{name}: {:.2} s", start.elapsed().as_secs_f64());
                }
            });
        }
    });
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

//! The report's charts as data: which panels, which curves, what each point rests on. The SVG
//! files and the HTML page draw the same charts (`svg.rs` renders them).

use super::{Report, mean_per_game};
use crate::agents::Counters;
use crate::experiments::ratings::RatingList;
use crate::experiments::svg::{Chart, IntervalRow, Panel, Point, Series, interval_chart};

/// Below this many games a curve fades: its mean rests on a handful of games.
pub const MIN_RUNNING: u32 = 10;

impl Report<'_> {
    /// The players whose curves against each opponent get a panel. In a round robin that is
    /// everyone (one panel per player, as the thesis's Figure 3.1 is level 7's and Figure 3.2
    /// Crafty's); in a match or a gauntlet only the first player, whose panel holds every
    /// pairing (another player's would mirror it).
    fn panel_players(&self) -> Vec<&String> {
        let opponents = |a: &String| self.players.iter().filter(|b| *b != a && self.played(a, b)).count();
        if self.players.iter().filter(|a| opponents(a) >= 2).count() >= 2 {
            self.players.iter().filter(|a| opponents(a) > 0).collect()
        } else {
            self.players.iter().take(1).collect()
        }
    }

    /// A colour per player that stays the same in every panel (while the palette lasts).
    fn colour(&self, p: &str, nth: usize) -> usize {
        if self.players.len() <= 10 { self.index_of(p).unwrap_or(nth) } else { nth }
    }

    /// Material curves of each panel player against its opponents, with the points' number of
    /// games still running.
    fn material_series(&self, a: &str, value: impl Fn(f64, f64) -> f64) -> Vec<Series> {
        self.players
            .iter()
            .filter(|b| *b != a && self.played(a, b))
            .enumerate()
            .map(|(nth, b)| {
                let games = self.wdl(a, b).games() as f64;
                let points = self
                    .material_curve(a, b)
                    .into_iter()
                    .map(|(mv, diff, share)| Point {
                        x: mv as f64,
                        y: value(diff, share),
                        running: (share * games).round() as u32,
                    })
                    .collect();
                Series { label: b.clone(), colour: self.colour(b, nth), points }
            })
            .collect()
    }

    pub(super) fn material_chart(&self) -> Chart {
        let panels = self
            .panel_players()
            .into_iter()
            .flat_map(|a| Chart::split(&format!("{a} against each opponent"), self.material_series(a, |diff, _| diff)))
            .collect();
        Chart {
            id: "material".into(),
            title: "Mean material difference by move (Figures 3.1, 3.2, 3.4)".into(),
            note: format!(
                "From the panel player's side, thesis values (P 100 ... Q 900); a finished game keeps its last balance; dashed where fewer than {MIN_RUNNING} games run."
            ),
            x_title: "move (full moves)".into(),
            y_title: "material difference (centipawns)".into(),
            panels,
            min_running: MIN_RUNNING,
            strip: true,
            y_cap: None,
        }
    }

    pub(super) fn running_chart(&self) -> Chart {
        let panels = self
            .panel_players()
            .into_iter()
            .flat_map(|a| {
                Chart::split(&format!("{a} against each opponent"), self.material_series(a, |_, share| 100.0 * share))
            })
            .collect();
        Chart {
            id: "running".into(),
            title: "Games still running by move".into(),
            note: "The share of each pairing's games not yet over: how many games the curves' means rest on.".into(),
            x_title: "move (full moves)".into(),
            y_title: "games running (% of the pairing's)".into(),
            panels,
            min_running: 0,
            strip: false,
            y_cap: Some(100.0),
        }
    }

    /// A counter curve as points: the value at each move and the games in which the player still
    /// decided there.
    fn counter_points(curve: &[Counters], value: impl Fn(&Counters) -> f64) -> Vec<Point> {
        curve.iter().enumerate().map(|(i, c)| Point { x: i as f64 + 1.0, y: value(c), running: c.decisions }).collect()
    }

    pub(super) fn attack_requests_chart(&self) -> Chart {
        let mut panels = Vec::new();
        let mut add = |title: String, curve: Vec<Counters>| {
            let series = vec![
                Series {
                    label: "performed".into(),
                    colour: 2,
                    points: Self::counter_points(&curve, |c| c.attack_requests_performed as f64),
                },
                Series {
                    label: "moved itself".into(),
                    colour: 0,
                    points: Self::counter_points(&curve, |c| c.threatened_moved_itself as f64),
                },
            ];
            panels.push(Panel { title, series });
        };
        // The thesis's own pairing first, when it was played.
        if self.thesis.is_some() && self.played("level:5", "level:4") {
            add(
                "level:5 against level:4 (the thesis's pairing)".into(),
                self.counter_curve("level:5", Some("level:4")),
            );
        }
        for a in self.agent_players() {
            let curve = self.counter_curve(a, None);
            if curve.iter().any(|c| c.attack_request_rounds > 0) {
                add(format!("{a} against everyone"), curve);
            }
        }
        Chart {
            id: "attack-requests".into(),
            title: "Attack requests by move (Figure 3.3)".into(),
            note: format!(
                "Rounds where the worst threatened agent could be helped: an attack request performed, or the agent moved itself; dashed below {MIN_RUNNING} games."
            ),
            x_title: "move (full moves)".into(),
            y_title: "occurrences (sum over games)".into(),
            panels,
            min_running: MIN_RUNNING,
            strip: true,
            y_cap: None,
        }
    }

    pub(super) fn incorrect_threats_chart(&self) -> Chart {
        let mut panels = Vec::new();
        let threats =
            |curve: &[Counters]| Self::counter_points(curve, |c| mean_per_game(c.incorrect_threats, c.decisions));
        // The thesis's own pairing first, when it was played.
        let crafty = self.crafty().at_depth(1);
        if self.thesis.is_some() && self.played("level:7", &crafty) {
            let series = vec![Series {
                label: "level:7".into(),
                colour: self.colour("level:7", 0),
                points: threats(&self.counter_curve("level:7", Some(&crafty))),
            }];
            panels
                .push(Panel { title: format!("level:7 against {crafty} (the thesis's pairing, with Crafty)"), series });
        }
        // One line per player over all its games: per pairing, a hundred games make a per-move
        // mean too ragged to tell eight lines apart.
        let series: Vec<Series> = self
            .agent_players()
            .into_iter()
            .enumerate()
            .map(|(nth, a)| Series {
                label: a.clone(),
                colour: self.colour(a, nth),
                points: threats(&self.counter_curve(a, None)),
            })
            .collect();
        panels.extend(Chart::split("each player against everyone", series));
        Chart {
            id: "incorrect-threats".into(),
            title: "Incorrect threats by move (Figure 3.5)".into(),
            note: format!(
                "Own pieces estimated not threatened that the opponent's reply captured, per game still running; dashed below {MIN_RUNNING} games."
            ),
            x_title: "move (full moves)".into(),
            y_title: "incorrect threats per game".into(),
            panels,
            min_running: MIN_RUNNING,
            strip: true,
            y_cap: None,
        }
    }

    pub(super) fn ratings_chart(&self, r: &RatingList) -> String {
        let rows: Vec<IntervalRow> = r
            .ranking()
            .into_iter()
            .map(|i| {
                let (low, high) = r.interval(i);
                IntervalRow { label: r.players[i].clone(), value: r.elo[i], low, high }
            })
            .collect();
        interval_chart(
            "Rating list",
            &format!(
                "Maximum likelihood (logistic, draws half points), {} = 0; bars are 95% intervals.",
                r.players[r.anchor]
            ),
            "Elo",
            &rows,
        )
    }
}

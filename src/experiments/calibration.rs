//! Rating the agents' settings on a public scale (`agentchess calibrate`).
//!
//! The scale is Stockfish's `UCI_Elo` (fitted by its authors at 60 s + 0.6 s and anchored to
//! CCRL 40/4). Stockfish at several `UCI_Elo` values plays the settings near it: level 9 and
//! every node budget of level 10 meet the anchors around them (the strongest budgets three, one
//! in each step of Stockfish's scale they fall between). The settings below the
//! lowest anchor hang from level 9 by the agents' own games (the thesis's levels 1-8 in a round
//! robin, level 9 against levels 7 and 8). All games go into one maximum-likelihood rating
//! list, which is put on the anchors' scale piece by piece (`on_anchors`: each anchor at its
//! nominal value, a setting between two anchors in proportion), since at a short clock
//! Stockfish's own gaps differ from its nominal ones; the list shifted once onto the anchors'
//! mean (`anchored`) is reported beside it. Level 10's budgets do not play each other: self-play
//! between them shows gaps that their games against the anchors do not. Fairy-Max and
//! HoiChess, when present, play too and are rated like the settings: a cross-check on the
//! anchors.
//!
//! The agents' levels 1-9 and level 10 at a node budget do not look at the clock; only the
//! engines do, at the time control the run names.

use super::ratings::RatingList;
use crate::players::spec::{PlayerSpec, SpecError};
use crate::players::strength::{BELOW_BUDGETS, BETWEEN_LEVELS, Setting};

/// Level 10's node budgets that are rated: `UCI_Elo` above level 9 interpolates between them.
pub const NODE_RUNGS: [u64; 9] = [60, 120, 250, 500, 1000, 2000, 4000, 8000, 16000];

/// The Stockfish `UCI_Elo` values that anchor the scale. Stockfish picks its move at depth
/// 1 + int(level), the level a power of `UCI_Elo`, so its scale is a staircase: 1800, 1900 and
/// 2000 pick at depths 5, 6 and 7, and a setting between two steps is placed by the step on each
/// side of it, not by a wider span.
pub const ANCHOR_ELOS: [u32; 6] = [1350, 1500, 1650, 1800, 1900, 2000];

/// One pairing of the run: `weight` times the run's games-per-unit games.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    pub a: PlayerSpec,
    pub b: PlayerSpec,
    pub weight: u32,
    /// From the run's openings, or (for an engine that cannot be given a position) the
    /// initial position, the agents' `variety` and the engine's own varying the games.
    pub openings: bool,
}

/// What a run plays with besides the agents.
#[derive(Clone, Debug, PartialEq)]
pub struct Engines {
    pub stockfish: String,
    /// The engines' time control, `SECS+INC` as `tc=` takes it.
    pub tc: String,
    /// Cross-checks (XBoard engines), each a command; none when absent.
    pub fairymax: Option<String>,
    pub hoichess: Option<String>,
}

/// The Stockfish anchor at `elo`, named `stockfish-ELO` in the tables; an error when the
/// command or time control cannot be read.
pub fn stockfish(engines: &Engines, elo: u32) -> Result<PlayerSpec, SpecError> {
    format!(
        "uci:{},tc={},option.UCI_LimitStrength=true,option.UCI_Elo={elo},option.Threads=1,name=stockfish-{elo}",
        engines.stockfish, engines.tc
    )
    .parse()
}

/// The `UCI_Elo` of an anchor, from its name in the tables (its spec, ending `name=stockfish-ELO`).
pub fn anchor_elo(name: &str) -> Option<u32> {
    short_name(name).strip_prefix("stockfish-")?.parse().ok()
}

/// A player's name for the calibration table: an engine's `name=` label, a setting's spec.
pub fn short_name(name: &str) -> &str {
    name.rsplit_once(",name=").map_or(name, |(_, label)| label)
}

/// Level 10 at a node budget.
pub fn node_rung(nodes: u64) -> PlayerSpec {
    PlayerSpec::level(10).expect("level 10 exists").with_nodes(Some(nodes)).expect("level 10 thinks ahead")
}

/// A set of rules rated between two levels (`strength::BETWEEN_LEVELS`) or between level 9 and
/// level 10's budgets (`strength::BELOW_BUDGETS`).
pub fn between_levels(list: &'static str) -> PlayerSpec {
    PlayerSpec::from_setting(Setting::Features(list))
}

/// The settings a calibration rates: levels 1-9, the sets of rules between two of them, then
/// level 10 at each of [`NODE_RUNGS`].
pub fn settings() -> Vec<PlayerSpec> {
    let mut out: Vec<PlayerSpec> = (1..=9).map(|n| PlayerSpec::level(n).expect("levels 1-9 exist")).collect();
    out.extend(BETWEEN_LEVELS.iter().map(|b| between_levels(b.list)));
    out.extend(BELOW_BUDGETS.iter().map(|list| between_levels(list)));
    out.extend(NODE_RUNGS.iter().map(|&n| node_rung(n)));
    out
}

/// Every pairing of a calibration run. The agents' own pairings cost microseconds a move and
/// carry the long links (a level 9 that scores 96% against level 8 needs thousands of games to
/// pin the gap), so they are weighted far above the engine games.
pub fn schedule(engines: &Engines) -> Result<Vec<Pairing>, SpecError> {
    let level = |n| PlayerSpec::level(n).expect("levels 1-10 exist");
    let anchors = ANCHOR_ELOS.iter().map(|&e| stockfish(engines, e)).collect::<Result<Vec<_>, _>>()?;
    let sf = |elo| anchors[ANCHOR_ELOS.iter().position(|&e| e == elo).expect("an anchor")].clone();
    let pair = |a: PlayerSpec, b: PlayerSpec, weight| Pairing { a, b, weight, openings: true };
    let mut out = Vec::new();
    for i in 1..=8 {
        for j in i + 1..=8 {
            out.push(pair(level(i), level(j), 5));
        }
    }
    out.push(pair(level(9), level(8), 30));
    out.push(pair(level(9), level(7), 30));
    // A set of rules between two levels hangs from both.
    for b in BETWEEN_LEVELS {
        for n in [b.levels.0, b.levels.1] {
            out.push(pair(between_levels(b.list), level(u32::from(n)), 10));
        }
    }
    // Each setting from level 9 up meets the anchors around its rating at 1 s + 0.01 s;
    // level 9 carries the link down to the levels below the anchors, so it meets the lowest
    // one most.
    out.push(pair(level(9), sf(1350), 2));
    out.push(pair(level(9), sf(1500), 1));
    for (&nodes, around) in NODE_RUNGS.iter().zip([
        &[1350, 1500][..],
        &[1350, 1500],
        &[1350, 1500],
        &[1500, 1650],
        &[1650, 1800],
        &[1650, 1800],
        &[1800, 1900, 2000],
        &[1800, 1900, 2000],
        &[1800, 1900, 2000],
    ]) {
        for &elo in around {
            out.push(pair(node_rung(nodes), sf(elo), 2));
        }
    }
    let cross = |cmd: &Option<String>, name: &str| {
        cmd.as_ref().map(|cmd| format!("xboard:{cmd},tc={},name={name}", engines.tc).parse::<PlayerSpec>()).transpose()
    };
    // Fairy-Max takes no position (no `setboard`), so the cross-checks start from the
    // initial position.
    for (cmd, name) in [(&engines.fairymax, "fairymax"), (&engines.hoichess, "hoichess")] {
        if let Some(engine) = cross(cmd, name)? {
            out.push(Pairing { a: node_rung(2000), b: engine, weight: 1, openings: false });
        }
    }
    // Between level 9 and the budgets: hung from level 9 and the two lowest anchors. Last, so
    // that the pairings above keep their places and seeds.
    for list in BELOW_BUDGETS {
        out.push(pair(between_levels(list), level(9), 10));
        out.push(pair(between_levels(list), sf(1350), 2));
        out.push(pair(between_levels(list), sf(1500), 2));
    }
    Ok(out)
}

/// A rating on the public scale, with its 95% interval's half width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    pub elo: f64,
    pub half: f64,
}

/// The widest 95% interval (half width, Elo) a rating is given with: wider says nothing about a
/// strength (a setting that won or lost every one of a handful of games is rated thousands of
/// Elo away with an interval of millions).
pub const WIDEST_HALF: f64 = 400.0;

impl Rated {
    /// Whether the games say enough for a rating: finite, within `WIDEST_HALF`.
    pub fn is_rating(&self) -> bool {
        self.elo.is_finite() && self.half.is_finite() && self.half <= WIDEST_HALF
    }
}

/// The list shifted once so that the anchors' (index, nominal rating) mean rating is their mean
/// nominal rating. A player's interval is that of its rating less the anchors' mean, which is
/// what the shift leaves uncertain.
pub fn anchored(list: &RatingList, anchors: &[(usize, f64)]) -> Vec<Rated> {
    assert!(!anchors.is_empty(), "a scale needs at least one anchor");
    let k = anchors.len() as f64;
    let mean_fit = anchors.iter().map(|&(i, _)| list.elo[i]).sum::<f64>() / k;
    let mean_nominal = anchors.iter().map(|&(_, e)| e).sum::<f64>() / k;
    let cov = |i: usize, j: usize| list.cov[i][j];
    let anchor_block = anchors.iter().flat_map(|&(a, _)| anchors.iter().map(move |&(b, _)| (a, b)));
    let mean_mean = anchor_block.map(|(a, b)| cov(a, b)).sum::<f64>() / (k * k);
    (0..list.players.len())
        .map(|i| {
            let with_mean = anchors.iter().map(|&(a, _)| cov(i, a)).sum::<f64>() / k;
            let var = (cov(i, i) - 2.0 * with_mean + mean_mean).max(0.0);
            Rated { elo: list.elo[i] - mean_fit + mean_nominal, half: 1.959_963_984_540_054 * var.sqrt() }
        })
        .collect()
}

/// The list mapped onto the anchors' scale piece by piece: each anchor at its nominal rating, a
/// player whose fitted rating lies between two anchors' in the same proportion between their
/// nominal ratings, one below the lowest (or above the highest) anchor at its fitted distance
/// from it. Where the anchors' own fitted gaps differ from their nominal gaps (a scale measured
/// at another clock), this keeps every setting level with the anchor it is rated like, which
/// is what `UCI_Elo` promises; the single shift of [`anchored`] cannot. Intervals by the delta
/// method over the fit's covariance. `None` when fewer than one anchor has a finite rating or
/// the anchors' fitted order differs from their nominal order (the map would not be monotone).
pub fn on_anchors(list: &RatingList, anchors: &[(usize, f64)]) -> Option<Vec<Rated>> {
    let fitted = |i: usize| list.elo[i];
    let mut sorted: Vec<(usize, f64)> = anchors.iter().copied().filter(|&(i, _)| fitted(i).is_finite()).collect();
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
    if sorted.is_empty() || sorted.windows(2).any(|w| fitted(w[0].0) >= fitted(w[1].0)) {
        return None;
    }
    let rate = |i: usize| {
        let e = fitted(i);
        if !e.is_finite() {
            return Rated { elo: e, half: f64::NAN };
        }
        let k = sorted.iter().position(|&(a, _)| fitted(a) >= e).unwrap_or(sorted.len());
        // The mapped rating and its gradient over the fitted ratings it depends on.
        let (elo, grad) = if k == 0 || k == sorted.len() {
            let (a, nominal) = sorted[k.min(sorted.len() - 1)];
            (nominal + e - fitted(a), vec![(i, 1.0), (a, -1.0)])
        } else {
            let ((lo, n_lo), (hi, n_hi)) = (sorted[k - 1], sorted[k]);
            let d = fitted(hi) - fitted(lo);
            let (t, slope) = ((e - fitted(lo)) / d, (n_hi - n_lo) / d);
            (n_lo + t * (n_hi - n_lo), vec![(i, slope), (lo, slope * (t - 1.0)), (hi, -slope * t)])
        };
        let var: f64 = grad.iter().flat_map(|&(p, gp)| grad.iter().map(move |&(q, gq)| gp * gq * list.cov[p][q])).sum();
        Rated { elo, half: 1.959_963_984_540_054 * var.max(0.0).sqrt() }
    };
    Some((0..list.players.len()).map(rate).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::ratings::fit;
    use crate::experiments::stats::Wdl;

    fn engines() -> Engines {
        Engines { stockfish: "sf".into(), tc: "1+0.01".into(), fairymax: None, hoichess: Some("hoichess -x".into()) }
    }

    #[test]
    fn every_setting_is_linked_to_an_anchor() {
        let plan = schedule(&engines()).unwrap();
        let names: Vec<String> = plan.iter().flat_map(|p| [p.a.to_string(), p.b.to_string()]).collect();
        // Walk the pairings from the anchors: every setting must be reached.
        let mut reached: Vec<String> = names.iter().filter(|n| anchor_elo(n).is_some()).cloned().collect();
        loop {
            let before = reached.len();
            for p in &plan {
                let (a, b) = (p.a.to_string(), p.b.to_string());
                if reached.contains(&a) && !reached.contains(&b) {
                    reached.push(b);
                } else if reached.contains(&b) && !reached.contains(&a) {
                    reached.push(a);
                }
            }
            if reached.len() == before {
                break;
            }
        }
        for s in settings() {
            assert!(reached.contains(&s.to_string()), "{s} is not linked to the anchors");
        }
        let anchors: Vec<u32> = names.iter().filter_map(|n| anchor_elo(n)).collect();
        for elo in ANCHOR_ELOS {
            assert!(anchors.contains(&elo), "anchor {elo} plays no one");
        }
        assert!(names.iter().any(|n| short_name(n) == "hoichess"), "a present cross-check plays");
        assert!(!names.iter().any(|n| short_name(n) == "fairymax"), "an absent one does not");
    }

    #[test]
    fn a_bad_time_control_is_an_error() {
        let bad = Engines { tc: "soon".into(), ..engines() };
        assert!(schedule(&bad).is_err());
    }

    #[test]
    fn a_rating_needs_an_interval_that_says_something() {
        assert!(Rated { elo: 1500.0, half: 30.0 }.is_rating());
        assert!(Rated { elo: 1500.0, half: WIDEST_HALF }.is_rating());
        assert!(!Rated { elo: 4241.0, half: 5_681_837_527.0 }.is_rating());
        assert!(!Rated { elo: f64::INFINITY, half: 10.0 }.is_rating());
        assert!(!Rated { elo: 1500.0, half: f64::NAN }.is_rating());
    }

    #[test]
    fn anchor_names_round_trip() {
        assert_eq!(
            stockfish(&engines(), 1650).unwrap().to_string().rsplit_once("name=").map(|(_, n)| n),
            Some("stockfish-1650")
        );
        assert_eq!(anchor_elo(&stockfish(&engines(), 1650).unwrap().to_string()), Some(1650));
        assert_eq!(anchor_elo("xboard:fairymax,tc=1+0.01,name=fairymax"), None);
        assert_eq!(short_name("level:10,nodes=250"), "level:10,nodes=250");
    }

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl { wins, draws, losses }
    }

    /// A at 1000 by its games against anchor B (nominal 1000) and C (nominal 1200): A scores
    /// 50% against B and 24% against C (200 Elo); the fitted list agrees with the nominal
    /// values, so the shift puts A at 1000 whichever player `fit` anchored.
    #[test]
    fn the_shift_puts_the_anchors_mean_on_their_nominal_mean() {
        let players: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
        let results = [(0, 1, wdl(400, 200, 400)), (0, 2, wdl(200, 80, 720)), (1, 2, wdl(200, 80, 720))];
        for anchor in 0..3 {
            let list = fit(&players, &results, anchor);
            let rated = anchored(&list, &[(1, 1000.0), (2, 1200.0)]);
            assert!((rated[0].elo - 1000.0).abs() < 15.0, "A at {}", rated[0].elo);
            assert!(((rated[1].elo + rated[2].elo) / 2.0 - 1100.0).abs() < 1e-6);
            // A is rated through games, so its interval is real; nothing is infinitely sure.
            assert!(rated[0].half > 5.0 && rated[0].half < 60.0, "A ± {}", rated[0].half);
            // The same list whichever player fit anchored.
            let again = anchored(&fit(&players, &results, 0), &[(1, 1000.0), (2, 1200.0)]);
            assert!((again[0].elo - rated[0].elo).abs() < 1e-6);
            assert!((again[0].half - rated[0].half).abs() < 1e-6);
        }
    }

    /// The budgets are rated by the anchors alone: none plays another budget or level 9, and
    /// each meets two anchors.
    #[test]
    fn budgets_meet_anchors_not_each_other() {
        let plan = schedule(&engines()).unwrap();
        for nodes in NODE_RUNGS {
            let rung = node_rung(nodes);
            let met: Vec<&PlayerSpec> = plan
                .iter()
                .filter_map(|p| {
                    if p.a == rung {
                        Some(&p.b)
                    } else if p.b == rung {
                        Some(&p.a)
                    } else {
                        None
                    }
                })
                .collect();
            let anchors: Vec<u32> = met.iter().filter_map(|s| anchor_elo(&s.to_string())).collect();
            assert!(anchors.len() >= 2, "{rung} meets {anchors:?}");
            assert!(anchors.windows(2).all(|w| w[0] < w[1]), "{rung} meets {anchors:?}: each anchor once");
            let agents = met
                .iter()
                .filter(|s| anchor_elo(&s.to_string()).is_none() && short_name(&s.to_string()).starts_with("level"));
            assert_eq!(agents.count(), 0, "{rung} plays an agent");
        }
    }

    /// Two anchors whose fitted gap (about 400) is twice their nominal gap (200): a player
    /// halfway between them in the fit is halfway in the nominal scale; the anchors sit on their
    /// nominal ratings with no interval; a player below the lowest keeps its fitted distance.
    #[test]
    fn anchors_are_met_piece_by_piece() {
        let players: Vec<String> = ["low", "A", "mid", "B"].iter().map(|s| s.to_string()).collect();
        // low is 100 below A; mid 200 above A and 200 below B (scores from the logistic).
        let results = [(0, 1, wdl(360, 0, 640)), (1, 2, wdl(240, 0, 760)), (2, 3, wdl(240, 0, 760))];
        let list = fit(&players, &results, 1);
        let rated = on_anchors(&list, &[(1, 1500.0), (3, 1700.0)]).unwrap();
        assert_eq!((rated[1].elo, rated[1].half), (1500.0, 0.0));
        assert!((rated[3].elo - 1700.0).abs() < 1e-9 && rated[3].half < 1e-6);
        assert!((rated[2].elo - 1600.0).abs() < 5.0, "mid at {}", rated[2].elo);
        assert!((rated[0].elo - 1400.0).abs() < 10.0, "low at {}", rated[0].elo);
        assert!(rated[0].half > 10.0 && rated[2].half > 5.0);
        // The single shift puts mid elsewhere: the two maps differ when the scales do.
        let shifted = anchored(&list, &[(1, 1500.0), (3, 1700.0)]);
        assert!((shifted[2].elo - 1600.0).abs() < 5.0 && (shifted[1].elo - 1400.0).abs() < 10.0);
        // Anchors fitted in the wrong order give no monotone map.
        assert!(on_anchors(&list, &[(1, 1700.0), (3, 1500.0)]).is_none());
    }

    /// One anchor: its own interval is zero and the others' are those of the fit against it.
    #[test]
    fn one_anchor_is_certain() {
        let players: Vec<String> = ["A", "B"].iter().map(|s| s.to_string()).collect();
        let list = fit(&players, &[(0, 1, wdl(60, 20, 20))], 1);
        let rated = anchored(&list, &[(1, 1500.0)]);
        assert_eq!(rated[1], Rated { elo: 1500.0, half: 0.0 });
        let (lo, hi) = list.interval(0);
        assert!((rated[0].half - (hi - lo) / 2.0).abs() < 1e-6);
        assert!(rated[0].elo > 1500.0);
    }
}

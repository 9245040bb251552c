//! The win/draw/loss model behind `UCI_ShowWDL` ([`crate::players::wdl`]) fitted to games:
//! every move's score as the PGN's comment gives it (cutechess-cli and fastchess write
//! `{+0.35/12 0.123s}`), the material on the board after the move, and the game's result from
//! the mover's side. First `a` and `b` are fitted by maximum likelihood in each band of
//! material, then a cubic in the material runs through each, weighted by the bands' positions.

use super::fit::least;
use crate::board::Color;
use crate::board::pgn_reader::PgnGame;
use crate::board::values::material_points;
use crate::players::wdl::{MAX_MATERIAL, MIN_MATERIAL, WdlModel, chances};
use std::collections::BTreeMap;

/// A score beyond this is read as this: the chances are all but certain there.
pub const SCORE_CAP: i32 = 2_000;

/// A band of material is widened until it holds this many positions.
pub const BAND_POSITIONS: usize = 2_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One move's score with what came of the game, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub cp: i32,
    pub material: u32,
    pub outcome: Outcome,
}

/// A comment's score in centipawns: `+0.35/12 0.123s` is 35. Mates (`+M5/20`), book moves and
/// anything else give none.
pub fn comment_score(comment: &str) -> Option<i32> {
    let (score, _) = comment.split_once('/')?;
    let pawns: f64 = score.trim().parse().ok()?;
    pawns.is_finite().then(|| ((pawns * 100.0).round() as i32).clamp(-SCORE_CAP, SCORE_CAP))
}

/// The samples of a finished game: each move with a score in its comment, from every player
/// or, with `player`, only from the one of that name (its `White`/`Black` tag).
pub fn game_samples(game: &PgnGame, player: Option<&str>) -> Vec<Sample> {
    let white_result = match game.result.as_str() {
        "1-0" => Outcome::Win,
        "0-1" => Outcome::Loss,
        "1/2-1/2" => Outcome::Draw,
        _ => return Vec::new(),
    };
    let counts = |color: Color| {
        let tag = if color == Color::White { "White" } else { "Black" };
        player.is_none_or(|name| game.tag(tag) == Some(name))
    };
    let mut pos = game.start;
    let mut out = Vec::new();
    for (&mv, comment) in game.moves.iter().zip(&game.comments) {
        let mover = pos.side_to_move();
        pos = pos.play(mv);
        if let Some(cp) = comment_score(comment)
            && counts(mover)
        {
            let outcome = if mover == Color::White { white_result } else { flip(white_result) };
            out.push(Sample { cp, material: material_points(&pos), outcome });
        }
    }
    out
}

fn flip(o: Outcome) -> Outcome {
    match o {
        Outcome::Win => Outcome::Loss,
        Outcome::Draw => Outcome::Draw,
        Outcome::Loss => Outcome::Win,
    }
}

/// Counts of wins, draws and losses per score.
type Tally = BTreeMap<i32, [u32; 3]>;

fn tally<'a>(samples: impl IntoIterator<Item = &'a Sample>) -> Tally {
    let mut t = Tally::new();
    for s in samples {
        t.entry(s.cp).or_default()[s.outcome as usize] += 1;
    }
    t
}

/// The negative log-likelihood of the tally under `a` and `b`.
fn cost(t: &Tally, a: f64, b: f64) -> f64 {
    t.iter()
        .map(|(&cp, n)| {
            let (w, d, l) = chances(f64::from(cp), a, b);
            -[w, d, l].iter().zip(n).map(|(p, &k)| f64::from(k) * p.max(1e-12).ln()).sum::<f64>()
        })
        .sum()
}

/// `a` and `b` fitted to the samples by maximum likelihood (in turn, each with the other held).
pub fn fit_params(samples: &[Sample]) -> (f64, f64) {
    let t = tally(samples);
    let (mut a, mut b) = (150.0, 100.0);
    for _ in 0..12 {
        a = least(1.0, 3_000.0, 50, |a| cost(&t, a, b));
        b = least(1.0, 1_500.0, 50, |b| cost(&t, a, b));
    }
    (a, b)
}

/// One band of material: the mean material of its positions, how many, and `a`, `b` fitted there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    pub material: f64,
    pub positions: usize,
    pub a: f64,
    pub b: f64,
}

/// The samples split by material (each band widened to [`BAND_POSITIONS`], the last one
/// joining the band before when short) and fitted band by band.
pub fn bands(samples: &[Sample]) -> Vec<Band> {
    let mut by_material: BTreeMap<u32, Vec<Sample>> = BTreeMap::new();
    for s in samples {
        let m = s.material.clamp(MIN_MATERIAL, MAX_MATERIAL);
        by_material.entry(m).or_default().push(*s);
    }
    let mut groups: Vec<Vec<Sample>> = Vec::new();
    let mut current = Vec::new();
    for (_, group) in by_material {
        current.extend(group);
        if current.len() >= BAND_POSITIONS {
            groups.push(std::mem::take(&mut current));
        }
    }
    match groups.last_mut() {
        Some(last) => last.extend(current),
        None if !current.is_empty() => groups.push(current),
        None => {}
    }
    groups
        .iter()
        .map(|g| {
            let (a, b) = fit_params(g);
            let material =
                g.iter().map(|s| f64::from(s.material.clamp(MIN_MATERIAL, MAX_MATERIAL))).sum::<f64>() / g.len() as f64;
            Band { material, positions: g.len(), a, b }
        })
        .collect()
}

/// The cubic `c0 + c1 t + c2 t² + c3 t³` through points `(t, y)` with weights, by weighted
/// least squares; `None` with fewer than four points.
pub fn cubic_fit(points: &[(f64, f64, f64)]) -> Option<[f64; 4]> {
    if points.len() < 4 {
        return None;
    }
    let mut m = [[0.0f64; 5]; 4];
    for &(t, y, w) in points {
        let powers = [1.0, t, t * t, t * t * t];
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += w * powers[i] * powers[j];
            }
            m[i][4] += w * powers[i] * y;
        }
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..4 {
        let pivot = (col..4).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        m.swap(col, pivot);
        if m[col][col].abs() < 1e-12 {
            return None;
        }
        let pivot_row = m[col];
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    Some([0, 1, 2, 3].map(|i| m[i][4] / m[i][i]))
}

/// The model fitted to the samples: cubics through the bands' `a` and `b`; `None` when the
/// samples fill fewer than four bands.
pub fn fit(samples: &[Sample]) -> Option<WdlModel> {
    let bands = bands(samples);
    let points = |pick: fn(&Band) -> f64| {
        bands.iter().map(|b| (b.material / f64::from(MAX_MATERIAL), pick(b), b.positions as f64)).collect::<Vec<_>>()
    };
    Some(WdlModel { a: cubic_fit(&points(|b| b.a))?, b: cubic_fit(&points(|b| b.b))? })
}

/// The mean negative log-likelihood of the outcomes under a model (lower is better; a model
/// that knows nothing but the draw rate is the yardstick).
pub fn log_loss(samples: &[Sample], model: &WdlModel) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let (w, d, l) = model.chances(f64::from(s.cp), s.material);
            -[w, d, l][s.outcome as usize].max(1e-12).ln()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// A band of scores: how many positions, the shares of wins, draws and losses seen, and those
/// the model expects (its mean over the positions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub low: i32,
    pub high: i32,
    pub positions: usize,
    pub seen: [f64; 3],
    pub expected: [f64; 3],
}

/// The model against the outcomes, band by band of `width` centipawns from `-limit` to `limit`.
pub fn calibration(samples: &[Sample], model: &WdlModel, width: i32, limit: i32) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut low = -limit;
    while low < limit {
        let high = low + width;
        let inside: Vec<&Sample> = samples.iter().filter(|s| (low..high).contains(&s.cp)).collect();
        if !inside.is_empty() {
            let n = inside.len() as f64;
            let mut seen = [0.0; 3];
            let mut expected = [0.0; 3];
            for s in &inside {
                seen[s.outcome as usize] += 1.0 / n;
                let (w, d, l) = model.chances(f64::from(s.cp), s.material);
                for (e, p) in expected.iter_mut().zip([w, d, l]) {
                    *e += p / n;
                }
            }
            rows.push(Row { low, high, positions: inside.len(), seen, expected });
        }
        low = high;
    }
    rows
}

/// The model as the Rust constant `players/wdl.rs` holds.
pub fn model_source(model: &WdlModel) -> String {
    let list = |c: &[f64; 4]| c.iter().map(|x| format!("{x:.3}")).collect::<Vec<_>>().join(", ");
    format!("pub const MODEL: WdlModel = WdlModel {{ a: [{}], b: [{}] }};", list(&model.a), list(&model.b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::pgn_reader::read_games;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn a_comment_gives_its_score_and_a_mate_or_a_book_move_none() {
        assert_eq!(comment_score("+0.35/12 0.123s"), Some(35));
        assert_eq!(comment_score("-1.07/9 0.050s"), Some(-107));
        assert_eq!(comment_score("0.00/13 0.131s"), Some(0));
        assert_eq!(comment_score("+99.00/20 1s"), Some(SCORE_CAP));
        assert_eq!(comment_score("+M5/20 0.1s"), None);
        assert_eq!(comment_score("book"), None);
        assert_eq!(comment_score(""), None);
    }

    #[test]
    fn samples_are_from_the_movers_side_and_only_the_named_players() {
        let text = "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n\
                    1. e4 {+0.30/10 0.1s} e5 {+0.10/10 0.1s} 2. Qh5 {book} Nc6 {+0.50/10 0.1s} 0-1\n";
        let game = read_games(text).remove(0).unwrap();
        let all = game_samples(&game, None);
        assert_eq!(
            all.iter().map(|s| (s.cp, s.outcome)).collect::<Vec<_>>(),
            [(30, Outcome::Loss), (10, Outcome::Win), (50, Outcome::Win)]
        );
        assert_eq!(all[0].material, MAX_MATERIAL);
        assert_eq!(game_samples(&game, Some("a")).len(), 1);
        assert_eq!(game_samples(&game, Some("b")).len(), 2);
        let unfinished = read_games("1. e4 {+0.30/10 0.1s} *\n").remove(0).unwrap();
        assert!(game_samples(&unfinished, None).is_empty());
    }

    /// Outcomes drawn from a known model are fitted back to it.
    fn drawn(model: &WdlModel, n: usize, seed: u64) -> Vec<Sample> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let cp = rng.random_range(-600..=600);
                let material = rng.random_range(MIN_MATERIAL..=MAX_MATERIAL);
                let (w, d, _) = model.chances(f64::from(cp), material);
                let u: f64 = rng.random();
                let outcome = if u < w {
                    Outcome::Win
                } else if u < w + d {
                    Outcome::Draw
                } else {
                    Outcome::Loss
                };
                Sample { cp, material, outcome }
            })
            .collect()
    }

    #[test]
    fn a_known_model_is_fitted_back() {
        let truth = WdlModel { a: [400.0, -500.0, 300.0, 0.0], b: [120.0, -60.0, 0.0, 0.0] };
        let samples = drawn(&truth, 60_000, 7);
        let fitted = fit(&samples).unwrap();
        for material in [12, 30, 50, 70] {
            let (a, b) = (truth.params(material), fitted.params(material));
            assert!((a.0 - b.0).abs() < 0.12 * a.0, "a at {material}: {a:?} {b:?}");
            assert!((a.1 - b.1).abs() < 0.15 * a.1, "b at {material}: {a:?} {b:?}");
        }
        assert!(log_loss(&samples, &fitted) <= log_loss(&samples, &truth) + 0.002);
        // The model fitted is calibrated on its own samples.
        for row in calibration(&samples, &fitted, 200, 600) {
            for k in 0..3 {
                assert!((row.seen[k] - row.expected[k]).abs() < 0.03, "{row:?}");
            }
        }
    }

    #[test]
    fn a_cubic_through_its_own_points_is_found() {
        let c = [3.0, -2.0, 0.5, 1.5];
        let at = |t: f64| c[0] + c[1] * t + c[2] * t * t + c[3] * t * t * t;
        let points: Vec<_> = (0..10).map(|i| f64::from(i) / 9.0).map(|t| (t, at(t), 1.0)).collect();
        let got = cubic_fit(&points).unwrap();
        for (g, w) in got.iter().zip(c) {
            assert!((g - w).abs() < 1e-9, "{got:?}");
        }
        assert!(cubic_fit(&points[..3]).is_none());
    }

    #[test]
    fn the_source_line_is_the_constant() {
        let m = WdlModel { a: [1.0, 2.5, -3.0, 0.125], b: [4.0, 0.0, 0.0, 0.0] };
        assert_eq!(
            model_source(&m),
            "pub const MODEL: WdlModel = WdlModel { a: [1.000, 2.500, -3.000, 0.125], b: [4.000, 0.000, 0.000, 0.000] };"
        );
    }
}

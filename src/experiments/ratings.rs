//! A rating list from any set of games: the maximum-likelihood fit of one Elo rating per player
//! under the logistic model that Ordo and BayesElo use (draws count half a point), with one
//! player anchored at 0, 95% intervals and the likelihood of superiority of every pair.
//!
//! A pairing's expected score is p = 1 / (1 + 10^((r_j - r_i) / 400)); the log-likelihood sums
//! s ln p + (n - s) ln(1 - p) over pairings, s being i's points in n games. Newton's method finds
//! the maximum (the log-likelihood is concave, a halving line search keeps every step uphill).
//! The intervals come from the sandwich covariance J⁻¹ V J⁻¹: J is the information of the model,
//! V the observed spread of the per-game scores around the fit, so that draws, which make a
//! game's score vary less than a win-or-loss coin would, narrow the intervals as they do in the
//! pairing table's.

use super::stats::{Wdl, erf};

/// d p / d r at p = 1/2 per unit of p(1-p): the logistic's slope in Elo units.
const C: f64 = std::f64::consts::LN_10 / 400.0;
const Z95: f64 = 1.959_963_984_540_054;

/// Ratings of every player, relative to the anchor.
#[derive(Clone, Debug)]
pub struct RatingList {
    pub players: Vec<String>,
    /// The player whose rating is 0 by definition.
    pub anchor: usize,
    /// Elo relative to the anchor: +∞ (−∞) for a player who won (lost) every game that counts,
    /// NaN for one with no games linking it to the anchor.
    pub elo: Vec<f64>,
    /// Covariance of the ratings (zero row and column for the anchor; NaN where undefined).
    pub cov: Vec<Vec<f64>>,
    pub games: Vec<u32>,
    pub points: Vec<f64>,
    /// False when Newton's method ran out of iterations (a group that won every game against
    /// the rest has no finite maximum); the ratings are then the last iterate.
    pub converged: bool,
}

impl RatingList {
    /// Standard error of a player's rating relative to the anchor.
    pub fn se(&self, i: usize) -> f64 {
        self.cov[i][i].max(0.0).sqrt()
    }

    /// 95% interval of a player's rating.
    pub fn interval(&self, i: usize) -> (f64, f64) {
        let e = self.elo[i];
        if !e.is_finite() {
            return (e, e);
        }
        let half = Z95 * self.se(i);
        (e - half, e + half)
    }

    /// Likelihood of superiority: the probability that `i` is the stronger of the two, from the
    /// normal approximation of the difference of their ratings.
    pub fn los(&self, i: usize, j: usize) -> f64 {
        let (a, b) = (self.elo[i], self.elo[j]);
        if a.is_nan() || b.is_nan() {
            return f64::NAN;
        }
        if a == b {
            return 0.5;
        }
        if !a.is_finite() || !b.is_finite() {
            return if a > b { 1.0 } else { 0.0 };
        }
        let var = self.cov[i][i] + self.cov[j][j] - 2.0 * self.cov[i][j];
        if var <= 0.0 {
            return if a > b { 1.0 } else { 0.0 };
        }
        0.5 * (1.0 + erf((a - b) / (2.0 * var).sqrt()))
    }

    /// Players from the highest rating down (unrated ones last).
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        let key = |i: usize| if self.elo[i].is_nan() { f64::NEG_INFINITY } else { self.elo[i] };
        order.sort_by(|&i, &j| key(j).total_cmp(&key(i)).then(i.cmp(&j)));
        order
    }
}

/// Fits the ratings of `players` from the results of their pairings: (i, j, i's W/D/L against
/// j). A pairing may be listed more than once; its results add up.
pub fn fit(players: &[String], results: &[(usize, usize, Wdl)], anchor: usize) -> RatingList {
    let n = players.len();
    let mut pair = vec![vec![Wdl::default(); n]; n];
    for &(i, j, w) in results {
        if i == j {
            continue;
        }
        pair[i][j] = pair[i][j] + w;
        pair[j][i] = pair[j][i] + Wdl { wins: w.losses, draws: w.draws, losses: w.wins };
    }
    let games: Vec<u32> = (0..n).map(|i| pair[i].iter().map(|w| w.games()).sum()).collect();
    let points: Vec<f64> = (0..n).map(|i| pair[i].iter().map(|w| w.wins as f64 + 0.5 * w.draws as f64).sum()).collect();
    let mut elo = vec![0.0; n];
    let mut active: Vec<bool> = games.iter().map(|&g| g > 0).collect();
    // A player who won (lost) every game left has no finite maximum: it goes to ±∞ and its games
    // carry no more information about the others (each had probability 1 in the limit).
    loop {
        let mut changed = false;
        for i in 0..n {
            if !active[i] {
                continue;
            }
            let (g, s) = (0..n).filter(|&j| active[j]).fold((0u32, 0.0), |(g, s), j| {
                (g + pair[i][j].games(), s + pair[i][j].wins as f64 + 0.5 * pair[i][j].draws as f64)
            });
            if g > 0 && (s == 0.0 || s == g as f64) {
                elo[i] = if s == 0.0 { f64::NEG_INFINITY } else { f64::INFINITY };
                active[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let anchor = if active[anchor] || active.iter().all(|a| !a) {
        anchor
    } else {
        let first = active.iter().position(|&a| a).unwrap_or(anchor);
        // An anchor with no games yet (a list of a run's first games) is no surprise; one that
        // won or lost every game (a sweep, as a much stronger player scores) is worth a note.
        if games[anchor] == 0 {
            log::debug!("anchor {} has played no game; {} anchors the list instead", players[anchor], players[first]);
        } else {
            log::info!("anchor {} has no finite rating; {} anchors the list instead", players[anchor], players[first]);
        }
        first
    };
    // Only players linked to the anchor by games can be rated against it.
    let mut linked = vec![false; n];
    let mut stack = vec![anchor];
    while let Some(i) = stack.pop() {
        if linked[i] || !active[i] {
            continue;
        }
        linked[i] = true;
        stack.extend((0..n).filter(|&j| active[j] && !linked[j] && pair[i][j].games() > 0));
    }
    for i in 0..n {
        if (active[i] && !linked[i]) || games[i] == 0 {
            elo[i] = f64::NAN;
        }
    }
    let free: Vec<usize> = (0..n).filter(|&i| linked[i] && i != anchor).collect();
    let expected = |r: &[f64], i: usize, j: usize| 1.0 / (1.0 + 10f64.powf((r[j] - r[i]) / 400.0));
    let log_likelihood = |r: &[f64]| {
        let mut l = 0.0;
        for i in (0..n).filter(|&i| linked[i]) {
            for j in (i + 1..n).filter(|&j| linked[j]) {
                let w = pair[i][j];
                if w.games() > 0 {
                    let p = expected(r, i, j);
                    let s = w.wins as f64 + 0.5 * w.draws as f64;
                    l += s * p.ln() + (w.games() as f64 - s) * (1.0 - p).ln();
                }
            }
        }
        l
    };
    // J (information) and the gradient over the free players.
    let information = |r: &[f64]| -> (Vec<Vec<f64>>, Vec<f64>) {
        let k = free.len();
        let mut jm = vec![vec![0.0; k]; k];
        let mut grad = vec![0.0; k];
        for (a, &i) in free.iter().enumerate() {
            for j in (0..n).filter(|&j| linked[j] && j != i) {
                let w = pair[i][j];
                if w.games() == 0 {
                    continue;
                }
                let p = expected(r, i, j);
                let weight = C * C * w.games() as f64 * p * (1.0 - p);
                grad[a] += C * (w.wins as f64 + 0.5 * w.draws as f64 - w.games() as f64 * p);
                jm[a][a] += weight;
                if let Some(b) = free.iter().position(|&f| f == j) {
                    jm[a][b] -= weight;
                }
            }
        }
        (jm, grad)
    };
    let mut converged = true;
    if !free.is_empty() {
        converged = false;
        for _ in 0..200 {
            let (jm, grad) = information(&elo);
            let Some(step) = solve(&jm, &grad) else { break };
            let before = log_likelihood(&elo);
            let mut scale = 1.0;
            let mut next = elo.clone();
            for _ in 0..60 {
                for (a, &i) in free.iter().enumerate() {
                    next[i] = elo[i] + scale * step[a];
                }
                if log_likelihood(&next) >= before - 1e-12 {
                    break;
                }
                scale *= 0.5;
            }
            let moved = free.iter().map(|&i| (next[i] - elo[i]).abs()).fold(0.0, f64::max);
            elo = next;
            if moved < 1e-7 {
                converged = true;
                break;
            }
        }
        if !converged {
            log::warn!("the rating fit did not converge: some group of players won every game against the rest");
        }
    }
    let mut cov = vec![vec![0.0; n]; n];
    for i in 0..n {
        if !linked[i] {
            cov[i][i] = f64::NAN;
        }
    }
    if !free.is_empty() {
        let (jm, _) = information(&elo);
        // V: the per-game scores' squared residuals around the fit, pairing by pairing.
        let k = free.len();
        let mut v = vec![vec![0.0; k]; k];
        for (a, &i) in free.iter().enumerate() {
            for j in (0..n).filter(|&j| linked[j] && j != i) {
                let w = pair[i][j];
                let p = expected(&elo, i, j);
                // A pairing whose games were all drawn shows no spread, which says little
                // about how its scores would vary: it counts one win and one loss more here
                // (as the two-player interval does), so that its rating is not a certainty.
                let (wins, losses) = if w.wins + w.losses == 0 && w.draws > 0 { (1, 1) } else { (w.wins, w.losses) };
                let m = C
                    * C
                    * (wins as f64 * (1.0 - p).powi(2) + w.draws as f64 * (0.5 - p).powi(2) + losses as f64 * p * p);
                v[a][a] += m;
                if let Some(b) = free.iter().position(|&f| f == j) {
                    v[a][b] -= m;
                }
            }
        }
        match invert(&jm) {
            Some(ji) => {
                let sandwich = mat_mul(&mat_mul(&ji, &v), &ji);
                for (a, &i) in free.iter().enumerate() {
                    for (b, &j) in free.iter().enumerate() {
                        cov[i][j] = sandwich[a][b];
                    }
                }
            }
            None => free.iter().for_each(|&i| cov[i][i] = f64::NAN),
        }
    }
    RatingList { players: players.to_vec(), anchor, elo, cov, games, points, converged }
}

/// Solves `m x = b` by Gaussian elimination with partial pivoting; None when `m` is singular.
fn solve(m: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let k = b.len();
    let mut a: Vec<Vec<f64>> =
        m.iter().zip(b).map(|(row, &bi)| row.iter().copied().chain(std::iter::once(bi)).collect()).collect();
    for col in 0..k {
        let pivot = (col..k).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            if r != col && f != 0.0 {
                row[col..].iter_mut().zip(&pivot_row[col..]).for_each(|(x, p)| *x -= f * p);
            }
        }
    }
    Some((0..k).map(|i| a[i][k] / a[i][i]).collect())
}

fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let k = m.len();
    let columns: Option<Vec<Vec<f64>>> =
        (0..k).map(|c| solve(m, &(0..k).map(|r| f64::from(u8::from(r == c))).collect::<Vec<_>>())).collect();
    let columns = columns?;
    Some((0..k).map(|r| (0..k).map(|c| columns[c][r]).collect()).collect())
}

fn mat_mul(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let k = b.first().map_or(0, Vec::len);
    a.iter().map(|row| (0..k).map(|c| row.iter().zip(b).map(|(x, brow)| x * brow[c]).sum()).collect()).collect()
}

/// A rating found against opponents whose ratings are held fixed (public anchors, as Ordo's
/// `-m` holds them): the maximum of the same log-likelihood over this one rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedRating {
    /// +∞ (−∞) after winning (losing) every game, NaN without games.
    pub elo: f64,
    /// Half the 95% interval (sandwich, as in [`fit`]); NaN where the rating is not finite.
    pub half: f64,
}

/// The rating that best explains `results`: W/D/L against opponents of the given fixed ratings.
pub fn against_fixed(results: &[(f64, Wdl)]) -> FixedRating {
    let (games, points) =
        results.iter().fold((0u32, 0.0), |(g, s), (_, w)| (g + w.games(), s + w.wins as f64 + 0.5 * w.draws as f64));
    if games == 0 {
        return FixedRating { elo: f64::NAN, half: f64::NAN };
    }
    if points == 0.0 || points == games as f64 {
        let elo = if points == 0.0 { f64::NEG_INFINITY } else { f64::INFINITY };
        return FixedRating { elo, half: f64::NAN };
    }
    let expected = |r: f64, opponent: f64| 1.0 / (1.0 + 10f64.powf((opponent - r) / 400.0));
    // The score is increasing in r, so the maximum is where it equals the points scored:
    // bisection between bounds far outside any rating finds it without a step going astray.
    let score = |r: f64| results.iter().map(|&(o, w)| w.games() as f64 * expected(r, o)).sum::<f64>();
    let (mut lo, mut hi) = (-10_000.0, 20_000.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if score(mid) < points {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let elo = 0.5 * (lo + hi);
    let (mut information, mut spread) = (0.0, 0.0);
    for &(o, w) in results {
        let p = expected(elo, o);
        information += C * C * w.games() as f64 * p * (1.0 - p);
        let squares = w.wins as f64 * (1.0 - p).powi(2) + w.draws as f64 * (0.5 - p).powi(2) + w.losses as f64 * p * p;
        spread += C * C * squares;
    }
    FixedRating { elo, half: Z95 * (spread.sqrt() / information) }
}

/// The line `elo = a + slope * x` that best explains results at several `x` (the logarithm of a
/// node budget, say) against opponents of fixed ratings: `(x, opponent, W/D/L)`. `None` when
/// fewer than two distinct `x` have games, or the games fix no finite line (a sweep).
pub fn line_against_fixed(results: &[(f64, f64, Wdl)]) -> Option<(f64, f64)> {
    let played: Vec<&(f64, f64, Wdl)> = results.iter().filter(|r| r.2.games() > 0).collect();
    let games: f64 = played.iter().map(|r| r.2.games() as f64).sum();
    let first = played.first()?.0;
    if played.iter().all(|r| r.0 == first) {
        return None;
    }
    // Centred on the games' mean x, so that the two parameters hardly interact.
    let centre = played.iter().map(|r| r.0 * r.2.games() as f64).sum::<f64>() / games;
    let expected =
        |a: f64, b: f64, r: &(f64, f64, Wdl)| 1.0 / (1.0 + 10f64.powf((r.1 - a - b * (r.0 - centre)) / 400.0));
    let log_likelihood = |a: f64, b: f64| {
        played.iter().fold(0.0, |l, r| {
            let (p, s) = (expected(a, b, r), r.2.points());
            l + s * p.ln() + (r.2.games() as f64 - s) * (1.0 - p).ln()
        })
    };
    let (mut a, mut b) = (played.iter().map(|r| r.1 * r.2.games() as f64).sum::<f64>() / games, 0.0);
    for _ in 0..200 {
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for r in &played {
            let (p, n, x) = (expected(a, b, r), r.2.games() as f64, r.0 - centre);
            let residual = C * (r.2.points() - n * p);
            let weight = C * C * n * p * (1.0 - p);
            (ga, gb) = (ga + residual, gb + residual * x);
            (haa, hab, hbb) = (haa + weight, hab + weight * x, hbb + weight * x * x);
        }
        let det = haa * hbb - hab * hab;
        if det <= 0.0 || !det.is_finite() {
            return None;
        }
        let (da, db) = ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det);
        let before = log_likelihood(a, b);
        let mut scale = 1.0;
        while scale > 1e-9 && log_likelihood(a + scale * da, b + scale * db) < before - 1e-12 {
            scale *= 0.5;
        }
        (a, b) = (a + scale * da, b + scale * db);
        if (scale * da).abs() < 1e-7 && (scale * db).abs() < 1e-9 {
            return (a.is_finite() && b.is_finite() && b.abs() < 1e6).then_some((a - b * centre, b));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("p{i}")).collect()
    }

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl { wins, draws, losses }
    }

    /// When every pairing's score already fits the model (odds multiply along the chain), the
    /// maximum-likelihood ratings are the pairings' own Elo differences: A scores 10 of 15 against
    /// B (odds 2), B 10 of 15 against C (odds 2), A 12 of 15 against C (odds 4), so with C at 0,
    /// B = 400 log10 2 = 120.41 and A = 400 log10 4 = 240.82.
    #[test]
    fn three_players_with_consistent_odds_get_closed_form_ratings() {
        let results = [(0, 1, wdl(8, 4, 3)), (1, 2, wdl(10, 0, 5)), (0, 2, wdl(11, 2, 2))];
        let r = fit(&names(3), &results, 2);
        assert!(r.converged);
        assert!((r.elo[1] - 120.411_998).abs() < 1e-4, "{:?}", r.elo);
        assert!((r.elo[0] - 240.823_997).abs() < 1e-4, "{:?}", r.elo);
        assert_eq!(r.elo[2], 0.0);
        assert_eq!(r.ranking(), vec![0, 1, 2]);
        assert_eq!((r.games[0], r.points[0]), (30, 22.0));
        // Another anchor only shifts the list.
        let shifted = fit(&names(3), &results, 0);
        assert!((shifted.elo[2] + 240.823_997).abs() < 1e-4 && (shifted.elo[1] + 120.411_998).abs() < 1e-4);
    }

    /// Two players: the rating is the pairing's Elo difference and the sandwich variance is the
    /// delta method's, var(s) / (n (s (1 - s) C)²): 6-2-2 gives s = 0.7, per-game variance 0.16,
    /// se = sqrt(0.016) / (0.21 ln(10) / 400) = 104.637, so 147.19 ± 205.08.
    #[test]
    fn two_players_interval_and_los_hand_computed() {
        let r = fit(&names(2), &[(1, 0, wdl(6, 2, 2))], 0);
        assert!((r.elo[1] - 400.0 * (7.0f64 / 3.0).log10()).abs() < 1e-6);
        assert!((r.se(1) - 104.637).abs() < 1e-3, "{}", r.se(1));
        let (lo, hi) = r.interval(1);
        assert!((lo - (147.1907 - 205.0846)).abs() < 1e-3 && (hi - (147.1907 + 205.0846)).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(r.se(0), 0.0);
        // LOS = Φ(147.19 / 104.637) = Φ(1.40668) = 0.92024.
        assert!((r.los(1, 0) - 0.920_24).abs() < 1e-4, "{}", r.los(1, 0));
        assert!((r.los(0, 1) + r.los(1, 0) - 1.0).abs() < 1e-12);
    }

    /// Every game drawn: level, and not with certainty. 0-4-0 with one win and one loss added to
    /// the residuals: J = C² · 4 · 0.25 = C², V = C² (0.25 + 0.25), so se = sqrt(V) / J = sqrt(0.5) / C.
    #[test]
    fn all_draws_rate_level_with_an_interval() {
        let r = fit(&names(2), &[(1, 0, wdl(0, 4, 0))], 0);
        assert_eq!(r.elo[1], 0.0);
        let se = 0.5f64.sqrt() / C;
        assert!((r.se(1) - se).abs() < 1e-6 && se > 100.0, "{} {se}", r.se(1));
    }

    /// A cycle in which everyone beats the next by the same margin leaves everyone level.
    #[test]
    fn a_balanced_cycle_rates_everyone_equal() {
        let results = [(0, 1, wdl(2, 0, 1)), (1, 2, wdl(2, 0, 1)), (2, 0, wdl(2, 0, 1))];
        let r = fit(&names(3), &results, 0);
        assert!(r.elo.iter().all(|e| e.abs() < 1e-6), "{:?}", r.elo);
        assert!((r.los(1, 2) - 0.5).abs() < 1e-9);
    }

    /// A player who won every game is +∞ (and one who lost every game −∞); the rest are rated
    /// among themselves as if those games had not been played. A player without games is NaN.
    #[test]
    fn perfect_scores_are_infinite_and_the_rest_still_fit() {
        let results = [
            (0, 1, wdl(5, 0, 0)),
            (0, 2, wdl(3, 0, 0)),
            (1, 2, wdl(0, 6, 0)),
            (3, 1, wdl(0, 0, 4)),
            (3, 2, wdl(0, 0, 2)),
        ];
        let r = fit(&names(5), &results, 1);
        assert_eq!(r.elo[0], f64::INFINITY);
        assert_eq!(r.elo[3], f64::NEG_INFINITY);
        assert!(r.elo[2].abs() < 1e-9 && r.elo[1] == 0.0);
        assert!(r.elo[4].is_nan());
        assert_eq!(r.los(0, 2), 1.0);
        assert_eq!(r.ranking(), vec![0, 1, 2, 3, 4]);
        // Anchoring the infinite player moves the anchor to the first finite one.
        assert_eq!(fit(&names(5), &results, 0).anchor, 1);
    }

    /// Held against fixed ratings: a 75% score against one opponent at 2000 is 2000 + 191, two
    /// opponents combine, and sweeps and empty records are said as such.
    #[test]
    fn a_rating_against_fixed_opponents() {
        let w = |wins, draws, losses| Wdl { wins, draws, losses };
        let r = against_fixed(&[(2000.0, w(60, 30, 10))]);
        assert!((r.elo - 2190.8).abs() < 0.5, "{r:?}");
        assert!(r.half > 30.0 && r.half < 100.0, "{r:?}");
        // More games, a narrower interval; draws instead of wins and losses, narrower too.
        assert!(against_fixed(&[(2000.0, w(240, 120, 40))]).half < r.half / 1.9);
        assert!((against_fixed(&[(2000.0, w(0, 100, 0))]).elo - 2000.0).abs() < 1e-6);
        let wide = against_fixed(&[(2000.0, w(50, 0, 50))]).half;
        let narrow = against_fixed(&[(2000.0, w(25, 50, 25))]).half;
        assert!(narrow < wide, "{narrow} {wide}");
        // Even against 1800 and 2200 alike: 2000.
        let two = against_fixed(&[(1800.0, w(30, 0, 10)), (2200.0, w(10, 0, 30))]);
        assert!((two.elo - 2000.0).abs() < 1e-6, "{two:?}");
        assert_eq!(against_fixed(&[(2000.0, w(5, 0, 0))]).elo, f64::INFINITY);
        assert_eq!(against_fixed(&[(2000.0, w(0, 0, 5))]).elo, f64::NEG_INFINITY);
        assert!(against_fixed(&[]).elo.is_nan());
    }

    /// Results drawn from a known line come back as that line; one x alone fixes no line.
    #[test]
    fn a_line_against_fixed_opponents() {
        let w = |wins, draws, losses| Wdl { wins, draws, losses };
        // At x = 0 even against 2000 and at x = 2 even against 2300: elo = 2000 + 150 x.
        let (a, b) = line_against_fixed(&[(0.0, 2000.0, w(40, 20, 40)), (2.0, 2300.0, w(30, 40, 30))]).unwrap();
        assert!((a - 2000.0).abs() < 1e-3 && (b - 150.0).abs() < 1e-3, "{a} {b}");
        // 75% at x = 1 against 1809.2 is 2000 there, between the two.
        let three = [(0.0, 2000.0, w(50, 0, 50)), (1.0, 1809.2, w(75, 0, 25)), (2.0, 2300.0, w(50, 0, 50))];
        let (a, b) = line_against_fixed(&three).unwrap();
        assert!(a > 1950.0 && a < 2050.0 && b > 100.0 && b < 200.0, "{a} {b}");
        assert_eq!(line_against_fixed(&[(1.0, 2000.0, w(5, 0, 5)), (1.0, 2100.0, w(5, 0, 5))]), None);
        assert_eq!(line_against_fixed(&[]), None);
    }
}

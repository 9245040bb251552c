//! Texel's method: the judgement is a linear sum of weights blended by the phase, so each
//! position is kept as the counts of the terms it got; the weights are fitted so that a
//! logistic map of the judgement predicts the games' results, by least squares (Adam steps on
//! the whole set, spread over threads). Pure arithmetic: no board, no files.

use crate::agents::judgement::score::{FULL_PHASE, FULL_SCALE, S};

/// Positions as the fit sees them: each one's term counts (sparse), phase, endgame scale and
/// result from White's side (1, ½, 0).
#[derive(Default, Clone)]
pub struct Samples {
    entries: Vec<(u16, i16)>,
    starts: Vec<u32>,
    phase: Vec<u8>,
    scale: Vec<u8>,
    result: Vec<f32>,
}

/// Weights while fitting: (middlegame, endgame) as real numbers.
pub type Weights = Vec<[f64; 2]>;

pub fn to_real(weights: &[S]) -> Weights {
    weights.iter().map(|w| [f64::from(w.0), f64::from(w.1)]).collect()
}

pub fn to_whole(weights: &Weights) -> Vec<S> {
    weights.iter().map(|w| S(w[0].round() as i32, w[1].round() as i32)).collect()
}

impl Samples {
    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Appends another set's positions.
    pub fn extend(&mut self, other: Samples) {
        let base = self.entries.len() as u32;
        self.starts.extend(other.starts.iter().map(|s| s + base));
        self.entries.extend(other.entries);
        self.phase.extend(other.phase);
        self.scale.extend(other.scale);
        self.result.extend(other.result);
    }

    /// Adds a position: `counts` per weight (White's less Black's).
    pub fn push(&mut self, counts: &[i32], phase: i32, scale: i32, result: f32) {
        self.starts.push(self.entries.len() as u32);
        for (i, &c) in counts.iter().enumerate().filter(|(_, c)| **c != 0) {
            self.entries.push((i as u16, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16));
        }
        self.phase.push(phase.clamp(0, FULL_PHASE) as u8);
        self.scale.push(scale.clamp(0, FULL_SCALE) as u8);
        self.result.push(result);
    }

    fn terms(&self, i: usize) -> &[(u16, i16)] {
        let end = self.starts.get(i + 1).map_or(self.entries.len(), |&e| e as usize);
        &self.entries[self.starts[i] as usize..end]
    }

    /// The share of the middlegame and of the endgame part in position `i`'s judgement.
    fn shares(&self, i: usize) -> (f64, f64) {
        let phase = f64::from(self.phase[i]) / f64::from(FULL_PHASE);
        (phase, (1.0 - phase) * f64::from(self.scale[i]) / f64::from(FULL_SCALE))
    }

    /// Position `i`'s judgement under `weights`, from White's side.
    pub fn judge(&self, i: usize, weights: &Weights) -> f64 {
        let (mg, eg) = self.shares(i);
        self.terms(i)
            .iter()
            .map(|&(t, c)| f64::from(c) * (weights[t as usize][0] * mg + weights[t as usize][1] * eg))
            .sum()
    }
}

/// The expected score of a judgement of `cp` centipawns, with `k` fitted to the data.
#[inline]
pub fn expected(cp: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * cp / 400.0))
}

/// Mean squared difference between the expected scores and the results.
pub fn error(samples: &Samples, weights: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    (0..samples.len())
        .map(|i| (expected(samples.judge(i, weights), k) - f64::from(samples.result[i])).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// The `k` for which the weights as they are predict the results best (the error is unimodal
/// in k).
pub fn fit_k(samples: &Samples, weights: &Weights) -> f64 {
    least(0.01, 10.0, 60, |k| error(samples, weights, k))
}

/// The `x` in `lo..hi` where `f` is least, by `steps` steps of a ternary search (`f` unimodal
/// there).
pub fn least(mut lo: f64, mut hi: f64, steps: u32, f: impl Fn(f64) -> f64) -> f64 {
    for _ in 0..steps {
        let (a, b) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The error's gradient with respect to every weight, over positions `range`, and the error's
/// sum there.
fn gradient(samples: &Samples, weights: &Weights, k: f64, range: std::ops::Range<usize>) -> (Weights, f64) {
    let mut grad = vec![[0.0; 2]; weights.len()];
    let mut sum = 0.0;
    let slope = k * std::f64::consts::LN_10 / 400.0;
    for i in range {
        let p = expected(samples.judge(i, weights), k);
        let diff = p - f64::from(samples.result[i]);
        sum += diff * diff;
        let d = 2.0 * diff * p * (1.0 - p) * slope;
        let (mg, eg) = samples.shares(i);
        for &(t, c) in samples.terms(i) {
            let g = &mut grad[t as usize];
            g[0] += d * f64::from(c) * mg;
            g[1] += d * f64::from(c) * eg;
        }
    }
    (grad, sum)
}

/// Adam's running moments for each weight, and the pull back toward the weights the fit
/// started from (a weight seen in few positions should not follow their noise).
pub struct Adam {
    rate: f64,
    prior: Weights,
    pull: f64,
    m: Weights,
    v: Weights,
    t: i32,
}

impl Adam {
    /// A fit moving each weight by about `rate` centipawns a step at first, each pulled toward
    /// its value in `prior` by `pull` times its distance from it (added to the error's slope).
    pub fn new(prior: Weights, rate: f64, pull: f64) -> Adam {
        let count = prior.len();
        Adam { rate, prior, pull, m: vec![[0.0; 2]; count], v: vec![[0.0; 2]; count], t: 0 }
    }

    /// One step over the whole set on `threads` threads; the error before the step.
    pub fn step(&mut self, samples: &Samples, weights: &mut Weights, k: f64, threads: usize) -> f64 {
        let n = samples.len();
        let chunk = n.div_ceil(threads.max(1)).max(1);
        let parts: Vec<(Weights, f64)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..n)
                .step_by(chunk)
                .map(|from| {
                    let w: &Weights = weights;
                    s.spawn(move || gradient(samples, w, k, from..(from + chunk).min(n)))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a gradient thread panicked")).collect()
        });
        let mut grad = vec![[0.0; 2]; weights.len()];
        let mut sum = 0.0;
        for (g, e) in parts {
            sum += e;
            for (total, part) in grad.iter_mut().zip(g) {
                total[0] += part[0];
                total[1] += part[1];
            }
        }
        let (b1, b2, eps) = (0.9, 0.999, 1e-12);
        self.t += 1;
        for (i, g) in grad.iter().enumerate() {
            for p in 0..2 {
                let g = g[p] / n.max(1) as f64 + self.pull * (weights[i][p] - self.prior[i][p]);
                self.m[i][p] = b1 * self.m[i][p] + (1.0 - b1) * g;
                self.v[i][p] = b2 * self.v[i][p] + (1.0 - b2) * g * g;
                let m = self.m[i][p] / (1.0 - b1.powi(self.t));
                let v = self.v[i][p] / (1.0 - b2.powi(self.t));
                weights[i][p] -= self.rate * m / (v.sqrt() + eps);
            }
        }
        sum / n.max(1) as f64
    }
}

/// The stop on the held-out positions: the fit keeps the weights whose held-out error was
/// lowest and stops once `patience` checks in a row found none lower (the fit has begun to learn
/// its positions by heart); a patience of 0 never stops it.
#[derive(Clone, Debug, PartialEq)]
pub struct HeldOutStop {
    pub patience: u32,
    /// The lowest held-out error checked so far.
    pub best: f64,
    /// Checks since the lowest.
    pub since: u32,
}

impl HeldOutStop {
    pub fn new(patience: u32, error: f64) -> HeldOutStop {
        HeldOutStop { patience, best: error, since: 0 }
    }

    /// Takes the held-out error of the weights now: whether they are the best so far.
    pub fn check(&mut self, error: f64) -> bool {
        if error < self.best {
            self.best = error;
            self.since = 0;
            true
        } else {
            self.since += 1;
            false
        }
    }

    /// No check found a lower error for `patience` checks in a row.
    pub fn done(&self) -> bool {
        self.patience > 0 && self.since >= self.patience
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// Positions made up from known weights, each labelled with the result those weights
    /// expect: the fit finds the weights again.
    #[test]
    fn the_fit_recovers_known_weights() {
        let truth: Weights = vec![[100.0, 120.0], [-30.0, 10.0], [15.0, 60.0], [0.0, -40.0]];
        let k = 1.2;
        let mut rng = StdRng::seed_from_u64(7);
        let mut samples = Samples::default();
        for _ in 0..4000 {
            let counts: Vec<i32> = (0..truth.len()).map(|_| rng.random_range(-3..=3)).collect();
            let phase = rng.random_range(0..=FULL_PHASE);
            let scale = if rng.random_range(0..8) == 0 { FULL_SCALE / 2 } else { FULL_SCALE };
            samples.push(&counts, phase, scale, 0.0);
            let i = samples.len() - 1;
            samples.result[i] = expected(samples.judge(i, &truth), k) as f32;
        }
        let mut weights = vec![[0.0; 2]; truth.len()];
        let mut adam = Adam::new(weights.clone(), 2.0, 0.0);
        for _ in 0..3000 {
            adam.step(&samples, &mut weights, k, 2);
        }
        for (found, want) in weights.iter().zip(&truth) {
            for p in 0..2 {
                assert!((found[p] - want[p]).abs() < 3.0, "found {weights:?}, want {truth:?}");
            }
        }
        assert!(error(&samples, &weights, k) < 1e-5);
        // And k: with the true weights, the k that fits best is the one used.
        assert!((fit_k(&samples, &truth) - k).abs() < 0.01);
        // Pulled hard toward zero, the weights stay near it.
        let mut pulled = vec![[0.0; 2]; truth.len()];
        let mut adam = Adam::new(pulled.clone(), 2.0, 1.0);
        for _ in 0..500 {
            adam.step(&samples, &mut pulled, k, 2);
        }
        assert!(pulled.iter().flatten().all(|w| w.abs() < 5.0), "{pulled:?}");
    }

    #[test]
    fn the_held_out_stop_keeps_the_lowest_and_waits_its_patience() {
        let mut stop = HeldOutStop::new(2, 0.10);
        assert!(stop.check(0.09));
        assert!(!stop.check(0.095));
        assert!(!stop.done());
        assert!(stop.check(0.08));
        assert!(!stop.check(0.08));
        assert!(!stop.check(0.081));
        assert!(stop.done());
        assert_eq!(stop.best, 0.08);
        // Without patience it never stops.
        let mut never = HeldOutStop::new(0, 0.1);
        (0..10).for_each(|_| assert!(!never.check(0.2)));
        assert!(!never.done());
    }

    /// Few positions labelled with noise on top of the true weights' expectation: a fit without
    /// a pull learns the noise, and the held-out stop keeps weights that predict positions it
    /// did not see better than where the fit ends.
    #[test]
    fn the_held_out_stop_beats_a_fit_that_learns_its_positions_by_heart() {
        let truth: Weights = (0..40).map(|i| [f64::from(i % 7) * 10.0 - 30.0, 0.0]).collect();
        let k = 1.0;
        let mut rng = StdRng::seed_from_u64(3);
        let mut make = |n: usize, noisy: bool| {
            let mut set = Samples::default();
            for _ in 0..n {
                let counts: Vec<i32> = (0..truth.len()).map(|_| rng.random_range(-1..=1)).collect();
                set.push(&counts, FULL_PHASE, FULL_SCALE, 0.0);
                let i = set.len() - 1;
                let p = expected(set.judge(i, &truth), k);
                set.result[i] = if noisy { f32::from(rng.random_bool(p)) } else { p as f32 };
            }
            set
        };
        let (train, held) = (make(120, true), make(2000, false));
        let mut weights = vec![[0.0; 2]; truth.len()];
        let mut adam = Adam::new(weights.clone(), 2.0, 0.0);
        let mut stop = HeldOutStop::new(0, error(&held, &weights, k));
        let mut best = weights.clone();
        for _ in 0..150 {
            for _ in 0..10 {
                adam.step(&train, &mut weights, k, 1);
            }
            if stop.check(error(&held, &weights, k)) {
                best = weights.clone();
            }
        }
        let (kept, last) = (error(&held, &best, k), error(&held, &weights, k));
        assert!(kept < last * 0.9, "kept {kept}, last {last}");
        assert!(error(&train, &weights, k) < error(&train, &best, k));
    }
}

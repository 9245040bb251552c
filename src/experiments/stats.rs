//! Match statistics: score, Elo difference with a 95% interval, likelihood of superiority, a
//! chi-square test of independence between colour and result, and the tests that compare our
//! counts with the thesis's (exact test of two W/L/D rows, binomial test, Holm's correction).

/// Wins, draws and losses from one player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw a half.
    pub fn points(self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game, 0..1.
    pub fn score(self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }
}

impl std::ops::Add for Wdl {
    type Output = Wdl;
    fn add(self, other: Wdl) -> Wdl {
        Wdl { wins: self.wins + other.wins, draws: self.draws + other.draws, losses: self.losses + other.losses }
    }
}

/// Elo difference for an expected score (logistic model); ±infinity at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    // `+ 0.0` turns the -0.0 of an even score into 0.0, which prints as +0.0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// Elo difference and its 95% interval, from the per-game score's standard error.
///
/// At a score of 0 or 1 (every game lost, or won) the point estimate is infinite and the
/// normal interval collapses onto it; the finite end then comes from the same model as the LOS
/// beside it (`los`): the score's distribution after n games all won, from a flat prior, is
/// Beta(n + 1, 1), whose 2.5% quantile is 0.025^(1/(n+1)). So a 0-100-0 pairing reads "below
/// -572", not "-inf [-inf, -inf]", and the bound is above 0 exactly when the LOS is above 97.5%.
pub fn elo_interval(w: Wdl) -> (f64, f64, f64) {
    let n = w.games() as f64;
    let s = w.score();
    if n == 0.0 {
        return (0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    let tail = 0.025f64.powf(1.0 / (n + 1.0));
    if s <= 0.0 {
        return (f64::NEG_INFINITY, f64::NEG_INFINITY, elo_from_score(1.0 - tail));
    }
    if s >= 1.0 {
        return (f64::INFINITY, elo_from_score(tail), f64::INFINITY);
    }
    // Every game drawn: the scores do not vary, which says little about how they would. The
    // spread is then that of the draws with one win and one loss added, so that 0-0-4 reads
    // "+0.0 [-222.8, +222.8]", not a certainty of exactly 0.
    let var = if w.wins == 0 && w.losses == 0 {
        ((1.0 - s).powi(2) + s.powi(2)) / (n + 2.0)
    } else {
        (w.wins as f64 * (1.0 - s).powi(2) + w.draws as f64 * (0.5 - s).powi(2) + w.losses as f64 * s.powi(2)) / n
    };
    let se = (var / n).sqrt();
    let z = 1.959_963_984_540_054;
    (elo_from_score(s), elo_from_score(s - z * se), elo_from_score(s + z * se))
}

/// An Elo estimate with its interval for tables: "  +35.2 [  -12.0,   +80.1]", or the one
/// finite bound when every game went one way ("below -637").
pub fn elo_text(e: f64, lo: f64, hi: f64) -> String {
    if e == f64::NEG_INFINITY && hi.is_finite() {
        format!("below {hi:.0} (95%)")
    } else if e == f64::INFINITY && lo.is_finite() {
        format!("above {lo:+.0} (95%)")
    } else {
        format!("{e:>+7.1} [{lo:>+7.1}, {hi:>+7.1}]")
    }
}

/// Likelihood of superiority: P(the player is stronger), from wins and losses (draws carry no
/// information): with a flat prior on the share p of decisive games won, P(p > 1/2) under its
/// posterior Beta(W + 1, L + 1), which is P(Binomial(W + L + 1, 1/2) <= W). Exact at any sample;
/// for many games it is the usual 0.5 * (1 + erf((W - L) / sqrt(2 (W + L)))), which overstates a
/// handful (4-0 would be 0.977 beside an Elo interval that reaches below 0).
pub fn los(w: Wdl) -> f64 {
    let n = u64::from(w.wins) + u64::from(w.losses) + 1;
    // Sum of C(n, k) / 2^n for k = 0..=W, each term from the last, in logarithms.
    let mut term = -(n as f64) * std::f64::consts::LN_2;
    let mut total = term;
    for k in 0..u64::from(w.wins) {
        term += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
        let (hi, lo) = if total > term { (total, term) } else { (term, total) };
        total = hi + (lo - hi).exp().ln_1p();
    }
    total.exp().min(1.0)
}

/// Error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// Chi-square test of independence on a table of observed counts (rows × columns).
/// Returns (statistic, degrees of freedom, p-value); empty rows and columns are left out.
pub fn chi_square(table: &[Vec<u32>]) -> (f64, u32, f64) {
    let rows: Vec<&Vec<u32>> = table.iter().filter(|r| r.iter().sum::<u32>() > 0).collect();
    if rows.is_empty() {
        return (0.0, 0, 1.0);
    }
    let ncols = rows[0].len();
    let col_sums: Vec<u32> = (0..ncols).map(|j| rows.iter().map(|r| r[j]).sum()).collect();
    let cols: Vec<usize> = (0..ncols).filter(|&j| col_sums[j] > 0).collect();
    let total: f64 = col_sums.iter().map(|&c| c as f64).sum();
    let mut stat = 0.0;
    for r in &rows {
        let rs: f64 = r.iter().map(|&c| c as f64).sum();
        for &j in &cols {
            let expected = rs * col_sums[j] as f64 / total;
            stat += (r[j] as f64 - expected).powi(2) / expected;
        }
    }
    let df = ((rows.len() - 1) * cols.len().saturating_sub(1)) as u32;
    (stat, df, chi_square_p(stat, df))
}

/// Two-sided z of the difference between two scores, each with its own per-game (trinomial)
/// variance: (s_a - s_b) / sqrt(var_a / n_a + var_b / n_b). Zero when neither side varies.
pub fn score_z(a: Wdl, b: Wdl) -> f64 {
    let (na, nb) = (a.games() as f64, b.games() as f64);
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    let var = |w: Wdl| {
        let s = w.score();
        (w.wins as f64 * (1.0 - s).powi(2) + w.draws as f64 * (0.5 - s).powi(2) + w.losses as f64 * s.powi(2))
            / w.games() as f64
    };
    let se = (var(a) / na + var(b) / nb).sqrt();
    if se == 0.0 {
        return 0.0;
    }
    (a.score() - b.score()) / se
}

/// ln(k!) for k = 0..=n, summed once so a whole exact test costs additions only.
fn ln_factorials(n: u32) -> Vec<f64> {
    let mut t = Vec::with_capacity(n as usize + 1);
    t.push(0.0);
    for k in 1..=n {
        t.push(t[k as usize - 1] + (k as f64).ln());
    }
    t
}

/// Exact test that two rows of counts (say W/L/D of the thesis and ours) come from one
/// distribution: Fisher's test extended to 2 × k tables (Freeman and Halton). With both row
/// and column sums fixed, a first row x has the multivariate hypergeometric probability
/// Π C(c_j, x_j) / C(N, r1); p is the sum over every table no more likely than the observed one.
/// Unlike the chi-square approximation it holds for the empty and near-empty cells that lopsided
/// pairings give (0-100-0 against 2-997-1).
pub fn exact_rows_test(a: &[u32], b: &[u32]) -> f64 {
    assert_eq!(a.len(), b.len(), "rows of one table");
    // Enumerating the shorter row keeps the loop to its sum's compositions.
    let (row, other) = if a.iter().sum::<u32>() <= b.iter().sum::<u32>() { (a, b) } else { (b, a) };
    let cols: Vec<u32> = row.iter().zip(other).map(|(x, y)| x + y).filter(|&c| c > 0).collect();
    let observed: Vec<u32> = row.iter().zip(other).filter(|(x, y)| **x + **y > 0).map(|(x, _)| *x).collect();
    let r1: u32 = observed.iter().sum();
    let total: u32 = cols.iter().sum();
    if cols.len() < 2 || r1 == 0 || r1 == total {
        return 1.0;
    }
    let lf = ln_factorials(total);
    let ln_choose = |n: u32, k: u32| lf[n as usize] - lf[k as usize] - lf[(n - k) as usize];
    let ln_denominator = ln_choose(total, r1);
    let ln_p = |x: &[u32]| x.iter().zip(&cols).map(|(&xi, &c)| ln_choose(c, xi)).sum::<f64>() - ln_denominator;
    let cutoff = ln_p(&observed) + 1e-7;
    // Depth-first over the first row: x_j from 0 to min(c_j, what is left), the last cell forced.
    fn walk(j: usize, left: u32, x: &mut Vec<u32>, cols: &[u32], visit: &mut dyn FnMut(&[u32])) {
        if j + 1 == cols.len() {
            if left <= cols[j] {
                x.push(left);
                visit(x);
                x.pop();
            }
            return;
        }
        // What the later columns can still hold bounds this one from below.
        let later: u32 = cols[j + 1..].iter().sum();
        for v in left.saturating_sub(later)..=left.min(cols[j]) {
            x.push(v);
            walk(j + 1, left - v, x, cols, visit);
            x.pop();
        }
    }
    let mut p = 0.0;
    walk(0, r1, &mut Vec::with_capacity(cols.len()), &cols, &mut |x| {
        let lp = ln_p(x);
        if lp <= cutoff {
            p += lp.exp();
        }
    });
    p.min(1.0)
}

/// Two-sided exact binomial test of k successes in n trials against the rate p0: the sum of the
/// probabilities of every count no more likely than k.
pub fn binomial_test(k: u32, n: u32, p0: f64) -> f64 {
    assert!(k <= n, "{k} successes in {n} trials");
    if p0 <= 0.0 {
        return if k == 0 { 1.0 } else { 0.0 };
    }
    if p0 >= 1.0 {
        return if k == n { 1.0 } else { 0.0 };
    }
    let lf = ln_factorials(n);
    let ln_pmf = |i: u32| {
        lf[n as usize] - lf[i as usize] - lf[(n - i) as usize] + i as f64 * p0.ln() + (n - i) as f64 * (1.0 - p0).ln()
    };
    let cutoff = ln_pmf(k) + 1e-7;
    (0..=n).map(ln_pmf).filter(|&lp| lp <= cutoff).map(f64::exp).sum::<f64>().min(1.0)
}

/// Holm's step-down adjustment of p-values for m tests: the i-th smallest is multiplied by
/// (m - i + 1), and each adjusted value is kept at least as large as the ones before it. An
/// adjusted value under 5% rejects at a 5% family-wise error rate. Order is kept.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// Upper tail of the chi-square distribution: Q(df/2, x/2), the regularised upper gamma.
pub fn chi_square_p(x: f64, df: u32) -> f64 {
    if df == 0 {
        return 1.0;
    }
    upper_gamma_q(df as f64 / 2.0, x / 2.0)
}

fn ln_gamma(z: f64) -> f64 {
    // Lanczos approximation (g = 7, n = 9).
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if z < 0.5 {
        return (std::f64::consts::PI / (std::f64::consts::PI * z).sin()).ln() - ln_gamma(1.0 - z);
    }
    let z = z - 1.0;
    let mut a = C[0];
    let t = z + 7.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (z + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (z + 0.5) * t.ln() - t + a.ln()
}

fn upper_gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    if x < a + 1.0 {
        // Series for P, then Q = 1 - P.
        let mut sum = 1.0 / a;
        let mut term = sum;
        let mut n = a;
        for _ in 0..500 {
            n += 1.0;
            term *= x / n;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        1.0 - sum * (-x + a * x.ln() - ln_gamma(a)).exp()
    } else {
        // Continued fraction for Q (Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..500 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-15 {
                break;
            }
        }
        (-x + a * x.ln() - ln_gamma(a)).exp() * h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-9));
        // 0.75 -> 400 log10(3) = 190.85
        assert!(close(elo_from_score(0.75), 190.849, 1e-3));
        assert!(close(elo_from_score(0.25), -190.849, 1e-3));
    }

    #[test]
    fn elo_interval_hand_computed() {
        // 6 wins, 2 draws, 2 losses: s = 0.7; var = (6*0.09 + 2*0.04 + 2*0.49)/10 = 0.16;
        // se = sqrt(0.016) = 0.126491; s ± 1.96 se = 0.452077 .. 0.947923.
        let (e, lo, hi) = elo_interval(Wdl { wins: 6, draws: 2, losses: 2 });
        assert!(close(e, elo_from_score(0.7), 1e-9));
        assert!(close(lo, elo_from_score(0.452_077), 0.05));
        assert!(close(hi, elo_from_score(0.947_923), 0.05));
    }

    #[test]
    fn elo_at_the_edges_has_a_finite_bound() {
        // 0 wins, 100 losses: the score's posterior is Beta(1, 101), whose 97.5% quantile is
        // p = 1 - 0.025^(1/101).
        let (e, lo, hi) = elo_interval(Wdl { wins: 0, draws: 0, losses: 100 });
        assert_eq!((e, lo), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        let p = 1.0 - 0.025f64.powf(1.0 / 101.0);
        assert!(close(p, 0.035_87, 1e-5), "{p}");
        assert!(close(hi, -400.0 * (1.0 / p - 1.0).log10(), 1e-9) && close(hi, -571.8, 0.1), "{hi}");
        assert_eq!(elo_text(e, lo, hi), "below -572 (95%)");
        let (e, lo, hi) = elo_interval(Wdl { wins: 10, draws: 0, losses: 0 });
        assert!(e.is_infinite() && hi.is_infinite() && lo > 0.0);
        assert!(elo_text(e, lo, hi).starts_with("above +"));
        // All draws: an even score, printed +0.0 (not -0.0), with the spread of one win and
        // one loss added: 4 draws give var = 0.5 / 6, se = 0.1443, s = 0.5 ± 0.2829.
        let (e, lo, hi) = elo_interval(Wdl { wins: 0, draws: 4, losses: 0 });
        assert!(e == 0.0 && e.is_sign_positive(), "{e}");
        assert!(close(hi, elo_from_score(0.782_9), 0.1) && close(lo, -hi, 1e-9), "{lo} {hi}");
        assert_eq!(elo_text(e, lo, hi), "   +0.0 [ -222.8,  +222.8]");
        let (_, lo, hi) = elo_interval(Wdl { wins: 0, draws: 100, losses: 0 });
        assert!(lo < -5.0 && hi > 5.0 && hi < 15.0, "{lo} {hi}");
    }

    #[test]
    fn los_hand_computed() {
        assert!(close(los(Wdl { wins: 5, draws: 3, losses: 5 }), 0.5, 1e-9));
        assert!(close(los(Wdl { wins: 0, draws: 7, losses: 0 }), 0.5, 1e-9));
        // 4-0: P(Bin(5, 1/2) <= 4) = 1 - 1/32.
        assert!(close(los(Wdl { wins: 4, draws: 0, losses: 0 }), 31.0 / 32.0, 1e-12));
        // W=10, L=4: P(Bin(15, 1/2) <= 10) = 30827 / 32768.
        assert!(close(los(Wdl { wins: 10, draws: 0, losses: 4 }), 30827.0 / 32768.0, 1e-9));
        // Many games: the normal approximation, 0.5 * (1 + erf(100 / sqrt(2 * 10000))) = 0.76025.
        let many = los(Wdl { wins: 5050, draws: 0, losses: 4950 });
        assert!(close(many, 0.5 * (1.0 + erf(100.0 / (2.0f64 * 10_000.0).sqrt())), 2e-3), "{many}");
        assert!(close(los(Wdl { wins: 4950, draws: 0, losses: 5050 }) + many, 1.0, 1e-2));
    }

    /// A pairing won (or lost) game for game: the one finite end of the Elo interval is above 0
    /// exactly when the LOS beside it is above 97.5% (a 4-0 once read "above -72" beside 0.977).
    #[test]
    fn a_one_way_bound_agrees_with_the_los() {
        for n in 1..=40 {
            let (_, lo, _) = elo_interval(Wdl { wins: n, draws: 0, losses: 0 });
            assert_eq!(lo > 0.0, los(Wdl { wins: n, draws: 0, losses: 0 }) > 0.975, "{n}-0");
            let (_, _, hi) = elo_interval(Wdl { wins: 0, draws: 0, losses: n });
            assert_eq!(hi < 0.0, los(Wdl { wins: 0, draws: 0, losses: n }) < 0.025, "0-{n}");
        }
        let (e, lo, hi) = elo_interval(Wdl { wins: 4, draws: 0, losses: 0 });
        assert_eq!(elo_text(e, lo, hi), "above -15 (95%)");
    }

    #[test]
    fn erf_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_8, 1e-6));
        assert!(close(erf(-0.5), -0.520_499_9, 1e-6));
    }

    #[test]
    fn chi_square_hand_computed() {
        // Rows: colour (white, black); columns: win, draw, loss.
        // [[30,10,10],[10,10,30]]: expected 20,10,20 per cell; stat = 4*100/20 + 0 = 20; df 2.
        let (stat, df, p) = chi_square(&[vec![30, 10, 10], vec![10, 10, 30]]);
        assert!(close(stat, 20.0, 1e-9));
        assert_eq!(df, 2);
        // For df 2, p = exp(-stat/2).
        assert!(close(p, (-10.0f64).exp(), 1e-9));
        // A table with no association has statistic 0 and p = 1.
        let (s0, _, p0) = chi_square(&[vec![5, 5], vec![5, 5]]);
        assert!(close(s0, 0.0, 1e-12) && close(p0, 1.0, 1e-9));
        // df 1, x = 3.841 -> p = 0.05.
        assert!(close(chi_square_p(3.841_459, 1), 0.05, 1e-5));
    }
    #[test]
    fn score_z_hand_computed() {
        // 6-2-2 against 2-2-6: scores 0.7 and 0.3, each per-game variance 0.16 (see above), so
        // z = 0.4 / sqrt(0.016 + 0.016) = 2.2361.
        let z = score_z(Wdl { wins: 6, draws: 2, losses: 2 }, Wdl { wins: 2, draws: 2, losses: 6 });
        assert!(close(z, 2.236_068, 1e-6), "{z}");
        assert_eq!(score_z(Wdl { wins: 0, draws: 5, losses: 0 }, Wdl { wins: 0, draws: 9, losses: 0 }), 0.0);
    }

    #[test]
    fn exact_rows_test_hand_computed() {
        // [2,0,0] over [0,1,1]: columns 2,1,1, N = 4, first row sums to 2, C(4,2) = 6 tables:
        // (2,0,0) 1/6, (1,1,0) 2/6, (1,0,1) 2/6, (0,1,1) 1/6. No more likely than 1/6: two of them.
        assert!(close(exact_rows_test(&[2, 0, 0], &[0, 1, 1]), 2.0 / 6.0, 1e-12));
        // Either row may be the shorter one; the test is symmetric.
        assert!(close(exact_rows_test(&[0, 1, 1], &[2, 0, 0]), 2.0 / 6.0, 1e-12));
        // [1,1,1] over [1,1,1]: the observed table is the likeliest (8/20), so p = 1.
        assert!(close(exact_rows_test(&[1, 1, 1], &[1, 1, 1]), 1.0, 1e-12));
        // [3,0] over [0,3] (Fisher's 2x2): C(6,3) = 20 tables, the two extremes 1/20 each.
        assert!(close(exact_rows_test(&[3, 0], &[0, 3]), 0.1, 1e-12));
        // An empty column is dropped; a table with one column left says nothing.
        assert!(close(exact_rows_test(&[3, 0, 0], &[0, 3, 0]), 0.1, 1e-12));
        assert_eq!(exact_rows_test(&[0, 4, 0], &[0, 7, 0]), 1.0);
        // Far apart rows of the sizes the fidelity test meets: tiny p, and it stays a probability.
        let p = exact_rows_test(&[11, 48, 41], &[265, 107, 628]);
        assert!(p > 0.0 && p < 1e-12, "{p}");
    }

    #[test]
    fn binomial_test_hand_computed() {
        // n = 4, p0 = 1/2, k = 0: P(0) = P(4) = 1/16, every other count is likelier: p = 2/16.
        assert!(close(binomial_test(0, 4, 0.5), 0.125, 1e-12));
        // n = 10, k = 8: P(8) + P(9) + P(10) = (45 + 10 + 1) / 1024, twice by symmetry.
        assert!(close(binomial_test(8, 10, 0.5), 112.0 / 1024.0, 1e-12));
        // n = 3, p0 = 0.2, k = 2: P = 0.512, 0.384, 0.096, 0.008; no more likely than 0.096:
        // 0.096 + 0.008.
        assert!(close(binomial_test(2, 3, 0.2), 0.104, 1e-12));
        assert!(close(binomial_test(5, 10, 0.5), 1.0, 1e-12));
        assert_eq!(binomial_test(0, 5, 0.0), 1.0);
        assert_eq!(binomial_test(1, 5, 0.0), 0.0);
    }

    #[test]
    fn holm_hand_computed() {
        // Sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04 -> 0.06
        // (never below the one before).
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
        for (a, b) in adj.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!(close(*a, b, 1e-12), "{adj:?}");
        }
        assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }
}

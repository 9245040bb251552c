#!/usr/bin/env python3
# python3 tests/data/sprt_reference.py  (needs mpmath: pip install mpmath)
# Independent reference values for src/experiments/sprt.rs, from the published definitions:
# the GSPRT LLR is N * (max log-likelihood with t = t1 - max log-likelihood with t = t0), each
# maximum found here by Newton's method on the Lagrange (KKT) conditions, in 50-digit arithmetic.
from mpmath import mp, mpf, sqrt, log, findroot, log10, erf
mp.dps = 50
A = [mpf(i) / 4 for i in range(5)]

def maxloglik(phat, t):
    def eqs(*v):
        p, lam, nu = v[:5], v[5], v[6]
        mu = sum(pi * ai for pi, ai in zip(p, A))
        sig = sqrt(sum(pi * ai * ai for pi, ai in zip(p, A)) - mu * mu)
        out = [phat[i] / p[i] - lam - nu * (A[i] - t * (A[i] ** 2 - 2 * mu * A[i]) / (2 * sig)) for i in range(5)]
        return out + [sum(p) - 1, mu - mpf(1) / 2 - t * sig]
    v = findroot(eqs, list(phat) + [mpf(1), mpf(0)], tol=mpf(10) ** -40, maxsteps=200)
    p = v[:5]
    return sum(phat[i] * log(p[i]) for i in range(5))

def llr_normalized(counts, nelo0, nelo1):
    cells = [mpf(c) if c else mpf('0.001') for c in counts]
    n = sum(cells); phat = [c / n for c in cells]
    k = sqrt(2) * log(10) / 800
    return n * (maxloglik(phat, nelo1 * k) - maxloglik(phat, nelo0 * k))

def llr_bayeselo(w, d, l, e0, e1):
    n = mpf(w + d + l); pw, pl = w / n, l / n
    de = 200 * log10((1 - pl) / pl * (1 - pw) / pw)
    x = mpf(10) ** (-de / 400); s = 4 * x / (1 + x) ** 2
    def probs(b):
        pw_ = 1 / (1 + mpf(10) ** ((de - b) / 400)); pl_ = 1 / (1 + mpf(10) ** ((de + b) / 400))
        return pw_, 1 - pw_ - pl_, pl_
    (w0, d0, l0), (w1, d1, l1) = probs(e0 / s), probs(e1 / s)
    return w * log(w1 / w0) + d * log(d1 / d0) + l * log(l1 / l0)

def penta_stats(counts):
    n = mpf(sum(counts))
    mean = sum(c * A[i] for i, c in enumerate(counts)) / n
    var = sum(c * (A[i] - mean) ** 2 for i, c in enumerate(counts)) / n
    se = sqrt(var / n); z = mpf('1.959963984540054')
    nelo = lambda s: (s - mpf(1) / 2) / sqrt(2 * var) * 800 / log(10)
    elo = lambda s: -400 * log10(1 / s - 1)
    los = (1 + erf((mean - mpf(1) / 2) / (se * sqrt(2)))) / 2
    return [nelo(mean), nelo(mean - z * se), nelo(mean + z * se), elo(mean), elo(mean - z * se), elo(mean + z * se), los]

for counts, e0, e1 in [([100, 500, 1200, 600, 110], 0, 2), ([3, 10, 25, 9, 2], 0, 10), ([0, 5, 20, 7, 0], 0, 5), ([40, 90, 160, 70, 30], -3, 1), ([12, 30, 61, 25, 8], 0, 20)]:
    print("penta", counts, e0, e1, mp.nstr(llr_normalized(counts, e0, e1), 15))
for w, d, l, e0, e1 in [(120, 300, 100, 0, 10), (4250, 12000, 4100, 0, 5), (30, 50, 45, -5, 5)]:
    print("bayes", w, d, l, e0, e1, mp.nstr(llr_bayeselo(w, d, l, e0, e1), 15))
for counts in [[3, 10, 25, 9, 2], [12, 30, 61, 25, 8]]:
    print("stats", counts, [mp.nstr(v, 15) for v in penta_stats(counts)])

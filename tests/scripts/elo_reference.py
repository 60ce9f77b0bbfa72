"""Reference figures for hisha's match statistics (src/arena/stats), computed independently of
hisha's code: the maximum-likelihood fits are found by a general constrained optimiser (scipy's
SLSQP) instead of the secular equation hisha solves.

- LLR of the generalised SPRT (fishtest's definition): N * sum p_i ln(q1_i / q0_i), where p are the
  observed frequencies (empty counts taken as 0.001) and q0, q1 the most likely distributions with
  expected score s0, s1 (logistic model) or t-value t0, t1 (normalized model; a pair's t-value is
  sqrt(2) times a game's, t = nElo / (800 / ln 10)).
- The 95 % likelihood-ratio interval of the score: the s with N * sum p_i ln(p_i / q_i(s)) <= 1.96^2/2,
  ends beyond 1e-6 and 1 - 1e-6 taken as infinite; Elo = -400 log10(1/s - 1).

Run: python3 -m pip install scipy && python3 tests/scripts/elo_reference.py
"""

import math

from scipy.optimize import brentq, minimize

Z = 1.959963984540054


def frequencies(counts):
    w = [c if c else 1e-3 for c in counts]
    n = sum(w)
    a = [i / (len(counts) - 1) for i in range(len(counts))]
    return n, a, [x / n for x in w]


def fit(a, p, constraint):
    """The distribution q maximising sum p ln q under sum q = 1 and constraint(q) = 0."""
    cons = [
        {"type": "eq", "fun": lambda q: sum(q) - 1},
        {"type": "eq", "fun": constraint},
    ]
    best = minimize(
        lambda q: -sum(pi * math.log(max(qi, 1e-300)) for pi, qi in zip(p, q)),
        p,
        method="SLSQP",
        bounds=[(1e-15, 1)] * len(p),
        constraints=cons,
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    return best.x


def mean_fit(a, p, s):
    return fit(a, p, lambda q: sum(qi * ai for qi, ai in zip(q, a)) - s)


def t_fit(a, p, t):
    def c(q):
        mu = sum(qi * ai for qi, ai in zip(q, a))
        var = sum(qi * (ai - mu) ** 2 for qi, ai in zip(q, a))
        return (mu - 0.5) - t * math.sqrt(max(var, 1e-300))

    return fit(a, p, c)


def llr(counts, elo0, elo1, model):
    n, a, p = frequencies(counts)
    if model == "logistic":
        s = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]
        q0, q1 = (mean_fit(a, p, x) for x in s)
    else:
        t = [e / (800 / math.log(10)) * math.sqrt(2) for e in (elo0, elo1)]
        q0, q1 = (t_fit(a, p, x) for x in t)
    return n * sum(pi * (math.log(y) - math.log(x)) for pi, x, y in zip(p, q0, q1))


def interval(counts):
    n, a, p = frequencies(counts)
    mu = sum(pi * ai for pi, ai in zip(p, a))

    def excess(s):
        q = mean_fit(a, p, s)
        return n * sum(pi * math.log(pi / qi) for pi, qi in zip(p, q)) - Z * Z / 2

    lo = brentq(excess, 1e-6, mu) if excess(1e-6) > 0 else 0
    hi = brentq(excess, mu, 1 - 1e-6) if excess(1 - 1e-6) > 0 else 1
    elo = lambda s: math.inf if s >= 1 else -math.inf if s <= 0 else -400 * math.log10(1 / s - 1)
    return elo(lo), elo(hi)


if __name__ == "__main__":
    for counts, e0, e1 in [
        ([19, 4020, 10316, 4215, 24], -1.75, 0.25),
        ([103, 3851, 8316, 3728, 98], 0, 2),
        ([2, 40, 72, 14, 0], 0, 2),
        ([291, 10353, 21899, 10175, 306], 0, 2),
        ([0, 0, 0, 0, 10], -1.75, 0.25),
        ([10, 0, 0, 0, 0], -1.75, 0.25),
        ([1, 0, 0, 0, 0], 0, 50),
    ]:
        print("LLR", counts, [e0, e1], "normalized %.4f" % llr(counts, e0, e1, "normalized"),
              "logistic %.4f" % llr(counts, e0, e1, "logistic"))
    # Trinomial counts are [losses, draws, wins]; pentanomial [0, 1/2, 1, 3/2, 2].
    for counts in [[3, 0, 17], [20, 20, 60], [10, 5, 10], [0, 0, 10], [0, 10, 0], [0, 0, 2], [0, 1, 0],
                   [2, 0, 30, 2, 26], [0, 1, 2, 1, 1], [22, 0, 11, 0, 1], [0, 0, 0, 0, 1]]:
        lo, hi = interval(counts)
        print("interval", counts, "%.3f %.3f" % (lo, hi))

"""Reference figures for hisha's tournament rating list (src/arena/stats/ratings.rs), computed
independently of hisha's code and with plain Python (no numpy, no scipy):

- The ratings: the maximum of the log-likelihood sum over pairs of s_ij ln E_ij + (n_ij - s_ij)
  ln(1 - E_ij), E_ij = 1 / (1 + 10^(-(R_i - R_j)/400)), s_ij = wins + draws/2 (a draw is half a win
  and half a loss), found by Hunter's minorization-maximization iteration for the Bradley-Terry
  model (Hunter 2004, "MM algorithms for generalized Bradley-Terry models", eq. 3):
  gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j), R_i = 400 log10(gamma_i), anchored engine at 0.
  hisha fits the same maximum by Newton's method instead.
- The 95 % half-widths: 1.96 sqrt of the diagonal of the inverse of minus the Hessian of the
  log-likelihood in the free ratings (the anchor fixed), the Hessian taken by central finite
  differences (hisha computes it analytically).

Run: python3 tests/scripts/ratings_reference.py
"""

import math

Z = 1.959963984540054

NAMES = ["A", "B", "C", "D"]
# (i, j, wins of i, draws, losses of i): the fixed result set of the test
# `ratings_agree_with_an_independent_fit` in src/arena/stats/ratings/tests.rs.
RESULTS = [
    (0, 1, 7, 6, 5),
    (0, 2, 10, 4, 2),
    (0, 3, 12, 2, 0),
    (1, 2, 6, 8, 4),
    (1, 3, 9, 5, 2),
    (2, 3, 5, 5, 6),
]


def pairs(results, n):
    games = [[0.0] * n for _ in range(n)]
    points = [[0.0] * n for _ in range(n)]
    for i, j, w, d, l in results:
        games[i][j] += w + d + l
        games[j][i] += w + d + l
        points[i][j] += w + d / 2
        points[j][i] += l + d / 2
    return games, points


def mm(games, points, n):
    gamma = [1.0] * n
    for _ in range(1_000_000):
        new = []
        for i in range(n):
            won = sum(points[i])
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            new.append(won / denom)
        new = [g / new[0] for g in new]
        change = max(abs(a - b) for a, b in zip(new, gamma))
        gamma = new
        if change < 1e-15:
            break
    return [400 * math.log10(g) for g in gamma]


def log_likelihood(r, games, points, n):
    total = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            e = 1 / (1 + 10 ** (-(r[i] - r[j]) / 400))
            total += points[i][j] * math.log(e) + points[j][i] * math.log(1 - e)
    return total


def invert(m):
    size = len(m)
    a = [row[:] + [1.0 if i == k else 0.0 for k in range(size)] for i, row in enumerate(m)]
    for c in range(size):
        p = max(range(c, size), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        pivot = a[c][c]
        a[c] = [x / pivot for x in a[c]]
        for r in range(size):
            if r != c:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [row[size:] for row in a]


def half_widths(r, games, points, n):
    free = list(range(1, n))
    h = 0.01
    hess = []
    for a in free:
        row = []
        for b in free:
            def at(da, db):
                x = r[:]
                x[a] += da
                x[b] += db
                return log_likelihood(x, games, points, n)

            second = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
            row.append(-second)
        hess.append(row)
    cov = invert(hess)
    return [0.0] + [Z * math.sqrt(cov[k][k]) for k in range(len(free))]


def main():
    n = len(NAMES)
    games, points = pairs(RESULTS, n)
    r = mm(games, points, n)
    widths = half_widths(r, games, points, n)
    for name, rating, width in zip(NAMES, r, widths):
        print(f"{name}: {rating:+.4f} +/- {width:.4f}")


main()

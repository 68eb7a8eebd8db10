"""Maximum-likelihood Bradley-Terry and Davidson ratings, many at once.

Both models in one likelihood. With ``d = theta_i - theta_j``, ``u =
exp(d/2)``, ``v = exp(-d/2)`` and the tie parameter ``nu`` (Davidson 1970;
``nu = 0`` is Bradley-Terry), a pair's battles with ``w`` wins of i, ``lost``
wins of j and ``t`` ties have the log-likelihood

    w d/2 - l d/2 + t log(nu) - (w + l + t) log(u + v + nu)       (eq. BT-1)

(doc/formulas.rst). Bradley-Terry with ties as half wins puts half of each
tie in ``w`` and half in ``lost``. Newton's method runs on every bootstrap
resample at once: the resamples are rows of count arrays.
"""

import numpy as np

_MAX_ITER = 200
_TOL = 1e-11


def _pair_terms(d, eta, davidson):
    """log(u + v + nu), (u - v)/D, (u + v)/D and nu/D of each pair, stably."""
    e = np.exp(-np.abs(d))
    h = np.exp(-np.abs(d) / 2)
    nu_h = np.exp(eta)[:, None] * h if davidson else np.zeros_like(d)
    z = 1 + e + nu_h
    log_d = np.abs(d) / 2 + np.log(z)
    return log_d, np.sign(d) * (1 - e) / z, (1 + e) / z, nu_h / z


def _loglik(theta, eta, i, j, w, lost, t, davidson, alpha):
    d = theta[:, i] - theta[:, j]
    log_d = _pair_terms(d, eta, davidson)[0]
    out = ((w - lost) * d / 2 - (w + lost + t) * log_d).sum(axis=1)
    if davidson:
        out = out + t.sum(axis=1) * eta
    return out - alpha * (theta**2).sum(axis=1)  # the ridge penalty, as choix's


def _laplacian(h, i, j, k):
    """``B' diag(h_r) B`` of each row r, B the +1/-1 incidence of the pairs."""
    rows = h.shape[0]
    out = np.zeros((rows, k * k))
    for x, y, sign in ((i, i, 1), (j, j, 1), (i, j, -1), (j, i, -1)):
        np.add.at(out, (slice(None), x * k + y), sign * h)
    return out.reshape(rows, k, k)


def fit_ratings(n_systems, i, j, w, lost, t, *, davidson, alpha, theta0=None):
    """Log-strengths (sum zero when ``alpha`` is 0) and log(nu) of each row.

    ``i`` and ``j`` (n_pairs,) are the systems of each pair; ``w``, ``lost``
    and ``t`` (n_rows, n_pairs) its wins of i, wins of j and ties on each
    row (the data, or a resample). Returns ``theta`` (n_rows, n_systems),
    ``eta`` (n_rows,) (-inf for Bradley-Terry) and whether each row
    converged.
    """
    rows, k = w.shape[0], n_systems
    theta = np.zeros((rows, k)) if theta0 is None else np.array(theta0, dtype=float)
    eta = np.zeros(rows)
    n = w + lost + t
    incidence = np.zeros((len(i), k))
    incidence[np.arange(len(i)), i] = 1.0
    incidence[np.arange(len(i)), j] = -1.0
    size = k + davidson
    ridge = 2 * alpha * np.eye(size)
    if davidson:
        ridge[k, k] = 0.0
    if alpha == 0:  # the sum-zero constraint: (L + 11'/k) has full rank
        ridge[:k, :k] += 1.0 / k
    # keeps the matrix of a resample whose systems never meet invertible; it
    # changes Newton's steps, not the point where the gradient is zero
    ridge += 1e-10 * np.eye(size)
    ll = _loglik(theta, eta, i, j, w, lost, t, davidson, alpha)
    done = np.zeros(rows, dtype=bool)
    for _ in range(_MAX_ITER):
        d = theta[:, i] - theta[:, j]
        _, diff, total, tie = _pair_terms(d, eta, davidson)
        g_d = (w - lost) / 2 - n * diff / 2  # dL/dd, eq. BT-1
        h_dd = n * (total - diff**2) / 4  # -d2L/dd2
        grad = g_d @ incidence - 2 * alpha * theta
        hess = _laplacian(h_dd, i, j, k)
        if davidson:
            g_eta = t.sum(axis=1) - (n * tie).sum(axis=1)
            h_de = -(n * tie * diff / 2) @ incidence  # -d2L/dtheta deta
            h_ee = (n * tie * total).sum(axis=1)
            grad = np.column_stack([grad, g_eta])
            hess = np.concatenate(
                [
                    np.concatenate([hess, h_de[:, :, None]], axis=2),
                    np.concatenate([h_de, h_ee[:, None]], axis=1)[:, None, :],
                ],
                axis=1,
            )
        step = np.linalg.solve(hess + ridge, grad[:, :, None])[:, :, 0]
        step[done] = 0.0
        # backtracking: halve the step of a row until its likelihood rises
        scale = np.ones(rows)
        for _ in range(40):
            new_theta = theta + scale[:, None] * step[:, :k]
            new_eta = eta + scale * step[:, k] if davidson else eta
            new_ll = _loglik(new_theta, new_eta, i, j, w, lost, t, davidson, alpha)
            worse = new_ll < ll - 1e-12 * np.abs(ll)
            if not worse.any():
                break
            scale[worse] /= 2
        theta, eta, ll = new_theta, new_eta, new_ll
        done |= np.abs(step * scale[:, None]).max(axis=1) < _TOL
        if done.all():
            break
    if not davidson:
        eta = np.full(rows, -np.inf)
    return theta, eta, done


def pair_counts(n_systems, a, b, outcome, ties):
    """The pairs that met and, per pair, the categories of battle.

    Returns ``i``, ``j`` (the systems of each pair, i < j) and ``pair``,
    ``kind`` of each battle: the pair's position and 0 (i won), 1 (j won)
    or 2 (a tie).
    """
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    code = lo * n_systems + hi
    pairs, pair = np.unique(code, return_inverse=True)
    i, j = pairs // n_systems, pairs % n_systems
    a_is_i = a == lo
    kind = np.where(outcome == 2, 2, np.where((outcome == 0) == a_is_i, 0, 1))
    return i, j, pair, kind


def wins_losses_ties(counts, n_pairs, ties):
    """``w``, ``lost``, ``t`` (n_rows, n_pairs) from counts of the (pair,
    kind) cells (n_rows, 3 * n_pairs); ``ties="half"`` splits each tie."""
    c = counts.reshape(counts.shape[0], n_pairs, 3).astype(float)
    w, lost, t = c[:, :, 0], c[:, :, 1], c[:, :, 2]
    if ties == "half":
        return w + t / 2, lost + t / 2, np.zeros_like(t)
    if ties == "drop":
        return w, lost, np.zeros_like(t)
    return w, lost, t

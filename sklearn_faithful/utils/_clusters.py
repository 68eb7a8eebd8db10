"""The interval of a mean whose items come in clusters, and how few they weigh.

One home for the delete-one-cluster jackknife interval with Bell and
McCaffrey's degrees of freedom (``"jackknife-bm"``), which
:func:`~sklearn_faithful.eval_logs.compare_runs` prints for each run and
:func:`~sklearn_faithful.holdout.bootstrap_confidence_interval` offers for
accuracy with ``groups`` (formulas page, :ref:`formulas-cr2`), and for the
two numbers their warnings are keyed to: the effective number of clusters
``G_eff`` and the effective clusters' worth of the rarer outcome ``R``.
"""

import math

import numpy as np

from ._results import ConfidenceInterval


def effective_clusters(sizes):
    """``G_eff = (sum n_g)^2 / sum n_g^2``: unequal clusters weigh as this many equal.

    ``sizes`` are the clusters' numbers of items (or their summed weights).
    """
    sizes = np.asarray(sizes, dtype=np.float64)
    return float(sizes.sum() ** 2 / np.sum(sizes**2))


def rarer_outcome_clusters(scores, sizes):
    """``R = G_eff x min(p, 1 - p)``: the clusters' worth of the rarer outcome.

    ``p`` is the mean's place in the scores' observed range, ``(mean - min)
    / (max - min)``: the mean itself for 0/1 scores, and 0 when every score
    is the same. ``sizes`` as for :func:`effective_clusters`.
    benchmarks/sim_cluster_means.py (seed 20261201) found the jackknife-bm
    interval too narrow where ``R < 1`` (rare events in few clusters).
    """
    low, high = float(np.min(scores)), float(np.max(scores))
    if not high > low:
        return 0.0
    p = (float(np.mean(scores)) - low) / (high - low)
    return effective_clusters(sizes) * min(p, 1 - p)


def _anova_icc(sums, squares, sizes):
    """The ANOVA estimate of the intra-cluster correlation, clipped to [0, 1].

    With cluster sums ``S_g``, sums of squares ``Q_g`` and sizes ``n_g`` of
    ``N`` items in ``G`` clusters: ``MSB = (sum S_g^2 / n_g - N M^2) / (G -
    1)``, ``MSW = (sum Q_g - sum S_g^2 / n_g) / (N - G)``, ``n_0 = (N - sum
    n_g^2 / N) / (G - 1)`` and ``rho = (MSB - MSW) / (MSB + (n_0 - 1)
    MSW)``; 0 when undefined (one item a cluster, or no spread at all).
    """
    n_items, n_clusters = sizes.sum(), sizes.size
    between = np.sum(sums**2 / sizes)
    msb = (between - sums.sum() ** 2 / n_items) / (n_clusters - 1)
    msw = (squares.sum() - between) / max(n_items - n_clusters, 1)
    n0 = (n_items - np.sum(sizes**2) / n_items) / (n_clusters - 1)
    denominator = msb + (n0 - 1) * msw
    if not denominator > 0:
        return 0.0
    return float(np.clip((msb - msw) / denominator, 0.0, 1.0))


def _bell_mccaffrey_df(shares, tau):
    """Bell and McCaffrey's degrees of freedom of the CR2 variance of a mean.

    ``shares`` are the clusters' shares of the items, ``h_g = n_g / N``;
    ``tau`` the working model's variance of each cluster's sum of errors (up
    to a common factor). The CR2 variance is ``T' Q T / N^2`` of the
    clusters' error sums T, with ``Q = L' W L``, ``L = I - h 1'`` and ``W =
    diag(1 / (1 - h))``, and its degrees of freedom ``tr(Q D)^2 / tr((Q
    D)^2)`` with ``D = diag(tau)`` (Bell & McCaffrey 2002, eq. 11). In O(G):
    ``Q_gk = w_g [g = k] + s - u_g - u_k`` with ``u = h w`` and ``s = sum h
    u``. G - 1 for clusters of equal size.
    """
    w = 1 / (1 - shares)
    u = shares * w
    s = float(np.sum(shares * u))
    t0, t1, t2 = np.sum(tau), np.sum(tau * u), np.sum(tau * u**2)
    trace = np.sum(tau * w) - 2 * t1 + s * t0
    square = (
        np.sum(tau**2 * (w**2 + 2 * w * (s - 2 * u)))
        + s**2 * t0**2
        + 2 * t0 * t2
        - 4 * s * t0 * t1
        + 2 * t1**2
    )
    return float(trace**2 / square)


def cluster_moments(scores, groups, weights=None):
    """Each cluster's sum of (weighted) scores, of squared scores, and size.

    ``groups`` is ``(codes, n_clusters)``, or None for items as their own
    clusters; ``weights`` (frequency weights) count an item that many times.
    """
    scores = np.asarray(scores, dtype=np.float64)
    w = np.ones_like(scores) if weights is None else np.asarray(weights, float)
    if groups is None:
        return w * scores, w * scores**2, w
    codes, n_clusters = groups
    return (
        np.bincount(codes, weights=w * scores, minlength=n_clusters),
        np.bincount(codes, weights=w * scores**2, minlength=n_clusters),
        np.bincount(codes, weights=w, minlength=n_clusters).astype(np.float64),
    )


def jackknife_mean_interval(sums, squares, sizes, confidence_level, df="bm"):
    """A mean, its delete-one-cluster jackknife-t interval and standard error.

    With G clusters of sums ``S_g``, sizes ``n_g``, ``N = sum n_g`` and the
    mean without cluster g, ``M_(g) = (sum S - S_g) / (N - n_g)``: ``se^2 =
    (G - 1) / G sum_g (M_(g) - M_(.))^2`` (Efron & Tibshirani 1993, 11.2;
    for a mean it is CR3) and the interval ``M +/- t_{df, 1 - alpha/2} se``.
    ``df="bm"``: Bell and McCaffrey's (:func:`_bell_mccaffrey_df`) under a
    working model of items correlated within clusters at the ANOVA estimate
    ``rho`` of the intra-cluster correlation, ``tau_g = (1 - rho) n_g + rho
    n_g^2`` (Imbens & Kolesar 2016); ``df="g-1"``: ``G - 1``. Both are
    ``G - 1`` for clusters of equal size; with items as their own clusters
    the interval is Student's t interval of the mean.

    Returns ``(mean, ConfidenceInterval, se, df)``.
    """
    n_clusters = sizes.size
    total, n_items = float(sums.sum()), float(sizes.sum())
    mean = total / n_items
    loo = (total - sums) / (n_items - sizes)
    se = math.sqrt(
        (n_clusters - 1) / n_clusters * float(np.sum((loo - loo.mean()) ** 2))
    )
    if df == "bm":
        rho = _anova_icc(sums, squares, sizes)
        df = _bell_mccaffrey_df(sizes / n_items, (1 - rho) * sizes + rho * sizes**2)
    else:
        df = float(n_clusters - 1)
    # Student's t quantile: scipy.stats.t.ppf is this function, and
    # scipy.special is far lighter to import than scipy.stats
    from scipy.special import stdtrit

    half = float(stdtrit(df, 0.5 + confidence_level / 2)) * se
    return mean, ConfidenceInterval(mean - half, mean + half), se, df

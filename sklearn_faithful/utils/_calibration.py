"""The calibration error of probabilities, from bin sums or weighted items.

What the calibration room (the public functions, their intervals and tests)
and the metrics room (the scorers) share. Every estimator looks at binary
problems: a *confidence* ``c_i`` in [0, 1] and an *outcome* ``o_i`` in
{0, 1} per item (formulas page, "Calibration error"):

- binary probabilities (``multi_class="auto"`` with two classes): ``c`` is
  the probability of ``pos_label``, ``o`` whether the item is of that class;
- top-label (Guo et al. 2017): ``c = max_k p_k``, ``o`` whether the top class
  (the first column of the maximum, as ``np.argmax``) is the true one;
- classwise (Kumar et al. 2019, "marginal"): one problem per class,
  ``(p_k, [y = k])``; the error is ``(mean_k CE_k^p)^(1/p)``.

Weights ``w`` (bootstrap multiplicities, 1 by default) carry every sum, so a
resample is a vector of weights and no item is copied.
"""

import numpy as np
from scipy import optimize, signal, special

from ._calibration_options import (
    DEFAULT_N_BINS,
    DEFAULT_STRATEGY,
    refuse_unused,
)
from ._validation import (
    _as_float_array,
    _check_y_true,
    _encode,
    _raise_for_bad_probabilities,
    _resolve_classes,
    _resolve_pos_label,
    _row_sum_tolerance,
)


def check_calibration_data(
    y_true, y_proba, labels=None, pos_label=None, name="y_proba"
):
    """Validate labels and probabilities; return what the problems are made of.

    Returns ``(codes, proba, classes, pos_index)``: the code of each true
    class in ``classes``, the probabilities (1-D for the positive class of a
    binary problem, else one column per class), and the column of
    ``pos_label`` for 1-D input (None otherwise). Raises a ``ValueError`` for
    NaN, values outside [0, 1], rows that do not sum to 1, labels outside the
    classes, and a single class.
    """
    y = _check_y_true(y_true)
    proba = _as_float_array(y_proba, name)
    if proba.ndim not in (1, 2) or (proba.ndim == 2 and proba.shape[1] < 2):
        raise ValueError(
            f"{name} must have shape (n_samples, n_classes) with n_classes >= 2, "
            "or (n_samples,) for the positive class of a binary problem; got "
            f"shape {proba.shape}."
        )
    if proba.shape[0] != y.shape[0]:
        raise ValueError(
            f"y_true and {name} have different numbers of samples: {y.shape[0]} "
            f"and {proba.shape[0]}."
        )
    if y.shape[0] == 0:
        raise ValueError("y_true is empty; the calibration error needs items.")
    n_columns = proba.shape[1] if proba.ndim == 2 else None
    if n_columns is not None and pos_label is not None and n_columns > 2:
        raise ValueError(
            f"pos_label={pos_label!r} applies only to binary problems; {name} "
            f"has {n_columns} columns. Drop pos_label, or choose the problem "
            "with multi_class."
        )
    classes, one_d_pos = _resolve_classes(y, labels, n_columns, pos_label)
    if classes.shape[0] < 2:
        raise ValueError(
            f"The classes are {classes.tolist()!r}: one class only, so every "
            "probability is trivially 1. Pass labels= with every class the model "
            "predicts."
        )
    codes = _encode(y, classes)
    if not (proba.min() >= 0 and proba.max() <= 1):
        _raise_for_bad_probabilities(proba, name)
    pos_index = None
    if proba.ndim == 1:
        pos_index = classes.tolist().index(one_d_pos)
    else:
        deviation = np.abs(proba.sum(axis=1, dtype=np.float64) - 1.0)
        tol = _row_sum_tolerance(proba.dtype)
        bad = np.flatnonzero(deviation > tol)
        if bad.size:
            r = int(bad[0])
            raise ValueError(
                f"Row {r} of {name} sums to {float(proba[r].sum()):.6g}, not 1 "
                f"({bad.size} row(s) in all, tolerance {tol:.1e}). The calibration "
                "error compares probabilities over all the classes; pass "
                "predict_proba output with a column for every class, or normalise "
                "the rows."
            )
        if pos_label is not None:
            _, pos_index = _resolve_pos_label(classes, pos_label, of="the classes")
    return codes, proba, classes, pos_index


def binary_problems(codes, proba, pos_index, multi_class):
    """The ``(confidence, outcome)`` pairs of each binary problem (float64).

    ``multi_class="auto"`` is the positive class's probability for two
    classes (``pos_index``, by default the greater class) and top-label for
    more.
    """
    if proba.ndim == 2 and pos_index is not None and multi_class != "auto":
        raise ValueError(
            f"pos_label would have no effect with multi_class={multi_class!r}: it "
            "chooses the class judged with multi_class='auto' on two classes (or "
            "the class of 1-D y_proba). Drop pos_label."
        )
    if proba.ndim == 1:
        if multi_class == "auto":
            conf = proba.astype(np.float64, copy=False)
            return [(conf, (codes == pos_index).astype(np.float64))]
        proba = (
            np.column_stack([1.0 - proba, proba])
            if pos_index == 1
            else (np.column_stack([proba, 1.0 - proba]))
        )
    k = proba.shape[1]
    if multi_class == "auto" and k == 2:
        pos = 1 if pos_index is None else pos_index
        conf = proba[:, pos].astype(np.float64)
        return [(conf, (codes == pos).astype(np.float64))]
    if multi_class == "classwise":
        return [
            (proba[:, j].astype(np.float64), (codes == j).astype(np.float64))
            for j in range(k)
        ]
    top = np.argmax(proba, axis=1)
    conf = proba[np.arange(proba.shape[0]), top].astype(np.float64)
    return [(conf, (codes == top).astype(np.float64))]


def bin_edges(conf, n_bins, strategy):
    """The ``n_bins + 1`` edges of the bins, as scikit-learn's ``calibration_curve``.

    ``"uniform"``: equal widths on [0, 1]. ``"quantile"``: the quantiles of
    the confidences (linear interpolation, ``np.quantile``), equal numbers
    of items up to ties.
    """
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1)
    return np.quantile(conf, np.linspace(0.0, 1.0, n_bins + 1))


def bin_codes(conf, edges):
    """The bin of each confidence: bin ``j`` holds ``(e_j, e_{j+1}]`` and bin 0
    also ``e_0`` (``np.searchsorted`` on the inner edges, as
    ``calibration_curve``)."""
    return np.searchsorted(edges[1:-1], conf, side="left")


def binned_error(count, conf_sum, out_sum, method, norm):
    """The calibration error of one problem from its bin sums.

    ``count``, ``conf_sum`` and ``out_sum`` are ``(..., n_bins)``: weighted
    items, confidences and outcomes per bin; the leading axes are resamples.
    With ``n = sum_j n_j``, ``cbar_j`` and ``obar_j`` the bin means:

    - ``"binned"``, L1: ``sum_j n_j / n |obar_j - cbar_j|`` (Naeini et al.
      2015; Guo et al. 2017, eq. 3);
    - ``"binned"``, L2: ``sqrt(sum_j n_j / n (obar_j - cbar_j)^2)``;
    - ``"debiased"`` (L2 only; Kumar et al. 2019, sec. 5): the squared error
      less each bin's sampling variance,
      ``sum_j n_j / n [(obar_j - cbar_j)^2 - obar_j (1 - obar_j) / (n_j - 1)]``,
      over bins with ``n_j >= 2``; returned squared, and may be negative.

    Returns the error to the power ``p`` (``p = 1`` for L1, 2 for L2), so
    that classwise errors average on that scale.
    """
    n = count.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        gap = out_sum - conf_sum  # n_j (obar_j - cbar_j)
        if norm == "l1":
            return np.abs(gap).sum(axis=-1) / n
        sq = np.where(count > 0, gap * gap / count, 0.0)
        if method == "debiased":
            obar = out_sum / count
            var = np.where(count > 1, obar * (1 - obar) / (count - 1), 0.0)
            sq = np.where(count > 1, sq - count * var, 0.0)
        return sq.sum(axis=-1) / n


def bin_sums(codes, n_bins, conf, out, weight=None):
    """``(count, conf_sum, out_sum)`` per bin, each of shape ``(n_bins,)``."""
    count = np.bincount(codes, weights=weight, minlength=n_bins).astype(np.float64)
    if weight is not None:
        conf, out = conf * weight, out * weight
    return (
        count,
        np.bincount(codes, weights=conf, minlength=n_bins),
        np.bincount(codes, weights=out, minlength=n_bins),
    )


# The smooth ECE as its authors compute it (relplot 1.0.3, ``smECE``): the
# kernel's grid, the evaluation grid, the density floor and the bisection.
_SMOOTH_MIN_GRID = 2000
_SMOOTH_MIN_POINTS = 200
_SMOOTH_DENSITY_FLOOR = 1e-4
_SMOOTH_MIN_SIGMA = 1e-3
_SMOOTH_STEPS = 10


def _reflected_smoothing(conf, values, points, sigma):
    """Kernel sums ``sum_i v_i K_sigma(t, c_i)`` at ``points``, with the
    Gaussian kernel reflected at 0 and 1.

    As the authors' code: the values are deposited on a grid of ``m`` points
    by linear interpolation, the grid is mirrored at both ends (once, the end
    points not repeated) and convolved with the Gaussian density sampled on
    the grid, and the result is read at ``points`` by linear interpolation.
    """
    m = max(_SMOOTH_MIN_GRID, round(20 / sigma)) // 2 + 1
    pos = conf * (m - 1)
    left = np.clip(pos.astype(np.intp), 0, m - 2)
    frac = pos - left
    grid = np.bincount(left, weights=(1 - frac) * values, minlength=m)
    grid += np.bincount(left + 1, weights=frac * values, minlength=m)
    t = np.linspace(0.0, 1.0, m)
    kernel = np.exp(-((t - 0.5) ** 2) / (2 * sigma**2)) / (np.sqrt(2 * np.pi) * sigma)
    mirrored = np.concatenate([grid[:0:-1], grid, grid[-2::-1]])
    smooth = signal.fftconvolve(mirrored, kernel, mode="valid")[m // 2 : m // 2 + m]
    j = np.clip((points * (m - 1)).astype(np.intp), 0, m - 2)
    step = 1 / (m - 1)
    rest = (points - j * step) / step
    return smooth[j] * (1 - rest) + smooth[j + 1] * rest


def smooth_error_at(conf, out, sigma, weight=None):
    """The smooth ECE at bandwidth ``sigma`` (Błasiok & Nakkiran 2023, eq. 4).

    ``smECE_sigma = int |r_sigma(t)| dt`` with ``r_sigma`` the kernel sum of
    the residuals ``c_i - o_i`` over that of the items, both on ``T =
    max(10 / sigma, 200)`` points and the density floored at ``1e-4``: the
    Riemann sum ``sum_t |r(t)| / sum_t (d(t) + 1e-4)``.
    """
    w = np.ones_like(conf) if weight is None else weight
    points = np.linspace(0.0, 1.0, max(round(10 / sigma), _SMOOTH_MIN_POINTS))
    residual = _reflected_smoothing(conf, w * (conf - out), points, sigma)
    density = _reflected_smoothing(conf, w, points, sigma) + _SMOOTH_DENSITY_FLOOR
    return float(np.sum(np.abs(residual / density) * density) / np.sum(density))


def smooth_error(conf, out, weight=None):
    """The smooth ECE of Błasiok & Nakkiran (2023), at its own bandwidth.

    The bandwidth is the fixed point ``sigma = smECE_sigma`` (their
    Definition 9), found as the authors' code finds it: ``sigma = 1`` if
    ``smECE_1 > 1``, else 10 bisection steps on [0, 1] keeping the upper end,
    where a bandwidth under ``1e-3`` counts as below the fixed point.
    """

    def below(sigma):
        return sigma < _SMOOTH_MIN_SIGMA or sigma < smooth_error_at(
            conf, out, sigma, weight
        )

    sigma = 1.0
    if not below(sigma):
        low = 0.0
        for _ in range(_SMOOTH_STEPS):
            mid = (low + sigma) / 2
            if below(mid):
                low = mid
            else:
                sigma = mid
    return smooth_error_at(conf, out, sigma, weight)


def powered_error(conf, out, method, norm, n_bins, strategy, weight=None):
    """The error of one problem to the power ``p`` (see :func:`binned_error`)."""
    if method == "smooth":
        return smooth_error(conf, out, weight)
    edges = bin_edges(conf, n_bins, strategy)
    sums = bin_sums(bin_codes(conf, edges), n_bins, conf, out, weight)
    return float(binned_error(*sums, method, norm))


def combine(powered, norm):
    """``(mean_k CE_k^p)^(1/p)`` of the problems' powered errors (axis 0);
    a negative debiased square is reported as 0."""
    mean = np.mean(powered, axis=0)
    if norm == "l1":
        return mean
    return np.sqrt(np.maximum(mean, 0.0))


def check_bins_apply(method, n_bins, strategy):
    """The smooth ECE has no bins: refuse ``n_bins`` or ``strategy`` with it."""
    if method == "smooth":
        refuse_unused(
            {
                "n_bins": (n_bins, DEFAULT_N_BINS),
                "strategy": (strategy, DEFAULT_STRATEGY),
            },
            "method='smooth' has no bins",
        )


def calibration_error(
    y_true,
    y_proba,
    *,
    method,
    norm,
    n_bins,
    strategy,
    multi_class,
    labels=None,
    pos_label=None,
):
    """The calibration error of ``y_proba``; see the calibration room."""
    check_bins_apply(method, n_bins, strategy)
    if method == "smooth":
        norm = "l1"
    codes, proba, _, pos_index = check_calibration_data(
        y_true, y_proba, labels, pos_label
    )
    problems = binary_problems(codes, proba, pos_index, multi_class)
    powered = [
        powered_error(conf, out, method, norm, n_bins, strategy)
        for conf, out in problems
    ]
    return float(combine(np.array(powered), norm))


# --------------------------------------------------------------------------
# The CORP decomposition (Dimitriadis, Gneiting & Jordan 2021)
# --------------------------------------------------------------------------


def isotonic_recalibration(conf, out, weight=None):
    """The PAV (isotonic) fit of the outcomes on the confidences, per item.

    Items with equal confidences share one value (their weighted mean
    outcome enters the fit once, weighted by their total weight): the CORP
    reliability curve of Dimitriadis et al. (2021, sec. 2.2).
    """
    values, inverse = np.unique(conf, return_inverse=True)
    w = np.ones_like(conf) if weight is None else weight
    total = np.bincount(inverse, weights=w, minlength=values.shape[0])
    hits = np.bincount(inverse, weights=w * out, minlength=values.shape[0])
    keep = total > 0
    fitted = np.zeros(values.shape[0])
    fitted[keep] = optimize.isotonic_regression(
        hits[keep] / total[keep], weights=total[keep]
    ).x
    return fitted[inverse], values, fitted


def mean_score(prob, out, scoring, weight=None, eps=None):
    """The mean Brier score ``(p - o)^2`` or log loss
    ``-(o log p + (1 - o) log(1 - p))``, with ``p`` clipped to
    ``[eps, 1 - eps]`` as scikit-learn's ``log_loss`` (``eps`` of float64 by
    default), so that a probability of 0 or 1 that misses costs
    ``-log(eps)``, not infinity."""
    if scoring == "brier":
        loss = (prob - out) ** 2
    else:
        eps = np.finfo(np.float64).eps if eps is None else eps
        prob = np.clip(prob, eps, 1 - eps)
        loss = -(special.xlogy(out, prob) + special.xlogy(1 - out, 1 - prob))
    return float(np.average(loss, weights=weight))


def corp_terms(conf, out, scoring, weight=None, eps=None):
    """``(score, MCB, DSC, UNC)`` of one binary problem.

    With ``S`` the mean score, ``c`` the confidences, ``c_rc`` their isotonic
    recalibration and ``r`` the (weighted) base rate:
    ``MCB = S(c) - S(c_rc)``, ``DSC = S(r) - S(c_rc)``, ``UNC = S(r)``, so
    that ``S(c) = MCB - DSC + UNC`` (Dimitriadis et al. 2021, eq. 5).
    """
    recal = isotonic_recalibration(conf, out, weight)[0]
    rate = np.average(out, weights=weight)
    score = mean_score(conf, out, scoring, weight, eps)
    s_rc = mean_score(recal, out, scoring, weight, eps)
    s_mg = mean_score(np.full_like(conf, rate), out, scoring, weight, eps)
    return score, score - s_rc, s_mg - s_rc, s_mg


def corp(y_true, y_proba, *, scoring, multi_class, labels=None, pos_label=None):
    """``(terms, n)``: the CORP terms ``[score, MCB, DSC, UNC]`` of the data,
    summed over its binary problems, and the number of items."""
    codes, proba, _, pos_index = check_calibration_data(
        y_true, y_proba, labels, pos_label
    )
    terms = np.zeros(4)
    eps = np.finfo(proba.dtype).eps  # the log loss's clip, as scikit-learn's
    for conf, out in binary_problems(codes, proba, pos_index, multi_class):
        terms += corp_terms(conf, out, scoring, eps=eps)
    return terms, codes.shape[0]

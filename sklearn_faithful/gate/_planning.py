"""Planning a paired comparison: items needed and the smallest detectable difference.

Two runs scored on the same items are compared through their per-item
differences ``d_i = b_i - a_i``. The variance of the mean difference is
``sigma_d^2 DE / n``: the variance of the differences (small when the runs
agree on most items) times the design effect of the items' clusters. The
sample size and the minimum detectable difference are then those of
:func:`required_sample_size` and :func:`minimum_detectable_effect` at
``sigma = sigma_d sqrt(DE / 2)`` (whose ``2 sigma^2`` is the variance of one
item's difference) and, for a two-sided test, ``alpha / 2``: one home for
the rule (formulas page, "Planning a paired comparison").

For 0/1 scores the paired test is the sign test on the discordant items
(swapping whole clusters with groups), whose steps cost power that the
normal rule ignores: :func:`_binary_shortfall` is the one home of the
corrected rule, Miettinen's (1968) variances with a continuity correction.
"""

import math
from dataclasses import dataclass
from itertools import combinations
from numbers import Integral, Real

import numpy as np
from scipy import optimize, special

from ..utils._clusters import _anova_icc
from ..utils._param_validation import Interval, validate_params
from ..utils._results import _ResultMixin
from ..utils._scaling import rescaled
from ..utils._validation import (
    ALTERNATIVE,
    _check_cluster_labels,
    _mixed_cluster_labels,
)
from ._gate import minimum_detectable_effect, required_sample_size

_RATE = [Interval(Real, 0, 0.5, closed="neither")]
_POSITIVE = [Interval(Real, 0, None, closed="neither")]
_SHARE = [Interval(Real, 0, 1, closed="both"), None]
# a share above 1 - 1e-12 or below 1e-12 is taken as exact (0.9 + 0.1 != 1)
_TOLERANCE = 1e-12


def _one_sided_alpha(alpha, alternative):
    """The ``alpha`` of :func:`required_sample_size`'s one-sided rule:
    ``alpha / 2`` for a two-sided test (its other tail ignored, as usual)."""
    return alpha / 2 if alternative == "two-sided" else alpha


def _check_runs(runs):
    """``(names, scores (n_items, n_runs))`` of a mapping or a 2-D array."""
    if hasattr(runs, "items"):
        names = [str(name) for name in runs]
        columns = [np.asarray(values) for values in runs.values()]
        where = [f"runs[{name!r}]" for name in runs]
    else:
        arr = np.asarray(runs)
        if arr.ndim != 2:
            raise ValueError(
                "runs must be a dict of run name to per-item scores, or an array "
                f"of shape (n_items, n_runs); got shape {arr.shape}."
            )
        names = [str(j) for j in range(arr.shape[1])]
        columns = list(arr.T)
        where = [f"runs[:, {j}]" for j in range(arr.shape[1])]
    if len(columns) < 2:
        raise ValueError(
            f"runs holds {len(columns)} run; planning a paired comparison needs "
            "pilot scores of at least 2 runs on the same items."
        )
    n_items = None
    for column, name in zip(columns, where, strict=True):
        if column.dtype.kind not in "biuf" or column.ndim != 1:
            raise ValueError(
                f"{name} must hold numeric per-item scores of shape (n_items,); "
                f"got dtype {column.dtype} and shape {column.shape}."
            )
        bad = np.flatnonzero(~np.isfinite(column.astype(np.float64)))
        if bad.size:
            raise ValueError(
                f"{name} contains {float(column[bad[0]])!r} at item "
                f"{int(bad[0])}; scores must be finite numbers."
            )
        if n_items is not None and column.size != n_items:
            raise ValueError(
                f"{name} has {column.size} items but {where[0]} has {n_items}; the "
                "runs must score the same items, in the same order."
            )
        n_items = column.size
    if n_items < 2:
        raise ValueError(f"runs hold {n_items} item; planning needs at least 2.")
    return names, np.column_stack(columns).astype(np.float64)


def _check_groups(groups, n_items):
    """``(codes, n_clusters)`` of the items' clusters, or None."""
    if groups is None:
        return None
    arr = _check_cluster_labels(groups, n_items)
    try:
        _, codes = np.unique(arr, return_inverse=True)
    except TypeError as exc:  # mixed types cannot be sorted
        raise _mixed_cluster_labels(exc) from None
    n_clusters = int(codes.max()) + 1
    if n_clusters < 2:
        raise ValueError(
            "groups names 1 cluster; the variance between clusters needs at "
            "least 2 (and many more for a trustworthy plan)."
        )
    return codes.ravel(), n_clusters


def _per_item_variance(values, groups):
    """``N Var(mean)``: the variance one item adds to a mean of such items.

    Without clusters, the sample variance (ddof 1). With clusters of sums
    ``S_g`` and sizes ``n_g`` (``N`` items, ``G`` clusters): ``G / (G - 1)
    sum_g (S_g - n_g m)^2 / N``, the cluster-robust (CR1) variance of the
    mean times ``N``; it is ``sigma^2 DE`` with the pilot's own design effect.
    """
    if groups is None:
        return float(values.var(ddof=1))
    codes, n_clusters = groups
    sums = np.bincount(codes, weights=values, minlength=n_clusters)
    sizes = np.bincount(codes, minlength=n_clusters)
    residual = sums - sizes * values.mean()
    return float(n_clusters / (n_clusters - 1) * np.sum(residual**2) / values.size)


def _difference_icc(d, groups):
    """The ANOVA intra-cluster correlation of the differences (NaN without
    clusters), as the jackknife intervals' working model estimates it."""
    if groups is None:
        return math.nan
    codes, n_clusters = groups
    sums = np.bincount(codes, weights=d, minlength=n_clusters)
    squares = np.bincount(codes, weights=d * d, minlength=n_clusters)
    sizes = np.bincount(codes, minlength=n_clusters).astype(np.float64)
    return _anova_icc(sums, squares, sizes)


def _sample_size(variance, delta, alpha, beta, what):
    """Items whose mean of per-item variance ``variance`` detects ``delta``:
    :func:`required_sample_size` at ``sigma = sqrt(variance / 2)``."""
    try:
        return required_sample_size(
            math.sqrt(variance / 2), delta, alpha=alpha, beta=beta
        )
    except ValueError:
        raise _too_small(what) from None


def _too_small(delta):
    return ValueError(
        f"delta={delta!r} is too small: detecting it would need more items than "
        "can be counted exactly. Ask for a larger delta."
    )


def _mde(variance, n, alpha, beta):
    return minimum_detectable_effect(math.sqrt(variance / 2), n, alpha=alpha, beta=beta)


def _z(alpha, beta):
    return float(special.ndtri(1 - alpha)), float(special.ndtri(1 - beta))


def _binary_variances(delta, spread):
    """``(psi_eff, s_1^2)`` of 0/1 scores at the planned ``delta``.

    ``spread = (s_d^2, s_eff^2, m_w)``: the items' variance of the
    differences, the variance one item adds to the mean (clusters
    included) and the size-weighted mean cluster size ``sum n_g^2 / N`` (1
    without clusters). ``psi_eff = s_eff^2 + m_w delta^2`` is the per-item
    variance of the sign-flip test's null distribution, ``sum_g D_g^2 / N``
    (the discordant share ``psi = s_d^2 + delta^2`` without clusters), and
    ``s_1^2 = DE (s_d^2 - 3/4 delta^2 (1 - psi) / psi)`` that of its
    statistic under the alternative (Miettinen 1968), times the design
    effect ``DE = s_eff^2 / s_d^2``.
    """
    item_variance, variance, weighted_size = spread
    psi = item_variance + delta * delta
    # eq. Miettinen: psi s_1^2 = psi^2 - delta^2 (3 + psi) / 4, items alone
    within = item_variance - 0.75 * delta * delta * max(1 - psi, 0.0) / psi
    alternative = variance / item_variance * max(within, 0.0)
    return variance + weighted_size * delta * delta, alternative


def _binary_shortfall(delta, n, spread, z_alpha, z_beta):
    """``delta n - 1 - sqrt(n) (z_a sqrt(psi_eff) + z_b s_1)``: >= 0 when ``n``
    items of 0/1 scores detect ``delta`` with the continuity correction of
    ``1``, half the step 2 of the sum of the differences."""
    null, alternative = _binary_variances(delta, spread)
    gap = z_alpha * math.sqrt(null) + z_beta * math.sqrt(alternative)
    return delta * n - 1 - math.sqrt(n) * gap


def _binary_sample_size(delta, spread, alpha, beta):
    """Smallest ``n`` with ``_binary_shortfall >= 0``: with ``x = sqrt(n)``,
    the positive root of ``delta x^2 - K x - 1 = 0``, ``x = (K + sqrt(K^2 +
    4 delta)) / (2 delta)`` (Fleiss, Tytun and Ury 1980's form)."""
    z_alpha, z_beta = _z(alpha, beta)
    null, alternative = _binary_variances(delta, spread)
    gap = z_alpha * math.sqrt(null) + z_beta * math.sqrt(alternative)
    root = (gap + math.sqrt(gap * gap + 4 * delta)) / (2 * delta)
    exact = root * root
    if not exact <= 2**53:
        raise _too_small(delta)
    n = max(1, math.ceil(exact))
    # guard the ceiling against rounding: the defining inequality decides
    while n > 1 and _binary_shortfall(delta, n - 1, spread, z_alpha, z_beta) >= 0:
        n -= 1
    while _binary_shortfall(delta, n, spread, z_alpha, z_beta) < 0:
        n += 1
    return n


def _binary_mde(n, spread, alpha, beta):
    """The ``delta`` where ``_binary_shortfall`` crosses 0, by bracketing
    (it increases with ``delta``); inf when ``n <= z_a^2 m_w``, where no
    difference is detectable (as 3 items for the sign test at 0.05)."""
    z_alpha, z_beta = _z(alpha, beta)
    if not n > z_alpha * z_alpha * spread[2]:
        return math.inf
    high = 1.0
    while _binary_shortfall(high, n, spread, z_alpha, z_beta) < 0:
        high *= 2
    delta = optimize.brentq(
        _binary_shortfall, 0.0, high, args=(n, spread, z_alpha, z_beta), xtol=1e-15
    )
    # the smallest float that n items detect, so that n_required(mde) == n
    while _binary_shortfall(delta, n, spread, z_alpha, z_beta) < 0:
        delta = math.nextafter(delta, math.inf)
    below = math.nextafter(delta, 0.0)
    while _binary_shortfall(below, n, spread, z_alpha, z_beta) >= 0:
        delta, below = below, math.nextafter(below, 0.0)
    return float(delta)


def _binary_delta(delta):
    if delta > 1:
        raise ValueError(
            f"delta={delta!r} is beyond 1, the largest difference of mean 0/1 "
            "scores; give delta in the scores' units, in (0, 1]."
        )


def _weighted_cluster_size(clusters):
    """``sum n_g^2 / N``: 1 without clusters."""
    if clusters is None:
        return 1.0
    sizes = np.bincount(clusters[0], minlength=clusters[1]).astype(np.float64)
    return float(np.sum(sizes * sizes) / sizes.sum())


@dataclass(frozen=True)
class PairedPlanResult(_ResultMixin):
    """Result of :func:`plan_paired_comparison`: items needed, detectable difference.

    A report, not a test: plain numbers with :meth:`summary` and
    :meth:`to_dict`. With more than two runs, the headline fields are those
    of the pair hardest to tell apart (the largest variance of the mean
    difference), so the plan holds for every pair; ``pairs`` lists each.

    Attributes
    ----------
    delta : float or None
        The difference to detect, in the scores' units; None when not asked.
    alpha, beta : float
        Level of the test and miss rate at ``delta`` (power ``1 - beta``).
    alternative : str
        ``"two-sided"``, or ``"less"`` / ``"greater"`` for a one-sided test.
    n_items : int
        Items of the pilot.
    n_clusters : int
        Clusters of the pilot (``n_items`` without ``groups``).
    pair : tuple of str
        ``(a, b)``, the names of the pair the headline fields describe.
    difference : float
        The pilot's mean difference ``b - a`` of that pair.
    sd_difference : float
        Standard deviation of its per-item differences (ddof 1).
    correlation : float
        Correlation of the two runs' scores (of their cluster sums with
        ``groups``): ``(s_a^2 + s_b^2 - s_d^2) / (2 s_a s_b)``; NaN when a run
        has no spread.
    design_effect : float
        ``s_eff^2 / sd_difference^2``, the variance the clusters add (1
        without ``groups``; an estimate below 1 is taken as 1).
    icc : float
        ANOVA intra-cluster correlation of the differences, for reference;
        NaN without ``groups``.
    mean_cluster_size : float
        ``n_items / n_clusters``.
    n_required : int or None
        Items a paired comparison needs to detect ``delta`` with power
        ``1 - beta``; None without ``delta``.
    n_unpaired : int or None
        Items per run that two independent item sets would need (the normal
        rule of :func:`required_sample_size`, with the same clusters and no
        continuity correction, even for 0/1 scores); None without ``delta``
        or when both runs are constant.
    minimum_detectable_effect : float
        The smallest difference the pilot's ``n_items`` detect with power
        ``1 - beta``, paired; for 0/1 scores above 1, or inf, when no
        difference is detectable at that size.
    pairs : tuple of dict
        The same numbers for every pair of runs.
    """

    delta: float | None
    alpha: float
    beta: float
    alternative: str
    n_items: int
    n_clusters: int
    pair: tuple
    difference: float
    sd_difference: float
    correlation: float
    design_effect: float
    icc: float
    mean_cluster_size: float
    n_required: int | None
    n_unpaired: int | None
    minimum_detectable_effect: float
    pairs: tuple

    def summary(self):
        """Describe the plan in a few plain-text lines.

        Returns
        -------
        text : str
            The pair, the spread of its differences, the design effect, the
            items needed for ``delta`` and the detectable difference now.
        """
        a, b = self.pair
        side = "two-sided" if self.alternative == "two-sided" else "one-sided"
        lines = [
            f"paired plan ({side} alpha {self.alpha:g}, power {1 - self.beta:g}), "
            f"pair {b} - {a}"
            + (" (the hardest of the pairs)" if len(self.pairs) > 1 else "")
            + f": pilot difference {self.difference:+.4g} on {self.n_items} items",
            f"sd of the differences {self.sd_difference:.4g}, correlation of the "
            f"runs {self.correlation:.3f}, design effect {self.design_effect:.3g}"
            + (
                f" ({self.n_clusters} clusters of {self.mean_cluster_size:.3g} "
                f"items on average, ICC of the differences {self.icc:.3f})"
                if self.n_clusters < self.n_items
                else ""
            ),
        ]
        if self.n_required is not None:
            lines.append(
                f"items needed to detect {self.delta:g}: {self.n_required} paired"
                + (
                    f" ({self.n_unpaired} per run unpaired)"
                    if self.n_unpaired is not None
                    else ""
                )
            )
        lines.append(
            f"smallest detectable difference at {self.n_items} items: "
            f"{self.minimum_detectable_effect:.4g}"
        )
        return "\n".join(lines)


@validate_params(
    {
        "runs": [dict, "array-like"],
        "delta": _POSITIVE + [None],
        "groups": ["array-like", None],
        "alpha": _RATE,
        "beta": _RATE,
        "alternative": ALTERNATIVE,
    },
    prefer_skip_nested_validation=True,
)
def plan_paired_comparison(
    runs, delta=None, *, groups=None, alpha=0.05, beta=0.2, alternative="two-sided"
):
    """Plan a paired comparison from pilot runs on the same items.

    The items a paired test needs to detect a difference ``delta`` with
    power ``1 - beta``, and the smallest difference the pilot's number of
    items detects, from the variance of the pilot's per-item differences
    and the design effect of its clusters.

    Parameters
    ----------
    runs : dict of str to array-like of shape (n_items,), or array-like of \
            shape (n_items, n_runs)
        Per-item scores of two runs or more on the same items, in the same
        order (0/1 correctness, a rating, a per-item metric).
    delta : float, default=None
        The difference of mean scores to detect, > 0, in the scores' units;
        None gives the detectable difference only.
    groups : array-like of shape (n_items,), default=None
        Each item's cluster (passage, prompt, video). The test set planned is
        taken to come in clusters like the pilot's.
    alpha : float, default=0.05
        Level of the test, in (0, 0.5).
    beta : float, default=0.2
        Miss rate at ``delta`` (power ``1 - beta``), in (0, 0.5).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The test planned; ``"less"`` and ``"greater"`` plan a one-sided test
        (the same numbers for either direction).

    Returns
    -------
    result : PairedPlanResult
        ``n_required``, ``minimum_detectable_effect``, the spread, the design
        effect and the correlation of the pair hardest to tell apart, and
        ``pairs``.

    See Also
    --------
    paired_sample_size : The same rule from summary numbers.
    required_sample_size : Two independent item sets (the unpaired rule).
    sklearn_faithful.eval_logs.compare_runs : The paired tests planned for.

    Notes
    -----
    With ``s_eff^2`` the variance one item's difference adds to the mean
    difference, ``n = ceil(s_eff^2 (z_{1-alpha/2} + z_{1-beta})^2 /
    delta^2)`` and ``delta_min(n) = (z_{1-alpha/2} + z_{1-beta}) s_eff /
    sqrt(n)`` (``z_{1-alpha}`` one-sided). Without clusters ``s_eff^2`` is
    the sample variance ``s_d^2`` of the differences, ``s_a^2 + s_b^2 - 2
    cov(a, b)``; two independent item sets need ``s_a^2 + s_b^2`` in its
    place, so the paired plan needs ``1 - rho`` times the unpaired one's
    items for runs of equal spread and correlation ``rho``.

    With clusters, ``s_eff^2 = G / (G - 1) sum_g (D_g - n_g dbar)^2 / N``
    from the clusters' sums ``D_g`` of differences: the cluster-robust
    variance of the mean, taken from the pilot directly rather than through
    ``1 + (m - 1) ICC``, which assumes equal clusters and one correlation
    within all of them; ``design_effect = s_eff^2 / s_d^2``. The estimate
    is as good as the pilot's number of clusters; one below 1 (clusters less
    alike than chance, mostly noise of few clusters) is taken as 1, so that
    the plan never counts on it. With more than two runs
    every pair is planned and the headline is the largest ``s_eff^2``; for
    a family of pairs under Holm's adjustment, plan with ``alpha`` divided
    by the number of pairs.

    **0/1 scores** (every score of both runs in {0, 1}): the paired
    permutation test is then the sign test on the discordant items, whose
    steps cost power the normal rule ignores (0.72 to 0.76 at a target of
    0.80 with 8 to 60 discordant items). ``n`` is the smallest with

    ``delta n - 1 >= sqrt(n) (z_{1-alpha/2} sqrt(psi_eff) + z_{1-beta} s_1)``,

    the continuity correction ``1`` (half the step 2 of the sum of the
    differences) in the form of Fleiss, Tytun and Ury (1980), solved in
    ``x = sqrt(n)`` from ``delta x^2 - K x - 1 = 0``. ``psi_eff = s_eff^2 +
    m_w delta^2`` is the variance of the test's null (sign-flip)
    distribution per item, ``m_w = sum n_g^2 / N`` (1 without clusters,
    when ``psi_eff`` is the discordant share ``psi = s_d^2 + delta^2``);
    ``s_1^2 = DE (s_d^2 - 3/4 delta^2 (1 - psi) / psi)`` the variance of its
    statistic under the alternative, Miettinen's (1968) for items alone
    (Connor 1987 puts ``psi - delta^2`` in its place, which over-asks for
    large differences: at the n it plans for the user guide's "bin large",
    the exact sign test's power is 0.89 at a target of 0.80), times the
    design effect.
    ``delta_min(n)`` solves the same equation for ``delta`` (it increases
    with ``delta``; Brent's bracketing method), so that ``n_required`` at
    ``delta_min(n)`` is ``n``; inf when ``n <= z_{1-alpha/2}^2 m_w``. The
    unpaired ``n_unpaired`` keeps the normal rule.

    At the planned ``n`` the permutation test of
    :func:`~sklearn_faithful.eval_logs.compare_runs` reached the target
    power within the margins measured in the user guide ("Planning from
    pilot runs").

    References
    ----------
    .. [1] Miettinen, O. S. (1968). The matched pairs design in the case of
       all-or-none responses. Biometrics, 24(2), 339-352.
    .. [2] Connor, R. J. (1987). Sample size for testing differences in
       proportions for the paired-sample design. Biometrics, 43(1), 207-211.
    .. [3] Fleiss, J. L., Tytun, A. and Ury, H. K. (1980). A simple
       approximation for calculating sample sizes for comparing independent
       proportions. Biometrics, 36(2), 343-346.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.gate import plan_paired_comparison
    >>> rng = np.random.default_rng(0)
    >>> a = (rng.random(500) < 0.80).astype(int)
    >>> b = np.where(rng.random(500) < 0.1, 1 - a, a)  # B differs on 10%
    >>> plan = plan_paired_comparison({"A": a, "B": b}, delta=0.03)
    >>> plan.n_required, plan.n_unpaired
    (765, 3336)
    >>> round(plan.minimum_detectable_effect, 4)
    0.0373
    """
    names, scores = _check_runs(runs)
    n_items = scores.shape[0]
    clusters = _check_groups(groups, n_items)
    one_sided = _one_sided_alpha(alpha, alternative)
    binary = [bool(np.isin(column, (0, 1)).all()) for column in scores.T]
    weighted_size = _weighted_cluster_size(clusters)
    # in units of 2**e (exact): no square overflows or underflows
    e, (scores, scaled_delta) = rescaled(scores, 0.0 if delta is None else delta)
    scaled_delta = float(scaled_delta)
    variances = [
        max(_per_item_variance(scores[:, j], clusters), float(scores[:, j].var(ddof=1)))
        for j in range(len(names))
    ]
    pairs = []
    for i, j in combinations(range(len(names)), 2):
        d = scores[:, j] - scores[:, i]
        item_variance = float(d.var(ddof=1))
        if not item_variance > 0:
            raise ValueError(
                f"runs {names[i]!r} and {names[j]!r} differ by the same amount on "
                f"every item ({float(np.ldexp(d[0], e))!r}): their differences have "
                "no spread, so the pilot says nothing of the variance to plan for. "
                "Use pilot runs that differ on some items, or paired_sample_size "
                "with an expected agreement."
            )
        # a design effect below 1 (noise, with few clusters) is taken as 1
        variance = max(_per_item_variance(d, clusters), item_variance)
        spread = variances[i] + variances[j]
        # 0/1 scores: the corrected rule, in the scores' own units
        signs = None
        if binary[i] and binary[j]:
            signs = (
                float(np.ldexp(item_variance, 2 * e)),
                float(np.ldexp(variance, 2 * e)),
                weighted_size,
            )
        row = {
            "a": names[i],
            "b": names[j],
            "difference": float(np.ldexp(d.mean(), e)),
            "sd_difference": float(np.ldexp(math.sqrt(item_variance), e)),
            "correlation": (spread - variance)
            / (2 * math.sqrt(variances[i] * variances[j]))
            if variances[i] > 0 and variances[j] > 0
            else math.nan,
            "design_effect": variance / item_variance,
            "icc": _difference_icc(d, clusters),
            "n_required": None,
            "n_unpaired": None,
            "minimum_detectable_effect": float(
                np.ldexp(_mde(variance, n_items, one_sided, beta), e)
            )
            if signs is None
            else _binary_mde(n_items, signs, one_sided, beta),
            "_variance": variance,
        }
        if delta is not None:
            if signs is None:
                row["n_required"] = _sample_size(
                    variance, scaled_delta, one_sided, beta, delta
                )
            else:
                _binary_delta(delta)
                row["n_required"] = _binary_sample_size(
                    float(delta), signs, one_sided, beta
                )
            if spread > 0:
                row["n_unpaired"] = _sample_size(
                    spread, scaled_delta, one_sided, beta, delta
                )
        pairs.append(row)
    # the pair needing the most items (detecting the least now) heads the plan
    worst = max(
        pairs,
        key=lambda row: (row["n_required"] or 0, row["minimum_detectable_effect"]),
    )
    for row in pairs:
        del row["_variance"]
    n_clusters = n_items if clusters is None else clusters[1]
    return PairedPlanResult(
        delta=None if delta is None else float(delta),
        alpha=float(alpha),
        beta=float(beta),
        alternative=alternative,
        n_items=int(n_items),
        n_clusters=int(n_clusters),
        pair=(worst["a"], worst["b"]),
        difference=worst["difference"],
        sd_difference=worst["sd_difference"],
        correlation=worst["correlation"],
        design_effect=worst["design_effect"],
        icc=worst["icc"],
        mean_cluster_size=n_items / n_clusters,
        n_required=worst["n_required"],
        n_unpaired=worst["n_unpaired"],
        minimum_detectable_effect=worst["minimum_detectable_effect"],
        pairs=tuple(pairs),
    )


def _summary_spread(
    sd_difference, accuracy_a, accuracy_b, agreement, discordant, cluster_size, icc
):
    """``(s_d, DE, binary)`` from the summary numbers, one source of ``s_d``:
    given, from two accuracies and their agreement, or from the discordant
    shares (then ``binary``); ``DE = 1 + (m - 1) ICC``."""
    accuracies = (accuracy_a, accuracy_b, agreement)
    given = [
        sd_difference is not None,
        any(v is not None for v in accuracies),
        discordant is not None,
    ]
    if sum(given) != 1:
        raise ValueError(
            "give one source of the spread of the differences: sd_difference, or "
            "accuracy_a, accuracy_b and agreement, or discordant."
        )
    if sd_difference is not None:
        sd = float(sd_difference)
    else:
        if discordant is not None:
            shares = np.asarray(discordant, dtype=float)
            if shares.shape != (2,) or not (np.isfinite(shares).all()):
                raise ValueError(
                    f"discordant must be 2 shares (A right and B wrong, A wrong and "
                    f"B right); got {discordant!r}."
                )
            only_a, only_b = (float(s) for s in shares)
            if min(only_a, only_b) < 0 or only_a + only_b > 1 + _TOLERANCE:
                raise ValueError(
                    f"discordant={discordant!r}: the shares must be >= 0 and sum to "
                    "at most 1."
                )
        else:
            if any(v is None for v in accuracies):
                raise ValueError(
                    "accuracy_a, accuracy_b and agreement go together; got "
                    f"accuracy_a={accuracy_a!r}, accuracy_b={accuracy_b!r}, "
                    f"agreement={agreement!r}."
                )
            # both right + both wrong = agreement; B - A = only_b - only_a
            gain, disagree = accuracy_b - accuracy_a, 1 - agreement
            only_a, only_b = (disagree - gain) / 2, (disagree + gain) / 2
            both_right = (accuracy_a + accuracy_b - disagree) / 2
            if min(only_a, only_b, both_right, agreement - both_right) < -_TOLERANCE:
                raise ValueError(
                    f"accuracy_a={accuracy_a!r}, accuracy_b={accuracy_b!r} and "
                    f"agreement={agreement!r} are impossible together: the "
                    "agreement must lie in [|accuracy_a + accuracy_b - 1|, 1 - "
                    f"|accuracy_b - accuracy_a|] = "
                    f"[{abs(accuracy_a + accuracy_b - 1):.4g}, {1 - abs(gain):.4g}]."
                )
            only_a, only_b = max(only_a, 0.0), max(only_b, 0.0)
        # d in {-1, 0, 1}: Var(d) = P(d != 0) - E(d)^2
        sd = math.sqrt(max(only_a + only_b - (only_b - only_a) ** 2, 0.0))
    if not sd > 0:
        raise ValueError(
            "the runs agree on every item (no discordant items): the differences "
            "have no spread and no sample size detects a difference. Give the "
            "expected agreement below 1."
        )
    # design effect of equal clusters of cluster_size items (Kish 1965)
    return sd, 1 + (cluster_size - 1) * icc, sd_difference is None


def _summary_plan(n, delta, spread_args, alpha, beta, alternative):
    """``n_required(delta)`` (``n`` None) or ``delta_min(n)``: the normal rule at
    ``s_eff = s_d sqrt(DE)``, or for 0/1 scores the corrected one with equal
    clusters of ``cluster_size`` items."""
    sd, design_effect, binary = _summary_spread(*spread_args)
    one_sided = _one_sided_alpha(alpha, alternative)
    if binary:
        cluster_size = float(spread_args[5])
        signs = (sd * sd, sd * sd * design_effect, cluster_size)
        if n is None:
            _binary_delta(delta)
            return _binary_sample_size(float(delta), signs, one_sided, beta)
        return _binary_mde(n, signs, one_sided, beta)
    e, (scale, scaled_delta) = rescaled(sd * math.sqrt(design_effect), delta or 0.0)
    if n is None:
        return _sample_size(
            float(scale) ** 2, float(scaled_delta), one_sided, beta, delta
        )
    return float(np.ldexp(_mde(float(scale) ** 2, n, one_sided, beta), e))


_SUMMARY_PARAMS = {
    "sd_difference": _POSITIVE + [None],
    "accuracy_a": _SHARE,
    "accuracy_b": _SHARE,
    "agreement": _SHARE,
    "discordant": ["array-like", None],
    "cluster_size": [Interval(Real, 1, None, closed="left")],
    "icc": [Interval(Real, 0, 1, closed="both")],
    "alpha": _RATE,
    "beta": _RATE,
    "alternative": ALTERNATIVE,
}


@validate_params(
    {"delta": _POSITIVE, **_SUMMARY_PARAMS}, prefer_skip_nested_validation=True
)
def paired_sample_size(
    delta,
    *,
    sd_difference=None,
    accuracy_a=None,
    accuracy_b=None,
    agreement=None,
    discordant=None,
    cluster_size=1,
    icc=0.0,
    alpha=0.05,
    beta=0.2,
    alternative="two-sided",
):
    """Items a paired comparison needs, from summary numbers.

    The number of items two runs scored on the same items need for a
    paired test to detect a difference ``delta`` of mean scores with power
    ``1 - beta``: from the spread of the per-item differences (given, or of
    0/1 scores from two accuracies and their agreement, or from the
    discordant shares) and the design effect of clusters.

    Parameters
    ----------
    delta : float
        The difference of mean scores to detect, > 0.
    sd_difference : float, default=None
        Standard deviation of the per-item differences ``b_i - a_i``.
    accuracy_a, accuracy_b : float, default=None
        Accuracies of the two runs (0/1 scores), with ``agreement``.
    agreement : float, default=None
        Share of items both runs get right or both get wrong.
    discordant : array-like of 2 floats, default=None
        Shares of items A gets right and B wrong, and A wrong and B right.
    cluster_size : float, default=1
        Mean number of items of a cluster (1: items independent).
    icc : float, default=0.0
        Intra-cluster correlation of the differences, in [0, 1].
    alpha : float, default=0.05
        Level of the test, in (0, 0.5).
    beta : float, default=0.2
        Miss rate at ``delta`` (power ``1 - beta``), in (0, 0.5).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The test planned; ``"less"`` and ``"greater"`` plan a one-sided test.

    Returns
    -------
    n : int
        Items (not clusters) of the paired comparison.

    See Also
    --------
    plan_paired_comparison : The same from pilot runs' per-item scores.
    paired_minimum_detectable_effect : The inverse: delta at a given n.

    Notes
    -----
    ``n = ceil(s_d^2 DE (z_{1-alpha/2} + z_{1-beta})^2 / delta^2)`` with
    ``DE = 1 + (m - 1) ICC`` (clusters of equal size ``m``), with
    ``sd_difference``. For 0/1 scores with discordant shares ``p_10`` (A
    only) and ``p_01`` (B only), ``s_d^2 = p_10 + p_01 - (p_01 - p_10)^2``;
    from accuracies and agreement, ``p_10 + p_01 = 1 - agreement`` and
    ``p_01 - p_10 = accuracy_b - accuracy_a``; and ``n`` is then the
    smallest with ``delta n - 1 >= sqrt(n) (z_{1-alpha/2} sqrt(s_d^2 DE + m
    delta^2) + z_{1-beta} s_1)``, the continuity-corrected rule of
    :func:`plan_paired_comparison` (Notes, and its references) with
    ``s_1^2 = DE (s_d^2 - 3/4 delta^2 (1 - psi) / psi)``, ``psi = s_d^2 +
    delta^2``: the sign test's steps cost power the normal rule ignores.
    ``delta`` is at most 1 for 0/1 scores.

    Examples
    --------
    >>> from sklearn_faithful.gate import paired_sample_size
    >>> paired_sample_size(0.02, accuracy_a=0.80, accuracy_b=0.82, agreement=0.90)
    2043
    >>> paired_sample_size(0.02, discordant=(0.04, 0.06), cluster_size=5, icc=0.1)
    2841
    >>> paired_sample_size(0.02, sd_difference=0.3)  # the normal rule
    1766
    """
    spread = (
        sd_difference,
        accuracy_a,
        accuracy_b,
        agreement,
        discordant,
        cluster_size,
        icc,
    )
    return _summary_plan(None, delta, spread, alpha, beta, alternative)


@validate_params(
    {"n": [Interval(Integral, 1, None, closed="left")], **_SUMMARY_PARAMS},
    prefer_skip_nested_validation=True,
)
def paired_minimum_detectable_effect(
    n,
    *,
    sd_difference=None,
    accuracy_a=None,
    accuracy_b=None,
    agreement=None,
    discordant=None,
    cluster_size=1,
    icc=0.0,
    alpha=0.05,
    beta=0.2,
    alternative="two-sided",
):
    """Smallest difference a paired comparison of ``n`` items detects.

    The difference of mean scores that a paired test of two runs on the
    same ``n`` items detects with power ``1 - beta``, from the same summary
    numbers as :func:`paired_sample_size`.

    Parameters
    ----------
    n : int
        Items (not clusters) of the comparison, >= 1.
    sd_difference : float, default=None
        Standard deviation of the per-item differences ``b_i - a_i``.
    accuracy_a, accuracy_b : float, default=None
        Accuracies of the two runs (0/1 scores), with ``agreement``.
    agreement : float, default=None
        Share of items both runs get right or both get wrong.
    discordant : array-like of 2 floats, default=None
        Shares of items A gets right and B wrong, and A wrong and B right.
    cluster_size : float, default=1
        Mean number of items of a cluster (1: items independent).
    icc : float, default=0.0
        Intra-cluster correlation of the differences, in [0, 1].
    alpha : float, default=0.05
        Level of the test, in (0, 0.5).
    beta : float, default=0.2
        Miss rate at ``delta`` (power ``1 - beta``), in (0, 0.5).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The test planned; ``"less"`` and ``"greater"`` plan a one-sided test.

    Returns
    -------
    delta : float
        In the scores' units.

    See Also
    --------
    paired_sample_size : The inverse: n for a given delta.
    plan_paired_comparison : The same from pilot runs' per-item scores.

    Notes
    -----
    ``delta(n) = (z_{1-alpha/2} + z_{1-beta}) s_d sqrt(DE / n)``, with
    ``s_d`` and ``DE`` as in :func:`paired_sample_size`. For 0/1 scores
    (accuracies and agreement, or discordant shares), the ``delta`` that
    solves :func:`paired_sample_size`'s continuity-corrected equation at
    ``n`` (it increases with ``delta``; Brent's bracketing method), so that
    ``paired_sample_size(delta(n)) == n``; above 1, or inf when ``n <=
    z_{1-alpha/2}^2 m``, no difference of 0/1 scores is detectable.

    Examples
    --------
    >>> from sklearn_faithful.gate import paired_minimum_detectable_effect
    >>> round(paired_minimum_detectable_effect(
    ...     1000, accuracy_a=0.80, accuracy_b=0.82, agreement=0.90), 4)
    0.0288
    """
    spread = (
        sd_difference,
        accuracy_a,
        accuracy_b,
        agreement,
        discordant,
        cluster_size,
        icc,
    )
    return _summary_plan(n, None, spread, alpha, beta, alternative)

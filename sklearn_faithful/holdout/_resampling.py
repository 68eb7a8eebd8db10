"""Bootstrap intervals, paired bootstrap and permutation tests, the sign test.

From the evaluation lecture notes (formulas page, "Resampling"): resample the
test set with replacement and recompute the metric, or the difference of two
systems on the same resample; swap the two systems' predictions item by item
for approximate randomization; and the exact binomial test on the items where
exactly one system is right.
"""

import functools
import warnings
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np

from ..utils._clusters import (
    cluster_moments,
    jackknife_mean_interval,
    rarer_outcome_clusters,
)
from ..utils._measured import JACKKNIFE_BM_RARE_COVERAGE
from ..utils._param_validation import Interval, StrOptions, validate_params
from ..utils._random import _generator
from ..utils._results import (
    ConfidenceInterval,
    _EffectTestMixin,
    _interval_text,
    _level_text,
    _ResultMixin,
)
from ..utils._scaling import rescaled, scaled_std
from ..utils._validation import (
    ALTERNATIVE,
    CONFIDENCE_LEVEL,
    N_JOBS,
    RANDOM_STATE,
    _check_cluster_labels,
    _check_label_values,
    _check_same_items,
    _check_sample_weight,
    _mixed_cluster_labels,
    _numbers_as_numbers,
    _pos_label_index,
)
from ._fast_metrics import (
    TABLE_KINDS,
    Resampler,
    cell_resampler,
    cluster_cells,
    cluster_sums,
    encode_labels,
    is_label_metric,
    issparse,
    label_resampler,
    label_table,
    metric_from_sums,
    resolve_metric,
    run_resamples,
    sklearn_metric_name,
    table_statistic,
    unit_features,
    warn_kappa_undefined,
)
from ._options import CLUSTER_MEAN_METHODS, INTERVAL_METHODS
from ._proba_resampler import confidence_codes, confidence_features, proba_resampler


@dataclass(frozen=True)
class BootstrapIntervalResult(_ResultMixin):
    """Result of :func:`bootstrap_confidence_interval` and
    :func:`kappa_confidence_interval`: the interval of a score.

    Follows scipy's ``BootstrapResult``: the ``confidence_interval``,
    ``bootstrap_distribution`` and ``standard_error`` fields, with the
    score itself and how the resamples were drawn. ``method="jackknife-bm"``
    draws no resample: its ``bootstrap_distribution`` is empty,
    ``n_resamples`` and ``n_nan`` are 0, ``fast_path`` is False and
    ``standard_error`` is the delete-one-cluster jackknife's.

    Attributes
    ----------
    statistic : float
        The metric on the original data.
    confidence_interval : ConfidenceInterval
        The interval at ``confidence_level``; one-sided (an infinite bound)
        for ``alternative="less"`` or ``"greater"``.
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The metric on each resample (empty for ``"jackknife-bm"``).
    standard_error : float
        Standard deviation of the bootstrap distribution, or the jackknife
        standard error for ``"jackknife-bm"``.
    confidence_level : float
        Level of the interval.
    alternative : str
        ``"two-sided"``, ``"less"`` (an upper bound) or ``"greater"`` (a
        lower bound).
    method : str
        ``"percentile"``, ``"basic"``, ``"bca"`` or ``"jackknife-bm"``.
    metric : str
        Name of the metric: the name passed, the function's ``__name__``,
        or ``"cohen_kappa"``.
    n_samples : int
        Items of the test set.
    n_resamples : int
        Resamples drawn.
    n_nan : int
        Resamples on which the metric was NaN (left out of the interval).
    fast_path : bool
        Whether the vectorised path was used.
    n_clusters : int or None
        Clusters resampled whole (``groups``); None when the items were
        resampled one by one.
    """

    statistic: float
    confidence_interval: ConfidenceInterval
    bootstrap_distribution: np.ndarray = field(repr=False)
    standard_error: float
    confidence_level: float
    alternative: str
    method: str
    metric: str
    n_samples: int
    n_resamples: int
    n_nan: int
    fast_path: bool
    n_clusters: int | None = None

    _not_in_dict = ("bootstrap_distribution",)

    def summary(self):
        """Describe the interval in one plain-text paragraph.

        Returns
        -------
        text : str
            The score, its interval and standard error, and the resamples.
        """
        if self.method in CLUSTER_MEAN_METHODS:
            return (
                f"{self.metric} = {self.statistic:.4f}, "
                f"{_level_text(self.confidence_level)} {self.method} interval "
                f"{_interval_text(self.confidence_interval)} ({self.alternative}); "
                f"delete-one-cluster jackknife s.e. {self.standard_error:.4f}, "
                f"{self.n_samples} items{_clusters_text(self.n_clusters)}"
            )
        return (
            f"{self.metric} = {self.statistic:.4f}, "
            f"{_level_text(self.confidence_level)} {self.method} bootstrap interval "
            f"{_interval_text(self.confidence_interval)} ({self.alternative}); "
            f"s.e. {self.standard_error:.4f}, {self.n_resamples} resamples of "
            f"{self.n_samples} items"
            + _clusters_text(self.n_clusters)
            + (f" ({self.n_nan} NaN left out)" if self.n_nan else "")
        )


@dataclass(frozen=True)
class PairedTestResult(_EffectTestMixin):
    """Result of :func:`paired_bootstrap_test` and :func:`paired_permutation_test`.

    Follows scipy's ``TtestResult``: ``statistic``, ``pvalue`` and a method
    ``confidence_interval(confidence_level)``, here the percentile interval
    of the paired bootstrap distribution, which the result keeps.

    Attributes
    ----------
    statistic : float
        Observed difference ``metric(B) - metric(A)``.
    pvalue : float
        ``(c + 1) / (n + 1)``, with ``c`` the resamples at least as extreme as
        the observed difference under the null.
    alternative : str
        ``"two-sided"``, ``"greater"`` (B better) or ``"less"``.
    confidence_level : float
        Level of :meth:`confidence_interval` by default.
    method : str
        ``"bootstrap"`` or ``"permutation"``: how the null distribution was
        drawn.
    metric : str
        Name of the metric: the name passed, or the function's ``__name__``.
    n_samples : int
        Items of the test set.
    n_resamples : int
        Resamples (or permutations) drawn.
    fast_path : bool
        Whether the vectorised path was used.
    bootstrap_distribution : ndarray of shape (n_resamples,)
        Differences on paired bootstrap resamples (for the permutation test
        too, drawn after the permutations with the same seed); the interval
        is computed from them.
    null_distribution : ndarray of shape (n_resamples,)
        Differences under the null hypothesis.
    n_clusters : int or None
        Clusters resampled (and swapped) whole (``groups``); None when the
        items were resampled one by one.
    """

    statistic: float
    pvalue: float
    alternative: str
    confidence_level: float
    method: str
    metric: str
    n_samples: int
    n_resamples: int
    fast_path: bool
    bootstrap_distribution: np.ndarray = field(repr=False)
    null_distribution: np.ndarray = field(repr=False)
    n_clusters: int | None = None

    _not_in_dict = ("bootstrap_distribution", "null_distribution")

    def _confidence_interval(self, confidence_level, warn=True):
        # percentile interval of the paired bootstrap differences
        return _interval(
            self.bootstrap_distribution,
            self.statistic,
            confidence_level,
            "percentile",
            self.alternative,
            warn=warn,
            # the user, validate_params' wrapper, confidence_interval, here
            stacklevel=5,
        )

    def summary(self):
        """Describe the test in one plain-text paragraph.

        Returns
        -------
        text : str
            The difference B - A with its interval, and the p-value.
        """
        level = self.confidence_level
        ci = self._confidence_interval(level, warn=False)
        return (
            f"paired {self.method} test of {self.metric} on {self.n_samples} items"
            f"{_clusters_text(self.n_clusters)}: "
            f"B - A = {self.statistic:+.4f}, {_level_text(level)} CI "
            f"{_interval_text(ci)}\np = {self.pvalue:.4g} ({self.alternative}, "
            f"{self.n_resamples} resamples)"
        )


@dataclass(frozen=True)
class SignTestResult(_EffectTestMixin):
    """Result of :func:`sign_test`, the exact test of McNemar too.

    Follows scipy's ``BinomTestResult``: ``statistic`` (B's share of the
    discordant items), ``pvalue`` and a method
    ``confidence_interval(confidence_level)``, the Clopper-Pearson interval
    of that share.

    Attributes
    ----------
    statistic : float
        ``n_b_better / n_discordant``, the share of discordant items won by
        B; 0.5 (no side) when no item is discordant.
    pvalue : float
        Exact binomial p-value, success probability 1/2; 1.0 when no item is
        discordant.
    alternative : str
        As passed.
    confidence_level : float
        Level of :meth:`confidence_interval` by default.
    n_discordant : int
        Items on which exactly one of the two systems is right.
    n_b_better : int
        Items B gets right and A wrong.
    n_a_better : int
        Items A gets right and B wrong.
    n_samples : int
        Items of the test set.
    """

    statistic: float
    pvalue: float
    alternative: str
    confidence_level: float
    n_discordant: int
    n_b_better: int
    n_a_better: int
    n_samples: int

    def _confidence_interval(self, confidence_level, warn=True):
        return _share_interval(
            self.n_b_better, self.n_discordant, confidence_level, self.alternative
        )

    def summary(self):
        """Describe the test in one plain-text paragraph.

        Returns
        -------
        text : str
            The discordant counts, B's share with its interval, and the
            p-value.
        """
        level = self.confidence_level
        return (
            f"sign test on {self.n_samples} items: B right and A wrong on "
            f"{self.n_b_better}, A right and B wrong on {self.n_a_better}; B's "
            f"share {self.statistic:.4f}, {_level_text(level)} CI "
            f"{_interval_text(self._confidence_interval(level))}\n"
            f"p = {self.pvalue:.4g} ({self.alternative}, exact)"
        )


_RESAMPLING_CONSTRAINTS = {
    "metric": [callable, str],
    "metric_kwargs": [dict, None],
    # a distribution needs two values for its spread
    "n_resamples": [Interval(Integral, 2, None, closed="left")],
    "confidence_level": CONFIDENCE_LEVEL,
    "alternative": ALTERNATIVE,
    "fast": ["boolean"],
    "random_state": RANDOM_STATE,
    "n_jobs": N_JOBS,
    "verbose": ["verbose"],
}
_PAIRED_CONSTRAINTS = {
    "y_true": ["array-like"],
    "y_pred_a": ["array-like"],
    "y_pred_b": ["array-like"],
    "groups": ["array-like", None],
    **_RESAMPLING_CONSTRAINTS,
}

# Fewer clusters than this and the cluster bootstrap's interval is too
# narrow: benchmarks/sim_clusters.py (seed 20261126) measured coverage >= 93% of its 95%
# interval, and a paired bootstrap test at <= 6.5%, from 40 equal clusters on
# (user guide, "Clustered items").
MIN_CLUSTERS = 40

# Coverage (%) of the 95% interval of accuracy with few clusters: the cluster
# bootstrap's percentile interval and method="jackknife-bm" on the same data
# sets (benchmarks/sim_clusters.py --jackknife, seed 20261126; equal clusters
# of 25 items, ICC 0.3), as (clusters, bootstrap, jackknife-bm).
_FEW_CLUSTERS_COVERAGE = ((5, 75.8, 86.6), (10, 87.7, 89.5), (30, 91.9, 93.1))
# From this many clusters on, method="jackknife-bm" covered >= 93% in every
# cell of the same script, the held-back Pareto-size cells included; with
# fewer it warns with its own coverage. It stays an option, not the default:
# below 30 clusters it does not hold either.
JACKKNIFE_MIN_CLUSTERS = 30


def _coverage_text(column):
    """``"75.8% with 5 clusters, 87.7% with 10 and 91.9% with 30"``."""
    parts = [f"{row[column]:.1f}% with {row[0]}" for row in _FEW_CLUSTERS_COVERAGE]
    parts[0] += " clusters"
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _clusters_text(n_clusters):
    return "" if n_clusters is None else f" in {n_clusters} clusters"


def _check_groups(groups, n_samples, stacklevel=4, warn=True):
    """``(codes, n_clusters)`` of the items' clusters, or None without groups.

    The clusters are coded 0, ..., G - 1 in the sorted order of their
    labels, which is the order of the units the resamples draw. Few
    clusters, or unequal ones that weigh as few, are warned about with the
    cluster bootstrap's measured coverage; ``warn=False`` leaves the warning
    to a caller that prints another interval (``compare_runs``, whose
    warning gives its own interval's coverage).
    """
    if groups is None:
        return None
    arr = _check_cluster_labels(groups, n_samples)
    try:
        clusters, (codes,) = encode_labels(arr)
    except TypeError as exc:  # mixed types cannot be sorted
        raise _mixed_cluster_labels(exc) from None
    codes = codes.astype(np.intp, copy=False)
    n_clusters = _check_n_clusters(
        int(clusters.size), "groups names", stacklevel + 1, warn=warn
    )
    if warn:
        _check_cluster_sizes(np.bincount(codes, minlength=n_clusters), stacklevel + 1)
    return codes, n_clusters


def _check_n_clusters(n_clusters, what, stacklevel, warn=True):
    """Refuse fewer than 2 clusters, and warn below :data:`MIN_CLUSTERS`."""
    if n_clusters < 2:
        raise ValueError(
            f"{what} {n_clusters} cluster; resampling whole clusters needs "
            f"at least 2 (and {MIN_CLUSTERS} for the interval to hold)."
        )
    if warn and n_clusters < MIN_CLUSTERS:
        warnings.warn(
            f"{what} only {n_clusters} clusters; with fewer than "
            f"{MIN_CLUSTERS} the cluster bootstrap's intervals are too narrow (in "
            "simulations, 95% intervals of accuracy covered as little as "
            f"{_coverage_text(1)}) and the paired bootstrap test rejects "
            "too often; the paired permutation test's p-value stays exact. For "
            "accuracy, bootstrap_confidence_interval(method='jackknife-bm') "
            f"covered {_coverage_text(2)} on the same data sets. See "
            "'Clustered items' in the user guide.",
            RuntimeWarning,
            stacklevel=stacklevel,
        )
    return n_clusters


def _check_cluster_sizes(sizes, stacklevel):
    """Warn when unequal clusters weigh as fewer than :data:`MIN_CLUSTERS`.

    Clusters of sizes n_g weigh as ``G_eff = (sum n_g)^2 / sum n_g^2`` of
    equal size. benchmarks/sim_clusters.py (seed 20261126) measured, with 40
    geometric-size clusters (G_eff about 20), the 95% cluster bootstrap
    interval at 90.6-93.6% and the paired bootstrap test at 10.2% of true
    nulls, and with 80 (G_eff about 41) 93.6% and 5.6%.
    compare_runs warns of its own intervals instead (``warn=False`` of
    :func:`_check_groups`). Fewer than MIN_CLUSTERS clusters get
    _check_n_clusters' warning instead. Returns ``G_eff``.
    """
    sizes = np.asarray(sizes, dtype=np.float64)
    effective = float(sizes.sum() ** 2 / np.sum(sizes**2))
    # G equal clusters weigh as G up to rounding, which must not warn at 40
    if sizes.size >= MIN_CLUSTERS > effective * (1 + 1e-9):
        warnings.warn(
            f"the {sizes.size} clusters are of unequal sizes and weigh as "
            f"{effective:.0f} of equal size ((sum of sizes)^2 / sum of squared "
            f"sizes); with fewer than {MIN_CLUSTERS} such, the cluster bootstrap's "
            "95% intervals covered as little as 91% in simulation and the paired "
            "bootstrap test "
            "rejected 10% of true nulls. Read intervals as a little optimistic, "
            "test with the cluster permutation (its p-value stays exact), and see "
            "'Clustered items' in the user guide.",
            RuntimeWarning,
            stacklevel=stacklevel,
        )
    return effective


# where predicted probabilities go, said when they are given as labels
PROBABILITIES_HINT = (
    "to compare probabilities, use paired_bootstrap_test with metric='cf1'"
)


def _check_arrays(
    y_true,
    *y_preds,
    names=("y_pred",),
    true_name="y_true",
    min_samples=2,
    labels_only=False,
    labels_hint="",
):
    """Check the true labels and the predictions of the same items.

    Predictions are labels (1-D) or, unless ``labels_only``, probabilities
    (2-D). Label predictions must be of the same kind as the true labels
    (numbers, or strings), or no item could ever be right.
    """
    y_true = _numbers_as_numbers(np.asarray(y_true))
    if y_true.ndim != 1:
        raise ValueError(f"{true_name} must be 1-D; got shape {y_true.shape}.")
    n = y_true.shape[0]
    if n < min_samples:
        raise ValueError(
            f"{true_name} has {n} samples; resampling needs at least {min_samples}."
        )
    out = []
    for name, y in zip(names, y_preds, strict=True):
        arr = _numbers_as_numbers(np.asarray(y))
        allowed = (1,) if labels_only else (1, 2)
        if arr.ndim not in allowed:
            what = (
                "labels"
                if labels_only
                else "labels or (n_samples, n_classes) probabilities"
            )
            raise ValueError(f"{name} must be 1-D {what}; got shape {arr.shape}.")
        _check_same_items(arr, y_true, name, true_name)
        out.append(arr)
    for name, arr in ((true_name, y_true), *zip(names, out, strict=True)):
        if arr.dtype.kind == "f" and not np.isfinite(arr).all():
            raise ValueError(f"{name} contains NaN or infinity.")
        if labels_only:
            _check_label_values(arr, name, labels_hint)
    return y_true, out


def _interval(
    dist, statistic, confidence_level, method, alternative, warn=True, stacklevel=4
):
    """Percentile or basic interval from a bootstrap distribution, as scipy's.

    One-sided intervals put all of ``1 - confidence_level`` in one tail; the
    basic interval reflects the percentile one about the statistic,
    ``(2 theta - q_high, 2 theta - q_low)``. ``warn``: say when the tails
    hold too few resamples.
    """
    alpha = 1 - confidence_level
    if alternative == "two-sided":
        alpha /= 2
    n_valid = int(np.count_nonzero(~np.isnan(dist)))
    if warn and n_valid * alpha < 1:
        warnings.warn(
            f"{n_valid} resamples are too few for a {confidence_level:g} interval: "
            f"each tail holds {n_valid * alpha:.2g} of them, so the bounds are the "
            "extremes of the bootstrap distribution. Use at least "
            f"{int(np.ceil(1 / alpha))} (the default is 9999).",
            RuntimeWarning,
            stacklevel=stacklevel,
        )
    low, high = np.nanquantile(dist, [alpha, 1 - alpha])
    if method == "basic":
        low, high = 2 * statistic - high, 2 * statistic - low
    if alternative == "less":
        low = -np.inf
    elif alternative == "greater":
        high = np.inf
    return ConfidenceInterval(float(low), float(high))


def _bounds(
    dist,
    statistic,
    confidence_level,
    method,
    alternative,
    *,
    degenerate,
    jackknife,
    stacklevel=5,
):
    """The interval of a bootstrap distribution by ``method``, the one choice
    every bootstrap interval makes: percentile or basic (:func:`_interval`),
    or BCa (:func:`_bca_interval`, with ``jackknife()`` called only then); a
    degenerate distribution gives its one value. A zero-width interval of a
    distribution that is not degenerate is said, as it would read as
    certainty. ``stacklevel`` of the warnings: the frames from here to the
    user's call.
    """
    if method != "bca":
        interval = _interval(
            dist,
            statistic,
            confidence_level,
            method,
            alternative,
            stacklevel=stacklevel + 1,
        )
    elif degenerate:
        point = float(dist[~np.isnan(dist)][0])
        return ConfidenceInterval(
            -np.inf if alternative == "less" else point,
            np.inf if alternative == "greater" else point,
        )
    else:
        interval = _bca_interval(
            dist, statistic, jackknife(), confidence_level, alternative
        )
        if np.isnan(interval).any():
            warnings.warn(
                "the BCa interval is undefined for these data (the resamples lie "
                "on one side of the estimate, or none is valid); use "
                "method='percentile' or more data.",
                RuntimeWarning,
                stacklevel=stacklevel,
            )
    low, high = interval
    if low == high and not degenerate:
        warnings.warn(
            f"the interval [{low:.6g}, {high:.6g}] has zero width: more than "
            f"{1 - confidence_level:.0%} of the resamples gave the same value. "
            "This says the data are too few or the metric saturates, not that "
            "it is known exactly.",
            RuntimeWarning,
            stacklevel=stacklevel,
        )
    return interval


def _warn_nan(
    dist,
    what="metric",
    stacklevel=4,
    remedy="Pass zero_division= to the metric, or use more data.",
):
    n_nan = int(np.isnan(dist).sum())
    if n_nan:
        warnings.warn(
            f"the {what} was NaN on {n_nan} of {dist.size} resamples; they are left "
            f"out of the interval and the p-value. {remedy}",
            RuntimeWarning,
            stacklevel=stacklevel,
        )
    return n_nan


def _warn_degenerate(dist, what="metric", stacklevel=4):
    """Warn when every resample gave the same value: the interval is a point.

    Small or saturated data (no positive predicted in any resample, a perfect
    model) make the bootstrap distribution degenerate, and a zero-width
    interval would read as certainty.
    """
    values = dist[~np.isnan(dist)]
    if values.size and values.min() == values.max():
        warnings.warn(
            f"the {what} took the same value {float(values[0])!r} on all {values.size} "
            "resamples, so the interval has zero width. This says the data are "
            "too few or the metric saturates, not that it is known exactly.",
            RuntimeWarning,
            stacklevel=stacklevel,  # the user's call, past validate_params
        )
        return True
    return False


def _fast_resampler(y_true, y_preds, spec, kwargs, weight, groups=None):
    """``(Resampler, metric)`` for the vectorised path, or None without one.

    ``metric(sums)`` turns the (c, d) sums of one system into its metric.
    With ``groups``, the units are the clusters.
    """
    if spec is None:
        return None
    if spec["kind"] == "cprf":
        setup = confidence_codes(y_true, y_preds, spec, kwargs)
        if setup is None:
            return None
        codes, k, pos = setup
        if groups is None:
            resampler = proba_resampler(codes, y_preds, k, weight)
        else:  # each cluster's sums of its items' features
            features = [confidence_features(codes, y, k, weight) for y in y_preds]
            resampler = Resampler(cluster_sums(features, *groups))
    else:
        if any(np.ndim(y) != 1 for y in y_preds):
            return None
        resampler, classes = label_resampler(y_true, y_preds, weight, groups)
        k, pos = classes.size, _pos_label_index(classes, spec["pos_label"])
    return resampler, functools.partial(metric_from_sums, spec=spec, pos_index=pos, k=k)


def _check_label_predictions(func, y_true, preds, names):
    """scikit-learn's label metrics need 1-D labels, and would not say which."""
    if not is_label_metric(func):
        return
    _check_label_values(y_true, "y_true")
    for name, pred in zip(names, preds, strict=True):
        if pred.ndim == 1:
            _check_label_values(pred, name, PROBABILITIES_HINT)
        if pred.ndim != 1:
            raise ValueError(
                f"{name} has shape {pred.shape}, but metric={func.__name__!r} scores "
                "1-D label predictions; 2-D probabilities are for the confidence "
                "metrics (cf1, cprecision, crecall)."
            )


def _call(func, kwargs, weight, idx, y_true, *y_preds):
    """The metric on the items ``idx`` (None: all), their weights resampled too."""
    if idx is None:
        args = (y_true, *y_preds)
        extra = {} if weight is None else {"sample_weight": weight}
    else:
        args = (y_true[idx], *(y[idx] for y in y_preds))
        extra = {} if weight is None else {"sample_weight": weight[idx]}
    return func(*args, **kwargs, **extra)


# The values of one block of resamples, drawn from the block's generator
# (fast_metrics.run_resamples). Module-level, so that process-based jobs can
# unpickle them; one system gives the metric, two give metric(B) - metric(A).


def _fast_bootstrap_block(rng, size, *, resampler, metric_of):
    out = []
    for sums in resampler.bootstrap(rng, size):
        values = [metric_of(s) for s in sums]
        out.append(values[0] if len(values) == 1 else values[1] - values[0])
    return np.concatenate(out)


def _fast_permutation_block(rng, size, *, resampler, metric_of):
    return np.concatenate(
        [metric_of(b) - metric_of(a) for a, b in resampler.permute(rng, size)]
    )


def _stacked_metrics(sums, *, metric_ofs):
    """Several metrics of the same sums, one column each: (c, n_metrics)."""
    return np.stack([metric_of(sums) for metric_of in metric_ofs], axis=-1)


def _shared_draws(datas, kinds, n_resamples, random_state, n_jobs, verbose, name):
    """The resamples of several metrics on the same cells, drawn once.

    ``datas`` are :class:`_Resampling` of one table (or one set of labels)
    under different metrics: their resamplers draw the same cells, so one
    draw serves every metric, and each metric's values are those its own
    call gives for the same integer ``random_state``. ``kinds`` lists the
    runs in the order one call makes them ("bootstrap", "permutation").
    Returns, per kind, an (n_resamples, n_metrics) array.
    """
    metric_of = functools.partial(
        _stacked_metrics, metric_ofs=tuple(data.fast[1] for data in datas)
    )
    shared = _Resampling(None, datas[0].n_samples, fast=(datas[0].fast[0], metric_of))
    draws = {"bootstrap": shared.bootstrap_draw, "permutation": shared.permutation_draw}
    rng = _generator(random_state)
    return [
        run_resamples(
            draws[kind](),
            rng,
            n_resamples,
            what="permutations" if kind == "permutation" else "resamples",
            n_jobs=n_jobs,
            verbose=verbose,
            name=name,
        )
        for kind in kinds
    ]


def _cluster_members(groups):
    """The items of each cluster, for drawing clusters: the items sorted by
    cluster, where each cluster starts, and its size."""
    codes, n_clusters = groups
    sizes = np.bincount(codes, minlength=n_clusters)
    return np.argsort(codes, kind="stable"), np.cumsum(sizes) - sizes, sizes


def _items_of(picks, members):
    """The items of the clusters ``picks``, each cluster as often as picked."""
    order, starts, sizes = members
    lengths = sizes[picks]
    # item i of the p-th pick sits at position c_p + i of the result, with
    # c_p = sum(lengths[:p]); it is item starts[picks[p]] + i in ``order``
    shift = np.repeat(starts[picks] - (np.cumsum(lengths) - lengths), lengths)
    return order[shift + np.arange(shift.size)]


def _generic_bootstrap_block(
    rng, size, *, func, kwargs, weight, y_true, y_preds, groups=None
):
    n = y_true.shape[0]
    members = None if groups is None else _cluster_members(groups)
    out = np.empty(size)
    for r in range(size):
        if members is None:
            idx = rng.integers(0, n, size=n)
        else:  # whole clusters, drawn as the items are
            idx = _items_of(rng.integers(0, groups[1], size=groups[1]), members)
        values = [_call(func, kwargs, weight, idx, y_true, y) for y in y_preds]
        out[r] = values[0] if len(values) == 1 else values[1] - values[0]
    return out


def _generic_permutation_block(
    rng, size, *, func, kwargs, weight, y_true, a, b, groups=None
):
    n = y_true.shape[0]
    out = np.empty(size)
    for r in range(size):
        if groups is None:
            swap = rng.random(n) < 0.5
        else:  # all the items of a cluster swap together
            codes, n_clusters = groups
            swap = (rng.random(n_clusters) < 0.5)[codes]
        mask = swap.reshape((-1,) + (1,) * (a.ndim - 1))
        a_r, b_r = np.where(mask, b, a), np.where(mask, a, b)
        # the weights stay with their items; only the outputs are swapped
        out[r] = _call(func, kwargs, weight, None, y_true, b_r) - _call(
            func, kwargs, weight, None, y_true, a_r
        )
    return out


class _Resampling:
    """What the resampling functions need from their data.

    ``statistics`` holds the metric of each system on the data; the
    resamples are drawn by ``fast = (resampler, metric_of)`` (sums of cells
    or items, :class:`Resampler`) or, without it, by calling the metric on
    resampled ``items`` (a dict of ``func``, ``kwargs``, ``weight``,
    ``y_true``, ``y_preds``).
    """

    def __init__(self, statistics, n_samples, fast=None, items=None, n_clusters=None):
        self.statistics = statistics
        self.n_samples = n_samples
        self.fast = fast
        self.items = items
        self.n_clusters = n_clusters

    def bootstrap_draw(self):
        """``draw(rng, size)``: the metric, or B - A, on bootstrap resamples."""
        if self.fast is not None:
            resampler, metric_of = self.fast
            return functools.partial(
                _fast_bootstrap_block, resampler=resampler, metric_of=metric_of
            )
        items = dict(self.items, y_preds=tuple(self.items["y_preds"]))
        return functools.partial(_generic_bootstrap_block, **items)

    def permutation_draw(self):
        """``draw(rng, size)``: B - A with the outputs swapped item by item."""
        if self.fast is not None:
            resampler, metric_of = self.fast
            return functools.partial(
                _fast_permutation_block, resampler=resampler, metric_of=metric_of
            )
        items = dict(self.items)
        items["a"], items["b"] = items.pop("y_preds")
        return functools.partial(_generic_permutation_block, **items)

    def jackknife(self):
        """The metric with one unit left out: one value per unit, and its weight.

        On cells a value stands for every item of its cell (weight: the
        cell's count); with clusters, one value per cluster left out whole;
        on the item path the metric is called once per item.
        """
        if self.fast is not None:
            resampler, metric_of = self.fast
            return resampler.jackknife(metric_of)
        items = self.items
        n = items["y_true"].shape[0]
        groups = items.get("groups")
        codes, n_units = (np.arange(n), n) if groups is None else groups
        values = np.empty(n_units)
        for j in range(n_units):
            values[j] = _call(
                items["func"],
                items["kwargs"],
                items["weight"],
                codes != j,
                items["y_true"],
                items["y_preds"][0],
            )
        return values, np.ones(n_units)


def _from_cells(classes, codes, counts, spec, clusters=None):
    """:class:`_Resampling` of the cells of a table: ``codes[0]`` the true
    class of each cell, ``codes[1:]`` each system's prediction, ``counts`` its
    items.

    The statistic is the metric of each system's summed features (its
    (true, predicted) table's margins, exact integers in floating point),
    with scikit-learn's checks and warnings (:func:`table_statistic`): what
    scikit-learn's metric gives on the items, without calling it. The
    resamples are multinomial draws of the table, or with ``clusters`` (each
    cluster's items per cell) draws of whole clusters, as
    :func:`label_resampler` makes them from labels and groups.
    """
    k = classes.size
    resampler = cell_resampler(codes, counts, k, clusters)
    statistics = [table_statistic(s, spec, classes) for s in resampler.totals()]
    metric_of = functools.partial(
        metric_from_sums,
        spec=spec,
        pos_index=_pos_label_index(classes, spec["pos_label"]),
        k=k,
    )
    n_clusters = None if clusters is None else clusters.shape[0]
    return _Resampling(
        statistics,
        int(counts.sum()),
        fast=(resampler, metric_of),
        n_clusters=n_clusters,
    )


def _repeated_rows(weight, y_true, y_preds, groups):
    """Items of integer (frequency) weight: those of weight 0 left out.

    Returns the weights as integers, the items and the clusters of the
    items kept (clusters left empty are dropped, as if never named).
    """
    keep = weight > 0
    if groups is not None:
        codes = groups[0][keep]
        present = np.bincount(codes, minlength=groups[1]) > 0
        groups = ((np.cumsum(present) - 1)[codes], int(present.sum()))
    return (
        weight[keep].astype(np.int64),
        y_true[keep],
        [y[keep] for y in y_preds],
        groups,
    )


def _from_labels(
    y_true, y_preds, func, kwargs, spec, weight, fast, groups=None, frequency=False
):
    """:class:`_Resampling` of checked labels (or probabilities).

    Label metrics go to the table: one pass encodes the labels, one counts
    the cells (:func:`label_cells`); with ``groups`` (``(codes,
    n_clusters)``), each cluster's cells. The confidence metrics and
    real-valued weights sum per-item features (per cluster with
    ``groups``); other metrics are called on each resample.

    ``frequency``: the weights are integers, the number of identical items
    each row stands for (scikit-learn's "integer weights == repeated
    rows"). They go into the table's counts; elsewhere the rows are
    repeated.
    """
    table_metric = spec is not None and spec["kind"] in TABLE_KINDS
    counts = None
    if frequency:
        counts, y_true, y_preds, groups = _repeated_rows(
            weight, y_true, y_preds, groups
        )
        weight = None
    if fast and table_metric and weight is None and all(y.ndim == 1 for y in y_preds):
        if groups is None:
            classes, codes, cells = label_table(y_true, *y_preds, weights=counts)
            return _from_cells(classes, codes, cells, spec)
        classes, codes = encode_labels(y_true, *y_preds)
        clusters, codes = cluster_cells(*groups, codes, classes.size, counts)
        cells = np.asarray(clusters.sum(axis=0)).ravel().astype(np.int64)
        return _from_cells(classes, codes, cells, spec, clusters)
    if counts is not None:
        rows = np.repeat(np.arange(counts.size), counts)
        y_true, y_preds = y_true[rows], [y[rows] for y in y_preds]
        groups = None if groups is None else (groups[0][rows], groups[1])
    statistics = [float(_call(func, kwargs, weight, None, y_true, y)) for y in y_preds]
    return _Resampling(
        statistics,
        int(y_true.shape[0]),
        fast=(
            _fast_resampler(y_true, y_preds, spec, kwargs, weight, groups)
            if fast
            else None
        ),
        items=dict(
            func=func,
            kwargs=kwargs,
            weight=weight,
            y_true=y_true,
            y_preds=y_preds,
            groups=groups,
        ),
        n_clusters=None if groups is None else groups[1],
    )


def _bca_interval(dist, statistic, jackknife, confidence_level, alternative):
    """The BCa interval of ``dist``, as :func:`scipy.stats.bootstrap` computes it.

    Efron & Tibshirani (1993), 14.3 and 15.4 (eq. 15.36), with a weighted
    jackknife: ``jackknife = (theta, c)`` gives the metric ``theta_j``
    without one item of unit ``j`` and the unit's items ``c_j``. With
    ``d_j = mean - theta_j`` (the mean weighted by ``c``), the acceleration
    is ``a = sum c_j d_j^3 / (6 (sum c_j d_j^2)^(3/2))``, the bias
    correction ``z0 = Phi^-1(share of resamples below the statistic, ties
    counted half)``, and the bounds are the quantiles
    ``Phi(z0 + (z0 + z) / (1 - a (z0 + z)))`` for ``z = Phi^-1(alpha)`` and
    ``Phi^-1(1 - alpha)``. Resamples with a NaN metric are left out.
    """
    from scipy.special import ndtr, ndtri

    alpha = 1 - confidence_level
    if alternative == "two-sided":
        alpha /= 2
    values = dist[~np.isnan(dist)]
    below = np.count_nonzero(values < statistic) + np.count_nonzero(values <= statistic)
    z0 = ndtri(below / (2 * values.size))
    theta, counts = jackknife
    # as the percentile interval leaves NaN resamples out, the acceleration
    # leaves out the items whose omission makes the metric NaN
    kept = ~np.isnan(theta)
    if not kept.all():
        n_items, n_nan = float(np.sum(counts)), float(np.sum(counts[~kept]))
        warnings.warn(
            f"the metric was NaN without {n_nan:g} of the {n_items:g} items (one at "
            "a time); BCa's acceleration is estimated from the others, as NaN "
            "resamples are left out of the interval.",
            RuntimeWarning,
            stacklevel=5,  # past _bootstrap_interval, the function, its wrapper
        )
        theta, counts = theta[kept], counts[kept]
    with np.errstate(invalid="ignore", divide="ignore"):
        # a is free of the metric's scale: compute it on theta, then d, divided
        # by powers of two near their largest magnitudes (no overflow of the
        # sums or the cubes at any magnitude)
        _, (theta,) = rescaled(theta)
        _, (d,) = rescaled(np.sum(counts * theta) / np.sum(counts) - theta)
        spread = np.sum(counts * d**2)
        # no item moves the metric when left out (one unit holds all of the
        # signal and its omission is NaN): no skewness to correct, a = 0
        a = np.sum(counts * d**3) / (6 * spread**1.5) if spread > 0 else 0.0
        z = float(ndtri(alpha))
        ends = [ndtr(z0 + (z0 + q) / (1 - a * (z0 + q))) for q in (z, -z)]
    if np.isnan(ends).any() or values.size == 0:
        low = high = np.nan
    else:
        low, high = np.quantile(values, ends)
    if alternative == "less":
        low = -np.inf
    elif alternative == "greater":
        high = np.inf
    return ConfidenceInterval(float(low), float(high))


# Fewer items of the rarest class in y_true than this, and the 95% bootstrap
# interval under-covers: measured by benchmarks/sim_minority_coverage.py
# (user guide, "Few items of a class", doc/holdout.rst). Class-wise label
# metrics: precision, recall, F-beta and Jaccard, of a class or averaged over
# classes (not micro); ranking metrics: ROC AUC and average precision.
FEW_ITEMS = {"label": 21, "ranking": 31}
# (most items of the rarest class, the lowest coverage of the 95% percentile
# interval measured with that many), from the same simulation
_FEW_ITEMS_COVERAGE = {
    "label": (
        (1, 0.363),
        (2, 0.629),
        (3, 0.781),
        (4, 0.794),
        (9, 0.851),
        (15, 0.897),
        (20, 0.929),
    ),
    "ranking": (
        (1, 0.332),
        (2, 0.622),
        (3, 0.747),
        (5, 0.820),
        (10, 0.863),
        (20, 0.913),
        (30, 0.929),
    ),
}
_CLASS_WISE = {
    "label": "precision, recall and F1",
    "ranking": "ROC AUC",
}


def _rarest_class(data):
    """``(items of the rarest class in y_true, "label" or "ranking")``, or
    None when the metric is not one the warning knows (regression metrics
    and the like).

    On the fast path the class counts are in the features (a unit has items
    of class ``j`` when its true-count column ``2k + j`` is non-zero; with
    clusters the units are counted); on the item path, in y_true.
    """
    if data.fast is not None:
        resampler, metric_of = data.fast
        keywords = getattr(metric_of, "keywords", {})  # metric_from_sums's
        spec, k = keywords.get("spec"), keywords.get("k")
    else:
        func, y_true = data.items["func"], data.items["y_true"]
        if y_true.ndim != 1:
            return None
        counts = np.unique(y_true, return_counts=True)[1]
        if sklearn_metric_name(func) in ("roc_auc_score", "average_precision_score"):
            return int(counts.min()), "ranking"
        spec = resolve_metric(func, data.items["kwargs"])[2]
    if spec is None or spec["kind"] not in ("prf", "jaccard", "cprf"):
        return None
    if spec["average"] == "micro":
        return None
    if data.fast is not None:
        features = getattr(resampler, "features", [None])[0]
        if isinstance(features, np.ndarray) or issparse(features):
            # units holding each class (clusters with groups), times their items
            units = resampler.counts
            if units is None:
                units = np.ones(resampler.n_units)
            present = features[:, 2 * k : 3 * k] != 0
            counts = np.asarray(present.T @ units).ravel()
        else:  # the joint cells' or the classes' own engine: the true totals
            counts = resampler.totals()[0].ravel()[2 * k : 3 * k]
        counts = counts[counts > 0]
    return int(counts.min()), "label"


def _few_items_warning(data):
    """The warning's text when ``data`` has too few items of a class for the
    interval of its metric (:data:`FEW_ITEMS`), else None."""
    found = _rarest_class(data)
    if found is None or found[0] >= FEW_ITEMS[found[1]]:
        return None
    count, kind = found
    worst = next(c for most, c in _FEW_ITEMS_COVERAGE[kind] if count <= most)
    units = "items" if data.n_clusters is None else "clusters with items"
    return (
        f"with {count} {units} of the rarest class in y_true, 95% percentile "
        f"intervals of {_CLASS_WISE[kind]} covered as little as {worst:.1%} in "
        f"simulation, and at least 93% from {FEW_ITEMS[kind]} items on: this "
        "interval is likely too narrow (user guide, 'Few items of a class', "
        "says what does better)."
    )


def _bootstrap_interval(
    data,
    metric,
    *,
    n_resamples,
    confidence_level,
    method,
    alternative,
    random_state,
    n_jobs,
    verbose,
    name,
    dist=None,
):
    """:class:`BootstrapIntervalResult` of one system's ``data``
    (:class:`_Resampling`), for the labels and the table entries alike;
    ``dist``: its resamples, if drawn already (:func:`_shared_draws`)."""
    (statistic,) = data.statistics
    if dist is None:
        dist = run_resamples(
            data.bootstrap_draw(),
            _generator(random_state),
            n_resamples,
            n_jobs=n_jobs,
            verbose=verbose,
            name=name,
        )
    n_nan = _warn_nan(dist, stacklevel=5)
    degenerate = _warn_degenerate(dist, stacklevel=5)
    interval = _bounds(
        dist,
        statistic,
        confidence_level,
        method,
        alternative,
        degenerate=degenerate,
        jackknife=data.jackknife,
    )
    few = _few_items_warning(data)
    if few is not None:
        warnings.warn(few, RuntimeWarning, stacklevel=4)
    return BootstrapIntervalResult(
        statistic=statistic,
        confidence_interval=interval,
        bootstrap_distribution=dist,
        standard_error=scaled_std(dist[~np.isnan(dist)], ddof=1),
        confidence_level=float(confidence_level),
        alternative=alternative,
        method=method,
        metric=metric,
        n_samples=data.n_samples,
        n_resamples=n_resamples,
        n_nan=n_nan,
        fast_path=data.fast is not None,
        n_clusters=data.n_clusters,
    )


def _item_scores(y_true, y_pred, spec):
    """Each item's score when the metric is their mean, else None.

    The one rule of which metrics are means of item scores (what
    ``method="jackknife-bm"`` needs): accuracy, by name or as
    :func:`sklearn.metrics.accuracy_score` (a partial of it too), with no
    keyword argument but ``sample_weight``, which :func:`resolve_metric`
    gives the accuracy spec; its item scores are 1 when right, 0 when not.
    ``normalize=False`` (a count) goes to the item path and is not a mean.
    """
    if spec is None or spec["kind"] != "accuracy" or y_pred.ndim != 1:
        return None
    return (y_true == y_pred).astype(np.float64)


def _jackknife_interval(
    y_true, y_pred, groups, metric, metric_kwargs, confidence_level, alternative
):
    """:class:`BootstrapIntervalResult` of ``method="jackknife-bm"``.

    The delete-one-cluster jackknife of a mean with Bell-McCaffrey degrees
    of freedom, computed in its one home,
    :func:`~sklearn_faithful.utils._clusters.jackknife_mean_interval`.
    """
    y_true, (y_pred,) = _check_arrays(y_true, y_pred)
    func, kwargs, spec, weight = resolve_metric(metric, metric_kwargs)
    scores = _item_scores(y_true, y_pred, spec)
    if groups is None or scores is None:
        got = "groups=None" if groups is None else f"metric={metric!r}"
        raise ValueError(
            "method='jackknife-bm' is the delete-one-cluster jackknife of a mean "
            "of item scores: it needs groups= (each item's cluster) and "
            "metric='accuracy' (or sklearn.metrics.accuracy_score, with no "
            f"metric_kwargs but sample_weight); got {got}. Use method='percentile', "
            "'basic' or 'bca' for other metrics."
        )
    _check_label_predictions(func, y_true, [y_pred], ["y_pred"])
    weight = _check_sample_weight(
        weight, y_true.shape[0], name="metric_kwargs['sample_weight']"
    )
    checked = _check_groups(groups, y_true.shape[0], stacklevel=5, warn=False)
    n_clusters = checked[1]
    sums, squares, sizes = cluster_moments(scores, checked, weight)
    _warn_jackknife(n_clusters, rarer_outcome_clusters(scores, sizes))
    # a one-sided bound at level c is a bound of the two-sided interval at 2c - 1
    two_sided = alternative == "two-sided"
    level = confidence_level if two_sided else 2 * confidence_level - 1
    mean, (low, high), se, _ = jackknife_mean_interval(sums, squares, sizes, level)
    interval = ConfidenceInterval(
        low if alternative != "less" else -np.inf,
        high if alternative != "greater" else np.inf,
    )
    return BootstrapIntervalResult(
        statistic=mean,
        confidence_interval=interval,
        bootstrap_distribution=np.empty(0),
        standard_error=se,
        confidence_level=float(confidence_level),
        alternative=alternative,
        method="jackknife-bm",
        metric=_metric_name(metric, func),
        n_samples=y_true.shape[0],
        n_resamples=0,
        n_nan=0,
        fast_path=False,
        n_clusters=n_clusters,
    )


def _warn_jackknife(n_clusters, rare):
    """Warn where ``method="jackknife-bm"`` was measured too narrow: fewer
    than :data:`JACKKNIFE_MIN_CLUSTERS` clusters, or the rarer outcome worth
    less than one cluster (``rare``, ``R`` of
    :func:`~sklearn_faithful.utils._clusters.rarer_outcome_clusters`)."""
    parts = []
    if n_clusters < JACKKNIFE_MIN_CLUSTERS:
        parts.append(
            f"with fewer than {JACKKNIFE_MIN_CLUSTERS} clusters the 95% jackknife-bm "
            f"interval of accuracy covered {_coverage_text(2)} in simulation "
            f"(the cluster bootstrap's: {_coverage_text(1)}), so it is likely "
            "too narrow"
        )
    if rare < 1:
        parts.append(
            f"the rarer outcome (right or wrong) weighs R = {rare:.2f} clusters' "
            "worth (G_eff x min(accuracy, 1 - accuracy)), under 1: the interval "
            f"covered as little as {JACKKNIFE_BM_RARE_COVERAGE.value} with rare "
            "events in few clusters"
        )
    if parts:
        warnings.warn(
            f"groups names {n_clusters} clusters; {'; '.join(parts)}. Score more "
            "clusters; see 'Clustered items' in the user guide.",
            RuntimeWarning,
            stacklevel=5,  # the user's call, past validate_params
        )


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred": ["array-like"],
        "groups": ["array-like", None],
        **_RESAMPLING_CONSTRAINTS,
        "method": [StrOptions({*INTERVAL_METHODS, *CLUSTER_MEAN_METHODS})],
    },
    # the user's metric validates its own metric_kwargs on every call
    prefer_skip_nested_validation=False,
)
def bootstrap_confidence_interval(
    y_true,
    y_pred,
    *,
    groups=None,
    metric="accuracy",
    metric_kwargs=None,
    n_resamples=9999,
    confidence_level=0.95,
    method="percentile",
    alternative="two-sided",
    fast=True,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Bootstrap confidence interval of any scikit-learn-style metric.

    Resamples the test set with replacement ``n_resamples`` times and
    recomputes the metric (:ref:`formulas-bootstrap`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted labels, or probabilities for the confidence metrics.
    groups : array-like of shape (n_samples,), default=None
        The cluster of each item (a passage, a prompt, a patient, an image):
        items of one cluster are not independent, so each resample draws
        whole clusters with replacement, as many as there are (the cluster
        bootstrap). With fewer than 40 clusters the interval is too narrow
        (about 80 with unequal sizes) and a warning says so (user guide,
        "Clustered items"), with the coverage of ``method="jackknife-bm"``,
        which does better for accuracy. None: items are independent.
    metric : callable or str, default="accuracy"
        ``metric(y_true, y_pred, **metric_kwargs)``, a ``functools.partial``
        of one, or a name: ``"accuracy"``, ``"balanced_accuracy"``,
        ``"matthews_corrcoef"``, ``"cohen_kappa"``, or ``"precision"``,
        ``"recall"``, ``"f1"``, ``"jaccard"``, ``"cprecision"``,
        ``"crecall"``, ``"cf1"``, these optionally with ``_micro``,
        ``_macro`` or ``_weighted``. Every metric of a confusion matrix
        (all but the confidence metrics, and weighted kappa or a ``labels``
        subset) is resampled on the table of (true, predicted) cells.
    metric_kwargs : dict, default=None
        Keyword arguments of the metric (``average``, ``pos_label``, ...).
        A ``sample_weight`` of integers holds frequency weights: an item of
        weight 3 counts as 3 identical items (and one of weight 0 as none),
        exactly as repeating its row would, and the weights go into the
        table's counts. Real-valued weights stay with their items, which
        are resampled with them.
    n_resamples : int, default=9999
        Bootstrap resamples.
    confidence_level : float, default=0.95
        Level of the interval.
    method : {"percentile", "basic", "bca", "jackknife-bm"}, default="percentile"
        Interval type. ``"jackknife-bm"`` (accuracy with ``groups`` only)
        draws no resample: the mean of the items' 0/1 scores, the
        delete-one-cluster jackknife standard error and Student's t on Bell
        and McCaffrey's degrees of freedom (:ref:`the formulas <formulas-cr2>`), the
        interval :func:`~sklearn_faithful.eval_logs.compare_runs` prints
        for each run. It covered more than the cluster bootstrap in every
        simulated setting, but under 93% below about 30 clusters, where it
        warns; it is not the default for that reason. ``"bca"`` is the interval of
        :func:`scipy.stats.bootstrap` on the same resamples; its jackknife
        takes one value per non-empty (true, predicted) cell for label
        metrics, weighted by the cell's count, one vectorised pass over the
        items for the confidence metrics and weighted items, and calls any
        other metric once per item.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"less"`` gives an upper bound ``(-inf, high)``, ``"greater"`` a
        lower bound ``(low, inf)``.
    fast : bool, default=True
        Use the vectorised path when the metric allows it (the metrics of a
        confusion matrix named above, in every averaging, and the
        confidence metrics). False always calls the metric once per
        resample.
    random_state : int, RandomState instance, Generator or None, default=None
        Seed of the resampling.
    n_jobs : int, default=None
        Number of jobs drawing the resamples in parallel, in blocks of 256
        with a random stream each, so the result is the same for every
        ``n_jobs``. None means 1 unless in a :func:`joblib.parallel_config`
        context; -1 means all processors. Each job holds one chunk of
        resamples in memory at a time, so the working memory grows with
        ``n_jobs``, never with ``n_resamples`` beyond the result.
    verbose : int, default=0
        Progress on stderr: from 1, the resamples done, the total and the
        time elapsed, at most once a second; from 2, a line per task and
        joblib's messages.

    Returns
    -------
    result : BootstrapIntervalResult
        For ``"jackknife-bm"``: an empty ``bootstrap_distribution``,
        ``n_resamples=0`` and the jackknife standard error.

    Notes
    -----
    The fast path for label metrics draws each resample's confusion matrix
    from the multinomial distribution over the observed (true, predicted)
    cells, which is exactly the distribution that resampling items gives:
    the fast and the generic paths are **equal in distribution**, not draw for
    draw. For the confidence metrics, the fast path resamples item indices
    with the same random stream as the generic path and sums per-item
    contributions, so the two are **identical** for the same seed (up to
    floating-point summation order).

    The label metrics encode the labels in one pass (``np.bincount`` for
    integer labels, one ``np.unique`` for others) and count the cells in one
    more; the statistic is the metric on the cells weighted by their counts,
    which is its value on the items.

    Resample ``b`` is drawn from the random stream of its block of 256,
    spawned from one seed drawn from ``random_state``
    (:class:`numpy.random.SeedSequence`); a job runs whole blocks, which is
    why the result does not depend on ``n_jobs``.

    Examples
    --------
    >>> from sklearn_faithful.holdout import bootstrap_confidence_interval
    >>> y_true = [0, 1, 1, 0, 1, 1, 0, 1, 0, 1] * 10
    >>> y_pred = [0, 1, 0, 0, 1, 1, 1, 1, 0, 1] * 10
    >>> res = bootstrap_confidence_interval(y_true, y_pred, metric="f1",
    ...                                     random_state=0)
    >>> round(res.statistic, 3), res.fast_path
    (0.833, True)

    Accuracy of items in clusters (here 50 clusters of 2 items):

    >>> groups = [i // 2 for i in range(100)]
    >>> res = bootstrap_confidence_interval(y_true, y_pred, groups=groups,
    ...                                     method="jackknife-bm")
    >>> round(res.statistic, 2), res.n_resamples, res.n_clusters
    (0.8, 0, 50)
    """
    if method in CLUSTER_MEAN_METHODS:
        return _jackknife_interval(
            y_true, y_pred, groups, metric, metric_kwargs, confidence_level, alternative
        )
    data, name = _setup(
        y_true, [y_pred], ["y_pred"], groups, metric, metric_kwargs, fast
    )
    return _bootstrap_interval(
        data,
        name,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        method=method,
        alternative=alternative,
        random_state=random_state,
        n_jobs=n_jobs,
        verbose=verbose,
        name="bootstrap_confidence_interval",
    )


def _metric_name(metric, func):
    """The metric's name: as passed, or the function's."""
    if isinstance(metric, str):
        return metric
    return getattr(func, "__name__", type(func).__name__)


def _paired_pvalue(null, statistic, alternative):
    null = null[~np.isnan(null)]
    # ties within rounding count as extreme; the tolerance is relative, so
    # that the p-value does not depend on the metric's scale
    tol = 1e-12 * max(abs(statistic), float(np.max(np.abs(null), initial=0.0)))
    if alternative == "two-sided":
        extreme = np.abs(null) >= abs(statistic) - tol
    elif alternative == "greater":
        extreme = null >= statistic - tol
    else:
        extreme = null <= statistic + tol
    return float((extreme.sum() + 1) / (null.size + 1))


def _setup(y_true, y_preds, names, groups, metric, metric_kwargs, fast):
    """The checked data of one or two systems (:class:`_Resampling`), and the
    metric's name; called by the public functions, so warnings point past
    them and validate_params to the user's call."""
    y_true, y_preds = _check_arrays(y_true, *y_preds, names=tuple(names))
    func, kwargs, spec, weight = resolve_metric(metric, metric_kwargs)
    _check_label_predictions(func, y_true, y_preds, names)
    name = "metric_kwargs['sample_weight']"
    frequency = weight is not None and np.asarray(weight).dtype.kind in "iu"
    weight = _check_sample_weight(weight, y_true.shape[0], name=name)
    if frequency and weight.sum() < 2:
        raise ValueError(
            f"{name} holds integer (frequency) weights that count "
            f"{int(weight.sum())} items; resampling needs at least 2."
        )
    groups = _check_groups(groups, y_true.shape[0], stacklevel=5)
    data = _from_labels(
        y_true, y_preds, func, kwargs, spec, weight, fast, groups, frequency
    )
    return data, _metric_name(metric, func)


def _paired_test(
    data,
    metric,
    *,
    method,
    n_resamples,
    confidence_level,
    alternative,
    random_state,
    n_jobs,
    verbose,
    name,
    draws=None,
):
    """:class:`PairedTestResult` of two systems' ``data`` (:class:`_Resampling`).

    ``method="bootstrap"``: the null distribution is the bootstrap one
    shifted to mean zero. ``"permutation"``: the null distribution comes from
    swaps, and the bootstrap resamples of the interval are drawn after them.
    ``draws``: those resamples, if drawn already (:func:`_shared_draws`), in
    that order.
    """
    statistic_a, statistic_b = data.statistics
    statistic = statistic_b - statistic_a
    rng = _generator(random_state)
    run = dict(n_jobs=n_jobs, verbose=verbose, name=name)
    if method == "permutation":
        if draws is None:
            null = run_resamples(
                data.permutation_draw(), rng, n_resamples, what="permutations", **run
            )
        else:
            null = draws[0]
        _warn_nan(null, "difference", stacklevel=5)
        run["what"] = "bootstrap resamples"
    if draws is None:
        diffs = run_resamples(data.bootstrap_draw(), rng, n_resamples, **run)
    else:
        diffs = draws[-1]
    if method == "bootstrap":
        _warn_nan(diffs, "difference", stacklevel=5)
        _warn_degenerate(diffs, "difference", stacklevel=5)
        null = diffs - statistic
    # warn now, at the call, if the tails hold too few resamples
    _interval(
        diffs, statistic, confidence_level, "percentile", alternative, stacklevel=5
    )
    return PairedTestResult(
        statistic=statistic,
        pvalue=_paired_pvalue(null, statistic, alternative),
        alternative=alternative,
        confidence_level=float(confidence_level),
        method=method,
        metric=metric,
        n_samples=data.n_samples,
        n_resamples=n_resamples,
        fast_path=data.fast is not None,
        bootstrap_distribution=diffs,
        null_distribution=null,
        n_clusters=data.n_clusters,
    )


@validate_params(_PAIRED_CONSTRAINTS, prefer_skip_nested_validation=False)
def paired_bootstrap_test(
    y_true,
    y_pred_a,
    y_pred_b,
    *,
    groups=None,
    metric="accuracy",
    metric_kwargs=None,
    n_resamples=9999,
    confidence_level=0.95,
    alternative="two-sided",
    fast=True,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Paired bootstrap test of ``metric(B) - metric(A)`` on the same test set.

    Both systems are scored on the same resample each time, which keeps the
    pairing (an unpaired test on paired data wastes most of the power).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred_a, y_pred_b : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predictions (or probabilities) of systems A and B on the same items.
    groups : array-like of shape (n_samples,), default=None
        The cluster of each item: each resample draws whole clusters, both
        systems on the same ones (:func:`bootstrap_confidence_interval`).
    metric, metric_kwargs, n_resamples, confidence_level, fast, random_state, \
n_jobs, verbose
        As in :func:`bootstrap_confidence_interval`.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: H1 is that B is better (the difference is positive).

    Returns
    -------
    result : PairedTestResult
        The observed difference, the p-value ``(c + 1) / (n + 1)`` and
        ``confidence_interval(confidence_level)``, the percentile interval of
        the bootstrap distribution (at ``confidence_level`` by default). The
        null distribution is the bootstrap distribution shifted to mean zero
        (``delta* - delta``).

    Examples
    --------
    >>> from sklearn_faithful.holdout import paired_bootstrap_test
    >>> y = [0, 1] * 50
    >>> a = [0, 1] * 40 + [1, 0] * 10
    >>> b = [0, 1] * 45 + [1, 0] * 5
    >>> res = paired_bootstrap_test(y, a, b, random_state=0)
    >>> round(res.statistic, 2), res.pvalue < 0.05
    (0.1, True)
    """
    data, name = _setup(
        y_true,
        [y_pred_a, y_pred_b],
        ["y_pred_a", "y_pred_b"],
        groups,
        metric,
        metric_kwargs,
        fast,
    )
    return _paired_test(
        data,
        name,
        method="bootstrap",
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        alternative=alternative,
        random_state=random_state,
        n_jobs=n_jobs,
        verbose=verbose,
        name="paired_bootstrap_test",
    )


@validate_params(_PAIRED_CONSTRAINTS, prefer_skip_nested_validation=False)
def paired_permutation_test(
    y_true,
    y_pred_a,
    y_pred_b,
    *,
    groups=None,
    metric="accuracy",
    metric_kwargs=None,
    n_resamples=9999,
    confidence_level=0.95,
    alternative="two-sided",
    fast=True,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Approximate randomization test of ``metric(B) - metric(A)``.

    Under H0 the two systems are exchangeable item by item, so each
    permutation swaps A's and B's prediction on every item with probability
    1/2 (as sacrebleu's paired test does for MT).

    Parameters
    ----------
    y_true, y_pred_a, y_pred_b, metric, metric_kwargs, n_resamples, \
confidence_level, alternative, fast, random_state, n_jobs, verbose
        As in :func:`paired_bootstrap_test`; ``n_resamples`` is the number of
        random permutations.
    groups : array-like of shape (n_samples,), default=None
        The cluster of each item. Each permutation then swaps A's and B's
        predictions on all the items of a cluster at once, with probability
        1/2 per cluster, which keeps the test exact when items of a cluster
        are dependent (H0: the two systems are exchangeable cluster by
        cluster); the interval resamples whole clusters.

    Returns
    -------
    result : PairedTestResult
        The p-value is ``(c + 1) / (n + 1)`` with ``c`` the permutations whose
        difference is at least as extreme as the observed one; the interval
        is a paired percentile bootstrap interval drawn after them.

    Notes
    -----
    For label metrics the fast path draws, for each (true, a, b) cell with
    ``a != b``, how many of its items are swapped (binomial, p = 1/2), which
    is the distribution of item-by-item swaps (equal in distribution). For
    the confidence metrics it draws the same swap masks as the generic path
    (identical for the same seed).

    Examples
    --------
    >>> from sklearn_faithful.holdout import paired_permutation_test
    >>> y = [0, 1] * 50
    >>> a = [0, 1] * 40 + [1, 0] * 10
    >>> b = [0, 1] * 45 + [1, 0] * 5
    >>> res = paired_permutation_test(y, a, b, random_state=0)
    >>> round(res.statistic, 2), res.pvalue < 0.05
    (0.1, True)
    """
    data, name = _setup(
        y_true,
        [y_pred_a, y_pred_b],
        ["y_pred_a", "y_pred_b"],
        groups,
        metric,
        metric_kwargs,
        fast,
    )
    return _paired_test(
        data,
        name,
        method="permutation",
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        alternative=alternative,
        random_state=random_state,
        n_jobs=n_jobs,
        verbose=verbose,
        name="paired_permutation_test",
    )


@validate_params(
    {
        "y_true": ["array-like"],
        "y_pred_a": ["array-like"],
        "y_pred_b": ["array-like"],
        "alternative": ALTERNATIVE,
        "confidence_level": CONFIDENCE_LEVEL,
    },
    prefer_skip_nested_validation=True,
)
def sign_test(
    y_true, y_pred_a, y_pred_b, *, alternative="two-sided", confidence_level=0.95
):
    """Exact binomial (sign) test on the items where exactly one system is right.

    This is McNemar's exact test: :func:`mcnemar_test` with ``method="exact"``
    calls it and gives the same p-value. It takes the items as independent;
    for items in clusters (passages, prompts, patients), use
    :func:`paired_permutation_test` with ``groups``, which swaps whole
    clusters.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred_a, y_pred_b : array-like of shape (n_samples,)
        Predicted labels of systems A and B on the same items.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: H1 is that B wins more than half of the discordant
        items.
    confidence_level : float, default=0.95
        Level of the Clopper-Pearson interval of B's share that
        ``confidence_interval()`` gives by default.

    Returns
    -------
    result : SignTestResult
        ``statistic`` (B's share of the discordant items), ``pvalue``, the
        counts, and ``confidence_interval(confidence_level)``.

    See Also
    --------
    mcnemar_test : The same exact test, and its mid-p and asymptotic forms.
    scipy.stats.binomtest : The test used, with success probability 1/2.

    Notes
    -----
    With ``c`` the items only B gets right and ``b`` those only A gets right,
    ``c ~ Binomial(b + c, 1/2)`` under the null hypothesis that A and B are
    equally accurate.

    When no item is discordant (both systems right on the same items) nothing
    tells A from B: the p-value is 1.0, B's share 0.5 (no side) with the
    interval [0, 1], and a ``RuntimeWarning`` says so. statsmodels' ``mcnemar``
    gives p = 1 there too.

    Examples
    --------
    >>> from sklearn_faithful.holdout import sign_test
    >>> y = [1] * 30
    >>> a = [1] * 20 + [0] * 10
    >>> b = [1] * 28 + [0] * 2
    >>> res = sign_test(y, a, b)
    >>> res.n_b_better, res.n_a_better, round(res.pvalue, 4)
    (8, 0, 0.0078)
    >>> low, high = res.confidence_interval(0.9)
    """
    return _sign_test(
        y_true,
        y_pred_a,
        y_pred_b,
        alternative=alternative,
        confidence_level=confidence_level,
        stacklevel=4,  # the user, validate_params' wrapper, sign_test, here
    )


def _sign_test(
    y_true, y_pred_a, y_pred_b, *, alternative, confidence_level, stacklevel
):
    """The discordant counts and the exact binomial test: the one home of both.

    :func:`sign_test` and :func:`mcnemar_test` call it; ``stacklevel`` points
    the warning of a test without discordant items at the user's call.
    """
    y_true, (a, b) = _check_arrays(
        y_true,
        y_pred_a,
        y_pred_b,
        names=("y_pred_a", "y_pred_b"),
        min_samples=1,
        labels_only=True,
        labels_hint=PROBABILITIES_HINT,
    )
    right_a, right_b = a == y_true, b == y_true
    return _sign_test_from_counts(
        int(np.count_nonzero(right_b & ~right_a)),  # c
        int(np.count_nonzero(right_a & ~right_b)),  # b
        int(y_true.shape[0]),
        alternative=alternative,
        confidence_level=confidence_level,
        stacklevel=stacklevel + 1,
    )


def _sign_test_from_counts(
    n_b, n_a, n_samples, *, alternative, confidence_level, stacklevel
):
    """The exact binomial test of ``n_b`` items only B gets right against
    ``n_a`` only A gets right, out of ``n_samples``."""
    n = n_a + n_b
    if n == 0:
        warnings.warn(
            f"no item is discordant: A and B are right on the same {n_samples} "
            "items, so nothing tells them apart; the p-value is 1.0.",
            RuntimeWarning,
            stacklevel=stacklevel,
        )
        statistic, pvalue = 0.5, 1.0
    else:
        # c ~ Binomial(b + c, 1/2) under H0
        from scipy import stats

        statistic = n_b / n
        pvalue = float(stats.binomtest(n_b, n, 0.5, alternative=alternative).pvalue)
    return SignTestResult(
        statistic=statistic,
        pvalue=pvalue,
        alternative=alternative,
        confidence_level=float(confidence_level),
        n_discordant=n,
        n_b_better=n_b,
        n_a_better=n_a,
        n_samples=n_samples,
    )


def _share_interval(k, n, confidence_level, alternative):
    """Clopper-Pearson interval of a binomial share ``k / n``; [0, 1] for n = 0."""
    if n == 0:
        return ConfidenceInterval(0.0, 1.0)
    from scipy import stats

    res = stats.binomtest(k, n, 0.5, alternative=alternative)
    ci = res.proportion_ci(confidence_level=confidence_level, method="exact")
    return ConfidenceInterval(float(ci.low), float(ci.high))


def _disagreement_weights(k, weights):
    """Cohen's disagreement weights ``w_ij`` (0 on the diagonal), as scikit-learn's."""
    if weights is None:
        return 1.0 - np.eye(k)
    diff = np.abs(np.arange(k)[:, None] - np.arange(k)[None, :]).astype(np.float64)
    return diff if weights == "linear" else diff**2


def _kappa_resampler(y1, y2, weights, groups=None):
    """Resampler of the agreement cells, the kappa of (c, 2k + 1) sums, and
    the kappa of the data.

    Each cell (i, j) of items contributes its row label, its column label
    and its disagreement weight ``w_ij``. Then ``kappa = 1 - sum w C / sum w
    E`` with expected counts ``E_ij = R_i C_j / N`` from the margins, and
    ``sum w E = (R @ w) . C / N``: no K x K table per resample. With
    ``groups``, the units are the clusters, whose features sum their cells'.
    """
    if groups is None:
        classes, (c1, c2), counts = label_table(y1, y2)
        clusters = None
    else:
        classes, codes = encode_labels(y1, y2)
        clusters, (c1, c2) = cluster_cells(*groups, codes, classes.size)
        counts = np.asarray(clusters.sum(axis=0)).ravel()
    k = classes.size
    w = _disagreement_weights(k, weights)
    n_cells = counts.size
    rows = np.repeat(np.arange(n_cells), 3)
    cols = np.column_stack([c1, k + c2, np.full(n_cells, 2 * k)]).ravel()
    data = np.column_stack([np.ones(n_cells), np.ones(n_cells), w[c1, c2]]).ravel()
    # three distinct columns a row: c1 < k <= k + c2 < 2k
    features = unit_features(
        rows, cols, data, (n_cells, 2 * k + 1), 3 * n_cells, clusters is None
    )
    kappa = functools.partial(_kappa_from_sums, w=w, k=k)
    confusion = np.zeros((k, k))
    confusion[c1, c2] = counts
    statistic = _kappa_of_table(confusion, w)
    if clusters is not None:
        return Resampler([clusters @ features]), kappa, statistic
    return Resampler([features], counts), kappa, statistic


def _kappa_of_table(confusion, w):
    """scikit-learn's ``cohen_kappa_score`` of a (k, k) table of counts, by its
    operations in its order (its value on the items, bit for bit): ``1 -
    sum(w C) / sum(w E)`` with ``E = outer(C.sum(0), C.sum(1)) / N``; NaN,
    said, when no disagreement is expected."""
    expected = np.outer(confusion.sum(axis=0), confusion.sum(axis=1))
    expected /= confusion.sum(axis=0).sum()
    denominator = np.sum(w * expected)
    if denominator == 0:
        warn_kappa_undefined(stacklevel=5)
        return np.nan
    return float(1 - np.sum(w * confusion) / denominator)


def _kappa_from_sums(sums, w, k):
    """Kappa of each resample from its (c, 2k + 1) sums (see _kappa_resampler)."""
    row, col, observed = sums[:, :k], sums[:, k : 2 * k], sums[:, 2 * k]
    expected = ((row @ w) * col).sum(axis=1) / row.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return 1.0 - observed / expected


@validate_params(
    {
        "y1": ["array-like"],
        "y2": ["array-like"],
        "groups": ["array-like", None],
        "weights": [StrOptions({"linear", "quadratic"}), None],
        "n_resamples": _RESAMPLING_CONSTRAINTS["n_resamples"],
        "confidence_level": CONFIDENCE_LEVEL,
        "alternative": ALTERNATIVE,
        "random_state": RANDOM_STATE,
        "n_jobs": _RESAMPLING_CONSTRAINTS["n_jobs"],
        "verbose": _RESAMPLING_CONSTRAINTS["verbose"],
    },
    prefer_skip_nested_validation=True,
)
def kappa_confidence_interval(
    y1,
    y2,
    *,
    groups=None,
    weights=None,
    n_resamples=9999,
    confidence_level=0.95,
    alternative="two-sided",
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Bootstrap confidence interval of Cohen's kappa.

    scikit-learn's :func:`~sklearn.metrics.cohen_kappa_score` gives the point
    estimate; this adds the interval it lacks, from multinomial resamples of
    the agreement table (equal in distribution to resampling items).

    Parameters
    ----------
    y1, y2 : array-like of shape (n_samples,)
        Labels given by two annotators (or a model and an annotator).
    groups : array-like of shape (n_samples,), default=None
        The cluster of each item; each resample draws whole clusters
        (:func:`bootstrap_confidence_interval`).
    weights : {None, "linear", "quadratic"}, default=None
        As in ``cohen_kappa_score``.
    n_resamples, confidence_level, alternative, random_state, n_jobs, verbose
        As in :func:`bootstrap_confidence_interval`.

    Returns
    -------
    result : BootstrapIntervalResult

    Examples
    --------
    >>> from sklearn_faithful.holdout import kappa_confidence_interval
    >>> y1 = [0, 1, 1, 0, 1, 2, 2, 0, 1, 2] * 8
    >>> y2 = [0, 1, 0, 0, 1, 2, 1, 0, 1, 2] * 8
    >>> res = kappa_confidence_interval(y1, y2, random_state=0)
    >>> round(res.statistic, 3)
    0.697
    """
    y1, (y2,) = _check_arrays(y1, y2, names=("y2",), true_name="y1", labels_only=True)
    groups = _check_groups(groups, y1.shape[0])
    resampler, kappa, statistic = _kappa_resampler(y1, y2, weights, groups)
    rng = _generator(random_state)
    draw = functools.partial(
        _fast_bootstrap_block, resampler=resampler, metric_of=kappa
    )
    dist = run_resamples(
        draw,
        rng,
        n_resamples,
        n_jobs=n_jobs,
        verbose=verbose,
        name="kappa_confidence_interval",
    )
    n_nan = _warn_nan(dist, "kappa")
    _warn_degenerate(dist, "kappa")
    return BootstrapIntervalResult(
        statistic=statistic,
        confidence_interval=_interval(
            dist, statistic, confidence_level, "percentile", alternative
        ),
        bootstrap_distribution=dist,
        standard_error=scaled_std(dist[~np.isnan(dist)], ddof=1),
        confidence_level=float(confidence_level),
        alternative=alternative,
        method="percentile",
        metric="cohen_kappa",
        n_samples=int(y1.shape[0]),
        n_resamples=n_resamples,
        n_nan=n_nan,
        fast_path=True,
        n_clusters=None if groups is None else groups[1],
    )

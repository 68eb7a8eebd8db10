"""How sure is the calibration error, are the probabilities calibrated, and is B
better calibrated than A on the same items?

Every resample is a vector of weights on the items (bootstrap
multiplicities, whole clusters with ``groups``) or a fresh draw of the
outcomes from the probabilities (consistency resampling); the bin of each
item is found once, so a resample costs one weighted ``np.bincount`` per
problem. Resamples run in blocks through the holdout room's engine
(:func:`~sklearn_faithful.holdout._fast_metrics.run_resamples`), so results
are the same for any ``n_jobs``.
"""

import functools
import math
import warnings
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np
from scipy import special

from ..holdout._fast_metrics import one_blas_thread, run_resamples
from ..holdout._resampling import (
    PairedTestResult,
    _check_groups,
    _clusters_text,
    _paired_pvalue,
)
from ..utils._calibration import (
    bin_codes,
    bin_edges,
    binary_problems,
    binned_error,
    check_bins_apply,
    check_calibration_data,
    smooth_error,
)
from ..utils._calibration_options import (
    DEFAULT_INTERVAL,
    DEFAULT_METHOD,
    DEFAULT_N_BINS,
    DEFAULT_STRATEGY,
    DEFAULT_TEST_METHOD,
    INTERVALS,
    PAIRED_METRICS,
    TESTS,
    refuse_unused,
    resolve_norm,
)
from ..utils._measured import (
    BINNED_L1_BASIC_COVERAGE,
    DEBIASED_BASIC_COVERAGE,
    PERCENTILE_COVERAGE,
)
from ..utils._param_validation import Interval, StrOptions, validate_params
from ..utils._random import _generator
from ..utils._results import (
    ConfidenceInterval,
    _interval_text,
    _level_text,
    _ResultMixin,
)
from ..utils._validation import (
    ALTERNATIVE,
    CONFIDENCE_LEVEL,
    N_JOBS,
    RANDOM_STATE,
    _check_same_items,
)
from ._estimators import DATA_CONSTRAINTS, ESTIMATOR_CONSTRAINTS, estimator_name

_RESAMPLING = {
    "n_resamples": [Interval(Integral, 2, None, closed="left")],
    "confidence_level": CONFIDENCE_LEVEL,
    "random_state": RANDOM_STATE,
    "n_jobs": N_JOBS,
    "verbose": ["verbose"],
}
# Resamples when none are named (as scipy's bootstrap).
N_RESAMPLES = 9999
# Below this many items no interval's coverage was measured.
_MIN_MEASURED_ITEMS = 100
# Resamples of one chunk hold about this many weights (8 bytes each).
_CHUNK_ENTRIES = 2**20


class _Problems:
    """The binary problems of one system, binned once, and their error under
    item weights.

    Each binned problem keeps its items in the order of their bins (a stable
    sort, once) with the features ``[1, c, o]``, so that a resample's bin
    sums are one small matrix product per bin, ``W[:, bin] @ [1, c, o][bin]``.
    ``error(weights)`` gives the p-th power error of each row of a (c, n)
    weight matrix (the mean over problems, :func:`combine` before the root).
    """

    def __init__(self, codes, proba, pos_index, params):
        self.method, self.norm = params["method"], params["norm"]
        self.n_bins = params["n_bins"]
        self.problems = binary_problems(codes, proba, pos_index, params["multi_class"])
        self.n = codes.shape[0]
        self.sorted = []
        if self.method != "smooth":
            for conf, out in self.problems:
                bins = bin_codes(conf, bin_edges(conf, self.n_bins, params["strategy"]))
                order = np.argsort(bins, kind="stable")
                starts = np.searchsorted(bins[order], np.arange(self.n_bins + 1))
                features = np.column_stack([np.ones(self.n), conf, out])[order]
                self.sorted.append((order, starts, features))
        self.classwise = len(self.problems) > 1
        if self.classwise:  # outcomes drawn as one class per item
            self.cum = np.cumsum(proba, axis=1, dtype=np.float64)

    @property
    def exchangeable(self):
        """Whether i.i.d. weights may be drawn in the problem's own item order
        (one binned problem: the statistic does not see the items' order)."""
        return not self.classwise and self.method != "smooth"

    def _binned(self, p, weights, drawn, ordered, method=None):
        """p-th power errors of problem ``p``, a row per resample: the items
        weighted by ``weights`` (c, n), or with the outcomes ``drawn`` (c, n);
        ``ordered``: their columns are already in the problem's bin order."""
        order, starts, features = self.sorted[p]
        if drawn is not None:
            c = drawn.shape[0]
            drawn = drawn if ordered else drawn[:, order]
        else:
            c = weights.shape[0]
            weights = weights if ordered else weights[:, order]
        sums = np.zeros((3, c, self.n_bins))
        with one_blas_thread():
            for j in range(self.n_bins):
                lo, hi = starts[j], starts[j + 1]
                if lo == hi:
                    continue
                if drawn is None:
                    sums[:, :, j] = (weights[:, lo:hi] @ features[lo:hi]).T
                else:
                    sums[:2, :, j] = features[lo:hi, :2].sum(axis=0)[:, None]
                    sums[2, :, j] = drawn[:, lo:hi].sum(axis=1)
        if method is None:
            return binned_error(*sums, self.method, self.norm)
        return binned_error(*sums, method, "l2")

    def plug_in(self):
        """The data's plug-in binned squared L2 error (its bins): what the
        debiased estimator estimates on a bootstrap resample of the data."""
        rows = [
            self._binned(p, np.ones((1, self.n)), None, False, method="binned")
            for p in range(len(self.problems))
        ]
        return float(np.mean(rows))

    def error(self, weights=None, outcomes=None, ordered=False):
        """Rows of p-th power errors under ``weights`` (c, n), or with the
        ``outcomes`` drawn (a (c, n) array per problem); of the data itself
        when both are None."""
        if weights is None and outcomes is None:
            weights = np.ones((1, self.n))
        rows = []
        for p, (conf, out) in enumerate(self.problems):
            drawn = None if outcomes is None else outcomes[p]
            if self.method != "smooth":
                rows.append(self._binned(p, weights, drawn, ordered))
                continue
            c = (weights if drawn is None else drawn).shape[0]
            rows.append(
                [
                    smooth_error(
                        conf,
                        out if drawn is None else drawn[r],
                        None if weights is None else weights[r],
                    )
                    for r in range(c)
                ]
            )
        return np.mean(np.asarray(rows, dtype=np.float64), axis=0)

    def draw_outcomes(self, rng, c, ordered=False):
        """Outcomes drawn from the probabilities themselves (H0: calibrated).

        One problem: ``o* ~ Bernoulli(c)``, which is also the top-label
        outcome when the class is drawn from the row (drawn in the bin order
        with ``ordered``). Classwise: one class per item from its row
        (inverse CDF), its indicator per class.
        """
        u = rng.random((c, self.n))
        if not self.classwise:
            conf = self.problems[0][0]
            if ordered:
                conf = self.sorted[0][2][:, 1]
            return [(u < conf[None, :]).astype(np.float64)]
        # the class drawn is the number of cumulative probabilities below u,
        # counted a class at a time (memory (c, n), not (c, n, k))
        drawn = np.zeros((c, self.n), dtype=np.intp)
        for j in range(self.cum.shape[1]):
            drawn += self.cum[None, :, j] < u
        return [(drawn == j).astype(np.float64) for j in range(len(self.problems))]


def _chunks(total, n):
    rows = max(1, _CHUNK_ENTRIES // max(n, 1))
    for start in range(0, total, rows):
        yield min(rows, total - start)


def _weights(rng, c, n, groups):
    """(c, n) bootstrap multiplicities of the items, or of whole clusters."""
    if groups is None:
        idx = rng.integers(0, n, size=(c, n)) + (np.arange(c) * n)[:, None]
        return (
            np.bincount(idx.ravel(), minlength=c * n).reshape(c, n).astype(np.float64)
        )
    codes, g = groups
    picks = rng.integers(0, g, size=(c, g)) + (np.arange(c) * g)[:, None]
    mult = np.bincount(picks.ravel(), minlength=c * g).reshape(c, g)
    return mult[:, codes].astype(np.float64)


def _bootstrap_block(rng, size, *, systems, groups, n):
    """For ``size`` resamples: one system's powered error, or B's value minus
    A's (each on its own scale, :func:`_root`)."""
    out = []
    # one binned problem with items drawn one by one: the multiplicities are
    # exchangeable, so they are drawn in the problem's own (bin) order
    ordered = groups is None and len(systems) == 1 and systems[0].exchangeable
    for c in _chunks(size, n):
        w = _weights(rng, c, n, groups)
        if len(systems) == 1:
            out.append(systems[0].error(w, ordered=ordered))
        else:
            a, b = (_root(s.error(w), s.norm) for s in systems)
            out.append(b - a)
    return np.concatenate(out)


def _null_block(rng, size, *, problems):
    out = []
    ordered = problems.exchangeable
    for c in _chunks(size, problems.n):
        drawn = problems.draw_outcomes(rng, c, ordered=ordered)
        out.append(problems.error(outcomes=drawn, ordered=ordered))
    return np.concatenate(out)


def _root(powered, norm):
    """The error from its p-th power (a negative debiased square is 0)."""
    return powered if norm == "l1" else np.sqrt(np.maximum(powered, 0.0))


@dataclass(frozen=True)
class CalibrationErrorResult(_ResultMixin):
    """Result of :func:`calibration_error_interval`.

    Follows scipy's ``BootstrapResult``: the ``confidence_interval``,
    ``bootstrap_distribution`` and ``standard_error`` fields, with the
    estimate itself and how it was computed.

    Attributes
    ----------
    statistic : float
        The estimated calibration error (:func:`calibration_error`).
    confidence_interval : ConfidenceInterval
        The bootstrap interval at ``confidence_level``, within [0, 1].
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The estimate on each resample.
    standard_error : float
        Standard deviation of the bootstrap distribution.
    confidence_level : float
        Level of the interval.
    interval : str
        ``"basic"`` or ``"percentile"``.
    estimator : str
        The estimator, in words (method, norm, bins, problems).
    n_samples : int
        Items.
    n_resamples : int
        Resamples drawn.
    n_clusters : int or None
        Clusters resampled whole (``groups``); None otherwise.
    """

    statistic: float
    confidence_interval: ConfidenceInterval
    bootstrap_distribution: np.ndarray = field(repr=False)
    standard_error: float
    confidence_level: float
    interval: str
    estimator: str
    n_samples: int
    n_resamples: int
    n_clusters: int | None = None

    _not_in_dict = ("bootstrap_distribution",)

    def summary(self):
        """Describe the estimate and its interval in one paragraph.

        Returns
        -------
        text : str
            The estimate, its interval and standard error, and the resamples.
        """
        return (
            f"{self.estimator} on {self.n_samples} items"
            f"{_clusters_text(self.n_clusters)}: {self.statistic:.4f}, "
            f"{_level_text(self.confidence_level)} {self.interval} bootstrap "
            f"interval {_interval_text(self.confidence_interval)} "
            f"(s.e. {self.standard_error:.4f}, {self.n_resamples} resamples)"
        )


def _bounds(powered_dist, powered, target, confidence_level, interval, norm):
    """The interval on the error's scale.

    The quantiles ``q`` are taken of the p-th power (the squared error for
    L2, on whose scale the debiased estimator is unbiased). ``"basic"`` takes
    the resamples' errors about ``target``, the value they estimate (the
    error of the data's own distribution), as the estimate's about the
    population value: ``(theta + target - q_high, theta + target - q_low)``.
    ``target`` is the estimate itself for the plug-in errors (``2 theta -
    q``) and the plug-in squared error for the debiased one, whose resamples
    are unbiased for it, not for the debiased estimate. The bounds are
    clipped to [0, 1].
    """
    alpha = (1 - confidence_level) / 2
    low, high = np.quantile(powered_dist, [alpha, 1 - alpha])
    if interval == "basic":
        low, high = powered + target - high, powered + target - low
    low, high = _root(np.clip([low, high], 0.0, 1.0), norm)
    return ConfidenceInterval(float(low), float(high))


def _warn_interval(method, norm, interval, n, stacklevel):
    """Say where the interval printed was measured not to hold, or not measured.

    benchmarks/sim_calibration.py measured the coverage of the population
    (binned) error from 100 to 100,000 items; only the basic interval of the
    squared error held (debiased or binned L2).
    """
    problems = []
    if interval == "percentile":
        problems.append(
            "the percentile interval covered as little as "
            f"{PERCENTILE_COVERAGE.value} of the population error in simulation "
            "(its resamples are biased as the estimate is)"
        )
    elif method == "binned" and norm == "l1":
        problems.append(
            "the basic interval of the binned L1 error (ECE) covered as little "
            f"as {BINNED_L1_BASIC_COVERAGE.value} of the population error in "
            "simulation (the bias of a bin's |gap| does not reflect)"
        )
    elif method == "smooth":
        problems.append("the smooth ECE's interval was not measured")
    if n < _MIN_MEASURED_ITEMS:
        problems.append(f"no interval was measured below {_MIN_MEASURED_ITEMS} items")
    if problems:
        warnings.warn(
            f"{'; '.join(problems)}. The debiased L2 error with the basic "
            "interval (method='debiased', interval='basic', the defaults) "
            f"covered {DEBIASED_BASIC_COVERAGE.value} or more from "
            f"{_MIN_MEASURED_ITEMS} items (user guide, 'Which estimator and "
            "which interval').",
            UserWarning,
            stacklevel=stacklevel,
        )


def _estimator_params(method, norm, n_bins, strategy, multi_class):
    """The estimator's parameters, its norm resolved; bins refused with the
    smooth ECE."""
    check_bins_apply(method, n_bins, strategy)
    return {
        "method": method,
        "norm": resolve_norm(method, norm),
        "n_bins": n_bins,
        "strategy": strategy,
        "multi_class": multi_class,
    }


@validate_params(
    {
        **DATA_CONSTRAINTS,
        **ESTIMATOR_CONSTRAINTS,
        "groups": ["array-like", None],
        "interval": [StrOptions(set(INTERVALS))],
        **_RESAMPLING,
    },
    prefer_skip_nested_validation=True,
)
def calibration_error_interval(
    y_true,
    y_proba,
    *,
    method=DEFAULT_METHOD,
    norm=None,
    n_bins=DEFAULT_N_BINS,
    strategy=DEFAULT_STRATEGY,
    multi_class="auto",
    labels=None,
    pos_label=None,
    groups=None,
    interval=DEFAULT_INTERVAL,
    confidence_level=0.95,
    n_resamples=N_RESAMPLES,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Bootstrap confidence interval of the calibration error.

    The items are resampled (whole clusters with ``groups``), and the error
    is recomputed on each resample with the bins of the data (the bin of
    each item is found once).

    Read more in the :ref:`User Guide <calibration>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities (see :func:`calibration_error`).

    method, norm, n_bins, strategy, multi_class, labels, pos_label
        The estimator, as in :func:`calibration_error`.

    groups : array-like of shape (n_samples,), default=None
        The cluster of each item (several questions from one document, one
        user's requests): each resample draws whole clusters.

    interval : {"basic", "percentile"}, default="basic"
        ``"basic"``: the bootstrap quantiles reflected about the estimate,
        ``2 theta - q``, which corrects the upward bias of the binned
        estimators once. ``"percentile"``: the quantiles themselves. Both are
        taken on the p-th power of the error and clipped to [0, 1].

    confidence_level : float, default=0.95
        Coverage of the interval, in (0, 1).

    n_resamples : int, default=9999
        Bootstrap resamples.

    random_state : int, RandomState instance, Generator or None, default=None
        Seed of the resamples; the same seed gives the same interval for any
        ``n_jobs``.

    n_jobs : int, default=None
        Jobs running blocks of resamples in parallel (joblib); None means 1.

    verbose : int, default=0
        Print progress on stderr when positive.

    Returns
    -------
    result : CalibrationErrorResult
        The estimate, ``confidence_interval``, ``bootstrap_distribution`` and
        ``standard_error``.

    See Also
    --------
    calibration_error : The estimate alone.
    calibration_test : The test of calibration.

    Notes
    -----
    The population calibration error of a calibrated model is 0, where a
    binned estimate is still positive; the measured coverage of each interval,
    calibrated and miscalibrated, is in the user guide.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.calibration import calibration_error_interval
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=2000)
    >>> y = (rng.uniform(size=2000) < p).astype(int)
    >>> res = calibration_error_interval(y, p, random_state=0, n_resamples=999)
    >>> res.confidence_interval.low <= 0.02
    True
    """
    params = _estimator_params(method, norm, n_bins, strategy, multi_class)
    codes, proba, _, pos_index = check_calibration_data(
        y_true, y_proba, labels, pos_label
    )
    n = codes.shape[0]
    clusters = _check_groups(groups, n, stacklevel=4)
    problems = _Problems(codes, proba, pos_index, params)
    powered = float(problems.error()[0])
    target = problems.plug_in() if params["method"] == "debiased" else powered
    _warn_interval(params["method"], params["norm"], interval, n, stacklevel=4)
    draw = functools.partial(_bootstrap_block, systems=[problems], groups=clusters, n=n)
    dist = run_resamples(
        draw,
        _generator(random_state),
        n_resamples,
        n_jobs=n_jobs,
        verbose=verbose,
        name="calibration_error_interval",
    )
    errors = _root(dist, params["norm"])
    return CalibrationErrorResult(
        statistic=float(_root(powered, params["norm"])),
        confidence_interval=_bounds(
            dist, powered, target, confidence_level, interval, params["norm"]
        ),
        bootstrap_distribution=errors,
        standard_error=float(np.std(errors, ddof=1)),
        confidence_level=float(confidence_level),
        interval=interval,
        estimator=estimator_name(**{k: v for k, v in params.items()}),
        n_samples=n,
        n_resamples=n_resamples,
        n_clusters=None if clusters is None else clusters[1],
    )


@dataclass(frozen=True)
class CalibrationTestResult(_ResultMixin):
    """Result of :func:`calibration_test`, H0: the probabilities are calibrated.

    Follows scipy's test results: ``statistic`` and ``pvalue``.

    Attributes
    ----------
    statistic : float
        The calibration error (``method="consistency"``) or Spiegelhalter's
        z (``method="spiegelhalter"``).
    pvalue : float
        The p-value: ``(1 + #{T* >= T}) / (n_resamples + 1)`` over the
        consistency resamples, or two-sided from the normal distribution.
    method : str
        ``"consistency"`` or ``"spiegelhalter"``.
    estimator : str
        The statistic, in words.
    n_samples : int
        Items.
    n_resamples : int or None
        Consistency resamples; None for Spiegelhalter's z.
    null_distribution : ndarray or None
        The statistic on each consistency resample.
    """

    statistic: float
    pvalue: float
    method: str
    estimator: str
    n_samples: int
    n_resamples: int | None = None
    null_distribution: np.ndarray | None = field(default=None, repr=False)

    _not_in_dict = ("null_distribution",)

    def summary(self):
        """Describe the test in one paragraph.

        Returns
        -------
        text : str
            The statistic, the p-value and how it was computed.
        """
        how = (
            f"{self.n_resamples} consistency resamples"
            if self.method == "consistency"
            else "normal approximation"
        )
        return (
            f"test of calibration ({self.method}) on {self.n_samples} items: "
            f"{self.estimator} = {self.statistic:.4f}, p = {self.pvalue:.4g} "
            f"({how}; H0: the probabilities are calibrated)"
        )


def _spiegelhalter(conf, out):
    """Spiegelhalter's z (1986): ``sum (o - c)(1 - 2c)`` over its null s.d.
    ``sqrt(sum (1 - 2c)^2 c (1 - c))``, and its two-sided p-value."""
    num = np.sum((out - conf) * (1 - 2 * conf))
    var = np.sum((1 - 2 * conf) ** 2 * conf * (1 - conf))
    if not var > 0:
        raise ValueError(
            "Spiegelhalter's z is undefined: every probability is 0, 0.5 or 1, "
            "so its variance under calibration is 0. Use test='consistency'."
        )
    z = num / math.sqrt(var)
    return float(z), float(2 * special.ndtr(-abs(z)))


@validate_params(
    {
        **DATA_CONSTRAINTS,
        **ESTIMATOR_CONSTRAINTS,
        "test": [StrOptions(set(TESTS))],
        **{k: v for k, v in _RESAMPLING.items() if k != "confidence_level"},
    },
    prefer_skip_nested_validation=True,
)
def calibration_test(
    y_true,
    y_proba,
    *,
    test="consistency",
    method=DEFAULT_TEST_METHOD,
    norm=None,
    n_bins=DEFAULT_N_BINS,
    strategy=DEFAULT_STRATEGY,
    multi_class="auto",
    labels=None,
    pos_label=None,
    n_resamples=N_RESAMPLES,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Test whether predicted probabilities are calibrated.

    H0: every probability is the true probability of its outcome. Under H0
    the outcomes can be drawn from the probabilities themselves, so the
    calibration error's distribution at this very set of probabilities is
    known by simulation: consistency resampling (Bröcker & Smith 2007). It
    removes the guesswork of a binned error: an ECE of 0.03 on 1,000 items
    can be noise alone, and the p-value says whether it is.

    Read more in the :ref:`User Guide <calibration>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.

    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Predicted probabilities (see :func:`calibration_error`).

    test : {"consistency", "spiegelhalter"}, default="consistency"
        ``"consistency"``: the calibration error (``method`` ...) against its
        consistency resamples. ``"spiegelhalter"``: Spiegelhalter's z (1986),
        a closed form for one binary problem (two classes, or top-label).

    method, norm, n_bins, strategy, multi_class, labels, pos_label
        The calibration error used as the statistic, as in
        :func:`calibration_error`, but ``method="binned"`` (the ECE) by
        default: in simulation its test was the more powerful, and its level
        held (user guide). ``multi_class`` also chooses the problem of
        Spiegelhalter's z.

    n_resamples : int, default=9999
        Consistency resamples.

    random_state : int, RandomState instance, Generator or None, default=None
        Seed of the resamples.

    n_jobs : int, default=None
        Jobs running blocks of resamples in parallel; None means 1.

    verbose : int, default=0
        Print progress on stderr when positive.

    Returns
    -------
    result : CalibrationTestResult
        ``statistic`` and ``pvalue``.

    See Also
    --------
    calibration_error_interval : How large the error is.

    References
    ----------
    .. [1] J. Bröcker and L. A. Smith, "Increasing the reliability of
       reliability diagrams", Weather and Forecasting 22(3), 2007.
    .. [2] D. J. Spiegelhalter, "Probabilistic prediction in patient
       management and clinical trials", Statistics in Medicine 5(5), 1986.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.calibration import calibration_test
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=1000)
    >>> y = (rng.uniform(size=1000) < p ** 2).astype(int)  # over-confident
    >>> calibration_test(y, p, random_state=0, n_resamples=999).pvalue < 0.01
    True
    """
    params = _estimator_params(method, norm, n_bins, strategy, multi_class)
    codes, proba, _, pos_index = check_calibration_data(
        y_true, y_proba, labels, pos_label
    )
    problems = _Problems(codes, proba, pos_index, params)
    n = codes.shape[0]
    if test == "spiegelhalter":
        refuse_unused(
            {
                "method": (method, DEFAULT_TEST_METHOD),
                "norm": (norm, None),
                "n_bins": (n_bins, DEFAULT_N_BINS),
                "strategy": (strategy, DEFAULT_STRATEGY),
                "n_resamples": (n_resamples, N_RESAMPLES),
                "random_state": (random_state, None),
            },
            "Spiegelhalter's z is a closed form of the probabilities, with no "
            "calibration error and no resamples",
        )
        if problems.classwise:
            raise ValueError(
                "Spiegelhalter's z tests one binary problem; multi_class="
                "'classwise' makes one per class. Use multi_class='top-label' "
                "or test='consistency'."
            )
        z, pvalue = _spiegelhalter(*problems.problems[0])
        return CalibrationTestResult(
            statistic=z,
            pvalue=pvalue,
            method=test,
            estimator="Spiegelhalter's z",
            n_samples=n,
        )
    powered = float(problems.error()[0])
    null = run_resamples(
        functools.partial(_null_block, problems=problems),
        _generator(random_state),
        n_resamples,
        n_jobs=n_jobs,
        verbose=verbose,
        name="calibration_test",
        what="consistency resamples",
    )
    # a resample equal to the statistic up to rounding counts as reaching it
    reach = np.count_nonzero(null >= powered - 1e-12 * max(abs(powered), 1e-300))
    return CalibrationTestResult(
        statistic=float(_root(powered, params["norm"])),
        pvalue=float((reach + 1) / (n_resamples + 1)),
        method=test,
        estimator=estimator_name(**params),
        n_samples=n,
        n_resamples=n_resamples,
        null_distribution=_root(null, params["norm"]),
    )


class _Scores:
    """The mean Brier score or log loss of one system under item weights.

    As scikit-learn's ``brier_score_loss`` and ``log_loss``: for two classes,
    ``(p - o)^2`` with ``p`` the positive class's probability; for more,
    ``sum_k (p_k - [y = k])^2``; the log loss ``-log p_y``, with ``p_y``
    clipped to ``[eps, 1 - eps]`` of its dtype.
    """

    norm = "l1"

    def __init__(self, codes, proba, pos_index, scoring):
        n = codes.shape[0]
        if proba.ndim == 1:
            on = codes == pos_index
            p_true = np.where(on, proba, 1 - proba).astype(np.float64)
        else:
            p_true = proba[np.arange(n), codes].astype(np.float64)
        if scoring == "log_loss":
            eps = np.finfo(proba.dtype).eps
            self.loss = -np.log(np.clip(p_true, eps, 1 - eps))
        elif proba.ndim == 1 or proba.shape[1] == 2:
            self.loss = (1 - p_true) ** 2
        else:
            sq = np.einsum("ij,ij->i", proba, proba, dtype=np.float64)
            self.loss = sq - 2 * p_true + 1
        self.n = n

    def error(self, weights=None):
        if weights is None:
            return np.array([self.loss.mean()])
        return (weights @ self.loss) / weights.sum(axis=1)


@validate_params(
    {
        "y_true": ["array-like"],
        "y_proba_a": ["array-like"],
        "y_proba_b": ["array-like"],
        "metric": [StrOptions(set(PAIRED_METRICS))],
        **ESTIMATOR_CONSTRAINTS,
        "groups": ["array-like", None],
        "alternative": ALTERNATIVE,
        **_RESAMPLING,
    },
    prefer_skip_nested_validation=True,
)
def paired_calibration_test(
    y_true,
    y_proba_a,
    y_proba_b,
    *,
    metric="calibration_error",
    method=DEFAULT_METHOD,
    norm=None,
    n_bins=DEFAULT_N_BINS,
    strategy=DEFAULT_STRATEGY,
    multi_class="auto",
    labels=None,
    pos_label=None,
    groups=None,
    alternative="two-sided",
    confidence_level=0.95,
    n_resamples=N_RESAMPLES,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Paired bootstrap test: is B better calibrated, or better scored, than A?

    Both systems' probabilities of the same items are scored on the same
    resample each time (whole clusters with ``groups``), so the pairing is
    kept. The statistic is ``metric(B) - metric(A)``: all three metrics are
    lower-is-better, so a negative difference favours B.

    Read more in the :ref:`User Guide <calibration>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.

    y_proba_a, y_proba_b : array-like of shape (n_samples, n_classes) or (n_samples,)
        The probabilities of systems A and B on the same items (see
        :func:`calibration_error`).

    metric : {"calibration_error", "brier", "log_loss"}, default="calibration_error"
        What is compared: the calibration error (``method`` ...), or a proper
        score, which rewards calibration and discrimination together: the
        Brier score or the log loss, as scikit-learn's ``brier_score_loss``
        and ``log_loss``.

    method, norm, n_bins, strategy, multi_class
        The calibration error, as in :func:`calibration_error`; they apply
        only with ``metric="calibration_error"``.

    labels, pos_label
        The classes, as in :func:`calibration_error`.

    groups : array-like of shape (n_samples,), default=None
        The cluster of each item: each resample draws whole clusters.

    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"less"``: H1 is that B's value is lower (B better calibrated or
        scored).

    confidence_level : float, default=0.95
        Level of ``confidence_interval()``, the percentile interval of the
        difference.

    n_resamples : int, default=9999
        Bootstrap resamples.

    random_state : int, RandomState instance, Generator or None, default=None
        Seed of the resamples; the same for any ``n_jobs``.

    n_jobs : int, default=None
        Jobs running blocks of resamples in parallel; None means 1.

    verbose : int, default=0
        Print progress on stderr when positive.

    Returns
    -------
    result : PairedTestResult
        The difference, the p-value ``(c + 1) / (n + 1)`` against the
        bootstrap distribution shifted to mean zero, and
        ``confidence_interval()``.

    See Also
    --------
    sklearn_faithful.holdout.paired_bootstrap_test : The same test for any
        metric of labels.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.calibration import paired_calibration_test
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=1000)
    >>> y = (rng.uniform(size=1000) < p).astype(int)
    >>> over = np.clip(1.6 * (p - 0.5) + 0.5, 0, 1)  # over-confident A
    >>> res = paired_calibration_test(y, over, p, metric="brier", random_state=0,
    ...                               n_resamples=999)
    >>> res.statistic < 0, res.pvalue < 0.05
    (True, True)
    """
    params = _estimator_params(method, norm, n_bins, strategy, multi_class)
    if metric != "calibration_error":
        refuse_unused(
            {
                "method": (method, DEFAULT_METHOD),
                "norm": (norm, None),
                "n_bins": (n_bins, DEFAULT_N_BINS),
                "strategy": (strategy, DEFAULT_STRATEGY),
                "multi_class": (multi_class, "auto"),
            },
            f"metric={metric!r} is a proper score of all the probabilities, not "
            "a calibration error",
        )
    y = np.asarray(y_true)
    for name, proba in (("y_proba_a", y_proba_a), ("y_proba_b", y_proba_b)):
        _check_same_items(np.asarray(proba), y, name)
    systems = []
    for name, proba in (("y_proba_a", y_proba_a), ("y_proba_b", y_proba_b)):
        codes, checked, _, pos_index = check_calibration_data(
            y_true, proba, labels, pos_label, name
        )
        if metric == "calibration_error":
            systems.append(_Problems(codes, checked, pos_index, params))
        else:
            systems.append(_Scores(codes, checked, pos_index, metric))
    n = codes.shape[0]
    clusters = _check_groups(groups, n, stacklevel=4)
    value_a, value_b = (float(_root(s.error()[0], s.norm)) for s in systems)
    statistic = value_b - value_a
    diffs = run_resamples(
        functools.partial(_bootstrap_block, systems=systems, groups=clusters, n=n),
        _generator(random_state),
        n_resamples,
        n_jobs=n_jobs,
        verbose=verbose,
        name="paired_calibration_test",
    )
    name = estimator_name(**params) if metric == "calibration_error" else metric
    return PairedTestResult(
        statistic=statistic,
        pvalue=_paired_pvalue(diffs - statistic, statistic, alternative),
        alternative=alternative,
        confidence_level=float(confidence_level),
        method="bootstrap",
        metric=name,
        n_samples=n,
        n_resamples=n_resamples,
        fast_path=True,
        bootstrap_distribution=diffs,
        null_distribution=diffs - statistic,
        n_clusters=None if clusters is None else clusters[1],
    )

"""Comparing methods over several data sets (Demsar 2006; Benavoli et al. 2014).

A benchmark gives one score per method on each data set. The data sets are the
independent units: their scores are not commensurable (an accuracy of 0.9 may
be poor on one and excellent on another), so the tests here work on ranks
within a data set (Friedman, Nemenyi) or on the signs and sizes of the
differences (the Bayesian signed-rank test), never on means across data sets.
"""

import math
from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np
from scipy import stats

from ..utils._param_validation import HasMethods, Interval, validate_params
from ..utils._random import _generator
from ..utils._results import (
    _BayesResultMixin,
    _interval_text,
    _ResultMixin,
    _SampledPosterior,
)
from ..utils._validation import (
    RANDOM_STATE,
    ROPE,
    _refuse_booleans,
    _validate_init_params,
    check_matplotlib,
)

ALPHA = [Interval(Real, 0, 1, closed="neither")]
AX = [HasMethods(["plot", "text", "set_axis_off"]), None]  # matplotlib Axes
# Largest number of posterior draws times (n_datasets + 1) held at once.
_CHUNK_ENTRIES = 1 << 21


def _check_names(names, n_methods, default):
    """Return the method names as a tuple of ``n_methods`` distinct strings."""
    if names is None:
        names = default
    names = tuple(str(name) for name in np.asarray(names, dtype=object).ravel())
    if len(names) != n_methods:
        raise ValueError(
            f"names has {len(names)} entries but scores has {n_methods} columns "
            "(methods); give one name per column."
        )
    if len(set(names)) != n_methods:
        raise ValueError(f"names contains duplicates: {list(names)!r}.")
    return names


def _check_scores(scores, names=None):
    """Return ``scores`` as a float array of shape (n_datasets, n_methods) and
    the method names (the columns of a DataFrame, unless ``names`` is given).
    """
    default = (
        list(scores.columns)
        if hasattr(scores, "columns")
        else [f"method {j}" for j in range(np.shape(scores)[-1])]
        if np.ndim(scores) == 2
        else None
    )
    _refuse_booleans(scores, "scores", "scores")
    try:
        arr = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            "scores must hold numbers, one row per data set and one column per "
            f"method; got {type(scores).__name__} of dtype "
            f"{np.asarray(scores).dtype!s}."
        ) from exc
    if arr.ndim != 2:
        raise ValueError(
            "scores must be 2-D of shape (n_datasets, n_methods); got shape "
            f"{arr.shape}."
        )
    n_datasets, n_methods = arr.shape
    if n_methods < 3:
        raise ValueError(
            f"scores has {n_methods} columns (methods); Friedman's test compares "
            "at least 3. For two methods use bayesian_signed_rank_test or "
            "scipy.stats.wilcoxon."
        )
    if n_datasets < 2:
        raise ValueError(
            f"scores has {n_datasets} row(s) (data sets); ranking methods needs "
            "at least 2."
        )
    bad = np.argwhere(~np.isfinite(arr))
    if bad.size:
        row, col = (int(i) for i in bad[0])
        raise ValueError(
            f"scores contains {arr[row, col].item()!r} at row {row} (data set), column "
            f"{col} (method); every method needs a finite score on every data "
            "set. Drop the data set or rerun the method."
        )
    return arr, _check_names(names, n_methods, default)


def _check_score_vector(scores, name):
    """Return ``scores`` as a 1-D float array of finite per-data-set scores."""
    _refuse_booleans(scores, name, "scores")
    try:
        arr = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} must hold numbers, one score per data set; got dtype "
            f"{np.asarray(scores).dtype!s}."
        ) from exc
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(
            f"{name} must be a non-empty 1-D array-like of scores, one per data "
            f"set; got shape {arr.shape}."
        )
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise ValueError(
            f"{name} contains {arr[bad[0]].item()!r} at position {int(bad[0])} (data "
            "set); every score must be a finite number."
        )
    return arr


def _nemenyi_q(alpha, n_methods):
    """``q_alpha``: the studentized range quantile over ``sqrt(2)``, infinite df.

    Demsar (2006), Table 5: 2.569 for k = 4 at alpha = 0.05.
    """
    q = stats.studentized_range.ppf(1 - alpha, n_methods, np.inf)
    return float(q / math.sqrt(2))


def _rank_standard_error(n_methods, n_datasets):
    """``sqrt(k (k + 1) / (6 N))``, the standard error of a difference of
    average ranks under the null hypothesis (Demsar 2006, section 3.2.2)."""
    return math.sqrt(n_methods * (n_methods + 1) / (6 * n_datasets))


@dataclass(frozen=True)
class FriedmanTestResult(_ResultMixin):
    """Result of :func:`friedman_test`: Friedman's test and the average ranks.

    Follows scipy's test results (``statistic``, ``pvalue``), and adds the
    Nemenyi post-hoc test as methods.

    Attributes
    ----------
    statistic : float
        Friedman's chi-square, as :func:`scipy.stats.friedmanchisquare`
        computes it (with its correction for ties).
    pvalue : float
        ``P(chi2(k - 1) >= statistic)``.
    iman_davenport_statistic : float
        ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``, Iman and
        Davenport's less conservative form, which Demsar (2006) recommends;
        ``inf`` when every data set ranks the methods the same way.
    iman_davenport_pvalue : float
        ``P(F(k - 1, (k - 1)(N - 1)) >= F_F)``.
    average_ranks : ndarray of shape (n_methods,)
        Mean rank of each method over the data sets; rank 1 is the best,
        ties get the average of the ranks they span.
    ranks : ndarray of shape (n_datasets, n_methods)
        Rank of each method on each data set.
    names : tuple of str
        Name of each method, in the columns' order.
    n_datasets : int
        ``N``, the number of data sets.
    n_methods : int
        ``k``, the number of methods.
    greater_is_better : bool
        Whether higher scores ranked first.
    """

    statistic: float
    pvalue: float
    iman_davenport_statistic: float
    iman_davenport_pvalue: float
    average_ranks: np.ndarray
    ranks: np.ndarray = field(repr=False)
    names: tuple
    n_datasets: int
    n_methods: int
    greater_is_better: bool

    @validate_params({"alpha": ALPHA}, prefer_skip_nested_validation=True)
    def critical_difference(self, alpha=0.05):
        """Nemenyi's critical difference of average ranks at level ``alpha``.

        Two methods whose average ranks differ by at least this much differ
        significantly (Demsar 2006, section 3.2.2).

        Parameters
        ----------
        alpha : float, default=0.05
            Significance level of the family of all pairwise comparisons,
            in (0, 1).

        Returns
        -------
        cd : float
            ``q_alpha sqrt(k (k + 1) / (6 N))`` with ``q_alpha`` the ``1 -
            alpha`` quantile of the studentized range of ``k`` means on
            infinite degrees of freedom, divided by ``sqrt(2)``.
        """
        # CD = q_alpha sqrt(k (k + 1) / (6 N))  (Demsar 2006, section 3.2.2)
        return _nemenyi_q(alpha, self.n_methods) * _rank_standard_error(
            self.n_methods, self.n_datasets
        )

    def nemenyi(self):
        """Nemenyi's p-values of every pair of methods.

        Returns
        -------
        pvalues : ndarray of shape (n_methods, n_methods)
            ``pvalues[i, j]`` is the family-wise p-value of the difference
            between methods ``i`` and ``j`` (in the order of ``names``); 1 on
            the diagonal. ``pvalues[i, j] <= alpha`` exactly when ``|R_i -
            R_j| >= critical_difference(alpha)``.

        Notes
        -----
        ``z = |R_i - R_j| / sqrt(k (k + 1) / (6 N))`` and ``p = P(Q_k >= z
        sqrt(2))`` with ``Q_k`` the studentized range of ``k`` means on
        infinite degrees of freedom.
        """
        se = _rank_standard_error(self.n_methods, self.n_datasets)
        diff = np.abs(self.average_ranks[:, None] - self.average_ranks[None, :])
        upper = np.triu_indices(self.n_methods, k=1)
        pvalues = np.ones((self.n_methods, self.n_methods))
        # p = P(Q_k >= sqrt(2) |R_i - R_j| / se), Q_k the studentized range
        pvalues[upper] = stats.studentized_range.sf(
            math.sqrt(2) * diff[upper] / se, self.n_methods, np.inf
        )
        pvalues.T[upper] = pvalues[upper]
        return pvalues

    def summary(self):
        """Describe the test in one plain-text paragraph.

        Returns
        -------
        text : str
            The average ranks (best first), both forms of Friedman's test,
            and Nemenyi's critical difference at 0.05.
        """
        order = np.argsort(self.average_ranks, kind="stable")
        ranks = ", ".join(f"{self.names[j]} {self.average_ranks[j]:.3f}" for j in order)
        return (
            f"Friedman test of {self.n_methods} methods on {self.n_datasets} data "
            f"sets; average ranks (1 = best): {ranks}\n"
            f"chi2_F = {self.statistic:.4g} on {self.n_methods - 1} df, p-value = "
            f"{self.pvalue:.4g}; Iman-Davenport F_F = "
            f"{self.iman_davenport_statistic:.4g}, p-value = "
            f"{self.iman_davenport_pvalue:.4g}\n"
            f"Nemenyi critical difference at 0.05: "
            f"{self.critical_difference(0.05):.3f}"
        )


@validate_params(
    {
        "scores": ["array-like"],
        "names": ["array-like", None],
        "greater_is_better": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def friedman_test(scores, *, names=None, greater_is_better=True):
    """Friedman's test of k methods over N data sets, with their average ranks.

    Ranks the methods on each data set and tests whether their average ranks
    differ more than chance allows. Follow a significant result with the
    Nemenyi post-hoc test: :meth:`FriedmanTestResult.critical_difference`,
    :meth:`FriedmanTestResult.nemenyi` and :class:`CriticalDifferenceDisplay`.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_methods)
        The score of each method (column) on each data set (row), such as
        the mean cross-validated accuracy. A pandas DataFrame names the
        methods by its columns.

    names : array-like of shape (n_methods,), default=None
        Name of each method. If None, the columns of a DataFrame, otherwise
        ``"method 0"``, ``"method 1"``, ...

    greater_is_better : bool, default=True
        Whether a higher score is better (accuracy, AUC); set to False for
        errors and losses.

    Returns
    -------
    result : FriedmanTestResult
        ``statistic``, ``pvalue``, the Iman-Davenport form, the
        ``average_ranks``, and the Nemenyi methods.

    See Also
    --------
    scipy.stats.friedmanchisquare : The test computed.
    CriticalDifferenceDisplay : The critical-difference diagram.
    bayesian_signed_rank_test : Two methods over several data sets.

    Notes
    -----
    With ``R_j`` the average rank of method ``j``::

        chi2_F = 12 N / (k (k + 1)) (sum_j R_j^2 - k (k + 1)^2 / 4)

    follows ``chi2(k - 1)`` under the null hypothesis that all methods are
    equivalent; scipy divides it by ``1 - sum t (t^2 - 1) / (N k (k^2 -
    1))`` over the groups of ``t`` tied scores. Demsar's tables use it
    without that correction, so with ties the statistics differ. The
    Iman-Davenport statistic ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``
    follows ``F(k - 1, (k - 1)(N - 1))``.

    When every data set ties all methods, the statistic is undefined (scipy
    returns NaN); nothing then tells the methods apart, and the result has
    statistic 0.0 and p-value 1.0.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research 7, 1-30, 2006.
    .. [2] M. Friedman, "The use of ranks to avoid the assumption of
       normality implicit in the analysis of variance", Journal of the
       American Statistical Association 32(200), 675-701, 1937.
    .. [3] R. L. Iman and J. M. Davenport, "Approximations of the critical
       region of the Friedman statistic", Communications in Statistics -
       Theory and Methods 9(6), 571-595, 1980.
    .. [4] P. B. Nemenyi, "Distribution-free multiple comparisons", PhD
       thesis, Princeton University, 1963.

    Examples
    --------
    >>> from sklearn_faithful.multi_dataset import friedman_test
    >>> scores = [[0.81, 0.84, 0.80], [0.72, 0.77, 0.74], [0.90, 0.93, 0.91],
    ...           [0.65, 0.70, 0.66], [0.88, 0.89, 0.85]]
    >>> res = friedman_test(scores, names=["tree", "forest", "knn"])
    >>> res.average_ranks.tolist()
    [2.6, 1.0, 2.4]
    >>> round(res.pvalue, 4), round(res.critical_difference(0.05), 3)
    (0.0224, 1.482)
    """
    arr, names = _check_scores(scores, names)
    n_datasets, n_methods = arr.shape
    # rank 1 = best, ties averaged (Demsar 2006, section 3.2.2)
    ranks = stats.rankdata(-arr if greater_is_better else arr, axis=1)
    if np.all(arr == arr[:, :1]):  # every data set ties all methods
        statistic, pvalue = 0.0, 1.0
    else:
        res = stats.friedmanchisquare(*arr.T)
        statistic, pvalue = float(res.statistic), float(res.pvalue)
    # F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)  (Iman & Davenport 1980)
    df1, df2 = n_methods - 1, (n_methods - 1) * (n_datasets - 1)
    room = n_datasets * df1 - statistic
    if room > 1e-12 * n_datasets * df1:
        f_stat = (n_datasets - 1) * statistic / room
        f_pvalue = float(stats.f.sf(f_stat, df1, df2))
    else:  # the same ranking on every data set
        f_stat, f_pvalue = math.inf, 0.0
    return FriedmanTestResult(
        statistic=statistic,
        pvalue=pvalue,
        iman_davenport_statistic=float(f_stat),
        iman_davenport_pvalue=f_pvalue,
        average_ranks=ranks.mean(axis=0),
        ranks=ranks,
        names=names,
        n_datasets=n_datasets,
        n_methods=n_methods,
        greater_is_better=bool(greater_is_better),
    )


def _cliques(average_ranks, critical_difference):
    """Maximal groups of methods whose average ranks span less than the CD.

    Returns tuples of column indices, best first; each has at least two
    methods and none is inside another. These are the bars of Demsar's
    critical-difference diagram: the methods under one bar are not
    significantly different from each other.
    """
    order = np.argsort(average_ranks, kind="stable")
    sorted_ranks = average_ranks[order]
    k = sorted_ranks.shape[0]
    cliques, last_end = [], 0
    for start in range(k):
        end = start
        while end + 1 < k and sorted_ranks[end + 1] - sorted_ranks[start] < (
            critical_difference
        ):
            end += 1
        # a group ending where the previous one ended lies inside it
        if end > start and end > last_end:
            cliques.append(tuple(int(j) for j in order[start : end + 1]))
            last_end = end
    return cliques


class CriticalDifferenceDisplay:
    """Critical-difference diagram of methods compared over several data sets.

    Demsar's (2006) diagram: the methods' average ranks on an axis (rank 1,
    the best, on the left), the better half labelled on the left and the
    worse half on the right, a thick bar joining each maximal group of
    methods whose average ranks differ by less than the critical
    difference (not significantly different by the Nemenyi test), and the
    critical difference itself drawn above the axis. Build it with
    :meth:`from_scores` or :meth:`from_result`; matplotlib is needed (``pip
    install 'sklearn-faithful[plot]'``).

    Parameters
    ----------
    average_ranks : array-like of shape (n_methods,)
        Average rank of each method, 1 the best.

    critical_difference : float
        The critical difference of average ranks, as
        :meth:`FriedmanTestResult.critical_difference` gives it.

    names : array-like of shape (n_methods,), default=None
        Name of each method. If None, ``"method 0"``, ``"method 1"``, ...

    Attributes
    ----------
    cliques_ : list of tuple of str
        The groups joined by a bar, each from best to worst rank.

    clique_lines_ : list of matplotlib Line2D
        The bars, one per group in ``cliques_``.

    ax_ : matplotlib Axes
        Axes with the diagram.

    figure_ : matplotlib Figure
        Figure containing the diagram.

    See Also
    --------
    friedman_test : The average ranks and the critical difference.

    References
    ----------
    .. [1] J. Demsar, "Statistical comparisons of classifiers over multiple
       data sets", Journal of Machine Learning Research 7, 1-30, 2006.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_faithful.multi_dataset import CriticalDifferenceDisplay
    >>> scores = [[0.81, 0.84, 0.80], [0.72, 0.77, 0.74], [0.90, 0.93, 0.91],
    ...           [0.65, 0.70, 0.66], [0.88, 0.89, 0.85]]
    >>> disp = CriticalDifferenceDisplay.from_scores(
    ...     scores, names=["tree", "forest", "knn"])
    >>> disp.cliques_
    [('forest', 'knn'), ('knn', 'tree')]
    """

    _parameter_constraints = {
        "average_ranks": ["array-like"],
        "critical_difference": [Interval(Real, 0, None, closed="left")],
        "names": ["array-like", None],
    }

    def __init__(self, average_ranks, critical_difference, *, names=None):
        _validate_init_params(
            self,
            dict(
                average_ranks=average_ranks,
                critical_difference=critical_difference,
                names=names,
            ),
        )
        self.average_ranks = average_ranks
        self.critical_difference = critical_difference
        self.names = names

    @validate_params({"ax": AX}, prefer_skip_nested_validation=True)
    def plot(self, ax=None):
        """Draw the diagram.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; its frame and ticks are turned off. If None, a
            new figure sized for the number of methods.

        Returns
        -------
        display : CriticalDifferenceDisplay
            The display, with ``ax_``, ``figure_``, ``cliques_`` and
            ``clique_lines_`` set.
        """
        plt = check_matplotlib("CriticalDifferenceDisplay.plot")
        ranks = np.asarray(self.average_ranks, dtype=np.float64)
        if ranks.ndim != 1 or ranks.shape[0] < 2 or not np.isfinite(ranks).all():
            raise ValueError(
                "average_ranks must be a 1-D array-like of at least 2 finite "
                f"average ranks; got {self.average_ranks!r}."
            )
        k = ranks.shape[0]
        names = _check_names(self.names, k, [f"method {j}" for j in range(k)])
        cd = float(self.critical_difference)
        cliques = _cliques(ranks, cd)
        n_left = (k + 1) // 2
        order = np.argsort(ranks, kind="stable")
        left, right = order[:n_left], order[n_left:][::-1]

        if ax is None:
            height = 1.4 + 0.25 * (max(len(left), len(right)) + len(cliques))
            _, ax = plt.subplots(figsize=(6.4, height), layout="constrained")
        fig = ax.figure
        ax.set_axis_off()
        lo, hi = 1, max(k, int(math.ceil(ranks.max())))
        line = dict(color="black", linewidth=1)

        # the rank axis, its ticks and labels above it
        ax.plot([lo, hi], [0, 0], **line)
        for tick in np.arange(lo, hi + 0.25, 0.5):
            length = 0.1 if float(tick).is_integer() else 0.05
            ax.plot([tick, tick], [0, -length], **line)
            if float(tick).is_integer():
                ax.text(tick, -0.15, f"{int(tick)}", ha="center", va="bottom")
        # the critical difference above the axis, from rank 1
        y_cd = -0.65
        ax.plot([lo, lo + cd], [y_cd, y_cd], color="black", linewidth=1.5)
        for x in (lo, lo + cd):
            ax.plot([x, x], [y_cd - 0.05, y_cd + 0.05], **line)
        ax.text(lo + cd / 2, y_cd - 0.08, f"CD = {cd:.2f}", ha="center", va="bottom")

        # one bar per group of methods not significantly different
        clique_lines = []
        for row, clique in enumerate(cliques):
            y = 0.2 + 0.12 * row
            (bar,) = ax.plot(
                [ranks[clique[0]] - 0.03, ranks[clique[-1]] + 0.03],
                [y, y],
                color="black",
                linewidth=3,
                solid_capstyle="round",
            )
            clique_lines.append(bar)

        # the methods: an elbow from the axis down to the label, without
        # crossing (the best at the top on the left, the worst on the right)
        y_first = 0.35 + 0.12 * len(cliques)
        for side, group, x_end, ha in (
            ("left", left, lo - 0.2, "right"),
            ("right", right, hi + 0.2, "left"),
        ):
            for row, j in enumerate(group):
                y = y_first + 0.25 * row
                ax.plot([ranks[j], ranks[j], x_end], [0, y, y], **line)
                pad = -0.05 if side == "left" else 0.05
                ax.text(
                    x_end + pad, y, f"{names[j]} ({ranks[j]:.2f})", ha=ha, va="center"
                )
        y_last = y_first + 0.25 * (max(len(left), len(right)) - 1)
        ax.set_xlim(lo - 0.25, max(hi, lo + cd) + 0.25)
        ax.set_ylim(y_last + 0.15, y_cd - 0.3)  # rows go down

        self.cliques_ = [tuple(names[j] for j in clique) for clique in cliques]
        self.clique_lines_ = clique_lines
        self.ax_, self.figure_ = ax, fig
        return self

    @classmethod
    @validate_params(
        {
            "scores": ["array-like"],
            "names": ["array-like", None],
            "greater_is_better": ["boolean"],
            "alpha": ALPHA,
            "ax": AX,
        },
        prefer_skip_nested_validation=True,
    )
    def from_scores(
        cls, scores, *, names=None, greater_is_better=True, alpha=0.05, ax=None
    ):
        """Draw the diagram of methods' scores on several data sets.

        Parameters
        ----------
        scores : array-like of shape (n_datasets, n_methods)
            The score of each method (column) on each data set (row). A
            pandas DataFrame names the methods by its columns.

        names : array-like of shape (n_methods,), default=None
            Name of each method. If None, the columns of a DataFrame,
            otherwise ``"method 0"``, ``"method 1"``, ...

        greater_is_better : bool, default=True
            Whether a higher score is better; False for errors and losses.

        alpha : float, default=0.05
            Significance level of the Nemenyi test, in (0, 1).

        ax : matplotlib Axes, default=None
            Axes to draw on. If None, a new figure.

        Returns
        -------
        display : CriticalDifferenceDisplay
        """
        check_matplotlib(f"{cls.__name__}.from_scores")
        result = friedman_test(scores, names=names, greater_is_better=greater_is_better)
        return cls.from_result(result, alpha=alpha, ax=ax)

    @classmethod
    @validate_params(
        {
            "result": [HasMethods(["critical_difference"])],
            "alpha": ALPHA,
            "ax": AX,
        },
        prefer_skip_nested_validation=True,
    )
    def from_result(cls, result, *, alpha=0.05, ax=None):
        """Draw the diagram of a :func:`friedman_test` result.

        Parameters
        ----------
        result : FriedmanTestResult
            The output of :func:`friedman_test`.

        alpha : float, default=0.05
            Significance level of the Nemenyi test, in (0, 1).

        ax : matplotlib Axes, default=None
            Axes to draw on. If None, a new figure.

        Returns
        -------
        display : CriticalDifferenceDisplay
        """
        check_matplotlib(f"{cls.__name__}.from_result")
        display = cls(
            result.average_ranks,
            result.critical_difference(alpha),
            names=result.names,
        )
        return display.plot(ax=ax)


@dataclass(frozen=True)
class BayesianSignedRankTestResult(_BayesResultMixin):
    """Result of :func:`bayesian_signed_rank_test`.

    Follows baycomp's ``SignedRankTest``: the probabilities of the three
    regions and the posterior sample they come from, with ``decide``,
    ``credible_interval(confidence_level)`` and ``summary`` as in
    :class:`~sklearn_faithful.comparison.PairedBayesTestResult`. The interval
    is of the posterior of the mean difference B - A under the same Dirichlet
    process.

    Attributes
    ----------
    p_worse, p_equivalent, p_better : float
        Posterior probability that "B worse", "equivalent" or "B better" is
        the most probable of the three, as baycomp reports them: the share
        of posterior draws in which ``theta_worse``, ``theta_rope`` or
        ``theta_better`` is the largest (ties shared equally). With
        ``rope=0``, ``p_equivalent`` is 0.
    p_h0 : float
        ``1 - p_better``.
    p_h1 : float
        ``p_better``, the probability that B is better than A.
    rope : float
        Half-width of the region of practical equivalence (0: none).
    prior_strength : float
        Weight of the Dirichlet process's pseudo-observation at 0.
    mean_difference : float
        Mean of ``scores_b - scores_a`` over the data sets.
    n_datasets : int
        Number of data sets.
    n_samples : int
        Number of posterior draws.
    standard_error : float
        The largest Monte-Carlo standard error of the three probabilities,
        ``sqrt(p (1 - p) / n_samples)``.
    differences : ndarray of shape (n_datasets,)
        ``scores_b - scores_a``.
    posterior_samples : ndarray of shape (n_samples, 3)
        Draws of ``(theta_worse, theta_rope, theta_better)``, the posterior
        probability that the Walsh average of two differences falls below
        ``-rope``, within the rope, or above ``rope``; each row sums to 1.
    posterior : object
        The posterior of the mean difference ``sum_i w_i z_i`` (the
        pseudo-observation 0 included), known by one draw per weight vector
        ``w``: ``mean``, ``cdf``, ``ppf`` and ``interval`` from those draws.
    """

    p_worse: float
    p_equivalent: float
    p_better: float
    p_h0: float
    p_h1: float
    rope: float
    prior_strength: float
    mean_difference: float
    n_datasets: int
    n_samples: int
    standard_error: float
    differences: np.ndarray = field(repr=False)
    posterior_samples: np.ndarray = field(repr=False)
    posterior: object = field(repr=False)

    _not_in_dict = ("posterior_samples", "posterior")

    def summary(self):
        """Describe the test in one plain-text paragraph.

        Returns
        -------
        text : str
            The mean difference, the probabilities and the decision at 0.95.
        """
        text = (
            f"Bayesian signed-rank test on {self.n_datasets} data sets: mean B - A "
            f"= {self.mean_difference:+.4f}, 95% credible interval "
            f"{_interval_text(self.credible_interval())}\n"
        )
        if self.rope > 0:
            text += f"rope +/-{self.rope:g}: {self._rope_text()}"
        else:
            text += (
                f"P(B worse) = {self.p_worse:.4f}, P(B better) = {self.p_better:.4f}"
            )
        return text + (
            f"; at 0.95: {self.decide()}\n(Monte Carlo, {self.n_samples} draws, "
            f"s.e. {self.standard_error:.1e})"
        )


def _first_reaching(z, sorted_z, threshold, strict):
    """For each ``z_i``, the first position ``g`` in ``sorted_z`` where the
    floating-point sum ``z_i + sorted_z[g]`` is above ``threshold`` (at or
    above unless ``strict``); ``sorted_z.size`` if none.

    The sums are those a matrix ``z[:, None] + z[None, :]`` holds, rounding
    included, and increase with ``sorted_z``: a ``searchsorted`` of
    ``threshold - z_i`` lands within a step or two of the boundary, and the
    steps are checked on the sums themselves.
    """
    n = sorted_z.size
    reached = np.greater if strict else np.greater_equal
    g = np.searchsorted(sorted_z, threshold - z, side="right" if strict else "left")
    while True:
        left = (g > 0) & reached(z + sorted_z[np.maximum(g - 1, 0)], threshold)
        right = (g < n) & ~reached(z + sorted_z[np.minimum(g, n - 1)], threshold)
        if not (left.any() or right.any()):
            return g
        g = g - left + right


def _walsh_bounds(z, rope):
    """Where the Walsh averages of ``z = (0, d_1, ..., d_n)`` leave the rope.

    baycomp counts ``above[i, j] = H(z_i + z_j - 2 rope)`` and ``below[i, j]
    = H(-z_i - z_j - 2 rope)``, with ``H(x) = 1`` for ``x > 0``, ``1/2`` at
    ``x = 0`` and 0 below, in matrices of shape (n + 1, n + 1): 3 GiB each
    at 20,000 data sets. In the order of the sorted ``z``, row ``i`` of each
    is ones on a run of columns, halves on the next, zeros elsewhere, so four
    positions per row say it all. Returns the sorting order and, for each
    row, ``(equal_a, above_a)``: above the rope from ``above_a`` on, on its
    edge from ``equal_a``, and ``(below_b, equal_b)``: below it before
    ``below_b``, on its edge up to ``equal_b``.
    """
    order = np.argsort(z, kind="stable")
    sorted_z = z[order]
    bounds = [
        _first_reaching(z, sorted_z, 2 * rope, strict=False),
        _first_reaching(z, sorted_z, 2 * rope, strict=True),
        _first_reaching(z, sorted_z, -2 * rope, strict=False),
        _first_reaching(z, sorted_z, -2 * rope, strict=True),
    ]
    return order, bounds


def _walsh_masses(w, order, bounds):
    """``(w^T below w, w^T above w)`` for each row of draws ``w`` (c, n + 1).

    With ``C`` the cumulative sums of ``w`` in sorted order, a row's mass
    above the rope is ``C[end] - C[above_a] + (C[above_a] - C[equal_a]) / 2``
    and below it ``C[below_b] + (C[equal_b] - C[below_b]) / 2``: O(n) per
    draw and memory, not O(n^2).
    """
    equal_a, above_a, below_b, equal_b = bounds
    cumulative = np.zeros((w.shape[0], w.shape[1] + 1))
    np.cumsum(w[:, order], axis=1, out=cumulative[:, 1:])
    total = cumulative[:, -1:]
    row_above = total - cumulative[:, above_a]
    row_above += 0.5 * (cumulative[:, above_a] - cumulative[:, equal_a])
    row_below = cumulative[:, below_b]
    row_below += 0.5 * (cumulative[:, equal_b] - cumulative[:, below_b])
    return np.sum(row_below * w, axis=1), np.sum(row_above * w, axis=1)


@validate_params(
    {
        "scores_a": ["array-like"],
        "scores_b": ["array-like"],
        "rope": ROPE,
        "prior_strength": [Interval(Real, 0, None, closed="neither")],
        "n_samples": [Interval(Integral, 1, None, closed="left")],
        "random_state": RANDOM_STATE,
    },
    prefer_skip_nested_validation=True,
)
def bayesian_signed_rank_test(
    scores_a,
    scores_b,
    *,
    rope=0.0,
    prior_strength=0.5,
    n_samples=50_000,
    random_state=None,
):
    """Bayesian signed-rank test of two methods over several data sets.

    The Bayesian counterpart of Wilcoxon's signed-rank test (Benavoli et al.
    2014): a Dirichlet process posterior of the distribution of the
    differences ``d = scores_b - scores_a``, one per data set, and from it
    the probability that B is better, equivalent (within ``rope``) or
    worse. It answers the question the p-value of Wilcoxon's test does not:
    how probable each outcome is.

    Parameters
    ----------
    scores_a : array-like of shape (n_datasets,)
        Score of method A (the reference) on each data set, such as its mean
        cross-validated accuracy; higher is better.

    scores_b : array-like of shape (n_datasets,)
        Score of method B on the same data sets.

    rope : float, default=0.0
        Half-width of the region of practical equivalence, on the scores'
        scale: differences within ``[-rope, rope]`` count as equivalent.

    prior_strength : float, default=0.5
        Weight ``s`` of the Dirichlet process's prior, a pseudo-observation
        at 0 (no difference); 0.5 as in baycomp.

    n_samples : int, default=50_000
        Number of posterior draws; the Monte-Carlo standard error of each
        probability is at most ``0.5 / sqrt(n_samples)``.

    random_state : int, RandomState instance, Generator or None, default=None
        Seed of the posterior draws. Pass an int for reproducible results.

    Returns
    -------
    result : BayesianSignedRankTestResult
        ``p_worse``, ``p_equivalent``, ``p_better``, the posterior samples,
        ``decide(threshold)`` and ``summary()``.

    See Also
    --------
    friedman_test : More than two methods over several data sets.
    scipy.stats.wilcoxon : The frequentist signed-rank test.

    Notes
    -----
    The posterior of the distribution of the differences is a Dirichlet
    process with base measure a point mass ``s delta_0`` and the ``n``
    observed differences; a draw puts weights ``(w_0, w_1, ..., w_n) ~
    Dirichlet(s, 1, ..., 1)`` on ``z = (0, d_1, ..., d_n)``. For each draw::

        theta_better = sum_i sum_j w_i w_j H(z_i + z_j - 2 rope)
        theta_worse  = sum_i sum_j w_i w_j H(-z_i - z_j - 2 rope)
        theta_rope   = 1 - theta_better - theta_worse

    the posterior probability that the average of two differences (a Walsh
    average, whose signs Wilcoxon's statistic counts) lies above the rope,
    below it, or within it; ``H(x)`` is 1 for ``x > 0``, 1/2 at 0, else 0.
    ``p_better`` is the share of draws in which ``theta_better`` is the
    largest of the three, and so on, as in baycomp's ``SignedRankTest``;
    draws where two are equal (all differences 0, for instance) count half
    for each.

    References
    ----------
    .. [1] A. Benavoli, G. Corani, F. Mangili, M. Zaffalon and F. Ruggeri,
       "A Bayesian Wilcoxon signed-rank test based on the Dirichlet
       process", Proceedings of the 31st International Conference on
       Machine Learning (ICML), PMLR 32(2), 1026-1034, 2014.
    .. [2] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a
       change: a tutorial for comparing multiple classifiers through
       Bayesian analysis", Journal of Machine Learning Research 18(77),
       1-36, 2017.

    Examples
    --------
    >>> from sklearn_faithful.multi_dataset import bayesian_signed_rank_test
    >>> a = [0.81, 0.72, 0.90, 0.65, 0.88, 0.77, 0.93, 0.70]
    >>> b = [0.84, 0.77, 0.93, 0.70, 0.89, 0.80, 0.92, 0.75]
    >>> res = bayesian_signed_rank_test(a, b, rope=0.01, random_state=0)
    >>> round(res.p_better, 3), res.decide()
    (0.998, 'B better')
    >>> res = bayesian_signed_rank_test(a, b, rope=0.03, random_state=0)
    >>> round(res.p_equivalent, 2), round(res.p_better, 2), res.decide()
    (0.51, 0.49, 'undecided')
    """
    a = _check_score_vector(scores_a, "scores_a")
    b = _check_score_vector(scores_b, "scores_b")
    if a.shape != b.shape:
        raise ValueError(
            f"scores_a has {a.shape[0]} scores but scores_b has {b.shape[0]}; "
            "they must be of the same data sets."
        )
    differences = b - a
    rope = float(rope)
    z = np.concatenate(([0.0], differences))  # z_0 = 0, the pseudo-observation
    order, bounds = _walsh_bounds(z, rope)
    alpha = np.ones(differences.shape[0] + 1)
    alpha[0] = prior_strength  # weight of the pseudo-observation at 0
    rng = _generator(random_state)
    theta = np.empty((n_samples, 3))
    mean_difference = np.empty(n_samples)
    chunk = max(1, _CHUNK_ENTRIES // alpha.shape[0])
    for start in range(0, n_samples, chunk):
        stop = min(start + chunk, n_samples)
        w = rng.dirichlet(alpha, size=stop - start)
        # theta = w^T H w for each draw w, H below or above the rope
        theta[start:stop, 0], theta[start:stop, 2] = _walsh_masses(w, order, bounds)
        # the mean of the drawn distribution of differences, sum_i w_i z_i
        mean_difference[start:stop] = w @ z
    if rope > 0:
        theta[:, 1] = np.clip(1.0 - theta[:, 0] - theta[:, 2], 0.0, 1.0)
    else:
        theta[:, 1] = 0.0
    # share of draws in which each region is the most probable, ties split
    winners = theta == theta.max(axis=1, keepdims=True)
    probs = (winners / winners.sum(axis=1, keepdims=True)).mean(axis=0)
    p_worse, p_equivalent, p_better = (float(p) for p in probs)
    return BayesianSignedRankTestResult(
        p_worse=p_worse,
        p_equivalent=p_equivalent,
        p_better=p_better,
        p_h0=1.0 - p_better,
        p_h1=p_better,
        rope=rope,
        prior_strength=float(prior_strength),
        mean_difference=float(differences.mean()),
        n_datasets=int(differences.shape[0]),
        n_samples=int(n_samples),
        standard_error=float(np.sqrt(np.max(probs * (1 - probs)) / n_samples)),
        differences=differences,
        posterior_samples=theta,
        posterior=_SampledPosterior(mean_difference),
    )

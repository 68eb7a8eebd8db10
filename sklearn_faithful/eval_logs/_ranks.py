"""Where does each run rank, and how sure is that? Confidence sets of ranks.

Mogstad, Romano, Shaikh and Wilhelm's (2024) sets: a run's rank is 1 plus the
number of runs of a higher mean; the runs significantly better and worse than
it, by simultaneous intervals of the paired differences of means, bound it.
The critical values come from the paired bootstrap of all runs' means at once
(whole items, or whole clusters), drawn by the holdout room's engine,
each resample studentized by its own standard errors (the bootstrap-t;
``utils/_rank_sets.py`` builds the sets; formulas page, "Rank sets").
"""

import functools
from dataclasses import dataclass

import numpy as np

from ..holdout._fast_metrics import (
    Resampler,
    _chunks,
    _product,
    cluster_sums,
    run_resamples,
)
from ..holdout._resampling import _RESAMPLING_CONSTRAINTS, _check_groups, _clusters_text
from ..utils._param_validation import HasMethods, validate_params
from ..utils._random import _generator
from ..utils._rank_sets import rank_sets
from ..utils._results import _level_text, _ResultMixin, _text_table
from ..utils._validation import check_matplotlib
from ._compare import _centred, _runs_matrix
from ._join import RunTable


def _sums_block(rng, size, *, resampler):
    """The sums of every unit feature on ``size`` bootstrap resamples."""
    return np.concatenate([s for (s,) in resampler.bootstrap(rng, size)])


# Distinct rows of scores are drawn as cells only when they are at most
# n_items / this many; otherwise the items are drawn by index.
_MAX_CELL_SHARE = 4


def _distinct_rows(scores, most):
    """The distinct rows of ``scores`` in lexicographic order (as
    ``np.unique(scores, axis=0)``) and their counts, or None when there are
    more than ``most``.

    Each column is coded by one sort and the rows by the combined codes
    ``c_1 k_2 + c_2 ...``, recoded whenever the codes could overflow: the
    order of the codes is that of the rows, and it stops at the first
    columns that already hold more than ``most`` rows.
    """
    code, span = np.zeros(scores.shape[0], dtype=np.int64), 1
    for column in scores.T:
        values, c = np.unique(column, return_inverse=True)
        if span * values.size >= 2**62:
            cells, code = np.unique(code, return_inverse=True)
            span = cells.size
        code, span = code * values.size + c.ravel(), span * values.size
        if min(span, values.size) > most:
            return None
    _, first, counts = np.unique(code, return_index=True, return_counts=True)
    if first.size > most:
        return None
    return scores[first], counts


def _binary_exponent(values):
    """The smallest ``p >= 0`` for which every ``values * 2**p`` is an integer."""
    mantissa, exponent = np.frexp(values[values != 0])
    if mantissa.size == 0:
        return 0
    whole = np.ldexp(mantissa, 53).astype(np.int64)  # odd * 2**zeros, exactly
    zeros = np.log2(whole & -whole).astype(np.int64)
    return max(0, int((53 - zeros - exponent).max()))


def _rank_resampler(scores, groups):
    """A :class:`Resampler` of the features of every run's mean and of the
    standard error of every pair's difference, one matrix for all.

    A unit (an item, or a cluster: ``cluster_sums``) has the sums ``S`` of
    every run's scores, its number of items ``n``, the residuals ``e = S -
    m n`` from the runs' means ``m``, and ``e n``, ``n^2`` and every
    product ``e_a e_b`` (``a <= b``): a resample's sums of these give its
    means and its cluster-robust standard errors (:func:`_pair_se`).
    Without clusters the units are the distinct rows of scores (cells of
    identical items, drawn multinomially: equal in distribution to drawing
    the items) when they are few; the items themselves when the rows are
    mostly distinct (a multinomial over about n cells draws 10x slower than
    the indices: benchmarks/bench_leaderboards.py). The features are
    :class:`_PairFeatures`, which form the products in each product of
    draws.
    """
    n_items = scores.shape[0]
    counts = None
    if groups is None:
        cells = _distinct_rows(scores, n_items // _MAX_CELL_SHARE)
        sums, counts = (scores, None) if cells is None else cells
        sizes = None
    else:
        (both,) = cluster_sums([np.column_stack([scores, np.ones(n_items)])], *groups)
        both = np.asarray(both)
        sums, sizes = both[:, :-1], both[:, -1]
    n_drawn = sums.shape[0] if counts is None else n_items
    features = _PairFeatures(sums, sizes, scores.mean(axis=0), n_drawn)
    return _RankResampler([features], counts)


# The products of unit features (products of residuals, or of scores) of all
# units are stored up to this many bytes; beyond, each product of draws forms
# them a block of units at a time, so memory does not grow with the units.
_STORED_CROSS_BYTES = 2**26
# Entries of the block of products formed at a time (16 MiB in float32).
_CROSS_ENTRIES = 2**22
# Bytes of the draws of one chunk of resamples, and of the integer draws made
# at a time to fill it.
_DRAWS_BYTES = 2**26
_INTEGER_DRAWS_BYTES = 2**23
# float32 sums are exact for integers below this
_FLOAT32_EXACT = 2**24


class _RankResampler(Resampler):
    """The :class:`Resampler` of :func:`_rank_resampler`: the same draws,
    made a few rows at a time into the dtype the features multiply in."""

    def bootstrap(self, rng, n_resamples):
        (features,) = self.features
        dtype = features.dtype
        rows = max(1, _DRAWS_BYTES // (dtype.itemsize * self.n_units))
        step = max(1, _INTEGER_DRAWS_BYTES // (8 * self.n_units))
        for c in _chunks(n_resamples, rows):
            draws = np.empty((c, self.n_units), dtype=dtype)
            for start in range(0, c, step):
                stop = min(start + step, c)
                draws[start:stop] = self._draws(rng, stop - start)
            yield [_product(draws, features)]


class _PairFeatures:
    """The unit features of :func:`_rank_resampler`, with the products
    formed by the product of draws rather than stored whole.

    The columns of ``draws @ self`` are the sums of ``S`` (the units' sums
    of scores), ``n`` (their items), ``x``, ``x n``, ``n^2`` and every
    ``x_a x_b`` (``a <= b``), with ``x = S - m n`` for the shift ``m``
    (``shift``), the runs' means: the standard errors of :func:`_pair_se`
    do not depend on it, those of ``_suite_pair_se`` take it.
    When the scores are integers times a power of 2 and every sum is below
    2^24 in those units (0/1 scores, ratings), ``x = S`` and the products
    are summed in float32, exactly, and at twice the speed; otherwise in
    float64, from the residuals. Without clusters (``sizes`` None) the
    columns of ``n`` are the draws' totals. The products ``x_a x_b`` are
    held when they fit :data:`_STORED_CROSS_BYTES`, else formed a block of
    units at a time in each product (:data:`_CROSS_ENTRIES`).
    """

    __array_ufunc__ = None  # ndarray @ self calls self.__rmatmul__

    def __init__(self, sums, sizes, means, n_drawn):
        n_units, k = sums.shape
        self.k, self.sums, self.sizes = k, sums, sizes
        self.upper = np.triu_indices(k)
        self.shape = (n_units, 3 * k + 2 + self.upper[0].size)
        ones = np.ones(n_units) if sizes is None else sizes
        shift = self._exact_shift(sums, ones, n_drawn)
        if shift is None:  # float64, the residuals from the means
            self.dtype, self.scale = np.dtype(np.float64), 1.0
            self.shift = means
            x = sums - means * ones[:, None]
        else:
            self.dtype, self.scale = np.dtype(np.float32), np.ldexp(1.0, shift)
            self.shift = np.zeros(k)
            x = sums * self.scale
        # the columns formed from each unit, then the products
        own = [x] if sizes is None else [x, sizes[:, None], x * sizes[:, None]]
        own.append(sizes[:, None] ** 2 if sizes is not None else x[:, :0])
        # float64: the sums of scores too, by the same product
        self.offset = k if shift is None else 0
        own = [sums][: self.offset] + own
        self.x = x.astype(self.dtype)
        self.x_by_run = np.ascontiguousarray(self.x.T)
        self.own = np.column_stack(own).astype(self.dtype)
        self.stored = None
        if self.dtype.itemsize * n_units * self.upper[0].size <= _STORED_CROSS_BYTES:
            self.stored = self._cross(self.x_by_run)

    @staticmethod
    def _exact_shift(sums, sizes, n_drawn):
        """``p`` such that ``sums * 2**p`` and every sum of their products
        are integers below 2^24 (float32 sums them exactly), or None."""
        if sums.size == 0 or not np.isfinite(sums).all():
            return None
        shift = _binary_exponent(sums)
        if shift > 52:
            return None
        largest = max(np.ldexp(np.abs(sums).max(), shift), sizes.max(), 1.0)
        return shift if n_drawn * largest**2 < _FLOAT32_EXACT else None

    def _cross(self, x_by_run):
        """Every product ``x_a x_b`` (``a <= b``) of the units, a row per
        pair (in the order of ``upper``) from a row per run: each row is
        written whole, several times faster than the columns of units."""
        k = self.k
        out = np.empty((self.upper[0].size, x_by_run.shape[1]), dtype=self.dtype)
        start = 0
        for a in range(k):  # the pairs (a, a), (a, a + 1), ...
            np.multiply(x_by_run[a:], x_by_run[a], out=out[start : start + k - a])
            start += k - a
        return out

    @property
    def base(self):
        """The columns before the products: ``S``, ``n``, ``x``, ``x n``, ``n^2``."""
        sizes = np.ones(self.sums.shape[0]) if self.sizes is None else self.sizes
        x = self.x.astype(np.float64) / self.scale
        return np.column_stack([self.sums, sizes, x, x * sizes[:, None], sizes**2])

    def __rmatmul__(self, draws):
        draws = np.asarray(draws)
        if draws.ndim == 1:  # one vector of weights
            return self.__rmatmul__(draws[None])[0]
        draws = draws.astype(self.dtype, copy=False)
        k, n_units = self.k, self.shape[0]
        if self.stored is not None:
            cross = draws @ self.stored.T
        else:
            cross = np.zeros((draws.shape[0], self.upper[0].size), dtype=self.dtype)
            step = max(1, _CROSS_ENTRIES // self.upper[0].size)
            for start in range(0, n_units, step):
                block = self._cross(self.x_by_run[:, start : start + step])
                cross += draws[:, start : start + step] @ block.T
        own = draws @ self.own
        sums, own = own[:, : self.offset], own[:, self.offset :]
        c = draws.shape[0]
        out = np.empty((c, self.shape[1]))
        scale = self.scale
        x_sums = own[:, :k]
        if self.sizes is None:
            total = draws.sum(axis=1, dtype=np.float64)
            x_n, size2 = x_sums, total
        else:
            total, x_n, size2 = own[:, k], own[:, k + 1 : 2 * k + 1], own[:, 2 * k + 1]
        # the sums of scores: of the draws times S, or x scaled back
        out[:, :k] = sums if self.offset else x_sums / scale
        out[:, k] = total
        out[:, k + 1 : 2 * k + 1] = x_sums / scale
        out[:, 2 * k + 1 : 3 * k + 1] = x_n / scale
        out[:, 3 * k + 1] = size2
        out[:, 3 * k + 2 :] = cross / scale**2
        return out


def _pair_se(sums, k):
    """From sums of the unit features (rows of resamples), ``se_of(a)``: the
    standard errors of the differences of means ``(a, b)``, (rows, K).

    A pair's units have the residuals ``E = e_a - e_b`` and the resample's
    mean residual ``delta = sum(E) / N``, ``N = sum(n)``; its variance is
    ``sum((E - delta n)^2) / N^2 = (sum(E^2) - 2 delta sum(E n) + delta^2
    sum(n^2)) / N^2`` (eq. RK-1, the cluster-robust variance of a mean).
    """
    size, resid = sums[:, k], sums[:, k + 1 : 2 * k + 1]
    resid_n, size2 = sums[:, 2 * k + 1 : 3 * k + 1], sums[:, 3 * k + 1]
    upper = np.triu_indices(k)
    column = np.empty((k, k), dtype=int)
    column[upper] = column[upper[::-1]] = 3 * k + 2 + np.arange(upper[0].size)
    square = sums[:, column[np.arange(k), np.arange(k)]]

    def se_of(a):
        delta = (resid[:, [a]] - resid) / size[:, None]
        ee = square[:, [a]] - 2 * sums[:, column[a]] + square
        var = ee - 2 * delta * (resid_n[:, [a]] - resid_n) + delta**2 * size2[:, None]
        return np.sqrt(np.maximum(var, 0.0)) / size[:, None]

    return se_of


def _rank_bootstrap(scores, groups, random_state, n_resamples, n_jobs=None, verbose=0):
    """The runs' means and their bootstrap: ``(means, boot, se, boot_se)``.

    ``se`` (K, K) holds the cluster-robust standard errors of the pairs'
    differences, ``boot_se(a)`` each resample's own (the bootstrap-t of
    :func:`~sklearn_faithful.utils._rank_sets.rank_sets`).
    """
    k = scores.shape[1]
    resampler = _rank_resampler(scores, groups)
    (totals,) = resampler.totals()
    sums = run_resamples(
        functools.partial(_sums_block, resampler=resampler),
        _generator(random_state),
        n_resamples,
        n_jobs=n_jobs,
        verbose=verbose,
        name="rank_intervals",
    )
    se_of = _pair_se(totals, k)
    se = np.concatenate([se_of(a) for a in range(k)])
    means = totals[0, :k] / totals[0, k]
    boot = sums[:, :k] / sums[:, [k]]
    return means, boot, se, _pair_se(sums, k)


@dataclass(frozen=True)
class RankIntervalsResult(_ResultMixin):
    """Result of :func:`rank_intervals`: each run's rank and its confidence sets.

    A table of runs like :class:`RunComparisonResult`'s ``runs``, with
    ``summary()``, ``to_dict()`` and ``plot()``.

    Attributes
    ----------
    names : list of str
        The runs, in the order given.
    ranks : list of dict
        Per run, in the order given: ``run``, ``mean`` (of its item
        scores), ``rank`` (1 plus the number of runs of a higher mean: the
        highest mean ranks 1, tied means share the better rank), the
        marginal set ``low`` to ``high`` (contains the run's true rank with
        probability ``confidence_level``) and the simultaneous set
        ``simultaneous_low`` to ``simultaneous_high`` (all runs' sets contain
        their true ranks together with that probability).
    confidence_level : float
        Level of the sets.
    n_items : int
        Items every run scored.
    n_clusters : int or None
        Clusters resampled whole, or None.
    n_resamples : int
        Bootstrap resamples of the critical values.
    """

    names: list
    ranks: list
    confidence_level: float
    n_items: int
    n_clusters: int | None
    n_resamples: int

    def summary(self):
        """Describe the ranks: a table of the runs, best first.

        Returns
        -------
        text : str
        """
        level = _level_text(self.confidence_level)
        rows = sorted(self.ranks, key=lambda r: (r["rank"], -r["mean"]))
        clusters = _clusters_text(self.n_clusters)
        lines = [
            f"ranks of {len(self.names)} runs on {self.n_items} items{clusters} "
            f"(1 = highest mean); {level} rank sets, marginal (each run's) and "
            f"simultaneous (all runs' together); {self.n_resamples} resamples",
            "",
        ]
        lines += _text_table(
            {
                "run": [r["run"] for r in rows],
                "mean": [r["mean"] for r in rows],
                "rank": [str(r["rank"]) for r in rows],
                "marginal": [f"[{r['low']}, {r['high']}]" for r in rows],
                "simultaneous": [
                    f"[{r['simultaneous_low']}, {r['simultaneous_high']}]" for r in rows
                ],
            }
        )
        return "\n".join(lines)

    @validate_params(
        {"ax": [HasMethods(["plot", "legend", "set_yticks"]), None]},
        prefer_skip_nested_validation=True,
    )
    def plot(self, ax=None):
        """Forest plot of the rank sets: each run's rank, best at the top.

        The simultaneous set is the thin line, the marginal set the thick
        one, the observed rank the dot; a set of ranks ``low`` to ``high``
        spans a little beyond them, so that a set of one rank shows.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None creates a figure.

        Returns
        -------
        ax : matplotlib Axes
        """
        plt = check_matplotlib("RankIntervalsResult.plot")
        rows = sorted(self.ranks, key=lambda r: (r["rank"], -r["mean"]))
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 1.2 + 0.4 * len(rows)))
        y = np.arange(len(rows))[::-1]
        level = _level_text(self.confidence_level)
        # a set of ranks low..high covers [low - 0.4, high + 0.4]: a set of
        # one rank shows as a bar too
        for yi, r in zip(y, rows, strict=True):
            (simul,) = ax.plot(
                [r["simultaneous_low"] - 0.4, r["simultaneous_high"] + 0.4],
                [yi, yi],
                color="0.6",
                lw=1.5,
            )
            (marg,) = ax.plot(
                [r["low"] - 0.3, r["high"] + 0.3], [yi, yi], color="C0", lw=5
            )
            (dot,) = ax.plot([r["rank"]], [yi], "o", color="k")
        ax.legend(
            [dot, marg, simul],
            ["observed rank", f"{level} marginal set", f"{level} simultaneous sets"],
            loc="upper left",
            bbox_to_anchor=(1.01, 1),
            frameon=False,
        )
        ax.set_yticks(y)
        ax.set_yticklabels([r["run"] for r in rows])
        ax.set_xticks(np.arange(1, len(rows) + 1))
        ax.set_xlim(0.5, len(rows) + 0.5)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel("rank (1 = highest mean)")
        return ax


@validate_params(
    {
        "runs": [dict, RunTable],
        "groups": ["array-like", None],
        **{
            key: _RESAMPLING_CONSTRAINTS[key]
            for key in (
                "confidence_level",
                "n_resamples",
                "random_state",
                "n_jobs",
                "verbose",
            )
        },
    },
    prefer_skip_nested_validation=True,
)
def rank_intervals(
    runs,
    *,
    groups=None,
    confidence_level=0.95,
    n_resamples=9999,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Rank runs scored on the same items, with confidence sets of the ranks.

    Gives each run's rank by its mean score (1 is the highest), a marginal
    confidence set of that rank, and simultaneous sets that hold for all
    runs together (Mogstad, Romano, Shaikh and Wilhelm, 2024).

    Parameters
    ----------
    runs : RunTable or dict of str to array-like
        The item scores: a :class:`RunTable` from :func:`join_runs` (the
        runs joined by id, with their clusters), or, by run name, arrays of
        shape (n_items,) or (n_items, n_repeats) whose rows are the same
        items in the same order (the repeats, samples or epochs of an item,
        are averaged into its score). Two runs or more.
    groups : array-like of shape (n_items,), default=None
        Each item's cluster (passage, prompt, video) when ``runs`` is a
        dict: the bootstrap then draws whole clusters. A :class:`RunTable`
        carries its own.
    confidence_level : float, default=0.95
        Level of the sets: each marginal set holds its run's true rank, and
        the simultaneous sets all true ranks together, with this probability.
    n_resamples : int, default=9999
        Bootstrap resamples of all runs' means, drawn once for every set.
    random_state : int, RandomState instance, Generator or None, default=None
        Seed of the resamples; the same seed gives the same result with any
        ``n_jobs``.
    n_jobs : int, default=None
        Jobs that draw the resamples; None means 1 unless in a
        :func:`joblib.parallel_config` context, -1 all processors.
    verbose : int, default=0
        Print the progress of the resamples on stderr.

    Returns
    -------
    result : RankIntervalsResult
        ``ranks`` (per run: ``rank``, ``low``, ``high``,
        ``simultaneous_low``, ``simultaneous_high``), ``summary()``,
        ``to_dict()`` and ``plot()``.

    See Also
    --------
    compare_runs : Each run's mean, each pair's test, the runs tied with
        the best.
    join_runs : Join per-item logs by id, with clusters and repeats.

    Notes
    -----
    A run's rank is ``1 + #{k : mean_k > mean_j}``: the highest mean ranks 1,
    and tied means share the better rank, in the data as in the truth. Rank
    1 is the highest mean; for scores where lower is better (a loss, an
    error rate) give the negated scores.

    Every pair's difference of means ``d_jk`` gets a lower bound ``d_jk - c
    s_jk``, with ``s_jk`` the cluster-robust standard error of the
    difference and ``c`` the ``confidence_level`` quantile of the bootstrap
    maximum of ``(d*_jk - d_jk) / s*_jk`` over the pairs of the family, both
    orders, ``s*_jk`` each resample's own standard error (the studentized
    bootstrap, bootstrap-t: with 40 clusters and equal runs a fixed ``s_jk``
    covered only 87%); a
    run is significantly better than another when the bound exceeds 0, and
    the critical value is recomputed over the pairs left until no new one is
    (the step-down). Run ``j``'s set is ``[1 + N-_j, K - N+_j]``, with
    ``N-_j`` the runs significantly better than it and ``N+_j`` those
    significantly worse. The marginal set of ``j`` takes the family of its
    ``K - 1`` pairs; the simultaneous sets the family of all ``K (K - 1) /
    2``, so they are wider, and cover all true ranks at once. The bootstrap
    draws items (with ``groups``, whole clusters), all runs' scores of a unit
    together, so the differences keep their pairing (formulas page, "Rank
    sets"; user guide, "Ranks", with the simulated coverage).

    References
    ----------
    .. [1] M. Mogstad, J. P. Romano, A. M. Shaikh and D. Wilhelm, "Inference
       for ranks with applications to mobility across neighbourhoods and
       academic achievement across countries", Review of Economic Studies
       91(1), 476-518, 2024.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.eval_logs import rank_intervals
    >>> rng = np.random.default_rng(0)
    >>> runs = {name: (rng.random(500) < p).astype(int)
    ...         for name, p in [("A", 0.6), ("B", 0.7), ("C", 0.72), ("D", 0.9)]}
    >>> res = rank_intervals(runs, n_resamples=999, random_state=0)
    >>> [(r["run"], r["rank"], r["low"], r["high"]) for r in res.ranks]
    [('A', 4, 4, 4), ('B', 3, 2, 3), ('C', 2, 2, 3), ('D', 1, 1, 1)]
    """
    names, scores, groups = _runs_matrix(runs, groups)
    n_items, n_runs = scores.shape
    if n_runs < 2:
        raise ValueError(
            f"runs holds {n_runs} run ({names[0]!r}); ranks need at least 2 runs."
        )
    if n_items < 2:
        raise ValueError(
            f"runs[{names[0]!r}] scores {n_items} item(s); resampling needs at least 2."
        )
    checked = _check_groups(groups, n_items, stacklevel=4)
    exponent, centre, scores = _centred(scores)
    means, boot, se, boot_se = _rank_bootstrap(
        scores, checked, random_state, n_resamples, n_jobs, verbose
    )
    rank, (low, high), (simul_low, simul_high) = rank_sets(
        means, boot, se, boot_se, confidence_level=confidence_level
    )
    rows = [
        {
            "run": name,
            "mean": float(np.ldexp(means[j] + centre, exponent)),
            "rank": int(rank[j]),
            "low": int(low[j]),
            "high": int(high[j]),
            "simultaneous_low": int(simul_low[j]),
            "simultaneous_high": int(simul_high[j]),
        }
        for j, name in enumerate(names)
    ]
    return RankIntervalsResult(
        names=names,
        ranks=rows,
        confidence_level=float(confidence_level),
        n_items=int(n_items),
        n_clusters=None if checked is None else checked[1],
        n_resamples=int(n_resamples),
    )

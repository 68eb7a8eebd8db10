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

from ..holdout._fast_metrics import Resampler, cluster_sums, run_resamples
from ..holdout._resampling import _RESAMPLING_CONSTRAINTS, _check_groups
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
    the indices: benchmarks/bench_leaderboards.py).
    """
    n_items, k = scores.shape
    means = scores.mean(axis=0)
    counts = None
    if groups is None:
        sums, counts = np.unique(scores, axis=0, return_counts=True)
        if sums.shape[0] > n_items // _MAX_CELL_SHARE:
            sums, counts = scores, None
        sizes = np.ones(sums.shape[0])
    else:
        (both,) = cluster_sums([np.column_stack([scores, np.ones(n_items)])], *groups)
        both = np.asarray(both)
        sums, sizes = both[:, :-1], both[:, -1]
    e = sums - means * sizes[:, None]
    base = np.column_stack([sums, sizes, e, e * sizes[:, None], sizes**2])
    upper = np.triu_indices(k)
    if 8 * e.shape[0] * upper[0].size <= _STORED_CROSS_BYTES:
        # small enough to hold: one matrix product per chunk, the fastest
        features = np.column_stack([base, e[:, upper[0]] * e[:, upper[1]]])
        return Resampler([features], counts)
    return Resampler([_PairFeatures(base, e)], counts)


# The products of residuals e_a e_b of all units are stored up to this many
# bytes; beyond, each product of draws forms them a block at a time
# (_PairFeatures): about 2x the time, memory independent of the units.
_STORED_CROSS_BYTES = 2**27
# Draws times units times runs held at once by a product of residuals (8 MiB).
_CROSS_ENTRIES = 2**20


class _PairFeatures:
    """The unit features of :func:`_rank_resampler`, with the products of
    residuals formed by each product rather than stored.

    The columns are ``base`` (sums, size, residuals ``e``, ``e n``, ``n^2``)
    and every ``e_a e_b`` (``a <= b``); ``draws @ self`` gives the first by
    one matrix product and the others, ``sum_u w_ru e_ua e_ub``, a block of
    units at a time, so memory does not grow as ``n_units K^2``.
    """

    __array_ufunc__ = None  # ndarray @ self calls self.__rmatmul__

    def __init__(self, base, e):
        self.base, self.e = base, e
        self.upper = np.triu_indices(e.shape[1])
        self.shape = (base.shape[0], base.shape[1] + self.upper[0].size)

    def __rmatmul__(self, draws):
        draws = np.asarray(draws, dtype=np.float64)
        if draws.ndim == 1:  # one vector of weights
            return self.__rmatmul__(draws[None])[0]
        c, (n, k) = draws.shape[0], self.e.shape
        cross = np.zeros((c, k, k))
        step = max(1, _CROSS_ENTRIES // max(c * k, 1))
        for start in range(0, n, step):
            e = self.e[start : start + step]
            weighted = draws[:, start : start + step, None] * e[None]  # (c, u, K)
            cross += weighted.transpose(0, 2, 1) @ e
        return np.hstack([draws @ self.base, cross[:, self.upper[0], self.upper[1]]])


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
        clusters = (
            f" in {self.n_clusters} clusters" if self.n_clusters is not None else ""
        )
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

"""Where does each run rank, and how sure is that? Confidence sets of ranks.

Mogstad, Romano, Shaikh and Wilhelm's (2024) sets: a run's rank is 1 plus the
number of runs of a higher mean; the runs significantly better and worse than
it, by simultaneous intervals of the paired differences of means, bound it.
The critical values come from the paired bootstrap of all runs' means at once
(whole items, or whole clusters), drawn by the holdout room's engine
(formulas page, "Rank sets").
"""

import functools
from dataclasses import dataclass

import numpy as np

from ..holdout._fast_metrics import Resampler, cluster_sums, run_resamples
from ..holdout._resampling import _RESAMPLING_CONSTRAINTS, _check_groups
from ..utils._compat import HasMethods, validate_params
from ..utils._random import _generator
from ..utils._results import _level_text, _ResultMixin, _text_table
from ..utils._validation import check_matplotlib
from ._compare import _centred, _runs_matrix
from ._join import RunTable


def _means_block(rng, size, *, resampler):
    """The means of every run on ``size`` bootstrap resamples, (size, n_runs).

    The features are each unit's sums of every run's scores and its number
    of items (last column): a mean is ``sum(scores) / n_items``.
    """
    return np.concatenate(
        [s[:, :-1] / s[:, -1:] for (s,) in resampler.bootstrap(rng, size)]
    )


def _rank_resampler(scores, groups):
    """A :class:`Resampler` of every run's sums, one feature matrix for all.

    Without clusters the units are the distinct rows of scores (cells of
    identical items, drawn multinomially: equal in distribution to drawing
    the items); with clusters, each cluster's sums (``cluster_sums``).
    """
    n = scores.shape[0]
    if groups is None:
        rows, counts = np.unique(scores, axis=0, return_counts=True)
        return Resampler([np.column_stack([rows, np.ones(rows.shape[0])])], counts)
    features = cluster_sums([np.column_stack([scores, np.ones(n)])], *groups)
    return Resampler([np.asarray(f) for f in features])


def _studentized(means, boot, sd, a):
    """Run ``a``'s pairs ``(a, b)``: the bootstrap deviations of ``m_a - m_b``
    over their standard errors ``sd[a, b]``, (n_resamples, n_runs).

    A pair of no spread (two runs equal on every unit) deviates by 0.
    """
    deviation = (boot[:, [a]] - boot) - (means[a] - means)
    t = np.zeros_like(deviation)
    np.divide(deviation, sd[a], out=t, where=sd[a] > 0)
    return t


def _stepdown(t_of, estimate, sd, active, level):
    """The pairs of a family found significantly positive, by the step-down max-t.

    The family is in blocks: ``t_of(i)`` gives block ``i``'s studentized
    bootstrap deviations (n_resamples, P_i), and ``estimate[i]``, ``sd[i]``
    and ``active[i]`` its differences, standard errors and the pairs in the
    family (both orders of a pair: the family is two-sided). The critical
    value ``c`` is the ``level`` quantile of the bootstrap maximum over the
    pairs not yet rejected; a pair whose lower bound ``estimate - c sd``
    exceeds 0 is rejected, and ``c`` is recomputed over the rest until
    nothing new is rejected (Romano and Wolf's step-down; Mogstad et al.,
    Algorithm 3.1 and Remark 3.3). Returns the rejected pairs, per block.
    """
    active = [m.copy() for m in active]
    rejected = [np.zeros_like(m) for m in active]
    while any(m.any() for m in active):
        largest = np.full(t_of(0).shape[0], -np.inf)
        for i, m in enumerate(active):
            if m.any():
                largest = np.maximum(largest, t_of(i)[:, m].max(axis=1))
        # a critical value below 0 would reject differences of the wrong sign
        critical = max(float(np.quantile(largest, level)), 0.0)
        new = [
            m & (e - critical * s > 0)
            for m, e, s in zip(active, estimate, sd, strict=True)
        ]
        if not any(n.any() for n in new):
            break
        for m, r, n in zip(active, rejected, new, strict=True):
            r |= n
            m &= ~n
    return rejected


def _rank_sets(means, boot, level):
    """Observed ranks, marginal and simultaneous sets of every run.

    Returns ``rank``, ``(low, high)`` of the marginal sets and of the
    simultaneous ones, integer arrays. A run's set is ``[1 + N-, K - N+]``
    with ``N-`` the runs significantly better and ``N+`` those significantly
    worse (Mogstad et al., eq. 3.3): the marginal set of run ``j`` from the
    family of its ``K - 1`` pairs, the simultaneous sets from the family of
    all pairs.
    """
    k = means.shape[0]
    sd = np.stack([np.std(boot[:, [a]] - boot, axis=0, ddof=1) for a in range(k)])
    rank = 1 + (means[None, :] > means[:, None]).sum(axis=1)
    others = ~np.eye(k, dtype=bool)
    # all pairs: block a holds the pairs (a, b), computed again at each step
    # rather than held (n_resamples x K^2 values)
    better = np.stack(
        _stepdown(
            lambda a: _studentized(means, boot, sd, a),
            means[:, None] - means[None, :],
            sd,
            others,
            level,
        )
    )  # better[a, b]: a significantly above b
    simultaneous = (1 + better.sum(axis=0), k - better.sum(axis=1))
    low, high = np.empty(k, dtype=int), np.empty(k, dtype=int)
    for j in range(k):
        # run j's pairs, both orders: (j, b) and (b, j) = -(j, b)
        t = _studentized(means, boot, sd, j)
        t = np.hstack([t, -t])
        estimate = np.concatenate([means[j] - means, means - means[j]])
        (found,) = _stepdown(
            lambda _, t=t: t,
            [estimate],
            [np.concatenate([sd[j], sd[j]])],
            [np.concatenate([others[j], others[j]])],
            level,
        )
        low[j], high[j] = 1 + found[k:].sum(), k - found[:k].sum()
    return rank, (low, high), simultaneous


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
    s_jk``, with ``s_jk`` the bootstrap standard error of the difference and
    ``c`` the ``confidence_level`` quantile of the bootstrap maximum of
    ``(d*_jk - d_jk) / s_jk`` over the pairs of the family, both orders; a
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
    resampler = _rank_resampler(scores, checked)
    (totals,) = resampler.totals()
    means = totals[0, :-1] / totals[0, -1]
    boot = run_resamples(
        functools.partial(_means_block, resampler=resampler),
        _generator(random_state),
        n_resamples,
        n_jobs=n_jobs,
        verbose=verbose,
        name="rank_intervals",
    )
    rank, (low, high), (simul_low, simul_high) = _rank_sets(
        means, boot, confidence_level
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

"""A suite of tasks: each run's score over the tasks, each pair, the ranks.

A benchmark suite averages tasks of different sizes, either each task equal
(``weighting="task"``) or each item equal (``weighting="item"``). The
bootstrap draws items (with clusters, whole clusters) within each task, so
every resample keeps each task's size, and all runs' scores of a unit
together, so the differences keep their pairing (formulas page, "Suites of
tasks").
"""

import functools
from dataclasses import dataclass

import numpy as np

from ..holdout._fast_metrics import run_resamples
from ..holdout._resampling import (
    _RESAMPLING_CONSTRAINTS,
    _check_groups,
    _clusters_text,
    _interval,
    _paired_pvalue,
)
from ..utils._param_validation import StrOptions, validate_params
from ..utils._random import _generator
from ..utils._rank_sets import rank_sets
from ..utils._results import _level_text, _ResultMixin, _text_table
from ._compare import _centred, _runs_matrix, adjust_pvalues
from ._join import RunTable, _show
from ._options import CORRECTIONS, SUITE_WEIGHTINGS
from ._ranks import _rank_resampler

# how each weighting is printed beside every number it gives
_WEIGHTING_TEXT = {
    "task": "mean over tasks, each task weighted equally",
    "item": "mean over items, each item weighted equally",
}


def _task_features_block(rng, size, *, resamplers):
    """Each task's sums of its unit features (:func:`_rank_resampler`) on
    ``size`` bootstrap resamples drawn within the task: (size, n_tasks,
    n_features).

    The tasks draw one after the other from the block's generator, so a
    resample is the same for any ``n_jobs``.
    """
    return np.stack(
        [
            np.concatenate([s for (s,) in resampler.bootstrap(rng, size)])
            for resampler in resamplers
        ],
        axis=1,
    )


def _suite_block(rng, size, *, resamplers, weighting, task_means):
    """Every run's suite score on ``size`` resamples within tasks, then the
    standard errors of every pair's difference on that resample, flat:
    (size, n_runs + n_runs^2); the tasks' sums are not kept past the block."""
    k = task_means.shape[1]
    features = _task_features_block(rng, size, resamplers=resamplers)
    scores = _suite_of(features[..., : k + 1], weighting)
    se = _suite_pair_se(features, scores, task_means, resamplers, weighting)
    return np.hstack([scores, se.reshape(size, k * k)])


def _suite_pair_se(features, scores, task_means, resamplers, weighting):
    """The standard errors of the differences of suite scores ``(a, b)``,
    (rows, K, K), from each task's sums of unit features (rows, n_tasks,
    n_features) and the suite scores (rows, K) they give.

    The variance is the within-task cluster-robust one of the linearized
    difference (formulas page, "Suites of tasks"): task ``t``'s ``G_t``
    units, of ``n_u`` items and residual differences ``r_u`` (from the
    data's task means, whose difference is ``c_t``), have the deviations
    ``z_u = r_u - delta_t n_u``, with ``delta_t`` the resample's mean
    residual of the task ``sum(r) / N_t`` (``"task"``) or ``d - c_t`` for
    the resample's suite difference ``d`` (``"item"``); the task adds
    ``V_t = sum(z^2) - sum(z)^2 / G_t`` (its units' spread about their
    mean), divided by ``(T N_t)^2`` (``"task"``) or ``N^2`` (``"item"``,
    ``N = sum_t N_t``). The sums come from the features as in
    :func:`_pair_se`.
    """
    k = task_means.shape[1]
    size, resid = features[..., k], features[..., k + 1 : 2 * k + 1]
    resid_n, size2 = features[..., 2 * k + 1 : 3 * k + 1], features[..., 3 * k + 1]
    units = np.array([float(r.n) for r in resamplers])
    if weighting == "task":
        scale = (size * task_means.shape[0]) ** 2
        delta = resid / size[..., None]  # the part of run a in delta_t
        total = None  # sum(z) = r - delta n is 0
    else:
        scale = np.broadcast_to(size.sum(axis=-1, keepdims=True) ** 2, size.shape)
        # d - c_t = delta_a - delta_b for residuals from the task means;
        # from the features' own shift (0 for exact integer sums)
        shift = np.stack([r.features[0].shift for r in resamplers])
        delta = scores[:, None, :] - shift
        total = resid - delta * size[..., None]
    # V_t = rr - 2 delta rn + delta^2 n2 - total^2 / G_t; every term but the
    # products x_a x_b is a difference of runs' parts (f_a - f_b)(h_a - h_b),
    # summed over tasks with weights w_t: sum_t w f_a h_a + w f_b h_b - w f_a
    # h_b - w f_b h_a, from the (K, K) matrix of sum_t w f_a h_b
    weight = 1 / scale

    def spread(f, h, w):
        m = (f * w[..., None]).transpose(0, 2, 1) @ h
        own = np.diagonal(m, axis1=1, axis2=2)
        return own[:, :, None] + own[:, None, :] - m - m.transpose(0, 2, 1)

    upper = np.triu_indices(k)
    pairs = (weight[:, None, :] @ features[..., 3 * k + 2 :])[:, 0]
    cross = np.empty(scores.shape + (k,))
    cross[:, upper[0], upper[1]] = pairs
    cross[:, upper[1], upper[0]] = pairs
    own = np.diagonal(cross, axis1=1, axis2=2)
    var = own[:, :, None] + own[:, None, :] - 2 * cross
    var -= 2 * spread(delta, resid_n, weight)  # the term -2 delta rn
    var += spread(delta, delta, weight * size2)
    if total is not None:
        var -= spread(total, total, weight / units)
    return np.sqrt(np.maximum(var, 0.0))


def _suite_of(sums, weighting):
    """Each run's suite score from its tasks' sums (..., n_tasks, n_runs + 1).

    ``"task"``: the mean over tasks of each task's mean ``S_t / n_t``;
    ``"item"``: all items' mean ``sum_t S_t / sum_t n_t`` (eq. ST-1).
    """
    scores, sizes = sums[..., :-1], sums[..., -1:]
    if weighting == "task":
        return (scores / sizes).mean(axis=-2)
    return scores.sum(axis=-2) / sizes.sum(axis=-2)


def _check_tasks(tasks, n_items):
    """Each item's task as codes 0..T-1 (sorted labels) and the labels."""
    arr = np.asarray(tasks)
    if arr.ndim != 1 or arr.shape[0] != n_items:
        raise ValueError(
            f"tasks must hold one task label per item, shape ({n_items},); got "
            f"shape {arr.shape}."
        )
    missing = [i for i, v in enumerate(arr.tolist()) if v is None or v != v]
    if missing:
        raise ValueError(
            f"tasks holds {_show(arr[missing[0]])} at item {missing[0]} (counting "
            "from 0); every item needs a task (a string or an integer)."
        )
    try:
        labels, codes = np.unique(arr, return_inverse=True)
    except TypeError as exc:
        raise ValueError(
            f"tasks holds labels that cannot be compared ({exc}); use one type, "
            "strings or integers."
        ) from None
    return labels, codes.ravel()


def _task_resamplers(scores, codes, labels, groups):
    """One :class:`Resampler` per task, of its units' features
    (:func:`_rank_resampler`: all runs' sums, sizes, residuals from the
    task's means and their products).

    The units are the task's items (cells of identical rows), or with
    ``groups`` the task's clusters: a cluster label is read within its task,
    so clusters are nested in tasks.
    """
    resamplers = []
    for t, label in enumerate(labels):
        rows = np.flatnonzero(codes == t)
        task_groups = None
        if groups is not None:
            _, members = np.unique(groups[rows], return_inverse=True)
            task_groups = (members.ravel(), int(members.max()) + 1)
        units = rows.size if task_groups is None else task_groups[1]
        if units < 2:
            what = "item" if task_groups is None else "cluster"
            raise ValueError(
                f"the task {_show(label)} has {units} {what}; the bootstrap "
                f"draws {what}s within each task and needs at least 2 in every "
                "task. Merge the task with another, or score more items."
            )
        resamplers.append(_rank_resampler(scores[rows], task_groups))
    return resamplers


@dataclass(frozen=True)
class SuiteScoresResult(_ResultMixin):
    """Result of :func:`suite_scores`: each run's suite score, each pair, the ranks.

    Tables of runs and pairs like :class:`RunComparisonResult`'s, with
    ``summary()`` and ``to_dict()``; every score, difference and rank is of
    the suite score of ``weighting``.

    Attributes
    ----------
    names : list of str
        The runs, in the order given.
    weighting : str
        ``"task"`` (the mean over tasks, each task equal) or ``"item"`` (the
        mean over items, each item equal).
    tasks : list of dict
        Per task, sorted: ``task``, ``n_items``, ``weight`` (its share of
        every suite score) and ``scores`` (each run's mean on the task).
    runs : list of dict
        Per run: ``run``, ``score`` (its suite score), ``low`` and ``high``
        (the percentile interval of the bootstrap within tasks) and
        ``standard_error`` (the bootstrap's standard deviation).
    pairs : list of dict
        Per pair of runs A and B (A before B in the order given): ``run_a``,
        ``run_b``, ``difference`` (suite score of B - suite score of A),
        ``low`` and ``high`` (its paired percentile interval), ``pvalue``
        (the paired bootstrap test: the bootstrap distribution of the
        difference shifted to 0) and ``pvalue_adjusted`` (``correction``).
    ranks : list of dict or None
        Per run, with two runs or more: ``run``, ``rank`` (1 is the highest
        suite score), the marginal set ``low`` to ``high`` and the
        simultaneous set ``simultaneous_low`` to ``simultaneous_high`` (as
        :func:`rank_intervals` gives them); None for one run.
    correction : str or None
        ``"holm"``, ``"bh"`` or None.
    confidence_level : float
        Level of the intervals and rank sets; ``1 - confidence_level`` the
        level of the tests.
    n_items : int
        Items of all tasks.
    n_clusters : int or None
        Clusters (within tasks) resampled whole, or None.
    n_resamples : int
        Bootstrap resamples.
    """

    names: list
    weighting: str
    tasks: list
    runs: list
    pairs: list
    ranks: list | None
    correction: str | None
    confidence_level: float
    n_items: int
    n_clusters: int | None
    n_resamples: int

    def summary(self):
        """Describe the suite: tables of the runs, the pairs and the ranks.

        Every header says which weighting its numbers use.

        Returns
        -------
        text : str
        """
        level = _level_text(self.confidence_level)
        sizes = [t["n_items"] for t in self.tasks]
        weighted = f"{self.weighting}-weighted"
        clusters = _clusters_text(self.n_clusters)
        lines = [
            f"suite of {len(self.tasks)} tasks ({self.n_items} items{clusters}, "
            f"{min(sizes)} to {max(sizes)} per task); suite score = "
            f"{_WEIGHTING_TEXT[self.weighting]} (weighting={self.weighting!r}); "
            f"{level} percentile intervals of the bootstrap within tasks; "
            f"{self.n_resamples} resamples",
            "",
        ]
        lines += _text_table(
            {
                "run": [r["run"] for r in self.runs],
                f"score ({weighted})": [r["score"] for r in self.runs],
                "lower": [r["low"] for r in self.runs],
                "upper": [r["high"] for r in self.runs],
            }
        )
        if self.pairs:
            adjusted = {None: "pvalue", "holm": "p (Holm)", "bh": "p (BH)"}
            lines += [
                "",
                f"paired bootstrap test of the {weighted} suite scores, B - A "
                f"with its {level} interval:",
            ]
            lines += _text_table(
                {
                    "A": [p["run_a"] for p in self.pairs],
                    "B": [p["run_b"] for p in self.pairs],
                    f"difference ({weighted})": [p["difference"] for p in self.pairs],
                    "low": [p["low"] for p in self.pairs],
                    "high": [p["high"] for p in self.pairs],
                    "pvalue": [p["pvalue"] for p in self.pairs],
                    adjusted[self.correction]: [
                        p["pvalue_adjusted"] for p in self.pairs
                    ],
                }
            )
        if self.ranks is not None:
            rows = sorted(self.ranks, key=lambda r: r["rank"])
            lines += [
                "",
                f"ranks by the {weighted} suite score (1 = highest); {level} "
                "rank sets, marginal and simultaneous:",
            ]
            lines += _text_table(
                {
                    "run": [r["run"] for r in rows],
                    "rank": [str(r["rank"]) for r in rows],
                    "marginal": [f"[{r['low']}, {r['high']}]" for r in rows],
                    "simultaneous": [
                        f"[{r['simultaneous_low']}, {r['simultaneous_high']}]"
                        for r in rows
                    ],
                }
            )
        return "\n".join(lines)


@validate_params(
    {
        "runs": [dict, RunTable],
        "tasks": ["array-like", None],
        "weighting": [StrOptions(set(SUITE_WEIGHTINGS))],
        "groups": ["array-like", None],
        "correction": [StrOptions(set(CORRECTIONS)), None],
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
def suite_scores(
    runs,
    *,
    tasks=None,
    weighting=SUITE_WEIGHTINGS[0],
    groups=None,
    correction="holm",
    confidence_level=0.95,
    n_resamples=9999,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Score runs on a suite of tasks, with intervals, paired tests and ranks.

    Gives each run's suite score (the mean over tasks, or over items) with
    its interval, the paired difference of every pair of runs with its
    interval and p-value, and each run's rank with its confidence sets, all
    from one bootstrap that draws items (or whole clusters) within each
    task.

    Parameters
    ----------
    runs : RunTable or dict of str to array-like
        The item scores: a :class:`RunTable` from :func:`join_runs` with
        ``task_field`` (the runs joined by (task, id), with each item's
        task), or, by run name, arrays of shape (n_items,) or (n_items,
        n_repeats) whose rows are the same items in the same order (the
        repeats of an item are averaged into its score).
    tasks : array-like of shape (n_items,), default=None
        Each item's task when ``runs`` is a dict (strings or integers). A
        :class:`RunTable` carries its own.
    weighting : {"task", "item"}, default="task"
        ``"task"``: the suite score is the mean of the task means, each task
        equal whatever its size (the score a suite's paper reports, and
        lm-evaluation-harness's unweighted groups). ``"item"``: the mean of
        all items, each item equal, so large tasks weigh more
        (lm-evaluation-harness's size-weighted groups).
    groups : array-like of shape (n_items,), default=None
        Each item's cluster (passage, prompt) when ``runs`` is a dict; a
        :class:`RunTable` carries its own. Clusters are read within their
        task (the same label in two tasks names two clusters), and the
        bootstrap draws whole clusters within each task.
    correction : {"holm", "bh"} or None, default="holm"
        Adjustment of the pairs' p-values: Holm's step-down, Benjamini-
        Hochberg's step-up, or None.
    confidence_level : float, default=0.95
        Level of the intervals and rank sets; the tests use ``1 -
        confidence_level``.
    n_resamples : int, default=9999
        Bootstrap resamples, drawn once for every interval, test and rank set.
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
    result : SuiteScoresResult
        ``tasks``, ``runs``, ``pairs``, ``ranks``, ``summary()`` and
        ``to_dict()``.

    Raises
    ------
    ValueError
        No task for the items, a task of fewer than 2 items (clusters), or
        runs of unequal items.

    See Also
    --------
    compare_runs : Each run's mean over all items, each pair's test.
    rank_intervals : Ranks of runs' means over all items.
    join_runs : Join per-item logs by (task, id) with ``task_field``.

    Notes
    -----
    With tasks ``t`` of ``n_t`` items, run ``j``'s mean ``m_tj`` on task
    ``t`` and ``N = sum_t n_t``, the suite score is ``sum_t m_tj / T``
    (``"task"``) or ``sum_t n_t m_tj / N`` (``"item"``, the mean of all
    items). The bootstrap draws ``n_t`` items of each task ``t`` with
    replacement (with clusters, as many clusters as the task has), all runs'
    scores of an item together: the task sizes, and so the weights, are
    those of the data in every resample, and the spread is the within-task
    spread only. Each interval is the bootstrap's percentile interval, each
    p-value the paired bootstrap test (the distribution of the difference
    shifted to 0, as :func:`compare_runs` with ``method="bootstrap"``), and
    the rank sets are Mogstad et al.'s step-down sets, each resample
    studentized by its own within-task cluster-robust standard errors of
    the differences (the bootstrap-t; formulas page, "Suites of tasks"; user guide,
    "Suites of tasks", with the simulated coverage).

    Examples
    --------
    >>> from sklearn_faithful.eval_logs import suite_scores
    >>> tasks = ["big"] * 8 + ["small"] * 4
    >>> a = [1, 1, 1, 1, 1, 1, 0, 0] + [0, 0, 0, 1]
    >>> b = [1, 1, 1, 1, 0, 0, 0, 0] + [1, 1, 1, 0]
    >>> by_task = suite_scores({"A": a, "B": b}, tasks=tasks,
    ...                        n_resamples=999, random_state=0)
    >>> [r["score"] for r in by_task.runs]  # (6/8 + 1/4) / 2, (4/8 + 3/4) / 2
    [0.5, 0.625]
    >>> by_item = suite_scores({"A": a, "B": b}, tasks=tasks, weighting="item",
    ...                        n_resamples=999, random_state=0)
    >>> [round(r["score"], 4) for r in by_item.runs]  # 7/12, 7/12
    [0.5833, 0.5833]
    """
    names, scores, groups = _runs_matrix(runs, groups)
    n_items, n_runs = scores.shape
    if n_items < 2:
        raise ValueError(
            f"runs[{names[0]!r}] scores {n_items} item(s); resampling needs at least 2."
        )
    if isinstance(runs, RunTable):
        if tasks is not None:
            raise ValueError(
                "tasks must be None when runs is a RunTable: the table holds its "
                "items' tasks (task_field of join_runs)."
            )
        tasks = runs.tasks
        if tasks is None:
            raise ValueError(
                "runs is a RunTable without tasks; join the logs with "
                "join_runs(..., task_field=...) to give each item its task."
            )
    elif tasks is None:
        raise ValueError(
            "tasks is None; give each item's task (an array of shape "
            f"({n_items},)), or a RunTable from join_runs(..., task_field=...)."
        )
    labels, codes = _check_tasks(tasks, n_items)
    checked = _check_groups(groups, n_items, warn=False)
    groups = None if checked is None else checked[0]
    exponent, centre, scores = _centred(scores)
    resamplers = _task_resamplers(scores, codes, labels, groups)
    sizes = np.bincount(codes, minlength=labels.size)
    # the data's sums, (n_tasks, n_runs + 1)
    totals = np.column_stack(
        [
            np.stack([np.bincount(codes, scores[:, j]) for j in range(n_runs)], 1),
            sizes,
        ]
    )
    estimate = _suite_of(totals, weighting)
    task_means = totals[:, :-1] / sizes[:, None]
    data_features = np.stack([r.totals()[0][0] for r in resamplers])[None]
    (se,) = _suite_pair_se(
        data_features, estimate[None], task_means, resamplers, weighting
    )
    drawn = run_resamples(  # (n_resamples, n_runs + n_runs^2)
        functools.partial(
            _suite_block,
            resamplers=resamplers,
            weighting=weighting,
            task_means=task_means,
        ),
        _generator(random_state),
        n_resamples,
        n_jobs=n_jobs,
        verbose=verbose,
        name="suite_scores",
    )
    boot = drawn[:, :n_runs]
    boot_se = drawn[:, n_runs:].reshape(-1, n_runs, n_runs)

    def scaled(value, shift=0.0):
        return float(np.ldexp(value + shift, exponent))

    weights = np.full(labels.size, 1 / labels.size)
    if weighting == "item":
        weights = sizes / n_items
    task_rows = [
        {
            "task": label.item() if isinstance(label, np.generic) else label,
            "n_items": int(sizes[t]),
            "weight": float(weights[t]),
            "scores": {
                name: scaled(totals[t, j] / sizes[t], centre)
                for j, name in enumerate(names)
            },
        }
        for t, label in enumerate(labels)
    ]
    run_rows = []
    for j, name in enumerate(names):
        ci = _interval(
            boot[:, j], estimate[j], confidence_level, "percentile", "two-sided"
        )
        run_rows.append(
            {
                "run": name,
                "score": scaled(estimate[j], centre),
                "low": scaled(ci.low, centre),
                "high": scaled(ci.high, centre),
                "standard_error": scaled(np.std(boot[:, j], ddof=1)),
            }
        )
    pair_rows = []
    for a in range(n_runs):
        for b in range(a + 1, n_runs):
            diff = estimate[b] - estimate[a]
            dist = boot[:, b] - boot[:, a]
            ci = _interval(dist, diff, confidence_level, "percentile", "two-sided")
            pair_rows.append(
                {
                    "run_a": names[a],
                    "run_b": names[b],
                    "difference": scaled(diff),
                    "low": scaled(ci.low),
                    "high": scaled(ci.high),
                    "pvalue": _paired_pvalue(dist - diff, diff, "two-sided"),
                }
            )
    adjust_pvalues(pair_rows, correction)
    rank_rows = None
    if n_runs > 1:
        rank, (low, high), (simul_low, simul_high) = rank_sets(
            estimate,
            boot,
            se,
            lambda a: boot_se[:, a],
            confidence_level=confidence_level,
        )
        rank_rows = [
            {
                "run": name,
                "rank": int(rank[j]),
                "low": int(low[j]),
                "high": int(high[j]),
                "simultaneous_low": int(simul_low[j]),
                "simultaneous_high": int(simul_high[j]),
            }
            for j, name in enumerate(names)
        ]
    n_clusters = None
    if groups is not None:
        n_clusters = int(sum(r.n_units for r in resamplers))
    return SuiteScoresResult(
        names=names,
        weighting=weighting,
        tasks=task_rows,
        runs=run_rows,
        pairs=pair_rows,
        ranks=rank_rows,
        correction=correction,
        confidence_level=float(confidence_level),
        n_items=int(n_items),
        n_clusters=n_clusters,
        n_resamples=int(n_resamples),
    )

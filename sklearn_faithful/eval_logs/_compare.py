"""Runs compared on the same items: each mean, each pair, the runs tied with the best.

The item is the unit: an item's repeated samples are averaged into its score
(:func:`~sklearn_faithful.eval_logs.join_runs`), and with clusters the cluster
is the unit, drawn or swapped whole. The resamples are those of the holdout
room's tests, on the sums of each unit's scores and items: a run's mean is
``sum(scores) / n_items`` of the resampled units (formulas page,
"Evaluation runs").
"""

import functools
import math
import warnings
import zlib
from dataclasses import dataclass

import numpy as np

from ..holdout._fast_metrics import (
    Resampler,
    _chunks,
    _product,
    _rows_per_chunk,
    cluster_sums,
    run_resamples,
)
from ..holdout._resampling import (
    _RESAMPLING_CONSTRAINTS,
    MIN_CLUSTERS,
    _bootstrap_interval,
    _check_groups,
    _clusters_text,
    _coverage_text,
    _interval,
    _paired_test,
    _Resampling,
    _sign_test_from_counts,
)
from ..utils._clusters import (
    cluster_moments,
    effective_clusters,
    jackknife_mean_interval,
    rarer_outcome_clusters,
)
from ..utils._multitest import benjamini_hochberg, holm
from ..utils._param_validation import StrOptions, validate_params
from ..utils._random import _generator
from ..utils._results import (
    _HEADERS,
    _level_text,
    _ResultMixin,
    _text_table,
)
from ..utils._scaling import _exponent
from ..utils._validation import (
    check_matplotlib,
)
from ._join import RunTable
from ._options import CORRECTIONS, INTERVALS, METHODS, PLOT_KINDS

_METRIC = "mean score"
_ADJUST = {"holm": holm, "bh": benjamini_hochberg}


def adjust_pvalues(rows, correction):
    """Add each row's ``pvalue_adjusted``: its ``pvalue`` adjusted over the
    family of ``rows`` by ``correction`` (``"holm"``, ``"bh"`` or None)."""
    if rows:
        raw = np.array([p["pvalue"] for p in rows])
        adjusted = raw if correction is None else _ADJUST[correction](raw)
        for row, p in zip(rows, adjusted, strict=True):
            row["pvalue_adjusted"] = float(p)
    return rows


def _mean_of(sums):
    """A run's mean from the sums of its units: ``sum(scores) / n_items``."""
    return sums[:, 0] / sums[:, 1]


def _coded(column):
    """A column's distinct values and each item's code among them (one sort).

    The codes are of the smallest integer type that holds them (one byte
    each for 0/1 scores): they are kept for every pair of runs.
    """
    values, codes = np.unique(column, return_inverse=True)
    return values, codes.ravel().astype(np.min_scalar_type(-values.size))


def _cells(columns, coded=None):
    """The distinct rows of the columns (one value per run), and their items.

    Each column's values are coded by one sort (``np.unique``; ``coded``
    holds them when already known, :func:`_coded`), and the rows by the
    combined codes ``c_A k_B + c_B``: far faster than ``np.unique`` over
    rows, and exact (equal floats, equal codes).
    """
    if coded is None:
        coded = [_coded(c) for c in columns]
    values, codes = zip(*coded, strict=True)
    code = codes[0].astype(np.int64)
    for v, c in zip(values[1:], codes[1:], strict=True):
        code *= v.size
        code += c
    cells, counts = np.unique(code, return_counts=True)
    rows = []
    for v in values[::-1]:  # the last column's code is the remainder
        cells, index = np.divmod(cells, v.size)
        rows.append(v[index])
    return rows[::-1], counts


# Cells are drawn multinomially while there are at most this many, or at most
# one per _ITEMS_PER_CELL items; beyond, the bootstrap draws the items by
# index. A multinomial draw costs a binomial per cell (about 10 index draws'
# time each): continuous scores, one cell per item, took 10x the index draws.
_MANY_CELLS = 256
_ITEMS_PER_CELL = 8
# A cell of several items is swapped by a binomial of its own (a call, about
# this many cells' binomials in one call): the permutation draws them one by
# one while they are at most one in _SWAPS_PER_CALL of the cells to swap.
_SWAPS_PER_CALL = 40


def _units_ones(columns):
    """Each unit's (score, 1) of each column: its sums of scores and items."""
    ones = np.ones(columns[0].shape[0])
    return [np.column_stack([c, ones]) for c in columns]


class _RunsResampler(Resampler):
    """The :class:`Resampler` of the cells of one or two runs' scores, faster.

    The resamples are those of :class:`Resampler` on the cells, from the
    same random numbers, with two exceptions of speed:

    - the permutation of cells of one item each: ``binomial(1, 1/2)`` is one
      uniform ``U`` and ``U > 1/2`` (numpy's inversion), so the swaps are
      ``rng.random(...) > 0.5``, the same draws at a tenth of the time; the
      few cells of several items (scores of 0 and 1 among continuous ones)
      get their binomials in between, in numpy's order (:meth:`_swaps`);
    - the bootstrap of many cells (``items``, the runs' item scores, given
      past :data:`_MANY_CELLS`): a multinomial over nearly as many cells as
      items costs a binomial per cell, so the items are drawn by index
      instead, with the draws of :class:`Resampler` without cells
      (``rng.integers(0, n, (c, n))``), and each run's sum is the sum of the
      drawn items' scores.
    """

    def __init__(self, features, counts, items=None):
        super().__init__(features, counts)
        self.items = items

    def bootstrap(self, rng, n_resamples):
        if self.items is None:
            yield from super().bootstrap(rng, n_resamples)
            return
        n = self.n
        # a chunk holds its (c, n) draws and one run's drawn scores at a time
        for c in _chunks(n_resamples, _rows_per_chunk(2 * n)):
            idx = rng.integers(0, n, size=(c, n))
            size = np.full(c, float(n))
            yield [np.column_stack([x[idx].sum(axis=1), size]) for x in self.items]

    @functools.cached_property
    def _permutation_parts(self):
        """:meth:`Resampler._permutation_parts`, with no copy of ``|delta|``:
        the units' second feature is 1 in both runs, so a swap changes a
        unit exactly when its scores differ."""
        fa, fb = self.features
        delta = fb - fa
        movable = np.flatnonzero(delta[:, 0] != 0)
        return self.totals(), delta, movable, self.counts[movable]

    def permute(self, rng, n_resamples):
        (base_a, base_b), delta, movable, counts = self._permutation_parts
        several = np.flatnonzero(counts > 1)
        if several.size * _SWAPS_PER_CALL > counts.size:
            yield from super().permute(rng, n_resamples)
            return
        every = movable.size == self.n_units
        for c in _chunks(n_resamples, self._rows()):
            swaps = self._swaps(rng, c, counts, several)
            if not every:
                spread = np.zeros((c, self.n_units))
                spread[:, movable] = swaps
                swaps = spread
            moved = _product(swaps, delta)
            yield [base_a + moved, base_b - moved]

    @staticmethod
    def _swaps(rng, c, counts, several):
        """The ``binomial(counts, 1/2)`` swaps of ``c`` resamples, drawn in
        the order numpy draws them (row by row, cell by cell): a uniform
        ``U > 1/2`` for a cell of one item, the binomial itself for the
        ``several`` cells of more."""
        if several.size == 0:
            return (rng.random((c, counts.size)) > 0.5).astype(np.float64)
        swaps = np.empty((c, counts.size))
        starts = np.concatenate([[0], several + 1])
        stops = np.concatenate([several, [counts.size]])
        for row in swaps:
            for j, start, stop in zip(several, starts[:-1], stops[:-1], strict=True):
                row[start:stop] = rng.random(stop - start) > 0.5
                row[j] = rng.binomial(counts[j], 0.5)
            row[starts[-1] :] = rng.random(stops[-1] - starts[-1]) > 0.5
        return swaps


def _unit_parts(columns, groups):
    """What every interval and pair of runs needs of each run's scores.

    Without clusters each column's :func:`_coded` scores; with clusters
    each column's clusters' sums of scores and items, ``(n_clusters, 2)``.
    Computed once for all the pairs.
    """
    if groups is None:
        return [_coded(c) for c in columns]
    # one run's (n_items, 2) units at a time
    units = (_units_ones([c])[0] for c in columns)
    return [np.asarray(f) for f in cluster_sums(units, *groups)]


def _resampling(columns, groups, parts=None):
    """:class:`_Resampling` of one or two runs' item scores.

    Without clusters the units are the cells of identical (score A, score
    B) items, drawn multinomially (0/1 scores make four cells, whatever the
    number of items), or with many cells the items (:class:`_RunsResampler`);
    with clusters, each cluster's sums of scores and items. ``parts``: the
    columns' :func:`_unit_parts`, when known.
    """
    n = columns[0].shape[0]
    statistics = [float(np.mean(c)) for c in columns]
    if parts is None:
        parts = _unit_parts(columns, groups)
    if groups is None:
        rows, counts = _cells(columns, parts)
        items = None
        if counts.shape[0] > max(_MANY_CELLS, n / _ITEMS_PER_CELL):
            items = columns
        resampler = _RunsResampler(_units_ones(rows), counts, items)
        return _Resampling(statistics, n, fast=(resampler, _mean_of))
    return _Resampling(
        statistics, n, fast=(Resampler(parts), _mean_of), n_clusters=groups[1]
    )


def _score_array(values, name, ndims=(1,), cast=True):
    """Scores as floats: numbers, or booleans (True is 1), of ``ndims`` axes.

    The one check of the room's array inputs (``runs`` here, the judge's and
    people's scores of :func:`prediction_powered_mean`); ``name`` names them.
    ``cast=False`` returns the checked array itself (no copy), to be cast
    where it is copied anyway.
    """
    arr = np.asarray(values)
    if arr.dtype.kind not in "biuf" or arr.ndim not in ndims:
        shape = "(n_items,)" + (" or (n_items, n_repeats)" if 2 in ndims else "")
        raise ValueError(
            f"{name} must hold numeric scores, of shape {shape}; got dtype "
            f"{arr.dtype} and shape {arr.shape}."
        )
    return arr.astype(np.float64) if cast else arr


def _check_scores(name, values, n_items):
    arr = _score_array(values, f"runs[{name!r}]", ndims=(1, 2), cast=False)
    if not np.isfinite(arr).all():
        raise ValueError(f"runs[{name!r}] contains NaN or infinity.")
    if n_items is not None and arr.shape[0] != n_items:
        raise ValueError(
            f"runs[{name!r}] has {arr.shape[0]} items but the first run has "
            f"{n_items}; the runs must score the same items, in the same order "
            "(join_runs matches them by id)."
        )
    if arr.ndim == 2 and arr.shape[1] == 0:
        raise ValueError(f"runs[{name!r}] has no repeat; give at least one.")
    # repeated samples of an item: its score is their mean (of floats); one
    # sample: the array itself, cast where the scores matrix copies it
    return arr if arr.ndim == 1 else arr.astype(np.float64).mean(axis=1)


def _runs_matrix(runs, groups):
    """``(names, scores (n_items, n_runs), groups)`` of a RunTable or a mapping."""
    if isinstance(runs, RunTable):
        if groups is not None:
            raise ValueError(
                "groups must be None when runs is a RunTable: the table holds its "
                "items' clusters (groups_field of join_runs)."
            )
        return list(runs.names), runs.scores, runs.groups
    if len(runs) == 0:
        raise ValueError("runs is empty; give at least one run's item scores.")
    names, columns, n_items, index = [], [], None, None
    for name, values in runs.items():
        columns.append(_check_scores(name, values, n_items))
        n_items = columns[0].shape[0]
        names.append(str(name))
        # pandas objects: numpy drops the index, so rows in another order
        # would be paired with the wrong items
        own = getattr(values, "index", None)
        if not hasattr(own, "equals"):  # not pandas (a list's index method)
            own = None
        if own is not None and index is not None and not own.equals(index):
            raise ValueError(
                f"runs[{name!r}] has another index than runs[{names[0]!r}]: its "
                "rows are other items or in another order. Align them (e.g. "
                "reindex) or join the logs by id with join_runs."
            )
        index = own if index is None else index
    # one copy of the scores, cast as it is filled: no float copy per run
    scores = np.empty((n_items, len(columns)))
    for j, column in enumerate(columns):
        scores[:, j] = column
    return names, scores, groups


@dataclass(frozen=True)
class RunComparisonResult(_ResultMixin):
    """Result of :func:`compare_runs`: each run's mean, each pair, the tied runs.

    Attributes
    ----------
    names : list of str
        The runs, in the order given.
    runs : list of dict
        Per run: ``run``, ``mean`` (of its item scores), ``low`` and
        ``high`` (its interval, ``interval``) and ``standard_error``.
    pairs : list of dict
        Per pair of runs A and B: ``run_a``, ``run_b``, ``difference``
        (mean of B - mean of A), ``low`` and ``high`` (its paired bootstrap
        interval), ``pvalue``, ``pvalue_adjusted`` (``correction``),
        ``effect_size`` (Cohen's d_z: the mean item difference over its
        standard deviation), and the items where B scores higher, the same
        and lower: ``n_wins``, ``n_ties``, ``n_losses``.
    best : str or None
        The run of highest mean, when every pair was compared.
    tied_with_best : list of str or None
        The best run and those whose difference from it is not significant
        at ``1 - confidence_level`` after ``correction``; None with a
        ``baseline``.
    baseline : str or None
        The run every other was compared with, or None for every pair.
    method : str
        The paired test: ``"permutation"``, ``"bootstrap"`` or ``"sign"``.
    correction : str or None
        ``"holm"``, ``"bh"`` or None.
    interval : str
        The interval of each mean: ``"jackknife-bm"``, ``"jackknife-t"``,
        ``"bca"`` or
        ``"percentile"``.
    confidence_level : float
        Level of the intervals; ``1 - confidence_level`` is the level of the
        tests.
    n_items : int
        Items every run scored.
    n_clusters : int or None
        Clusters resampled whole, or None.
    n_resamples : int
        Resamples of each interval and test.
    """

    names: list
    runs: list
    pairs: list
    best: str | None
    tied_with_best: list | None
    baseline: str | None
    method: str
    correction: str | None
    interval: str
    confidence_level: float
    n_items: int
    n_clusters: int | None
    n_resamples: int

    def summary(self):
        """Describe the comparison: a table of the runs, then one of the pairs.

        Returns
        -------
        text : str
        """
        level = _level_text(self.confidence_level)
        lines = [
            f"{len(self.names)} run{'s' * (len(self.names) > 1)} on "
            f"{self.n_items} items"
            f"{_clusters_text(self.n_clusters)}; {level} {self.interval} "
            f"intervals; {self.n_resamples} resamples",
            "",
        ]
        tied = set(self.tied_with_best or ())
        cols = {
            "run": [r["run"] for r in self.runs],
            "mean": [r["mean"] for r in self.runs],
            "lower": [r["low"] for r in self.runs],
            "upper": [r["high"] for r in self.runs],
        }
        if self.tied_with_best is not None:
            cols["tied with best"] = [
                ("best" if r["run"] == self.best else "yes")
                if r["run"] in tied
                else "no"
                for r in self.runs
            ]
        lines += _text_table(cols)
        if self.pairs:
            adjusted = {None: "p", "holm": "p (Holm)", "bh": "p (BH)"}
            lines += [
                "",
                f"paired {self.method} test, B - A with its {level} paired "
                "bootstrap interval:",
            ]
            pair_cols = {
                "A": [p["run_a"] for p in self.pairs],
                "B": [p["run_b"] for p in self.pairs],
                "difference": [p["difference"] for p in self.pairs],
                "low": [p["low"] for p in self.pairs],
                "high": [p["high"] for p in self.pairs],
                "pvalue": [p["pvalue"] for p in self.pairs],
            }
            if self.correction is not None:
                pair_cols["pvalue_adjusted"] = [
                    p["pvalue_adjusted"] for p in self.pairs
                ]
            pair_cols["d_z"] = [p["effect_size"] for p in self.pairs]
            pair_cols["W/T/L"] = [
                f"{p['n_wins']}/{p['n_ties']}/{p['n_losses']}" for p in self.pairs
            ]
            table = _text_table(pair_cols)
            head = _HEADERS["pvalue_adjusted"]
            table[0] = table[0].replace(
                head, adjusted[self.correction].rjust(len(head))
            )
            lines += table
        if self.tied_with_best is not None:
            lines += [
                "",
                f"tied with the best ({self.best}) at the "
                f"{1 - self.confidence_level:.2g} level: "
                + ", ".join(self.tied_with_best),
            ]
        return "\n".join(lines)

    @validate_params(
        {"ax": "no_validation", "kind": [StrOptions(set(PLOT_KINDS))]},
        prefer_skip_nested_validation=True,
    )
    def plot(self, ax=None, *, kind="runs"):
        """Forest plot: each run's mean, or each pair's difference, with its interval.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None creates a figure.
        kind : {"runs", "pairs"}, default="runs"
            ``"runs"``: each run's mean and interval, the runs tied with the
            best in colour. ``"pairs"``: each pair's difference B - A and its
            paired interval, with a dashed line at 0, coloured by direction
            (B better, A better, or no difference at the adjusted level). A
            legend, outside the axes on the right, names the colours; save
            with ``bbox_inches="tight"`` to keep it.

        Returns
        -------
        ax : matplotlib Axes
        """
        plt = check_matplotlib("RunComparisonResult.plot")
        if kind == "pairs" and not self.pairs:
            raise ValueError("kind='pairs' needs two runs or more; there is one.")
        if ax is None:
            rows = len(self.runs) if kind == "runs" else len(self.pairs)
            _, ax = plt.subplots(figsize=(6, 1.2 + 0.4 * rows))
        alpha = 1 - self.confidence_level
        if kind == "runs":
            items = self.runs
            labels = [r["run"] for r in items]
            centre = [r["mean"] for r in items]
            tied = set(self.tied_with_best or ())
            kinds = [
                "tied with the best" if r["run"] in tied else "below the best"
                for r in items
            ]
            xlabel = f"mean score, {_level_text(self.confidence_level)} interval"
        else:
            items = self.pairs
            labels = [f"{p['run_b']} - {p['run_a']}" for p in items]
            centre = [p["difference"] for p in items]
            kinds = [
                "no difference"
                if p["pvalue_adjusted"] >= alpha
                else ("B better" if p["difference"] > 0 else "A better")
                for p in items
            ]
            ax.axvline(0, color="0.3", ls="--", lw=1)
            xlabel = f"difference B - A, {_level_text(self.confidence_level)} interval"
        colors = {
            "tied with the best": "C0",
            "below the best": "0.4",
            "B better": "C2",
            "A better": "C3",
            "no difference": "0.4",
        }
        y = np.arange(len(items))[::-1]
        shown = {}
        for yi, item, c, k in zip(y, items, centre, kinds, strict=True):
            ax.plot([item["low"], item["high"]], [yi, yi], color=colors[k], lw=2)
            (shown[k],) = ax.plot([c], [yi], "o", color=colors[k])
        if kind == "pairs" or self.tied_with_best is not None:
            test = "adjusted " if self.correction is not None else ""
            order = [k for k in colors if k in shown]
            ax.legend(
                [shown[k] for k in order],
                order,
                title=f"{test}p < {alpha:.2g}" if kind == "pairs" else None,
                loc="upper left",
                bbox_to_anchor=(1.01, 1),
                frameon=False,
            )
        ax.set_yticks(y)
        ax.set_yticklabels(labels)
        ax.set_xlabel(xlabel)
        ax.set_ylim(-0.7, len(items) - 0.3)
        return ax


# Coverage (%) of each run's 95% interval with clusters, measured by
# benchmarks/sim_cluster_means.py (seed 20261201, doc/_sim_cluster_means.txt):
# per band of the effective number of clusters G_eff = (sum n_g)^2 / sum
# n_g^2, (low, high, coverage pooled over the simulated data sets of the band,
# its Monte-Carlo s.e., the lowest coverage of a setting whose median G_eff is
# in the band, that setting); tuning and held-back settings together.
_MEASURED_COVERAGE = {
    "jackknife-bm": (
        (
            1,
            4,
            97.2,
            0.2,
            84.4,
            "binary, mean 0.95, ICC 0.1, 8 Pareto-size clusters, held back",
        ),
        (
            4,
            8,
            95.9,
            0.2,
            86.8,
            "binary, mean 0.05, ICC 0.1, 8 geometric-size clusters, held back",
        ),
        (
            8,
            15,
            95.5,
            0.1,
            92.6,
            "binary, mean 0.95, ICC 0.1, 30 Pareto-size clusters, held back",
        ),
        (
            15,
            30,
            95.4,
            0.2,
            89.0,
            "binary, mean 0.05, ICC 0.1, 30 geometric-size clusters, held back",
        ),
        (
            30,
            60,
            95.1,
            0.2,
            92.9,
            "binary, mean 0.05, ICC 0.1, 80 geometric-size clusters, held back",
        ),
        (
            60,
            math.inf,
            94.8,
            0.2,
            93.1,
            "binary, mean 0.7, ICC 0.25, 80 equal clusters",
        ),
    ),
    "jackknife-t": (
        (
            1,
            4,
            86.3,
            0.3,
            76.8,
            "binary, mean 0.95, ICC 0.1, 8 Pareto-size clusters, held back",
        ),
        (
            4,
            8,
            89.5,
            0.2,
            82.3,
            "binary, mean 0.05, ICC 0.1, 8 geometric-size clusters, held back",
        ),
        (
            8,
            15,
            92.7,
            0.2,
            83.5,
            "binary, mean 0.95, ICC 0.1, 30 Pareto-size clusters, held back",
        ),
        (
            15,
            30,
            93.4,
            0.2,
            86.4,
            "binary, mean 0.05, ICC 0.1, 30 geometric-size clusters, held back",
        ),
        (
            30,
            60,
            93.9,
            0.2,
            89.9,
            "binary, mean 0.95, ICC 0.1, 320 Pareto-size clusters, held back",
        ),
        (
            60,
            math.inf,
            94.7,
            0.2,
            93.1,
            "binary, mean 0.7, ICC 0.25, 80 equal clusters",
        ),
    ),
    "bca": (
        (
            1,
            4,
            81.5,
            0.4,
            75.3,
            "binary, mean 0.95, ICC 0.1, 8 Pareto-size clusters, held back",
        ),
        (
            4,
            8,
            85.0,
            0.3,
            77.9,
            "binary, mean 0.583, ICC 0.2, 15 (3 giant) clusters, held back",
        ),
        (8, 15, 88.3, 0.2, 84.3, "binary, mean 0.7, ICC 0.5, 30 Pareto-size clusters"),
        (15, 30, 90.6, 0.2, 84.8, "rating, mean 6.4, ICC 0.5, 80 Pareto-size clusters"),
        (
            30,
            60,
            92.0,
            0.2,
            85.3,
            "rating, mean 6.4, ICC 0.1, 320 Pareto-size clusters",
        ),
        (
            60,
            math.inf,
            93.8,
            0.2,
            92.4,
            "binary, mean 0.7, ICC 0.25, 80 equal clusters",
        ),
    ),
    "percentile": (
        (
            1,
            4,
            85.1,
            0.3,
            74.1,
            "binary, mean 0.95, ICC 0.1, 8 Pareto-size clusters, held back",
        ),
        (
            4,
            8,
            87.5,
            0.3,
            80.2,
            "binary, mean 0.05, ICC 0.1, 8 geometric-size clusters, held back",
        ),
        (
            8,
            15,
            89.4,
            0.2,
            84.9,
            "binary, mean 0.95, ICC 0.1, 30 Pareto-size clusters, held back",
        ),
        (
            15,
            30,
            91.7,
            0.2,
            86.2,
            "binary, mean 0.05, ICC 0.1, 30 geometric-size clusters, held back",
        ),
        (
            30,
            60,
            92.8,
            0.2,
            90.1,
            "binary, mean 0.95, ICC 0.1, 320 Pareto-size clusters, held back",
        ),
        (
            60,
            math.inf,
            94.1,
            0.2,
            92.0,
            "binary, mean 0.7, ICC 0.25, 80 equal clusters",
        ),
    ),
}
# the interval holds where its band's lowest setting covered this much
_HOLDS = 93.0
# below this R = G_eff x min(p, 1 - p) (rarer_outcome_clusters) no interval
# held: benchmarks/sim_cluster_means.py read it off its tuning and held-back
# cells and checked it on a third group fixed before it ran
_RARE = 1.0
# Coverage (%) of each run's 95% interval where R < 1, per band of R: (low,
# high, pooled coverage of the band's data sets, its s.e., the lowest coverage
# of a setting whose median R is in the band, that setting); tuning, held-back
# and rare-event held-back settings together
_RARE_COVERAGE = {
    "jackknife-bm": (
        (
            0,
            0.5,
            84.8,
            0.4,
            83.1,
            "binary, mean 0.02, ICC 0.05, 8 geometric-size clusters, held back",
        ),
        (
            0.5,
            1,
            94.3,
            0.2,
            87.3,
            "binary, mean 0.98, ICC 0.05, 30 equal clusters, held back",
        ),
    ),
    "jackknife-t": (
        (
            0,
            0.5,
            75.0,
            0.4,
            76.8,
            "binary, mean 0.95, ICC 0.1, 8 Pareto-size clusters, held back",
        ),
        (
            0.5,
            1,
            87.1,
            0.3,
            80.4,
            "binary, mean 0.8, ICC 0.5, 8 geometric-size clusters, held back",
        ),
    ),
    "bca": (
        (
            0,
            0.5,
            75.6,
            0.4,
            75.3,
            "binary, mean 0.95, ICC 0.1, 8 Pareto-size clusters, held back",
        ),
        (0.5, 1, 84.6, 0.4, 80.8, "binary, mean 0.7, ICC 0.5, 8 Pareto-size clusters"),
    ),
    "percentile": (
        (
            0,
            0.5,
            74.0,
            0.4,
            72.2,
            "binary, mean 0.98, ICC 0.05, 8 equal clusters, held back",
        ),
        (
            0.5,
            1,
            86.0,
            0.4,
            81.0,
            "binary, mean 0.8, ICC 0.5, 8 geometric-size clusters, held back",
        ),
    ),
}


def _rare_part(interval, rare):
    """The warning's part on the runs whose rarer outcome weighs ``R < 1``."""
    worst_run = min(rare, key=rare.get)
    low, high, coverage, se, worst, where = next(
        band for band in _RARE_COVERAGE[interval] if rare[worst_run] < band[1]
    )
    runs = ", ".join(f"{name!r} (R = {r:.2f})" for name, r in rare.items())
    return (
        f"rare events in few clusters: run(s) {runs} score the rarer outcome "
        "(a mean near the end of the scores' range) in fewer than 1 cluster's "
        "worth, R = G_eff x min(p, 1 - p) with p the mean's place in the "
        f"range; with R in [{low:g}, {high:g}) the 95% {interval} interval "
        f"covered {coverage:.1f}% (s.e. {se:.1f}) of simulated data sets, and "
        f"{worst:.1f}% in the lowest setting ({where}), so it is likely too "
        "narrow: score more clusters (more items per cluster help less) before "
        "reading it"
    )


def _warn_few_clusters(groups, interval, pairs, method, stacklevel, rare=None):
    """Warn, with its measured coverage, where an interval printed may not hold.

    Each run's interval: where its lowest setting of the band of ``G_eff``
    covered less than 93% (:data:`_MEASURED_COVERAGE`), and for the runs
    ``rare`` (name to ``R``, the clusters' worth of the rarer outcome,
    :func:`~sklearn_faithful.utils._clusters.rarer_outcome_clusters`, below
    1) with the coverage of their band of R (:data:`_RARE_COVERAGE`). Each pair's, the
    paired cluster bootstrap's percentile interval: with fewer than 40
    clusters, or unequal ones weighing as fewer (``MIN_CLUSTERS``, measured by
    benchmarks/sim_clusters.py, seed 20261126).
    """
    codes, n_clusters = groups
    sizes = np.bincount(codes, minlength=n_clusters).astype(np.float64)
    effective = effective_clusters(sizes)
    unequal = effective * (1 + 1e-9) < n_clusters
    parts = []
    low, high, coverage, se, worst, where = next(
        band for band in _MEASURED_COVERAGE[interval] if effective < band[1]
    )
    if worst < _HOLDS:
        span = f"{low:g} to {high:g}" if math.isfinite(high) else f"{low:g} or more"
        parts.append(
            f"the 95% {interval} interval of a run's mean (printed for each run) "
            f"covered {coverage:.1f}% (s.e. {se:.1f}) of simulated data sets worth "
            f"{span} equal clusters, and {worst:.1f}% in the lowest setting "
            f"({where})"
        )
    if rare:
        parts.append(_rare_part(interval, rare))
    if pairs and effective * (1 + 1e-9) < MIN_CLUSTERS:
        parts.append(
            "each pair's interval, the paired cluster bootstrap's, is too narrow "
            f"below {MIN_CLUSTERS} (95% cluster bootstrap intervals covered as "
            f"little as {_coverage_text(1)})"
            + (
                " and the paired bootstrap test rejects too often; the "
                "permutation test's p-value stays exact"
                if method == "bootstrap"
                else ""
            )
        )
    if not parts:
        return
    worth = (
        f"weigh as {effective:.1f} of equal size ((sum of sizes)^2 / sum of "
        "squared sizes)"
    )
    if unequal and n_clusters >= MIN_CLUSTERS:
        head = f"the {n_clusters} clusters are of unequal sizes and {worth}"
    else:
        few = "only " if n_clusters < MIN_CLUSTERS else ""
        head = f"groups names {few}{n_clusters} clusters" + (
            f", which {worth}" if unequal else ""
        )
    warnings.warn(
        f"{head}: {'; '.join(parts)}. See 'Clustered runs: what we measured' in "
        "the user guide (benchmarks/sim_cluster_means.py).",
        RuntimeWarning,
        stacklevel=stacklevel + 1,
    )


def _stream(root, *names):
    """The generator of one run (or pair of runs): the root seed and the names."""
    keys = [zlib.crc32(name.encode("utf-8")) for name in names]
    return np.random.default_rng(np.random.SeedSequence([*root, len(keys), *keys]))


def _centred(scores, copy=True):
    """``(e, centre, x / 2**e - centre)``: the scores the statistics use.

    Divided by a power of 2 (exact), no square overflows, and centred, the
    spread of scores far from 0 is not lost to cancellation; locations
    (means, bounds) get the centre back, and every value its scale
    (``np.ldexp(value, e)``). The power is that of
    :func:`~sklearn_faithful.utils._scaling.rescaled`, found one run at a
    time; ``copy=False`` rescales and centres ``scores`` (float64, owned by
    the caller) in place, with no second copy of the runs.
    """
    exponent = _exponent(*scores.T)
    if copy:
        scores = np.ldexp(np.asarray(scores, dtype=float), -exponent)
    else:
        np.ldexp(scores, -exponent, out=scores)
    centre = float(np.median(scores)) if scores.size else 0.0
    scores -= centre
    return exponent, centre, scores


def _scale_back(row, keys, exponent):
    """The values of ``keys`` in ``row`` on the scores' own scale.

    The scores are divided by a power of 2 (``utils._scaling.rescaled``),
    exactly, so every statistic is computed on the same numbers at any
    magnitude: p-values and effect sizes are the same, and means, intervals
    and differences scale back exactly.
    """
    for key in keys:
        row[key] = float(np.ldexp(row[key], exponent))


def _pair_row(names, a, b, scores, groups, method, level, rng, run):
    """The comparison of runs ``a`` and ``b`` (B - A): interval, test, counts.

    ``run`` holds the resampling settings and the runs' :func:`_unit_parts`.
    """
    col_a, col_b = scores[:, a], scores[:, b]
    # the items' differences give the counts and the effect size's spread,
    # and are let go before the resampling
    diff = col_b - col_a
    n_items = diff.shape[0]
    wins, losses = int((diff > 0).sum()), int((diff < 0).sum())
    sd = float(np.std(diff, ddof=1)) if n_items > 1 else 0.0
    del diff
    parts = run["parts"]
    data = _resampling([col_a, col_b], groups, [parts[a], parts[b]])
    statistic = data.statistics[1] - data.statistics[0]
    if method == "sign":
        # the exact binomial test of the items B wins against those it loses;
        # for 0/1 scores of one sample each, McNemar's exact test
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # no discordant item
            pvalue = _sign_test_from_counts(
                wins,
                losses,
                n_items,
                alternative="two-sided",
                confidence_level=level,
                stacklevel=2,
            ).pvalue
        dist = run_resamples(
            data.bootstrap_draw(), rng, run["n_resamples"], **run["jobs"]
        )
        ci = _interval(dist, statistic, level, "percentile", "two-sided", warn=False)
    else:
        res = _paired_test(
            data,
            _METRIC,
            method=method,
            n_resamples=run["n_resamples"],
            confidence_level=level,
            alternative="two-sided",
            random_state=rng,
            **run["jobs"],
        )
        pvalue = res.pvalue
        ci = res._confidence_interval(level, warn=False)
    return {
        "run_a": names[a],
        "run_b": names[b],
        "difference": statistic,
        "low": ci.low,
        "high": ci.high,
        "pvalue": float(pvalue),
        "effect_size": statistic / sd if sd > 0 else float("nan"),
        "n_wins": wins,
        "n_ties": n_items - wins - losses,
        "n_losses": losses,
    }


@validate_params(
    {
        "runs": [dict, RunTable],
        "groups": ["array-like", None],
        "method": [StrOptions(set(METHODS))],
        "baseline": [str, None],
        "correction": [StrOptions(set(CORRECTIONS)), None],
        "interval": [StrOptions(set(INTERVALS))],
        # the holdout room's resampling parameters, as its tests take them
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
def compare_runs(
    runs,
    *,
    groups=None,
    method="permutation",
    baseline=None,
    correction="holm",
    interval=INTERVALS[0],
    confidence_level=0.95,
    n_resamples=9999,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Compare evaluation runs scored on the same items.

    Gives each run's mean score with its interval and, for every
    pair of runs (or every run against ``baseline``), the paired difference
    with its interval, a p-value adjusted over the family, an effect size and
    the items won, tied and lost; with every pair compared, the runs
    statistically tied with the best.

    Parameters
    ----------
    runs : RunTable or dict of str to array-like
        The item scores: a :class:`RunTable` from :func:`join_runs` (the
        runs joined by id, with their clusters), or, by run name, arrays of
        shape (n_items,) or (n_items, n_repeats) whose rows are the same
        items in the same order (the repeats, samples or epochs of an item,
        are averaged into its score).
    groups : array-like of shape (n_items,), default=None
        Each item's cluster (passage, prompt, video) when ``runs`` is a
        dict: intervals and tests then resample (and swap) whole clusters.
        A :class:`RunTable` carries its own.
    method : {"permutation", "bootstrap", "sign"}, default="permutation"
        The paired test. ``"permutation"`` swaps the two runs' scores of
        each item (each cluster) with probability 1/2, exact under the
        null that the runs are exchangeable; ``"bootstrap"`` shifts the
        paired bootstrap distribution to mean 0; ``"sign"`` is the exact
        binomial test of the items B wins against those it loses (for 0/1
        scores of one sample each, McNemar's exact test); it takes the items
        as independent, so it refuses clusters.
    baseline : str, default=None
        Compare every other run with this one (B - baseline); None compares
        every pair (B - A, A before B in ``runs``).
    correction : {"holm", "bh"} or None, default="holm"
        Adjustment of the p-values over the pairs: Holm's step-down (the
        family-wise error rate), Benjamini-Hochberg's step-up (the false
        discovery rate), or None.
    interval : {"jackknife-bm", "jackknife-t", "bca", "percentile"}, \
            default="jackknife-bm"
        The interval of each run's mean. ``"jackknife-bm"``: the mean plus
        or minus Student's t quantile times the jackknife standard error
        (leaving out one cluster at a time), on Bell and McCaffrey's degrees
        of freedom, fewer than ``G - 1`` with unequal clusters of alike items;
        without clusters, Student's t interval of the mean. ``"jackknife-t"``:
        the same on ``G - 1`` degrees of freedom (the default before the
        study of clustered means: with 8 clusters of heavy-tailed sizes and
        0/1 scores at intra-cluster correlation 0.5 it covered 81.9%, the
        default 93.2%). ``"bca"`` and ``"percentile"``: the cluster (or
        item) bootstrap's. With few clusters, or unequal ones that weigh as
        few, no interval held everywhere: a warning gives the printed
        interval's measured coverage at that effective number of clusters
        (user guide, "Clustered runs: what we measured"). The paired
        differences get the percentile interval of the paired bootstrap.
    confidence_level : float, default=0.95
        Level of the intervals; the tests and the tied groups use
        ``1 - confidence_level``.
    n_resamples : int, default=9999
        Resamples of each test and bootstrap interval (the jackknife
        intervals draw none).
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
    result : RunComparisonResult
        ``runs``, ``pairs``, ``tied_with_best``, ``summary()``, ``to_dict()``
        and ``plot()``.

    See Also
    --------
    join_runs : Join per-item logs by id, with clusters and repeats.
    sklearn_faithful.holdout.paired_permutation_test : The same test for a
        metric of labels.

    Notes
    -----
    A run's mean is the mean of its item scores, an item's score the mean of
    its samples: the item (with ``groups``, the cluster) is the unit drawn
    by the bootstrap and swapped by the permutation, so the intervals carry
    both the spread across items and across an item's samples. Resampling
    the samples as if they were items, or the items of a cluster one by
    one, gives intervals too narrow and tests that reject too often (user
    guide, "Comparing two evaluation runs", with the simulated rates).

    "Tied with the best": the best run is the one of highest mean; a run is
    tied with it when their adjusted p-value is at least
    ``1 - confidence_level``. The best is chosen from the same data, so the
    group is a screen, not a confidence set of the best run. With a
    ``baseline`` that is not the best, the group comes from the best's
    tests against every other run, adjusted among themselves (they are not
    in ``pairs``).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.eval_logs import compare_runs
    >>> rng = np.random.default_rng(0)
    >>> a = (rng.random(400) < 0.70).astype(int)
    >>> b = np.where(rng.random(400) < 0.2, 1, a)  # B fixes some of A's errors
    >>> res = compare_runs({"A": a, "B": b}, n_resamples=999, random_state=0)
    >>> pair = res.pairs[0]
    >>> round(pair["difference"], 3), pair["pvalue"] < 0.05
    (0.065, True)
    >>> res.tied_with_best
    ['B']
    """
    names, scores, groups = _runs_matrix(runs, groups)
    # a dict's scores are a copy of our own (_runs_matrix): centred in place
    exponent, centre, scores = _centred(scores, copy=isinstance(runs, RunTable))
    n_items, n_runs = scores.shape
    if n_items < 2:
        raise ValueError(
            f"runs[{names[0]!r}] scores {n_items} item(s); resampling needs at least 2."
        )
    if baseline is not None and baseline not in names:
        raise ValueError(f"baseline={baseline!r} is not a run; the runs are {names}.")
    if method == "sign" and groups is not None:
        raise ValueError(
            "method='sign' takes the items as independent, but the items come "
            "in clusters (groups); use method='permutation', which swaps whole "
            "clusters, or method='bootstrap'."
        )
    # compare_runs warns of the intervals it prints, with their own coverage
    checked = _check_groups(groups, n_items, stacklevel=4, warn=False)
    if checked is not None:
        sizes = np.bincount(checked[0], minlength=checked[1])
        rare = {
            name: r
            for name, r in (
                (name, rarer_outcome_clusters(scores[:, j], sizes))
                for j, name in enumerate(names)
            )
            if r < _RARE
        }
        _warn_few_clusters(
            checked, interval, n_runs > 1, method, stacklevel=3, rare=rare
        )
    # one root seed; each run and each pair draws from a stream of its own,
    # keyed by the names, so that a run's interval and a pair's test do not
    # depend on which other runs are compared, nor on their order
    root = _generator(random_state).integers(2**63, size=2).tolist()
    jobs = dict(n_jobs=n_jobs, verbose=verbose, name="compare_runs")
    # the runs' unit parts (codes or cluster sums) serve the bootstrap
    # intervals and the pairs: made after the jackknife intervals, which do
    # not need them, so that the two are never held at once
    jackknife = interval in ("jackknife-bm", "jackknife-t")
    parts = None if jackknife else _unit_parts(list(scores.T), checked)
    run_rows = []
    for j, name in enumerate(names):
        if jackknife:
            mean, (low, high), se, _ = jackknife_mean_interval(
                *cluster_moments(scores[:, j], checked),
                confidence_level,
                df="bm" if interval == "jackknife-bm" else "g-1",
            )
        else:
            res = _bootstrap_interval(
                _resampling([scores[:, j]], checked, [parts[j]]),
                _METRIC,
                n_resamples=n_resamples,
                confidence_level=confidence_level,
                method=interval,
                alternative="two-sided",
                random_state=_stream(root, name),
                **jobs,
            )
            mean, (low, high), se = (
                res.statistic,
                res.confidence_interval,
                res.standard_error,
            )
        run_rows.append(
            {"run": name, "mean": mean, "low": low, "high": high, "standard_error": se}
        )
        for key in ("mean", "low", "high"):
            run_rows[-1][key] += centre
        _scale_back(run_rows[-1], ("mean", "low", "high", "standard_error"), exponent)
    if baseline is None:
        pairs = [(a, b) for a in range(n_runs) for b in range(a + 1, n_runs)]
    else:
        base = names.index(baseline)
        pairs = [(base, b) for b in range(n_runs) if b != base]
    if parts is None and n_runs > 1:
        parts = _unit_parts(list(scores.T), checked)
    setting = {"n_resamples": n_resamples, "jobs": jobs, "parts": parts}
    pair_rows = [
        _pair_row(
            names,
            a,
            b,
            scores,
            checked,
            method,
            confidence_level,
            _stream(root, names[a], names[b]),
            setting,
        )
        for a, b in pairs
    ]

    def adjust(rows):
        return adjust_pvalues(rows, correction)

    adjust(pair_rows)
    for row in pair_rows:
        _scale_back(row, ("difference", "low", "high"), exponent)
    best = tied = None
    if n_runs > 1:
        means = np.array([r["mean"] for r in run_rows])
        top = int(np.argmax(means))
        best = names[top]
        against_best = pair_rows
        if baseline is not None and best != baseline:
            # the pairs compare the baseline; the group tied with the best
            # needs the best's tests against the others, a family of its own
            against_best = adjust(
                [
                    _pair_row(
                        names,
                        top,
                        b,
                        scores,
                        checked,
                        method,
                        confidence_level,
                        _stream(root, names[top], names[b]),
                        setting,
                    )
                    for b in range(n_runs)
                    if b != top
                ]
            )
        alpha = 1 - confidence_level
        tied = [
            name
            for name in names
            if name == best
            or any(
                {p["run_a"], p["run_b"]} == {name, best}
                and p["pvalue_adjusted"] >= alpha
                for p in against_best
            )
        ]
    return RunComparisonResult(
        names=names,
        runs=run_rows,
        pairs=pair_rows,
        best=best,
        tied_with_best=tied,
        baseline=baseline,
        method=method,
        correction=correction,
        interval=interval,
        confidence_level=float(confidence_level),
        n_items=int(n_items),
        n_clusters=None if checked is None else checked[1],
        n_resamples=int(n_resamples),
    )

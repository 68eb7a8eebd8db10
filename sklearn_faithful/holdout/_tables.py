"""The one-test-set tests from a table of counts instead of labels.

Confusion-matrix metrics depend on the labels only through the table of
counts of (true, predicted) pairs, or of (true, A's, B's) triples for two
systems; resampling draws tables. Users whose predictions are aggregated
elsewhere (a group-by in SQL, Spark or Dask) pass the table and get what the
labels would give, number for number, for the same seed.
"""

import numpy as np

from ..utils._param_validation import StrOptions, validate_params
from ..utils._validation import ALTERNATIVE, CONFIDENCE_LEVEL, _check_classes
from ._fast_metrics import TABLE_KINDS, resolve_metric, table_cells
from ._options import INTERVAL_METHODS
from ._resampling import (
    _RESAMPLING_CONSTRAINTS,
    _bootstrap_interval,
    _check_cluster_sizes,
    _check_n_clusters,
    _from_cells,
    _metric_name,
    _paired_test,
    _shared_draws,
    _sign_test_from_counts,
)

# Counts up to 2**53 add up exactly in floating point, as the metrics need.
_MAX_ITEMS = 2**53

# the resampling functions' constraints; a table has no item path to choose
_TABLE_CONSTRAINTS = {
    "table": ["array-like"],
    "labels": ["array-like", None],
    "clustered": ["boolean"],
    **{k: v for k, v in _RESAMPLING_CONSTRAINTS.items() if k != "fast"},
}

_SHAPES = {
    2: "(k, k): table[i, j] counts the items of true class labels[i] "
    "predicted as labels[j]",
    3: "(k, k, k): table[i, j, l] counts the items of true class labels[i] "
    "that A predicts as labels[j] and B as labels[l]",
}


def _check_table(table, labels, ndim, min_samples=2, clustered=False, stacklevel=6):
    """Return the classes and the non-empty cells of a table of counts.

    ``(classes, codes, counts, clusters)``: the classes in sorted order
    (those of no item left out, as the labels would never show them), each
    cell's index on each axis, and its count; the cells in the order the
    labels' path finds them, so that both draw the same resamples. With
    ``clustered``, the first axis indexes clusters and ``clusters`` is the
    sparse (n_clusters, n_cells) matrix of each non-empty cluster's counts;
    otherwise it is None.
    """
    arr = np.asarray(table)
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        raise ValueError(
            f"table must hold counts of items (non-negative integers); got dtype "
            f"{arr.dtype!s}."
        )
    shape = arr.shape[1:] if clustered else arr.shape
    if (
        arr.ndim != ndim + clustered
        or len(set(shape)) != 1
        or shape[0] == 0
        or arr.shape[0] == 0
    ):
        expected = _SHAPES[ndim]
        if clustered:
            expected = "(n_clusters, " + expected[1:].replace("table[", "table[g, ")
        raise ValueError(f"table must have shape {expected}; got shape {arr.shape}.")
    with np.errstate(invalid="ignore"):
        bad = (arr < 0) | (arr > _MAX_ITEMS)
        if arr.dtype.kind == "f":
            bad |= ~np.isfinite(arr) | (arr != np.round(arr))
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"table{list(where)} is {arr[where].item()!r}; counts must be "
            f"non-negative integers, at most 2**53."
        )
    counts = arr.astype(np.int64)
    n = int(counts.sum(dtype=np.float64))
    if n > _MAX_ITEMS or n < min_samples:
        raise ValueError(
            f"table holds {n} items; it must hold from {min_samples} to 2**53."
        )
    if clustered:
        sizes = counts.reshape(counts.shape[0], -1).sum(axis=1)
        counts, sizes = counts[sizes > 0], sizes[sizes > 0]
        _check_n_clusters(counts.shape[0], "table holds", stacklevel)
        _check_cluster_sizes(sizes, stacklevel)
        clusters, counts = counts, counts.sum(axis=0)
    k = counts.shape[0]
    if labels is None:
        classes = np.arange(k)
    else:
        classes = _check_classes(labels)
        if classes.shape[0] != k:
            raise ValueError(
                f"labels has {classes.shape[0]} entries but the table has {k} "
                "classes per axis; give one label per row (and column)."
            )
    # classes of no item would never be seen in the labels: leave them out
    present = np.zeros(k, dtype=bool)
    for axis in range(ndim):
        others = tuple(a for a in range(ndim) if a != axis)
        present |= counts.sum(axis=others) > 0
    order = np.argsort(classes, kind="stable")
    keep = order[present[order]]
    codes, cell_counts = table_cells(counts[np.ix_(*[keep] * ndim)])
    if clustered:
        kept = clusters[np.ix_(np.arange(clusters.shape[0]), *[keep] * ndim)]
        flat = kept.reshape(kept.shape[0], -1)
        cells = np.ravel_multi_index(codes, (keep.size,) * ndim)
        from scipy import sparse

        clusters = sparse.csr_matrix(flat[:, cells])
    else:
        clusters = None
    return classes[keep], codes, cell_counts, clusters


def _table_metric(metric, metric_kwargs):
    """``(func, spec)`` of a metric a table determines, or a ValueError."""
    func, _, spec, weight = resolve_metric(metric, metric_kwargs)
    if weight is not None:
        raise ValueError(
            "metric_kwargs['sample_weight'] cannot go with a table: the counts "
            "are the items' weights. Add the weights into the table instead."
        )
    if spec is None or spec["kind"] not in TABLE_KINDS:
        raise ValueError(
            f"metric={metric!r} cannot be computed from a table of counts. A "
            "table determines accuracy, balanced accuracy, precision, recall, "
            "F-beta, Jaccard, Matthews' correlation and unweighted Cohen's kappa "
            "(by name or scikit-learn's function, with average, pos_label, beta, "
            "zero_division or adjusted); pass the labels to the function without "
            "'_from_table' for any other metric (weighted kappa: "
            "kappa_confidence_interval)."
        )
    return func, spec


def _table_data(table, labels, metric, metric_kwargs, ndim, clustered, stacklevel=6):
    """The resampling data of a table (as the labels give it), and the metric's name."""
    func, spec = _table_metric(metric, metric_kwargs)
    classes, codes, counts, clusters = _check_table(
        table, labels, ndim, clustered=clustered, stacklevel=stacklevel
    )
    data = _from_cells(classes, codes, counts, spec, clusters)
    return data, _metric_name(metric, func)


@validate_params(
    {**_TABLE_CONSTRAINTS, "method": [StrOptions(set(INTERVAL_METHODS))]},
    prefer_skip_nested_validation=True,
)
def bootstrap_confidence_interval_from_table(
    table,
    *,
    labels=None,
    clustered=False,
    metric="accuracy",
    metric_kwargs=None,
    n_resamples=9999,
    confidence_level=0.95,
    method="percentile",
    alternative="two-sided",
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Bootstrap confidence interval of a metric from its confusion matrix.

    What :func:`bootstrap_confidence_interval` gives for the labels the table
    counts, number for number with the same ``random_state``: each resample
    is a multinomial draw of the table.

    Parameters
    ----------
    table : array-like of shape (n_classes, n_classes)
        Counts of items: ``table[i, j]`` items of true class ``labels[i]``
        predicted as ``labels[j]``, as :func:`sklearn.metrics.confusion_matrix`
        gives them. Non-negative integers (whole floats are accepted).
    labels : array-like of shape (n_classes,), default=None
        The class of each row (and column). None means ``0, ..., n_classes -
        1``. ``pos_label`` and the binary average refer to these labels.
    clustered : bool, default=False
        Whether the table has a first axis more, the cluster:
        ``table[g, i, j]`` counts the items of cluster ``g``. Each resample
        then draws whole clusters, as ``groups`` does in
        :func:`bootstrap_confidence_interval` (the clusters in the order of
        their sorted labels there); a Dask or SQL group-by on (cluster,
        true, predicted) gives this table.
    metric : str or callable, default="accuracy"
        A metric the table determines: ``"accuracy"``,
        ``"balanced_accuracy"``, ``"precision"``, ``"recall"``, ``"f1"``,
        ``"jaccard"`` (the last four optionally with ``_micro``, ``_macro``
        or ``_weighted``), ``"matthews_corrcoef"`` or ``"cohen_kappa"``
        (unweighted), or scikit-learn's function of one of them, or
        ``fbeta_score`` (a ``functools.partial`` of one too).
    metric_kwargs : dict, default=None
        Keyword arguments of the metric: ``average``, ``pos_label``,
        ``beta``, ``zero_division``, ``adjusted``.
    n_resamples, confidence_level, method, alternative, random_state, n_jobs, \
verbose
        As in :func:`bootstrap_confidence_interval`. ``method="bca"`` takes
        its jackknife over the table's cells.

    Returns
    -------
    result : BootstrapIntervalResult

    See Also
    --------
    bootstrap_confidence_interval : The same from the labels, for any metric.

    Examples
    --------
    >>> from sklearn_faithful.holdout import bootstrap_confidence_interval_from_table
    >>> table = [[40, 10], [10, 40]]  # rows: true class, columns: predicted
    >>> res = bootstrap_confidence_interval_from_table(
    ...     table, labels=["cat", "dog"], metric="f1",
    ...     metric_kwargs={"pos_label": "dog"}, random_state=0)
    >>> round(res.statistic, 2), res.n_samples
    (0.8, 100)
    """
    data, metric_name = _table_data(
        table, labels, metric, metric_kwargs, ndim=2, clustered=clustered
    )
    return _bootstrap_interval(
        data,
        metric_name,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        method=method,
        alternative=alternative,
        random_state=random_state,
        n_jobs=n_jobs,
        verbose=verbose,
        name="bootstrap_confidence_interval_from_table",
    )


def _table_results(
    kind,
    table,
    metrics,
    *,
    labels=None,
    clustered=False,
    n_resamples=9999,
    confidence_level=0.95,
    method="percentile",
    alternative="two-sided",
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Several metrics' results on one table, from one set of resamples.

    ``kind``: ``"interval"`` (:func:`bootstrap_confidence_interval_from_table`,
    with ``method``), ``"bootstrap"`` or ``"permutation"`` (the paired tests
    from a table); ``metrics``: ``(metric, metric_kwargs)`` pairs. A table's
    resamples do not depend on the metric, so one draw serves them all, and
    each result is the public function's for its metric with the same
    integer ``random_state``. The command line asks for several metrics at
    once (``compare --metric accuracy,f1``); the arguments are checked there.
    """
    ndim = 2 if kind == "interval" else 3
    built = [
        _table_data(table, labels, m, kw, ndim=ndim, clustered=clustered, stacklevel=7)
        for m, kw in metrics
    ]
    name = (
        "bootstrap_confidence_interval_from_table"
        if kind == "interval"
        else f"paired_{kind}_test_from_table"
    )
    kinds = ["permutation", "bootstrap"] if kind == "permutation" else ["bootstrap"]
    draws = _shared_draws(
        [data for data, _ in built],
        kinds,
        n_resamples,
        random_state,
        n_jobs,
        verbose,
        name,
    )
    options = dict(
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        alternative=alternative,
        random_state=random_state,
        n_jobs=n_jobs,
        verbose=verbose,
        name=name,
    )
    results = []
    for j, (data, metric_name) in enumerate(built):
        columns = [np.ascontiguousarray(values[:, j]) for values in draws]
        if kind == "interval":
            result = _bootstrap_interval(
                data, metric_name, method=method, dist=columns[0], **options
            )
        else:
            result = _paired_test(
                data, metric_name, method=kind, draws=columns, **options
            )
        results.append(result)
    return results


def _paired_from_table(
    method, table, labels, clustered, metric, metric_kwargs, **options
):
    data, metric_name = _table_data(
        table, labels, metric, metric_kwargs, ndim=3, clustered=clustered, stacklevel=7
    )
    return _paired_test(
        data,
        metric_name,
        method=method,
        name=f"paired_{method}_test_from_table",
        **options,
    )


_PAIRED_TABLE_DOC = """{summary}

    What :func:`{labels_function}` gives for the labels the table counts,
    number for number with the same ``random_state``.

    Parameters
    ----------
    table : array-like of shape (n_classes, n_classes, n_classes)
        Counts of items: ``table[i, j, l]`` items of true class ``labels[i]``
        that A predicts as ``labels[j]`` and B as ``labels[l]``.
        Non-negative integers (whole floats are accepted).
    labels, metric, metric_kwargs
        As in :func:`bootstrap_confidence_interval_from_table`.
    clustered : bool, default=False
        Whether the table has a first axis more, the cluster:
        ``table[g, i, j, l]``. Each resample then draws whole clusters (and
        each permutation swaps whole clusters), as ``groups`` does in
        :func:`{labels_function}`.
    n_resamples, confidence_level, alternative, random_state, n_jobs, verbose
        As in :func:`{labels_function}`.

    Returns
    -------
    result : PairedTestResult

    See Also
    --------
    {labels_function} : The same from the labels, for any metric.
    sign_test_from_table : The exact test of accuracy from the same table.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.holdout import {name}
    >>> table = np.zeros((2, 2, 2), dtype=int)
    >>> table[0, 0, 0] = table[1, 1, 1] = 40  # both right
    >>> table[0, 1, 0] = table[1, 0, 1] = 8   # only B right
    >>> table[0, 0, 1] = table[1, 1, 0] = 2   # only A right
    >>> res = {name}(table, random_state=0)
    >>> round(res.statistic, 2), res.pvalue < 0.05
    (0.12, True)
    """


@validate_params(_TABLE_CONSTRAINTS, prefer_skip_nested_validation=True)
def paired_bootstrap_test_from_table(
    table,
    *,
    labels=None,
    clustered=False,
    metric="accuracy",
    metric_kwargs=None,
    n_resamples=9999,
    confidence_level=0.95,
    alternative="two-sided",
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    return _paired_from_table(
        "bootstrap",
        table,
        labels,
        clustered,
        metric,
        metric_kwargs,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        alternative=alternative,
        random_state=random_state,
        n_jobs=n_jobs,
        verbose=verbose,
    )


@validate_params(_TABLE_CONSTRAINTS, prefer_skip_nested_validation=True)
def paired_permutation_test_from_table(
    table,
    *,
    labels=None,
    clustered=False,
    metric="accuracy",
    metric_kwargs=None,
    n_resamples=9999,
    confidence_level=0.95,
    alternative="two-sided",
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    return _paired_from_table(
        "permutation",
        table,
        labels,
        clustered,
        metric,
        metric_kwargs,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        alternative=alternative,
        random_state=random_state,
        n_jobs=n_jobs,
        verbose=verbose,
    )


paired_bootstrap_test_from_table.__doc__ = _PAIRED_TABLE_DOC.format(
    summary="Paired bootstrap test of ``metric(B) - metric(A)`` from the joint table.",
    labels_function="paired_bootstrap_test",
    name="paired_bootstrap_test_from_table",
)
paired_permutation_test_from_table.__doc__ = _PAIRED_TABLE_DOC.format(
    summary="Approximate randomization test of ``metric(B) - metric(A)`` from the "
    "joint table.",
    labels_function="paired_permutation_test",
    name="paired_permutation_test_from_table",
)


@validate_params(
    {
        "table": ["array-like"],
        "alternative": ALTERNATIVE,
        "confidence_level": CONFIDENCE_LEVEL,
    },
    prefer_skip_nested_validation=True,
)
def sign_test_from_table(table, *, alternative="two-sided", confidence_level=0.95):
    """Exact sign test (McNemar's) from the joint (true, A, B) table.

    What :func:`sign_test` gives for the labels the table counts.

    Parameters
    ----------
    table : array-like of shape (n_classes, n_classes, n_classes)
        Counts of items: ``table[i, j, l]`` items of true class ``i`` that A
        predicts as class ``j`` and B as class ``l``. Non-negative integers.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: H1 is that B wins more than half of the discordant
        items.
    confidence_level : float, default=0.95
        Level of the Clopper-Pearson interval of B's share.

    Returns
    -------
    result : SignTestResult

    See Also
    --------
    sign_test : The same from the labels.

    Notes
    -----
    B alone is right on ``c = sum_i sum_{j != i} table[i, j, i]`` items and
    A alone on ``b = sum_i sum_{l != i} table[i, i, l]``; ``c ~ Binomial(b +
    c, 1/2)`` under the null hypothesis.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.holdout import sign_test_from_table
    >>> table = np.zeros((2, 2, 2), dtype=int)
    >>> table[1, 1, 1] = 20     # both right
    >>> table[1, 0, 1] = 8      # only B right
    >>> table[0, 1, 1] = 2      # both wrong
    >>> res = sign_test_from_table(table)
    >>> res.n_b_better, res.n_a_better, round(res.pvalue, 4)
    (8, 0, 0.0078)
    """
    _, (t, a, b), counts, _ = _check_table(table, None, ndim=3, min_samples=1)
    right_a, right_b = a == t, b == t
    return _sign_test_from_counts(
        int(counts[right_b & ~right_a].sum()),
        int(counts[right_a & ~right_b].sum()),
        int(counts.sum()),
        alternative=alternative,
        confidence_level=confidence_level,
        stacklevel=4,  # the user, validate_params' wrapper, sign_test_from_table
    )

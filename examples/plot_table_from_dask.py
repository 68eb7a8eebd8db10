"""
=====================================================
Exact paired tests on a Parquet data set, with Dask
=====================================================

Evaluation logs often live in Parquet files too large for one machine's
memory: one row per test item with its true class and the predictions of
two systems, A and B. This example aggregates such a data set with
``dask.dataframe`` on a local cluster of worker processes, and runs the
paired permutation test, the paired bootstrap test and a bootstrap interval
on the aggregated counts. They give the numbers the labels give, to the last
digit, for the same seed.

Run: python examples/plot_table_from_dask.py [figure.png] (with a path, the
figure is written there; without one, it is shown). It writes its Parquet
files into a temporary directory, which it removes at the end, and needs the
``dask`` extra (``pip install "sklearn-faithful[dask]"``).
"""

# %%
# Why a table is enough
# ---------------------
# Accuracy, precision, recall and F-beta depend on the items only through
# how many items fall in each cell (true class, A's prediction, B's
# prediction): with ``k`` classes, a ``(k, k, k)`` table of counts. Swapping
# A's and B's predictions on an item moves it from cell ``(i, j, l)`` to cell
# ``(i, l, j)``, and drawing items with replacement draws counts per cell, so
# the resamples of the test are draws of that table too. The labels' entry
# counts this very table first and draws from it; given the table, the
# ``*_from_table`` functions make the same draws from the same seed.
#
# Dask starts its worker processes by importing this script again, so the
# code that does the work runs under ``if __name__ == "__main__":`` (as
# sphinx-gallery and ``python examples/plot_table_from_dask.py`` run it).
import sys
import tempfile
import time
from pathlib import Path

import dask.dataframe as dd
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from distributed import Client, LocalCluster

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval_from_table,
    paired_bootstrap_test_from_table,
    paired_permutation_test,
    paired_permutation_test_from_table,
)

N_CLASSES = 10
N_FILES = 4
ROWS_PER_FILE = 1_000_000
ROWS_PER_GROUP = 250_000
OPTIONS = dict(metric="f1_macro", n_resamples=9999, random_state=0)


def write_predictions(directory, seed=0):
    """Write ``N_FILES`` Parquet files of (y_true, y_pred_a, y_pred_b) rows.

    One item in five is hard: A gets it right with probability 0.40, B with
    0.403; on the easy ones both are right with probability 0.92. A wrong
    prediction is any other class, uniformly.
    """
    weights = np.linspace(1, 3, N_CLASSES)  # classes of unequal size
    for i, rng in enumerate(np.random.default_rng(seed).spawn(N_FILES)):
        y_true = rng.choice(N_CLASSES, ROWS_PER_FILE, p=weights / weights.sum())
        hard = rng.random(ROWS_PER_FILE) < 0.2
        columns = {"y_true": y_true}
        for name, p_hard in [("y_pred_a", 0.40), ("y_pred_b", 0.403)]:
            right = rng.random(ROWS_PER_FILE) < np.where(hard, p_hard, 0.92)
            other = (y_true + rng.integers(1, N_CLASSES, ROWS_PER_FILE)) % N_CLASSES
            columns[name] = np.where(right, y_true, other)
        table = pa.table({name: c.astype(np.int8) for name, c in columns.items()})
        pq.write_table(
            table, directory / f"part-{i}.parquet", row_group_size=ROWS_PER_GROUP
        )


# %%
# A Parquet data set of four million items
# ----------------------------------------
# Four files of a million rows, each in four row groups, in a temporary
# directory.
if __name__ == "__main__":
    tmp = tempfile.TemporaryDirectory()
    directory = Path(tmp.name)
    write_predictions(directory)
    files = sorted(directory.glob("*.parquet"))
    for path in files:
        meta = pq.ParquetFile(path).metadata
        print(f"{path.name}: {meta.num_rows:,} rows in {meta.num_row_groups} groups")

# %%
# The joint table, counted on the cluster
# ---------------------------------------
# Two worker processes of one thread each read the files, one partition per
# file. The group-by counts each partition's rows per (y_true, y_pred_a,
# y_pred_b) triple on the worker that read it, and adds the partial counts
# up on the workers; the client receives the sum, one row per triple that
# occurs, at most ``k**3 = 1,000`` rows whatever the number of items. The
# rows never leave the workers, and each worker, with its one thread, reads
# and counts one partition at a time.
if __name__ == "__main__":
    start = time.perf_counter()
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        frame = dd.read_parquet(directory)
        counts = frame.groupby(["y_true", "y_pred_a", "y_pred_b"]).size().compute()
        n_partitions = frame.npartitions
    print(
        f"{n_partitions} partitions -> {len(counts)} (truth, A, B) counts "
        f"of {counts.sum():,} items in {time.perf_counter() - start:.1f} s "
        "(cluster start and stop included)"
    )

    # the counts into a (k, k, k) table; labels[i] is the class of row i
    triples = [counts.index.get_level_values(level) for level in range(3)]
    labels = np.unique(np.concatenate(triples))
    table = np.zeros((len(labels),) * 3, dtype=np.int64)
    table[tuple(np.searchsorted(labels, t) for t in triples)] = counts.to_numpy()

# %%
# The tests on the table
# ----------------------
# Macro F1, 9,999 resamples. The paired tests take the joint table; the
# interval of A's macro F1 takes A's (truth, prediction) table, the joint
# table summed over B's axis.
if __name__ == "__main__":
    start = time.perf_counter()
    permutation = paired_permutation_test_from_table(table, labels=labels, **OPTIONS)
    print(f"from the table in {time.perf_counter() - start:.1f} s")
    print(permutation.summary())
    bootstrap = paired_bootstrap_test_from_table(table, labels=labels, **OPTIONS)
    print(bootstrap.summary())
    interval_a = bootstrap_confidence_interval_from_table(
        table.sum(axis=2), labels=labels, **OPTIONS
    )
    print(interval_a.summary())

# %%
# The same numbers from the labels
# --------------------------------
# The label entry, on the same data read with pandas into the client's
# memory (all four million rows, which the table spares it), with the same
# seed: every field of the result, and the 9,999 permuted differences, equal.
if __name__ == "__main__":
    rows = pd.read_parquet(directory)
    start = time.perf_counter()
    from_labels = paired_permutation_test(
        rows["y_true"].to_numpy(),
        rows["y_pred_a"].to_numpy(),
        rows["y_pred_b"].to_numpy(),
        **OPTIONS,
    )
    print(f"from the labels in {time.perf_counter() - start:.1f} s")
    print(
        f"statistic: table {permutation.statistic!r}, labels {from_labels.statistic!r}"
    )
    print(f"p-value:   table {permutation.pvalue!r}, labels {from_labels.pvalue!r}")
    print("to_dict() equal:", permutation.to_dict() == from_labels.to_dict())
    print(
        "null distributions equal:",
        np.array_equal(permutation.null_distribution, from_labels.null_distribution),
    )
    tmp.cleanup()

# %%
# The permuted differences of macro F1 around zero, and the observed one
# outside most of them: the p-value is the share of permutations at least as
# far from zero.
if __name__ == "__main__":
    fig, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
    points = 100 * permutation.null_distribution  # in points of macro F1
    ax.hist(points, bins=60, color="0.7")
    ax.axvline(100 * permutation.statistic, color="C3", label="observed B - A")
    ax.axvline(
        -100 * permutation.statistic, color="C3", linestyle=":", label="as far below"
    )
    ax.set_xlabel("B - A in macro F1 points, under 9,999 permutations")
    ax.set_ylabel("permutations")
    ax.set_title(f"p = {permutation.pvalue:.4f} (two-sided), {counts.sum():,} items")
    ax.legend(fontsize=8)
    if len(sys.argv) > 1:
        fig.savefig(sys.argv[1], dpi=120)
        plt.close(fig)
        print(f"figure written to {sys.argv[1]}")
    else:
        plt.show()

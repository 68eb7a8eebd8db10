"""The table entry fed by a Dask group-by over Parquet files (the dask extra)."""

import numpy as np
import pytest

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    bootstrap_confidence_interval_from_table,
    paired_bootstrap_test,
    paired_bootstrap_test_from_table,
    paired_permutation_test,
    paired_permutation_test_from_table,
)

from .test_tables import _same

dd = pytest.importorskip("dask.dataframe")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")

# dask's Parquet reader, not ours, calls an API that pandas 3.1 deprecates
pytestmark = pytest.mark.filterwarnings(
    "ignore:The inplace keyword in DataFrame.reset_index:DeprecationWarning"
)

COLUMNS = ["y_true", "y_pred_a", "y_pred_b"]
NAMES = np.array(["cat", "dog", "eel", "fox"])


@pytest.fixture(scope="module")
def parquet_dir(tmp_path_factory):
    """Three files of 300 rows in row groups of 100; class names as strings."""
    directory = tmp_path_factory.mktemp("predictions")
    rng = np.random.default_rng(0)
    for i in range(3):
        y = rng.integers(0, 4, 300)
        a = np.where(rng.random(300) < 0.7, y, rng.integers(0, 4, 300))
        b = np.where(rng.random(300) < 0.75, y, rng.integers(0, 4, 300))
        table = pa.table({c: NAMES[v] for c, v in zip(COLUMNS, [y, a, b], strict=True)})
        pq.write_table(table, directory / f"part-{i}.parquet", row_group_size=100)
    return directory


@pytest.fixture(scope="module")
def joint_table(parquet_dir):
    """``(table, labels)`` from a group-by over the partitions, as users run it."""
    frame = dd.read_parquet(parquet_dir)
    assert frame.npartitions >= 2
    counts = frame.groupby(COLUMNS).size().compute(scheduler="synchronous")
    triples = [counts.index.get_level_values(level) for level in range(3)]
    labels = np.unique(np.concatenate(triples))
    table = np.zeros((len(labels),) * 3, dtype=np.int64)
    table[tuple(np.searchsorted(labels, t) for t in triples)] = counts.to_numpy()
    assert table.sum() == 900
    return table, labels


@pytest.fixture(scope="module")
def rows(parquet_dir):
    """The same data as label arrays, read whole."""
    frame = pd.read_parquet(parquet_dir)
    return [frame[c].to_numpy() for c in COLUMNS]


OPTIONS = dict(metric="f1_macro", n_resamples=999, random_state=4)


@pytest.mark.parametrize(
    "from_labels, from_table",
    [
        (paired_permutation_test, paired_permutation_test_from_table),
        (paired_bootstrap_test, paired_bootstrap_test_from_table),
    ],
)
def test_paired_tests_from_a_dask_table_equal_the_labels(
    joint_table, rows, from_labels, from_table
):
    table, labels = joint_table
    _same(from_labels(*rows, **OPTIONS), from_table(table, labels=labels, **OPTIONS))


def test_interval_from_a_dask_table_equals_the_labels(joint_table, rows):
    table, labels = joint_table
    y_true, y_pred_a, _ = rows
    _same(
        bootstrap_confidence_interval(y_true, y_pred_a, **OPTIONS),
        bootstrap_confidence_interval_from_table(
            table.sum(axis=2), labels=labels, **OPTIONS
        ),
    )

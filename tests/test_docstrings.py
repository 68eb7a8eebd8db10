"""Functions of one family share their parameter text word for word."""

import inspect
import re

import pytest

from sklearn_faithful import metrics

FAMILY = [
    metrics.cprecision_score,
    metrics.crecall_score,
    metrics.cf1_score,
    metrics.cfbeta_score,
    metrics.cprecision_recall_fscore_support,
]
SHARED = ["y_true", "y_proba", "labels", "pos_label", "sample_weight", "zero_division"]


def _parameter_text(func, name):
    doc = inspect.getdoc(func)
    section = doc.split("Parameters\n----------\n", 1)[1].split("\n\nReturns", 1)[0]
    blocks = re.split(r"\n(?=\S)", section)
    for block in blocks:
        if block.startswith(f"{name} :"):
            return block.strip()
    raise AssertionError(f"{func.__name__} does not document {name}")


@pytest.mark.parametrize("name", SHARED)
def test_shared_parameters_documented_identically(name):
    texts = {f.__name__: _parameter_text(f, name) for f in FAMILY}
    assert len(set(texts.values())) == 1, texts


def test_average_documented_identically_apart_from_default():
    texts = {
        _parameter_text(f, "average")
        .replace("default=None", "default='binary'")
        .replace("the metrics for each class are", "the metric for each class is")
        for f in FAMILY
    }
    assert len(texts) == 1

"""The probabilistic confusion matrix display."""

import sys

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix

from sklearn_faithful.metrics import (
    ProbabilisticConfusionMatrixDisplay,
    probabilistic_confusion_matrix,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


def test_from_estimator_shows_both_matrices():
    X, y = load_iris(return_X_y=True)
    clf = LogisticRegression(max_iter=1000).fit(X, y)
    disp = ProbabilisticConfusionMatrixDisplay.from_estimator(clf, X, y)
    assert_array_equal(disp.confusion_matrix, confusion_matrix(y, clf.predict(X)))
    assert_allclose(
        disp.probabilistic_confusion_matrix,
        probabilistic_confusion_matrix(y, clf.predict_proba(X)),
    )
    assert disp.axes_.shape == (2,)
    assert disp.axes_[1].get_title() == "Probabilistic confusion matrix"
    assert len(disp.axes_[0].texts) == 9


def test_from_predictions_one_d_and_normalize():
    import matplotlib.pyplot as plt

    y = np.array(["a", "b", "b", "a"])
    p_b = np.array([0.2, 0.7, 0.4, 0.6])
    fig, axes = plt.subplots(1, 2)
    disp = ProbabilisticConfusionMatrixDisplay.from_predictions(
        y, p_b, pos_label="b", normalize="true", ax=axes, colorbar=False
    )
    assert_allclose(disp.probabilistic_confusion_matrix, [[0.6, 0.4], [0.45, 0.55]])
    # argmax: sample 3 (p_b = 0.4) -> "a", sample 4 (p_b = 0.6) -> "b".
    assert_allclose(disp.confusion_matrix, [[0.5, 0.5], [0.5, 0.5]])
    assert disp.figure_ is fig
    with pytest.raises(ValueError, match="two matplotlib Axes"):
        disp.plot(ax=axes[:1])
    plt.close("all")


def test_missing_matplotlib_gives_clear_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"pip install 'sklearn-faithful\[plot\]'"):
        ProbabilisticConfusionMatrixDisplay.from_predictions([0, 1], [0.2, 0.8])

"""ReliabilityDisplay: the CORP or binned curve, its consistency band and the
histogram, drawn with Agg and checked on their artists."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.calibration import calibration_curve
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from sklearn_faithful.calibration import (
    ReliabilityDisplay,
    calibration_error,
    corp_decomposition,
)
from sklearn_faithful.utils._calibration import isotonic_recalibration
from sklearn_faithful.utils._param_validation import InvalidParameterError

from ..test_plot import _labels_inside_figure

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    return LogisticRegression().fit(X, y), X, y


def _calibrated(n, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.random(n)
    return (rng.random(n) < p).astype(int), p


def test_attributes_and_legend(cancer):
    clf, X, y = cancer
    disp = ReliabilityDisplay.from_estimator(clf, X, y, random_state=0)
    p = clf.predict_proba(X)
    assert disp.ax_.figure is disp.figure_
    assert disp.line_ in disp.ax_.lines
    assert disp.band_ in disp.ax_.collections
    assert disp.hist_ax_ in disp.ax_.child_axes
    heights = [bar.get_height() for bar in disp.hist_]
    assert_array_equal(heights, np.histogram(p[:, 1], bins=20, range=(0, 1))[0])
    ece = calibration_error(y, p)
    mcb = corp_decomposition(y, p).miscalibration
    assert disp.calibration_error == pytest.approx(ece)
    assert disp.miscalibration == pytest.approx(mcb)
    assert disp.line_.get_label() == (
        f"LogisticRegression (L2 CE = {ece:.3f}, MCB = {mcb:.3f})"
    )
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend == [
        "Perfectly calibrated",
        disp.line_.get_label(),
        "90% band of a calibrated model",
    ]
    assert disp.pos_label == 1
    assert disp.ax_.get_xlabel() == "Predicted probability (Positive class: 1)"
    assert _labels_inside_figure(disp.figure_)


def test_isotonic_curve_is_the_corp_curve(cancer):
    clf, X, y = cancer
    disp = ReliabilityDisplay.from_estimator(clf, X, y, bands=False)
    conf = clf.predict_proba(X)[:, 1]
    _, values, fitted = isotonic_recalibration(conf, (y == 1).astype(float))
    assert_array_equal(disp.line_.get_xdata(), values)
    assert_array_equal(disp.line_.get_ydata(), fitted)
    assert disp.band_ is None and disp.band_low is None
    assert len(disp.ax_.get_legend().get_texts()) == 2


def test_binned_curve_is_sklearns_calibration_curve():
    y, p = _calibrated(500)
    for strategy in ("uniform", "quantile"):
        disp = ReliabilityDisplay.from_predictions(
            y, p, curve="bins", n_bins=8, strategy=strategy, random_state=0
        )
        prob_true, prob_pred = calibration_curve(y, p, n_bins=8, strategy=strategy)
        assert_allclose(disp.line_.get_xdata(), prob_pred)
        assert_allclose(disp.line_.get_ydata(), prob_true)
        assert disp.band_low.shape == prob_pred.shape
        assert disp.line_.get_marker() == "s"


@pytest.mark.parametrize("curve", ["isotonic", "bins"])
def test_band_contains_the_diagonal(cancer, curve):
    clf, X, y = cancer
    disp = ReliabilityDisplay.from_estimator(clf, X, y, curve=curve, random_state=0)
    x = disp.prob_pred
    assert np.all(disp.band_low <= disp.band_high)
    outside = np.maximum(disp.band_low - x, x - disp.band_high)
    if curve == "bins":
        assert np.all(outside <= 0)
    else:
        # The isotonic fit of a calibrated model is pinned at 0 (1) below
        # (above) its first (last) positive (negative) outcome: a gap of
        # the size of those smallest (largest) probabilities, here < 0.005.
        assert outside.max() < 0.005
        inner = (x > 0.01) & (x < 0.99)
        assert np.all(outside[inner] <= 0)


def test_band_holds_a_calibrated_curve_and_narrows_with_n():
    widths = []
    for n in (300, 3000):
        y, p = _calibrated(n, seed=1)
        disp = ReliabilityDisplay.from_predictions(y, p, random_state=0)
        inside = (disp.band_low <= disp.prob_true) & (disp.prob_true <= disp.band_high)
        assert inside.mean() > 0.8  # 90% pointwise
        mid = (disp.prob_pred > 0.3) & (disp.prob_pred < 0.7)
        widths.append(np.mean(disp.band_high[mid] - disp.band_low[mid]))
    assert widths[1] < 0.6 * widths[0]  # about 1 / sqrt(10) ** (2 / 3)


def test_same_random_state_same_band():
    y, p = _calibrated(400)
    for curve in ("isotonic", "bins"):
        a = ReliabilityDisplay.from_predictions(y, p, curve=curve, random_state=3)
        b = ReliabilityDisplay.from_predictions(y, p, curve=curve, random_state=3)
        c = ReliabilityDisplay.from_predictions(y, p, curve=curve, random_state=4)
        assert_array_equal(a.band_low, b.band_low)
        assert_array_equal(a.band_high, b.band_high)
        assert not np.array_equal(a.band_high, c.band_high)


def test_from_estimator_equals_from_predictions(cancer):
    clf, X, y = cancer
    est = ReliabilityDisplay.from_estimator(clf, X, y, random_state=0)
    pred = ReliabilityDisplay.from_predictions(
        y, clf.predict_proba(X), random_state=0, name="LogisticRegression"
    )
    for attr in ("prob_true", "prob_pred", "y_proba", "band_low", "band_high"):
        assert_array_equal(getattr(est, attr), getattr(pred, attr))
    assert est.line_.get_label() == pred.line_.get_label()
    # the 1-D probability of the positive class draws the same diagram
    one_d = ReliabilityDisplay.from_predictions(
        y, clf.predict_proba(X)[:, 1], random_state=0
    )
    assert_array_equal(one_d.band_high, est.band_high)


def test_pos_label_and_top_label():
    y, p = _calibrated(300)
    names = np.array(["neg", "pos"])[y]
    disp = ReliabilityDisplay.from_predictions(
        names, 1 - p, pos_label="neg", bands=False
    )
    assert disp.pos_label == "neg"
    assert_array_equal(disp.y_proba, 1 - p)
    X, y = load_iris(return_X_y=True)
    clf = LogisticRegression(max_iter=1000).fit(X, y)
    disp = ReliabilityDisplay.from_estimator(clf, X, y, random_state=0)
    top = clf.predict_proba(X).max(axis=1)
    assert_array_equal(disp.y_proba, top)
    assert disp.pos_label is None
    assert disp.ax_.get_xlabel() == "Predicted probability"
    assert disp.calibration_error == pytest.approx(
        calibration_error(y, clf.predict_proba(X))
    )


def test_displays_share_one_axes(cancer):
    clf, X, y = cancer
    fig, ax = plt.subplots()
    a = ReliabilityDisplay.from_estimator(clf, X, y, ax=ax, random_state=0)
    b = ReliabilityDisplay.from_predictions(
        y, clf.predict_proba(X), ax=ax, name="again", curve="bins", color="C3"
    )
    assert a.figure_ is b.figure_ is fig
    assert a.hist_ax_ is b.hist_ax_  # one inset
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels.count("Perfectly calibrated") == 1
    assert b.line_.get_color() == "C3"
    b.plot(ax=ax, show_hist=False, ref_line=False, ls="--")  # an alias of kwargs
    assert b.hist_ is None and b.hist_ax_ is None
    assert b.line_.get_linestyle() == "--"


def test_no_clipped_labels_with_long_names():
    y, p = _calibrated(200)
    disp = ReliabilityDisplay.from_predictions(
        np.array(["a long negative class", "a long positive class"])[y],
        p,
        name="Pipeline(StandardScaler, LogisticRegression)",
        random_state=0,
    )
    assert _labels_inside_figure(disp.figure_)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"curve": "binned"}, "'curve' parameter"),
        ({"multi_class": "classwise"}, "'multi_class' parameter"),
        ({"n_bins": 0}, "'n_bins' parameter"),
        ({"strategy": "kmeans"}, "'strategy' parameter"),
        ({"n_resamples": 1}, "'n_resamples' parameter"),
        ({"n_resamples": True}, "'n_resamples' parameter"),
        ({"confidence_level": 1.0}, "'confidence_level' parameter"),
        ({"random_state": "seed"}, "'random_state' parameter"),
        ({"bands": "yes"}, "'bands' parameter"),
        ({"show_hist": 1}, "'show_hist' parameter"),
        ({"name": 3}, "'name' parameter"),
    ],
)
def test_bad_parameters(params, match):
    y, p = _calibrated(50)
    with pytest.raises(InvalidParameterError, match=match):
        ReliabilityDisplay.from_predictions(y, p, **params)


@pytest.mark.parametrize(
    "y_true, y_proba, match",
    [
        ([0, 1, 1], [0.2, 1.3, 0.5], r"\[0, 1\]"),
        ([0, 1, 1], [0.2, np.nan, 0.5], "NaN"),
        ([1, 1, 1], [0.2, 0.4, 0.5], "single class"),
        ([0, 1, 2], [[0.5, 0.5], [0.2, 0.8], [0.3, 0.7]], "not among|classes"),
        ([0, 1], [[0.5, 0.6], [0.2, 0.8]], "sums to"),
    ],
)
def test_bad_data_gets_the_rooms_error(y_true, y_proba, match):
    with pytest.raises(ValueError, match=match):
        ReliabilityDisplay.from_predictions(y_true, y_proba)


def test_bad_display_arrays():
    with pytest.raises(ValueError, match="pass both or neither"):
        ReliabilityDisplay([0.5], [0.5], [0.5], band_low=[0.4]).plot()
    with pytest.raises(ValueError, match="of its shape"):
        ReliabilityDisplay([0.5, 0.6], [0.5], [0.5]).plot()
    with pytest.raises(InvalidParameterError, match="'curve' parameter"):
        ReliabilityDisplay([0.5], [0.5], [0.5], curve="line")


def test_from_estimator_needs_a_fitted_classifier():
    with pytest.raises(InvalidParameterError, match="'estimator' parameter"):
        ReliabilityDisplay.from_estimator(object(), [[0.0]], [0])
    with pytest.raises(ValueError, match="fitted classifier"):
        ReliabilityDisplay.from_estimator(LogisticRegression(), [[0.0]], [0])

"""The package's plots: the probabilistic confusion matrix display and
BayesModelComparison.plot, drawn with Agg and checked on their artists."""

import sys

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_faithful.comparison import BayesModelComparison
from sklearn_faithful.metrics import (
    ProbabilisticConfusionMatrixDisplay,
    probabilistic_confusion_matrix,
)
from sklearn_faithful.metrics._plot import _MIN_FONTSIZE as _MIN

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


# --- ProbabilisticConfusionMatrixDisplay: scikit-learn's API, one scale --------


def _twenty_classes():
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(20), 30)
    logits = rng.normal(size=(y.size, 20))
    logits[np.arange(y.size), y] += 2.0
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return y, proba


def _cell_texts_overlap(disp):
    """Whether any value overlaps its right or lower neighbour."""
    disp.figure_.draw_without_rendering()
    for panel in disp.texts_:
        n_rows, n_cols = panel.shape
        boxes = [t.get_window_extent() for t in panel.flat]  # row by row
        for k, box in enumerate(boxes):
            right = boxes[k + 1] if (k + 1) % n_cols else None
            below = boxes[k + n_cols] if k + n_cols < len(boxes) else None
            if any(b is not None and box.overlaps(b) for b in (right, below)):
                return True
    return False


def test_panels_share_one_colour_scale_and_colorbar():
    import matplotlib.pyplot as plt

    y = np.array([0, 0, 0, 0, 1, 1, 2, 2])
    proba = np.array(
        [
            [0.9, 0.05, 0.05],
            [0.6, 0.3, 0.1],
            [0.5, 0.4, 0.1],
            [0.4, 0.5, 0.1],
            [0.1, 0.8, 0.1],
            [0.3, 0.4, 0.3],
            [0.1, 0.1, 0.8],
            [0.2, 0.2, 0.6],
        ]
    )
    disp = ProbabilisticConfusionMatrixDisplay.from_predictions(y, proba)
    both = np.concatenate([disp.confusion_matrix, disp.probabilistic_confusion_matrix])
    # the argmax panel alone spans 0..3, the probabilistic one 0.2..2.4
    assert disp.ims_[0].get_clim() == disp.ims_[1].get_clim() == (0.0, both.max())
    assert disp.colorbar_ is not None
    assert len(disp.figure_.axes) == 3  # two panels and one colorbar
    assert disp.colorbar_.mappable.get_clim() == (0.0, both.max())
    # a cell's text contrasts with its colour on the shared scale
    cmap = disp.im_.cmap
    assert disp.text_[0, 0].get_color() == cmap(0.0)  # 2.4 of 3: bright cell
    assert disp.text_[0, 2].get_color() == cmap(1.0)  # 0.35 of 3: dark cell
    plt.close("all")


def test_sklearn_attributes_and_parameters():
    import matplotlib.pyplot as plt

    X, y = load_iris(return_X_y=True)
    clf = LogisticRegression(max_iter=1000).fit(X, y)
    disp = ProbabilisticConfusionMatrixDisplay.from_estimator(
        clf,
        X,
        y,
        xticks_rotation=45,
        values_format=".3f",
        cmap="Blues",
        colorbar=False,
    )
    assert disp.ax_ is disp.axes_[1]
    assert disp.im_ is disp.ims_[1]
    assert disp.figure_ is disp.ax_.figure
    assert disp.text_.shape == (3, 3) and disp.text_ is disp.texts_[1]
    assert disp.text_[0, 0].get_text() == format(
        disp.probabilistic_confusion_matrix[0, 0], ".3f"
    )
    assert disp.texts_[0][0, 0].get_text() == "50.000"
    assert disp.im_.cmap.name == "Blues"
    assert disp.colorbar_ is None and len(disp.figure_.axes) == 2
    for axis in disp.axes_:
        assert {t.get_rotation() for t in axis.get_xticklabels()} == {45.0}

    disp.plot(include_values=False, ax=disp.axes_)
    assert disp.text_ is None and disp.texts_ is None
    plt.close("all")


def test_im_kw_and_text_kw_reach_the_artists():
    import matplotlib.pyplot as plt
    from matplotlib.colors import Normalize

    X, y = load_iris(return_X_y=True)
    clf = LogisticRegression(max_iter=1000).fit(X, y)
    disp = ProbabilisticConfusionMatrixDisplay.from_estimator(
        clf,
        X,
        y,
        im_kw={"interpolation": "bilinear", "alpha": 0.5, "vmax": 80},
        text_kw={"fontsize": 13, "fontweight": "bold", "color": "red"},
    )
    for im in disp.ims_:
        assert im.get_interpolation() == "bilinear"
        assert im.get_alpha() == 0.5
        assert im.get_clim() == (0.0, 80.0)
    for panel in disp.texts_:
        for text in panel.flat:
            assert text.get_fontsize() == 13  # the user's size is kept
            assert text.get_fontweight() == "bold"
            assert text.get_color() == "red"
    # a norm of the user's is scaled on both matrices and shared
    norm = Normalize()
    disp.plot(im_kw={"norm": norm})
    assert disp.ims_[0].norm is disp.ims_[1].norm is norm
    assert (norm.vmin, norm.vmax) == (0.0, 50.0)
    plt.close("all")


def test_twenty_classes_stay_readable():
    import matplotlib.pyplot as plt

    y, proba = _twenty_classes()
    for normalize in (None, "true"):
        disp = ProbabilisticConfusionMatrixDisplay.from_predictions(
            y, proba, normalize=normalize
        )
        assert disp.text_ is not None  # the default figure grows with n_classes
        size = disp.text_[0, 0].get_fontsize()
        assert _MIN <= size <= plt.rcParams["font.size"]
        assert not _cell_texts_overlap(disp)

    # Cells too small for any value: "auto" leaves the values out ...
    fig, axes = plt.subplots(1, 2, figsize=(6, 3), layout="constrained")
    disp = ProbabilisticConfusionMatrixDisplay.from_predictions(y, proba, ax=axes)
    assert disp.text_ is None and disp.texts_ is None
    assert not axes[0].texts and not axes[1].texts
    # ... and include_values=True shows them, shrunk to fit their cells.
    disp.plot(ax=axes, include_values=True)
    assert len(axes[1].texts) == 400
    assert disp.text_[0, 0].get_fontsize() < _MIN
    assert not _cell_texts_overlap(disp)
    plt.close("all")


def test_values_are_rounded_before_they_are_left_out():
    import matplotlib.pyplot as plt

    y, proba = _twenty_classes()
    disp = ProbabilisticConfusionMatrixDisplay.from_predictions(
        y, proba, normalize="true"
    )
    plt.close(disp.figure_)
    value = disp.probabilistic_confusion_matrix[0, 0]
    # As the figure shrinks, the values go from two decimals to one, then out.
    states = []
    for width in (13, 10, 7):
        fig, axes = plt.subplots(1, 2, figsize=(width, width / 2), layout="constrained")
        disp.plot(ax=axes, colorbar=False)
        if disp.text_ is None:
            states.append("out")
        else:
            assert disp.text_[0, 0].get_fontsize() >= _MIN
            assert not _cell_texts_overlap(disp)
            text = disp.text_[0, 0].get_text()
            assert text in (format(value, ".2f"), format(value, ".1f"))
            states.append("full" if text == format(value, ".2f") else "rounded")
        plt.close(fig)
    assert states == ["full", "rounded", "out"]


def test_bad_matrices_and_include_values():
    with pytest.raises(ValueError, match="same shape"):
        ProbabilisticConfusionMatrixDisplay(np.eye(3), np.eye(2)).plot()
    with pytest.raises(ValueError, match="include_values"):
        ProbabilisticConfusionMatrixDisplay(np.eye(2), np.eye(2)).plot(
            include_values="always"
        )


# --- BayesModelComparison.plot -------------------------------------------------

PIPE_NAME = "Pipeline(StandardScaler, LogisticRegression)"


@pytest.mark.parametrize(
    "names, rotated",
    [
        (["a", "b", "c"], False),
        (["class_zero_long", "class_one_long", "class_two"], True),
    ],
)
def test_long_class_names_are_rotated_not_overlapped(names, rotated):
    X, y = load_iris(return_X_y=True)
    labels = np.asarray(names)[y]
    clf = LogisticRegression(max_iter=1000).fit(X, labels)
    disp = ProbabilisticConfusionMatrixDisplay.from_estimator(clf, X, labels)
    fig = disp.figure_
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    for axis in disp.axes_:
        ticks = axis.get_xticklabels()
        assert {t.get_rotation() for t in ticks} == {45.0 if rotated else 0.0}
        boxes = sorted(
            (t.get_window_extent(renderer) for t in ticks), key=lambda b: b.x0
        )
        # horizontal labels do not overlap (rotated ones sit side by side,
        # with boxes that do), and none leaves the figure
        if not rotated:
            assert all(a.x1 <= b.x0 for a, b in zip(boxes, boxes[1:], strict=False))
        for box in [*boxes, axis.xaxis.label.get_window_extent(renderer)]:
            assert page.x0 <= box.x0 and box.x1 <= page.x1
            assert page.y0 <= box.y0 and box.y1 <= page.y1
    matplotlib.pyplot.close(fig)


@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True)


@pytest.fixture(scope="module")
def unpaired(cancer):
    pair = GaussianNB(), make_pipeline(StandardScaler(), LogisticRegression())
    return BayesModelComparison(*pair, paired=False, rope=0.01, random_state=0).fit(
        *cancer
    )


@pytest.fixture(scope="module")
def paired(cancer):
    pair = GaussianNB(), make_pipeline(StandardScaler(), LogisticRegression())
    return BayesModelComparison(*pair, rope=0.01, random_state=0).fit(*cancer)


def _legend_texts(ax):
    """The legend's entries, each on one line (long names wrap)."""
    return [t.get_text().replace("\n", " ") for t in ax.get_legend().get_texts()]


def _rope_patches(ax):
    return [p for p in ax.patches if p.get_label().startswith("rope")]


def _labels_inside_figure(fig):
    """Whether every drawn title, label, tick label and legend is in the figure."""
    fig.draw_without_rendering()
    box = fig.bbox
    for ax in fig.axes:
        tight = ax.get_tightbbox()
        if (
            tight.x0 < box.x0 - 1
            or tight.x1 > box.x1 + 1
            or tight.y0 < box.y0 - 1
            or tight.y1 > box.y1 + 1
        ):
            return False
    return True


def _region_area(ax, low, high):
    """Area under the drawn density between ``low`` and ``high``."""
    t, pdf = ax.lines[0].get_data()
    keep = (t >= low) & (t <= high)
    return float(np.sum(np.diff(t[keep]) * (pdf[keep][1:] + pdf[keep][:-1]) / 2))


def test_posteriors_name_the_estimators_and_draw_the_rope(unpaired):
    import matplotlib.pyplot as plt

    axes = unpaired.plot().axes_  # unpaired: the posteriors by default
    assert axes.shape == (3,)
    fig = axes[0].figure
    assert fig.get_layout_engine() is not None  # constrained layout
    for ax, res in zip(axes, unpaired.results_.values(), strict=True):
        legend = _legend_texts(ax)
        assert legend[:2] == ["GaussianNB", PIPE_NAME]
        (rope,) = _rope_patches(ax)
        x0, x1 = rope.get_x(), rope.get_x() + rope.get_width()
        mean_a = res.posterior_a.mean()
        assert_allclose([x0, x1], [mean_a - 0.01, mean_a + 0.01])
        assert len(ax.lines) == 2
    assert _labels_inside_figure(fig)
    plt.close("all")


def test_unpaired_difference_shades_the_three_regions(unpaired):
    import matplotlib.pyplot as plt

    axes = unpaired.plot(kind="difference").axes_
    assert _labels_inside_figure(axes[0].figure)
    for ax, res in zip(axes, unpaired.results_.values(), strict=True):
        areas = [c for c in ax.collections if c.get_label().startswith("P(")]
        assert [c.get_label() for c in areas] == [
            f"P(B worse) = {res.p_worse:.3f}",
            f"P(equivalent) = {res.p_equivalent:.3f}",
            f"P(B better) = {res.p_better:.3f}",
        ]
        assert len(_rope_patches(ax)) == 1
        assert PIPE_NAME in ax.get_xlabel().replace("\n", " ")
        # The drawn density of nu_B - nu_A (Monte Carlo) agrees with the test.
        assert _region_area(ax, -np.inf, np.inf) == pytest.approx(1, abs=0.01)
        assert _region_area(ax, 0.01, np.inf) == pytest.approx(res.p_better, abs=0.02)
        assert _region_area(ax, -0.01, 0.01) == pytest.approx(
            res.p_equivalent, abs=0.02
        )
    # a fixed seed: the same figure twice
    again = unpaired.plot(kind="difference", metrics=["f1"]).axes_
    assert_array_equal(again[0].lines[0].get_ydata(), axes[2].lines[0].get_ydata())
    plt.close("all")


def test_paired_draws_the_difference(paired):
    import matplotlib.pyplot as plt

    axes = paired.plot().axes_  # paired: the difference by default
    for ax, res in zip(axes, paired.results_.values(), strict=True):
        assert len(_rope_patches(ax)) == 1
        assert len([c for c in ax.collections if c.get_label().startswith("P(")]) == 3
        assert f"P(B better) = {res.p_better:.3f}" in _legend_texts(ax)
        assert "Pipeline(StandardScaler, LogisticRegression) - GaussianNB" in (
            ax.get_xlabel().replace("\n", " ")
        )
        t = ax.lines[0].get_xdata()
        assert_allclose(ax.lines[0].get_ydata(), res.posterior.pdf(t))
        assert _region_area(ax, 0.01, np.inf) == pytest.approx(res.p_better, abs=0.01)
    assert _labels_inside_figure(axes[0].figure)
    with pytest.raises(ValueError, match="kind='posteriors' needs the unpaired"):
        paired.plot(kind="posteriors")
    plt.close("all")


def test_labels_override_and_point_mass(cancer):
    import matplotlib.pyplot as plt

    comp = BayesModelComparison(GaussianNB(), GaussianNB(), random_state=0).fit(*cancer)
    ax = comp.plot(metrics=["f1"]).axes_[0]  # the same model twice: a point mass at 0
    assert "GaussianNB (B) - GaussianNB (A)" in ax.get_xlabel()
    assert "point mass at +0" in _legend_texts(ax)
    assert ax.get_xlim()[0] < 0 < ax.get_xlim()[1]
    fig, axes = plt.subplots(1, 2)
    out = comp.plot(
        metrics=["precision", "recall"], axes=axes, labels=["NB", "NB2"]
    ).axes_
    assert out[0] is axes[0] and "NB2 - NB" in axes[1].get_xlabel()
    with pytest.raises(ValueError, match="labels must hold two names"):
        comp.plot(labels=("NB",))
    plt.close("all")

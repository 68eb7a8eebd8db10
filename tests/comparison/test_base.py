"""The two front doors share one base: the same routing, fit loop, tables,
decisions and reprs, whichever of BayesModelComparison and ModelComparison."""

import numpy as np
import pytest
from sklearn import config_context
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError, UnsetMetadataPassedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate
from sklearn.naive_bayes import GaussianNB

from sklearn_faithful.comparison import (
    BayesModelComparison,
    ComparisonDisplay,
    ModelComparison,
)
from sklearn_faithful.model_selection import BlockRegularized3x2CV
from sklearn_faithful.utils._param_validation import InvalidParameterError

CLAIMS = {"B better", "B not better", "B worse", "equivalent", "undecided"}


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=240, n_features=6, random_state=0)
    return X, y


def _lr(request=None):
    est = LogisticRegression(max_iter=1000)
    return est if request is None else est.set_fit_request(sample_weight=request)


def _build(door, a=None, b=None, **params):
    """The front door ``door`` on two models, A (naive Bayes) and B."""
    a = GaussianNB() if a is None else a
    b = _lr() if b is None else b
    params.setdefault("random_state", 0)
    if door == "bayes":
        return BayesModelComparison(a, b, **params)
    return ModelComparison({"nb": a, "lr": b}, **params)


def _cross_validate(door, splits, X, y):
    """Each model's cross_validate result on ``splits``, A then B."""
    kw = dict(cv=splits, return_indices=True, return_estimator=door == "bayes")
    models = {"nb": GaussianNB(), "lr": _lr()}
    return {name: cross_validate(est, X, y, **kw) for name, est in models.items()}


def _rebuild(door, results, X, y):
    if door == "bayes":
        return BayesModelComparison.from_cross_validate(results, X, y, random_state=0)
    return ModelComparison.from_cross_validate(results)


DOORS = ["bayes", "model"]


@pytest.mark.parametrize("door", DOORS)
def test_unrequested_weights_raise_sklearns_error(data, door):
    X, y = data
    w = np.where(y == 1, 3.0, 1.0)
    with config_context(enable_metadata_routing=True):
        with pytest.raises(UnsetMetadataPassedError, match="sample_weight"):
            _build(door).fit(X, y, sample_weight=w)
        # requested by B's fit only
        a, b = GaussianNB().set_fit_request(sample_weight=False), _lr(True)
        if door == "model":  # the default scorer, estimator.score, takes them too
            a.set_score_request(sample_weight=False)
            b.set_score_request(sample_weight=False)
        weighted = _build(door, a, b).fit(X, y, sample_weight=w)
    plain = _build(door).fit(X, y)
    # the weights changed B's fit
    assert weighted.summary()["mean_b"] != plain.summary()["mean_b"]


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("routing", [False, True])
def test_groups_reach_the_splitter(data, door, routing):
    X, y = data
    groups = np.arange(len(y)) // 4
    cv = BlockRegularized3x2CV(random_state=0)
    with config_context(enable_metadata_routing=routing):
        comp = _build(door, cv=cv).fit(X, y, groups=groups)
    expected = list(cv.split(X, y, groups))
    assert len(comp.splits_) == len(expected) == 6
    for (_, got), (_, want) in zip(comp.splits_, expected, strict=True):
        np.testing.assert_array_equal(got, want)
    for _, test in comp.splits_:  # each group stays whole in one half
        np.testing.assert_array_equal(
            np.isin(groups, groups[test]), np.isin(np.arange(len(y)), test)
        )


@pytest.mark.parametrize("door", DOORS)
def test_results_do_not_depend_on_n_jobs(data, door):
    X, y = data
    one = _build(door, n_jobs=1).fit(X, y)
    two = _build(door, n_jobs=2).fit(X, y)
    for (_, a), (_, b) in zip(one.splits_, two.splits_, strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_equal(one.summary(), two.summary())


@pytest.mark.parametrize("door", DOORS)
def test_from_cross_validate_equals_fit(data, door):
    X, y = data
    fitted = _build(door).fit(X, y)
    built = _rebuild(door, _cross_validate(door, fitted.splits_, X, y), X, y)
    np.testing.assert_equal(built.summary(), fitted.summary())
    assert built.decide() == fitted.decide()


@pytest.mark.parametrize("door", DOORS)
def test_from_cross_validate_checks_the_splits(data, door):
    X, y = data
    one, two = (
        list(BlockRegularized3x2CV(random_state=seed).split(X, y)) for seed in (0, 1)
    )
    results = _cross_validate(door, one, X, y)
    results["lr"] = _cross_validate(door, two, X, y)["lr"]
    with pytest.raises(ValueError, match=r"'nb'\] and results\['lr'\] used diff"):
        _rebuild(door, results, X, y)
    bare = {name: {"test_score": [0.5]} for name in results}
    with pytest.raises(ValueError, match="has no 'indices'"):
        _rebuild(door, bare, X, y)


@pytest.mark.parametrize("door", DOORS)
def test_summary_str_and_decide_agree(data, door):
    pd = pytest.importorskip("pandas")
    X, y = data
    comp = _build(door)
    assert str(comp) == repr(comp)  # unfitted: the repr
    with pytest.raises(NotFittedError):
        comp.decide()
    comp.fit(X, y)
    table = comp.summary()
    keys = list(comp.results_)
    assert len(table["decide"]) == len(keys)
    decisions = comp.decide(0.95)
    assert list(decisions) == keys and set(decisions.values()) <= CLAIMS
    if door == "bayes":  # summary's column is decide at 0.95
        assert table["decide"] == list(decisions.values())
        assert decisions == {m: r.decide(0.95) for m, r in comp.results_.items()}
    else:  # at confidence_level, 0.95 here
        assert table["decide"] == list(decisions.values())
    # a stricter threshold never claims more
    strict = comp.decide(0.999)
    assert all(strict[k] == "undecided" or strict[k] == decisions[k] for k in keys)
    with pytest.raises(InvalidParameterError, match="threshold"):
        comp.decide(0.4)
    frame = comp.summary(as_frame=True)
    assert isinstance(frame, pd.DataFrame) and len(frame) == len(keys)
    text = str(comp)
    assert "GaussianNB" in text and "LogisticRegression" in text
    lines = text.splitlines()
    body = lines[lines.index("") + 1 :]
    assert len(body) == 1 + len(keys)  # a header, then one line per key
    assert body[0].split()[-1] in ("decide", "rule", "P(B better)")


@pytest.mark.parametrize("door", DOORS)
def test_html_repr_shows_the_models_side_by_side(data, door):
    from sklearn.utils import estimator_html_repr

    X, y = data
    comp = _build(door)
    html = estimator_html_repr(comp)
    names = [name for name, _ in comp._named_estimators()]
    for text in ("GaussianNB", "LogisticRegression", *names):
        assert text in html
    assert "sk-parallel" in html
    block = comp._sk_visual_block_()
    assert block.kind == "parallel" and list(block.names) == names


@pytest.mark.parametrize("door", DOORS)
def test_verbose_prints_a_line_per_fit(data, door, capsys):
    X, y = data
    comp = _build(door, cv=BlockRegularized3x2CV(random_state=0), verbose=1)
    comp.fit(X, y)
    out = capsys.readouterr().out.splitlines()
    name = type(comp).__name__
    assert len(out) == 12 and all(line.startswith(f"[{name}]") for line in out)
    assert "12/12 fits done" in out[-1] and "on split 6" in out[-1]


@pytest.mark.parametrize("door", DOORS)
def test_plot_draws_every_result(data, door):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = data
    comp = _build(door, rope=0.01).fit(X, y)
    drawn = comp.plot()
    # the same kind of object from every comparison, as scikit-learn's displays
    assert isinstance(drawn, ComparisonDisplay) and drawn.comparison is comp
    assert drawn.figure_ is drawn.axes_[0].figure
    if door == "bayes":  # one panel per metric
        assert len(drawn.axes_) == len(comp.results_)
    else:  # one row per pair
        assert drawn.ax_ is drawn.axes_[0]
        assert len(drawn.ax_.get_yticklabels()) == len(comp.results_)
    plt.close("all")
    with pytest.raises(NotFittedError):
        _build(door).plot()


def _clipped_texts(fig):
    """The drawn texts of ``fig`` (labels, tick labels, titles, legends) that
    reach past its edges."""
    import io

    from matplotlib.text import Text

    fig.savefig(io.BytesIO(), format="png")  # lays the figure out
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    out = []
    for ax in fig.axes:
        texts = [ax.title, ax.xaxis.label, ax.yaxis.label]
        for axis in (ax.xaxis, ax.yaxis):  # the tick labels drawn: in view
            low, high = sorted(axis.get_view_interval())
            texts += [
                label
                for loc, label in zip(
                    axis.get_ticklocs(), axis.get_ticklabels(), strict=True
                )
                if low - 1e-9 * (high - low) <= loc <= high + 1e-9 * (high - low)
            ]
        legend = ax.get_legend()
        texts += [] if legend is None else legend.findobj(Text)
        for text in texts:
            if not text.get_visible() or not text.get_text().strip():
                continue
            ext = text.get_window_extent(renderer)
            if min(ext.x0, ext.y0) < -1 or ext.x1 > box.x1 + 1 or ext.y1 > box.y1 + 1:
                out.append(text.get_text())
    return out


@pytest.mark.parametrize("test", ["corrected-t", "bayesian"])
def test_pairs_plot_clips_no_label(test):
    # before: with long names the tick labels ran off the figure's left edge
    # and squeezed the axes to a sliver (their x tick labels overlapped)
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(0)
    scores = {
        f"candidate with a rather long name, number {k}": 0.8
        + 0.01 * rng.standard_normal(10)
        for k in range(4)
    }
    scores["x" * 60] = 0.8 + 0.01 * rng.standard_normal(10)  # one unbreakable word
    comp = ModelComparison.from_scores(
        scores, 100, 100, test=test, rope=0.01, scoring="neg_root_mean_squared_error"
    )
    display = comp.plot()
    assert _clipped_texts(display.figure_) == []
    plt.close("all")


@pytest.mark.parametrize("kind", ["difference", "posteriors"])
def test_bayes_plot_clips_no_label(data, kind):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    X, y = data
    comp = _build("bayes", rope=0.01, paired=False).fit(X, y)
    long = ("a rather long name of the reference model A", "and one of B, too")
    display = comp.plot(kind=kind, labels=long)
    assert _clipped_texts(display.figure_) == []
    plt.close("all")

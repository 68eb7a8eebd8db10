"""prediction_powered_mean against its closed form and its limits."""

import numpy as np
import pytest

from sklearn_faithful.eval_logs import prediction_powered_mean

# ppi_py's interval of a mean, the model_based room's reference
from ..model_based.test_model_based import _ppi_py_mean_ci


def _data(seed=0, n=1000, n_labelled=150):
    rng = np.random.default_rng(seed)
    truth = (rng.random(n) < 0.6).astype(float)
    judge = np.where(rng.random(n) < 0.85, truth, 1 - truth)
    human = np.full(n, np.nan)
    human[:n_labelled] = truth[:n_labelled]
    return judge, human


def test_closed_form():
    judge, human = _data()
    res = prediction_powered_mean(judge, human)
    lab = ~np.isnan(human)
    rect = human[lab] - judge[lab]
    rest = judge[~lab]  # the judge's mean over the items nobody scored
    assert res.statistic == pytest.approx(rest.mean() + rect.mean())
    se = np.sqrt(rest.var() / rest.size + rect.var() / lab.sum())
    assert res.standard_error == pytest.approx(se)
    low, high = res.confidence_interval
    assert (high - low) / 2 == pytest.approx(1.959963984540054 * se)
    assert res.n_labelled == 150 and res.n_items == 1000


def test_lam_zero_is_the_people_mean():
    judge, human = _data(1)
    res = prediction_powered_mean(judge, human, lam=0.0)
    real = human[~np.isnan(human)]
    assert res.statistic == pytest.approx(real.mean())
    assert res.standard_error == pytest.approx(real.std() / np.sqrt(real.size))


@pytest.mark.filterwarnings("ignore:human_scores holds:RuntimeWarning")
def test_auto_lam_is_in_range_and_narrows_a_good_judge():
    judge, human = _data(2)
    auto = prediction_powered_mean(judge, human, lam="auto")
    people = prediction_powered_mean(judge, human, lam=0.0)
    assert 0 < auto.lam <= 1 and auto.standard_error < people.standard_error


@pytest.mark.parametrize(
    "judge, human, match",
    [
        ([1.0, np.nan, 0.0], [1.0, 0.0, np.nan], "judge_scores contains NaN"),
        ([1.0, 1.0, 0.0], [1.0, np.nan, np.nan], "holds 1 scored item"),
        ([1.0, 1.0], [1.0, 0.0, 1.0], "human_scores has 3 items"),
        (["a", "b"], [1.0, 0.0], "judge_scores must hold numeric scores, of shape"),
        ([1.0, 0.0], [np.inf, 0.0], "human_scores contains infinity"),
    ],
)
def test_bad_input_names_the_parameter(judge, human, match):
    with pytest.raises(ValueError, match=match):
        prediction_powered_mean(judge, human)


@pytest.mark.filterwarnings("ignore:human_scores holds:RuntimeWarning")
def test_every_item_labelled_gives_the_people_mean():
    judge, human = _data(3, n=50, n_labelled=50)
    res = prediction_powered_mean(judge, human, lam="auto")
    assert res.statistic == pytest.approx(human.mean()) and res.lam == 0.0


@pytest.mark.filterwarnings("ignore:human_scores holds:RuntimeWarning")
@pytest.mark.parametrize("lam", ["auto", 1.0, 0.4])
def test_matches_ppi_py(lam, reference):
    judge, human = _data(4)
    lab = ~np.isnan(human)
    res = prediction_powered_mean(judge, human, lam=lam)
    lo, hi = reference(_ppi_py_mean_ci, human[lab], judge[lab], judge[~lab], lam)
    np.testing.assert_allclose(res.confidence_interval, (lo, hi), rtol=1e-10)


def test_few_labelled_items_warn():
    judge, human = _data(5, n_labelled=60)
    with pytest.warns(
        RuntimeWarning, match="holds 60 scored items; with fewer than 100"
    ):
        prediction_powered_mean(judge, human)
    judge, human = _data(5, n_labelled=150)
    with pytest.warns(RuntimeWarning, match="fewer than 300 and lam='auto'"):
        prediction_powered_mean(judge, human, lam="auto")

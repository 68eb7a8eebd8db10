"""Slow statistical check: the estimators converge to their population values."""

import numpy as np
import pytest
from scipy import stats

from sklearn_faithful.metrics import cprecision_score, crecall_score


@pytest.mark.slow
def test_sample_metrics_are_consistent_for_closed_form_population():
    # Positives get p ~ Beta(a, b), negatives p ~ Beta(b, a), classes 1:1.
    # Population cRecall = E[p | y=1] = a/(a+b); population cPrecision =
    # E[p 1{y=1}] / E[p] = (a/(a+b)) / (a/(a+b) + b/(a+b)) = a/(a+b).
    a, b = 3.0, 1.5
    truth = a / (a + b)
    rng = np.random.default_rng(12345)
    n, reps = 400, 2000
    y = rng.integers(0, 2, size=(reps, n))
    p = np.where(y == 1, rng.beta(a, b, size=(reps, n)), rng.beta(b, a, size=(reps, n)))
    recalls = np.array([crecall_score(y[r], p[r]) for r in range(reps)])
    precisions = np.array([cprecision_score(y[r], p[r]) for r in range(reps)])
    for values in (recalls, precisions):
        se = values.std(ddof=1) / np.sqrt(reps)
        # Ratio estimators carry O(1/n) bias, far below 4 standard errors here.
        assert abs(values.mean() - truth) < 4 * se + 1e-3
    # The spread matches the delta-method standard error of a mean over n/2.
    sd_p_pos = np.sqrt(stats.beta(a, b).var() / (n / 2))
    assert recalls.std() == pytest.approx(sd_p_pos, rel=0.15)


@pytest.mark.slow
def test_variance_example_runs(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    import runpy
    from pathlib import Path

    examples = Path(__file__).parents[1] / "examples"
    script = examples / "plot_confidence_metrics_variance.py"
    module = runpy.run_path(str(script))
    module["main"]([str(tmp_path / "figure.png")])
    out = capsys.readouterr().out
    assert (tmp_path / "figure.png").stat().st_size > 10_000
    assert "cF1 variance below F1 variance in 14 of 15 cells" in out

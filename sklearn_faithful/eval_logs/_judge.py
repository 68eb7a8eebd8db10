"""One run scored by a judge model, and a few of its items by people.

The prediction-powered estimate of the run's mean (Angelopoulos et al.
2023): the judge's mean over the items nobody scored, corrected by the
judge's mean error on the items people scored. The one-system case of the
model_based room's PPI; its estimate and variance are computed there (``_ppi_mean``).
"""

import math
import warnings
from dataclasses import dataclass
from numbers import Real

import numpy as np

from ..utils._param_validation import Interval, StrOptions, validate_params
from ..utils._results import (
    ConfidenceInterval,
    _interval_text,
    _level_text,
    _ResultMixin,
    _two_sided_z,
)
from ..utils._scaling import rescaled
from ..utils._validation import CONFIDENCE_LEVEL
from ._compare import _score_array

# Labelled items below which the normal interval is too narrow: with few of
# them the judge and the people often agree on every one, and Var_n(R - lam O)
# comes out near 0. benchmarks/sim_ppi_mean.py (seed 20261126, 2,000 data sets
# a cell) measured the 95% interval of lam=1 at 43-92% with 10 labelled
# items, 65-93% with 20 and 84-94% with 40; from 100 on at least 92.75% (s.e.
# 0.6) in every tuning cell and 94.7% in every held-back one. lam="auto"
# (PPI++) needs 300: at 100 it covered 91.3%.
_MIN_LABELLED = {"fixed": 100, "auto": 300}


@dataclass(frozen=True)
class PredictionPoweredMeanResult(_ResultMixin):
    """Result of :func:`prediction_powered_mean`.

    Attributes
    ----------
    statistic : float
        The prediction-powered mean ``lam mean_N(judge) + mean_n(human -
        lam judge)``, the first mean over the N items nobody scored.
    confidence_interval : ConfidenceInterval
        Its normal interval at ``confidence_level``.
    standard_error : float
        Its standard error.
    judge_mean : float
        The judge's mean over every item, uncorrected.
    judge_mean_unlabelled : float
        The judge's mean over the items nobody scored: the mean the estimate
        corrects (with ``lam``). When people scored every item, there is none
        and the estimate is their mean: NaN.
    human_mean : float
        The people's mean over the items they scored, which ignores the judge.
    lam : float
        The weight of the judge's scores: 1 for classical PPI, tuned by
        PPI++ for ``lam="auto"``.
    confidence_level : float
        Level of the interval.
    n_items : int
        Items the judge scored.
    n_labelled : int
        Items people scored too: the estimate used these many.
    """

    statistic: float
    confidence_interval: ConfidenceInterval
    standard_error: float
    judge_mean: float
    judge_mean_unlabelled: float
    human_mean: float
    lam: float
    confidence_level: float
    n_items: int
    n_labelled: int

    def summary(self):
        """Describe the estimate in one plain-text paragraph.

        Returns
        -------
        text : str
        """
        return (
            f"prediction-powered mean = {self.statistic:.4f}, "
            f"{_level_text(self.confidence_level)} CI "
            f"{_interval_text(self.confidence_interval)} (s.e. "
            f"{self.standard_error:.4f}, lam = {self.lam:.3g}); judge's mean "
            f"{self.judge_mean:.4f} over all {self.n_items} items"
            + (
                " (people scored every item: the estimate is their mean)"
                if self.n_labelled == self.n_items
                else f" and {self.judge_mean_unlabelled:.4f} over the "
                f"{self.n_items - self.n_labelled} nobody scored (the mean the "
                "estimate corrects)"
            )
            + f", people's mean {self.human_mean:.4f} over the "
            f"{self.n_labelled} they scored"
        )


@validate_params(
    {
        "judge_scores": ["array-like"],
        "human_scores": ["array-like"],
        "lam": [Interval(Real, 0, 1, closed="both"), StrOptions({"auto"})],
        "confidence_level": CONFIDENCE_LEVEL,
    },
    prefer_skip_nested_validation=True,
)
def prediction_powered_mean(
    judge_scores, human_scores, *, lam=1.0, confidence_level=0.95
):
    """The mean score of one run scored by a judge, corrected by people's scores.

    A judge model (an LLM grader, a classifier) scores every item of the run;
    people score a random sample of them. The prediction-powered estimate
    takes the judge's mean over the other items and corrects it by the
    judge's mean error on the sample: unbiased whatever the judge's errors, and
    narrower than the people's mean alone when the judge agrees with them.

    Parameters
    ----------
    judge_scores : array-like of shape (n_items,)
        The judge's score of every item (0/1, or a rating).
    human_scores : array-like of shape (n_items,)
        People's score of each item on the same scale, NaN where nobody
        scored it. The scored items must be a random sample of the run's.
    lam : float in [0, 1] or "auto", default=1.0
        Weight of the judge's scores: 1 is classical PPI; ``"auto"`` tunes it
        (PPI++), which needs more labelled items; 0 is the people's mean
        alone. Below 100 labelled items (300 with ``"auto"``) a
        ``RuntimeWarning`` says the interval is likely too narrow: that is
        where it covered less than 93% in simulation (user guide).
    confidence_level : float, default=0.95
        Level of the interval.

    Returns
    -------
    result : PredictionPoweredMeanResult
        ``statistic`` (the estimate), ``confidence_interval``, ``standard_error`` and
        ``n_labelled``, the items people scored.

    See Also
    --------
    sklearn_faithful.model_based.ModelBasedMetricTest : The same estimate for
        two systems' rates, and its test.

    Notes
    -----
    With O the judge's scores and R people's, on n labelled items and the
    judge's scores of the N others: ``theta = lam mean_N(O) + mean_n(R - lam
    O)`` and ``Var(theta) = lam^2 Var_N(O) / N + Var_n(R - lam O) / n``, two
    independent samples as in ``ppi_py.ppi_mean_ci``; the interval
    is ``theta +/- z sqrt(Var)`` (formulas page, "Evaluation runs").

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.eval_logs import prediction_powered_mean
    >>> rng = np.random.default_rng(0)
    >>> truth = (rng.random(2000) < 0.6).astype(float)
    >>> judge = np.where(rng.random(2000) < 0.9, truth, 1 - truth)
    >>> human = np.full(2000, np.nan)
    >>> human[:200] = truth[:200]  # people scored 200 items
    >>> res = prediction_powered_mean(judge, human)
    >>> res.n_labelled, round(res.statistic, 3)
    (200, 0.59)
    """
    # the model_based room imports scikit-learn and scipy.stats: only here
    from ..model_based._model_based import _ppi_lam, _ppi_mean

    judge = _score_array(judge_scores, "judge_scores")
    human = _score_array(human_scores, "human_scores")
    if human.shape[0] != judge.shape[0]:
        raise ValueError(
            f"human_scores has {human.shape[0]} items but judge_scores has "
            f"{judge.shape[0]}; give one entry per item (NaN where nobody scored it)."
        )
    if not np.isfinite(judge).all():
        raise ValueError(
            "judge_scores contains NaN or infinity; the judge scores every item."
        )
    if np.isinf(human).any():
        raise ValueError("human_scores contains infinity; NaN marks an unscored item.")
    labelled = ~np.isnan(human)
    n = int(labelled.sum())
    if n < 2:
        raise ValueError(
            f"human_scores holds {n} scored item(s) (the rest NaN); the interval "
            "needs at least 2."
        )
    needed = _MIN_LABELLED["auto" if lam == "auto" else "fixed"]
    if n < needed:
        warnings.warn(
            f"human_scores holds {n} scored items; with fewer than {needed}"
            + (" and lam='auto'" if lam == "auto" else "")
            + " the interval is likely too narrow (in simulation, 95% intervals "
            "covered as little as 43% with 10 items, 65% with 20 and 84% with "
            "40: the judge and the people often agree on every item scored, and "
            "the judge's error then looks smaller than it is). Score more items "
            "(user guide, 'A run scored by a judge model').",
            RuntimeWarning,
            stacklevel=3,
        )
    # computed on the scores divided by a power of 2 (exact): the same numbers
    # at any magnitude, no square overflowing or underflowing; the means and
    # the standard error scale back
    exponent, (judge, human) = rescaled(judge, human)
    pred, real = judge[labelled], human[labelled]
    # the judge's mean over the items nobody scored: a sample independent of
    # the labelled one, as the variance takes it (over all the items, the
    # labelled ones would add 2 lam Cov(O, R - lam O) / N, left out)
    unlabelled = judge[~labelled]
    judge_mean_unlabelled = float(unlabelled.mean()) if unlabelled.size else math.nan
    if unlabelled.size == 0:  # people scored every item: their mean is exact
        unlabelled, lam = pred, 0.0
    elif lam == "auto":
        lam = _ppi_lam(real, pred, unlabelled)
    estimate, variance, _ = _ppi_mean(unlabelled, pred, real, float(lam))
    se = math.sqrt(variance)
    z = _two_sided_z(confidence_level)
    low, high = estimate - z * se, estimate + z * se

    def back(value):
        return float(np.ldexp(value, exponent))

    return PredictionPoweredMeanResult(
        statistic=back(estimate),
        confidence_interval=ConfidenceInterval(back(low), back(high)),
        standard_error=back(se),
        judge_mean=back(judge.mean()),
        judge_mean_unlabelled=back(judge_mean_unlabelled),
        human_mean=back(real.mean()),
        lam=float(lam),
        confidence_level=float(confidence_level),
        n_items=int(judge.shape[0]),
        n_labelled=n,
    )

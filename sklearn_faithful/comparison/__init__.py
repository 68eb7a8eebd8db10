"""Is B better than A across cross-validation splits?

The two front doors, :class:`ModelComparison` (any score, any number of
models) and :class:`BayesModelComparison` (precision, recall and F1 from
counts); the Bayes tests of Wang & Li (2019) with their posteriors and
counts; and the corrected, 5x2cv, blocked m x 2 and Bayesian correlated
t-tests of split scores.
"""

from ._bayes import BayesTestResult, bayes_test
from ._bayes_comparison import BayesModelComparison, counts_from_cv_results
from ._counts import correlation_factor, counts_from_triples, effective_counts
from ._cv_tests import (
    CorrelatedTTestResult,
    CVFtestResult,
    CVTtestResult,
    bayesian_correlated_ttest,
    blocked_mx2cv_ttest,
    combined_ftest_5x2cv,
    corrected_resampled_ttest,
    paired_ttest_5x2cv,
)
from ._model_comparison import ModelComparison
from ._paired import PairedBayesTestResult, paired_bayes_test
from ._posterior import BetaPosterior, F1Posterior, MacroPosterior, metric_posterior

__all__ = [
    "BayesModelComparison",
    "BayesTestResult",
    "BetaPosterior",
    "CVFtestResult",
    "CVTtestResult",
    "CorrelatedTTestResult",
    "F1Posterior",
    "MacroPosterior",
    "ModelComparison",
    "PairedBayesTestResult",
    "bayes_test",
    "bayesian_correlated_ttest",
    "blocked_mx2cv_ttest",
    "combined_ftest_5x2cv",
    "corrected_resampled_ttest",
    "correlation_factor",
    "counts_from_cv_results",
    "counts_from_triples",
    "effective_counts",
    "metric_posterior",
    "paired_bayes_test",
    "paired_ttest_5x2cv",
]

"""Comparing two models: posteriors of P, R and F1 and the Bayes test."""

from ..utils._results import ConfidenceInterval, CredibleInterval
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
from ._holdout_tests import (
    CochransQTestResult,
    McNemarTestResult,
    cochrans_q_test,
    mcnemar_test,
)
from ._model_based import (
    ModelBasedMetricTest,
    ModelBasedTestResult,
    model_based_test_from_summary,
)
from ._model_comparison import ModelComparison
from ._multi_dataset import (
    BayesianSignedRankTestResult,
    CriticalDifferenceDisplay,
    FriedmanTestResult,
    bayesian_signed_rank_test,
    friedman_test,
)
from ._paired import PairedBayesTestResult, paired_bayes_test
from ._posterior import BetaPosterior, F1Posterior, MacroPosterior, metric_posterior

__all__ = [
    "ModelComparison",
    "CorrelatedTTestResult",
    "CVFtestResult",
    "CVTtestResult",
    "bayesian_correlated_ttest",
    "blocked_mx2cv_ttest",
    "combined_ftest_5x2cv",
    "corrected_resampled_ttest",
    "paired_ttest_5x2cv",
    "CochransQTestResult",
    "McNemarTestResult",
    "cochrans_q_test",
    "mcnemar_test",
    "BayesianSignedRankTestResult",
    "CriticalDifferenceDisplay",
    "FriedmanTestResult",
    "bayesian_signed_rank_test",
    "friedman_test",
    "BayesModelComparison",
    "BayesTestResult",
    "BetaPosterior",
    "ConfidenceInterval",
    "CredibleInterval",
    "ModelBasedMetricTest",
    "ModelBasedTestResult",
    "PairedBayesTestResult",
    "F1Posterior",
    "MacroPosterior",
    "bayes_test",
    "correlation_factor",
    "counts_from_cv_results",
    "counts_from_triples",
    "effective_counts",
    "metric_posterior",
    "model_based_test_from_summary",
    "paired_bayes_test",
]

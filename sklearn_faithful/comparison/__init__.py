"""Comparing two models: posteriors of P, R and F1 and the Bayes test."""

from ..utils._results import ConfidenceInterval, CredibleInterval
from ._bayes import BayesTestResult, bayes_test
from ._bayes_comparison import BayesModelComparison, counts_from_cv_results
from ._counts import correlation_factor, counts_from_triples, effective_counts
from ._model_based import (
    ModelBasedMetricTest,
    ModelBasedTestResult,
    model_based_test_from_summary,
)
from ._paired import PairedBayesTestResult, paired_bayes_test
from ._posterior import BetaPosterior, F1Posterior, MacroPosterior, metric_posterior

__all__ = [
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

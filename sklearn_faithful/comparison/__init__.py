"""Comparing two models: posteriors of P, R and F1 and the Bayes test."""

from ._bayes import MacroPosterior, bayes_test
from ._bayes_comparison import BayesModelComparison
from ._counts import correlation_factor, counts_from_triples, effective_counts
from ._model_based import ModelBasedMetricTest, model_based_test_from_summary
from ._posterior import BetaPosterior, F1Posterior, metric_posterior
from ._results import (
    BayesTestResult,
    ConfidenceInterval,
    CredibleInterval,
    ModelBasedTestResult,
)

__all__ = [
    "BayesModelComparison",
    "BayesTestResult",
    "BetaPosterior",
    "ConfidenceInterval",
    "CredibleInterval",
    "ModelBasedMetricTest",
    "ModelBasedTestResult",
    "F1Posterior",
    "MacroPosterior",
    "bayes_test",
    "correlation_factor",
    "counts_from_triples",
    "effective_counts",
    "metric_posterior",
    "model_based_test_from_summary",
]

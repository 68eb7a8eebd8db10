"""Comparing two models: posteriors of P, R and F1 and the Bayes test."""

from ._bayes import MacroPosterior, bayes_test
from ._bayes_comparison import BayesModelComparison
from ._counts import correlation_factor, counts_from_triples, effective_counts
from ._posterior import BetaPosterior, F1Posterior, metric_posterior
from ._results import BayesTestResult, CredibleInterval

__all__ = [
    "BayesModelComparison",
    "BayesTestResult",
    "BetaPosterior",
    "CredibleInterval",
    "F1Posterior",
    "MacroPosterior",
    "bayes_test",
    "correlation_factor",
    "counts_from_triples",
    "effective_counts",
    "metric_posterior",
]

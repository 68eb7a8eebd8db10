"""Is B better than A across cross-validation splits?

The two front doors, :class:`ModelComparison` (any score, any number of
models) and :class:`BayesModelComparison` (precision, recall and F1 from
counts); the Bayes tests of Wang & Li (2019) with their posteriors and
counts; and the corrected, 5x2cv, blocked m x 2 and Bayesian correlated
t-tests of split scores.
"""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_bayes": [
            "BayesTestResult",
            "bayes_test",
        ],
        "_bayes_comparison": [
            "BayesModelComparison",
        ],
        "_counts": [
            "correlation_factor",
            "counts_from_cross_validate",
            "counts_from_triples",
            "effective_counts",
        ],
        "_cv_tests": [
            "CorrelatedTTestResult",
            "CVFtestResult",
            "CVTtestResult",
            "bayesian_correlated_ttest",
            "blocked_mx2cv_ttest",
            "combined_ftest_5x2cv",
            "corrected_resampled_ttest",
            "paired_ttest_5x2cv",
        ],
        "_model_comparison": [
            "ModelComparison",
        ],
        "_plot": [
            "ComparisonDisplay",
        ],
        "_paired": [
            "PairedBayesTestResult",
            "paired_bayes_test",
        ],
        "_posterior": [
            "BetaPosterior",
            "F1Posterior",
            "MacroPosterior",
            "metric_posterior",
        ],
    },
)

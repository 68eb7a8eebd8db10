"""Do k methods differ over N data sets?

Friedman's test with the Nemenyi post-hoc test and the critical-difference
diagram (Demšar 2006), and the Bayesian signed-rank test of two methods.
"""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_multi_dataset": [
            "BayesianSignedRankTestResult",
            "CriticalDifferenceDisplay",
            "FriedmanTestResult",
            "bayesian_signed_rank_test",
            "friedman_test",
        ],
    },
)

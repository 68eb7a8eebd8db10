"""Do k methods differ over N data sets?

Friedman's test with the Nemenyi post-hoc test and the critical-difference
diagram (Demšar 2006), and the Bayesian signed-rank test of two methods.
"""

from ._multi_dataset import (
    BayesianSignedRankTestResult,
    CriticalDifferenceDisplay,
    FriedmanTestResult,
    bayesian_signed_rank_test,
    friedman_test,
)

__all__ = [
    "BayesianSignedRankTestResult",
    "CriticalDifferenceDisplay",
    "FriedmanTestResult",
    "bayesian_signed_rank_test",
    "friedman_test",
]

"""One test set: how sure is my score, and is B better on these items?

Bootstrap intervals of any metric (exact and fast for confusion-matrix
metrics), the paired bootstrap and permutation tests, the sign test and
McNemar's test (one exact binomial test on the discordant items), Cochran's Q
and the interval of Cohen's kappa; from the labels, or from a table of counts
(``*_from_table``).
"""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_mcnemar": [
            "CochransQTestResult",
            "McNemarTestResult",
            "cochrans_q_test",
            "mcnemar_test",
        ],
        "_resampling": [
            "BootstrapIntervalResult",
            "PairedTestResult",
            "SignTestResult",
            "bootstrap_confidence_interval",
            "kappa_confidence_interval",
            "paired_bootstrap_test",
            "paired_permutation_test",
            "sign_test",
        ],
        "_tables": [
            "bootstrap_confidence_interval_from_table",
            "paired_bootstrap_test_from_table",
            "paired_permutation_test_from_table",
            "sign_test_from_table",
        ],
    },
)

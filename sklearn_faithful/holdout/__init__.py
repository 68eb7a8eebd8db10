"""One test set: how sure is my score, and is B better on these items?

Bootstrap intervals of any metric (exact and fast for confusion-matrix
metrics), the paired bootstrap and permutation tests, the sign test and
McNemar's test (one exact binomial test on the discordant items), Cochran's Q
and the interval of Cohen's kappa.
"""

from ._mcnemar import (
    CochransQTestResult,
    McNemarTestResult,
    cochrans_q_test,
    mcnemar_test,
)
from ._resampling import (
    BootstrapIntervalResult,
    PairedTestResult,
    SignTestResult,
    bootstrap_confidence_interval,
    kappa_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
    sign_test,
)

__all__ = [
    "BootstrapIntervalResult",
    "CochransQTestResult",
    "McNemarTestResult",
    "PairedTestResult",
    "SignTestResult",
    "bootstrap_confidence_interval",
    "cochrans_q_test",
    "kappa_confidence_interval",
    "mcnemar_test",
    "paired_bootstrap_test",
    "paired_permutation_test",
    "sign_test",
]

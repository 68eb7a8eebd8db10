"""The everyday significance toolbox: regression gates, bootstrap, paired tests."""

from ._regression import (
    AccuracyRegressionTest,
    RegressionCheckResult,
    estimate_sigma,
    minimum_detectable_effect,
    regression_threshold,
    required_sample_size,
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
    "AccuracyRegressionTest",
    "BootstrapIntervalResult",
    "PairedTestResult",
    "RegressionCheckResult",
    "SignTestResult",
    "bootstrap_confidence_interval",
    "estimate_sigma",
    "kappa_confidence_interval",
    "minimum_detectable_effect",
    "paired_bootstrap_test",
    "paired_permutation_test",
    "regression_threshold",
    "required_sample_size",
    "sign_test",
]

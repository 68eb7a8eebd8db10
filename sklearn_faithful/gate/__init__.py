"""Did my new model regress, and how many test items do I need to tell?

The accuracy-regression gate of "Accuracy regression testing" and its
planning functions: the threshold, the detectable effect and the sample size,
and the plan of a paired comparison from pilot runs or summary numbers.
"""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_gate": [
            "AccuracyRegressionTest",
            "RegressionCheckResult",
            "estimate_sigma",
            "minimum_detectable_effect",
            "regression_threshold",
            "required_sample_size",
        ],
        "_planning": [
            "PairedPlanResult",
            "paired_minimum_detectable_effect",
            "paired_sample_size",
            "plan_paired_comparison",
        ],
    },
)

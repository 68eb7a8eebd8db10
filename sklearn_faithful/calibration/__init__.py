"""Are my model's probabilities calibrated? Is B better calibrated than A?

The calibration error (binned, debiased and smooth estimators, binary,
top-label and classwise) with bootstrap intervals, the CORP decomposition of
the Brier score and the log loss, tests of calibration (consistency
resampling, Spiegelhalter's z), the paired comparison of two systems on the
same items, and a reliability diagram with consistency bands.
"""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_estimators": [
            "CorpDecompositionResult",
            "calibration_error",
            "corp_decomposition",
        ],
        "_inference": [
            "CalibrationErrorResult",
            "CalibrationTestResult",
            "calibration_error_interval",
            "calibration_test",
            "paired_calibration_test",
        ],
        "_plot": ["ReliabilityDisplay"],
    },
)

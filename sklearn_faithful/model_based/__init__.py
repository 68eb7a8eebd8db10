"""My metric is itself a classifier: count its errors too.

The model-based metric test of Goyal, Hu & Gupta (2023) and
prediction-powered inference on each system's own annotated outputs.
"""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_model_based": [
            "ModelBasedMetricTest",
            "ModelBasedTestResult",
            "model_based_test_from_summary",
        ],
    },
)

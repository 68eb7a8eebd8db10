"""My metric is itself a classifier: count its errors too.

The model-based metric test of Goyal, Hu & Gupta (2023) and
prediction-powered inference on each system's own annotated outputs.
"""

from ._model_based import (
    ModelBasedMetricTest,
    ModelBasedTestResult,
    model_based_test_from_summary,
)

__all__ = [
    "ModelBasedMetricTest",
    "ModelBasedTestResult",
    "model_based_test_from_summary",
]

"""Confidence metrics (Yacouby & Axman, 2020) and their scorers."""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_confidence": [
            "cf1_score",
            "cfbeta_score",
            "cprecision_recall_fscore_support",
            "cprecision_score",
            "crecall_score",
            "probabilistic_confusion_matrix",
        ],
        "_plot": [
            "ProbabilisticConfusionMatrixDisplay",
        ],
        "_scorer": [
            "get_scorer",
            "get_scorer_names",
            "make_confidence_scorer",
        ],
    },
)

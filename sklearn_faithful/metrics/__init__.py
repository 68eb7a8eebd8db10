"""Confidence metrics (Yacouby & Axman, 2020) and their scorers."""

from ._confidence import (
    cf1_score,
    cfbeta_score,
    cprecision_recall_fscore_support,
    cprecision_score,
    crecall_score,
    probabilistic_confusion_matrix,
)
from ._plot import ProbabilisticConfusionMatrixDisplay
from ._scorer import get_scorer, get_scorer_names, make_confidence_scorer

__all__ = [
    "ProbabilisticConfusionMatrixDisplay",
    "cf1_score",
    "cfbeta_score",
    "cprecision_recall_fscore_support",
    "cprecision_score",
    "crecall_score",
    "get_scorer",
    "get_scorer_names",
    "make_confidence_scorer",
    "probabilistic_confusion_matrix",
]

"""sklearn-faithful: faithful model evaluation for scikit-learn.

Numbers about models that a careful statistician would sign: confidence
metrics that use the predicted probabilities (Yacouby & Axman 2020), and the
tools to tell whether model B is really better than model A.
"""

from .comparison import (
    BayesModelComparison,
    BayesTestResult,
    BetaPosterior,
    ConfidenceInterval,
    CredibleInterval,
    F1Posterior,
    MacroPosterior,
    ModelBasedMetricTest,
    ModelBasedTestResult,
    bayes_test,
    correlation_factor,
    counts_from_triples,
    effective_counts,
    metric_posterior,
    model_based_test_from_summary,
)
from .metrics import (
    ProbabilisticConfusionMatrixDisplay,
    cf1_score,
    cfbeta_score,
    cprecision_recall_fscore_support,
    cprecision_score,
    crecall_score,
    get_scorer,
    get_scorer_names,
    make_confidence_scorer,
    probabilistic_confusion_matrix,
)
from .model_selection import (
    BlockBalance,
    BlockRegularized3x2CV,
    BlockRegularizedMx2CV,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "model_based_test_from_summary",
    "ModelBasedTestResult",
    "ModelBasedMetricTest",
    "ConfidenceInterval",
    "BayesModelComparison",
    "BayesTestResult",
    "BetaPosterior",
    "BlockBalance",
    "BlockRegularized3x2CV",
    "BlockRegularizedMx2CV",
    "CredibleInterval",
    "F1Posterior",
    "MacroPosterior",
    "ProbabilisticConfusionMatrixDisplay",
    "__version__",
    "bayes_test",
    "cf1_score",
    "cfbeta_score",
    "correlation_factor",
    "counts_from_triples",
    "cprecision_recall_fscore_support",
    "cprecision_score",
    "crecall_score",
    "effective_counts",
    "get_scorer",
    "get_scorer_names",
    "make_confidence_scorer",
    "metric_posterior",
    "probabilistic_confusion_matrix",
]

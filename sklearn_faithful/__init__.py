"""sklearn-faithful: faithful model evaluation for scikit-learn.

Numbers about models that a careful statistician would sign. One room per
question, each imported on first use:

- :mod:`~sklearn_faithful.metrics`: how good is my model? Confidence metrics,
  scorers and the probabilistic confusion matrix display.
- :mod:`~sklearn_faithful.model_selection`: how do I split? The
  block-regularized m x 2 cross-validation splitters.
- :mod:`~sklearn_faithful.holdout`: one test set: how sure is my score, and is
  B better on these items? Bootstrap intervals, paired tests, McNemar.
- :mod:`~sklearn_faithful.comparison`: is B better than A across CV splits?
  ``ModelComparison``, ``BayesModelComparison`` and the CV tests.
- :mod:`~sklearn_faithful.multi_dataset`: do k methods differ over N data
  sets? Friedman, Nemenyi and the Bayesian signed-rank test.
- :mod:`~sklearn_faithful.model_based`: my metric is itself a classifier.
  Goyal et al. (2023) and prediction-powered inference.
- :mod:`~sklearn_faithful.gate`: did my new model regress, and how many items
  do I need?
- :mod:`~sklearn_faithful.utils`: the floor: intervals and input checks.

The command line is ``sklearn-faithful`` (:mod:`sklearn_faithful.cli`).
"""

import importlib

__version__ = "0.1.0.dev0"

_ROOMS = (
    "cli",
    "comparison",
    "gate",
    "holdout",
    "metrics",
    "model_based",
    "model_selection",
    "multi_dataset",
    "utils",
)

__all__ = [*_ROOMS, "__version__"]


def __getattr__(name):
    # Rooms load on first use, as scikit-learn's subpackages do, so that
    # ``import sklearn_faithful`` (and ``sklearn-faithful --help``) imports
    # neither scipy nor scikit-learn.
    if name in _ROOMS:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_ROOMS])

"""sklearn-faithful: faithful model evaluation for scikit-learn.

Numbers about models that a careful statistician would sign. One room per
question, each imported on first use; every public name is spelled by its
room (``from sklearn_faithful.holdout import sign_test``):

- :mod:`~sklearn_faithful.metrics`: how good is my model? Confidence metrics,
  their scorers and the probabilistic confusion matrix display.
- :mod:`~sklearn_faithful.model_selection`: how do I split? The
  block-regularized m x 2 cross-validation splitters.
- :mod:`~sklearn_faithful.holdout`: one test set: how sure is my score, and is
  B better on these items? Bootstrap intervals, paired tests, McNemar.
- :mod:`~sklearn_faithful.comparison`: is B better than A across CV splits?
  ``BayesModelComparison``, ``ModelComparison`` and the tests they run.
- :mod:`~sklearn_faithful.multi_dataset`: do k methods differ over N data
  sets? Friedman, Nemenyi and the Bayesian signed-rank test.
- :mod:`~sklearn_faithful.model_based`: my metric is itself a classifier.
  Prediction-powered inference and Goyal et al. (2023).
- :mod:`~sklearn_faithful.gate`: did my new model regress, and how many items
  do I need? A release gate on per-item scores and its sample size.
- :mod:`~sklearn_faithful.agreement`: can the labels be trusted? Agreement
  among annotators (Krippendorff's alpha, Fleiss' kappa, Gwet's AC1/AC2) and
  the model as one more annotator.
- :mod:`~sklearn_faithful.eval_logs`: I have per-item score logs of
  evaluation runs: is B better, which runs tie with the best? Runs joined by
  id, with clusters and repeated samples; a judge-scored run corrected by
  people's scores.
- :mod:`~sklearn_faithful.calibration`: are my model's probabilities
  calibrated, and is B better calibrated than A? Calibration errors with
  intervals, the CORP decomposition, tests of calibration and a reliability
  diagram with consistency bands.
- :mod:`~sklearn_faithful.battles`: who wins the pairwise battles, and how
  sure is each rating and rank? Bradley-Terry (and Davidson) ratings of arena
  data with bootstrap intervals, rank sets and win probabilities.
- :mod:`~sklearn_faithful.utils`: the floor: the intervals every result
  returns.

I have prediction files: the command line, ``sklearn-faithful`` (or
``python -m sklearn_faithful``), in :mod:`sklearn_faithful.cli`.
"""

import importlib

__version__ = "0.1.0.dev0"

_ROOMS = (
    "agreement",
    "battles",
    "calibration",
    "cli",
    "comparison",
    "eval_logs",
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

"""Scorers of probabilities, built on scikit-learn's scorer machinery.

The confidence metrics and the calibration errors need to know which class
each column of ``predict_proba`` belongs to, and a test fold may lack a class
the estimator knows. The scorer therefore passes ``labels=estimator.classes_``
to the metric. Everything else (the shared ``predict_proba`` cache of
multi-metric scoring, ``sample_weight`` forwarding and metadata routing) is
scikit-learn's own. The calibration scorers compute with the formulas of
``utils/_calibration.py``, which the calibration room's functions share.
"""

from copy import deepcopy

import numpy as np
from sklearn.metrics import check_scoring as _sklearn_check_scoring
from sklearn.metrics import get_scorer as _sklearn_get_scorer
from sklearn.metrics import get_scorer_names as _sklearn_get_scorer_names

from ..utils._calibration import calibration_error as _calibration_error
from ..utils._calibration import corp
from ..utils._calibration_options import (
    DEFAULT_METHOD,
    DEFAULT_N_BINS,
    DEFAULT_STRATEGY,
    resolve_norm,
)
from ..utils._compat import _Scorer
from ..utils._param_validation import validate_params
from ..utils._validation import _resolve_pos_label
from ._confidence import cf1_score, cprecision_score, crecall_score


class _ConfidenceScorer(_Scorer):
    """A ``predict_proba`` scorer that tells the metric the estimator's classes."""

    def _score(self, method_caller, estimator, X, y_true, **kwargs):
        self._warn_overlap(
            message=(
                "There is an overlap between set kwargs of this scorer instance and"
                " passed metadata. Please pass them either as kwargs to"
                " `make_confidence_scorer` or metadata, but not both."
            ),
            kwargs=kwargs,
        )
        classes = getattr(estimator, "classes_", None)
        if classes is None:
            raise ValueError(
                f"{self._score_func.__name__} scores a classifier through "
                f"predict_proba and its classes_; {estimator!r} has no classes_ "
                "attribute. Use a fitted classifier (or a Pipeline ending in one)."
            )
        params = {**self._kwargs, **kwargs}
        pos_label = None
        if len(classes) == 2:
            # scikit-learn passes a binary classifier's predict_proba as the 1-D
            # probability of pos_label; None means classes_[-1], as in sklearn.
            pos_label, _ = _resolve_pos_label(
                np.asarray(classes),
                params.get("pos_label", 1),
                of="the estimator's classes_",
            )
            params["pos_label"] = pos_label
        y_proba = method_caller(estimator, "predict_proba", X, pos_label=pos_label)
        params["labels"] = classes
        return self._sign * self._score_func(y_true, y_proba, **params)

    def __repr__(self):
        kwargs = "".join(f", {k}={v!r}" for k, v in self._kwargs.items())
        sign = "" if self._sign > 0 else ", greater_is_better=False"
        return f"make_confidence_scorer({self._score_func.__name__}{sign}{kwargs})"


@validate_params(
    {"score_func": [callable], "greater_is_better": ["boolean"]},
    prefer_skip_nested_validation=True,
)
def make_confidence_scorer(score_func, *, greater_is_better=True, **kwargs):
    """Make a scorer from a metric of predicted probabilities.

    The scorer calls ``predict_proba`` (once per fold, shared with the other
    ``predict_proba`` scorers of a ``scoring`` dict) and passes the estimator's
    ``classes_`` to ``score_func`` as ``labels``, so it scores correctly when a
    test fold lacks a class. It accepts ``sample_weight`` like scikit-learn's
    own scorers.

    Parameters
    ----------
    score_func : callable
        A metric of probabilities with signature
        ``score_func(y_true, y_proba, *, labels, pos_label, **kwargs)``, such as
        :func:`cf1_score` or
        :func:`~sklearn_faithful.calibration.calibration_error`.

    greater_is_better : bool, default=True
        Whether a greater value of ``score_func`` is better. False for a loss
        or an error, whose scorer returns the negated value, as
        :func:`~sklearn.metrics.make_scorer` does (``"neg_log_loss"``).

    **kwargs : additional arguments
        Additional parameters passed to ``score_func``, such as ``average`` or
        ``beta``.

    Returns
    -------
    scorer : callable
        Callable with signature ``scorer(estimator, X, y_true, **kwargs)`` that
        returns a Python float.

    See Also
    --------
    get_scorer : The ready-made scorers by name.
    sklearn.metrics.make_scorer : The scikit-learn factory this extends.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn_faithful.metrics import cfbeta_score, make_confidence_scorer
    >>> X, y = load_iris(return_X_y=True)
    >>> cf2 = make_confidence_scorer(cfbeta_score, beta=2, average="macro")
    >>> scores = cross_val_score(LogisticRegression(max_iter=1000), X, y, cv=3,
    ...                          scoring=cf2)
    >>> bool(0.5 < scores.mean() < 1)
    True
    """
    return _ConfidenceScorer(
        score_func, 1 if greater_is_better else -1, kwargs, "predict_proba"
    )


def calibration_error(
    y_true,
    y_proba,
    *,
    labels,
    pos_label,
    method=DEFAULT_METHOD,
    norm=None,
    multi_class="auto",
):
    """The calibration error with the calibration room's defaults
    (:func:`~sklearn_faithful.calibration.calibration_error`)."""
    return _calibration_error(
        y_true,
        y_proba,
        method=method,
        norm=resolve_norm(method, norm),
        n_bins=DEFAULT_N_BINS,
        strategy=DEFAULT_STRATEGY,
        multi_class=multi_class,
        labels=labels,
        pos_label=pos_label,
    )


_CORP_TERMS = ("score", "miscalibration", "discrimination", "uncertainty")


def corp_term(y_true, y_proba, *, labels, pos_label, term, scoring):
    """One term of the CORP decomposition of ``scoring`` (``multi_class="auto"``,
    the calibration room's :func:`~sklearn_faithful.calibration.corp_decomposition`)."""
    terms, _ = corp(
        y_true,
        y_proba,
        scoring=scoring,
        multi_class="auto",
        labels=labels,
        pos_label=pos_label,
    )
    return float(terms[_CORP_TERMS.index(term)])


def _build_scorers():
    scorers = {}
    for name, func in (
        ("cprecision", cprecision_score),
        ("crecall", crecall_score),
        ("cf1", cf1_score),
    ):
        scorers[name] = make_confidence_scorer(func, average="binary")
        for average in ("micro", "macro", "weighted"):
            scorers[f"{name}_{average}"] = make_confidence_scorer(
                func, pos_label=None, average=average
            )
    return scorers


# The calibration scorers: lower is better for the errors and MCB (negated,
# "neg_"), higher for DSC. multi_class="auto" is the positive class's
# probability for two classes and top-label for more; pos_label=None is the
# estimator's classes_[-1], as scikit-learn's binary scorers.
_CALIBRATION_SCORERS = {
    "neg_calibration_error": (calibration_error, {}),
    "neg_calibration_error_top_label": (
        calibration_error,
        {"multi_class": "top-label"},
    ),
    "neg_calibration_error_classwise": (
        calibration_error,
        {"multi_class": "classwise"},
    ),
    "neg_debiased_calibration_error": (
        calibration_error,
        {"method": "debiased"},
    ),
    "neg_brier_miscalibration": (
        corp_term,
        {"term": "miscalibration", "scoring": "brier"},
    ),
    "brier_discrimination": (corp_term, {"term": "discrimination", "scoring": "brier"}),
    "neg_log_loss_miscalibration": (
        corp_term,
        {"term": "miscalibration", "scoring": "log_loss"},
    ),
    "log_loss_discrimination": (
        corp_term,
        {"term": "discrimination", "scoring": "log_loss"},
    ),
}

_CONFIDENCE_SCORERS = _build_scorers()
_CONFIDENCE_SCORERS.update(
    (
        name,
        make_confidence_scorer(
            func, greater_is_better=not name.startswith("neg_"), pos_label=None, **kw
        ),
    )
    for name, (func, kw) in _CALIBRATION_SCORERS.items()
)


def get_scorer_names():
    """Get the names of all scorers: this package's, then scikit-learn's.

    Returns
    -------
    list of str
        Names accepted by :func:`get_scorer`.

    Examples
    --------
    >>> from sklearn_faithful.metrics import get_scorer_names
    >>> [name for name in get_scorer_names() if name.startswith("cf1")]
    ['cf1', 'cf1_macro', 'cf1_micro', 'cf1_weighted']
    >>> [name for name in get_scorer_names() if "miscalibration" in name]
    ['neg_brier_miscalibration', 'neg_log_loss_miscalibration']
    """
    return sorted(_CONFIDENCE_SCORERS) + list(_sklearn_get_scorer_names())


@validate_params({"scoring": [str, callable]}, prefer_skip_nested_validation=True)
def get_scorer(scoring):
    """Get a scorer by name: a confidence or calibration scorer, or any
    scikit-learn scorer.

    The confidence scorers are ``'cprecision'``, ``'crecall'`` and ``'cf1'``
    (``average='binary'``, ``pos_label=1``) and the same names with the suffix
    ``'_micro'``, ``'_macro'`` or ``'_weighted'``. For a binary problem whose
    positive class is not 1, build one with
    ``make_confidence_scorer(cf1_score, pos_label="spam")``.

    The calibration scorers follow scikit-learn's ``neg_`` convention: a
    lower-is-better value is returned negated, so that greater is better.
    ``'neg_calibration_error'`` is the calibration error of
    :func:`~sklearn_faithful.calibration.calibration_error` with its defaults
    (binned L1, 15 equal-width bins; the positive class ``classes_[-1]`` for
    two classes, top-label for more); ``'neg_calibration_error_top_label'``
    and ``'neg_calibration_error_classwise'`` choose the problem,
    ``'neg_debiased_calibration_error'`` is the debiased L2 estimator.
    ``'neg_brier_miscalibration'`` and ``'brier_discrimination'`` (and the
    ``'log_loss'`` pair) are the MCB and DSC terms of
    :func:`~sklearn_faithful.calibration.corp_decomposition`. For other
    options, ``make_confidence_scorer(calibration_error,
    greater_is_better=False, n_bins=10)``.

    Parameters
    ----------
    scoring : str or callable
        Scorer name. A callable is returned unchanged.

    Returns
    -------
    scorer : callable
        The scorer, for ``cross_validate(scoring=...)`` or
        ``GridSearchCV(scoring=...)``, alone or in a ``scoring`` dict.

    Examples
    --------
    >>> from sklearn_faithful.metrics import get_scorer
    >>> scoring = {name: get_scorer(name) for name in ("f1_macro", "cf1_macro")}
    >>> get_scorer("cf1_macro")
    make_confidence_scorer(cf1_score, pos_label=None, average='macro')
    >>> get_scorer("neg_calibration_error")
    make_confidence_scorer(calibration_error, greater_is_better=False, pos_label=None)
    """
    if isinstance(scoring, str) and scoring in _CONFIDENCE_SCORERS:
        return deepcopy(_CONFIDENCE_SCORERS[scoring])
    return _sklearn_get_scorer(scoring)


def _check_scoring(estimator, scoring, name="scoring"):
    """The scorer of ``scoring`` for ``estimator``, with this package's names.

    The one place the package turns a ``scoring`` parameter into a scorer: a
    name of :func:`get_scorer_names` (``"cf1_macro"`` as well as
    ``"roc_auc"``), a callable scorer, or None for the estimator's ``score``
    method, as :func:`~sklearn.metrics.check_scoring` reads it.
    """
    if isinstance(scoring, str):
        if scoring not in _CONFIDENCE_SCORERS and scoring not in set(
            _sklearn_get_scorer_names()
        ):
            raise ValueError(
                f"{name}={scoring!r} is not a scorer name; use one of "
                "sklearn_faithful.metrics.get_scorer_names() (such as 'cf1_macro', "
                "'roc_auc' or 'neg_log_loss'), a callable scorer, or None for the "
                "estimator's score method."
            )
        scoring = get_scorer(scoring)
    return _sklearn_check_scoring(estimator, scoring=scoring)

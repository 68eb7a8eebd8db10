"""ModelComparison: several pipelines on any scikit-learn score, one test per pair.

Every model is cross-validated on the same splits, so the per-split score
differences of two models are paired; the tests of :mod:`._cv_tests` account
for the overlap of the training sets. Pairs are all pairs (Holm's adjustment
over the family) or each model against a reference.
"""

import os
import sys
import warnings
from collections import Counter
from functools import partial
from numbers import Real

import numpy as np
from sklearn import config_context
from sklearn.base import is_classifier
from sklearn.utils import indexable

from ..metrics._scorer import _check_scoring
from ..model_selection import BlockRegularizedMx2CV
from ..model_selection._design import _check_mx2_structure, _check_same_cv_results
from ..utils._compat import _check_method_params, _safe_split
from ..utils._multitest import holm
from ..utils._param_validation import HasMethods, Interval, StrOptions, validate_params
from ..utils._results import B_BETTER, B_WORSE, UNDECIDED
from ..utils._validation import (
    CONFIDENCE_LEVEL,
    N_JOBS,
    ROPE,
    SEEDS,
    _validate_init_params,
    _validate_method,
)
from ._base import _BaseComparison, _short_name
from ._cv_tests import (
    _check_split_scores,
    _differences,
    _mean,
    bayesian_correlated_ttest,
    blocked_mx2cv_ttest,
    combined_ftest_5x2cv,
    corrected_resampled_ttest,
    paired_ttest_5x2cv,
)
from ._options import DEFAULT_REPETITIONS
from ._plot import _plot_pairs

# benchmarks/sim_ct_liberal.py (seed 20261126), k-NN against ridge regression
# of equal expected MSE on Friedman #1, n = 100, 300, 1000: rates of p <= 0.05
# of the corrected t on 10 x 10-fold and on one 10-fold CV, and of the blocked
# t on a 5 x 2 BCV (MSE and RMSE)
_LIBERAL_RATE = "11-13%"
_KFOLD_RATE = "3.4-5.2%"
_BLOCKED_RATE = "2.6-6.2%"

# test name -> (function, whether it needs an m x 2 design, Bayesian)
TESTS = {
    "corrected-t": (corrected_resampled_ttest, False, False),
    "5x2cv-t": (paired_ttest_5x2cv, True, False),
    "5x2cv-f": (combined_ftest_5x2cv, True, False),
    "bcv-t": (blocked_mx2cv_ttest, True, False),
    "bayesian": (bayesian_correlated_ttest, False, True),
}


def _caller_stacklevel():
    """``stacklevel`` of the first caller outside this package's frames.

    The public entries reach the warning through different depths (``fit``,
    ``from_scores``, ``from_cv_results``), some behind scikit-learn's
    parameter validation; the warning should name the user's line.
    """
    inside = (
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        os.path.join("sklearn", "utils", "_param_validation.py"),
    )
    frame, level = sys._getframe(1), 1
    while frame is not None and (
        frame.f_code.co_filename.startswith(inside[0])
        or frame.f_code.co_filename.endswith(inside[1])
    ):
        frame, level = frame.f_back, level + 1
    return level


def _score_key(cv_results, scoring, name, prefix):
    """The key of the test scores in a ``cross_validate`` or search result."""
    keys = sorted(k[len(prefix) :] for k in cv_results if k.startswith(prefix))
    if scoring is None:
        if "score" in keys:
            return "score"
        raise ValueError(
            f"{name} holds the scores {keys}; pass scoring=<one of them> to say "
            "which to compare."
        )
    if scoring not in keys:
        raise ValueError(
            f"{name} has no scores for scoring={scoring!r}; it holds {keys}."
        )
    return scoring


def _candidate_names(candidates):
    """A name per candidate, from its parameters; ``#<index>`` where they repeat.

    A randomized search can draw the same parameters twice (or a grid list
    them twice): each candidate stays a model, its index in ``params`` telling
    the repeats apart.
    """
    names = [
        ", ".join(f"{k}={v!r}" for k, v in params.items()) or "(default)"
        for params in candidates
    ]
    repeats = Counter(names)
    return [
        f"{name} #{k}" if repeats[name] > 1 else name for k, name in enumerate(names)
    ]


def _read_search(search, scoring):
    """``(cv_results_, key, name, splits, repetitions)`` of a fitted search.

    ``key`` is the scoring to read (``None`` for ``split<k>_test_score``): the
    search's ``refit`` metric when it scored several and ``scoring`` is None,
    and ``"score"`` when ``scoring`` names the search's one scorer. ``name``
    is the scoring to show. Splits given as a list are the design itself; an
    m x 2 BCV of this package gives its number of repetitions.
    """
    results = getattr(search, "cv_results_", None)
    if not isinstance(results, dict):
        raise ValueError(
            "cv_results must be the cv_results_ dict of a fitted GridSearchCV or "
            f"RandomizedSearchCV, or the fitted search itself; {type(search).__name__}"
            " has no cv_results_ (fit it first)."
        )
    keys = [k[len("mean_test_") :] for k in results if k.startswith("mean_test_")]
    one = getattr(search, "scoring", None)
    key, name = scoring, scoring
    if keys == ["score"]:
        if scoring is None:
            name = one if isinstance(one, str) else None
        elif scoring != "score":
            if not _same_scorer(one, scoring):
                raise ValueError(
                    f"scoring={scoring!r}, but the search scored with {one!r} "
                    "alone; pass scoring=None to compare its scores."
                )
            key = "score"
    elif scoring is None and isinstance(getattr(search, "refit", None), str):
        key = name = search.refit
    cv, splits, repetitions = getattr(search, "cv", None), None, None
    if isinstance(cv, BlockRegularizedMx2CV):
        repetitions = cv.n_repetitions
    elif isinstance(cv, (list, tuple)) and cv:
        splits = [(np.asarray(train), np.asarray(test)) for train, test in cv]
    return results, key, name, splits, repetitions


def _same_scorer(scoring, name):
    """Whether a search's ``scoring`` is the scorer that ``name`` names."""
    if scoring is None or isinstance(scoring, str):
        return scoring == name
    try:
        named = _check_scoring(None, name)
    except ValueError:  # not a scorer name
        return False
    return repr(scoring) == repr(named)  # a scorer's repr names its function


def _score_split(estimator, X, y, train, test, *, scorer, score_params):
    """The score of a fitted estimator on ``test``, as ``cross_validate`` does."""
    X_test, y_test = _safe_split(estimator, X, y, test, train)
    params = _check_method_params(X, params=score_params, indices=test)
    if y_test is None:
        return float(scorer(estimator, X_test, **params))
    return float(scorer(estimator, X_test, y_test, **params))


class ModelComparison(_BaseComparison):
    """Compare several estimators on any score, from identical CV splits.

    Cross-validates every estimator on the same splits (in parallel, as
    :func:`~sklearn.model_selection.cross_validate` does), then tests each pair
    of models on their per-split score differences with a test that accounts
    for the overlap of the training sets. With ``reference=None`` every pair
    is tested and the p-values are adjusted by Holm's method over the family;
    with a reference, each other model is tested against it. The constructors
    :meth:`from_cross_validate`, :meth:`from_cv_results` (a fitted
    ``GridSearchCV``) and :meth:`from_scores` run the same tests on results
    you already have, with no refit.

    Parameters
    ----------
    estimators : dict of str to estimator
        Two or more named models; each is cloned. Any estimator that
        :func:`~sklearn.model_selection.cross_validate` takes, classifiers
        and regressors alike.

    scoring : str, callable or None, default=None
        One score: a name of
        :func:`sklearn_faithful.metrics.get_scorer_names`, this package's
        confidence scorers (``"cf1_macro"``) and scikit-learn's
        (``"roc_auc"``, ``"neg_log_loss"``, ``"balanced_accuracy"``,
        ``"neg_root_mean_squared_error"``, ``"r2"``), a scorer, or None for
        each estimator's ``score`` method (accuracy for a classifier, R² for
        a regressor), as in scikit-learn. Higher is better.

    cv : cross-validation generator, iterable or None, default=None
        The splits, the same for every model. None means
        ``BlockRegularizedMx2CV(n_repetitions=5, random_state=random_state)``,
        10 splits of half the data each; it stratifies on ``y`` for
        classifiers and cuts at random for a continuous target. The
        ``"5x2cv-t"``, ``"5x2cv-f"`` and ``"bcv-t"`` tests need an m x 2
        design.

    test : {"auto", "corrected-t", "5x2cv-t", "5x2cv-f", "bcv-t", \
            "bayesian"}, default="auto"
        The test of each pair: Nadeau & Bengio's corrected resampled t-test
        (:func:`corrected_resampled_ttest`), Dietterich's 5x2cv t-test
        (:func:`paired_ttest_5x2cv`), Alpaydin's combined F-test
        (:func:`combined_ftest_5x2cv`), the block-regularized m x 2 BCV
        t-test (:func:`blocked_mx2cv_ttest`) or the Bayesian correlated
        t-test (:func:`bayesian_correlated_ttest`). ``"auto"`` is
        ``"bcv-t"`` when the splits form an m x 2 design (the default
        ``cv``) and ``"corrected-t"`` otherwise, or when the splits are
        unknown (:meth:`from_cv_results`, :meth:`from_scores`); ``test_``
        says which ran. The corrected t and the Bayesian correlated t warn
        on repeated k-fold or repeated hold-out splits (each item tested
        about twice or more, splits not halves): there they rejected equal
        learners in 11-13% of data sets at 5%
        (``benchmarks/sim_ct_liberal.py``, seed 20261126), while the
        default design with ``"bcv-t"`` held its level. The user guide,
        "Comparing pipelines on any metric", gives the measured type-I error
        and power.

    reference : str or None, default=None
        None tests every pair; a name tests each other model against that
        one (A = the reference, B = the other model).

    rope : float, default=0.0
        Half-width of a region of practical equivalence on the score scale.
        The Bayesian test reports ``P(B worse)``, ``P(equivalent)`` and
        ``P(B better)``; for the other tests it is drawn by :meth:`plot`.

    confidence_level : float, default=0.95
        Level of the intervals of the differences, and the threshold of the
        ``decide`` column of :meth:`summary` (see :meth:`decide`).

    n_jobs : int, default=None
        Number of jobs fitting in parallel, over every model and split; None
        means 1 unless in a :func:`joblib.parallel_config` context. -1 means
        all processors. The results do not depend on it.

    random_state : int, RandomState instance or None, default=None
        Seeds the default splitter. The estimators' own seeds are theirs.

    verbose : int, default=0
        1 prints a line per fit; higher values also print joblib's lines.

    Attributes
    ----------
    test_ : str
        The test that ran, ``test`` with ``"auto"`` resolved.
    names_ : list of str
        The model names, in the order given.
    scores_ : dict of str to ndarray of shape (n_splits,)
        Each model's score on each split.
    splits_ : list of (ndarray, ndarray) or None
        The (train, test) indices used; None from :meth:`from_cv_results`
        and :meth:`from_scores`.
    n_train_, n_test_ : int or None
        Mean numbers of training and test samples of a split; None from
        :meth:`from_cv_results` on an m x 2 BCV search when not given (the
        halves, which the m x 2 tests do not need).
    pairs_ : list of (str, str)
        The tested pairs ``(A, B)``.
    results_ : dict of (str, str) to result
        The test of each pair: :class:`CVTtestResult`,
        :class:`CVFtestResult` or :class:`CorrelatedTTestResult`.
    pvalues_holm_ : dict of (str, str) to float or None
        Holm-adjusted p-value of each pair (the raw one with a reference
        or a single pair is adjusted too, over the pairs tested); None for the
        Bayesian test.

    See Also
    --------
    BayesModelComparison : Precision, recall and F1 of two classifiers, with
        the Bayes test of Wang & Li (2019).
    sklearn_faithful.multi_dataset.friedman_test : Several methods over several
        data sets.

    Notes
    -----
    The tests are about models trained on ``n_train_`` samples, the size of a
    split's training set, not about a model refitted on all the data.

    :meth:`summary` has one row per pair ``(A, B)``: ``model_a``,
    ``model_b``, ``mean_a``, ``mean_b``, ``difference`` (mean of B - A over
    the splits), ``low`` and ``high`` (its interval at ``confidence_level``;
    NaN for the F-test, which has none), then for the frequentist tests
    ``statistic``, ``df``, ``pvalue`` and ``pvalue_holm``, for the Bayesian
    test ``p_worse``, ``p_equivalent`` and ``p_better``, and ``decide``
    (:meth:`decide` at ``confidence_level``). The intervals are each pair's
    own, not adjusted for the family, while ``decide`` reads the Holm
    p-value: an interval that excludes 0 can sit beside ``"undecided"`` when
    several pairs are tested.

    References
    ----------
    .. [1] C. Nadeau and Y. Bengio, "Inference for the Generalization Error",
       Machine Learning 52(3), 239-281, 2003.
    .. [2] A. Benavoli, G. Corani, J. Demsar and M. Zaffalon, "Time for a
       Change: a Tutorial for Comparing Multiple Classifiers Through Bayesian
       Analysis", JMLR 18(77), 1-36, 2017.
    .. [3] S. Holm, "A Simple Sequentially Rejective Multiple Test
       Procedure", Scandinavian Journal of Statistics 6(2), 65-70, 1979.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_faithful.comparison import ModelComparison
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> comp = ModelComparison(
    ...     {"nb": GaussianNB(),
    ...      "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
    ...      "logreg": make_pipeline(StandardScaler(), LogisticRegression())},
    ...     scoring="roc_auc", random_state=0,
    ... ).fit(X, y)
    >>> comp.decide(0.95)
    {('nb', 'tree'): 'B worse', ('nb', 'logreg'): 'B better', \
('tree', 'logreg'): 'B better'}
    """

    _parameter_constraints = {
        "estimators": [dict],
        "scoring": [str, callable, None],
        "cv": ["cv_object"],
        "test": [StrOptions({"auto", *TESTS})],
        "reference": [str, None],
        "rope": ROPE,
        "confidence_level": CONFIDENCE_LEVEL,
        "n_jobs": N_JOBS,
        "random_state": SEEDS,
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        estimators,
        *,
        scoring=None,
        cv=None,
        test="auto",
        reference=None,
        rope=0.0,
        confidence_level=0.95,
        n_jobs=None,
        random_state=None,
        verbose=0,
    ):
        self.estimators = estimators
        self.scoring = scoring
        self.cv = cv
        self.test = test
        self.reference = reference
        self.rope = rope
        self.confidence_level = confidence_level
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _validate_params(self):
        _validate_init_params(self)
        self._check_names(list(self.estimators))

    def _check_names(self, names):
        if len(names) < 2:
            raise ValueError(
                f"estimators must name two or more models; got {len(names)} "
                f"({names!r})."
            )
        if self.reference is not None and self.reference not in names:
            raise ValueError(
                f"reference={self.reference!r} is not one of the models {names!r}."
            )

    def _named_estimators(self):
        return list(self.estimators.items())

    def _default_cv(self):
        return BlockRegularizedMx2CV(
            DEFAULT_REPETITIONS, random_state=self.random_state
        )

    def _classifies(self):
        return all(is_classifier(e) for e in self.estimators.values())

    def _scorer(self, estimator):
        return _check_scoring(estimator, self.scoring)

    @_validate_method(
        {
            "X": ["array-like"],
            "y": ["array-like", None],
            "groups": ["array-like", None],
        },
        prefer_skip_nested_validation=False,  # the estimators validate their own
    )
    def fit(self, X, y=None, groups=None, **params):
        """Cross-validate every model on the same splits and test each pair.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input data, or anything the estimators accept.
        y : array-like of shape (n_samples,), default=None
            Target.
        groups : array-like of shape (n_samples,), default=None
            Group labels for the splitter.
        **params : dict
            Parameters of the estimators' ``fit`` and of the scorer, such as
            ``sample_weight``. With metadata routing enabled
            (``sklearn.set_config(enable_metadata_routing=True)``) each goes
            only where it is requested, and an unrequested one raises
            scikit-learn's error; without, they go to every ``fit``, as in
            :func:`~sklearn.model_selection.cross_validate`.

        Returns
        -------
        self : object
            The fitted comparison.
        """
        X, y, groups = indexable(X, y, groups)

        def evaluator(estimator, score_params):
            scorer = self._scorer(estimator)
            return partial(_score_split, scorer=scorer, score_params=score_params)

        splits, scores = self._fit_splits(X, y, groups, params, evaluator)
        scores = np.asarray(scores, dtype=float)
        return self._test_scores(
            dict(zip(self.estimators, scores, strict=True)), splits
        )

    def _check_design(self, splits, n_samples):
        """Resolve ``test="auto"``; the m x 2 tests need complementary halves.

        ``"auto"`` is the blocked m x 2 BCV t-test on an m x 2 design, which
        held its level there with the most power of the m x 2 tests that
        give an interval, and the corrected resampled t-test on any other
        (which :meth:`_warn_if_liberal` flags on repeated splits).
        """
        if self.test == "auto":
            try:
                _check_mx2_structure(splits, n_samples)
            except ValueError:
                self.test_ = "corrected-t"
            else:
                self.test_ = "bcv-t"
            return
        if TESTS[self.test][1]:
            _check_mx2_structure(splits, n_samples)
        self.test_ = self.test

    def _pairs(self, names):
        if self.reference is None:
            return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
        return [(self.reference, b) for b in names if b != self.reference]

    def _test(self, scores_a, scores_b):
        """The test of one pair, on already validated scores."""
        func, _, bayesian = TESTS[self.test_]
        kw = {}
        if self.test_ in ("corrected-t", "bayesian"):
            kw = dict(n_train=self.n_train_, n_test=self.n_test_)
        if bayesian:
            kw.update(rope=self.rope, confidence_level=self.confidence_level)
        return func(scores_a, scores_b, **kw)

    def _test_scores(self, scores, splits, n_train=None, n_test=None):
        """Record the scores and run the test of every pair."""
        if splits is not None:  # mean sizes, rounded half up (284.5 gives 285)
            n_train, n_test = (
                max(1, int(np.floor(np.mean([len(s[k]) for s in splits]) + 0.5)))
                for k in (0, 1)
            )
        self.names_ = names = list(scores)
        self.scores_, self.splits_ = scores, splits
        self.n_train_, self.n_test_ = n_train, n_test
        self.pairs_ = self._pairs(names)
        # inputs are validated once above; skip re-validating them per pair,
        # and say once, not per pair, where the differences do not vary
        with (
            config_context(skip_parameter_validation=True),
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always")
            self.results_ = {
                (a, b): self._test(scores[a], scores[b]) for a, b in self.pairs_
            }
        same = [w for w in caught if "no information on their spread" in str(w.message)]
        for w in caught:  # any other warning is the user's to see, as it came
            if w not in same:
                warnings.warn(w.message, w.category, stacklevel=_caller_stacklevel())
        if same:
            warnings.warn(
                f"{len(same)} of the {len(self.pairs_)} pairs have the same "
                "difference on every split (often identical models, such as grid "
                "candidates whose parameters do not matter); their statistic is "
                "infinite or undefined, and their p-value 0 or NaN. Check "
                "summary() for NaN rows.",
                RuntimeWarning,
                stacklevel=_caller_stacklevel(),
            )
        self._warn_if_liberal(len(scores[names[0]]))
        if TESTS[self.test_][2]:
            self.pvalues_holm_ = dict.fromkeys(self.pairs_)
        else:
            raw = np.array([self.results_[pair].pvalue for pair in self.pairs_])
            adjusted = np.full(raw.shape, np.nan)
            defined = ~np.isnan(raw)  # Holm over the pairs with a p-value
            adjusted[defined] = holm(raw[defined])
            self.pvalues_holm_ = dict(zip(self.pairs_, adjusted.tolist(), strict=True))
        return self

    def _warn_if_liberal(self, n_splits):
        """Warn where the Nadeau-Bengio correction was measured liberal.

        Each item lands in ``n_splits * n_test / (n_train + n_test)`` test
        sets. Where that is 2 or more (repeated k-fold, repeated hold-out) and
        the splits are not halves (the m x 2 designs), the corrected t and
        the Bayesian correlated t rejected equal learners in ``_LIBERAL_RATE``
        of data sets at 5% (``benchmarks/sim_ct_liberal.py``, seed 20261126),
        more the more repetitions; on one k-fold CV and on m x 2 designs they held their
        level.
        """
        if self.test_ not in ("corrected-t", "bayesian"):
            return
        n_train, n_test = self.n_train_, self.n_test_
        times_tested = n_splits * n_test / (n_train + n_test)
        if times_tested < 1.5 or abs(n_train - n_test) <= 1:  # halves: m x 2
            return
        warnings.warn(
            f"test={self.test_!r} on splits that test each item about "
            f"{times_tested:.0f} times (repeated k-fold or repeated hold-out) "
            "can reject equal learners more often than its level: with k-NN "
            "against ridge regression of equal expected error on Friedman #1 "
            f"it rejected {_LIBERAL_RATE} of them at 5% on 10 x 10-fold CV, "
            "against "
            f"{_KFOLD_RATE} on one 10-fold CV and {_BLOCKED_RATE} for the "
            "blocked t-test on a 5 x 2 BCV (benchmarks/sim_ct_liberal.py, "
            "seed 20261126). For a test that holds its level, use the default "
            "cv (a 5 x 2 BCV, test 'bcv-t') or one k-fold CV.",
            UserWarning,
            stacklevel=_caller_stacklevel(),
        )

    @classmethod
    def _from_scores(
        cls, scores, params, splits=None, n_train=None, n_test=None, repetitions=None
    ):
        """A comparison fitted on given scores.

        The design is checked on ``splits`` when they are known, is the m x 2
        BCV of ``repetitions`` when only that is known, and is otherwise
        unknown (``"auto"`` is then the corrected t).
        """
        comparison = cls._from_results(
            (dict.fromkeys(scores),), params, fixed=("estimators",)
        )
        names = list(scores)
        comparison._check_names(names)
        for name in names:  # finite 1-D scores, all of the first one's length
            _check_model_scores(scores[names[0]], scores[name], name)
        n_splits = len(scores[names[0]])
        if splits is not None:
            n_samples = int(max(np.max(np.concatenate(s)) for s in splits)) + 1
            comparison._check_design(splits, n_samples)
        elif repetitions is not None:  # an m x 2 BCV: its halves, in order
            if n_splits != 2 * repetitions:
                raise ValueError(
                    f"the search's cv is a {repetitions} x 2 BCV "
                    f"({2 * repetitions} splits), but cv_results holds "
                    f"{n_splits} split columns."
                )
            auto = comparison.test == "auto"
            comparison.test_ = "bcv-t" if auto else comparison.test
        elif comparison.test == "auto":  # the splits are unknown
            comparison.test_ = "corrected-t"
        elif TESTS[comparison.test][1] and n_splits % 2:
            raise ValueError(
                f"test={comparison.test!r} needs the 2m splits of an m x 2 CV; "
                f"the scores have {n_splits} splits."
            )
        else:
            comparison.test_ = comparison.test
        sized = splits is not None or None not in (n_train, n_test)
        if comparison.test_ in ("corrected-t", "bayesian") and not sized:
            hint = (
                ""
                if repetitions is not None
                else ", or search on an m x 2 BCV (BlockRegularizedMx2CV) for the "
                "blocked t-test, which needs neither"
            )
            raise ValueError(
                f"test={comparison.test_!r} needs n_train and n_test, the numbers "
                "of training and test samples of a split (n - n // k and n // k "
                f"for KFold(k) on n samples); pass both{hint}."
            )
        return comparison._test_scores(scores, splits, n_train, n_test)

    @classmethod
    @validate_params(
        {"results": [dict], "scoring": [str, None]},
        prefer_skip_nested_validation=False,
    )
    def from_cross_validate(cls, results, *, scoring=None, **params):
        """Test the models of several ``cross_validate`` results, with no refit.

        For the same splits and estimators, the result equals that of
        :meth:`fit`.

        Parameters
        ----------
        results : dict of str to dict
            Each model's ``cross_validate(..., return_indices=True)`` result,
            all on the same splits (the same ``cv`` object with a fixed seed);
            the names become the model names.
        scoring : str, default=None
            Which scores to compare when the results hold several
            (``test_<scoring>``); None uses ``test_score``.
        **params : dict
            Other parameters of :class:`ModelComparison` (``test``,
            ``reference``, ``rope``, ``confidence_level``).

        Returns
        -------
        comparison : ModelComparison
            A fitted comparison; ``estimators`` maps each name to None.

        Examples
        --------
        >>> from sklearn.datasets import load_diabetes
        >>> from sklearn.linear_model import Ridge
        >>> from sklearn.model_selection import cross_validate
        >>> from sklearn.tree import DecisionTreeRegressor
        >>> from sklearn_faithful.comparison import ModelComparison
        >>> from sklearn_faithful.model_selection import BlockRegularizedMx2CV
        >>> X, y = load_diabetes(return_X_y=True)
        >>> cv = list(BlockRegularizedMx2CV(5, random_state=0).split(X))
        >>> models = {"ridge": Ridge(),
        ...           "tree": DecisionTreeRegressor(max_depth=3, random_state=0)}
        >>> res = {name: cross_validate(est, X, y, cv=cv, scoring="r2",
        ...                             return_indices=True)
        ...        for name, est in models.items()}
        >>> comp = ModelComparison.from_cross_validate(res, test="bcv-t")
        >>> comp.summary()["decide"]
        ['B worse']
        """
        if len(results) < 2:
            raise ValueError(
                "results must hold two or more cross_validate results; got "
                f"{len(results)}."
            )
        splits = _check_same_cv_results(results)
        names = list(results)
        scores = {}
        for name in names:
            key = _score_key(results[name], scoring, f"results[{name!r}]", "test_")
            scores[name] = np.asarray(results[name][f"test_{key}"], dtype=float)
        return cls._from_scores(scores, {"scoring": scoring, **params}, splits)

    @classmethod
    @validate_params(
        {
            "cv_results": [dict, HasMethods(["fit"])],
            "n_train": [Interval(Real, 0, None, closed="neither"), None],
            "n_test": [Interval(Real, 0, None, closed="neither"), None],
            "scoring": [str, None],
            "reference": [str, None],
        },
        prefer_skip_nested_validation=False,
    )
    def from_cv_results(
        cls,
        cv_results,
        *,
        n_train=None,
        n_test=None,
        scoring=None,
        reference="best",
        **params,
    ):
        """Test the candidates of a fitted grid or randomized search, no refit.

        Each candidate's per-split test scores (``split<k>_test_<scoring>``)
        become a model named by its parameters; candidates with the same
        parameters (a randomized search can draw them twice) stay separate
        models, named with their index in ``params`` (``"C=1.0 #3"``).

        Parameters
        ----------
        cv_results : dict or fitted search
            The ``cv_results_`` of a fitted
            :class:`~sklearn.model_selection.GridSearchCV` or
            :class:`~sklearn.model_selection.RandomizedSearchCV`, or the
            fitted search itself. From the search, the design comes from its
            ``cv``: an m x 2 BCV of this package
            (:class:`~sklearn_faithful.model_selection.BlockRegularizedMx2CV`)
            gives ``test="auto"`` the blocked m x 2 BCV t-test, and a list of
            ``(train, test)`` splits is checked as :meth:`fit` checks them
            and gives ``n_train`` and ``n_test``.
        n_train : int, default=None
            Number of training samples of a split (the search does not keep
            its splits); for ``KFold(k)`` on n samples, ``n - n // k``. Needed
            by the ``"corrected-t"`` and ``"bayesian"`` tests only, unless
            the search's splits are a list.
        n_test : int, default=None
            Number of test samples of a split, ``n // k`` for ``KFold(k)``;
            needed when ``n_train`` is.
        scoring : str, default=None
            Which score to compare when the search used several; None uses
            ``split<k>_test_score``, or the search's ``refit`` metric when
            given the search. A search with one scorer also takes its name:
            ``"roc_auc"`` for ``scoring="roc_auc"``, and any name of
            :func:`sklearn_faithful.metrics.get_scorer_names`
            (``"cf1_macro"``) for the scorer it names.
        reference : str or None, default="best"
            ``"best"`` tests each candidate against the best-ranked one (the
            search's ``rank_test_<scoring>`` of 1), a candidate's name
            against that one, and None every pair (k (k - 1) / 2 tests).
        **params : dict
            Other parameters of :class:`ModelComparison` (``test``, ``rope``,
            ``confidence_level``).

        Returns
        -------
        comparison : ModelComparison
            A fitted comparison; ``estimators`` maps each name to None.
            ``n_train_`` and ``n_test_`` are None when not given and not
            needed (the halves of an m x 2 BCV).

        Examples
        --------
        >>> from sklearn.datasets import load_breast_cancer
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
        >>> from sklearn.pipeline import make_pipeline
        >>> from sklearn.preprocessing import StandardScaler
        >>> from sklearn_faithful.comparison import ModelComparison
        >>> from sklearn_faithful.model_selection import BlockRegularizedMx2CV
        >>> X, y = load_breast_cancer(return_X_y=True)
        >>> cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
        >>> pipe = make_pipeline(StandardScaler(), LogisticRegression())
        >>> grid = {"logisticregression__C": [0.01, 0.1, 1.0]}
        >>> search = GridSearchCV(pipe, grid, cv=cv, scoring="roc_auc").fit(X, y)
        >>> comp = ModelComparison.from_cv_results(
        ...     search.cv_results_, n_train=len(y) - len(y) // 5, n_test=len(y) // 5)
        >>> comp.summary()["model_a"][0]  # the best candidate is the reference
        'logisticregression__C=0.1'

        On an m x 2 BCV, the search itself gives the design:

        >>> bcv = BlockRegularizedMx2CV(5, random_state=0)
        >>> search = GridSearchCV(pipe, grid, cv=bcv, scoring="roc_auc").fit(X, y)
        >>> ModelComparison.from_cv_results(search).test_
        'bcv-t'
        """
        splits = repetitions = None
        if isinstance(cv_results, dict):
            key = name = scoring
        else:
            cv_results, key, name, splits, repetitions = _read_search(
                cv_results, scoring
            )
        if "params" not in cv_results:
            raise ValueError(
                "cv_results must be the cv_results_ of a fitted GridSearchCV or "
                "RandomizedSearchCV, with 'params' and 'split<k>_test_<score>'."
            )
        key = _score_key(cv_results, key, "cv_results", "mean_test_")
        n_splits = 0
        while f"split{n_splits}_test_{key}" in cv_results:
            n_splits += 1
        if n_splits < 2:
            raise ValueError(
                f"cv_results holds {n_splits} split column(s) "
                f"'split<k>_test_{key}'; the tests need the scores of at least "
                "2 splits."
            )
        table = np.column_stack(
            [cv_results[f"split{k}_test_{key}"] for k in range(n_splits)]
        ).astype(float)
        names = _candidate_names(cv_results["params"])
        if reference == "best":
            rank = np.asarray(cv_results[f"rank_test_{key}"])
            reference = names[int(np.argmin(rank))]
        scores = dict(zip(names, table, strict=True))
        params = {"reference": reference, "scoring": name, **params}
        n_train, n_test = (
            None if n is None else int(round(n)) for n in (n_train, n_test)
        )
        return cls._from_scores(scores, params, splits, n_train, n_test, repetitions)

    @classmethod
    @validate_params(
        {
            "scores": [dict, "array-like"],
            "n_train": [Interval(Real, 0, None, closed="neither")],
            "n_test": [Interval(Real, 0, None, closed="neither")],
        },
        prefer_skip_nested_validation=False,
    )
    def from_scores(cls, scores, n_train, n_test, **params):
        """Test models from their per-split scores.

        Parameters
        ----------
        scores : dict of str to array-like of shape (n_splits,), or DataFrame
            Each model's score on each split, all on the same splits in the
            splitter's order (for m x 2 designs, splits ``2i`` and ``2i + 1``
            are the two halves of repetition ``i``); a DataFrame has one
            column per model.
        n_train : int
            Number of training samples of a split.
        n_test : int
            Number of test samples of a split.
        **params : dict
            Other parameters of :class:`ModelComparison` (``test``,
            ``reference``, ``rope``, ``confidence_level``).

        Returns
        -------
        comparison : ModelComparison
            A fitted comparison; ``estimators`` maps each name to None.

        Examples
        --------
        >>> from sklearn_faithful.comparison import ModelComparison
        >>> scores = {"a": [0.81, 0.79, 0.84, 0.80, 0.82, 0.78],
        ...           "b": [0.84, 0.80, 0.86, 0.83, 0.83, 0.81]}
        >>> comp = ModelComparison.from_scores(scores, n_train=50, n_test=50,
        ...                                    test="bayesian", rope=0.01)
        >>> res = comp.results_[("a", "b")]
        >>> round(res.p_better, 3)
        0.839
        """
        if hasattr(scores, "columns"):  # a DataFrame: one column per model
            scores = {str(c): np.asarray(scores[c]) for c in scores.columns}
        elif not isinstance(scores, dict):
            raise ValueError(
                "scores must be a dict of model name to per-split scores, or a "
                f"DataFrame with one column per model; got {type(scores).__name__}."
            )
        scores = {name: np.asarray(s) for name, s in scores.items()}
        return cls._from_scores(
            scores, params, None, int(round(n_train)), int(round(n_test))
        )

    def _row(self, pair):
        a, b = pair
        res = self.results_[pair]
        # in a power-of-two unit: sums of scores near the float maximum overflow
        d, unit = _differences(self.scores_[a], self.scores_[b])
        row = dict(
            model_a=a,
            model_b=b,
            mean_a=_mean(self.scores_[a], unit),
            mean_b=_mean(self.scores_[b], unit),
            difference=float(d.mean() * unit),
        )
        if TESTS[self.test_][2]:
            low, high = res.credible_interval(self.confidence_level)
            row.update(low=low, high=high, p_worse=res.p_worse)
            row.update(p_equivalent=res.p_equivalent, p_better=res.p_better)
        else:
            low = high = df = float("nan")  # the F-test has no interval
            if self.test_ != "5x2cv-f":
                (low, high), df = res.confidence_interval(self.confidence_level), res.df
            row.update(low=low, high=high, statistic=res.statistic, df=df)
            row.update(pvalue=res.pvalue, pvalue_holm=self.pvalues_holm_[pair])
        row["decide"] = self._decide_one(pair, self.confidence_level)
        return row

    def _decide_one(self, pair, threshold):
        res = self.results_[pair]
        if TESTS[self.test_][2]:
            return res.decide(threshold)
        if self.pvalues_holm_[pair] <= 1 - threshold:  # False for NaN
            a, b = pair
            better = _differences(self.scores_[a], self.scores_[b])[0].mean() > 0
            return B_BETTER if better else B_WORSE
        return UNDECIDED

    def _describe(self):
        bayesian = TESTS[self.test_][2]
        family = "" if bayesian or len(self.pairs_) == 1 else ", Holm-adjusted p-values"
        sizes = (
            "halves of an m x 2 BCV"
            if self.n_train_ is None
            else f"n_train={self.n_train_}, n_test={self.n_test_}"
        )
        lines = [
            f"{TESTS[self.test_][0].__name__} (test={self.test_!r}) on "
            f"{len(next(iter(self.scores_.values())))} splits, {sizes}{family}"
        ]
        lines += [
            f"  {name}: {_short_name(estimator)}"
            for name, estimator in self.estimators.items()
            if estimator is not None
        ]
        return lines + [
            f"  scoring={self.scoring!r}, {100 * self.confidence_level:g}% "
            f"intervals, rope={self.rope!r}, decide at {self.confidence_level:g}"
        ]

    @validate_params(
        {"ax": "no_validation", "labels": [dict, None]},
        prefer_skip_nested_validation=True,
    )
    def plot(self, ax=None, *, labels=None):
        """Plot each pair's difference B - A with its interval and the rope.

        One row per pair: the mean difference, its confidence interval (the
        t-interval of the frequentist tests) or, for the Bayesian test, the
        posterior density of the difference shaded inside its credible
        interval; the grey band is ``+/-rope`` and the dashed line 0.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None creates a figure.
        labels : dict of str to str, default=None
            Display names of the models; None uses the names.

        Returns
        -------
        display : ComparisonDisplay
            The figure: ``display.ax_`` holds the Axes, ``display.figure_``
            their figure.
        """
        return _plot_pairs(self._start_plot(), self, ax, labels or {})


def _check_model_scores(scores_a, scores_b, name):
    """Validate one model's scores against the first's (length, finiteness)."""
    try:
        _check_split_scores(scores_a, scores_b)
    except ValueError as exc:
        raise ValueError(
            f"scores of model {name!r}: " + str(exc).replace("scores_b", name)
        ) from exc

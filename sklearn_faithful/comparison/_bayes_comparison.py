"""BayesModelComparison: the 3x2 BCV Bayes test on two scikit-learn estimators."""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import check_cv
from sklearn.utils import indexable
from sklearn.utils.metadata_routing import (
    UNUSED,
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.parallel import delayed
from sklearn.utils.validation import check_is_fitted

from ..model_selection import BlockRegularized3x2CV
from ..model_selection._design import _check_mx2_structure, _check_same_splits
from ..utils._compat import (
    HasMethods,
    Interval,
    StrOptions,
    _check_method_params,
    _routing_enabled,
    _safe_split,
    parallel_as_completed,
    validate_params,
)
from ..utils._random import _generator
from ..utils._results import _summary_table
from ..utils._validation import (
    CONFIDENCE_LEVEL,
    N_JOBS,
    POS_LABEL,
    _check_classes,
    _check_sample_weight,
    _check_y_true,
    _resolve_pos_label,
    _validate_init_params,
    _validate_method,
)
from ._bayes import METHODS, _results_table, bayes_test
from ._counts import _CORRELATION, _effective_counts, _factor_for_splits
from ._paired import _paired_table, paired_bayes_test
from ._plot import _plot_comparison, _short_name
from ._posterior import METRICS


def _count_split(estimator, X, y, train, test, classes, sample_weight):
    """One-vs-rest (TP, FP, FN, TN) per class of a fitted estimator on ``test``.

    With ``sample_weight`` the counts are sums of the test items' weights.
    """
    X_test, y_test = _safe_split(estimator, X, y, test, train)
    y_pred = np.asarray(estimator.predict(X_test))
    unknown = ~np.isin(y_pred, classes)
    if unknown.any():
        raise ValueError(
            f"{type(estimator).__name__} predicted the label "
            f"{y_pred[unknown][0]!r}, which is not among the classes of y "
            f"{classes.tolist()}."
        )
    weight = None if sample_weight is None else sample_weight[test]
    cm = confusion_matrix(y_test, y_pred, labels=classes, sample_weight=weight)
    tp = np.diag(cm)
    fp = cm.sum(axis=0) - tp
    fn = cm.sum(axis=1) - tp
    tn = cm.sum() - tp - fp - fn
    return np.column_stack([tp, fp, fn, tn])


def _fit_and_count(estimator, X, y, train, test, classes, fit_params, sample_weight):
    """Fit on ``train``, predict ``test``; one-vs-rest (TP, FP, FN, TN) per class."""
    X_train, y_train = _safe_split(estimator, X, y, train)
    params = _check_method_params(X, params=fit_params, indices=train)
    estimator.fit(X_train, y_train, **params)
    return _count_split(estimator, X, y, train, test, classes, sample_weight)


def _as_counts_array(per_split, shape, weighted):
    """Stack per-split counts: integers, or floats when they are weighted."""
    dtype = np.float64 if weighted else np.int64
    return np.asarray(per_split, dtype=dtype).reshape(shape)


def _splits_of(cv_results, name):
    """The (train, test) index pairs recorded by ``cross_validate``."""
    if not isinstance(cv_results, dict):
        raise ValueError(
            f"{name} must be the dict that sklearn.model_selection.cross_validate "
            f"returns; got {type(cv_results).__name__}."
        )
    missing = [key for key in ("indices", "estimator") if key not in cv_results]
    if missing:
        raise ValueError(
            f"{name} has no {' or '.join(map(repr, missing))}; run "
            "cross_validate(..., return_indices=True, return_estimator=True) so "
            "that the fitted models and their splits are kept."
        )
    indices = cv_results["indices"]
    train, test = indices["train"], indices["test"]
    estimators = cv_results["estimator"]
    if not len(train) == len(test) == len(estimators):
        raise ValueError(
            f"{name} holds {len(estimators)} estimators for {len(test)} test "
            "sets; it is not one cross_validate result."
        )
    return [
        (np.asarray(tr), np.asarray(te)) for tr, te in zip(train, test, strict=True)
    ]


@validate_params(
    {
        "cv_results": [dict],
        "X": ["array-like"],
        "y": ["array-like"],
        "labels": ["array-like", None],
        "sample_weight": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def counts_from_cv_results(cv_results, X, y, *, labels=None, sample_weight=None):
    """Per-split confusion counts of a ``cross_validate`` result, with no refit.

    Each fitted model that :func:`~sklearn.model_selection.cross_validate`
    kept predicts its own test set, and the one-vs-rest confusion counts of
    every class are recorded: the counts :func:`bayes_test` and
    :func:`paired_bayes_test` take, from models you have already trained.

    Parameters
    ----------
    cv_results : dict
        The result of ``cross_validate(estimator, X, y, cv=...,
        return_indices=True, return_estimator=True)``.

    X : array-like of shape (n_samples, n_features)
        The data given to ``cross_validate``, or anything the estimators
        accept.

    y : array-like of shape (n_samples,)
        The labels given to ``cross_validate``.

    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the second axis of the result; None
        means the sorted unique values of ``y``.

    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the test items: each count is then the sum of the weights
        of its items.

    Returns
    -------
    counts : ndarray of shape (n_splits, n_classes, 4)
        One-vs-rest ``(TP, FP, FN, TN)`` of each class on each split, in the
        order of the splits; integers, or floats with ``sample_weight``.
        ``counts[:, k]`` are the counts of class ``labels[k]`` as the positive
        class.

    See Also
    --------
    BayesModelComparison.from_cv_results : The Bayes test from two
        ``cross_validate`` results.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import cross_validate
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_faithful.comparison import counts_from_cv_results
    >>> from sklearn_faithful.model_selection import BlockRegularized3x2CV
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> res = cross_validate(GaussianNB(), X, y,
    ...                      cv=BlockRegularized3x2CV(random_state=0),
    ...                      return_indices=True, return_estimator=True)
    >>> counts = counts_from_cv_results(res, X, y)
    >>> counts.shape
    (6, 2, 4)
    >>> counts[0, 1].tolist()  # TP, FP, FN, TN of class 1 on the first split
    [170, 10, 9, 96]
    """
    splits = _splits_of(cv_results, "cv_results")
    X, y = indexable(X, y)
    y = _check_y_true(y, "y")
    classes = np.unique(y) if labels is None else _check_classes(labels)
    sample_weight = _check_sample_weight(sample_weight, y.shape[0], of="y")
    per_split = [
        _count_split(estimator, X, y, train, test, classes, sample_weight)
        for estimator, (train, test) in zip(
            cv_results["estimator"], splits, strict=True
        )
    ]
    shape = (len(splits), classes.size, 4)
    return _as_counts_array(per_split, shape, sample_weight is not None)


def _paired_or_none(counts, metric, test_params):
    """The paired test of one class, or None where its metric is undefined."""
    try:
        return paired_bayes_test(counts[0], counts[1], metric=metric, **test_params)
    except ValueError:
        return None


class BayesModelComparison(BaseEstimator):
    """Compare two estimators with the 3x2 BCV Bayes test of P, R and F1.

    Runs a block-regularized 3x2 cross-validation, fits clones of both
    estimators on the same six splits (in parallel through joblib), records
    their confusion counts, and runs :func:`bayes_test` for each metric
    (Wang & Li 2019, Algorithm 1). Estimator A is the reference, B the
    candidate: ``P(H1)`` is the posterior probability that B is better.
    Every model is trained on half the data, so the posteriors and intervals
    are about models trained on n/2 samples, not about the model refitted on
    all of ``X``. For a claim that B is better, prefer ``paired=True``; for
    reported intervals, ``correlation="wang2015"`` (user guide, "Choosing a
    test").

    Parameters
    ----------
    estimator_a : estimator object
        The reference model; any classifier with ``fit`` and ``predict``,
        including a :class:`~sklearn.pipeline.Pipeline`. It is cloned.

    estimator_b : estimator object
        The candidate model.

    cv : cross-validation generator or iterable, default=None
        Splits to use. None means ``BlockRegularized3x2CV(random_state=
        random_state)``. Any other cv must produce m complementary two-fold
        partitions, unless ``correlation`` is a float.

    paired : bool, default=False
        False runs the paper's test, :func:`bayes_test`, with a posterior per
        model. True runs :func:`paired_bayes_test` on the per-split
        differences, which uses that both models are scored on the same
        items; ``prior``, ``correlation``, ``method`` and ``n_draws`` are then
        unused. In our simulations the paired test held its false-claim rate
        and had more power; see the user guide, "Choosing a test".

    metrics : tuple of {"precision", "recall", "f1"}, \
            default=("precision", "recall", "f1")
        Metrics to test.

    pos_label : int, float, bool or str, default=None
        The positive class for ``average="binary"``. None means 1 when the
        labels are {0, 1}, {-1, 1} or {False, True}.

    average : {"binary", "micro", "macro"}, default="binary"
        ``"micro"`` pools one-vs-rest counts over the classes; ``"macro"``
        averages per-class posteriors by Monte Carlo (this package's
        extension).

    prior : float, default=1.0
        The ``lambda`` of the ``Beta(lambda, lambda)`` prior.

    correlation : {"wang2019", "wang2015", "independent"}, tuple or float, \
            default="wang2019"
        The correlation correction; see :func:`correlation_factor`. The
        default is the paper's, whose 95% F1 intervals covered 80-95% in our
        coverage study; ``"wang2015"`` covered 95-100% (user guide).

    method : {"exact", "monte-carlo"}, default="exact"
        How ``P(H0)`` is computed; see :func:`bayes_test`.

    rope : float, default=0.0
        Half-width of a region of practical equivalence.

    confidence_level : float, default=0.95
        Level of the credible intervals.

    n_draws : int, default=1_000_000
        Monte-Carlo draws per posterior, where Monte Carlo is used.

    n_jobs : int, default=None
        Number of jobs fitting in parallel; None means 1 unless in a
        :func:`joblib.parallel_config` context (which also selects, for
        instance, a Dask cluster). -1 means all processors.

    random_state : int, RandomState instance or None, default=None
        Seeds the default splitter and the Monte-Carlo draws. Pass an int for
        reproducible results. The estimators' own seeds are theirs.

    verbose : int, default=0
        Progress messages while fitting; higher is more.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    splits_ : list of (ndarray, ndarray)
        The (train, test) indices used, identical for both estimators.
    per_class_counts_a_, per_class_counts_b_ : ndarray of shape \
            (n_splits, n_classes, 4)
        One-vs-rest (TP, FP, FN, TN) of each class on each split.
    counts_a_, counts_b_ : ndarray
        The counts tested: shape (n_splits, 4) for ``"binary"`` (the
        positive class) and ``"micro"`` (pooled), (n_splits, n_classes, 4)
        for ``"macro"``.
    correlation_factor_ : float
        The factor ``c``.
    effective_counts_a_, effective_counts_b_ : ndarray
        ``c`` times the summed counts (eqs. 18-24).
    results_ : dict of str to BayesTestResult or PairedBayesTestResult
        The test of each metric (paired with ``paired=True``).
    per_class_results_ : dict of str to list of BayesTestResult, or None
        With ``average="micro"`` or ``"macro"``, each class tested on its own
        one-vs-rest counts, in the order of ``classes_``; None for
        ``"binary"``. With ``paired=True``, an entry is None where the
        class's metric is undefined on some split.

    See Also
    --------
    bayes_test : The test on counts you already have.
    sklearn_faithful.model_selection.BlockRegularized3x2CV : The default splitter.

    References
    ----------
    .. [1] R. Wang and J. Li, "Bayes Test of Precision, Recall, and F1 Measure
       for Comparison of Two Natural Language Processing Models", ACL 2019.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_faithful.comparison import BayesModelComparison
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> comp = BayesModelComparison(
    ...     GaussianNB(), make_pipeline(StandardScaler(), LogisticRegression()),
    ...     random_state=0,
    ... ).fit(X, y)
    >>> res = comp.results_["f1"]
    >>> round(res.p_h1, 3), res.decision
    (0.996, 'accept H1')
    """

    _parameter_constraints = {
        "estimator_a": [HasMethods(["fit", "predict"])],
        "estimator_b": [HasMethods(["fit", "predict"])],
        "cv": ["cv_object"],
        "paired": ["boolean"],
        "metrics": [tuple, list, StrOptions(set(METRICS))],
        "pos_label": POS_LABEL,
        "average": [StrOptions({"binary", "micro", "macro"})],
        "prior": [Interval(Real, 0, None, closed="neither")],
        "correlation": _CORRELATION,
        "method": [StrOptions(set(METHODS))],
        "rope": [Interval(Real, 0, 1, closed="left")],
        "confidence_level": CONFIDENCE_LEVEL,
        "n_draws": [Interval(Integral, 1000, None, closed="left")],
        "n_jobs": N_JOBS,
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        estimator_a,
        estimator_b,
        *,
        cv=None,
        paired=False,
        metrics=("precision", "recall", "f1"),
        pos_label=None,
        average="binary",
        prior=1.0,
        correlation="wang2019",
        method="exact",
        rope=0.0,
        confidence_level=0.95,
        n_draws=1_000_000,
        n_jobs=None,
        random_state=None,
        verbose=0,
    ):
        self.estimator_a = estimator_a
        self.estimator_b = estimator_b
        self.cv = cv
        self.paired = paired
        self.metrics = metrics
        self.pos_label = pos_label
        self.average = average
        self.prior = prior
        self.correlation = correlation
        self.method = method
        self.rope = rope
        self.confidence_level = confidence_level
        self.n_draws = n_draws
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _check_metrics(self):
        metrics = (self.metrics,) if isinstance(self.metrics, str) else self.metrics
        bad = [m for m in metrics if m not in METRICS]
        if bad or len(metrics) == 0:
            raise ValueError(
                f"metrics must be a non-empty tuple of {METRICS}; got {self.metrics!r}."
            )
        return tuple(dict.fromkeys(metrics))

    def _positive_index(self, classes):
        if self.average != "binary":
            return None
        if classes.size != 2:
            raise ValueError(
                f"average='binary' needs two classes; y has {classes.size} "
                f"({classes.tolist()}). Use average='micro' or average='macro'."
            )
        return _resolve_pos_label(classes, self.pos_label, strict=True, of="y")[1]

    def _validate_params(self):
        _validate_init_params(self)

    # ``groups`` goes to the splitter only, never to the comparison itself
    __metadata_request__fit = {"groups": UNUSED}

    def _check_cv(self, y=None):
        if self.cv is None:
            return BlockRegularized3x2CV(random_state=self.random_state)
        return check_cv(self.cv, y, classifier=True)

    def _check_sample_weight(self, sample_weight, n_samples):
        """Validate the weights, and refuse those the paper's test cannot read."""
        sample_weight = _check_sample_weight(sample_weight, n_samples, of="y")
        if sample_weight is None or self.paired:
            return sample_weight
        fractional = sample_weight != np.round(sample_weight)
        if fractional.any():
            i = int(np.flatnonzero(fractional)[0])
            value = float(sample_weight[i])
            raise ValueError(
                f"sample_weight has the fractional weight {value!r} at "
                f"position {i}. The paper's Bayes test (paired=False) reads the "
                "weighted counts as numbers of items in its Beta posteriors, so "
                "only frequency weights (whole numbers: how many times each item "
                "occurs) are meaningful there; weights scaled by 10 would make "
                "the posteriors 10 times as sharp. Use paired=True, whose "
                "per-split metrics do not depend on the scale of the weights, or "
                "whole-number frequency weights."
            )
        return sample_weight

    def get_metadata_routing(self):
        """Get the metadata routing of this object.

        ``sample_weight`` always weights the confusion counts; it reaches an
        estimator's ``fit`` only if the estimator requests it
        (``set_fit_request(sample_weight=True)``), and ``groups`` reaches the
        splitter's ``split``. See scikit-learn's user guide, "Metadata
        Routing".

        Returns
        -------
        routing : MetadataRouter
            A :class:`~sklearn.utils.metadata_routing.MetadataRouter`
            encapsulating the routing information.
        """
        fit = MethodMapping().add(caller="fit", callee="fit")
        return (
            MetadataRouter(owner=self.__class__.__name__)
            .add_self_request(self)
            .add(estimator_a=self.estimator_a, method_mapping=fit)
            .add(estimator_b=self.estimator_b, method_mapping=fit)
            .add(
                splitter=self._check_cv(),
                method_mapping=MethodMapping().add(caller="fit", callee="split"),
            )
        )

    @_validate_method(
        {
            "X": ["array-like"],
            "y": ["array-like"],
            "groups": ["array-like", None],
            "sample_weight": ["array-like", None],
        },
        prefer_skip_nested_validation=False,  # the estimators validate their own
    )
    def fit(self, X, y, groups=None, sample_weight=None, **fit_params):
        """Run the cross-validation and the Bayes test.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input data, or anything the estimators accept (raw texts for a
            text pipeline).
        y : array-like of shape (n_samples,)
            Class labels.
        groups : array-like of shape (n_samples,), default=None
            Group labels for the splitter.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the samples. They always weight the confusion counts
            (each count is the sum of its test items' weights). With metadata
            routing enabled (``sklearn.set_config(enable_metadata_routing=
            True)``) they also reach each estimator's ``fit`` that requests
            them, and an estimator that accepts ``sample_weight`` without
            saying whether it wants it raises scikit-learn's
            ``UnsetMetadataPassedError``. Without routing they reach both
            estimators' ``fit``, as ``params`` do in scikit-learn's
            :func:`~sklearn.model_selection.cross_validate`. With
            ``paired=False`` they must be whole numbers (frequency weights);
            see the user guide, "Weights".
        **fit_params : dict
            Other parameters of the estimators' ``fit``, routed as
            ``sample_weight`` is; sample-aligned arrays are indexed per split.

        Returns
        -------
        self : object
            The fitted comparison.
        """
        metrics = self._check_metrics()
        X, y, groups = indexable(X, y, groups)
        y = _check_y_true(y, "y")
        sample_weight = self._check_sample_weight(sample_weight, y.shape[0])
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(
                f"y has a single class {classes.tolist()}; a comparison needs at "
                "least two."
            )
        self._positive_index(classes)
        cv = self._check_cv(y)
        if _routing_enabled():
            routed = process_routing(
                self, "fit", groups=groups, sample_weight=sample_weight, **fit_params
            )
            params_a, params_b = routed.estimator_a.fit, routed.estimator_b.fit
            split_params = routed.splitter.split
        else:  # as cross_validate: every fit parameter goes to both fits
            if sample_weight is not None:
                fit_params = {**fit_params, "sample_weight": sample_weight}
            params_a = params_b = fit_params
            split_params = {"groups": groups}
        splits = [
            (np.asarray(tr), np.asarray(te))
            for tr, te in cv.split(X, y, **split_params)
        ]
        self._check_splits(splits, len(y))

        n_fits = 2 * len(splits)
        if self.verbose > 0:
            print(
                f"Fitting 2 models on each of {len(splits)} splits, totalling "
                f"{n_fits} fits",
                flush=True,
            )
        tasks = [
            delayed(_fit_and_count)(
                clone(estimator), X, y, train, test, classes, params, sample_weight
            )
            for estimator, params in (
                (self.estimator_a, params_a),
                (self.estimator_b, params_b),
            )
            for train, test in splits
        ]
        parallel_kw = dict(n_jobs=self.n_jobs, verbose=max(self.verbose - 1, 0))
        # results as they complete, for the progress lines
        jobs = parallel_as_completed(tasks, **parallel_kw)
        out = []
        start = time.perf_counter()
        for done, counts in enumerate(jobs, start=1):
            out.append(counts)
            if self.verbose > 0:
                model, split = divmod(done - 1, len(splits))
                print(
                    f"[BayesModelComparison] {done}/{n_fits} fits done "
                    f"({'AB'[model]} on split {split + 1}), "
                    f"{time.perf_counter() - start:.1f} s",
                    flush=True,
                )
        shape = (2, len(splits), classes.size, 4)
        per_class = _as_counts_array(out, shape, sample_weight is not None)
        return self._test_counts(per_class, classes, splits, metrics)

    @classmethod
    @validate_params(
        {
            "cv_results_a": [dict],
            "cv_results_b": [dict],
            "X": ["array-like"],
            "y": ["array-like"],
            "sample_weight": ["array-like", None],
        },
        prefer_skip_nested_validation=False,  # the comparison checks its own
    )
    def from_cv_results(
        cls, cv_results_a, cv_results_b, X, y, *, sample_weight=None, **params
    ):
        """Run the test on two ``cross_validate`` results, with no refit.

        The fitted models that :func:`~sklearn.model_selection.cross_validate`
        kept predict their own test sets (:func:`counts_from_cv_results`),
        and the test runs on those counts. For the same splits and
        estimators, the result equals that of :meth:`fit`.

        Parameters
        ----------
        cv_results_a : dict
            ``cross_validate(estimator_a, X, y, cv=cv, return_indices=True,
            return_estimator=True)``; A is the reference.
        cv_results_b : dict
            The same for the candidate B, on the same splits: run both with
            the same ``cv`` object and seed, such as
            ``BlockRegularized3x2CV(random_state=0)``.
        X : array-like of shape (n_samples, n_features)
            The data given to ``cross_validate``.
        y : array-like of shape (n_samples,)
            The labels given to ``cross_validate``.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the test items in the counts, as in :meth:`fit`.
        **params : dict
            Other parameters of :class:`BayesModelComparison`, such as
            ``paired=True`` or ``metrics=("f1",)``; not ``estimator_a``,
            ``estimator_b`` or ``cv``, which come from the results.

        Returns
        -------
        comparison : BayesModelComparison
            A fitted comparison whose ``estimator_a`` and ``estimator_b`` are
            unfitted clones of the first models of each result.

        Examples
        --------
        >>> from sklearn.datasets import load_breast_cancer
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import cross_validate
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from sklearn.pipeline import make_pipeline
        >>> from sklearn.preprocessing import StandardScaler
        >>> from sklearn_faithful.comparison import BayesModelComparison
        >>> from sklearn_faithful.model_selection import BlockRegularized3x2CV
        >>> X, y = load_breast_cancer(return_X_y=True)
        >>> cv = BlockRegularized3x2CV(random_state=0)
        >>> kw = dict(cv=cv, return_indices=True, return_estimator=True)
        >>> res_a = cross_validate(GaussianNB(), X, y, **kw)
        >>> lr = make_pipeline(StandardScaler(), LogisticRegression())
        >>> res_b = cross_validate(lr, X, y, **kw)
        >>> comp = BayesModelComparison.from_cv_results(
        ...     res_a, res_b, X, y, paired=True)
        >>> comp.results_["f1"].decide()
        'B better'
        """
        fixed = {"estimator_a", "estimator_b", "cv"} & set(params)
        if fixed:
            raise TypeError(
                f"from_cv_results() got {sorted(fixed)}, which come from the "
                "results; pass only the other parameters of BayesModelComparison."
            )
        splits_a = _splits_of(cv_results_a, "cv_results_a")
        splits_b = _splits_of(cv_results_b, "cv_results_b")
        _check_same_splits(splits_a, splits_b)
        comparison = cls(
            clone(cv_results_a["estimator"][0]),
            clone(cv_results_b["estimator"][0]),
            **params,
        )
        comparison._validate_params()
        metrics = comparison._check_metrics()
        X, y = indexable(X, y)
        y = _check_y_true(y, "y")
        sample_weight = comparison._check_sample_weight(sample_weight, y.shape[0])
        classes = np.unique(y)
        comparison._positive_index(classes)
        comparison._check_splits(splits_a, len(y))
        per_class = np.stack(
            [
                counts_from_cv_results(
                    res, X, y, labels=classes, sample_weight=sample_weight
                )
                for res in (cv_results_a, cv_results_b)
            ]
        )
        comparison._cv_name = "cross_validate results"
        return comparison._test_counts(per_class, classes, splits_a, metrics)

    def _check_splits(self, splits, n_samples):
        raw_factor = (
            not self.paired
            and isinstance(self.correlation, Real)
            and not isinstance(self.correlation, bool)
        )
        if not raw_factor:
            _check_mx2_structure(splits, n_samples)

    def _test_counts(self, per_class, classes, splits, metrics):
        """Record the counts of both models and run the test of each metric."""
        factor = _factor_for_splits(len(splits), self.correlation, "cv")
        pos = self._positive_index(classes)
        self.classes_ = classes
        self.splits_ = splits
        self.correlation_factor_ = factor
        self.per_class_counts_a_, self.per_class_counts_b_ = per_class
        if self.average == "binary":
            self.counts_a_, self.counts_b_ = per_class[:, :, pos]
        elif self.average == "micro":
            self.counts_a_, self.counts_b_ = per_class.sum(axis=2)
        else:
            self.counts_a_, self.counts_b_ = per_class
        self.effective_counts_a_ = _effective_counts(self.counts_a_, factor)
        self.effective_counts_b_ = _effective_counts(self.counts_b_, factor)

        if self.paired:
            self._test_paired(per_class, metrics)
        else:
            self._test_unpaired(per_class, metrics, factor)
        return self

    def _test_paired(self, per_class, metrics):
        test_params = dict(rope=self.rope, confidence_level=self.confidence_level)
        average = "macro" if self.average == "macro" else "binary"
        self.results_ = {
            metric: paired_bayes_test(
                self.counts_a_,
                self.counts_b_,
                metric=metric,
                average=average,
                **test_params,
            )
            for metric in metrics
        }
        self.per_class_results_ = None
        if self.average != "binary":
            self.per_class_results_ = {
                metric: [
                    _paired_or_none(per_class[:, :, k], metric, test_params)
                    for k in range(self.classes_.size)
                ]
                for metric in metrics
            }

    def _test_unpaired(self, per_class, metrics, factor):
        rng = _generator(self.random_state)
        test_params = dict(
            prior=self.prior,
            correlation=factor,
            rope=self.rope,
            method=self.method,
            n_draws=self.n_draws,
            confidence_level=self.confidence_level,
        )
        average = "macro" if self.average == "macro" else "binary"
        self.results_ = {
            metric: bayes_test(
                self.counts_a_,
                self.counts_b_,
                metric=metric,
                average=average,
                random_state=int(rng.integers(np.iinfo(np.int32).max)),
                **test_params,
            )
            for metric in metrics
        }
        if self.average != "binary":
            self.per_class_results_ = {
                metric: [
                    bayes_test(
                        per_class[0, :, k],
                        per_class[1, :, k],
                        metric=metric,
                        random_state=int(rng.integers(np.iinfo(np.int32).max)),
                        **test_params,
                    )
                    for k in range(self.classes_.size)
                ]
                for metric in metrics
            }
        else:
            self.per_class_results_ = None

    @validate_params({"as_frame": ["boolean"]}, prefer_skip_nested_validation=True)
    def summary(self, as_frame=False):
        """Table of the test of each metric: means, intervals, P(H0), P(H1).

        Parameters
        ----------
        as_frame : bool, default=False
            Return a pandas DataFrame (needs pandas) instead of a dict of
            columns.

        Returns
        -------
        table : dict of str to list, or pandas.DataFrame
            One row per metric. Unpaired: ``mean_a``, ``low_a``, ``high_a``,
            ``mean_b``, ``low_b``, ``high_b`` (each model's posterior mean and
            credible interval), ``p_h0``, ``p_h1``, ``decide`` (the result's
            ``decide`` at 0.95, "undecided" where no claim is warranted) and
            ``decision`` (the paper's rule). Paired: ``mean_a``, ``mean_b``,
            ``difference``, ``low``, ``high`` (the credible interval of the
            difference), ``p_h0``, ``p_h1`` and ``decide``. With ``rope > 0``
            also ``p_worse``, ``p_equivalent`` and ``p_better``.
        """
        check_is_fitted(self, "results_")
        if self.paired:
            names = ["mean_a", "mean_b", "difference", "low", "high"]
        else:
            names = ["mean_a", "low_a", "high_a", "mean_b", "low_b", "high_b"]
        names = ["metric", *names, "p_h0", "p_h1", "decide"]
        if not self.paired:
            names.append("decision")
        if self.rope > 0:
            names += ["p_worse", "p_equivalent", "p_better"]
        cols = {name: [] for name in names}
        for metric, res in self.results_.items():
            row = dict(metric=metric, decide=res.decide())
            if self.paired:
                row.update(low=res.interval.low, high=res.interval.high)
            else:
                row.update(
                    low_a=res.interval_a.low,
                    high_a=res.interval_a.high,
                    low_b=res.interval_b.low,
                    high_b=res.interval_b.high,
                )
            for key in cols:
                cols[key].append(row[key] if key in row else getattr(res, key))
        return _summary_table(cols, as_frame, index="metric")

    def __str__(self):
        if not hasattr(self, "results_"):
            return self.__repr__()
        cv = getattr(self, "_cv_name", None) or self.cv or "BlockRegularized3x2CV"
        test = "Paired Bayes test" if self.paired else "Bayes test"
        lines = [
            f"{test} on {len(self.splits_)} splits of {cv}, average={self.average!r}",
            f"  A (reference): {_short_name(self.estimator_a)}",
            f"  B (candidate): {_short_name(self.estimator_b)}",
        ]
        if self.paired:
            lines += [f"  random_state={self.random_state!r}", ""]
            return "\n".join(lines + _paired_table(self.results_.values()))
        lines += [
            f"  correlation={self.correlation!r} (c = "
            f"{self.correlation_factor_:.6f}), prior={self.prior!r}, "
            f"method={self.method!r}, random_state={self.random_state!r}",
            "",
        ]
        return "\n".join(lines + _results_table(self.results_.values()))

    @validate_params(
        {
            "metrics": [list, tuple, None],
            "kind": [StrOptions({"posteriors", "difference"}), None],
            "axes": "no_validation",
            "labels": [tuple, list, None],
        },
        prefer_skip_nested_validation=True,
    )
    def plot(self, metrics=None, *, kind=None, axes=None, labels=None):
        """Plot the posteriors, or the posterior of the difference B - A.

        ``kind="posteriors"`` draws the posterior densities of A and of B, as
        in the paper's Figures 1-3: each curve runs from the 0.001 to the
        0.999 posterior quantile and the shaded band is the credible interval;
        with a rope, the grey band is ``+/-rope`` around A's posterior mean.
        ``kind="difference"`` draws the posterior of ``nu_B - nu_A``, which
        ``P(H1)`` is about, cut at ``-rope`` and ``rope`` (at 0 without a
        rope) into the shaded areas ``P(B worse)``, ``P(equivalent)`` and
        ``P(B better)``, labelled with the test's probabilities; the rope is
        the grey band. Unpaired, A and B have independent posteriors and the
        difference's density is estimated from 100,000 Monte-Carlo draws of
        each (a fixed seed, so the figure is reproducible).

        Parameters
        ----------
        metrics : list of str, default=None
            Metrics to draw; None draws every tested metric.
        kind : {"posteriors", "difference"}, default=None
            What to draw; None means ``"difference"`` with ``paired=True``,
            which has no posterior per model, and ``"posteriors"`` otherwise.
        axes : array-like of matplotlib Axes, default=None
            One Axes per metric; None creates a row of subplots with a
            constrained layout.
        labels : tuple of two str, default=None
            Names of A and of B in the legends and axis labels; None uses the
            estimators' class names.

        Returns
        -------
        axes : ndarray of matplotlib Axes
        """
        check_is_fitted(self, "results_")
        return _plot_comparison(self, metrics, kind, axes, labels)

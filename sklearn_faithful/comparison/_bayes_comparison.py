"""BayesModelComparison: the m x 2 BCV Bayes tests on two scikit-learn estimators."""

import warnings
from functools import partial
from numbers import Integral, Real

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import indexable

from ..model_selection import BlockRegularized3x2CV, BlockRegularizedMx2CV
from ..model_selection._design import _check_mx2_structure, _check_same_cv_results
from ..utils._param_validation import HasMethods, Interval, StrOptions, validate_params
from ..utils._random import _generator
from ..utils._validation import (
    CONFIDENCE_LEVEL,
    N_JOBS,
    POS_LABEL,
    SEEDS,
    _check_sample_weight,
    _check_y_true,
    _encode,
    _resolve_pos_label,
    _validate_method,
)
from ._base import _BaseComparison, _short_name
from ._bayes import METHODS, PROPORTION_ROPE, bayes_test
from ._counts import (
    _CORRELATION,
    _as_counts_array,
    _effective_counts,
    _factor_for_splits,
    _one_vs_rest_counts,
    _predict_split,
)
from ._options import CROSSED_REPETITIONS, DEFAULT_CORRELATION, VARIANCES
from ._paired import (
    _paired_design_test,
    _undefined_text,
    _UndefinedSplitsError,
    paired_bayes_test,
)
from ._plot import _plot_comparison
from ._posterior import METRICS


class _UndefinedMetricError(KeyError):
    """The key of a metric undefined on some split; its text says where and why."""

    def __str__(self):  # KeyError would print the message's repr
        return str(self.args[0])


class _MetricResults(dict):
    """A dict of metric to result; a metric undefined on a split raises its text.

    ``undefined`` maps each metric left out to its message (where, why, what
    to do), which asking for it raises as a ``KeyError``.
    """

    def __init__(self, results, undefined):
        super().__init__(results)
        self.undefined = dict(undefined)

    def __missing__(self, key):
        if key in self.undefined:
            raise _UndefinedMetricError(self.undefined[key])
        raise KeyError(key)

    def __reduce__(self):  # pickle the messages too
        return type(self), (dict(self), self.undefined)


class BayesModelComparison(_BaseComparison):
    """Compare two estimators with the paired Bayes test of P, R and F1.

    Runs a block-regularized m x 2 cross-validation (10 x 2 by default, the
    paper's 3x2 for its test), fits clones of both estimators on the same
    splits (in parallel through joblib), records their predictions and
    confusion counts, and tests each metric: by default with the paired test
    on the per-split differences, its scale from the items' paired
    predictions crossed between partitions (``variance="crossed"``), or with
    the paper's :func:`bayes_test` (Wang & Li 2019, Algorithm 1) with
    ``paired=False``. Estimator A is the reference, B the candidate:
    ``P(H1)`` is the posterior probability that B is better; read claims from
    :meth:`decide`. Every model is trained on half the data, so the
    posteriors and intervals are about models trained on n/2 samples, not
    about the model refitted on all of ``X`` (user guide, "Choosing a test").

    Parameters
    ----------
    estimator_a : estimator object
        The reference model; any classifier with ``fit`` and ``predict``,
        including a :class:`~sklearn.pipeline.Pipeline`. It is cloned.

    estimator_b : estimator object
        The candidate model.

    cv : cross-validation generator or iterable, default=None
        Splits to use. None means the design each test was measured on:
        ``BlockRegularizedMx2CV(10, random_state=random_state)`` for the
        crossed variance (the default; 40 fits), and the paper's
        ``BlockRegularized3x2CV(random_state=random_state)`` (12 fits) for
        ``variance="splits"``, ``"design"`` and ``paired=False``: on a 5 x 2
        BCV ``"splits"`` gained power but its false claims reached 7.3% (user
        guide, "The paired test's variance, and the m x 2 design"). Any
        other cv must produce m complementary two-fold partitions (m >= 2
        for the paired test), unless ``paired=False`` and ``correlation`` is
        a float.

    paired : bool, default=True
        True runs the paired test on the per-split differences, which uses
        that both models are scored on the same items; ``prior``,
        ``correlation``, ``method`` and ``n_draws`` are then unused. False
        runs the paper's test, :func:`bayes_test`, with a posterior per
        model, on its 3x2 BCV: ``paired=False, correlation="wang2019"`` is
        the paper's test as printed. See the user guide, "Choosing a test".

    variance : {"crossed", "splits", "design"}, default="crossed"
        Where the paired test's scale comes from (user guide, "The paired
        test's variance, and the m x 2 design"; formulas page).
        ``"crossed"`` estimates the variance of the mean split difference
        whole: each partition's half-difference becomes a contrast of the
        items' influence as test *and* training items, through their test
        influences in the other partitions, less the splits' own noise; a t
        on m / 2 degrees of freedom. ``"splits"`` is :func:`paired_bayes_test`
        on the per-split counts: the half-differences of the 2m split
        scores, inflated for the m x 2 design. ``"design"`` takes the
        test-set part from the items and only the training-set part from the
        half-differences, and warns. In ``benchmarks/sim_paired_power.py`` (seed
        20261126), for a true F1 gain of 0.05 with logistic regression at
        n = 600, ``"crossed"`` on its 10 x 2 BCV found the gain in 73% of
        data sets and ``"splits"`` on its 3x2 in 47-52%; ``"crossed"`` kept its
        false "B better" claims at or below 6.2% in 27 null settings and
        ``"splits"`` at or below 6.0% in 17, while
        ``"design"`` reached up to 13.7% (an item's roles as a test and a
        training item covary there). ``"crossed"`` has m / 2 degrees of
        freedom and warns on fewer than 10 partitions, where it holds but
        loses power (21% of data sets with 3 partitions, where ``"splits"``
        found 47-52%). Unused with ``paired=False``.

    metrics : tuple of {"precision", "recall", "f1"}, \
            default=("precision", "recall", "f1")
        Metrics to test.

    pos_label : int, float, bool or str, default=None
        The positive class for ``average="binary"``. None means 1 when the
        labels are {0, 1}, {-1, 1} or {False, True}.

    average : {"binary", "micro", "macro"}, default="binary"
        ``"micro"`` pools one-vs-rest counts over the classes; ``"macro"``
        averages per-class metrics (unpaired: per-class posteriors, by Monte
        Carlo, this package's extension).

    prior : float, default=1.0
        The ``lambda`` of the ``Beta(lambda, lambda)`` prior (unpaired).

    correlation : {"wang2019", "wang2015", "independent"}, tuple or float, \
            default="wang2015"
        The correlation correction of the unpaired test; see
        :func:`correlation_factor`. The default, :func:`bayes_test`'s, is
        the one whose 95% intervals covered 95-100% in our coverage study;
        the paper's ``"wang2019"`` covered 80-95% (user guide).

    method : {"exact", "monte-carlo"}, default="exact"
        How the unpaired ``P(H0)`` is computed; see :func:`bayes_test`.

    rope : float, default=0.0
        Half-width of a region of practical equivalence on the metrics'
        scale, in [0, 1) (a rope of 1 would call every pair equivalent).

    confidence_level : float, default=0.95
        Level of the credible intervals.

    n_draws : int, default=1_000_000
        Monte-Carlo draws per posterior, where Monte Carlo is used.

    n_jobs : int, default=None
        Number of jobs fitting in parallel; None means 1 unless in a
        :func:`joblib.parallel_config` context (which also selects, for
        instance, a Dask cluster). -1 means all processors. The results do
        not depend on it.

    random_state : int, RandomState instance or None, default=None
        Seeds the default splitter and the Monte-Carlo draws. Pass an int for
        reproducible results. The estimators' own seeds are theirs.

    verbose : int, default=0
        1 prints a line per fit; higher values also print joblib's lines.

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
        The factor ``c`` of ``correlation``.
    effective_counts_a_, effective_counts_b_ : ndarray
        ``c`` times the summed counts (eqs. 18-24).
    results_ : dict of str to PairedBayesTestResult or BayesTestResult
        The test of each metric. A metric the paired test finds undefined on
        some split is left out; asking for it raises a ``KeyError`` whose
        text is its ``undefined_metrics_`` message.
    undefined_metrics_ : dict of str to str
        Each metric undefined on some split of the paired test (a zero
        denominator, such as no predicted positive for precision), with
        where, why and what to do; empty when every metric is defined.
        ``fit`` warns with each message (``UndefinedMetricWarning``) and
        tests the other metrics; it raises only when none is defined.
    per_class_results_ : dict of str to list of results, or None
        With ``average="micro"`` or ``"macro"``, each class tested on its own
        one-vs-rest counts, in the order of ``classes_``; None for
        ``"binary"``. With ``paired=True``, an entry is None where the
        class's metric is undefined on some split.

    See Also
    --------
    paired_bayes_test : The paired test on counts you already have.
    bayes_test : The paper's test on counts you already have.
    ModelComparison : Any score, any number of models.
    sklearn_faithful.model_selection.BlockRegularizedMx2CV : The default splitter.

    Notes
    -----
    :meth:`summary` has one row per metric: ``metric``, then paired
    ``mean_a``, ``mean_b``, ``difference``, ``low``, ``high`` (the credible
    interval of the difference), unpaired ``mean_a``, ``low_a``, ``high_a``,
    ``mean_b``, ``low_b``, ``high_b`` (each model's posterior mean and
    credible interval); then ``p_h0``, ``p_h1``, ``decide`` (the result's
    ``decide`` at 0.95) and, unpaired, ``decision`` (the paper's rule); with
    ``rope > 0`` also ``p_worse``, ``p_equivalent`` and ``p_better``. A
    metric in ``undefined_metrics_`` keeps its row, with NaN numbers and
    ``decide`` ``"undefined"``; :meth:`decide` and :meth:`plot` leave it out,
    and asking for it there raises its message.

    The paired test needs each metric on every split: precision is undefined
    on a test half where a model predicts no positive (TP + FP = 0), recall
    where the half has no positive item, F1 where both hold. The paper's test
    (``paired=False``) pools the counts and is defined there (with no
    predicted positive on any split, precision's posterior is the prior).

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
    >>> lr = make_pipeline(StandardScaler(), LogisticRegression())
    >>> comp = BayesModelComparison(GaussianNB(), lr, random_state=0).fit(X, y)
    >>> round(comp.results_["f1"].p_h1, 3), comp.decide(0.95)["f1"]
    (1.0, 'B better')
    >>> paper = BayesModelComparison(GaussianNB(), lr, paired=False,
    ...                              correlation="wang2019",
    ...                              random_state=0).fit(X, y)
    >>> round(paper.results_["f1"].p_h1, 3), paper.results_["f1"].decision
    (0.996, 'accept H1')
    """

    _parameter_constraints = {
        "estimator_a": [HasMethods(["fit", "predict"])],
        "estimator_b": [HasMethods(["fit", "predict"])],
        "cv": ["cv_object"],
        "paired": ["boolean"],
        "variance": [StrOptions(set(VARIANCES))],
        "metrics": [tuple, list, StrOptions(set(METRICS))],
        "pos_label": POS_LABEL,
        "average": [StrOptions({"binary", "micro", "macro"})],
        "prior": [Interval(Real, 0, None, closed="neither")],
        "correlation": _CORRELATION,
        "method": [StrOptions(set(METHODS))],
        "rope": PROPORTION_ROPE,
        "confidence_level": CONFIDENCE_LEVEL,
        "n_draws": [Interval(Integral, 1000, None, closed="left")],
        "n_jobs": N_JOBS,
        "random_state": SEEDS,
        "verbose": ["verbose"],
    }

    _index = "metric"

    def __init__(
        self,
        estimator_a,
        estimator_b,
        *,
        cv=None,
        paired=True,
        variance="crossed",
        metrics=("precision", "recall", "f1"),
        pos_label=None,
        average="binary",
        prior=1.0,
        correlation=DEFAULT_CORRELATION,
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
        self.variance = variance
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

    def _named_estimators(self):
        return [("A", self.estimator_a), ("B", self.estimator_b)]

    def _default_cv(self):
        # the design each test was measured on (benchmarks/sim_paired_power.py):
        # the crossed variance on the 10 x 2 BCV, the paper's test and the
        # other variances on its 3x2 (on a 5 x 2 BCV "splits" reached 7.3%)
        if self.paired and self.variance == "crossed":
            return BlockRegularizedMx2CV(
                CROSSED_REPETITIONS, random_state=self.random_state
            )
        return BlockRegularized3x2CV(random_state=self.random_state)

    def _classifies(self):
        return True

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

    def _check_data(self, X, y, sample_weight):
        """Indexable ``X`` and labels ``y``, the weights and the classes."""
        X, y = indexable(X, y)
        y = _check_y_true(y, "y")
        sample_weight = _check_sample_weight(sample_weight, y.shape[0], of="y")
        if sample_weight is not None and not self.paired:
            fractional = sample_weight != np.round(sample_weight)
            if fractional.any():
                i = int(np.flatnonzero(fractional)[0])
                weight = float(sample_weight[i])
                raise ValueError(
                    f"sample_weight has the fractional weight {weight!r} at "
                    f"position {i}. The paper's test (paired=False) reads the "
                    "weighted counts as numbers of items, so it takes only "
                    "frequency weights (whole numbers); weights scaled by 10 "
                    "would make its posteriors 10 times as sharp. Use "
                    "paired=True, which does not depend on their scale."
                )
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(
                f"y has a single class {classes.tolist()}; a comparison needs at "
                "least two."
            )
        self._positive_index(classes)
        return X, y, sample_weight, classes

    def _check_design(self, splits, n_samples, stacklevel=6):
        raw_factor = (
            not self.paired
            and isinstance(self.correlation, Real)
            and not isinstance(self.correlation, bool)
        )
        if not raw_factor:
            _check_mx2_structure(splits, n_samples)
        n_partitions = len(splits) // 2
        if (
            self.paired
            and self.variance == "crossed"
            and (4 <= len(splits) < 2 * CROSSED_REPETITIONS)
        ):
            # t on m / 2 df: on few partitions the crossed scale holds but is
            # weak (benchmarks/sim_paired_power.py --sweep, the audit setting)
            warnings.warn(
                f"variance='crossed' on {n_partitions} partitions has "
                f"{n_partitions / 2:g} degrees of freedom: it holds its level "
                "but loses power (in simulation a true F1 gain of 0.05 was "
                "found in 21% of data sets with 3 partitions and 44% with 5, "
                f"against 73% with {CROSSED_REPETITIONS}). Use "
                f"BlockRegularizedMx2CV({CROSSED_REPETITIONS}), or "
                "variance='splits' on the paper's 3x2 BCV (47-52% there).",
                UserWarning,
                stacklevel=stacklevel,
            )
        if self.paired and self.variance == "design":
            warnings.warn(
                "variance='design' leaves out the covariance of an item's roles "
                "as a test and as a training item: in simulation it claimed 'B "
                "better' falsely in up to 13.7% of null settings at the 0.95 "
                "threshold (benchmarks/sim_paired_power.py), where the default "
                "variance='crossed' on a 10 x 2 BCV held at most 6.2%. Read its "
                "claims as optimistic.",
                UserWarning,
                stacklevel=stacklevel,
            )
        if self.paired and len(splits) < 4:
            raise ValueError(
                f"the paired test needs at least 2 partitions (4 splits): its "
                f"variance comes from the half-differences of several partitions; "
                f"cv gives {len(splits)} splits. Use an m x 2 BCV with m >= 2 "
                "(cv=None gives the design the chosen variance was measured "
                "on) or paired=False."
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
        X, y, sample_weight, classes = self._check_data(X, y, sample_weight)
        predict = partial(_predict_split, classes=classes)
        params = {**fit_params, "sample_weight": sample_weight}
        splits, preds = self._fit_splits(X, y, groups, params, lambda *_: predict)
        return self._test_predictions(
            y, preds, classes, splits, metrics, sample_weight, stacklevel=5
        )

    @classmethod
    @validate_params(
        {
            "results": [dict],
            "X": ["array-like"],
            "y": ["array-like"],
            "sample_weight": ["array-like", None],
        },
        prefer_skip_nested_validation=False,  # the comparison checks its own
    )
    def from_cross_validate(cls, results, X, y, *, sample_weight=None, **params):
        """Run the test on two ``cross_validate`` results, with no refit.

        The fitted models that :func:`~sklearn.model_selection.cross_validate`
        kept predict their own test sets (:func:`counts_from_cross_validate`),
        and the test runs on those counts. For the same splits and
        estimators, the result equals that of :meth:`fit`.

        Parameters
        ----------
        results : dict of str to dict
            Two ``cross_validate(estimator, X, y, cv=cv, return_indices=True,
            return_estimator=True)`` results: the first is A, the reference,
            the second B. Both must come from the same splits: run them with
            the same ``cv`` object and seed, such as
            ``BlockRegularizedMx2CV(10, random_state=0)`` (the default design
            of ``variance="crossed"``).
        X : array-like of shape (n_samples, n_features)
            The data given to ``cross_validate``.
        y : array-like of shape (n_samples,)
            The labels given to ``cross_validate``.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the test items in the counts, as in :meth:`fit`.
        **params : dict
            Other parameters of :class:`BayesModelComparison`, such as
            ``paired=False`` or ``metrics=("f1",)``; not ``estimator_a``,
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
        >>> from sklearn_faithful.model_selection import BlockRegularizedMx2CV
        >>> X, y = load_breast_cancer(return_X_y=True)
        >>> cv = BlockRegularizedMx2CV(10, random_state=0)
        >>> lr = make_pipeline(StandardScaler(), LogisticRegression())
        >>> results = {
        ...     name: cross_validate(est, X, y, cv=cv, return_indices=True,
        ...                          return_estimator=True)
        ...     for name, est in {"nb": GaussianNB(), "lr": lr}.items()}
        >>> comp = BayesModelComparison.from_cross_validate(results, X, y)
        >>> comp.decide()["f1"]
        'B better'
        """
        if len(results) != 2:
            raise ValueError(
                "results must hold two cross_validate results, of A (the "
                f"reference) and of B, in that order; got {len(results)}."
            )
        splits = _check_same_cv_results(results, estimators=True)
        res_a, res_b = results.values()
        comparison = cls._from_results(
            (clone(res_a["estimator"][0]), clone(res_b["estimator"][0])),
            params,
            fixed=("estimator_a", "estimator_b", "cv"),
        )
        metrics = comparison._check_metrics()
        X, y, sample_weight, classes = comparison._check_data(X, y, sample_weight)
        comparison._check_design(splits, y.shape[0], stacklevel=4)
        predict = partial(_predict_split, classes=classes)
        preds = [
            [
                predict(est, X, y, *split)
                for est, split in zip(ests, splits, strict=True)
            ]
            for ests in (res_a["estimator"], res_b["estimator"])
        ]
        comparison._source = "cross_validate results"
        return comparison._test_predictions(
            y, preds, classes, splits, metrics, sample_weight, stacklevel=4
        )

    def _test_predictions(
        self, y, preds, classes, splits, metrics, sample_weight, stacklevel
    ):
        """Count both models' predictions per split and test each metric.

        ``preds[k][s]`` holds model k's predicted class indices on the test
        set of split s; ``stacklevel`` points the warnings at the user's line.
        """
        truth = _encode(y, classes, name="y", hint="")
        counts = [
            [
                _one_vs_rest_counts(
                    truth[test],
                    pred,
                    classes.size,
                    None if sample_weight is None else sample_weight[test],
                )
                for (_, test), pred in zip(splits, model, strict=True)
            ]
            for model in preds
        ]
        shape = (2, len(splits), classes.size, 4)
        per_class = _as_counts_array(counts, shape, sample_weight is not None)
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

        rng = _generator(self.random_state)
        # the items' paired predictions, for the design-based variance
        items = (truth, preds, [test for _, test in splits], sample_weight)
        results, errors = {}, {}
        for metric in metrics:  # each metric on its own: one undefined stops none
            try:
                results[metric] = self._test(
                    per_class, items, metric, self.average, pos, rng
                )
            except _UndefinedSplitsError as err:
                errors[metric] = err
        undefined = {
            metric: self._undefined_message(err, tuple(results))
            for metric, err in errors.items()
        }
        if not results:
            raise ValueError(" ".join(undefined.values()))
        for message in undefined.values():
            warnings.warn(message, UndefinedMetricWarning, stacklevel=stacklevel)
        self.results_ = _MetricResults(results, undefined)
        self.undefined_metrics_ = undefined
        self._tested = metrics
        self.per_class_results_ = None
        if self.average != "binary":
            self.per_class_results_ = {
                metric: [
                    self._test_class(per_class, items, metric, k, rng)
                    for k in range(classes.size)
                ]
                for metric in metrics
            }
        return self

    def _test(self, per_class, items, metric, average, pos, rng):
        """The test of one metric; ``pos`` is the class of a binary test."""
        kw = dict(metric=metric, rope=self.rope)
        kw["confidence_level"] = self.confidence_level
        if self.paired and self.variance != "splits":
            truth, (preds_a, preds_b), tests, weight = items
            return _paired_design_test(
                truth, preds_a, preds_b, tests, *per_class, weight,
                pos=pos, average=average, variance=self.variance, **kw,
            )  # fmt: skip
        if average == "binary":
            counts_a, counts_b = per_class[:, :, pos]
        elif average == "micro":  # pooled counts: the binary formulas apply
            (counts_a, counts_b), average = per_class.sum(axis=2), "binary"
        else:
            counts_a, counts_b = per_class
        if self.paired:
            return paired_bayes_test(counts_a, counts_b, average=average, **kw)
        kw.update(prior=self.prior, correlation=self.correlation_factor_)
        kw.update(method=self.method, n_draws=self.n_draws)
        seed = int(rng.integers(np.iinfo(np.int32).max))
        return bayes_test(counts_a, counts_b, random_state=seed, average=average, **kw)

    def _test_class(self, per_class, items, metric, k, rng):
        """The test of class k, or None where its paired metric is undefined."""
        try:
            return self._test(per_class, items, metric, "binary", k, rng)
        except _UndefinedSplitsError:
            return None

    def _undefined_message(self, err, defined):
        """Where and why ``err.metric`` is undefined, and what to do.

        ``defined`` are the metrics whose results stand.
        """
        advice = "The paired test needs the metric on every split"
        if defined:
            advice += (
                ", so it is left out of results_, summary() and decide(); "
                f"{' and '.join(defined)} stand"
            )
        positive = "the positive class" if self.average == "binary" else "every class"
        advice += (
            ". To test it, use more data (larger test halves), a model that "
            f"predicts {positive}, or paired=False (the paper's test on the "
            "pooled counts)"
        )
        if defined:
            advice += f"; to test only the others, pass metrics={defined!r}"
        advice += "."
        names = {
            "counts_a": f"model A, {_short_name(self.estimator_a)}",
            "counts_b": f"model B, {_short_name(self.estimator_b)}",
        }
        return _undefined_text(
            err.metric, err.undefined, err.shape, advice,
            names=names, labels=self.classes_.tolist(),
        )  # fmt: skip

    def _keys(self):
        return self._tested

    def _keyed(self, values):
        return _MetricResults(values, self.undefined_metrics_)

    def _row(self, metric):
        if metric in self.undefined_metrics_:  # a defined row's columns, empty
            row = dict.fromkeys(self._row(next(iter(self.results_))), np.nan)
            row.update(metric=metric, decide="undefined")
            if not self.paired:
                row["decision"] = "undefined"
            return row
        res = self.results_[metric]
        row = {"metric": metric, "mean_a": res.mean_a}
        if self.paired:
            row.update(mean_b=res.mean_b, difference=res.difference)
            low, high = res.credible_interval(self.confidence_level)
            row.update(low=low, high=high)
        else:
            row.update(low_a=res.interval_a.low, high_a=res.interval_a.high)
            row.update(mean_b=res.mean_b, low_b=res.interval_b.low)
            row.update(high_b=res.interval_b.high)
        row.update(p_h0=res.p_h0, p_h1=res.p_h1, decide=res.decide())
        if not self.paired:
            row["decision"] = res.decision
        if self.rope > 0:
            row.update(p_worse=res.p_worse, p_equivalent=res.p_equivalent)
            row["p_better"] = res.p_better
        return row

    def _decide_one(self, metric, threshold):
        return self.results_[metric].decide(threshold)

    def _describe(self):
        cv = (
            getattr(self, "_source", None)
            or self.cv
            or type(self._default_cv()).__name__
        )
        test = "Bayes test (Wang & Li 2019)"
        if self.paired:
            test = f"Paired Bayes test (variance={self.variance!r})"
        lines = [
            f"{test} on {len(self.splits_)} splits of {cv}, average={self.average!r}",
            f"  A (reference): {_short_name(self.estimator_a)}",
            f"  B (candidate): {_short_name(self.estimator_b)}",
        ]
        if not self.paired:
            lines.append(
                f"  correlation={self.correlation!r} (c = "
                f"{self.correlation_factor_:.6f}), prior={self.prior!r}, "
                f"method={self.method!r}"
            )
        level = f"{100 * self.confidence_level:g}%"
        return lines + [
            f"  {level} credible intervals, rope={self.rope!r}, decide at 0.95, "
            f"random_state={self.random_state!r}"
        ]

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
        """Plot the posterior of the difference B - A, or the posteriors.

        ``kind="difference"`` draws the posterior of ``nu_B - nu_A``, which
        ``P(H1)`` is about, cut at ``-rope`` and ``rope`` (at 0 without a
        rope) into the shaded areas ``P(B worse)``, ``P(equivalent)`` and
        ``P(B better)``, labelled with the test's probabilities; the rope is
        the grey band. Unpaired, A and B have independent posteriors and the
        difference's density is estimated from 100,000 Monte-Carlo draws of
        each (a fixed seed, so the figure is reproducible).
        ``kind="posteriors"`` (unpaired only) draws the posterior densities of
        A and of B, as in the paper's Figures 1-3: each curve runs from the
        0.001 to the 0.999 posterior quantile and the shaded band is the
        credible interval; with a rope, the grey band is ``+/-rope`` around
        A's posterior mean.

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
        display : ComparisonDisplay
            The figure: ``display.axes_`` holds one Axes per metric (and
            ``display.ax_`` the Axes itself when one metric is drawn),
            ``display.figure_`` their figure.
        """
        plt = self._start_plot()
        if labels is None:
            labels = (_short_name(self.estimator_a), _short_name(self.estimator_b))
            if labels[0] == labels[1]:
                labels = (f"{labels[0]} (A)", f"{labels[1]} (B)")
        return _plot_comparison(plt, self, metrics, kind, axes, labels)

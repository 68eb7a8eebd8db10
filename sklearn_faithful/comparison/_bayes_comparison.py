"""BayesModelComparison: the 3x2 BCV Bayes test on two scikit-learn estimators."""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import check_cv
from sklearn.utils import indexable
from sklearn.utils.parallel import delayed
from sklearn.utils.validation import check_is_fitted

from ..model_selection import BlockRegularized3x2CV
from ..utils._compat import (
    HasMethods,
    Interval,
    StrOptions,
    _check_method_params,
    _safe_split,
    parallel_as_completed,
    validate_params,
)
from ..utils._random import _generator
from ..utils._validation import (
    CONFIDENCE_LEVEL,
    N_JOBS,
    POS_LABEL,
    _check_y_true,
    _resolve_pos_label,
    _validate_init_params,
    _validate_method,
)
from ._bayes import METHODS, _results_table, bayes_test
from ._counts import _CORRELATION, _effective_counts, _factor_for_splits
from ._paired import _paired_table, paired_bayes_test
from ._plot import _plot_comparison
from ._posterior import METRICS


def _fit_and_count(estimator, X, y, train, test, classes, fit_params):
    """Fit on ``train``, predict ``test``; one-vs-rest (TP, FP, FN, TN) per class."""
    X_train, y_train = _safe_split(estimator, X, y, train)
    X_test, y_test = _safe_split(estimator, X, y, test, train)
    params = _check_method_params(X, params=fit_params, indices=train)
    estimator.fit(X_train, y_train, **params)
    y_pred = np.asarray(estimator.predict(X_test))
    unknown = ~np.isin(y_pred, classes)
    if unknown.any():
        raise ValueError(
            f"{type(estimator).__name__} predicted the label "
            f"{y_pred[unknown][0]!r}, which is not among the classes of y "
            f"{classes.tolist()}."
        )
    cm = confusion_matrix(y_test, y_pred, labels=classes)
    tp = np.diag(cm)
    fp = cm.sum(axis=0) - tp
    fn = cm.sum(axis=1) - tp
    tn = cm.sum() - tp - fp - fn
    return np.column_stack([tp, fp, fn, tn])


def _check_mx2_structure(splits, n_samples):
    """Check that consecutive splits form m complementary two-fold partitions."""
    if len(splits) == 0 or len(splits) % 2:
        raise ValueError(
            f"cv gave {len(splits)} splits; the correlation correction assumes "
            "m two-fold partitions, each used both ways (2m splits, 6 for 3x2 "
            "BCV). Use BlockRegularizedMx2CV, or give the factor itself as a "
            "float in correlation=..."
        )
    for k in range(0, len(splits), 2):
        (train1, test1), (train2, test2) = splits[k], splits[k + 1]
        if len(test1) == 0 or len(test2) == 0:
            raise ValueError(f"cv split {k} or {k + 1} has an empty test set.")
        halves_ok = (
            len(test1) + len(test2) == n_samples
            and np.array_equal(np.sort(train1), np.sort(test2))
            and np.array_equal(np.sort(train2), np.sort(test1))
            and np.union1d(test1, test2).size == n_samples
        )
        if not halves_ok:
            raise ValueError(
                f"cv splits {k} and {k + 1} are not the two halves of one "
                "two-fold partition (train of one = test of the other, together "
                "all samples). The correlation correction assumes an m x 2 CV "
                "such as BlockRegularized3x2CV; for another cv, give the factor "
                "itself as a float in correlation=..."
            )


def _paired_or_none(counts, metric, test_params):
    """The paired test of one class, or None where its metric is undefined."""
    try:
        return paired_bayes_test(counts[0], counts[1], metric=metric, **test_params)
    except ValueError:
        return None


def _short_name(estimator):
    steps = getattr(estimator, "steps", None)
    if steps is not None:
        return "Pipeline(" + ", ".join(type(s).__name__ for _, s in steps) + ")"
    return type(estimator).__name__


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
    BlockRegularized3x2CV : The default splitter.

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

    @_validate_method(
        {"X": ["array-like"], "y": ["array-like"], "groups": ["array-like", None]},
        prefer_skip_nested_validation=False,  # the estimators validate their own
    )
    def fit(self, X, y, groups=None, **fit_params):
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
        **fit_params : dict
            Parameters passed to both estimators' ``fit``; sample-aligned
            arrays are indexed per split.

        Returns
        -------
        self : object
            The fitted comparison.
        """
        metrics = self._check_metrics()
        X, y, groups = indexable(X, y, groups)
        y = _check_y_true(y, "y")
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(
                f"y has a single class {classes.tolist()}; a comparison needs at "
                "least two."
            )
        pos = self._positive_index(classes)
        cv = (
            BlockRegularized3x2CV(random_state=self.random_state)
            if self.cv is None
            else check_cv(self.cv, y, classifier=True)
        )
        splits = [(np.asarray(tr), np.asarray(te)) for tr, te in cv.split(X, y, groups)]
        raw_factor = (
            not self.paired
            and isinstance(self.correlation, Real)
            and not isinstance(self.correlation, bool)
        )
        if not raw_factor:
            _check_mx2_structure(splits, len(y))
        factor = _factor_for_splits(len(splits), self.correlation, "cv")

        n_fits = 2 * len(splits)
        if self.verbose > 0:
            print(
                f"Fitting 2 models on each of {len(splits)} splits, totalling "
                f"{n_fits} fits",
                flush=True,
            )
        tasks = [
            delayed(_fit_and_count)(
                clone(estimator), X, y, train, test, classes, fit_params
            )
            for estimator in (self.estimator_a, self.estimator_b)
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
        per_class = np.asarray(out, dtype=np.int64).reshape(
            2, len(splits), classes.size, 4
        )
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
        if not as_frame:
            return cols
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover
            raise ImportError(
                "summary(as_frame=True) requires pandas: pip install pandas"
            ) from exc
        return pd.DataFrame(cols).set_index("metric")

    def __str__(self):
        if not hasattr(self, "results_"):
            return self.__repr__()
        cv = self.cv if self.cv is not None else "BlockRegularized3x2CV"
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

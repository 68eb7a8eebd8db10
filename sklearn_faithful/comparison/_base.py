"""What the two comparison estimators share: routing, the fit loop, the tables.

:class:`ModelComparison` and :class:`BayesModelComparison` split the data
once, fit a clone of every estimator on every split in one parallel loop and
hold a test result per metric or pair in ``results_``; each says what it reads
on a split (counts, or a score) and how it tests.
"""

import time
from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import check_cv
from sklearn.utils.metadata_routing import (
    UNUSED,
    MetadataRouter,
    MethodMapping,
    process_routing,
)
from sklearn.utils.parallel import delayed
from sklearn.utils.validation import check_is_fitted

from ..utils._compat import (
    _check_method_params,
    _num_samples,
    _routing_enabled,
    _safe_split,
    _VisualBlock,
    parallel_as_completed,
)
from ..utils._param_validation import Interval, validate_params
from ..utils._results import _summary_table, _text_table
from ..utils._validation import _validate_init_params, check_matplotlib


def _fit_and_evaluate(estimator, X, y, train, test, fit_params, evaluate):
    """Fit ``estimator`` on ``train``; return ``evaluate`` of it on ``test``."""
    X_train, y_train = _safe_split(estimator, X, y, train)
    estimator.fit(
        X_train, y_train, **_check_method_params(X, params=fit_params, indices=train)
    )
    return evaluate(estimator, X, y, train, test)


def _short_name(estimator):
    """The class name, or the class names of a pipeline's steps."""
    steps = getattr(estimator, "steps", None)
    if steps is not None:
        return "Pipeline(" + ", ".join(type(s).__name__ for _, s in steps) + ")"
    return type(estimator).__name__


class _BaseComparison(BaseEstimator):
    """Routing, the fit loop, ``summary``, ``decide``, text and HTML reprs.

    Subclasses give ``_named_estimators``, ``_default_cv``, ``_classifies``
    (stratify on ``y``), ``_scorer``, ``_check_design``, ``_row`` (a summary
    row per key of ``_keys()``, by default of ``results_``), ``_decide_one``,
    ``_describe`` (the lines above the printed table) and ``_index`` (the
    summary's index column).
    """

    # ``groups`` goes to the splitter only, never to the comparison itself
    __metadata_request__fit = {"groups": UNUSED}

    _index = None

    def _validate_params(self):
        _validate_init_params(self)

    def _scorer(self, estimator):
        return None

    def _keys(self):
        """The summary's rows, in order: every key of ``results_``."""
        return list(self.results_)

    def _keyed(self, values):
        """``values`` by key of ``results_``, as :meth:`decide` returns them."""
        return values

    def _check_cv(self, y=None):
        if self.cv is None:
            return self._default_cv()
        return check_cv(self.cv, y, classifier=self._classifies())

    def get_metadata_routing(self):
        """Get the metadata routing of this object.

        Parameters such as ``sample_weight`` reach an estimator's ``fit`` (and,
        in :class:`ModelComparison`, a scorer) only if they request them, as
        in scikit-learn's :func:`~sklearn.model_selection.cross_validate`;
        ``groups`` reaches the splitter's ``split``. See scikit-learn's user
        guide, "Metadata Routing".

        Returns
        -------
        routing : MetadataRouter
            A :class:`~sklearn.utils.metadata_routing.MetadataRouter`
            encapsulating the routing information.
        """

        def to(callee):
            return MethodMapping().add(caller="fit", callee=callee)

        router = MetadataRouter(owner=type(self).__name__).add_self_request(self)
        router.add(splitter=self._check_cv(), method_mapping=to("split"))
        for k, (_, estimator) in enumerate(self._named_estimators()):
            router.add(**{f"estimator_{k}": estimator}, method_mapping=to("fit"))
            scorer = self._scorer(estimator)
            if scorer is not None:
                router.add(**{f"scorer_{k}": scorer}, method_mapping=to("score"))
        return router

    def _fit_splits(self, X, y, groups, params, evaluator):
        """Split once; fit every estimator on every split, in parallel.

        ``evaluator(estimator, score_params)`` gives the function that reads a
        fitted clone on its test set. Returns the splits and, per estimator,
        its values on them in split order, whatever ``n_jobs``.
        """
        named = self._named_estimators()
        params = {key: value for key, value in params.items() if value is not None}
        if _routing_enabled():
            routed = process_routing(self, "fit", groups=groups, **params)
            split_params = routed.splitter.split
            fit_params = [routed[f"estimator_{k}"].fit for k in range(len(named))]
            score_params = [
                routed[f"scorer_{k}"].score if f"scorer_{k}" in routed else {}
                for k in range(len(named))
            ]
        else:  # as cross_validate: every parameter goes to every fit
            split_params = {"groups": groups}
            fit_params, score_params = [params] * len(named), [{}] * len(named)
        # a default splitter stratifies on y, which only classes allow
        y_split = y if self.cv is not None or self._classifies() else None
        splits = [
            (np.asarray(train), np.asarray(test))
            for train, test in self._check_cv(y_split).split(X, y_split, **split_params)
        ]
        self._check_design(splits, _num_samples(X))
        tasks = [
            delayed(_fit_and_evaluate)(
                clone(estimator), X, y, train, test, fit, evaluator(estimator, score)
            )
            for (_, estimator), fit, score in zip(
                named, fit_params, score_params, strict=True
            )
            for train, test in splits
        ]
        jobs = parallel_as_completed(  # in order, as they complete
            tasks, n_jobs=self.n_jobs, verbose=max(self.verbose - 1, 0)
        )
        out, start = [], time.perf_counter()
        for done, value in enumerate(jobs, start=1):
            out.append(value)
            if self.verbose > 0:
                model, split = divmod(done - 1, len(splits))
                where = f"{named[model][0]} on split {split + 1}"
                elapsed = time.perf_counter() - start
                print(
                    f"[{type(self).__name__}] {done}/{len(tasks)} fits done "
                    f"({where}), {elapsed:.1f} s",
                    flush=True,
                )
        n = len(splits)
        return splits, [out[k * n : (k + 1) * n] for k in range(len(named))]

    @classmethod
    def _from_results(cls, args, params, fixed):
        """A comparison built from results: ``fixed`` come from them."""
        given = sorted(set(fixed) & set(params))
        if given:
            raise TypeError(
                f"{given} come from the results; pass only the other parameters "
                f"of {cls.__name__}."
            )
        comparison = cls(*args, **params)
        comparison._validate_params()
        return comparison

    @validate_params({"as_frame": ["boolean"]}, prefer_skip_nested_validation=True)
    def summary(self, as_frame=False):
        """Table of the test of each metric or pair.

        Parameters
        ----------
        as_frame : bool, default=False
            Return a pandas DataFrame (needs pandas) instead of a dict of
            columns.

        Returns
        -------
        table : dict of str to list, or pandas.DataFrame
            One row per key of ``results_``; the class's Notes list the
            columns. The ``decide`` column says what :meth:`decide` says at
            0.95 (:class:`BayesModelComparison`) or at ``confidence_level``
            (:class:`ModelComparison`).
        """
        check_is_fitted(self, "results_")
        rows = [self._row(key) for key in self._keys()]
        cols = {name: [row[name] for row in rows] for name in rows[0]}
        return _summary_table(cols, as_frame, index=self._index)

    @validate_params(
        {"threshold": [Interval(Real, 0.5, 1, closed="neither")]},
        prefer_skip_nested_validation=True,
    )
    def decide(self, threshold=0.95):
        """Claim only what the tests warrant, for each metric or pair.

        For a Bayesian test, the result's own ``decide(threshold)``: a claim
        needs a posterior probability of at least ``threshold``. For the
        frequentist tests of :class:`ModelComparison`, ``"B better"`` or
        ``"B worse"`` (the sign of the mean difference) when the Holm-adjusted
        p-value is at most ``alpha = 1 - threshold``, else ``"undecided"``.

        Parameters
        ----------
        threshold : float, default=0.95
            Posterior probability a claim needs, or ``1 - alpha``; in
            (0.5, 1).

        Returns
        -------
        decisions : dict
            One entry per key of ``results_`` (a metric, or a pair ``(A,
            B)``): ``"B better"``, ``"B not better"``, ``"B worse"``,
            ``"equivalent"`` or ``"undecided"``.
        """
        check_is_fitted(self, "results_")
        return self._keyed(
            {key: self._decide_one(key, threshold) for key in self.results_}
        )

    def __str__(self):
        if not hasattr(self, "results_"):
            return self.__repr__()
        return "\n".join([*self._describe(), "", *_text_table(self.summary())])

    def _sk_visual_block_(self):
        # the HTML repr shows the models side by side, as VotingClassifier does
        names, estimators = zip(*self._named_estimators(), strict=True)
        return _VisualBlock("parallel", list(estimators), names=list(names))

    def _start_plot(self):
        check_is_fitted(self, "results_")
        return check_matplotlib(f"{type(self).__name__}.plot")

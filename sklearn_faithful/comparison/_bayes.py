"""The Bayes test of precision, recall and F1 (Wang & Li 2019, section 3)."""

from dataclasses import dataclass, field
from functools import cached_property
from numbers import Integral, Real

import numpy as np
from scipy import optimize

from ..utils._param_validation import Interval, StrOptions, validate_params
from ..utils._random import _generator
from ..utils._results import (
    CredibleInterval,
    _BayesResultMixin,
    _interval_text,
    _level_text,
    _SampledPosterior,
)
from ..utils._validation import CONFIDENCE_LEVEL, RANDOM_STATE
from ._counts import _CORRELATION, _check_counts, _effective_counts, _factor_for_splits
from ._options import AVERAGES, DEFAULT_CORRELATION, PROPORTION_ROPE_LIMIT
from ._posterior import METRICS, MacroPosterior, metric_posterior

METHODS = ("exact", "monte-carlo")
# the rope of a difference of proportions: a rope of 1 would make every
# difference "equivalent" (_options.PROPORTION_ROPE_LIMIT)
PROPORTION_ROPE = [Interval(Real, 0, PROPORTION_ROPE_LIMIT, closed="left")]
_EXACT_TIE = 1e-9


@dataclass(frozen=True)
class BayesTestResult(_BayesResultMixin):
    """Result of :func:`bayes_test`: the Bayes test of one metric.

    Follows baycomp's ``Posterior``: one ``posterior`` of the difference
    ``nu_B - nu_A`` (composed of the two models' independent posteriors),
    the probabilities ``p_*``, ``decide(threshold)`` and
    ``credible_interval(confidence_level)`` of the difference; each model's
    own posterior and interval stay in ``posterior_a``, ``interval_a``, ...

    Attributes
    ----------
    metric : str
        ``"precision"``, ``"recall"`` or ``"f1"``.
    average : str
        ``"binary"``, ``"micro"`` or ``"macro"``.
    p_h0 : float
        Posterior probability of ``H0: nu_B - nu_A <= 0`` (eq. 32).
    p_h1 : float
        ``1 - p_h0``, the probability that B is better than A.
    decision : str
        The paper's rule, kept as printed: ``"accept H0"`` iff ``p_h0 >=
        p_h1``, otherwise ``"accept H1"``. It always picks a side, so two
        equal models get "accept H1" about half of the time; for a claim,
        use :meth:`decide`. A tie accepts H0: a model compared with itself has
        ``p_h0 = 0.5`` exactly, and with ``method="exact"`` a difference below
        1e-9, the quadrature's accuracy, counts as a tie.
    difference : float
        Posterior mean of ``nu_B - nu_A``, ``mean_b - mean_a``.
    mean_a, mean_b : float
        Posterior means of the metric for A (reference) and B (candidate).
    mode_a, mode_b : float
        Posterior modes (the pooled point estimates when ``prior=1``); NaN for
        a macro average, which has no closed-form mode.
    interval_a, interval_b : CredibleInterval
        Equal-tailed credible intervals at ``confidence_level`` (eqs. 28-30)
        of the metric of each model trained on half the data (the m x 2
        CV's training halves), not of a model refitted on all of it.
    confidence_level : float
        Level of ``interval_a`` and ``interval_b``, and of
        :meth:`credible_interval` by default.
    rope : float
        Half-width of the region of practical equivalence (0: none).
    p_worse, p_equivalent, p_better : float
        ``P(nu_B - nu_A < -rope)``, ``P(|nu_B - nu_A| <= rope)`` and
        ``P(nu_B - nu_A > rope)``. With ``rope=0``, ``p_worse = p_h0`` and
        ``p_better = p_h1``.
    method : str
        ``"exact"`` (quadrature) or ``"monte-carlo"``.
    standard_error : float
        Monte-Carlo standard error of ``p_h0``; 0.0 for quadrature, whose
        error is below 1e-10 (limited by double precision for counts
        beyond about 1e12).
    n_draws : int or None
        Draws per posterior for Monte Carlo; None for quadrature.
    posterior_a, posterior_b : BetaPosterior, F1Posterior or MacroPosterior
        The frozen posterior distributions of each model's metric.
    posterior : object
        The posterior of ``nu_B - nu_A``, frozen like a scipy distribution
        (``cdf``, ``sf``, ``ppf``, ``interval``, ``mean``, ``rvs``): by
        quadrature for ``method="exact"``, from the Monte-Carlo draws
        otherwise.
    """

    metric: str
    average: str
    p_h0: float
    p_h1: float
    decision: str
    difference: float
    mean_a: float
    mean_b: float
    mode_a: float
    mode_b: float
    interval_a: CredibleInterval
    interval_b: CredibleInterval
    confidence_level: float
    rope: float
    p_worse: float
    p_equivalent: float
    p_better: float
    method: str
    standard_error: float
    n_draws: int | None
    posterior_a: object = field(repr=False)
    posterior_b: object = field(repr=False)
    posterior: object = field(repr=False)

    _not_in_dict = ("posterior",)

    def summary(self):
        """Describe the test in one plain-text paragraph.

        Returns
        -------
        text : str
            Both models' means and credible intervals, the difference B - A
            with its credible interval, ``P(H0)`` and ``P(H1)``, the decision
            at 0.95 beside the paper's rule, and the rope's probabilities
            when a rope is set.
        """
        level = _level_text(self.confidence_level)
        text = (
            f"{self.metric}: A {self.mean_a:.4f} {_interval_text(self.interval_a)}, "
            f"B {self.mean_b:.4f} {_interval_text(self.interval_b)}; B - A = "
            f"{self.difference:+.4f} {_interval_text(self.credible_interval())} "
            f"({level} credible intervals)\nP(H0: B <= A) = {self.p_h0:.4f}, "
            f"P(H1: B > A) = {self.p_h1:.4f}; at 0.95: {self.decide()} (the "
            f"paper's rule: {self.decision})"
        )
        if self.rope > 0:
            text += f"\nrope +/-{self.rope:g}: {self._rope_text()}"
        if self.method == "monte-carlo":
            text += (
                f"\n(Monte Carlo, {self.n_draws} draws, s.e. {self.standard_error:.1e})"
            )
        return text


class _DifferencePosterior:
    """Posterior of ``nu_B - nu_A`` for independent posteriors of A and B.

    Frozen like a scipy distribution. Without ``draws``, and for posteriors
    other than a macro average, ``cdf`` integrates eq. 32 by quadrature and
    ``ppf`` inverts it; otherwise both come from draws of the difference:
    ``draws`` when given (those the test's probabilities came from), or
    ``n_draws`` drawn on first use with the seed ``random_state``.
    """

    def __init__(self, post_a, post_b, *, draws=None, n_draws, random_state):
        self.post_a, self.post_b = post_a, post_b
        self._given, self.n_draws, self.random_state = draws, n_draws, random_state
        self._exact = draws is None and not any(
            isinstance(post, MacroPosterior) for post in (post_a, post_b)
        )

    def __repr__(self):
        return f"posterior of B - A ({self.post_a!r}, {self.post_b!r})"

    @cached_property
    def _sample(self):
        draws = self._given
        if draws is None:
            draws = self.rvs(self.n_draws, random_state=self.random_state)
        return _SampledPosterior(draws)

    def rvs(self, size=None, random_state=None):
        rng = _generator(random_state)
        return self.post_b.rvs(size, random_state=rng) - self.post_a.rvs(
            size, random_state=rng
        )

    def mean(self):
        return self.post_b.mean() - self.post_a.mean()

    def cdf(self, x):
        if not self._exact:
            return self._sample.cdf(x)
        # eq. 32 at delta: P(nu_B - nu_A <= delta), by quadrature
        return np.vectorize(
            lambda delta: min(
                max(_prob_diff_at_most(self.post_a, self.post_b, delta), 0.0), 1.0
            )
        )(x)[()]

    def sf(self, x):
        return 1.0 - self.cdf(x)

    def ppf(self, q):
        if not self._exact:
            return self._sample.ppf(q)

        def one(p):
            # cdf(-1) = 0 and cdf(1) = 1: the metrics lie in [0, 1]
            if p <= 0 or p >= 1:
                return -1.0 if p <= 0 else 1.0
            return optimize.brentq(lambda x: self.cdf(x) - p, -1.0, 1.0, xtol=1e-12)

        return np.vectorize(one)(q)[()]

    def interval(self, confidence):
        tail = (1.0 - confidence) / 2
        return float(self.ppf(tail)), float(self.ppf(1.0 - tail))


def _prob_diff_at_most(post_a, post_b, delta):
    """``P(nu_B - nu_A <= delta)`` by quadrature over the narrower posterior.

    With A the narrower, ``E_A[F_B(nu_A + delta)]``; otherwise
    ``E_B[S_A(nu_B - delta)]``. Either way the integrand is smooth in the
    normal scores of the weighting posterior (eq. 32 as a 1-D integral).
    """
    if post_a._spread() <= post_b._spread():
        return post_a.expect(lambda x: post_b.cdf(x + delta))
    return post_b.expect(lambda x: post_a.sf(x - delta))


def _identical(post_a, post_b):
    """Whether two posteriors are the same distribution (a model against itself)."""
    if type(post_a) is not type(post_b):
        return False
    if isinstance(post_a, MacroPosterior):
        return len(post_a.components) == len(post_b.components) and all(
            _identical(a, b)
            for a, b in zip(post_a.components, post_b.components, strict=True)
        )
    return (post_a._alpha, post_a._beta, post_a.metric) == (
        post_b._alpha,
        post_b._beta,
        post_b.metric,
    )


def _decision(p_h0, p_h1, method, post_a, post_b):
    """The paper's rule, ``"accept H0"`` iff ``P(H0) >= P(H1)``.

    A difference within the numerical error of the exact method is a tie, and
    a tie accepts H0. That error is about 1e-10 from the quadrature, and more
    for posteriors so narrow that rounding their means to double precision
    (a relative 1.1e-16) moves ``P(H0)``: by about ``eps / spread``.
    """
    if method != "exact":
        return "accept H0" if p_h0 >= p_h1 else "accept H1"
    spread = min(post_a._spread(), post_b._spread())
    margin = max(_EXACT_TIE, 4 * np.finfo(float).eps / spread)
    return "accept H1" if p_h1 - p_h0 > margin else "accept H0"


def _tail_beyond_rope(post_a, post_b, rope, method, rng, n_draws):
    """``P(nu_B - nu_A > rope)`` for identical posteriors (0.5 without a rope)."""
    if rope == 0:
        return 0.5
    if method == "monte-carlo":
        diff = post_b.rvs(n_draws, random_state=rng) - post_a.rvs(
            n_draws, random_state=rng
        )
        return float(np.mean(np.abs(diff) > rope)) / 2
    return 1.0 - _prob_diff_at_most(post_a, post_b, rope)


def _check_counts_average(counts, name, average, *, whole=True):
    arr = _check_counts(counts, name, whole=whole)
    if arr.ndim == 3:
        if average == "binary":
            raise ValueError(
                f"{name} has per-class counts (shape {arr.shape}); pass "
                "average='micro' or average='macro', or the counts of the "
                "positive class alone with average='binary'."
            )
        if average == "micro":
            arr = arr.sum(axis=1)  # pool the one-vs-rest counts
    elif average == "macro":
        raise ValueError(
            f"average='macro' needs per-class counts of shape (n_splits, n_classes, "
            f"3 or 4); {name} has shape {arr.shape}."
        )
    positives = arr[..., 0] + arr[..., 2]  # TP + FN
    total = positives.sum(axis=0)
    if np.any(total == 0):
        raise ValueError(
            f"{name} has no positive samples (TP + FN = 0 in every split"
            f"{' for some class' if arr.ndim == 3 else ''}); recall and F1 are "
            "undefined and the posterior would be the prior alone."
        )
    return arr


def _check_counts_pair(counts_a, counts_b, average, *, whole=True):
    """Both models' per-split counts, which must come from the same splits."""
    arr_a = _check_counts_average(counts_a, "counts_a", average, whole=whole)
    arr_b = _check_counts_average(counts_b, "counts_b", average, whole=whole)
    if arr_a.shape != arr_b.shape:
        raise ValueError(
            f"counts_a and counts_b must come from the same splits and have the "
            f"same shape; got {arr_a.shape} and {arr_b.shape}."
        )
    return arr_a, arr_b


def _posteriors(arr, metric, factor, prior, n_draws, seed):
    counts_e = _effective_counts(arr, factor)
    if counts_e.ndim == 1:
        return metric_posterior(counts_e, metric, prior=prior)
    components = [metric_posterior(c, metric, prior=prior) for c in counts_e]
    return MacroPosterior(components, n_draws=n_draws, random_state=seed)


@validate_params(
    {
        "counts_a": ["array-like"],
        "counts_b": ["array-like"],
        "metric": [StrOptions(set(METRICS))],
        "average": [StrOptions(set(AVERAGES))],
        "prior": [Interval(Real, 0, None, closed="neither")],
        "correlation": _CORRELATION,
        "rope": PROPORTION_ROPE,
        "method": [StrOptions(set(METHODS))],
        "n_draws": [Interval(Integral, 1000, None, closed="left")],
        "confidence_level": CONFIDENCE_LEVEL,
        "random_state": RANDOM_STATE,
    },
    prefer_skip_nested_validation=True,
)
def bayes_test(
    counts_a,
    counts_b,
    *,
    metric="f1",
    average="binary",
    prior=1.0,
    correlation=DEFAULT_CORRELATION,
    rope=0.0,
    method="exact",
    n_draws=1_000_000,
    confidence_level=0.95,
    random_state=None,
):
    """Bayes test of whether model B has a higher precision, recall or F1 than A.

    Builds each model's effective confusion counts from its per-split counts,
    their posteriors, and the posterior probability of ``H0: nu_B - nu_A <=
    0`` against ``H1: nu_B - nu_A > 0`` (Wang & Li 2019, Algorithm 1). The
    posteriors are about the models trained on half the data (the training
    halves of the m x 2 CV), not about models refitted on all of it. The two
    posteriors are independent, as in the paper, although both models are
    scored on the same items; :func:`paired_bayes_test` uses that pairing.

    Parameters
    ----------
    counts_a : array-like of shape (n_splits, 3) or (n_splits, 4)
        Per-split confusion counts of the reference model A, rows ``(TP, FP,
        FN[, TN])``; one row per split of an m x 2 CV (6 for 3x2 BCV). With
        ``average="micro"`` or ``"macro"``, one-vs-rest counts of shape
        (n_splits, n_classes, 3 or 4). Use :func:`counts_from_triples` for
        (gold, predicted, correct) triples.

    counts_b : array-like of the same kind
        Per-split counts of the candidate model B, on the same splits.

    metric : {"precision", "recall", "f1"}, default="f1"
        The metric compared.

    average : {"binary", "micro", "macro"}, default="binary"
        ``"binary"``: the counts are those of one positive class.
        ``"micro"``: per-class counts are pooled before the posterior.
        ``"macro"``: the posterior of the mean of the per-class metrics,
        by Monte Carlo (this package's extension; the paper has none).

    prior : float, default=1.0
        The ``lambda`` of the ``Beta(lambda, lambda)`` prior.

    correlation : {"wang2019", "wang2015", "independent"}, tuple or float, \
            default="wang2015"
        The correlation correction; see :func:`correlation_factor`. The
        default is the one whose intervals held their level: its 95% F1
        interval covered 95-100% (median 98%) over the 19 cells of our
        coverage study, the paper's ``"wang2019"`` 80-95% (median 91%), 82%
        in the paper's example (``benchmarks/coverage_study.py``, seed
        20250611; simulated data, 3x2 BCV), and 97-100% and 83-100% in 4
        held-back cells (two scikit-learn data sets, 5 x 2 BCV; seed
        20261211); see the user guide. ``"wang2019"`` is the paper as
        printed. ``bayes-test --unpaired`` and ``BayesModelComparison``
        share this default.

    rope : float, default=0.0
        Half-width of a region of practical equivalence on the metric's
        scale, as in baycomp, in [0, 1): a difference of proportions lies
        in [-1, 1], so a rope of 1 would call every pair equivalent. With
        ``rope > 0`` the result also gives ``P(B worse)``,
        ``P(equivalent)`` and ``P(B better)``.

    method : {"exact", "monte-carlo"}, default="exact"
        ``"exact"`` integrates eq. 32 by quadrature (deterministic, error
        below 1e-10, limited by double precision beyond counts of about
        1e12). ``"monte-carlo"`` follows the paper (eq. 33), with
        ``n_draws`` draws from each posterior.

    n_draws : int, default=1_000_000
        Monte-Carlo draws per posterior (the paper's L), for
        ``method="monte-carlo"`` and for macro averages.

    confidence_level : float, default=0.95
        Level of the credible intervals in the result: each model's, and
        that of the difference ``credible_interval()`` gives by default.

    random_state : int, RandomState instance, Generator or None, default=None
        Seed of the Monte-Carlo draws. Unused by the exact method.

    Returns
    -------
    result : BayesTestResult
        ``p_h0``, ``p_h1``, the paper's ``decision`` and ``decide(threshold)``,
        which claims only what the posterior warrants, posterior means, modes
        and credible intervals of both models, and the ``posterior`` of the
        difference B - A with its ``credible_interval(confidence_level)``.

    See Also
    --------
    paired_bayes_test : The paired test, on the per-split differences.
    BayesModelComparison : Runs the 3x2 BCV and this test on two estimators.
    effective_counts : The effective counts used here.

    Notes
    -----
    The paper estimates ``P(H0)`` from ``L = 10^6`` draws, with a standard
    error of about 5e-4. Both posteriors are one-dimensional, so ``P(H0) =
    E_A[F_B(nu_A)]`` is a one-dimensional integral; the exact method
    evaluates it with a composite Gauss-Legendre rule in normal scores of
    the narrower posterior.

    References
    ----------
    .. [1] R. Wang and J. Li, "Bayes Test of Precision, Recall, and F1 Measure
       for Comparison of Two Natural Language Processing Models", ACL 2019.

    Examples
    --------
    >>> from sklearn_faithful.comparison import bayes_test, counts_from_triples
    >>> a = counts_from_triples([[3146, 2242, 2088], [3175, 2298, 2109],
    ...                          [3142, 2288, 2098], [3179, 2250, 2085],
    ...                          [3143, 2261, 2069], [3178, 2245, 2068]])
    >>> b = counts_from_triples([[3146, 2226, 2075], [3175, 2289, 2114],
    ...                          [3142, 2255, 2080], [3179, 2229, 2071],
    ...                          [3143, 2210, 2041], [3178, 2218, 2054]])
    >>> res = bayes_test(a, b, metric="precision",
    ...                  correlation="wang2019")  # Table 5 of the paper
    >>> round(res.p_h0, 3), round(res.p_h1, 3), res.decision
    (0.19, 0.81, 'accept H1')
    >>> res.decide(0.95)  # P(H1) = 0.81 is no claim at the 0.95 level
    'undecided'
    """
    lam = float(prior)
    arr_a, arr_b = _check_counts_pair(counts_a, counts_b, average)
    factor = _factor_for_splits(arr_a.shape[0], correlation, "counts_a")

    rng = _generator(random_state)
    seeds = rng.integers(np.iinfo(np.int32).max, size=2)
    post_a = _posteriors(arr_a, metric, factor, lam, n_draws, int(seeds[0]))
    post_b = _posteriors(arr_b, metric, factor, lam, n_draws, int(seeds[1]))

    used = "monte-carlo" if method == "monte-carlo" or average == "macro" else "exact"
    se, diff = 0.0, None
    same = _identical(post_a, post_b)
    if same:
        # a model against itself: nu_B - nu_A is symmetric about 0, exactly
        p_h0 = 0.5
        p_worse = p_better = _tail_beyond_rope(post_a, post_b, rope, used, rng, n_draws)
    elif used == "monte-carlo":
        diff = post_b.rvs(n_draws, random_state=rng) - post_a.rvs(
            n_draws, random_state=rng
        )
        p_h0 = float(np.mean(diff <= 0))  # eq. 33
        p_worse = float(np.mean(diff < -rope))
        p_better = float(np.mean(diff > rope))
        se = float(np.sqrt(p_h0 * (1 - p_h0) / n_draws))
    posterior = _DifferencePosterior(
        post_a,
        post_b,
        draws=diff,
        n_draws=n_draws,
        random_state=int(rng.integers(np.iinfo(np.int32).max)),
    )
    if used == "exact" and not same:
        p_h0 = float(posterior.cdf(0.0))  # eq. 32, by quadrature
        if rope > 0:
            p_worse, p_better = float(posterior.cdf(-rope)), float(posterior.sf(rope))
        else:
            p_worse, p_better = p_h0, 1.0 - p_h0
    p_h1 = 1.0 - p_h0
    return BayesTestResult(
        metric=metric,
        average=average,
        p_h0=p_h0,
        p_h1=p_h1,
        decision=_decision(p_h0, p_h1, used, post_a, post_b),
        difference=posterior.mean(),
        mean_a=post_a.mean(),
        mean_b=post_b.mean(),
        mode_a=post_a.mode(),
        mode_b=post_b.mode(),
        interval_a=CredibleInterval(*post_a.interval(confidence_level)),
        interval_b=CredibleInterval(*post_b.interval(confidence_level)),
        confidence_level=float(confidence_level),
        rope=float(rope),
        p_worse=min(max(p_worse, 0.0), 1.0),
        p_equivalent=min(max(1.0 - p_worse - p_better, 0.0), 1.0),
        p_better=min(max(p_better, 0.0), 1.0),
        method=used,
        standard_error=se,
        n_draws=n_draws if used == "monte-carlo" else None,
        posterior_a=post_a,
        posterior_b=post_b,
        posterior=posterior,
    )

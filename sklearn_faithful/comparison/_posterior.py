"""Posterior distributions of precision, recall and F1 (Wang & Li 2019, section 2).

With a ``Beta(lambda, lambda)`` prior and effective counts ``(TP_e, FP_e,
FN_e)``, precision and recall have Beta posteriors, and F1 is ``2 / (2 + X)``
with ``X`` BetaPrime (eqs. 25-27, erratum applied; formulas page,
"Effective counts, posteriors and the Bayes test"). All three are monotone
transforms of one Beta variable ``W``:

- precision: ``W ~ Beta(TP_e + lambda, FP_e + lambda)``, metric ``= W``;
- recall: ``W ~ Beta(TP_e + lambda, FN_e + lambda)``, metric ``= W``;
- F1: ``W = 1 / (1 + X) ~ Beta(b, a)`` with ``a = FP_e + FN_e + 2 lambda`` and
  ``b = TP_e + lambda``, so that F1 ``= 2 W / (1 + W)``. ``W`` is the
  posterior of the Jaccard index ``TP / (TP + FP + FN)``.

Every method goes through scipy's regularized incomplete Beta function and its
inverse (Boost), which stay accurate for counts up to 1e9 and beyond, and
densities are computed in log space.
"""

from functools import cached_property
from numbers import Integral, Real

import numpy as np
from scipy import special, stats

from ..utils._param_validation import Interval, StrOptions, validate_params
from ..utils._random import _generator
from ..utils._results import (
    CredibleInterval,
    _interval_text,
    _jsonable,
    _SampledPosterior,
)
from ..utils._validation import CONFIDENCE_LEVEL, RANDOM_STATE, _validate_init_params
from ._options import METRICS

_SHAPE_CONSTRAINTS = {
    "a": [Interval(Real, 0, None, closed="neither")],
    "b": [Interval(Real, 0, None, closed="neither")],
}
_INTERVAL_CONSTRAINTS = {"confidence": CONFIDENCE_LEVEL}
_RVS_CONSTRAINTS = {
    "size": [Interval(Integral, 0, None, closed="left"), tuple, None],
    "random_state": RANDOM_STATE,
}

# Composite Gauss-Legendre rule in z = Phi^{-1}(u) on [-Z_MAX, Z_MAX]: the
# standard normal mass left out is 2 Phi(-13) ~ 1e-38.
_Z_MAX = 13.0
_N_PANELS = 26
_NODES_PER_PANEL = 12


def _normal_rule():
    """Nodes z and weights w with ``sum w f(z) ~ E[f(Z)]``, Z standard normal."""
    x, w = np.polynomial.legendre.leggauss(_NODES_PER_PANEL)
    edges = np.linspace(-_Z_MAX, _Z_MAX, _N_PANELS + 1)
    half = np.diff(edges)[:, None] / 2
    mid = (edges[:-1] + edges[1:])[:, None] / 2
    z = (mid + half * x).ravel()
    weights = (half * w).ravel() * np.exp(-0.5 * z**2) / np.sqrt(2 * np.pi)
    return z, weights


_Z_NODES, _Z_WEIGHTS = _normal_rule()
# Lower-tail probabilities for z <= 0 and upper-tail ones for z > 0, each computed
# without cancellation.
_Z_LOWER = _Z_NODES <= 0
_Z_TAIL = special.ndtr(np.where(_Z_LOWER, _Z_NODES, -_Z_NODES))


# Above this a + b, Boost's incomplete Beta function loses accuracy: with
# scipy 1.17 its inverse is off by 1e-4 (relative) at a + b = 1e13 and both
# return NaN beyond about 1e16; with scipy 1.15 its cdf is off by 3e-7 already
# at 9e9. There the Edgeworth expansion of the cdf and the Cornish-Fisher
# expansion of the quantile take over; their truncation error is
# O((a + b)^(-3/2)), about 1e-10 at 1e10. See benchmarks/bench_beta_accuracy.py.
_LARGE = 1e10


def _beta_shape(a, b):
    """Mean, standard deviation, skewness and excess kurtosis of Beta(a, b).

    Written in ``p = a / (a + b)`` so that nothing overflows for huge ``a``, ``b``.
    """
    n = a + b
    p, q = a / n, b / n
    sigma = np.sqrt(p * q / (n + 1))
    skew = 2 * (q - p) / np.sqrt(p * q) * np.sqrt(n + 1) / (n + 2)
    kurt = 6 * ((p - q) ** 2 * (n + 1) / (p * q) - (n + 2)) / ((n + 2) * (n + 3))
    return p, sigma, skew, kurt


def _betainc(a, b, x):
    """Regularized incomplete Beta ``I_x(a, b)``, the Beta(a, b) cdf."""
    if a + b <= _LARGE:
        return special.betainc(a, b, x)
    # Edgeworth expansion to O(n^-1), He2, He3, He5 (formulas page, "Huge counts")
    mean, sigma, skew, kurt = _beta_shape(a, b)
    z = (x - mean) / sigma
    correction = (
        skew / 6 * (z * z - 1)
        + kurt / 24 * (z**3 - 3 * z)
        + skew * skew / 72 * (z**5 - 10 * z**3 + 15 * z)
    )
    density = np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi)
    lower = special.ndtr(z) - density * correction
    upper = special.ndtr(-z) + density * correction
    return np.clip(np.where(z <= 0, lower, 1.0 - upper), 0.0, 1.0)


def _betaincinv(a, b, q):
    """Inverse of :func:`_betainc` in ``x``: the Beta(a, b) quantile."""
    if a + b <= _LARGE:
        return special.betaincinv(a, b, q)
    # Cornish-Fisher expansion to O(n^-1) (formulas page, "Huge counts")
    mean, sigma, skew, kurt = _beta_shape(a, b)
    with np.errstate(invalid="ignore"):
        z = special.ndtri(q)
        w = (
            z
            + skew / 6 * (z * z - 1)
            + kurt / 24 * (z**3 - 3 * z)
            - skew * skew / 36 * (2 * z**3 - 5 * z)
        )
        x = np.clip(mean + sigma * w, 0.0, 1.0)
    return np.where(q <= 0, 0.0, np.where(q >= 1, 1.0, x))


class _BetaTransformPosterior:
    """A metric ``g(W)``, ``W ~ Beta(alpha, beta)``, ``g`` increasing on [0, 1]."""

    metric = None

    def __init__(self, alpha, beta):
        self._alpha = float(alpha)
        self._beta = float(beta)

    # --- the transform; identity for precision and recall --------------------
    def _g(self, w):
        return w

    def _g_of_complement(self, v):
        """``g(1 - v)``, accurate for small ``v``."""
        return 1.0 - v

    def _h(self, x):
        """Inverse of ``g``."""
        return x

    def _complement_h(self, x):
        """``1 - h(x)``, accurate for ``x`` near 1."""
        return 1.0 - x

    def _log_jacobian(self, x):
        return np.zeros_like(x)

    # --- scipy's frozen-distribution interface --------------------------------
    def support(self):
        """Return the support of the posterior.

        Returns
        -------
        low, high : float
            ``(0.0, 1.0)``: every metric here lies in [0, 1].
        """
        return 0.0, 1.0

    def logpdf(self, x):
        """Log of the probability density at ``x``.

        Parameters
        ----------
        x : float or array-like of float
            Values of the metric.

        Returns
        -------
        logpdf : float or ndarray
            ``-inf`` outside (0, 1); an array when ``x`` is one.
        """
        x = np.asarray(x, dtype=np.float64)
        inside = (x > 0) & (x < 1)
        w = self._h(np.where(inside, x, 0.5))
        # Boost's Beta density is accurate for huge parameters, where
        # log-gamma differences lose digits; fall back to the log form only
        # where the density underflows.
        with np.errstate(divide="ignore"):
            dens = stats.beta.pdf(w, self._alpha, self._beta)
            out = np.where(
                dens > 1e-290,
                np.log(dens),
                stats.beta.logpdf(w, self._alpha, self._beta),
            )
        out = np.where(inside, out + self._log_jacobian(x), -np.inf)
        return out[()] if out.ndim == 0 else out

    def pdf(self, x):
        """Probability density at ``x``.

        Parameters
        ----------
        x : float or array-like of float
            Values of the metric.

        Returns
        -------
        pdf : float or ndarray
            Zero outside (0, 1); an array when ``x`` is one.
        """
        return np.exp(self.logpdf(x))

    def cdf(self, x):
        """Posterior probability that the metric is at most ``x``.

        Parameters
        ----------
        x : float or array-like of float
            Values of the metric.

        Returns
        -------
        cdf : float or ndarray
            An array when ``x`` is one.
        """
        x = np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)
        out = _betainc(self._alpha, self._beta, self._h(x))
        return out[()] if out.ndim == 0 else out

    def sf(self, x):
        """Posterior probability that the metric exceeds ``x``.

        Computed from the upper tail, so it stays accurate where
        ``1 - cdf(x)`` would round to 0.

        Parameters
        ----------
        x : float or array-like of float
            Values of the metric.

        Returns
        -------
        sf : float or ndarray
            An array when ``x`` is one.
        """
        x = np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)
        out = _betainc(self._beta, self._alpha, self._complement_h(x))
        return out[()] if out.ndim == 0 else out

    def ppf(self, q):
        """Quantile function, the inverse of :meth:`cdf`.

        Parameters
        ----------
        q : float or array-like of float
            Probabilities, in [0, 1].

        Returns
        -------
        ppf : float or ndarray
            The metric values below which the posterior puts ``q``; an array
            when ``q`` is one.
        """
        q = np.asarray(q, dtype=np.float64)
        out = self._g(_betaincinv(self._alpha, self._beta, q))
        return out[()] if out.ndim == 0 else out

    def isf(self, q):
        """Inverse of :meth:`sf`, accurate for small upper-tail probabilities.

        Parameters
        ----------
        q : float or array-like of float
            Probabilities, in [0, 1].

        Returns
        -------
        isf : float or ndarray
            The metric values above which the posterior puts ``q``; an array
            when ``q`` is one.
        """
        q = np.asarray(q, dtype=np.float64)
        out = self._g_of_complement(_betaincinv(self._beta, self._alpha, q))
        return out[()] if out.ndim == 0 else out

    def median(self):
        """Posterior median.

        Returns
        -------
        median : float
        """
        return float(self.ppf(0.5))

    @validate_params(
        {"confidence": CONFIDENCE_LEVEL}, prefer_skip_nested_validation=True
    )
    def interval(self, confidence):
        """Equal-tailed credible interval with probability ``confidence``.

        Parameters
        ----------
        confidence : float
            Probability mass inside the interval, in (0, 1).

        Returns
        -------
        low, high : float
            The ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``
            quantiles (eqs. 28-30).
        """
        tail = (1.0 - confidence) / 2
        return float(self.ppf(tail)), float(self.isf(tail))

    @validate_params(_RVS_CONSTRAINTS, prefer_skip_nested_validation=True)
    def rvs(self, size=None, random_state=None):
        """Draw random samples.

        Parameters
        ----------
        size : int or tuple of ints, default=None
            Output shape; None draws one value.
        random_state : int, RandomState instance, Generator or None, default=None
            Seed of the draws; the global random state is never touched.

        Returns
        -------
        samples : float or ndarray
            A float when ``size`` is None, else an array of shape ``size``.
        """
        rng = _generator(random_state)
        return self._g(rng.beta(self._alpha, self._beta, size=size))

    @cached_property
    def _quadrature_points(self):
        """The metric at the normal quadrature nodes: ``ppf(Phi(z))``."""
        return np.where(
            _Z_LOWER,
            self.ppf(_Z_TAIL),
            self.isf(_Z_TAIL),
        )

    @validate_params({"func": [callable]}, prefer_skip_nested_validation=True)
    def expect(self, func):
        """Posterior expectation of ``func(metric)`` by quadrature.

        Parameters
        ----------
        func : callable
            Vectorised function of the metric value.

        Returns
        -------
        value : float
        """
        return float(np.dot(_Z_WEIGHTS, func(self._quadrature_points)))

    def mean(self):
        """Posterior mean.

        Returns
        -------
        mean : float
            Computed by quadrature (see :meth:`expect`).
        """
        return self.expect(lambda x: x)

    def var(self):
        """Posterior variance.

        Returns
        -------
        var : float
            Computed by quadrature (see :meth:`expect`).
        """
        mean = self.mean()
        return self.expect(lambda x: (x - mean) ** 2)

    def std(self):
        """Posterior standard deviation.

        Returns
        -------
        std : float
        """
        return float(np.sqrt(self.var()))

    def to_dict(self):
        """The posterior as plain JSON values.

        Returns
        -------
        posterior : dict
            ``"distribution"`` (the class name), ``"metric"``, the parameters
            ``"a"`` and ``"b"``, and the posterior ``"mean"`` and ``"mode"``
            (None where the mode is undefined).
        """
        return _jsonable(
            {
                "distribution": type(self).__name__,
                "metric": self.metric,
                "a": self.a,
                "b": self.b,
                "mean": self.mean(),
                "mode": self.mode(),
            }
        )

    def summary(self):
        """Describe the posterior in one line.

        Returns
        -------
        text : str
            Its parameters, mean, mode and 95% credible interval.
        """
        interval = CredibleInterval(*self.interval(0.95))
        return (
            f"{self!r}: posterior of {self.metric}, mean {self.mean():.4f}, mode "
            f"{self.mode():.4f}, 95% credible interval {_interval_text(interval)}"
        )

    def _spread(self):
        """A cheap scale: half the central 68.3% interval."""
        low, high = self.interval(0.6826894921370859)
        return (high - low) / 2


class BetaPosterior(_BetaTransformPosterior):
    """Beta posterior of precision or recall, frozen like a scipy distribution.

    Precision has ``Beta(TP_e + lambda, FP_e + lambda)``, recall ``Beta(TP_e +
    lambda, FN_e + lambda)`` (eqs. 25 and 26, erratum applied: the printed
    exponents are off by one). Build one with :func:`metric_posterior`.

    Parameters
    ----------
    a, b : float
        Positive Beta parameters.
    metric : {"precision", "recall"}, default="precision"
        Name of the metric, used in displays.

    Attributes
    ----------
    a, b : float
        The Beta parameters.

    Examples
    --------
    >>> from sklearn_faithful.comparison import BetaPosterior
    >>> post = BetaPosterior(91.0, 11.0)
    >>> round(post.mode(), 4)
    0.9
    >>> low, high = post.interval(0.95)
    >>> round(low, 3), round(high, 3)
    (0.825, 0.944)
    """

    _parameter_constraints = {
        **_SHAPE_CONSTRAINTS,
        "metric": [StrOptions({"precision", "recall"})],
    }

    def __init__(self, a, b, metric="precision"):
        _validate_init_params(self, dict(a=a, b=b, metric=metric))
        super().__init__(a, b)
        self.a = float(a)
        self.b = float(b)
        self.metric = metric

    def __repr__(self):
        return f"BetaPosterior(a={self.a!r}, b={self.b!r}, metric={self.metric!r})"

    def mean(self):
        """Posterior mean, ``a / (a + b)``.

        Returns
        -------
        mean : float
        """
        return self.a / (self.a + self.b)

    def var(self):
        """Posterior variance, ``a b / ((a + b)^2 (a + b + 1))``.

        Returns
        -------
        var : float
        """
        s = self.a + self.b
        return self.a * self.b / (s * s * (s + 1.0))

    def mode(self):
        """Posterior mode; equals the point estimate when ``lambda = 1`` (eqs. 5-6).

        Returns
        -------
        mode : float
            ``(a - 1) / (a + b - 2)``; 0 or 1 where the density is unbounded at
            that end, and NaN when it is flat (``a = b = 1``) or unbounded at
            both ends.
        """
        a, b = self.a, self.b
        if a > 1 and b > 1:
            return (a - 1.0) / (a + b - 2.0)
        if a <= 1 and b > 1 or (a < 1 and b == 1):
            return 0.0
        if b <= 1 and a > 1 or (b < 1 and a == 1):
            return 1.0
        return float("nan")


class F1Posterior(_BetaTransformPosterior):
    """Posterior of F1, ``2 / (2 + X)`` with ``X ~ BetaPrime(a, b)``, frozen.

    ``a = FP_e + FN_e + 2 lambda`` and ``b = TP_e + lambda`` (eq. 27). The
    density on (0, 1) is ``2^a (1 - t)^(a - 1) (2 - t)^(-a - b) t^(b - 1) /
    B(a, b)``, evaluated in log space. Build one with :func:`metric_posterior`.

    Parameters
    ----------
    a, b : float
        Positive BetaPrime parameters.

    Attributes
    ----------
    a, b : float
        The BetaPrime parameters.
    metric : str
        Always ``"f1"``.

    Notes
    -----
    With ``W = 1 / (1 + X) ~ Beta(b, a)``, F1 ``= 2 W / (1 + W)``; the cdf is
    the Beta(b, a) cdf at ``t / (2 - t)``. The mean and variance have no
    closed form and are computed by Gauss-Legendre quadrature in normal
    scores, accurate to about 1e-12.

    Examples
    --------
    >>> from sklearn_faithful.comparison import F1Posterior
    >>> post = F1Posterior(a=20.0, b=81.0)  # TP_e = 80, FP_e + FN_e = 18
    >>> round(post.mode(), 4)  # near, not at, 2 TP / (2 TP + FP + FN) = 0.8989
    0.8949
    >>> print(round(post.cdf(post.ppf(0.3)), 12))
    0.3
    """

    metric = "f1"

    _parameter_constraints = _SHAPE_CONSTRAINTS

    def __init__(self, a, b):
        _validate_init_params(self, dict(a=a, b=b))
        super().__init__(b, a)  # W ~ Beta(b, a)
        self.a = float(a)
        self.b = float(b)

    def __repr__(self):
        return f"F1Posterior(a={self.a!r}, b={self.b!r})"

    def _g(self, w):
        return 2.0 * w / (1.0 + w)

    def _g_of_complement(self, v):
        return 2.0 * (1.0 - v) / (2.0 - v)

    def _h(self, x):
        return x / (2.0 - x)

    def _complement_h(self, x):
        return 2.0 * (1.0 - x) / (2.0 - x)

    def _log_jacobian(self, x):
        return np.log(2.0) - 2.0 * np.log(2.0 - x)

    def mode(self):
        """Posterior mode.

        Unlike precision and recall, the mode is not the pooled F1 ``2 TP_e /
        (2 TP_e + FP_e + FN_e)``, though it approaches it as counts grow. It
        is the root in (0, 1) of ``2 t^2 - (5 - a - 2 b) t - 2 (b - 1) = 0``,
        where the derivative of the log density vanishes, computed without
        cancellation.

        Returns
        -------
        mode : float
            0 where the density is unbounded at 0 (``b < 1``), 1 where it is
            unbounded at 1 (``a < 1``), NaN where it is unbounded at both.
        """
        a, b = self.a, self.b
        if b < 1:
            return 0.0 if a >= 1 else float("nan")
        if a < 1:
            return 1.0
        lin = 5.0 - a - 2.0 * b
        root = np.sqrt(lin * lin + 16.0 * (b - 1.0))
        if lin >= 0:
            t = (lin + root) / 4.0
        else:  # (lin + root) / 4 rewritten to avoid cancellation
            t = 4.0 * (b - 1.0) / (root - lin)
        return float(min(t, 1.0))


class MacroPosterior:
    """Posterior of a macro average: the mean of independent per-class posteriors.

    This is sklearn-faithful's extension of Wang & Li (2019), who treat one
    positive class. The per-class posteriors are taken as independent, and
    everything except the mean is computed from Monte-Carlo draws, seeded so
    that the same object always returns the same numbers.

    Parameters
    ----------
    components : list of BetaPosterior or F1Posterior
        One posterior per class.
    n_draws : int, default=1_000_000
        Draws used by :meth:`ppf`, :meth:`interval` and :meth:`pdf`.
    random_state : int, default=0
        Seed of those draws.
    """

    _parameter_constraints = {
        "components": [list, tuple],
        "n_draws": [Interval(Integral, 1, None, closed="left")],
        "random_state": RANDOM_STATE,
    }

    def __init__(self, components, n_draws=1_000_000, random_state=0):
        _validate_init_params(
            self,
            dict(components=components, n_draws=n_draws, random_state=random_state),
        )
        metrics = {getattr(post, "metric", None) for post in components}
        if len(components) == 0 or len(metrics) != 1 or None in metrics:
            raise ValueError(
                "components must be a non-empty list of posteriors of one metric "
                f"(BetaPosterior or F1Posterior); got {components!r}."
            )
        self.components = list(components)
        self.metric = self.components[0].metric
        self.n_draws = n_draws
        self.random_state = random_state

    def __repr__(self):
        return f"MacroPosterior({len(self.components)} classes, metric={self.metric!r})"

    def to_dict(self):
        """The posterior as plain JSON values.

        Returns
        -------
        posterior : dict
            ``"distribution"``, ``"metric"``, the ``"components"`` (each
            class's posterior as its ``to_dict``), ``"n_draws"``,
            ``"random_state"`` (None unless an int) and the ``"mean"``.
        """
        seed = self.random_state
        return _jsonable(
            {
                "distribution": type(self).__name__,
                "metric": self.metric,
                "components": self.components,
                "n_draws": self.n_draws,
                "random_state": seed if isinstance(seed, Integral) else None,
                "mean": self.mean(),
            }
        )

    def summary(self):
        """Describe the posterior in one line.

        Returns
        -------
        text : str
            The number of classes, the mean and the 95% credible interval.
        """
        interval = CredibleInterval(*self.interval(0.95))
        return (
            f"macro average of {len(self.components)} posteriors of {self.metric}: "
            f"mean {self.mean():.4f}, 95% credible interval "
            f"{_interval_text(interval)} (from {self.n_draws} draws)"
        )

    @validate_params(_RVS_CONSTRAINTS, prefer_skip_nested_validation=True)
    def rvs(self, size=None, random_state=None):
        """Draw the macro average: one draw from each class, averaged.

        Parameters
        ----------
        size : int or tuple of ints, default=None
            Output shape; None draws one value.
        random_state : int, RandomState instance, Generator or None, default=None
            Seed of the draws; the global random state is never touched.

        Returns
        -------
        samples : float or ndarray
            A float when ``size`` is None, else an array of shape ``size``.
        """
        rng = _generator(random_state)
        n = 1 if size is None else int(np.prod(size))
        draws = np.zeros(n)
        for post in self.components:
            draws += post.rvs(n, random_state=rng)
        draws /= len(self.components)
        return draws[0] if size is None else draws.reshape(size)

    @cached_property
    def _sample(self):
        return _SampledPosterior(self.rvs(self.n_draws, random_state=self.random_state))

    def mean(self):
        """Posterior mean, the mean of the per-class means (exact).

        Returns
        -------
        mean : float
        """
        return float(np.mean([post.mean() for post in self.components]))

    def mode(self):
        """Posterior mode, which is not computed.

        Returns
        -------
        mode : float
            NaN: the macro average has no closed-form mode.
        """
        return float("nan")

    def ppf(self, q):
        """Quantile function, from the Monte-Carlo draws.

        Parameters
        ----------
        q : float or array-like of float
            Probabilities, in [0, 1].

        Returns
        -------
        ppf : float or ndarray
            Quantiles of the ``n_draws`` draws; an array when ``q`` is one.
        """
        return self._sample.ppf(q)

    def cdf(self, x):
        """Posterior probability that the metric is at most ``x``, from the draws.

        Parameters
        ----------
        x : float or array-like of float
            Values of the metric.

        Returns
        -------
        cdf : float or ndarray
            Share of the ``n_draws`` draws at or below ``x``; an array when
            ``x`` is one.
        """
        return self._sample.cdf(x)

    @validate_params(
        {"confidence": CONFIDENCE_LEVEL}, prefer_skip_nested_validation=True
    )
    def interval(self, confidence):
        """Equal-tailed credible interval with probability ``confidence``.

        Parameters
        ----------
        confidence : float
            Probability mass inside the interval, in (0, 1).

        Returns
        -------
        low, high : float
            The ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``
            quantiles of the draws.
        """
        return self._sample.interval(confidence)

    def pdf(self, x):
        """Probability density at ``x``, for plots.

        Parameters
        ----------
        x : float or array-like of float
            Values of the metric.

        Returns
        -------
        pdf : ndarray
            A Gaussian kernel density estimate from 20,000 of the draws.
        """
        return self._kde(x)

    @cached_property
    def _kde(self):
        draws = self._sample.draws
        step = max(1, draws.size // 20_000)
        return stats.gaussian_kde(draws[::step])


def _check_effective(counts_e):
    """Validate effective counts ``(TP_e, FP_e, FN_e[, TN_e])``."""
    arr = np.asarray(counts_e, dtype=np.float64)
    if arr.ndim != 1 or arr.shape[0] not in (3, 4):
        raise ValueError(
            "effective counts must be (TP_e, FP_e, FN_e) or (TP_e, FP_e, FN_e, "
            f"TN_e); got shape {arr.shape}."
        )
    if not np.isfinite(arr).all() or (arr < 0).any():
        raise ValueError(
            f"effective counts must be finite and non-negative; got {arr.tolist()}."
        )
    return arr


@validate_params(
    {
        "counts_e": ["array-like"],
        "metric": [StrOptions(set(METRICS))],
        "prior": [Interval(Real, 0, None, closed="neither")],
    },
    prefer_skip_nested_validation=True,
)
def metric_posterior(counts_e, metric="f1", *, prior=1.0):
    """Return the posterior of precision, recall or F1 from effective counts.

    Parameters
    ----------
    counts_e : array-like of shape (3,) or (4,)
        Effective counts ``(TP_e, FP_e, FN_e[, TN_e])``, for instance from
        :func:`effective_counts`. Need not be integers.

    metric : {"precision", "recall", "f1"}, default="f1"
        The metric whose posterior is returned.

    prior : float, default=1.0
        The ``lambda`` of the ``Beta(lambda, lambda)`` prior. With 1.0 (the
        paper's choice) the posterior mode equals the pooled point estimate.

    Returns
    -------
    posterior : BetaPosterior or F1Posterior
        A frozen distribution with ``pdf``, ``cdf``, ``ppf``, ``rvs``,
        ``mean``, ``mode`` and ``interval``. From the effective counts of an
        m x 2 CV, it is the posterior of the metric of the model trained on
        half the data, not of a model refitted on all of it.

    See Also
    --------
    effective_counts : Effective counts from per-split counts.
    bayes_test : Compare two models' posteriors.

    Notes
    -----
    Eqs. 25-27 of Wang & Li (2019) print the precision and recall densities
    as ``t^(TP_e + lambda) (1 - t)^(FP_e + lambda) / B(TP_e + lambda, FP_e +
    lambda)``, which is off by one in both exponents and does not integrate to
    1. This function uses the Beta(TP_e + lambda, FP_e + lambda) density that
    the paper's text and its mode property (eqs. 5-6) define.

    Examples
    --------
    >>> from sklearn_faithful.comparison import metric_posterior
    >>> post = metric_posterior([80, 10, 8], "recall")
    >>> post
    BetaPosterior(a=81.0, b=9.0, metric='recall')
    >>> round(post.mode(), 4)  # 80 / (80 + 8)
    0.9091
    """
    tp, fp, fn = _check_effective(counts_e)[:3]
    lam = float(prior)
    if metric == "precision":
        return BetaPosterior(tp + lam, fp + lam, metric="precision")  # eq. 25
    if metric == "recall":
        return BetaPosterior(tp + lam, fn + lam, metric="recall")  # eq. 26
    return F1Posterior(a=fp + fn + 2 * lam, b=tp + lam)  # eq. 27

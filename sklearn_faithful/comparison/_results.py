"""Result objects of the comparison tests: frozen dataclasses with float fields."""

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from scipy import special

from ..utils._validation import _check_confidence_level


class CredibleInterval(NamedTuple):
    """An equal-tailed credible interval ``(low, high)``."""

    low: float
    high: float


@dataclass(frozen=True)
class BayesTestResult:
    """Result of :func:`bayes_test`: the Bayes test of one metric.

    Attributes
    ----------
    metric : str
        ``"precision"``, ``"recall"`` or ``"f1"``.
    p_h0 : float
        Posterior probability of ``H0: nu_B - nu_A <= 0`` (eq. 32).
    p_h1 : float
        ``1 - p_h0``, the probability that B is better than A.
    decision : str
        The paper's rule: ``"accept H0"`` iff ``p_h0 >= p_h1``, otherwise
        ``"accept H1"``.
    mean_a, mean_b : float
        Posterior means of the metric for A (reference) and B (candidate).
    mode_a, mode_b : float
        Posterior modes (the pooled point estimates when ``prior=1``); NaN for
        a macro average, which has no closed-form mode.
    interval_a, interval_b : CredibleInterval
        Equal-tailed credible intervals at ``confidence_level`` (eqs. 28-30).
    confidence_level : float
        Level of ``interval_a`` and ``interval_b``.
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
        error is below 1e-10.
    n_draws : int or None
        Draws per posterior for Monte Carlo; None for quadrature.
    posterior_a, posterior_b : object
        The frozen posterior distributions.
    """

    metric: str
    p_h0: float
    p_h1: float
    decision: str
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

    def credible_interval(self, confidence_level=0.95):
        """Credible intervals of A and B at another level.

        Parameters
        ----------
        confidence_level : float, default=0.95
            Posterior probability inside each interval, in (0, 1).

        Returns
        -------
        interval_a, interval_b : CredibleInterval
            Equal-tailed intervals ``(low, high)`` for A and for B.
        """
        return (
            CredibleInterval(*self.posterior_a.interval(confidence_level)),
            CredibleInterval(*self.posterior_b.interval(confidence_level)),
        )

    def summary(self):
        """A one-paragraph plain-text account of the test."""
        level = f"{100 * self.confidence_level:g}%"
        text = (
            f"{self.metric}: A {self.mean_a:.4f} [{self.interval_a.low:.4f}, "
            f"{self.interval_a.high:.4f}], B {self.mean_b:.4f} "
            f"[{self.interval_b.low:.4f}, {self.interval_b.high:.4f}] ({level} "
            f"credible intervals)\nP(H0: B <= A) = {self.p_h0:.4f}, P(H1: B > A) "
            f"= {self.p_h1:.4f} -> {self.decision}"
        )
        if self.rope > 0:
            text += (
                f"\nrope +/-{self.rope:g}: P(B worse) = {self.p_worse:.4f}, "
                f"P(equivalent) = {self.p_equivalent:.4f}, P(B better) = "
                f"{self.p_better:.4f}"
            )
        if self.method == "monte-carlo":
            text += (
                f"\n(Monte Carlo, {self.n_draws} draws, s.e. {self.standard_error:.1e})"
            )
        return text


class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)``."""

    low: float
    high: float


@dataclass(frozen=True)
class ModelBasedTestResult:
    """Result of a model-based metric test (Goyal, Hu & Gupta 2023).

    System C is the control (baseline), T the treatment; rates are those of
    the positive class.

    Attributes
    ----------
    method : str
        ``"goyal2023"`` (the paper's interval) or ``"delta"``.
    paired : bool
        Whether C and T answered the same inputs (appendix A.3).
    n_c, n_t : int
        Number of outputs of each system.
    mean_c, mean_t : float
        Observed rates ``p_O``, the share of outputs the metric model labels
        positive.
    effect : float
        Observed difference ``d = mean_t - mean_c``; the paper centres both
        intervals on it.
    rate_c, rate_t : float
        Corrected rates ``p_R = precision p_O + FOR (1 - p_O)`` (eq. 10).
    corrected_effect : float
        ``rate_t - rate_c``, the bias-corrected effect (``(precision - FOR)
        d`` for a binary metric model).
    var_deterministic_c, var_deterministic_t : float
        ``p_O (1 - p_O) / (N - 1)`` (eq. 5), as if the metric model were
        ground truth.
    var_model_c, var_model_t : float
        The method's variance of each system: ``p_R (1 - p_R) / (N - 1)``
        (eq. 13) for ``"goyal2023"``; the delta-method variance of the
        corrected rate for ``"delta"``.
    covariance_deterministic, covariance_model : float
        Covariances of the two systems for paired outputs (0.0 unpaired).
    var_effect_deterministic, var_effect_model : float
        Variances of the effect that the two intervals use.
    confidence_level : float
        Level of both intervals.
    ci_deterministic, ci_model : ConfidenceInterval
        The deterministic interval (eq. 8) and the method's interval: eq. 14
        around ``effect`` for ``"goyal2023"``, the delta-method interval
        around ``corrected_effect`` for ``"delta"``.
    significant_deterministic, significant_model : bool
        Whether each interval excludes 0.
    conclusion_changed : bool
        True when the two disagree.
    pvalue_deterministic, pvalue : float
        Two-sided normal p-values of the deterministic and of the method's
        test.
    """

    method: str
    paired: bool
    n_c: int
    n_t: int
    mean_c: float
    mean_t: float
    effect: float
    rate_c: float
    rate_t: float
    corrected_effect: float
    var_deterministic_c: float
    var_deterministic_t: float
    var_model_c: float
    var_model_t: float
    covariance_deterministic: float
    covariance_model: float
    var_effect_deterministic: float
    var_effect_model: float
    confidence_level: float
    ci_deterministic: ConfidenceInterval
    ci_model: ConfidenceInterval
    significant_deterministic: bool
    significant_model: bool
    conclusion_changed: bool
    pvalue_deterministic: float
    pvalue: float

    @property
    def statistic(self):
        """The effect the method's interval is centred on."""
        return self.corrected_effect if self.method == "delta" else self.effect

    def confidence_interval(self, confidence_level=0.95):
        """The method's confidence interval of the effect at another level.

        Parameters
        ----------
        confidence_level : float, default=0.95
            In (0, 1).

        Returns
        -------
        ci : ConfidenceInterval
        """
        half = _z(confidence_level) * math.sqrt(self.var_effect_model)
        return ConfidenceInterval(self.statistic - half, self.statistic + half)

    def summary(self):
        """A plain-text account of the test."""
        level = f"{100 * self.confidence_level:g}%"
        d, m = self.ci_deterministic, self.ci_model
        name = "paper (eq. 14)" if self.method == "goyal2023" else "delta method"
        lines = [
            f"observed rate: C {self.mean_c:.5f} (N={self.n_c}), T {self.mean_t:.5f} "
            f"(N={self.n_t}); effect T - C = {self.effect:.5f}"
            + (" (paired)" if self.paired else ""),
            f"corrected rate: C {self.rate_c:.5f}, T {self.rate_t:.5f}; corrected "
            f"effect {self.corrected_effect:.5f}",
            f"{level} CI as if the metric were ground truth: ({d.low:.5f}, "
            f"{d.high:.5f}) -> "
            + ("significant" if self.significant_deterministic else "not significant"),
            f"{level} CI, {name}: ({m.low:.5f}, {m.high:.5f}) -> "
            + ("significant" if self.significant_model else "not significant")
            + f", p = {self.pvalue:.3g}",
        ]
        if self.conclusion_changed:
            lines.append("counting the metric model's errors changes the conclusion")
        return "\n".join(lines)


def _z(confidence_level):
    """Two-sided normal critical value, ``Phi^-1(1/2 + level/2)`` (1.96 at 95%)."""
    level = _check_confidence_level(confidence_level)
    return float(special.ndtri(0.5 + level / 2))

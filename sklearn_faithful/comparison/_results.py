"""Result objects of the comparison tests: frozen dataclasses with float fields."""

from dataclasses import dataclass, field
from typing import NamedTuple


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

"""Result dataclasses of the statistics toolbox, in the style of scipy.stats."""

from dataclasses import dataclass, field

import numpy as np

from ..comparison._results import ConfidenceInterval

__all__ = [
    "BootstrapIntervalResult",
    "ConfidenceInterval",
    "PairedTestResult",
    "RegressionCheckResult",
    "SignTestResult",
]


@dataclass(frozen=True)
class BootstrapIntervalResult:
    """Result of :func:`bootstrap_confidence_interval`.

    Attributes
    ----------
    statistic : float
        The metric on the original data.
    confidence_interval : ConfidenceInterval
        The bootstrap interval.
    standard_error : float
        Standard deviation of the bootstrap distribution.
    n_resamples : int
        Resamples drawn.
    n_nan : int
        Resamples on which the metric was NaN (left out of the interval).
    method : str
        ``"percentile"``, ``"basic"`` or ``"bca"``.
    fast_path : bool
        Whether the vectorised path was used.
    bootstrap_distribution : ndarray
        The metric on each resample.
    """

    statistic: float
    confidence_interval: ConfidenceInterval
    standard_error: float
    n_resamples: int
    n_nan: int
    method: str
    fast_path: bool
    bootstrap_distribution: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class PairedTestResult:
    """Result of :func:`paired_bootstrap_test` and :func:`paired_permutation_test`.

    Attributes
    ----------
    statistic : float
        Observed difference ``metric(B) - metric(A)``.
    confidence_interval : ConfidenceInterval
        Percentile bootstrap interval of the difference (for the permutation
        test too, from paired bootstrap resamples drawn with the same seed).
    pvalue : float
        ``(c + 1) / (n + 1)``, with ``c`` the resamples at least as extreme as
        the observed difference under the null.
    alternative : str
        ``"two-sided"``, ``"greater"`` (B better) or ``"less"``.
    n_resamples : int
        Resamples (or permutations) drawn.
    fast_path : bool
        Whether the vectorised path was used.
    null_distribution : ndarray
        Differences under the null hypothesis.
    """

    statistic: float
    confidence_interval: ConfidenceInterval
    pvalue: float
    alternative: str
    n_resamples: int
    fast_path: bool
    null_distribution: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class SignTestResult:
    """Result of :func:`sign_test`.

    Attributes
    ----------
    n_discordant : int
        Items on which exactly one of the two systems is right.
    n_b_better : int
        Items B gets right and A wrong.
    n_a_better : int
        Items A gets right and B wrong.
    statistic : float
        ``n_b_better / n_discordant``, the share of discordant items won by B.
    pvalue : float
        Exact binomial p-value, success probability 1/2.
    alternative : str
        As passed.
    confidence_interval : ConfidenceInterval
        Clopper-Pearson interval of the share won by B.
    """

    n_discordant: int
    n_b_better: int
    n_a_better: int
    statistic: float
    pvalue: float
    alternative: str
    confidence_interval: ConfidenceInterval


@dataclass(frozen=True)
class RegressionCheckResult:
    """Result of :meth:`AccuracyRegressionTest.check`.

    Attributes
    ----------
    passed : bool
        True when no regression is detected (the new mean is on the right side
        of the threshold).
    threshold : float
        ``gamma``: the new mean must not fall below it (above it when lower is
        better).
    observed_mean : float
        Mean score of the new run.
    reference_mean : float
        Mean score of the reference.
    effect : float
        ``observed_mean - reference_mean``.
    statistic : float
        The z statistic of the one-tailed test.
    pvalue : float
        One-tailed p-value of "the new run is worse".
    power_at_theta : float
        Probability of flagging a true regression of size ``theta``.
    n : int
        Items per run.
    paired : bool
        Whether per-item differences were used.
    """

    passed: bool
    threshold: float
    observed_mean: float
    reference_mean: float
    effect: float
    statistic: float
    pvalue: float
    power_at_theta: float
    n: int
    paired: bool

"""Chance-corrected agreement coefficients, their intervals, one engine.

Every coefficient here is a function of sums over units of per-unit
features of the value counts ``n[u, c]`` (:func:`value_counts`), so the unit
bootstrap is the holdout engine's: sums of unit features under multinomial
draws over the distinct count rows (:class:`~..holdout._fast_metrics.Resampler`).

Krippendorff's alpha (Krippendorff 2011), from the coincidence matrix::

    o[c, k] = sum_u (n[u, c] n[u, k] - [c = k] n[u, c]) / (m_u - 1)   (m_u >= 2)
    n_c = sum_k o[c, k],  n = sum_c n_c
    alpha = 1 - (n - 1) sum o[c, k] delta[c, k] / sum n_c n_k delta[c, k]

The kappa family in Gwet's generalized form (Gwet 2014, Handbook of
Inter-Rater Reliability, 4th ed., ch. 2-3), with agreement weights ``w``::

    p_a = mean over units with r_u >= 2 of
          sum_c n[u, c] (n*[u, c] - 1) / (r_u (r_u - 1)),  n* = n w
    pi_c = mean over units with r_u >= 1 of n[u, c] / r_u
    Fleiss:  p_e = sum_ck w[c, k] pi_c pi_k
    Gwet:    p_e = sum(w) / (q (q - 1)) sum_c pi_c (1 - pi_c)
    coefficient = (p_a - p_e) / (1 - p_e)
"""

import functools
import textwrap
import warnings
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np

from ..holdout._fast_metrics import Resampler, run_resamples
from ..holdout._resampling import (
    _bounds,
    _fast_bootstrap_block,
    _kappa_resampler,
    _warn_degenerate,
    _warn_nan,
)
from ..utils._param_validation import (
    Interval,
    StrOptions,
    _is_sparse,
    validate_params,
)
from ..utils._random import _generator
from ..utils._results import (
    ConfidenceInterval,
    _interval_text,
    _level_text,
    _ResultMixin,
)
from ..utils._scaling import rescaled
from ..utils._validation import CONFIDENCE_LEVEL, N_JOBS, RANDOM_STATE
from ._data import _numeric_domain, check_reliability_data, value_counts
from ._options import COEFFICIENTS, LEVELS, WEIGHTS

# the agreement weights that match each level of measurement (Gwet 2014, 3.4)
LEVEL_WEIGHTS = {
    "nominal": None,
    "ordinal": "ordinal",
    "interval": "quadratic",
    "ratio": "ratio",
}

LEVEL = [StrOptions(set(LEVELS)), callable]
WEIGHTS_OPTIONS = [StrOptions(set(WEIGHTS)), None]
VALUE_DOMAIN = ["array-like", None]


# -- weights and distances ----------------------------------------------------


def _scale(domain):
    """The numbers of the scale: the values if numbers, else their ranks.

    Numbers are divided by the power of two at or above their largest
    magnitude, exactly: every weight and distance of this module is a ratio
    that does not depend on the unit, and on values in [-1, 1] no difference,
    square or sum overflows or underflows (1e300 or 1e-300 give the alpha of
    1; without this, NaN).
    """
    if not _numeric_domain(domain):
        return np.arange(domain.size, dtype=np.float64)
    _, (x,) = rescaled(domain.astype(np.float64))
    return x


def _ratio_terms(x):
    """``((x_c - x_k) / (x_c + x_k))^2``, 0 where both are 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        r = ((x[:, None] - x[None, :]) / (x[:, None] + x[None, :])) ** 2
    return np.nan_to_num(r, nan=0.0)


def agreement_weights(domain, weights):
    """Gwet's agreement weights ``w[c, k]``, 1 on the diagonal (Gwet 2014, 3.4)."""
    q = domain.size
    if weights is None or q < 2:
        return np.eye(q)
    if weights == "ordinal":
        # w = 1 - C(|c - k| + 1, 2) / C(q, 2), on the ranks
        d = np.abs(np.arange(q)[:, None] - np.arange(q)[None, :])
        m = d * (d + 1) / 2
        return 1.0 - m / m.max()
    x = _scale(domain)
    if weights == "ratio":
        r = _ratio_terms(x)
        return 1.0 - r / r.max()
    diff = np.abs(x[:, None] - x[None, :]) / (x.max() - x.min())
    if weights == "linear":
        return 1.0 - diff
    if weights == "quadratic":
        return 1.0 - diff**2
    return 1.0 - np.sqrt(diff)  # radical


def _distance(domain, level):
    """Krippendorff's metric ``delta[c, k]`` for the levels that do not depend
    on the marginals (all but ordinal); a callable is called on each pair."""
    if level == "nominal":
        return 1.0 - np.eye(domain.size)
    if callable(level):
        d = np.array([[level(a, b) for b in domain] for a in domain], dtype=float)
        if not np.all(np.isfinite(d)) or np.any(d < 0):
            raise ValueError(
                "level_of_measurement, a distance function, returned negative or "
                f"non-finite values on the value domain: {d.tolist()!r}."
            )
        return d
    x = _scale(domain)
    if level == "interval":
        return (x[:, None] - x[None, :]) ** 2
    return _ratio_terms(x)


def _ordinal_distance(n_c):
    """Krippendorff's ordinal metric from the values' totals ``n_c`` (..., q).

    ``delta[c, k] = (sum_{g=c}^{k} n_g - (n_c + n_k) / 2)^2 = (M_k - M_c)^2``
    with the midranks ``M_c = sum_{g <= c} n_g - n_c / 2``.
    """
    mid = np.cumsum(n_c, axis=-1) - n_c / 2
    return (mid[..., :, None] - mid[..., None, :]) ** 2


# -- per-unit features and the coefficients of their sums ---------------------


def _alpha_of_sums(sums, delta, q, agreements=False):
    """Alpha of (c, d) sums of alpha features; with ``agreements``, also the
    observed and expected agreement ``1 - D / max delta``.

    With a fixed ``delta`` the features are ``[do_u, n[u, :]]``, ``do_u =
    n_u' delta n_u / (m_u - 1)``; for the ordinal metric, the unit's
    coincidences ``o_u`` (q * q), since delta depends on the totals.
    """
    if delta is None:
        o = sums.reshape(-1, q, q)
        n_c = o.sum(axis=2)
        d = _ordinal_distance(n_c)
        observed = np.einsum("rck,rck->r", o, d)
        expected = np.einsum("rc,rck,rk->r", n_c, d, n_c)
    else:
        n_c = sums[:, 1:]
        d = delta[None]
        observed = sums[:, 0]
        expected = np.einsum("rc,ck,rk->r", n_c, delta, n_c)
    n = n_c.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        # D_o = observed / n, D_e = expected / (n (n - 1))
        d_o = observed / n
        d_e = expected / (n * (n - 1))
        alpha = 1.0 - d_o / d_e
        if not agreements:
            return alpha
        present = n_c[0] > 0
        top = d[0][np.ix_(present, present)].max()
        return alpha, 1.0 - d_o / top, 1.0 - d_e / top


def _unit_coincidences(counts):
    """Each unit's coincidences, (u, q, q) (Krippendorff 2011, the coincidence
    matrix): ``o_u[c, k] = (n_uc n_uk - [c = k] n_uc) / (m_u - 1)``."""
    q = counts.shape[1]
    o = (counts[:, :, None] * counts[:, None, :]).astype(np.float64)
    o[:, np.arange(q), np.arange(q)] -= counts
    return o / (counts.sum(axis=1) - 1)[:, None, None]


def _alpha_features(counts, level, domain):
    q = domain.size
    if level == "ordinal":
        features = _unit_coincidences(counts).reshape(-1, q * q)
        return features, functools.partial(_alpha_of_sums, delta=None, q=q)
    delta = _distance(domain, level)
    do = np.einsum("uc,ck,uk->u", counts, delta, counts) / (counts.sum(axis=1) - 1)
    features = np.column_stack([do, counts])
    return features, functools.partial(_alpha_of_sums, delta=delta, q=q)


def _kappa_of_sums(sums, w, chance, agreements=False):
    """The coefficient of (c, q + 3) sums ``[pa_u, r_u >= 2, r_u >= 1,
    n[u, :] / r_u]``; with ``agreements``, also ``p_a`` and ``p_e``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p_a = sums[:, 0] / sums[:, 1]
        pi = sums[:, 3:] / sums[:, 2:3]
        q = w.shape[0]
        if chance == "fleiss":
            p_e = np.einsum("rc,ck,rk->r", pi, w, pi)
        elif chance == "gwet":
            p_e = w.sum() / (q * (q - 1)) * np.sum(pi * (1 - pi), axis=1)
        else:  # raw agreement: no chance term
            return (p_a, p_a, np.full_like(p_a, np.nan)) if agreements else p_a
        value = (p_a - p_e) / (1 - p_e)
        return (value, p_a, p_e) if agreements else value


def _kappa_features(counts, w):
    r = counts.sum(axis=1).astype(np.float64)
    weighted = counts @ w
    with np.errstate(invalid="ignore", divide="ignore"):
        pa = np.sum(counts * (weighted - 1), axis=1) / (r * (r - 1))
        share = counts / r[:, None]
    two = r >= 2
    return np.column_stack([np.where(two, pa, 0.0), two, r >= 1, share])


_CHANCE = {
    "fleiss_kappa": "fleiss",
    "scotts_pi": "fleiss",
    "gwet_ac": "gwet",
    "percent_agreement": None,
}


@dataclass(frozen=True)
class _Units:
    """The distinct count rows of the units a coefficient uses, their unit
    counts and features, and the coefficient of feature sums."""

    features: np.ndarray
    counts: np.ndarray
    of_sums: object
    n_units: int
    n_coders: int
    n_pairable: int
    pairable_values: np.ndarray = None
    rows: np.ndarray = None
    domain: np.ndarray = None

    def totals(self):
        return (self.counts[:, None] * self.features).sum(axis=0, keepdims=True)

    def values(self, sums):
        """(coefficient, observed agreement, expected agreement) of sums."""
        return tuple(float(v[0]) for v in self.of_sums(sums, agreements=True))

    def jackknife(self):
        """The coefficient without one unit of each row, and the rows' units."""
        rest = self.totals() - self.features
        return self.of_sums(rest), self.counts

    def resampler(self):
        return Resampler([self.features], self.counts)


def _distinct_rows(counts, n_coders):
    """The distinct rows of value counts and how many units have each.

    A row's counts are digits in base ``n_coders + 1``: one integer key per
    unit, so one sort of integers rather than of rows.
    """
    base = n_coders + 1
    q = counts.shape[1]
    if q * np.log2(base) >= 62:
        return np.unique(counts, axis=0, return_counts=True)
    keys = counts @ (base ** np.arange(q, dtype=np.int64))
    _, first, n_per_row = np.unique(keys, return_index=True, return_counts=True)
    return counts[first], n_per_row


def _prepare(
    reliability_data,
    coefficient,
    level_of_measurement,
    weights,
    value_domain,
    stacklevel=4,
):
    """Check the data once and build the coefficient's :class:`_Units`;
    ``stacklevel`` of its warnings counts from this function."""
    level = level_of_measurement if coefficient == "krippendorff_alpha" else "nominal"
    if coefficient != "krippendorff_alpha" and weights is not None:
        level = "ordinal"  # weights need ordered values, as an ordinal scale does
    codes, domain = check_reliability_data(
        reliability_data,
        value_domain,
        level_of_measurement=level,
        stacklevel=stacklevel + 1,
    )
    n_coders = codes.shape[0]
    if coefficient == "scotts_pi" and n_coders != 2:
        raise ValueError(
            f"Scott's pi is for 2 coders; reliability_data has {n_coders}. Its "
            "generalization to any number of coders is fleiss_kappa."
        )
    counts = value_counts(codes, domain.size)
    r = counts.sum(axis=1)
    # alpha pairs values within units: units with one value do not count;
    # the kappa family's chance term uses every unit with a value
    counts = counts[r >= (2 if coefficient == "krippendorff_alpha" else 1)]
    rows, n_per_row = _distinct_rows(counts, n_coders)
    if domain.size < 2:
        warnings.warn(
            f"every value in reliability_data is {domain[0]!r}: with one value "
            f"there is no chance agreement to correct for, and {coefficient} is "
            "undefined (NaN).",
            RuntimeWarning,
            stacklevel=stacklevel,
        )
    if coefficient == "krippendorff_alpha":
        features, of_sums = _alpha_features(rows, level_of_measurement, domain)
    else:
        w = agreement_weights(domain, weights)
        features = _kappa_features(rows, w)
        of_sums = functools.partial(_kappa_of_sums, w=w, chance=_CHANCE[coefficient])
    return _Units(
        features=features,
        counts=n_per_row,
        of_sums=of_sums,
        n_units=int(counts.shape[0]),
        n_coders=n_coders,
        n_pairable=int(np.count_nonzero(counts.sum(axis=1) >= 2)),
        pairable_values=counts[counts.sum(axis=1) >= 2].sum(axis=0),
        rows=rows,
        domain=domain,
    )


def _point(reliability_data, coefficient, level_of_measurement, weights, value_domain):
    units = _prepare(
        reliability_data,
        coefficient,
        level_of_measurement,
        weights,
        value_domain,
        stacklevel=5,
    )
    return units.values(units.totals())[0]


# -- point estimates ----------------------------------------------------------


@validate_params(
    {
        "reliability_data": ["array-like"],
        "level_of_measurement": LEVEL,
        "value_domain": VALUE_DOMAIN,
    },
    prefer_skip_nested_validation=True,
)
def krippendorff_alpha(
    reliability_data, *, level_of_measurement="nominal", value_domain=None
):
    """Krippendorff's alpha reliability coefficient.

    ``alpha = 1 - D_o / D_e``: the observed disagreement between the values
    coders gave the same unit, over the disagreement expected by chance,
    from the coincidence matrix (Krippendorff 2011). Any number of coders,
    any pattern of missing values; units with fewer than 2 values do not
    count.

    Parameters
    ----------
    reliability_data : array-like of shape (n_coders, n_units)
        One row per coder, one column per unit; NaN or None where a coder
        did not code a unit. Numbers or strings. More coders than units (the
        units x coders layout of statsmodels and irrCAC) is a warning: pass
        ``reliability_data.T``.
    level_of_measurement : {"nominal", "ordinal", "interval", "ratio"} or \
callable, default="nominal"
        The metric of disagreement ``delta``: nominal (different or not),
        ordinal (by the values' ranks and frequencies), interval (squared
        difference), ratio (squared difference over the sum). A callable
        ``distance(a, b)`` on two values gives a metric of your own.
    value_domain : array-like, default=None
        Every value the scale has, in order. Default: the values seen,
        sorted. Needed to order strings on an ordinal scale; values no coder
        used change the ordinal metric only through their order.

    Returns
    -------
    alpha : float
        1 for perfect agreement, 0 for agreement at chance, below 0 for
        systematic disagreement; NaN when every value is the same.

    See Also
    --------
    agreement_confidence_interval : Its interval, by the unit bootstrap.
    coder_diagnostics : Alpha without each coder, and pairwise.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
    University of Pennsylvania, Annenberg School for Communication.

    Examples
    --------
    Krippendorff's (2011) example: 4 coders, 12 units, values 1-5.

    >>> import numpy as np
    >>> from sklearn_faithful.agreement import krippendorff_alpha
    >>> nan = np.nan
    >>> data = [
    ...     [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...     [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...     [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...     [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ... ]
    >>> round(krippendorff_alpha(data), 3)
    0.743
    >>> round(krippendorff_alpha(data, level_of_measurement="interval"), 3)
    0.849
    """
    return _point(
        reliability_data, "krippendorff_alpha", level_of_measurement, None, value_domain
    )


_KAPPA_PARAMS = {
    "reliability_data": ["array-like"],
    "weights": WEIGHTS_OPTIONS,
    "value_domain": VALUE_DOMAIN,
}


def _fill_params(doc, params):
    """Put the shared parameter lines where ``{params}`` stands, at its indent
    (Python 3.13 dedents docstrings, earlier versions do not)."""
    line = next(x for x in doc.splitlines() if x.strip() == "{params}")
    indent = line[: len(line) - len(line.lstrip())]
    block = textwrap.indent(params, indent)
    return doc.replace(line, block)


_KAPPA_DOC_PARAMS = """\
reliability_data : array-like of shape (n_coders, n_units)
    One row per coder, one column per unit; NaN or None where a coder
    did not code a unit.
weights : {None, "linear", "quadratic", "ordinal", "radical", "ratio"}, \
default=None
    Gwet's agreement weights: None counts only identical values as
    agreeing (nominal data); the others give partial credit by distance
    on the value scale (the values if numbers, else their ranks in
    ``value_domain``).
value_domain : array-like, default=None
    Every value the scale has, in order. Default: the values seen,
    sorted. Categories no coder used change the weights and Gwet's
    chance term."""


@validate_params(_KAPPA_PARAMS, prefer_skip_nested_validation=True)
def fleiss_kappa(reliability_data, *, weights=None, value_domain=None):
    """Fleiss' kappa, generalized to missing values and weights (Gwet 2014).

    ``kappa = (p_a - p_e) / (1 - p_e)``: the agreement among pairs of
    coders on a unit, ``p_a``, corrected for the agreement ``p_e`` two coders
    drawing from the values' overall shares would reach.

    Parameters
    ----------
    {params}

    Returns
    -------
    kappa : float

    See Also
    --------
    gwet_ac : Whose chance term does not collapse when one value dominates.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many
    raters. Psychological Bulletin, 76(5), 378-382.

    Examples
    --------
    >>> from sklearn_faithful.agreement import fleiss_kappa
    >>> data = [["a", "a", "b", "b", "a"], ["a", "b", "b", "b", "a"],
    ...         ["a", "a", "b", "a", "a"]]
    >>> round(fleiss_kappa(data), 3)
    0.444
    """
    return _point(reliability_data, "fleiss_kappa", "nominal", weights, value_domain)


@validate_params(_KAPPA_PARAMS, prefer_skip_nested_validation=True)
def scotts_pi(reliability_data, *, weights=None, value_domain=None):
    """Scott's pi for two coders: Fleiss' kappa of two rows.

    With no missing value this is Scott's (1955) pi; with missing values,
    Gwet's (2014) generalization, as :func:`fleiss_kappa` computes it.

    Parameters
    ----------
    {params}

    Returns
    -------
    pi : float

    Examples
    --------
    >>> from sklearn_faithful.agreement import scotts_pi
    >>> round(scotts_pi([[1, 1, 2, 2, 1, 1], [1, 2, 2, 2, 1, 1]]), 3)
    0.657
    """
    return _point(reliability_data, "scotts_pi", "nominal", weights, value_domain)


@validate_params(_KAPPA_PARAMS, prefer_skip_nested_validation=True)
def gwet_ac(reliability_data, *, weights=None, value_domain=None):
    """Gwet's AC1 (no weights) or AC2 (weights) agreement coefficient.

    Chance agreement ``p_e = sum(w) / (q (q - 1)) sum_c pi_c (1 - pi_c)``
    shrinks as one value dominates, where Fleiss' and Cohen's grows: high
    raw agreement on a skewed scale keeps a high AC1 while kappa collapses
    (the prevalence paradox).

    Parameters
    ----------
    {params}

    Returns
    -------
    ac : float

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance
    in the presence of high agreement. British Journal of Mathematical and
    Statistical Psychology, 61(1), 29-48.

    Examples
    --------
    Nine units of ten are "no" for both coders; they differ on one:

    >>> from sklearn_faithful.agreement import fleiss_kappa, gwet_ac
    >>> data = [["no"] * 9 + ["yes"], ["no"] * 10]
    >>> round(fleiss_kappa(data), 3), round(gwet_ac(data), 3)
    (-0.053, 0.89)
    """
    return _point(reliability_data, "gwet_ac", "nominal", weights, value_domain)


@validate_params(_KAPPA_PARAMS, prefer_skip_nested_validation=True)
def percent_agreement(reliability_data, *, weights=None, value_domain=None):
    """The share of agreeing pairs of coders, averaged over units: ``p_a``.

    Not corrected for chance; it is the observed agreement the other
    coefficients start from, and what the prevalence paradox inflates.

    Parameters
    ----------
    {params}

    Returns
    -------
    p_a : float

    Examples
    --------
    >>> from sklearn_faithful.agreement import percent_agreement
    >>> data = [["no"] * 9 + ["yes"], ["no"] * 10]
    >>> percent_agreement(data)
    0.9
    """
    return _point(
        reliability_data, "percent_agreement", "nominal", weights, value_domain
    )


for _f in (fleiss_kappa, scotts_pi, gwet_ac, percent_agreement):
    _f.__doc__ = _fill_params(_f.__doc__, _KAPPA_DOC_PARAMS)


# -- intervals ----------------------------------------------------------------


@dataclass(frozen=True)
class AgreementInterval(_ResultMixin):
    """Result of :func:`agreement_confidence_interval`.

    Attributes
    ----------
    statistic : float
        The coefficient on the data.
    confidence_interval : ConfidenceInterval
        Its interval at ``confidence_level``.
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The coefficient on each resample.
    standard_error : float
        Standard deviation of the bootstrap distribution.
    confidence_level : float
        Level of the interval.
    coefficient : str
        Which coefficient (``"krippendorff_alpha"``, ``"fleiss_kappa"``, ...).
    scale : str
        The level of measurement (alpha) or the weights (the kappa family;
        ``"identity"`` when unweighted).
    weighted : bool
        Whether near values agree in part (weights other than identity, or
        alpha at any level but nominal): ``observed_agreement`` is then
        weighted agreement, not the share of pairs of identical values.
    observed_agreement : float
        The agreement the coefficient starts from (``p_a``; for alpha
        ``1 - D_o / max delta``).
    expected_agreement : float
        The agreement expected by chance (``p_e``; for alpha ``1 - D_e / max
        delta``), so that the coefficient is ``(observed - expected) / (1 -
        expected)``; NaN for ``"percent_agreement"``, which has no chance
        term.
    method : str
        ``"bootstrap"`` (units resampled) or ``"krippendorff"`` (pairs drawn
        from the coincidence matrix, Hayes and Krippendorff 2007).
    interval : str
        ``"percentile"`` or ``"bca"``.
    n_units : int
        Units the coefficient uses (for alpha, those with 2 values or more).
    n_coders : int
        Coders (rows).
    n_resamples : int
        Resamples drawn.
    n_nan : int
        Resamples on which the coefficient was NaN (left out).
    """

    statistic: float
    confidence_interval: ConfidenceInterval
    bootstrap_distribution: np.ndarray = field(repr=False)
    standard_error: float
    confidence_level: float
    coefficient: str
    scale: str
    weighted: bool
    observed_agreement: float
    expected_agreement: float
    method: str
    interval: str
    n_units: int
    n_coders: int
    n_resamples: int
    n_nan: int

    _not_in_dict = ("bootstrap_distribution",)

    def summary(self):
        """Describe the coefficient and its interval in one paragraph.

        Returns
        -------
        text : str
        """
        how = (
            "unit bootstrap" if self.method == "bootstrap" else "Krippendorff bootstrap"
        )
        chance = (
            "no chance term"
            if np.isnan(self.expected_agreement)
            else f"by chance {self.expected_agreement:.4f}"
        )
        scale = f"{self.scale} weights" if self.weighted else self.scale
        if self.coefficient == "krippendorff_alpha":
            scale = self.scale
        return (
            f"{self.coefficient} ({scale}) = {self.statistic:.4f}, "
            f"{_level_text(self.confidence_level)} {self.interval} {how} interval "
            f"{_interval_text(self.confidence_interval)}; "
            f"{'weighted ' if self.weighted else ''}observed agreement "
            f"{self.observed_agreement:.4f}, {chance}; {self.n_units} units, "
            f"{self.n_coders} coders, {self.n_resamples} resamples"
            + (f" ({self.n_nan} NaN left out)" if self.n_nan else "")
        )


def _krippendorff_block(rng, size, *, n_pairs, shares, delta, expected):
    """Alpha of ``size`` bootstraps of Hayes and Krippendorff (2007): ``n_pairs``
    pairs of values drawn from the coincidences, ``alpha = 1 - sum delta /
    (n_pairs D_e)``, clipped at -1 (the KALPHA macro)."""
    drawn = rng.multinomial(n_pairs, shares, size=size)
    return np.maximum(1.0 - (drawn @ delta) / (n_pairs * expected), -1.0)


def _krippendorff_bootstrap(units, level, n_resamples, rng, n_jobs, verbose):
    """Hayes and Krippendorff's bootstrap of alpha, as their KALPHA macro.

    The unordered pairs (c <= k) are drawn with the probabilities of the
    coincidence matrix, ``o_cc / n`` and ``2 o_ck / n``; each bootstrap draws
    ``M = min(25 q, (m - 1) n / 2)`` of them (q: non-zero coincidence
    cells, m: coders). A bootstrap alpha of 1 is set to 0 in as many samples
    as all-agreeing pair sets are expected by chance (``B sum_c (o_cc /
    n)^P``, P pairs in the data) when more than one value occurs. ``units``
    are alpha's (:func:`_prepare`): the distinct rows of the pairable units.
    """
    rows, per_row, domain = units.rows, units.counts, units.domain
    q = domain.size
    o = np.einsum("r,rck->ck", per_row, _unit_coincidences(rows))
    n_c = o.sum(axis=1)
    n = n_c.sum()
    delta = _ordinal_distance(n_c) if level == "ordinal" else _distance(domain, level)
    expected = (n_c @ delta @ n_c) / (n * (n - 1))
    upper = np.triu_indices(q)
    shares = np.where(upper[0] == upper[1], 1.0, 2.0) * o[upper] / n
    shares = np.clip(shares, 0, None) / shares.sum()
    n_pairs = int(min(25 * np.count_nonzero(o > 1e-12), (units.n_coders - 1) * n / 2))
    draw = functools.partial(
        _krippendorff_block,
        n_pairs=n_pairs,
        shares=shares,
        delta=delta[upper],
        expected=expected,
    )
    dist = run_resamples(
        draw,
        rng,
        n_resamples,
        n_jobs=n_jobs,
        verbose=verbose,
        name="agreement_confidence_interval",
    )
    diagonal = np.diag(o) / n
    if np.count_nonzero(diagonal) > 1:
        m = rows.sum(axis=1)
        n_pairs_data = float(np.sum(per_row * m * (m - 1) / 2))
        expected_ones = int(round(n_resamples * np.sum(diagonal**n_pairs_data)))
        ones = np.flatnonzero(dist == 1.0)[:expected_ones]
        dist[ones] = 0.0
    return dist


_INTERVAL_PARAMS = {
    "reliability_data": ["array-like"],
    "coefficient": [StrOptions(set(COEFFICIENTS))],
    "level_of_measurement": LEVEL,
    "weights": WEIGHTS_OPTIONS,
    "value_domain": VALUE_DOMAIN,
    "method": [StrOptions({"bootstrap", "krippendorff"})],
    "interval": [StrOptions({"percentile", "bca"}), None],
    "confidence_level": CONFIDENCE_LEVEL,
    "n_resamples": [Interval(Integral, 2, None, closed="left")],
    "random_state": RANDOM_STATE,
    "n_jobs": N_JOBS,
    "verbose": ["verbose"],
}


# Fewer units with 2 values or more than this, and the 95% BCa interval of
# alpha and Fleiss' kappa (Scott's pi, and Cohen's kappa beside them) covered
# less than 93.5% in the coverage study (benchmarks/sim_agreement.py, seed
# 20261126, doc/agreement.rst); AC2 needed 100-200 units, AC1 held from 20.
MIN_UNITS = {"chance": 50, "weighted gwet": 100}

# (share of the most common value at least, what the coverage study measured
# below 50 units with it), the first that applies (doc/agreement.rst)
FEW_UNITS_COVERAGE = (
    (0.95, "(one value at 97%) covered 44-67% at 20 units, 59-79% at 30 and "
     "76-91% at 50"),
    (0.85, "(one value at 90%) covered as little as 78% at 20 units and 88% at 30"),
    (0.0, "(no value above 85%) covered 93.5% or more only from 50 units"),
)  # fmt: skip


def _warn_few_units(units, coefficient, weights, stacklevel=4):
    """Warn, with the data's numbers, when too few units have 2 values.

    The text depends on the data only (not on which coefficient of the
    kappa family, or alpha), so that a report of several says it once.
    """
    if coefficient == "percent_agreement" or (
        coefficient == "gwet_ac" and weights is None
    ):
        return
    key = "weighted gwet" if coefficient == "gwet_ac" else "chance"
    if units.n_pairable >= MIN_UNITS[key]:
        return
    values = units.pairable_values
    top = int(np.argmax(values))
    share = values[top] / values.sum()
    have = (
        f"reliability_data has {units.n_pairable} units with values from 2 coders "
        f"or more ({int(values.sum())} values of {units.n_coders} coders; the most "
        f"common, {units.domain[top].item()!r}, is {share:.0%} of them)"
    )
    if key == "weighted gwet":
        measured = "AC2's 95% interval covered 76-93% below 100 units"
    else:
        seen = next(text for least, text in FEW_UNITS_COVERAGE if share >= least)
        measured = (
            f"the 95% interval of alpha and the kappa family on data like these {seen}"
        )
    warnings.warn(
        f"{have}, fewer than {MIN_UNITS[key]}. In our coverage study "
        f"(benchmarks/sim_agreement.py), {measured}: read the interval as "
        "optimistic" + ("; Gwet's AC1 held from 20 units." if key == "chance" else "."),
        RuntimeWarning,
        stacklevel=stacklevel,
    )


def _check_scale(coefficient, level_of_measurement, weights):
    """Alpha takes a level of measurement, the kappa family weights: the
    other one would be silently ignored."""
    if coefficient == "krippendorff_alpha" and weights is not None:
        raise ValueError(
            f"weights={weights!r} are the kappa family's; Krippendorff's alpha "
            "takes level_of_measurement ('ordinal', 'interval', 'ratio') instead."
        )
    if coefficient != "krippendorff_alpha" and level_of_measurement != "nominal":
        level = getattr(level_of_measurement, "__name__", level_of_measurement)
        raise ValueError(
            f"level_of_measurement={level!r} is Krippendorff's alpha's; "
            f"coefficient={coefficient!r} takes weights instead (ordinal data: "
            "weights='ordinal', interval: 'quadratic', ratio: 'ratio')."
        )


def _scale_name(coefficient, level_of_measurement, weights):
    if coefficient == "krippendorff_alpha":
        return getattr(level_of_measurement, "__name__", str(level_of_measurement))
    return weights or "identity"


@validate_params(_INTERVAL_PARAMS, prefer_skip_nested_validation=True)
def agreement_confidence_interval(
    reliability_data,
    *,
    coefficient="krippendorff_alpha",
    level_of_measurement="nominal",
    weights=None,
    value_domain=None,
    method="bootstrap",
    interval=None,
    confidence_level=0.95,
    n_resamples=9999,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Confidence interval of an agreement coefficient.

    The default resamples units with replacement, all of a unit's values
    together: the units are the sample, the coders fixed. It runs on the
    holdout engine, as sums of per-unit features under multinomial draws
    over the distinct rows of value counts. ``method="krippendorff"`` is
    Hayes and Krippendorff's (2007) bootstrap of alpha, exactly as their
    KALPHA macro computes it.

    Parameters
    ----------
    reliability_data : array-like of shape (n_coders, n_units)
        One row per coder, one column per unit; NaN or None where missing.
    coefficient : {"krippendorff_alpha", "fleiss_kappa", "gwet_ac", \
"scotts_pi", "cohen_kappa", "percent_agreement"}, default="krippendorff_alpha"
        Which coefficient. ``"cohen_kappa"`` (2 coders, the units both
        coded) resamples the agreement cells of
        :func:`~sklearn_faithful.holdout.kappa_confidence_interval`: with
        ``interval="percentile"`` it is that function's interval.
    level_of_measurement : {"nominal", "ordinal", "interval", "ratio"} or \
callable, default="nominal"
        Alpha's metric, as in :func:`krippendorff_alpha`; the other
        coefficients refuse any level but "nominal" (they take ``weights``).
    weights : {None, "linear", "quadratic", "ordinal", "radical", "ratio"}, \
default=None
        The kappa family's weights, as in :func:`fleiss_kappa` (Cohen's kappa
        takes None, "linear" or "quadratic"); alpha refuses them.
    value_domain : array-like, default=None
        Every value of the scale, in order.
    method : {"bootstrap", "krippendorff"}, default="bootstrap"
        Resample units, or (alpha only) draw pairs from the coincidences as
        Hayes and Krippendorff's macro does. The latter treats the pairs of
        one unit as independent: its 95% interval covered 39-75% on 5-point
        ratings by 10 coders, and 98-100% (too wide) from 100 units of two
        categories.
    interval : {"percentile", "bca"} or None, default=None
        The bootstrap interval; None is BCa for the unit bootstrap and the
        percentile interval for Krippendorff's (his macro's). BCa covered
        93.5% or more from 50 units in every setting of the coverage study
        where the percentile interval needed 100-200 (user guide,
        :ref:`agreement-coverage`).
    confidence_level : float, default=0.95
        Level of the interval.
    n_resamples : int, default=9999
        Resamples to draw.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the resamples; the result is the same for any ``n_jobs``.
    n_jobs : int, default=None
        Jobs for the resamples; -1 uses every core.
    verbose : int, default=0
        Print progress on stderr.

    Returns
    -------
    result : AgreementInterval

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.agreement import agreement_confidence_interval
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 3, 200)
    >>> data = np.where(rng.random((3, 200)) < 0.8, truth, rng.integers(0, 3, (3, 200)))
    >>> res = agreement_confidence_interval(data, random_state=0)
    >>> round(res.statistic, 3), res.n_units
    (0.644, 200)
    >>> print(res.confidence_interval)
    ConfidenceInterval(low=0.57..., high=0.71...)
    """
    rng = _generator(random_state)
    scale = _scale_name(coefficient, level_of_measurement, weights)
    if method == "krippendorff" and coefficient != "krippendorff_alpha":
        raise ValueError(
            f"method='krippendorff' is Krippendorff's bootstrap of alpha; "
            f"coefficient={coefficient!r} takes method='bootstrap'."
        )
    _check_scale(coefficient, level_of_measurement, weights)
    if interval is None:
        interval = "bca" if method == "bootstrap" else "percentile"
    if method == "krippendorff" and interval != "percentile":
        raise ValueError(
            "method='krippendorff' gives the percentile interval of Krippendorff's "
            f"bootstrap, as his macro does; got interval={interval!r}."
        )
    if coefficient == "cohen_kappa":
        units = _cohen_units(reliability_data, weights, value_domain)
    else:
        units = _prepare(
            reliability_data, coefficient, level_of_measurement, weights, value_domain
        )
    statistic, observed, expected = units.values(units.totals())
    if method == "krippendorff":
        dist = _krippendorff_bootstrap(
            units, level_of_measurement, n_resamples, rng, n_jobs, verbose
        )
    else:
        draw = functools.partial(
            _fast_bootstrap_block,
            resampler=units.resampler(),
            metric_of=units.of_sums,
        )
        dist = run_resamples(
            draw,
            rng,
            n_resamples,
            n_jobs=n_jobs,
            verbose=verbose,
            name="agreement_confidence_interval",
        )
    _warn_few_units(units, coefficient, weights)
    n_nan = _warn_nan(
        dist,
        coefficient,
        remedy="A resample is NaN when all its values are the same (no chance "
        "agreement to correct for); use more units.",
    )
    degenerate = _warn_degenerate(dist, coefficient)
    bounds = _bounds(
        dist,
        statistic,
        confidence_level,
        interval,
        "two-sided",
        degenerate=degenerate,
        jackknife=units.jackknife,
        stacklevel=4,
    )
    return AgreementInterval(
        statistic=statistic,
        confidence_interval=bounds,
        bootstrap_distribution=dist,
        standard_error=float(np.nanstd(dist, ddof=1)),
        confidence_level=float(confidence_level),
        coefficient=coefficient,
        scale=scale,
        weighted=scale not in ("nominal", "identity"),
        observed_agreement=observed,
        expected_agreement=expected,
        method=method,
        interval=interval,
        n_units=units.n_units,
        n_coders=units.n_coders,
        n_resamples=n_resamples,
        n_nan=n_nan,
    )


def _cohen_of_sums(sums, kappa, k, agreements=False):
    """Cohen's kappa of (c, 2k + 1) sums of holdout's agreement cells (row
    label, column label, disagreement weight); with ``agreements``, also
    ``p_o = 1 - sum w C / (N max w)`` and ``p_e = 1 - sum w E / (N max w)``."""
    value = kappa(sums)
    if not agreements:
        return value
    n = sums[:, :k].sum(axis=1)
    w_max = kappa.keywords["w"].max()
    with np.errstate(invalid="ignore", divide="ignore"):
        p_o = 1.0 - sums[:, 2 * k] / (n * w_max)
        return value, p_o, 1.0 - (1.0 - p_o) / (1.0 - value)


def _cohen_units(reliability_data, weights, value_domain):
    """Cohen's kappa's :class:`_Units`: holdout's agreement cells (one home for
    the kappa of two raters), on the units both coders coded."""
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(
            f"coefficient='cohen_kappa' takes weights None, 'linear' or "
            f"'quadratic' (scikit-learn's cohen_kappa_score); got {weights!r}."
        )
    codes, domain = check_reliability_data(
        reliability_data,
        value_domain,
        level_of_measurement="nominal" if weights is None else "ordinal",
        stacklevel=5,
    )
    if codes.shape[0] != 2:
        raise ValueError(
            f"Cohen's kappa is for 2 coders; reliability_data has {codes.shape[0]}. "
            "For more, use fleiss_kappa, gwet_ac or krippendorff_alpha."
        )
    both = (codes >= 0).all(axis=0)
    y1, y2 = codes[:, both]
    resampler, kappa, _ = _kappa_resampler(y1, y2, weights)
    features = resampler.features[0]
    features = features.toarray() if _is_sparse(features) else features
    k = (features.shape[1] - 1) // 2
    return _Units(
        features=features,
        counts=resampler.counts,
        of_sums=functools.partial(_cohen_of_sums, kappa=kappa, k=k),
        n_units=int(y1.size),
        n_coders=2,
        n_pairable=int(y1.size),
        pairable_values=np.bincount(np.concatenate([y1, y2]), minlength=domain.size),
        domain=domain,
    )

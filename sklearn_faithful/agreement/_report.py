"""Every coefficient at once, and each coder's agreement with the rest."""

import contextlib
import warnings
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np

from ..utils._param_validation import Interval, StrOptions, validate_params
from ..utils._results import _interval_text, _level_text, _ResultMixin, _text_table
from ..utils._validation import CONFIDENCE_LEVEL, N_JOBS, RANDOM_STATE
from ._coefficients import (
    LEVEL,
    LEVEL_WEIGHTS,
    VALUE_DOMAIN,
    _alpha_features,
    agreement_confidence_interval,
)
from ._data import (
    LayoutWarning,
    check_coder_names,
    check_reliability_data,
    value_counts,
)

# the most common value's share of all values above which chance agreement
# dominates kappa and alpha (the prevalence paradox), said in the summary
DOMINANT_SHARE = 0.8


def _alpha_of_codes(codes, domain, level):
    """Alpha of already checked codes; NaN without a pairable unit."""
    counts = value_counts(codes, domain.size)
    counts = counts[counts.sum(axis=1) >= 2]
    if counts.shape[0] == 0:
        return np.nan
    features, of_sums = _alpha_features(counts, level, domain)
    return float(of_sums(features.sum(axis=0, keepdims=True))[0])


def _number(value):
    return "n/a" if np.isnan(value) else f"{value:.4f}"


@contextlib.contextmanager
def _warned_once(stacklevel):
    """Say each warning of the calls inside once, at the user's line.

    The report runs one interval per coefficient; each would warn of the
    same few units or the same single value, and under an ``"always"``
    filter (IPython, pytest, the command line) every copy would show. The
    layout warning is the report's own (said before, once).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    seen = set()
    for w in caught:
        key = (str(w.message), w.category)
        if w.category is LayoutWarning or key in seen:
            continue
        seen.add(key)
        warnings.warn(w.message, w.category, stacklevel=stacklevel + 2)


@dataclass(frozen=True)
class CoderDiagnostics(_ResultMixin):
    """Result of :func:`coder_diagnostics`: each coder against the rest.

    Attributes
    ----------
    coders : list of str
        The coders' names, in the rows' order.
    n_units : ndarray of shape (n_coders,)
        Units each coder coded.
    alpha : float
        Krippendorff's alpha of all coders.
    alpha_without : ndarray of shape (n_coders,)
        Alpha of the others, each coder left out in turn: a coder whose
        removal raises alpha disagrees with the rest.
    pairwise_alpha : ndarray of shape (n_coders, n_coders)
        Alpha of each pair of coders on the units both coded; NaN on the
        diagonal and where a pair shares no unit.
    mean_pairwise_alpha : ndarray of shape (n_coders,)
        Each coder's mean alpha with the others.
    level_of_measurement : str
        Alpha's metric.
    """

    coders: list
    n_units: np.ndarray
    alpha: float
    alpha_without: np.ndarray
    pairwise_alpha: np.ndarray = field(repr=False)
    mean_pairwise_alpha: np.ndarray
    level_of_measurement: str

    def summary(self):
        """The per-coder table, and the coder whose removal raises alpha most.

        Returns
        -------
        text : str
        """
        rows = "\n".join(
            _text_table(
                {
                    "coder": self.coders,
                    "units": [str(int(n)) for n in self.n_units],
                    "alpha without": [_number(a) for a in self.alpha_without],
                    "mean pairwise alpha": [
                        _number(a) for a in self.mean_pairwise_alpha
                    ],
                }
            )
        )
        text = (
            f"Krippendorff's alpha ({self.level_of_measurement}) of the "
            f"{len(self.coders)} coders: {self.alpha:.4f}\n{rows}"
        )
        if np.all(np.isnan(self.alpha_without)):
            return text
        worst = int(np.nanargmax(self.alpha_without))
        if self.alpha_without[worst] > self.alpha:
            text += (
                f"\nAlpha is highest without {self.coders[worst]} "
                f"({self.alpha:.4f} -> {self.alpha_without[worst]:.4f})."
            )
        return text


@validate_params(
    {
        "reliability_data": ["array-like"],
        "level_of_measurement": LEVEL,
        "value_domain": VALUE_DOMAIN,
        "coder_names": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def coder_diagnostics(
    reliability_data,
    *,
    level_of_measurement="nominal",
    value_domain=None,
    coder_names=None,
):
    """Each coder's agreement with the rest: alpha without them, and pairwise.

    A careless or confused annotator lowers every coefficient; leaving each
    coder out in turn shows who.

    Parameters
    ----------
    reliability_data : array-like of shape (n_coders, n_units)
        One row per coder, one column per unit; NaN or None where missing.
    level_of_measurement : {"nominal", "ordinal", "interval", "ratio"} or \
callable, default="nominal"
        Alpha's metric, as in :func:`krippendorff_alpha`.
    value_domain : array-like, default=None
        Every value of the scale, in order.
    coder_names : array-like of shape (n_coders,), default=None
        Names for the rows, each once; default: a DataFrame's index (unless
        its labels are integers), else "coder 0", "coder 1", ... Naming the
        rows says they are coders: no warning then for more coders than
        units.

    Returns
    -------
    result : CoderDiagnostics

    Examples
    --------
    Three coders agree; a fourth answers at random:

    >>> import numpy as np
    >>> from sklearn_faithful.agreement import coder_diagnostics
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(0, 3, 300)
    >>> good = np.where(rng.random((3, 300)) < 0.9, truth, rng.integers(0, 3, 300))
    >>> data = np.vstack([good, rng.integers(0, 3, 300)])
    >>> res = coder_diagnostics(data, coder_names=["ann", "bob", "cy", "dee"])
    >>> print(res.summary())
    Krippendorff's alpha (nominal) of the 4 coders: 0.4135
    coder  units  alpha without  mean pairwise alpha
    ann    300    0.2899         0.5384
    bob    300    0.2601         0.5683
    cy     300    0.2665         0.5618
    dee    300    0.8394         -0.0104
    Alpha is highest without dee (0.4135 -> 0.8394).
    """
    codes, domain = check_reliability_data(
        reliability_data,
        value_domain,
        level_of_measurement=level_of_measurement,
        coder_names=coder_names,
        stacklevel=4,
    )
    m = codes.shape[0]
    names = check_coder_names(coder_names, reliability_data, m)
    level = level_of_measurement
    alpha = _alpha_of_codes(codes, domain, level)
    without = np.array(
        [
            _alpha_of_codes(np.delete(codes, j, axis=0), domain, level)
            if m > 2
            else np.nan
            for j in range(m)
        ]
    )
    pairwise = np.full((m, m), np.nan)
    for i in range(m):
        for j in range(i + 1, m):
            pairwise[i, j] = pairwise[j, i] = _alpha_of_codes(
                codes[[i, j]], domain, level
            )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a coder sharing no unit
        mean_pairwise = np.nanmean(pairwise, axis=1)
    return CoderDiagnostics(
        coders=names,
        n_units=np.count_nonzero(codes >= 0, axis=1),
        alpha=alpha,
        alpha_without=without,
        pairwise_alpha=pairwise,
        mean_pairwise_alpha=mean_pairwise,
        level_of_measurement=getattr(level, "__name__", str(level)),
    )


@dataclass(frozen=True)
class AgreementReport(_ResultMixin):
    """Result of :func:`agreement_report`: every coefficient, and the coders.

    Attributes
    ----------
    intervals : dict of str to AgreementInterval
        Each coefficient with its interval and observed agreement:
        ``"percent_agreement"``, ``"krippendorff_alpha"``,
        ``"fleiss_kappa"``, ``"gwet_ac"``, and ``"cohen_kappa"`` for two
        coders.
    coders : CoderDiagnostics
        Each coder against the rest.
    level_of_measurement : str
        The level; the kappa family uses its weights (nominal: none,
        ordinal: ordinal, interval: quadratic, ratio: ratio).
    dominant_value : object
        The most common value.
    dominant_share : float
        Its share of all values; above 0.8, chance agreement is high and
        kappa and alpha can be low while raw agreement is high (the
        prevalence paradox).
    confidence_level : float
        Level of the intervals.
    """

    intervals: dict
    coders: CoderDiagnostics
    level_of_measurement: str
    dominant_value: object
    dominant_share: float
    confidence_level: float

    def summary(self):
        """Each coefficient with its interval, then the per-coder table.

        Returns
        -------
        text : str
        """
        table = "\n".join(
            _text_table(
                {
                    "coefficient": [
                        f"{name} (weighted)"
                        if r.weighted and name != "krippendorff_alpha"
                        else name
                        for name, r in self.intervals.items()
                    ],
                    "estimate": [_number(r.statistic) for r in self.intervals.values()],
                    f"{_level_text(self.confidence_level)} interval": [
                        _interval_text(r.confidence_interval)
                        for r in self.intervals.values()
                    ],
                    "observed": [
                        _number(r.observed_agreement) for r in self.intervals.values()
                    ],
                    "by chance": [
                        _number(r.expected_agreement) for r in self.intervals.values()
                    ],
                }
            )
        )
        first = next(iter(self.intervals.values()))
        head = (
            f"Agreement of {first.n_coders} coders ({self.level_of_measurement}), "
            f"{'BCa' if first.interval == 'bca' else first.interval} unit "
            f"bootstrap, {first.n_resamples} resamples\n"
        )
        text = head + table
        weighted = [r for r in self.intervals.values() if r.weighted]
        if weighted:
            weights = {
                r.scale for r in weighted if r.coefficient != "krippendorff_alpha"
            }
            text += (
                f"\nAt the {self.level_of_measurement} level near values agree in part "
                f"(weights: {', '.join(sorted(weights))}; alpha: its "
                f"{self.level_of_measurement} metric): 'observed' is weighted "
                "agreement, not the share of pairs of identical values."
            )
        if self.dominant_share > DOMINANT_SHARE:
            text += (
                f"\n{self.dominant_value!r} is {self.dominant_share:.0%} of the "
                "values: chance agreement is high, so kappa and alpha can be low while "
                "raw agreement is high (the prevalence paradox); Gwet's AC1/AC2 "
                "corrects for chance without it."
            )
        return text + "\n\n" + self.coders.summary()


@validate_params(
    {
        "reliability_data": ["array-like"],
        "level_of_measurement": [
            StrOptions({"nominal", "ordinal", "interval", "ratio"})
        ],
        "value_domain": VALUE_DOMAIN,
        "coder_names": ["array-like", None],
        "interval": [StrOptions({"percentile", "bca"})],
        "confidence_level": CONFIDENCE_LEVEL,
        "n_resamples": [Interval(Integral, 2, None, closed="left")],
        "random_state": RANDOM_STATE,
        "n_jobs": N_JOBS,
        "verbose": ["verbose"],
    },
    prefer_skip_nested_validation=True,
)
def agreement_report(
    reliability_data,
    *,
    level_of_measurement="nominal",
    value_domain=None,
    coder_names=None,
    interval="bca",
    confidence_level=0.95,
    n_resamples=9999,
    random_state=None,
    n_jobs=None,
    verbose=0,
):
    """Every agreement coefficient with its interval, and each coder's.

    Raw agreement beside the chance-corrected coefficients (Krippendorff's
    alpha, Fleiss' kappa, Gwet's AC1/AC2, and Cohen's kappa for two coders),
    so that high agreement with a low kappa, when one value dominates, shows
    as what it is.

    Parameters
    ----------
    reliability_data : array-like of shape (n_coders, n_units)
        One row per coder, one column per unit; NaN or None where missing.
    level_of_measurement : {"nominal", "ordinal", "interval", "ratio"}, \
default="nominal"
        Alpha's metric; the kappa family takes the matching weights.
    value_domain : array-like, default=None
        Every value of the scale, in order.
    coder_names : array-like of shape (n_coders,), default=None
        Names for the rows, each once; default: a DataFrame's index (unless
        its labels are integers), else "coder 0", "coder 1", ... Naming the
        rows says they are coders: no warning then for more coders than
        units.
    interval : {"percentile", "bca"}, default="bca"
        The unit-bootstrap interval (:func:`agreement_confidence_interval`).
    confidence_level : float, default=0.95
        Level of the intervals.
    n_resamples : int, default=9999
        Resamples of each interval.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the resamples; with an int, each interval is the one
        :func:`agreement_confidence_interval` gives with that seed.
    n_jobs : int, default=None
        Jobs for the resamples.
    verbose : int, default=0
        Print progress on stderr.

    Returns
    -------
    result : AgreementReport

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.agreement import agreement_report
    >>> rng = np.random.default_rng(0)
    >>> truth = (rng.random(400) < 0.1).astype(int)  # one class in ten
    >>> data = np.where(rng.random((3, 400)) < 0.9, truth, 1 - truth)
    >>> report = agreement_report(data, random_state=0, n_resamples=999)
    >>> for name, res in report.intervals.items():
    ...     print(f"{name:18} {res.statistic:.2f}")
    percent_agreement  0.83
    krippendorff_alpha 0.43
    fleiss_kappa       0.43
    gwet_ac            0.75
    """
    codes, domain = check_reliability_data(
        reliability_data,
        value_domain,
        level_of_measurement=level_of_measurement,
        coder_names=coder_names,
        stacklevel=4,
    )
    names = check_coder_names(coder_names, reliability_data, codes.shape[0])
    weights = LEVEL_WEIGHTS[level_of_measurement]
    coefficients = [
        "percent_agreement",
        "krippendorff_alpha",
        "fleiss_kappa",
        "gwet_ac",
    ]
    if codes.shape[0] == 2 and weights in (None, "quadratic"):
        coefficients.append("cohen_kappa")
    common = dict(
        value_domain=value_domain,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
        verbose=verbose,
    )
    with _warned_once(stacklevel=3):
        intervals = {
            name: agreement_confidence_interval(
                reliability_data,
                coefficient=name,
                **(
                    {"level_of_measurement": level_of_measurement}
                    if name == "krippendorff_alpha"
                    else {"weights": weights}
                ),
                interval=interval,
                **common,
            )
            for name in coefficients
        }
        coders = coder_diagnostics(
            reliability_data,
            level_of_measurement=level_of_measurement,
            value_domain=value_domain,
            coder_names=names,
        )
    counts = np.bincount(codes[codes >= 0], minlength=domain.size)
    top = int(np.argmax(counts))
    return AgreementReport(
        intervals=intervals,
        coders=coders,
        level_of_measurement=level_of_measurement,
        dominant_value=domain[top].item(),
        dominant_share=float(counts[top] / counts.sum()),
        confidence_level=float(confidence_level),
    )

"""The calibration estimators' choices and defaults, with no numpy.

One home for what the calibration room, the metrics room's scorers and the
command line's parser (which may not import numpy) all name.
"""

# The estimators of the calibration error, their norms, bins and problems.
METHODS = ("binned", "debiased", "smooth")
NORMS = ("l1", "l2")
STRATEGIES = ("uniform", "quantile")
MULTI_CLASS = ("auto", "top-label", "classwise")
# The proper scores of the CORP decomposition and the paired comparison.
SCORINGS = ("brier", "log_loss")
PAIRED_METRICS = ("calibration_error", *SCORINGS)
# The bootstrap intervals of the error, and the tests of calibration.
INTERVALS = ("basic", "percentile")
TESTS = ("consistency", "spiegelhalter")

# The estimator and interval when none is named, chosen by
# benchmarks/sim_calibration.py (user guide, "Which estimator and which
# interval"): the debiased L2 error is the least biased, and its basic
# interval (about the plug-in, _inference._bounds) the only one that held; 15
# equal-width bins, as Guo et al. (2017). The test of calibration keeps the
# binned L1 error as its statistic, the more powerful of the two there.
DEFAULT_METHOD = "debiased"
DEFAULT_INTERVAL = "basic"
DEFAULT_TEST_METHOD = "binned"
DEFAULT_N_BINS = 15
DEFAULT_STRATEGY = "uniform"

# Each method's own norm (None: either, L1 unless given).
_OWN_NORM = {"binned": None, "debiased": "l2", "smooth": "l1"}


def resolve_norm(method, norm):
    """The norm of ``method``: L1 for binned and smooth, L2 for debiased,
    unless given; a norm the method does not have raises."""
    own = _OWN_NORM[method]
    if norm is None:
        return own or "l1"
    if own is not None and norm != own:
        raise ValueError(
            f"norm={norm!r} does not apply to method={method!r}, which estimates "
            f"the {own.upper()} calibration error only. Pass norm={own!r} or "
            "norm=None, or method='binned' for either norm."
        )
    return norm


def refuse_unused(given, reason):
    """Raise for the parameters of ``given`` that the call would ignore.

    ``given`` maps each parameter that does not apply in this call to
    ``(value, default)``; a value other than its default was asked for and
    would have no effect, so it is an error naming it (``reason`` says why).
    """
    unused = [
        f"{name}={value!r}"
        for name, (value, default) in given.items()
        if value != default
    ]
    if unused:
        raise ValueError(
            f"{', '.join(unused)} would have no effect: {reason}. Drop "
            f"{'it' if len(unused) == 1 else 'them'}."
        )

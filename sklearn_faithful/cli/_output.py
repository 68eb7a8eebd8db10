"""What the commands print: JSON payloads from result objects, and text tables.

Every command's ``run`` returns a payload, a dict of plain Python values
(documented in doc/cli.rst): a :func:`header`, the command's inputs, and the
fields of the package's result objects. Those fields come from the
``*_fields`` functions below and from nowhere else, so this module is the one
place that knows the result classes' attributes. Issue 22 gives every result a
``to_dict()``; each ``*_fields`` function then becomes a call of it under the
keys documented here.

The text formatters of the commands render the same payloads with
:func:`fmt`, :func:`fmt_interval` and :func:`table`. Nothing here imports
numpy: ``--help`` imports this module.
"""

import json
import math

from .. import __version__


def num(x):
    """A JSON number: a Python float, or None where it is not finite."""
    x = float(x)
    return x if math.isfinite(x) else None


def pair(interval):
    """An interval as ``[low, high]``; None stays None."""
    if interval is None:
        return None
    return [num(interval[0]), num(interval[1])]


def header(command, args, **extra):
    """The keys every payload starts with, then ``extra`` in its order."""
    out = {"command": command, "version": __version__}
    if hasattr(args, "random_state"):
        out["random_state"] = args.random_state
    out.update(extra)
    return out


def dumps(payload):
    """The JSON text of a payload; a NaN that slipped through is an error."""
    return json.dumps(payload, indent=2, allow_nan=False)


# ---------------------------------------------------------------- results


def interval_fields(res):
    """A bootstrap interval of one score (``BootstrapIntervalResult``)."""
    return {
        "score": num(res.statistic),
        "interval": pair(res.confidence_interval),
        "standard_error": num(res.standard_error),
    }


def paired_test_fields(res):
    """A paired bootstrap or permutation test (``PairedTestResult``)."""
    return {
        "difference": num(res.statistic),
        "difference_interval": pair(res.confidence_interval),
        "pvalue": num(res.pvalue),
    }


def sign_test_fields(res):
    """The exact sign test (``SignTestResult``); it has no score difference."""
    return {
        "difference": None,
        "difference_interval": None,
        "pvalue": num(res.pvalue),
        "n_b_better": int(res.n_b_better),
        "n_a_better": int(res.n_a_better),
        "share_interval": pair(res.confidence_interval),
    }


def bayes_fields(res, threshold):
    """A Bayes test of B against A, paired or the paper's (Wang & Li 2019).

    ``decision`` is ``res.decide(threshold)``: the claim the posterior
    warrants at ``threshold``. The paper's test adds each model's interval
    and its own rule, ``paper_decision``.
    """
    out = {"metric": res.metric, "mean_a": num(res.mean_a), "mean_b": num(res.mean_b)}
    if hasattr(res, "difference"):  # PairedBayesTestResult
        out["difference"] = num(res.difference)
        out["difference_interval"] = pair(res.interval)
    else:  # BayesTestResult
        out["interval_a"] = pair(res.interval_a)
        out["interval_b"] = pair(res.interval_b)
        out["paper_decision"] = res.decision
    out.update(p_h0=num(res.p_h0), p_h1=num(res.p_h1))
    if res.rope > 0:
        out.update(
            p_worse=num(res.p_worse),
            p_equivalent=num(res.p_equivalent),
            p_better=num(res.p_better),
        )
    out["decision"] = res.decide(threshold)
    return out


def model_based_fields(res):
    """A model-based metric test (``ModelBasedTestResult``), with its summary."""
    optional_int = {k: getattr(res, k) for k in ("n_annotated_c", "n_annotated_t")}
    optional_num = {k: getattr(res, k) for k in ("lam_c", "lam_t")}
    return {
        "method": res.method,
        "paired": bool(res.paired),
        "confidence_level": num(res.confidence_level),
        "n_c": int(res.n_c),
        "n_t": int(res.n_t),
        "mean_c": num(res.mean_c),
        "mean_t": num(res.mean_t),
        "effect": num(res.effect),
        "corrected_effect": num(res.corrected_effect),
        "rate_c": num(res.rate_c),
        "rate_t": num(res.rate_t),
        "ci_deterministic": pair(res.ci_deterministic),
        "ci_model": pair(res.ci_model),
        "pvalue_deterministic": num(res.pvalue_deterministic),
        "pvalue": num(res.pvalue),
        "significant_deterministic": bool(res.significant_deterministic),
        "significant_model": bool(res.significant_model),
        "conclusion_changed": bool(res.conclusion_changed),
        **{k: None if v is None else int(v) for k, v in optional_int.items()},
        **{k: None if v is None else num(v) for k, v in optional_num.items()},
        "summary": res.summary(),
    }


def balance_fields(balance):
    """The block balance of an m x 2 BCV (``BlockBalance``)."""
    totals = balance.totals
    return {
        "sizes": balance.sizes.tolist(),
        "totals": None if totals is None else totals.tolist(),
        "max_size_difference": int(balance.max_size_difference),
        "max_relative_deviation": num(balance.max_relative_deviation),
    }


# ---------------------------------------------------------------- text


def fmt(x, signed=False, digits=4):
    """A number with ``digits`` decimals; None (not finite) prints as nan."""
    if x is None:
        return "nan"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def fmt_interval(interval, signed=False):
    """``(low, high)``, or nothing for None."""
    if interval is None:
        return ""
    return f"({fmt(interval[0], signed)}, {fmt(interval[1], signed)})"


def level(confidence_level):
    """``0.95`` -> ``"95%"``."""
    return f"{100 * confidence_level:g}%"


def metric_text(p):
    """The metric of a ``compare`` or ``interval`` payload, as its table says it."""
    if p["entity_level"]:
        return f"entity-level {p['metric']}"
    return p["metric"] if p["average"] is None else f"{p['metric']} ({p['average']})"


def table(head, rows):
    """Lines of a left-aligned table: the header, a rule, the rows."""
    widths = [max(len(str(r[j])) for r in [head, *rows]) for j in range(len(head))]
    rule = "  ".join("-" * w for w in widths)
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [head, *rows]
    ]
    return [lines[0], rule, *lines[1:]]

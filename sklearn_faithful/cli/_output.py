"""What the commands print: JSON payloads of results, and text tables.

Every command's ``run`` returns a payload (documented in doc/cli.rst): a
:func:`header`, what the command read and how it was asked, and the
package's result objects as they are, each under a key of its own.
``_main`` turns the payload into plain JSON values with the one conversion
behind every result's ``to_dict()`` (``utils._results._jsonable``), so a
result prints as its ``to_dict()`` and the command line maps no field by
hand. What the command line adds beside a result is its own: file and
system names, Holm-adjusted p-values, the ``decision`` at ``--threshold``.

The text formatters of the commands render the same JSON values with
:func:`fmt`, :func:`fmt_interval` and :func:`table`. Nothing here imports
numpy: ``--help`` imports this module.
"""

import json

from .. import __version__
from ..holdout._options import AVERAGED_METRIC_NAMES


def header(command, args, **extra):
    """The keys every payload starts with, then ``extra`` in its order."""
    out = {"command": command, "version": __version__}
    if hasattr(args, "random_state"):
        out["random_state"] = args.random_state
    out.update(extra)
    return out


def signature(command, args, **fields):
    """The options that reproduce a run's numbers, in the order they print.

    ``version``, ``command`` and ``seed`` first, then the ``fields`` that
    apply (None leaves a field out). The JSON payload holds this dict under
    ``"signature"``; the text output ends with :func:`signature_text`.
    """
    out = {"version": __version__, "command": command}
    if hasattr(args, "random_state"):
        out["seed"] = args.random_state
    out.update((k, v) for k, v in fields.items() if v is not None)
    return out


def signature_text(sig):
    """One line, ``sklearn-faithful VERSION|command:NAME|key:value|...``, as
    sacrebleu prints its signatures."""

    def text(value):
        if isinstance(value, bool):
            return "yes" if value else "no"
        return f"{value:g}" if isinstance(value, float) else str(value)

    fields = (f"{k}:{text(v)}" for k, v in sig.items() if k != "version")
    return "|".join([f"sklearn-faithful {sig['version']}", *fields])


def files_signature(command, args, groups, first, last=None):
    """The signature of ``compare`` or ``interval``: ``first`` (the test or
    the method), the resampling, the metrics, the clusters, ``last`` and how
    the files were read."""
    return signature(
        command,
        args,
        **first,
        resamples=args.n_resamples,
        level=args.confidence_level,
        **metric_signature(args),
        groups=groups,
        **(last or {}),
        **input_fields(args),
    )


def metric_fields(metric, args):
    """``metric`` and ``average`` of one of a payload's ``metrics``."""
    return {
        "metric": metric,
        "average": args.average if metric in AVERAGED_METRIC_NAMES else None,
    }


def metric_signature(args):
    """The signature fields of ``--metric`` and its options."""
    averaged = any(m in AVERAGED_METRIC_NAMES for m in args.metric)
    return dict(
        metric=",".join(args.metric),
        average=args.average if averaged else None,
        pos_label=args.pos_label,
    )


def groups_text(p):
    """`` in N clusters (SOURCE)`` of a payload with ``--groups``, else nothing."""
    if p["groups"] is None:
        return ""
    return f" in {p['n_groups']} clusters ({p['groups']})"


def input_fields(args):
    """The signature fields of how ``compare`` and ``interval`` read their files."""
    conll = getattr(args, "conll", False)
    return dict(
        column=args.column,
        field=args.field,
        conll=args.scheme if conll else None,
        tag_column=args.tag_column if conll and args.tag_column != -1 else None,
        classes=args.classes,
    )


def dumps(payload):
    """The JSON text of a payload; a NaN that slipped through is an error."""
    return json.dumps(payload, indent=2, allow_nan=False)


def fmt(x, signed=False, digits=4):
    """A number with ``digits`` decimals; None (not finite) prints as nan."""
    if x is None:
        return "nan"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def fmt_interval(interval, signed=False):
    """``[low, high]`` of an interval ``{"low", "high"}``; nothing for None.

    Printed as the results' summaries print intervals.
    """
    if interval is None:
        return ""
    return f"[{fmt(interval['low'], signed)}, {fmt(interval['high'], signed)}]"


def level(confidence_level):
    """``0.95`` -> ``"95%"``."""
    return f"{100 * confidence_level:g}%"


def metric_text(entry, entity_level):
    """A metric of a ``compare`` or ``interval`` payload (one of its
    ``metrics``), as its table says it."""
    if entity_level:
        return f"entity-level {entry['metric']}"
    if entry["average"] is None:
        return entry["metric"]
    return f"{entry['metric']} ({entry['average']})"


def table(head, rows):
    """Lines of a left-aligned table: the header, a rule, the rows."""
    widths = [max(len(str(r[j])) for r in [head, *rows]) for j in range(len(head))]
    rule = "  ".join("-" * w for w in widths)
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [head, *rows]
    ]
    return [lines[0], rule, *lines[1:]]

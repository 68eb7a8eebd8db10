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

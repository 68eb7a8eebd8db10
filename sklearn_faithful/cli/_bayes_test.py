"""``sklearn-faithful bayes-test``: is B better than A, from per-split counts.

The paired test (:func:`~sklearn_faithful.comparison.paired_bayes_test`) is
the default, as doc/choosing.rst advises; ``--unpaired`` runs the paper's
test (:func:`~sklearn_faithful.comparison.bayes_test`), with the
``"wang2015"`` correction whose intervals held their level, and
``--unpaired --correlation wang2019`` is Wang & Li (2019) exactly.
"""

import argparse

from ..comparison._options import (
    CORRELATIONS,
    DEFAULT_CORRELATION,
    METRICS,
    PROPORTION_ROPE_LIMIT,
)
from ._arguments import LEVEL, RAW, THRESHOLD, Applies, add_format, number
from ._output import fmt, fmt_interval, header, level, table

NAME = "bayes-test"

# the options that act on some runs only (every option honoured or
# refused): the paired test has no correlation correction and no prior. No
# run draws random numbers: the unpaired test integrates its posteriors
# exactly, so the command has no --random-state.
_UNPAIRED = Applies(
    lambda a: a.unpaired,
    "to the unpaired test (--unpaired; Wang & Li's test as printed: --unpaired "
    "--correlation wang2019)",
)
APPLIES = {"correlation": _UNPAIRED, "prior": _UNPAIRED}

EPILOG = """\
examples:
  sklearn-faithful bayes-test counts_a.txt counts_b.txt          # TP FP FN rows
  sklearn-faithful bayes-test a.txt b.txt --triples --metric f1 --rope 0.005
  sklearn-faithful bayes-test a.txt b.txt --triples --unpaired   # intervals
  sklearn-faithful bayes-test a.txt b.txt --triples --unpaired \\
      --correlation wang2019                 # Wang & Li (2019), as printed
"""


def correlation(text):
    """An argparse type: a named correlation of the room, or a number."""
    if text in CORRELATIONS:
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a correlation; use one of {', '.join(CORRELATIONS)} "
            "or a number"
        ) from None


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="Bayes test of precision, recall and F1 from per-split counts",
        description="Read each model's per-split counts of an m x 2 CV, one row "
        "per split in the CV's order, and give P(B better than A). By default "
        "the paired test on the per-split differences (both models scored on "
        "the same splits); --unpaired runs the test of Wang & Li (2019), which "
        "gives each model its own posterior and interval.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    p.add_argument("counts_a", metavar="COUNTS_A")
    p.add_argument("counts_b", metavar="COUNTS_B")
    p.add_argument(
        "--triples",
        action="store_true",
        help="rows are (n_gold, n_pred, n_correct), as conlleval reports, "
        "instead of (TP, FP, FN[, TN])",
    )
    p.add_argument(
        "--metric",
        choices=(*METRICS, "all"),
        default="all",
        help="(default: all three)",
    )
    p.add_argument(
        "--rope",
        type=number(0, PROPORTION_ROPE_LIMIT, high_open=True),
        default=0.0,
        help="half-width of a region of practical equivalence, from 0 to below "
        f"{PROPORTION_ROPE_LIMIT:g}: differences of proportions lie in [-1, 1] "
        "(default: 0)",
    )
    p.add_argument(
        "--threshold",
        type=THRESHOLD,
        default=0.95,
        help="posterior probability a decision needs (default: 0.95)",
    )
    p.add_argument(
        "--confidence-level", type=LEVEL, default=0.95, help="(default: 0.95)"
    )
    u = p.add_argument_group("the unpaired test (Wang & Li 2019)")
    u.add_argument(
        "--unpaired",
        action="store_true",
        help="independent posteriors of the two models, each with its interval, "
        "as in the paper",
    )
    u.add_argument(
        "--correlation",
        type=correlation,
        default=None,
        metavar="CORRELATION",
        help=f"correction of the effective counts: {', '.join(CORRELATIONS)} or "
        f"a number (default: {DEFAULT_CORRELATION}, as bayes_test's, whose "
        "intervals held their level; wang2019 is the paper's)",
    )
    u.add_argument(
        "--prior",
        type=number(0, low_open=True),
        default=None,
        help="Beta prior of each count (default: 1)",
    )
    add_format(p)
    return p


def _read_split_counts(path, triples):
    from ..comparison._counts import _MAX_COUNT
    from ._io import InputError, read_numbers

    if triples:
        width, what = (3,), "one split's n_gold, n_pred, n_correct"
    else:
        width, what = (3, 4), "one split's TP, FP, FN[, TN]"
    rows, lines = read_numbers(path, width=width, what=what)
    allowed = f"counts are whole numbers from 0 to 2**53 = {_MAX_COUNT}"
    for row, line in zip(rows, lines, strict=True):
        where = f"{path}, line {line}: {row.tolist()}"
        if any(v != v for v in row):  # NaN
            raise InputError(f"{where} holds NaN; {allowed}.")
        if any(abs(v) == float("inf") for v in row):
            raise InputError(
                f"{where} holds an infinite value (or one beyond the float range, "
                f"such as 1e400); {allowed}."
            )
        if any(v > _MAX_COUNT for v in row):
            raise InputError(
                f"{where} holds a count above 2**53, which double precision "
                f"cannot hold exactly; {allowed}. Divide all counts of both "
                "files by a common factor."
            )
        if any(v < 0 or v != int(v) for v in row):
            raise InputError(f"{where} are not all whole counts >= 0; {allowed}.")
    rows = rows.astype("int64")
    if triples:
        from ..comparison import counts_from_triples

        return counts_from_triples(rows)
    return rows


def run(args):
    from ..comparison import bayes_test, paired_bayes_test
    from ._io import InputError

    counts_a = _read_split_counts(args.counts_a, args.triples)
    counts_b = _read_split_counts(args.counts_b, args.triples)
    if counts_a.shape[0] != counts_b.shape[0]:
        raise InputError(
            f"{args.counts_b} has {counts_b.shape[0]} splits but {args.counts_a} "
            f"has {counts_a.shape[0]}; rows are matched by position, one per split."
        )
    metrics = METRICS if args.metric == "all" else (args.metric,)
    corr = DEFAULT_CORRELATION if args.correlation is None else args.correlation
    results = []
    for metric in metrics:
        if args.unpaired:
            res = bayes_test(
                counts_a,
                counts_b,
                metric=metric,
                prior=1.0 if args.prior is None else args.prior,
                correlation=corr,
                rope=args.rope,
                confidence_level=args.confidence_level,
            )
        else:
            res = paired_bayes_test(
                counts_a,
                counts_b,
                metric=metric,
                rope=args.rope,
                confidence_level=args.confidence_level,
            )
        results.append({"test": res, "decision": res.decide(args.threshold)})
    return header(
        NAME,
        args,
        counts_a=args.counts_a,
        counts_b=args.counts_b,
        n_splits=int(counts_a.shape[0]),
        test="bayes" if args.unpaired else "paired-bayes",
        correlation=corr if args.unpaired else None,
        rope=args.rope,
        confidence_level=args.confidence_level,
        threshold=args.threshold,
        results=results,
    )


def _tests(p):
    """``(row, its test's result)`` of each metric of a payload."""
    return [(r, r["test"]) for r in p["results"]]


def text(p):
    lev = level(p["confidence_level"])
    paired = p["test"] == "paired-bayes"
    title = (
        "Paired Bayes test (per-split differences)"
        if paired
        else f"Bayes test of Wang & Li (2019), correlation={p['correlation']!r}"
    )
    lines = [
        f"{title}: A = {p['counts_a']}, B = {p['counts_b']}, {p['n_splits']} splits",
        "",
    ]
    if paired:
        head = ["metric", "A", "B", f"B - A ({lev} CI)", "P(H1)", "decision"]
        rows = [
            [
                t["metric"],
                fmt(t["mean_a"]),
                fmt(t["mean_b"]),
                f"{fmt(t['difference'], True)} "
                + fmt_interval(t["credible_interval"], True),
                fmt(t["p_h1"]),
                r["decision"],
            ]
            for r, t in _tests(p)
        ]
    else:
        head = ["metric", f"A ({lev} CI)", f"B ({lev} CI)", "P(H1)", "decision"]
        rows = [
            [
                t["metric"],
                f"{fmt(t['mean_a'])} {fmt_interval(t['interval_a'])}",
                f"{fmt(t['mean_b'])} {fmt_interval(t['interval_b'])}",
                fmt(t["p_h1"]),
                r["decision"],
            ]
            for r, t in _tests(p)
        ]
    lines += table(head, rows)
    lines += [
        "",
        f"P(H1) = P(B better than A). decision claims only at P >= "
        f"{p['threshold']:g}" + (f", rope {p['rope']:g}." if p["rope"] else "."),
    ]
    if paired:
        lines.append(
            "Each model's own interval: --unpaired. Wang & Li's test as printed: "
            "--unpaired --correlation wang2019."
        )
    else:
        lines.append(
            "The paper's rule (larger of P(H0), P(H1)): "
            + ", ".join(f"{t['metric']} {t['decision']}" for _, t in _tests(p))
            + "."
        )
    return "\n".join(lines)

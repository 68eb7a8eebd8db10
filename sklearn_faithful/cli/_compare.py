"""``sklearn-faithful compare``: systems' predictions on the same gold labels."""

from ..comparison._options import METRICS as BAYES_METRICS
from ._arguments import (
    INPUT_APPLIES,
    RAW,
    REPETITIONS,
    THRESHOLD,
    Applies,
    add_format,
    add_inputs,
    add_n_jobs,
    add_random_state,
    number,
    resolve_metric,
)
from ._output import (
    files_signature,
    fmt,
    fmt_interval,
    groups_text,
    header,
    level,
    metric_fields,
    metric_text,
    signature_text,
    table,
)

NAME = "compare"

# how each system is tested against the baseline, the first the default:
# the functions of holdout, and the paired Bayes test of comparison on the
# test halves of an m x 2 BCV of the items
TESTS = ("paired-bootstrap", "permutation", "sign", "paired-bayes")

EPILOG = """\
examples:
  sklearn-faithful compare gold.txt sysA.txt sysB.txt --metric f1 --average macro
  sklearn-faithful compare gold.txt sysA.txt sysB.txt --metric f1,accuracy
  sklearn-faithful compare gold.txt a.txt b.txt --groups passages.txt   # clusters
  sklearn-faithful compare gold.txt a.txt b.txt c.txt --test permutation --format json
  sklearn-faithful compare gold.tsv a.tsv b.tsv --column label --test sign
  sklearn-faithful compare gold.jsonl a.jsonl b.jsonl --field label
  sklearn-faithful compare gold.txt a.csv b.csv --metric cf1    # probability files
  sklearn-faithful compare gold.conll a.conll b.conll --conll --metric f1 \\
      --test paired-bayes                       # entity level, needs [nlp]
"""

_BAYES = Applies(lambda a: a.test == "paired-bayes", "with --test paired-bayes")

# the options that act on some runs only (every option honoured or refused)
APPLIES = {
    **INPUT_APPLIES,
    "repetitions": _BAYES,
    "rope": _BAYES,
    "threshold": _BAYES,
}


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="compare systems' predictions on the same gold labels",
        description="Score each system with a bootstrap interval and test each "
        "against the first (the baseline) on the same items. Files hold one "
        "item per line, matched by position. With more than two systems the "
        "p-values are adjusted by Holm's method.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    p.add_argument(
        "files", nargs="+", metavar="FILE", help="GOLD SYS_A SYS_B [SYS_C ...]"
    )
    add_inputs(p, tests=TESTS)
    b = p.add_argument_group("paired-bayes")
    b.add_argument(
        "--repetitions",
        type=REPETITIONS,
        default=3,
        help="m of the m x 2 BCV halves of the items (default: 3)",
    )
    b.add_argument(
        "--rope",
        type=number(0),
        default=0.0,
        help="half-width of the region of practical equivalence (default: 0)",
    )
    b.add_argument(
        "--threshold",
        type=THRESHOLD,
        default=0.95,
        help="posterior probability a decision needs (default: 0.95)",
    )
    add_n_jobs(p, "systems and comparisons computed in parallel threads")
    add_random_state(p)
    add_format(p)
    return p


def _compare_all(data, which, args, splits):
    """System ``which`` against the first by each metric: the chosen test's
    results, one per entry of ``data.metrics``."""
    from ._io import InputError
    from ._systems import paired_tests_of

    if args.test != "paired-bayes":
        return paired_tests_of(data, which, args)
    from ..comparison import paired_bayes_test

    out = []
    for name, _, kwargs in data.metrics:
        if data.kind != "conll" and name not in BAYES_METRICS:
            raise InputError(
                f"--test paired-bayes compares {', '.join(BAYES_METRICS)} from "
                f"per-split counts; --metric {name} is not one of them."
            )
        average = "micro" if data.kind == "conll" else args.average
        pos_label = None if kwargs is None else kwargs.get("pos_label")
        out.append(
            paired_bayes_test(
                data.split_counts(0, splits, average, pos_label),
                data.split_counts(which, splits, average, pos_label),
                metric=name,
                average="binary" if data.kind == "conll" else average,
                rope=args.rope,
                confidence_level=args.confidence_level,
            )
        )
    return out


def _bcv_test_sets(data, args):
    """The test halves of the m x 2 BCV over the items, for paired-bayes;
    clusters (``--groups``) are kept whole."""
    import numpy as np

    from ..model_selection import BlockRegularizedMx2CV

    cv = BlockRegularizedMx2CV(args.repetitions, random_state=args.random_state)
    n = data.y_true.shape[0]
    y = data.type_counts if data.kind == "conll" else data.y_true
    return [test for _, test in cv.split(np.zeros((n, 1)), y, data.groups)]


def _run_jobs(jobs, n_jobs):
    """``[func(*args) for func, *args in jobs]``, on ``n_jobs`` threads.

    joblib costs a quarter of a second to import: one job runs without it
    (the holdout room's rule of when ``n_jobs`` means one job).
    """
    from ..holdout._fast_metrics import _effective_n_jobs

    if _effective_n_jobs(n_jobs) == 1:
        return [func(*rest) for func, *rest in jobs]
    from joblib import Parallel, delayed

    return Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(func)(*rest) for func, *rest in jobs
    )


def run(args):
    from ..utils._multitest import holm
    from ._io import InputError
    from ._systems import Systems, intervals_of

    if len(args.files) < 3:
        raise InputError(
            "compare needs the gold file and at least two system files: "
            "GOLD SYS_A SYS_B [SYS_C ...]."
        )
    resolve_metric(args)
    data = Systems(args, args.files)
    bayes = args.test == "paired-bayes"
    splits = _bcv_test_sets(data, args) if bayes else None
    k = len(data.preds)
    if data.by_table and args.test != "paired-bayes":
        for i in range(1, k):
            data.table(0, i)  # each system's table is a margin of these
    # one job per system and per comparison, each for every metric: from a
    # table, one set of resamples serves all the metrics
    jobs = [(intervals_of, data, i, args) for i in range(k)]
    jobs += [(_compare_all, data, i, args, splits) for i in range(1, k)]
    out = _run_jobs(jobs, args.n_jobs)
    adjust = not bayes and k > 2
    metrics = []
    for m, (name, _, _) in enumerate(data.metrics):
        intervals = [done[m] for done in out[:k]]
        tests = [None, *(done[m] for done in out[k:])]  # the baseline has no test
        if not bayes:
            pvalues = [t.pvalue for t in tests[1:]]
            adjusted = [None, *(holm(pvalues) if adjust else pvalues)]
        systems = []
        for i, (system, interval, test) in enumerate(
            zip(data.names, intervals, tests, strict=True)
        ):
            row = {
                "name": system,
                "baseline": i == 0,
                "interval": interval,
                "test": test,
            }
            if bayes:
                row["decision"] = None if test is None else test.decide(args.threshold)
            else:
                row["pvalue_adjusted"] = adjusted[i]
            systems.append(row)
        metrics.append({**metric_fields(name, args), "systems": systems})
    options = dict(
        test=args.test,
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        repetitions=args.repetitions if bayes else None,
        rope=args.rope if bayes else None,
        threshold=args.threshold if bayes else None,
        multiple_comparisons="holm" if adjust else "none",
    )
    return header(
        NAME,
        args,
        **data.fields(args),
        **options,
        systems=data.names,
        metrics=metrics,
        signature=files_signature(
            NAME,
            args,
            data.fields(args)["groups"],
            {"test": args.test},
            {
                "repetitions": options["repetitions"],
                "rope": options["rope"],
                "threshold": options["threshold"],
                "adjust": options["multiple_comparisons"],
            },
        ),
    )


def _difference_text(test, row, baseline):
    """The "B - A [interval]" cell of a system's row of the table."""
    t = row["test"]
    if test == "sign":  # a test of the discordant items: the scores' difference
        score = row["interval"]["statistic"]
        diff = None if None in (score, baseline) else score - baseline
        return f"{fmt(diff, True)}  B won {t['n_b_better']}, A won {t['n_a_better']}"
    if test == "paired-bayes":
        diff, interval = t["difference"], t["credible_interval"]
    else:
        diff, interval = t["statistic"], t["confidence_interval"]
    return f"{fmt(diff, True)} {fmt_interval(interval, True)}"


def _table_lines(p, entry, lev):
    """The table of one metric's scores and tests."""
    bayes = p["test"] == "paired-bayes"
    # the sign test gives no interval of the difference: its counts instead
    head = [
        "System",
        f"{entry['metric']} ({lev} CI)",
        "Δ vs baseline" if p["test"] == "sign" else f"Δ vs baseline ({lev} CI)",
        "P(B better)" if bayes else "p-value",
    ]
    if bayes:
        head.append("decision")
    rows = []
    baseline = entry["systems"][0]["interval"]["statistic"]
    for s in entry["systems"]:
        ci = s["interval"]
        score = f"{fmt(ci['statistic'])} {fmt_interval(ci['confidence_interval'])}"
        if s["baseline"]:
            rows.append([f"Baseline: {s['name']}", score, "", ""] + [""] * bayes)
            continue
        diff = _difference_text(p["test"], s, baseline)
        if bayes:
            p_h1 = fmt(s["test"]["p_h1"])
            rows.append([s["name"], score, diff, p_h1, s["decision"]])
        else:
            star = " *" if s["pvalue_adjusted"] < 1 - p["confidence_level"] else ""
            rows.append([s["name"], score, diff, f"{s['pvalue_adjusted']:.4f}{star}"])
    return table(head, rows)


def text(p):
    lev = level(p["confidence_level"])
    metrics = ", ".join(metric_text(m, p["entity_level"]) for m in p["metrics"])
    test = {
        "paired-bootstrap": f"paired bootstrap, {p['n_resamples']} resamples",
        "permutation": f"paired permutation, {p['n_resamples']} permutations",
        "sign": "exact sign test",
        "paired-bayes": f"paired Bayes test on {p['repetitions']}x2 BCV halves",
    }[p["test"]]
    lines = [
        f"{metrics} on {p['n_items']} {p['items']} of {p['gold']}"
        f"{groups_text(p)}; {test}; random_state={p['random_state']}",
    ]
    for entry in p["metrics"]:
        lines += ["", *_table_lines(p, entry, lev)]
    lines.append("")
    if p["test"] == "paired-bayes":
        lines.append(
            "P(B better) is the posterior probability that the system beats the "
            "baseline; decision claims only what reaches the threshold."
        )
    else:
        alpha = f"{1 - p['confidence_level']:.3g}"
        if p["multiple_comparisons"] == "holm":
            n = len(p["systems"]) - 1
            each = " for each metric" if len(p["metrics"]) > 1 else ""
            lines.append(
                f"p-values adjusted for {n} comparisons with the baseline by "
                f"Holm's method{each}; * p < {alpha}."
            )
        else:
            lines.append(f"* p < {alpha}.")
    lines.append(signature_text(p["signature"]))
    return "\n".join(lines)

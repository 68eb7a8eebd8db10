"""``sklearn-faithful calibration``: are the systems' probabilities calibrated?"""

from ..utils._calibration_options import (
    DEFAULT_INTERVAL,
    DEFAULT_METHOD,
    DEFAULT_N_BINS,
    DEFAULT_STRATEGY,
    DEFAULT_TEST_METHOD,
    INTERVALS,
    METHODS,
    MULTI_CLASS,
    NORMS,
    STRATEGIES,
    TESTS,
)
from ._arguments import (
    RAW,
    Applies,
    add_format,
    add_groups,
    add_label_options,
    add_n_jobs,
    add_random_state,
    add_resampling,
    given,
    number,
)
from ._output import fmt, fmt_interval, groups_text, header, level, signature_text

NAME = "calibration"

# what each system is compared on against the first
PAIRED_METRICS = ("calibration_error", "brier")

EPILOG = """\
examples:
  sklearn-faithful calibration gold.txt probs.csv
  sklearn-faithful calibration gold.txt a.csv b.csv       # B against A
  sklearn-faithful calibration gold.txt probs.csv --multi-class classwise \\
      --method debiased --format json
  sklearn-faithful calibration gold.txt probs.csv --groups passages.txt
  sklearn-faithful calibration gold.txt a.csv b.csv --plot reliability.png
"""

_BINS = Applies(lambda a: a.method != "smooth", "to the binned estimators, not "
                "with --method smooth")  # fmt: skip

# the options that act on some runs only (every option honoured or refused)
APPLIES = {
    "norm": Applies(
        lambda a: a.method == "binned",
        "with --method binned (debiased is l2, smooth l1)",
    ),
    "n_bins": _BINS,
    "strategy": _BINS,
    "pos_label": Applies(
        lambda a: a.multi_class == "auto",
        "with --multi-class auto (the positive class of two classes)",
    ),
    "plot": Applies(
        lambda a: a.multi_class != "classwise",
        "with --multi-class auto or top-label (a diagram draws one problem)",
    ),
}


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="calibration error, test of calibration and CORP decomposition "
        "of probability files",
        description="The calibration error of each system's probabilities with "
        "a bootstrap interval, the test of calibration (H0: calibrated), the "
        "CORP decomposition of the Brier score, and with several systems the "
        "paired comparison of each against the first.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    p.add_argument("gold", metavar="GOLD")
    p.add_argument("systems", metavar="PROBS", nargs="+")
    g = p.add_argument_group("inputs")
    add_label_options(g)
    g.add_argument(
        "--classes",
        help="plain 2-D .npy probability files: the class of each column, A,B,C",
    )
    e = p.add_argument_group("calibration error")
    e.add_argument(
        "--method",
        choices=METHODS,
        default=DEFAULT_METHOD,
        help=f"the estimator (default: {DEFAULT_METHOD})",
    )
    e.add_argument(
        "--norm",
        choices=NORMS,
        default=NORMS[0],
        help="the norm of the binned error: l1 (the ECE) or l2; debiased is l2 "
        f"and smooth l1 (default: {NORMS[0]})",
    )
    e.add_argument(
        "--n-bins",
        type=number(1, kind=int),
        default=DEFAULT_N_BINS,
        help=f"bins of the binned estimators (default: {DEFAULT_N_BINS})",
    )
    e.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default=DEFAULT_STRATEGY,
        help="equal-width bins (uniform) or equal numbers of items (quantile) "
        f"(default: {DEFAULT_STRATEGY})",
    )
    e.add_argument(
        "--multi-class",
        choices=MULTI_CLASS,
        default=MULTI_CLASS[0],
        help="the probabilities judged: the positive class's for two classes "
        "and the top label's for more (auto), the top label's, or every "
        f"class's (classwise) (default: {MULTI_CLASS[0]})",
    )
    e.add_argument(
        "--pos-label",
        help="two classes: the class whose probability is judged (default: "
        "the greater class name)",
    )
    r = p.add_argument_group("resampling")
    r.add_argument(
        "--interval",
        choices=INTERVALS,
        default=DEFAULT_INTERVAL,
        help=f"the bootstrap interval of the error (default: {DEFAULT_INTERVAL})",
    )
    r.add_argument(
        "--test",
        choices=TESTS,
        default=TESTS[0],
        help="the test of calibration: consistency resampling, or "
        f"Spiegelhalter's z of one binary problem (default: {TESTS[0]})",
    )
    add_groups(r)
    add_resampling(r, "bootstrap and consistency resamples")
    add_n_jobs(r)
    add_random_state(p)
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="write the reliability diagrams (.png, .pdf, .svg) of the "
        "systems, with consistency bands at --confidence-level (needs "
        "matplotlib)",
    )
    add_format(p)
    return p


def _estimator(args, data):
    """The calibration room's estimator parameters of ``args``."""
    return {
        "method": args.method,
        "norm": args.norm if args.method == "binned" else None,
        "n_bins": args.n_bins,
        "strategy": args.strategy,
        "multi_class": args.multi_class,
        "labels": data.labels,
        "pos_label": data.pos_label,
    }


def _resampling(args):
    return {
        "n_resamples": args.n_resamples,
        "random_state": args.random_state,
        "n_jobs": args.n_jobs,
    }


def run(args):
    from ..calibration import (
        calibration_error_interval,
        calibration_test,
        corp_decomposition,
        paired_calibration_test,
    )

    data = _read(args)
    est = _estimator(args, data)
    # what each system's probabilities are judged as, and compared on
    classes = {k: est[k] for k in ("labels", "pos_label")}
    if args.test == "spiegelhalter":
        # a closed form of the probabilities: no estimator, no resamples
        test_kwargs = {**classes, "multi_class": args.multi_class}
    elif {"method", "norm"} & set(given(args)):
        test_kwargs = {**est, **_resampling(args)}
    else:
        # the test's statistic is the room's own default (the binned error,
        # the more powerful)
        test_kwargs = {
            **est,
            "method": DEFAULT_TEST_METHOD,
            "norm": None,
            **_resampling(args),
        }
    groups = data.group_kwargs
    y = data.y_true
    systems, comparisons = [], []
    for name, proba in zip(data.names, data.preds, strict=True):
        systems.append(
            {
                "system": name,
                "calibration_error": calibration_error_interval(
                    y,
                    proba,
                    **est,
                    **groups,
                    interval=args.interval,
                    confidence_level=args.confidence_level,
                    **_resampling(args),
                ),
                "test": calibration_test(y, proba, test=args.test, **test_kwargs),
                "decomposition": corp_decomposition(
                    y,
                    proba,
                    multi_class=args.multi_class,
                    labels=data.labels,
                    pos_label=data.pos_label,
                ),
            }
        )
    for name, proba in zip(data.names[1:], data.preds[1:], strict=True):
        entry = {"system_a": data.names[0], "system_b": name}
        for metric in PAIRED_METRICS:
            # a proper score is of all the probabilities: no estimator
            kwargs = est if metric == "calibration_error" else classes
            entry[metric] = paired_calibration_test(
                y,
                data.preds[0],
                proba,
                metric=metric,
                **kwargs,
                **groups,
                confidence_level=args.confidence_level,
                **_resampling(args),
            )
        comparisons.append(entry)
    if args.plot is not None:
        _plot(data, args)
    fields = data.fields(args)
    return header(
        NAME,
        args,
        gold=fields["gold"],
        n_items=fields["n_items"],
        classes=data.classes,
        pos_label=data.positive_class,
        groups=fields["groups"],
        n_groups=fields["n_groups"],
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        systems=systems,
        comparisons=comparisons,
        plot=args.plot,
        signature=_signature(args, fields["groups"]),
    )


def _signature(args, groups):
    from ._output import signature

    return signature(
        NAME,
        args,
        method=args.method,
        norm=args.norm if args.method == "binned" else None,
        bins=None if args.method == "smooth" else args.n_bins,
        strategy=None if args.method == "smooth" else args.strategy,
        multi_class=args.multi_class,
        pos_label=args.pos_label,
        interval=args.interval,
        test=args.test,
        resamples=args.n_resamples,
        level=args.confidence_level,
        groups=groups,
        column=args.column,
        field=args.field,
        classes=args.classes,
    )


def _read(args):
    """Gold labels and probability files as ``interval --metric cf1`` reads
    them (:class:`~._systems.Systems`): the labels as codes of the sorted
    class names, each system's columns in that order."""
    import numpy as np

    from ._io import InputError, InputNote
    from ._systems import Systems

    class Calibration(Systems):
        def __init__(self, args, paths):
            self.gold_name, self.names = paths[0], list(paths[1:])
            self._read_probabilities(args, paths)
            self.groups = self._read_groups(args)

    data = Calibration(args, [args.gold, *args.systems])
    k = len(data.classes)
    data.labels = np.arange(k)
    data.pos_label = None
    if args.pos_label is not None:
        if k != 2:
            raise InputError(
                f"--pos-label {args.pos_label!r} chooses the positive class of two "
                f"classes; the probability files have {k} ({', '.join(data.classes)}). "
                "Drop it, or choose the problem with --multi-class."
            )
        data.pos_label = data._pos_code(args.pos_label)
    # the class whose probability is judged: of two classes with
    # --multi-class auto, the greater unless --pos-label names one (the
    # package's rule); None for the top label and every class
    data.positive_class = None
    if args.multi_class == "auto" and k == 2:
        from ..utils._validation import _resolve_pos_label

        data.positive_class = str(
            _resolve_pos_label(np.asarray(data.classes), args.pos_label)[0]
        )
    # rows printed with few decimals sum to 1 only up to their rounding (the
    # reader accepts 1e-3); the calibration room wants sums of 1, so such rows
    # are divided by their sums, and a note says so
    tol = float(np.sqrt(np.finfo(np.float64).eps))
    for i, (name, proba) in enumerate(zip(data.names, data.preds, strict=True)):
        sums = proba.sum(axis=1)
        off = np.flatnonzero(np.abs(sums - 1.0) > tol)
        if off.size:
            import warnings

            npy = name.lower().endswith(".npy")
            where = f"row {off[0] + 1}" if npy else f"line {off[0] + 2}"
            warnings.warn(
                f"{name}: {off.size} row(s) sum to 1 only up to rounding ({where} "
                f"sums to {_off_one(sums[off[0]])}); they were divided by their "
                "sums.",
                InputNote,
                stacklevel=2,
            )
            fixed = proba.copy()
            fixed[off] /= sums[off, None]
            data.preds[i] = fixed
    return data


def _off_one(total):
    """``total``, a sum that is not 1, with the digits that show it is not:
    0.9999999 rather than 1."""
    import math

    digits = max(6, 2 - math.floor(math.log10(abs(total - 1.0))))
    return f"{total:.{digits}g}"


def _plot(data, args):
    import numpy as np

    from ..calibration import ReliabilityDisplay
    from ._io import InputError

    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise InputError(f"--plot {args.plot}: {exc}") from None
    # the class names, not their codes, so that the axes name the class
    classes = np.asarray(data.classes)
    fig, ax = plt.subplots()
    try:
        for name, proba in zip(data.names, data.preds, strict=True):
            ReliabilityDisplay.from_predictions(
                classes[data.y_true],
                proba,
                multi_class=args.multi_class,
                labels=classes,
                pos_label=args.pos_label,
                confidence_level=args.confidence_level,
                random_state=args.random_state,
                name=name,
                ax=ax,
            )
        fig.savefig(args.plot, bbox_inches="tight")
    except (OSError, ValueError) as exc:
        raise InputError(f"--plot {args.plot}: cannot be written ({exc}).") from None
    finally:
        plt.close(fig)


def text(p):
    lines = []
    for s in p["systems"]:
        ce, test, dec = s["calibration_error"], s["test"], s["decomposition"]
        clusters = groups_text(p)
        positive = (
            "" if p["pos_label"] is None else f", positive class {p['pos_label']}"
        )
        lines += [
            f"{s['system']} on {p['n_items']} items{clusters}{positive}:",
            f"  {ce['estimator']}: {fmt(ce['statistic'])}",
            f"  {level(p['confidence_level'])} {ce['interval']} bootstrap interval: "
            f"{fmt_interval(ce['confidence_interval'])}  (standard error "
            f"{fmt(ce['standard_error'])}, {p['n_resamples']} resamples)",
            # the statistic named by its estimator: the test's own default
            # (the binned ECE) may differ from the error's above
            f"  test of calibration ({test['method']}): {test['estimator']} = "
            f"{fmt(test['statistic'])}, p = {test['pvalue']:.4g}",
            f"  CORP decomposition of the {dec['scoring']}: score "
            f"{fmt(dec['score'])} = MCB {fmt(dec['miscalibration'])} - DSC "
            f"{fmt(dec['discrimination'])} + UNC {fmt(dec['uncertainty'])}",
        ]
    for c in p["comparisons"]:
        lines.append(f"{c['system_b']} - {c['system_a']} (lower is better):")
        for metric in PAIRED_METRICS:
            res = c[metric]
            lines.append(
                f"  {metric}: {fmt(res['statistic'], signed=True)}, "
                f"{level(res['confidence_level'])} interval "
                f"{fmt_interval(res['confidence_interval'], signed=True)}, "
                f"p = {res['pvalue']:.4g}"
            )
    if p["plot"] is not None:
        lines.append(f"reliability diagram written to {p['plot']}")
    lines.append(f"random_state={p['random_state']}")
    lines.append(signature_text(p["signature"]))
    return "\n".join(lines)

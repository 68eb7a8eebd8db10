"""``sklearn-faithful interval``: one system's score with a bootstrap interval."""

from ..holdout._options import INTERVAL_METHODS
from ._arguments import RAW, add_format, add_inputs, add_random_state, resolve_metric
from ._output import fmt, fmt_interval, header, level, metric_text

NAME = "interval"

EPILOG = """\
examples:
  sklearn-faithful interval gold.txt sys.txt --metric f1 --average macro
  sklearn-faithful interval gold.txt sys.csv --metric cf1 --method bca
  sklearn-faithful interval gold.conll sys.conll --conll --metric f1
"""


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="one system's score with a bootstrap confidence interval",
        description="One system's score with a bootstrap confidence interval.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    p.add_argument("gold", metavar="GOLD")
    p.add_argument("system", metavar="SYS")
    add_inputs(p)
    p.add_argument(
        "--method",
        choices=INTERVAL_METHODS,
        default="percentile",
        help="interval type (default: percentile)",
    )
    add_random_state(p)
    add_format(p)
    return p


def run(args):
    from ._systems import Systems, interval_of

    resolve_metric(args)
    data = Systems(args, [args.gold, args.system])
    res = interval_of(data, 0, args)
    return header(
        NAME,
        args,
        **data.fields(args),
        system=data.names[0],
        method=args.method,
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        interval=res,
    )


def text(p):
    metric = metric_text(p)
    res = p["interval"]
    return "\n".join(
        [
            f"{metric} of {p['system']} on {p['n_items']} {p['items']}: "
            f"{fmt(res['statistic'])}",
            f"{level(p['confidence_level'])} {p['method']} bootstrap interval: "
            f"{fmt_interval(res['confidence_interval'])}  (standard error "
            f"{fmt(res['standard_error'])}, {p['n_resamples']} resamples, "
            f"random_state={p['random_state']})",
        ]
    )

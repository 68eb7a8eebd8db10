"""``sklearn-faithful interval``: one system's score with a bootstrap interval."""

from ..holdout._options import INTERVAL_METHODS
from ._arguments import (
    INPUT_APPLIES,
    RAW,
    add_format,
    add_inputs,
    add_random_state,
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
)

NAME = "interval"

EPILOG = """\
examples:
  sklearn-faithful interval gold.txt sys.txt --metric f1 --average macro
  sklearn-faithful interval gold.txt sys.txt --metric f1,accuracy
  sklearn-faithful interval gold.txt sys.txt --groups passages.txt   # clusters
  sklearn-faithful interval gold.txt sys.csv --metric cf1 --method bca
  sklearn-faithful interval gold.conll sys.conll --conll --metric f1
"""

# the options that act on some runs only (every option honoured or refused)
APPLIES = INPUT_APPLIES


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
    from ._systems import Systems, intervals_of

    resolve_metric(args)
    data = Systems(args, [args.gold, args.system])
    metrics = [
        {**metric_fields(metric[0], args), "interval": interval}
        for metric, interval in zip(
            data.metrics, intervals_of(data, 0, args), strict=True
        )
    ]
    fields = data.fields(args)
    return header(
        NAME,
        args,
        **fields,
        system=data.names[0],
        method=args.method,
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        metrics=metrics,
        signature=files_signature(
            NAME, args, fields["groups"], {"method": args.method}
        ),
    )


def text(p):
    lines = []
    for entry in p["metrics"]:
        res = entry["interval"]
        lines += [
            f"{metric_text(entry, p['entity_level'])} of {p['system']} on "
            f"{p['n_items']} {p['items']}{groups_text(p)}: {fmt(res['statistic'])}",
            f"{level(p['confidence_level'])} {p['method']} bootstrap interval: "
            f"{fmt_interval(res['confidence_interval'])}  (standard error "
            f"{fmt(res['standard_error'])}, {p['n_resamples']} resamples, "
            f"random_state={p['random_state']})",
        ]
    lines.append(signature_text(p["signature"]))
    return "\n".join(lines)

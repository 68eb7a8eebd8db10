"""``sklearn-faithful plan``: items per run for a regression gate, and its threshold."""

from ._arguments import LEVEL, RAW, Applies, add_format, number
from ._output import header, table

NAME = "plan"

EPILOG = """\
examples:
  sklearn-faithful plan --accuracy 0.9 --mde 0.02
  sklearn-faithful plan --sigma 0.3 --mde 0.01 --alpha 0.01 --power 0.9
"""

# the options that act on some runs only (every option honoured or refused)
APPLIES = {
    "lower_is_better": Applies(
        lambda a: a.accuracy is not None or a.reference_mean is not None,
        "to the gate's threshold, which needs --accuracy or --reference-mean",
    ),
}


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="items per run for a regression gate, and its threshold",
        description="Items per run that detect a drop of --mde with the given "
        "power, the gate's threshold, and the theta(n) table.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    spread = p.add_mutually_exclusive_group(required=True)
    spread.add_argument(
        "--sigma", type=number(0, low_open=True), help="std of per-item scores"
    )
    spread.add_argument(
        "--accuracy",
        type=LEVEL,
        help="expected accuracy p of 0/1 scores: sigma = sqrt(p (1 - p))",
    )
    p.add_argument(
        "--mde", type=number(0, low_open=True), required=True, help="drop to detect"
    )
    p.add_argument(
        "--alpha",
        type=number(0, 0.5, low_open=True, high_open=True),
        default=0.05,
        help="false-alarm rate (default: 0.05)",
    )
    p.add_argument(
        "--power",
        type=number(0.5, 1, low_open=True, high_open=True),
        default=0.8,
        help="1 - beta (default: 0.8)",
    )
    p.add_argument(
        "--reference-mean",
        type=number(),
        help="reference score for the threshold (default: --accuracy)",
    )
    p.add_argument(
        "--lower-is-better", action="store_true", help="the score is an error rate"
    )
    add_format(p)
    return p


def run(args):
    from ..gate import (
        estimate_sigma,
        minimum_detectable_effect,
        regression_threshold,
        required_sample_size,
    )

    beta = 1.0 - args.power
    sigma = args.sigma
    reference = args.reference_mean
    if sigma is None:
        sigma = estimate_sigma(proportion=args.accuracy)
        reference = args.accuracy if reference is None else reference
    n, theta = required_sample_size(
        sigma, args.mde, alpha=args.alpha, beta=beta, return_table=True
    )
    threshold = None
    if reference is not None:
        threshold = regression_threshold(
            reference,
            sigma,
            n,
            alpha=args.alpha,
            higher_is_better=not args.lower_is_better,
        )
    return header(
        NAME,
        args,
        sigma=sigma,
        accuracy=args.accuracy,
        mde=args.mde,
        alpha=args.alpha,
        power=args.power,
        n=n,
        achieved_mde=minimum_detectable_effect(sigma, n, alpha=args.alpha, beta=beta),
        reference_mean=reference,
        threshold=threshold,
        table=[
            {"n": a, "theta": b}
            for a, b in zip(theta["n"], theta["theta"], strict=True)
        ],
    )


def text(p):
    lines = [
        f"Regression gate: sigma={p['sigma']:.4g}, detect a drop of {p['mde']:g} "
        f"with power {p['power']:g} at alpha {p['alpha']:g}",
        f"items per run: {p['n']}  (it detects drops of {p['achieved_mde']:.4g})",
    ]
    if p["threshold"] is not None:
        lines.append(
            f"threshold: a new run fails when its mean crosses {p['threshold']:.4f} "
            f"(reference {p['reference_mean']:g})"
        )
    lines += ["", "theta(n): the smallest drop n items detect", ""]
    lines += table(
        ["n", "theta"], [[str(r["n"]), f"{r['theta']:.4g}"] for r in p["table"]]
    )
    return "\n".join(lines)

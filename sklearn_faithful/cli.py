"""The ``sklearn-faithful`` command line."""

import argparse
import os
import sys

from ._demo import run_demo


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="sklearn-faithful",
        description="Faithful model evaluation for scikit-learn.",
    )
    from . import __version__

    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser(
        "demo", help="show the package at work on data bundled with scikit-learn"
    )
    demo.add_argument(
        "--random-state",
        type=_seed,
        default=0,
        help="seed for the cross-validation splits (default: 0)",
    )
    return parser


def _seed(text):
    """An argparse type: a seed is a whole number from 0 to 2**32 - 1."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a seed; use a whole number from 0 to 4294967295"
        )
    return value


def main(argv=None):
    """Run the command line; return the exit status."""
    args = _build_parser().parse_args(argv)
    try:
        if args.command == "demo":
            run_demo(sys.stdout, args.random_state)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (`sklearn-faithful demo | head`): stop quietly,
        # and keep Python from complaining again when it flushes at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports it
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

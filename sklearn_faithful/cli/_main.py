"""The ``sklearn-faithful`` command line: the parser and ``main``.

``demo`` shows the package on bundled data; the other commands serve people
who hold prediction files (doc/cli.rst). Each command is a module with
``NAME``, ``add_parser(subparsers)``, ``run(args)``, which returns the
payload of the command (its results as result objects), and
``text(payload)``, which renders the payload's JSON values as a table.
Building the parser imports the command modules and the rooms' light option
lists, never numpy, scipy or scikit-learn: a command imports those when it
runs.
"""

import argparse
import os
import sys
import warnings

from . import _bayes_test, _compare, _demo, _interval, _model_based, _plan, _split
from ._output import dumps

COMMANDS = {
    module.NAME: module
    for module in (_demo, _compare, _interval, _split, _bayes_test, _plan, _model_based)
}


def build_parser():
    """The argument parser of every command."""
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="sklearn-faithful",
        description="Faithful model evaluation for scikit-learn.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    for module in COMMANDS.values():
        module.add_parser(subparsers)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None):
    print(f"sklearn-faithful: warning: {message}", file=sys.stderr)


def _output(args):
    """Run a file command; return its output text.

    The payload's results become their ``to_dict()``, and its numbers plain
    JSON values, by the one conversion the results' ``to_dict`` use; the
    text formatter renders the same values.
    """
    from ..utils._results import _jsonable

    command = COMMANDS[args.command]
    payload = _jsonable(command.run(args))
    return dumps(payload) if args.format == "json" else command.text(payload)


def main(argv=None):
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == _demo.NAME:
            _demo.run(args)  # prints as it goes
        else:
            from ._io import InputError

            try:
                with warnings.catch_warnings():
                    warnings.showwarning = _show_warning
                    output = _output(args)
            except (InputError, ValueError, TypeError) as exc:
                # bad input (our readers), or a value the package's functions
                # refuse (they name the parameter and the fix): no traceback
                print(f"sklearn-faithful {args.command}: error: {exc}", file=sys.stderr)
                return 2
            print(output)
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

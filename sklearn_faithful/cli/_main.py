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
import re
import sys
import warnings

from . import (
    _agreement,
    _battles,
    _bayes_test,
    _calibration,
    _compare,
    _demo,
    _eval_logs,
    _interval,
    _model_based,
    _plan,
    _split,
)
from ._arguments import track_given, unused_option
from ._output import dumps, signature_text

COMMANDS = {
    module.NAME: module
    for module in (
        _demo,
        _compare,
        _interval,
        _split,
        _bayes_test,
        _plan,
        _model_based,
        _agreement,
        _eval_logs,
        _calibration,
        _battles,
    )
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
        track_given(module.add_parser(subparsers))
    return parser


def _warning_printer(options, shown):
    """A ``warnings.showwarning`` that prints one line in the command line's
    words (:func:`cli_words` with ``options``), a note of a reader as a note,
    and appends ``{"category", "message"}`` of the line to ``shown`` (the
    ``warnings`` of the JSON output)."""

    def show(message, category, filename, lineno, file=None, line=None):
        kind = "note" if category.__name__ == "InputNote" else "warning"
        text = cli_words(str(message), options)
        shown.append({"category": category.__name__, "message": text})
        print(f"sklearn-faithful: {kind}: {text}", file=sys.stderr)

    return show


def _command_parser(parser, command):
    """The parser of ``command``, a sub-parser of ``parser``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[command]
    raise KeyError(command)  # pragma: no cover


def _file_arguments(parser, args):
    """{path: its name on the command line} of every str argument of ``args``:
    ``GOLD``, ``SYS_A``, ``--groups`` (a file named by two takes the first)."""
    out = {}
    for action in _command_parser(parser, args.command)._actions:
        value = getattr(args, action.dest, None)
        name = action.option_strings[-1] if action.option_strings else action.metavar
        name = name or action.dest.upper()
        if isinstance(name, tuple):
            name = name[0]
        if isinstance(value, list) and name == "FILE":
            # compare's FILE...: GOLD SYS_A SYS_B ...
            for i, v in enumerate(value):
                out.setdefault(v, "GOLD" if i == 0 else f"SYS_{chr(64 + i)}")
        elif isinstance(value, list):  # eval-logs' RUN...
            for v in value:
                out.setdefault(v, name)
        elif isinstance(value, str):
            out.setdefault(value, name)
    return out


def _output(args, shown):
    """Run a file command; return its output text.

    The payload's results become their ``to_dict()``, and its numbers plain
    JSON values, by the one conversion the results' ``to_dict`` use; the
    text formatter renders the same values. The JSON object ends with
    ``warnings``: ``shown``, the warnings and notes of the run as standard
    error shows them (:func:`_warning_printer`), empty when there were none.
    """
    from ..utils._results import _jsonable

    command = COMMANDS[args.command]
    payload = _jsonable(command.run(args))
    if args.format != "json":
        return command.text(payload)
    if "signature" in payload:
        # the line the text output ends with, beside its fields
        payload["signature_text"] = signature_text(payload["signature"])
    return dumps({**payload, "warnings": shown})


def main(argv=None):
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # an option given where it would not act stops the run, as argparse
    # stops on a bad value (every option honoured or refused)
    refused = unused_option(args, getattr(COMMANDS[args.command], "APPLIES", {}))
    if refused:
        print(f"sklearn-faithful {args.command}: error: {refused}.", file=sys.stderr)
        return 2
    options = {**_options(parser, args.command), **_PARAMETERS.get(args.command, {})}
    try:
        if args.command == _demo.NAME:
            _demo.run(args)  # prints as it goes
        else:
            from . import _io
            from ._io import InputError, InputNote, InputWarning

            _io.ARGUMENTS = _file_arguments(parser, args)
            try:
                shown = []
                with warnings.catch_warnings():
                    warnings.showwarning = _warning_printer(options, shown)
                    for category in (InputNote, InputWarning):
                        warnings.simplefilter("always", category)
                    output = _output(args, shown)
            except (InputError, ValueError, TypeError, MemoryError) as exc:
                # bad input (our readers), or a value the package's functions
                # refuse (they name the parameter and the fix, in the words of
                # Python: cli_words puts them in the command line's)
                text = str(exc)
                if not isinstance(exc, InputError):
                    text = cli_words(text, options)
                if isinstance(exc, MemoryError):
                    text = (
                        "not enough memory for these inputs; use smaller files or "
                        "options (such as --n-resamples)."
                    )
                print(
                    f"sklearn-faithful {args.command}: error: {text}", file=sys.stderr
                )
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


def _options(parser, command):
    """{Python parameter name: option} of ``command``: ``{"pos_label":
    "--pos-label", ...}``."""
    return {
        action.dest: action.option_strings[-1]
        for action in _command_parser(parser, command)._actions
        if action.option_strings and action.dest != "help"
    }


# NumPy scalars as repr shows them: np.float64(nan) -> nan
_NUMPY_SCALAR = re.compile(r"np\.(?:float|int|uint|bool|str)_?\d*\(([^()]*)\)")
# the methods of the Python API that a message may tell to call
_API_CALL = re.compile(r" (?:to|from|of) (?:from_rates|from_summary|test_labels|fit)\b")


# the package's names of the arrays the command line reads from files
_ARRAYS = {
    "y_true": "GOLD",
    "y_pred_a": "SYS_A",
    "y_pred_b": "SYS_B",
    "y_pred": "the system's labels",
    "y_proba": "the probability file",
    "labels_c": "--labels-c",
    "labels_t": "--labels-t",
    "annotated_c": "--annotated-c",
    "annotated_t": "--annotated-t",
    "reliability_data": "ANNOTATIONS",
}


# parameters of the package's functions that a command's options set under
# another name
_PARAMETERS = {
    "plan": {"theta": "--mde"},
    "agreement": {
        "level_of_measurement": "--level",
        # compare_to_annotators, with --model-coder
        "coefficient": "--model-coefficient",
        "model_name": "--model-coder",
        "y_pred": "the model coder (--model-coder)",
    },
    "eval-logs": {
        "groups_field": "--cluster-field",
        "groups": "--cluster-field",
        "judge_scores": "--score-field",
        "human_scores": "--human-field",
    },
}


# phrases of the package's messages that name Python objects, and what the
# command line says instead
_PHRASES = (
    (r"\bX has (\d+) samples?\b", r"the input has \1 items"),
    (
        r"\bBlockRegularizedMx2CV\(n_repetitions=(\d+)[^)]*\)",
        r"a \1x2 BCV (--repetitions \1)",
    ),
    (r"\b(\d+) samples are needed", r"\1 items are needed"),
    # the command line builds the coders x units matrix itself
    (r" Units in rows\? Pass the transpose \(reliability_data\.T\)\.", ""),
    # compare_to_annotators checks the model's labels with the annotators':
    # the command line read them all from one file
    (r"\breliability_data with y_pred\b", "reliability_data"),
)


def cli_words(message, options):
    """A message of the package's functions, in the words of the command line.

    ``options`` maps the parameters of the command that runs to its options
    (``{"pos_label": "--pos-label"}``). ``name=value`` of a parameter that
    is an option becomes ``--option value``, a parameter's name with an
    underscore becomes the option, the arrays read from files their files,
    the Python methods a message names are dropped, and NumPy scalars print
    as plain numbers.
    """
    message = _NUMPY_SCALAR.sub(r"\1", message)
    for pattern, replacement in _PHRASES:
        message = re.sub(pattern, replacement, message)

    def assignment(match):
        name, value = match.group(1), match.group(2).strip("'\"")
        return f"{options[name]} {value}" if name in options else match.group(0)

    message = re.sub(r"\b([a-z_]+)=('[^']*'|\"[^\"]*\"|[\w.+-]+)", assignment, message)
    words = {**_ARRAYS, **{k: v for k, v in options.items() if "_" in k}}
    words.update((k, v) for k, v in options.items() if not v.startswith("--" + k))
    for name, option in words.items():
        pattern = rf"(?<![\w-])'?{re.escape(name)}'?(?![\w=-])"
        message = re.sub(pattern, option, message)
    message = re.sub(
        r"(?<![\w-])groups (?=names|must|contains|holds)", "--groups ", message
    )
    return _API_CALL.sub("", message)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

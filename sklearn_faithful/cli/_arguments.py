"""Argument types and the option groups that several commands share.

Nothing here imports numpy, scipy or scikit-learn, so that ``--help`` stays
fast; the choices come from the rooms' light ``_options`` modules.
"""

import argparse

from ..holdout._options import (
    AVERAGED_METRIC_NAMES,
    CONFIDENCE_METRIC_NAMES,
    METRIC_NAMES,
)
from ..metrics._options import AVERAGE_OPTIONS
from ..model_selection._options import MAX_REPETITIONS

# tagging schemes of CoNLL files, as seqeval names them
SCHEMES = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU")

RAW = argparse.RawDescriptionHelpFormatter


def seed(text):
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


def number(low=None, high=None, *, kind=float, low_open=False, high_open=False):
    """An argparse type: a number in a range, with the range in the message."""

    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        # NaN and infinity fail
        ok = value is not None and value == value and abs(value) != float("inf")
        if ok and low is not None:
            ok = value > low if low_open else value >= low
        if ok and high is not None:
            ok = value < high if high_open else value <= high
        if not ok:
            what = "a whole number" if kind is int else "a number"
            lo = "" if low is None else f"{'>' if low_open else '>='} {low}"
            hi = "" if high is None else f"{'<' if high_open else '<='} {high}"
            rng = " and ".join(part for part in (lo, hi) if part)
            raise argparse.ArgumentTypeError(
                f"{text!r} is not {what}" + (f" {rng}" if rng else "")
            )
        return value

    return parse


class names:
    """An argparse type: names from ``choices``, separated by commas.

    Returns a tuple of the names in their order, each once; ``choices`` is
    kept on the type for ``--help`` and the tests.
    """

    def __init__(self, choices):
        self.choices = tuple(choices)

    def __call__(self, text):
        out = tuple(dict.fromkeys(v.strip() for v in text.split(",")))
        bad = [v for v in out if v not in self.choices]
        if bad:
            raise argparse.ArgumentTypeError(
                f"{bad[0]!r} is not one of {', '.join(self.choices)} (several: "
                "separate them with commas, such as f1,accuracy)"
            )
        return out


LEVEL = number(0, 1, low_open=True, high_open=True)
THRESHOLD = number(0.5, 1, low_open=True, high_open=True)
REPETITIONS = number(1, MAX_REPETITIONS, kind=int)


def add_format(p):
    """``--format text|json``, the last option of every file command."""
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: a table for people; json: a stable schema for programs "
        "(doc/cli.rst) (default: text)",
    )


def add_random_state(p, what="seed of the resampling"):
    p.add_argument(
        "--random-state",
        type=seed,
        default=0,
        help=f"{what} (default: 0); the same seed gives the numbers of the Python API",
    )


def add_label_options(g, what="the label"):
    """``--column`` and ``--field``: where a table or JSON Lines file keeps
    labels; a file is one or the other, so they exclude each other."""
    one = g.add_mutually_exclusive_group()
    one.add_argument("--column", help=f"CSV/TSV files: the column that holds {what}")
    one.add_argument("--field", help=f"JSON Lines files: the field that holds {what}")


def add_scheme(p):
    p.add_argument(
        "--scheme",
        choices=SCHEMES,
        default="IOB2",
        help="CoNLL tagging scheme; BIO is IOB2 (default: IOB2)",
    )


def add_inputs(p, *, tests=None):
    """The input, metric and resampling options of ``compare`` and ``interval``.

    ``tests`` is the tuple of ``--test`` choices, the first the default; None
    for a command that tests nothing.
    """
    g = p.add_argument_group("inputs")
    add_label_options(g)
    g.add_argument(
        "--classes",
        help="plain 2-D .npy probability files: the class of each column, A,B,C",
    )
    g.add_argument(
        "--conll",
        action="store_true",
        help="the files are CoNLL (one token a line, blank lines between "
        "sentences): entity-level scores over sentences, spans by seqeval "
        "(pip install 'sklearn-faithful[nlp]')",
    )
    add_scheme(g)
    g.add_argument(
        "--tag-column",
        type=int,
        default=-1,
        help="CoNLL column of the tags, 0-based; -1 is the last (default: -1)",
    )
    m = p.add_argument_group("metric")
    m.add_argument(
        "--metric",
        type=names(METRIC_NAMES),
        default=None,
        metavar="METRIC[,METRIC...]",
        help=f"one or several of {', '.join(METRIC_NAMES)}, separated by commas; "
        "c-metrics take probability files as systems (default: accuracy; f1 "
        "with --conll)",
    )
    m.add_argument(
        "--average",
        choices=AVERAGE_OPTIONS,
        default="macro",
        help="averaging of precision, recall, F1 and the c-metrics (default: macro)",
    )
    m.add_argument("--pos-label", help="the positive class for --average binary")
    r = p.add_argument_group("resampling")
    if tests:
        r.add_argument(
            "--test",
            choices=tests,
            default=tests[0],
            help=f"how each system is tested against the first (default: {tests[0]})",
        )
    add_groups(r)
    add_resampling(r)


def add_groups(r):
    """``--groups``, ``--groups-column`` and ``--groups-field``: the items'
    clusters, from a file of their own or a column (field) of GOLD."""
    g = r.add_mutually_exclusive_group()
    g.add_argument(
        "--groups",
        metavar="FILE",
        help="one cluster label per item (a line per line of GOLD): resample "
        "whole clusters",
    )
    g.add_argument(
        "--groups-column",
        metavar="NAME",
        help="CSV/TSV inputs: the column of GOLD that holds each item's cluster",
    )
    g.add_argument(
        "--groups-field",
        metavar="NAME",
        help="JSON Lines inputs: the field of GOLD that holds each item's cluster",
    )


def _averaged(args):
    """Whether a metric of ``args`` is averaged over classes (not with --conll,
    whose entity-level scores are micro-averaged over types)."""
    metrics = args.metric or (("f1",) if args.conll else ("accuracy",))
    return not args.conll and any(m in AVERAGED_METRIC_NAMES for m in metrics)


def _probabilities(args):
    return not args.conll and any(
        m in CONFIDENCE_METRIC_NAMES for m in (args.metric or ())
    )


# --n-resamples by default, as the Python functions' n_resamples
N_RESAMPLES = 9999


def add_resampling(g, what="bootstrap resamples or permutations"):
    """``--n-resamples`` and ``--confidence-level``."""
    g.add_argument(
        "--n-resamples",
        type=number(2, kind=int),
        default=N_RESAMPLES,
        help=f"{what} (default: {N_RESAMPLES})",
    )
    g.add_argument(
        "--confidence-level",
        type=LEVEL,
        default=0.95,
        help="level of the intervals (default: 0.95)",
    )


def add_n_jobs(g, what="resamples computed in parallel"):
    """``--n-jobs``, the ``n_jobs`` of the package's functions."""
    g.add_argument("--n-jobs", type=int, default=None, help=f"{what} (default: 1)")


def resolve_metric(args):
    """The default metric: accuracy of labels, entity-level F1 of CoNLL files."""
    if args.metric is None:
        args.metric = ("f1",) if args.conll else ("accuracy",)


# Every option honoured or refused
# --------------------------------
# The parser records which options the command line gave (``track_given``);
# an option given twice is refused at once, where argparse would keep the
# last. Each command module lists in ``APPLIES`` the options that act on some
# runs only, each with a ``when(args)`` test and the words that say when it
# acts; ``refuse_unused`` stops a run that gives one where it would not act,
# before anything is read. Options not in ``APPLIES`` act on every run of
# their command. tests/test_common_options.py walks every option of every
# command on every kind of input and fails on one that is ignored.


class Applies:
    """When an option acts: ``when(args)`` is true, in the words ``needs``.

    ``needs`` completes "applies only ...": ``"with --average binary"``.
    """

    def __init__(self, when, needs):
        self.when = when
        self.needs = needs


# the actions that may be given more than once, each adding a value
_REPEATABLE = (argparse._AppendAction, argparse._CountAction)


def _recording(cls):
    """A subclass of the argparse action ``cls`` that records, in the
    namespace's ``given_options`` ({dest: option as typed}), that its option
    was given, and refuses it the second time."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = vars(namespace).setdefault("given_options", {})
        if self.dest in given and not isinstance(self, _REPEATABLE):
            hint = ""
            if isinstance(self.type, names):
                hint = "; several values go in one, separated by commas"
            parser.error(
                f"{option_string} is given twice; give it once{hint} (the "
                "command line would otherwise keep the last and drop the first)"
            )
        given[self.dest] = option_string
        cls.__call__(self, parser, namespace, values, option_string)

    return type(cls.__name__, (cls,), {"__call__": __call__})


_RECORDING = {}


def track_given(parser):
    """Make every option of ``parser`` record that it was given; returns
    ``parser``."""
    for action in parser._actions:
        if action.option_strings and not isinstance(action, argparse._HelpAction):
            cls = type(action)
            if cls not in _RECORDING.values():
                if cls not in _RECORDING:
                    _RECORDING[cls] = _recording(cls)
                action.__class__ = _RECORDING[cls]
    return parser


def given(args):
    """The dests of the options the command line gave."""
    return getattr(args, "given_options", {})


def unused_option(args, applies):
    """The message refusing the first option in ``applies`` ({dest:
    :class:`Applies`}) that the command line gave and that would not act on
    this run, or None when every given option acts."""
    typed = given(args)
    for dest, rule in applies.items():
        if dest in typed and not rule.when(args):
            value = getattr(args, dest)
            shown = "" if isinstance(value, bool) else f" {_shown(value)}"
            return (
                f"{typed[dest]}{shown} would have no effect: it applies only "
                f"{rule.needs}. Drop it, or give what it needs"
            )
    return None


def _shown(value):
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


# when the options of ``add_inputs`` act (``Applies`` below)
_NOT_CONLL = Applies(
    lambda a: not a.conll, "to label and probability files, not with --conll"
)
INPUT_APPLIES = {
    "column": _NOT_CONLL,
    "field": _NOT_CONLL,
    "classes": Applies(
        _probabilities,
        "to probability files (--metric " + ", ".join(CONFIDENCE_METRIC_NAMES) + ")",
    ),
    "scheme": Applies(lambda a: a.conll, "with --conll"),
    "tag_column": Applies(lambda a: a.conll, "with --conll"),
    "average": Applies(
        _averaged,
        "with a --metric averaged over classes ("
        + ", ".join(AVERAGED_METRIC_NAMES)
        + "), not with --conll (entity-level scores are micro-averaged)",
    ),
    "pos_label": Applies(
        lambda a: _averaged(a) and a.average == "binary", "with --average binary"
    ),
}

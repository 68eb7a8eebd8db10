"""The ``sklearn-faithful`` command line.

``demo`` shows the package on bundled data; the other subcommands serve
people who hold prediction files (see doc/cli.rst). The parser lives here;
the readers are in ``_io.py`` and the commands in ``_commands.py``.
"""

import argparse
import json
import os
import sys
import warnings

from ._demo import run_demo

_EPILOG_COMPARE = """\
examples:
  sklearn-faithful compare gold.txt sysA.txt sysB.txt --metric f1 --average macro
  sklearn-faithful compare gold.txt a.txt b.txt c.txt --test permutation --format json
  sklearn-faithful compare gold.tsv a.tsv b.tsv --column label --test sign
  sklearn-faithful compare gold.jsonl a.jsonl b.jsonl --field label
  sklearn-faithful compare gold.txt a.csv b.csv --metric cf1    # probability files
  sklearn-faithful compare gold.conll a.conll b.conll --conll --metric f1 \\
      --test paired-bayes                       # entity level, needs [nlp]
"""

_EPILOG_INTERVAL = """\
examples:
  sklearn-faithful interval gold.txt sys.txt --metric f1 --average macro
  sklearn-faithful interval gold.txt sys.csv --metric cf1 --method bca
  sklearn-faithful interval gold.conll sys.conll --conll --metric f1
"""

_EPILOG_SPLIT = """\
examples:
  sklearn-faithful split 10000 --out splits/
  sklearn-faithful split corpus.txt --labels labels.txt --out splits/
  sklearn-faithful split train.conll --conll --out splits/   # by entity types
  sklearn-faithful split corpus.txt --groups documents.txt --repetitions 5 --out s/
"""

_EPILOG_BAYES = """\
examples:
  sklearn-faithful bayes-test counts_a.txt counts_b.txt          # TP FP FN rows
  sklearn-faithful bayes-test a.txt b.txt --triples --metric precision
  sklearn-faithful bayes-test a.txt b.txt --paired --rope 0.005 --format json
"""

_EPILOG_PLAN = """\
examples:
  sklearn-faithful plan --accuracy 0.9 --mde 0.02
  sklearn-faithful plan --sigma 0.3 --mde 0.01 --alpha 0.01 --power 0.9
"""

_EPILOG_MODEL = """\
examples (Goyal et al. 2023, Table 1, BOLD):
  sklearn-faithful model-based --mean-c 0.00456 --n-c 23679 --mean-t 0.00236 \\
      --n-t 23679 --precision 0.8897 --false-omission-rate 0.22769
"""


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


def _number(low=None, high=None, *, kind=float, low_open=False, high_open=False):
    """An argparse type: a number in a range, with the range in the message."""

    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        ok = value is not None and value == value  # NaN fails
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


_LEVEL = _number(0, 1, low_open=True, high_open=True)


def _common(p, *, seed=True):
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: a table for people; json: a stable schema for programs "
        "(doc/cli.rst) (default: text)",
    )
    if seed:
        p.add_argument(
            "--random-state",
            type=_seed,
            default=0,
            help="seed of the resampling (default: 0); the same seed gives the "
            "numbers of the Python API",
        )


def _inputs(p, *, tests):
    g = p.add_argument_group("inputs")
    g.add_argument("--column", help="CSV/TSV files: the column that holds the label")
    g.add_argument("--field", help="JSON Lines files: the field that holds the label")
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
    g.add_argument(
        "--scheme",
        choices=("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"),
        default="IOB2",
        help="CoNLL tagging scheme; BIO is IOB2 (default: IOB2)",
    )
    g.add_argument(
        "--tag-column",
        type=int,
        default=-1,
        help="CoNLL column of the tags, 0-based; -1 is the last (default: -1)",
    )
    m = p.add_argument_group("metric")
    m.add_argument(
        "--metric",
        choices=(
            "accuracy",
            "precision",
            "recall",
            "f1",
            "cprecision",
            "crecall",
            "cf1",
        ),
        default=None,
        help="c-metrics take probability files as systems (default: accuracy; "
        "f1 with --conll)",
    )
    m.add_argument(
        "--average",
        choices=("binary", "micro", "macro", "weighted"),
        default="macro",
        help="averaging of precision, recall, F1 and the c-metrics (default: macro)",
    )
    m.add_argument("--pos-label", help="the positive class for --average binary")
    r = p.add_argument_group("resampling")
    if tests:
        r.add_argument(
            "--test",
            choices=("paired-bootstrap", "permutation", "sign", "paired-bayes"),
            default="paired-bootstrap",
            help="how each system is tested against the first (default: "
            "paired-bootstrap)",
        )
    r.add_argument(
        "--n-resamples",
        type=_number(2, kind=int),
        default=9999,
        help="bootstrap resamples or permutations (default: 9999)",
    )
    r.add_argument(
        "--confidence-level",
        type=_LEVEL,
        default=0.95,
        help="level of the intervals (default: 0.95)",
    )


def _build_parser():
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="sklearn-faithful",
        description="Faithful model evaluation for scikit-learn.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    raw = argparse.RawDescriptionHelpFormatter
    demo = sub.add_parser(
        "demo", help="show the package at work on data bundled with scikit-learn"
    )
    demo.add_argument(
        "--random-state",
        type=_seed,
        default=0,
        help="seed for the cross-validation splits (default: 0)",
    )

    compare = sub.add_parser(
        "compare",
        help="compare systems' predictions on the same gold labels",
        description="Score each system with a bootstrap interval and test each "
        "against the first (the baseline) on the same items. Files hold one "
        "item per line, matched by position. With more than two systems the "
        "p-values are adjusted by Holm's method.",
        epilog=_EPILOG_COMPARE,
        formatter_class=raw,
    )
    compare.add_argument(
        "files", nargs="+", metavar="FILE", help="GOLD SYS_A SYS_B [SYS_C ...]"
    )
    _inputs(compare, tests=True)
    b = compare.add_argument_group("paired-bayes")
    b.add_argument(
        "--repetitions",
        type=_number(1, 15, kind=int),
        default=3,
        help="m of the m x 2 BCV halves of the items (default: 3)",
    )
    b.add_argument(
        "--rope",
        type=_number(0),
        default=0.0,
        help="half-width of the region of practical equivalence (default: 0)",
    )
    b.add_argument(
        "--threshold",
        type=_number(0.5, 1, low_open=True, high_open=True),
        default=0.95,
        help="posterior probability a decision needs (default: 0.95)",
    )
    compare.add_argument(
        "--n-jobs",
        type=int,
        default=None,
        help="systems and comparisons computed in parallel threads (default: 1)",
    )
    _common(compare)

    interval = sub.add_parser(
        "interval",
        help="one system's score with a bootstrap confidence interval",
        description="One system's score with a bootstrap confidence interval.",
        epilog=_EPILOG_INTERVAL,
        formatter_class=raw,
    )
    interval.add_argument("gold", metavar="GOLD")
    interval.add_argument("system", metavar="SYS")
    _inputs(interval, tests=False)
    interval.add_argument(
        "--method",
        choices=("percentile", "basic", "bca"),
        default="percentile",
        help="interval type (default: percentile)",
    )
    _common(interval)

    split = sub.add_parser(
        "split",
        help="write m x 2 BCV train/test index files for an external trainer",
        description="Cut N items (or the lines of a file, or the sentences of a "
        "CoNLL corpus) into the blocks of a block-regularized m x 2 CV, write "
        "each split's train and test item numbers (0-based, one a line) to "
        "DIR/split<k>_train.txt and DIR/split<k>_test.txt, and print the block "
        "balance.",
        epilog=_EPILOG_SPLIT,
        formatter_class=raw,
    )
    split.add_argument("corpus", metavar="CORPUS_OR_N")
    split.add_argument(
        "--repetitions",
        type=_number(1, 15, kind=int),
        default=3,
        help="m, the number of two-fold partitions (default: 3)",
    )
    reg = split.add_mutually_exclusive_group()
    reg.add_argument("--labels", help="one class label per item: stratify on it")
    reg.add_argument(
        "--counts", help="one row of counts per item (e.g. entities by type): balance"
    )
    reg.add_argument("--groups", help="one group per item: keep each group whole")
    split.add_argument(
        "--conll",
        action="store_true",
        help="CORPUS is a CoNLL file: split its sentences, balanced on their "
        "entity-type counts unless --labels/--counts/--groups is given",
    )
    split.add_argument(
        "--scheme",
        choices=("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"),
        default="IOB2",
        help="CoNLL tagging scheme (default: IOB2)",
    )
    split.add_argument("--tag-column", type=int, default=-1, help=argparse.SUPPRESS)
    split.add_argument("--out", required=True, metavar="DIR", help="output folder")
    _common(split)

    bayes = sub.add_parser(
        "bayes-test",
        help="Bayes test of precision, recall and F1 from per-split counts",
        description="Read each model's per-split counts of an m x 2 CV, one row "
        "per split in the CV's order, and give P(B better than A).",
        epilog=_EPILOG_BAYES,
        formatter_class=raw,
    )
    bayes.add_argument("counts_a", metavar="COUNTS_A")
    bayes.add_argument("counts_b", metavar="COUNTS_B")
    bayes.add_argument(
        "--triples",
        action="store_true",
        help="rows are (n_gold, n_pred, n_correct), as conlleval reports, "
        "instead of (TP, FP, FN[, TN])",
    )
    bayes.add_argument(
        "--paired",
        action="store_true",
        help="the paired test on per-split differences (both models scored on "
        "the same splits)",
    )
    bayes.add_argument(
        "--metric",
        choices=("precision", "recall", "f1", "all"),
        default="all",
        help="(default: all three)",
    )
    bayes.add_argument(
        "--correlation",
        default="wang2019",
        help="wang2019, wang2015, independent or a number; unpaired test only "
        "(default: wang2019, the paper's)",
    )
    bayes.add_argument(
        "--prior", type=_number(0, low_open=True), default=1.0, help="Beta prior"
    )
    bayes.add_argument("--rope", type=_number(0), default=0.0, help="(default: 0)")
    bayes.add_argument(
        "--threshold",
        type=_number(0.5, 1, low_open=True, high_open=True),
        default=0.95,
        help="posterior probability a decision needs (default: 0.95)",
    )
    bayes.add_argument(
        "--confidence-level", type=_LEVEL, default=0.95, help="(default: 0.95)"
    )
    _common(bayes)

    plan = sub.add_parser(
        "plan",
        help="items per run for a regression gate, and its threshold",
        description="Items per run that detect a drop of --mde with the given "
        "power, the gate's threshold, and the theta(n) table.",
        epilog=_EPILOG_PLAN,
        formatter_class=raw,
    )
    spread = plan.add_mutually_exclusive_group(required=True)
    spread.add_argument(
        "--sigma", type=_number(0, low_open=True), help="std of per-item scores"
    )
    spread.add_argument(
        "--accuracy",
        type=_LEVEL,
        help="expected accuracy p of 0/1 scores: sigma = sqrt(p (1 - p))",
    )
    plan.add_argument(
        "--mde", type=_number(0, low_open=True), required=True, help="drop to detect"
    )
    plan.add_argument(
        "--alpha",
        type=_number(0, 0.5, low_open=True, high_open=True),
        default=0.05,
        help="false-alarm rate (default: 0.05)",
    )
    plan.add_argument(
        "--power",
        type=_number(0.5, 1, low_open=True, high_open=True),
        default=0.8,
        help="1 - beta (default: 0.8)",
    )
    plan.add_argument(
        "--reference-mean",
        type=float,
        help="reference score for the threshold (default: --accuracy)",
    )
    plan.add_argument(
        "--lower-is-better", action="store_true", help="the score is an error rate"
    )
    _common(plan, seed=False)

    model = sub.add_parser(
        "model-based",
        help="model-based metric test from a published table's summary numbers",
        description="Goyal, Hu & Gupta (2023): test two systems' rates measured "
        "by a classifier, counting the classifier's own errors.",
        epilog=_EPILOG_MODEL,
        formatter_class=raw,
    )
    for name, kind, text in (
        ("--mean-c", _number(0, 1), "observed positive rate of the control"),
        ("--n-c", _number(2, kind=int), "outputs of the control"),
        ("--mean-t", _number(0, 1), "observed positive rate of the treatment"),
        ("--n-t", _number(2, kind=int), "outputs of the treatment"),
        ("--precision", _number(0, 1), "P(R=1 | O=1) of the metric model"),
        ("--false-omission-rate", _number(0, 1), "P(R=1 | O=0) of the metric model"),
    ):
        model.add_argument(name, type=kind, required=True, help=text)
    model.add_argument("--method", choices=("goyal2023", "delta"), default="goyal2023")
    model.add_argument("--n-predicted-positive", type=_number(1, kind=int))
    model.add_argument("--n-predicted-negative", type=_number(1, kind=int))
    model.add_argument("--confidence-level", type=_LEVEL, default=0.95)
    _common(model, seed=False)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None):
    print(f"sklearn-faithful: warning: {message}", file=sys.stderr)


def _run(args):
    """Run a file command; return its output text."""
    from ._commands import RUN

    run, text = RUN[args.command]
    if getattr(args, "metric", "") is None:
        args.metric = "f1" if args.conll else "accuracy"
    payload = run(args)
    if args.format == "json":
        return json.dumps(payload, indent=2, allow_nan=False)
    return text(payload)


def main(argv=None):
    """Run the command line; return the exit status."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            run_demo(sys.stdout, args.random_state)
        else:
            from ._io import InputError

            try:
                with warnings.catch_warnings():
                    warnings.showwarning = _show_warning
                    output = _run(args)
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

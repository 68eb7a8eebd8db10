"""``sklearn-faithful model-based``: two systems' rates measured by a classifier.

A metric model (a toxicity classifier, say) labels every output of a control
C and a treatment T. The default, ``--method ppi``, corrects each system's
rate with a random sample of that system's own outputs that people annotated
(prediction-powered inference), the method doc/choosing.rst advises; it reads
files. ``--method goyal2023`` is the paper's interval, from the summary
numbers a published table gives.
"""

from ..model_based._options import METHODS
from ._arguments import LEVEL, RAW, Applies, add_format, add_label_options, number
from ._output import header

NAME = "model-based"

# doc/choosing.rst: the only method that held its level in every setting
DEFAULT_METHOD = "ppi"

# the inputs of each way in, as argparse destinations
FILES = ("labels_c", "labels_t", "annotated_c", "annotated_t")
FILE_OPTIONS = ("column", "field", "pos_label", "lam")
SUMMARY = ("mean_c", "n_c", "mean_t", "n_t", "precision", "false_omission_rate")
SUMMARY_OPTIONS = ("n_predicted_positive", "n_predicted_negative")

TITLES = {
    "goyal2023": "Model-based metric test (Goyal, Hu & Gupta 2023)",
    "delta": "Model-based metric test, delta method (after Goyal, Hu & Gupta 2023)",
    "ppi": "Prediction-powered test (Angelopoulos et al. 2023)",
}

EPILOG = """\
examples:
  # the metric model's label of every output of C and of T, one a line, and a
  # random sample of each system's outputs with both labels (doc/cli.rst)
  sklearn-faithful model-based --labels-c c.txt --labels-t t.txt \\
      --annotated-c c_annotated.tsv --annotated-t t_annotated.tsv
  sklearn-faithful model-based --labels-c c.csv --labels-t t.csv --column flag \\
      --annotated-c c_sample.csv --annotated-t t_sample.csv --pos-label toxic
  # the paper's interval (Goyal et al. 2023, Table 1, BOLD), from its numbers
  sklearn-faithful model-based --method goyal2023 --mean-c 0.00456 --n-c 23679 \\
      --mean-t 0.00236 --n-t 23679 --precision 0.8897 --false-omission-rate 0.22769
"""


def lam(text):
    """An argparse type: ``auto`` or a number in [0, 1]."""
    return text if text == "auto" else number(0, 1)(text)


# the options that act on some runs only (every option honoured or refused);
# the options of the other method are refused by ``_check_options``
APPLIES = {
    dest: Applies(
        lambda a: a.method != "goyal2023",
        "with --method delta (goyal2023 takes --precision and "
        "--false-omission-rate as known; ppi counts its annotated files)",
    )
    for dest in ("n_predicted_positive", "n_predicted_negative")
}


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="test two systems' rates measured by a classifier, counting its errors",
        description="Compare the rate of a class (toxic, say) that a classifier, "
        "the metric model, finds in the outputs of a control C and a treatment "
        "T, counting the metric model's own errors. --method ppi (the default) "
        "corrects each rate with a random sample of that system's outputs "
        "annotated by people; --method goyal2023 is the paper's interval from "
        "the summary numbers of a published table.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        default=DEFAULT_METHOD,
        help="ppi: prediction-powered inference, which held its level in every "
        "simulated setting; goyal2023: the paper's interval; delta: the "
        f"delta-method interval of the corrected effect (default: {DEFAULT_METHOD})",
    )
    f = p.add_argument_group("files (--method ppi)")
    f.add_argument(
        "--labels-c",
        metavar="FILE",
        help="the metric model's label of every output of C, one a line",
    )
    f.add_argument("--labels-t", metavar="FILE", help="the same for T")
    f.add_argument(
        "--annotated-c",
        metavar="FILE",
        help="a random sample of C's outputs: the metric model's label and the "
        "annotator's (CSV/TSV columns or JSON Lines fields 'prediction' and "
        "'label', or two labels a line)",
    )
    f.add_argument("--annotated-t", metavar="FILE", help="the same for T")
    add_label_options(f, "the metric model's label in --labels-c/-t")
    f.add_argument(
        "--pos-label",
        help="the class whose rate is compared (default: the greater of two)",
    )
    f.add_argument(
        "--paired",
        action="store_true",
        help="C and T answered the same inputs, in the same order, and the "
        "annotated samples are of the same inputs",
    )
    f.add_argument(
        "--lam",
        type=lam,
        default=None,
        help="weight of the metric model's labels, 'auto' (PPI++) or a number in "
        "[0, 1] (default: 1, classical PPI)",
    )
    s = p.add_argument_group("summary numbers (--method goyal2023 or delta)")
    for name, kind, text in (
        ("--mean-c", number(0, 1), "observed positive rate of the control"),
        ("--n-c", number(2, kind=int), "outputs of the control"),
        ("--mean-t", number(0, 1), "observed positive rate of the treatment"),
        ("--n-t", number(2, kind=int), "outputs of the treatment"),
        ("--precision", number(0, 1), "P(R=1 | O=1) of the metric model"),
        ("--false-omission-rate", number(0, 1), "P(R=1 | O=0) of the metric model"),
    ):
        s.add_argument(name, type=kind, help=text)
    s.add_argument(
        "--n-predicted-positive",
        type=number(1, kind=int),
        help="annotated items the metric model called positive (delta)",
    )
    s.add_argument(
        "--n-predicted-negative",
        type=number(1, kind=int),
        help="annotated items the metric model called negative (delta)",
    )
    p.add_argument(
        "--confidence-level",
        type=LEVEL,
        default=0.95,
        help="level of the intervals (default: 0.95)",
    )
    add_format(p)
    return p


def _option(dest):
    return "--" + dest.replace("_", "-")


def _check_options(args):
    """Each method's inputs, and none of the other method's."""
    from ._io import InputError

    if args.method == "ppi":
        needed, foreign = FILES, SUMMARY + SUMMARY_OPTIONS
        way = (
            "--method ppi reads files: --labels-c and --labels-t (the metric "
            "model's label of every output) and --annotated-c and --annotated-t "
            "(a random sample of each system's outputs with both labels)"
        )
        other = "--method goyal2023 or delta, which take summary numbers"
    else:
        needed, foreign = SUMMARY, FILES + FILE_OPTIONS
        way = f"--method {args.method} takes summary numbers: " + ", ".join(
            _option(d) for d in SUMMARY
        )
        other = "--method ppi, which reads files"
    given = [d for d in foreign if getattr(args, d) is not None]
    if args.paired and args.method != "ppi":
        given.append("paired")
    if given:
        raise InputError(f"{_option(given[0])} is for {other}; {way}.")
    missing = [_option(d) for d in needed if getattr(args, d) is None]
    if missing:
        raise InputError(f"{way}; missing {', '.join(missing)}.")


def _pos_label(args, classes, source):
    from ._io import InputError

    if args.pos_label is not None:
        if args.pos_label not in classes:
            raise InputError(
                f"--pos-label {args.pos_label!r} is not a label of {source} "
                f"(which use {classes[:10]})."
            )
        return args.pos_label
    if len(classes) != 2:
        raise InputError(
            f"{source} hold {len(classes)} labels ({classes[:10]}); pass "
            "--pos-label with the class whose rate is compared."
        )
    return classes[1]  # the greater of two, as the package orders classes


def _run_ppi(args):
    import numpy as np

    from ..model_based import ModelBasedMetricTest
    from ._io import check_same_length, label_codes, read_annotated, read_labels

    paths = [args.labels_c, args.labels_t]
    labels = [read_labels(p, column=args.column, field=args.field) for p in paths]
    if args.paired:
        check_same_length(labels, paths, paths[0])
    classes = np.union1d(labels[0], labels[1]).tolist()
    source = f"{paths[0]} or {paths[1]}"
    annotated = []
    for path in (args.annotated_c, args.annotated_t):
        predictions, real, first = read_annotated(path)
        # the annotators label with the metric model's classes: a label
        # outside them is a typo or another label set
        for values in (predictions, real):
            label_codes(values, classes, path, source, first)
        annotated.append((predictions, real))
    if args.paired:
        annotated_paths = [args.annotated_c, args.annotated_t]
        check_same_length(
            [a[0] for a in annotated],
            annotated_paths,
            annotated_paths[0],
            unit="annotated items",
        )
    pos_label = _pos_label(args, classes, source)
    test = ModelBasedMetricTest(
        None,
        method="ppi",
        pos_label=pos_label,
        paired=args.paired,
        confidence_level=args.confidence_level,
        lam=1.0 if args.lam is None else args.lam,
    )
    res = test.test_labels(*labels, annotated_c=annotated[0], annotated_t=annotated[1])
    return res, pos_label


def run(args):
    from ..model_based import model_based_test_from_summary

    _check_options(args)
    if args.method == "ppi":
        res, pos_label = _run_ppi(args)
    else:
        res = model_based_test_from_summary(
            args.mean_c,
            args.n_c,
            args.mean_t,
            args.n_t,
            precision=args.precision,
            false_omission_rate=args.false_omission_rate,
            confidence_level=args.confidence_level,
            method=args.method,
            n_predicted_positive=args.n_predicted_positive,
            n_predicted_negative=args.n_predicted_negative,
        )
        pos_label = None
    return header(
        NAME,
        args,
        **{d: getattr(args, d) for d in FILES},
        pos_label=pos_label,
        test=res,
        summary=res.summary(),
    )


def text(p):
    method = p["test"]["method"]
    lines = [TITLES[method]]
    if method == "ppi":
        lines.append(
            f"rate of {p['pos_label']!r}: C = {p['labels_c']} (annotated "
            f"{p['annotated_c']}), T = {p['labels_t']} (annotated {p['annotated_t']})"
        )
    lines += ["", p["summary"], ""]
    if method == "ppi":
        lines.append(
            "The paper's interval: --method goyal2023 with the summary numbers "
            "(--mean-c --n-c --mean-t --n-t --precision --false-omission-rate)."
        )
    else:
        lines.append(
            "The method that held its level in every setting: --method ppi, with "
            "an annotated sample of each system's outputs (doc/choosing.rst)."
        )
    return "\n".join(lines)

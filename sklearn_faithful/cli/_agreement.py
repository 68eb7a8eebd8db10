"""``sklearn-faithful agreement``: how well annotators agree, with intervals.

Reads a CSV/TSV or JSON Lines file of annotations, wide (one row per unit, a
column per coder) or long (one row per unit, coder and value), and prints
every coefficient of :func:`~sklearn_faithful.agreement.agreement_report`
with its bootstrap interval and observed agreement, then the per-coder table.
With ``--model-coder``, one coder is a model: the report covers the others,
and :func:`~sklearn_faithful.agreement.compare_to_annotators` puts the
model's agreement with each of them beside theirs.
"""

from ..agreement._options import LEVELS, PAIR_COEFFICIENTS
from ._arguments import RAW, add_format, add_n_jobs, add_random_state, add_resampling
from ._output import header, signature, signature_text

NAME = "agreement"

EPILOG = """\
examples:
  # wide: one row per unit, one column per coder (empty, NA or null: missing)
  sklearn-faithful agreement ratings.csv --unit-column item
  # long: the columns unit, coder and value, as annotation tools export them
  sklearn-faithful agreement labels.jsonl --long --unit-column doc_id \\
      --coder-column annotator --value-column label
  sklearn-faithful agreement likert.csv --level ordinal --format json
  sklearn-faithful agreement severity.csv --level ordinal --value-domain low,mid,high
  # the coder 'gpt' is a model: is it within the human range?
  sklearn-faithful agreement ratings.csv --unit-column item --model-coder gpt
"""


def _names(text):
    """A comma-separated list of column names, each stripped."""
    return [name.strip() for name in text.split(",")]


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="how well annotators agree: Krippendorff's alpha, Fleiss' kappa, "
        "Gwet's AC, ... with bootstrap intervals, and the per-coder table",
        description="How well annotators agree: each coefficient with its "
        "bootstrap interval over units and the observed agreement beside it, "
        "then each coder's units and agreement with the rest.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    p.add_argument(
        "annotations",
        metavar="ANNOTATIONS",
        help="a CSV/TSV or JSON Lines file (by its extension, else its first "
        "line); an empty cell, NA, null or a JSON null is a missing value",
    )
    g = p.add_argument_group("inputs")
    g.add_argument(
        "--long",
        action="store_true",
        help="one row per unit, coder and value (the default when the header "
        "names the coder and value columns)",
    )
    g.add_argument(
        "--unit-column",
        metavar="NAME",
        help="the column (field) of the unit's id (default: unit); a wide file "
        "without it reads a unit a line",
    )
    g.add_argument(
        "--coder-column",
        metavar="NAME",
        help="long files: the column (field) of the coder (default: coder)",
    )
    g.add_argument(
        "--value-column",
        metavar="NAME",
        help="long files: the column (field) of the value (default: value)",
    )
    g.add_argument(
        "--coders",
        metavar="A,B,...",
        type=_names,
        help="wide files: the columns (fields) that are coders, separated by "
        "commas; the others are left out. Long files: the coders to keep",
    )
    g.add_argument(
        "--ignore-columns",
        metavar="X,Y,...",
        type=_names,
        help="wide files: columns (fields) that are no coder (a group, a date, "
        "an index), separated by commas. Without --coders or this, a column "
        "that does not look like a coder is an error naming it",
    )
    g.add_argument(
        "--model-coder",
        metavar="NAME",
        help="the coder (a column of a wide file, a coder id of a long file) "
        "that is a model, not a human: the report covers the other coders, "
        "then the model's agreement with each is put beside theirs, with a "
        "verdict (below, within or above the human range)",
    )
    c = p.add_argument_group("coefficients")
    c.add_argument(
        "--level",
        choices=LEVELS,
        default="nominal",
        help="level of measurement of the values (default: nominal)",
    )
    c.add_argument(
        "--value-domain",
        metavar="V1,V2,...",
        help="every value the coders could give, in order, separated by commas "
        "(orders text labels for --level ordinal; adds values nobody gave)",
    )
    c.add_argument(
        "--model-coefficient",
        choices=PAIR_COEFFICIENTS,
        help="with --model-coder: the agreement of a pair of coders (default: "
        "cohen_kappa at --level nominal, krippendorff_alpha at any other level)",
    )
    r = p.add_argument_group("resampling")
    add_resampling(r, "bootstrap resamples of the units")
    add_n_jobs(r)
    add_random_state(p)
    add_format(p)
    return p


def _numbers(values):
    """``values`` (str, or None where missing) as floats with NaN where
    missing; None when a value is no number."""
    import numpy as np

    try:
        return np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    except ValueError:
        return None


def _values(args, data):
    """The values to pass, numbers when every one is, and the value domain.

    A level above nominal needs numbers, or (ordinal) text labels whose
    order ``--value-domain`` gives; an error names the first value that is
    no number.
    """
    from ._io import InputError

    numbers = _numbers(data.values)
    domain = args.value_domain
    if domain is not None:
        domain = [v.strip() for v in domain.split(",")]
        if numbers is not None:
            as_numbers = _numbers(domain)
            if as_numbers is None:
                raise InputError(
                    f"--value-domain {args.value_domain}: {args.annotations} holds "
                    "numbers; give the domain as numbers."
                )
            domain = as_numbers.tolist()
    if numbers is not None:
        return numbers, domain
    if args.level != "nominal" and (args.level != "ordinal" or domain is None):
        i = next(i for i, v in enumerate(data.values) if _numbers([v]) is None)
        fix = (
            "pass --value-domain with the labels in order"
            if args.level == "ordinal"
            else "code the values as numbers"
        )
        raise InputError(
            f"{args.annotations}, line {data.lines[i]}: {data.values[i]!r} is not "
            f"a number; --level {args.level} needs numbers ({fix}), or use "
            "--level nominal."
        )
    return data.values, domain


def _reliability_data(args, data, values):
    """The (coders, units) matrix of the long triples, and the coders' ids.

    A unit coded twice by a coder is an error naming the line.
    """
    from ..agreement import reliability_data_from_long
    from ._io import InputError

    try:
        return reliability_data_from_long(data.units, data.coders, values)
    except ValueError:
        seen = {}
        for unit, coder, line in zip(data.units, data.coders, data.lines, strict=True):
            first = seen.setdefault((unit, coder), line)
            if first != line:
                where = "" if data.form == "long" else " (--unit-column)"
                raise InputError(
                    f"{args.annotations}, line {line}: coder {coder!r} codes unit "
                    f"{unit!r}{where} a second time (the first is on line "
                    f"{first}); each coder codes a unit once: remove one of them."
                ) from None
        raise


def _model_row(args, reliability_data, coders):
    """The humans' rows, the model's row and the humans' names.

    ``--model-coder`` names one of ``coders`` (compared as text); at least
    two coders must be left.
    """
    import numpy as np

    from ._io import InputError, check_memory

    names = [str(c) for c in coders]
    if args.model_coder not in names:
        raise InputError(
            f"--model-coder {args.model_coder}: no such coder in "
            f"{args.annotations}; its coders are {names}."
        )
    k = names.index(args.model_coder)
    humans = names[:k] + names[k + 1 :]
    if len(humans) < 2:
        raise InputError(
            f"--model-coder {args.model_coder}: {args.annotations} holds "
            f"{len(humans)} other coder(s) {humans}; comparing the model with the "
            "annotators needs at least 2 human coders."
        )
    # each pair's agreement on every resample is held at once
    n_pairs = len(humans) * (len(humans) + 1) // 2
    check_memory(
        8 * n_pairs * args.n_resamples,
        f"--n-resamples {args.n_resamples} with --model-coder and "
        f"{len(humans)} human coders",
    )
    return np.delete(reliability_data, k, axis=0), reliability_data[k], humans


def run(args):
    from ..agreement import agreement_report, compare_to_annotators
    from ._io import check_memory, read_annotations

    # each coefficient's resampled values are held at once: 8-byte floats
    check_memory(8 * 6 * args.n_resamples, f"--n-resamples {args.n_resamples}")
    data = read_annotations(
        args.annotations,
        long=args.long,
        unit_column=args.unit_column,
        coder_column=args.coder_column,
        value_column=args.value_column,
        coders=args.coders,
        ignore_columns=args.ignore_columns,
    )
    values, domain = _values(args, data)
    reliability_data, units, coders = _reliability_data(args, data, values)
    names, model = [str(c) for c in coders], None
    if args.model_coder is not None:
        reliability_data, model, names = _model_row(args, reliability_data, coders)
    common = dict(
        level_of_measurement=args.level,
        value_domain=domain,
        coder_names=names,
        confidence_level=args.confidence_level,
        n_resamples=args.n_resamples,
        random_state=args.random_state,
        n_jobs=args.n_jobs,
    )
    if model is not None:  # first: its errors before the report's warnings
        coefficient = {}
        if args.model_coefficient is not None:
            coefficient = {"coefficient": args.model_coefficient}
        model = compare_to_annotators(
            reliability_data,
            model,
            model_name=args.model_coder,
            **coefficient,
            **common,
        )
    report = agreement_report(reliability_data, **common)
    summary = report.summary()
    if model is not None:
        summary += "\n\n" + model.summary()
    return header(
        NAME,
        args,
        annotations=args.annotations,
        form=data.form,
        n_units=len(units),
        n_coders=len(coders),
        level_of_measurement=args.level,
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        report=report,
        model=model,
        summary=summary,
        signature=signature(
            NAME,
            args,
            measurement=args.level,
            value_domain=args.value_domain,
            resamples=args.n_resamples,
            level=args.confidence_level,
            form=data.form,
            unit_column=args.unit_column,
            coder_column=args.coder_column,
            value_column=args.value_column,
            coders=None if args.coders is None else ",".join(args.coders),
            ignore_columns=(
                None if args.ignore_columns is None else ",".join(args.ignore_columns)
            ),
            model_coder=args.model_coder,
            model_coefficient=None if model is None else model.coefficient,
        ),
    )


def text(p):
    return "\n".join(
        [
            f"{p['annotations']} ({p['form']} file): {p['n_units']} units",
            "",
            p["summary"],
            "",
            signature_text(p["signature"]),
        ]
    )

"""``sklearn-faithful battles``: Bradley-Terry ratings of pairwise battles.

Reads a JSON Lines or CSV/TSV file of battles (system a, system b, the
winner: ``a``/``b``/``tie`` or arena's ``model_a``/``model_b``/``tie``/``tie
(bothbad)``) and prints :func:`~sklearn_faithful.battles.bradley_terry`:
each system's rating with its bootstrap interval, its rank with marginal and
simultaneous rank sets, and the probability that each beats each other.
"""

from ..battles._options import COLUMNS, INTERVALS, OUTCOMES, SCALES, TIES
from ._arguments import LEVEL, RAW, add_format, add_n_jobs, add_random_state, number
from ._output import header, signature, signature_text

NAME = "battles"

EPILOG = """\
examples:
  # arena records: {"model_a": ..., "model_b": ..., "winner": "model_a"}
  sklearn-faithful battles battles.jsonl
  sklearn-faithful battles battles.jsonl --scale elo --reference gpt-4-0314
  sklearn-faithful battles judged.csv --a-field left --b-field right \\
      --winner-field verdict --winner-codes "left=a,right=b,draw=tie"
  sklearn-faithful battles battles.jsonl --ties davidson --format json
"""

# the library's default, so that a seed gives the numbers of the Python API
N_RESAMPLES = 999


def _codes(text):
    """``CODE=MEANING,...`` as a dict; each meaning one of OUTCOMES."""
    import argparse

    out = {}
    for part in text.split(","):
        code, sep, meaning = part.partition("=")
        if not sep or meaning.strip() not in OUTCOMES or not code.strip():
            raise argparse.ArgumentTypeError(
                f"{part!r} is not CODE=MEANING with MEANING one of "
                f"{', '.join(OUTCOMES)} (several: separate them with commas)"
            )
        out[code.strip()] = meaning.strip()
    return out


def _names(text):
    return [name.strip() for name in text.split(",")]


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="who wins the pairwise battles: Bradley-Terry ratings with "
        "bootstrap intervals and rank sets",
        description="Bradley-Terry ratings of pairwise battles (arena data), "
        "each with its bootstrap interval, its rank with marginal and "
        "simultaneous confidence sets, and the probability that each system "
        "beats each other.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    p.add_argument(
        "battles",
        metavar="BATTLES",
        help="a JSON Lines or CSV/TSV file, one battle a record",
    )
    g = p.add_argument_group("inputs")
    default = " or ".join(c[0] for c in COLUMNS)
    g.add_argument(
        "--a-field",
        metavar="NAME",
        help=f"the field (column) of system a (default: {default})",
    )
    g.add_argument(
        "--b-field",
        metavar="NAME",
        help="the field (column) of system b (default: "
        f"{' or '.join(c[1] for c in COLUMNS)})",
    )
    g.add_argument(
        "--winner-field",
        metavar="NAME",
        help="the field (column) of the winner (default: winner)",
    )
    g.add_argument(
        "--winner-codes",
        metavar="CODE=MEANING,...",
        type=_codes,
        help="more winner codes, each meaning a, b, tie or drop (the battle is "
        "left out), such as 'draw=tie,tie (bothbad)=drop'",
    )
    g.add_argument(
        "--systems",
        metavar="A,B,...",
        type=_names,
        help="the systems to rate, in this order; each must battle (default: "
        "every system that battles)",
    )
    m = p.add_argument_group("model")
    m.add_argument(
        "--interval",
        choices=INTERVALS,
        default=INTERVALS[0],
        help="each rating's interval from its bootstrap distribution: the "
        "rating plus or minus z times the bootstrap standard error (normal), "
        f"or its quantiles (percentile, basic) (default: {INTERVALS[0]})",
    )
    m.add_argument(
        "--ties",
        choices=TIES,
        default="half",
        help="a tie is half a win for each system, Davidson's tie parameter, or "
        "left out (default: half)",
    )
    m.add_argument(
        "--scale",
        choices=SCALES,
        default="log",
        help="log-strengths, or Elo-like points: 1000 + 400/ln(10) x "
        "log-strength (default: log)",
    )
    m.add_argument(
        "--reference",
        metavar="SYSTEM",
        help="the system rated 0 (1000 points) (default: the mean is)",
    )
    m.add_argument(
        "--ridge",
        type=number(0),
        default=0.0,
        help="ridge penalty ALPHA x sum(log-strength^2), which rates systems "
        "that win or lose every battle (default: 0, maximum likelihood)",
    )
    r = p.add_argument_group("resampling")
    r.add_argument(
        "--n-resamples",
        type=number(2, kind=int),
        default=N_RESAMPLES,
        help=f"bootstrap resamples of the battles (default: {N_RESAMPLES})",
    )
    r.add_argument(
        "--confidence-level",
        type=LEVEL,
        default=0.95,
        help="level of the intervals and rank sets (default: 0.95)",
    )
    add_n_jobs(r)
    add_random_state(p)
    add_format(p)
    return p


def _read(args):
    """The file's (a, b, winner) values and where each record is."""
    from ._io import InputError, read_records

    given = (args.a_field, args.b_field, args.winner_field)
    candidates = [
        tuple(g or c for g, c in zip(given, cols, strict=True)) for cols in COLUMNS
    ]
    options = ("--a-field", "--b-field", "--winner-field")
    first = None
    for names in dict.fromkeys(candidates):
        try:
            rec = read_records(
                args.battles, dict(zip(names, options, strict=True)), raw={}
            )
        except InputError as exc:
            first = first or exc
            continue
        return [rec.values[n] for n in names], rec.where
    raise first


def run(args):
    from ..battles._bradley_terry import _rate
    from ..battles._data import _check_battles
    from ._io import InputError

    columns, where = _read(args)
    try:
        names, a, b, outcome = _check_battles(
            list(zip(*columns, strict=True)),
            systems=args.systems,
            winner_codes=args.winner_codes,
            where=where,
        )
    except ValueError as exc:
        text = str(exc).replace("battles line", f"{args.battles}, line")
        text = text.replace("winner_codes=", "--winner-codes ")
        raise InputError(text) from None
    result = _rate(
        names,
        a,
        b,
        outcome,
        ties=args.ties,
        scale=args.scale,
        reference=args.reference,
        alpha=args.ridge,
        interval=args.interval,
        confidence_level=args.confidence_level,
        n_resamples=args.n_resamples,
        random_state=args.random_state,
        n_jobs=args.n_jobs,
    )
    return header(
        NAME,
        args,
        battles=args.battles,
        n_systems=len(names),
        result=result,
        summary=result.summary(),
        signature=signature(
            NAME,
            args,
            ties=args.ties,
            scale=args.scale,
            reference=args.reference,
            ridge=args.ridge or None,
            interval=args.interval,
            resamples=args.n_resamples,
            level=args.confidence_level,
            a_field=args.a_field,
            b_field=args.b_field,
            winner_field=args.winner_field,
            winner_codes=None
            if args.winner_codes is None
            else ",".join(f"{k}={v}" for k, v in args.winner_codes.items()),
            systems=None if args.systems is None else ",".join(args.systems),
        ),
    )


def _probabilities(p):
    """The table of win probabilities, row beats column, best first."""
    from ._output import table

    res = p["result"]
    order = sorted(range(len(res["systems"])), key=lambda k: -res["ratings"][k])
    names = [res["systems"][k] for k in order]
    rows = [
        [names[a], *(f"{res['win_probability'][x][y]:.3f}" for y in order)]
        for a, x in enumerate(order)
    ]
    return ["P(row beats column)", *table(["", *names], rows)]


def text(p):
    return "\n".join(
        [
            f"{p['battles']}: {p['n_systems']} systems",
            "",
            p["summary"],
            "",
            *_probabilities(p),
            "",
            signature_text(p["signature"]),
        ]
    )

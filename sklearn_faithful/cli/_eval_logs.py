"""``sklearn-faithful eval-logs``: evaluation runs' per-item scores, joined by id.

Reads each run's log (JSON Lines, CSV/TSV or Parquet: one record per item,
or per sample of an item), parses the scores, and hands the records to
:func:`~sklearn_faithful.eval_logs.join_runs` (by id, never by line order),
then to :func:`~sklearn_faithful.eval_logs.compare_runs` (and with
``--ranks`` to :func:`~sklearn_faithful.eval_logs.rank_intervals`); with
``--human-field``, one run scored by a judge goes to
:func:`~sklearn_faithful.eval_logs.prediction_powered_mean`. Every rule of
the join and the statistics is the Python API's: the command reads files.
"""

import argparse
from collections.abc import Mapping

from ..eval_logs._options import (
    CORRECTIONS,
    INTERVALS,
    METHODS,
    ON_DUPLICATE,
    ON_MISSING,
    PLOT_KINDS,
    SUITE_WEIGHTINGS,
)
from ._arguments import (
    RAW,
    Applies,
    add_format,
    add_n_jobs,
    add_random_state,
    add_resampling,
    number,
)
from ._eval_logs_plan import APPLIES as PLAN_APPLIES
from ._eval_logs_plan import add_plan, plan_runs, plan_text
from ._output import header, signature, signature_text

NAME = "eval-logs"

# ``--plot-kind`` of the rank sets (``RankIntervalsResult.plot``)
_RANKS_PLOT = "ranks"


# the options that act on some runs only (every option honoured or refused)
def _judged(args):
    return args.human_field is not None


def _compared(args):
    """Whether runs are compared: two runs or more, no --human-field."""
    return not _judged(args) and len(args.runs) > 1


def _resampled(args):
    """Whether anything is resampled: the pairs' tests and intervals, a
    run's bootstrap interval, or the suite's (``--task-field``)."""
    return _compared(args) or (
        not _judged(args)
        and (args.interval in ("bca", "percentile") or args.task_field is not None)
    )


_COMPARED = Applies(
    _compared, "to a comparison of two runs or more (not with --human-field)"
)
_RESAMPLED = Applies(
    _resampled,
    "where something is resampled: two runs or more (the pairs' tests and "
    "intervals), or one run's --interval bca or percentile or --task-field; "
    "not with "
    "--human-field, whose interval is a closed form",
)
_NOT_JUDGED = Applies(
    lambda a: not _judged(a),
    "to runs compared by their scores; --human-field gives one run's "
    "prediction-powered mean, which takes the items as independent",
)
APPLIES = {
    "sample_field": Applies(
        lambda a: a.on_duplicate == "repeats", "with --on-duplicate repeats"
    ),
    "method": _COMPARED,
    "correction": Applies(
        lambda a: _compared(a) and len(a.runs) > 2,
        "with three runs or more (two runs make one pair, whose p-value no "
        "correction changes)",
    ),
    "baseline": _COMPARED,
    "ranks": _COMPARED,
    "interval": _NOT_JUDGED,
    "task_field": _NOT_JUDGED,
    "suite_weighting": Applies(
        lambda a: a.task_field is not None and not _judged(a), "with --task-field"
    ),
    "cluster_field": _NOT_JUDGED,
    "plot": _NOT_JUDGED,
    "n_resamples": _RESAMPLED,
    "random_state": _RESAMPLED,
    "plot_kind": Applies(lambda a: a.plot is not None, "with --plot FILE"),
    "lam": Applies(_judged, "with --human-field (it weighs the judge's scores)"),
    "score_map": Applies(
        lambda a: a.score_field is not None or a.prediction_field is None,
        "to the text scores of --score-field; with --prediction-field the "
        "score is 1 where the prediction equals --gold-field",
    ),
    **PLAN_APPLIES,
}

EPILOG = """\
examples:
  # one record per item: {"id": "q17", "score": 1}; runs matched by id
  sklearn-faithful eval-logs runA.jsonl runB.jsonl
  # three samples per item, items in clusters (passages), BH over the pairs
  sklearn-faithful eval-logs a.jsonl b.jsonl c.jsonl --on-duplicate repeats \\
      --cluster-field passage --correction bh --plot runs.png
  # a harness's nested fields, and a label compared with gold
  sklearn-faithful eval-logs a.jsonl b.jsonl --id-field doc.id \\
      --score-field scores.match.value
  sklearn-faithful eval-logs a.csv b.csv --prediction-field answer --gold-field target
  # lm-evaluation-harness --log_samples: one record per filter; select one
  sklearn-faithful eval-logs samples_gsm8k_A.jsonl samples_gsm8k_B.jsonl \
      --id-field doc_id --score-field exact_match --where filter=strict-match
  # inspect_ai logs (.eval archives or `inspect log dump` JSON), 3 epochs
  sklearn-faithful eval-logs a.eval b.eval --score-field scores.match.value \
      --score-map C=1,I=0 --on-duplicate repeats --sample-field epoch
  # each run's rank with its marginal and simultaneous 95% sets, and their plot
  sklearn-faithful eval-logs a.jsonl b.jsonl c.jsonl d.jsonl --ranks \
      --plot ranks.png --plot-kind ranks
  # a suite: lm-evaluation-harness's records of several tasks in one file
  # per run, each task equal (--suite-weighting item: each item equal)
  sklearn-faithful eval-logs a.jsonl b.jsonl --id-field doc_id \
      --task-field task --score-field acc
  # one run scored by a judge; the records with 'human' were scored by people
  sklearn-faithful eval-logs judged.jsonl --human-field human
"""


def _lam(text):
    """``--lam``: a number in [0, 1], or ``auto``."""
    if text == "auto":
        return text
    try:
        return number(0, 1)(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc}, nor auto") from None


def _score_map(text):
    """``--score-map``: ``TEXT=NUMBER`` pairs separated by commas."""
    out = {}
    for pair in text.split(","):
        key, sep, value = pair.partition("=")
        try:
            if not sep or not key.strip():
                raise ValueError
            out[key.strip()] = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{pair!r} is not TEXT=NUMBER; give pairs such as C=1,I=0"
            ) from None
    return out


def where_option(text):
    """``--where``: ``FIELD=VALUE``, a record filter; returns the pair."""
    field, sep, value = text.partition("=")
    if not sep or not field.strip():
        raise argparse.ArgumentTypeError(
            f"{text!r} is not FIELD=VALUE; give e.g. filter=strict-match"
        )
    return field.strip(), value


def where_dict(pairs, option="--where"):
    """The ``--where`` pairs as ``join_runs``' ``where``; a field given twice
    is an error (a record holds one value of a field)."""
    from ._io import InputError

    out = {}
    for field, value in pairs or ():
        if field in out:
            raise InputError(
                f"{option} {field}={out[field]} and {option} {field}={value}: a "
                "record holds one value of a field, so both keep no record; give "
                "the field once."
            )
        out[field] = value
    return out


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="compare evaluation runs from per-item score logs joined by id, "
        "with clusters, repeated samples and many runs",
        description="Join each run's per-item scores by id, then give each "
        "run's mean with its bootstrap interval, every pair's difference with "
        "its paired interval, test (Holm or Benjamini-Hochberg adjusted), "
        "effect size and win/tie/loss counts, and the runs tied with the "
        "best. Missing or repeated ids stop the run unless --on-missing or "
        "--on-duplicate says how to treat them.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    p.add_argument(
        "runs",
        nargs="+",
        metavar="RUN",
        help="a run's log: JSON Lines (.jsonl, .ndjson, or a first line that "
        "starts with '{'), CSV/TSV with a header, Parquet (.parquet, needs "
        "pyarrow), a whole log in one JSON document (.json: an array of "
        "records, or an object holding one, such as inspect_ai's log dump), or "
        "an inspect_ai .eval archive",
    )
    g = p.add_argument_group("inputs")
    g.add_argument(
        "--names",
        metavar="A,B,...",
        help="the runs' names, one per RUN, separated by commas (default: the "
        "files' names without their extension)",
    )
    g.add_argument(
        "--id-field",
        default="id",
        metavar="NAME",
        help="the field (column) of the item's id (default: id); a dotted path "
        "reads nested JSON objects, as do the other fields; ids match as "
        'written: 7 and "7" are one item, 07 another',
    )
    g.add_argument(
        "--where",
        action="append",
        type=where_option,
        metavar="FIELD=VALUE",
        help="keep only the records whose FIELD holds VALUE, before the join "
        "(repeat for several fields); values match as written: 1 matches 1 "
        'and "1", not 1.0; true matches true. E.g. filter=strict-match for '
        "lm-evaluation-harness's records, one per filter",
    )
    g.add_argument(
        "--records-field",
        metavar="PATH",
        help="in a whole log (one JSON document): the array of the records, a "
        "dotted path such as samples.gsm8k (default: samples, or the only "
        "array of objects)",
    )
    g.add_argument(
        "--score-field",
        metavar="NAME",
        help="the field of the score: a number (0/1, a rating, a per-item "
        "metric) or true/false (default: score)",
    )
    g.add_argument(
        "--score-map",
        metavar="TEXT=NUMBER,...",
        type=_score_map,
        help="read these text scores as numbers, e.g. C=1,I=0,P=0.5,N=0 for "
        "inspect_ai's correct, incorrect, partial and no answer",
    )
    g.add_argument(
        "--prediction-field",
        metavar="NAME",
        help="instead of a score: the field of the prediction, scored 1 where "
        "it equals --gold-field (as text) and 0 elsewhere",
    )
    g.add_argument(
        "--gold-field",
        metavar="NAME",
        help="with --prediction-field: the field of the gold answer",
    )
    g.add_argument(
        "--cluster-field",
        metavar="NAME",
        help="the field of the item's cluster (passage, prompt, video): whole "
        "clusters are resampled",
    )
    g.add_argument(
        "--on-missing",
        choices=ON_MISSING,
        default=ON_MISSING[0],
        help="ids that some run lacks: stop with their counts, or drop them "
        f"(default: {ON_MISSING[0]})",
    )
    g.add_argument(
        "--on-duplicate",
        choices=ON_DUPLICATE,
        default=ON_DUPLICATE[0],
        help="several records of an id in a run: stop with their counts, or "
        "take them for repeated samples of the item, averaged within it "
        f"(default: {ON_DUPLICATE[0]}); records that differ as conditions "
        "(one per filter) are refused, with the --where that selects one",
    )
    g.add_argument(
        "--sample-field",
        metavar="NAME",
        help="with --on-duplicate repeats: the field that numbers an item's "
        "samples (inspect_ai's epoch, a seed); an item's records must differ "
        "in it",
    )
    g.add_argument(
        "--task-field",
        metavar="NAME",
        help="the field of the item's task, for a suite of tasks: an item is "
        "then the pair (task, id), every run must hold every task, and each "
        "run's suite score, every pair's difference and the ranks are printed "
        "(weighted by --suite-weighting), from a bootstrap of the items (whole "
        "clusters) within each task",
    )
    g.add_argument(
        "--suite-weighting",
        choices=SUITE_WEIGHTINGS,
        default=SUITE_WEIGHTINGS[0],
        help="with --task-field: the suite score is the mean over tasks, each "
        "task equal (task), or over items, each item equal (item) (default: "
        f"{SUITE_WEIGHTINGS[0]})",
    )
    c = p.add_argument_group("comparison")
    c.add_argument(
        "--method",
        choices=METHODS,
        default=METHODS[0],
        help=f"the paired test of each pair of runs (default: {METHODS[0]}); "
        "sign is McNemar's exact test for 0/1 scores and refuses clusters",
    )
    c.add_argument(
        "--baseline",
        metavar="NAME",
        help="compare every other run with this one (default: every pair, and "
        "the runs tied with the best)",
    )
    c.add_argument(
        "--correction",
        choices=(*CORRECTIONS, "none"),
        default=CORRECTIONS[0],
        help="adjustment of the p-values over the pairs: Holm (family-wise "
        f"error), bh (Benjamini-Hochberg, false discovery rate) or none "
        f"(default: {CORRECTIONS[0]})",
    )
    c.add_argument(
        "--ranks",
        action="store_true",
        help="also rank the runs by mean (1 = highest) with each rank's "
        "marginal and all ranks' simultaneous confidence sets (Mogstad et al. "
        "2024; the same --confidence-level, resamples and seed)",
    )
    c.add_argument(
        "--interval",
        choices=INTERVALS,
        default=INTERVALS[0],
        help="the interval of each run's mean: the jackknife's standard error "
        "with Student's t on Bell-McCaffrey degrees of freedom (jackknife-bm) "
        "or on G - 1 (jackknife-t), or the bootstrap's BCa or percentile "
        f"interval (default: {INTERVALS[0]})",
    )
    c.add_argument(
        "--plot",
        metavar="FILE",
        help="write a forest plot (.png, .pdf, .svg) of the runs' means, or "
        "with --plot-kind pairs of the pairs' differences, with --plot-kind "
        "ranks of the rank sets of --ranks (needs matplotlib)",
    )
    c.add_argument(
        "--plot-kind",
        choices=(*PLOT_KINDS, _RANKS_PLOT),
        help=f"what --plot shows (default: {PLOT_KINDS[0]})",
    )
    j = p.add_argument_group("judge")
    j.add_argument(
        "--human-field",
        metavar="NAME",
        help="one RUN scored by a judge (--score-field): the field of people's "
        "score, present on the items they scored (a random sample); prints the "
        "prediction-powered mean of the run",
    )
    j.add_argument(
        "--lam",
        type=_lam,
        help="with --human-field: the weight of the judge's scores, in [0, 1], "
        "or auto (PPI++) (default: 1, classical PPI)",
    )
    r = p.add_argument_group("resampling")
    add_resampling(r)
    add_n_jobs(r)
    add_plan(p)
    add_random_state(p)
    add_format(p)
    return p


def _run_names(args):
    """The runs' names: ``--names``, else the files' names without extension."""
    import os

    from ._io import InputError

    if args.names is not None:
        names = [v.strip() for v in args.names.split(",")]
        if len(names) != len(args.runs) or "" in names:
            raise InputError(
                f"--names {args.names}: {len(names)} name(s) for {len(args.runs)} "
                "RUN file(s); give one name per RUN, separated by commas."
            )
    else:
        names = [os.path.splitext(os.path.basename(p))[0] for p in args.runs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        fix = "give each run a name of its own" + (
            "" if args.names is not None else " (--names A,B)"
        )
        raise InputError(f"two runs are named {twice[0]!r}; {fix}.")
    return names


def _fields(args):
    """``{field: option}`` of the fields to read, and the optional ones."""
    from ._io import InputError

    if (args.prediction_field is None) != (args.gold_field is None):
        raise InputError(
            "--prediction-field and --gold-field go together: the score is 1 "
            "where the prediction equals the gold answer."
        )
    if args.prediction_field is not None and args.score_field is not None:
        raise InputError(
            "--score-field, or --prediction-field with --gold-field: give one "
            "source of the score."
        )
    if args.score_field is None:
        args.score_field = "score" if args.prediction_field is None else None
    fields = {args.id_field: "--id-field"}
    if args.score_field is not None:
        fields[args.score_field] = "--score-field"
    else:
        fields[args.prediction_field] = "--prediction-field"
        fields[args.gold_field] = "--gold-field"
    if args.cluster_field is not None:
        fields.setdefault(args.cluster_field, "--cluster-field")
    if args.sample_field is not None:
        fields.setdefault(args.sample_field, "--sample-field")
    if args.task_field is not None:
        fields.setdefault(args.task_field, "--task-field")
    optional = ()
    if args.human_field is not None:
        fields[args.human_field] = "--human-field"
        optional = (args.human_field,)
    return fields, optional


def _scores(path, values, where, option, score_map=None):
    """Scores as floats by the join's rule (``_score_values``: numbers,
    true/false, their text, and the text of ``score_map``, ``--score-map``);
    anything else is an error naming the file, the line (``where(i)``) and
    ``option``. None (an optional field's missing value) is NaN."""
    import numpy as np

    from ..eval_logs._join import _score_values
    from ._io import InputError

    if score_map and isinstance(values, np.ndarray):
        values = [str(v) for v in values.tolist()]  # the text a map reads
    arr, bad = _score_values(values, score_map)
    if bad < 0:
        return arr
    values = values if isinstance(values, list) else values.tolist()
    allowed = f"{option} holds numbers (0/1, a rating, a per-item metric) or true/false"
    try:
        float(values[bad])
    except (TypeError, ValueError):
        raise InputError(
            f"{path}, {where(bad)}: {values[bad]!r} is not a score; {allowed}; map "
            "text scores to numbers with --score-map (e.g. --score-map "
            "C=1,I=0,P=0.5,N=0 for inspect_ai)."
        ) from None
    raise InputError(
        f"{path}, {where(bad)}: {values[bad]!r} is not a finite number; {allowed}."
    )


def _nonempty(path, values, where, option):
    """Ids and clusters (a list, or a numpy str array): an empty one is an
    error naming its line (``where(i)``, a Parquet file's row)."""
    import numpy as np

    from ._io import InputError

    empty = np.flatnonzero(values == "") if isinstance(values, np.ndarray) else []
    if len(empty) or (not isinstance(values, np.ndarray) and "" in values):
        i = int(empty[0]) if len(empty) else values.index("")
        raise InputError(
            f"{path}, {where(i)}: the {option} value is empty; every record needs one."
        )
    return values


class _Log(Mapping):
    """One run's columns, as :func:`join_runs` takes them; the run's other
    top-level fields (for the join's check that repeated records are no
    conditions) are read from the file on first use, so a run whose ids
    never repeat reads only the fields asked for. ``human`` holds people's
    scores (``--human-field``), or None."""

    def __init__(self, columns, load, human=None):
        from ..eval_logs._join import _ascii_bytes

        self._columns, self._load, self.human = columns, load, human
        # ASCII text ids are held as bytes, a quarter as wide, and handed
        # over as str (the join holds them as bytes itself)
        self._narrow = set()
        for field, column in columns.items():
            narrow = _ascii_bytes(column)
            if narrow is not None:
                self._columns[field] = narrow
                self._narrow.add(field)

    def _every(self):
        if self._load is not None:
            load, self._load = self._load, None
            for field, column in load().items():
                self._columns.setdefault(field, column)
        return self._columns

    def __getitem__(self, field):
        if field in self._narrow:
            from ..eval_logs._join import _ascii_text

            return _ascii_text(self._columns[field])
        if field in self._columns:
            return self._columns[field]
        return self._every()[field]

    def __iter__(self):
        return iter(self._every())

    def __len__(self):
        return len(self._every())


def _log(path, args, fields, optional, where):
    """One run's records as the Python API takes them: a :class:`_Log` of
    columns, keyed by their fields, the score under ``_score_key(args)``.

    ``where`` (``--where``) keeps its records first, by the join's rule
    (``_where_mask``); the other top-level fields go along, read when the
    join asks for them, for its check that repeated records are no
    conditions (one per filter)."""
    import numpy as np

    from ..eval_logs._join import _where_mask
    from ._io import InputError, read_records

    def read(others=False):
        return read_records(
            path,
            fields,
            optional=optional,
            raw=dict.fromkeys(where, "--where"),
            others=others,
            records_field=args.records_field,
            # --score-map reads the scores' text as written ("1", not "1.0")
            numbers=() if args.score_map else (args.score_field, args.human_field),
            arrays=True,
        )

    rec, keep = read(), None
    if where:
        try:
            keep = _where_mask(rec.raw, where, "RUN", rec.where)
        except ValueError as exc:
            raise InputError(_in_files(str(exc), {"RUN": path})) from None
        rec = rec.subset(keep)
    values, place = rec.values, rec.where
    ids = _nonempty(path, values[args.id_field], place, "--id-field")
    # one numpy str array: the join reads text ids as one (_check_labels)
    log = {args.id_field: np.asarray(ids, dtype=str)}
    if args.score_field is not None:
        log[args.score_field] = _scores(
            path, values[args.score_field], place, "--score-field", args.score_map
        )
    else:
        pairs = zip(values[args.prediction_field], values[args.gold_field], strict=True)
        log[_score_key(args)] = np.array([p == g for p, g in pairs], dtype=np.float64)
    for field, option in (
        (args.cluster_field, "--cluster-field"),
        (args.sample_field, "--sample-field"),
        (args.task_field, "--task-field"),
    ):
        if field is not None:
            column = _nonempty(path, values[field], place, option)
            log[field] = np.array(column, dtype=object)
    human = None
    if args.human_field is not None:
        human = _scores(path, values[args.human_field], place, "--human-field")
    read_fields = set(fields) | set(where)

    def others():
        rec = read(others=True)
        rec = rec if keep is None else rec.subset(keep)
        return {
            field: np.array(column, dtype=object)
            for field, column in rec.raw.items()
            if field not in read_fields
        }

    return _Log(log, others, human)


def _score_key(args):
    """The key of the score in a run's columns: ``--score-field``, or a name
    no field has when the score is prediction == gold."""
    if args.score_field is not None:
        return args.score_field
    return f"\0{args.prediction_field}=={args.gold_field}"


def _in_files(message, paths):
    """A message of ``join_runs`` about ``logs['A']`` or run 'A', with the
    run's file instead."""
    import re

    for name, path in paths.items():
        message = message.replace(f"logs[{name!r}]", path)
        message = message.replace(f"run {name!r}", path)
        message = message.replace(f"{name!r} lacks", f"{path} lacks")
    # join_runs' where={'filter': 'strict-match'}: --where filter=strict-match
    return re.sub(r"where=\{'([^']*)': '?([^'}]*)'?\}", r"--where \1=\2", message)


def _join(logs, paths, args, **policy):
    from ..eval_logs import join_runs

    try:
        return join_runs(
            logs,
            id_field=args.id_field,
            score_field=_score_key(args),
            groups_field=args.cluster_field,
            sample_field=args.sample_field,
            task_field=args.task_field,
            **policy,
        )
    except ValueError as exc:
        raise ValueError(_in_files(str(exc), paths)) from None


def _human_scores(logs, paths, args, table):
    """People's score of each item of ``table`` (one run), NaN where unscored."""
    import numpy as np

    from ._io import InputError

    ((name, log),) = logs.items()
    scored = ~np.isnan(log.human)
    if scored.sum() < 2:
        raise InputError(
            f"{paths[name]}: {int(scored.sum())} record(s) hold --human-field "
            f"{args.human_field}; the prediction-powered interval needs people's "
            "scores of at least 2 items."
        )
    keys = [args.id_field] + [f for f in (args.sample_field,) if f is not None]
    people = {name: {key: log[key][scored] for key in keys}}
    people[name][_score_key(args)] = log.human[scored]
    human = _join(people, paths, args, on_duplicate=args.on_duplicate)
    out = np.full(table.n_items, np.nan)
    out[np.searchsorted(table.ids, human.ids)] = human.scores[:, 0]
    return out


def _plot(result, args):
    from ._io import InputError

    kind = {} if args.plot_kind == _RANKS_PLOT else {"kind": args.plot_kind}
    try:
        ax = result.plot(**kind)
    except ImportError as exc:
        raise InputError(f"--plot {args.plot}: {exc}") from None
    fig = ax.figure
    try:
        fig.savefig(args.plot, bbox_inches="tight")
    except (OSError, ValueError) as exc:
        raise InputError(f"--plot {args.plot}: cannot be written ({exc}).") from None
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def run(args):
    from ..eval_logs import (
        compare_runs,
        prediction_powered_mean,
        rank_intervals,
        suite_scores,
    )
    from ._io import InputError, check_memory

    fields, optional = _fields(args)
    judge = args.human_field is not None
    if judge and len(args.runs) != 1:
        raise InputError(
            f"--human-field scores one run by a judge; give one RUN, not "
            f"{len(args.runs)}."
        )
    args.lam = 1.0 if args.lam is None else args.lam
    args.plot_kind = PLOT_KINDS[0] if args.plot_kind is None else args.plot_kind
    if args.plot_kind == _RANKS_PLOT and not args.ranks:
        raise InputError(
            "--plot-kind ranks draws the rank sets of --ranks; add --ranks, or "
            f"choose --plot-kind {' or '.join(PLOT_KINDS)}."
        )
    # each run's and pair's resampled means are held at once: 8-byte floats;
    # --ranks holds every run's, and a few arrays of that size
    per_resample = 4 + (4 * len(args.runs) if args.ranks else 0)
    check_memory(
        8 * per_resample * args.n_resamples, f"--n-resamples {args.n_resamples}"
    )
    names = _run_names(args)
    paths = dict(zip(names, args.runs, strict=True))
    where = where_dict(args.where)
    logs = {n: _log(p, args, fields, optional, where) for n, p in paths.items()}
    table = _join(
        logs,
        paths,
        args,
        on_missing=args.on_missing,
        on_duplicate=args.on_duplicate,
    )
    if not judge:
        del logs  # the join's table holds what is compared: free the columns
    comparison = ppi = ranks = suite = None
    plan = None if args.plan is None else plan_runs(table, args)
    if judge:
        ppi = prediction_powered_mean(
            table.scores[:, 0],
            _human_scores(logs, paths, args, table),
            lam=args.lam,
            confidence_level=args.confidence_level,
        )
        summary = ppi.summary()
    else:
        correction = None if args.correction == "none" else args.correction
        resampling = dict(
            confidence_level=args.confidence_level,
            n_resamples=args.n_resamples,
            random_state=args.random_state,
            n_jobs=args.n_jobs,
        )
        comparison = compare_runs(
            table,
            method=args.method,
            baseline=args.baseline,
            correction=correction,
            interval=args.interval,
            **resampling,
        )
        summary = comparison.summary()
        if args.ranks:
            ranks = rank_intervals(table, **resampling)
            summary += "\n\n" + ranks.summary()
        if args.task_field is not None:
            suite = suite_scores(
                table,
                weighting=args.suite_weighting,
                correction=correction,
                **resampling,
            )
            summary += "\n\n" + suite.summary()
        if args.plot is not None:
            _plot(ranks if args.plot_kind == _RANKS_PLOT else comparison, args)
    return header(
        NAME,
        args,
        runs=[{"name": n, "file": p} for n, p in paths.items()],
        join=table,
        comparison=comparison,
        ranks=ranks,
        suite=suite,
        prediction_powered_mean=ppi,
        plan=plan,
        plot=args.plot,
        summary=table.summary() + "\n\n" + summary,
        signature=signature(
            NAME,
            args,
            **(
                dict(lam=args.lam)
                if judge
                else dict(
                    method=args.method,
                    correction=args.correction,
                    interval=args.interval,
                    resamples=args.n_resamples,
                    baseline=args.baseline,
                    ranks=args.ranks or None,
                    task_field=args.task_field,
                    suite_weighting=(
                        None if args.task_field is None else args.suite_weighting
                    ),
                )
            ),
            level=args.confidence_level,
            id_field=args.id_field,
            score_field=args.score_field,
            prediction_field=args.prediction_field,
            gold_field=args.gold_field,
            cluster_field=args.cluster_field,
            human_field=args.human_field,
            on_missing=args.on_missing,
            on_duplicate=args.on_duplicate,
            sample_field=args.sample_field,
            where=",".join(f"{f}={v}" for f, v in where.items()) or None,
            records_field=args.records_field,
            plan=args.plan,
            power=None if args.plan is None else args.power,
        ),
    )


def text(p):
    runs = ", ".join(f"{r['name']} = {r['file']}" for r in p["runs"])
    plan = [] if p["plan"] is None else ["", plan_text(p["plan"])]
    return "\n".join(
        [f"runs: {runs}", p["summary"], *plan, "", signature_text(p["signature"])]
    )

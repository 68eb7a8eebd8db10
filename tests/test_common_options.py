"""Every option of every command is honoured or refused, on every input kind.

A walk over the command line's parser, in the spirit of the package's other
common suites: for each command, each kind of input it reads (label,
probability and CoNLL files; counts and triples; evaluation logs; wide and long
annotation files) and each of its options, the command runs once without the
option and once with a value other than its default. The option must change
the numbers (it was applied) or stop the run with status 2 and a message that
names it (it was refused). An option that runs with status 0 and leaves every
number as it was is ignored: a result would carry in its signature and JSON
an option that was not applied, which is the trap this suite keeps shut.

The options are read from the parser, so a new option fails the walk until
it has a value in ``VALUES``; ``EXEMPT`` lists the options that change how
the run is done or shown, never its numbers.
"""

import contextlib
import io
import json
import pathlib

import numpy as np
import pytest

from sklearn_faithful.cli._main import _command_parser, build_parser, main

from .battles._battles import as_csv, battle_records
from .cli._util import (
    BOLD,
    CODERS,
    GOLD_CONLL,
    TRIPLES_A,
    TRIPLES_B,
    UNITS,
    annotation_files,
    annotations,
    judged_log,
    metric_model_outputs,
    run_logs,
    systems,
    write,
    write_log,
)

# options that change how a run is done or shown, never its numbers
EXEMPT = {"help", "format", "n_jobs", "plot", "plot_kind", "out", "names"}

# options that say what to do when the data have some property (a missing
# or a repeated id; a file whose header does not say it is long; clusters of
# unequal sizes, without which the jackknife intervals coincide): they act on
# the inputs that have it and may leave the others as they were, but must act
# (change the numbers, or stop the run) on one input kind of the walk at least
CONDITIONAL = {"on_missing", "on_duplicate", "long", "interval"}

# the inputs that stop a run with no option: an option that lets it go on
# acts
STOPS = {("eval-logs", "missing"), ("eval-logs", "repeated")}

# what an option with choices needs beside it to act at all
NEEDS = {
    "model_coefficient": ["--model-coder", "ann2"],
    "suite_weighting": ["--task-field", "passage"],
}


def _files(d):
    """The input files of the walk, written under ``d``: {name: path}."""
    y, a, b, _ = systems(n=120)
    f = {}
    for name, labels in (("y", y), ("a", a), ("b", b)):
        f[name] = write(d / f"{name}.txt", labels)
        f[name + "_csv"] = write(d / f"{name}.csv", ["label", *labels])
        f[name + "_jsonl"] = write(
            d / f"{name}.jsonl", [json.dumps({"label": v}) for v in labels]
        )
    f["out"] = str(d / "splits")
    f["groups"] = write(d / "groups.txt", [f"g{i // 4}" for i in range(y.size)])
    rng = np.random.default_rng(1)
    for name in ("pa", "pb"):
        proba = rng.dirichlet(np.ones(3), size=y.size)
        rows = [",".join(repr(float(v)) for v in row) for row in proba]
        f[name] = write(d / f"{name}.csv", ["neg,neu,pos", *rows])
    # two classes, the greater not the positive one of --pos-label pos
    p2 = rng.uniform(size=y.size)
    f["y2"] = write(d / "y2.txt", np.where(rng.uniform(size=y.size) < p2, "pos", "z"))
    f["p2"] = write(d / "p2.csv", ["pos,z", *(f"{v!r},{1 - v!r}" for v in p2.tolist())])
    # twelve copies of the sentences, for splits that a seed can change
    gold = GOLD_CONLL.replace("-DOCSTART- O\n\n", "") * 12
    for name, text in (
        ("gold_conll", gold),
        ("s1_conll", gold.replace("German B-MISC", "German O", 7)),
        (
            "s2_conll",
            gold.replace(
                "Werner B-PER\nZwingmann I-PER", "Werner B-LOC\nZwingmann I-LOC", 5
            ),
        ),
    ):
        (d / f"{name}.conll").write_text(text, encoding="utf-8")
        f[name] = str(d / f"{name}.conll")
    f["ta"] = write(d / "ta.txt", [" ".join(map(str, r)) for r in TRIPLES_A])
    f["tb"] = write(d / "tb.txt", [" ".join(map(str, r)) for r in TRIPLES_B])
    # per-split (TP, FP, FN) counts of the same splits
    for name, triples in (("ca", TRIPLES_A), ("cb", TRIPLES_B)):
        rows = [(c, p - c, g - c) for g, p, c in triples]
        f[name] = write(d / f"{name}.txt", [" ".join(map(str, r)) for r in rows])
    mm = metric_model_outputs(n=400, m=80)
    for side, (labels, pred, real) in mm.items():
        f[f"labels_{side}"] = write(d / f"labels_{side}.txt", labels)
        rows = [f"{p}\t{r}" for p, r in zip(pred, real, strict=True)]
        f[f"annotated_{side}"] = write(
            d / f"annotated_{side}.tsv", ["prediction\tlabel", *rows]
        )
    ann = annotation_files(d, annotations(n_units=30), UNITS[:30], CODERS)
    f.update({f"ann_{k}": v for k, v in ann.items()})
    logs = run_logs(n_items=40)
    # clusters of unequal sizes (1, 3, 5, ... items), where the intervals of
    # clustered means differ
    for records in logs.values():
        for r in records:
            r["passage"] = f"p{int(int(r['id'][1:]) ** 0.5):02d}"
    f["logs"] = [write_log(d / f"run{k}.jsonl", r) for k, r in logs.items()]
    f["logs_csv"] = [write_log(d / f"run{k}.csv", r) for k, r in logs.items()]
    # the third run lacks the first item
    logs["C"] = [r for r in logs["C"] if r["id"] != "q000"]
    f["logs_missing"] = [write_log(d / f"miss{k}.jsonl", r) for k, r in logs.items()]
    f["judged"] = write_log(d / "judged.jsonl", judged_log(n_items=300, n_human=60))
    f["battles"] = write_log(d / "battles.jsonl", battle_records())
    f["battles_csv"] = write(d / "battles.csv", as_csv(battle_records()))
    return f


def _inputs(f):
    """{(command, input kind): the argv of a run on that input}."""
    small = ["--n-resamples", "99"]
    ppi = ["--labels-c", f["labels_c"], "--labels-t", f["labels_t"],
           "--annotated-c", f["annotated_c"],
           "--annotated-t", f["annotated_t"]]  # fmt: skip
    logs = ["--on-duplicate", "repeats", "--cluster-field", "passage", *small]
    return {
        ("compare", "labels"): ["compare", f["y"], f["a"], f["b"], *small],
        ("compare", "csv"): ["compare", f["y_csv"], f["a_csv"], f["b_csv"],
                             "--column", "label", *small],
        ("compare", "jsonl"): ["compare", f["y_jsonl"], f["a_jsonl"], f["b_jsonl"],
                               "--field", "label", *small],
        ("compare", "probabilities"): ["compare", f["y"], f["pa"], f["pb"],
                                       "--metric", "cf1", *small],
        ("compare", "conll"): ["compare", f["gold_conll"], f["s1_conll"],
                               f["s2_conll"], "--conll", *small],
        ("interval", "labels"): ["interval", f["y"], f["a"], *small],
        ("interval", "probabilities"): ["interval", f["y"], f["pa"],
                                        "--metric", "cf1", *small],
        ("interval", "conll"): ["interval", f["gold_conll"], f["s1_conll"],
                                "--conll", *small],
        ("calibration", "probabilities"): ["calibration", f["y"], f["pa"], f["pb"],
                                           *small],
        ("calibration", "binary"): ["calibration", f["y2"], f["p2"], *small],
        ("split", "n"): ["split", "120", "--out", f["out"]],
        ("split", "labels"): ["split", f["y"], "--out", f["out"]],
        ("split", "conll"): ["split", f["gold_conll"], "--conll", "--out", f["out"]],
        ("bayes-test", "counts"): ["bayes-test", f["ca"], f["cb"]],
        ("bayes-test", "triples"): ["bayes-test", f["ta"], f["tb"], "--triples"],
        ("bayes-test", "unpaired"): ["bayes-test", f["ta"], f["tb"], "--triples",
                                     "--unpaired"],
        ("plan", "accuracy"): ["plan", "--accuracy", "0.9", "--mde", "0.02"],
        ("plan", "sigma"): ["plan", "--sigma", "0.3", "--mde", "0.02"],
        ("model-based", "ppi"): ["model-based", *ppi],
        ("model-based", "summary"): ["model-based", "--method", "goyal2023", *BOLD],
        ("agreement", "wide"): ["agreement", f["ann_wide.csv"], "--unit-column",
                                "item", *small],
        ("agreement", "long"): ["agreement", f["ann_long.csv"], "--long", *small],
        ("agreement", "jsonl"): ["agreement", f["ann_long.jsonl"], *small],
        ("eval-logs", "jsonl"): ["eval-logs", *f["logs"], *logs],
        ("eval-logs", "csv"): ["eval-logs", *f["logs_csv"], *logs],
        ("eval-logs", "missing"): ["eval-logs", *f["logs_missing"], *logs],
        # three records an item: stops without --on-duplicate repeats
        ("eval-logs", "repeated"): ["eval-logs", *f["logs"], *small],
        ("eval-logs", "judged"): ["eval-logs", f["judged"]],
        ("eval-logs", "human"): ["eval-logs", f["judged"], "--human-field", "human"],
        ("battles", "jsonl"): ["battles", f["battles"], *small],
        ("battles", "csv"): ["battles", f["battles_csv"], *small],
    }  # fmt: skip


def _values(f):
    """{option's dest: the arguments that give it a value other than its
    default}; a list of them where one value cannot fit every input."""
    return {
        "column": ["--column", "label"],
        "field": ["--field", "label"],
        "classes": ["--classes", "neg,neu,pos"],
        "conll": ["--conll"],
        "scheme": ["--scheme", "IOBES"],
        "tag_column": ["--tag-column", "0"],
        "metric": ["--metric", "precision"],
        "average": ["--average", "micro"],
        "pos_label": ["--pos-label", "pos"],
        "groups": ["--groups", f["groups"]],
        "groups_column": ["--groups-column", "label"],
        "groups_field": ["--groups-field", "label"],
        "n_resamples": ["--n-resamples", "49"],
        "n_bins": ["--n-bins", "5"],
        "confidence_level": ["--confidence-level", "0.8"],
        "repetitions": ["--repetitions", "5"],
        "rope": ["--rope", "0.01"],
        "threshold": ["--threshold", "0.6"],
        "random_state": ["--random-state", "7"],
        "labels": ["--labels", f["y"]],
        "counts": ["--counts", f["ca"]],
        "triples": ["--triples"],
        "unpaired": ["--unpaired"],
        "correlation": ["--correlation", "wang2019"],
        "prior": ["--prior", "0.5"],
        "sigma": ["--sigma", "0.2"],
        "accuracy": ["--accuracy", "0.8"],
        "mde": ["--mde", "0.05"],
        "alpha": ["--alpha", "0.1"],
        "power": ["--power", "0.9"],
        "reference_mean": ["--reference-mean", "0.5"],
        "lower_is_better": ["--lower-is-better"],
        "labels_c": ["--labels-c", f["labels_t"]],
        "labels_t": ["--labels-t", f["labels_c"]],
        "annotated_c": ["--annotated-c", f["annotated_t"]],
        "annotated_t": ["--annotated-t", f["annotated_c"]],
        "paired": ["--paired"],
        "lam": ["--lam", "0.5"],
        "mean_c": ["--mean-c", "0.01"],
        "n_c": ["--n-c", "20000"],
        "mean_t": ["--mean-t", "0.01"],
        "n_t": ["--n-t", "20000"],
        "precision": ["--precision", "0.7"],
        "false_omission_rate": ["--false-omission-rate", "0.1"],
        "n_predicted_positive": ["--n-predicted-positive", "100"],
        "n_predicted_negative": ["--n-predicted-negative", "1000"],
        "long": ["--long"],
        "unit_column": ["--unit-column", "coder"],
        "coder_column": ["--coder-column", "unit"],
        "value_column": ["--value-column", "coder"],
        "model_coder": ["--model-coder", "ann2"],
        "level": ["--level", "ordinal"],
        "value_domain": ["--value-domain", "pos,neu,neg,other"],
        "id_field": ["--id-field", "passage"],
        "score_field": ["--score-field", "judge.rating"],
        "score_map": ["--score-map", "0=1,1=0"],
        "prediction_field": ["--prediction-field", "score"],
        "gold_field": ["--gold-field", "score"],
        "cluster_field": ["--cluster-field", "passage"],
        "on_missing": ["--on-missing", "drop"],
        "on_duplicate": ["--on-duplicate", "error"],
        "baseline": ["--baseline", "B"],
        "correction": ["--correction", "bh"],
        "human_field": ["--human-field", "human"],
        "where": ["--where", "passage=p00"],
        "coders": ["--coders", "ann1,ann2,ann3"],
        "ignore_columns": ["--ignore-columns", "ann4"],
        "sample_field": ["--sample-field", "passage"],
        "records_field": ["--records-field", "samples"],
        # battles: the fields swapped, the winners read from another field
        "a_field": ["--a-field", "model_b", "--b-field", "model_a"],
        "b_field": ["--b-field", "model_a", "--a-field", "model_b"],
        "winner_field": ["--winner-field", "verdict"],
        "winner_codes": ["--winner-codes", "tie=drop"],
        "systems": ["--systems", "s3,s2,s1,s0"],
        "reference": ["--reference", "s1"],
        "ridge": ["--ridge", "0.5"],
        "ranks": ["--ranks"],
        "task_field": ["--task-field", "passage"],
        "plan": ["--plan", "0.05"],
    }  # fmt: skip


def _run(argv):
    """(status, JSON payload or None, standard error) of ``main(argv)``; the
    payload of ``split`` holds the files it wrote too."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*argv, "--format", "json"])
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code
    payload = json.loads(out.getvalue()) if code == 0 else None
    if code == 0 and "--out" in argv:
        d = pathlib.Path(argv[argv.index("--out") + 1])
        payload["written"] = {p.name: p.read_text() for p in sorted(d.iterdir())}
    return code, payload, err.getvalue()


# keys that echo how a run was asked, at any depth: the signature, texts that
# print the options, the warnings
_ECHO = {"signature", "signature_text", "warnings", "summary", "resamples", "seed"}


def _numbers(payload, dests):
    """The payload without what only echoes the options: at any depth, the
    keys in ``_ECHO``, and those named as an option that hold a value (not
    those that hold a result, such as a system's ``test``)."""
    if isinstance(payload, dict):
        return {
            k: _numbers(v, dests)
            for k, v in payload.items()
            if k not in _ECHO and not (k in dests and not isinstance(v, (dict, list)))
        }
    if isinstance(payload, list):
        return [_numbers(v, dests) for v in payload]
    return payload


def _variants(value):
    return value if isinstance(value[0], list) else [value]


def walk(tmp_path):
    """[(command, input kind, option's arguments, outcome)] of every option
    on every input: ``"applied"``, ``"refused"`` or what went wrong."""
    f = _files(tmp_path)
    parser = build_parser()
    values = _values(f)
    out = []
    for (command, kind), argv in _inputs(f).items():
        code, base, err = _run(argv)
        if code != 0 and (command, kind) not in STOPS:
            out.append((command, kind, "", f"fails with no option: {err[-300:]}"))
            continue
        actions = _command_parser(parser, command)._actions
        dests = {a.dest for a in actions if a.option_strings}
        for action in actions:
            if not action.option_strings or action.dest in EXEMPT:
                continue
            if action.choices is not None:
                # every choice but the default, after what the option needs
                variants = [
                    [*NEEDS.get(action.dest, []), action.option_strings[-1], str(c)]
                    for c in action.choices
                    if c != action.default
                ]
            elif action.dest in values:
                variants = _variants(values[action.dest])
            else:
                out.append((command, kind, action.option_strings[-1], "no value"))
                continue
            given = [o for o in action.option_strings if o in argv]
            if given and action.nargs == 0:
                continue  # a flag that makes the input kind
            run_argv = argv
            if given:  # the option's other values, not the option twice
                i = argv.index(given[0])
                run_argv = argv[:i] + argv[i + 2 :]
                variants = [v for v in variants if v[-1] != argv[i + 1]]
            for extra in variants:
                code, payload, err = _run([*run_argv, *extra])
                if code == 0 and base is None:
                    outcome = "applied"  # it let a run go on that stopped
                elif code == 0:
                    same = _numbers(payload, dests) == _numbers(base, dests)
                    outcome = "ignored" if same else "applied"
                elif any(o in err for o in action.option_strings):
                    outcome = "refused"
                else:
                    outcome = f"error without the option: {err.strip()[-200:]}"
                out.append((command, kind, " ".join(extra), outcome))
    return out


@pytest.fixture(scope="module")
def walked(tmp_path_factory):
    return walk(tmp_path_factory.mktemp("walk"))


def _dest(command, option):
    """The dest of ``command``'s option as typed in a walk's row."""
    actions = _command_parser(build_parser(), command)._actions
    return next(a.dest for a in actions if option.split()[-2:][0] in a.option_strings)


@pytest.mark.filterwarnings("ignore")
def test_every_option_is_honoured_or_refused(walked):
    """No option is ignored; a data error (status 2) is not a silent number."""
    acted = {
        (c, _dest(c, o))
        for c, _, o, r in walked
        if r == "applied" or r.startswith("error")
    }
    bad = [
        row
        for row in walked
        if row[3] not in ("applied", "refused")
        and not row[3].startswith("error")
        and not (row[3] == "ignored" and (row[0], _dest(row[0], row[2])) in acted
                 and _dest(row[0], row[2]) in CONDITIONAL)
    ]  # fmt: skip
    assert not bad, "\n".join(" | ".join(row) for row in bad)


def test_an_option_given_twice_is_refused(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["plan", "--accuracy", "0.9", "--mde", "0.02", "--mde", "0.05"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--mde is given twice; give it once" in err


def test_a_refusal_names_the_option_its_value_and_what_it_needs(capsys):
    assert main(["plan", "--sigma", "0.3", "--mde", "0.02", "--lower-is-better"]) == 2
    err = capsys.readouterr().err
    assert (
        "--lower-is-better would have no effect: it applies only to the gate's "
        "threshold, which needs --accuracy or --reference-mean" in err
    )

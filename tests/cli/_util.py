"""Data and helpers shared by the command-line tests."""

import contextlib
import io
import json

import numpy as np

from sklearn_faithful.cli import main

CLASSES = np.array(["neg", "neu", "pos"])
# the units and coders of ``annotations()``
UNITS = [f"t{j + 1:03d}" for j in range(60)]
CODERS = ["ann1", "ann2", "ann3", "ann4"]

# Table 5 of Wang & Li (2019): (n_gold, n_pred, n_correct) of the two models
TRIPLES_A = [[3146, 2242, 2088], [3175, 2298, 2109], [3142, 2288, 2098],
             [3179, 2250, 2085], [3143, 2261, 2069], [3178, 2245, 2068]]  # fmt: skip
TRIPLES_B = [[3146, 2226, 2075], [3175, 2289, 2114], [3142, 2255, 2080],
             [3179, 2229, 2071], [3143, 2210, 2041], [3178, 2218, 2054]]  # fmt: skip

# Goyal, Hu & Gupta (2023), Table 1, BOLD: the summary numbers of its row
BOLD = ["--mean-c", "0.00456", "--n-c", "23679", "--mean-t", "0.00236",
        "--n-t", "23679", "--precision", "0.8897",
        "--false-omission-rate", "0.22769"]  # fmt: skip

GOLD_CONLL = """\
-DOCSTART- O

EU B-ORG
rejects O
German B-MISC
call O

Peter B-PER
Blackburn I-PER

BRUSSELS B-LOC
1996-08-22 O

Germany B-LOC
's O
Werner B-PER
Zwingmann I-PER
"""


# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the
# example with missing values: 4 observers (rows) x 12 units, None missing
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def annotations(n_units=60, n_coders=4, seed=0, missing=0.15):
    """Labels of ``n_coders`` annotators on ``n_units`` units: a (coders,
    units) object array of 'neg', 'neu', 'pos' with None where missing.

    Each coder gives the unit's true label 80% of the time; the third coder
    only 40% (a careless one).
    """
    rng = np.random.default_rng(seed)
    truth = rng.choice(CLASSES, n_units, p=[0.2, 0.2, 0.6])
    out = np.empty((n_coders, n_units), dtype=object)
    for k in range(n_coders):
        right = rng.random(n_units) < (0.4 if k == 2 else 0.8)
        out[k] = np.where(right, truth, rng.choice(CLASSES, n_units))
    out[rng.random(out.shape) < missing] = None
    return out


# the coders of ``tagged_annotations()``: three annotators and a model
TAGGED_CODERS = ["ann1", "ann2", "ann3", "tagger"]


def tagged_annotations(n_units=120, seed=2):
    """Three annotators' labels and a model's (``tagger``, the last row) of
    ``n_units`` units, as ``annotations()``: the annotators give the true
    label 85% of the time and leave 10% of the units out, the tagger 60%.
    """
    rng = np.random.default_rng(seed)
    truth = rng.choice(CLASSES, n_units, p=[0.3, 0.2, 0.5])
    out = np.empty((4, n_units), dtype=object)
    for k, p in enumerate([0.85, 0.85, 0.85, 0.6]):
        right = rng.random(n_units) < p
        out[k] = np.where(right, truth, rng.choice(CLASSES, n_units))
    out[:3][rng.random((3, n_units)) < 0.1] = None
    return out


def annotation_files(d, data, units, coders, missing="", stem="ann"):
    """``data`` (coders x units, None missing) written in every form the
    ``agreement`` command reads; returns {form: path}.

    Wide files have a unit column ``item``; long files hold their rows in a
    random order, with the columns unit, coder, value.
    """
    rng = np.random.default_rng(1)

    def cell(v):
        return missing if v is None else str(v)

    out = {}
    rows = [",".join(["item", *coders])]
    rows += [",".join([str(u), *map(cell, data[:, j])]) for j, u in enumerate(units)]
    out["wide.csv"] = write(d / f"{stem}_wide.csv", rows)
    out["wide.tsv"] = write(
        d / f"{stem}_wide.tsv", [r.replace(",", "\t") for r in rows]
    )
    triples = [(u, c, data[k, j]) for j, u in enumerate(units)
               for k, c in enumerate(coders)]  # fmt: skip
    triples = [triples[i] for i in rng.permutation(len(triples))]
    rows = ["unit,coder,value", *(f"{u},{c},{cell(v)}" for u, c, v in triples)]
    out["long.csv"] = write(d / f"{stem}_long.csv", rows)
    out["wide.jsonl"] = write(
        d / f"{stem}_wide.jsonl",
        [json.dumps({"item": u, **dict(zip(coders, data[:, j], strict=True))})
         for j, u in enumerate(units)],
    )  # fmt: skip
    out["long.jsonl"] = write(
        d / f"{stem}_long.jsonl",
        [json.dumps({"unit": u, "coder": c, "value": v}) for u, c, v in triples],
    )
    return out


def run_logs(n_items=60, n_samples=3, cluster_size=4, rates=(0.6, 0.75, 0.62),
             seed=0):  # fmt: skip
    """Per-item records of evaluation runs, as a harness writes them.

    ``{run: [record, ...]}`` with runs ``A``, ``B``, ... of the success
    ``rates``; each item ``q000``, ... has ``n_samples`` records (0/1
    ``score``, a judge's ``rating`` nested under ``judge``), and belongs to
    the cluster ``passage`` of ``cluster_size`` items. Items are sorted.
    """
    rng = np.random.default_rng(seed)
    ease = rng.normal(0, 1, n_items)  # items hard for every run
    out = {}
    for k, rate in enumerate(rates):
        shift = np.log(rate / (1 - rate))
        p = 1 / (1 + np.exp(-(shift + ease)))
        out[chr(65 + k)] = [
            {"id": f"q{i:03d}", "passage": f"p{i // cluster_size:02d}",
             "score": int(rng.random() < p[i]),
             "judge": {"rating": round(float(rng.random()), 3)}}
            for i in range(n_items) for _ in range(n_samples)
        ]  # fmt: skip
    return out


def judged_log(n_items=1000, n_human=150, seed=0):
    """One run's records scored by a judge (``score``), and by people
    (``human``) on a random sample of ``n_human`` items; the judge agrees
    with people on 85% of the items."""
    rng = np.random.default_rng(seed)
    truth = (rng.random(n_items) < 0.7).astype(int)
    judge = np.where(rng.random(n_items) < 0.85, truth, 1 - truth)
    human = set(rng.choice(n_items, n_human, replace=False).tolist())
    return [
        {"id": f"d{i:04d}", "score": int(judge[i]),
         **({"human": int(truth[i])} if i in human else {})}
        for i in range(n_items)
    ]  # fmt: skip


def write_log(path, records, kind=None):
    """Write a run's records as JSON Lines, CSV or Parquet (by the extension),
    nested fields flattened to ``judge.rating`` in a table; return the path."""
    kind = kind or str(path).rsplit(".", 1)[-1]
    if kind == "jsonl":
        return write(path, [json.dumps(r) for r in records])
    flat = [{**{k: v for k, v in r.items() if k != "judge"},
             "judge.rating": r["judge"]["rating"]} for r in records]  # fmt: skip
    if kind == "parquet":
        import pandas as pd

        pd.DataFrame(flat).to_parquet(path)
        return str(path)
    head = list(flat[0])
    rows = [",".join(head), *(",".join(str(r[k]) for k in head) for r in flat)]
    return write(path, rows)


def write(path, lines):
    """Write one line per value; return the path as str."""
    path.write_text("".join(f"{v}\n" for v in lines), encoding="utf-8")
    return str(path)


def systems(n=300, seed=0):
    """Gold labels and three systems' predictions of them, as str arrays."""
    rng = np.random.default_rng(seed)
    y = rng.choice(CLASSES, n)

    def noisy(p):
        return np.where(rng.random(n) < p, y, rng.choice(CLASSES, n))

    return y, noisy(0.7), noisy(0.85), noisy(0.72)


def metric_model_outputs(n=2000, m=200, seed=0):
    """What a user of ``model-based --method ppi`` holds, for C and for T.

    For each system: the metric model's label ('toxic' or 'ok') of its ``n``
    outputs, and an annotated random sample of ``m`` of them with the metric
    model's and the real label. Both systems are toxic 10% of the time, but
    the metric model, which finds 90% of the toxic outputs, also flags 6% of
    C's clean outputs and 14% of T's (T writes in a style it mistakes).
    """
    rng = np.random.default_rng(seed)
    word = np.array(["ok", "toxic"])
    out = {}
    for side, false_flags in (("c", 0.06), ("t", 0.14)):
        real = rng.random(n) < 0.10
        flag = np.where(real, rng.random(n) < 0.9, rng.random(n) < false_flags)
        sample = rng.choice(n, m, replace=False)
        out[side] = (word[flag.astype(int)], word[flag[sample].astype(int)],
                     word[real[sample].astype(int)])  # fmt: skip
    return out


def run_main(argv):
    """``main(argv)``'s exit status and standard output."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(argv)
    return code, buf.getvalue()


def main_json(argv):
    """The JSON payload of a command that succeeds."""
    code, out = run_main(argv)
    assert code == 0
    return json.loads(out)


def stderr_lines(warned):
    """The lines standard error shows of a JSON payload's ``warnings``."""
    return [
        f"sklearn-faithful: {'note' if w['category'] == 'InputNote' else 'warning'}: "
        f"{w['message']}"
        for w in warned
    ]


def ok(runs, name):
    """The standard output of one of the ``runs`` fixture's commands."""
    code, out, err = runs[name]
    assert code == 0, err
    assert "Traceback" not in err
    return out


def error(capsys, argv):
    """The one-line error of a command that fails on bad input (status 2)."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith(f"sklearn-faithful {argv[0]}: error: ")
    return err


def write_doc_files(d):
    """The files the examples of doc/cli.rst run on, under their names there."""
    data = np.array(KRIPPENDORFF_2011, dtype=object)
    units = [f"u{j + 1:02d}" for j in range(data.shape[1])]
    rows = [",".join(["item", "A", "B", "C", "D"])]
    rows += [",".join([u, *("" if v is None else str(v) for v in data[:, j])])
             for j, u in enumerate(units)]  # fmt: skip
    write(d / "krippendorff2011.csv", rows)
    annotation_files(d, annotations(), UNITS, CODERS, stem="annotations")
    tagged = tagged_annotations()
    units = [f"d{j + 1:03d}" for j in range(tagged.shape[1])]
    annotation_files(d, tagged, units, TAGGED_CODERS, stem="tagged")
    y, a, b, c = systems()
    for name, values in (("gold", y), ("sysA", a), ("sysB", b), ("sysC", c)):
        write(d / f"{name}.txt", values)
    for name, triples in (("counts_a", TRIPLES_A), ("counts_b", TRIPLES_B)):
        rows = [" ".join(map(str, r)) for r in triples]
        write(d / f"{name}.txt", ["n_gold n_pred n_correct", *rows])
    for side, (labels, pred, real) in metric_model_outputs().items():
        write(d / f"labels_{side}.txt", labels)
        rows = [f"{p}\t{r}" for p, r in zip(pred, real, strict=True)]
        write(d / f"annotated_{side}.tsv", ["prediction\tlabel", *rows])
    logs = run_logs(n_items=200)
    rng = np.random.default_rng(3)
    for name, records in logs.items():  # as a harness writes them: any order
        order = rng.permutation(len(records))
        write_log(d / f"run{name}.jsonl", [records[i] for i in order])
    write_log(d / "judged.jsonl", judged_log())

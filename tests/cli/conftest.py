"""Input files for the command-line tests, and every command run once for real.

Each command runs once end to end through ``python -m sklearn_faithful``, all
of them at the same time (the session fixture ``runs``), on files written
here; the checks of numbers and errors call ``main()`` in-process, which is
what the subprocess runs.
"""

import subprocess
import sys

import numpy as np
import pytest

from ._util import (
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


@pytest.fixture(scope="session")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    y, a, b, c = systems()
    out = {"dir": d, "y": y, "a": a, "b": b, "c": c}
    for name in ("y", "a", "b", "c"):
        out[name + "_txt"] = write(d / f"{name}.txt", out[name])
    rng = np.random.default_rng(1)
    for name in ("pa", "pb"):
        proba = rng.dirichlet(np.ones(3), size=y.size)
        out[name] = proba
        rows = [",".join(repr(float(v)) for v in row) for row in proba]
        out[name + "_csv"] = write(d / f"{name}.csv", ["neg,neu,pos", *rows])
    out["ta"] = write(d / "ta.txt", [" ".join(map(str, r)) for r in TRIPLES_A])
    out["tb"] = write(d / "tb.txt", [" ".join(map(str, r)) for r in TRIPLES_B])
    gold = d / "gold.conll"
    gold.write_text(GOLD_CONLL, encoding="utf-8")
    out["gold_conll"] = str(gold)
    out["s1_conll"] = str(d / "s1.conll")
    (d / "s1.conll").write_text(
        GOLD_CONLL.replace("German B-MISC", "German O"), encoding="utf-8"
    )
    out["s2_conll"] = str(d / "s2.conll")
    (d / "s2.conll").write_text(
        GOLD_CONLL.replace(
            "Werner B-PER\nZwingmann I-PER", "Werner B-LOC\nZwingmann I-LOC"
        ),
        encoding="utf-8",
    )
    # model-based --method ppi: the metric model's labels of all outputs, one a
    # line, and the annotated samples as TSV files with a header
    mm = metric_model_outputs()
    out["mm"] = mm
    for side, (labels, pred, real) in mm.items():
        out[f"labels_{side}"] = write(d / f"labels_{side}.txt", labels)
        rows = [f"{p}\t{r}" for p, r in zip(pred, real, strict=True)]
        out[f"annotated_{side}"] = write(
            d / f"annotated_{side}.tsv", ["prediction\tlabel", *rows]
        )
    # agreement: four annotators' labels, wide and long, CSV/TSV and JSON Lines
    out["annotations"] = annotation_files(d, annotations(), UNITS, CODERS)
    # eval-logs: three runs' per-item scores (three samples an item, in
    # clusters), and a run scored by a judge and partly by people
    out["logs"] = [write_log(d / f"run{name}.jsonl", records)
                   for name, records in run_logs().items()]  # fmt: skip
    out["judged"] = write_log(d / "judged.jsonl", judged_log())
    return out


@pytest.fixture(scope="session")
def runs(files):
    """Every command once, through the module entry point, in parallel."""
    f = files
    ppi = ["--labels-c", f["labels_c"], "--labels-t", f["labels_t"],
           "--annotated-c", f["annotated_c"],
           "--annotated-t", f["annotated_t"]]  # fmt: skip
    commands = {
        "compare": ["compare", f["y_txt"], f["a_txt"], f["b_txt"], f["c_txt"],
                    "--metric", "f1", "--n-resamples", "199", "--format", "json"],
        "interval": ["interval", f["y_txt"], f["pa_csv"], "--metric", "cf1",
                     "--n-resamples", "199", "--format", "json"],
        "split": ["split", f["y_txt"], "--labels", f["y_txt"], "--out",
                  str(f["dir"] / "splits"), "--format", "json"],
        "bayes-test": ["bayes-test", f["ta"], f["tb"], "--triples"],
        "bayes-test-paper": ["bayes-test", f["ta"], f["tb"], "--triples",
                             "--unpaired", "--correlation", "wang2019"],
        "plan": ["plan", "--accuracy", "0.9", "--mde", "0.02", "--format", "json"],
        "model-based": ["model-based", "--method", "goyal2023", *BOLD],
        "model-based-ppi": ["model-based", *ppi, "--format", "json"],
        "model-based-ppi-text": ["model-based", *ppi],
        "agreement": ["agreement", f["annotations"]["long.jsonl"],
                      "--n-resamples", "199", "--format", "json"],
        "eval-logs": ["eval-logs", *f["logs"], "--cluster-field", "passage",
                      "--on-duplicate", "repeats", "--plot", str(f["dir"] / "runs.png"),
                      "--n-resamples", "199", "--format", "json"],
    }  # fmt: skip
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-m", "sklearn_faithful", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, argv in commands.items()
    }
    done = {}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        done[name] = (proc.returncode, out, err)
    return done

"""Bad input files for every command that reads files, and what each must give.

``CASES`` make the files (a function of a folder); ``COMMANDS`` place the bad
file where a command reads one. ``tests/cli/test_bad_files.py`` runs every
pair; run this module (``python -m tests.cli._bad_inputs``) for the table of
outcomes (case x command) through ``python -m sklearn_faithful``.
"""

import json
import os
import subprocess
import sys

import numpy as np

from ._util import (
    GOLD_CONLL,
    TRIPLES_A,
    TRIPLES_B,
    annotations,
    metric_model_outputs,
    systems,
)


def _write_bytes(path, data):
    path.write_bytes(data)
    return str(path)


def _labels(d):
    y, a, b, _ = systems(60)
    return y, a, b


def _text(values, end="\n"):
    return "".join(f"{v}{end}" for v in values)


# each case: the bytes of a label file derived from the clean gold labels,
# or a special file; None: the case does not apply to a kind of file
def case_empty(d, clean):
    return _write_bytes(d / "empty.txt", b"")


def case_directory(d, clean):
    os.makedirs(d / "folder", exist_ok=True)
    return str(d / "folder")


def case_fifo(d, clean):
    path = d / "fifo"
    if not path.exists():
        os.mkfifo(path)
    return str(path)


def case_binary(d, clean):
    rng = np.random.default_rng(0)
    return _write_bytes(d / "binary.txt", rng.integers(256, size=4096).tobytes())


def case_utf16(d, clean):
    return _write_bytes(d / "utf16.txt", clean.decode("utf-8").encode("utf-16"))


def case_bom(d, clean):
    return _write_bytes(d / "bom.txt", b"\xef\xbb\xbf" + clean)


def case_crlf(d, clean):
    return _write_bytes(d / "crlf.txt", clean.replace(b"\n", b"\r\n"))


def case_cr_only(d, clean):
    return _write_bytes(d / "cr.txt", clean.replace(b"\n", b"\r"))


def case_trailing_space(d, clean):
    lines = clean.split(b"\n")
    # the last label of a kind, with a space: what a spreadsheet leaves
    lines[-2] = lines[-2] + b" "
    return _write_bytes(d / "space.txt", b"\n".join(lines))


def case_nul(d, clean):
    lines = clean.split(b"\n")
    lines[3] = lines[3] + b"\0"
    return _write_bytes(d / "nul.txt", b"\n".join(lines))


def case_short(d, clean):
    return _write_bytes(d / "short.txt", b"\n".join(clean.split(b"\n")[:-3]) + b"\n")


CASES = {
    "empty": case_empty,
    "directory": case_directory,
    "fifo": case_fifo,
    "binary": case_binary,
    "utf-16": case_utf16,
    "bom": case_bom,
    "crlf": case_crlf,
    "cr-only": case_cr_only,
    "trailing space": case_trailing_space,
    "nul": case_nul,
    "mismatched length": case_short,
}

# what each case must give: "same" (exit 0, the clean numbers), "error" (exit
# 2, one line naming the file); "note" (exit 0, clean numbers, a line on
# standard error naming the file)
EXPECTED = {
    "empty": "error",
    "directory": "error",
    "fifo": "error",
    "binary": "error",
    "utf-16": "error",
    "bom": "note",
    "crlf": "same",
    "cr-only": "error",
    "trailing space": "note",
    "nul": "error",
    "mismatched length": "error",
}


def clean_files(d):
    """The clean inputs every command reads, as a dict of paths and bytes."""
    y, a, b = _labels(d)
    out = {}
    for name, values in (("gold", y), ("a", a), ("b", b)):
        out[name] = _write_bytes(d / f"{name}.txt", _text(values).encode())
    rng = np.random.default_rng(1)
    proba = rng.dirichlet(np.ones(3), size=y.size)
    rows = ["neg,neu,pos", *(",".join(f"{v:.6f}" for v in r) for r in proba)]
    out["proba"] = _write_bytes(d / "proba.csv", _text(rows).encode())
    out["proba_bytes"] = _text(rows).encode()
    out["gold_bytes"] = _text(y).encode()
    out["conll_bytes"] = GOLD_CONLL.encode()
    out["conll"] = _write_bytes(d / "gold.conll", out["conll_bytes"])
    counts = [" ".join(map(str, r)) for r in TRIPLES_A]
    out["ta_bytes"] = _text(counts).encode()
    out["ta"] = _write_bytes(d / "ta.txt", out["ta_bytes"])
    out["tb"] = _write_bytes(
        d / "tb.txt", _text(" ".join(map(str, r)) for r in TRIPLES_B).encode()
    )
    mm = metric_model_outputs(n=200, m=40)
    for side, (labels, pred, real) in mm.items():
        out[f"labels_{side}"] = _write_bytes(
            d / f"labels_{side}.txt", _text(labels).encode()
        )
        rows = [
            "prediction\tlabel",
            *(f"{p}\t{r}" for p, r in zip(pred, real, strict=True)),
        ]
        out[f"annotated_{side}"] = _write_bytes(
            d / f"annotated_{side}.tsv", _text(rows).encode()
        )
    out["mm_labels_bytes"] = _text(mm["c"][0]).encode()
    # agreement: a wide CSV of 3 coders' labels, a unit a line
    rows = ["a,b,c"]
    rows += [",".join("" if v is None else v for v in col)
             for col in annotations(40, 3).T]  # fmt: skip
    out["ann_bytes"] = _text(rows).encode()
    out["ann"] = _write_bytes(d / "annotations.csv", out["ann_bytes"])
    # eval-logs: two runs' per-item scores, CSV with a header
    for name, values in (("a", a), ("b", b)):
        rows = ["id,score", *(f"q{i:02d},{int(v == t)}" for i, (v, t) in
                              enumerate(zip(values, y, strict=True)))]  # fmt: skip
        out[f"log_{name}_bytes"] = _text(rows).encode()
        out[f"log_{name}"] = _write_bytes(
            d / f"log_{name}.csv", out[f"log_{name}_bytes"]
        )
    return out


# each command: (the bytes the bad file derives from, argv with BAD for it)
COMMANDS = {
    "compare GOLD": ("gold_bytes", lambda f, bad: [
        "compare", bad, f["a"], f["b"], "--metric", "f1", "--n-resamples", "99"]),
    "compare SYSTEM": ("gold_bytes", lambda f, bad: [
        "compare", f["gold"], f["a"], bad, "--metric", "f1", "--n-resamples", "99"]),
    "compare --groups": ("gold_bytes", lambda f, bad: [
        "compare", f["gold"], f["a"], f["b"], "--groups", bad,
        "--n-resamples", "99"]),
    "interval PROBA": ("proba_bytes", lambda f, bad: [
        "interval", f["gold"], bad, "--metric", "cf1", "--n-resamples", "99"]),
    "compare --conll": ("conll_bytes", lambda f, bad: [
        "compare", bad, f["conll"], f["conll"], "--conll",
        "--n-resamples", "99"]),
    "split CORPUS": ("gold_bytes", lambda f, bad: [
        "split", bad, "--out", str(f["dir"] / "splits")]),
    "split --labels": ("gold_bytes", lambda f, bad: [
        "split", f["gold"], "--labels", bad, "--out", str(f["dir"] / "splits")]),
    "bayes-test COUNTS": ("ta_bytes", lambda f, bad: [
        "bayes-test", bad, f["tb"], "--triples"]),
    "model-based --labels-c": ("mm_labels_bytes", lambda f, bad: [
        "model-based", "--labels-c", bad, "--labels-t", f["labels_t"],
        "--annotated-c", f["annotated_c"], "--annotated-t", f["annotated_t"]]),
    "agreement ANNOTATIONS": ("ann_bytes", lambda f, bad: [
        "agreement", bad, "--n-resamples", "99"]),
    "eval-logs RUN": ("log_b_bytes", lambda f, bad: [
        "eval-logs", f["log_a"], bad, "--names", "A,B", "--n-resamples", "99"]),
}  # fmt: skip

# the clean file of each kind of bytes
CLEAN_PATH = {
    "gold_bytes": "gold",
    "proba_bytes": "proba",
    "conll_bytes": "conll",
    "ta_bytes": "ta",
    "mm_labels_bytes": "labels_c",
    "ann_bytes": "ann",
    "log_b_bytes": "log_b",
}

# pairs where a case gives another outcome than EXPECTED, and why
EXCEPTIONS = {
    # the number of lines is the number of items: no other file to match
    ("mismatched length", "split CORPUS"): "same-other",
    # the unpaired test: C's outputs and T's are other items
    ("mismatched length", "model-based --labels-c"): "same-other",
    # one file: fewer lines are fewer units
    ("mismatched length", "agreement ANNOTATIONS"): "same-other",
    # white space separates the fields of these files: a space at a line's
    # end is no part of a value
    ("trailing space", "compare --conll"): "same",
    ("trailing space", "bayes-test COUNTS"): "same",
    ("trailing space", "interval PROBA"): "same",
}


def expected(case, command):
    if (case, command) in EXCEPTIONS:
        return EXCEPTIONS[(case, command)]
    return EXPECTED[case]


def numbers(text):
    """The numbers of a command's JSON output (file names are text)."""
    out = []

    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append(v)

    try:
        walk(json.loads(text))
    except ValueError:
        return text
    return out


def run(argv, timeout=60):
    """(status, stdout, stderr) of the command line in a subprocess; status
    'hang' past ``timeout`` seconds."""
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "sklearn_faithful", *argv, "--format", "json"],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return "hang", "", ""
    return proc.returncode, proc.stdout, proc.stderr


def outcome(status, out, err, clean, bad):
    """What a run gave, in the words of ``EXPECTED``: "note" when a line of
    standard error names the file ``bad`` (the package's warnings aside)."""
    if status == "hang":
        return "hang"
    if "Traceback" in err:
        return "traceback"
    if status == 2:
        return "error"
    if status != 0:
        return f"status {status}"
    same = numbers(out) == clean
    if any(bad in v for v in err.splitlines()):
        return "note" if same else "note-other"
    return "same" if same else "same-other"


def table(d):
    """Rows (case, command, outcome) of every pair, run as a user runs them."""
    from pathlib import Path

    d = Path(d)
    f = clean_files(d)
    f["dir"] = d
    from concurrent.futures import ThreadPoolExecutor

    def pair(command, case):
        source, argv = COMMANDS[command]
        sub = d / f"{command}-{case}".replace(" ", "_")
        sub.mkdir()
        bad = CASES[case](sub, f[source])
        status, out, err = run(argv(f, bad), timeout=60)
        named = [v for v in err.splitlines() if bad in v]
        return case, command, outcome(status, out, err, clean[command], bad), named[-1:]

    with ThreadPoolExecutor(2) as pool:
        clean = dict(
            zip(
                COMMANDS,
                pool.map(
                    lambda c: numbers(
                        run(COMMANDS[c][1](f, f[CLEAN_PATH[COMMANDS[c][0]]]))[1]
                    ),
                    COMMANDS,
                ),
                strict=True,
            )
        )
        return list(
            pool.map(lambda p: pair(*p), [(c, k) for c in COMMANDS for k in CASES])
        )


if __name__ == "__main__":  # pragma: no cover
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for row in table(d):
            print("\t".join(map(str, row)), flush=True)

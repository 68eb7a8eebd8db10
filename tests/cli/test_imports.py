"""The command line's label, table and log paths import only what they need.

``import scipy.stats`` costs about 1.3 s of CPU and ``import sklearn`` about
2 s, where reading four 100,000-line label files with numpy costs 0.2 s
(issue 40): a run of ``compare``, ``interval``, ``eval-logs`` or
``agreement`` with its defaults imports neither, nor joblib or pandas.
Each case runs in a fresh interpreter, which lists what the run imported.
"""

import json
import subprocess
import sys

import numpy as np

# what a default run of these commands must not import
HEAVY = ("sklearn", "scipy.stats", "joblib", "pandas", "matplotlib")

PROBE = """
import json, sys
from sklearn_faithful.cli import main
code = main(sys.argv[1:])
heavy = [m for m in {heavy!r} if m in sys.modules]
print(json.dumps({{"code": code, "heavy": heavy}}))
"""


def _labels(tmp_path, n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=n)
    paths = []
    for name, accuracy in (("gold", 1.0), ("a", 0.8), ("b", 0.7), ("c", 0.75)):
        pred = np.where(rng.random(n) < accuracy, y, rng.integers(0, 3, size=n))
        path = tmp_path / f"{name}.txt"
        path.write_text("".join(f"label_{v}\n" for v in pred), encoding="utf-8")
        paths.append(str(path))
    return paths


def _logs(tmp_path, n=200, seed=0):
    rng = np.random.default_rng(seed)
    paths = []
    for name, rate in (("A", 0.6), ("B", 0.65)):
        path = tmp_path / f"{name}.jsonl"
        lines = [
            json.dumps({"doc_id": i, "acc": int(rng.random() < rate)}) for i in range(n)
        ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


def _annotations(tmp_path, n=60, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, size=n)
    rows = ["item,coder_1,coder_2,coder_3"]
    for i, t in enumerate(truth):
        codes = np.where(rng.random(3) < 0.8, t, rng.integers(0, 3, size=3))
        rows.append(f"{i}," + ",".join(f"c{v}" for v in codes))
    path = tmp_path / "annotations.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return [str(path)]


def _cases(tmp_path):
    gold, a, b, c = _labels(tmp_path)
    few = ["--n-resamples", "99"]
    return {
        "compare": ["compare", gold, a, b, c, *few],
        "compare macro f1": [
            "compare",
            gold,
            a,
            b,
            "--metric",
            "accuracy,f1",
            "--average",
            "macro",
        ],
        "compare permutation": ["compare", gold, a, b, "--test", "permutation", *few],
        "interval": ["interval", gold, a, *few],
        "eval-logs": [
            "eval-logs",
            *_logs(tmp_path),
            "--id-field",
            "doc_id",
            "--score-field",
            "acc",
            *few,
        ],
        "agreement": [
            "agreement",
            *_annotations(tmp_path),
            "--unit-column",
            "item",
            *few,
        ],
    }


def test_default_runs_import_no_scikit_learn_or_scipy_stats(tmp_path):
    cases = _cases(tmp_path)
    code = PROBE.format(heavy=HEAVY)
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-c", code, *argv, "--format", "json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, argv in cases.items()
    }
    found = {}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, (name, err)
        report = json.loads(out.strip().splitlines()[-1])
        assert report["code"] in (0, None), (name, err)
        found[name] = report["heavy"]
    assert found == {name: [] for name in cases}

"""Time ``sklearn-faithful compare`` from files, against the API and the reading floor.

Two cases.

Without ``--lines`` (n = 1,000,000 items, 5 classes, two systems, 10,000
paired-bootstrap resamples): the command reads three label files (one label
a line), scores each system with a bootstrap interval and runs the paired
bootstrap test, files to result, in this process (``cli.main``; interpreter
start-up and imports are left out). The anchor makes the same three calls
(``bootstrap_confidence_interval`` twice, ``paired_bootstrap_test`` once) on
integer arrays already in memory. Prints the median times and their ratio.
Goal: ratio <= 1.5.

With ``--lines N`` (issue 23: N = 25,000,000): three label files of N lines
each, 10 string classes (``label_0`` ... ``label_9``, 8 bytes a line, 200 MB
a file at 25 M lines), written to ``--dir`` unless there already. Runs
``python -m sklearn_faithful compare GOLD A B`` (default options: accuracy,
paired bootstrap, 9,999 resamples) in a subprocess, and prints its wall time
and peak resident memory (``/usr/bin/time -v``), beside the floor: a subprocess
that reads the three files into integer codes with pandas
(``pd.read_csv(path, header=None, dtype="category")`` and its codes), the
simplest fast code there is. Targets: peak RSS <= 1 GB, time <= 2x the
floor.

With ``--cpu`` (issue 40): the command line's CPU time, start-up and imports
included, where a user meets it: ``python -m sklearn_faithful compare`` on
four label files of 100,000 lines (gold and three systems, 5 and 2 string
classes), ``--metric accuracy,f1`` (macro average), 9,999 resamples (and 99,
the part that is not resampling), against the floor: a subprocess that
imports numpy and reads the four files into integer codes
(``np.unique(..., return_inverse=True)`` of the split lines).
CPU time is user + system time from ``/usr/bin/time -v``, the median of
``--repeat`` runs. Also printed: ``python -c "import numpy"`` alone, and
``import scipy.stats`` and ``import sklearn`` for scale. Target: compare
<= 2x the floor.

Run: python benchmarks/bench_cli.py [--n-samples N] [--n-resamples B]
     python benchmarks/bench_cli.py --lines 25000000 --dir /tmp/bench_cli
     python benchmarks/bench_cli.py --cpu
"""

import argparse
import contextlib
import io
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from _timing import median_time

from sklearn_faithful.cli import main as cli_main
from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_bootstrap_test,
)

FLOOR = """
import sys
import pandas as pd

for path in sys.argv[1:]:
    codes = pd.read_csv(path, header=None, dtype="category")[0].cat.codes.to_numpy()
    assert codes.min() >= 0
"""


def _in_memory(args):
    """The in-process case: ``cli.main`` on three files against the API."""
    rng = np.random.default_rng(0)
    n = args.n_samples
    y = rng.integers(0, 5, size=n)
    a = np.where(rng.random(n) < 0.80, y, rng.integers(0, 5, size=n))
    b = np.where(rng.random(n) < 0.81, y, rng.integers(0, 5, size=n))
    B = args.n_resamples

    def api():
        bootstrap_confidence_interval(y, a, n_resamples=B, random_state=0)
        bootstrap_confidence_interval(y, b, n_resamples=B, random_state=0)
        return paired_bootstrap_test(y, a, b, n_resamples=B, random_state=0)

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, arr in (("gold", y), ("a", a), ("b", b)):
            path = os.path.join(tmp, f"{name}.txt")
            np.savetxt(path, arr, fmt="%d")
            paths.append(path)
        argv = ["compare", *paths, "--n-resamples", str(B), "--format", "json"]

        def cli():
            with contextlib.redirect_stdout(io.StringIO()):
                assert cli_main(argv) == 0

        t_cli = median_time(cli, args.repeat)
    t_api = median_time(api, args.repeat)
    t_test = median_time(
        lambda: paired_bootstrap_test(y, a, b, n_resamples=B, random_state=0),
        args.repeat,
    )
    print(
        f"n_samples={n}, 2 systems, {B} paired-bootstrap resamples, "
        f"median of {args.repeat} runs"
    )
    print(f"compare, files to result (cli.main)            {t_cli:8.2f} s")
    print(f"same calls on in-memory arrays (Python API)    {t_api:8.2f} s")
    print(f"  of which paired_bootstrap_test alone         {t_test:8.2f} s")
    ratio = t_cli / t_api
    print(f"ratio cli / API                                {ratio:8.2f}  (goal <= 1.5)")


def _write_label_files(directory, n):
    """Gold and two systems (80% and 82% right), 10 string classes, n lines each."""
    os.makedirs(directory, exist_ok=True)
    paths = [os.path.join(directory, f"{name}_{n}.txt") for name in ("gold", "a", "b")]
    if all(os.path.exists(p) for p in paths):
        return paths
    rng = np.random.default_rng(0)
    classes = np.array([f"label_{i}" for i in range(10)])
    y = rng.integers(0, 10, n).astype(np.int8)
    for path, right in zip(paths, (1.0, 0.80, 0.82), strict=True):
        pred = y
        if right < 1:
            pred = np.where(rng.random(n) < right, y, rng.integers(0, 10, n))
        with open(path, "w", encoding="utf-8") as f:
            for start in range(0, n, 2**20):
                f.write("\n".join(classes[pred[start : start + 2**20]]) + "\n")
    return paths


NUMPY_FLOOR = """
import sys
import numpy as np

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        lines = np.array(f.read().split())
    classes, codes = np.unique(lines, return_inverse=True)
"""


def _time_v(argv):
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of a command.

    Through ``/usr/bin/time -v``: a child forked by this (large) process
    would count this process's memory in its own peak. Bytecode is written
    and read as after ``pip install`` (which compiles it): a
    ``PYTHONDONTWRITEBYTECODE`` environment would make every run compile the
    package's sources again.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-v", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
        env=env,
    )
    seconds = time.perf_counter() - start
    fields = dict(
        line.strip().rsplit(": ", 1)
        for line in done.stderr.splitlines()
        if ": " in line
    )
    cpu = float(fields["User time (seconds)"]) + float(fields["System time (seconds)"])
    return seconds, cpu, int(fields["Maximum resident set size (kbytes)"]) / 1024


def _cpu_seconds(argv):
    """CPU seconds and peak RSS (MiB) of a command (:func:`_time_v`)."""
    return _time_v(argv)[1:]


def _cpu_files(directory, n, n_classes):
    """Gold and three systems (80%, 81%, 79% right), ``n`` lines each."""
    rng = np.random.default_rng(0)
    classes = np.array([f"label_{i}" for i in range(n_classes)])
    y = rng.integers(0, n_classes, n)
    paths = []
    for name, right in (("gold", 1.0), ("a", 0.80), ("b", 0.81), ("c", 0.79)):
        pred = np.where(rng.random(n) < right, y, rng.integers(0, n_classes, n))
        path = os.path.join(directory, f"cpu_{name}_{n}_{n_classes}.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(classes[pred]) + "\n")
        paths.append(path)
    return paths


def _cpu(args):
    """The issue-40 case: CPU time of compare on four 100,000-line files.

    With 5 classes and with 2; with 9,999 resamples and with 99 (the part
    that is not resampling). The resampling is exact: multinomial draws of
    the (gold, A) and (gold, A, B) tables of counts, one set for both
    metrics, about 0.4 us per cell and resample in numpy.
    """
    n = args.lines_cpu
    os.makedirs(args.dir, exist_ok=True)
    python = sys.executable
    commands = {}
    for n_classes in (5, 2):
        paths = _cpu_files(args.dir, n, n_classes)
        for b in (args.n_resamples, 99):
            commands[f"compare, {n_classes} classes, B = {b}"] = [
                python, "-m", "sklearn_faithful", "compare", *paths,
                "--metric", "accuracy,f1", "--average", "macro",
                "--n-resamples", str(b),
            ]  # fmt: skip
        commands[f"floor, {n_classes} classes: numpy reads"] = [
            python, "-c", NUMPY_FLOOR, *paths
        ]  # fmt: skip
    commands.update({
        'python -c "import numpy"': [python, "-c", "import numpy"],
        'python -c "import scipy.stats"': [python, "-c", "import scipy.stats"],
        'python -c "import sklearn"': [python, "-c", "import sklearn"],
    })  # fmt: skip
    runs = {name: [] for name in commands}
    for argv in commands.values():  # warm-up: bytecode written, files cached
        _cpu_seconds(argv)
    for _ in range(args.repeat):
        for name, argv in commands.items():
            runs[name].append(_cpu_seconds(argv))
    print(
        f"compare on four label files of {n:,} lines, accuracy and macro F1; "
        f"CPU time (user + system), median of {args.repeat}; load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print(f"{'':40} {'CPU s':>7} {'peak RSS MiB':>13} {'/ floor':>8}")
    medians = {name: np.median(np.array(r), axis=0) for name, r in runs.items()}
    for name, (cpu, rss) in medians.items():
        ratio = ""
        if name.startswith("compare"):
            n_classes = name.split(",")[1].split()[0]
            floor = medians[f"floor, {n_classes} classes: numpy reads"][0]
            ratio = f"{cpu / floor:8.2f}"
        print(f"{name:40} {cpu:7.2f} {rss:13.0f} {ratio}")
    print(f"target: compare with B = {args.n_resamples} <= 2x its floor")


def _run(argv):
    """Wall seconds and peak RSS (MiB) of a command (:func:`_time_v`)."""
    seconds, _, rss = _time_v(argv)
    return seconds, rss


def _files(args):
    """The subprocess case: ``compare`` on three files of ``--lines`` lines."""
    paths = _write_label_files(args.dir, args.lines)
    size = sum(os.path.getsize(p) for p in paths) / 2**20
    compare = [sys.executable, "-m", "sklearn_faithful", "compare", *paths,
               "--n-resamples", str(args.n_resamples)]  # fmt: skip
    floor = [sys.executable, "-c", FLOOR, *paths]
    runs = {"compare": [], "floor": []}
    for _ in range(args.repeat):
        runs["floor"].append(_run(floor))
        runs["compare"].append(_run(compare))
    (t_floor, m_floor), (t_cli, m_cli) = (
        np.median(np.array(runs[k]), axis=0) for k in ("floor", "compare")
    )
    print(
        f"compare on three label files of {args.lines:,} lines ({size:,.0f} MiB in "
        f"all), 10 classes, {args.n_resamples} paired-bootstrap resamples; "
        f"subprocesses, median of {args.repeat}"
    )
    print("                                         time (s)   peak RSS (MiB)")
    print(f"compare (python -m sklearn_faithful)     {t_cli:8.2f}   {m_cli:10.0f}")
    print(f"floor: pandas read_csv -> category codes {t_floor:8.2f}   {m_floor:10.0f}")
    print(
        f"ratio compare / floor                    {t_cli / t_floor:8.2f}"
        "   (target <= 2)"
    )
    print(f"peak RSS of compare                      {m_cli / 1024:8.2f} GiB"
          "   (target <= 1 GB)")  # fmt: skip


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=1_000_000)
    parser.add_argument(
        "--lines",
        type=int,
        default=None,
        help="lines of each label file: time compare in a subprocess against "
        "the reading floor, and its peak memory (issue 23: 25000000)",
    )
    parser.add_argument(
        "--dir",
        default=os.path.join(tempfile.gettempdir(), "bench_cli"),
        help="where the --lines files are written (and reused)",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="CPU time of compare on four label files against numpy reading them",
    )
    parser.add_argument("--lines-cpu", type=int, default=100_000)
    parser.add_argument("--n-resamples", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=None)
    args = parser.parse_args()
    if args.cpu:
        args.n_resamples = args.n_resamples or 9999
        args.repeat = args.repeat or 5
        _cpu(args)
    elif args.lines is None:
        args.n_resamples = args.n_resamples or 10_000
        args.repeat = args.repeat or 3
        _in_memory(args)
    else:
        args.n_resamples = args.n_resamples or 9999
        args.repeat = args.repeat or 1
        _files(args)


if __name__ == "__main__":
    main()

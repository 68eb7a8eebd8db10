"""Time ``eval-logs`` reading three JSON Lines runs against its floors.

One run prints: the ``eval-logs`` command with its defaults (a subprocess:
CPU time and peak RSS; and in-process ``cli.main``: CPU time) with pyarrow's
JSON reader and with the standard library's (``SKLEARN_FAITHFUL_LOG_READER``),
the anchor ``pyarrow.json.read_json`` of the three files, the floor a plain
``json.loads`` loop over their lines, and the ratios against the targets of
issue 40: with pyarrow <= 1.5x ``read_json``; without <= 1x the loop; peak
RSS <= 2x the columns read (ids and scores as Arrow arrays).

The runs are lm-evaluation-harness-like records of about 240 bytes: an id, a
0/1 score, text fields and nested metadata (written once to --dir).

Run: python benchmarks/bench_logs.py [--n 1000000] [--dir /tmp/bench_logs]
"""

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import time

import numpy as np


def _write(path, n, seed):
    rng = np.random.default_rng(seed)
    order, right = rng.permutation(n), rng.random(n) < 0.6 + 0.02 * seed
    tokens = rng.integers(20, 900, n)
    with open(path, "w") as f:
        for k in range(n):
            i = int(order[k])
            record = {
                "id": f"gsm8k-{i:07d}",
                "score": 1.0 if right[k] else 0.0,
                "target": str(i % 997),
                "filter": "strict-match",
                "metadata": {
                    "task": "gsm8k",
                    "epoch": 1,
                    "usage": {"input_tokens": int(tokens[k]), "output_tokens": 9},
                },
                "response": f"The answer is {i % 991}.",
                "doc_hash": f"{(i * 2654435761) % 2**64:016x}",
            }
            f.write(json.dumps(record) + "\n")


def _cpu(func):
    start = time.process_time()
    func()
    return time.process_time() - start


def _loads_loop(paths):
    for path in paths:
        with open(path, "rb") as f:
            for line in f:
                json.loads(line)


def _read_json(paths):
    import pyarrow.json as pj

    for path in paths:
        pj.read_json(path)


def _columns_mib(paths):
    import pyarrow as pa
    import pyarrow.json as pj

    schema = pa.schema([("id", pa.string()), ("score", pa.float64())])
    options = pj.ParseOptions(
        explicit_schema=schema, unexpected_field_behavior="ignore"
    )
    return sum(pj.read_json(p, parse_options=options).nbytes for p in paths) / 2**20


def _subprocess(paths, reader):
    """CPU seconds and peak RSS (MiB) of ``sklearn-faithful eval-logs``.

    The peak is the child's own ``VmHWM``: Linux carries the parent's peak
    into a child's ``ru_maxrss`` across exec, and this process holds the
    logs read above."""
    code = (
        "import sys; from sklearn_faithful.cli import main; "
        "rc = main(sys.argv[1:]); "
        "status = open('/proc/self/status').read().split('VmHWM:')[1]; "
        "print('VmHWM', status.split()[0], file=sys.stderr); sys.exit(rc)"
    )
    env = dict(os.environ, SKLEARN_FAITHFUL_LOG_READER=reader)
    child = subprocess.Popen(
        [sys.executable, "-c", code, "eval-logs", *paths],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    errors = child.stderr.read()
    # this child's own usage (RUSAGE_CHILDREN's peak is the largest child's)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"eval-logs failed with status {child.returncode}: {errors}")
    peak_kib = int(errors.rsplit("VmHWM", 1)[1].split()[0])
    return usage.ru_utime + usage.ru_stime, peak_kib / 1024


def _in_process(paths, reader):
    from sklearn_faithful.cli import main

    os.environ["SKLEARN_FAITHFUL_LOG_READER"] = reader
    with contextlib.redirect_stdout(io.StringIO()):
        return _cpu(lambda: main(["eval-logs", *paths]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--dir", default="/tmp/bench_logs")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    paths = [os.path.join(args.dir, f"run_{r}_{args.n}.jsonl") for r in "ABC"]
    for seed, path in enumerate(paths):
        if not os.path.exists(path):
            _write(path, args.n, seed)
    mib = sum(os.path.getsize(p) for p in paths) / 2**20
    print(
        f"eval-logs, 3 JSON Lines runs x {args.n:,} records ({mib:.0f} MiB), defaults"
    )
    print(f"load average before: {os.getloadavg()}")
    loop = _cpu(lambda: _loads_loop(paths))
    anchor = _cpu(lambda: _read_json(paths))
    columns = _columns_mib(paths)
    print(f"{'':44}{'CPU s':>8}{'peak MiB':>10}")
    print(f"{'json.loads loop over the lines (floor)':44}{loop:>8.2f}")
    print(f"{'pyarrow.json.read_json of the files (anchor)':44}{anchor:>8.2f}")
    print(f"{'columns read (id, score as Arrow arrays)':44}{'':>8}{columns:>10.1f}")
    rows = {}
    for reader in ("pyarrow", "python"):
        cpu, rss = _subprocess(paths, reader)
        rows[reader] = cpu, rss
        print(f"{'eval-logs subprocess, reader ' + reader:44}{cpu:>8.2f}{rss:>10.1f}")
        inproc = _in_process(paths, reader)
        print(f"{'eval-logs in-process cli.main, ' + reader:44}{inproc:>8.2f}")
    print("\ntargets (issue 40)")
    ratio = rows["pyarrow"][0] / anchor
    print(f"  with pyarrow / read_json       {ratio:6.2f}  (target <= 1.5)")
    ratio = rows["python"][0] / loop
    print(f"  without / json.loads loop      {ratio:6.2f}  (target <= 1)")
    for reader in ("pyarrow", "python"):
        ratio = rows[reader][1] / columns
        print(f"  peak RSS {reader:8} / columns   {ratio:6.2f}  (target <= 2)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

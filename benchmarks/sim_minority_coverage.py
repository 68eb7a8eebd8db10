"""Coverage of bootstrap intervals when one class has few items, by simulation.

What it measures. A binary classifier of fixed quality labels n test items:
each item is positive (the minority class) with probability ``share``, its
score is N(d', 1) if positive and N(0, 1) if negative, and its predicted
label is ``score > t``, with ``t`` the threshold that maximises the
population F1 (so the classifier is one tuned for F1). The true values are
the population metrics, in closed form (Phi the normal CDF)::

    recall    = Phi(d' - t)            fpr = Phi(-t)
    precision = share recall / (share recall + (1 - share) fpr)
    F1        = 2 share recall / (share recall + (1 - share) fpr + share)
    ROC AUC   = Phi(d' / sqrt(2))

For each data set, ``bootstrap_confidence_interval`` gives the 95%
two-sided interval of F1, recall and precision (``pos_label=1``, the
minority class) by the percentile method (999 resamples), and of F1 by BCa
too, on the same resamples' seed; ROC AUC gets the percentile interval and,
in some cells, BCa, with 499 resamples (the metric is a callable, called once
per resample, so this path is slow). The AUC callable is the Mann-Whitney
statistic, equal to ``sklearn.metrics.roc_auc_score`` (checked at start-up)
but about 30 times quicker; a resample without both classes gives NaN, which
the interval leaves out. Data sets without an item of each class in
``y_true`` are redrawn (recall and AUC are undefined there): the coverages
are conditional on both classes being present.

Printed: coverage (share of intervals holding the true value; a NaN
interval is a miss) with its Monte-Carlo standard error
``sqrt(c (1 - c) / reps)``, the median number of minority items in
``y_true`` and of predicted positives; then coverage pooled by the number of
items of the rarest class, and the warning threshold: the smallest count
from which on every pooled bin's percentile coverage (the lowest over the
metrics, bins of at least MIN_ITEMS data sets) is at least 93%, chosen on
the cells with d' = 2 and share >= 0.05 and checked on the cells held back
(d' = 1, and share 0.02). Two batches of 200 data sets a label cell (100 an
AUC cell; the AUC cells at n = 500 one batch) pool to 400 (200).

Run::

    python benchmarks/sim_minority_coverage.py             # about 30 minutes in all
    python benchmarks/sim_minority_coverage.py --minutes 5 # stop early; rerun resumes
    python benchmarks/sim_minority_coverage.py --report    # tables from the cache
    python benchmarks/sim_minority_coverage.py --docs      # the tables of the docs

Seeded (``SeedSequence([20261126, crc32(cell key)])``, each data set's bootstrap seed
drawn from it) and resumable: each finished cell is appended as one JSON
line to ``benchmarks/results/sim_minority_coverage.jsonl`` and skipped on a
rerun. The tables are in doc/holdout.rst, "Few items of a class".

A second held-back group (``--held-back``, seed 20261210), fixed before its
run, after the thresholds (21 items for precision, recall and F1; BCa of F1
93.9% from 4 items, 93.2% from 8 held back) were published. It changes the
separations (d' = 1.5 and 3, against 1 and 2), the class balances (3%, 15%
and 30% positives, against 2-50% on a different grid) and, in one cell, the
classifier's threshold (the one that maximises accuracy, not F1, so it
predicts fewer positives):

- d' = 1.5, 30% positives, n = 50 and 100 (about 15 and 30 positives);
- d' = 1.5, 15% positives, n = 200 (about 30);
- d' = 3, 3% positives, n = 500 and 1000 (about 15 and 30);
- d' = 3, 30% positives, n = 30 (about 9);
- d' = 2, 10% positives, n = 300, the accuracy threshold (about 30
  positives, about 20 predicted).

Label metrics only (percentile F1, recall and precision, and BCa F1; ROC AUC
is too slow for the budget), 300 data sets a cell, cached in
``benchmarks/results/sim_minority_coverage_held_back.jsonl``; the table
pools them by the items of the rarest class, as above::

    python benchmarks/sim_minority_coverage.py --held-back   (about 4 minutes)
"""

import argparse
import contextlib
import io
import itertools
import json
import os
import time
import warnings
import zlib

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import ndtr
from sklearn.metrics import roc_auc_score

from sklearn_faithful.holdout import bootstrap_confidence_interval

CACHE = os.path.join(
    os.path.dirname(__file__), "results", "sim_minority_coverage.jsonl"
)
HELD_BACK_CACHE = os.path.join(
    os.path.dirname(__file__), "results", "sim_minority_coverage_held_back.jsonl"
)
BASE_SEED = 20261126
HELD_BACK_SEED = 20261210
HELD_BACK_REPS = 300
# (d', share, n, threshold rule), fixed before the run (see the docstring)
HELD_BACK_CELLS = [
    (1.5, 0.3, 50, "f1"),
    (1.5, 0.3, 100, "f1"),
    (1.5, 0.15, 200, "f1"),
    (3, 0.03, 500, "f1"),
    (3, 0.03, 1000, "f1"),
    (3, 0.3, 30, "f1"),
    (2, 0.1, 300, "accuracy"),
]
LEVEL = 0.95
TARGET = 0.93
MIN_ITEMS = 300  # smaller bins (s.e. over 1.5 points) are too noisy to choose on
NS = (20, 30, 50, 100, 200, 500)
SHARES = (0.02, 0.05, 0.1, 0.2, 0.5)
DPRIMES = (2, 1)
LABEL_REPS = 200
AUC_REPS = 100
LABEL_METRICS = ("f1", "recall", "precision")


def roc_auc(y_true, y_score):
    """ROC AUC as the Mann-Whitney statistic (continuous scores: no ties
    between the classes); NaN without both classes."""
    pos = np.asarray(y_true) == 1
    n_pos = np.count_nonzero(pos)
    n_neg = pos.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return np.nan
    ranks = np.empty(pos.size)
    ranks[np.argsort(y_score, kind="stable")] = np.arange(1, pos.size + 1)
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def threshold(share, d):
    """The score threshold that maximises the population F1."""
    res = minimize_scalar(
        lambda t: -truths(share, d, t)["f1"], bounds=(-5, 5 + d), method="bounded"
    )
    return float(res.x)


def truths(share, d, t):
    recall = ndtr(d - t)
    fpr = ndtr(-t)
    return {
        "recall": recall,
        "precision": share * recall / (share * recall + (1 - share) * fpr),
        "f1": 2 * share * recall / (share * recall + (1 - share) * fpr + share),
        "roc_auc": ndtr(d / np.sqrt(2)),
    }


def jobs():
    """(key, kind, n, share, d') in run order: the cells that choose the
    threshold first. A second batch (key ending "-b2", its own seed) adds as
    many data sets again to a cell; AUC gets n = 500 (percentile only) in a
    second run, after the first showed it needs more items."""
    first, more = [], []
    for kind in ("labels", "auc"):
        for d, share, n in itertools.product(DPRIMES, SHARES, NS):
            if kind == "auc" and d == 1 and share == 0.02:
                continue  # too slow for its information
            if n * share >= 100:
                continue  # 100 or more of each class: no news
            key = f"{kind}-d{d}-s{share}-n{n}"
            if kind == "auc" and n == 500:
                more.append((key, kind, n, share, d))
                continue
            first.append((key, kind, n, share, d))
    batch2 = [(key + "-b2", *rest) for key, *rest in first]
    batch2.sort(key=lambda job: job[1] != "auc")  # AUC, the noisier, first
    return first + more + batch2


def draw(rng, n, share, d):
    while True:
        y = (rng.random(n) < share).astype(int)
        if 0 < y.sum() < n:
            return y, rng.normal(d * y, 1.0)


def accuracy_threshold(share, d):
    """The score threshold that maximises the population accuracy: where the
    two classes' weighted densities cross."""
    return d / 2 + np.log((1 - share) / share) / d


def run_job(kind, n, share, d, seed, rule="f1", reps=None):
    rng = np.random.default_rng(seed)
    t = threshold(share, d) if rule == "f1" else accuracy_threshold(share, d)
    truth = truths(share, d, t)
    # BCa for AUC in the smaller cells only (its jackknife calls the metric
    # n times)
    auc_bca = kind == "auc" and n <= 100
    if reps is None:
        reps = LABEL_REPS if kind == "labels" else AUC_REPS
    methods = (
        [(m, "percentile") for m in LABEL_METRICS] + [("f1", "bca")]
        if kind == "labels"
        else [("roc_auc", "percentile")] + ([("roc_auc", "bca")] if auc_bca else [])
    )
    covered = {f"{m}/{how}": [] for m, how in methods}
    n_pos, n_pred = [], []
    for _ in range(reps):
        y, score = draw(rng, n, share, d)
        y_pred = (score > t).astype(int)
        n_pos.append(int(y.sum()))
        n_pred.append(int(y_pred.sum()))
        seed_r = int(rng.integers(2**31))
        for m, how in methods:
            if m == "roc_auc":
                out, metric, kwargs = score, roc_auc, None
            else:
                out, metric, kwargs = y_pred, m, {"zero_division": 0}
            res = bootstrap_confidence_interval(
                y,
                out,
                metric=metric,
                metric_kwargs=kwargs,
                n_resamples=999 if kind == "labels" else 499,
                method=how,
                random_state=seed_r,
            )
            low, high = res.confidence_interval
            covered[f"{m}/{how}"].append(int(low <= truth[m] <= high))
    return {
        "truth": {k: float(v) for k, v in truth.items()},
        "threshold": t,
        "covered": covered,
        "n_pos": n_pos,
        "n_pred": n_pred,
    }


def load(path=CACHE):
    cache = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    cache[rec["key"]] = rec
    return cache


def merged(cache):
    """The records of each cell, its batches' data sets pooled."""
    cells = {}
    for key, rec in cache.items():
        base = key.removesuffix("-b2")
        if base not in cells:
            cells[base] = {**rec, "covered": {}, "n_pos": [], "n_pred": []}
        cell = cells[base]
        for col, flags in rec["covered"].items():
            cell["covered"].setdefault(col, []).extend(flags)
        cell["n_pos"] += rec["n_pos"]
        cell["n_pred"] += rec["n_pred"]
    return list(cells.values())


def simulate(minutes):
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    s = np.array([0.1, 0.4, 0.35, 0.8, 0.9, 0.2, 0.3, 0.7])
    assert np.isclose(roc_auc(y, s), roc_auc_score(y, s))
    cache = load()
    start = time.perf_counter()
    for key, kind, n, share, d in jobs():
        if key in cache:
            continue
        if time.perf_counter() - start > 60 * minutes:
            print("time is up; rerun to continue")
            return
        t0 = time.perf_counter()
        seed = np.random.SeedSequence([BASE_SEED, zlib.crc32(key.encode())])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rec = run_job(kind, n, share, d, seed)
        rec.update(key=key, kind=kind, n=n, share=share, d=d)
        with open(CACHE, "a") as f:
            f.write(json.dumps(rec) + "\n")
        print(f"{key}: {time.perf_counter() - t0:.0f} s", flush=True)


def _cov(flags):
    flags = np.asarray(flags)
    c = flags.mean()
    return c, np.sqrt(c * (1 - c) / flags.size)


def held_back(rec):
    return rec["d"] == 1 or rec["share"] == 0.02


# bins of the count of the rarest class: (low, high) inclusive
BINS = [(k, k) for k in range(1, 11)] + [
    (11, 15),
    (16, 20),
    (21, 30),
    (31, 50),
    (51, 100),
    (101, 10**9),
]


def pooled(records, col, count):
    """Coverage of ``col`` pooled over ``records``, by bins of ``count``."""
    flags, counts = [], []
    for rec in records:
        if col in rec["covered"]:
            flags += rec["covered"][col]
            counts += count(rec)
    flags, counts = np.asarray(flags), np.asarray(counts)
    rows = []
    for low, high in BINS:
        sel = (counts >= low) & (counts <= high)
        if sel.sum() >= 30:
            rows.append((low, high, int(sel.sum()), *_cov(flags[sel])))
    return rows


def choose(rows):
    """The smallest bin start from which every bin covers at least TARGET."""
    ok = None
    for low, _, _, c, _ in reversed(rows):
        if c < TARGET:
            break
        ok = low
    return ok


COUNTS = {
    # rarest class in y_true
    "y_true": lambda r: [min(p, r["n"] - p) for p in r["n_pos"]],
    # and the predicted positives too (precision and F1 divide by them)
    "y_true+pred": lambda r: [
        min(p, r["n"] - p, q) for p, q in zip(r["n_pos"], r["n_pred"], strict=True)
    ],
}


def worst_of(records, cols, count, min_items):
    """Per bin, the lowest pooled coverage over the metrics ``cols``."""
    per = [
        {
            low: (high, size, c, se)
            for low, high, size, c, se in pooled(records, col, count)
        }
        for col in cols
    ]
    rows = []
    for low, high in BINS:
        got = [p[low] for p in per if low in p and p[low][1] >= min_items]
        if len(got) == len(cols):
            _, size, c, se = min(got, key=lambda g: g[2])
            rows.append((low, high, size, c, se))
    return rows


def _span(low, high):
    return f"{low}" if low == high else f"{low}-{high if high < 10**9 else ''}"


def report(count_names=("y_true", "y_true+pred")):
    recs = merged(load())
    cell_tables(recs)
    threshold_tables(recs, count_names)


def cell_tables(recs):
    print(f"coverage of the {LEVEL:.0%} two-sided interval (Monte-Carlo s.e.)")
    for kind in ("labels", "auc"):
        sub = sorted(
            (r for r in recs if r["kind"] == kind),
            key=lambda r: (-r["d"], r["share"], r["n"]),
        )
        if not sub:
            continue
        cols = (
            list(sub[0]["covered"])
            if kind == "labels"
            else ["roc_auc/percentile", "roc_auc/bca"]
        )
        reps = sorted({len(r["n_pos"]) for r in sub})
        print(f"\n{kind}: {'/'.join(map(str, reps))} data sets a cell")
        head = " ".join(f"{c:>16}" for c in cols)
        print(f"{'d':>2} {'share':>5} {'n':>4} {'pos':>4} {'pred+':>5} {head}")
        for r in sub:
            cells = []
            for c in cols:
                if c in r["covered"]:
                    cov, se = _cov(r["covered"][c])
                    cells.append(f"{cov:9.3f} ({se:.3f})")
                else:
                    cells.append("")
            print(
                f"{r['d']:>2} {r['share']:>5} {r['n']:>4}"
                f" {np.median(r['n_pos']):>4.0f} {np.median(r['n_pred']):>5.0f} "
                + " ".join(f"{c:>16}" for c in cells)
            )


def threshold_tables(recs, count_names):
    chosen = [r for r in recs if not held_back(r)]
    held = [r for r in recs if held_back(r)]
    groups = {
        "precision, recall, F1 (percentile)": [
            "f1/percentile",
            "recall/percentile",
            "precision/percentile",
        ],
        "F1 (BCa)": ["f1/bca"],
        "ROC AUC (percentile)": ["roc_auc/percentile"],
        "ROC AUC (BCa)": ["roc_auc/bca"],
    }
    for count_name in count_names:
        count = COUNTS[count_name]
        for title, cols in groups.items():
            if "roc" in cols[0] and count_name != "y_true":
                continue
            rows = worst_of(chosen, cols, count, MIN_ITEMS)
            back = {row[0]: row for row in worst_of(held, cols, count, 30)}
            every = {row[0]: row for row in worst_of(recs, cols, count, 30)}
            print(
                f"\n{title}: lowest coverage over the metrics, by the items of "
                f"the rarest class of {count_name}; threshold {choose(rows)} "
                f"(the bins of at least {MIN_ITEMS} data sets of the cells with "
                "d'=2, share>=0.05)"
            )
            print(f"{'count':>7} {'chosen on':>22} {'held back':>22} {'all':>8}")
            for low, high in BINS:
                line = [f"{_span(low, high):>7}"]
                for table in ({r[0]: r for r in rows}, back):
                    row = table.get(low)
                    line.append(
                        f"{row[3]:.3f} ({row[4]:.3f}) n={row[2]:<4}" if row else ""
                    )
                row = every.get(low)
                line.append(f"{row[3]:.3f}" if row else "")
                if any(line[1:]):
                    print(f"{line[0]} {line[1]:>22} {line[2]:>22} {line[3]:>8}")


def run_held_back():
    """Run the second held-back group (resumable), then print its table."""
    cache = load(HELD_BACK_CACHE)
    for d, share, n, rule in HELD_BACK_CELLS:
        key = f"hb2-labels-d{d}-s{share}-n{n}-{rule}"
        if key in cache:
            continue
        t0 = time.perf_counter()
        seed = np.random.SeedSequence([HELD_BACK_SEED, zlib.crc32(key.encode())])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rec = run_job("labels", n, share, d, seed, rule, reps=HELD_BACK_REPS)
        rec.update(key=key, kind="labels", n=n, share=share, d=d, rule=rule)
        with open(HELD_BACK_CACHE, "a") as f:
            f.write(json.dumps(rec) + "\n")
        print(f"{key}: {time.perf_counter() - t0:.0f} s", flush=True)
    recs = list(load(HELD_BACK_CACHE).values())
    print(
        f"\nsecond held-back group (seed {HELD_BACK_SEED}), coverage of the 95% "
        "interval by cell"
    )
    cols = ["f1/percentile", "recall/percentile", "precision/percentile", "f1/bca"]
    print(f"{'cell':32} {'pos':>4} {'pred+':>5} " + " ".join(f"{c:>20}" for c in cols))
    for r in recs:
        cells = ["{:9.3f} ({:.3f})".format(*_cov(r["covered"][c])) for c in cols]
        print(
            f"{r['key']:32} {np.median(r['n_pos']):>4.0f} "
            f"{np.median(r['n_pred']):>5.0f} " + " ".join(f"{c:>20}" for c in cells)
        )
    groups = {
        "precision, recall, F1 (percentile)": cols[:3],
        "F1 (BCa)": ["f1/bca"],
    }
    for title, group in groups.items():
        print(
            f"\n{title}: lowest coverage over the metrics, by the items of the "
            "rarest class of y_true (bins of at least 30 data sets)"
        )
        for low, high, size, c, se in worst_of(recs, group, COUNTS["y_true"], 30):
            print(f"{_span(low, high):>7}   {c:.3f} ({se:.3f}) n={size}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=35.0)
    parser.add_argument("--report", action="store_true")
    parser.add_argument(
        "--held-back",
        action="store_true",
        help="run the second held-back group (see the docstring) instead",
    )
    parser.add_argument(
        "--docs", action="store_true", help="write the tables doc/holdout.rst includes"
    )
    args = parser.parse_args()
    if args.held_back:
        run_held_back()
        return
    if args.docs:
        recs = merged(load())
        doc = os.path.join(os.path.dirname(__file__), os.pardir, "doc")
        for name, table in (
            ("_sim_minority_coverage.txt", lambda: cell_tables(recs)),
            ("_sim_minority_threshold.txt", lambda: threshold_tables(recs, ["y_true"])),
        ):
            text = io.StringIO()
            with contextlib.redirect_stdout(text):
                table()
            lines = [line.rstrip() for line in text.getvalue().splitlines()]
            with open(os.path.join(doc, name), "w") as f:
                f.write("\n".join(lines).strip("\n") + "\n")
        return
    if not args.report:
        simulate(args.minutes)
    report()


if __name__ == "__main__":
    main()

"""Level and power of ``compare_to_annotators``, by simulation.

What it measures. H human annotators and a model label n units whose true
class is drawn from the class shares (balanced: 1/3 each; skewed: 0.8,
0.15, 0.05). Each coder "knows or guesses" (Dawid-Skene's simplest form):
with probability ``p`` (its accuracy) it gives the true class, otherwise a
class drawn from the shares. Accuracies are equal (0.75 for everyone) or
heterogeneous (each coder's drawn from U(0.6, 0.9)). The model is one more
coder drawn from the same population ("same"), or 10 points less ("worse")
or more ("better") accurate than such a draw. The annotators and the model
are drawn anew for each data set: "one more annotator" is a statement about
coders drawn from a population, so the level is measured over coders and
units.

Printed per cell: the rate of the verdict "below" (the level when the model
is the same, the power when it is worse) and "above" (the power when it is
better), with Monte-Carlo standard errors ``sqrt(p (1 - p) / reps)``; and the
same rates for the units' interval alone (``d +- z s_u``, the annotators'
spread left out), which shows why the annotators' part is needed; and the
mean difference (0 under "same").

The design was tuned on runs of its own seeds (not this script's); the
main grid checked it, and its 2-annotator cells were run again after the
bound of 2 annotators was raised from 75% to 95%. The ``--held-out`` cells
(4 and 2 annotators, 4 classes, 20% of the annotators' labels missing,
accuracies from U(0.5, 0.95), Krippendorff's alpha; and 3 annotators on a
5-point ordinal scale whose errors fall on a neighbouring point, ordinal
alpha) were run once each design was frozen, and are reported apart.

Held-back settings (``--held-back``, seed 20261128, issue 37). The quoted
rates (a model that is one more annotator called "below" in at most 4.2% of
data sets, the units' bootstrap alone in up to 35%) were measured on the
main grid above. These cells were fixed before any of them was run, and
differ from it in every factor:

- annotators: 2, 4 and 7 (main grid: 2, 3, 5);
- units: 30, 120 and 600 (main grid: 50, 200, 1,000);
- skills: "expert", accuracies from U(0.8, 0.95), and "mixed", each coder
  (the model too) an expert of accuracy 0.9 or a novice of 0.55 with
  probability 1/2 (main grid: 0.75 each, or U(0.6, 0.9));
- classes: binary with a rare class (0.9, 0.1), and six classes (0.3, 0.25,
  0.2, 0.12, 0.08, 0.05) (main grid: three classes);
- level cells (model "same"): all 36 combinations of the above; plus hard
  units (a quarter of the units, on which every coder's and the model's
  accuracy is halved: errors correlated across coders), 3 and 6
  annotators, 250 units, both skills, six classes; plus Krippendorff's
  alpha with 30% of the annotators' labels missing, 3 and 6 annotators,
  200 units, expert skills, the rare binary class;
- power cells: the model 5 or 15 points less accurate than its draw
  ("worse5", "worse15"), 4 and 7 annotators, 600 units, both skills, six
  classes.

300 data sets a cell (Monte-Carlo s.e. 1.2 points at a rate of 5%), 999
resamples, cached in ``benchmarks/results/sim_model_annotator_held_back.json``,
the table written to ``benchmarks/results/sim_model_annotator_held_back.txt``
(about 5 CPU minutes). Result: the level held with 4 or more annotators
(at most 4.7%, s.e. 1.2) but not with 2 annotators split into experts and
novices (13.3%, s.e. 2.0, at 600 units) nor with 3 such annotators on hard
units (6.0%, s.e. 1.4); the units' bootstrap alone reached 44%.

Run::

    python benchmarks/sim_model_annotator.py               # 500 data sets a cell
    python benchmarks/sim_model_annotator.py --held-out    # the held-out cells
    python benchmarks/sim_model_annotator.py --held-back --reps 300
    python benchmarks/sim_model_annotator.py --reps 100    # quicker

Seeded (``SeedSequence([20261126, cell, rep])``; the held-back cells
``SeedSequence([20261128, cell, rep])``) and resumable: finished cells are
cached in ``benchmarks/results/sim_model_annotator.json``.
"""

import argparse
import contextlib
import json
import os
import time
import warnings
import zlib

import numpy as np
from scipy import special

from sklearn_faithful.agreement import compare_to_annotators

RESULTS = os.path.join(os.path.dirname(__file__), "results")
CACHE = os.path.join(RESULTS, "sim_model_annotator.json")
HELD_BACK_CACHE = os.path.join(RESULTS, "sim_model_annotator_held_back.json")
HELD_BACK_TEXT = os.path.join(RESULTS, "sim_model_annotator_held_back.txt")
BASE_SEED = 20261126
HELD_BACK_SEED = 20261128
N_RESAMPLES = 999
SHARES = {"balanced": [1 / 3, 1 / 3, 1 / 3], "skewed": [0.8, 0.15, 0.05]}
MODELS = {
    "same": 0.0,
    "worse": -0.10,
    "better": 0.10,
    "worse5": -0.05,
    "worse15": -0.15,
}
CELLS = [
    dict(humans=h, units=n, coders=coders, classes=classes, model=model)
    for model in ("same", "worse", "better")
    for h in (2, 3, 5)
    for n in (50, 200, 1000)
    for coders in ("equal", "heterogeneous")
    for classes in ("balanced", "skewed")
]
HELD_OUT = [
    dict(
        humans=h,
        units=500,
        coders="wide",
        classes="four",
        model=model,
        missing=0.2,
        coefficient="krippendorff_alpha",
        level="nominal",
    )
    for h in (4, 2)
    for model in ("same", "worse", "better")
] + [
    dict(
        humans=3,
        units=300,
        coders="heterogeneous",
        classes="likert",
        model=model,
        coefficient="krippendorff_alpha",
        level="ordinal",
    )
    for model in ("same", "worse", "better")
]
# fixed before the run (see the docstring)
HELD_BACK = (
    [
        dict(humans=h, units=n, coders=coders, classes=classes, model="same")
        for h in (2, 4, 7)
        for n in (30, 120, 600)
        for coders in ("expert", "mixed")
        for classes in ("rare", "six")
    ]
    + [
        dict(humans=h, units=250, coders=coders, classes="six", model="same", hard=0.25)
        for h in (3, 6)
        for coders in ("expert", "mixed")
    ]
    + [
        dict(
            humans=h,
            units=200,
            coders="expert",
            classes="rare",
            model="same",
            missing=0.3,
            coefficient="krippendorff_alpha",
        )
        for h in (3, 6)
    ]
    + [
        dict(humans=h, units=600, coders=coders, classes="six", model=model)
        for model in ("worse5", "worse15")
        for h in (4, 7)
        for coders in ("expert", "mixed")
    ]
)
SHARES.update(
    four=[0.4, 0.3, 0.2, 0.1],
    likert=[0.1, 0.2, 0.4, 0.2, 0.1],
    rare=[0.9, 0.1],
    six=[0.3, 0.25, 0.2, 0.12, 0.08, 0.05],
)
ACCURACY = {
    "equal": (0.75, 0.75),
    "heterogeneous": (0.6, 0.9),
    "wide": (0.5, 0.95),
    "expert": (0.8, 0.95),
}


def make_data(rng, cell):
    """Reliability data (H, n) of the annotators and the model's labels (n,)."""
    shares = np.array(SHARES[cell["classes"]])
    k, n, h = shares.size, cell["units"], cell["humans"]
    truth = rng.choice(k, size=n, p=shares)
    if cell["coders"] == "mixed":  # experts and novices
        accuracy = np.where(rng.random(h + 1) < 0.5, 0.9, 0.55)
    else:
        low, high = ACCURACY[cell["coders"]]
        accuracy = rng.uniform(low, high, h + 1)
    accuracy[-1] = min(accuracy[-1] + MODELS[cell["model"]], 1.0)
    accuracy = np.broadcast_to(accuracy[:, None], (h + 1, n))
    hard = cell.get("hard", 0.0)
    if hard:  # hard units: every coder's accuracy halved
        accuracy = accuracy * np.where(rng.random(n) < hard, 0.5, 1.0)
    knows = rng.random((h + 1, n)) < accuracy
    if cell["classes"] == "likert":  # errors fall on a neighbouring point
        step = rng.choice([-1, 1], size=(h + 1, n))
        guess = np.clip(truth + step, 0, k - 1)
    else:  # errors are guesses from the class shares
        guess = rng.choice(k, size=(h + 1, n), p=shares)
    labels = np.where(knows, truth, guess).astype(np.float64)
    missing = cell.get("missing", 0.0)
    if missing:
        labels[:h][rng.random((h, n)) < missing] = np.nan
    return labels[:h], labels[h]


def _key(cell):
    return ",".join(f"{k}={v}" for k, v in sorted(cell.items()))


def run_cell(cell, reps, seed=BASE_SEED):
    """Verdict rates of one cell over ``reps`` data sets."""
    z = float(special.ndtri(0.975))
    counts = dict(below=0, above=0, units_below=0, units_above=0)
    diffs = []
    failed = 0
    index = zlib.crc32(_key(cell).encode())
    for rep in range(reps):
        rng = np.random.default_rng(np.random.SeedSequence([seed, index, rep]))
        humans, model = make_data(rng, cell)
        try:
            with warnings.catch_warnings():
                # the two-annotator warning quotes this very simulation
                warnings.simplefilter("ignore", UserWarning)
                res = compare_to_annotators(
                    humans,
                    model,
                    coefficient=cell.get("coefficient", "cohen_kappa"),
                    level_of_measurement=cell.get("level", "nominal"),
                    n_resamples=N_RESAMPLES,
                    random_state=rng,
                )
        except ValueError:  # a NaN spread (a coder with one class) stops it
            failed += 1
            continue
        counts["below"] += res.verdict == "below"
        counts["above"] += res.verdict == "above"
        units_low = res.statistic - z * res.unit_standard_error
        units_high = res.statistic + z * res.unit_standard_error
        counts["units_below"] += units_high < 0
        counts["units_above"] += units_low > 0
        diffs.append(res.statistic)
    done = max(reps - failed, 1)
    out = {name: count / done for name, count in counts.items()}
    out.update(
        reps=reps,
        failed=failed,
        mean_difference=float(np.nanmean(diffs)),
    )
    return out


def _se(p, reps):
    return (p * (1 - p) / reps) ** 0.5


def _print(cells, results, reps):
    print(
        f"{'H':>2} {'n':>5} {'coders':>13} {'classes':>8} {'model':>7}  "
        f"{'below':>13} {'above':>13}  {'units: below':>13} {'above':>13}  "
        f"{'mean d':>7}  other"
    )
    for cell in cells:
        r = results.get(_key(cell))
        if r is None or r["reps"] < reps:
            continue
        n = r["reps"] - r.get("failed", 0)
        cols = [
            f"{r[name]:.3f}±{_se(r[name], n):.3f}"
            for name in ("below", "above", "units_below", "units_above")
        ]
        other = [
            f"{name}={cell[name]}"
            for name in ("hard", "missing", "coefficient")
            if name in cell
        ]
        if r.get("failed"):
            other.append(f"failed={r['failed']}")
        print(
            f"{cell['humans']:>2} {cell['units']:>5} {cell['coders']:>13} "
            f"{cell['classes']:>8} {cell['model']:>7}  {cols[0]:>13} {cols[1]:>13}  "
            f"{cols[2]:>13} {cols[3]:>13}  {r['mean_difference']:+.4f}  "
            + " ".join(other)
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=500)
    parser.add_argument("--held-out", action="store_true")
    parser.add_argument(
        "--held-back",
        action="store_true",
        help="run the held-back cells (see the docstring), seed 20261128",
    )
    args = parser.parse_args()
    if args.held_back:
        cells, cache, seed, name = (
            HELD_BACK,
            HELD_BACK_CACHE,
            HELD_BACK_SEED,
            "held-back",
        )
    elif args.held_out:
        cells, cache, seed, name = HELD_OUT, CACHE, BASE_SEED, "held-out"
    else:
        cells, cache, seed, name = CELLS, CACHE, BASE_SEED, "main"
    results = {}
    if os.path.exists(cache):
        with open(cache) as f:
            results = json.load(f)
    start = time.process_time()
    for i, cell in enumerate(cells):
        key = _key(cell)
        if key in results and results[key]["reps"] >= args.reps:
            continue
        t0 = time.process_time()
        results[key] = run_cell(cell, args.reps, seed)
        results[key]["cpu_seconds"] = time.process_time() - t0
        with open(cache + ".tmp", "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
        os.replace(cache + ".tmp", cache)
        print(
            f"[{i + 1}/{len(cells)}] {key}: {results[key]['cpu_seconds']:.0f} s",
            flush=True,
        )
    print(f"CPU time this run: {time.process_time() - start:.0f} s")
    total = sum(results[_key(c)]["cpu_seconds"] for c in cells if _key(c) in results)
    header = (
        f"{name} cells (seed {seed}), {args.reps} data sets a cell, "
        f"{N_RESAMPLES} resamples; CPU time of all cells: {total:.0f} s"
    )
    print(header)
    _print(cells, results, args.reps)
    if args.held_back:
        with open(HELD_BACK_TEXT, "w", encoding="utf-8") as fh:
            with contextlib.redirect_stdout(fh):
                print(header)
                _print(cells, results, args.reps)


if __name__ == "__main__":
    main()

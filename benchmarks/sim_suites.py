"""Coverage of ``suite_scores``' intervals on simulated suites of tasks.

What it measures. Two runs A and B score a suite of T tasks of unequal
sizes. Per setting and weighting, with Monte-Carlo standard errors
``sqrt(p (1 - p) / reps)``: ``score``, the rate at which run A's 95%
interval holds its true suite score, and ``diff``, the rate at which the
95% interval of B - A holds the true difference (the claim: about 95%).

Data. Task t has A's rate ``p_t`` and B's ``p_t + 0.03``; item i of the task
is scored ``1{u_i < p_t}`` by A and ``1{u'_i < p_t + 0.03}`` by B, with
``u'_i = u_i`` for half the items (the runs agree on them) and an
independent uniform otherwise, so each run's task mean is exactly its rate.
With clusters, ``u_i = Phi(sqrt(0.3) c_g + sqrt(0.7) e_i)``: items alike
within a cluster of 5, still uniform. The true suite score is the mean of
the rates over tasks (``task``) or weighted by the task sizes (``item``).

Settings. ``t5_items``: T = 5 tasks of 20, 40, 80, 160, 320 items, rates
0.55 to 0.85; ``t10_items``: T = 10 tasks of 15 to 150 items (10 each
step), rates 0.5 to 0.9; ``t3_uneven``: T = 3 tasks of 30, 30 and 600
items, rates 0.9, 0.6, 0.7. Held back (fixed before any replicate ran,
reported apart, ``--held-back``): ``held_small``: T = 20 tasks of 10 items,
rates 0.3 to 0.95; ``held_clusters``: T = 6 tasks of 40 to 240 items (40
each step) in clusters of 5, rates 0.6 to 0.85.

999 resamples per call, 300 replicates per setting; seeded with
``SeedSequence([20270391, crc32(setting), rep])``.

Run::

    python benchmarks/sim_suites.py --rst doc/_sim_suites.txt
    python benchmarks/sim_suites.py --held-back --rst doc/_sim_suites_held_back.txt
"""

import argparse
import math
import time
import zlib

import numpy as np
from scipy.special import ndtr

from sklearn_faithful.eval_logs import suite_scores

SEED = 20270391
N_RESAMPLES = 999

SETTINGS = {
    "t5_items": (
        [20, 40, 80, 160, 320],
        np.linspace(0.55, 0.85, 5),
        False,
    ),
    "t10_items": (list(range(15, 151, 15)), np.linspace(0.5, 0.9, 10), False),
    "t3_uneven": ([30, 30, 600], np.array([0.9, 0.6, 0.7]), False),
}
HELD_BACK = {
    "held_small": ([10] * 20, np.linspace(0.3, 0.95, 20), False),
    "held_clusters": (list(range(40, 241, 40)), np.linspace(0.6, 0.85, 6), True),
}


def replicate(sizes, rates, clustered, rng):
    """(scores of A and B, tasks, clusters or None) of one simulated suite."""
    tasks = np.repeat(np.arange(len(sizes)), sizes)
    n = tasks.size
    if clustered:
        cluster = np.arange(n) // 5
        c = rng.standard_normal(cluster.max() + 1)[cluster]
        u = ndtr(math.sqrt(0.3) * c + math.sqrt(0.7) * rng.standard_normal(n))
    else:
        cluster, u = None, rng.random(n)
    v = np.where(rng.random(n) < 0.5, u, rng.random(n))
    p = rates[tasks]
    return (u < p).astype(int), (v < p + 0.03).astype(int), tasks, cluster


def run(settings, reps):
    rows = []
    for name, (sizes, rates, clustered) in settings.items():
        sizes = np.asarray(sizes)
        truth = {
            "task": (rates.mean(), 0.03),
            "item": ((sizes * rates).sum() / sizes.sum(), 0.03),
        }
        hits = {w: np.zeros(2) for w in truth}
        start = time.perf_counter()
        for rep in range(reps):
            rng = np.random.default_rng(
                np.random.SeedSequence([SEED, zlib.crc32(name.encode()), rep])
            )
            a, b, tasks, cluster = replicate(sizes, rates, clustered, rng)
            for weighting, (score, diff) in truth.items():
                res = suite_scores(
                    {"A": a, "B": b},
                    tasks=tasks,
                    groups=cluster,
                    weighting=weighting,
                    n_resamples=N_RESAMPLES,
                    random_state=rng,
                )
                run_a, pair = res.runs[0], res.pairs[0]
                hits[weighting] += [
                    run_a["low"] <= score <= run_a["high"],
                    pair["low"] <= diff <= pair["high"],
                ]
        for weighting, h in hits.items():
            cov = h / reps
            se = np.sqrt(cov * (1 - cov) / reps)
            rows.append((name, weighting, *(100 * cov), *(100 * se)))
        print(f"{name}: {time.perf_counter() - start:.0f} s", flush=True)
    return rows


def rst(rows, reps):
    lines = [
        ".. list-table::",
        "   :header-rows: 1",
        "",
        "   * - setting",
        "     - weighting",
        "     - score covered (%)",
        "     - difference covered (%)",
    ]
    for name, weighting, score, diff, se_s, se_d in rows:
        lines += [
            f"   * - {name}",
            f"     - {weighting}",
            f"     - {score:.1f} ({se_s:.1f})",
            f"     - {diff:.1f} ({se_d:.1f})",
        ]
    lines += [
        "",
        f"{reps} replicates per setting, {N_RESAMPLES} resamples, 95% "
        f"intervals; Monte-Carlo s.e. in brackets (benchmarks/sim_suites.py, "
        f"seed {SEED}).",
    ]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-back", action="store_true")
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--rst", metavar="FILE")
    args = parser.parse_args()
    rows = run(HELD_BACK if args.held_back else SETTINGS, args.reps)
    text = rst(rows, args.reps)
    print(text)
    if args.rst:
        with open(args.rst, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()

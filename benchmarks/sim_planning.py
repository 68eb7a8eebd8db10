"""Planning a paired comparison: is the planned n's power the target's?

What it measures. For each setting, a population of paired scores of two
runs A and B (0/1 correctness or continuous ratings, items alone or in
clusters) with a true mean difference ``delta``. The plan is made by
:func:`~sklearn_faithful.gate.plan_paired_comparison` on a large pilot
(20,000 items, or 4,000 clusters) drawn from the population, so that it
measures the rule, not the pilot's noise; then ``REPS`` test sets of the
planned n items (whole clusters, rounded up) are drawn and compared by
:func:`~sklearn_faithful.eval_logs.compare_runs`' default paired test (the
permutation test, swapping whole clusters with ``groups``; 999
permutations), two-sided at alpha = 0.05. Printed: the planned n, the
rate of p < 0.05 (the power; target 0.80, or 0.90 where said) with its
Monte-Carlo s.e. sqrt(p (1 - p) / REPS), and the plan's correlation of
the runs and the unpaired n, whose ratio to the paired n is compared with
the factor the correlation predicts, ``(s_a^2 + s_b^2) / s_d^2`` (``1 /
(1 - rho)`` for runs of equal spread).

A second column, "pilot 300": each rep first draws a pilot of 300 items
(60 clusters) from the population, plans from it, then tests a test set of
that n: the power a user gets, pilot noise included, and the mean planned n
(a pilot where the runs never disagree plans nothing: counted below the
table and left out of the column).

For 0/1 scores the plan is the continuity-corrected rule (Miettinen's
variances; the first run, before it, used the normal rule: 0.721 to 0.758
where the discordant items were few); ``n_unpaired`` keeps the normal rule,
so for them ``unp/pai`` falls below the variance factor.

Settings (fixed before the run; ``held`` ones were not looked at while
writing the rule and run once, with ``--held-back``):

- ``bin agree``: 0/1 scores, A at 0.70; B fixes 25% of A's errors and
  breaks 4% of its successes (delta 0.047, discordant 10.3%).
- ``bin disagree``: A at 0.60; B fixes 40% and breaks 20% (delta 0.04,
  discordant 28%).
- ``bin large``: A at 0.60; B fixes 50% and breaks 2% (delta 0.188, a
  large effect: n near 40).
- ``cont rho .8``: ratings a ~ N(0, 1), b = 0.8 a + 0.6 e + 0.1.
- ``bin clusters 5``: 0/1 scores in clusters of 5 items; each cluster's
  accuracy of A and B's fix and break rates vary (Beta), so the
  differences are correlated within clusters.
- ``bin clusters unequal``: the same with cluster sizes 1 + Poisson(6).
- ``cont clusters 10``: ratings with a cluster effect on the difference
  (ICC of the differences 0.2), clusters of 10.
- held: ``bin clusters 20 power .9`` (clusters of 20, beta 0.1), ``bin
  rare`` (A at 0.95, B fixes 40%, breaks 0.5%), ``cont clusters unequal``
  (sizes 1 + Poisson(3), ICC 0.4), ``bin clusters alpha .01`` (clusters of
  5, alpha 0.01).

Seed: ``[SEED, crc32(setting), rep]``. Resumable: each setting's line is
appended to ``results/sim_planning.jsonl`` and skipped when present; once
every setting is done the table goes to ``doc/_sim_planning.txt`` (held
back: ``doc/_sim_planning_held_back.txt``). About 5 CPU minutes for all.

    python benchmarks/sim_planning.py [--held-back] [--reps 1000]
"""

import argparse
import json
import math
import time
import warnings
import zlib
from pathlib import Path

import numpy as np

from sklearn_faithful.eval_logs import compare_runs
from sklearn_faithful.gate import plan_paired_comparison

SEED = 20261215
REPS = 1000
PILOT_ITEMS = 20_000
SMALL_PILOT = 300
RESULTS = Path(__file__).parent / "results" / "sim_planning.jsonl"
# the tables the user guide includes (doc/gate.rst, "Planning from pilot runs")
DOC = Path(__file__).parents[1] / "doc"


def _sizes(rng, kind, n_items):
    """Cluster sizes adding to at least ``n_items``: None without clusters."""
    if kind is None:
        return None
    if kind[0] == "equal":
        return np.full(math.ceil(n_items / kind[1]), kind[1])
    sizes = []
    while sum(sizes) < n_items:
        sizes.append(1 + rng.poisson(kind[1]))
    return np.asarray(sizes)


def _binary(rng, n_items, p, fix, brk, clusters, spread=0.0):
    """0/1 scores: A right with prob p; B fixes ``fix`` of A's errors and
    breaks ``brk`` of its successes. With clusters, each cluster draws its
    own p, fix and brk from Beta distributions of those means (``spread``:
    1 / (a + b + 1), the share of variance between clusters)."""
    sizes = _sizes(rng, clusters, n_items)
    if sizes is None:
        groups, pg, fg, bg = np.arange(n_items), p, fix, brk
    else:
        groups = np.repeat(np.arange(sizes.size), sizes)
        conc = 1 / spread - 1

        def beta(m):
            return rng.beta(m * conc, (1 - m) * conc, sizes.size)[groups]

        pg, fg, bg = beta(p), beta(fix), beta(brk)
    n = groups.size
    a = (rng.random(n) < pg).astype(float)
    u = rng.random(n)
    b = np.where(a == 1, u >= bg, u < fg).astype(float)
    return a, b, (None if sizes is None else groups)


def _continuous(rng, n_items, rho, delta, clusters, icc=0.0):
    sizes = _sizes(rng, clusters, n_items)
    n = n_items if sizes is None else int(sizes.sum())
    a = rng.normal(size=n)
    noise = rng.normal(size=n) * math.sqrt(1 - rho**2)
    groups = None
    if sizes is not None:
        groups = np.repeat(np.arange(sizes.size), sizes)
        # the difference's variance 2 (1 - rho) split: icc of it between clusters
        total = 2 * (1 - rho)
        cluster = rng.normal(size=sizes.size)[groups] * math.sqrt(icc * total)
        noise = noise * math.sqrt(1 - icc) + cluster
    return a, rho * a + noise + delta, groups


# name: (generator, its arguments, true delta, alpha, beta, held)
def _p(p, fix, brk):
    return (1 - p) * fix - p * brk


SETTINGS = {
    "bin agree": ("bin", (0.70, 0.25, 0.04, None), 0.05, 0.2, False),
    "bin disagree": ("bin", (0.60, 0.40, 0.20, None), 0.05, 0.2, False),
    "bin large": ("bin", (0.60, 0.50, 0.02, None), 0.05, 0.2, False),
    "cont rho .8": ("cont", (0.8, 0.1, None), 0.05, 0.2, False),
    "bin clusters 5": ("bin", (0.70, 0.30, 0.05, ("equal", 5), 0.1), 0.05, 0.2, False),
    "bin clusters unequal": (
        "bin",
        (0.70, 0.30, 0.05, ("poisson", 6), 0.1),
        0.05,
        0.2,
        False,
    ),
    "cont clusters 10": ("cont", (0.8, 0.08, ("equal", 10), 0.2), 0.05, 0.2, False),
    "bin clusters 20 power .9": (
        "bin",
        (0.75, 0.30, 0.06, ("equal", 20), 0.05),
        0.05,
        0.1,
        True,
    ),
    "bin rare": ("bin", (0.95, 0.40, 0.005, None), 0.05, 0.2, True),
    "cont clusters unequal": (
        "cont",
        (0.7, 0.1, ("poisson", 3), 0.4),
        0.05,
        0.2,
        True,
    ),
    "bin clusters alpha .01": (
        "bin",
        (0.70, 0.30, 0.05, ("equal", 5), 0.1),
        0.01,
        0.2,
        True,
    ),
}


def _delta(kind, args):
    return _p(*args[:3]) if kind == "bin" else args[1]


def _draw(rng, kind, args, n_items):
    if kind == "bin":
        return _binary(rng, n_items, *args)
    return _continuous(rng, n_items, *args)


def _power(rng, kind, args, n, alpha, seed):
    a, b, groups = _draw(rng, kind, args, n)
    res = compare_runs(
        {"A": a, "B": b}, groups=groups, n_resamples=999, random_state=seed
    )
    return res.pairs[0]["pvalue"] < alpha


def run_setting(name, reps):
    kind, args, alpha, beta, _ = SETTINGS[name]
    delta = _delta(kind, args)
    root = [SEED, zlib.crc32(name.encode())]
    rng = np.random.default_rng([*root, 10**6])
    a, b, groups = _draw(rng, kind, args, PILOT_ITEMS)
    plan = plan_paired_comparison(
        {"A": a, "B": b}, delta, groups=groups, alpha=alpha, beta=beta
    )
    hits = small_hits = no_plan = 0
    small_n = []
    for rep in range(reps):
        rng = np.random.default_rng([*root, rep])
        hits += _power(rng, kind, args, plan.n_required, alpha, rep)
        a, b, groups = _draw(rng, kind, args, SMALL_PILOT)
        try:
            pilot = plan_paired_comparison(
                {"A": a, "B": b}, delta, groups=groups, alpha=alpha, beta=beta
            )
        except ValueError:  # a pilot where the runs never disagree plans nothing
            no_plan += 1
            continue
        small_n.append(pilot.n_required)
        small_hits += _power(rng, kind, args, pilot.n_required, alpha, rep)
    power, small = hits / reps, small_hits / (reps - no_plan)
    return {
        "setting": name,
        "held": SETTINGS[name][4],
        "delta": delta,
        "alpha": alpha,
        "target": 1 - beta,
        "n": plan.n_required,
        "n_unpaired": plan.n_unpaired,
        "correlation": plan.correlation,
        "design_effect": plan.design_effect,
        "power": power,
        "se": math.sqrt(power * (1 - power) / reps),
        "pilot_power": small,
        "pilot_se": math.sqrt(small * (1 - small) / (reps - no_plan)),
        "pilot_mean_n": float(np.mean(small_n)),
        "pilot_no_plan": no_plan,
        "reps": reps,
    }


def _table(rows):
    head = (
        f"{'setting':<26} {'delta':>6} {'n':>6} {'power (s.e.)':>14} {'target':>6} "
        f"{'pilot 300 (s.e.)':>16} {'mean n':>7} {'DE':>5} {'rho':>5} "
        f"{'unp/pai':>7} {'1/(1-rho)':>9}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r['setting']:<26} {r['delta']:>6.3f} {r['n']:>6} "
            f"{r['power']:>7.3f} ({r['se']:.3f}) {r['target']:>6.2f} "
            f"{r['pilot_power']:>9.3f} ({r['pilot_se']:.3f}) "
            f"{r['pilot_mean_n']:>7.0f} {r['design_effect']:>5.2f} "
            f"{r['correlation']:>5.2f} {r['n_unpaired'] / r['n']:>7.2f} "
            f"{1 / (1 - r['correlation']):>9.2f}"
        )
    for r in rows:
        if r.get("pilot_no_plan"):
            lines.append(
                f"{r['setting']}: {r['pilot_no_plan']} of {r['reps']} pilots of "
                f"{SMALL_PILOT} items had no discordant item and planned nothing; "
                "pilot 300 is over the others"
            )
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--held-back", action="store_true")
    parser.add_argument("--reps", type=int, default=REPS)
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args()
    results = args.results
    results.parent.mkdir(exist_ok=True)
    done = {}
    if results.exists():
        for line in results.read_text().splitlines():
            row = json.loads(line)
            done[row["setting"]] = row
    names = [n for n, s in SETTINGS.items() if s[4] == args.held_back]
    for name in names:
        if name in done:
            continue
        start = time.time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # few clusters in small pilots
            row = run_setting(name, args.reps)
        row["seconds"] = round(time.time() - start, 1)
        with results.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        done[name] = row
        print(f"{name}: {row['seconds']} s", flush=True)
    text = _table([done[n] for n in names if n in done])
    print(text)
    if results == RESULTS and all(n in done for n in names):
        suffix = "_held_back" if args.held_back else ""
        (DOC / f"_sim_planning{suffix}.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()

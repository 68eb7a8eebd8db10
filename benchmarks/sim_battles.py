"""Coverage of the Bradley-Terry intervals and rank sets (``bradley_terry``).

What it measures. For each cell, over simulated arenas: the share of 95%
rating intervals that hold the true rating (averaged over systems), for
five intervals read from the same bootstrap distribution of each arena:
percentile, basic (``2 rating - quantiles``), normal (``rating -+ z se``,
``bradley_terry``'s default), bias-corrected percentile (bc) and BCa (its
acceleration by the jackknife over battles, one fit per (pair, outcome)
cell); the
share of marginal rank sets that hold the true rank (averaged over systems),
the share of arenas whose simultaneous rank sets hold every true rank at
once, and the mean size of the marginal and simultaneous rank sets
(``worst - best + 1``). Monte-Carlo standard errors: of a rate averaged over
systems, the standard deviation of its per-arena value over sqrt(reps); of
the joint rate, ``sqrt(c (1 - c) / reps)``.

Generator. ``k`` systems with true log-strengths evenly spaced over
[-1, 1] (sum zero; neighbours 0.22 apart at k = 10, 0.07 at k = 30, so most
neighbouring ranks cannot be told apart); every pair meets ``m`` times.
Without ties, battles follow Bradley-Terry and are fitted with
``ties="half"`` (no tie occurs); with ties, they follow Davidson's model
with ``nu = 0.5`` (a tie between equal systems with probability 0.2) and
are fitted with ``ties="davidson"``, whose ratings estimate the same
log-strengths. The true ranks are those of the true strengths.

Cells (k, m, ties), fixed before the run: tuning cells (10, 10, no),
(10, 100, yes), (30, 3, yes), (30, 20, no); held back from any choice and
reported apart (``--held-back``): (10, 10, yes) and (30, 20, yes). 199
resamples an arena (``n_resamples=199``), 200 arenas a cell at k = 10 and
100 at k = 30; seed ``1000 * cell + arena``.

Resumable: each arena's numbers are appended to
``benchmarks/results/sim_battles.jsonl`` (``sim_battles_held_back.jsonl``)
and skipped on a rerun. The table goes to ``doc/_sim_battles.txt``
(``doc/_sim_battles_held_back.txt``), included by doc/battles.rst.

    python benchmarks/sim_battles.py [--held-back]

About 4 CPU minutes in all, most of it the jackknife at k = 30.
"""

import json
import os
import sys
import time
import warnings

import numpy as np
from scipy.special import ndtr, ndtri

from sklearn_faithful.battles import bradley_terry
from sklearn_faithful.battles._fit import fit_ratings, pair_counts, wins_losses_ties

HERE = os.path.dirname(os.path.abspath(__file__))
DOC = os.path.join(HERE, os.pardir, "doc")
CELLS = [(10, 10, False), (10, 100, True), (30, 3, True), (30, 20, False)]
HELD_BACK = [(10, 10, True), (30, 20, True)]
NU = 0.5
LEVEL = 0.95
CANDIDATES = ("percentile", "basic", "normal", "bc", "bca")


def reps(k):
    return 200 if k == 10 else 100


def arena(rng, k, m, ties):
    """The battles (a, b, winner) of one arena, and the true strengths."""
    theta = np.linspace(-1, 1, k)
    i, j = np.triu_indices(k, 1)
    a, b = np.repeat(i, m), np.repeat(j, m)
    d = theta[a] - theta[b]
    u, v = np.exp(d / 2), np.exp(-d / 2)
    nu = NU if ties else 0.0
    r = rng.random(len(a)) * (u + v + nu)
    winner = np.where(r < u, "a", np.where(r < u + v, "b", "tie"))
    names = np.array([f"s{x:02d}" for x in range(k)])
    return np.column_stack([names[a], names[b], winner]), theta


def jackknife_acceleration(battles, ties):
    """BCa's acceleration of each rating: the jackknife over battles, one
    fit per (pair, outcome) cell (leaving out any battle of a cell gives the
    same ratings), weighted by the cell's count."""
    names = sorted(set(battles[:, 0]) | set(battles[:, 1]))
    index = {n: x for x, n in enumerate(names)}
    a = np.array([index[n] for n in battles[:, 0]])
    b = np.array([index[n] for n in battles[:, 1]])
    outcome = np.where(battles[:, 2] == "a", 0, np.where(battles[:, 2] == "b", 1, 2))
    k = len(names)
    i, j, pair, kind = pair_counts(k, a, b, outcome, ties)
    counts = np.bincount(pair * 3 + kind, minlength=3 * len(i))
    cells = np.flatnonzero(counts)
    loo = np.tile(counts, (len(cells), 1))
    loo[np.arange(len(cells)), cells] -= 1
    w, lost, t = wins_losses_ties(loo, len(i), ties)
    theta = fit_ratings(k, i, j, w, lost, t, davidson=ties == "davidson", alpha=0.0)[0]
    theta -= theta.mean(axis=1, keepdims=True)
    weight = counts[cells][:, None]
    d = (weight * theta).sum(axis=0) / weight.sum() - theta
    return (weight * d**3).sum(axis=0) / (6 * ((weight * d**2).sum(axis=0)) ** 1.5)


def intervals(ratings, boot, accel):
    """Each candidate's (low, high), from one bootstrap distribution."""
    tail = (1 - LEVEL) / 2
    z = ndtri(1 - tail)
    q_low, q_high = np.quantile(boot, [tail, 1 - tail], axis=0)
    se = boot.std(axis=0, ddof=1)
    z0 = ndtri(np.clip(np.mean(boot < ratings, axis=0), 1e-6, 1 - 1e-6))
    out = {
        "percentile": (q_low, q_high),
        "basic": (2 * ratings - q_high, 2 * ratings - q_low),
        "normal": (ratings - z * se, ratings + z * se),
    }
    for name, acc in (("bc", 0.0), ("bca", accel)):
        lo, hi = (z0 + (z0 + s) / (1 - acc * (z0 + s)) for s in (-z, z))
        out[name] = tuple(
            np.array([np.quantile(boot[:, x], ndtr(p[x])) for x in range(len(p))])
            for p in (lo, hi)
        )
    return out


def one(cell_index, cell, rep):
    k, m, ties = cell
    rng = np.random.default_rng(1000 * cell_index + rep)
    battles, theta = arena(rng, k, m, ties)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        res = bradley_terry(
            battles,
            ties="davidson" if ties else "half",
            n_resamples=199,
            random_state=rng,
        )
    accel = jackknife_acceleration(battles, "davidson" if ties else "half")
    ci = intervals(res.ratings, res.bootstrap_distribution, accel)
    true_rank = k - np.arange(k)  # strengths increase with the index
    rank = res.rank_sets
    sim = res.simultaneous_rank_sets
    held = (rank[:, 0] <= true_rank) & (true_rank <= rank[:, 1])
    return {
        "cell": list(cell),
        "rep": rep,
        **{
            f"rating_{name}": float(np.mean((low <= theta) & (theta <= high)))
            for name, (low, high) in ci.items()
        },
        "width": float(np.mean(ci["percentile"][1] - ci["percentile"][0])),
        "rank": float(held.mean()),
        "joint": bool(np.all((sim[:, 0] <= true_rank) & (true_rank <= sim[:, 1]))),
        "size": float(np.mean(rank[:, 1] - rank[:, 0] + 1)),
        "sim_size": float(np.mean(sim[:, 1] - sim[:, 0] + 1)),
        "unrated": res.n_unrated_resamples,
    }


def load(path):
    done = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                done[(tuple(r["cell"]), r["rep"])] = r
    return done


def _mean_se(rows, key):
    x = np.array([r[key] for r in rows], dtype=float)
    return x.mean(), x.std(ddof=1) / np.sqrt(len(x))


def table(cells, done):
    """The rating coverage of each candidate interval, and the rank sets."""
    head = (
        "  k  battles/pair  ties      arenas  "
        + "  ".join(f"{name:>13s}" for name in CANDIDATES)
        + "    rank cover  all ranks (sim.)  rank set  sim. set"
    )
    lines = [
        "Rating intervals: the share that holds the true rating, by how the "
        "interval is read from the bootstrap distribution.",
        head,
        "-" * len(head),
    ]
    for cell in cells:
        rows = [r for (c, _), r in done.items() if c == tuple(cell)]
        n = len(rows)
        if not n:
            continue
        rating = [_mean_se(rows, f"rating_{name}") for name in CANDIDATES]
        rank = _mean_se(rows, "rank")
        joint = np.mean([r["joint"] for r in rows])
        joint_se = np.sqrt(joint * (1 - joint) / n)
        k, m, ties = cell
        lines.append(
            f"{k:3d}  {m:12d}  {'Davidson' if ties else 'none':8s} {n:7d}  "
            + "  ".join(f"{c:.3f} ({se:.3f})" for c, se in rating)
            + f"  {rank[0]:.3f} ({rank[1]:.3f})  {joint:.3f} ({joint_se:.3f})     "
            f"{np.mean([r['size'] for r in rows]):8.2f}  "
            f"{np.mean([r['sim_size'] for r in rows]):8.2f}"
        )
    return "\n".join(lines) + "\n"


def main(held_back=False):
    cells = HELD_BACK if held_back else CELLS
    suffix = "_held_back" if held_back else ""
    path = os.path.join(HERE, "results", f"sim_battles{suffix}.jsonl")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    done = load(path)
    offset = len(CELLS) if held_back else 0
    start = time.process_time()
    with open(path, "a") as f:
        for c, cell in enumerate(cells):
            for rep in range(reps(cell[0])):
                if (tuple(cell), rep) in done:
                    continue
                r = one(offset + c, cell, rep)
                done[(tuple(cell), rep)] = r
                f.write(json.dumps(r) + "\n")
                f.flush()
    text = table(cells, done)
    with open(os.path.join(DOC, f"_sim_battles{suffix}.txt"), "w") as f:
        f.write(text)
    print(text)
    print(f"CPU time {time.process_time() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(held_back="--held-back" in sys.argv[1:])

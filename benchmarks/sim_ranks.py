"""Coverage and width of ``rank_intervals``' rank sets on simulated evaluation runs.

What it measures. K runs (models) score the same n binary items, in G
clusters (passages) or none. Per setting, with Monte-Carlo standard errors
``sqrt(p (1 - p) / reps)``:

1. ``simul``: the rate at which the 95% simultaneous sets hold every run's
   true rank together (the claim: at least 95%).
2. ``marg``: the rate at which each run's 95% marginal set holds its true
   rank, averaged over the runs (``marg``), and the lowest run's rate
   (``marg min``; the claim: each at least 95%).
3. Mean width (``high - low``, in ranks) of the simultaneous sets, of the
   marginal sets, and of Bonferroni's simultaneous sets (``bonf``): the
   same counting of the runs significantly better and worse, from pairwise
   intervals ``d +- z_{1 - alpha / (2 m)} s``, ``m = K (K - 1) / 2``, with
   ``s`` the same cluster-robust standard error (the claim: step-down max-t
   is narrower), and Bonferroni's coverage; ``bonf t`` the same with
   Student's quantile of G - 1 (unclustered: n - 1) degrees of freedom.

Data. Run k's score of item i is ``1{z_ki < Phi^-1(p_k)}``, so its true
mean is exactly ``p_k``: ``z_ki = sqrt(0.5) w_i + sqrt(0.5) eps_ki`` with
``w_i = sqrt(0.3) c_g + sqrt(0.7) e_i`` (items hard for every run, alike
within a cluster) and ``eps_ki = sqrt(0.2) v_kg + sqrt(0.8) eta_ki`` (a
run's own cluster effect: the pairs' differences are clustered too); all
standard normal. The true rank is ``1 + #{k : p_k > p_j}`` (ties share the
better rank, as in the package).

Settings. ``k10_spread``: K = 10, p from 0.60 to 0.85 evenly; ``k10_close``:
K = 10, p = 0.70 + 0.01 floor(k / 2) (five tied pairs); ``k30_spread``: K =
30, p from 0.50 to 0.90; ``k30_close``: K = 30, p = 0.70 + 0.005 floor(k /
3) (ten tied triples); all n = 1000 items in G = 50 clusters of 20.
``k10_items``: as ``k10_spread`` with n = 500 unclustered items (``groups``
None, the clusters' effects off).

Held back (fixed in this docstring before any replicate ran, reported in
their own block, ``--held-back``): ``held_equal``: K = 10 runs all at p =
0.7 (every set should be [1, 10]; the simultaneous coverage is the family
-wise error), n = 600 in G = 40 clusters of 15; ``held_geom``: K = 20, p
from 0.60 to 0.80, G = 60 clusters of geometric sizes of mean 15;
``held_small``: K = 5, p = 0.60, 0.65, 0.70, 0.75, 0.80, n = 100
unclustered items.

999 resamples per call (the package's default is 9999). 1000 replicates per
setting asked, 500 run (``--reps 500``; it resumes). The sets are the
studentized bootstrap's (bootstrap-t); ``--fixed-se`` tables the runs of the
earlier fixed bootstrap standard error (``sim_ranks_fixed_se*.jsonl``).
Seeded (``SeedSequence([20270039, crc32(setting), rep])``: a
replicate is the same whatever the total) and resumable: chunks of 100
replicates are appended to ``benchmarks/results/sim_ranks.jsonl``
(``sim_ranks_held_back.jsonl``). ``--rst FILE`` writes the docs' table.

Run::

    python benchmarks/sim_ranks.py --rst doc/_sim_ranks.txt
    python benchmarks/sim_ranks.py --held-back --rst doc/_sim_ranks_held_back.txt
"""

import argparse
import json
import os
import time
import zlib

import numpy as np
from scipy import stats

from sklearn_faithful.eval_logs import rank_intervals
from sklearn_faithful.eval_logs._ranks import _pair_se, _rank_resampler

SEED = 20270039
N_RESAMPLES = 999
LEVEL = 0.95
CHUNK = 100
HERE = os.path.dirname(os.path.abspath(__file__))


SETTINGS = {
    "k10_spread": dict(p=np.linspace(0.60, 0.85, 10), n=1000, g=50),
    "k10_close": dict(p=0.70 + 0.01 * (np.arange(10) // 2), n=1000, g=50),
    "k30_spread": dict(p=np.linspace(0.50, 0.90, 30), n=1000, g=50),
    "k30_close": dict(p=0.70 + 0.005 * (np.arange(30) // 3), n=1000, g=50),
    "k10_items": dict(p=np.linspace(0.60, 0.85, 10), n=500, g=None),
}
HELD_BACK = {
    "held_equal": dict(p=np.full(10, 0.7), n=600, g=40),
    "held_geom": dict(p=np.linspace(0.60, 0.80, 20), n=None, g=60, geometric=15),
    "held_small": dict(p=np.array([0.60, 0.65, 0.70, 0.75, 0.80]), n=100, g=None),
}


def make_data(rng, s):
    """(scores (n, K), groups or None)."""
    k = s["p"].shape[0]
    if s["g"] is None:
        n, groups = s["n"], None
        c = np.zeros(n)
        v = np.zeros((n, k))
    else:
        if s.get("geometric"):
            sizes = rng.geometric(1 / s["geometric"], size=s["g"])
        else:
            sizes = np.full(s["g"], s["n"] // s["g"])
        groups = np.repeat(np.arange(s["g"]), sizes)
        n = groups.shape[0]
        c = rng.standard_normal(s["g"])[groups]
        v = rng.standard_normal((s["g"], k))[groups]
    # without clusters c and v are 0: w and eps lose their clusters' share
    share_c, share_v = (0.0, 0.0) if s["g"] is None else (0.3, 0.2)
    w = np.sqrt(share_c) * c + np.sqrt(1 - share_c) * rng.standard_normal(n)
    eps = np.sqrt(share_v) * v + np.sqrt(1 - share_v) * rng.standard_normal((n, k))
    z = np.sqrt(0.5) * w[:, None] + np.sqrt(0.5) * eps
    return (z < stats.norm.ppf(s["p"])[None, :]).astype(np.int8), groups


def _counted(better, k):
    return 1 + better.sum(axis=0), k - better.sum(axis=1)


def run_rep(name, s, rep):
    rng = np.random.default_rng(
        np.random.SeedSequence([SEED, zlib.crc32(name.encode()), rep])
    )
    scores, groups = make_data(rng, s)
    k = scores.shape[1]
    truth = 1 + (s["p"][None, :] > s["p"][:, None]).sum(axis=1)
    runs = {str(j): scores[:, j] for j in range(k)}
    seed = int(rng.integers(2**31))
    res = rank_intervals(
        runs, groups=groups, n_resamples=N_RESAMPLES, random_state=seed
    )
    low = np.array([r["low"] for r in res.ranks])
    high = np.array([r["high"] for r in res.ranks])
    slow = np.array([r["simultaneous_low"] for r in res.ranks])
    shigh = np.array([r["simultaneous_high"] for r in res.ranks])
    # Bonferroni on pairwise intervals d +- q s, s the same cluster-robust
    # standard error, q normal (bonf) or Student's with G - 1 (n - 1)
    # degrees of freedom (bonf_t)
    x = scores.astype(float)
    codes = None if groups is None else (groups, int(groups.max()) + 1)
    (totals,) = _rank_resampler(x, codes).totals()
    se_of = _pair_se(totals, k)
    sd = np.concatenate([se_of(a) for a in range(k)])
    means = x.mean(axis=0)
    d = means[:, None] - means[None, :]
    tail = (1 - LEVEL) / (k * (k - 1))
    bonf = {}
    for key, q in (
        ("bonf", stats.norm.isf(tail)),
        ("bonf_t", stats.t.isf(tail, (x.shape[0] if codes is None else codes[1]) - 1)),
    ):
        blow, bhigh = _counted((d - q * sd > 0) & ~np.eye(k, dtype=bool), k)
        bonf[key] = bool(((blow <= truth) & (truth <= bhigh)).all())
        bonf[f"w_{key}"] = float(np.mean(bhigh - blow))
    return {
        "simul": bool(((slow <= truth) & (truth <= shigh)).all()),
        "marg": ((low <= truth) & (truth <= high)).astype(int).tolist(),
        "w_simul": float(np.mean(shigh - slow)),
        "w_marg": float(np.mean(high - low)),
        **bonf,
    }


def _path(held, tag=""):
    """The results file; ``tag="_fixed_se"`` holds the runs before the
    bootstrap-t (a fixed bootstrap standard error), kept for the record."""
    return os.path.join(
        HERE, "results", f"sim_ranks{tag}{'_held_back' if held else ''}.jsonl"
    )


def load(held, tag=""):
    done = {}
    if os.path.exists(_path(held, tag)):
        with open(_path(held, tag)) as f:
            for line in f:
                row = json.loads(line)
                done[(row["setting"], row["chunk"])] = row
    return done


def run(settings, reps, held):
    done = load(held)
    os.makedirs(os.path.dirname(_path(held)), exist_ok=True)
    for chunk in range(reps // CHUNK):
        for name, s in settings.items():
            if (name, chunk) in done:
                continue
            start = time.perf_counter()
            rows = [
                run_rep(name, s, rep)
                for rep in range(chunk * CHUNK, (chunk + 1) * CHUNK)
            ]
            out = {
                "setting": name,
                "chunk": chunk,
                "reps": len(rows),
                "simul": sum(r["simul"] for r in rows),
                "bonf": sum(r["bonf"] for r in rows),
                "bonf_t": sum(r["bonf_t"] for r in rows),
                "marg": np.sum([r["marg"] for r in rows], axis=0).tolist(),
                "w_simul": sum(r["w_simul"] for r in rows),
                "w_marg": sum(r["w_marg"] for r in rows),
                "w_bonf": sum(r["w_bonf"] for r in rows),
                "w_bonf_t": sum(r["w_bonf_t"] for r in rows),
            }
            with open(_path(held), "a") as f:
                f.write(json.dumps(out) + "\n")
            print(
                f"{name} chunk {chunk}: {time.perf_counter() - start:.1f} s", flush=True
            )


def _se(p, n):
    return 100 * np.sqrt(p * (1 - p) / n)


def _bonf_t(rows, n):
    """The Student-t Bonferroni columns (absent from the fixed-s.e. runs)."""
    if any("bonf_t" not in r for r in rows):
        return ("-", "-")
    cover = sum(r["bonf_t"] for r in rows) / n
    width = sum(r["w_bonf_t"] for r in rows) / n
    return (f"{width:.2f}", f"{100 * cover:.1f} ({_se(cover, n):.1f})")


def table(settings, held, tag=""):
    done = load(held, tag)
    lines = []
    for name in settings:
        rows = [r for (s, _), r in sorted(done.items()) if s == name]
        if not rows:
            continue
        n = sum(r["reps"] for r in rows)
        simul = sum(r["simul"] for r in rows) / n
        bonf = sum(r["bonf"] for r in rows) / n
        marg = np.sum([r["marg"] for r in rows], axis=0) / n
        k = marg.shape[0]
        lines.append(
            (
                name,
                str(k),
                str(n),
                f"{100 * simul:.1f} ({_se(simul, n):.1f})",
                f"{100 * marg.mean():.1f} ({_se(marg.mean(), n * k):.1f})",
                f"{100 * marg.min():.1f} ({_se(marg.min(), n):.1f})",
                f"{sum(r['w_marg'] for r in rows) / n:.2f}",
                f"{sum(r['w_simul'] for r in rows) / n:.2f}",
                f"{sum(r['w_bonf'] for r in rows) / n:.2f}",
                f"{100 * bonf:.1f} ({_se(bonf, n):.1f})",
                *_bonf_t(rows, n),
            )
        )
    return lines


HEAD = (
    "setting",
    "K",
    "reps",
    "simul. cover % (s.e.)",
    "marg. cover %",
    "marg. min %",
    "width marg.",
    "width simul.",
    "width Bonf.",
    "Bonf. cover %",
    "width Bonf. t",
    "Bonf. t cover %",
)


def rst(lines, held):
    widths = [max(len(h), *(len(r[i]) for r in lines)) for i, h in enumerate(HEAD)]
    rule = "  ".join("=" * w for w in widths)

    def fmt(row):
        return "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()

    return "\n".join(
        [
            f".. Written by benchmarks/sim_ranks.py{' --held-back' if held else ''} "
            f"--rst (seed {SEED}, {N_RESAMPLES} resamples, level {LEVEL}).",
            "",
            rule,
            fmt(HEAD),
            rule,
            *(fmt(r) for r in lines),
            rule,
            "",
        ]
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--held-back", action="store_true")
    parser.add_argument("--no-run", action="store_true")
    parser.add_argument("--rst", help="also write the docs' table to this file")
    parser.add_argument(
        "--fixed-se",
        action="store_true",
        help="table the runs before the bootstrap-t (no run)",
    )
    args = parser.parse_args()
    settings = HELD_BACK if args.held_back else SETTINGS
    tag = "_fixed_se" if args.fixed_se else ""
    if not (args.no_run or args.fixed_se):
        run(settings, args.reps, args.held_back)
    text = rst(table(settings, args.held_back, tag), args.held_back)
    print(text)
    if args.rst:
        with open(args.rst, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()

"""Coverage and level of the cluster bootstrap and permutation (``groups=``).

What it measures. Items come in G clusters (questions on one passage, scans
of one patient). Two parts:

1. Coverage of the 95% interval of one system's accuracy and macro F1 (3
   classes, shares 0.5/0.3/0.2), from :func:`bootstrap_confidence_interval`
   with ``groups`` (the cluster bootstrap) and without (the naive item
   bootstrap). Each cluster draws its own probability of a correct
   prediction, with mean 0.8 and intra-cluster correlation ICC = Var(p_c) /
   (0.8 * 0.2): logit-normal (``expit(mu + sigma Z)``, mu and sigma solved by
   Gauss-Hermite quadrature) or Beta(a, b) with a + b = 1 / ICC - 1. A wrong
   prediction is one of the two other classes, at random. The truth is the
   population metric, exact: accuracy 0.8, and macro F1 of the expected
   table ``P(y=j, yhat=k) = pi_j (0.8 if j == k else 0.1)``. Also the mean
   width of the interval. BCa in the cells marked so.
2. Rate of p <= 0.05 (two-sided) of :func:`paired_permutation_test` and
   :func:`paired_bootstrap_test`, accuracy difference, with and without
   ``groups``. System s is right on item i of cluster c with probability
   ``expit(mu + u_c + e_i -+ d_c / 2)`` (A with -, B with +): u_c ~ N(0, 1)
   a cluster difficulty both systems share, e_i ~ N(0, 1) an item
   difficulty both share, d_c ~ N(0, s_d) the cluster's A-B difference,
   mean zero, so that A and B are exchangeable cluster by cluster (H0).
   s_d is solved for the ICC of the per-item difference D_i = [B right] -
   [A right]: ICC_D = Var(E[D | c]) / Var(D). The power cell adds to B's
   logit the shift that makes B's accuracy 0.05 higher.

Designs: equal clusters of m items (G of 25, or 200 of 3), and unequal
sizes, geometric with the same mean (redrawn each data set). The tuning
cells (logit-normal, equal sizes) set the threshold: the smallest G of the
grid from which on every tuning cell has the cluster interval's coverage >=
93% (accuracy and macro F1) and the cluster tests' level <= 6.5%, strictly and
within one Monte-Carlo standard error (a cell fails when it misses the bound
by more than one s.e.). The
held-out cells (unequal sizes, the Beta generator, 200 unequal clusters)
played no part in it and are reported apart.

999 resamples per interval or test (stated in the output). Monte-Carlo
standard errors ``sqrt(p (1 - p) / reps)``. Replicates per cell: 1,000 in the
tuning cells with G >= 10 (s.e. <= 0.8 points at 93%, 0.7 at 5%), 500 in the
G = 5, 200 x 3, ICC = 0, power and held-out cells (s.e. about 1 point).

Run::

    python benchmarks/sim_clusters.py              # about 40 min, shared 2 cores
    python benchmarks/sim_clusters.py --scale 0.1  # a tenth of the replicates

Seeded (``SeedSequence([20261126, crc32(cell), rep])``, so a replicate is the
same whatever the total) and resumable: each finished chunk of 100
replicates of a cell is appended as one JSON line to
``benchmarks/results/sim_clusters.jsonl`` and skipped on rerun. The table is
in doc/holdout.rst ("Clustered items").

Held-back settings (``--held-back``). The documented level of the cluster
permutation test (3.2-5.7% with 10 clusters or more) comes from the level
cells above: 3 classes, accuracy difference, cluster sizes equal or
geometric, item difficulty shared with ``S_E = 1``, ICC_D 0.1-0.3. These
null cells were chosen before any of them was run, each to differ from
those in a named way, and played no part in any number or threshold; they
run the permutation test only (cluster and naive), 1,000 data sets a cell
(s.e. about 0.7 points at 5%):

- Pareto cluster sizes (tail index 1.5, infinite variance, mean about 25,
  at least about 8 items): 20 and 60 clusters at ICC_D 0.3, and 10 clusters
  at ICC_D 0.5, a stronger clustering than any tuned cell.
- 6 giant clusters of 150 items beside 6 or 24 clusters of 5 (12 and 30
  clusters): most of the items, and of the A-B differences, in a few
  clusters.
- Strongly and weakly correlated errors: the item difficulty both systems
  share scaled to ``s_e = 3`` (A and B mostly err on the same items) or
  ``s_e = 0`` (independent given the cluster), 20 equal clusters of 25.
- Another metric and class balance: macro F1 with 5 classes of shares
  0.4/0.25/0.15/0.12/0.08 (20 x 25), and binary F1 with 2% positives
  (40 x 25, about 20 positives a data set).

Cached in ``benchmarks/results/sim_clusters_held_back.jsonl`` (the same
chunks and seeds scheme), printed to
``benchmarks/results/sim_clusters_held_back.txt``::

    python benchmarks/sim_clusters.py --held-back   # about 5 min CPU

The delete-one-cluster jackknife (``--jackknife``, issue 37). The interval
compare_runs prints, ``method="jackknife-bm"`` (the jackknife standard error,
Student's t on Bell and McCaffrey's degrees of freedom,
``sklearn_faithful.utils._clusters``), and the same on G - 1 degrees of
freedom (``jack-t``), on the very data sets of every coverage cell above
(regenerated from their seeds; accuracy only, the metric that is a mean of
item scores), beside the cluster bootstrap's coverage there. Held back,
fixed here before it ran: Pareto cluster sizes (tail 1.5, mean about 25) at
ICC 0.3, G = 5, 10, 20 and 30, and at ICC 0.5, G = 5 and 10 (logit-normal),
where the cluster bootstrap's percentile interval is run too, 1,000 data
sets a cell. Cached in ``benchmarks/results/sim_clusters_jackknife.jsonl``,
printed to ``benchmarks/results/sim_clusters_jackknife.txt``::

    python benchmarks/sim_clusters.py --jackknife   # about 3 min CPU
"""

import argparse
import functools
import json
import os
import time
import warnings
import zlib

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from scipy.optimize import brentq
from scipy.special import expit

from sklearn_faithful.holdout import (
    bootstrap_confidence_interval,
    paired_bootstrap_test,
    paired_permutation_test,
)
from sklearn_faithful.utils._clusters import cluster_moments, jackknife_mean_interval

CACHE = os.path.join(os.path.dirname(__file__), "results", "sim_clusters.jsonl")
BASE_SEED = 20261126
N_RESAMPLES = 999
LEVEL = 0.95
ALPHA = 0.05
CHUNK = 100
ACC = 0.8
PI = np.array([0.5, 0.3, 0.2])  # class shares
COVERAGE_FLOOR, LEVEL_CEILING = 0.93, 0.065
G_GRID = (5, 10, 15, 20, 30, 40, 60)

# Gauss-Hermite nodes and weights for E[f(Z)], Z ~ N(0, 1)
_Z, _W = hermegauss(60)
_W = _W / _W.sum()


@functools.cache
def _logitnormal(icc, mean=ACC):
    """(mu, sigma) of expit(mu + sigma Z) with this mean and ICC."""

    def mu_of(sigma):
        return brentq(lambda mu: _W @ expit(mu + sigma * _Z) - mean, -20, 20)

    def icc_of(sigma):
        p = expit(mu_of(sigma) + sigma * _Z)
        return (_W @ p**2 - mean**2) / (mean * (1 - mean))

    sigma = brentq(lambda s: icc_of(s) - icc, 1e-4, 20)
    return mu_of(sigma), sigma


def _true_f1_macro(acc=ACC):
    table = np.outer(PI, np.full(3, (1 - acc) / 2))
    np.fill_diagonal(table, PI * acc)  # P(y=j, yhat=k)
    tp = np.diag(table)
    return float(np.mean(2 * tp / (table.sum(0) + table.sum(1))))


TRUTH = {"accuracy": ACC, "f1_macro": _true_f1_macro()}


def _sizes(rng, design, n_clusters, size):
    if design == "equal":
        return np.full(n_clusters, size)
    if design == "pareto":  # Pareto tail 1.5 (infinite variance), mean about `size`
        scale = size * (PARETO_TAIL - 1) / PARETO_TAIL
        tail = 1 + rng.pareto(PARETO_TAIL, n_clusters)
        return np.maximum(1, np.round(scale * tail)).astype(int)
    if design == "giant":  # 6 clusters of 6 * size items, the rest of size / 5
        return np.r_[np.full(6, 6 * size), np.full(n_clusters - 6, size // 5)]
    return rng.geometric(1 / size, n_clusters)  # mean `size`, at least 1


def _labels(rng, correct):
    """True labels (shares PI) and predictions right where ``correct``."""
    n = correct.size
    y = rng.choice(3, size=n, p=PI)
    wrong = (y + 1 + rng.integers(0, 2, n)) % 3
    return y, np.where(correct, y, wrong)


# --- part 1: coverage --------------------------------------------------------


def coverage_data(rng, cell):
    sizes = _sizes(rng, cell["design"], cell["G"], cell["m"])
    groups = np.repeat(np.arange(sizes.size), sizes)
    icc = cell["icc"]
    if icc == 0:
        p = np.full(sizes.size, ACC)
    elif cell["gen"] == "beta":
        total = 1 / icc - 1
        p = rng.beta(ACC * total, (1 - ACC) * total, sizes.size)
    else:
        mu, sigma = _logitnormal(icc)
        p = expit(mu + sigma * rng.standard_normal(sizes.size))
    y, pred = _labels(rng, rng.random(groups.size) < p[groups])
    return y, pred, groups


def coverage_rep(rng, cell):
    y, pred, groups = coverage_data(rng, cell)
    seed = int(rng.integers(2**31))
    out = {}
    for metric, short in (("accuracy", "acc"), ("f1_macro", "f1")):
        for name, g in (("cluster", groups), ("naive", None)):
            method = "bca" if cell.get("bca") and g is not None else "percentile"
            res = bootstrap_confidence_interval(
                y,
                pred,
                groups=g,
                metric=metric,
                method=method,
                n_resamples=N_RESAMPLES,
                random_state=seed,
            )
            intervals = {name: res.confidence_interval}
            if method == "bca":  # the percentile interval of the same resamples
                dist = res.bootstrap_distribution
                alpha = (1 - LEVEL) / 2
                intervals = {
                    name: tuple(np.nanquantile(dist, [alpha, 1 - alpha])),
                    name + " bca": res.confidence_interval,
                }
            for key, (low, high) in intervals.items():
                out[f"{short} {key}"] = (
                    float(low <= TRUTH[metric] <= high),
                    float(high - low),
                )
    return out


# --- part 2: level and power -------------------------------------------------

MU, S_U, S_E = 1.6, 1.0, 1.0
PARETO_TAIL = 1.5


@functools.cache
def _grid3():
    """Nodes (u, e, d) and weights of a 3-d Gauss-Hermite rule."""
    z, w = hermegauss(30)
    w = w / w.sum()
    return np.stack(np.meshgrid(z, z, z, indexing="ij")), np.einsum(
        "i,j,k->ijk", w, w, w
    )


def _paired_moments(s_d, shift=0.0, s_e=S_E):
    """(ICC_D, accuracy of A, accuracy of B) by quadrature over u, e, d."""
    (u, e, d), w = _grid3()
    base = MU + S_U * u + s_e * e
    pa = expit(base - s_d * d / 2)
    pb = expit(base + s_d * d / 2 + shift)
    diff = pb - pa
    mean_d = np.sum(w * diff)
    # E[D | c] averages e out: axes (u, e, d) -> (u, d)
    w_c = w.sum(axis=1)
    cond = np.einsum("ijk,ijk->ik", w, diff) / w_c
    between = np.sum(w_c * (cond - mean_d) ** 2)
    total = np.sum(w * (pa + pb - 2 * pa * pb)) - mean_d**2
    return between / total, np.sum(w * pa), np.sum(w * pb)


@functools.cache
def _s_d(icc_d, s_e=S_E):
    if icc_d == 0:
        return 0.0
    return brentq(lambda s: _paired_moments(s, 0.0, s_e)[0] - icc_d, 1e-4, 20)


@functools.cache
def _shift(s_d, gain):
    """The shift of B's logit that makes B's accuracy ``gain`` above A's."""

    def excess(t):
        _, acc_a, acc_b = _paired_moments(s_d, t)
        return acc_b - acc_a - gain

    return brentq(excess, 0, 5)


def paired_data(rng, cell):
    sizes = _sizes(rng, cell["design"], cell["G"], cell["m"])
    groups = np.repeat(np.arange(sizes.size), sizes)
    s_e = cell.get("s_e", S_E)
    s_d = _s_d(cell["icc"], s_e)
    shift = _shift(s_d, cell["gain"]) if cell["gain"] else 0.0
    n = groups.size
    u = rng.standard_normal(sizes.size)[groups]
    d = s_d * rng.standard_normal(sizes.size)[groups]
    base = MU + S_U * u + s_e * rng.standard_normal(n)
    shares = np.asarray(cell.get("shares", PI))
    k = shares.size
    y = rng.choice(k, size=n, p=shares)
    preds = []
    for logit in (base - d / 2, base + d / 2 + shift):
        right = rng.random(n) < expit(logit)
        preds.append(np.where(right, y, (y + rng.integers(1, k, n)) % k))
    return y, *preds, groups


def paired_rep(rng, cell):
    y, a, b, groups = paired_data(rng, cell)
    seed = int(rng.integers(2**31))
    out = {}
    tests = [(paired_permutation_test, "perm"), (paired_bootstrap_test, "boot")]
    if cell["role"] == "held-back":  # the permutation test's level only
        tests = tests[:1]
    kw = dict(metric=cell.get("metric", "accuracy"), n_resamples=N_RESAMPLES)
    for test, short in tests:
        for name, g in (("cluster", groups), ("naive", None)):
            res = test(y, a, b, groups=g, random_state=seed, **kw)
            out[f"{short} {name}"] = (float(res.pvalue <= ALPHA), 0.0)
    return out


# --- the cells ---------------------------------------------------------------


def _cell(
    part, design, G, m, icc, *, gen="logitnormal", reps=1000, role="tuning", **kw
):
    return dict(
        part=part, design=design, G=G, m=m, icc=icc, gen=gen, reps=reps, role=role, **kw
    )


CELLS = (
    # coverage, tuning: logit-normal, equal sizes
    [
        _cell(
            "coverage",
            "equal",
            G,
            25,
            icc,
            bca=G in (10, 20, 40) and icc == 0.3,
            reps=500 if G == 5 else 1000,
        )
        for icc in (0.1, 0.3)
        for G in G_GRID
    ]
    + [_cell("coverage", "equal", 200, 3, icc, reps=500) for icc in (0.1, 0.3)]
    # no clustering: what the cluster bootstrap costs
    + [
        _cell("coverage", "equal", G, m, 0.0, reps=500, role="icc0")
        for G, m in ((5, 25), (20, 25), (200, 3))
    ]
    # level, tuning
    + [
        _cell("level", "equal", G, 25, icc, gain=0.0, reps=500 if G == 5 else 1000)
        for icc in (0.1, 0.3)
        for G in G_GRID
    ]
    + [_cell("level", "equal", 200, 3, 0.3, gain=0.0, reps=500)]
    + [_cell("level", "equal", 20, 25, 0.0, gain=0.0, reps=500, role="icc0")]
    # power at one alternative
    + [_cell("level", "equal", 40, 25, 0.1, gain=0.05, reps=500, role="power")]
    # held out from the threshold
    + [
        _cell("coverage", "geometric", G, 25, icc, reps=500, role="held-out")
        for icc in (0.1, 0.3)
        for G in (10, 20, 40, 80)
    ]
    + [_cell("coverage", "geometric", 200, 3, 0.3, reps=500, role="held-out")]
    + [
        _cell("coverage", "equal", G, 25, 0.3, gen="beta", reps=500, role="held-out")
        for G in (10, 20, 40, 80)
    ]
    + [
        _cell("level", "geometric", G, 25, 0.3, gain=0.0, reps=500, role="held-out")
        for G in (10, 20, 40, 80)
    ]
)


SHARES5 = (0.4, 0.25, 0.15, 0.12, 0.08)


def _held(design, G, m, icc, **kw):
    return _cell("level", design, G, m, icc, gain=0.0, role="held-back", **kw)


HELD_BACK_CELLS = [
    _held("pareto", 20, 25, 0.3),
    _held("pareto", 60, 25, 0.3),
    _held("pareto", 10, 25, 0.5),
    _held("giant", 12, 25, 0.3),
    _held("giant", 30, 25, 0.3),
    _held("equal", 20, 25, 0.3, s_e=3.0),
    _held("equal", 20, 25, 0.3, s_e=0.0),
    _held("equal", 20, 25, 0.3, metric="f1_macro", shares=SHARES5),
    _held("equal", 40, 25, 0.3, metric="f1", shares=(0.98, 0.02)),
]
HELD_BACK_CACHE = os.path.join(
    os.path.dirname(__file__), "results", "sim_clusters_held_back.jsonl"
)
HELD_BACK_TEXT = os.path.join(
    os.path.dirname(__file__), "results", "sim_clusters_held_back.txt"
)


def _key(cell):
    fields = ("part", "design", "G", "m", "icc", "gen", "gain", "bca")
    if cell["role"] == "held-back":
        fields += ("s_e", "metric", "shares")
    return "|".join(f"{f}={cell.get(f)}" for f in fields)


def run_chunk(cell, chunk):
    seed_key = zlib.crc32(_key(cell).encode())
    rep_fn = coverage_rep if cell["part"] == "coverage" else paired_rep
    hits, widths = {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # few clusters, on purpose
        for rep in range(chunk * CHUNK, (chunk + 1) * CHUNK):
            rng = np.random.default_rng(
                np.random.SeedSequence([BASE_SEED, seed_key, rep])
            )
            for name, (hit, width) in rep_fn(rng, cell).items():
                hits[name] = hits.get(name, 0.0) + hit
                widths[name] = widths.get(name, 0.0) + width
    return dict(cell=_key(cell), chunk=chunk, size=CHUNK, hits=hits, widths=widths)


def load(cache=CACHE):
    done = {}
    if os.path.exists(cache):
        with open(cache) as f:
            for line in f:
                rec = json.loads(line)
                done[(rec["cell"], rec["chunk"])] = rec
    return done


def collect(done, cell, reps):
    """(replicates, rate, mean width) of the chunks done; (0, {}, {}) if none."""
    recs = [done[k] for c in range(reps // CHUNK) if (k := (_key(cell), c)) in done]
    n = sum(r["size"] for r in recs)
    if not n:
        return 0, {}, {}
    names = list(recs[0]["hits"])
    rate = {k: sum(r["hits"][k] for r in recs) / n for k in names}
    width = {k: sum(r["widths"][k] for r in recs) / n for k in names}
    return n, rate, width


def _se(p, n):
    return np.sqrt(p * (1 - p) / n)


def _label(cell):
    design = f"{cell['G']} x {cell['m']}"
    if cell["design"] == "geometric":
        design = f"{cell['G']} x geom({cell['m']})"
    return design


def _heading(cell):
    if cell["role"] == "tuning":
        return "tuning: logit-normal, equal sizes"
    if cell["role"] == "icc0":
        return "no clustering (ICC 0)"
    if cell["role"] == "power":
        return "power"
    if cell["gen"] == "beta":
        return "held out: Beta, equal sizes"
    return "held out: logit-normal, unequal sizes"


def report(done, scale):
    out = []

    def reps_of(c):
        return max(CHUNK, int(round(c["reps"] * scale / CHUNK)) * CHUNK)

    out.append(
        f"sim_clusters.py, seed {BASE_SEED}, {N_RESAMPLES} resamples, "
        f"{LEVEL:.0%} intervals, tests at {ALPHA}"
    )
    out.append(
        f"\nCoverage (s.e.) of the {LEVEL:.0%} percentile interval; truth: accuracy "
        f"{ACC}, macro F1 {TRUTH['f1_macro']:.4f}.\nG x m: G clusters of m items; "
        "geom(m): geometric sizes, mean m.\nwidth: mean width of the accuracy "
        "interval, cluster / naive."
    )
    out.append(
        f"{'design':<15}{'ICC':>4}{'reps':>5}{'acc cluster':>15}{'acc naive':>15}"
        f"{'width':>13}{'F1 cluster':>15}{'F1 naive':>15}"
    )
    heading, bca_rows = None, []
    for cell in CELLS:
        if cell["part"] != "coverage":
            continue
        n, rate, width = collect(done, cell, reps_of(cell))
        if not n:
            continue

        def cov(c, n=n, rate=rate):
            return f"{rate[c]:>7.3f} ({_se(rate[c], n):.3f})"

        if _heading(cell) != heading:
            heading = _heading(cell)
            out.append(f"-- {heading}")
        out.append(
            f"{_label(cell):<15}{cell['icc']:>4}{n:>5}{cov('acc cluster')}"
            f"{cov('acc naive')}{width['acc cluster']:>7.3f}/{width['acc naive']:.3f}"
            f"{cov('f1 cluster')}{cov('f1 naive')}"
        )
        if "acc cluster bca" in rate:
            bca_rows.append(
                f"{_label(cell):<15}{cell['icc']:>4}{n:>5}"
                + "".join(
                    cov(c)
                    for c in ("acc cluster", "acc cluster bca", "f1 cluster")
                    + ("f1 cluster bca",)
                )
            )
    out.append("\nCoverage (s.e.) of the cluster bootstrap: percentile and BCa")
    out.append(
        f"{'design':<15}{'ICC':>4}{'reps':>5}{'acc pct':>15}{'acc BCa':>15}"
        f"{'F1 pct':>15}{'F1 BCa':>15}"
    )
    out.extend(bca_rows)
    out.append(
        "\nRate of p <= 0.05 (s.e.), accuracy difference B - A: level (gain 0) "
        "or power (B 0.05 better)"
    )
    cols = ["perm cluster", "perm naive", "boot cluster", "boot naive"]
    out.append(
        f"{'design':<15}{'ICC_D':>6}{'gain':>5}{'reps':>5}"
        + "".join(f"{c:>15}" for c in cols)
    )
    heading = None
    for cell in CELLS:
        if cell["part"] != "level":
            continue
        n, rate, _ = collect(done, cell, reps_of(cell))
        if not n:
            continue
        if _heading(cell) != heading:
            heading = _heading(cell)
            out.append(f"-- {heading}")
        row = "".join(f"{rate[c]:>7.3f} ({_se(rate[c], n):.3f})" for c in cols)
        out.append(f"{_label(cell):<15}{cell['icc']:>6}{cell['gain']:>5}{n:>5}{row}")
    # the threshold: the smallest G of the grid from which on every tuning
    # cell holds; strictly, and with a cell failing only when it misses the
    # bound by more than one Monte-Carlo standard error
    for slack, rule in ((0, "strictly"), (1, "within one s.e.")):
        ok = {G: True for G in G_GRID}
        for cell in CELLS:
            if cell["role"] != "tuning" or cell["G"] not in ok:
                continue
            n, rate, _ = collect(done, cell, reps_of(cell))
            if not n:
                ok[cell["G"]] = False  # not measured yet
                continue
            if cell["part"] == "coverage":
                worst = min(rate["acc cluster"], rate["f1 cluster"])
                good = worst + slack * _se(worst, n) >= COVERAGE_FLOOR
            else:
                worst = max(rate["perm cluster"], rate["boot cluster"])
                good = worst - slack * _se(worst, n) <= LEVEL_CEILING
            ok[cell["G"]] &= bool(good)
        threshold = next(
            (G for G in G_GRID if all(ok[g] for g in G_GRID if g >= G)), None
        )
        out.append(
            f"{'' if slack else chr(10)}Threshold, {rule} (tuning cells; coverage "
            f">= {COVERAGE_FLOOR:.0%} and level <= {LEVEL_CEILING:.1%} for every G "
            f"of {G_GRID} from it on): G = {threshold}"
        )
    return "\n".join(out)


def _held_label(cell):
    design = {"pareto": "Pareto", "giant": "6 giant + small"}.get(
        cell["design"], "equal"
    )
    what = f"{cell.get('metric', 'accuracy')}"
    if "shares" in cell:
        what += f", {len(cell['shares'])} classes, smallest {min(cell['shares'])}"
    if "s_e" in cell:
        what += f", s_e {cell['s_e']}"
    return f"{cell['G']:>3} clusters, {design}", what


def held_back_report(done):
    out = [
        f"sim_clusters.py --held-back, seed {BASE_SEED}, {N_RESAMPLES} permutations; "
        f"rate of p <= {ALPHA} (s.e.) under the null",
        f"{'clusters':<30}{'ICC_D':>6}{'reps':>5}{'perm cluster':>15}"
        f"{'perm naive':>15}  metric, labels, errors",
    ]
    for cell in HELD_BACK_CELLS:
        n, rate, _ = collect(done, cell, cell["reps"])
        if not n:
            continue
        design, what = _held_label(cell)
        row = "".join(
            f"{rate[c]:>7.3f} ({_se(rate[c], n):.3f})"
            for c in ("perm cluster", "perm naive")
        )
        out.append(f"{design:<30}{cell['icc']:>6}{n:>5}{row}  {what}")
    return "\n".join(out)


# --- the delete-one-cluster jackknife (--jackknife) ---------------------------

JACK_CACHE = os.path.join(
    os.path.dirname(__file__), "results", "sim_clusters_jackknife.jsonl"
)
JACK_TEXT = os.path.join(
    os.path.dirname(__file__), "results", "sim_clusters_jackknife.txt"
)
JACK_HELD_BACK = [
    _cell("coverage", "pareto", G, 25, icc, reps=1000, role="jack-held-back")
    for icc, grid in ((0.3, (5, 10, 20, 30)), (0.5, (5, 10)))
    for G in grid
]


def jackknife_rep(rng, cell):
    """Coverage of the accuracy's jackknife intervals on a coverage cell's data
    set (and, held back, of the cluster bootstrap's percentile interval)."""
    y, pred, groups = coverage_data(rng, cell)
    codes = np.unique(groups, return_inverse=True)[1]
    moments = cluster_moments((y == pred).astype(float), (codes, codes.max() + 1))
    out = {}
    for name, df in (("jack-bm", "bm"), ("jack-t", "g-1")):
        _, (low, high), _, _ = jackknife_mean_interval(*moments, LEVEL, df=df)
        out[f"acc {name}"] = (float(low <= ACC <= high), float(high - low))
    if cell["role"] == "jack-held-back":
        seed = int(rng.integers(2**31))
        low, high = bootstrap_confidence_interval(
            y, pred, groups=groups, n_resamples=N_RESAMPLES, random_state=seed
        ).confidence_interval
        out["acc cluster"] = (float(low <= ACC <= high), float(high - low))
    return out


def jackknife_cells():
    return [c for c in CELLS if c["part"] == "coverage"] + JACK_HELD_BACK


def jackknife_report(done, boot):
    out = [
        f"sim_clusters.py --jackknife, seed {BASE_SEED}: coverage (s.e.) of the "
        f"{LEVEL:.0%} interval of accuracy {ACC}; the cluster bootstrap's "
        f"percentile interval ({N_RESAMPLES} resamples) beside the jackknife's",
        f"{'cell':<44}{'reps':>5}{'jack-bm':>15}{'jack-t':>15}{'cluster boot':>15}",
    ]
    for cell in jackknife_cells():
        n, rate, _ = collect(done, cell, cell["reps"])
        if not n:
            continue
        if "acc cluster" in rate:
            nb, boot_rate = n, rate["acc cluster"]
        else:
            nb, other, _ = collect(boot, cell, cell["reps"])
            boot_rate = other.get("acc cluster", np.nan)
        label = f"{cell['role']}: {cell['design']} G{cell['G']} m{cell['m']} "
        label += f"ICC {cell['icc']} {cell['gen']}"
        cols = "".join(
            f"{rate[k]:>8.3f} ({_se(rate[k], n):.3f})"
            for k in ("acc jack-bm", "acc jack-t")
        )
        cols += f"{boot_rate:>8.3f} ({_se(boot_rate, max(nb, 1)):.3f})"
        out.append(f"{label:<44}{n:>5}{cols}")
    return "\n".join(out)


def run_jackknife():
    done = load(JACK_CACHE)
    for cell in jackknife_cells():
        for chunk in range(cell["reps"] // CHUNK):
            if (_key(cell), chunk) in done:
                continue
            seed_key = zlib.crc32(_key(cell).encode())
            hits, widths = {}, {}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                for rep in range(chunk * CHUNK, (chunk + 1) * CHUNK):
                    rng = np.random.default_rng(
                        np.random.SeedSequence([BASE_SEED, seed_key, rep])
                    )
                    for name, (hit, width) in jackknife_rep(rng, cell).items():
                        hits[name] = hits.get(name, 0.0) + hit
                        widths[name] = widths.get(name, 0.0) + width
            rec = dict(
                cell=_key(cell), chunk=chunk, size=CHUNK, hits=hits, widths=widths
            )
            done[(rec["cell"], chunk)] = rec
            with open(JACK_CACHE, "a") as f:
                f.write(json.dumps(rec) + "\n")
    text = jackknife_report(done, load(CACHE))
    with open(JACK_TEXT, "w") as f:
        f.write(text + "\n")
    print(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiply every cell's replicates (chunks of 100)",
    )
    parser.add_argument(
        "--held-back",
        action="store_true",
        help="run the held-back level cells (see the docstring) instead",
    )
    parser.add_argument(
        "--jackknife",
        action="store_true",
        help="the jackknife intervals of accuracy (see the docstring) instead",
    )
    args = parser.parse_args()
    if args.jackknife:
        run_jackknife()
        return
    cache, cells = CACHE, CELLS
    if args.held_back:
        cache, cells = HELD_BACK_CACHE, HELD_BACK_CELLS
    done = load(cache)
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    start = time.perf_counter()
    for cell in cells:
        reps = max(CHUNK, int(round(cell["reps"] * args.scale / CHUNK)) * CHUNK)
        for chunk in range(reps // CHUNK):
            if (_key(cell), chunk) in done:
                continue
            t = time.perf_counter()
            rec = run_chunk(cell, chunk)
            done[(rec["cell"], chunk)] = rec
            with open(cache, "a") as f:
                f.write(json.dumps(rec) + "\n")
            print(
                f"{_key(cell)} chunk {chunk}: {time.perf_counter() - t:.1f} s",
                flush=True,
            )
    if args.held_back:
        text = held_back_report(done)
        with open(HELD_BACK_TEXT, "w") as f:
            f.write(text + "\n")
    else:
        text = report(done, args.scale)
    print(text)
    print(f"\nwall {time.perf_counter() - start:.0f} s this run")


if __name__ == "__main__":
    main()

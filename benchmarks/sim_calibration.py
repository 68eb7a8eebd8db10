"""Coverage of the calibration-error intervals, and level and power of the
tests of calibration (``sklearn_faithful.calibration``).

What it measures.

* Coverage of 95% bootstrap intervals of the calibration error
  (top-label for 10 classes), and of the misses how many fall above the
  truth (the interval too high) or below it, for the estimators
  ``method="binned"`` L1 and L2 and ``method="debiased"`` (L2), with 15
  uniform bins (and 15 quantile bins, binned L1 and debiased L2, in three
  binary cells), and the intervals:

  - ``pct``: the percentile interval and ``basic``: the basic interval, as
    :func:`~sklearn_faithful.calibration.calibration_error_interval`
    computes them (quantiles of the p-th power of the error, reflected about
    the estimate for ``basic``, clipped to [0, 1], then the root);
  - ``bca``: the BCa interval on the same bootstrap distribution (bias
    correction ``z0`` from the share of resamples below the estimate, half
    the ties counted; acceleration from the jackknife of the powered error,
    which for a binned error is exact in closed form: leaving an item out
    changes only its bin's sums);
  - ``nbc``: the bias-corrected normal interval on the powered scale,
    ``2 theta - mean(theta*) +- 1.96 sd(theta*)``, clipped, then the root;
  - ``piv`` (the debiased estimators ``dL2`` and ``qdL2`` only): the basic
    interval reflected about the data's plug-in squared error ``P`` (binned
    L2 with the same bins) instead of the debiased estimate ``d``:
    ``[d + P - q_hi, d + P - q_lo]`` on the squared scale, clipped, then the
    root. The bootstrap distribution of the debiased estimator is centred
    near ``P``, not near ``d`` (a resample's debiasing removes the
    resample's noise, not the data's), so ``dL2 basic`` misses from below
    in every miscalibrated cell. This is the package's default interval
    (``method="debiased"``, ``interval="basic"``).

  The studentized bootstrap is not simulated: it needs a bootstrap inside
  each resample (499 x 499 error evaluations a data set), beyond the budget.

  One bootstrap distribution a data set serves every estimator and interval:
  the resamples are drawn by the package's own engine
  (``holdout._fast_metrics.run_resamples`` with the calibration room's
  ``_weights`` and ``_chunks``: the package's resampling, item by item).
  The package now gives the multiplicities to the items in bin order (the
  same law, another stream); ``--check`` draws that stream, one estimator
  at a time, and confirms on a few data sets that the ``pct`` and ``basic``
  bounds computed here equal the package's to 1e-12 (its ``basic`` of a
  debiased error, and its default interval, being ``piv`` here).

* Level (calibrated generators) and power (miscalibrated ones) at 5% of
  :func:`~sklearn_faithful.calibration.calibration_test`: consistency
  resampling with the binned L1 and the debiased L2 errors (15 uniform
  bins) as statistics, both from the same consistency draws (``--check``
  confirms equal p-values on the package's stream), and Spiegelhalter's z
  (binary, and top-label for 10 classes). The same data sets as the
  coverage.

The simulation uses n_resamples=499 (bootstrap) and 199 (consistency
resampling), where the package's default is 9,999: the Monte-Carlo error of
a bound from 499 resamples adds a little noise to each interval, which can
only lower the coverage measured here a little.

Generators (a known calibration function ``g``: ``P(outcome | f) = g(f)``).

* Binary: reported probability ``f ~ Beta(a, b)``, outcome
  ``~ Bernoulli(g(f))``, with ``g`` the identity (calibrated), ``f^gamma``
  (gamma > 1: over-predicts the positive class), or a temperature
  distortion ``g(f) = sigmoid(logit(f) / T)`` (T > 1: the model is
  over-confident, the truth less extreme; T < 1: under-confident).
* 10 classes, softmax: logits ``z ~ N(0, s^2 I)``, true probabilities
  ``q = softmax(z)``, reported ``p = softmax(tau z)`` (tau = 1 calibrated,
  tau > 1 over-confident, tau < 1 under-confident); the label is drawn from
  ``q``. 10 classes, Dirichlet: ``q ~ Dirichlet(alpha 1)``, reported
  ``p = softmax(tau log q)``.

The truth. The target of a binned estimator is the binned population error
with the same bins, not the unbinned calibration error: with ``m_j =
E[g(f) - f | f in bin j]`` and ``P_j = P(f in bin j)``, the L1 target is
``sum_j P_j |m_j|`` and the L2 target ``sqrt(sum_j P_j m_j^2)`` (the debiased
estimator's too); a calibrated model's is 0. Binary: by adaptive quadrature
(``scipy.integrate.quad``) on each bin, with the population quantiles
(``beta.ppf``) as the edges of the quantile bins. 10 classes (top-label:
``f = max_k p_k``, ``g = E[q_top | f]``): a Monte-Carlo sample of 10^7
logits, with no label noise (``m_j`` is the bin's mean of ``q_top - f``),
its two halves' difference kept as its error. The unbinned L1 error
``E|g(f) - f|`` is kept beside for the reader. All in
``benchmarks/results/sim_calibration_truth.json``.

Cells (tuning: every choice of default and threshold is read off these).

* ``bin-cal-U``: Beta(1, 1), calibrated; ``bin-cal-skew``: Beta(2, 5),
  calibrated; ``bin-pow``: Beta(1, 1), gamma = 1.1 (mild); ``bin-over``:
  Beta(1, 1), T = 1.5; ``bin-under``: Beta(2, 5), T = 0.8.
* ``k10-cal``: softmax, s = 2, tau = 1; ``k10-over``: tau = 1.5;
  ``k10-under``: tau = 0.8.
* n = 100, 300, 1,000, 3,000, 10,000; 100,000 for ``bin-cal-U`` and
  ``bin-over`` only.
* Quantile bins in ``bin-cal-U``, ``bin-cal-skew`` and ``bin-pow``.

Replicates a cell: 400 up to n = 1,000, 200 at 3,000, 100 at 10,000, 50 at
100,000 (Monte-Carlo s.e. of a 95% coverage: 1.1, 1.5, 2.2, 3.1 points;
printed with every row: ``sqrt(c (1 - c) / reps)``).

Held-back settings (``--held-back``). Fixed here before they were run,
each differing from the tuned cells in named ways, and not used to choose
anything; a claim fails in a cell when its coverage plus two s.e. is below
93%:

- ``hb-bin-cal-U``: Beta(0.5, 0.5) (U-shaped, mass near 0 and 1, as a
  trained binary classifier's), calibrated;
- ``hb-bin-over-U``: Beta(0.5, 0.5), T = 1.2 (a milder over-confidence, on
  a distribution not tuned);
- ``hb-bin-wiggle``: Beta(3, 1.5), ``g(f) = f + 0.04 sin(2 pi f)`` (a
  non-monotone miscalibration, not tuned);
- ``hb-k10-dir-cal``: 10 classes, Dirichlet alpha = 0.4, calibrated
  (``tau = 1``);
- ``hb-k10-dir-over``: Dirichlet alpha = 0.4, tau = 1.3;
- n = 150, 500, 2,000, 5,000 (sizes between the tuned ones); replicates
  400, 400, 200, 200.

History of ``piv``. It was found after the first 100 replicates of the
tuning cells, and after the held-back cells above were fixed, and first
measured on replicates 0-99 of 20 cells. It is now a column of every cell at
the full replicate count: ``--extend`` draws each cached replicate's data
set and resamples again (the same seeds), confirms that its estimates and
its ``pct`` and ``basic`` bounds equal the cached ones to 1e-12, and adds
the ``piv`` bounds, a JSON line a chunk, to
``benchmarks/results/sim_calibration_piv.jsonl``
(``sim_calibration_held_back_piv.jsonl``); a fresh run computes ``piv``
itself.

Run::

    python benchmarks/sim_calibration.py --check      # equal to the package
    python benchmarks/sim_calibration.py              # tuning cells; resumes
    python benchmarks/sim_calibration.py --held-back  # the held-back cells
    python benchmarks/sim_calibration.py --extend     # piv of the cached runs
    python benchmarks/sim_calibration.py --extend --held-back
    python benchmarks/sim_calibration.py --report     # tables from the cache
    python benchmarks/sim_calibration.py --rst        # doc/_sim_calibration*.txt

Seeded: replicate ``r`` of a cell draws from
``SeedSequence([20260801, crc32(generator), n, r])``, spawned into the data, the
bootstrap and the consistency resamples, so a replicate is the same
whatever the total. Resumable: each finished chunk of 50 replicates of a
cell is one JSON line of ``benchmarks/results/sim_calibration.jsonl``
(``sim_calibration_held_back.jsonl``), skipped on a rerun; chunks run in
stages (every cell to 100 replicates, then 200, then 400; the 100,000-item
cells last).
"""

import argparse
import functools
import json
import math
import os
import sys
import time
import warnings
import zlib

import numpy as np
from scipy import integrate, special, stats

from sklearn_faithful.calibration import calibration_error_interval, calibration_test
from sklearn_faithful.calibration._inference import _chunks, _spiegelhalter, _weights
from sklearn_faithful.holdout._fast_metrics import run_resamples
from sklearn_faithful.utils._calibration import bin_codes, bin_edges, binned_error

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
DOC = os.path.join(os.path.dirname(HERE), "doc")
TRUTH_FILE = os.path.join(RESULTS, "sim_calibration_truth.json")
BASE_SEED = 20260801
N_BOOT = 499
N_NULL = 199
LEVEL = 0.95
TEST_ALPHA = 0.05
CLAIM = 0.93
N_BINS = 15
CHUNK = 50
STAGES = (2, 4, 8)  # chunks a cell has after each stage, capped by its reps
N_TRUTH = 10_000_000
N_CLASSES = 10

# estimators: (label, method, norm, strategy)
ESTIMATORS = (
    ("L1", "binned", "l1", "uniform"),
    ("L2", "binned", "l2", "uniform"),
    ("dL2", "debiased", "l2", "uniform"),
    ("qL1", "binned", "l1", "quantile"),
    ("qdL2", "debiased", "l2", "quantile"),
)
INTERVALS = ("pct", "basic", "bca", "nbc")
TESTS = ("cons-L1", "cons-dL2", "spiegel")

GENERATORS = {
    "bin-cal-U": {"kind": "binary", "a": 1.0, "b": 1.0, "g": "identity"},
    "bin-cal-skew": {"kind": "binary", "a": 2.0, "b": 5.0, "g": "identity"},
    "bin-pow": {"kind": "binary", "a": 1.0, "b": 1.0, "g": "power", "par": 1.1},
    "bin-over": {"kind": "binary", "a": 1.0, "b": 1.0, "g": "temp", "par": 1.5},
    "bin-under": {"kind": "binary", "a": 2.0, "b": 5.0, "g": "temp", "par": 0.8},
    "k10-cal": {"kind": "softmax", "s": 2.0, "tau": 1.0},
    "k10-over": {"kind": "softmax", "s": 2.0, "tau": 1.5},
    "k10-under": {"kind": "softmax", "s": 2.0, "tau": 0.8},
    # held back
    "hb-bin-cal-U": {"kind": "binary", "a": 0.5, "b": 0.5, "g": "identity"},
    "hb-bin-over-U": {"kind": "binary", "a": 0.5, "b": 0.5, "g": "temp", "par": 1.2},
    "hb-bin-wiggle": {"kind": "binary", "a": 3.0, "b": 1.5, "g": "wiggle", "par": 0.04},
    "hb-k10-dir-cal": {"kind": "dirichlet", "alpha": 0.4, "tau": 1.0},
    "hb-k10-dir-over": {"kind": "dirichlet", "alpha": 0.4, "tau": 1.3},
}
QUANTILE_GENS = ("bin-cal-U", "bin-cal-skew", "bin-pow")
TUNING_N = (100, 300, 1000, 3000, 10000)
BIG_N_GENS = ("bin-cal-U", "bin-over")
HELD_N = (150, 500, 2000, 5000)


def reps_of(n, held=False):
    if held:
        return 400 if n <= 1000 else 200
    if n <= 1000:
        return 400
    if n <= 3000:
        return 200
    if n <= 10000:
        return 100
    return 50


def cells(held):
    out = []
    if held:
        for gen in (g for g in GENERATORS if g.startswith("hb-")):
            out += [{"gen": gen, "n": n, "reps": reps_of(n, True)} for n in HELD_N]
        return out
    for gen in (g for g in GENERATORS if not g.startswith("hb-")):
        sizes = TUNING_N + ((100000,) if gen in BIG_N_GENS else ())
        out += [{"gen": gen, "n": n, "reps": reps_of(n)} for n in sizes]
    return out


def cell_key(cell):
    return f"{cell['gen']}|n={cell['n']}"


# --- generators ----------------------------------------------------------------


def calibration_function(spec, f):
    """``g(f) = P(outcome = 1 | reported f)`` of a binary generator."""
    if spec["g"] == "identity":
        return f
    if spec["g"] == "power":
        return f ** spec["par"]
    if spec["g"] == "temp":
        return special.expit(special.logit(f) / spec["par"])
    return f + spec["par"] * np.sin(2 * np.pi * f)


def _softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def multiclass_draw(rng, spec, n):
    """(true probabilities q, reported probabilities p) of n items."""
    if spec["kind"] == "softmax":
        z = spec["s"] * rng.standard_normal((n, N_CLASSES))
        return _softmax(z), _softmax(spec["tau"] * z)
    q = rng.dirichlet(np.full(N_CLASSES, spec["alpha"]), size=n)
    q = np.maximum(q, 1e-300)
    q /= q.sum(axis=1, keepdims=True)
    return q, _softmax(spec["tau"] * np.log(q))


def draw(rng, spec, n):
    """(y, y_proba, conf, out): labels and probabilities as the package reads
    them, and the binary problem (top-label for 10 classes)."""
    if spec["kind"] == "binary":
        f = rng.beta(spec["a"], spec["b"], size=n)
        y = (rng.random(n) < calibration_function(spec, f)).astype(np.int64)
        return y, f, f, y.astype(np.float64)
    q, p = multiclass_draw(rng, spec, n)
    y = (q.cumsum(axis=1) < rng.random(n)[:, None]).sum(axis=1)
    y = np.minimum(y, N_CLASSES - 1)
    top = np.argmax(p, axis=1)
    conf = p[np.arange(n), top]
    return y, p, conf, (y == top).astype(np.float64)


# --- the truth -------------------------------------------------------------------


def _binned_targets(prob, mean_gap):
    """L1 and L2 targets from the bins' probabilities and mean gaps."""
    return {
        "l1": float(np.sum(prob * np.abs(mean_gap))),
        "l2": float(np.sqrt(np.sum(prob * mean_gap**2))),
    }


def binary_truth(spec):
    a, b = spec["a"], spec["b"]
    dist = stats.beta(a, b)

    def gap(x):
        return (calibration_function(spec, x) - x) * dist.pdf(x)

    out = {}
    edge_sets = {
        "uniform": np.linspace(0.0, 1.0, N_BINS + 1),
        "quantile": dist.ppf(np.linspace(0.0, 1.0, N_BINS + 1)),
    }
    for strategy, edges in edge_sets.items():
        prob = np.diff(dist.cdf(edges))
        mass = np.array(
            [
                integrate.quad(gap, lo, hi, limit=200, epsabs=1e-13)[0]
                for lo, hi in zip(edges[:-1], edges[1:], strict=True)
            ]
        )
        mean_gap = np.where(prob > 0, mass / np.maximum(prob, 1e-300), 0.0)
        out[strategy] = _binned_targets(prob, mean_gap)
    out["unbinned_l1"] = float(
        integrate.quad(lambda x: abs(gap(x)), 0, 1, limit=400, epsabs=1e-13)[0]
    )
    return out


def multiclass_truth(spec, seed):
    """Top-label targets from 10^7 items in two halves; (targets, error)."""
    edges = np.linspace(0.0, 1.0, N_BINS + 1)
    rng = np.random.default_rng(np.random.SeedSequence([BASE_SEED, seed]))
    halves = []
    for _ in range(2):
        count = np.zeros(N_BINS)
        gsum = np.zeros(N_BINS)
        abs_gap = 0.0
        for _ in range(N_TRUTH // 2 // 250_000):
            q, p = multiclass_draw(rng, spec, 250_000)
            top = np.argmax(p, axis=1)
            conf = p[np.arange(p.shape[0]), top]
            g = q[np.arange(p.shape[0]), top] - conf
            codes = bin_codes(conf, edges)
            count += np.bincount(codes, minlength=N_BINS)
            gsum += np.bincount(codes, weights=g, minlength=N_BINS)
            abs_gap += np.abs(g).sum()
        total = count.sum()
        t = _binned_targets(count / total, np.where(count > 0, gsum / count, 0.0))
        t["mean_abs_gap"] = abs_gap / total  # >= the unbinned error
        halves.append(t)
    both = {k: (halves[0][k] + halves[1][k]) / 2 for k in ("l1", "l2")}
    err = {k: abs(halves[0][k] - halves[1][k]) / 2 for k in ("l1", "l2")}
    return {
        "uniform": both,
        "mc_error": err,
        "mean_abs_gap": (halves[0]["mean_abs_gap"] + halves[1]["mean_abs_gap"]) / 2,
    }


def truths(gens):
    table = {}
    if os.path.exists(TRUTH_FILE):
        with open(TRUTH_FILE) as fh:
            table = json.load(fh)
    changed = False
    for gen in gens:
        if gen in table:
            continue
        spec = GENERATORS[gen]
        t0 = time.process_time()
        if spec["kind"] == "binary":
            table[gen] = binary_truth(spec)
        else:
            table[gen] = multiclass_truth(spec, zlib.crc32(gen.encode()))
        changed = True
        print(f"truth {gen}: {time.process_time() - t0:.1f} s CPU", flush=True)
    if changed:
        os.makedirs(RESULTS, exist_ok=True)
        with open(TRUTH_FILE, "w") as fh:
            json.dump(table, fh, indent=1, sort_keys=True)
    return table


def target(truth, label):
    """The population value an estimator estimates."""
    strategy = "quantile" if label.startswith("q") else "uniform"
    norm = "l1" if label.endswith("L1") else "l2"
    return truth[strategy][norm]


# --- one data set ----------------------------------------------------------------


class Binned:
    """One binning of the binary problem: the powered errors of every
    estimator on it, for the data, any weights, or drawn outcomes."""

    def __init__(self, conf, out, strategy, labels):
        self.conf, self.out, self.n = conf, out, conf.shape[0]
        self.bins = bin_codes(conf, bin_edges(conf, N_BINS, strategy))
        self.labels = labels  # [(label, method, norm)]
        self._flat = {}

    def flat(self, c):
        if c not in self._flat:
            self._flat[c] = (
                np.arange(c)[:, None] * N_BINS + self.bins[None, :]
            ).ravel()
        return self._flat[c]

    def powered(self, count, conf_sum, out_sum):
        return np.column_stack(
            [
                binned_error(count, conf_sum, out_sum, method, norm)
                for _, method, norm in self.labels
            ]
        )

    def sums(self, w=None, drawn=None):
        """Bin sums, a row per resample: weights (c, n) or outcomes (c, n)."""
        c = (w if drawn is None else drawn).shape[0]
        size = c * N_BINS
        flat = self.flat(c)
        if drawn is not None:
            count = np.tile(np.bincount(self.bins, minlength=N_BINS), c)
            conf_sum = np.tile(np.bincount(self.bins, self.conf, N_BINS), c)
            out_sum = np.bincount(flat, drawn.ravel(), size)
        else:
            wr = w.ravel()
            count = np.bincount(flat, wr, size)
            conf_sum = np.bincount(flat, (np.tile(self.conf, c) * wr), size)
            out_sum = np.bincount(flat, (np.tile(self.out, c) * wr), size)
        shape = (c, N_BINS)
        return (
            count.reshape(shape).astype(np.float64),
            conf_sum.reshape(shape),
            out_sum.reshape(shape),
        )

    def estimate(self):
        return self.powered(*self.sums(w=np.ones((1, self.n))))[0]

    def jackknife(self):
        """Leave-one-out powered errors (n, estimators), in closed form."""
        count, conf_sum, out_sum = (s[0] for s in self.sums(w=np.ones((1, self.n))))
        onehot = np.zeros((self.n, N_BINS))
        onehot[np.arange(self.n), self.bins] = 1.0
        c = count[None, :] - onehot
        cs = conf_sum[None, :] - onehot * self.conf[:, None]
        os_ = out_sum[None, :] - onehot * self.out[:, None]
        return self.powered(c, cs, os_)


def _boot_block(rng, size, *, binnings, n):
    """Powered errors of every estimator of every binning, on the package's
    resamples (its ``_chunks`` and ``_weights``: the same stream)."""
    rows = []
    for c in _chunks(size, n):
        w = _weights(rng, c, n, None)
        rows.append(np.hstack([b.powered(*b.sums(w=w)) for b in binnings]))
    return np.vstack(rows)


def _null_block(rng, size, *, binning, n):
    """Powered errors on consistency resamples (the package's stream)."""
    rows = []
    for c in _chunks(size, n):
        u = rng.random((c, n))
        drawn = (u < binning.conf[None, :]).astype(np.float64)
        rows.append(binning.powered(*binning.sums(drawn=drawn)))
    return np.vstack(rows)


def _root(x, norm):
    return x if norm == "l1" else np.sqrt(np.maximum(x, 0.0))


def reflected(dist, theta, centre, norm):
    """The quantiles of the powered bootstrap distribution reflected about
    ``centre``, the value the resamples estimate: ``(theta + centre - q_hi,
    theta + centre - q_lo)``, clipped to [0, 1], then the root. ``centre`` is
    ``theta`` for ``basic`` (``2 theta - q``) and the data's plug-in squared
    error for ``piv`` (the debiased estimator's resamples are centred near
    the plug-in, not near the debiased value)."""
    alpha = (1 - LEVEL) / 2
    q_lo, q_hi = np.quantile(dist, [alpha, 1 - alpha])
    lohi = np.clip((theta + centre - q_hi, theta + centre - q_lo), 0.0, 1.0)
    return tuple(float(v) for v in _root(lohi, norm))


def bounds(dist, theta, jack, norm, plug=None):
    """{interval: (low, high)} on the error's scale from the powered
    bootstrap distribution, estimate and jackknife; with ``plug`` (the
    plug-in squared error of a debiased estimate) ``piv`` too."""
    alpha = (1 - LEVEL) / 2
    q_lo, q_hi = np.quantile(dist, [alpha, 1 - alpha])
    out = {"pct": (q_lo, q_hi), "basic": (2 * theta - q_hi, 2 * theta - q_lo)}
    # BCa
    below = np.count_nonzero(dist < theta) + 0.5 * np.count_nonzero(dist == theta)
    z0 = special.ndtri(min(max(below / dist.size, 1e-6), 1 - 1e-6))
    d = jack.mean() - jack
    denom = 6 * np.sum(d**2) ** 1.5
    acc = np.sum(d**3) / denom if denom > 0 else 0.0
    za = special.ndtri(np.array([alpha, 1 - alpha]))
    levels = special.ndtr(z0 + (z0 + za) / (1 - acc * (z0 + za)))
    out["bca"] = tuple(np.quantile(dist, levels))
    # bias-corrected normal
    centre, sd = 2 * theta - dist.mean(), dist.std(ddof=1)
    z = special.ndtri(1 - alpha)
    out["nbc"] = (centre - z * sd, centre + z * sd)
    out = {
        k: tuple(float(v) for v in _root(np.clip(lohi, 0.0, 1.0), norm))
        for k, lohi in out.items()
    }
    if plug is not None:
        out["piv"] = reflected(dist, theta, plug, norm)
    return out


# the debiased estimator's column and its plug-in's, in the columns of
# ``bootstrapped``: (debiased label, plug-in label)
PLUG = (("dL2", "L2"), ("qdL2", "qL2"))


def bootstrapped(cell, rep, quantile):
    """The data set of replicate ``rep``, its estimators' powered estimates
    and bootstrap distribution: (y, proba, conf, out, binnings, labels,
    norms, plug-ins, theta, dist, seeds). The plug-in L2 of the quantile
    bins (``qL2``) is computed for ``qdL2 piv`` only, after the estimators
    the run reports."""
    spec = GENERATORS[cell["gen"]]
    n = cell["n"]
    ss = np.random.SeedSequence([BASE_SEED, zlib.crc32(cell["gen"].encode()), n, rep])
    data_ss, boot_ss, null_ss = ss.spawn(3)
    y, proba, conf, out = draw(np.random.default_rng(data_ss), spec, n)
    uni = Binned(conf, out, "uniform", [e[:1] + e[1:3] for e in ESTIMATORS[:3]])
    binnings = [uni]
    labels = [e[0] for e in ESTIMATORS[:3]]
    if quantile:
        quant = [e[:1] + e[1:3] for e in ESTIMATORS[3:]] + [("qL2", "binned", "l2")]
        binnings.append(Binned(conf, out, "quantile", quant))
        labels += [e[0] for e in quant]
    norms = [lab[-2:].lower() for lab in labels]
    theta = np.concatenate([b.estimate() for b in binnings])
    dist = run_resamples(
        functools.partial(_boot_block, binnings=binnings, n=n),
        np.random.default_rng(boot_ss),
        N_BOOT,
    )
    plugs = {d: theta[labels.index(p)] for d, p in PLUG if d in labels}
    return y, proba, conf, out, binnings, labels, norms, plugs, theta, dist, null_ss


def one_replicate(cell, rep, quantile):
    y, proba, conf, out, binnings, labels, norms, plugs, theta, dist, null_ss = (
        bootstrapped(cell, rep, quantile)
    )
    n = cell["n"]
    uni = binnings[0]
    jack = np.hstack([b.jackknife() for b in binnings])
    rec = {"est": {}, "ci": {}, "p": {}}
    for j, (label, norm) in enumerate(zip(labels, norms, strict=True)):
        if label == "qL2":
            continue
        rec["est"][label] = float(_root(theta[j], norm))
        cis = bounds(dist[:, j], theta[j], jack[:, j], norm, plugs.get(label))
        for name, lohi in cis.items():
            rec["ci"][f"{label} {name}"] = lohi
    # tests: consistency with binned L1 and debiased L2, one set of draws
    null = run_resamples(
        functools.partial(_null_block, binning=uni, n=n),
        np.random.default_rng(null_ss),
        N_NULL,
    )
    for j, name in ((0, "cons-L1"), (2, "cons-dL2")):
        reach = np.count_nonzero(
            null[:, j] >= theta[j] - 1e-12 * max(abs(theta[j]), 1e-300)
        )
        rec["p"][name] = (reach + 1) / (N_NULL + 1)
    rec["p"]["spiegel"] = _spiegelhalter(conf, out)[1]
    return rec


# --- check against the package -------------------------------------------------


def _ordered(binning, rows):
    """Rows given to the items in bin order (a stable sort), as the package
    assigns its multiplicities and consistency draws to one binned problem."""
    order = np.argsort(binning.bins, kind="stable")
    items = np.empty_like(rows)
    items[:, order] = rows
    return items


def _package_boot(rng, size, *, binning, n):
    rows = []
    for c in _chunks(size, n):
        w = _ordered(binning, _weights(rng, c, n, None))
        rows.append(binning.powered(*binning.sums(w=w)))
    return np.vstack(rows)


def _package_null(rng, size, *, binning, n):
    order = np.argsort(binning.bins, kind="stable")
    rows = []
    for c in _chunks(size, n):
        u = rng.random((c, n))
        drawn = _ordered(binning, (u < binning.conf[order][None, :]).astype(float))
        rows.append(binning.powered(*binning.sums(drawn=drawn)))
    return np.vstack(rows)


def check():
    """The pct and basic bounds and the consistency p-values, computed as
    here from the package's own stream (one estimator at a time, the
    multiplicities given to the items in bin order), equal the package's on
    a few data sets; the package's default interval (``method="debiased"``,
    ``interval="basic"``) and its basic interval of any debiased error are
    ``piv``, the quantiles reflected about the plug-in squared error."""
    worst = 0.0
    defaults = moved = warned = 0
    for gen, n, rep in (
        ("bin-pow", 300, 0),
        ("bin-cal-skew", 1000, 1),
        ("k10-over", 300, 2),
        ("k10-cal", 3000, 3),
        ("hb-bin-cal-U", 150, 4),
    ):
        spec = GENERATORS[gen]
        ss = np.random.SeedSequence([BASE_SEED, zlib.crc32(gen.encode()), n, rep])
        data_ss, boot_ss, null_ss = ss.spawn(3)
        y, proba, conf, out = draw(np.random.default_rng(data_ss), spec, n)
        for label, method, norm, strategy in ESTIMATORS:
            if strategy == "quantile" and gen not in QUANTILE_GENS:
                continue
            debiased = method == "debiased"
            plug_label = [("plug", "binned", "l2")] if debiased else []
            b = Binned(conf, out, strategy, [(label, method, norm)] + plug_label)
            theta = b.estimate()
            dist = run_resamples(
                functools.partial(_package_boot, binning=b, n=n),
                np.random.default_rng(boot_ss),
                N_BOOT,
            )[:, 0]
            plug = theta[1] if debiased else None
            mine = bounds(dist, theta[0], b.jackknife()[:, 0], norm, plug)
            # the package's basic interval of the debiased error is ``piv``
            asked = [("pct", {"interval": "percentile"})]
            asked.append(("piv" if debiased else "basic", {"interval": "basic"}))
            if label == "dL2":  # the defaults: method="debiased", interval="basic"
                asked.append(("piv", {}))
                moved += mine["piv"] != mine["basic"]
            for name, params in asked:
                if params:
                    params = dict(params, method=method, norm=norm, strategy=strategy)
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    res = calibration_error_interval(
                        y,
                        proba,
                        n_bins=N_BINS,
                        n_resamples=N_BOOT,
                        random_state=np.random.default_rng(boot_ss),
                        **params,
                    )
                if not params:
                    defaults += 1
                    warned += bool(caught)
                diff = max(
                    abs(res.statistic - float(_root(theta[0], norm))),
                    abs(res.confidence_interval.low - mine[name][0]),
                    abs(res.confidence_interval.high - mine[name][1]),
                )
                worst = max(worst, diff)
                if diff > 1e-12:
                    raise RuntimeError(f"{gen} n={n} {label} {name}: {res} vs {mine}")
        uni = Binned(conf, out, "uniform", [e[:1] + e[1:3] for e in ESTIMATORS[:3]])
        null = run_resamples(
            functools.partial(_package_null, binning=uni, n=n),
            np.random.default_rng(null_ss),
            N_NULL,
        )
        theta = uni.estimate()
        for j, name, method in ((0, "cons-L1", "binned"), (2, "cons-dL2", "debiased")):
            reach = np.count_nonzero(
                null[:, j] >= theta[j] - 1e-12 * max(abs(theta[j]), 1e-300)
            )
            res = calibration_test(
                y,
                proba,
                method=method,
                n_bins=N_BINS,
                n_resamples=N_NULL,
                random_state=np.random.default_rng(null_ss),
            )
            if abs(res.pvalue - (reach + 1) / (N_NULL + 1)) > 1e-12:
                raise RuntimeError(f"{gen} {name}: {res.pvalue} vs {reach}")
        res = calibration_test(y, proba, test="spiegelhalter")
        if abs(res.pvalue - _spiegelhalter(conf, out)[1]) > 1e-12:
            raise RuntimeError(f"{gen} spiegelhalter: {res.pvalue}")
    print(f"check: bounds and p-values equal the package's (worst {worst:.1e})")
    print(
        f"check: the default interval is dL2 piv on {defaults} data sets "
        f"({moved} where piv differs from dL2 basic; {warned} warned)"
    )


# --- the run -------------------------------------------------------------------


def cache_file(held):
    name = "sim_calibration_held_back.jsonl" if held else "sim_calibration.jsonl"
    return os.path.join(RESULTS, name)


def piv_file(held):
    return cache_file(held).replace(".jsonl", "_piv.jsonl")


def _read(path):
    done = {}
    if os.path.exists(path):
        with open(path) as fh:
            for line in fh:
                rec = json.loads(line)
                done[(rec["cell"], rec["chunk"])] = rec
    return done


def load(held):
    """The cached chunks, each replicate's intervals joined by its ``piv``
    ones from the extension (``--extend``) where the run had none; the
    extension's CPU is kept apart (``cpu_piv``)."""
    done = _read(cache_file(held))
    for key, ext in _read(piv_file(held)).items():
        if key in done:
            for rep, piv in zip(done[key]["reps"], ext["reps"], strict=True):
                rep["ci"].update(piv)
            done[key]["cpu_piv"] = ext["cpu"]
    return done


def schedule(held, minutes, done):
    """The chunks to compute, (cell, chunk), in the run's order: every cell
    to 100 replicates, then 200, then 400, the 100,000-item cells last;
    those ``done(key, chunk)`` says are done skipped (asked when the chunk's
    turn comes), until ``minutes`` of CPU."""
    start = time.process_time()
    todo = sorted(cells(held), key=lambda c: c["n"] > 10000)
    for stage in STAGES:
        for cell in todo:
            key = cell_key(cell)
            for chunk in range(min(stage, cell["reps"] // CHUNK)):
                if done(key, chunk):
                    continue
                if (time.process_time() - start) / 60 > minutes:
                    print("stopped (--minutes); rerun to resume", flush=True)
                    return
                yield cell, chunk


def run(held, minutes):
    truths(sorted({c["gen"] for c in cells(held)}))
    done = load(held)
    path = cache_file(held)
    for cell, chunk in schedule(held, minutes, lambda *key: key in done):
        key = cell_key(cell)
        t0 = time.process_time()
        quantile = cell["gen"] in QUANTILE_GENS
        reps = [
            one_replicate(cell, r, quantile)
            for r in range(chunk * CHUNK, (chunk + 1) * CHUNK)
        ]
        rec = {"cell": key, "chunk": chunk, "cpu": time.process_time() - t0}
        rec["reps"] = reps
        with open(path, "a") as fh:
            fh.write(json.dumps(rec) + "\n")
        done[(key, chunk)] = rec
        print(f"{key} chunk {chunk}: {rec['cpu']:.1f} s CPU", flush=True)


def piv_replicate(cell, rep, quantile, cached):
    """The ``piv`` intervals of a cached replicate, from its data set and
    resamples drawn again; the ``basic`` and ``pct`` intervals and the
    estimates drawn again must equal the cached ones (the same data set,
    the same resamples)."""
    _, _, _, _, _, labels, norms, plugs, theta, dist, _ = bootstrapped(
        cell, rep, quantile
    )
    alpha = (1 - LEVEL) / 2
    for j, (label, norm) in enumerate(zip(labels, norms, strict=True)):
        if label == "qL2":
            continue
        q = tuple(
            _root(np.clip(np.quantile(dist[:, j], [alpha, 1 - alpha]), 0, 1), norm)
        )
        again = {
            "est": float(_root(theta[j], norm)),
            "basic": reflected(dist[:, j], theta[j], theta[j], norm),
            "pct": q,
        }
        was = {
            "est": cached["est"][label],
            "basic": cached["ci"][f"{label} basic"],
            "pct": cached["ci"][f"{label} pct"],
        }
        if (
            np.max(
                np.abs(np.hstack(list(again.values())) - np.hstack(list(was.values())))
            )
            > 1e-12
        ):
            raise RuntimeError(f"{cell_key(cell)} rep {rep} {label}: {again} vs {was}")
    return {
        f"{d} piv": reflected(dist[:, labels.index(d)], theta[labels.index(d)], p, "l2")
        for d, p in plugs.items()
    }


def extend(held, minutes):
    """Add the ``piv`` intervals to the cached chunks that have none, one
    JSON line a chunk in ``piv_file``; resumable, in the run's order. The
    file is read again before each chunk, so that two workers may share it."""
    cached = load(held)
    path = piv_file(held)

    def done(key, chunk):
        rec = cached.get((key, chunk))
        return (
            rec is None
            or "dL2 piv" in rec["reps"][0]["ci"]
            or (key, chunk) in _read(path)
        )

    for cell, chunk in schedule(held, minutes, done):
        key = cell_key(cell)
        t0 = time.process_time()
        quantile = cell["gen"] in QUANTILE_GENS
        first = chunk * CHUNK
        reps = [
            piv_replicate(cell, first + r, quantile, rec)
            for r, rec in enumerate(cached[(key, chunk)]["reps"])
        ]
        ext = {"cell": key, "chunk": chunk, "cpu": time.process_time() - t0}
        ext["reps"] = reps
        with open(path, "a") as fh:
            fh.write(json.dumps(ext) + "\n")
        print(f"{key} chunk {chunk} piv: {ext['cpu']:.1f} s CPU", flush=True)


# --- the report ------------------------------------------------------------------


def gather(held):
    """{cell key: list of replicate records}, chunks in order."""
    out = {}
    for (key, _chunk), rec in sorted(load(held).items()):
        out.setdefault(key, []).extend(rec["reps"])
    return out


def covered(lohi, truth):
    return lohi[0] <= truth + 1e-12 and lohi[1] >= truth - 1e-12


def coverage_rows(held):
    """Rows (gen, n, reps, truth L1, truth L2, mean estimates, coverage of
    every candidate, misses above the truth)."""
    data = gather(held)
    table = truths(sorted({c["gen"] for c in cells(held)}))
    rows = []
    for cell in cells(held):
        reps = data.get(cell_key(cell))
        if not reps:
            continue
        truth = table[cell["gen"]]
        row = {"gen": cell["gen"], "n": cell["n"], "reps": len(reps)}
        row["t1"], row["t2"] = truth["uniform"]["l1"], truth["uniform"]["l2"]
        row["est"] = {
            lab: float(np.mean([r["est"][lab] for r in reps])) for lab in reps[0]["est"]
        }
        row["cov"], row["high"], row["width"] = {}, {}, {}
        # a candidate every replicate has (piv: once --extend has reached it)
        for name in [c for c in reps[0]["ci"] if all(c in r["ci"] for r in reps)]:
            t = target(truth, name.split()[0])
            hits = [covered(r["ci"][name], t) for r in reps]
            row["cov"][name] = float(np.mean(hits))
            row["high"][name] = float(np.mean([r["ci"][name][0] > t for r in reps]))
            row["width"][name] = float(
                np.mean([hi - lo for lo, hi in (r["ci"][name] for r in reps)])
            )
        row["rej"] = {
            k: float(np.mean([r["p"][k] <= TEST_ALPHA for r in reps])) for k in TESTS
        }
        rows.append(row)
    return rows


def se(p, reps):
    return math.sqrt(max(p * (1 - p), 0.0) / reps)


SHOWN = (
    "L1 pct",
    "L1 basic",
    "L1 bca",
    "L2 basic",
    "dL2 pct",
    "dL2 basic",
    "dL2 bca",
    "dL2 nbc",
    "dL2 piv",
)


def coverage_table(rows, shown=SHOWN):
    head = f"{'generator':<16}{'n':>7}{'reps':>5}{'L1*':>7}{'L2*':>7}"
    width = [max(10, len(c) + 1) for c in shown]
    head += "".join(f"{c:>{w}}" for c, w in zip(shown, width, strict=True))
    head += f"{'s.e.':>6}"
    lines = [head, "-" * len(head)]
    for r in rows:
        line = f"{r['gen']:<16}{r['n']:>7}{r['reps']:>5}{r['t1']:>7.4f}{r['t2']:>7.4f}"
        for c, w in zip(shown, width, strict=True):
            v = r["cov"].get(c)
            line += f"{'':>{w}}" if v is None else f"{100 * v:>{w}.1f}"
        line += f"{100 * se(0.95, r['reps']):>6.1f}"
        lines.append(line)
    return "\n".join(lines)


def bias_table(rows):
    labs = ("L1", "L2", "dL2", "qL1", "qdL2")
    head = f"{'generator':<16}{'n':>7}{'L1*':>8}{'L2*':>8}" + "".join(
        f"{lab:>8}" for lab in labs
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        line = f"{r['gen']:<16}{r['n']:>7}{r['t1']:>8.4f}{r['t2']:>8.4f}"
        for lab in labs:
            v = r["est"].get(lab)
            line += f"{'':>8}" if v is None else f"{v:>8.4f}"
        lines.append(line)
    return "\n".join(lines)


def test_table(rows):
    head = f"{'generator':<16}{'n':>7}{'reps':>5}" + "".join(f"{t:>10}" for t in TESTS)
    head += f"{'s.e.(5%)':>9}"
    lines = [head, "-" * len(head)]
    for r in rows:
        if r["n"] > 10000:
            continue
        line = f"{r['gen']:<16}{r['n']:>7}{r['reps']:>5}"
        line += "".join(f"{100 * r['rej'][t]:>10.1f}" for t in TESTS)
        line += f"{100 * se(0.05, r['reps']):>9.1f}"
        lines.append(line)
    return "\n".join(lines)


def misses_table(rows, shown=("L1 basic", "dL2 basic", "dL2 piv", "L2 basic")):
    """Coverage and the share of intervals wholly above the truth."""
    head = f"{'generator':<16}{'n':>7}" + "".join(
        f"{c + ' cov/high':>20}" for c in shown
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        line = f"{r['gen']:<16}{r['n']:>7}"
        for c in shown:
            if c not in r["cov"]:
                line += f"{'':>20}"
                continue
            line += f"{100 * r['cov'][c]:>13.1f} /{100 * r['high'][c]:>5.1f}"
        lines.append(line)
    return "\n".join(lines)


def pivot_table(rows):
    """The debiased interval reflected about the estimate (``dL2 basic``)
    and about the plug-in (``dL2 piv``, the default), beside the binned L2
    basic interval: coverage (%), mean widths on the error's scale, and the
    ratio of the widths (piv / L2 basic)."""
    cov = ("dL2 basic", "dL2 piv", "L2 basic")
    head = f"{'generator':<16}{'n':>7}{'reps':>5}{'L2*':>8}"
    head += "".join(f"{c:>11}" for c in cov)
    head += f"{'width piv':>11}{'width L2':>10}{'ratio':>7}{'s.e.':>6}"
    lines = [head, "-" * len(head)]
    for r in rows:
        if any(c not in r["cov"] for c in cov):
            continue
        w = (r["width"]["dL2 piv"], r["width"]["L2 basic"])
        line = f"{r['gen']:<16}{r['n']:>7}{r['reps']:>5}{r['t2']:>8.4f}"
        line += "".join(f"{100 * r['cov'][c]:>11.1f}" for c in cov)
        line += f"{w[0]:>11.4f}{w[1]:>10.4f}{w[0] / w[1]:>7.2f}"
        line += f"{100 * se(0.95, r['reps']):>6.1f}"
        lines.append(line)
    return "\n".join(lines)


def claim_lines(rows, shown=("dL2 piv", "L2 basic", "qdL2 piv")):
    """Each candidate's coverage range over the cells, its lowest cell with
    the s.e. of the coverage measured (``sqrt(c (1 - c) / reps)``), and the
    cells where the claim fails (coverage plus two s.e. below 93%)."""
    lines = []
    for name in shown:
        sub = [r for r in rows if name in r["cov"]]
        if not sub:
            continue
        low = min(sub, key=lambda r: r["cov"][name])
        fail = [
            f"{r['gen']} n={r['n']} {100 * r['cov'][name]:.1f}%"
            for r in sub
            if r["cov"][name] + 2 * se(r["cov"][name], r["reps"]) < CLAIM
        ]
        c = low["cov"][name]
        lines.append(
            f"{name}: {100 * c:.1f}-{100 * max(r['cov'][name] for r in sub):.1f}% "
            f"over {len(sub)} cells; lowest {low['gen']} n={low['n']} "
            f"{100 * c:.1f}% (s.e. {100 * se(c, low['reps']):.1f}, "
            f"{low['reps']} reps); "
            f"below 93% by more than 2 s.e.: {', '.join(fail) or 'none'}"
        )
    return "\n".join(lines)


def quantile_table(rows):
    shown = ("qL1 pct", "qL1 basic", "qL1 bca", "qdL2 pct", "qdL2 basic", "qdL2 piv")
    sub = [r for r in rows if "qL1 pct" in r["cov"]]
    return coverage_table(sub, shown) if sub else ""


def conditional_table(held):
    """Coverage of some candidates pooled over the cells by the size of the
    estimate (the replicates in each range)."""
    data = gather(held)
    table = truths(sorted({c["gen"] for c in cells(held)}))
    lines = []
    for name in ("L1 basic", "dL2 basic", "dL2 piv", "L2 basic"):
        lab = name.split()[0]
        pool = []
        for cell in cells(held):
            for r in data.get(cell_key(cell), []):
                t = target(table[cell["gen"]], lab)
                if name in r["ci"]:
                    pool.append((r["est"][lab], covered(r["ci"][name], t)))
        if not pool:
            continue
        est = np.array([p[0] for p in pool])
        hit = np.array([p[1] for p in pool])
        parts = []
        for lo, hi in ((0, 0.01), (0.01, 0.02), (0.02, 0.05), (0.05, 1.01)):
            m = (est >= lo) & (est < hi)
            if m.sum():
                cov = 100 * hit[m].mean()
                parts.append(f"[{lo:.2f},{hi:.2f}): {cov:5.1f} ({m.sum()})")
        lines.append(f"{name:<10} " + "  ".join(parts))
    return "\n".join(lines)


def cpu_used(held):
    """CPU minutes of the run and of the ``piv`` extension."""
    recs = load(held).values()
    return (
        sum(rec["cpu"] for rec in recs) / 60,
        sum(rec.get("cpu_piv", 0.0) for rec in recs) / 60,
    )


def report():
    pivot = []
    for held in (False, True):
        rows = coverage_rows(held)
        if not rows:
            continue
        title = "HELD-BACK cells" if held else "TUNING cells"
        print(f"\n=== {title}: coverage of 95% intervals (%) ===")
        print("L1* / L2*: the binned population targets (15 uniform bins)")
        print(coverage_table(rows))
        print("\ncoverage / share wholly above the truth (%)")
        print(misses_table(rows))
        q = quantile_table(rows)
        if q:
            print("\nquantile bins (targets with population quantiles)")
            print(q)
        print("\nmean estimate vs targets")
        print(bias_table(rows))
        print("\ncoverage by the size of the estimate (pooled; count)")
        print(conditional_table(held))
        print(f"\n=== {title}: rejection rate at 5% (%) ===")
        print(test_table(rows))
        run_cpu, piv_cpu = cpu_used(held)
        print(f"\nCPU: {run_cpu:.1f} min (the run), {piv_cpu:.1f} min (--extend)")
        pivot.append(f"{title}\n{pivot_table(rows)}\n{claim_lines(rows)}")
    print("\n=== the default: the debiased interval about the plug-in (dL2 piv) ===")
    print("\n\n".join(pivot))


def write_rst():
    pivot = []
    for held, suffix in ((False, ""), (True, "_held_back")):
        rows = coverage_rows(held)
        if not rows:
            continue
        title = "Held back" if held else "Tuning cells"
        pivot.append(f"{title}:\n\n{pivot_table(rows)}\n\n{claim_lines(rows)}")
        for what, text in (
            ("coverage", coverage_table(rows)),
            ("quantile", quantile_table(rows)),
            ("bias", bias_table(rows)),
            ("test", test_table(rows)),
        ):
            _write_literal(f"_sim_calibration_{what}{suffix}.txt", text)
    _write_literal("_sim_calibration_pivot.txt", "\n\n".join(pivot))


def _write_literal(name, text):
    """``text`` as an rst literal block, in ``doc/name``."""
    if not text:
        return
    path = os.path.join(DOC, name)
    body = "\n".join(("    " + ln).rstrip() for ln in text.splitlines())
    with open(path, "w") as fh:
        fh.write("::\n\n" + body + "\n")
    print(f"wrote {path}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--held-back", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--rst", action="store_true")
    parser.add_argument("--extend", action="store_true")
    parser.add_argument("--minutes", type=float, default=30.0)
    args = parser.parse_args(argv)
    if args.check:
        check()
    elif args.report:
        report()
    elif args.rst:
        write_rst()
    elif args.extend:
        extend(args.held_back, args.minutes)
    else:
        run(args.held_back, args.minutes)
    return 0


if __name__ == "__main__":
    sys.exit(main())

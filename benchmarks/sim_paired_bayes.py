"""Which paired rule should ``paired_bayes_test`` use? A simulation of candidates.

What it measures. Two classifiers A and B are compared on the six splits of a
block-regularized 3 x 2 CV (``BlockRegularized3x2CV``) from their per-split
confusion counts. Every candidate rule turns those counts into ``P(H1: B's
F1 > A's F1)``; the decision is ``P(H1) >= 0.95``. Printed per setting, with
Monte-Carlo standard errors sqrt(p (1 - p) / reps):

- exact nulls (E[F1_B] = E[F1_A] exactly, by exchangeability): the rate of
  the false claim "B better" (target <= 6% in every setting);
- power, B given a less noisy view calibrated to an expected F1 gain of about
  0.05 (the calibrated gain is printed): the rate of "B better";
- dominance, B = A's own predictions with some of A's errors fixed (McNemar
  exact p < 0.001 in every repetition): the minimum and quantiles of P(H1);
- identical models: P(H1), which should be exactly 0.5.

Data. Latent z ~ N(0, I_5), y = 1[z . w + 0.5 e > t] (w = 1_5 / sqrt(5),
e ~ N(0, 1), t for 50% or 10% positives). A model sees the noisy view
x = z + sigma u (u ~ N(0, I_5) independent per view). Learners:
LogisticRegression(solver="newton-cholesky"; the lbfgs optimum, 5x faster),
DecisionTreeClassifier(max_depth=4), 5-NN (KNeighborsClassifier(5) in numpy).
Nulls: (a) "views": the same learner on two exchangeable views (sigma_A =
sigma_B = 1, independent noise); (b) "seeds": the same randomized tree
(max_features=2) on the same view with two random_states. Power: sigma_A = 1
and sigma_B < 1 solved so that the expected F1 gain of the learner trained on
n/2 and scored on 5,000 fresh points is 0.05 (common random numbers, 30
training sets per grid point sigma_B = 0, 0.2, .., 1, linear interpolation,
then checked on 60 fresh ones; the checked gain is printed).

Rules (see ``RULES``; "counts" rules use only per-split TP, FP, FN, TN of A
and of B, "cells" rules need the item-level joint cells (y, pred_A, pred_B)):
paper19 / paper15 (``bayes_test``, correlation "wang2019" / "wang2015"),
T-half with inflations K = 3, K averaged over the paper's rho rectangle and
K = 7 (bound), T-pooled, the Nadeau-Bengio / Benavoli corrected t on all six
differences, and a joint Dirichlet over the 8 cells with effective counts.

Correlated views ("cviews" nulls, "cpower" power; ``--family corr``): as two
variants of one pipeline, the views share most of their noise,
x = z + sigma (sqrt(r) u0 + sqrt(1 - r) u) with u0 common to A and B, r = 0.8;
nulls sigma_A = sigma_B = 1, power sigma_B calibrated as above (grid step 0.1,
40 training sets, a secant step on 60, checked on 60). Dominance and identity
are also run on the "cviews" settings. Results in sim_paired_bayes_corr.json.

Hybrid "JDT" rules (need the cells; ``rule_jdt``): test-noise variance from
the delta method on each split's 8 cells, training variance from the
half-differences. ``--extra`` reruns the cached independent-view reps (same
seeds and random stream) to add only these rules, stored in
sim_paired_bayes_jdt.json after checking that the old rules reproduce.

Seeds: np.random.SeedSequence([BASE_SEED, crc32(setting), rep]) per rep, so a
rep does not depend on chunking or on which settings run.

Run (n_jobs = 1; resumable: finished chunks are cached in
benchmarks/results/sim_paired_bayes.json and skipped on rerun):

    python benchmarks/sim_paired_bayes.py              # 600 reps per setting
    python benchmarks/sim_paired_bayes.py --reps 400   # fewer (reuses cache)
    python benchmarks/sim_paired_bayes.py --quick      # 100 reps, n <= 600
    python benchmarks/sim_paired_bayes.py --no-run     # print from the cache
    python benchmarks/sim_paired_bayes.py --family corr --reps 200
    python benchmarks/sim_paired_bayes.py --extra --reps 200  # JDT on old settings
"""

import argparse
import json
import os
import time
import zlib

import numpy as np
from scipy import integrate, stats
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from sklearn_faithful.comparison import bayes_test
from sklearn_faithful.model_selection import BlockRegularized3x2CV

BASE_SEED = 20250612
CONFIG_VERSION = 1  # bump when a generator, learner or rule changes
CHUNK = 100
M = 3  # repetitions of the 3 x 2 CV
THRESHOLD = 0.95
P_DIM = 5
LABEL_NOISE = 0.5
SIGMA_A = 1.0
TARGET_GAIN = 0.05
CORR_R = 0.8  # "cviews"/"cpower": share of the view noise common to A and B
_RES = os.path.join(os.path.dirname(__file__), "results")
CACHE = os.path.join(_RES, "sim_paired_bayes.json")  # independent-view settings
CACHE_CORR = os.path.join(_RES, "sim_paired_bayes_corr.json")  # correlated views
CACHE_X = os.path.join(_RES, "sim_paired_bayes_jdt.json")  # JDT* on old settings

# --------------------------------------------------------------------------
# data and learners


def _threshold(prevalence):
    return stats.norm.isf(prevalence) * np.sqrt(1 + LABEL_NOISE**2)


def make_data(rng, n, prevalence):
    z = rng.standard_normal((n, P_DIM))
    score = z.sum(axis=1) / np.sqrt(P_DIM) + LABEL_NOISE * rng.standard_normal(n)
    return z, (score > _threshold(prevalence)).astype(int)


def view(rng, z, sigma):
    return z + sigma * rng.standard_normal(z.shape)


def corr_views(rng, z, sigma_a, sigma_b, r=CORR_R):
    """x = z + sigma (sqrt(r) u0 + sqrt(1 - r) u), u0 shared by A and B."""
    u0 = rng.standard_normal(z.shape)
    ua, ub = rng.standard_normal(z.shape), rng.standard_normal(z.shape)
    xa = z + sigma_a * (np.sqrt(r) * u0 + np.sqrt(1 - r) * ua)
    xb = z + sigma_b * (np.sqrt(r) * u0 + np.sqrt(1 - r) * ub)
    return xa, xb


def make_learner(name, random_state=0):
    if name == "logreg":
        return LogisticRegression(solver="newton-cholesky")
    if name == "tree":
        return DecisionTreeClassifier(max_depth=4, random_state=random_state)
    if name == "rtree":  # randomized: 2 of 5 features per split
        return DecisionTreeClassifier(
            max_depth=4, max_features=2, random_state=random_state
        )
    if name == "5nn":
        return _FiveNN()
    raise ValueError(name)


class _FiveNN:
    """KNeighborsClassifier(5) for 0/1 labels, in plain numpy (faster here)."""

    def fit(self, x, y):
        self.x_, self.y_ = x, y
        return self

    def predict(self, x):
        d2 = (x**2).sum(1)[:, None] - 2 * x @ self.x_.T + (self.x_**2).sum(1)
        nn = np.argpartition(d2, 4, axis=1)[:, :5]
        return (self.y_[nn].sum(axis=1) >= 3).astype(int)


# --------------------------------------------------------------------------
# metrics from counts


def f1_of(tp, fp, fn):
    den = 2 * tp + fp + fn
    return np.where(den > 0, 2 * tp / np.maximum(den, 1e-300), 0.0)


def metric_diffs(counts_a, counts_b, metric):
    """Per-split differences B - A, shape (m, 2): rows repetitions."""
    if metric == "f1":
        va = f1_of(*counts_a[:, :3].T)
        vb = f1_of(*counts_b[:, :3].T)
    else:  # accuracy
        va = (counts_a[:, 0] + counts_a[:, 3]) / counts_a.sum(axis=1)
        vb = (counts_b[:, 0] + counts_b[:, 3]) / counts_b.sum(axis=1)
    return (vb - va).reshape(-1, 2)


def _mean_over_rectangle(fun, r1=(0.0, 0.5), r2=(0.25, 0.5)):
    val, _ = integrate.dblquad(lambda b, a: fun(a, b), *r1, *r2)
    return val / ((r1[1] - r1[0]) * (r2[1] - r2[0]))


def inflation(rho1, rho2, m=M):
    """Var(dbar) / (E[sum h_j^2] / (2m)^2) = (1 + rho1 + 2(m-1) rho2) / (1 - rho1)."""
    return (1 + rho1 + 2 * (m - 1) * rho2) / (1 - rho1)


K_AVG = _mean_over_rectangle(inflation)  # 3.78... for m = 3


def _t_prob(loc, scale, df, rope=0.0):
    """P(mu > rope) for mu ~ loc + scale t_df (0.5 for a model against itself)."""
    if scale <= 0:
        return 0.5 if loc == rope else float(loc > rope)
    return float(stats.t.cdf((loc - rope) / scale, df))


def rule_t_half(d, k):
    """T-half: s^2 = K sum_j h_j^2 / (2m)^2, h_j = d_j1 - d_j2; t on m df."""
    m = d.shape[0]
    h = d[:, 0] - d[:, 1]
    s2 = k * np.sum(h**2) / (2 * m) ** 2
    return _t_prob(d.mean(), np.sqrt(s2), m)


def rule_t_pooled(d, rho1=0.25, rho2=0.375):
    """T-pooled: half-differences (m df) and repetition means (m - 1 df).

    Under Var d_jk = sigma^2, Cov(d_j1, d_j2) = rho1 sigma^2, Cov across
    repetitions rho2 sigma^2: E[sum h_j^2] = 2 m (1 - rho1) sigma^2 and
    E[sum (r_j - rbar)^2] = (m - 1) ((1 + rho1)/2 - rho2) sigma^2, independent
    under normality; pooled sigma^2 on 2m - 1 df, Var(dbar) = sigma^2 (1 +
    rho1 + 2(m-1) rho2) / (2m).
    """
    m = d.shape[0]
    h = d[:, 0] - d[:, 1]
    r = d.mean(axis=1)
    ss = np.sum(h**2) / (2 * (1 - rho1)) + np.sum((r - r.mean()) ** 2) / (
        (1 + rho1) / 2 - rho2
    )
    sigma2 = ss / (2 * m - 1)
    s2 = sigma2 * (1 + rho1 + 2 * (m - 1) * rho2) / (2 * m)
    return _t_prob(d.mean(), np.sqrt(s2), 2 * m - 1)


def rule_t_corrected(d, rho=0.5):
    """Nadeau-Bengio / Benavoli et al. (2017): (1/J + rho/(1-rho)) s^2, J-1 df."""
    x = d.ravel()
    j = x.size
    s2 = (1 / j + rho / (1 - rho)) * x.var(ddof=1)
    return _t_prob(x.mean(), np.sqrt(s2), j - 1)


def rule_paper(counts_a, counts_b, correlation):
    return bayes_test(counts_a, counts_b, metric="f1", correlation=correlation).p_h1


def rule_dirichlet(cells, c, rng, prior=0.5, n_draws=4000, metric="f1"):
    """Joint Dirichlet over cells (y, a, b) of the pooled splits, counts x c.

    cells: (8,) pooled counts, index 4 y + 2 a + b. A table symmetric in
    A <-> B (a model against itself) gives exactly 0.5.
    """
    t = cells.reshape(2, 2, 2)
    if np.array_equal(t, t.transpose(0, 2, 1)):  # symmetric in A <-> B
        return 0.5
    alpha = c * cells + prior
    g = rng.standard_gamma(alpha, size=(n_draws, 8))  # normalisation cancels
    g = g.reshape(n_draws, 2, 2, 2)  # y, a, b

    def f1(pr):  # pr[y, p] joint of truth and prediction
        tp, fp, fn = pr[:, 1, 1], pr[:, 0, 1], pr[:, 1, 0]
        if metric == "f1":
            return 2 * tp / (2 * tp + fp + fn)
        return (tp + pr[:, 0, 0]) / pr.sum(axis=(1, 2))

    fa, fb = f1(g.sum(axis=3)), f1(g.sum(axis=2))
    return float(np.mean((fb > fa) + 0.5 * (fb == fa)))


def f1_diff_split_var(cells):
    """Delta-method variance of F1_B - F1_A on one split from its 8 cells.

    cells: (8,) counts, index 4 y + 2 a + b. With D = 2 TP + FP + FN of a
    model, dF1/dTP = 2 (FP + FN) / D^2, dF1/dFP = dF1/dFN = -2 TP / D^2,
    dF1/dTN = 0 (0 everywhere if D = 0). g(y, a, b) = gB(y, b) - gA(y, a);
    Var = (sum_c g_c^2 p_c - (sum_c g_c p_c)^2) / n (the second sum is 0 as
    F1 is scale invariant). A model against itself gives g = 0.
    """
    n = cells.sum()
    t = (cells / n).reshape(2, 2, 2)  # y, a, b

    def grad(pr):  # pr[y, pred]
        tp, fp, fn = pr[1, 1], pr[0, 1], pr[1, 0]
        den = 2 * tp + fp + fn
        g = np.zeros((2, 2))
        if den > 0:
            g[1, 1] = 2 * (fp + fn) / den**2
            g[0, 1] = g[1, 0] = -2 * tp / den**2
        return g

    # t.sum(axis=1): (y, b) of B; t.sum(axis=2): (y, a) of A
    g = grad(t.sum(axis=1))[:, None, :] - grad(t.sum(axis=2))[:, :, None]
    g, p = g.ravel(), t.ravel()
    return float((g**2 @ p - (g @ p) ** 2) / n)


def rule_jdt(d, cells, k=3.0, df_mode="ws"):
    """JDT: mu ~ dbar + s t_df with test noise from the cells, training from h.

    d: (m, 2) per-split differences; cells: (2m, 8) per-split joint cells.
    v_jk = f1_diff_split_var(cells_jk), vbar = mean v_jk;
    V_test = vbar / 2 (every repetition averages the same n items);
    v_train = max(0, sum_j h_j^2 / (2m) - vbar), h_j = d_j1 - d_j2;
    V_train = k v_train / (2m) (k = 3: rho1 = 0, rho2 = 1/2 for training);
    s^2 = V_test + V_train; df_mode "ws": Welch-Satterthwaite with n - 1 df
    for V_test and m for V_train; "m": df = m.
    """
    m = d.shape[0]
    vbar = np.mean([f1_diff_split_var(c) for c in cells])
    h = d[:, 0] - d[:, 1]
    v_test = vbar / 2
    v_train = k * max(0.0, np.sum(h**2) / (2 * m) - vbar) / (2 * m)
    s2 = v_test + v_train
    if s2 <= 0:
        return _t_prob(d.mean(), 0.0, m)
    if df_mode == "m":
        df = m
    else:
        df_test = cells[:2].sum() - 1
        df = s2**2 / (v_test**2 / df_test + v_train**2 / m)
    return _t_prob(d.mean(), np.sqrt(s2), df)


RULES = {  # name: (needs, description)
    "paper19": ("counts", "bayes_test, correlation='wang2019' (c = 0.3688)"),
    "paper15": ("counts", "bayes_test, correlation='wang2015' (c = 1/6)"),
    "Thalf3": ("counts", "T-half, K = 3 (rho1 = 0, rho2 = 1/2), t_3"),
    "ThalfAvg": ("counts", f"T-half, K = {K_AVG:.3f} (mean over rho rectangle), t_3"),
    "Thalf7": ("counts", "T-half, K = 7 (rho1 = rho2 = 1/2, bound), t_3"),
    "Tpool": ("counts", "T-pooled, rho1 = 1/4, rho2 = 3/8, t_5"),
    "Tcorr": ("counts", "corrected t on 6 diffs, (1/6 + 1) s^2, t_5"),
    "JD3": ("cells", "joint Dirichlet, c = 1/3, prior 1/2 per cell"),
    "JD6": ("cells", "joint Dirichlet, c = 1/6, prior 1/2 per cell"),
    "JDT": ("cells", "hybrid: delta-method test var + h train var, K = 3, WS df"),
    "JDTavg": ("cells", f"hybrid, K = {K_AVG:.3f} on the training part, WS df"),
    "JDTm": ("cells", "hybrid, K = 3, t on m df"),
    "JDTavgm": ("cells", f"hybrid, K = {K_AVG:.3f}, t on m df"),
}
NEW_RULES = ("JDT", "JDTavg", "JDTm", "JDTavgm")
ACC_RULES = ("Thalf3", "ThalfAvg", "Tpool", "JD3")


def all_rules(counts_a, counts_b, cells, rng):
    d = metric_diffs(counts_a, counts_b, "f1")
    pooled = cells.sum(axis=0)
    out = {
        "paper19": rule_paper(counts_a, counts_b, "wang2019"),
        "paper15": rule_paper(counts_a, counts_b, "wang2015"),
        "Thalf3": rule_t_half(d, 3.0),
        "ThalfAvg": rule_t_half(d, K_AVG),
        "Thalf7": rule_t_half(d, 7.0),
        "Tpool": rule_t_pooled(d),
        "Tcorr": rule_t_corrected(d),
        "JD3": rule_dirichlet(pooled, 1 / M, rng),
        "JD6": rule_dirichlet(pooled, 1 / (2 * M), rng),
        "JDT": rule_jdt(d, cells, 3.0),
        "JDTavg": rule_jdt(d, cells, K_AVG),
        "JDTm": rule_jdt(d, cells, 3.0, "m"),
        "JDTavgm": rule_jdt(d, cells, K_AVG, "m"),
    }
    da = metric_diffs(counts_a, counts_b, "accuracy")
    out["acc:Thalf3"] = rule_t_half(da, 3.0)
    out["acc:ThalfAvg"] = rule_t_half(da, K_AVG)
    out["acc:Tpool"] = rule_t_pooled(da)
    out["acc:JD3"] = rule_dirichlet(pooled, 1 / M, rng, metric="accuracy")
    return out


# --------------------------------------------------------------------------
# one replication


def _counts(y, p):
    tp = np.sum((y == 1) & (p == 1))
    fp = np.sum((y == 0) & (p == 1))
    fn = np.sum((y == 1) & (p == 0))
    return [tp, fp, fn, y.size - tp - fp - fn]


def _cells(y, pa, pb):
    return np.bincount(4 * y + 2 * pa + pb, minlength=8)


def cv_predictions(rng, setting, n):
    """Per-split test predictions of A and B; returns y, splits, preds."""
    kind, learner, prev = setting["kind"], setting["learner"], setting["prev"]
    z, y = make_data(rng, n, prev)
    xa = view(rng, z, SIGMA_A)
    if kind == "seeds":
        xb = xa
        seeds = rng.integers(2**31, size=2)
    elif kind in ("cviews", "cpower"):  # xa above is unused (keeps the stream simple)
        xa, xb = corr_views(rng, z, SIGMA_A, setting["sigma_b"])
        seeds = (0, 0)
    else:
        xb = view(rng, z, setting["sigma_b"])
        seeds = (0, 0)
    cv = BlockRegularized3x2CV(random_state=int(rng.integers(2**31)))
    splits, preds = [], []
    for train, test in cv.split(xa, y):
        ma = make_learner(learner, int(seeds[0])).fit(xa[train], y[train])
        mb = make_learner(learner, int(seeds[1])).fit(xb[train], y[train])
        splits.append(test)
        preds.append((ma.predict(xa[test]), mb.predict(xb[test])))
    return y, splits, preds


def counts_and_cells(y, splits, preds):
    ca, cb, cells = [], [], []
    for test, (pa, pb) in zip(splits, preds, strict=False):
        yt = y[test]
        ca.append(_counts(yt, pa))
        cb.append(_counts(yt, pb))
        cells.append(_cells(yt, pa, pb))
    return np.array(ca), np.array(cb), np.array(cells)


def mcnemar_p(b, c):
    return stats.binomtest(b, b + c, 0.5).pvalue if b + c else 1.0


def dominance(rng, y, splits, preds, fraction=None):
    """B = A with A's errors on a random set of items fixed (every split).

    fraction None: the fewest items (in random order) with >= 11 discordant
    items in every repetition (exact McNemar p < 0.001 on each repetition's n
    items); else that fraction of A's error items (if it reaches p < 0.001).
    """
    n = y.size
    wrong = np.zeros((M, n), bool)  # A wrong on item i in repetition j
    for s, (test, (pa, _)) in enumerate(zip(splits, preds, strict=False)):
        wrong[s // 2, test] = pa != y[test]
    err_items = rng.permutation(np.flatnonzero(wrong.any(axis=0)))
    if fraction is None:
        cum = np.cumsum(wrong[:, err_items], axis=1)
        ok = np.flatnonzero((cum >= 11).all(axis=0))
        if ok.size == 0:
            return None
        fixed = err_items[: ok[0] + 1]
    else:
        fixed = err_items[: int(round(fraction * err_items.size))]
    fix = np.zeros(n, bool)
    fix[fixed] = True
    pvals = [mcnemar_p(int(np.sum(wrong[j] & fix)), 0) for j in range(M)]
    if max(pvals) >= 0.001:
        return None
    new_preds = [
        (pa, np.where(fix[test], y[test], pa))
        for test, (pa, _) in zip(splits, preds, strict=False)
    ]
    return new_preds, fixed.size


def run_rep(setting, rep):
    key = zlib.crc32(setting["name"].encode())
    rng = np.random.default_rng(np.random.SeedSequence([BASE_SEED, key, rep]))
    y, splits, preds = cv_predictions(rng, setting, setting["n"])
    out = all_rules(*counts_and_cells(y, splits, preds), rng)
    if setting["kind"] in (
        "views",
        "cviews",
    ):  # dominance and identity from A's own predictions
        for label, frac in (("dom_min", None), ("dom_25", 0.25)):
            dom = dominance(rng, y, splits, preds, frac)
            if dom is not None:
                res = all_rules(*counts_and_cells(y, splits, dom[0]), rng)
                out.update({f"{label}:{k}": v for k, v in res.items()})
                out[f"{label}:n_fixed"] = dom[1]
        same = [(pa, pa) for pa, _ in preds]
        res = all_rules(*counts_and_cells(y, splits, same), rng)
        out.update({f"same:{k}": v for k, v in res.items()})
    return out


# --------------------------------------------------------------------------
# calibration of sigma_B for the power settings


def _expected_gain(learner, prev, n, sigma_bs, n_train_sets, seed, corr=0.0):
    rng = np.random.default_rng(np.random.SeedSequence([BASE_SEED, seed]))
    zt, yt = make_data(rng, 5_000, prev)

    def noises(shape):  # unit-variance view noises of A and B, correlation corr
        u0, ua, ub = (rng.standard_normal(shape) for _ in range(3))
        a, b = np.sqrt(corr), np.sqrt(1 - corr)
        return a * u0 + b * ua, a * u0 + b * ub

    ua_t, ub_t = noises(zt.shape)
    gains = np.zeros((n_train_sets, len(sigma_bs)))
    for r in range(n_train_sets):
        z, y = make_data(rng, n // 2, prev)
        ua, ub = noises(z.shape)
        ma = make_learner(learner).fit(z + SIGMA_A * ua, y)
        fa = f1_of(*_counts(yt, ma.predict(zt + SIGMA_A * ua_t))[:3])
        for i, sb in enumerate(sigma_bs):
            mb = make_learner(learner).fit(z + sb * ub, y)
            gains[r, i] = f1_of(*_counts(yt, mb.predict(zt + sb * ub_t))[:3]) - fa
    return gains


def calibrate(learner, prev, n, cache):
    key = f"calib|v{CONFIG_VERSION}|{learner}|{prev}|{n}"
    if key in cache:
        return cache[key]
    grid = np.linspace(0.0, 1.0, 6)
    g = _expected_gain(learner, prev, n, grid, 30, zlib.crc32(key.encode())).mean(0)
    # g decreases in sigma_B (noisily); interpolate on its running minimum from 0
    mono = np.minimum.accumulate(g)
    if mono[0] < TARGET_GAIN:
        sigma_b = 0.0
    else:
        i = np.flatnonzero(mono < TARGET_GAIN)[0]
        w = (mono[i - 1] - TARGET_GAIN) / (mono[i - 1] - mono[i])
        sigma_b = float(grid[i - 1] + w * (grid[i] - grid[i - 1]))
    check = _expected_gain(
        learner, prev, n, [sigma_b], 60, zlib.crc32(key.encode()) + 1
    )
    cache[key] = {
        "sigma_b": sigma_b,
        "grid_gain": [float(x) for x in g],
        "gain": float(check.mean()),
        "gain_se": float(check.std(ddof=1) / np.sqrt(check.size)),
    }
    _save(cache, _route(key))
    return cache[key]


def calibrate_corr(learner, prev, n, cache, corr=CORR_R):
    """As calibrate, correlated views; grid step 0.1, 40 training sets per
    point, then one secant correction from 60 fresh sets, checked on 60 more."""
    key = f"calib|v{CONFIG_VERSION}|corr{corr}|{learner}|{prev}|{n}"
    if key in cache:
        return cache[key]
    seed = zlib.crc32(key.encode())
    grid = np.linspace(0.0, 1.0, 11)
    g = _expected_gain(learner, prev, n, grid, 40, seed, corr).mean(0)
    mono = np.minimum.accumulate(g)
    if mono[0] < TARGET_GAIN:
        sigma_b = 0.0
    else:
        i = np.flatnonzero(mono < TARGET_GAIN)[0]
        w = (mono[i - 1] - TARGET_GAIN) / (mono[i - 1] - mono[i])
        sigma_b = float(grid[i - 1] + w * (grid[i] - grid[i - 1]))
        slope = (mono[i] - mono[i - 1]) / (grid[i] - grid[i - 1])
        g1 = _expected_gain(learner, prev, n, [sigma_b], 60, seed + 1, corr).mean()
        if slope < 0:
            sigma_b = float(np.clip(sigma_b + (TARGET_GAIN - g1) / slope, 0.0, 1.0))
    check = _expected_gain(learner, prev, n, [sigma_b], 60, seed + 2, corr)
    cache[key] = {
        "sigma_b": sigma_b,
        "grid_gain": [float(x) for x in g],
        "gain": float(check.mean()),
        "gain_se": float(check.std(ddof=1) / np.sqrt(check.size)),
    }
    _save(cache, _route(key))
    return cache[key]


# --------------------------------------------------------------------------
# settings, cache, tables


def settings_corr(ns, cache, calibrate_power=True):
    """Correlated views (r = CORR_R): nulls "cviews", power "cpower"."""
    out = []
    for n in ns:
        for prev in (0.5, 0.1):
            for learner in ("logreg", "tree", "5nn"):
                out.append(
                    dict(
                        kind="cviews", learner=learner, prev=prev, n=n, sigma_b=SIGMA_A
                    )
                )
            for learner in ("logreg", "tree", "5nn"):
                s = dict(kind="cpower", learner=learner, prev=prev, n=n)
                if calibrate_power:
                    cal = calibrate_corr(learner, prev, n, cache)
                    s.update(sigma_b=cal["sigma_b"], gain=cal["gain"])
                out.append(s)
    for s in out:
        s["name"] = (
            f"v{CONFIG_VERSION}|{s['kind']}{CORR_R}|{s['learner']}|{s['prev']}|{s['n']}"
        )
    return out


def settings(ns, cache, calibrate_power=True):
    out = []
    for n in ns:
        for prev in (0.5, 0.1):
            for learner in ("logreg", "tree", "5nn"):
                out.append(
                    dict(kind="views", learner=learner, prev=prev, n=n, sigma_b=SIGMA_A)
                )
            out.append(dict(kind="seeds", learner="rtree", prev=prev, n=n))
            if n > 600:
                continue
            for learner in ("logreg", "tree", "5nn"):
                s = dict(kind="power", learner=learner, prev=prev, n=n)
                if calibrate_power:
                    cal = calibrate(learner, prev, n, cache)
                    s.update(sigma_b=cal["sigma_b"], gain=cal["gain"])
                out.append(s)
    for s in out:
        s["name"] = f"v{CONFIG_VERSION}|{s['kind']}|{s['learner']}|{s['prev']}|{s['n']}"
    return out


def _route(key):
    if "|xchunk" in key:
        return CACHE_X
    if "cviews" in key or "cpower" in key or "|corr" in key:
        return CACHE_CORR
    return CACHE


def _load():
    cache = {}
    for path in (CACHE, CACHE_CORR, CACHE_X):
        if os.path.exists(path):
            with open(path) as f:
                cache.update(json.load(f))
    return cache


def _save(cache, path=None):
    """Write the keys routed to path (default: every file with keys)."""
    paths = [path] if path else sorted({_route(k) for k in cache})
    for path in paths:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({k: v for k, v in cache.items() if _route(k) == path}, f)
        os.replace(tmp, path)


def run(settings_list, reps, cache):
    n_chunks = -(-reps // CHUNK)
    for s in settings_list:
        for chunk in range(n_chunks):
            key = f"{s['name']}|chunk{chunk}"
            if key in cache:
                continue
            t0 = time.process_time()
            res = [run_rep(s, r) for r in range(chunk * CHUNK, (chunk + 1) * CHUNK)]
            cache[key] = {k: [r.get(k) for r in res] for k in res[0] | res[-1]}
            _save(cache, _route(key))
            print(
                f"  {s['name']} chunk {chunk}: {time.process_time() - t0:.1f} s CPU",
                flush=True,
            )


def run_extra(settings_list, reps, cache):
    """The NEW_RULES on cached settings: rerun the reps (same seeds, same random
    stream, as the new rules draw nothing), check the old rules reproduce,
    store only the new rules' keys under "|xchunk"."""
    n_chunks = -(-reps // CHUNK)
    for s in settings_list:
        for chunk in range(n_chunks):
            key = f"{s['name']}|xchunk{chunk}"
            old = cache.get(f"{s['name']}|chunk{chunk}")
            if key in cache or old is None:
                continue
            t0 = time.process_time()
            res = [run_rep(s, r) for r in range(chunk * CHUNK, (chunk + 1) * CHUNK)]
            for k in ("paper19", "JD3", "dom_min:JD3", "same:Thalf3"):
                if k in old:
                    new = np.array([r.get(k, np.nan) for r in res], float)
                    ref = np.array([np.nan if v is None else v for v in old[k]], float)
                    assert np.allclose(new, ref, equal_nan=True), (s["name"], k)
            keys = {k for k in res[0] | res[-1] if k.split(":")[-1] in NEW_RULES}
            cache[key] = {k: [r.get(k) for r in res] for k in keys}
            _save(cache, CACHE_X)
            print(
                f"  {s['name']} xchunk {chunk}: {time.process_time() - t0:.1f} s CPU",
                flush=True,
            )


def collect(cache, s, reps):
    n_chunks = -(-reps // CHUNK)
    chunks = []
    for c in range(n_chunks):
        ch = cache.get(f"{s['name']}|chunk{c}")
        if ch is not None:
            ch = dict(ch)
            ch.update(cache.get(f"{s['name']}|xchunk{c}", {}))
            chunks.append(ch)
    if not chunks:
        return None
    keys = set().union(*chunks)
    return {
        k: np.array(
            [
                np.nan if v is None else v
                for c in chunks
                for v in c.get(k, [None] * CHUNK)
            ],
            float,
        )
        for k in keys
    }


def _rate(p):
    p = p[~np.isnan(p)]
    if p.size == 0:
        return np.nan, np.nan, 0
    r = np.mean(p >= THRESHOLD)
    return r, np.sqrt(r * (1 - r) / p.size), p.size


NULL_KINDS = ("views", "seeds", "cviews")
POWER_KINDS = ("power", "cpower")


def _cell(rate, se):
    return f"{rate:>9.3f} ({se:.3f})" if rate == rate else f"{'-':>15}"


def print_tables(settings_list, cache, reps, rules=None):
    rules = list(rules or RULES)
    print("\nRules:")
    for k, (needs, desc) in RULES.items():
        if k in rules:
            print(f"  {k:<9} [{needs}] {desc}")
    results = {s["name"]: collect(cache, s, reps) for s in settings_list}
    for title, kinds in (
        ("Type I: rate of P(H1) >= 0.95 under exact nulls (s.e.)", NULL_KINDS),
        ("Power: rate of P(H1) >= 0.95, true F1 gain ~0.05 (s.e.)", POWER_KINDS),
    ):
        print(f"\n{title}")
        head = f"{'setting':<28}{'reps':>5}"
        print(head + "".join(f"{r:>15}" for r in rules))
        worst = {r: 0.0 for r in rules}
        for s in settings_list:
            res = results[s["name"]]
            if s["kind"] not in kinds or res is None:
                continue
            label = f"{s['kind']} {s['learner']} {s['prev']} {s['n']}"
            if s["kind"] in POWER_KINDS:
                label += f" g={s['gain']:.3f}"
            row = f"{label:<28}{res['paper19'].size:>5}"
            for r in rules:
                rate, se, _ = _rate(res.get(r, np.full(1, np.nan)))
                if rate == rate:
                    worst[r] = max(worst[r], rate)
                row += _cell(rate, se)
            print(row)
        if kinds == NULL_KINDS:
            print(
                f"{'max over settings':<33}"
                + "".join(f"{worst[r]:>15.3f}" for r in rules)
            )
    print("\nPower averaged over the settings of each kind and n (s.e.)")
    for kind in POWER_KINDS:
        for n in sorted({s["n"] for s in settings_list if s["kind"] == kind}):
            sel = [
                results[s["name"]]
                for s in settings_list
                if s["kind"] == kind and s["n"] == n and results[s["name"]]
            ]
            if not sel:
                continue
            row = f"{kind + ' n = ' + str(n):<33}"
            for r in rules:
                hits = np.concatenate([x.get(r, np.full(1, np.nan)) for x in sel])
                row += _cell(*_rate(hits)[:2])
            print(row)
    for label, what in (
        ("dom_min", "dominance, fewest fixes with McNemar p < 0.001 per repetition"),
        ("dom_25", "dominance, 25% of A's error items fixed (p < 0.001)"),
    ):
        print(f"\nP(H1) under {what}: min / share >= 0.99")
        print(f"{'':<28}{'reps':>5}" + "".join(f"{r:>15}" for r in rules))
        overall = {r: 1.0 for r in rules}
        for s in settings_list:
            res = results[s["name"]]
            if s["kind"] not in ("views", "cviews") or res is None:
                continue
            if f"{label}:paper19" not in res:
                continue
            ok = ~np.isnan(res[f"{label}:paper19"])
            lab = f"{s['kind']} {s['learner']} {s['prev']} {s['n']}"
            row = f"{lab:<28}{ok.sum():>5}"
            for r in rules:
                if f"{label}:{r}" not in res:
                    row += f"{'-':>15}"
                    continue
                p = res[f"{label}:{r}"][ok]
                overall[r] = min(overall[r], p.min())
                row += f"{p.min():>6.3f}/{np.mean(p >= 0.99):.3f}  "
            print(row)
        print(
            f"{'min over settings':<33}"
            + "".join(f"{overall[r]:>15.4f}" for r in rules)
        )
    print("\nIdentical models (B = A): max |P(H1) - 0.5| over all reps")
    dev = {r: 0.0 for r in rules}
    for s in settings_list:
        res = results[s["name"]] if s["kind"] in ("views", "cviews") else None
        if res:
            for r in rules:
                if f"same:{r}" in res:
                    dev[r] = max(
                        dev[r], float(np.nanmax(np.abs(res[f"same:{r}"] - 0.5)))
                    )
    print("".join(f"{r}: {v:.2e}  " for r, v in dev.items()))
    print(
        "\nAccuracy (metric='accuracy'): rate of P(H1) >= 0.95 (s.e.); "
        "acc gain not calibrated"
    )
    print(f"{'setting':<28}" + "".join(f"{r:>15}" for r in ACC_RULES))
    for s in settings_list:
        res = results[s["name"]]
        if res is None:
            continue
        name = f"{s['kind']} {s['learner']} {s['prev']} {s['n']}"
        row = f"{name:<28}"
        for r in ACC_RULES:
            row += _cell(*_rate(res[f"acc:{r}"])[:2])
        print(row)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=600)
    ap.add_argument("--quick", action="store_true", help="100 reps, n in (200, 600)")
    ap.add_argument("--big", action="store_true", help="also the nulls at n = 2000")
    ap.add_argument("--no-run", action="store_true")
    ap.add_argument(
        "--family",
        choices=("indep", "corr", "both"),
        default="indep",
        help="independent views (the original settings), correlated views "
        f"(r = {CORR_R}), or both",
    )
    ap.add_argument(
        "--extra",
        action="store_true",
        help="indep: compute only the NEW_RULES on cached settings (rerun reps)",
    )
    ap.add_argument("--rules", default=None, help="comma list of rules to print")
    args = ap.parse_args()
    reps = 100 if args.quick else args.reps
    ns = (200, 600, 2000) if args.big else (200, 600)
    cache = _load()
    t0 = time.process_time()
    slist = []
    if args.family in ("indep", "both"):
        slist += settings(ns, cache)
    if args.family in ("corr", "both"):
        slist += settings_corr((200, 600), cache)
    if not args.no_run:
        if args.extra:
            run_extra(
                [
                    s
                    for s in slist
                    if "cviews" not in s["name"] and "cpower" not in s["name"]
                ],
                reps,
                cache,
            )
        else:
            run(slist, reps, cache)
    print(f"K_avg = {K_AVG:.4f}; CPU {time.process_time() - t0:.0f} s this run")
    rules = args.rules.split(",") if args.rules else None
    print_tables(slist, cache, reps, rules)


if __name__ == "__main__":
    main()

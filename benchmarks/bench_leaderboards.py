"""Time the leaderboard tools of issue 39 against their anchors and floors.

Four parts from one run, all seeded, one job:

1. ``bradley_terry`` on ``k`` systems and ``n`` battles (no ties, so that
   every fit below maximises the same likelihood). Per row:

   - ``call s``: :func:`~sklearn_faithful.battles.bradley_terry` end to end
     from the raw columns of strings (validation, counts, the Newton fit) with
     ``n_resamples=2``, its smallest bootstrap;
   - ``fit s``: its Newton fit alone (``battles._fit.fit_ratings``) on the
     pair counts;
   - ``ilsr s`` / ``opt s``: ``choix.ilsr_pairwise`` / ``choix.opt_pairwise``
     on the (winner, loser) tuples, built outside the timing (the anchors);
   - ``lr s``: scikit-learn's ``LogisticRegression`` (``C=1e12``, no
     intercept, lbfgs) on the +1/-1 design, a row per battle, built outside
     the timing (the simplest exact computation);
   - ``/ilsr``, ``/opt``, ``/lr``: ``call s`` over each;
   - ``max|d|``: the largest difference of the centred log-strengths of the
     package from those of the three others (the same numbers).

   Then the default call (999 resamples): ``B=999 s`` and its ``peak MiB``
   (tracemalloc, beyond the inputs), and ``999 x lr``: 999 times the fastest
   of the three reference fits, what refitting a reference per resample (the
   by-hand bootstrap of arena-hard-auto) would take.
2. ``rank_intervals`` of ``K`` runs of 0/1 scores on ``n`` items (defaults,
   ``n_resamples=999``), against the floor: for each resample, bincount
   weights of ``n`` item draws times the score matrix (the runs' means),
   then the 95% quantile of the maximum over the pairs of ``|d* - d| / sd``
   (``sd`` the bootstrap standard deviation of each pair's difference). The
   package does more than the floor: each resample's own standard errors
   (the bootstrap-t: ``K (K + 1) / 2`` second moments a resample), the
   marginal and the simultaneous families, and the step-down. ``ratio`` is
   package / floor; ``peak MiB`` the package's.
3. ``suite_scores`` (defaults, ``weighting="task"``, ``n_resamples=999``) of
   ``K`` runs on ``n`` items in 20 tasks of unequal sizes, against the
   stratified floor: per resample, ``n_t`` draws within each task, bincount
   weights scaled by ``1 / (T n_t)`` times the score matrix (the suite
   scores), then each run's and each pair's percentile interval, each pair's
   bootstrap p-value and the max-t quantile of part 2.
4. ``plan_paired_comparison`` of ``K`` runs on 10^5 items with ``delta``,
   against the floor: the sample variance of every pair's differences (``K
   (K - 1) / 2`` numpy passes) and the normal rule. Median of 5 calls.

Every part says the machine's load average (``os.getloadavg()``) before
its rows and after them.

Run: python benchmarks/bench_leaderboards.py [--quick] [--parts 2 3]   (needs choix)
"""

import argparse
import functools
import itertools
import os
import time
import warnings

import numpy as np
from _timing import median_time, peak_mib, seconds
from scipy.stats import norm
from sklearn.linear_model import LogisticRegression

from sklearn_faithful.battles import bradley_terry
from sklearn_faithful.battles._fit import fit_ratings, pair_counts, wins_losses_ties
from sklearn_faithful.eval_logs import rank_intervals, suite_scores
from sklearn_faithful.gate import plan_paired_comparison

try:
    import choix
except ImportError:  # the anchors' columns then print "-"
    choix = None

SEED = 0
B = 999


def _battles(k, n, seed=SEED):
    rng = np.random.default_rng(seed)
    theta = np.linspace(-1.0, 1.0, k)
    a = rng.integers(0, k, n)
    b = (a + rng.integers(1, k, n)) % k
    a_won = rng.random(n) < 1 / (1 + np.exp(-(theta[a] - theta[b])))
    names = np.array([f"s{x:02d}" for x in range(k)])
    columns = {
        "model_a": names[a],
        "model_b": names[b],
        "winner": np.where(a_won, "model_a", "model_b"),
    }
    return columns, a, b, a_won


def _scores(k, n, seed=SEED):
    """0/1 scores of ``k`` runs on ``n`` items of varying difficulty."""
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.0, 1.0, k)
    difficulty = 1.5 * rng.normal(size=(n, 1))
    p = 1 / (1 + np.exp(-(skill + difficulty)))
    return (rng.random((n, k)) < p).astype(np.int8)


def _centred(x):
    x = np.asarray(x, dtype=float)
    return x - x.mean()


def _fit_only(k, a, b, a_won):
    outcome = np.where(a_won, 0, 1)
    i, j, pair, kind = pair_counts(k, a, b, outcome, "half")
    counts = np.bincount(pair * 3 + kind, minlength=3 * len(i))
    w, lost, t = wins_losses_ties(counts[None], len(i), "half")
    return fit_ratings(k, i, j, w, lost, t, davidson=False, alpha=0.0)[0][0]


def _logistic(x, y):
    model = LogisticRegression(C=1e12, fit_intercept=False, tol=1e-10, max_iter=10_000)
    return model.fit(x, y).coef_[0]


def _timed(func, results, times):
    """One call of ``func``: its result and its seconds appended."""
    start = time.perf_counter()
    results.append(func())
    times.append(time.perf_counter() - start)


def _repeat(n):
    """Calls timed per row (the median): 3 for the small, noisy rows."""
    return 3 if n <= 10**3 else 1


def _bt_part(sizes):
    print("1. bradley_terry: the fit (call with n_resamples=2) against choix and")
    print("   a logistic regression; then the default call (999 resamples)")
    print(
        f"{'k':>3} {'n':>7} {'call s':>7} {'fit s':>6} {'ilsr s':>7} {'opt s':>6} "
        f"{'lr s':>6} {'/ilsr':>6} {'/opt':>6} {'/lr':>6} {'max|d|':>8} "
        f"{'B=999 s':>8} {'peak MiB':>8} {'999 x lr':>8}"
    )
    for k, n in sizes:
        columns, a, b, a_won = _battles(k, n)
        call = functools.partial(bradley_terry, columns, n_resamples=2, random_state=0)
        ours = call().ratings
        t_call = median_time(call, 3)
        t_fit = median_time(functools.partial(_fit_only, k, a, b, a_won), 3)
        refs, times = [], []
        if choix is not None:
            tuples = list(
                zip(
                    np.where(a_won, a, b).tolist(),
                    np.where(a_won, b, a).tolist(),
                    strict=True,
                )
            )
            for fit in (choix.ilsr_pairwise, choix.opt_pairwise):
                _timed(functools.partial(fit, k, tuples), refs, times)
        else:
            times += [np.nan, np.nan]
        x = np.zeros((n, k))
        x[np.arange(n), a] = 1.0
        x[np.arange(n), b] = -1.0
        y = a_won.astype(int)
        _timed(functools.partial(_logistic, x, y), refs, times)
        gap = max(np.abs(_centred(r) - _centred(ours)).max() for r in refs)
        full = functools.partial(bradley_terry, columns, random_state=0)
        with warnings.catch_warnings():  # resamples without an MLE, at 1e3
            warnings.simplefilter("ignore")
            t_full = seconds(full)
            peak = peak_mib(full)
        t_ilsr, t_opt, t_lr = times
        print(
            f"{k:>3} {n:>7} {t_call:>7.3f} {t_fit:>6.3f} {t_ilsr:>7.3f} "
            f"{t_opt:>6.3f} {t_lr:>6.3f} {t_call / t_ilsr:>6.2f} "
            f"{t_call / t_opt:>6.2f} {t_call / t_lr:>6.2f} {gap:>8.1e} "
            f"{t_full:>8.2f} {peak:>8.1f} {B * np.nanmin(times):>8.1f}"
        )


def _weights(rng, n, size, high=None, start=None):
    """Bincount weights (size, n) of ``n`` draws: of all items, or with
    ``high``/``start`` per item, within each item's task."""
    out = np.empty((size, n))
    for r in range(size):
        if high is None:
            idx = rng.integers(0, n, n)
        else:
            idx = start + rng.integers(0, high)
        out[r] = np.bincount(idx, minlength=n)
    return out


def _max_t(boot, observed, confidence_level=0.95):
    """The quantile of the bootstrap maximum over pairs of |d* - d| / sd."""
    i, j = np.triu_indices(boot.shape[1], 1)
    d_star = boot[:, i] - boot[:, j]
    d = observed[i] - observed[j]
    t = np.abs(d_star - d) / d_star.std(axis=0, ddof=1)
    return np.quantile(t.max(axis=1), confidence_level)


def _floor_ranks(scores, n_resamples, chunk=64, seed=SEED):
    rng = np.random.default_rng(seed)
    n = scores.shape[0]
    s = scores.astype(float)
    boot = np.concatenate(
        [
            _weights(rng, n, len(block)) @ s / n
            for block in np.array_split(
                np.arange(n_resamples), -(-n_resamples // chunk)
            )
        ]
    )
    return _max_t(boot, s.mean(axis=0))


def _ranks_part(sizes):
    print()
    print(f"2. rank_intervals, 0/1 scores, no clusters, {B} resamples; floor:")
    print("   the bootstrap of the means (bincount weights @ scores) and max-t")
    print(
        f"{'K':>3} {'n':>7} {'package s':>10} {'floor s':>8} {'ratio':>6} "
        f"{'peak MiB':>9}"
    )
    for k, n in sizes:
        scores = _scores(k, n)
        runs = {f"r{j:02d}": scores[:, j] for j in range(k)}
        package = functools.partial(rank_intervals, runs, n_resamples=B, random_state=0)
        t_package = median_time(package, _repeat(n))
        t_floor = median_time(functools.partial(_floor_ranks, scores, B), _repeat(n))
        print(
            f"{k:>3} {n:>7} {t_package:>10.2f} {t_floor:>8.2f} "
            f"{t_package / t_floor:>6.2f} {peak_mib(package):>9.1f}"
        )


def _tasks(n, n_tasks=20, seed=SEED):
    """Task labels of ``n`` items: 20 tasks, sizes in the ratio 1 to 20."""
    size = np.arange(1, n_tasks + 1)
    size = np.maximum(2, np.floor(n * size / size.sum())).astype(int)
    size[-1] += n - size.sum()
    return np.repeat(np.arange(n_tasks), size)


def _floor_suite(scores, tasks, n_resamples, chunk=64, seed=SEED):
    rng = np.random.default_rng(seed)
    n = scores.shape[0]
    _, start_of, size = np.unique(tasks, return_index=True, return_counts=True)
    n_tasks = size.size
    high, start = size[tasks], start_of[tasks]
    s = scores.astype(float) / (n_tasks * high[:, None])
    boot = np.concatenate(
        [
            _weights(rng, n, len(block), high, start) @ s
            for block in np.array_split(
                np.arange(n_resamples), -(-n_resamples // chunk)
            )
        ]
    )
    observed = s.sum(axis=0)
    i, j = np.triu_indices(scores.shape[1], 1)
    diff = boot[:, j] - boot[:, i]
    d = observed[j] - observed[i]
    intervals = np.quantile(boot, [0.025, 0.975], axis=0)
    pair_intervals = np.quantile(diff, [0.025, 0.975], axis=0)
    extreme = (np.abs(diff - d) >= np.abs(d)).sum(axis=0)
    pvalues = (1 + extreme) / (1 + n_resamples)
    return intervals, pair_intervals, pvalues, _max_t(boot, observed)


def _suites_part(sizes):
    print()
    print(f"3. suite_scores, 20 tasks, weighting='task', {B} resamples; floor:")
    print("   the stratified bootstrap (weights within tasks @ scores), intervals,")
    print("   p-values and max-t")
    print(
        f"{'K':>3} {'n':>7} {'package s':>10} {'floor s':>8} {'ratio':>6} "
        f"{'peak MiB':>9}"
    )
    for k, n in sizes:
        scores = _scores(k, n)
        tasks = _tasks(n)
        runs = {f"r{j:02d}": scores[:, j] for j in range(k)}
        package = functools.partial(
            suite_scores, runs, tasks=tasks, n_resamples=B, random_state=0
        )
        t_package = median_time(package, _repeat(n))
        floor = functools.partial(_floor_suite, scores, tasks, B)
        t_floor = median_time(floor, _repeat(n))
        print(
            f"{k:>3} {n:>7} {t_package:>10.2f} {t_floor:>8.2f} "
            f"{t_package / t_floor:>6.2f} {peak_mib(package):>9.1f}"
        )


def _floor_plan(scores, delta, alpha=0.05, beta=0.2):
    s = scores.astype(float)
    var = max(
        np.var(s[:, a] - s[:, b], ddof=1)
        for a, b in itertools.combinations(range(s.shape[1]), 2)
    )
    z = norm.ppf(1 - alpha / 2) + norm.ppf(1 - beta)
    return int(np.ceil(var * z**2 / delta**2)), z * np.sqrt(var / s.shape[0])


def _plan_part(ks, n):
    print()
    print(f"4. plan_paired_comparison, 0/1 scores, {n} items, delta=0.02; floor:")
    print("   every pair's variance of the differences and the normal rule")
    print(f"{'K':>3} {'n':>7} {'package s':>10} {'floor s':>8} {'ratio':>6}")
    for k in ks:
        scores = _scores(k, n)
        runs = {f"r{j:02d}": scores[:, j] for j in range(k)}
        t_package = median_time(
            functools.partial(plan_paired_comparison, runs, 0.02), 5
        )
        t_floor = median_time(functools.partial(_floor_plan, scores, 0.02), 5)
        print(
            f"{k:>3} {n:>7} {t_package:>10.4f} {t_floor:>8.4f} "
            f"{t_package / t_floor:>6.2f}"
        )


def _load():
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    parser.add_argument(
        "--parts",
        type=int,
        nargs="+",
        choices=(1, 2, 3, 4),
        default=(1, 2, 3, 4),
        help="the parts to run (default: all four)",
    )
    args = parser.parse_args()
    ns = (10**3, 10**4) if args.quick else (10**3, 10**4, 10**5)
    sizes = [(k, n) for k in (10, 30) for n in ns]
    parts = {
        1: functools.partial(_bt_part, sizes),
        2: functools.partial(_ranks_part, sizes),
        3: functools.partial(_suites_part, sizes),
        4: functools.partial(
            _plan_part, (2, 3, 5) if args.quick else (2, 3, 5, 10), 10**5
        ),
    }
    for part in sorted(set(args.parts)):
        print(f"[{_load()}]")
        parts[part]()
    print(f"[{_load()}]")


if __name__ == "__main__":
    main()

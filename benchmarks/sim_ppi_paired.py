"""Coverage of paired PPI and PPI++ under a real effect.

Two systems C and T answer the same N inputs; their real labels ``R_C`` and
``R_T`` have positive rates ``pi`` and ``pi + effect``, so the true effect is
known exactly from the generator. ``correlated`` systems share their latent
draw on 60% of the inputs (``sim_model_based._latent``): ``P(R_C = R_T = 1) =
0.6 min(pi_C, pi_T) + 0.4 pi_C pi_T``; ``independent`` ones share none. A
metric model labels every output with errors that depend on the real label
(sensitivity, false positive rate), independently across the systems. The
first n inputs are annotated (both systems' outputs for them, a random
sample of the N). Each data set is tested by ``ModelBasedMetricTest(None,
method="ppi", paired=True)`` with ``lam=1`` (PPI) and ``lam="auto"`` (PPI++);
the 95% interval covers when it holds the true effect.

Every item is one of 16 joint values of ``(R_C, R_T, O_C, O_T)``, and the
paired PPI and PPI++ intervals depend on the data only through how many
items take each value, among the n annotated and among all N. So each data
set is drawn as two multinomial counts (annotated, the rest), and the
intervals are computed from the counts (``paired_ppi``), vectorised over the
data sets; ``--check`` compares this fast path with the public API on
expanded data sets (to 1e-9).

Besides PPI and PPI++ (``z``, as the package computes them), two candidate
repairs of PPI++ are measured: the t quantile with n - 1 degrees of freedom
(``t``), and PPI++ with classical PPI's ``lam = 1`` wherever the data set has
fewer than 10 annotated items of the rarer real class (``fallback``, the
count at which ``lam="auto"`` warns). Each cell also keeps the coverage by
that count ``k`` (capped at 40), so a rule "warn when ``k < K``" can be
measured after the fact.

Tuning cells: N = 10,000; n in {50, 100, 200, 500}; pi in {0.02, 0.1, 0.3};
effect in {0, +0.01, +0.02, +0.05}; metric models ``good`` (sensitivity 0.9,
false positive rate 0.03) and ``weak`` (0.6, 0.1); correlated and
independent systems (192 cells). Held-back cells, fixed before any run and
not looked at while choosing the warning: N in {1,000, 3,000}; n in {40, 75,
150, 300}; pi in {0.05, 0.5}; effect in {-0.02, +0.03, +0.1}; metric models
``noisy`` (0.75, 0.2) and ``lenient`` (0.95, 0.35); independent systems, or
``shared`` ones: 90% of latent draws shared and the metric model's errors
correlated across the systems (half of its uniform draws shared) (192
cells). That first held-back group showed that the rarer class's count does
not predict the failure; the warning's rule (n >= 75 and d >= 10, d the
annotated inputs on which the systems' real labels differ, or agree, whichever
is fewer) was chosen on the tuning and first held-back cells, and two more
held-back groups were fixed before their runs: ``held-back 2`` (N in {500,
5,000}; n in {60, 120, 250}; pi in {0.15, 0.7}; effect in {+0.015, -0.04,
+0.2}; metric models ``sharp`` (0.98, 0.01) and ``coarse`` (0.5, 0.05);
``near-copies`` systems (97% shared, errors 80% shared) and ``errors-only``
ones (30%, 90%)) and ``held-back 3`` (N in {2,000, 20,000}; n in {80, 200,
400}; pi in {0.08, 0.4}; effect in {+0.025, -0.06}; metric models ``fair``
(0.85, 0.08) and ``near-perfect`` (0.99, 0.005); ``copies`` (95%, 60%) and
``mixed`` (50%, 50%) systems). Both broke the rule, so paired PPI++ always
warns.

Classical PPI (``lam=1``) covered 93.0% or more in the tuning and first
held-back cells, but 88.1% (s.e. 0.7) in one cell of the second group
(near-copies, n = 60). Its failures sit in data sets with few annotated
inputs where the metric model's difference departs from the real one
(``e``, where the rectifier ``D_R - D_O`` is nonzero, or zero, whichever is
fewer): with ``e = 0`` the rectifier's variance is 0 and the interval rests
on ``Var_N(D_O) / N`` alone. The rule "warn when ``e < 2``" was chosen on
the tuning and the first three held-back groups (its unwarned data sets'
worst cell 92.3%, s.e. 0.6, none below 93% by two s.e.), and one more group
was fixed before its run to check it: ``held-back 4`` (N in {800, 12,000};
n in {30, 100, 350}; pi in {0.03, 0.25, 0.6}; effect in {+0.01, -0.02,
+0.08}; metric models ``keen`` (0.93, 0.02) and ``dull`` (0.55, 0.12);
``twins`` systems (99% of latent draws shared, errors 70% shared) and
``loose`` ones (40%, 20%); 216 cells).

Each cell is seeded from its name and ``--seed``; finished cells are cached in
``benchmarks/results/sim_ppi_paired_r{reps}_s{seed}.json`` and a rerun skips
them. Monte-Carlo standard errors ``sqrt(c (1 - c) / reps)``.

Run: python benchmarks/sim_ppi_paired.py [--reps 2000] [--seed 0] [--check]
[--rst doc/_sim_ppi_paired.txt] (under a minute of one core)
"""

import argparse
import itertools
import json
import time
import warnings
import zlib
from pathlib import Path

import numpy as np
from scipy import stats

METRIC_MODELS = {
    "good": (0.9, 0.03),
    "weak": (0.6, 0.1),
    "noisy": (0.75, 0.2),
    "lenient": (0.95, 0.35),
    "sharp": (0.98, 0.01),
    "coarse": (0.5, 0.05),
    "fair": (0.85, 0.08),
    "near-perfect": (0.99, 0.005),
    "keen": (0.93, 0.02),
    "dull": (0.55, 0.12),
}
# name: (share of latent draws, share of the metric model's uniform draws)
SYSTEMS = {
    "independent": (0.0, 0.0),
    "correlated": (0.6, 0.0),
    "shared": (0.9, 0.5),
    "near-copies": (0.97, 0.8),
    "errors-only": (0.3, 0.9),
    "copies": (0.95, 0.6),
    "mixed": (0.5, 0.5),
    "twins": (0.99, 0.7),
    "loose": (0.4, 0.2),
}
METHODS = ("PPI", "PPI++", "PPI++ t")
THRESHOLD = 10  # paired lam="auto" warns below this many discordant pairs
MIN_ANNOTATED = 75  # ... or below this many annotated inputs
PPI_THRESHOLD = 2  # paired lam=1 warns below this many nonzero rectifiers (e)
K_CAP = 40  # counts k >= K_CAP are pooled
Z = 1.959963984540054
RESULTS = Path(__file__).parent / "results"

# the 16 joint values (R_C, R_T, O_C, O_T) of an item
VALUES = np.array(list(itertools.product((0, 1), repeat=4)), dtype=float)
R_C, R_T, O_C, O_T = VALUES.T
D_R, D_O = R_T - R_C, O_T - O_C


def cells():
    tuning = itertools.product(
        ("good", "weak"),
        ("independent", "correlated"),
        (10_000,),
        (50, 100, 200, 500),
        (0.02, 0.1, 0.3),
        (0.0, 0.01, 0.02, 0.05),
    )
    held = itertools.product(
        ("noisy", "lenient"),
        ("independent", "shared"),
        (1000, 3000),
        (40, 75, 150, 300),
        (0.05, 0.5),
        (-0.02, 0.03, 0.1),
    )
    # chosen after the first held-back group showed that the rarer class's
    # count k does not predict the failure, before any run of these cells
    held_2 = itertools.product(
        ("sharp", "coarse"),
        ("near-copies", "errors-only"),
        (500, 5000),
        (60, 120, 250),
        (0.15, 0.7),
        (0.015, -0.04, 0.2),
    )
    # chosen after the second held-back group showed failures of both PPI and
    # PPI++ where the rectifier is rarely nonzero, before any run of these
    held_3 = itertools.product(
        ("fair", "near-perfect"),
        ("copies", "mixed"),
        (2000, 20_000),
        (80, 200, 400),
        (0.08, 0.4),
        (0.025, -0.06),
    )
    # chosen after the rule "lam=1 warns when e < 2" was found on the groups
    # above, before any run of these cells
    held_4 = itertools.product(
        ("keen", "dull"),
        ("twins", "loose"),
        (800, 12_000),
        (30, 100, 350),
        (0.03, 0.25, 0.6),
        (0.01, -0.02, 0.08),
    )
    groups = (
        ("tuning", tuning),
        ("held-back", held),
        ("held-back 2", held_2),
        ("held-back 3", held_3),
        ("held-back 4", held_4),
    )
    for group, grid in groups:
        for metric, systems, n_out, n_ann, base, effect in grid:
            yield {
                "group": group,
                "metric": metric,
                "systems": systems,
                "N": n_out,
                "n": n_ann,
                "pi": base,
                "effect": effect,
            }


def key(cell):
    return "|".join(f"{k}={v}" for k, v in cell.items())


def _pair_probabilities(a, b, shared):
    """P(O_C = x, O_T = y) for x, y in {0, 1} given P(O_C = 1) = a, P(O_T = 1) =
    b: independent draws, or a shared uniform for a share ``shared``."""
    independent = np.array([(1 - a) * (1 - b), (1 - a) * b, a * (1 - b), a * b])
    common = np.array(
        [1 - max(a, b), max(b - a, 0.0), max(a - b, 0.0), min(a, b)]
    )  # O_C = v < a, O_T = v < b
    return shared * common + (1 - shared) * independent


def probabilities(cell):
    """P(item = each of the 16 values), exact from the cell's parameters."""
    sens, fpr = METRIC_MODELS[cell["metric"]]
    share, error_share = SYSTEMS[cell["systems"]]
    p_c, p_t = cell["pi"], cell["pi"] + cell["effect"]
    both = share * min(p_c, p_t) + (1 - share) * p_c * p_t  # sim_model_based._latent
    real = {(1, 1): both, (1, 0): p_c - both, (0, 1): p_t - both}
    real[0, 0] = 1 - p_c - p_t + both
    flag = (fpr, sens)  # P(O = 1 | R)
    out = np.empty(16)
    for i, (r_c, r_t) in enumerate(itertools.product((0, 1), repeat=2)):
        out[4 * i : 4 * i + 4] = real[r_c, r_t] * _pair_probabilities(
            flag[r_c], flag[r_t], error_share
        )
    return out


def paired_ppi(annotated, rest, lam):
    """Paired PPI (PPI++ for ``lam="auto"``) from counts of the 16 values.

    ``annotated`` and ``rest``: arrays (data sets, 16) of counts among the n
    annotated items and the N - n others. Returns the estimate of the effect
    ``lam mean_N(D_O) + mean_n(D_R - lam D_O)``, its variance ``lam^2
    Var_N(D_O) / N + Var_n(D_R - lam D_O) / n`` (ddof 0) and ``lam``, as
    ``_ppi_core`` computes them with one ``lam`` for the difference.
    """
    n = annotated.sum(axis=1)
    everything = annotated + rest
    n_all = everything.sum(axis=1)
    mean_r, mean_o = annotated @ D_R / n, annotated @ D_O / n
    mean_o_all = everything @ D_O / n_all
    var_o_all = everything @ D_O**2 / n_all - mean_o_all**2
    if lam == "auto":
        # _ppi_lam: Cov_n(D_R, D_O) / ((1 + n / N) Var(D_O over the n and the N))
        total = annotated @ D_O + everything @ D_O
        squares = annotated @ D_O**2 + everything @ D_O**2
        size = n + n_all
        var_pred = (squares - total**2 / size) / (size - 1)
        cov = annotated @ (D_R * D_O) / n - mean_r * mean_o
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = np.clip(cov / ((1 + n / n_all) * var_pred), 0.0, 1.0)
        lam = np.where(var_pred > 0, lam, 0.0)
    else:
        lam = np.full(n.shape, float(lam))
    rect = mean_r - lam * mean_o
    second = (
        annotated @ D_R**2
        - 2 * lam * (annotated @ (D_R * D_O))
        + lam**2 * (annotated @ D_O**2)
    ) / n
    var = np.maximum(lam**2 * var_o_all / n_all + (second - rect**2) / n, 0.0)
    return lam * mean_o_all + rect, var, lam


def rarer_count(annotated):
    """``k``: the smallest count of the rarer real class in either system's
    annotated sample (what unpaired ``lam="auto"``'s warning counts)."""
    n = annotated.sum(axis=1)
    pos_c, pos_t = annotated @ R_C, annotated @ R_T
    return np.minimum.reduce([pos_c, n - pos_c, pos_t, n - pos_t]).astype(int)


def discordant_count(annotated):
    """``d``: annotated inputs whose real labels differ between the systems
    (``R_T != R_C``), or agree, whichever is fewer."""
    n = annotated.sum(axis=1)
    differ = annotated @ (D_R != 0)
    return np.minimum(differ, n - differ).astype(int)


def rectifier_count(annotated):
    """``e``: annotated inputs where the metric model's difference is not the
    real one (``D_O != D_R``, where the rectifier is nonzero), or is, whichever
    is fewer."""
    n = annotated.sum(axis=1)
    differ = annotated @ (D_O != D_R)
    return np.minimum(differ, n - differ).astype(int)


def run_cell(cell, reps, seed):
    rng = np.random.default_rng([seed, zlib.crc32(key(cell).encode())])
    p = probabilities(cell)
    annotated = rng.multinomial(cell["n"], p, size=reps)
    rest = rng.multinomial(cell["N"] - cell["n"], p, size=reps)
    truth = cell["effect"]
    t_quantile = stats.t.ppf(0.975, cell["n"] - 1)
    est_1, var_1, _ = paired_ppi(annotated, rest, 1.0)
    est_a, var_a, lam = paired_ppi(annotated, rest, "auto")
    half = {
        "PPI": Z * np.sqrt(var_1),
        "PPI++": Z * np.sqrt(var_a),
        "PPI++ t": t_quantile * np.sqrt(var_a),
    }
    centre = {"PPI": est_1, "PPI++": est_a, "PPI++ t": est_a}
    # a relative tolerance: an interval whose end is the truth up to rounding
    covered = np.column_stack(
        [np.abs(centre[m] - truth) <= half[m] * (1 + 1e-12) for m in METHODS]
    )
    out = {"reps": reps}
    for name, count in (
        ("by_k", rarer_count(annotated)),
        ("by_d", discordant_count(annotated)),
        ("by_e", rectifier_count(annotated)),
    ):
        table = np.zeros((K_CAP + 1, 1 + len(METHODS)), dtype=int)
        where = np.minimum(count, K_CAP)
        np.add.at(table[:, 0], where, 1)
        for j in range(len(METHODS)):
            np.add.at(table[:, 1 + j], where, covered[:, j])
        out[name] = table.tolist()
    out["width"] = {m: float(np.mean(2 * half[m])) for m in METHODS}
    out["lam_zero"] = float(np.mean(lam == 0))
    return out


def check(seed, n_sets=40):
    """The fast path equals the public API on expanded data sets."""
    from sklearn_faithful.model_based import ModelBasedMetricTest

    rng = np.random.default_rng(seed)
    worst = 0.0
    for cell in itertools.islice(cells(), 0, None, 23):
        p = probabilities(cell)
        annotated = rng.multinomial(cell["n"], p, size=n_sets)
        rest = rng.multinomial(cell["N"] - cell["n"], p, size=n_sets)
        for lam in (1.0, "auto"):
            est, var, lam_fast = paired_ppi(annotated, rest, lam)
            test = ModelBasedMetricTest(None, method="ppi", paired=True, lam=lam)
            for i in range(n_sets):
                ann = np.repeat(VALUES, annotated[i], axis=0).astype(int)
                oth = np.repeat(VALUES, rest[i], axis=0).astype(int)
                every = np.vstack([ann, oth])
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    res = test.test_labels(
                        every[:, 2],
                        every[:, 3],
                        annotated_c=(ann[:, 2], ann[:, 0]),
                        annotated_t=(ann[:, 3], ann[:, 1]),
                    )
                low, high = res.confidence_interval()
                fast = (est[i] - Z * np.sqrt(var[i]), est[i] + Z * np.sqrt(var[i]))
                worst = max(
                    worst,
                    abs(res.statistic - est[i]),
                    abs(res.var_effect_model - var[i]),
                    abs(res.lam_c - lam_fast[i]),
                    abs(low - fast[0]),
                    abs(high - fast[1]),
                )
    print(f"fast path against ModelBasedMetricTest: largest difference {worst:.2e}")
    if worst > 1e-9:
        raise SystemExit("the fast path differs from the public API")


def _rate(hits, n):
    c = hits / n
    return c, np.sqrt(c * (1 - c) / n)


def _fmt(hits, n):
    if n == 0:
        return "   -      "
    c, se = _rate(hits, n)
    return f"{100 * c:5.1f} {100 * se:3.1f}"


GROUP_TITLES = {
    "tuning": "tuning cells, N = 10,000",
    "held-back": "held-back cells (fixed before any run)",
    "held-back 2": "second held-back cells (fixed before their run)",
    "held-back 3": "third held-back cells (fixed before their run)",
    "held-back 4": "fourth held-back cells (fixed before their run)",
}


def grid(results, group, threshold, lines):
    """Coverage per cell, effects side by side: PPI++ then PPI."""
    effects = sorted({c["effect"] for c in cells() if c["group"] == group})
    lines.append(
        f"{GROUP_TITLES[group]}: coverage % of the true effect and its s.e.; "
        f"PPI++ (lam='auto') | PPI (lam=1); warned: share of data sets where "
        f"lam='auto' warns (n < {MIN_ANNOTATED} or d < {threshold})"
    )
    label = "".join(f"{e:+.3f}".rjust(11) for e in effects)
    lines.append(
        f"{'metric':7} {'systems':11} {'N':>5} {'pi':>4} {'n':>3} {label}  |{label}"
        "  warned"
    )
    rows = {}
    for cell in cells():
        if cell["group"] != group:
            continue
        row = (cell["metric"], cell["systems"], cell["N"], cell["pi"], cell["n"])
        rows.setdefault(row, []).append(results[key(cell)])
    for (metric, systems, n_out, base, n_ann), ress in rows.items():
        auto, one, warned = [], [], []
        for res in ress:
            by_d = np.array(res["by_d"])
            total = by_d.sum(axis=0)
            auto.append(_fmt(total[2], total[0]))
            one.append(_fmt(total[1], total[0]))
            few = total[0] if n_ann < MIN_ANNOTATED else by_d[:threshold, 0].sum()
            warned.append(few / total[0])
        lines.append(
            f"{metric:7} {systems:11} {n_out:>5} {base:>4} {n_ann:>3} "
            + " ".join(auto)
            + "  | "
            + " ".join(one)
            + f"  {min(warned):4.2f}-{max(warned):4.2f}"
        )
    lines.append("")


def worst_cells(results, group, rule, lines, min_kept=200):
    """Worst coverage per method among data sets with count >= K (cells with
    ``min_kept`` such data sets at least), for the counts ``rule`` ("by_k" or
    "by_d"); and over all data sets, PPI++ with lam=1 where the count < K."""
    name = {"by_k": "k (rarer real class)", "by_d": "d (discordant pairs)"}[rule]
    lines.append(
        f"{group}: worst cell's coverage % (s.e.) among data sets with {name} >= K"
        f" ({min_kept}+ of them in the cell); 'fallback': PPI++ with lam=1 where"
        " the count < K, all data sets; 'warned': largest share with count < K"
    )
    columns = (*METHODS, "fallback")
    lines.append(f"{'K':>3} " + "".join(f"{m:>14}" for m in columns) + "  warned")
    for threshold in (0, 5, 10, 15, 20, 25, 30):
        worst, warned = {}, 0.0
        for cell in cells():
            if cell["group"] != group:
                continue
            table = np.array(results[key(cell)][rule])
            kept = table[threshold:].sum(axis=0)
            total = table.sum(axis=0)
            warned = max(warned, 1 - kept[0] / total[0])
            rates = {}
            if kept[0] >= min_kept:
                rates = {m: (kept[1 + j], kept[0]) for j, m in enumerate(METHODS)}
            rates["fallback"] = (table[:threshold, 1].sum() + kept[2], total[0])
            for m, (hits, n) in rates.items():
                if hits / n < worst.get(m, (2.0, 1, ""))[0]:
                    worst[m] = (hits / n, n, key(cell))
        text = "".join(
            f"{100 * c:8.1f} ({100 * np.sqrt(c * (1 - c) / n):3.1f})"
            for c, n, _ in (worst[m] for m in columns)
        )
        lines.append(f"{threshold:>3} {text}  {warned:6.2f}")
    lines.append("")


def rule_summary(results, threshold, lines, min_kept=1000):
    """Per group: the worst cell of PPI and PPI++ over all data sets, and of
    PPI++ over those where it does not warn (cells with ``min_kept`` such)."""
    lines.append(
        f"worst cell's coverage % (s.e.) per group; PPI++ unwarned: data sets "
        f"with n >= {MIN_ANNOTATED} and d >= {threshold}, cells with "
        f"{min_kept}+ of them"
    )
    for group in GROUP_TITLES:
        worst = {}
        for cell in cells():
            if cell["group"] != group:
                continue
            table = np.array(results[key(cell)]["by_d"])
            total, kept = table.sum(axis=0), table[threshold:].sum(axis=0)
            rates = {"PPI": (total[1], total[0]), "PPI++": (total[2], total[0])}
            if cell["n"] >= MIN_ANNOTATED and kept[0] >= min_kept:
                rates["PPI++ unwarned"] = (kept[2], kept[0])
            for m, (hits, n) in rates.items():
                if hits / n < worst.get(m, (2.0,))[0]:
                    worst[m] = (hits / n, n, key(cell).split("|", 1)[1])
        for m, (c, n, where) in worst.items():
            se = np.sqrt(c * (1 - c) / n)
            lines.append(f"{group:12} {m:15} {100 * c:5.1f} ({100 * se:3.1f})  {where}")
    lines.append("")


def ppi_rule_summary(results, lines, min_kept=200, min_warned=200):
    """Per group, PPI (lam=1) over all data sets, those where it does not warn
    (``e >= PPI_THRESHOLD``; cells with ``min_kept`` such) and those where it
    warns (cells with ``min_warned`` such): the worst cell's coverage % (s.e.),
    the cells below 93% by more than two s.e., and the share of data sets
    warned (median and largest over the cells)."""
    lines.append(
        f"PPI (lam=1): worst cell's coverage % (s.e.) per group; unwarned: data "
        f"sets with e >= {PPI_THRESHOLD} (cells with {min_kept}+ of them), "
        f"warned: e < {PPI_THRESHOLD} (cells with {min_warned}+); 'low': cells "
        "below 93% by more than 2 s.e."
    )
    for group in GROUP_TITLES:
        rows, shares = {"all": [], "unwarned": [], "warned": []}, []
        for cell in cells():
            if cell["group"] != group:
                continue
            table = np.array(results[key(cell)]["by_e"])
            total, kept = table.sum(axis=0), table[PPI_THRESHOLD:].sum(axis=0)
            warned = total - kept
            shares.append(warned[0] / total[0])
            where = key(cell).split("|", 1)[1]
            rows["all"].append((total[1], total[0], where))
            if kept[0] >= min_kept:
                rows["unwarned"].append((kept[1], kept[0], where))
            if warned[0] >= min_warned:
                rows["warned"].append((warned[1], warned[0], where))
        for name, found in rows.items():
            if not found:
                lines.append(f"{group:12} {name:9} (no cell)")
                continue
            rates = [(*_rate(hits, n), where) for hits, n, where in found]
            c, se, where = min(rates, key=lambda row: row[0])
            low = sum(c_ < 0.93 - 2 * se_ for c_, se_, _ in rates)
            lines.append(
                f"{group:12} {name:9} {100 * c:5.1f} ({100 * se:3.1f}) low "
                f"{low:3}/{len(rates):3}  {where}"
            )
        lines.append(
            f"{group:12} warned share: median {np.median(shares):.2f}, "
            f"largest {max(shares):.2f}"
        )
    lines.append("")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threshold", type=int, default=THRESHOLD)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--rst", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.check:
        check(args.seed)
    cache_file = RESULTS / f"sim_ppi_paired_r{args.reps}_s{args.seed}.json"
    results = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    start = time.process_time()
    todo = [c for c in cells() if key(c) not in results]
    for i, cell in enumerate(todo):
        results[key(cell)] = run_cell(cell, args.reps, args.seed)
        if (i + 1) % 16 == 0 or i + 1 == len(todo):
            cache_file.parent.mkdir(exist_ok=True)
            cache_file.write_text(json.dumps(results, separators=(",", ":")))
            print(
                f"[{i + 1}/{len(todo)}] {time.process_time() - start:.0f} s CPU",
                flush=True,
            )
    lines = [f"{args.reps} data sets per cell, seed {args.seed}", ""]
    rule_summary(results, args.threshold, lines)
    ppi_rule_summary(results, lines)
    for group in GROUP_TITLES:
        grid(results, group, args.threshold, lines)
        for rule in ("by_k", "by_d"):
            worst_cells(results, group, rule, lines)
    text = "\n".join(lines)
    print(text)
    if args.rst:
        args.rst.write_text(text)


if __name__ == "__main__":
    main()

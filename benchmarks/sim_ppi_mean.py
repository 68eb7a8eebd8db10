"""Coverage of the prediction-powered mean of one judge-scored run.

A run's ``N`` items have real scores ``R`` (0/1 right or wrong with base rate
``pi``, or a 1-10 rating); a judge scores all of them (``O``) and people a
random ``n`` of them. :func:`~sklearn_faithful.eval_logs.prediction_powered_mean`
gives a 95% interval of the run's mean; it covers when it holds the
population mean (``pi``, or the rating's mean). Both ``lam=1`` (classical
PPI, the default) and ``lam="auto"`` (PPI++) are measured, with the people's
mean alone (``lam=0``) beside them.

Judges of 0/1 scores: ``good`` (sensitivity 0.9, false positive rate 0.05),
``weak`` (0.7, 0.2); held back, ``lenient`` (0.95, 0.35). Ratings: the real
rating is ``clip(round(N(6, 2)), 1, 10)``; the ``good`` judge adds N(0.5, 1)
noise and rounds, the ``weak`` one N(1, 2.5); held back, a ``compressed``
judge that maps every rating to ``5 + (R - 5) / 3``.

Tuning cells: N = 5,000, n in {10, 20, 40, 100, 300}, pi in {0.1, 0.5, 0.9}.
Held-back cells (chosen before any run, reported apart): N = 1,000, n in
{15, 60, 200}, pi in {0.05, 0.7}, the held-back judges.

Each cell is seeded from its name and ``--seed`` (default 20261126); finished
cells are cached in ``benchmarks/results/sim_ppi_mean_r{reps}_s{seed}.json``
and a rerun resumes. Monte-Carlo s.e. ``sqrt(c (1 - c) / reps)``.

Run: python benchmarks/sim_ppi_mean.py [--reps 2000] [--rst doc/_sim_ppi_mean.txt]
"""

import argparse
import json
import warnings
import zlib
from pathlib import Path

import numpy as np

from sklearn_faithful.eval_logs import prediction_powered_mean

JUDGES_01 = {"good": (0.9, 0.05), "weak": (0.7, 0.2), "lenient": (0.95, 0.35)}
RATING_JUDGES = {"good": (0.5, 1.0), "weak": (1.0, 2.5), "compressed": None}
LAMS = {"PPI (lam=1)": 1.0, "PPI++ (auto)": "auto", "people only": 0.0}
RESULTS = Path(__file__).parent / "results"


def _cells():
    for held, n_all, sizes, rates, judges in (
        (False, 5000, (10, 20, 40, 100, 300), (0.1, 0.5, 0.9), ("good", "weak")),
        (True, 1000, (15, 60, 200), (0.05, 0.7), ("lenient",)),
    ):
        for judge in judges:
            for pi in rates:
                for n in sizes:
                    yield dict(kind="0/1", judge=judge, pi=pi, N=n_all, n=n, held=held)
        rating_judges = ("compressed",) if held else ("good", "weak")
        for judge in rating_judges:
            for n in sizes:
                yield dict(kind="rating", judge=judge, pi=None, N=n_all, n=n, held=held)


def _name(cell):
    return f"{cell['kind']} {cell['judge']} pi={cell['pi']} N={cell['N']} n={cell['n']}"


_RATING_MEAN = None


def _rating_mean():
    """The real rating's population mean, from 10^7 draws (seed 0)."""
    global _RATING_MEAN
    if _RATING_MEAN is None:
        r = np.clip(np.round(np.random.default_rng(0).normal(6, 2, 10**7)), 1, 10)
        _RATING_MEAN = float(r.mean())
    return _RATING_MEAN


def _draw(cell, rng):
    n_all = cell["N"]
    if cell["kind"] == "0/1":
        real = (rng.random(n_all) < cell["pi"]).astype(float)
        sens, fpr = JUDGES_01[cell["judge"]]
        judge = np.where(real == 1, rng.random(n_all) < sens, rng.random(n_all) < fpr)
        return real, judge.astype(float), cell["pi"]
    real = np.clip(np.round(rng.normal(6, 2, n_all)), 1, 10)
    if cell["judge"] == "compressed":
        judge = 5 + (real - 5) / 3
    else:
        bias, sd = RATING_JUDGES[cell["judge"]]
        judge = np.clip(np.round(real + rng.normal(bias, sd, n_all)), 1, 10)
    return real, judge, _rating_mean()


def run_cell(cell, reps, seed):
    rng = np.random.default_rng([seed, zlib.crc32(_name(cell).encode())])
    covered = dict.fromkeys(LAMS, 0)
    width = dict.fromkeys(LAMS, 0.0)
    for _ in range(reps):
        real, judge, truth = _draw(cell, rng)
        human = np.full(cell["N"], np.nan)
        labelled = rng.choice(cell["N"], cell["n"], replace=False)
        human[labelled] = real[labelled]
        for label, lam in LAMS.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = prediction_powered_mean(judge, human, lam=lam)
            low, high = res.confidence_interval
            covered[label] += low <= truth <= high
            width[label] += (high - low) / reps
    return {k: covered[k] / reps for k in LAMS}, width


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--rst", type=Path, default=None)
    args = parser.parse_args()
    cache_path = RESULTS / f"sim_ppi_mean_r{args.reps}_s{args.seed}.json"
    cache = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    rows = []
    for cell in _cells():
        name = _name(cell)
        if name not in cache:
            coverage, width = run_cell(cell, args.reps, args.seed)
            cache[name] = {"coverage": coverage, "width": width}
            cache_path.write_text(json.dumps(cache, indent=1))
        rows.append((cell, cache[name]))
    se = lambda c: np.sqrt(c * (1 - c) / args.reps)  # noqa: E731
    print(
        f"coverage of 95% intervals, {args.reps} data sets per cell (seed {args.seed})"
    )
    header = f"{'cell':<40}{'held':>5}" + "".join(f"{k:>22}" for k in LAMS)
    print(header)
    for cell, res in rows:
        cov = "".join(
            f"{res['coverage'][k]:>10.3f} ({se(res['coverage'][k]):.3f})"
            f" w{res['width'][k]:.3f}"
            for k in LAMS
        )
        print(f"{_name(cell):<40}{'yes' if cell['held'] else '':>5}{cov}")
    if args.rst:
        _write_rst(args, rows, se)


def _write_rst(args, rows, se):
    lines = [
        ".. list-table::",
        "   :header-rows: 1",
        "",
        "   * - scores, judge",
        "     - n labelled",
        "     - PPI (lam=1)",
        "     - PPI++ (auto)",
        "     - people only",
    ]
    groups = {}
    for cell, res in rows:
        key = (cell["held"], cell["kind"], cell["judge"], cell["n"])
        groups.setdefault(key, []).append(res["coverage"])
    for (held, kind, judge, n), covs in groups.items():
        label = f"{kind}, {judge}" + (" (held back)" if held else "")
        cells = []
        for k in LAMS:
            values = [c[k] for c in covs]
            lo, hi = min(values), max(values)
            cells.append(f"{lo:.1%}" if lo == hi else f"{lo:.1%}-{hi:.1%}")
        lines += [f"   * - {label}", f"     - {n}"] + [f"     - {c}" for c in cells]
    lines.append("")
    args.rst.write_text("\n".join(lines))


if __name__ == "__main__":
    main()

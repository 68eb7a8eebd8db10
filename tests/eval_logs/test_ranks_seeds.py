"""Pinned results of rank_intervals and suite_scores for fixed seeds.

The values were computed by the code before the speed-up of issue 40 (one
matrix product per block of resamples): the same seed must keep giving the
same rank sets, intervals and p-values, and the same standard errors up to
rounding, for 0/1 and continuous scores, with and without clusters.
"""

import numpy as np
import pytest

from sklearn_faithful.eval_logs import rank_intervals, suite_scores
from sklearn_faithful.eval_logs._compare import _centred
from sklearn_faithful.eval_logs._ranks import _rank_bootstrap


def _data(seed, n, k, kind):
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.0, 1.0, k)
    hard = rng.normal(size=(n, 1))
    if kind == "binary":
        x = (rng.random((n, k)) < 1 / (1 + np.exp(-(skill + hard)))).astype(int)
    else:
        x = np.round(skill + hard + 3 * rng.normal(size=(n, k)), 3)
    return {f"r{j}": x[:, j] for j in range(k)}


def _sets(rows):
    return [
        (r["rank"], r["low"], r["high"], r["simultaneous_low"], r["simultaneous_high"])
        for r in rows
    ]


_PINNED = {
    ("binary", False, 400, 6): dict(
        ranks=[
            (6, 5, 6, 5, 6),
            (5, 5, 6, 4, 6),
            (4, 3, 4, 2, 5),
            (3, 2, 4, 2, 4),
            (2, 1, 4, 1, 4),
            (1, 1, 2, 1, 2),
        ],
        suite_ranks=[
            (6, 5, 6, 4, 6),
            (5, 5, 6, 4, 6),
            (4, 2, 5, 2, 6),
            (3, 2, 4, 2, 4),
            (2, 1, 4, 1, 4),
            (1, 1, 2, 1, 2),
        ],
        suite_runs=[
            (0.4275, 0.525, 0.025254906639577347),
            (0.4525, 0.5475000000000001, 0.024236312505669756),
            (0.5275, 0.621375, 0.02414578742034498),
        ],
        suite_pairs=[
            (-0.04000000000000001, 0.08249999999999999, 0.564),
            (0.038625000000000013, 0.16887500000000008, 0.014),
            (0.06999999999999995, 0.1975, 0.002),
        ],
        se=[0.01676305461424021, 0.016973784934421667, 0.016452583383772895],
        boot_se=[0.01599206346129229, 0.015467203205492578, 0.016566155257029314],
    ),
    ("binary", False, 3000, 12): dict(
        ranks=[
            (12, 11, 12, 10, 12),
            (11, 10, 12, 10, 12),
            (10, 9, 11, 8, 12),
            (9, 8, 10, 8, 10),
            (8, 7, 9, 6, 10),
            (6, 6, 7, 5, 8),
            (7, 6, 8, 6, 8),
            (4, 2, 5, 2, 5),
            (5, 3, 5, 2, 6),
            (3, 2, 5, 2, 5),
            (2, 2, 4, 1, 5),
            (1, 1, 1, 1, 2),
        ],
        suite_ranks=[
            (12, 11, 12, 10, 12),
            (11, 10, 12, 10, 12),
            (10, 9, 11, 8, 12),
            (9, 8, 10, 8, 10),
            (8, 7, 9, 6, 10),
            (6, 6, 7, 5, 8),
            (7, 6, 8, 6, 8),
            (4, 2, 5, 2, 5),
            (5, 3, 5, 2, 6),
            (3, 2, 5, 2, 5),
            (2, 2, 4, 1, 5),
            (1, 1, 1, 1, 2),
        ],
        suite_runs=[
            (0.48911666666666676, 0.5246666666666666, 0.00927882859395865),
            (0.49015, 0.52685, 0.009525313629780182),
            (0.5219666666666667, 0.5563333333333333, 0.009305594962744771),
        ],
        suite_pairs=[
            (-0.01951666666666668, 0.024183333333333338, 0.936),
            (0.009000000000000008, 0.05551666666666669, 0.012),
            (0.018966666666666663, 0.0653666666666667, 0.002),
        ],
        se=[0.005816630054007662, 0.005990714265211382, 0.005989465288691824],
        boot_se=[0.0059194093799472425, 0.006014426329590716, 0.005996217943806714],
    ),
    ("binary", True, 400, 6): dict(
        ranks=[
            (6, 5, 6, 5, 6),
            (5, 5, 6, 4, 6),
            (4, 3, 4, 3, 5),
            (3, 2, 4, 2, 4),
            (2, 1, 3, 1, 3),
            (1, 1, 2, 1, 2),
        ],
        suite_ranks=[
            (6, 5, 6, 4, 6),
            (5, 4, 6, 4, 6),
            (4, 2, 5, 2, 6),
            (3, 2, 4, 2, 4),
            (2, 1, 4, 1, 4),
            (1, 1, 2, 1, 2),
        ],
        suite_runs=[
            (0.42892554037822006, 0.5292165717887807, 0.0258991773765068),
            (0.4500946687928624, 0.5520899886286547, 0.026124429473422146),
            (0.5280056200862955, 0.6245629424809909, 0.025785866073601827),
        ],
        suite_pairs=[
            (-0.045710928406194354, 0.08921443182131143, 0.566),
            (0.02756990355156604, 0.1681802806867191, 0.012),
            (0.06935287119154071, 0.19673866531206186, 0.002),
        ],
        se=[0.017284386017443604, 0.01676818043199679, 0.017508926294893132],
        boot_se=[0.015370426148939399, 0.011751828315202703, 0.01442653804625351],
    ),
    ("binary", True, 3000, 12): dict(
        ranks=[
            (12, 11, 12, 10, 12),
            (11, 10, 12, 10, 12),
            (10, 9, 11, 8, 12),
            (9, 8, 10, 8, 10),
            (8, 7, 9, 6, 10),
            (6, 6, 7, 5, 8),
            (7, 6, 8, 5, 8),
            (4, 2, 5, 2, 5),
            (5, 3, 5, 2, 7),
            (3, 2, 5, 2, 5),
            (2, 2, 4, 1, 5),
            (1, 1, 1, 1, 2),
        ],
        suite_ranks=[
            (12, 10, 12, 10, 12),
            (11, 11, 12, 10, 12),
            (10, 9, 12, 8, 12),
            (9, 8, 10, 8, 10),
            (8, 7, 9, 6, 10),
            (6, 6, 7, 5, 8),
            (7, 6, 8, 5, 8),
            (4, 2, 5, 2, 5),
            (5, 3, 5, 2, 7),
            (3, 2, 5, 2, 5),
            (2, 1, 4, 1, 5),
            (1, 1, 1, 1, 2),
        ],
        suite_runs=[
            (0.4881955805343122, 0.5265105709942839, 0.009971642235310099),
            (0.4925906401564768, 0.5256122173168754, 0.008820849554162194),
            (0.521595795508839, 0.5550057254280545, 0.008607908453288118),
        ],
        suite_pairs=[
            (-0.023146937338076223, 0.025578354575295364, 0.91),
            (0.007657521299892877, 0.05642172197312377, 0.024),
            (0.01797172755910408, 0.06631553316040038, 0.004),
        ],
        se=[0.006032258958976163, 0.006004531467828957, 0.0061175181060441315],
        boot_se=[0.006089574424101132, 0.005688580992101958, 0.005675662793731508],
    ),
    ("continuous", False, 400, 6): dict(
        ranks=[
            (6, 2, 6, 2, 6),
            (5, 2, 6, 2, 6),
            (4, 2, 6, 2, 6),
            (3, 1, 6, 1, 6),
            (2, 1, 6, 1, 6),
            (1, 1, 3, 1, 3),
        ],
        suite_ranks=[
            (6, 3, 6, 2, 6),
            (5, 2, 6, 2, 6),
            (4, 2, 6, 2, 6),
            (3, 1, 6, 1, 6),
            (2, 1, 6, 1, 6),
            (1, 1, 2, 1, 3),
        ],
        suite_runs=[
            (-0.20447774999999985, 0.392046, 0.15312276423968182),
            (-0.23995562500000006, 0.42727525, 0.1665934333749134),
            (-0.08758712500000004, 0.5706463749999999, 0.16578092241832507),
        ],
        suite_pairs=[
            (-0.40543575000000004, 0.46851950000000003, 0.834),
            (-0.23100574999999998, 0.5680373750000001, 0.456),
            (0.04395312499999999, 0.852889625, 0.022),
        ],
        se=[0.013813985360073331, 0.013617893894077438, 0.013140734287511875],
        boot_se=[0.013655393372229508, 0.01201137840447703, 0.01254121839195944],
    ),
    ("continuous", False, 3000, 12): dict(
        ranks=[
            (12, 11, 12, 10, 12),
            (11, 10, 12, 10, 12),
            (10, 9, 11, 8, 12),
            (9, 7, 10, 6, 10),
            (8, 5, 9, 5, 10),
            (7, 5, 9, 4, 9),
            (5, 3, 8, 3, 8),
            (6, 3, 8, 3, 9),
            (4, 3, 7, 2, 7),
            (3, 2, 4, 1, 6),
            (2, 1, 3, 1, 4),
            (1, 1, 2, 1, 3),
        ],
        suite_ranks=[
            (12, 11, 12, 10, 12),
            (11, 10, 12, 10, 12),
            (10, 9, 12, 8, 12),
            (9, 7, 10, 6, 10),
            (8, 5, 9, 5, 10),
            (7, 4, 9, 4, 9),
            (5, 3, 8, 3, 8),
            (6, 4, 8, 3, 9),
            (4, 3, 6, 2, 7),
            (3, 2, 4, 1, 6),
            (2, 1, 3, 1, 4),
            (1, 1, 2, 1, 3),
        ],
        suite_runs=[
            (-0.15177581666666667, 0.07648515, 0.05755683446253102),
            (-0.06661153333333342, 0.14560574999999998, 0.055980899818848746),
            (0.049065550000000124, 0.26667228333333337, 0.05559318104477719),
        ],
        suite_pairs=[
            (-0.06395316666666653, 0.2394341833333333, 0.326),
            (0.03625686666666672, 0.34010986666666676, 0.014),
            (0.18212266666666668, 0.4808130000000001, 0.002),
        ],
        se=[0.0048502820153968175, 0.0047622871431927125, 0.0047649275200962165],
        boot_se=[0.004733230956892357, 0.004746682639664904, 0.004722999810738873],
    ),
    ("continuous", True, 400, 6): dict(
        ranks=[
            (6, 4, 6, 2, 6),
            (5, 2, 6, 2, 6),
            (4, 2, 6, 2, 6),
            (3, 2, 5, 1, 6),
            (2, 1, 5, 1, 6),
            (1, 1, 1, 1, 3),
        ],
        suite_ranks=[
            (6, 3, 6, 2, 6),
            (5, 2, 6, 2, 6),
            (4, 2, 6, 2, 6),
            (3, 1, 6, 1, 6),
            (2, 1, 6, 1, 6),
            (1, 1, 3, 1, 3),
        ],
        suite_runs=[
            (-0.20595767825630068, 0.3769541381229555, 0.15489370226941818),
            (-0.18534586506139722, 0.5141210135941356, 0.1814799316557358),
            (-0.09111960993105633, 0.6385833158292359, 0.18107787195166464),
        ],
        suite_pairs=[
            (-0.3552190270739063, 0.4949636586025788, 0.846),
            (-0.24391711997988225, 0.5875270635338004, 0.508),
            (0.02843278267957887, 0.8414195198715436, 0.032),
        ],
        se=[0.01349563997789975, 0.011733522842518287, 0.011250465252478086],
        boot_se=[0.01470532897730651, 0.014149726015394435, 0.01441693689480227],
    ),
    ("continuous", True, 3000, 12): dict(
        ranks=[
            (12, 11, 12, 10, 12),
            (11, 10, 12, 9, 12),
            (10, 9, 11, 8, 12),
            (9, 7, 10, 6, 11),
            (8, 5, 9, 5, 10),
            (7, 5, 9, 4, 9),
            (5, 3, 8, 3, 8),
            (6, 4, 8, 3, 9),
            (4, 3, 6, 2, 7),
            (3, 1, 5, 1, 6),
            (2, 1, 3, 1, 4),
            (1, 1, 2, 1, 3),
        ],
        suite_ranks=[
            (12, 11, 12, 10, 12),
            (11, 10, 12, 10, 12),
            (10, 9, 11, 8, 12),
            (9, 7, 10, 6, 10),
            (8, 5, 9, 5, 10),
            (7, 4, 9, 4, 9),
            (5, 3, 8, 3, 8),
            (6, 4, 8, 3, 9),
            (4, 3, 6, 2, 7),
            (3, 2, 4, 1, 6),
            (2, 1, 3, 1, 4),
            (1, 1, 2, 1, 3),
        ],
        suite_runs=[
            (-0.1355763440644206, 0.07793138906860603, 0.05676920357423001),
            (-0.08435923564807929, 0.14912628420347201, 0.05718716282231616),
            (0.06539662819658226, 0.2738368582178888, 0.05519185467174985),
        ],
        suite_pairs=[
            (-0.06319553268695606, 0.22091328614978673, 0.288),
            (0.06397764619512271, 0.3352781759218853, 0.004),
            (0.18390540293040286, 0.48252054840296876, 0.002),
        ],
        se=[0.004718430263299157, 0.004591532170321039, 0.004597577666327539],
        boot_se=[0.004604625633827557, 0.00470041444750216, 0.004750260820163503],
    ),
}


@pytest.mark.parametrize("case", list(_PINNED), ids=lambda c: "-".join(map(str, c)))
def test_results_are_those_of_the_seed(case):
    kind, clustered, n, k = case
    pinned = _PINNED[case]
    runs = _data(1, n, k, kind)
    groups = np.arange(n) // 5 if clustered else None
    res = rank_intervals(runs, groups=groups, n_resamples=499, random_state=7)
    assert _sets(res.ranks) == pinned["ranks"]
    suite = suite_scores(
        runs,
        tasks=np.arange(n) % 4,
        groups=groups,
        n_resamples=499,
        random_state=7,
        weighting="task" if n == 400 else "item",
    )
    assert _sets(suite.ranks) == pinned["suite_ranks"]
    runs_rows = [(r["low"], r["high"], r["standard_error"]) for r in suite.runs[:3]]
    np.testing.assert_allclose(runs_rows, pinned["suite_runs"], rtol=1e-12, atol=1e-15)
    pair_rows = [(p["low"], p["high"], p["pvalue"]) for p in suite.pairs[:3]]
    np.testing.assert_allclose(pair_rows, pinned["suite_pairs"], rtol=1e-12, atol=1e-15)
    # the standard errors of the data and of each resample (the bootstrap-t)
    _, _, scores = _centred(np.column_stack(list(runs.values())))
    checked = None if groups is None else (groups, n // 5)
    _, _, se, boot_se = _rank_bootstrap(scores, checked, 7, 99)
    assert se[0, 1:4].tolist() == pytest.approx(pinned["se"], rel=1e-10)
    assert boot_se(1)[:3, 2].tolist() == pytest.approx(pinned["boot_se"], rel=1e-10)


@pytest.mark.parametrize("weighting", ["task", "item"])
def test_exact_integer_sums_give_the_suite_standard_errors(weighting):
    # 0/1 scores are summed in float32 exactly, from the raw sums (no shift
    # by the task means): the within-task standard errors are those of a
    # loop over the drawn units
    from sklearn_faithful.eval_logs._suites import (
        _suite_of,
        _suite_pair_se,
        _task_resamplers,
    )

    from .test_suites import _hand_pair_se

    rng = np.random.default_rng(2)
    codes = np.repeat([0, 1], [9, 12])
    groups = np.array(
        [0, 0, 0, 1, 2, 2, 3, 3, 3] + [0, 1, 1, 1, 2, 2, 3, 4, 4] + [5] * 3
    )
    scores = (rng.random((21, 3)) < 0.5).astype(float)
    resamplers = _task_resamplers(scores, codes, np.array(["x", "y"]), groups)
    assert resamplers[0].features[0].dtype == np.float32
    picks = [[0, 0, 2, 3], [1, 1, 1, 2, 4, 5]]
    features = np.stack(
        [
            np.bincount(p, minlength=r.n_units) @ r.features[0]
            for p, r in zip(picks, resamplers, strict=True)
        ]
    )[None]
    suite = _suite_of(features[..., :4], weighting)
    task_means = np.stack([scores[codes == t].mean(axis=0) for t in (0, 1)])
    se = _suite_pair_se(features, suite, task_means, resamplers, weighting)
    _, hand_se = _hand_pair_se(scores, codes, groups, picks, weighting)
    assert se[0] == pytest.approx(hand_se, abs=1e-12)

"""Evaluation logs: is run B better than run A on the same items?

Per-item scores of evaluation runs (a harness's records: an id, a score,
perhaps a cluster and repeated samples) joined by id, each run's mean with
its interval, the paired tests of every pair with Holm or Benjamini-Hochberg
adjustment, the runs tied with the best, each run's rank with its marginal
and simultaneous confidence sets, the scores of runs on a suite of tasks
(each task or each item equal), and the prediction-powered mean of a run
scored by a judge model.
"""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_compare": ["RunComparisonResult", "compare_runs"],
        "_join": ["RunTable", "join_runs"],
        "_judge": ["PredictionPoweredMeanResult", "prediction_powered_mean"],
        "_ranks": ["RankIntervalsResult", "rank_intervals"],
        "_suites": ["SuiteScoresResult", "suite_scores"],
    },
)

"""The holdout room's option lists, light enough for the command line.

No numpy, scipy or scikit-learn here: ``sklearn-faithful --help`` reads these
lists without importing them. The room's functions validate against the same
tuples, so each rule has one home.
"""

# metric names the resampling functions take for ``metric=``: metrics of label
# predictions, then the confidence metrics, which take probabilities
LABEL_METRIC_NAMES = (
    "accuracy",
    "precision",
    "recall",
    "f1",
    "balanced_accuracy",
    "jaccard",
    "matthews_corrcoef",
    "cohen_kappa",
)
CONFIDENCE_METRIC_NAMES = ("cprecision", "crecall", "cf1")
METRIC_NAMES = LABEL_METRIC_NAMES + CONFIDENCE_METRIC_NAMES
# the metrics that average over classes (average=, pos_label=, and the
# _micro, _macro, _weighted suffixes of their names)
AVERAGED_METRIC_NAMES = (
    "precision",
    "recall",
    "f1",
    "jaccard",
    *CONFIDENCE_METRIC_NAMES,
)

# ``method`` of bootstrap_confidence_interval (and of the table entry): the
# bootstrap's intervals
INTERVAL_METHODS = ("percentile", "basic", "bca")
# ... and, for a mean of item scores with ``groups``, the delete-one-cluster
# jackknife with Student's t on Bell-McCaffrey degrees of freedom
CLUSTER_MEAN_METHODS = ("jackknife-bm",)

"""The eval_logs room's option lists, light enough for the command line.

No numpy, scipy or scikit-learn here: ``sklearn-faithful --help`` reads these
lists without importing them. The room's functions validate against the same
tuples, so each rule has one home.
"""

# ``on_missing`` of join_runs: an id some run lacks stops the join, or is dropped
ON_MISSING = ("error", "drop")

# ``on_duplicate`` of join_runs: several records of one id in one run stop the
# join, or are the item's repeated samples (epochs, seeds), averaged within it
ON_DUPLICATE = ("error", "repeats")

# ``method`` of compare_runs: the paired test of each pair of runs
METHODS = ("permutation", "bootstrap", "sign")

# ``correction`` of compare_runs: Holm's step-down (family-wise error) or
# Benjamini-Hochberg's step-up (false discovery rate); None leaves p alone
CORRECTIONS = ("holm", "bh")

# ``interval`` of compare_runs: each run's mean's interval, the jackknife
# standard error with Student's t on Bell-McCaffrey degrees of freedom (the
# default) or on G - 1, or the bootstrap's BCa or percentile interval
INTERVALS = ("jackknife-bm", "jackknife-t", "bca", "percentile")

# ``kind`` of RunComparisonResult.plot: each run's mean, or each pair's difference
PLOT_KINDS = ("runs", "pairs")

# ``weighting`` of suite_scores: the mean over tasks (each task equal) or over
# items (each item equal, so large tasks weigh more)
SUITE_WEIGHTINGS = ("task", "item")

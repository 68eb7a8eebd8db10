"""The comparison room's option lists, light enough for the command line.

No numpy, scipy or scikit-learn here: ``sklearn-faithful --help`` reads these
lists without importing them. The room's functions validate against the same
tuples, so each rule has one home.
"""

# the metrics of the Bayes tests, their posteriors and BayesModelComparison
METRICS = ("precision", "recall", "f1")

# ``average`` of the Bayes tests over per-class counts
AVERAGES = ("binary", "micro", "macro")

# named correlation factors of the effective counts (Wang & Li 2019, eq. 16)
CORRELATIONS = ("wang2019", "wang2015", "independent")

# the correlation of the unpaired test (bayes_test, BayesModelComparison with
# paired=False, bayes-test --unpaired) when none is given: the paper's
DEFAULT_CORRELATION = "wang2015"

# a rope of the Bayes tests lies in [0, PROPORTION_ROPE_LIMIT): precision,
# recall and F1 are proportions, so |nu_B - nu_A| <= 1 and a rope of 1 or more
# calls every pair "equivalent" whatever the data
PROPORTION_ROPE_LIMIT = 1.0

# m of ModelComparison's default m x 2 BCV
DEFAULT_REPETITIONS = 5

# m of BayesModelComparison's default m x 2 BCV for the crossed variance
# (benchmarks/sim_paired_power.py --sweep); "splits" and "design" keep the
# paper's 3x2, where "splits" held (on a 5 x 2 BCV its false claims reached
# 7.3%)
CROSSED_REPETITIONS = 10

# where the paired test's scale comes from (PairedBayesTestResult.variance)
VARIANCES = ("crossed", "design", "splits")

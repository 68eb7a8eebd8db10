"""The measured rates the package prints, each in one place.

A rate that the README, the user guide, a docstring, a warning, the demo or
the command line's help states is measured by a script of ``benchmarks/``
with a seed; it is written here once, and the code that prints it formats
it from here. ``tests/test_measured_rates.py`` finds every sentence of the
README, the docs and the package's text that states one of these claims (by
each rate's ``phrases``) and fails when its number is not this one, so that
two numbers cannot be printed for the same claim.
"""

from typing import NamedTuple


class Rate(NamedTuple):
    """A measured rate: ``value`` as printed (``"6.2%"``), its Monte-Carlo
    standard error (``se``, as printed, or None), what it measures, the
    script and seed that measured it, and the regular expressions of the
    sentences that state it (each captures the number in its first group)."""

    value: str
    se: str | None
    what: str
    script: str
    seed: int
    phrases: tuple


# BayesModelComparison's default, the paired test with the crossed variance on
# a 10 x 2 BCV: its worst false "B better" rate over the 27 null settings of
# the sweep, 13 of them held back from the choice of the rule
CROSSED_FALSE_CLAIMS = Rate(
    "6.2%",
    "0.8",
    'false "B better" claims at 0.95 of BayesModelComparison\'s default '
    "(variance='crossed', 10 x 2 BCV), worst of 27 null settings",
    "benchmarks/sim_paired_power.py",
    20261126,
    (
        r"(?:at or below|at most) (\d+(?:\.\d+)?%)(?: \(s\.e\. [\d.]+\))?,? in 27 "
        r"null settings",
        r"variance='crossed' on a 10 x 2 BCV held at most (\d+(?:\.\d+)?%)",
        r"crossed between the partitions of a 10 x 2 BCV; its false claims of "
        r"'B better' stayed at or below (\d+(?:\.\d+)?%)",
    ),
)

# ... and its power in the audit's setting (logistic regression with and
# without an informative feature, n = 600, F1 gain 0.05)
CROSSED_POWER = Rate(
    "73%",
    "1.4",
    "share of data sets where BayesModelComparison's default claims a true F1 "
    "gain of 0.05 (the audit's setting)",
    "benchmarks/sim_paired_power.py",
    20261126,
    (
        r"found the gain in (\d+%) of data sets \(s\.e\.",
        r"found a true F1 gain of 0\.05 in (\d+%) of data sets where the "
        r"split-based",
        r"10 x 2 BCV found the gain in (\d+%) of data sets",
    ),
)

# paired_bayes_test, the split-based paired test on the 3x2 BCV: its worst
# false "B better" rate over every null setting of sim_paired_bayes.py
SPLITS_FALSE_CLAIMS = Rate(
    "6.5%",
    None,
    'false "B better" claims at 0.95 of paired_bayes_test on the 3x2 BCV, '
    "worst of every null setting",
    "benchmarks/sim_paired_bayes.py",
    20250612,
    (
        r"the paired test kept its false claims at or below\s+(\d+(?:\.\d+)?%) in "
        r"every null setting",
        r"its false claims of \"B better\" at 0\.95 stayed at or below\s+"
        r"(\d+(?:\.\d+)?%) in every null setting",
    ),
)

# the paper's unpaired test with its correlation 'wang2019': its worst false
# "B better" rate in the same nulls
PAPER_FALSE_CLAIMS = Rate(
    "8.5%",
    None,
    'false "B better" claims at 0.95 of the paper\'s test (paired=False, '
    "correlation='wang2019'), worst of every null setting",
    "benchmarks/sim_paired_bayes.py",
    20250612,
    (
        r"claims falsely in up to (\d+(?:\.\d+)?%)",
        r"against up to (\d+(?:\.\d+)?%) for the paper's",
        r"\(the paper's test: (\d+(?:\.\d+)?%)\)",
    ),
)

# compare_runs' default interval of a run's mean (interval="jackknife-bm"):
# its lowest coverage at 0.95 over the 80 tuning settings of clustered means
JACKKNIFE_BM_COVERAGE = Rate(
    "93.0%",
    "0.8",
    "lowest coverage of compare_runs' default 95% interval of a run's mean "
    "(jackknife-bm) over the 80 tuning settings of clustered means",
    "benchmarks/sim_cluster_means.py",
    20261201,
    (r"at least (\d+(?:\.\d+)?%)(?: coverage)? in every tuning setting",),
)

# ... the former default, interval="jackknife-t", in the same settings: its
# lowest (8 Pareto-size clusters of 0/1 scores at intra-cluster correlation 0.5)
JACKKNIFE_T_CLUSTERED_COVERAGE = Rate(
    "81.9%",
    "1.2",
    "lowest coverage of compare_runs' 95% jackknife-t interval over the 80 "
    "tuning settings of clustered means",
    "benchmarks/sim_cluster_means.py",
    20261201,
    (
        r"jackknife-t interval fell to (\d+(?:\.\d+)?%)",
        r"one argument away, fell to (\d+(?:\.\d+)?%)",
        r"correlation 0\.5 it covered (\d+(?:\.\d+)?%)",
    ),
)

# ... and the default's lowest coverage with rare events (held-back settings
# of base rate 0.05 or 0.95), where no candidate held
JACKKNIFE_BM_RARE_COVERAGE = Rate(
    "84.4%",
    "1.1",
    "lowest coverage of compare_runs' default 95% interval in the held-back "
    "settings of base rate 0.05 or 0.95",
    "benchmarks/sim_cluster_means.py",
    20261201,
    (
        r"as little as (\d+(?:\.\d+)?%) with rare events",
        r"with rare events: at base rates 0\.05 and 0\.95 the default covered as "
        r"little as (\d+(?:\.\d+)?%)",
    ),
)

# paired PPI++ (ModelBasedMetricTest(paired=True, lam="auto")): its lowest
# coverage of a real effect over the tuning and held-back cells
PAIRED_PPI_AUTO_COVERAGE = Rate(
    "26.2%",
    "1.0",
    "lowest coverage at 0.95 of paired PPI++'s interval of a real effect "
    "(the fourth held-back group; 61.9% in the first three)",
    "benchmarks/sim_ppi_paired.py",
    0,
    (
        r"PPI\+\+(?:'s interval)? covered as few as (\d+(?:\.\d+)?%)",
        r"covered a real effect in as few as (\d+(?:\.\d+)?%)",
    ),
)

# ... and of paired classical PPI (lam=1, the default), over all data sets:
# the fourth held-back group (near-identical systems, 30 annotated inputs)
PAIRED_PPI_COVERAGE = Rate(
    "55.8%",
    "1.1",
    "lowest coverage at 0.95 of paired PPI's (lam=1) interval of a real effect, "
    "over all data sets of a cell",
    "benchmarks/sim_ppi_paired.py",
    0,
    (
        r"paired PPI \(lam=1\) covered as few as (\d+(?:\.\d+)?%)",
        r"lam=1's worst cell was (\d+(?:\.\d+)?%)",
    ),
)

# ... paired lam=1 where it warns: data sets with fewer than 2 annotated inputs
# on which O_T - O_C departs from R_T - R_C (or all but fewer than 2) ...
PAIRED_PPI_FEW_RECTIFIED_COVERAGE = Rate(
    "50.6%",
    "1.2",
    "lowest coverage at 0.95 of paired PPI's (lam=1) interval of a real effect "
    "among the data sets of a cell where it warns (e < 2)",
    "benchmarks/sim_ppi_paired.py",
    0,
    (r"with e < 2 covered as little as (\d+(?:\.\d+)?%)",),
)

# ... and where it does not warn (e >= 2), over all five groups
PAIRED_PPI_UNWARNED_COVERAGE = Rate(
    "92.3%",
    "0.6",
    "lowest coverage at 0.95 of paired PPI's (lam=1) interval of a real effect "
    "among the data sets of a cell where it does not warn (e >= 2)",
    "benchmarks/sim_ppi_paired.py",
    0,
    (
        r"with e >= 2 covered (\d+(?:\.\d+)?%)(?: \(s\.e\. [\d.]+\))? or more",
        r"which covered (\d+(?:\.\d+)?%) or more wherever it does not warn",
    ),
)

# the unpaired regression gate (AccuracyRegressionTest(paired=False)) on 0/1
# scores of two independent runs at the same accuracy: its highest false-alarm
# rate at alpha = 0.05 (p = 0.95, n = 100; held-back cells reached 8.6%) ...
UNPAIRED_GATE_FALSE_ALARMS = Rate(
    "10.1%",
    "0.06",
    "highest false-alarm rate at alpha = 0.05 of the unpaired gate on 0/1 scores "
    "with small n min(p, 1 - p)",
    "benchmarks/sim_gate_false_alarms.py",
    0,
    (
        r"up to (\d+(?:\.\d+)?%) false alarms for 0/1 scores",
        r"false alarms up to (\d+(?:\.\d+)?%) at alpha = 0\.05",
    ),
)

# ... and at alpha = 0.01 (held-back cell p = 0.9, n = 100): 3.4 times alpha
UNPAIRED_GATE_FALSE_ALARMS_AT_01 = Rate(
    "3.4%",
    "0.04",
    "highest false-alarm rate at alpha = 0.01 of the unpaired gate on 0/1 scores "
    "with small n min(p, 1 - p) (held-back cells)",
    "benchmarks/sim_gate_false_alarms.py --held-back",
    20261207,
    (
        r"reached (\d+(?:\.\d+)?%) at alpha = 0\.01",
        r"false alarms up to [\d.]+% at alpha = 0\.05, (\d+(?:\.\d+)?%) at alpha",
        r"cells up to [\d.]+%\), (\d+(?:\.\d+)?%) at alpha = 0\.01",
    ),
)

# ... and on skewed scores (held-back cell: lognormal latencies, log-sd 1.5,
# lower is better, 50 items), where no warning fired before
UNPAIRED_GATE_SKEWED_FALSE_ALARMS = Rate(
    "17.9%",
    "0.3",
    "false-alarm rate at alpha = 0.05 of the unpaired gate on lognormal latencies "
    "of 50 items (held-back cell)",
    "benchmarks/sim_gate_false_alarms.py --held-back",
    20261207,
    (
        r"\((\d+(?:\.\d+)?%) for lognormal latencies on 50 items",
        r"Skewed scores ran to (\d+(?:\.\d+)?%) at 50",
    ),
)

# the paired regression gate (the default) on reruns of the same model: its
# highest false-alarm rate at alpha = 0.05 over the tuned and held-back cells
# (held-back n = 50, difficulty Beta(9, 1))
PAIRED_GATE_FALSE_ALARMS = Rate(
    "6.3%",
    "0.5",
    "highest false-alarm rate at alpha = 0.05 of the paired gate on reruns of the "
    "same model, 50 to 5,000 items (held-back cells)",
    "benchmarks/sim_gate_type_one.py --held-back",
    20261208,
    (r"at most (\d+(?:\.\d+)?%) at alpha = 0\.05 on 50 to 5,000 items",),
)

# The calibration error's 95% bootstrap interval: coverage of the population
# (binned, 15 bins) error from 100 to 100,000 items, binary and 10 classes,
# calibrated and miscalibrated, held-back cells included
DEBIASED_BASIC_COVERAGE = Rate(
    "91.0%",
    "2.2",
    "lowest coverage of the default interval of the calibration error "
    "(debiased L2, basic about the plug-in), tuning and held-back cells",
    "benchmarks/sim_calibration.py",
    20260801,
    (
        r"\(method='debiased', interval='basic', the defaults\) covered "
        r"(\d+(?:\.\d+)?%) or more",
        r"The default interval covered (\d+(?:\.\d+)?%) or more",
        r"interval about the plug-in, which covered (\d+(?:\.\d+)?%) or more",
    ),
)
# ... of the binned L1 error's (the ECE's) basic interval (held back: a
# calibrated binary model with U-shaped probabilities, 150 items)
BINNED_L1_BASIC_COVERAGE = Rate(
    "27.5%",
    "2.2",
    "lowest coverage of the basic interval of the binned L1 error (ECE)",
    "benchmarks/sim_calibration.py --held-back",
    20260801,
    (
        r"basic interval of the binned L1 error \(ECE\) covered as little as "
        r"(\d+(?:\.\d+)?%)",
        r"since its interval covered as little as (\d+(?:\.\d+)?%)",
        r"its basic interval covered as little as (\d+(?:\.\d+)?%)",
    ),
)
# ... of the percentile interval (the binned L1 error of a calibrated model:
# every interval lies above 0)
PERCENTILE_COVERAGE = Rate(
    "0.0%",
    "0.0",
    "lowest coverage of the percentile interval of the calibration error",
    "benchmarks/sim_calibration.py",
    20260801,
    (
        r"percentile interval covered as little as (\d+(?:\.\d+)?%) of the "
        r"population error",
        r"the percentile one (\d+(?:\.\d+)?%)",
    ),
)

# compare_to_annotators with 2 annotators: a model that is one more annotator
# called "below" at 0.95 (held-back cell: 2 annotators each an expert, 0.9, or
# a novice, 0.55, six classes, 600 units); the tuning cells' worst was 4.2%
TWO_ANNOTATORS_FALSE_BELOW = Rate(
    "13.3%",
    "2.0",
    "share of data sets where compare_to_annotators calls a model that is one "
    'more annotator "below", 2 annotators split into experts and novices '
    "(held-back cell, 600 units, six classes)",
    "benchmarks/sim_model_annotator.py --held-back",
    20261128,
    (
        r'2 experts-or-novices called such a model "below" in up to '
        r"(\d+(?:\.\d+)?%)",
        r"split into experts and novices: (\d+(?:\.\d+)?%) \(s\.e\. [\d.]+\) "
        r"with 2",
        r"up to (\d+(?:\.\d+)?%) with 2 annotators split into experts",
    ),
)

RATES = {
    name: value for name, value in list(globals().items()) if isinstance(value, Rate)
}

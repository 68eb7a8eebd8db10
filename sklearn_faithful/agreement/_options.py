"""The agreement room's option lists, light enough for the command line.

No numpy, scipy or scikit-learn here: ``sklearn-faithful --help`` reads these
lists without importing them. The room's functions validate against the same
tuples, so each rule has one home.
"""

# ``level_of_measurement`` of Krippendorff's alpha (or a callable distance)
LEVELS = ("nominal", "ordinal", "interval", "ratio")

# Gwet's agreement weights (None: identity)
WEIGHTS = ("linear", "quadratic", "ordinal", "radical", "ratio")

# ``coefficient`` of agreement_confidence_interval
COEFFICIENTS = (
    "krippendorff_alpha",
    "fleiss_kappa",
    "gwet_ac",
    "scotts_pi",
    "cohen_kappa",
    "percent_agreement",
)

# ``coefficient`` of compare_to_annotators: the agreement of a pair of coders
PAIR_COEFFICIENTS = ("cohen_kappa", "krippendorff_alpha")

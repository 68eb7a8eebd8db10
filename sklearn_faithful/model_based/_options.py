"""The model_based room's option lists, light enough for the command line.

No numpy, scipy or scikit-learn here: ``sklearn-faithful --help`` reads these
lists without importing them. The room's functions validate against the same
tuples, so each rule has one home.
"""

# ``method`` of ModelBasedMetricTest
METHODS = ("goyal2023", "delta", "ppi")
# the methods that take the metric model's errors from precision and FOR, and
# so the methods of model_based_test_from_summary
RATE_METHODS = ("goyal2023", "delta")

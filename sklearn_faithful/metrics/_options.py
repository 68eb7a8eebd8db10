"""The metrics room's option lists, light enough for the command line.

No numpy, scipy or scikit-learn here: ``sklearn-faithful --help`` reads these
lists without importing them. The room's functions validate against the same
tuples, so each rule has one home.
"""

# the ``average`` of precision, recall, F-beta and their confidence versions
AVERAGE_OPTIONS = ("binary", "micro", "macro", "weighted")

"""The model_selection room's option limits, light enough for the command line.

No numpy, scipy or scikit-learn here: ``sklearn-faithful --help`` reads these
without importing them. The splitters validate against the same numbers, so
each rule has one home.
"""

# the largest m (two-fold partitions) of BlockRegularizedMx2CV
MAX_REPETITIONS = 15

"""Annotation data shared by the agreement tests and the realistic-files suite."""

import numpy as np

# Fleiss (1971): 30 patients (rows) x 6 psychiatrists, diagnoses 1-5, in the
# units x coders layout of statsmodels (its tests' ``diagnoses``) and irrCAC.
# Krippendorff's alpha of the 6 coders is 0.4334098 (krippendorff 0.8,
# alpha(diagnoses.T)); read the other way round, 30 "coders" of 6 "units",
# it is 0.0778257.
FLEISS_1971 = np.array([
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5],
    [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3],
    [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4], [1, 1, 4, 4, 4, 4],
    [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5], [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2],
    [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5], [5, 5, 5, 5, 5, 5],
    [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5],
    [2, 2, 4, 4, 4, 4], [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
])  # fmt: skip
ALPHA_FLEISS_1971 = 0.4334098282820289
KAPPA_FLEISS_1971 = 0.43024452006014074  # statsmodels 0.14, fleiss_kappa

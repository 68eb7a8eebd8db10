"""
=========================================================
Are the probabilities calibrated? A reliability diagram
=========================================================

A model is calibrated when its probabilities mean what they say: among the
items it gives 0.8, about 80% are positive. This example compares a logistic
regression, whose probabilities are usually close to calibrated, with a
Gaussian naive Bayes classifier, whose independence assumption makes it
over-confident (probabilities pushed towards 0 and 1), on the breast cancer
data that ships with scikit-learn.

One test set of a few hundred items gives a noisy calibration error, so each
number below comes with its uncertainty: an interval for the calibration
error, a test of calibration, the CORP decomposition of the Brier score, a
paired comparison of the two models on the same items, and a reliability
diagram whose band shows where a calibrated model's curve would fall with
this many items. Everything runs in a few seconds.
"""

# %%
# Two models, one test set
# ------------------------
# The models are fit on half of the data and judged on the other half.
import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_faithful.calibration import (
    ReliabilityDisplay,
    calibration_error_interval,
    calibration_test,
    corp_decomposition,
    paired_calibration_test,
)

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.5, stratify=y, random_state=0
)
models = {
    "LogisticRegression": make_pipeline(StandardScaler(), LogisticRegression()),
    "GaussianNB": GaussianNB(),
}
proba = {
    name: model.fit(X_train, y_train).predict_proba(X_test)
    for name, model in models.items()
}

# %%
# The calibration error with its interval, and the test of calibration
# --------------------------------------------------------------------
# The calibration error (15 equal-width bins, the usual ECE) is biased upward:
# even a perfectly calibrated model gets a few points from noise alone. The
# interval says how far the estimate may be from the population value, and
# the test (consistency resampling: outcomes drawn from the model's own
# probabilities) says whether the error is more than such noise.
for name, p in proba.items():
    print(f"--- {name}")
    print(calibration_error_interval(y_test, p, n_resamples=999, random_state=0))
    print(calibration_test(y_test, p, n_resamples=999, random_state=0))
    print()

# %%
# The CORP decomposition of the Brier score
# -----------------------------------------
# The Brier score splits exactly into miscalibration (MCB: what isotonic
# recalibration would gain), discrimination (DSC) and uncertainty (UNC, the
# base rate's score): ``score = MCB - DSC + UNC``. No bins are involved. A
# model may discriminate well and still be miscalibrated.
for name, p in proba.items():
    print(f"--- {name}")
    print(corp_decomposition(y_test, p).summary())
    print()

# %%
# Is the logistic regression better scored on the same items?
# -----------------------------------------------------------
# A paired bootstrap of the Brier score on the test items: the statistic is
# B - A, so a positive difference favours A (lower is better).
print(
    paired_calibration_test(
        y_test,
        proba["LogisticRegression"],
        proba["GaussianNB"],
        metric="brier",
        n_resamples=999,
        random_state=0,
    )
)

# %%
# Reliability diagrams with consistency bands
# -------------------------------------------
# The curve is the CORP curve: the isotonic regression of the outcomes on the
# probabilities, with no bins to choose. The shaded band is where the curve
# of a calibrated model would fall, pointwise at 90%, with this many items
# at these probabilities; the inset is the histogram of the predictions.
# The naive Bayes curve leaves its band (and its predictions pile up at 0
# and 1); the logistic regression's stays inside, where its wiggles are noise.
fig, axes = plt.subplots(1, 2, figsize=(11, 5.5), layout="constrained")
for ax, (name, model) in zip(axes, models.items(), strict=True):
    ReliabilityDisplay.from_estimator(
        model, X_test, y_test, name=name, ax=ax, random_state=0
    )
    ax.set_title(name)
plt.show()

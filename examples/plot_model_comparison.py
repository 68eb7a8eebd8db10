"""
=================================
Comparing pipelines on any metric
=================================

:class:`~sklearn_faithful.comparison.ModelComparison` cross-validates several
scikit-learn pipelines on the same splits and tests each pair on its
per-split score differences, for any score that
:func:`~sklearn.metrics.check_scoring` accepts: ROC AUC, log loss, R^2, a
custom scorer. It can also test results you already have, such as the
``cv_results_`` of a :class:`~sklearn.model_selection.GridSearchCV`, with no
refit. The last section compares methods over several data sets, where the
data sets, not the splits, are the units: Friedman's test, the
critical-difference diagram and the Bayesian signed-rank test.

Why not a plain paired t-test on the splits? Two splits of a cross-validation
share most of their training data, so their scores are correlated and the
plain t-test, which treats them as independent, claims differences that do
not exist far more often than its level says. The tests here account for
that overlap. Which of them holds its level, and at what cost in power, is
measured in the user guide's :ref:`choosing` page; read it before picking a
``test``.

Every number below is about models **trained on a split's training set**
(half of the data with the default splitter, 90% of it with 10-fold CV), not
about the model you would refit on all of it.

Everything uses data that ships with scikit-learn and runs in under a
minute.
"""

# %%
# Four pipelines on ROC AUC
# -------------------------
# The default splitter is a block-regularized 5 x 2 cross-validation: 10
# splits, each training on half of the data, stratified on the class. The
# default ``test="auto"`` then runs the blocked m x 2 BCV t-test of Wang,
# Wang, Jia & Li (2014), as the first line of the printout says: it divides
# the spread of the 10 split differences by 2m = 10, not by 2m (2m - 1) as the
# plain t-test would, to allow for the correlation that the overlapping
# training sets put between the splits. (On any other splitter, ``"auto"``
# runs Nadeau & Bengio's corrected resampled t-test, as in the next section.)
# With ``reference=None`` every pair is tested
# and the p-values are adjusted by Holm's method over the family of pairs, so
# that reading six tests does not inflate the chance of a false claim.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import (
    load_breast_cancer,
    load_diabetes,
    load_digits,
    load_iris,
    load_wine,
    make_classification,
    make_moons,
)
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from sklearn_faithful.comparison import ModelComparison
from sklearn_faithful.multi_dataset import (
    CriticalDifferenceDisplay,
    bayesian_signed_rank_test,
    friedman_test,
)

X, y = load_breast_cancer(return_X_y=True)
pipelines = {
    "naive Bayes": GaussianNB(),
    "tree": DecisionTreeClassifier(max_depth=4, random_state=0),
    "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
    "SVC": make_pipeline(StandardScaler(), SVC()),
}
comp = ModelComparison(pipelines, scoring="roc_auc", random_state=0).fit(X, y)
print(comp)

# %%
# Each row is a pair ``(A, B)``: the mean of ``B - A`` over the 10 splits,
# its 95% confidence interval, the Holm-adjusted p-value and the decision at
# ``alpha = 0.05``. "undecided" does not mean "equal": it means that 10
# splits of 569 samples cannot tell. The plot draws the same intervals; a
# pair whose interval crosses the dashed line at 0 is undecided.
comp.plot()

# %%
# The scores of each split and the tables behind the text are attributes:
# ``comp.scores_`` holds each model's 10 scores, ``comp.summary()`` the
# table as a dict of columns (``as_frame=True`` gives a pandas DataFrame),
# ``comp.results_`` each pair's full test result.
table = comp.summary()
for k, (a, b) in enumerate(comp.pairs_):
    diff, p_holm = table["difference"][k], table["pvalue_holm"][k]
    print(f"{b} - {a}: {diff:+.4f}, Holm p = {p_holm:.3g}")

# %%
# From a grid search already run
# ------------------------------
# A fitted :class:`~sklearn.model_selection.GridSearchCV` holds each
# candidate's score on every split (``split<k>_test_score``), all on the same
# splits, so its candidates can be tested without refitting anything.
# ``from_cv_results`` names each candidate by its parameters and, by default
# (``reference="best"``), tests every candidate against the best-ranked one:
# is the winner really better than the runners-up, or did it win by the luck
# of the splits?
#
# The search does not keep its splits, so you give their sizes, which the
# correction needs. For ``KFold(k)`` or ``StratifiedKFold(k)`` on ``n``
# samples, each test fold holds ``n // k`` samples (some one more) and each
# training set the rest: ``n_test = n // k`` and ``n_train = n - n // k``;
# for ``RepeatedKFold`` the same, per repetition.
n_splits = 10
search = GridSearchCV(
    make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    {"logisticregression__C": [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]},
    cv=StratifiedKFold(n_splits, shuffle=True, random_state=0),
    scoring="roc_auc",
).fit(X, y)
n = len(y)
search_comp = ModelComparison.from_cv_results(
    search.cv_results_, n_train=n - n // n_splits, n_test=n // n_splits
)
print("best:", search.best_params_)
print(search_comp)

# %%
# ``labels`` shortens the names on the plot.
labels = {name: name.replace("logisticregression__", "") for name in search_comp.names_}
search_comp.plot(labels=labels)

# %%
# The search's splits are not an m x 2 design, so ``test="auto"`` runs Nadeau
# & Bengio's corrected resampled t-test, which inflates the variance of the
# mean difference by ``n_test / n_train`` for the overlap of the training
# sets. With 10-fold CV the corrected variance factor is ``1/10 + 1/9``, more
# than twice the naive ``1/10``: the folds' training sets share 8/9 of their
# samples. No runner-up is found worse than the winner once the p-values are
# adjusted over the five tests: the search's ranking among these values of
# ``C`` is within the noise of 10 folds. The intervals are each pair's own
# 95% intervals, not adjusted, so one may exclude 0 while the Holm-adjusted
# decision is "undecided". ``reference=None`` would test all 15 pairs of
# candidates, with Holm's adjustment over them.

# %%
# A regression on R^2, with the Bayesian test and a rope
# ------------------------------------------------------
# Any scorer works, here R^2 on the diabetes data. For regressors the default
# splitter cuts the blocks at random; it stratifies on ``y`` only when every
# model is a classifier.
#
# The Bayesian correlated t-test (``test="bayesian"``, Benavoli et al. 2017)
# gives a posterior of the expected difference instead of a p-value, with
# the same correction for overlapping training sets. With a region of
# practical equivalence (``rope``, here 0.02 of R^2) it answers three
# questions at once: how probable is it that B is worse by more than the
# rope, equivalent within it, or better by more than it? ``decide`` reports
# a side only when its probability reaches ``confidence_level`` (0.95);
# "equivalent" is a claim the t-tests cannot make. Each model is tested
# against the reference, the ridge regression.
X_reg, y_reg = load_diabetes(return_X_y=True)
regressors = {
    "ridge": make_pipeline(StandardScaler(), Ridge(alpha=10.0)),
    "forest": RandomForestRegressor(
        n_estimators=100, min_samples_leaf=5, random_state=0
    ),
    "kNN": make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=20)),
    "tree": DecisionTreeRegressor(max_depth=3, random_state=0),
}
reg_comp = ModelComparison(
    regressors,
    scoring="r2",
    test="bayesian",
    reference="ridge",
    rope=0.02,
    random_state=0,
).fit(X_reg, y_reg)
print(reg_comp)

# %%
# Each row is the posterior density of ``B - ridge``, shaded over its 95%
# credible interval; the grey band is the rope.
reg_comp.plot()

# %%
# Several data sets
# -----------------
# A claim such as "the SVC beats the tree in general" needs several data
# sets. Then the unit of evidence is the data set: each method gets one score
# per data set (here the mean accuracy of a 5-fold cross-validation), and
# the tests compare those, not the splits. Scores on different data sets are
# not commensurable (90% accuracy is poor on one and excellent on another),
# so Friedman's test (Demsar 2006) works on the methods' ranks within each
# data set: do the average ranks differ more than chance allows?
classifiers = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "kNN": make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "tree": DecisionTreeClassifier(random_state=0),
    "naive Bayes": GaussianNB(),
}
datasets = {
    "iris": load_iris(return_X_y=True),
    "wine": load_wine(return_X_y=True),
    "breast cancer": load_breast_cancer(return_X_y=True),
    "digits": load_digits(return_X_y=True),
    "linear": make_classification(
        n_samples=400, n_features=20, n_informative=5, random_state=0
    ),
    "moons": make_moons(n_samples=400, noise=0.3, random_state=0),
}
cv5 = StratifiedKFold(5, shuffle=True, random_state=0)
scores = np.array(
    [
        [cross_val_score(est, Xd, yd, cv=cv5).mean() for est in classifiers.values()]
        for Xd, yd in datasets.values()
    ]
)
for name, row in zip(datasets, scores, strict=True):
    print(f"{name:>13}: " + "  ".join(f"{s:.3f}" for s in row))

names = list(classifiers)
friedman = friedman_test(scores, names=names)
print(friedman.summary())

# %%
# Friedman's test only says whether some methods differ. Nemenyi's post-hoc
# test says which: two methods whose average ranks differ by less than the
# critical difference (CD) are not significantly different, and the diagram
# joins them with a bar. With 6 data sets the CD is large; a benchmark
# needs many data sets before ranks can separate methods that are close.
CriticalDifferenceDisplay.from_scores(scores, names=names)

# %%
# For one pair, the Bayesian signed-rank test (Benavoli et al. 2014) gives
# the probability that B is better than A, equivalent (within the rope, here
# one point of accuracy) or worse, over the population of data sets these
# six stand for. Here A is the tree and B the logistic regression.
signed_rank = bayesian_signed_rank_test(
    scores[:, names.index("tree")],
    scores[:, names.index("logistic")],
    rope=0.01,
    random_state=0,
)
print(signed_rank.summary())

plt.show()

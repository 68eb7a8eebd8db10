"""Checks of a cross-validation design: m x 2 structure and identical splits."""

import numpy as np


def _check_mx2_structure(splits, n_samples):
    """Check that consecutive splits form m complementary two-fold partitions."""
    if len(splits) == 0 or len(splits) % 2:
        raise ValueError(
            f"cv gave {len(splits)} splits; the correlation correction assumes "
            "m two-fold partitions, each used both ways (2m splits, 6 for 3x2 "
            "BCV). Use BlockRegularizedMx2CV, or give the factor itself as a "
            "float in correlation=..."
        )
    for k in range(0, len(splits), 2):
        (train1, test1), (train2, test2) = splits[k], splits[k + 1]
        if len(test1) == 0 or len(test2) == 0:
            raise ValueError(f"cv split {k} or {k + 1} has an empty test set.")
        halves_ok = (
            len(test1) + len(test2) == n_samples
            and np.array_equal(np.sort(train1), np.sort(test2))
            and np.array_equal(np.sort(train2), np.sort(test1))
            and np.union1d(test1, test2).size == n_samples
        )
        if not halves_ok:
            raise ValueError(
                f"cv splits {k} and {k + 1} are not the two halves of one "
                "two-fold partition (train of one = test of the other, together "
                "all samples). The correlation correction assumes an m x 2 CV "
                "such as BlockRegularized3x2CV; for another cv, give the factor "
                "itself as a float in correlation=..."
            )


def _check_same_splits(splits_a, splits_b, name_a, name_b):
    """Two results must come from identical splits."""
    if len(splits_a) != len(splits_b):
        raise ValueError(
            f"{name_a} has {len(splits_a)} splits and {name_b} {len(splits_b)}; "
            "the models must be cross-validated on the same splits. Run every "
            "cross_validate call with the same cv object and seed, such as "
            "BlockRegularized3x2CV(random_state=0)."
        )
    pairs = zip(splits_a, splits_b, strict=True)
    for k, ((train_a, test_a), (train_b, test_b)) in enumerate(pairs):
        if not (np.array_equal(train_a, train_b) and np.array_equal(test_a, test_b)):
            raise ValueError(
                f"{name_a} and {name_b} used different splits: split {k} has "
                "other train or test indices. The test pairs the models split "
                "by split, so run every cross_validate call with the same cv "
                "object and seed, such as BlockRegularized3x2CV(random_state=0)."
            )


def _cv_result_splits(result, name, *, estimators=False):
    """The (train, test) pairs that one ``cross_validate`` result recorded.

    ``estimators=True`` also needs the fitted models, one per split.
    """
    keys = ("indices", "estimator") if estimators else ("indices",)
    if not isinstance(result, dict):
        raise ValueError(
            f"{name} must be the dict that sklearn.model_selection.cross_validate "
            f"returns; got {type(result).__name__}."
        )
    missing = [key for key in keys if key not in result]
    if missing:
        flags, kept = "return_indices=True", "splits"
        if estimators:
            flags += ", return_estimator=True"
            kept += " and the fitted models"
        raise ValueError(
            f"{name} has no {' or '.join(map(repr, missing))}; run cross_validate("
            f"..., {flags}) so that the {kept} are kept."
        )
    train, test = result["indices"]["train"], result["indices"]["test"]
    if estimators and len(result["estimator"]) != len(test):
        raise ValueError(
            f"{name} holds {len(result['estimator'])} models for {len(test)} test "
            "sets; it is not one cross_validate result."
        )
    return [
        (np.asarray(tr), np.asarray(te)) for tr, te in zip(train, test, strict=True)
    ]


def _check_same_cv_results(results, *, estimators=False):
    """The splits of several ``cross_validate`` results, which must be identical.

    ``results`` maps a name to each result; ``estimators`` as in
    :func:`_cv_result_splits`.
    """
    names = list(results)
    splits = [
        _cv_result_splits(results[name], f"results[{name!r}]", estimators=estimators)
        for name in names
    ]
    for name, other in zip(names[1:], splits[1:], strict=True):
        _check_same_splits(
            splits[0], other, f"results[{names[0]!r}]", f"results[{name!r}]"
        )
    return splits[0]

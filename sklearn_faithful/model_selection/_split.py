"""Block-regularized m x 2 cross-validation (Wang et al. 2017; Wang & Li 2019).

The data are cut into ``2**q`` blocks whose sizes, and label distributions, are
as equal as possible. Each of the ``m`` repetitions is a two-fold partition
that puts half of the blocks in ``S`` and the other half in ``T``; the halves are
read off the columns of a two-level orthogonal array (a Sylvester Hadamard
matrix without its constant column), so that any two training sets of different
repetitions share exactly ``2**q / 4`` blocks, that is about ``n / 4`` samples.
Equation and table numbers refer to Wang & Li (2019); the formulas page of the
documentation ("Block-regularized m x 2 cross-validation") restates them.
"""

import heapq
import warnings
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from scipy.linalg import hadamard
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils.multiclass import type_of_target

from ..utils._compat import _num_samples
from ..utils._param_validation import Interval
from ..utils._random import _generator
from ..utils._results import _ResultMixin
from ..utils._validation import (
    SEEDS,
    _numbers_as_numbers,
    _validate_init_params,
    _validate_method,
)
from ._options import MAX_REPETITIONS as _MAX_REPETITIONS

_SPLIT_DATA = {
    "X": ["array-like", "sparse matrix"],
    "y": ["array-like", None],
    "groups": ["array-like", None],
}


@dataclass(frozen=True)
class BlockBalance(_ResultMixin):
    """How balanced the blocks of a block-regularized CV are.

    Attributes
    ----------
    sizes : ndarray of shape (n_blocks,)
        Number of samples in each block.
    totals : ndarray of shape (n_blocks, n_columns) or None
        Per-block column totals of a 2-D ``y`` (or per-block class counts of a
        1-D ``y``); None without ``y``.
    max_size_difference : int
        Largest minus smallest block size.
    max_relative_deviation : float
        Largest ``|total - mean| / mean`` over blocks and columns of
        ``totals`` (0 without ``y``): 0.02 means every block holds each column's
        total within 2% of a perfect quarter (for four blocks).
    """

    sizes: np.ndarray
    totals: np.ndarray | None
    max_size_difference: int
    max_relative_deviation: float

    def summary(self):
        """Describe the balance in one line.

        Returns
        -------
        text : str
            The block sizes and the worst deviations.
        """
        return (
            f"{self.sizes.size} blocks of {', '.join(map(str, self.sizes.tolist()))} "
            f"samples (sizes differ by at most {self.max_size_difference}); "
            f"largest relative deviation of a block's total "
            f"{self.max_relative_deviation:.3g}"
        )


def _deal_round_robin(order, n_blocks, rng):
    """Block of each sample when ``order`` is dealt to the blocks in turn."""
    blocks = np.empty(order.shape[0], dtype=np.intp)
    # A random relabelling of the blocks, so that no block is always the one
    # that receives the remainder.
    blocks[order] = rng.permutation(n_blocks)[np.arange(order.shape[0]) % n_blocks]
    return blocks


def _blocks_plain(n, n_blocks, rng):
    return _deal_round_robin(rng.permutation(n), n_blocks, rng)


def _blocks_stratified(codes, n_classes, n_blocks, rng):
    """Deal each class's shuffled members to the blocks in turn.

    The counter runs on across classes, so every class's count differs by at
    most 1 between blocks, and so do the block sizes.
    """
    counts = np.bincount(codes, minlength=n_classes)
    if counts.min() < n_blocks:
        warnings.warn(
            f"The least populated class in y has only {counts.min()} members, "
            f"which is less than n_blocks={n_blocks}. Its members go to "
            f"{counts.min()} of the blocks; every sample is still used.",
            UserWarning,
            stacklevel=4,
        )
    perm = rng.permutation(codes.shape[0])
    order = perm[np.argsort(codes[perm], kind="stable")]
    return _deal_round_robin(order, n_blocks, rng)


def _blocks_counts(counts, n_blocks, rng):
    """Greedy balance of per-sample counts (2-D ``y``), documented in the class.

    Samples are taken in decreasing order of their normalised load (ties broken
    at random) in rounds of ``n_blocks``; within a round, the heaviest sample
    goes to the block with the smallest normalised load so far, the next to the
    next smallest, and so on. Each round gives each block one sample, so sizes
    differ by at most 1.
    """
    n = counts.shape[0]
    column_totals = counts.sum(axis=0)
    scale = np.where(column_totals > 0, column_totals, 1.0)
    normalised = counts / scale
    load = normalised.sum(axis=1)
    perm = rng.permutation(n)
    order = perm[np.argsort(-load[perm], kind="stable")]
    blocks = np.empty(n, dtype=np.intp)
    block_totals = np.zeros((n_blocks, counts.shape[1]))
    for start in range(0, n, n_blocks):
        members = order[start : start + n_blocks]
        # Lightest blocks first; a block's load is the largest of its column
        # shares, so a block heavy in any column waits.
        receivers = np.argsort(block_totals.max(axis=1), kind="stable")
        receivers = receivers[: members.shape[0]]
        blocks[members] = receivers
        block_totals[receivers] += normalised[members]
    return blocks


def _blocks_groups(group_codes, n_groups, n_blocks, rng):
    """Longest-processing-time assignment of whole groups to blocks."""
    sizes = np.bincount(group_codes, minlength=n_groups)
    perm = rng.permutation(n_groups)
    order = perm[np.argsort(-sizes[perm], kind="stable")]
    heap = [(0, b) for b in rng.permutation(n_blocks).tolist()]
    group_block = np.empty(n_groups, dtype=np.intp)
    for g in order.tolist():
        size, b = heapq.heappop(heap)
        group_block[g] = b
        heapq.heappush(heap, (size + int(sizes[g]), b))
    blocks = group_block[group_codes]
    block_sizes = np.bincount(blocks, minlength=n_blocks)
    spread = int(block_sizes.max() - block_sizes.min())
    if sizes.max() > -(-group_codes.shape[0] // n_blocks) and spread > 1:
        warnings.warn(
            f"A group of {sizes.max()} samples is larger than a block "
            f"({group_codes.shape[0]} samples / {n_blocks} blocks), so the blocks "
            f"cannot be balanced: their sizes range from {block_sizes.min()} to "
            f"{block_sizes.max()} (off by {spread} instead of at most 1).",
            UserWarning,
            stacklevel=4,
        )
    return blocks


class BlockRegularizedMx2CV(BaseCrossValidator):
    """Block-regularized m x 2 cross-validator (Wang et al. 2017).

    Cuts the data into ``2**q`` blocks (the smallest ``q`` with
    ``2**q - 1 >= n_repetitions``) of sizes differing by at most 1, then makes
    ``n_repetitions`` two-fold partitions of the blocks from the columns of a
    two-level orthogonal array. Each partition ``(S, T)`` yields two splits:
    train on ``S`` and test on ``T``, then train on ``T`` and test on ``S``.
    Training sets of two different partitions share exactly a quarter of the
    blocks (about ``n / 4`` samples), which keeps the estimators stable.

    The blocks are regularized on what is passed to :meth:`split`:

    - ``groups``: every group lands whole in one block (largest groups first,
      each to the currently smallest block); ``y`` is then not used;
    - 1-D ``y`` of class labels: stratified, each class's count differs by at
      most 1 between blocks;
    - 2-D ``y`` of per-sample counts (``n_samples x n_types``, e.g. how many
      entities of each type a sentence holds): a greedy balance of each
      column's totals, see Notes;
    - nothing: a random cut.

    Parameters
    ----------
    n_repetitions : int, default=3
        Number of two-fold partitions ``m``, from 1 to 15. The number of splits
        is ``2 * n_repetitions``.

    random_state : int, RandomState instance or None, default=None
        Controls the random cut into blocks. Pass an int for the same splits on
        every call.

    Notes
    -----
    Partitions: with ``H`` the Sylvester Hadamard matrix of order ``2**q``,
    repetition ``j`` (``j = 1..m``) puts block ``b`` in ``S`` if ``H[b, j] = 1``
    and in ``T`` otherwise. Columns of ``H`` are orthogonal, so two different
    halves ``S_j`` and ``S_j'`` share exactly ``2**q / 4`` blocks.

    Greedy balance for 2-D ``y``: each column is divided by its total, so that
    all types weigh alike; samples are sorted by their summed share, heaviest
    first (ties at random), and dealt in rounds of ``2**q``, one per block, the
    heaviest of a round to the block whose largest column share is smallest.
    :meth:`block_balance` reports the result.

    Splits are in the order ``(S_1, T_1), (T_1, S_1), (S_2, T_2), ...``.

    References
    ----------
    .. [1] R. Wang, Y. Wang, J. Li, X. Yang and J. Yang, "Block-regularized m x 2
       cross-validated estimator of the generalization error", Neural
       Computation 29(2), 2017.
    .. [2] R. Wang and J. Li, "Bayes test of precision, recall, and F1 measure
       for comparison of two natural language processing models", ACL 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.model_selection import BlockRegularizedMx2CV
    >>> cv = BlockRegularizedMx2CV(n_repetitions=5, random_state=0)
    >>> cv.get_n_splits()
    10
    >>> y = np.array([0, 1] * 8)
    >>> train, test = next(cv.split(np.zeros((16, 1)), y))
    >>> len(train), len(test), int(y[test].sum())
    (8, 8, 4)
    """

    # Ask for ``groups`` under metadata routing, as scikit-learn's group
    # splitters do, so cross_validate and GridSearchCV route it here.
    __metadata_request__split = {"groups": True}

    _parameter_constraints = {
        "n_repetitions": [Interval(Integral, 1, _MAX_REPETITIONS, closed="both")],
        "random_state": SEEDS,
    }

    def __init__(self, n_repetitions=3, *, random_state=None):
        self.n_repetitions = n_repetitions
        self.random_state = random_state

    @property
    def n_blocks(self):
        """Number of blocks.

        It is ``2**q`` with ``q`` the smallest integer such that
        ``2**q - 1 >= n_repetitions``.
        """
        return 1 << int(np.ceil(np.log2(self.n_repetitions + 1)))

    def _halves(self):
        """Boolean array (n_repetitions, n_blocks): True where a block is in S."""
        h = hadamard(self.n_blocks)
        return (h[:, 1 : self.n_repetitions + 1] == 1).T

    def _validate_params(self):
        _validate_init_params(self)

    @_validate_method({**_SPLIT_DATA, "X": ["array-like", "sparse matrix", None]})
    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of splits, ``2 * n_repetitions``.

        Parameters
        ----------
        X, y, groups : object
            Always ignored, exist for API compatibility.

        Returns
        -------
        n_splits : int
        """
        return 2 * self.n_repetitions

    @_validate_method(_SPLIT_DATA)
    def get_blocks(self, X, y=None, groups=None):
        """Return the block of each sample, from 0 to ``n_blocks - 1``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; only its length is used.

        y : array-like of shape (n_samples,) or (n_samples, n_types), default=None
            Class labels to stratify on, or per-sample counts to balance.

        groups : array-like of shape (n_samples,), default=None
            Group labels; each group is kept whole in one block.

        Returns
        -------
        blocks : ndarray of shape (n_samples,)
            Block number of each sample. With an int ``random_state`` it is the
            same on every call.
        """
        n = _num_samples(X)
        n_blocks = self.n_blocks
        rng = _generator(self.random_state)
        if groups is not None:
            groups = np.asarray(groups)
            if groups.shape != (n,):
                raise ValueError(
                    f"groups must have shape ({n},) to match X; got {groups.shape}."
                )
            _, codes = np.unique(groups, return_inverse=True)
            n_groups = int(codes.max()) + 1
            if n_groups < n_blocks:
                raise ValueError(
                    f"groups has {n_groups} distinct groups, fewer than the "
                    f"{n_blocks} blocks of {self!r}; at least {n_blocks} groups "
                    "are needed."
                )
            return _blocks_groups(codes.ravel(), n_groups, n_blocks, rng)
        if n < n_blocks:
            raise ValueError(
                f"X has {n} samples, too few to cut into the {n_blocks} blocks "
                f"of {self!r}; at least {n_blocks} samples are needed."
            )
        if y is None:
            return _blocks_plain(n, n_blocks, rng)
        y = _numbers_as_numbers(np.asarray(y))
        if y.ndim not in (1, 2):
            raise ValueError(
                f"y must be 1-D class labels or 2-D per-sample counts; got shape "
                f"{y.shape}."
            )
        if y.shape[0] != n:
            raise ValueError(
                f"y has {y.shape[0]} samples but X has {n}; they must match."
            )
        if y.ndim == 2 and y.shape[1] > 1:
            if y.dtype.kind not in "biuf" or not np.isfinite(y).all() or (y < 0).any():
                raise ValueError(
                    "A 2-D y is read as per-sample counts (n_samples x n_types) "
                    "and must hold finite non-negative numbers."
                )
            return _blocks_counts(y.astype(np.float64), n_blocks, rng)
        y = y.reshape(-1) if y.ndim == 2 else y
        kind = type_of_target(y, input_name="y")
        if kind not in ("binary", "multiclass"):
            raise ValueError(
                f"y is {kind!r}, but {type(self).__name__} stratifies on class "
                "labels (1-D) or balances per-sample counts (2-D). For a "
                "continuous target, pass y=None."
            )
        _, codes = np.unique(y, return_inverse=True)
        codes = codes.ravel()
        return _blocks_stratified(codes, int(codes.max()) + 1, n_blocks, rng)

    @_validate_method(_SPLIT_DATA)
    def block_balance(self, X, y=None, groups=None):
        """Report how balanced the blocks are.

        Parameters
        ----------
        X, y, groups
            As for :meth:`get_blocks`.

        Returns
        -------
        balance : BlockBalance
            Block sizes, per-block totals of ``y`` and the worst deviations.
        """
        blocks = self.get_blocks(X, y, groups)
        n_blocks = self.n_blocks
        sizes = np.bincount(blocks, minlength=n_blocks)
        totals = None
        deviation = 0.0
        if y is not None:
            y = np.asarray(y)
            if y.ndim == 2 and y.shape[1] > 1:
                values = y.astype(np.float64)
            else:
                _, codes = np.unique(y.reshape(-1), return_inverse=True)
                values = np.eye(int(codes.max()) + 1)[codes.ravel()]
            totals = np.zeros((n_blocks, values.shape[1]))
            np.add.at(totals, blocks, values)
            mean = totals.mean(axis=0)
            with np.errstate(invalid="ignore", divide="ignore"):
                rel = np.abs(totals - mean) / mean
            deviation = float(np.nanmax(rel)) if np.isfinite(rel).any() else 0.0
        return BlockBalance(
            sizes=sizes,
            totals=totals,
            max_size_difference=int(sizes.max() - sizes.min()),
            max_relative_deviation=deviation,
        )

    def _iter_test_masks(self, X=None, y=None, groups=None):
        blocks = self.get_blocks(X, y, groups)
        for in_s in self._halves():
            s_mask = in_s[blocks]
            yield ~s_mask  # train on S, test on T
            yield s_mask  # train on T, test on S

    @_validate_method(_SPLIT_DATA)
    def split(self, X, y=None, groups=None):
        """Generate indices to split data into training and test set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; only its length is used.

        y : array-like of shape (n_samples,) or (n_samples, n_types), default=None
            Class labels to stratify on, or per-sample counts to balance.

        groups : array-like of shape (n_samples,), default=None
            Group labels; each group is kept whole in one block.

        Yields
        ------
        train : ndarray
            The training set indices for that split.

        test : ndarray
            The testing set indices for that split.
        """
        indices = np.arange(_num_samples(X))
        for test_mask in self._iter_test_masks(X, y, groups):
            yield indices[~test_mask], indices[test_mask]


class BlockRegularized3x2CV(BlockRegularizedMx2CV):
    """Block-regularized 3 x 2 cross-validator of Wang & Li (2019).

    Four blocks ``B1..B4`` of (near) equal size and label distribution, and the
    three partitions of the paper's Table 1::

        j = 1: S = B1 + B2, T = B3 + B4
        j = 2: S = B1 + B3, T = B2 + B4
        j = 3: S = B2 + B3, T = B1 + B4

    each used both ways, for six splits in the order ``(S_1, T_1), (T_1, S_1),
    (S_2, T_2), (T_2, S_2), (S_3, T_3), (T_3, S_3)``. Blocks are numbered
    ``0..3`` for ``B1..B4`` in :meth:`get_blocks`. See
    :class:`BlockRegularizedMx2CV` for how the blocks are regularized.

    Parameters
    ----------
    random_state : int, RandomState instance or None, default=None
        Controls the random cut into blocks. Pass an int for the same splits on
        every call.

    References
    ----------
    .. [1] R. Wang and J. Li, "Bayes test of precision, recall, and F1 measure
       for comparison of two natural language processing models", ACL 2019.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn_faithful.model_selection import BlockRegularized3x2CV
    >>> X, y = load_iris(return_X_y=True)
    >>> cv = BlockRegularized3x2CV(random_state=0)
    >>> cv
    BlockRegularized3x2CV(random_state=0)
    >>> scores = cross_val_score(LogisticRegression(max_iter=1000), X, y, cv=cv)
    >>> scores.shape
    (6,)
    """

    # Table 1 of Wang & Li (2019): True where block B1..B4 is in S_j.
    _TABLE_1 = np.array(
        [
            [True, True, False, False],
            [True, False, True, False],
            [False, True, True, False],
        ]
    )

    _parameter_constraints = {"random_state": SEEDS}

    def __init__(self, *, random_state=None):
        super().__init__(n_repetitions=3, random_state=random_state)

    def _halves(self):
        return self._TABLE_1

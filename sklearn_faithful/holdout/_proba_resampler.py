"""Bootstrap and permutation resamples of the confidence metrics, by true class.

The confidence metrics (cprecision, crecall, cF-beta; Yacouby & Axman 2020,
formulas page "Confidence precision, recall and F-score") depend on the data
through three sums per class ``k``: the diagonal mass
``cTP_k = sum_{i: y_i = k} w_i p_ik``, the predicted mass
``cTP_k + cFP_k = sum_i w_i p_ik`` (eq. 7) and the true count
``TP_k + FN_k = sum_{i: y_i = k} w_i`` (eq. 8). Unlike the labels, the
probabilities do not fall into a few cells, so a resample must still visit
the items. :class:`ProbaResampler` makes that visit a matrix product:

- the items are put in the order of their true class once (a stable sort of
  the class codes), and cut into *tiles*, runs of items of one class;
- for a chunk of ``c`` resamples, the number of items each resample draws from
  each tile is multinomial (the tiles' shares of the items), and the items
  drawn within a tile are uniform, so the multiplicities ``W`` of the tile's
  items are counted with one ``np.bincount`` (equal in distribution to
  drawing ``n`` indices among all items: a multinomial is its parts'
  multinomial given their totals);
- ``W @ [w p | w]`` (BLAS, one thread) gives, for each resample, the tile's
  predicted mass of every class, its diagonal mass (the column of its
  class) and its true count (the last column).

The probabilities are read as given (no copy of the data; float32 stays
float32 in memory), but each tile is converted to float64 once per chunk of
resamples and the products are summed in float64, as the metric itself sums
float32 input: a float32 product would carry a relative error up to
``m 2^-24`` per tile (3e-5 for 512 items), and would save little, since the
conversion of a tile is paid once for up to 256 resamples. The tiles whose
size is a power of two (all but one per class) draw their indices from raw
random bits, exact for a power of two and several times cheaper than
bounded integers.

Memory: a tile's draws for ``c`` resamples fill about :data:`_TILE_ENTRIES`
(2**17) bins, so its working arrays (the combined indices, the counts and
their float64 copy: about 24 bytes a bin, 3 MiB) stay in a core's cache;
its float64 features take at most :data:`~._fast_metrics._CHUNK_BYTES`
(32 MiB) for very many classes, and the sums of a chunk ``c (2 s + 1) k``
floats for ``s`` systems. None of this grows with the number of items;
beyond it, the resampler holds the class order of the items (``8 n``
bytes). The permutation test swaps the two systems' outputs with fair bits
per item and tile, its product ``S @ w (p_B - p_A)``; the jackknife of BCa
leaves one item out in closed form from the totals, a chunk of items at a
time.

Resamples are drawn from the generator of each block (:func:`run_resamples`),
so results are the same for any ``n_jobs``. They are not the draws of the
item path (``fast=False``), only equal to them in distribution; small inputs
keep the per-item features of :class:`Resampler`, whose draws are those of
the item path.
"""

import numpy as np

from ..utils._validation import _encode, _pos_label_index, _unique_labels
from ._fast_metrics import (
    _CHUNK_BYTES,
    Resampler,
    _chunks,
    _rows_per_chunk,
    one_blas_thread,
)

# Inputs whose dense per-item features (n, 3k) take at most this many bytes
# keep them (Resampler): the same draws as the item path, at little cost.
_ITEM_FEATURE_BYTES = 2**20

# A tile's draws are counted into c x m bins for c resamples and m items:
# about this many, so that the counts (8 bytes each) stay in a core's cache
# (measured fastest at 2**16 to 2**17: 2x faster than 2**20).
_TILE_ENTRIES = 2**17
# Tiles of 2**6 to 2**16 items: raw bits are drawn 16 at a time.
_MIN_BITS, _MAX_BITS = 6, 16


def confidence_codes(y_true, y_probas, spec, kwargs):
    """``(codes, k, pos_index)`` of the true labels, or None without a fast path.

    ``y_probas`` holds each system's 2-D probabilities; the fast path needs one
    column per class (1-D binary probabilities take the item path) and, for
    ``average='binary'``, the positive class among the classes.
    """
    labels = kwargs.get("labels")
    classes = _unique_labels(y_true) if labels is None else np.asarray(labels)
    for proba in y_probas:
        if np.ndim(proba) != 2 or np.shape(proba)[1] != classes.size:
            return None
    pos_index = _pos_label_index(classes, spec["pos_label"])
    if spec["average"] == "binary" and pos_index < 0:
        return None
    # the metric has already accepted these labels on the full data
    return _encode(y_true, classes), classes.size, pos_index


def confidence_features(codes, y_proba, k, weight=None):
    """Per-item features of a confidence metric, of shape (n, 3k).

    Each item contributes its diagonal mass (cTP_k), its predicted mass
    (cTP_k + cFP_k, eq. 7 of Yacouby & Axman) and its true count (TP_k + FN_k,
    eq. 8), times its weight. Summed over a cluster's items, they are the
    cluster's contribution to the metric's sums.
    """
    proba = np.asarray(y_proba)
    if proba.dtype.kind != "f":
        proba = proba.astype(np.float64)
    onehot = np.zeros(proba.shape, dtype=proba.dtype)
    onehot[np.arange(proba.shape[0]), codes] = 1
    features = np.hstack([onehot * proba, proba, onehot])
    if weight is not None:
        features *= np.asarray(weight)[:, None].astype(features.dtype, copy=False)
    return features


def proba_resampler(codes, y_probas, k, weight=None):
    """The resampler of the confidence metrics of ``y_probas``.

    Small inputs (dense features of at most :data:`_ITEM_FEATURE_BYTES`) sum
    per-item features (:class:`Resampler`, the draws of the item path);
    larger ones go by class (:class:`ProbaResampler`).
    """
    n = codes.shape[0]
    if 8 * n * 3 * k <= _ITEM_FEATURE_BYTES:
        return Resampler([confidence_features(codes, p, k, weight) for p in y_probas])
    return ProbaResampler(codes, y_probas, k, weight)


def _class_order(codes, k):
    """The items in the order of their class (stable), and each class's bounds.

    ``order[bounds[j]:bounds[j + 1]]`` are the items of class ``j``. Codes of
    at most 16 bits are sorted by NumPy's radix sort: O(n), a counting sort.
    """
    small = codes.astype(np.uint16) if k <= 2**16 else codes
    order = np.argsort(small, kind="stable")
    bounds = np.zeros(k + 1, dtype=np.intp)
    np.cumsum(np.bincount(codes, minlength=k), out=bounds[1:])
    return order, bounds


def _tiles(bounds, size):
    """``(class, start, stop)`` of runs of at most ``size`` items of one class."""
    return [
        (j, start, min(start + size, stop))
        for j, (begin, stop) in enumerate(zip(bounds[:-1], bounds[1:], strict=True))
        for start in range(int(begin), int(stop), size)
    ]


def _tile_bits(c, width):
    """log2 of the tile size for chunks of ``c`` resamples.

    About :data:`_TILE_ENTRIES` draws per tile, and its float64 features
    (``8 m width`` bytes) within the budget.
    """
    m = min(_TILE_ENTRIES // c, _CHUNK_BYTES // (8 * width))
    return int(np.clip(np.floor(np.log2(max(m, 1))), _MIN_BITS, _MAX_BITS))


def _uniform_codes(rng, size, bits):
    """``size`` uniform integers in ``[0, 2**bits)`` from raw 64-bit draws."""
    raw = rng.bit_generator.random_raw(-(-size // 4)).view(np.uint16)[:size]
    return raw >> np.uint16(16 - bits)


def _fair_bits(rng, size):
    """``size`` independent fair 0/1 draws (uint8) from raw 64-bit draws."""
    raw = rng.bit_generator.random_raw(-(-size // 64)).view(np.uint8)
    return np.unpackbits(raw, count=size)


class ProbaResampler:
    """Sums of the confidence metrics under bootstrap or permutation draws.

    The interface of :class:`Resampler`: ``totals``, ``bootstrap``,
    ``permute`` and ``jackknife`` give, per system, the (c, 3k) sums
    ``[cTP, cTP + cFP, TP + FN]`` that :func:`metric_from_sums` turns into
    the metric.

    Parameters
    ----------
    codes : ndarray of shape (n_samples,)
        The code in ``[0, k)`` of each item's true class.
    y_probas : list of array-like of shape (n_samples, k)
        Each system's probabilities, read as given (float32 stays float32).
    k : int
        The number of classes.
    weight : ndarray of shape (n_samples,), default=None
        Sample weights, carried by their items.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_faithful.holdout._proba_resampler import ProbaResampler
    >>> codes = np.array([0, 1, 1, 0])
    >>> proba = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [1.0, 0.0]])
    >>> ProbaResampler(codes, [proba], 2).totals()[0]  # cTP, cTP + cFP, TP + FN
    array([[1.9, 1.2, 2.7, 1.3, 2. , 2. ]])
    """

    def __init__(self, codes, y_probas, k, weight=None):
        self.probas = [np.asarray(p) for p in y_probas]
        self.k = k
        self.weight = None if weight is None else np.asarray(weight, np.float64)
        self.n = codes.shape[0]
        self.order, self.bounds = _class_order(codes, k)

    def _features(self, start, stop, systems):
        """``[w p_s ... | w]`` of the items ``order[start:stop]``, float64."""
        idx = self.order[start:stop]
        k = self.k
        out = np.empty((stop - start, k * len(systems) + 1))
        for s, system in enumerate(systems):
            out[:, s * k : (s + 1) * k] = self.probas[system][idx]
        if self.weight is None:
            out[:, -1] = 1.0
        else:
            out[:, -1] = self.weight[idx]
            out[:, :-1] *= out[:, -1:]
        return out

    def _assemble(self, tp, pred, true):
        """(c, 3k) sums of each system from the per-system (c, s, k) parts."""
        return [np.hstack([tp[:, s], pred[:, s], true]) for s in range(tp.shape[1])]

    def totals(self):
        """The sums of the data itself, one (1, 3k) array per system."""
        s, k = len(self.probas), self.k
        tp, pred, true = np.zeros((1, s, k)), np.zeros((1, s, k)), np.zeros((1, k))
        rows = _rows_per_chunk(s * k + 1)
        for j, start, stop in _tiles(self.bounds, rows):
            sums = self._features(start, stop, range(s)).sum(axis=0)
            pred[0] += sums[:-1].reshape(s, k)
            tp[0, :, j] += sums[j : s * k : k]
            true[0, j] += sums[-1]
        return self._assemble(tp, pred, true)

    def bootstrap(self, rng, n_resamples):
        """Yield, chunk by chunk, the list of (c, 3k) sums of each system.

        Resample ``r`` draws ``N_rt`` items from tile ``t`` (multinomial over
        the tiles, probabilities their sizes over ``n``) and those uniformly
        within the tile; ``W_t @ [w p | w]`` adds the tile's sums.
        """
        s, k = len(self.probas), self.k
        width = s * k + 1
        for c in _chunks(n_resamples, _TILE_ENTRIES >> _MIN_BITS):
            bits = _tile_bits(c, width)
            tiles = _tiles(self.bounds, 1 << bits)
            sizes = np.array([stop - start for _, start, stop in tiles])
            drawn = rng.multinomial(self.n, sizes / self.n, size=c)
            tp, pred, true = np.zeros((c, s, k)), np.zeros((c, s, k)), np.zeros((c, k))
            with one_blas_thread():
                for t, (j, start, stop) in enumerate(tiles):
                    m, counts = sizes[t], drawn[:, t]
                    if m == 1 << bits:
                        codes = _uniform_codes(rng, int(counts.sum()), bits)
                    else:
                        codes = rng.integers(0, m, size=int(counts.sum()))
                    where = np.repeat(np.arange(0, c * m, m), counts)
                    where += codes
                    draws = np.bincount(where, minlength=c * m).reshape(c, m)
                    sums = draws.astype(np.float64) @ self._features(
                        start, stop, range(s)
                    )
                    pred += sums[:, :-1].reshape(c, s, k)
                    tp[:, :, j] += sums[:, j : s * k : k]
                    true[:, j] += sums[:, -1]
            yield self._assemble(tp, pred, true)

    def permute(self, rng, n_resamples):
        """Yield the sums of two systems whose outputs are swapped item by item.

        Each item's two outputs are exchanged with probability 1/2, by fair
        random bits ``S``; ``S @ w (p_B - p_A)`` is what the swaps move from
        B's sums to A's.
        """
        k = self.k
        base_a, base_b = self.totals()
        for c in _chunks(n_resamples, _TILE_ENTRIES >> _MIN_BITS):
            bits = _tile_bits(c, 2 * k + 1)
            tp, pred = np.zeros((c, k)), np.zeros((c, k))
            with one_blas_thread():
                for j, start, stop in _tiles(self.bounds, 1 << bits):
                    features = self._features(start, stop, (0, 1))
                    delta = features[:, k : 2 * k] - features[:, :k]
                    swaps = _fair_bits(rng, c * (stop - start)).reshape(c, -1)
                    moved = swaps.astype(np.float64) @ delta
                    pred += moved
                    tp[:, j] += moved[:, j]
            moved = np.hstack([tp, pred, np.zeros((c, k))])
            yield [base_a + moved, base_b - moved]

    def jackknife(self, metric_of):
        """The metric of the first system with each item left out, and weights.

        Leaving item ``i`` of class ``j`` out takes ``w_i p_ij`` from
        ``cTP_j``, ``w_i p_i`` from the predicted masses and ``w_i`` from the
        true count ``j``: the values come from the totals in closed form, a
        chunk of items at a time. Returns the values (in the class order of
        the items; the jackknife uses only their weighted moments) and a
        weight of 1 for each.
        """
        k = self.k
        (total,) = self.totals()[:1]
        values = []
        for j, start, stop in _tiles(self.bounds, _rows_per_chunk(3 * k)):
            features = self._features(start, stop, (0,))
            sums = np.repeat(total, stop - start, axis=0)
            sums[:, j] -= features[:, j]
            sums[:, k : 2 * k] -= features[:, :k]
            sums[:, 2 * k + j] -= features[:, -1]
            values.append(metric_of(sums))
        return np.concatenate(values), np.ones(self.n)

"""Confidence sets of ranks from the bootstrap of estimates, shared by the rooms.

Mogstad, Romano, Shaikh and Wilhelm's (2024) sets: an item's rank is 1 plus
the number of items of a higher estimate; the items significantly above and
below it, by simultaneous two-sided bounds on the differences of estimates,
bound it (formulas page, "Rank sets"). ``eval_logs.rank_intervals`` (runs'
means) and ``battles.bradley_terry`` (ratings) both call :func:`rank_sets`.
"""

import numpy as np

# a standard error (or a deviation) at most this share of the largest
# standard error of the family is a rounding error of an exact 0
_TOLERANCE = 1e-9


def _studentized(deviation, se, tol):
    """``deviation / se``; where ``se`` is 0 (at most ``tol``): 0 for no
    deviation, else an infinite one (a resample of no spread that moved)."""
    t = np.zeros(np.broadcast_shapes(deviation.shape, se.shape))
    spread = se > tol
    np.divide(deviation, se, out=t, where=spread)
    moved = ~spread & (np.abs(deviation) > tol)
    t[moved] = np.copysign(np.inf, deviation)[moved]
    return t


def _above(estimate, se, critical, tol):
    """Whether each bound ``estimate - critical * se`` exceeds 0; a pair of
    standard error 0 is above when its estimate is."""
    spread = se > tol
    bound = estimate - critical * np.where(spread, se, 1.0)
    return np.where(spread, bound > 0, estimate > tol)


def _stepdown(t_of, estimate, se, active, level, tol, step_down=True):
    """The pairs of a family found significantly positive, by the max-t.

    The family is in blocks: ``t_of(i)`` gives block ``i``'s studentized
    bootstrap deviations (n_resamples, P_i), and ``estimate[i]``, ``se[i]``
    and ``active[i]`` its differences, standard errors and the pairs in the
    family (both orders of a pair: the family is two-sided). The critical
    value ``c`` is the ``level`` quantile of the bootstrap maximum over the
    pairs not yet rejected; a pair whose lower bound ``estimate - c se``
    exceeds 0 is rejected, and, with ``step_down``, ``c`` is recomputed over
    the rest until nothing new is rejected (Romano and Wolf's step-down;
    Mogstad et al., Algorithm 3.1 and Remark 3.3). A pair of standard error
    0 is rejected when its estimate is above 0. Returns the rejected pairs,
    per block.
    """
    active = [m.copy() for m in active]
    rejected = [np.zeros_like(m) for m in active]
    while any(m.any() for m in active):
        largest = None
        for i, m in enumerate(active):
            if m.any():
                block = t_of(i)[:, m].max(axis=1)
                largest = block if largest is None else np.maximum(largest, block)
        # inf - inf in the interpolation is nan: the quantile is infinite
        critical = float(np.nan_to_num(np.quantile(largest, level), nan=np.inf))
        # a critical value below 0 would reject differences of the wrong sign
        critical = max(critical, 0.0)
        new = [
            m & _above(e, s, critical, tol)
            for m, e, s in zip(active, estimate, se, strict=True)
        ]
        if not any(n.any() for n in new):
            break
        for m, r, n in zip(active, rejected, new, strict=True):
            r |= n
            m &= ~n
        if not step_down:
            break
    return rejected


def rank_sets(
    estimate, boot, se=None, boot_se=None, *, confidence_level, step_down=True
):
    """Each item's rank with its marginal and simultaneous confidence sets.

    Parameters
    ----------
    estimate : ndarray of shape (n_items,)
        The estimates ranked: rank 1 is the highest.
    boot : ndarray of shape (n_resamples, n_items)
        Bootstrap draws of the estimates, all items of a resample together.
    se : ndarray of shape (n_items, n_items), default=None
        Standard error of each difference ``estimate[a] - estimate[b]``;
        None: the bootstrap standard deviation of the differences.
    boot_se : callable, default=None
        ``boot_se(a)`` gives each resample's own standard errors of the
        differences ``(a, b)``, an array (n_resamples, n_items), computed as
        ``se`` is on the data: the studentized bootstrap (bootstrap-t). None:
        every resample's deviation is divided by ``se``.
    confidence_level : float
        Level of the sets.
    step_down : bool, default=True
        Recompute the critical value over the pairs not yet separated until
        no new pair is (the step-down); False: the single-step sets, which
        hold the step-down ones.

    Returns
    -------
    rank : ndarray of int
        1 plus the number of items of a higher estimate.
    marginal, simultaneous : tuple of two ndarrays of int
        ``(low, high)`` of each item's marginal set (from the family of its
        ``K - 1`` pairs) and of the simultaneous sets (all pairs).

    Notes
    -----
    A pair ``(a, b)`` is separated, ``a`` above ``b``, when ``d_ab - c
    s_ab > 0``, with ``c`` the ``confidence_level`` quantile of the
    bootstrap maximum of ``(d*_ab - d_ab) / s*_ab`` over the pairs of the
    family, both orders (``s*_ab = s_ab`` without ``boot_se``). An item's
    set is ``[1 + N-, K - N+]``, ``N-`` the items separated above it and
    ``N+`` those below (Mogstad et al., eq. 3.3).
    """
    estimate = np.asarray(estimate, dtype=np.float64)
    k = estimate.shape[0]
    if se is None:
        se = np.stack([np.std(boot[:, [a]] - boot, axis=0, ddof=1) for a in range(k)])
    others = ~np.eye(k, dtype=bool)
    tol = _TOLERANCE * float(np.max(se[others], initial=0.0))
    rank = 1 + (estimate[None, :] > estimate[:, None]).sum(axis=1)
    diff = estimate[:, None] - estimate[None, :]

    def t_of(a):
        """Item ``a``'s pairs ``(a, b)``, (n_resamples, K)."""
        deviation = (boot[:, [a]] - boot) - diff[a]
        return _studentized(deviation, se[a] if boot_se is None else boot_se(a), tol)

    # all pairs: block a holds the pairs (a, b), computed again at each step
    # rather than held (n_resamples x K^2 values)
    better = np.stack(
        _stepdown(t_of, diff, se, others, confidence_level, tol, step_down)
    )  # better[a, b]: a significantly above b
    simultaneous = (1 + better.sum(axis=0), k - better.sum(axis=1))
    low, high = np.empty(k, dtype=int), np.empty(k, dtype=int)
    for j in range(k):
        # item j's pairs, both orders: (j, b) and (b, j) = -(j, b)
        t = t_of(j)
        t = np.hstack([t, -t])
        (found,) = _stepdown(
            lambda _, t=t: t,
            [np.concatenate([diff[j], -diff[j]])],
            [np.concatenate([se[j], se[j]])],
            [np.concatenate([others[j], others[j]])],
            confidence_level,
            tol,
            step_down,
        )
        low[j], high[j] = 1 + found[k:].sum(), k - found[:k].sum()
    return rank, (low, high), simultaneous

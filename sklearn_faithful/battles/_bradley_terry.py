"""Bradley-Terry ratings of pairwise battles, with bootstrap intervals.

:func:`bradley_terry` fits the ratings by maximum likelihood (``_fit.py``),
resamples the battles for intervals of each rating and each rank, and
returns a :class:`BradleyTerryResult`.
"""

import dataclasses
import math
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.special import ndtri
from sklearn.utils.parallel import Parallel, delayed

from ..utils._param_validation import HasMethods, Interval, StrOptions, validate_params
from ..utils._random import _generator
from ..utils._rank_sets import rank_sets
from ..utils._results import (
    ConfidenceInterval,
    _level_text,
    _ResultMixin,
    _summary_table,
    _text_table,
)
from ..utils._validation import CONFIDENCE_LEVEL, N_JOBS, RANDOM_STATE, check_matplotlib
from ._data import TIE, _check_battles, _check_mle_exists
from ._fit import fit_ratings, pair_counts, wins_losses_ties
from ._options import INTERVALS, SCALES, TIES

# Elo-like points per unit of log-strength, and the rating of the reference
ELO_POINTS = 400 / math.log(10)
ELO_BASE = 1000.0
# the ridge penalty of a resample whose maximum-likelihood ratings do not
# exist (a system wins or loses all its resampled battles)
_FALLBACK_ALPHA = 1e-6


@dataclasses.dataclass(frozen=True)
class BradleyTerryResult(_ResultMixin):
    """Bradley-Terry ratings of systems from pairwise battles.

    Shaped like scipy's ``BootstrapResult`` for a vector statistic:
    ``ratings`` with ``confidence_interval``, ``standard_error`` and
    ``bootstrap_distribution``, one entry per system; with the ranks and
    their confidence sets beside them. Built by :func:`bradley_terry`.

    Attributes
    ----------
    systems : tuple of str
        The systems, in the order of every array.
    ratings : ndarray of shape (n_systems,)
        The maximum-likelihood ratings on ``scale``: log-strengths, or
        Elo-like points (``1000 + 400 / ln 10 * log-strength``), with the
        mean log-strength 0 (``reference=None``) or the reference's 0.
    confidence_interval : ConfidenceInterval
        ``(low, high)``, arrays of shape (n_systems,): the bootstrap interval
        of each rating, battles resampled, as ``interval`` says.
    standard_error : ndarray of shape (n_systems,)
        Bootstrap standard error of each rating.
    bootstrap_distribution : ndarray of shape (n_resamples, n_systems)
        The ratings of each resample.
    ranks : ndarray of shape (n_systems,)
        Each system's rank by rating, 1 the best (ties share the best rank).
    rank_sets : ndarray of shape (n_systems, 2)
        Each system's marginal confidence set of ranks ``[best, worst]``:
        covers its true rank with probability ``confidence_level``.
    simultaneous_rank_sets : ndarray of shape (n_systems, 2)
        Confidence sets that cover every system's rank together with
        probability ``confidence_level``.
    win_probability : ndarray of shape (n_systems, n_systems)
        ``win_probability[i, j]`` is the fitted probability that system i
        beats system j, ``1 / (1 + exp(-(theta_i - theta_j)))``: with
        ``ties="half"`` its expected score (a tie half a win), with
        Davidson's model its probability of winning a battle that is not a
        tie. The diagonal is 0.5.
    tie_parameter : float
        Davidson's ``nu`` (NaN unless ``ties="davidson"``): the probability
        of a tie between equal systems is ``nu / (2 + nu)``.
    ties, scale : str
        How ties were counted, and the scale of the ratings.
    reference : str or None
        The system rated 0 (1000 on the Elo scale); None: the mean
        log-strength is 0.
    alpha : float
        The ridge penalty ``alpha * sum(theta**2)`` (0: maximum likelihood).
    n_battles, n_ties : int
        The battles fitted (ties included unless dropped), and the ties among
        them.
    n_unrated_resamples : int
        Resamples whose maximum-likelihood ratings do not exist (a system
        wins or loses all its resampled battles); they are rated with the
        penalty ``alpha=1e-6``, so their extreme ratings widen the intervals.
    interval : str
        How the rating intervals are read from the bootstrap distribution:
        ``"normal"``, ``"percentile"`` or ``"basic"`` (see
        :func:`bradley_terry`).
    confidence_level : float
        Level of the intervals and the rank sets.
    n_resamples : int
        Bootstrap resamples.

    See Also
    --------
    bradley_terry : Builds this result.

    Examples
    --------
    >>> from sklearn_faithful.battles import bradley_terry
    >>> battles = [("x", "y", "a"), ("y", "z", "b"), ("z", "x", "tie"),
    ...            ("x", "z", "a"), ("y", "x", "a"), ("y", "z", "a")] * 5
    >>> res = bradley_terry(battles, n_resamples=199, random_state=0)
    >>> res.systems
    ('x', 'y', 'z')
    >>> round(float(res.ratings[0]), 3), res.ranks.tolist()
    (0.343, [1, 2, 3])
    """

    systems: tuple
    ratings: np.ndarray
    confidence_interval: ConfidenceInterval
    standard_error: np.ndarray
    bootstrap_distribution: np.ndarray = dataclasses.field(repr=False)
    ranks: np.ndarray
    rank_sets: np.ndarray
    simultaneous_rank_sets: np.ndarray
    win_probability: np.ndarray
    tie_parameter: float
    ties: str
    scale: str
    reference: object
    alpha: float
    n_battles: int
    n_ties: int
    n_unrated_resamples: int
    interval: str
    confidence_level: float
    n_resamples: int

    _not_in_dict = ("bootstrap_distribution",)

    @validate_params({"as_frame": ["boolean"]}, prefer_skip_nested_validation=True)
    def summary(self, as_frame=False):
        """Each system's rating, interval, rank and rank sets, best first.

        Parameters
        ----------
        as_frame : bool, default=False
            Return the table as a pandas DataFrame (indexed by system)
            instead of text.

        Returns
        -------
        summary : str or pandas.DataFrame
            The table, headed by the model, the scale and the level.
        """
        order = np.argsort(-self.ratings, kind="stable")
        ci = self.confidence_interval
        cols = {
            "system": [self.systems[k] for k in order],
            "rating": [float(self.ratings[k]) for k in order],
            "lower": [float(ci.low[k]) for k in order],
            "upper": [float(ci.high[k]) for k in order],
            "rank": [str(int(self.ranks[k])) for k in order],
            "rank set": [_set_text(self.rank_sets[k]) for k in order],
            "simultaneous": [_set_text(self.simultaneous_rank_sets[k]) for k in order],
        }
        if as_frame:
            return _summary_table(cols, True, index="system")
        return "\n".join([self._headline(), *_text_table(cols)])

    def _headline(self):
        model = {
            "half": "Bradley-Terry, a tie half a win",
            "drop": "Bradley-Terry, ties dropped",
            "davidson": f"Davidson (ties), nu = {self.tie_parameter:.4f}",
        }[self.ties]
        scale = (
            "log-strength"
            if self.scale == "log"
            else f"Elo-like points ({ELO_POINTS:.1f} per log-strength)"
        )
        zero = (
            "mean log-strength 0"
            if self.reference is None
            else f"{self.reference} at 0 log-strength"
        )
        if self.scale == "elo":
            zero = zero.replace(" 0 log-strength", " 1000").replace(
                "mean log-strength 0", "mean 1000"
            )
        penalty = f", ridge alpha={self.alpha:g}" if self.alpha else ""
        lines = [
            f"{model}{penalty}: {len(self.systems)} systems, {self.n_battles} "
            f"battles ({self.n_ties} ties); ratings in {scale}, {zero}.",
            f"{_level_text(self.confidence_level)} {self.interval} bootstrap "
            f"intervals and rank sets, {self.n_resamples} resamples of the "
            "battles.",
        ]
        if self.n_unrated_resamples:
            lines.append(
                f"{self.n_unrated_resamples} resamples had no finite ratings "
                "(a system won or lost all its battles)."
            )
        return "\n".join(lines)

    @validate_params(
        {"ax": [HasMethods(["errorbar", "set_yticks"]), None]},
        prefer_skip_nested_validation=True,
    )
    def plot(self, ax=None):
        """Each system's rating with its interval, best at the top.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None creates a figure.

        Returns
        -------
        ax : matplotlib Axes
            The axes drawn on.
        """
        plt = check_matplotlib("BradleyTerryResult.plot")
        order = np.argsort(self.ratings, kind="stable")
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 1.2 + 0.35 * len(order)))
        y = np.arange(len(order))
        low, high = self.confidence_interval
        centre = self.ratings[order]
        ax.errorbar(
            centre,
            y,
            xerr=[centre - low[order], high[order] - centre],
            fmt="o",
            capsize=3,
        )
        ax.set_yticks(y, [self.systems[k] for k in order])
        ax.set_xlabel(
            "rating (log-strength)" if self.scale == "log" else "rating (Elo-like)"
        )
        ax.set_title(
            f"Bradley-Terry ratings, {_level_text(self.confidence_level)} intervals"
        )
        return ax


def _set_text(pair):
    lo, hi = int(pair[0]), int(pair[1])
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _ranks(ratings):
    """Rank 1 the best; equal ratings share the best of their ranks."""
    return 1 + (ratings[..., None, :] > ratings[..., :, None]).sum(axis=-1)


def _rank_sets(theta, draws, confidence_level, step_down=True):
    """Marginal and simultaneous rank sets, each (n_systems, 2) ``[best, worst]``.

    Mogstad, Romano, Shaikh and Wilhelm (2024), the two-sided step-down
    max-t on the bootstrap of the rating differences
    (:func:`~sklearn_faithful.utils._rank_sets.rank_sets`): system j is
    surely above i when ``d_ji - c * se_ji > 0``, ``se`` the bootstrap
    standard error. The rank set of i is ``[1 + #surely above, k - #surely
    below]``.
    """
    _, marginal, simultaneous = rank_sets(
        theta, draws, confidence_level=confidence_level, step_down=step_down
    )
    return np.column_stack(marginal), np.column_stack(simultaneous)


def _rating_interval(ratings, boot, standard_error, interval, confidence_level):
    """Each rating's ``(low, high)`` from its bootstrap distribution ``boot``
    (n_resamples, n_systems): normal (``rating -+ z * se``), percentile (the
    quantiles of ``boot``) or basic (``2 * rating`` minus them)."""
    tail = (1 - confidence_level) / 2
    if interval == "normal":
        half = ndtri(1 - tail) * standard_error
        return ratings - half, ratings + half
    low, high = np.quantile(boot, [tail, 1 - tail], axis=0)
    if interval == "basic":
        return 2 * ratings - high, 2 * ratings - low
    return low, high


def _rated(k, i, j, w, lost, t):
    """Whether each row's maximum-likelihood ratings exist: the graph with an
    edge from each winner to its loser (both ways for a tie) is strongly
    connected (every system reaches every other: the closure by repeated
    squaring of the adjacency matrix, all rows at once)."""
    reach = np.zeros((w.shape[0], k, k))
    reach[:, np.arange(k), np.arange(k)] = 1.0
    reach[:, i, j] = (w + t) > 0
    reach[:, j, i] = (lost + t) > 0
    for _ in range(int(np.ceil(np.log2(k)))):
        reach = (reach @ reach > 0).astype(float)
    return reach.min(axis=(1, 2)) > 0


def _fit_block(k, i, j, counts, ties, alpha, theta0):
    """Ratings of a block of resampled counts, and how many had no
    maximum-likelihood ratings (refitted with a small penalty)."""
    w, lost, t = wins_losses_ties(counts, len(i), ties)
    theta = np.empty((len(counts), k))
    # a resample without ties (or with only ties) has no Davidson fit
    davidson = np.full(len(counts), ties == "davidson")
    davidson &= (t.sum(axis=1) > 0) & ((w + lost).sum(axis=1) > 0)
    rated = _rated(k, i, j, w, lost, t) if alpha == 0 else np.ones(len(counts), bool)
    for model in (True, False):
        for ok in (True, False):
            rows = (davidson == model) & (rated == ok)
            if rows.any():
                theta[rows] = fit_ratings(
                    k,
                    i,
                    j,
                    w[rows],
                    lost[rows],
                    t[rows] if model else np.zeros_like(t[rows]),
                    davidson=model,
                    alpha=alpha if ok else _FALLBACK_ALPHA,
                    theta0=theta0[rows] if ok else None,
                )[0]
    return theta, int((~rated).sum())


@validate_params(
    {
        "battles": ["array-like"],
        "columns": [tuple, list, None],
        "systems": ["array-like", None],
        "winner_codes": [dict, None],
        "ties": [StrOptions(set(TIES))],
        "scale": [StrOptions(set(SCALES))],
        "reference": [str, None],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "interval": [StrOptions(set(INTERVALS))],
        "confidence_level": CONFIDENCE_LEVEL,
        "n_resamples": [Interval(Integral, 2, None, closed="left")],
        "random_state": RANDOM_STATE,
        "n_jobs": N_JOBS,
    },
    prefer_skip_nested_validation=True,
)
def bradley_terry(
    battles,
    *,
    columns=None,
    systems=None,
    winner_codes=None,
    ties="half",
    scale="log",
    reference=None,
    alpha=0.0,
    interval=INTERVALS[0],
    confidence_level=0.95,
    n_resamples=999,
    random_state=None,
    n_jobs=None,
):
    """Rate systems from pairwise battles, with intervals of ratings and ranks.

    Fits Bradley-Terry ratings by maximum likelihood: system i beats system
    j with probability ``1 / (1 + exp(-(theta_i - theta_j)))``. A tie is
    half a win for each (``ties="half"``, as arena-hard-auto and Chatbot
    Arena count it), Davidson's tie parameter (``ties="davidson"``), or
    left out (``ties="drop"``). The battles are resampled (the bootstrap)
    for each rating's interval, each system's marginal and simultaneous
    rank sets, and the standard errors.

    Parameters
    ----------
    battles : DataFrame, list of dict or array-like of shape (n_battles, 3)
        One battle a row: system a, system b and the winner: ``"a"``,
        ``"b"`` or ``"tie"``, or as lmarena's arena-hard-auto and the
        Chatbot Arena dumps write them, ``"model_a"``, ``"model_b"``,
        ``"tie"`` and ``"tie (bothbad)"`` (a tie); white space and case do
        not matter. A DataFrame, records or a dict of columns name them
        ``model_a``, ``model_b``, ``winner`` (or ``system_a``, ``system_b``,
        ``winner``), else as ``columns`` says; a dict of columns too.
    columns : tuple of 3 str, default=None
        The names of the columns (fields) of system a, system b and the
        winner; None tries ``("model_a", "model_b", "winner")`` and
        ``("system_a", "system_b", "winner")``.
    systems : array-like of str, default=None
        The systems to rate, in the order of the result; each must battle.
        None rates every system that battles, sorted.
    winner_codes : dict, default=None
        More winner codes: ``{code: "a" | "b" | "tie" | "drop"}``, such as
        ``{"draw": "tie", "tie (bothbad)": "drop"}``; ``"drop"`` leaves the
        battle out.
    ties : {"half", "davidson", "drop"}, default="half"
        How a tie counts: half a win for each system; Davidson's (1970)
        model with a tie parameter fitted beside the ratings; or not at all.
    scale : {"log", "elo"}, default="log"
        The ratings' scale: log-strengths ``theta``, or Elo-like points
        ``1000 + 400 / ln 10 * theta`` (a difference of 400 points is odds
        of 10 to 1), as Chatbot Arena prints them.
    reference : str, default=None
        The system whose log-strength is 0 (1000 points); None makes the
        mean log-strength 0.
    alpha : float, default=0.0
        A ridge penalty ``alpha * sum(theta**2)`` on the log-likelihood (as
        ``choix``'s ``alpha``; a normal prior of variance ``1 / (2 *
        alpha)``), which rates systems that win or lose every battle and
        groups that never meet; 0 is maximum likelihood.
    interval : {"normal", "percentile", "basic"}, default="normal"
        How each rating's interval is read from its bootstrap distribution
        ``theta*`` (level ``1 - 2 a``): ``rating -+ z_(1-a) * se``, ``se``
        the bootstrap standard error (normal); the ``a`` and ``1 - a``
        quantiles of ``theta*`` (percentile); or ``2 * rating`` minus them
        (basic). The normal interval held its level in every simulated
        setting; the percentile one covered as little as 93.2% (see Notes).
    confidence_level : float, default=0.95
        Level of the intervals and the rank sets, in (0, 1).
    n_resamples : int, default=999
        Bootstrap resamples of the battles.
    random_state : int, RandomState instance, Generator or None, default=None
        Seed of the resampling.
    n_jobs : int, default=None
        Resamples fitted in parallel (joblib); None is 1.

    Returns
    -------
    result : BradleyTerryResult
        The ratings, their intervals, the ranks and rank sets, and the win
        probabilities.

    Raises
    ------
    ValueError
        For a battle of a system with itself, an unknown winner code (ties
        coded in several unknown ways say how to map them), a system of
        ``systems`` that never battles, groups of systems that never meet, a
        system that wins (loses) every battle (the maximum-likelihood
        ratings do not exist: give ``alpha > 0``), and ``ties="davidson"``
        without ties.

    See Also
    --------
    BradleyTerryResult : The result.

    Notes
    -----
    The log-likelihood (eq. BT-1 of doc/formulas.rst) of a pair with ``w``
    wins of i, ``l`` of j and ``t`` ties is ``w d/2 - l d/2 + t log(nu) -
    (w + l + t) log(exp(d/2) + exp(-d/2) + nu)``, with ``d = theta_i -
    theta_j`` and Davidson's ``nu`` (0 for Bradley-Terry). Newton's method
    maximises it under the constraint ``sum(theta) = 0``. The maximum
    exists when the graph with an edge from each battle's winner to its
    loser (both ways for a tie) is strongly connected (Zermelo 1929; Ford
    1957). Ratings agree with ``choix`` and with an unpenalised logistic
    regression on the +1/-1 design to 1e-6 (tests/battles/).

    In ``benchmarks/sim_battles.py`` (10 and 30 systems, 3-100 battles a
    pair, with and without ties) the 95% normal intervals covered 94.7-96.1%
    (Monte-Carlo s.e. 0.4-0.5), within two s.e. of 95% or above in all six
    settings, two of them held back; the percentile intervals covered
    93.2-94.8%, short by up to three s.e. with few battles, and the basic
    ones 94.1-96.1%.

    The rank sets follow Mogstad, Romano, Shaikh and Wilhelm (2024): the
    bootstrap quantile of the largest standardised error of the rating
    differences of a system's pairs (every pair, for the simultaneous
    sets) decides which systems are surely above or below it.

    References
    ----------
    .. [1] R. A. Bradley and M. E. Terry, "Rank analysis of incomplete block
       designs: I. The method of paired comparisons", Biometrika 39 (1952).
    .. [2] R. R. Davidson, "On extending the Bradley-Terry model to
       accommodate ties in paired comparison experiments", JASA 65 (1970).
    .. [3] M. Mogstad, J. P. Romano, A. M. Shaikh and D. Wilhelm, "Inference
       for ranks with applications to mobility across neighbourhoods and
       academic achievement across countries", Review of Economic Studies
       91 (2024).

    Examples
    --------
    >>> from sklearn_faithful.battles import bradley_terry
    >>> battles = {"model_a": ["x", "x", "y", "y", "z", "x"] * 5,
    ...            "model_b": ["y", "z", "z", "x", "x", "y"] * 5,
    ...            "winner": ["model_a", "model_a", "tie", "model_a",
    ...                       "tie (bothbad)", "model_b"] * 5}
    >>> res = bradley_terry(battles, scale="elo", n_resamples=99, random_state=0)
    >>> [round(float(r)) for r in res.ratings]
    [1011, 1077, 912]
    >>> round(float(res.win_probability[0, 2]), 3)
    0.639
    """
    names, a, b, outcome = _check_battles(
        battles, columns=columns, systems=systems, winner_codes=winner_codes
    )
    return _rate(
        names,
        a,
        b,
        outcome,
        ties=ties,
        scale=scale,
        reference=reference,
        alpha=alpha,
        interval=interval,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        random_state=random_state,
        n_jobs=n_jobs,
    )


def _rate(
    names,
    a,
    b,
    outcome,
    *,
    ties,
    scale,
    reference,
    alpha,
    confidence_level,
    n_resamples,
    random_state,
    n_jobs,
    interval=INTERVALS[0],
):
    """:func:`bradley_terry` on checked battles (the command line's entry)."""
    if reference is not None:
        reference = str(reference).strip()
        if reference not in names:
            raise ValueError(
                f"reference={reference!r} is not one of the systems {list(names)}."
            )
    if ties == "drop":
        keep = outcome != TIE
        a, b, outcome = a[keep], b[keep], outcome[keep]
        if not len(a):
            raise ValueError("battles holds only ties; ties='drop' leaves none.")
    n_ties = int((outcome == TIE).sum())
    if ties == "davidson" and (n_ties == 0 or n_ties == len(a)):
        what = "no tie" if n_ties == 0 else "only ties"
        raise ValueError(
            f"ties='davidson' fits a tie parameter, and battles holds {what}: "
            "its estimate would be infinite or zero; use ties='half'."
        )
    k = len(names)
    if alpha == 0:
        _check_mle_exists(names, a, b, outcome, ties)
    i, j, pair, kind = pair_counts(k, a, b, outcome, ties)
    counts = np.bincount(pair * 3 + kind, minlength=3 * len(i))
    w, lost, t = wins_losses_ties(counts[None], len(i), ties)
    davidson = ties == "davidson"
    theta, eta, _ = fit_ratings(k, i, j, w, lost, t, davidson=davidson, alpha=alpha)
    theta = theta[0]
    # the battles resampled, as counts of the (pair, outcome) cells
    rng = _generator(random_state)
    draws = rng.multinomial(len(a), counts / counts.sum(), size=n_resamples)
    n_blocks = max(1, min(n_resamples // 50, 8 * max(1, abs(n_jobs or 1))))
    blocks = np.array_split(draws, n_blocks)
    jobs = (
        delayed(_fit_block)(
            k, i, j, block, ties, alpha, np.tile(theta, (len(block), 1))
        )
        for block in blocks
    )
    fitted = Parallel(n_jobs=n_jobs)(jobs)
    boot = np.concatenate([f[0] for f in fitted])
    unrated = sum(f[1] for f in fitted)
    if unrated:
        warnings.warn(
            f"{unrated} of {n_resamples} resamples have no finite maximum-"
            "likelihood ratings (a system wins or loses all its resampled "
            f"battles); they are rated with a ridge penalty alpha="
            f"{_FALLBACK_ALPHA:g}, which widens the intervals. Pass alpha > 0 "
            "for ratings shrunk by a prior, or add battles.",
            UserWarning,
            stacklevel=3,
        )
    win = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    rank_sets, simultaneous = _rank_sets(theta, boot, confidence_level)

    def on_scale(x):
        if reference is not None:
            x = x - x[..., [names.index(reference)]]
        else:
            x = x - x.mean(axis=-1, keepdims=True)
        return x if scale == "log" else ELO_BASE + ELO_POINTS * x

    ratings, boot = on_scale(theta), on_scale(boot)
    standard_error = boot.std(axis=0, ddof=1)
    low, high = _rating_interval(
        ratings, boot, standard_error, interval, confidence_level
    )
    return BradleyTerryResult(
        systems=tuple(names),
        ratings=ratings,
        confidence_interval=ConfidenceInterval(low, high),
        standard_error=standard_error,
        bootstrap_distribution=boot,
        ranks=_ranks(theta),
        rank_sets=rank_sets,
        simultaneous_rank_sets=simultaneous,
        win_probability=win,
        tie_parameter=float(np.exp(eta[0])) if davidson else math.nan,
        ties=ties,
        scale=scale,
        reference=reference,
        alpha=float(alpha),
        n_battles=len(a),
        n_ties=n_ties,
        n_unrated_resamples=unrated,
        interval=interval,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
    )

"""Figures of the comparisons: posteriors, the difference B - A, pairs' intervals."""

import textwrap

import numpy as np
from scipy import ndimage

from ..utils._param_validation import HasMethods
from ..utils._validation import _validate_init_params

# Monte-Carlo draws of each posterior for the unpaired difference, their
# seed, and the bins of their density estimate.
_N_DRAWS = 100_000
_SEED = 0
_N_BINS = 1024
# The curve of the difference runs between these posterior quantiles.
_TAILS = (0.0025, 0.9975)
_N_GRID = 600
# Longest line of an axis label, in characters, before it wraps.
_LABEL_WIDTH = 40
# Longest line of a legend entry of a panel, in characters.
_LEGEND_WIDTH = 32
# Width of a character of a tick label, in inches (10 pt DejaVu Sans).
_CHAR_WIDTH = 0.075
# Colours of the three regions of the difference: B worse, equivalent, B better.
_REGION_COLORS = ("C3", "0.45", "C2")


class ComparisonDisplay:
    """Figure of a fitted comparison, as scikit-learn's displays.

    What :meth:`ModelComparison.plot` and :meth:`BayesModelComparison.plot`
    return, so that every comparison's ``plot()`` gives the same kind of
    object: the drawn Axes in ``ax_`` and their figure in ``figure_``, as
    :class:`~sklearn.metrics.ConfusionMatrixDisplay` has them. The plot
    methods build it; build one yourself only to wrap Axes you drew on.

    Parameters
    ----------
    comparison : ModelComparison or BayesModelComparison
        The fitted comparison drawn.

    axes : matplotlib Axes or array-like of Axes
        The Axes drawn on, one per panel.

    Attributes
    ----------
    ax_ : matplotlib Axes or ndarray of Axes
        The Axes of a one-panel figure (every :class:`ModelComparison`
        figure, and a :class:`BayesModelComparison` figure of one metric);
        with one panel per metric, their array, as ``axes_``.

    axes_ : ndarray of matplotlib Axes of shape (n_panels,)
        Every panel's Axes, in the order drawn.

    figure_ : matplotlib Figure
        The figure holding the Axes.

    See Also
    --------
    ModelComparison.plot : One row per pair of models.
    BayesModelComparison.plot : One panel per metric.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_faithful.comparison import ModelComparison
    >>> scores = {"a": [0.81, 0.79, 0.84, 0.80, 0.82, 0.78],
    ...           "b": [0.84, 0.80, 0.86, 0.83, 0.83, 0.81]}
    >>> disp = ModelComparison.from_scores(scores, 50, 50).plot()
    >>> type(disp).__name__, disp.ax_.get_title()
    ('ComparisonDisplay', "ModelComparison, test='corrected-t'")
    """

    _parameter_constraints = {
        "comparison": [HasMethods(["summary", "decide", "plot"])],
        "axes": "no_validation",
    }

    def __init__(self, comparison, axes):
        _validate_init_params(self, dict(comparison=comparison, axes=axes))
        self.comparison = comparison
        self.axes = axes
        self.axes_ = np.asarray(axes, dtype=object).ravel()
        self.ax_ = self.axes_[0] if self.axes_.size == 1 else self.axes_
        self.figure_ = self.axes_[0].figure


def _difference_label(metric, labels):
    """``"<metric> of B - A"``, on two or more lines if long."""
    names = f"{labels[1]} - {labels[0]}"
    text = f"{metric} of {names}"
    if len(text) <= _LABEL_WIDTH:
        return text
    return f"{metric} of\n" + textwrap.fill(
        names, width=_LABEL_WIDTH, break_long_words=False
    )


def _wrap(text, width):
    """``text`` on lines of at most ``width`` characters, words kept whole."""
    return textwrap.fill(text, width=width, break_long_words=False)


def _draw_rope(ax, low, high, label):
    return ax.axvspan(low, high, color="0.5", alpha=0.15, lw=0, label=label)


def _finish(ax, title, xlabel, top=None):
    """Title, labels, and a legend in the headroom above the curves."""
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("posterior density")
    ax.locator_params(axis="x", nbins=5)
    if top is None:
        ax.set_yticks([])
        top = 1.0
    ax.set_ylim(0, 1.6 * top)  # headroom: the legend sits above the curves
    handles, texts = ax.get_legend_handles_labels()
    texts = [_wrap(text, _LEGEND_WIDTH) for text in texts]  # within the panel
    ax.legend(handles, texts, loc="upper left", fontsize="small")


def _plot_posteriors(ax, res, labels):
    """The posteriors of A and of B with their credible intervals (Figures 1-3)."""
    top = 0.0
    for post, label, interval, color in (
        (res.posterior_a, labels[0], res.interval_a, "C0"),
        (res.posterior_b, labels[1], res.interval_b, "C1"),
    ):
        lo, hi = post.ppf([0.001, 0.999])
        t = np.linspace(lo, hi, 400)
        pdf = post.pdf(t)
        top = max(top, float(np.max(pdf)))
        ax.plot(t, pdf, color=color, label=label)
        band = (t >= interval.low) & (t <= interval.high)
        ax.fill_between(t[band], pdf[band], color=color, alpha=0.2, lw=0)
    if res.rope > 0:  # where B would be equivalent to A's posterior mean
        mean, rope = float(res.posterior_a.mean()), res.rope
        label = f"rope +/-{rope:g} around the mean of {labels[0]}"
        _draw_rope(ax, mean - rope, mean + rope, label)
    _finish(ax, f"{res.metric}: P(H1) = {res.p_h1:.3f}", res.metric, top)


def _binned_kde(draws):
    """Gaussian kernel density of ``draws``: a histogram smoothed by Scott's rule."""
    counts, edges = np.histogram(draws, bins=_N_BINS)
    width = edges[1] - edges[0]
    bandwidth = draws.std() * draws.size ** (-1 / 5)
    density = ndimage.gaussian_filter1d(
        counts.astype(np.float64), bandwidth / width, mode="constant"
    ) / (draws.size * width)
    centers = (edges[:-1] + edges[1:]) / 2
    return lambda t: np.interp(t, centers, density, left=0.0, right=0.0)


def _difference_density(res):
    """Support and density of ``nu_B - nu_A``, or ``(value, None)`` for a point mass.

    Paired: the posterior t of the result. Unpaired: A and B have independent
    posteriors, so the difference is drawn by Monte Carlo from both with a
    fixed seed and smoothed by a Gaussian kernel density estimate.
    """
    post = getattr(res, "posterior", None)
    if hasattr(res, "scale"):  # paired: a posterior t
        if res.scale == 0:
            return res.difference, None
        return tuple(post.ppf(_TAILS)), post.pdf
    rng = np.random.default_rng(_SEED)
    diff = res.posterior_b.rvs(_N_DRAWS, random_state=rng) - res.posterior_a.rvs(
        _N_DRAWS, random_state=rng
    )
    if np.ptp(diff) == 0:
        return float(diff[0]), None
    return tuple(np.quantile(diff, _TAILS)), _binned_kde(diff)


def _plot_difference(ax, res, labels):
    """The posterior of ``nu_B - nu_A`` with P(B worse), P(equivalent), P(B better).

    The three regions are cut at ``-rope`` and ``rope`` (at 0 without a rope)
    and labelled with the test's own probabilities.
    """
    rope = res.rope
    support, density = _difference_density(res)
    regions = (
        f"P(B worse) = {res.p_worse:.3f}",
        f"P(equivalent) = {res.p_equivalent:.3f}",
        f"P(B better) = {res.p_better:.3f}",
    )
    if density is None:  # a point mass: one stem, in the colour of its region
        value = support
        region = 0 if value < -rope else (2 if value > rope else 1)
        label = f"point mass at {value:+.3g}"
        ax.axvline(value, color=_REGION_COLORS[region], lw=2, label=label)
    else:
        lo, hi = support
        # Keep the rope (or 0) in view: the regions are defined by it.
        lo, hi = min(lo, -1.2 * rope), max(hi, 1.2 * rope)
        pad = 0.05 * (hi - lo)
        lo, hi = lo - pad, hi + pad
        t = np.union1d(np.linspace(lo, hi, _N_GRID), [-rope, rope])
        pdf = density(t)
        ax.plot(t, pdf, color="k", lw=1.2)
        cuts = (t <= -rope, (t >= -rope) & (t <= rope), t >= rope)
        for label, where, color in zip(regions, cuts, _REGION_COLORS, strict=True):
            if rope == 0 and color == _REGION_COLORS[1]:
                continue
            ax.fill_between(
                t, pdf, where=where, color=color, alpha=0.35, lw=0, label=label
            )
    if rope > 0:
        _draw_rope(ax, -rope, rope, f"rope +/-{rope:g}")
    ax.axvline(0.0, color="0.3", lw=0.8)
    if density is None:
        # No areas to shade: the probabilities go to the legend as text.
        for label in regions if rope > 0 else (regions[0], regions[2]):
            ax.plot([], [], " ", label=label)
        half = max(2.0 * rope, 1.5 * abs(value), 0.01)
        ax.set_xlim(-half, half)
        top = None
    else:
        top = float(np.max(pdf))
    title = f"{res.metric}: P(H1) = {res.p_h1:.3f}\n{res.decide()}"
    _finish(ax, title, _difference_label(res.metric, labels), top)


def _plot_comparison(plt, comp, metrics, kind, axes, labels):
    """Draw one panel per metric; the body of :meth:`BayesModelComparison.plot`."""
    if kind is None:
        kind = "difference" if comp.paired else "posteriors"
    if kind == "posteriors" and comp.paired:
        raise ValueError(
            "kind='posteriors' needs the unpaired test: with paired=True there is "
            "one posterior, of the difference B - A; use kind='difference'."
        )
    if len(labels) != 2:
        raise ValueError(f"labels must hold two names, of A and of B; got {labels!r}.")
    labels = tuple(str(label) for label in labels)
    metrics = list(comp.results_) if metrics is None else list(metrics)
    for metric in metrics:  # where and why it is undefined, and what to do
        if metric in comp.undefined_metrics_:
            raise ValueError(comp.undefined_metrics_[metric])
    unknown = [m for m in metrics if m not in comp.results_]
    if unknown:
        raise ValueError(
            f"metrics {unknown} were not tested; tested: {list(comp.results_)}."
        )
    if axes is None:
        size = (4.4 * len(metrics), 3.6)
        _, axes = plt.subplots(
            1, len(metrics), figsize=size, squeeze=False, layout="constrained"
        )
    axes = np.asarray(axes, dtype=object).ravel()
    if axes.size != len(metrics):
        raise ValueError(
            f"axes must hold one Axes per metric ({len(metrics)}); got {axes.size}."
        )
    draw = _plot_difference if kind == "difference" else _plot_posteriors
    for ax, metric in zip(axes, metrics, strict=True):
        draw(ax, comp.results_[metric], labels)
    return ComparisonDisplay(comp, axes)


def _plot_pairs(plt, comp, ax, labels):
    """One row per pair of models; the body of :meth:`ModelComparison.plot`."""
    pairs = comp.pairs_
    names = [
        _wrap(f"{labels.get(b, b)} - {labels.get(a, a)}", _LABEL_WIDTH)
        for a, b in pairs
    ]
    if ax is None:  # room for the longest name and every line of the names
        widest = max(len(line) for name in names for line in name.split("\n"))
        lines = max(name.count("\n") + 1 for name in names)
        size = (4.4 + _CHAR_WIDTH * widest, 1.4 + (0.25 + 0.2 * lines) * len(pairs))
        _, ax = plt.subplots(figsize=size, layout="constrained")
    table = comp.summary()
    rows = np.arange(len(pairs))[::-1]
    for k, (pair, y0) in enumerate(zip(pairs, rows, strict=True)):
        low, high = table["low"][k], table["high"][k]
        post = getattr(comp.results_[pair], "posterior", None)
        if post is not None:  # the Bayesian test: its density, shaded inside
            grid = np.linspace(*post.ppf([0.001, 0.999]), 200)
            dens = post.pdf(grid)
            dens = 0.4 * dens / dens.max()
            inside = (grid >= low) & (grid <= high)
            ax.fill_between(
                grid, y0, y0 + dens, where=inside, color="C0", alpha=0.35, lw=0
            )
            ax.plot(grid, y0 + dens, color="C0", lw=1)
        elif np.isfinite(low):
            ax.plot([low, high], [y0, y0], color="C0", lw=2)
        ax.plot(table["difference"][k], y0, "o", color="C0")
    if comp.rope > 0:
        _draw_rope(ax, -comp.rope, comp.rope, f"rope +/-{comp.rope:g}")
        ax.legend(loc="lower right", fontsize="small")
    ax.axvline(0, color="0.3", ls="--", lw=1)
    ax.set_yticks(rows, names)
    ax.set_ylim(-0.6, len(pairs) - 0.3)
    ax.locator_params(axis="x", nbins=5)
    what = "posterior" if post is not None else "interval"
    scoring = comp.scoring if isinstance(comp.scoring, str) else "score"
    ax.set_xlabel(
        _wrap(
            f"difference in {scoring or 'score'} "
            f"({100 * comp.confidence_level:g}% {what})",
            _LABEL_WIDTH,
        )
    )
    ax.set_title(f"ModelComparison, test={comp.test_!r}")
    return ComparisonDisplay(comp, ax)

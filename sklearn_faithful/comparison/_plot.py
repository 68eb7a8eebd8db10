"""Figures of BayesModelComparison: posteriors, or the posterior of the difference."""

import numpy as np

from ..utils._validation import check_matplotlib


def _plot_difference(ax, res, labels):
    """The posterior of ``nu_B - nu_A``, its credible interval and the rope."""
    post = res.posterior
    if res.scale > 0:
        lo, hi = post.ppf([0.001, 0.999])
        lo, hi = min(lo, -1.5 * res.rope), max(hi, 1.5 * res.rope)
        t = np.linspace(lo, hi, 400)
        ax.plot(t, post.pdf(t), color="C2")
        band = (t >= res.interval.low) & (t <= res.interval.high)
        ax.fill_between(t[band], post.pdf(t[band]), color="C2", alpha=0.2)
    else:
        ax.axvline(res.difference, color="C2")
    ax.axvline(0.0, color="0.3", lw=0.8)
    if res.rope > 0:
        ax.axvspan(-res.rope, res.rope, color="0.5", alpha=0.15, label="rope")
        ax.legend()
    ax.set_title(f"{res.metric}: P(H1) = {res.p_h1:.3f}, {res.decide()}")
    ax.set_xlabel(f"{res.metric} of {labels[1]} - {labels[0]}")
    ax.set_ylabel("posterior density")


def _plot_comparison(comp, metrics, axes, labels):
    """Draw one panel per metric; the body of :meth:`BayesModelComparison.plot`."""
    plt = check_matplotlib("BayesModelComparison.plot")
    metrics = list(comp.results_) if metrics is None else list(metrics)
    unknown = [m for m in metrics if m not in comp.results_]
    if unknown:
        raise ValueError(
            f"metrics {unknown} were not tested; tested: {list(comp.results_)}."
        )
    if axes is None:
        _, axes = plt.subplots(
            1, len(metrics), figsize=(4 * len(metrics), 3.2), squeeze=False
        )
    axes = np.asarray(axes, dtype=object).ravel()
    if axes.size != len(metrics):
        raise ValueError(
            f"axes must hold one Axes per metric ({len(metrics)}); got {axes.size}."
        )
    for ax, metric in zip(axes, metrics, strict=True):
        res = comp.results_[metric]
        if comp.paired:
            _plot_difference(ax, res, labels)
            continue
        for post, label, interval, color in (
            (res.posterior_a, labels[0], res.interval_a, "C0"),
            (res.posterior_b, labels[1], res.interval_b, "C1"),
        ):
            lo, hi = post.ppf([0.001, 0.999])
            t = np.linspace(lo, hi, 400)
            ax.plot(t, post.pdf(t), color=color, label=label)
            band = (t >= interval.low) & (t <= interval.high)
            ax.fill_between(t[band], post.pdf(t[band]), color=color, alpha=0.2)
        ax.set_title(f"{metric}: P(H1) = {res.p_h1:.3f}")
        ax.set_xlabel(metric)
        ax.set_ylabel("posterior density")
        ax.legend()
    return axes

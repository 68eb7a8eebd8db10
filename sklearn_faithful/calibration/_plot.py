"""The reliability diagram with consistency bands and a histogram of the predictions."""

from numbers import Real

import numpy as np
from scipy import optimize

from ..utils._calibration import (
    bin_codes,
    bin_edges,
    bin_sums,
    binary_problems,
    check_calibration_data,
    corp_terms,
    isotonic_recalibration,
)
from ..utils._calibration_options import (
    DEFAULT_METHOD,
    DEFAULT_N_BINS,
    DEFAULT_STRATEGY,
)
from ..utils._param_validation import HasMethods, Interval, StrOptions, validate_params
from ..utils._random import _generator
from ..utils._validation import (
    CONFIDENCE_LEVEL,
    POS_LABEL,
    RANDOM_STATE,
    _validate_init_params,
    check_matplotlib,
)
from ._estimators import ESTIMATOR_CONSTRAINTS, calibration_error
from ._inference import _RESAMPLING

CURVES = ("isotonic", "bins")
# The band of the isotonic curve is computed at most at this many of its
# points and interpolated between them, so that its memory is
# n_resamples x _BAND_POINTS whatever the number of distinct probabilities.
_BAND_POINTS = 512
# Consistency resamples of the bins hold about this many outcomes at a time.
_CHUNK_ENTRIES = 2**21
# The legend's short name of calibration_error's default estimator.
_ERROR_NAMES = {"binned": "ECE", "debiased": "L2 CE", "smooth": "smECE"}
_REF_LABEL = "Perfectly calibrated"
_HIST_LABEL = "histogram of the predictions"
# Where the histogram sits in the diagram (axes coordinates: x, y, width,
# height): the upper left, which a curve near the diagonal leaves empty.
_HIST_BOX = (0.07, 0.6, 0.36, 0.32)

_FROM_CONSTRAINTS = {
    "curve": [StrOptions(set(CURVES))],
    "n_bins": ESTIMATOR_CONSTRAINTS["n_bins"],
    "strategy": ESTIMATOR_CONSTRAINTS["strategy"],
    # one diagram draws one binary problem: classwise would be one per class
    "multi_class": [StrOptions({"auto", "top-label"})],
    "pos_label": ESTIMATOR_CONSTRAINTS["pos_label"],
    "bands": ["boolean"],
    "n_resamples": _RESAMPLING["n_resamples"],
    "confidence_level": CONFIDENCE_LEVEL,
    "random_state": RANDOM_STATE,
    "name": [str, None],
    "ax": "no_validation",  # a matplotlib Axes or None
    "ref_line": ["boolean"],
    "show_hist": ["boolean"],
}


def _curve(conf, out, curve, n_bins, strategy):
    """``(prob_true, prob_pred, codes)`` of the curve; ``codes`` are the
    items' bins (None for the isotonic curve)."""
    if curve == "isotonic":
        _, values, fitted = isotonic_recalibration(conf, out)
        return fitted, values, None
    codes = bin_codes(conf, bin_edges(conf, n_bins, strategy))
    count, conf_sum, out_sum = bin_sums(codes, n_bins, conf, out)
    keep = count > 0
    # empty bins are dropped, and the codes renumbered to the kept bins
    codes = (np.cumsum(keep) - 1)[codes]
    return out_sum[keep] / count[keep], conf_sum[keep] / count[keep], codes


def _consistency_band(conf, prob_pred, codes, n_resamples, confidence_level, rng):
    """Pointwise band of the curve of a calibrated model at these confidences.

    Outcomes are drawn from the confidences themselves, ``o* ~ Bernoulli(c)``
    (Bröcker & Smith 2007), the curve recomputed on each draw, and the
    ``(1 - confidence_level) / 2`` and ``(1 + confidence_level) / 2``
    quantiles taken at each point of the curve (``prob_pred``).
    """
    alpha = (1 - confidence_level) / 2
    if codes is None:
        # The isotonic curve of each draw, at up to _BAND_POINTS of its
        # points. prob_pred holds the distinct confidences, so the fit of
        # isotonic_recalibration is the PAV fit of their hit rates weighted
        # by their counts.
        values, inverse, total = np.unique(
            conf, return_inverse=True, return_counts=True
        )
        k = values.shape[0]
        at = np.unique(np.linspace(0, k - 1, _BAND_POINTS).round()).astype(np.intp)
        curves = []
        for drawn in _draws(rng, conf, n_resamples):
            flat = (np.arange(drawn.shape[0])[:, None] * k + inverse).ravel()
            size = drawn.shape[0] * k
            hits = np.bincount(flat, weights=drawn.ravel(), minlength=size)
            rates = hits.reshape(-1, k) / total
            curves += [
                optimize.isotonic_regression(row, weights=total).x[at] for row in rates
            ]
        low, high = np.quantile(curves, [alpha, 1 - alpha], axis=0)
        return (
            np.interp(prob_pred, values[at], low),
            np.interp(prob_pred, values[at], high),
        )
    n_bins = prob_pred.shape[0]
    count = np.bincount(codes, minlength=n_bins)
    curves = []
    for drawn in _draws(rng, conf, n_resamples):
        flat = (np.arange(drawn.shape[0])[:, None] * n_bins + codes).ravel()
        size = drawn.shape[0] * n_bins
        hits = np.bincount(flat, weights=drawn.ravel(), minlength=size)
        curves.append(hits.reshape(-1, n_bins) / count)
    return tuple(np.quantile(np.concatenate(curves), [alpha, 1 - alpha], axis=0))


def _draws(rng, conf, n_resamples):
    """Outcomes of a calibrated model, ``o* ~ Bernoulli(c)``, in blocks of
    resamples (a row each) of about _CHUNK_ENTRIES outcomes."""
    n = conf.shape[0]
    rows = max(1, _CHUNK_ENTRIES // n)
    for start in range(0, n_resamples, rows):
        yield rng.random((min(rows, n_resamples - start), n)) < conf


def _histogram_axes(ax):
    """The diagram's histogram inset, made once per Axes and then shared."""
    for child in ax.child_axes:
        if child.get_label() == _HIST_LABEL:
            return child
    inset = ax.inset_axes(_HIST_BOX)
    inset.set_label(_HIST_LABEL)
    inset.set_xlim(0, 1)
    inset.set_title("Predictions (count)", fontsize="small")
    inset.tick_params(labelsize="x-small")
    inset.set_facecolor("none")
    return inset


class ReliabilityDisplay:
    """Reliability diagram with consistency bands (a calibration curve).

    The reliability diagram of :class:`sklearn.calibration.CalibrationDisplay`,
    with its uncertainty drawn: the curve of the observed frequencies against
    the predicted probabilities, by default the CORP curve (isotonic
    regression of the outcomes on the probabilities, no bins; Dimitriadis,
    Gneiting & Jordan 2021), the band where the curve of a *calibrated* model
    would fall with this many items (consistency resampling; Bröcker & Smith
    2007), and a histogram of the predictions. A curve that leaves the band
    is evidence of miscalibration; a curve that wanders inside it is noise.
    Build it with :meth:`from_estimator` or :meth:`from_predictions`;
    matplotlib is needed (``pip install 'sklearn-faithful[plot]'``).

    Read more in the :ref:`User Guide <calibration>`.

    Parameters
    ----------
    prob_true : array-like of shape (n_points,)
        The observed frequency at each point of the curve: the isotonic
        (recalibrated) probabilities, or the fraction of positives per bin.

    prob_pred : array-like of shape (n_points,)
        The predicted probability at each point: the distinct probabilities
        (isotonic curve), or the mean probability per bin.

    y_proba : array-like of shape (n_samples,)
        The probability of each item in the diagram's binary problem (the
        positive class's, or the top label's), for the histogram.

    band_low : array-like of shape (n_points,), default=None
        Lower edge of the consistency band at ``prob_pred``; None: no band.

    band_high : array-like of shape (n_points,), default=None
        Upper edge of the consistency band at ``prob_pred``; None: no band.

    confidence_level : float, default=None
        The level of the band, for its legend entry.

    calibration_error : float, default=None
        The calibration error, written in the legend (``ECE``); None: not
        written.

    miscalibration : float, default=None
        The CORP miscalibration term of the Brier score (``MCB``), written in
        the legend; None: not written.

    curve : {"isotonic", "bins"}, default="isotonic"
        How the curve was made: a line through the isotonic fit, or markers
        at the bins' means.

    estimator_name : str, default=None
        Name of the estimator, for the legend. If None, no name.

    pos_label : int, float, bool or str, default=None
        The positive class, written on the axes. If None, not written (as for
        the top-label problem).

    Attributes
    ----------
    line_ : matplotlib Line2D
        The curve.

    band_ : matplotlib PolyCollection or None
        The shaded consistency band; None without one.

    hist_ : matplotlib BarContainer or None
        The 20 bars of the histogram of ``y_proba`` (bins of width 0.05);
        None if not shown.

    hist_ax_ : matplotlib Axes or None
        The inset Axes of the histogram, shared by the displays drawn on one
        Axes; None if not shown.

    ax_ : matplotlib Axes
        Axes of the diagram.

    figure_ : matplotlib Figure
        Figure holding the diagram.

    See Also
    --------
    calibration_error : The calibration error in the legend.
    corp_decomposition : The miscalibration term in the legend.
    calibration_test : The test that the bands illustrate.
    sklearn.calibration.CalibrationDisplay : The binned curve alone.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), 2021.
    .. [2] J. Bröcker and L. A. Smith, "Increasing the reliability of
       reliability diagrams", Weather and Forecasting 22(3), 2007.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn_faithful.calibration import ReliabilityDisplay
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    >>> disp = ReliabilityDisplay.from_estimator(clf, X, y, random_state=0)
    >>> disp.line_.get_label()[:15]
    'Pipeline (L2 CE'
    >>> bool((disp.band_low <= disp.band_high).all())
    True
    """

    _parameter_constraints = {
        "prob_true": ["array-like"],
        "prob_pred": ["array-like"],
        "y_proba": ["array-like"],
        "band_low": ["array-like", None],
        "band_high": ["array-like", None],
        "confidence_level": [*CONFIDENCE_LEVEL, None],
        "calibration_error": [Interval(Real, 0, 1, closed="both"), None],
        # MCB >= 0 up to rounding
        "miscalibration": [Interval(Real, None, None, closed="neither"), None],
        "curve": [StrOptions(set(CURVES))],
        "estimator_name": [str, None],
        "pos_label": POS_LABEL,
    }

    def __init__(
        self,
        prob_true,
        prob_pred,
        y_proba,
        *,
        band_low=None,
        band_high=None,
        confidence_level=None,
        calibration_error=None,
        miscalibration=None,
        curve="isotonic",
        estimator_name=None,
        pos_label=None,
    ):
        _validate_init_params(
            self,
            dict(
                prob_true=prob_true,
                prob_pred=prob_pred,
                y_proba=y_proba,
                band_low=band_low,
                band_high=band_high,
                confidence_level=confidence_level,
                calibration_error=calibration_error,
                miscalibration=miscalibration,
                curve=curve,
                estimator_name=estimator_name,
                pos_label=pos_label,
            ),
        )
        self.prob_true = prob_true
        self.prob_pred = prob_pred
        self.y_proba = y_proba
        self.band_low = band_low
        self.band_high = band_high
        self.confidence_level = confidence_level
        self.calibration_error = calibration_error
        self.miscalibration = miscalibration
        self.curve = curve
        self.estimator_name = estimator_name
        self.pos_label = pos_label

    def _arrays(self):
        """The curve and its band as float arrays of one shape, checked."""
        x = np.asarray(self.prob_pred, dtype=np.float64)
        y = np.asarray(self.prob_true, dtype=np.float64)
        band = [self.band_low, self.band_high]
        if (band[0] is None) != (band[1] is None):
            raise ValueError(
                "band_low and band_high go together: pass both or neither; got "
                f"band_low={'None' if band[0] is None else 'an array'} and "
                f"band_high={'None' if band[1] is None else 'an array'}."
            )
        if band[0] is not None:
            band = [np.asarray(b, dtype=np.float64) for b in band]
        shapes = {"prob_true": y.shape}
        if band[0] is not None:
            shapes.update(band_low=band[0].shape, band_high=band[1].shape)
        if x.ndim != 1 or any(s != x.shape for s in shapes.values()):
            raise ValueError(
                "prob_pred must be 1-D, and prob_true, band_low and band_high of "
                f"its shape; got prob_pred of shape {x.shape} and {shapes}."
            )
        return x, y, band

    def _legend_label(self, name):
        numbers = []
        if self.calibration_error is not None:
            short = _ERROR_NAMES[DEFAULT_METHOD]
            numbers.append(f"{short} = {self.calibration_error:.3f}")
        if self.miscalibration is not None:
            numbers.append(f"MCB = {self.miscalibration:.3f}")
        if not numbers:
            return name
        numbers = ", ".join(numbers)
        return numbers if name is None else f"{name} ({numbers})"

    @validate_params(
        {
            "ax": "no_validation",  # a matplotlib Axes or None
            "name": [str, None],
            "ref_line": ["boolean"],
            "show_hist": ["boolean"],
        },
        prefer_skip_nested_validation=True,
    )
    def plot(self, *, ax=None, name=None, ref_line=True, show_hist=True, **kwargs):
        """Plot the curve, its consistency band and the histogram.

        Extra keyword arguments are passed to :func:`matplotlib.pyplot.plot`
        for the curve.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on. If None, a new figure and Axes are created.
            Displays drawn on one Axes share the reference line and the
            histogram inset.

        name : str, default=None
            Name of the curve in the legend. If None, ``estimator_name``.

        ref_line : bool, default=True
            Whether to draw the diagonal, the curve of a perfectly calibrated
            model.

        show_hist : bool, default=True
            Whether to draw the histogram of the predictions, inset in the
            upper left of the diagram.

        **kwargs : dict
            Keyword arguments passed to :func:`matplotlib.pyplot.plot`.

        Returns
        -------
        display : ReliabilityDisplay
            The display, with ``line_``, ``band_``, ``hist_``, ``hist_ax_``,
            ``ax_`` and ``figure_`` set.
        """
        plt = check_matplotlib(f"{type(self).__name__}.plot")
        from matplotlib.cbook import normalize_kwargs
        from matplotlib.lines import Line2D

        x, y, band = self._arrays()
        if ax is None:
            _, ax = plt.subplots(figsize=(5.5, 5.5), layout="constrained")
        name = self.estimator_name if name is None else name
        line_kw = {"marker": "s"} if self.curve == "bins" else {}
        line_kw["label"] = self._legend_label(name)
        line_kw.update(normalize_kwargs(kwargs, Line2D))
        if ref_line and _REF_LABEL not in ax.get_legend_handles_labels()[1]:
            ax.plot([0, 1], [0, 1], "k:", label=_REF_LABEL)
        self.line_ = ax.plot(x, y, **line_kw)[0]
        self.band_ = None
        if band[0] is not None:
            level = self.confidence_level
            what = "consistency band" if level is None else f"{level:.0%} band"
            self.band_ = ax.fill_between(
                x,
                band[0],
                band[1],
                color=self.line_.get_color(),
                alpha=0.2,
                linewidth=0,
                label=f"{what} of a calibrated model",
            )
        self.hist_, self.hist_ax_ = None, None
        if show_hist:
            self.hist_ax_ = _histogram_axes(ax)
            self.hist_ = self.hist_ax_.hist(
                np.asarray(self.y_proba, dtype=np.float64),
                bins=np.linspace(0, 1, 21),
                color=self.line_.get_color(),
                alpha=0.5,
            )[2]
        on = "" if self.pos_label is None else f" (Positive class: {self.pos_label})"
        ax.set(
            xlim=(-0.02, 1.02),
            ylim=(-0.02, 1.02),
            xlabel=f"Predicted probability{on}",
            ylabel=f"Observed frequency{on}",
        )
        ax.legend(loc="lower right", fontsize="small")
        self.ax_, self.figure_ = ax, ax.figure
        return self

    @classmethod
    @validate_params(
        {
            "y_true": ["array-like"],
            "y_proba": ["array-like"],
            "labels": ESTIMATOR_CONSTRAINTS["labels"],
            **_FROM_CONSTRAINTS,
        },
        prefer_skip_nested_validation=True,
    )
    def from_predictions(
        cls,
        y_true,
        y_proba,
        *,
        curve="isotonic",
        n_bins=DEFAULT_N_BINS,
        strategy=DEFAULT_STRATEGY,
        multi_class="auto",
        labels=None,
        pos_label=None,
        bands=True,
        n_resamples=1000,
        confidence_level=0.9,
        random_state=None,
        name=None,
        ax=None,
        ref_line=True,
        show_hist=True,
        **kwargs,
    ):
        """Plot the reliability diagram from true labels and probabilities.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.

        y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
            Predicted probabilities, as returned by a classifier's
            ``predict_proba``; 1-D for the probability of ``pos_label`` in a
            binary problem. Each row must sum to 1.

        curve : {"isotonic", "bins"}, default="isotonic"
            The curve. ``"isotonic"``: the CORP curve, the isotonic (PAV)
            regression of the outcomes on the probabilities, with no bins
            (Dimitriadis et al. 2021). ``"bins"``: the fraction of positives
            against the mean probability in each non-empty bin of
            :func:`calibration_error` (``n_bins``, ``strategy``), as
            :class:`~sklearn.calibration.CalibrationDisplay`.

        n_bins : int, default=15
            Number of bins of ``curve="bins"``.

        strategy : {"uniform", "quantile"}, default="uniform"
            The bins of ``curve="bins"``: equal widths on [0, 1], or equal
            numbers of items (see :func:`calibration_error`).

        multi_class : {"auto", "top-label"}, default="auto"
            The binary problem drawn: ``"auto"`` is the positive class's
            probability for two classes and the top label for more;
            ``"top-label"`` the probability of the predicted class against
            whether it is right. A diagram draws one problem: for the
            classwise view, draw one per class, e.g.
            ``from_predictions(y == k, y_proba[:, j], pos_label=True)``.

        labels : array-like of shape (n_classes,), default=None
            The class of each column of ``y_proba`` (see
            :func:`calibration_error`).

        pos_label : int, float, bool or str, default=None
            The positive class of a binary problem (see
            :func:`calibration_error`). None: the greater class.

        bands : bool, default=True
            Whether to compute and draw the consistency band.

        n_resamples : int, default=1000
            Number of outcome draws of the consistency band.

        confidence_level : float, default=0.9
            Pointwise level of the consistency band: at each point of the
            curve, a calibrated model's curve falls inside with this
            probability.

        random_state : int, RandomState instance, Generator or None, \
                default=None
            Seed of the consistency resamples.

        name : str, default=None
            Name of the curve in the legend.

        ax : matplotlib Axes, default=None
            Axes to plot on. If None, a new figure and Axes are created.

        ref_line : bool, default=True
            Whether to draw the diagonal.

        show_hist : bool, default=True
            Whether to draw the histogram of the predictions.

        **kwargs : dict
            Keyword arguments passed to :func:`matplotlib.pyplot.plot`.

        Returns
        -------
        display : ReliabilityDisplay
            The display, with the curve, the band (``band_low``,
            ``band_high``), the calibration error and the miscalibration
            term stored.

        Notes
        -----
        The band is Bröcker & Smith's (2007) consistency band: outcomes are
        drawn from the probabilities themselves, ``o* ~ Bernoulli(c)``, the
        curve is recomputed ``n_resamples`` times, and its pointwise
        ``(1 - confidence_level) / 2`` and ``(1 + confidence_level) / 2``
        quantiles are shaded. It shows the noise of the curve at this number
        of items, not an interval for the true curve; it is pointwise, so a
        calibrated model's curve leaves it somewhere more often than
        ``1 - confidence_level``. :func:`calibration_test` is the test.
        The isotonic curve's band is computed at up to 512 of its points and
        interpolated between them.

        The legend gives :func:`calibration_error` with its defaults
        (``ECE``, 15 equal-width bins whatever ``curve`` is drawn) and the
        miscalibration term ``MCB`` of the CORP decomposition of the Brier
        score (:func:`corp_decomposition`), for the problem drawn.
        """
        check_matplotlib(f"{cls.__name__}.from_predictions")
        codes, proba, classes, pos_index = check_calibration_data(
            y_true, y_proba, labels, pos_label
        )
        ((conf, out),) = binary_problems(codes, proba, pos_index, multi_class)
        binary = multi_class == "auto" and classes.shape[0] == 2
        prob_true, prob_pred, bin_of = _curve(conf, out, curve, n_bins, strategy)
        band_low = band_high = None
        if bands:
            band_low, band_high = _consistency_band(
                conf,
                prob_pred,
                bin_of,
                n_resamples,
                confidence_level,
                _generator(random_state),
            )
        display = cls(
            prob_true,
            prob_pred,
            conf,
            band_low=band_low,
            band_high=band_high,
            confidence_level=confidence_level if bands else None,
            calibration_error=calibration_error(
                y_true,
                y_proba,
                multi_class=multi_class,
                labels=labels,
                pos_label=pos_label,
            ),
            miscalibration=float(corp_terms(conf, out, "brier")[1]),
            curve=curve,
            estimator_name=name,
            pos_label=(
                classes.tolist()[1 if pos_index is None else pos_index]
                if binary
                else None
            ),
        )
        return display.plot(ax=ax, ref_line=ref_line, show_hist=show_hist, **kwargs)

    @classmethod
    @validate_params(
        {
            "estimator": [HasMethods(["predict_proba"])],
            "X": ["array-like", "sparse matrix"],
            "y": ["array-like"],
            **_FROM_CONSTRAINTS,
        },
        prefer_skip_nested_validation=True,
    )
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        curve="isotonic",
        n_bins=DEFAULT_N_BINS,
        strategy=DEFAULT_STRATEGY,
        multi_class="auto",
        pos_label=None,
        bands=True,
        n_resamples=1000,
        confidence_level=0.9,
        random_state=None,
        name=None,
        ax=None,
        ref_line=True,
        show_hist=True,
        **kwargs,
    ):
        """Plot the reliability diagram of a fitted classifier on data.

        Parameters
        ----------
        estimator : estimator instance
            Fitted classifier (or Pipeline ending in one) with
            ``predict_proba`` and ``classes_``.

        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Input values.

        y : array-like of shape (n_samples,)
            True labels.

        curve : {"isotonic", "bins"}, default="isotonic"
            The curve (see :meth:`from_predictions`).

        n_bins : int, default=15
            Number of bins of ``curve="bins"``.

        strategy : {"uniform", "quantile"}, default="uniform"
            The bins of ``curve="bins"``.

        multi_class : {"auto", "top-label"}, default="auto"
            The binary problem drawn (see :meth:`from_predictions`).

        pos_label : int, float, bool or str, default=None
            The positive class of a binary problem. None:
            ``estimator.classes_[1]``.

        bands : bool, default=True
            Whether to compute and draw the consistency band.

        n_resamples : int, default=1000
            Number of outcome draws of the consistency band.

        confidence_level : float, default=0.9
            Pointwise level of the consistency band.

        random_state : int, RandomState instance, Generator or None, \
                default=None
            Seed of the consistency resamples.

        name : str, default=None
            Name of the curve in the legend. If None, the estimator's class
            name.

        ax : matplotlib Axes, default=None
            Axes to plot on. If None, a new figure and Axes are created.

        ref_line : bool, default=True
            Whether to draw the diagonal.

        show_hist : bool, default=True
            Whether to draw the histogram of the predictions.

        **kwargs : dict
            Keyword arguments passed to :func:`matplotlib.pyplot.plot`.

        Returns
        -------
        display : ReliabilityDisplay
        """
        check_matplotlib(f"{cls.__name__}.from_estimator")
        if not hasattr(estimator, "classes_"):
            raise ValueError(
                f"{cls.__name__}.from_estimator needs a fitted classifier with "
                f"predict_proba and classes_; got {estimator!r}."
            )
        return cls.from_predictions(
            y,
            estimator.predict_proba(X),
            curve=curve,
            n_bins=n_bins,
            strategy=strategy,
            multi_class=multi_class,
            labels=estimator.classes_,
            pos_label=pos_label,
            bands=bands,
            n_resamples=n_resamples,
            confidence_level=confidence_level,
            random_state=random_state,
            name=type(estimator).__name__ if name is None else name,
            ax=ax,
            ref_line=ref_line,
            show_hist=show_hist,
            **kwargs,
        )

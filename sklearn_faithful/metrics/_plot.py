"""Side-by-side display of the ordinary and the probabilistic confusion matrix."""

from numbers import Real

import numpy as np
from sklearn.metrics import ConfusionMatrixDisplay, confusion_matrix

from ..utils._param_validation import HasMethods, Interval, StrOptions, validate_params
from ..utils._validation import _validate_init_params, check_matplotlib
from ._confidence import (
    NORMALIZE,
    PCM_CONSTRAINTS,
    _normalize,
    _probabilistic_counts,
)

# With include_values="auto", values that would need a smaller font than this
# (in points) to fit in their cells are left out.
_MIN_FONTSIZE = 6.0
_FONTSIZE_KEYS = {"fontsize", "size", "fontproperties", "font"}
_COLOR_KEYS = {"color", "c"}


def _default_format(matrix, compact):
    """Format of the cell values: counts whole, rates and sums rounded.

    ``compact`` rounds one digit more, for cells too small for the full value.
    """
    if np.issubdtype(matrix.dtype, np.integer):
        return "d"
    top = float(np.nanmax(np.abs(matrix), initial=0.0))
    if top <= 1.0:  # normalized
        return ".1f" if compact else ".2f"
    return ".0f" if compact or top >= 100 else ".1f"


def _font_scale(axis, texts):
    """Factor by which the font of ``texts`` must shrink to fit in their cells."""
    box = axis.get_window_extent()
    n_rows, n_cols = texts.shape
    cell_w, cell_h = box.width / n_cols, box.height / n_rows
    # The widest values are the longest strings (digits share one width), so a
    # few of them are measured rather than all n_classes ** 2.
    flat = texts.ravel()
    longest = np.argsort([-len(t.get_text()) for t in flat], kind="stable")[:8]
    extents = [flat[k].get_window_extent() for k in longest]
    text_w = max(e.width for e in extents)
    text_h = max(e.height for e in extents)
    # a quarter of the cell is left between neighbours
    return min(0.75 * cell_w / max(text_w, 1e-9), 0.8 * cell_h / max(text_h, 1e-9))


def _ticks_overlap(fig, axes):
    """Whether two x tick labels of one of ``axes`` overlap as laid out."""
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
    renderer = fig.canvas.get_renderer()
    for axis in axes:
        boxes = [
            label.get_window_extent(renderer)
            for label in axis.get_xticklabels()
            if label.get_text()
        ]
        boxes.sort(key=lambda box: box.x0)
        if any(a.x1 > b.x0 for a, b in zip(boxes, boxes[1:], strict=False)):
            return True
    return False


class ProbabilisticConfusionMatrixDisplay:
    """Probabilistic confusion matrix next to the argmax confusion matrix.

    The left panel counts argmax predictions, as
    :class:`sklearn.metrics.ConfusionMatrixDisplay` does; the right panel sums
    predicted probabilities (Yacouby & Axman 2020, eq. 3). Where the two differ,
    the model's confidence tells something its argmax hides. Both panels share
    one colour scale, so their colours compare. Build it with
    :meth:`from_estimator` or :meth:`from_predictions`; matplotlib is needed
    (``pip install 'sklearn-faithful[plot]'``). Each panel is drawn by
    scikit-learn's :class:`~sklearn.metrics.ConfusionMatrixDisplay`, whose
    attributes and :meth:`plot` parameters this display shares.

    Parameters
    ----------
    probabilistic_confusion_matrix : ndarray of shape (n_classes, n_classes)
        The probabilistic confusion matrix.

    confusion_matrix : ndarray of shape (n_classes, n_classes)
        The confusion matrix of the argmax predictions.

    display_labels : ndarray of shape (n_classes,), default=None
        Display labels for the plot. If None, ``0`` to ``n_classes - 1``.

    Attributes
    ----------
    im_ : matplotlib AxesImage
        Image of the probabilistic confusion matrix (right panel).

    text_ : ndarray of shape (n_classes, n_classes), dtype=matplotlib Text, \
            or None
        Values of the probabilistic panel; None if they are not shown.

    ax_ : matplotlib Axes
        Axes of the probabilistic panel.

    figure_ : matplotlib Figure
        Figure holding both panels.

    axes_ : ndarray of matplotlib Axes of shape (2,)
        The argmax panel and the probabilistic panel.

    ims_ : list of matplotlib AxesImage
        The images of the two panels; they share one norm (``vmin``, ``vmax``).

    texts_ : list of ndarray of matplotlib Text, or None
        The values of the two panels (``text_`` is the second); None if they
        are not shown.

    colorbar_ : matplotlib Colorbar or None
        The colorbar of both panels; None without one.

    See Also
    --------
    probabilistic_confusion_matrix : The matrix on the right panel.
    sklearn.metrics.ConfusionMatrixDisplay : The argmax matrix alone.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_faithful.metrics import ProbabilisticConfusionMatrixDisplay
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = LogisticRegression(max_iter=1000).fit(X, y)
    >>> disp = ProbabilisticConfusionMatrixDisplay.from_estimator(clf, X, y)
    >>> disp.axes_.shape
    (2,)
    >>> disp.ims_[0].get_clim() == disp.ims_[1].get_clim()
    True
    """

    _parameter_constraints = {
        "probabilistic_confusion_matrix": ["array-like"],
        "confusion_matrix": ["array-like"],
        "display_labels": ["array-like", None],
    }

    def __init__(
        self, probabilistic_confusion_matrix, confusion_matrix, *, display_labels=None
    ):
        _validate_init_params(
            self,
            dict(
                probabilistic_confusion_matrix=probabilistic_confusion_matrix,
                confusion_matrix=confusion_matrix,
                display_labels=display_labels,
            ),
        )
        self.probabilistic_confusion_matrix = probabilistic_confusion_matrix
        self.confusion_matrix = confusion_matrix
        self.display_labels = display_labels

    def _matrices(self):
        cm = np.asarray(self.confusion_matrix)
        pcm = np.asarray(self.probabilistic_confusion_matrix)
        if cm.ndim != 2 or cm.shape[0] != cm.shape[1] or cm.shape != pcm.shape:
            raise ValueError(
                "confusion_matrix and probabilistic_confusion_matrix must be "
                "square matrices of the same shape (n_classes, n_classes); got "
                f"shapes {cm.shape} and {pcm.shape}."
            )
        return cm, pcm

    @validate_params(
        {
            "include_values": ["boolean", StrOptions({"auto"})],
            "cmap": "no_validation",  # a name or a matplotlib Colormap
            "xticks_rotation": [
                StrOptions({"auto", "vertical", "horizontal"}),
                Interval(Real, None, None, closed="neither"),
            ],
            "values_format": [str, None],
            "ax": "no_validation",  # two matplotlib Axes or None
            "colorbar": ["boolean"],
            "im_kw": [dict, None],
            "text_kw": [dict, None],
        },
        prefer_skip_nested_validation=True,
    )
    def plot(
        self,
        *,
        include_values="auto",
        cmap="viridis",
        xticks_rotation="auto",
        values_format=None,
        ax=None,
        colorbar=True,
        im_kw=None,
        text_kw=None,
    ):
        """Plot both matrices on one colour scale.

        Parameters
        ----------
        include_values : bool or "auto", default="auto"
            Whether to write the value in each cell. The font shrinks to fit
            the cells unless ``text_kw`` sets its size. ``"auto"`` writes the
            values while they fit at 6 points or more, rounded one digit more
            if that makes them fit (with ``values_format=None``), and leaves
            them out otherwise, as for many classes in a small figure;
            ``True`` always writes them.

        cmap : str or matplotlib Colormap, default='viridis'
            Colormap recognized by matplotlib.

        xticks_rotation : {'auto', 'vertical', 'horizontal'} or float, \
                default='auto'
            Rotation of the x tick labels. ``"auto"`` writes them horizontally
            while they fit under their columns, and at 45 degrees when two
            would overlap (long class names), so that none is hidden.

        values_format : str, default=None
            Format specification for the values in the cells, e.g. ``'.2f'``. If
            None, ``'d'`` for integer counts, two decimals for values at most 1
            (normalized matrices), otherwise one decimal (none from 100 up).

        ax : array-like of two matplotlib Axes, default=None
            Axes of the argmax and of the probabilistic panel. If None, a new
            figure with a constrained layout, sized for the number of classes.

        colorbar : bool, default=True
            Whether to add the colorbar, one for both panels.

        im_kw : dict, default=None
            Keywords passed to :meth:`matplotlib.axes.Axes.imshow` for both
            panels. Without ``norm``, ``vmin`` and ``vmax`` default to the
            smallest and largest value of the two matrices.

        text_kw : dict, default=None
            Keywords passed to :meth:`matplotlib.axes.Axes.text` for the
            values. Without ``color``, each value is written in the end of the
            colormap that contrasts with its cell.

        Returns
        -------
        display : ProbabilisticConfusionMatrixDisplay
            The display, with ``figure_``, ``ax_``, ``im_``, ``text_``,
            ``axes_``, ``ims_``, ``texts_`` and ``colorbar_`` set.
        """
        plt = check_matplotlib("ProbabilisticConfusionMatrixDisplay.plot")
        cm, pcm = self._matrices()
        n_classes = cm.shape[0]
        if ax is None:
            side = float(np.clip(0.35 * n_classes + 2.5, 3.6, 7.5))
            fig, axes = plt.subplots(
                1, 2, figsize=(2 * side + 1.4, side), layout="constrained"
            )
        else:
            axes = np.ravel(np.asarray(ax, dtype=object))
            if axes.shape[0] != 2:
                raise ValueError(
                    f"ax must hold two matplotlib Axes (argmax and probabilistic "
                    f"panel); got {axes.shape[0]}."
                )
            fig = axes[0].figure
        im_kw = dict(im_kw or {})
        if "norm" not in im_kw:  # one colour scale for both panels
            im_kw.setdefault("vmin", float(min(np.nanmin(cm), np.nanmin(pcm))))
            im_kw.setdefault("vmax", float(max(np.nanmax(cm), np.nanmax(pcm))))
        elif not im_kw["norm"].scaled():  # shared: scale it on both matrices
            im_kw["norm"].autoscale_None(np.concatenate([cm.ravel(), pcm.ravel()]))
        text_kw = dict(text_kw or {})
        panels = (
            (cm, "Confusion matrix (argmax)"),
            (pcm, "Probabilistic confusion matrix"),
        )
        ims, texts = [], []
        for axis, (matrix, title) in zip(axes, panels, strict=True):
            # scikit-learn's display draws each panel.
            panel = ConfusionMatrixDisplay(
                matrix, display_labels=self.display_labels
            ).plot(
                include_values=bool(include_values),
                cmap=cmap,
                xticks_rotation=(
                    "horizontal" if xticks_rotation == "auto" else xticks_rotation
                ),
                values_format=(
                    _default_format(matrix, compact=False)
                    if values_format is None
                    else values_format
                ),
                ax=axis,
                colorbar=False,
                im_kw=im_kw,
                text_kw=text_kw,
            )
            axis.set_title(title)
            for text in [] if panel.text_ is None else panel.text_.flat:
                text.set_in_layout(False)  # inside its cell
            ims.append(panel.im_)
            texts.append(panel.text_)
        self.colorbar_ = fig.colorbar(ims[1], ax=list(axes)) if colorbar else None
        if xticks_rotation == "auto" and _ticks_overlap(fig, axes):
            for axis in axes:
                plt.setp(
                    axis.get_xticklabels(),
                    rotation=45,
                    ha="right",
                    rotation_mode="anchor",
                )
        if include_values:
            if not _COLOR_KEYS & text_kw.keys():
                self._recolor(ims, texts)
            texts = self._fit_values(
                fig, axes, texts, (cm, pcm), include_values, values_format, text_kw
            )
        self.figure_, self.axes_, self.ims_ = fig, np.asarray(axes), ims
        self.texts_ = texts if texts[0] is not None else None
        self.ax_, self.im_, self.text_ = axes[1], ims[1], texts[1]
        return self

    @staticmethod
    def _recolor(ims, texts):
        """Contrast each value with its cell on the shared colour scale."""
        for im, panel_texts in zip(ims, texts, strict=True):
            low, high = im.cmap(0.0), im.cmap(1.0)
            values = im.get_array()
            shade = np.asarray(im.norm(values))
            for (i, j), text in np.ndenumerate(panel_texts):
                text.set_color(high if shade[i, j] < 0.5 else low)

    @staticmethod
    def _fit_values(fig, axes, texts, matrices, include_values, values_format, text_kw):
        """Shrink the values to their cells, round them, or leave them out.

        Returns the texts of both panels, ``[None, None]`` if left out.
        """
        if _FONTSIZE_KEYS & text_kw.keys():
            return texts  # the user chose the size
        # Settle the layout and the cell sizes without drawing every value.
        engine = fig.get_layout_engine()
        if engine is not None:
            engine.execute(fig)
        for axis in axes:
            axis.apply_aspect()
        size = texts[0].flat[0].get_fontsize()

        def fitted_size():
            scale = min(
                _font_scale(axis, panel)
                for axis, panel in zip(axes, texts, strict=True)
            )
            return min(size, size * scale)

        new_size = fitted_size()
        if include_values == "auto" and new_size < _MIN_FONTSIZE:
            if values_format is None:  # round one digit more
                for matrix, panel in zip(matrices, texts, strict=True):
                    fmt = _default_format(matrix, compact=True)
                    for (i, j), text in np.ndenumerate(panel):
                        text.set_text(format(matrix[i, j], fmt))
                new_size = fitted_size()
            if new_size < _MIN_FONTSIZE:
                for panel in texts:
                    for text in panel.flat:
                        text.remove()
                return [None, None]
        for panel in texts:
            for text in panel.flat:
                text.set_fontsize(new_size)
        return texts

    @classmethod
    @validate_params(
        {**PCM_CONSTRAINTS, "display_labels": ["array-like", None]},
        prefer_skip_nested_validation=True,
    )
    def from_predictions(
        cls,
        y_true,
        y_proba,
        *,
        labels=None,
        sample_weight=None,
        pos_label=None,
        normalize=None,
        display_labels=None,
        **plot_kwargs,
    ):
        """Plot both matrices from true labels and predicted probabilities.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Ground truth (correct) target values.

        y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
            Predicted probabilities, as returned by a classifier's
            :term:`predict_proba` method. For a binary problem a 1-D array is
            read as the probability of ``pos_label``.

        labels : array-like of shape (n_classes,), default=None
            The class of each column of ``y_proba``, in column order; see
            :func:`probabilistic_confusion_matrix`.

        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.

        pos_label : int, float, bool or str, default=None
            Only used for 1-D ``y_proba``: the class it is the probability of.

        normalize : {'true', 'pred', 'all'}, default=None
            Normalize both matrices over the true classes (rows), the predicted
            classes (columns) or all entries. If None, no normalization.

        display_labels : array-like of shape (n_classes,), default=None
            Tick labels. If None, the classes.

        **plot_kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        display : ProbabilisticConfusionMatrixDisplay
        """
        check_matplotlib(f"{cls.__name__}.from_predictions")
        classes, pcm, _, pos_label = _probabilistic_counts(
            y_true,
            y_proba,
            labels=labels,
            pos_label=pos_label,
            sample_weight=sample_weight,
        )
        proba = np.asarray(y_proba, dtype=np.float64)
        if proba.ndim == 1:
            # Expand the positive-class probability to one column per class.
            pos_index = classes.tolist().index(pos_label)
            columns = np.empty((proba.shape[0], classes.shape[0]))
            columns[:, pos_index] = proba
            if classes.shape[0] == 2:
                columns[:, 1 - pos_index] = 1.0 - proba
            proba = columns
        y_pred = classes[np.argmax(proba, axis=1)]
        cm = confusion_matrix(
            y_true, y_pred, labels=classes, sample_weight=sample_weight
        )
        display = cls(
            _normalize(pcm, normalize),
            _normalize(cm, normalize),
            display_labels=classes if display_labels is None else display_labels,
        )
        return display.plot(**plot_kwargs)

    @classmethod
    @validate_params(
        {
            "estimator": [HasMethods(["predict_proba"])],
            "X": ["array-like", "sparse matrix"],
            "y": ["array-like"],
            "sample_weight": ["array-like", None],
            "normalize": NORMALIZE,
            "display_labels": ["array-like", None],
        },
        prefer_skip_nested_validation=True,
    )
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        sample_weight=None,
        normalize=None,
        display_labels=None,
        **plot_kwargs,
    ):
        """Plot both matrices for a fitted classifier.

        Parameters
        ----------
        estimator : estimator instance
            Fitted classifier (or Pipeline ending in one) with ``predict_proba``
            and ``classes_``.

        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Input values.

        y : array-like of shape (n_samples,)
            Target values.

        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.

        normalize : {'true', 'pred', 'all'}, default=None
            Normalize both matrices over the true classes (rows), the predicted
            classes (columns) or all entries. If None, no normalization.

        display_labels : array-like of shape (n_classes,), default=None
            Tick labels. If None, ``estimator.classes_``.

        **plot_kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        display : ProbabilisticConfusionMatrixDisplay
        """
        check_matplotlib(f"{cls.__name__}.from_estimator")
        if not hasattr(estimator, "predict_proba") or not hasattr(
            estimator, "classes_"
        ):
            raise ValueError(
                f"{cls.__name__}.from_estimator needs a fitted classifier with "
                f"predict_proba and classes_; got {estimator!r}."
            )
        return cls.from_predictions(
            y,
            estimator.predict_proba(X),
            labels=estimator.classes_,
            sample_weight=sample_weight,
            normalize=normalize,
            display_labels=display_labels,
            **plot_kwargs,
        )

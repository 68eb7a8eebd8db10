"""Side-by-side display of the ordinary and the probabilistic confusion matrix."""

import numpy as np
from sklearn.metrics import confusion_matrix

from ..utils._compat import HasMethods, validate_params
from ..utils._validation import _validate_init_params, check_matplotlib
from ._confidence import (
    NORMALIZE,
    PCM_CONSTRAINTS,
    _normalize,
    _probabilistic_counts,
)


class ProbabilisticConfusionMatrixDisplay:
    """Probabilistic confusion matrix next to the argmax confusion matrix.

    The left panel counts argmax predictions, as
    :class:`sklearn.metrics.ConfusionMatrixDisplay` does; the right panel sums
    predicted probabilities (Yacouby & Axman 2020, eq. 3). Where the two differ,
    the model's confidence tells something its argmax hides. Build it with
    :meth:`from_estimator` or :meth:`from_predictions`; matplotlib is needed
    (``pip install 'sklearn-faithful[plot]'``).

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
    figure_ : matplotlib Figure
        Figure holding both panels.

    axes_ : ndarray of matplotlib Axes of shape (2,)
        The argmax panel and the probabilistic panel.

    ims_ : list of matplotlib AxesImage
        The two images.

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

    @validate_params(
        {
            "cmap": "no_validation",  # a name or a matplotlib Colormap
            "values_format": [str, None],
            "ax": "no_validation",  # a matplotlib Axes or None
            "colorbar": ["boolean"],
        },
        prefer_skip_nested_validation=True,
    )
    def plot(self, *, cmap="viridis", values_format=None, ax=None, colorbar=True):
        """Plot both matrices.

        Parameters
        ----------
        cmap : str or matplotlib Colormap, default='viridis'
            Colormap recognized by matplotlib.

        values_format : str, default=None
            Format specification for the values in the cells, e.g. ``'.2f'``. If
            None, ``'.2g'``.

        ax : array-like of two matplotlib Axes, default=None
            Axes to plot on. If None, a new figure with two axes is created.

        colorbar : bool, default=True
            Whether to add a colorbar to each panel.

        Returns
        -------
        display : ProbabilisticConfusionMatrixDisplay
            The display, with ``figure_``, ``axes_`` and ``ims_`` set.
        """
        plt = check_matplotlib("ProbabilisticConfusionMatrixDisplay.plot")
        if ax is None:
            fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained")
        else:
            axes = np.ravel(np.asarray(ax, dtype=object))
            if axes.shape[0] != 2:
                raise ValueError(
                    f"ax must hold two matplotlib Axes (argmax and probabilistic "
                    f"panel); got {axes.shape[0]}."
                )
            fig = axes[0].figure
        n_classes = self.confusion_matrix.shape[0]
        labels = (
            np.arange(n_classes) if self.display_labels is None else self.display_labels
        )
        fmt = ".2g" if values_format is None else values_format
        ims = []
        panels = (
            (self.confusion_matrix, "Confusion matrix (argmax)"),
            (self.probabilistic_confusion_matrix, "Probabilistic confusion matrix"),
        )
        for axis, (matrix, title) in zip(axes, panels, strict=True):
            im = axis.imshow(matrix, interpolation="nearest", cmap=cmap)
            cmap_obj = im.cmap
            lo, hi = cmap_obj(0), cmap_obj(1.0)
            threshold = (matrix.max() + matrix.min()) / 2.0
            for i in range(n_classes):
                for j in range(n_classes):
                    axis.text(
                        j,
                        i,
                        format(matrix[i, j], fmt),
                        ha="center",
                        va="center",
                        color=lo if matrix[i, j] > threshold else hi,
                    )
            axis.set(
                xticks=np.arange(n_classes),
                yticks=np.arange(n_classes),
                xticklabels=labels,
                yticklabels=labels,
                xlabel="Predicted label",
                ylabel="True label",
                title=title,
            )
            if colorbar:
                fig.colorbar(im, ax=axis)
            ims.append(im)
        self.figure_, self.axes_, self.ims_ = fig, np.asarray(axes), ims
        return self

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

"""Gold labels and systems read from files, in the form the package's functions take.

Shared by ``compare`` and ``interval``. Imported only when one of them runs.
"""

import numpy as np

from ..holdout._options import CONFIDENCE_METRIC_NAMES
from ._io import (
    InputError,
    check_same_length,
    check_same_sentences,
    conll_entities,
    first_label_line,
    label_codes,
    read_conll,
    read_labels,
    read_probabilities,
)


class Systems:
    """Gold and systems read from files, in the form the package's functions take.

    ``y_true`` and ``preds`` are what the resampling functions take;
    ``metric`` and ``metric_kwargs`` name the metric for them. For CoNLL
    files the items are sentences: ``y_true`` numbers them, each system's
    ``preds`` numbers its rows of the stacked per-sentence entity counts,
    and ``metric`` is entity-level precision, recall or F1 of those counts.
    """

    def __init__(self, args, paths):
        self.gold_name, self.names = paths[0], list(paths[1:])
        if getattr(args, "conll", False):
            self._read_conll(args, paths)
        elif args.metric in CONFIDENCE_METRIC_NAMES:
            self._read_probabilities(args, paths)
        else:
            self._read_labels(args, paths)

    def _read_labels(self, args, paths):
        gold = read_labels(paths[0], column=args.column, field=args.field)
        systems = [
            read_labels(p, column=args.column, field=args.field) for p in paths[1:]
        ]
        check_same_length([gold, *systems], paths, paths[0])
        # sorted, as the package orders classes; the functions get the codes
        self.classes = sorted(set(gold))
        self.y_true = _codes(args, gold, self.classes, paths[0], paths[0])
        self.preds = [
            _codes(args, labels, self.classes, name, paths[0])
            for labels, name in zip(systems, paths[1:], strict=True)
        ]
        self.metric = args.metric
        self.metric_kwargs = self._metric_kwargs(args)
        self.kind = "labels"

    def _read_probabilities(self, args, paths):
        gold = read_labels(paths[0], column=args.column, field=args.field)
        classes = args.classes.split(",") if args.classes else None
        systems, names = [], None
        for path in paths[1:]:
            proba, cols = read_probabilities(path, classes=classes)
            if names is None:
                names = sorted(cols)
            if sorted(cols) != names:
                raise InputError(
                    f"{path} has the classes {cols} but {paths[1]} has {names}; "
                    "every probability file needs the same class columns."
                )
            # columns in the sorted order of the class names, as for labels
            systems.append(proba[:, [cols.index(c) for c in names]])
        check_same_length([gold, *systems], paths, paths[0], unit="items")
        self.classes = names
        self.y_true = _codes(args, gold, names, paths[0], f"the columns of {paths[1]}")
        self.preds = systems
        self.metric = args.metric
        self.metric_kwargs = {
            **self._metric_kwargs(args),
            "labels": np.arange(len(names)),
        }
        self.kind = "probabilities"

    def fields(self, args):
        """What was scored, as the payloads of ``compare`` and ``interval`` say."""
        return {
            "gold": self.gold_name,
            "n_items": int(self.y_true.shape[0]),
            "items": "sentences" if self.kind == "conll" else "items",
            "metric": args.metric,
            "average": None if args.metric == "accuracy" else args.average,
            "entity_level": self.kind == "conll",
        }

    def _pos_code(self, pos_label):
        if pos_label not in self.classes:
            raise InputError(
                f"--pos-label {pos_label!r} is not a label of {self.gold_name} "
                f"(which uses {self.classes})."
            )
        return self.classes.index(pos_label)

    def _metric_kwargs(self, args):
        if args.metric == "accuracy":
            return None
        kwargs = {"average": args.average}
        if args.pos_label is not None:
            kwargs["pos_label"] = self._pos_code(args.pos_label)
        elif args.average == "binary":
            if len(self.classes) != 2:
                raise InputError(
                    f"--average binary needs two classes; {self.gold_name} has "
                    f"{len(self.classes)} ({self.classes[:10]}). Pass --average "
                    "micro, macro or weighted."
                )
            kwargs["pos_label"] = 1  # the greater of the two, as the package
        return kwargs

    def _read_conll(self, args, paths):
        if args.metric not in ("precision", "recall", "f1"):
            raise InputError(
                f"--metric {args.metric} is not an entity-level metric; with "
                "--conll use precision, recall or f1."
            )
        column = args.tag_column
        gold, gold_lines = read_conll(paths[0], column=column)
        gold_sets = conll_entities(paths[0], gold, gold_lines, args.scheme)
        n = len(gold)
        rows = []
        for path in paths[1:]:
            sentences, lines = read_conll(path, column=column)
            check_same_sentences(gold, gold_lines, paths[0], sentences, path)
            sets = conll_entities(path, sentences, lines, args.scheme)
            rows.append(
                [(len(p), len(p & g)) for p, g in zip(sets, gold_sets, strict=True)]
            )
        self.n_gold = np.array([len(g) for g in gold_sets], dtype=np.int64)
        stacked = np.array(rows, dtype=np.int64).reshape(-1, 2)
        self.n_pred, self.n_correct = stacked[:, 0], stacked[:, 1]
        self.y_true = np.arange(n)
        self.preds = [np.arange(n) + s * n for s in range(len(paths) - 1)]
        self.metric = _EntityMetric(self, args.metric)
        self.metric_kwargs = None
        self.types = sorted({e[0] for g in gold_sets for e in g})
        self.type_counts = np.array(
            [[sum(e[0] == t for e in g) for t in self.types] for g in gold_sets]
        )
        self.kind = "conll"

    def split_counts(self, which, test_sets, average):
        """Per-split counts (TP, FP, FN) of system ``which`` on each test set."""
        if self.kind == "conll":
            rows = self.preds[which]
            out = []
            for test in test_sets:
                tp = self.n_correct[rows[test]].sum()
                out.append(
                    [
                        tp,
                        self.n_pred[rows[test]].sum() - tp,
                        self.n_gold[test].sum() - tp,
                    ]
                )
            return np.array(out)
        from sklearn.metrics import multilabel_confusion_matrix

        y, pred = self.y_true, self.preds[which]
        if self.kind == "probabilities":
            raise InputError(
                "--test paired-bayes needs label predictions; it counts (TP, FP, "
                "FN) per split, which probability files do not give."
            )
        per = np.array(
            [
                multilabel_confusion_matrix(
                    y[t], pred[t], labels=np.arange(len(self.classes))
                )
                for t in test_sets
            ]
        )
        counts = np.stack([per[..., 1, 1], per[..., 0, 1], per[..., 1, 0]], axis=-1)
        if average == "binary":
            return counts[:, self.metric_kwargs["pos_label"]]
        return counts


def _codes(args, labels, classes, path, source):
    """``label_codes`` of a label file read with ``--column``/``--field``."""
    first = first_label_line(path, column=args.column, field=args.field)
    return label_codes(labels, classes, path, source, first)


class _EntityMetric:
    """Entity-level precision, recall or F1 of sentences, from stacked counts."""

    def __init__(self, systems, which):
        self.systems, self.which = systems, which
        self.__name__ = f"entity_{which}"

    def __call__(self, sentences, rows):
        from ..metrics._prf import _precision_recall_fscore

        s = self.systems
        tp = s.n_correct[rows].sum()
        p, r, f = _precision_recall_fscore(
            np.array([tp]),
            np.array([s.n_pred[rows].sum()]),
            np.array([s.n_gold[sentences].sum()]),
            average="binary",
            pos_index=0,
            zero_division=0.0,
        )
        return float({"precision": p, "recall": r, "f1": f}[self.which])


def interval_of(data, which, args):
    """The bootstrap interval of system ``which``'s score."""
    from ..holdout import bootstrap_confidence_interval

    return bootstrap_confidence_interval(
        data.y_true,
        data.preds[which],
        metric=data.metric,
        metric_kwargs=data.metric_kwargs,
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        method=getattr(args, "method", "percentile"),
        random_state=args.random_state,
    )

"""Gold labels and systems read from files, in the form the package's functions take.

Shared by ``compare`` and ``interval``. Imported only when one of them runs.
"""

import threading

import numpy as np

from ..holdout._fast_metrics import _DENSE_CELLS
from ..holdout._options import AVERAGED_METRIC_NAMES, CONFIDENCE_METRIC_NAMES
from ._io import (
    InputError,
    LabelReader,
    check_memory,
    check_same_length,
    check_same_sentences,
    conll_entities,
    read_conll,
    read_probabilities,
)

# Items whose (gold, A, B) codes are combined at a time when counting a table.
_COUNT_CHUNK = 2**20


class Systems:
    """Gold and systems read from files, in the form the package's functions take.

    ``y_true`` and ``preds`` are what the resampling functions take:
    integer codes of the labels, in the sorted order of the classes, or
    probabilities; ``metrics`` holds ``(name, metric, metric_kwargs)`` of
    each ``--metric`` for them. Label files are read as they go
    (:class:`~._io.LabelReader`); the confusion-matrix metrics are then
    resampled from the tables of counts (:meth:`table`), unless the items
    come in clusters (``groups``, the codes of ``--groups``). For CoNLL
    files the items are sentences: ``y_true`` numbers them, each system's
    ``preds`` numbers its rows of the stacked per-sentence entity counts,
    and each metric is entity-level precision, recall or F1 of those counts.
    """

    def __init__(self, args, paths):
        self.gold_name, self.names = paths[0], list(paths[1:])
        confidence = [m in CONFIDENCE_METRIC_NAMES for m in args.metric]
        if getattr(args, "conll", False):
            self._read_conll(args, paths)
        elif all(confidence):
            self._read_probabilities(args, paths)
        elif any(confidence):
            raise InputError(
                f"--metric {','.join(args.metric)}: "
                f"{', '.join(CONFIDENCE_METRIC_NAMES)} score probability files and "
                "the other metrics label files; run them separately."
            )
        else:
            self._read_labels(args, paths)
        # the resampled values of each metric and system, and their
        # differences, are held at once: 8-byte floats
        n_values = len(args.metric) * len(self.names) * 2 * args.n_resamples
        check_memory(8 * n_values, f"--n-resamples {args.n_resamples}")
        self.groups = self._read_groups(args)
        if self.kind != "conll":
            self.metrics = [
                (name, name, self._metric_kwargs(name, args)) for name in args.metric
            ]
        self._tables, self._lock = {}, threading.Lock()

    def _read_labels(self, args, paths):
        reader = LabelReader(column=args.column, field=args.field)
        raw = [reader.read(path) for path in paths]
        check_same_length(raw, paths, paths[0])
        # sorted, as the package orders classes; the functions get the codes
        self.classes = reader.classes(raw[0])
        codes = [
            reader.codes_in(r, self.classes, path, paths[0], reader.first_line(path))
            for r, path in zip(raw, paths, strict=True)
        ]
        self.y_true, self.preds = codes[0], codes[1:]
        self.kind = "labels"

    def _read_probabilities(self, args, paths):
        reader = LabelReader(column=args.column, field=args.field)
        gold = reader.read(paths[0])
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
        self.y_true = reader.codes_in(
            gold,
            names,
            paths[0],
            f"the columns of {paths[1]}",
            reader.first_line(paths[0]),
        )
        self.preds = systems
        self.kind = "probabilities"

    def _read_groups(self, args):
        """The cluster of each item, as codes in the sorted order of the clusters."""
        if args.groups is not None:
            reader, path = LabelReader(what="group"), args.groups
        elif args.groups_column is not None or args.groups_field is not None:
            if self.kind == "conll":
                raise InputError(
                    "--groups-column and --groups-field read GOLD as a table; "
                    "with --conll pass --groups FILE, one group a sentence."
                )
            reader = LabelReader(
                column=args.groups_column, field=args.groups_field, what="group"
            )
            path = self.gold_name
        else:
            return None
        raw = reader.read(path)
        n, items = (
            self.y_true.shape[0],
            "sentences" if self.kind == "conll" else "items",
        )
        if raw.shape[0] != n:
            raise InputError(
                f"{path} has {raw.shape[0]} groups but {self.gold_name} has {n} "
                f"{items}; give one group per item, in the order of {self.gold_name}."
            )
        # the order of the clusters is that of the units the resamples draw:
        # integer ids in the order of the integers, as the package's functions
        # order integer groups
        self.group_names = reader.ids(raw)
        return reader.codes_in(raw, self.group_names, path, path)

    def fields(self, args):
        """What was scored, as the payloads of ``compare`` and ``interval`` say."""
        return {
            "gold": self.gold_name,
            "n_items": int(self.y_true.shape[0]),
            "items": "sentences" if self.kind == "conll" else "items",
            "entity_level": self.kind == "conll",
            "groups": _groups_source(args),
            "n_groups": None if self.groups is None else len(self.group_names),
        }

    def _pos_code(self, pos_label):
        if pos_label not in self.classes:
            raise InputError(
                f"--pos-label {pos_label!r} is not a label of {self.gold_name} "
                f"(which uses {self.classes})."
            )
        return self.classes.index(pos_label)

    def _metric_kwargs(self, metric, args):
        if metric not in AVERAGED_METRIC_NAMES:  # accuracy, MCC, kappa, ...
            return None
        kwargs = {"average": args.average}
        if self.kind == "probabilities":
            kwargs["labels"] = np.arange(len(self.classes))
        if args.pos_label is not None:  # with --average binary (APPLIES)
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
        for metric in args.metric:
            if metric not in ("precision", "recall", "f1"):
                raise InputError(
                    f"--metric {metric} is not an entity-level metric; with "
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
        self.metrics = [(m, _EntityMetric(self, m), None) for m in args.metric]
        self.types = sorted({e[0] for g in gold_sets for e in g})
        self.type_counts = np.array(
            [[sum(e[0] == t for e in g) for t in self.types] for g in gold_sets]
        )
        self.kind = "conll"

    @property
    def by_table(self):
        """Whether the resampling runs on tables of counts: label files, items
        not in clusters, and few enough classes for a (gold, A, B) table."""
        return (
            self.kind == "labels"
            and self.groups is None
            and len(self.classes) ** 3 <= _DENSE_CELLS
        )

    def table(self, *which):
        """Counts of the items' (gold, system ``which[0]``, ...) codes, one axis each.

        Counted in chunks, with ``np.bincount`` over the combined codes
        ``(t k + a) k + b``; a system's table is the margin of a (gold, A, B)
        table counted before.
        """
        with self._lock:
            if which not in self._tables:
                self._tables[which] = self._count(which)
            return self._tables[which]

    def _count(self, which):
        if len(which) == 1:
            for key, table in self._tables.items():
                if len(key) == 2 and which[0] in key:
                    return table.sum(axis=2 - key.index(which[0]))
        k = len(self.classes)
        size = k ** (1 + len(which))
        counts = np.zeros(size, dtype=np.int64)
        for start in range(0, self.y_true.shape[0], _COUNT_CHUNK):
            stop = start + _COUNT_CHUNK
            cell = self.y_true[start:stop].astype(np.intp)
            for w in which:
                cell *= k
                cell += self.preds[w][start:stop]
            counts += np.bincount(cell, minlength=size)
        return counts.reshape((k,) * (1 + len(which)))

    @property
    def group_kwargs(self):
        """``{"groups": ...}`` for the resampling functions, or nothing."""
        return {} if self.groups is None else {"groups": self.groups}

    def split_counts(self, which, test_sets, average, pos_label=None):
        """Per-split counts (TP, FP, FN) of system ``which`` on each test set;
        those of class ``pos_label`` (a code) for the binary average."""
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
            return counts[:, pos_label]
        return counts


def _groups_source(args):
    """Where the clusters come from: the file, ``column=NAME`` or ``field=NAME``."""
    if getattr(args, "groups", None) is not None:
        return args.groups
    if getattr(args, "groups_column", None) is not None:
        return f"column={args.groups_column}"
    if getattr(args, "groups_field", None) is not None:
        return f"field={args.groups_field}"
    return None


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


def _resampling_options(args):
    return dict(
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        random_state=args.random_state,
    )


def interval_of(data, which, metric, args):
    """The bootstrap interval of system ``which``'s score by ``metric``,
    a ``(name, metric, metric_kwargs)`` of ``data.metrics``."""
    from ..holdout import (
        bootstrap_confidence_interval,
        bootstrap_confidence_interval_from_table,
    )

    _, func, kwargs = metric
    options = _resampling_options(args)
    options["method"] = getattr(args, "method", "percentile")
    if data.by_table:
        return bootstrap_confidence_interval_from_table(
            data.table(which),
            labels=np.arange(len(data.classes)),
            metric=func,
            metric_kwargs=kwargs,
            **options,
        )
    return bootstrap_confidence_interval(
        data.y_true,
        data.preds[which],
        metric=func,
        metric_kwargs=kwargs,
        **options,
        **data.group_kwargs,
    )


def _by_table(data):
    """The metrics' ``(metric, metric_kwargs)``, if they resample one table."""
    if not data.by_table:
        return None
    return [(func, kwargs) for _, func, kwargs in data.metrics]


def intervals_of(data, which, args):
    """System ``which``'s interval by each metric of ``data.metrics``.

    From a table, one set of resamples serves every metric (each interval
    is the one its own call gives for the same seed).
    """
    metrics = _by_table(data)
    if metrics is None:
        return [interval_of(data, which, metric, args) for metric in data.metrics]
    from ..holdout._tables import _table_results

    return _table_results(
        "interval",
        data.table(which),
        metrics,
        labels=np.arange(len(data.classes)),
        method=getattr(args, "method", "percentile"),
        **_resampling_options(args),
    )


def paired_tests_of(data, which, args):
    """``args.test`` of system ``which`` against the first by each metric of
    ``data.metrics``; from a table, one set of resamples for every metric."""
    metrics = _by_table(data)
    if metrics is None or args.test == "sign":
        return [paired_test_of(data, which, metric, args) for metric in data.metrics]
    from ..holdout._tables import _table_results

    return _table_results(
        {"paired-bootstrap": "bootstrap", "permutation": "permutation"}[args.test],
        data.table(0, which),
        metrics,
        labels=np.arange(len(data.classes)),
        **_resampling_options(args),
    )


def paired_test_of(data, which, metric, args):
    """``args.test`` (paired-bootstrap, permutation or sign) of system
    ``which`` against the first, by ``metric``."""
    from ..holdout import (
        paired_bootstrap_test,
        paired_bootstrap_test_from_table,
        paired_permutation_test,
        paired_permutation_test_from_table,
        sign_test,
        sign_test_from_table,
    )

    if args.test == "sign":
        if data.kind != "labels":
            raise InputError(
                "--test sign counts the items exactly one system gets right; it "
                "needs label files, not probabilities or CoNLL entities."
            )
        if data.groups is not None:
            raise InputError(
                "--test sign counts the items as independent; with --groups use "
                "--test paired-bootstrap or permutation, which resample whole "
                "clusters."
            )
        if data.by_table:
            return sign_test_from_table(
                data.table(0, which), confidence_level=args.confidence_level
            )
        return sign_test(
            data.y_true,
            data.preds[0],
            data.preds[which],
            confidence_level=args.confidence_level,
        )
    _, func, kwargs = metric
    options = _resampling_options(args)
    if data.by_table:
        test = {
            "paired-bootstrap": paired_bootstrap_test_from_table,
            "permutation": paired_permutation_test_from_table,
        }[args.test]
        return test(
            data.table(0, which),
            labels=np.arange(len(data.classes)),
            metric=func,
            metric_kwargs=kwargs,
            **options,
        )
    test = {
        "paired-bootstrap": paired_bootstrap_test,
        "permutation": paired_permutation_test,
    }[args.test]
    return test(
        data.y_true,
        data.preds[0],
        data.preds[which],
        metric=func,
        metric_kwargs=kwargs,
        **options,
        **data.group_kwargs,
    )

"""The subcommands of ``sklearn-faithful``: read files, call the package, report.

Each ``run_<command>(args)`` returns the JSON payload of the command (a dict
of plain Python values, documented in doc/cli.rst), and ``text_<command>``
renders the same payload as a table. Every number comes from the package's
Python functions; nothing here computes a metric, an interval or a test.
"""

import math
import os

import numpy as np

from .. import __version__
from ..utils._multitest import holm
from ._io import (
    InputError,
    check_same_length,
    check_same_sentences,
    conll_entities,
    label_codes,
    read_conll,
    read_labels,
    read_numbers,
    read_probabilities,
)

CONFIDENCE_METRICS = ("cprecision", "crecall", "cf1")
LABEL_METRICS = ("accuracy", "precision", "recall", "f1")
METRICS = LABEL_METRICS + CONFIDENCE_METRICS
TESTS = ("paired-bootstrap", "permutation", "sign", "paired-bayes")


def _num(x):
    """A JSON number: a Python float, or None where it is not finite."""
    x = float(x)
    return x if math.isfinite(x) else None


def _pair(interval):
    return [_num(interval[0]), _num(interval[1])]


def _header(command, args, **extra):
    out = {"command": command, "version": __version__}
    if hasattr(args, "random_state"):
        out["random_state"] = args.random_state
    out.update(extra)
    return out


# ---------------------------------------------------------------- inputs


class _Systems:
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
        elif args.metric in CONFIDENCE_METRICS:
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
        self.y_true = label_codes(gold, self.classes, paths[0], paths[0])
        self.preds = [
            label_codes(labels, self.classes, name, paths[0])
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
        self.y_true = label_codes(gold, names, paths[0], f"the columns of {paths[1]}")
        self.preds = systems
        self.metric = args.metric
        self.metric_kwargs = {
            **self._metric_kwargs(args),
            "labels": np.arange(len(names)),
        }
        self.kind = "probabilities"

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


# ---------------------------------------------------------------- compare


def _interval_of(data, which, args):
    from ..holdout import bootstrap_confidence_interval

    res = bootstrap_confidence_interval(
        data.y_true,
        data.preds[which],
        metric=data.metric,
        metric_kwargs=data.metric_kwargs,
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        method=getattr(args, "method", "percentile"),
        random_state=args.random_state,
    )
    return res


def _compare_one(data, which, args, splits):
    """System ``which`` against the first: the chosen test's numbers."""
    from ..holdout import paired_bootstrap_test, paired_permutation_test, sign_test

    a, b = data.preds[0], data.preds[which]
    if args.test == "paired-bayes":
        from ..comparison import paired_bayes_test

        average = "micro" if data.kind == "conll" else args.average
        counts_a = data.split_counts(0, splits, average)
        counts_b = data.split_counts(which, splits, average)
        res = paired_bayes_test(
            counts_a,
            counts_b,
            metric=args.metric,
            average="binary" if data.kind == "conll" else average,
            rope=args.rope,
            confidence_level=args.confidence_level,
        )
        return {
            "difference": _num(res.difference),
            "difference_interval": _pair(res.credible_interval()),
            "pvalue": None,
            "p_h1": _num(res.p_h1),
            "p_h0": _num(res.p_h0),
            "decision": res.decide(args.threshold),
        }
    if args.test == "sign":
        if data.kind != "labels":
            raise InputError(
                "--test sign counts the items exactly one system gets right; it "
                "needs label files, not probabilities or CoNLL entities."
            )
        res = sign_test(data.y_true, a, b, confidence_level=args.confidence_level)
        return {
            "difference": None,
            "difference_interval": None,
            "pvalue": _num(res.pvalue),
            "n_b_better": res.n_b_better,
            "n_a_better": res.n_a_better,
            "share_interval": _pair(res.confidence_interval()),
        }
    func = (
        paired_bootstrap_test
        if args.test == "paired-bootstrap"
        else (paired_permutation_test)
    )
    res = func(
        data.y_true,
        a,
        b,
        metric=data.metric,
        metric_kwargs=data.metric_kwargs,
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        random_state=args.random_state,
    )
    return {
        "difference": _num(res.statistic),
        "difference_interval": _pair(res.confidence_interval()),
        "pvalue": _num(res.pvalue),
    }


def _bcv_test_sets(data, args):
    """The test halves of the m x 2 BCV over the items, for paired-bayes."""
    from ..model_selection import BlockRegularizedMx2CV

    cv = BlockRegularizedMx2CV(args.repetitions, random_state=args.random_state)
    n = data.y_true.shape[0]
    y = data.type_counts if data.kind == "conll" else data.y_true
    return [test for _, test in cv.split(np.zeros((n, 1)), y)]


def run_compare(args):
    if len(args.files) < 3:
        raise InputError(
            "compare needs the gold file and at least two system files: "
            "GOLD SYS_A SYS_B [SYS_C ...]."
        )
    data = _Systems(args, args.files)
    from joblib import Parallel, delayed

    splits = _bcv_test_sets(data, args) if args.test == "paired-bayes" else None
    k = len(data.preds)
    jobs = [delayed(_interval_of)(data, i, args) for i in range(k)]
    jobs += [delayed(_compare_one)(data, i, args, splits) for i in range(1, k)]
    out = Parallel(n_jobs=args.n_jobs, prefer="threads")(jobs)
    intervals, tests = out[:k], out[k:]
    adjust = args.test != "paired-bayes" and k > 2
    if adjust:
        adjusted = holm([t["pvalue"] for t in tests])
    systems = []
    for i, (name, res) in enumerate(zip(data.names, intervals, strict=True)):
        row = {
            "name": name,
            "baseline": i == 0,
            "score": _num(res.statistic),
            "interval": _pair(res.confidence_interval),
        }
        if i:
            row.update(tests[i - 1])
            if args.test == "sign":
                row["difference"] = _num(res.statistic - intervals[0].statistic)
            if args.test != "paired-bayes":
                row["pvalue_adjusted"] = (
                    _num(adjusted[i - 1]) if adjust else row["pvalue"]
                )
        systems.append(row)
    return _header(
        "compare",
        args,
        gold=data.gold_name,
        n_items=int(data.y_true.shape[0]),
        items="sentences" if data.kind == "conll" else "items",
        metric=args.metric,
        average=None if args.metric == "accuracy" else args.average,
        entity_level=data.kind == "conll",
        test=args.test,
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        repetitions=args.repetitions if args.test == "paired-bayes" else None,
        rope=args.rope if args.test == "paired-bayes" else None,
        multiple_comparisons="holm" if adjust else "none",
        systems=systems,
    )


def _fmt(x, signed=False, digits=4):
    if x is None:
        return "nan"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def _fmt_interval(pair, signed=False):
    if pair is None:
        return ""
    return f"({_fmt(pair[0], signed)}, {_fmt(pair[1], signed)})"


def _table(header, rows):
    widths = [max(len(str(r[j])) for r in [header, *rows]) for j in range(len(header))]
    line = "  ".join("-" * w for w in widths)
    fmt = [
        "  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [header, *rows]
    ]
    return [fmt[0], line, *fmt[1:]]


def text_compare(p):
    level = f"{100 * p['confidence_level']:g}%"
    metric = p["metric"] if p["average"] is None else f"{p['metric']} ({p['average']})"
    if p["entity_level"]:
        metric = f"entity-level {p['metric']}"
    test = {
        "paired-bootstrap": f"paired bootstrap, {p['n_resamples']} resamples",
        "permutation": f"paired permutation, {p['n_resamples']} permutations",
        "sign": "exact sign test",
        "paired-bayes": f"paired Bayes test on {p['repetitions']}x2 BCV halves",
    }[p["test"]]
    lines = [
        f"{metric} on {p['n_items']} {p['items']} of {p['gold']}; {test}; "
        f"random_state={p['random_state']}",
        "",
    ]
    bayes = p["test"] == "paired-bayes"
    last = "P(B better)" if bayes else "p-value"
    header = [
        "System",
        f"{p['metric']} ({level} CI)",
        f"Δ vs baseline ({level} CI)",
        last,
    ]
    if bayes:
        header.append("decision")
    rows = []
    for s in p["systems"]:
        score = f"{_fmt(s['score'])} {_fmt_interval(s['interval'])}"
        if s["baseline"]:
            rows.append([f"Baseline: {s['name']}", score, "", ""] + [""] * bayes)
            continue
        diff = _fmt(s["difference"], signed=True)
        if s.get("difference_interval"):
            diff += " " + _fmt_interval(s["difference_interval"], signed=True)
        if p["test"] == "sign":
            diff += f"  B won {s['n_b_better']}, A won {s['n_a_better']}"
        if bayes:
            rows.append([s["name"], score, diff, _fmt(s["p_h1"]), s["decision"]])
        else:
            star = " *" if s["pvalue_adjusted"] < 1 - p["confidence_level"] else ""
            rows.append([s["name"], score, diff, f"{s['pvalue_adjusted']:.4f}{star}"])
    lines += _table(header, rows)
    lines.append("")
    if bayes:
        lines.append(
            "P(B better) is the posterior probability that the system beats the "
            "baseline; decision claims only what reaches the threshold."
        )
    else:
        alpha = f"{1 - p['confidence_level']:.3g}"
        if p["multiple_comparisons"] == "holm":
            n = len(p["systems"]) - 1
            lines.append(
                f"p-values adjusted for {n} comparisons with the baseline by "
                f"Holm's method; * p < {alpha}."
            )
        else:
            lines.append(f"* p < {alpha}.")
    return "\n".join(lines)


# ---------------------------------------------------------------- interval


def run_interval(args):
    data = _Systems(args, [args.gold, args.system])
    res = _interval_of(data, 0, args)
    return _header(
        "interval",
        args,
        gold=data.gold_name,
        system=data.names[0],
        n_items=int(data.y_true.shape[0]),
        items="sentences" if data.kind == "conll" else "items",
        metric=args.metric,
        average=None if args.metric == "accuracy" else args.average,
        entity_level=data.kind == "conll",
        method=args.method,
        n_resamples=args.n_resamples,
        confidence_level=args.confidence_level,
        score=_num(res.statistic),
        interval=_pair(res.confidence_interval),
        standard_error=_num(res.standard_error),
    )


def text_interval(p):
    level = f"{100 * p['confidence_level']:g}%"
    metric = p["metric"] if p["average"] is None else f"{p['metric']} ({p['average']})"
    if p["entity_level"]:
        metric = f"entity-level {p['metric']}"
    return "\n".join(
        [
            f"{metric} of {p['system']} on {p['n_items']} {p['items']}: "
            f"{_fmt(p['score'])}",
            f"{level} {p['method']} bootstrap interval: {_fmt_interval(p['interval'])}"
            f"  (standard error {_fmt(p['standard_error'])}, {p['n_resamples']} "
            f"resamples, random_state={p['random_state']})",
        ]
    )


# ---------------------------------------------------------------- bayes-test


def _read_split_counts(path, triples):
    if triples:
        from ..comparison import counts_from_triples

        rows, _ = read_numbers(
            path, width=(3,), what="one split's n_gold, n_pred, n_correct"
        )
        _check_whole(path, rows)
        return counts_from_triples(rows.astype(np.int64))
    rows, _ = read_numbers(path, width=(3, 4), what="one split's TP, FP, FN[, TN]")
    _check_whole(path, rows)
    return rows.astype(np.int64)


def _check_whole(path, rows):
    bad = np.argwhere((rows != np.round(rows)) | (rows < 0))
    if bad.size:
        i = int(bad[0][0])
        raise InputError(
            f"{path}, row {i + 1}: {rows[i].tolist()} are not all whole counts >= 0."
        )


def _correlation(text):
    try:
        return float(text)
    except ValueError:
        return text


def run_bayes_test(args):
    from ..comparison import bayes_test, paired_bayes_test

    counts_a = _read_split_counts(args.counts_a, args.triples)
    counts_b = _read_split_counts(args.counts_b, args.triples)
    if counts_a.shape[0] != counts_b.shape[0]:
        raise InputError(
            f"{args.counts_b} has {counts_b.shape[0]} splits but {args.counts_a} "
            f"has {counts_a.shape[0]}; rows are matched by position, one per split."
        )
    metrics = ("precision", "recall", "f1") if args.metric == "all" else (args.metric,)
    results = []
    for metric in metrics:
        if args.paired:
            res = paired_bayes_test(
                counts_a,
                counts_b,
                metric=metric,
                rope=args.rope,
                confidence_level=args.confidence_level,
            )
            row = {
                "metric": metric,
                "mean_a": _num(res.mean_a),
                "mean_b": _num(res.mean_b),
                "difference": _num(res.difference),
                "difference_interval": _pair(res.credible_interval()),
            }
        else:
            res = bayes_test(
                counts_a,
                counts_b,
                metric=metric,
                prior=args.prior,
                correlation=_correlation(args.correlation),
                rope=args.rope,
                confidence_level=args.confidence_level,
                random_state=args.random_state,
            )
            row = {
                "metric": metric,
                "mean_a": _num(res.mean_a),
                "mean_b": _num(res.mean_b),
                "interval_a": _pair(res.interval_a),
                "interval_b": _pair(res.interval_b),
                "paper_decision": res.decision,
            }
        row.update(p_h0=_num(res.p_h0), p_h1=_num(res.p_h1))
        if args.rope > 0:
            row.update(
                p_worse=_num(res.p_worse),
                p_equivalent=_num(res.p_equivalent),
                p_better=_num(res.p_better),
            )
        row["decision"] = res.decide(args.threshold)
        results.append(row)
    return _header(
        "bayes-test",
        args,
        counts_a=args.counts_a,
        counts_b=args.counts_b,
        n_splits=int(counts_a.shape[0]),
        test="paired-bayes" if args.paired else "bayes",
        correlation=None if args.paired else _correlation(args.correlation),
        rope=args.rope,
        confidence_level=args.confidence_level,
        threshold=args.threshold,
        results=results,
    )


def text_bayes_test(p):
    level = f"{100 * p['confidence_level']:g}%"
    paired = p["test"] == "paired-bayes"
    title = (
        "Paired Bayes test (per-split differences)"
        if paired
        else f"Bayes test of Wang & Li (2019), correlation={p['correlation']!r}"
    )
    lines = [
        f"{title}: A = {p['counts_a']}, B = {p['counts_b']}, {p['n_splits']} splits",
        "",
    ]
    if paired:
        header = ["metric", "A", "B", f"B - A ({level} CI)", "P(H1)", "decision"]
        rows = [
            [
                r["metric"],
                _fmt(r["mean_a"]),
                _fmt(r["mean_b"]),
                f"{_fmt(r['difference'], True)} "
                + _fmt_interval(r["difference_interval"], True),
                _fmt(r["p_h1"]),
                r["decision"],
            ]
            for r in p["results"]
        ]
    else:
        header = ["metric", f"A ({level} CI)", f"B ({level} CI)", "P(H1)", "decision"]
        rows = [
            [
                r["metric"],
                f"{_fmt(r['mean_a'])} {_fmt_interval(r['interval_a'])}",
                f"{_fmt(r['mean_b'])} {_fmt_interval(r['interval_b'])}",
                _fmt(r["p_h1"]),
                r["decision"],
            ]
            for r in p["results"]
        ]
    lines += _table(header, rows)
    lines += [
        "",
        f"P(H1) = P(B better than A). decision claims only at P >= "
        f"{p['threshold']:g}" + (f", rope {p['rope']:g}." if p["rope"] else "."),
    ]
    if not paired:
        lines.append(
            "The paper's rule (larger of P(H0), P(H1)): "
            + ", ".join(f"{r['metric']} {r['paper_decision']}" for r in p["results"])
            + "."
        )
    return "\n".join(lines)


# ---------------------------------------------------------------- split


def _corpus_items(args):
    """(n_items, what, y, groups) for ``split``."""
    source = args.corpus
    y = groups = None
    type_names = None
    if source.isdigit():
        n, what = int(source), "items"
    elif args.conll:
        sentences, lines = read_conll(source, column=args.tag_column)
        n, what = len(sentences), "sentences"
        if args.labels is None and args.counts is None and args.groups is None:
            sets = conll_entities(source, sentences, lines, args.scheme)
            type_names = sorted({e[0] for s in sets for e in s})
            y = np.array(
                [[sum(e[0] == t for e in s) for t in type_names] for s in sets]
            )
    else:
        n, what = len(read_labels(source)), "lines"
    if args.labels is not None:
        labels = read_labels(args.labels)
        check_same_length([range(n), labels], [source, args.labels], source, what)
        y = np.array(labels)
        type_names = sorted(set(labels))
    elif args.counts is not None:
        y, _ = read_numbers(
            args.counts, width=range(1, 10**6), what="one item's counts"
        )
        check_same_length([range(n), y], [source, args.counts], source, what)
    elif args.groups is not None:
        groups = np.array(read_labels(args.groups))
        check_same_length([range(n), groups], [source, args.groups], source, what)
    return n, what, y, groups, type_names


def run_split(args):
    from ..model_selection import BlockRegularizedMx2CV

    n, what, y, groups, type_names = _corpus_items(args)
    cv = BlockRegularizedMx2CV(args.repetitions, random_state=args.random_state)
    X = np.zeros((n, 1))
    balance = cv.block_balance(X, y, groups)
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as exc:
        raise InputError(
            f"--out {args.out}: cannot create it ({exc.strerror})."
        ) from None
    files = []
    for s, (train, test) in enumerate(cv.split(X, y, groups), start=1):
        pair = {}
        for part, idx in (("train", train), ("test", test)):
            path = os.path.join(args.out, f"split{s}_{part}.txt")
            np.savetxt(path, np.sort(idx), fmt="%d")
            pair[part] = path
        files.append(
            {
                "split": s,
                "repetition": (s + 1) // 2,
                "train": pair["train"],
                "test": pair["test"],
                "n_train": int(train.size),
                "n_test": int(test.size),
            }
        )
    if groups is not None:
        regularized = "groups"
    elif y is None:
        regularized = "none"
    else:
        regularized = "labels" if np.ndim(y) == 1 else "counts"
    totals = None if balance.totals is None else np.asarray(balance.totals).tolist()
    return _header(
        "split",
        args,
        n_items=n,
        items=what,
        repetitions=args.repetitions,
        regularized_by=regularized,
        columns=type_names,
        out=args.out,
        splits=files,
        balance={
            "sizes": np.asarray(balance.sizes).tolist(),
            "totals": totals,
            "max_size_difference": int(balance.max_size_difference),
            "max_relative_deviation": _num(balance.max_relative_deviation),
        },
    )


def text_split(p):
    b = p["balance"]
    lines = [
        f"{p['repetitions']}x2 BCV of {p['n_items']} {p['items']}, "
        f"{len(b['sizes'])} blocks regularized by {p['regularized_by']}, "
        f"random_state={p['random_state']}",
        f"wrote {len(p['splits'])} train/test index files (0-based item numbers, "
        f"one a line) to {p['out']}",
        "",
        "Block balance",
    ]
    header = ["block", "size"]
    if b["totals"] is not None:
        cols = p["columns"] or [f"col{j}" for j in range(len(b["totals"][0]))]
        header += [str(c) for c in cols]
    rows = []
    for j, size in enumerate(b["sizes"]):
        row = [str(j + 1), str(size)]
        if b["totals"] is not None:
            row += [f"{v:g}" for v in b["totals"][j]]
        rows.append(row)
    lines += _table(header, rows)
    lines += [
        "",
        f"largest size difference {b['max_size_difference']}, largest relative "
        f"deviation of a block total {b['max_relative_deviation']:.4f}",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------- plan


def run_plan(args):
    from ..gate import (
        estimate_sigma,
        minimum_detectable_effect,
        regression_threshold,
        required_sample_size,
    )

    beta = 1.0 - args.power
    sigma = args.sigma
    reference = args.reference_mean
    if sigma is None:
        sigma = estimate_sigma(proportion=args.accuracy)
        reference = args.accuracy if reference is None else reference
    n, table = required_sample_size(
        sigma, args.mde, alpha=args.alpha, beta=beta, return_table=True
    )
    threshold = None
    if reference is not None:
        threshold = regression_threshold(
            reference,
            sigma,
            n,
            alpha=args.alpha,
            higher_is_better=not args.lower_is_better,
        )
    return _header(
        "plan",
        args,
        sigma=_num(sigma),
        accuracy=args.accuracy,
        mde=args.mde,
        alpha=args.alpha,
        power=args.power,
        n=int(n),
        achieved_mde=_num(
            minimum_detectable_effect(sigma, n, alpha=args.alpha, beta=beta)
        ),
        reference_mean=reference,
        threshold=_num(threshold) if threshold is not None else None,
        table=[
            {"n": int(a), "theta": _num(b)}
            for a, b in zip(table["n"], table["theta"], strict=True)
        ],
    )


def text_plan(p):
    lines = [
        f"Regression gate: sigma={p['sigma']:.4g}, detect a drop of {p['mde']:g} "
        f"with power {p['power']:g} at alpha {p['alpha']:g}",
        f"items per run: {p['n']}  (it detects drops of {p['achieved_mde']:.4g})",
    ]
    if p["threshold"] is not None:
        lines.append(
            f"threshold: a new run fails when its mean crosses {p['threshold']:.4f} "
            f"(reference {p['reference_mean']:g})"
        )
    lines += ["", "theta(n): the smallest drop n items detect", ""]
    lines += _table(
        ["n", "theta"], [[str(r["n"]), f"{r['theta']:.4g}"] for r in p["table"]]
    )
    return "\n".join(lines)


# ---------------------------------------------------------------- model-based


def run_model_based(args):
    from ..model_based import model_based_test_from_summary

    res = model_based_test_from_summary(
        args.mean_c,
        args.n_c,
        args.mean_t,
        args.n_t,
        precision=args.precision,
        false_omission_rate=args.false_omission_rate,
        confidence_level=args.confidence_level,
        method=args.method,
        n_predicted_positive=args.n_predicted_positive,
        n_predicted_negative=args.n_predicted_negative,
    )
    payload = _header(
        "model-based",
        args,
        method=res.method,
        confidence_level=res.confidence_level,
        n_c=res.n_c,
        n_t=res.n_t,
        mean_c=_num(res.mean_c),
        mean_t=_num(res.mean_t),
        effect=_num(res.effect),
        corrected_effect=_num(res.corrected_effect),
        rate_c=_num(res.rate_c),
        rate_t=_num(res.rate_t),
        ci_deterministic=_pair(res.confidence_interval(deterministic=True)),
        ci_model=_pair(res.confidence_interval()),
        pvalue_deterministic=_num(res.pvalue_deterministic),
        pvalue=_num(res.pvalue),
        significant_deterministic=bool(res.significant_deterministic),
        significant_model=bool(res.significant_model),
        conclusion_changed=bool(res.conclusion_changed),
    )
    payload.pop("random_state", None)
    payload["summary"] = res.summary()
    return payload


def text_model_based(p):
    return "Model-based metric test (Goyal, Hu & Gupta 2023)\n\n" + p["summary"]


RUN = {
    "compare": (run_compare, text_compare),
    "interval": (run_interval, text_interval),
    "bayes-test": (run_bayes_test, text_bayes_test),
    "split": (run_split, text_split),
    "plan": (run_plan, text_plan),
    "model-based": (run_model_based, text_model_based),
}

"""``sklearn-faithful split``: m x 2 BCV index files for an external trainer."""

import argparse
import os

from ._arguments import (
    RAW,
    REPETITIONS,
    Applies,
    add_format,
    add_random_state,
    add_scheme,
)
from ._output import header, table

NAME = "split"

# memory of an item: about eight arrays of 8-byte numbers over the items
_BYTES_PER_ITEM = 64

EPILOG = """\
examples:
  sklearn-faithful split 10000 --out splits/
  sklearn-faithful split corpus.txt --labels labels.txt --out splits/
  sklearn-faithful split train.conll --conll --out splits/   # by entity types
  sklearn-faithful split corpus.txt --groups documents.txt --repetitions 5 --out s/
"""

# the options that act on some runs only (every option honoured or refused)
APPLIES = {
    "scheme": Applies(lambda a: a.conll, "with --conll"),
    "tag_column": Applies(lambda a: a.conll, "with --conll"),
}


def add_parser(subparsers):
    p = subparsers.add_parser(
        NAME,
        help="write m x 2 BCV train/test index files for an external trainer",
        description="Cut N items (or the lines of a file, or the sentences of a "
        "CoNLL corpus) into the blocks of a block-regularized m x 2 CV, write "
        "each split's train and test item numbers (0-based, one a line) to "
        "DIR/split<k>_train.txt and DIR/split<k>_test.txt, and print the block "
        "balance.",
        epilog=EPILOG,
        formatter_class=RAW,
    )
    p.add_argument("corpus", metavar="CORPUS_OR_N")
    p.add_argument(
        "--repetitions",
        type=REPETITIONS,
        default=3,
        help="m, the number of two-fold partitions (default: 3)",
    )
    reg = p.add_mutually_exclusive_group()
    reg.add_argument("--labels", help="one class label per item: stratify on it")
    reg.add_argument(
        "--counts", help="one row of counts per item (e.g. entities by type): balance"
    )
    reg.add_argument("--groups", help="one group per item: keep each group whole")
    p.add_argument(
        "--conll",
        action="store_true",
        help="CORPUS is a CoNLL file: split its sentences, balanced on their "
        "entity-type counts unless --labels/--counts/--groups is given",
    )
    add_scheme(p)
    p.add_argument("--tag-column", type=int, default=-1, help=argparse.SUPPRESS)
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    add_random_state(p, "seed of the cut into blocks")
    add_format(p)
    return p


def _corpus_items(args):
    """(n_items, what, y, groups, column names) for ``split``."""
    import numpy as np

    from ._io import (
        check_memory,
        check_same_length,
        conll_entities,
        read_conll,
        read_labels,
        read_numbers,
    )

    source = args.corpus
    y = groups = None
    type_names = None
    if source.isdigit():
        n, what = int(source), "items"
        # the items' numbers, their blocks and each split's indices: a few
        # arrays of 8-byte integers
        check_memory(_BYTES_PER_ITEM * n, f"split {source} ({n:,} items)")
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
        y = labels
        type_names = np.unique(labels).tolist()
    elif args.counts is not None:
        y, _ = read_numbers(
            args.counts, width=range(1, 10**6), what="one item's counts"
        )
        check_same_length([range(n), y], [source, args.counts], source, what)
    elif args.groups is not None:
        groups = read_labels(args.groups)
        check_same_length([range(n), groups], [source, args.groups], source, what)
    return n, what, y, groups, type_names


def run(args):
    import numpy as np

    from ..model_selection import BlockRegularizedMx2CV
    from ._io import InputError

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
    return header(
        NAME,
        args,
        n_items=n,
        items=what,
        repetitions=args.repetitions,
        regularized_by=regularized,
        columns=type_names,
        out=args.out,
        splits=files,
        balance=balance,
    )


def text(p):
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
    head = ["block", "size"]
    if b["totals"] is not None:
        cols = p["columns"] or [f"col{j}" for j in range(len(b["totals"][0]))]
        head += [str(c) for c in cols]
    rows = []
    for j, size in enumerate(b["sizes"]):
        row = [str(j + 1), str(size)]
        if b["totals"] is not None:
            row += [f"{v:g}" for v in b["totals"][j]]
        rows.append(row)
    lines += table(head, rows)
    lines += [
        "",
        f"largest size difference {b['max_size_difference']}, largest relative "
        f"deviation of a block total {b['max_relative_deviation']:.4f}",
    ]
    return "\n".join(lines)

"""
=============================================
Visualizing block-regularized 3 x 2 CV splits
=============================================

Draws the six splits of
:class:`~sklearn_faithful.model_selection.BlockRegularized3x2CV` in the style
of scikit-learn's "Visualizing cross-validation behavior" example. Each row
is one split (blue: training, orange: test); the bottom rows show the block
of each sample and its class. Samples are sorted by block, so the three
partitions of the paper's Table 1 appear as solid bands:
(B1 B2 | B3 B4), (B1 B3 | B2 B4), (B2 B3 | B1 B4), each used both ways.

The data: 100 samples of three imbalanced classes (50, 30, 20). The printout
shows that each block holds 25 samples and each class's count differs by at
most 1 between blocks.

Run: python examples/plot_block_regularized_cv.py [figure.png] (with a path, the
figure is written there; without one, it is shown).
"""

import sys

import numpy as np

from sklearn_faithful.model_selection import BlockRegularized3x2CV


def main(argv):
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    y = np.repeat([0, 1, 2], [50, 30, 20])
    X = np.zeros((y.shape[0], 1))
    cv = BlockRegularized3x2CV(random_state=0)
    blocks = cv.get_blocks(X, y)
    order = np.lexsort((y, blocks))  # sort by block, then class, for the picture

    balance = cv.block_balance(X, y)
    print("samples per block:", balance.sizes.tolist())
    print("class counts per block (rows: B1..B4):")
    print(balance.totals.astype(int))

    fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
    cmap_cv = ListedColormap(["tab:blue", "tab:orange"])
    rows = []
    for i, (_, test) in enumerate(cv.split(X, y)):
        is_test = np.zeros(y.shape[0])
        is_test[test] = 1
        ax.scatter(
            np.arange(y.shape[0]),
            np.full(y.shape[0], i + 0.5),
            c=is_test[order],
            cmap=cmap_cv,
            marker="_",
            lw=10,
            vmin=0,
            vmax=1,
        )
        j, way = divmod(i, 2)
        rows.append(f"partition {j + 1}, {'S->T' if way == 0 else 'T->S'}")
    n_splits = len(rows)
    ax.scatter(
        np.arange(y.shape[0]),
        np.full(y.shape[0], n_splits + 0.5),
        c=blocks[order],
        cmap="Set2",
        marker="_",
        lw=10,
    )
    ax.scatter(
        np.arange(y.shape[0]),
        np.full(y.shape[0], n_splits + 1.5),
        c=y[order],
        cmap="Paired",
        marker="_",
        lw=10,
    )
    ax.set(
        yticks=np.arange(n_splits + 2) + 0.5,
        yticklabels=rows + ["block", "class"],
        xlabel="sample (sorted by block)",
        ylim=[n_splits + 2.2, -0.2],
        xlim=[0, y.shape[0]],
        title="BlockRegularized3x2CV: six splits from four blocks",
    )
    ax.legend(
        handles=[
            Patch(color="tab:blue", label="training set"),
            Patch(color="tab:orange", label="test set"),
        ],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        frameon=False,
    )
    if argv:
        fig.savefig(argv[0], dpi=110)
        plt.close(fig)
        print(f"figure written to {argv[0]}")
    else:
        plt.show()


if __name__ == "__main__":
    main(sys.argv[1:])

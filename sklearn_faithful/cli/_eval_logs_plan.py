"""``eval-logs --plan DIFF``: the items a paired comparison of the runs needs.

From the runs given (joined by id, with their clusters), the number of items
a paired comparison needs to detect a difference DIFF with ``--power``, and
the smallest difference the runs' current number of items detects, by
:func:`~sklearn_faithful.gate.plan_paired_comparison` at ``alpha = 1 -
--confidence-level`` (the level of the comparison's tests). ``eval-logs``
declares the options with :func:`add_plan`, computes with :func:`plan_runs`
and prints with :func:`plan_text`. Nothing here imports numpy.
"""

from ._arguments import Applies, number
from ._output import fmt, table

# the options that act on some runs only (merged into eval-logs' APPLIES)
APPLIES = {
    "plan": Applies(
        lambda a: a.human_field is None and len(a.runs) > 1,
        "to two runs or more on the same items (not with --human-field)",
    ),
    "power": Applies(lambda a: a.plan is not None, "with --plan DIFF"),
}


def add_plan(p):
    """The ``planning`` options of ``eval-logs``: ``--plan`` and ``--power``."""
    g = p.add_argument_group("planning")
    g.add_argument(
        "--plan",
        type=number(0, low_open=True),
        metavar="DIFF",
        help="also print the items a paired comparison needs to detect a "
        "difference DIFF of mean scores (in the scores' units), and the "
        "smallest difference the runs' items detect now; from the runs' "
        "per-item differences and their clusters, two-sided at 1 - "
        "--confidence-level, for each pair (not adjusted over pairs)",
    )
    g.add_argument(
        "--power",
        type=number(0.5, 1, low_open=True, high_open=True),
        default=0.8,
        help="with --plan: the power at DIFF, 1 - beta (default: 0.8)",
    )
    return g


def plan_runs(table, args):
    """The :class:`~sklearn_faithful.gate.PairedPlanResult` of a joined
    :class:`~sklearn_faithful.eval_logs.RunTable` for ``--plan``."""
    from ..gate import plan_paired_comparison
    from ._io import InputError

    # 1 - 0.95 is 0.050000000000000044: the levels as written
    alpha, beta = (round(1.0 - x, 12) for x in (args.confidence_level, args.power))
    if not 0 < alpha < 0.5:
        raise InputError(
            f"--plan plans a test at 1 - --confidence-level = {alpha:g}; give "
            "--confidence-level above 0.5."
        )
    runs = {name: table.scores[:, j] for j, name in enumerate(table.names)}
    try:
        return plan_paired_comparison(
            runs, args.plan, groups=table.groups, alpha=alpha, beta=beta
        )
    except ValueError as exc:
        raise InputError(f"--plan {args.plan:g}: {exc}") from None


def plan_text(plan):
    """The text of a plan's JSON (``PairedPlanResult.to_dict()``): a row per
    pair, then the hardest pair's items."""
    side = "two-sided" if plan["alternative"] == "two-sided" else "one-sided"
    n, delta = plan["n_items"], plan["delta"]
    clusters = f" in {plan['n_clusters']} clusters" if plan["n_clusters"] < n else ""
    rows = [
        [
            f"{row['b']} - {row['a']}",
            fmt(row["difference"], signed=True),
            fmt(row["sd_difference"]),
            fmt(row["correlation"], digits=3),
            fmt(row["design_effect"], digits=3),
            str(row["n_required"]),
            "" if row["n_unpaired"] is None else str(row["n_unpaired"]),
            fmt(row["minimum_detectable_effect"]),
        ]
        for row in plan["pairs"]
    ]
    head = [
        "pair",
        "difference",
        "sd(diff)",
        "corr",
        "DE",
        f"items for {delta:g}",
        "unpaired",
        f"detectable at {n}",
    ]
    a, b = plan["pair"]
    lines = [
        f"plan: paired, {side} at alpha {plan['alpha']:g}, power "
        f"{1 - plan['beta']:g}; {n} items{clusters}"
        + ("; each pair at alpha, not adjusted" if len(plan["pairs"]) > 1 else ""),
        "",
        *table(head, rows),
        "",
        f"items needed to detect {delta:g}: {plan['n_required']}"
        + (f" (the hardest pair, {b} - {a})" if len(plan["pairs"]) > 1 else "")
        + f"; now the smallest detectable difference is "
        f"{plan['minimum_detectable_effect']:.4g}",
    ]
    return "\n".join(lines)

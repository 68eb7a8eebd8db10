"""Simulated arena battles shared by the battles tests."""

import numpy as np


def arena(n=400, k=5, tie_share=0.15, seed=0):
    """(a, b, winner) arrays of ``n`` battles among ``k`` systems ``s0``...,
    the winner ``"model_a"``, ``"model_b"`` or ``"tie"`` as arena writes it."""
    rng = np.random.default_rng(seed)
    strength = np.linspace(-0.8, 0.8, k)
    a = rng.integers(0, k, n)
    b = (a + rng.integers(1, k, n)) % k
    p = 1 / (1 + np.exp(-(strength[a] - strength[b])))
    tie = rng.random(n) < tie_share
    won = rng.random(n) < p
    winner = np.where(tie, "tie", np.where(won, "model_a", "model_b"))
    names = np.array([f"s{i}" for i in range(k)])
    return names[a], names[b], winner


def battle_records(n=200, k=4):
    """Arena records ``{"model_a", "model_b", "winner", "verdict"}``: every
    other tie written ``"tie (bothbad)"``, and ``verdict`` another judge's
    winner (the winners swapped)."""
    a, b, winner = arena(n=n, k=k)
    bothbad = (winner == "tie") & (np.arange(len(a)) % 2 == 0)
    winner = np.where(bothbad, "tie (bothbad)", winner)
    swap = {"model_a": "model_b", "model_b": "model_a"}
    return [
        {"model_a": x, "model_b": y, "winner": w, "verdict": swap.get(w, w)}
        for x, y, w in zip(a.tolist(), b.tolist(), winner.tolist(), strict=True)
    ]


def as_csv(records):
    """The lines of a CSV file of ``records``."""
    head = list(records[0])
    return [",".join(head), *(",".join(r[k] for k in head) for r in records)]

"""Battles as arrays: who met whom, and who won.

One helper, :func:`_check_battles`, reads every form of battle records that
:func:`~sklearn_faithful.battles.bradley_terry` takes and names the row of
each problem; the command line gives it the file's lines.
"""

from collections.abc import Mapping

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ._options import COLUMNS, OUTCOMES, WINNER_CODES

# outcome codes of the arrays: system a won, system b won, a tie
A_WINS, B_WINS, TIE = 0, 1, 2
_CODE = {"a": A_WINS, "b": B_WINS, "tie": TIE, "drop": -1}
# words that mark a code as a tie of some kind, for the message
_TIE_WORDS = ("tie", "draw", "both", "equal", "=", "neither", "none")


def _row(i):
    return f"row {i}"


def _columns_of(battles, columns):
    """The three columns (a, b, winner) of a DataFrame, a mapping of columns
    or a list of records, and their names."""
    if hasattr(battles, "columns") and hasattr(battles, "__getitem__"):
        keys = [str(c) for c in battles.columns]

        def get(name):
            return list(battles[name])

    elif isinstance(battles, Mapping):
        keys = [str(c) for c in battles]

        def get(name):
            return list(battles[name])

    else:
        records = list(battles)
        if not records or not all(isinstance(r, Mapping) for r in records):
            return None
        keys = list(dict.fromkeys(str(k) for r in records for k in r))

        def get(name):
            out = []
            for i, r in enumerate(records):
                if name not in r:
                    raise ValueError(
                        f"battles record {i} has no field {name!r}; every "
                        f"record needs the fields {list(names)}."
                    )
                out.append(r[name])
            return out

    candidates = [tuple(columns)] if columns is not None else list(COLUMNS)
    for names in candidates:
        if all(n in keys for n in names):
            return [get(n) for n in names]
    if columns is not None:
        missing = [n for n in columns if n not in keys]
        raise ValueError(
            f"battles has no column {missing[0]!r} of columns={tuple(columns)!r}; "
            f"its columns are {keys}."
        )
    raise ValueError(
        f"battles has the columns {keys}; without columns=(a, b, winner) it "
        f"needs {' or '.join(str(c) for c in COLUMNS)}. Name yours with "
        "columns=('model_a', 'model_b', 'winner')."
    )


def _as_columns(battles, columns):
    """(a, b, winner) of ``battles`` as three lists."""
    found = _columns_of(battles, columns)
    if found is not None:
        return found
    if columns is not None:
        raise ValueError(
            "columns names the fields of a DataFrame or of records; battles is "
            f"an array of shape (n_battles, 3): drop columns={tuple(columns)!r}."
        )
    arr = np.asarray(battles, dtype=object)
    if arr.size == 0:
        raise ValueError("battles is empty; it needs one record per battle.")
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(
            f"battles has shape {arr.shape}; pass an array of shape "
            "(n_battles, 3) of (system a, system b, winner), a DataFrame or a "
            "list of records with the fields model_a, model_b and winner."
        )
    return [list(arr[:, k]) for k in range(3)]


def _name(value, i, which, where):
    """A system's name: a string stripped of white space, or a number."""
    if isinstance(value, str):
        name = value.strip()
        if name:
            return name
    elif value is not None and not isinstance(value, bool | np.bool_):
        if not (isinstance(value, float | np.floating) and not np.isfinite(value)):
            return str(value)
    raise ValueError(
        f"battles {where(i)}: system {which} is {value!r}; every battle names "
        "its two systems (text or numbers)."
    )


def _outcomes(winner, winner_codes, where):
    """The outcome code of each winner, by ``winner_codes`` over the
    defaults; an unknown code (ties coded in ways the defaults do not know
    among them) is an error saying how to map it."""
    codes = dict(WINNER_CODES)
    if winner_codes is not None:
        for code, meaning in winner_codes.items():
            if meaning not in OUTCOMES:
                raise ValueError(
                    f"winner_codes maps {code!r} to {meaning!r}; each code maps "
                    f"to one of {', '.join(map(repr, OUTCOMES))}."
                )
            codes[str(code).strip().lower()] = meaning
    out = np.empty(len(winner), dtype=np.int64)
    unknown = {}
    for i, w in enumerate(winner):
        key = w.strip().lower() if isinstance(w, str) else w
        meaning = codes.get(key) if isinstance(key, str) else None
        if meaning is None:
            unknown.setdefault(w, i)
        else:
            out[i] = _CODE[meaning]
    if unknown:
        seen = sorted({str(w).strip() for w in winner if isinstance(w, str)})
        ties = [w for w in seen if any(t in w.lower() for t in _TIE_WORDS)]
        w, i = next(iter(unknown.items()))
        fix = (
            "map each code with winner_codes={code: 'a' | 'b' | 'tie' | 'drop'}, "
            "such as winner_codes={'draw': 'tie'}"
        )
        if len(ties) > 1:
            raise ValueError(
                f"winner codes ties {len(ties)} ways ({', '.join(map(repr, ties))}), "
                f"and {w!r} (battles {where(i)}) is not a code this package "
                f"knows; say what each means: {fix}, or 'drop' to leave out "
                "a kind of tie (such as 'tie (bothbad)')."
            )
        raise ValueError(
            f"battles {where(i)}: winner is {w!r}; allowed are "
            f"{', '.join(map(repr, WINNER_CODES))} (any case), or {fix}."
        )
    return out


def _check_battles(
    battles, *, columns=None, systems=None, winner_codes=None, where=_row
):
    """The battles as arrays.

    Returns ``names`` (tuple of str, sorted unless ``systems`` gives the
    order), ``a`` and ``b`` (int arrays of each battle's systems, as
    positions in ``names``) and ``outcome`` (:data:`A_WINS`, :data:`B_WINS`
    or :data:`TIE`), with the battles whose winner code maps to ``"drop"``
    left out. ``where(i)`` names row ``i`` in messages.
    """
    a, b, winner = _as_columns(battles, columns)
    if not a:
        raise ValueError("battles is empty; it needs one record per battle.")
    a = [_name(v, i, "a", where) for i, v in enumerate(a)]
    b = [_name(v, i, "b", where) for i, v in enumerate(b)]
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x == y:
            raise ValueError(
                f"battles {where(i)}: system {x!r} battles itself; a battle "
                "is between two different systems: remove the row."
            )
    outcome = _outcomes(winner, winner_codes, where)
    met = sorted(set(a) | set(b))
    if systems is None:
        names = tuple(met)
    else:
        names = tuple(
            _name(s, i, "", lambda i: f"systems[{i}]") for i, s in enumerate(systems)
        )
        if len(set(names)) != len(names):
            raise ValueError(f"systems names a system twice: {list(names)!r}.")
        extra = sorted(set(met) - set(names))
        if extra:
            raise ValueError(
                f"battles names the system {extra[0]!r}, which systems="
                f"{list(names)!r} does not list; add it to systems."
            )
    keep = outcome >= 0
    index = {name: k for k, name in enumerate(names)}
    ia = np.array([index[x] for x in a], dtype=np.int64)[keep]
    ib = np.array([index[y] for y in b], dtype=np.int64)[keep]
    never = sorted(set(names) - {names[k] for k in np.r_[ia, ib]})
    if never:
        why = "" if keep.all() else " (once the dropped winner codes are left out)"
        raise ValueError(
            f"the system {never[0]!r} of systems never battles{why}; a rating "
            "needs battles: remove it from systems, or add its battles."
        )
    if len(names) < 2:
        raise ValueError("battles holds one system; ratings need two or more.")
    return names, ia, ib, outcome[keep]


def _components(names, a, b, directed):
    """The connected components of the comparison graph (strongly connected
    when ``directed``: an edge from the winner to the loser, both ways for a
    tie), as lists of names, the largest first."""
    k = len(names)
    graph = coo_matrix((np.ones(len(a)), (a, b)), shape=(k, k)).tocsr()
    n, labels = connected_components(graph, directed=directed, connection="strong")
    groups = [[names[i] for i in np.flatnonzero(labels == c)] for c in range(n)]
    return sorted(groups, key=len, reverse=True)


def _check_mle_exists(names, a, b, outcome, ties):
    """Refuse battles whose maximum-likelihood ratings do not exist.

    They exist when the comparison graph is connected and every split of the
    systems in two has a battle won (or tied, unless ties are dropped) by
    each side (Zermelo 1929; Ford 1957): the graph with an edge from each
    winner to its loser is strongly connected.
    """
    fix = "pass alpha > 0 (a ridge penalty, a prior on the ratings) to rate them anyway"
    parts = _components(names, np.r_[a, b], np.r_[b, a], directed=False)
    if len(parts) > 1:
        shown = "; ".join(", ".join(map(repr, p)) for p in parts[:5])
        raise ValueError(
            f"the battles split the systems into {len(parts)} groups that never "
            f"meet: {shown}{' ...' if len(parts) > 5 else ''}. Ratings of "
            "different groups cannot be compared (the maximum-likelihood "
            f"ratings do not exist): add battles between the groups, rate each "
            f"group apart, or {fix}."
        )
    tied = outcome == TIE if ties != "drop" else np.zeros(len(a), dtype=bool)
    won = outcome == A_WINS
    src = np.r_[np.where(won, a, b), a[tied]]
    dst = np.r_[np.where(won, b, a), b[tied]]
    parts = _components(names, src, dst, directed=True)
    if len(parts) > 1:
        k = len(names)
        label = np.empty(k, dtype=np.int64)
        index = {n: i for i, n in enumerate(names)}
        for c, p in enumerate(parts):
            label[[index[n] for n in p]] = c
        # a group no system outside beats: it never loses to the others
        beaten = set(label[dst[label[src] != label[dst]]].tolist())
        top = next(p for c, p in enumerate(parts) if c not in beaten)
        beats = set(label[src[label[src] != label[dst]]].tolist())
        bottom = next(p for c, p in enumerate(parts) if c not in beats)
        words = "ties count as half wins" if ties == "half" else ""
        who = (
            f"{top[0]!r} wins every battle"
            if len(top) == 1
            else f"the systems {top} win every battle against the others"
        )
        low = (
            f"{bottom[0]!r} loses every battle"
            if len(bottom) == 1
            else f"the systems {bottom} lose every battle against the others"
        )
        raise ValueError(
            f"{who}, and {low}{' (' + words + ')' if words else ''}: their "
            "maximum-likelihood ratings are infinite. Add battles they lose "
            f"(win), or {fix}."
        )

"""Every public name of the package, found through each room's ``__all__``.

The one walk the common test suites and the docs checks share, in the spirit
of :func:`sklearn.utils.discovery.all_estimators`.
"""

import importlib

ROOMS = (
    "metrics",
    "model_selection",
    "holdout",
    "comparison",
    "multi_dataset",
    "model_based",
    "gate",
    "agreement",
    "eval_logs",
    "calibration",
    "battles",
    "utils",
)


def all_public_names():
    """Return ``{name: (room, object)}`` for every public name of every room.

    Returns
    -------
    names : dict
        Each name of a room's ``__all__``, mapped to the room that is its one
        documented home and to the object. A name listed by two rooms raises,
        since each public name has one spelling.
    """
    found = {}
    for room in ROOMS:
        module = importlib.import_module(f"sklearn_faithful.{room}")
        for name in module.__all__:
            if name in found:
                raise RuntimeError(
                    f"{name} is listed by both {found[name][0]} and {room}; "
                    "each public name has one home."
                )
            found[name] = (room, getattr(module, name))
    return found

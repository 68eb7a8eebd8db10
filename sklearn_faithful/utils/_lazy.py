"""Lazy re-exports for the rooms' ``__init__`` modules.

A room lists where each public name lives; the module that defines it is
imported on first access. So ``import sklearn_faithful.holdout`` costs
nothing, and the command line can read a room's light option lists without
importing scipy or scikit-learn (as scipy and scikit-image do with
``lazy_loader``).
"""

import importlib
import sys


def attach(package, homes):
    """Return ``__getattr__``, ``__dir__`` and ``__all__`` for a room.

    Parameters
    ----------
    package : str
        The room's ``__name__``.
    homes : dict of str to list of str
        For each private module of the room, the public names it defines.

    Returns
    -------
    getattr, dir : callable
        The module-level ``__getattr__`` and ``__dir__`` of the room.
    all : list of str
        The room's public names, sorted.
    """
    home_of = {name: module for module, names in homes.items() for name in names}
    names = sorted(home_of)

    def __getattr__(name):
        if name not in home_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home_of[name]}"), name)
        setattr(sys.modules[package], name, value)  # later lookups skip this
        return value

    def __dir__():
        return names

    return __getattr__, __dir__, names

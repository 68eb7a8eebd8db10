"""The command line, ``sklearn-faithful``: one module per command.

Its choices (metrics, methods, defaults) are imported from the rooms, and
only when a command runs, so that ``sklearn-faithful --help`` is fast.
"""

from ._main import main

__all__ = ["main"]

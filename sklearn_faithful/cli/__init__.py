"""The command line, ``sklearn-faithful``: one module per command.

``_main`` assembles the parser from the command modules (``_compare``,
``_interval``, ``_split``, ``_bayes_test``, ``_plan``, ``_model_based``,
``_demo``), whose choices come from the rooms' light ``_options`` modules;
``_io`` reads the files and ``_output`` prints the results as JSON (their
``to_dict()``) and as tables.
``sklearn-faithful --help`` imports no numpy, scipy or scikit-learn.
"""

from ._main import main

__all__ = ["main"]

"""The floor every room stands on: result pieces and input checks.

:class:`ConfidenceInterval` and :class:`CredibleInterval` are the
``(low, high)`` pairs the results return.
"""

from ._results import ConfidenceInterval, CredibleInterval

__all__ = ["ConfidenceInterval", "CredibleInterval"]

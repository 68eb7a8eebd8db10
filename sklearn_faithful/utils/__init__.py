"""The floor every room stands on: result pieces and input checks.

:class:`ConfidenceInterval` and :class:`CredibleInterval` are the
``(low, high)`` pairs the results return.
"""

from ._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_results": [
            "ConfidenceInterval",
            "CredibleInterval",
        ],
    },
)

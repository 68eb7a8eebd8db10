"""Input checks shared by every part of sklearn-faithful."""

from ._validation import check_matplotlib

__all__ = ["check_matplotlib"]

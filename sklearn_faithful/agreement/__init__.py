"""STUB (agree-cli): removed before merging main."""

from ._stub import agreement_report, reliability_data_from_long

__all__ = ["agreement_report", "reliability_data_from_long"]

"""Who wins the pairwise battles, and how sure is each rating and rank?

Battles of two systems judged by people or a model (arena data: system a,
system b, the winner or a tie) rated by Bradley-Terry's maximum likelihood,
with ties as half wins or Davidson's tie parameter; bootstrap intervals of
each rating, marginal and simultaneous confidence sets of each rank, and
the probability that each system beats each other.
"""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {"_bradley_terry": ["BradleyTerryResult", "bradley_terry"]},
)

"""Block-regularized m x 2 cross-validation (Wang et al. 2017; Wang & Li 2019)."""

from ._split import BlockBalance, BlockRegularized3x2CV, BlockRegularizedMx2CV

__all__ = ["BlockBalance", "BlockRegularized3x2CV", "BlockRegularizedMx2CV"]

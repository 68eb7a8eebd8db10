"""Block-regularized m x 2 cross-validation (Wang et al. 2017; Wang & Li 2019)."""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_split": [
            "BlockBalance",
            "BlockRegularized3x2CV",
            "BlockRegularizedMx2CV",
        ],
    },
)

"""Random number generators built from ``random_state``, never the global state."""

from numbers import Integral

import numpy as np


def _generator(random_state):
    """A numpy Generator from an int, None, a Generator or a RandomState instance."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None or isinstance(random_state, Integral):
        return np.random.default_rng(random_state)
    if not isinstance(random_state, np.random.RandomState):
        # scikit-learn's check_random_state's words
        raise ValueError(
            f"{random_state!r} cannot be used to seed a "
            "numpy.random.RandomState instance"
        )
    return np.random.default_rng(random_state.randint(np.iinfo(np.int32).max))

"""Random number generators built from ``random_state``, never the global state."""

from numbers import Integral

import numpy as np
from sklearn.utils import check_random_state


def _generator(random_state):
    """A numpy Generator from an int, None, a Generator or a RandomState instance."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None or isinstance(random_state, Integral):
        return np.random.default_rng(random_state)
    state = check_random_state(random_state)
    return np.random.default_rng(state.randint(np.iinfo(np.int32).max))

"""Timing helper shared by the benchmark scripts."""

import time

import numpy as np


def median_time(func, repeat):
    """Median wall-clock seconds of ``repeat`` calls of ``func``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return float(np.median(times))

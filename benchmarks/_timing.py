"""Timing helper shared by the benchmark scripts."""

import time
import tracemalloc

import numpy as np


def median_time(func, repeat):
    """Median wall-clock seconds of ``repeat`` calls of ``func``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def seconds(func):
    """Wall-clock seconds of one call of ``func``."""
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def peak_mib(func):
    """Peak memory (MiB) Python allocates during one call of ``func`` (tracemalloc)."""
    tracemalloc.start()
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20

"""One BLAS thread for the batch checks.

The checks multiply small matrices: one BLAS thread does them about as fast as one
per core on an idle machine, and several times faster when other processes (or this
one's workers) share the cores and the BLAS threads wait on each other. Tournaments,
odds and the ``phase10`` commands run with one thread; a program of your own that
uses the bots can do the same with :func:`single_blas_thread`.

>>> with single_blas_thread():
...     pass
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import numpy as np

__all__ = ["set_blas_threads", "single_blas_thread"]

_BLAS_SETTERS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)
_BLAS_GETTERS = (
    "scipy_openblas_get_num_threads64_",
    "scipy_openblas_get_num_threads",
    "openblas_get_num_threads64_",
    "openblas_get_num_threads",
)


@cache
def _openblas() -> tuple[Callable[[int], None], Callable[[], int]] | None:
    """The set/get thread-count functions of the OpenBLAS NumPy uses, if it is found."""
    folder = Path(np.__file__).resolve().parent
    for library in sorted(folder.parent.glob(f"{folder.name}.libs/*openblas*")):
        try:
            handle = ctypes.CDLL(str(library))
        except OSError:
            continue
        setter = next((getattr(handle, n) for n in _BLAS_SETTERS if hasattr(handle, n)), None)
        getter = next((getattr(handle, n) for n in _BLAS_GETTERS if hasattr(handle, n)), None)
        if setter is not None and getter is not None:
            setter.argtypes, setter.restype = [ctypes.c_int], None
            getter.argtypes, getter.restype = [], ctypes.c_int
            return setter, getter
    return None


def set_blas_threads(count: int) -> int | None:
    """Set NumPy's OpenBLAS thread count; returns the previous count (None if unknown)."""
    found = _openblas()
    if found is None:
        return None
    setter, getter = found
    previous = int(getter())
    setter(count)
    return previous


@contextmanager
def single_blas_thread() -> Iterator[None]:
    """Run the body with one OpenBLAS thread, then restore the previous count."""
    previous = set_blas_threads(1)
    try:
        yield
    finally:
        if previous is not None:
            set_blas_threads(previous)

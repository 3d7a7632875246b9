"""Handing work to a pool of worker processes a little at a time.

Submitting every task at once costs a future per task, all held until the end, and each
wait for the next finished one scans them all: a count of ten billion deals is 200,000
tasks, and it slowed to a crawl on that bookkeeping alone. :func:`as_finished` keeps a
few tasks per worker in flight and submits the next as each finishes.

>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(max_workers=2) as pool:
...     sorted(as_finished(pool, pow, [(2, n) for n in range(6)], workers=2))
[1, 2, 4, 8, 16, 32]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from itertools import islice
from typing import Any, Final, TypeVar

__all__ = ["IN_FLIGHT", "as_finished"]

#: tasks handed to each worker ahead of time (enough that none waits for the next)
IN_FLIGHT: Final = 4

R = TypeVar("R")


def as_finished(
    pool: Executor,
    task: Callable[..., R],
    arguments: Iterable[tuple[Any, ...]],
    *,
    workers: int,
    ahead: int = IN_FLIGHT,
) -> Iterator[R]:
    """``task(*args)`` for each of ``arguments`` in ``pool``, each result as soon as it is
    done (in any order), with at most ``ahead`` tasks per worker submitted and not yet
    taken. A task's exception is raised here; the tasks not yet started are then cancelled
    by the pool's shutdown, which is the caller's."""
    waiting = iter(arguments)
    pending: set[Future[R]] = set()
    while True:
        for args in islice(waiting, max(ahead * workers - len(pending), 0)):
            pending.add(pool.submit(task, *args))
        if not pending:
            return
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            yield future.result()

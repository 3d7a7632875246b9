"""The card bots' decisions, taken in fair turns off the event loop.

A bot decides in pure Python, holding the interpreter's lock, for up to about half a
second under house phases of many tiny groups (the expert some seconds). Decisions run
on a few threads of their own, and who goes next is fair between the addresses that
opened the tables:

* an address has at most one decision running at a time, so one visitor's tables, however
  many, take at most one thread;
* the addresses waiting take turns, the one served longest ago first;
* an address whose thinking time is spent (its :class:`~phase10.server.limits.Buckets`
  of seconds, which its hints draw on too) waits until it has earned some back, so the
  others go first.

A quick decision (a few milliseconds, as under the presets) therefore waits for no one's
slow one but shares the interpreter with at most ``threads`` of them.

>>> import asyncio, time
>>> from phase10.server.limits import Buckets
>>> async def main():
...     turns = FairThinking(Buckets(1.0, 10.0, time.monotonic), threads=1)
...     done = await asyncio.gather(*(turns.run(who, lambda who=who: who) for who in "aab"))
...     turns.close()
...     return done
>>> asyncio.run(main())
['a', 'a', 'b']
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from .limits import Buckets

__all__ = ["FairThinking"]

T = TypeVar("T")


class FairThinking:
    """Runs decisions on ``threads`` threads in fair turns between their owners
    (addresses), each owner's charged to ``budget`` by the seconds it took."""

    def __init__(self, budget: Buckets, *, threads: int = 2) -> None:
        self.budget = budget
        self.threads = threads
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="phase10-bots")
        #: owners with a decision running
        self._running: set[str] = set()
        #: the decisions waiting for their turn, by owner; owners in the order to serve
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._wake: asyncio.TimerHandle | None = None

    async def run(self, owner: str, decide: Callable[[], T]) -> T:
        """``decide()`` on a bot thread once it is ``owner``'s turn; its answer."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(turn)
        self._next()
        try:
            await turn
        except asyncio.CancelledError:
            self._drop(owner, turn)
            raise
        started = time.perf_counter()
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, decide)
        finally:
            self._running.discard(owner)
            self.budget.get(owner).charge(time.perf_counter() - started)
            self._next()

    def _drop(self, owner: str, turn: asyncio.Future[None]) -> None:
        """A decision no longer wanted (its table closed while it waited)."""
        queue = self._waiting.get(owner)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self._waiting[owner]
        elif turn.done() and not turn.cancelled():  # granted, but gone before it ran
            self._running.discard(owner)
        self._next()

    def _next(self) -> None:
        """Give free threads to the owners whose turn it is; wake again when an owner in
        debt has earned time back."""
        soonest: float | None = None
        for owner in list(self._waiting):
            if len(self._running) >= self.threads:
                break
            if owner in self._running:
                continue
            wait = self.budget.get(owner).wait()
            if wait > 0:
                soonest = wait if soonest is None else min(soonest, wait)
                continue
            queue = self._waiting.pop(owner)
            turn = queue.popleft()
            if queue:  # its next decision waits behind every other owner's
                self._waiting[owner] = queue
            self._running.add(owner)
            turn.set_result(None)
        if soonest is not None and len(self._running) < self.threads:
            if self._wake is not None:
                self._wake.cancel()
            self._wake = asyncio.get_running_loop().call_later(min(soonest, 1.0), self._next)

    def close(self) -> None:
        if self._wake is not None:
            self._wake.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)

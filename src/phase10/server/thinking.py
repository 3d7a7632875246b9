"""The card bots' decisions, taken in fair turns off the event loop.

A bot decides in pure Python, holding the interpreter's lock, for up to about half a
second under house phases of many tiny groups (the expert some seconds). Decisions run
on a few threads of their own, and who goes next is fair between the addresses that
opened the tables:

* an address has at most one decision running at a time, so one visitor's tables, however
  many, take at most one thread;
* of the addresses waiting, the one with the most thinking time saved up goes first (its
  :class:`~phase10.server.limits.Buckets` of seconds, which its hints draw on too): an
  address whose bots think quickly keeps its time and is served before those thinking
  slowly, however many of those there are; among equals, the one with the fewest
  decisions waiting, then the one waiting longest;
* an address whose thinking time is spent waits until it has earned some back.

A quick decision (a few milliseconds, as under the presets) therefore waits at most for a
thread to come free, and shares the interpreter with at most ``threads`` slow ones. So
that a turn of many decisions waits for a thread once rather than at each of them, a bot
decides the rest of its turn ahead while it has the thread, for up to
:data:`PLAN_SECONDS` (phase10.bots.seats.plan_turn; its actions are then played one by
one, paced as before, each only if the game has not moved on).

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

__all__ = ["PLAN_SECONDS", "FairThinking"]

T = TypeVar("T")

#: how long a bot goes on deciding the rest of its turn ahead once it has a thread (so a
#: thread is held for at most one decision or this long, whichever is longer)
PLAN_SECONDS = 0.05


class FairThinking:
    """Runs decisions on ``threads`` threads in fair turns between their owners
    (addresses), each owner's charged to ``budget`` by the seconds it took."""

    def __init__(self, budget: Buckets, *, threads: int = 2) -> None:
        self.budget = budget
        self.threads = threads
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="phase10-bots")
        #: owners with a decision running
        self._running: set[str] = set()
        #: the decisions waiting for their turn, by owner, in the order the owners came
        #: (an owner with one running joins again, at the back, once it is done)
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        #: the decisions waiting behind each running owner's
        self._held: dict[str, deque[asyncio.Future[None]]] = {}
        self._wake: asyncio.TimerHandle | None = None

    async def run(self, owner: str, decide: Callable[[], T]) -> T:
        """``decide()`` on a bot thread once it is ``owner``'s turn; its answer."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queues = self._held if owner in self._running else self._waiting
        queues.setdefault(owner, deque()).append(turn)
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
            self.budget.get(owner).charge(time.perf_counter() - started)
            self._done(owner)

    def _done(self, owner: str) -> None:
        """``owner``'s decision is over: its next ones wait their turn at the back."""
        self._running.discard(owner)
        held = self._held.pop(owner, None)
        if held:
            self._waiting[owner] = held
        self._next()

    def _drop(self, owner: str, turn: asyncio.Future[None]) -> None:
        """A decision no longer wanted (its table closed while it waited)."""
        for queues in (self._waiting, self._held):
            queue = queues.get(owner)
            if queue is not None and turn in queue:
                queue.remove(turn)
                if not queue:
                    del queues[owner]
                self._next()
                return
        if turn.done() and not turn.cancelled():  # granted, but gone before it ran
            self._done(owner)

    def _next(self) -> None:
        """Give free threads to the owners whose turn it is; wake again when an owner in
        debt has earned time back."""
        soonest: float | None = None
        while len(self._running) < self.threads:
            ready: list[tuple[float, int, str]] = []
            for owner, queue in self._waiting.items():
                bucket = self.budget.get(owner)
                wait = bucket.wait()
                if wait > 0:
                    soonest = wait if soonest is None else min(soonest, wait)
                else:
                    ready.append(
                        (bucket.tokens, -len(queue) - len(self._held.get(owner, ())), owner)
                    )
            if not ready:
                break
            # the most time saved first, then the fewest decisions waiting (a visitor with
            # one table before one with ten), then the first come (max keeps the first)
            owner = max(ready, key=lambda entry: entry[:2])[2]
            queue = self._waiting.pop(owner)
            turn = queue.popleft()
            if queue:  # its next decisions wait until this one is over
                self._held[owner] = queue
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

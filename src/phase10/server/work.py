"""Solver work (hints, lay-down and hit choices, a dice bot's choice, game reviews), off the
event loop.

A hint can take a second of CPU; run on the event loop (or in a thread, holding the
GIL) it would stall every table. Jobs run in worker processes instead (pebble's pool):
each with a time limit after which its worker is killed and replaced, and a memory
limit, so no request can stall or exhaust the server. A job whose client has gone is
cancelled, running or not. A long job (a game review) reports its progress through a
small array the pool shares with its workers: each job running at once writes to its own
slot.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import sys
import time
from collections.abc import Callable
from typing import Any, cast

from phase10.core import CardError, PlayerView, Refusal, parse_cards
from phase10.core.choices import ChoiceError, hit_choices, lay_down_choices
from phase10.core.labels import action_label
from phase10.dice import DiceView

__all__ = [
    "SolverBusy",
    "SolverPool",
    "SolverTooSlow",
    "choices_job",
    "dice_bot_job",
    "dice_hint_job",
    "hint_job",
    "review_job",
]


class SolverBusy(Exception):
    """Too many jobs wait already: the request is refused, not queued."""


class SolverTooSlow(Exception):
    """The job ran past its time limit and was stopped."""


class SolverPool:
    """A pool of solver processes, started on first use (a server nobody asks for hints,
    with no dice table played by a bot that thinks, never starts one)."""

    def __init__(
        self,
        *,
        workers: int = 1,
        seconds: float = 10.0,
        queue: int = 16,
        memory_mb: int = 2048,
        progress_slots: int = 0,
    ) -> None:
        self.workers, self.seconds, self.queue, self.memory_mb = workers, seconds, queue, memory_mb
        self.waiting = 0
        self._pool: Any = None
        self._starting: asyncio.Lock | None = None
        self.progress_slots = progress_slots
        #: (done, total) of each slot, written by the job given that slot; made with the
        #: pool (a server that never reviews a game makes none)
        self._progress: Any = None

    def progress(self, slot: int) -> tuple[int, int]:
        """What the job running in ``slot`` last reported: (done, total); (0, 0) before."""
        if self._progress is None:
            return 0, 0
        with self._progress.get_lock():
            return int(self._progress[2 * slot]), int(self._progress[2 * slot + 1])

    def clear_progress(self, slot: int) -> None:
        if self._progress is not None:
            with self._progress.get_lock():
                self._progress[2 * slot] = self._progress[2 * slot + 1] = 0

    def _start(self) -> Any:
        """The pool, with its workers up (blocking: starting processes that import the
        solver takes about a second, so the event loop calls this in a thread)."""
        if self._pool is None:
            from pebble import ProcessPool

            if self.progress_slots and self._progress is None:
                self._progress = _context().Array("q", 2 * self.progress_slots)

            pool = ProcessPool(
                max_workers=self.workers,
                context=_context(),
                initializer=_prepare_worker,
                initargs=(self.memory_mb, self._progress),
            )
            pool.schedule(len, args=((),)).result(timeout=60)
            self._pool = pool
        return self._pool

    async def start(self) -> None:
        """Start the workers without holding up the event loop (once; later calls wait
        for the first)."""
        if self._pool is not None:
            return
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._pool is None:
                await asyncio.to_thread(self._start)

    async def run(
        self, function: Callable[..., Any], *args: Any, ran: Callable[[float], None] | None = None
    ) -> Any:
        """``function(*args)`` in a worker; :class:`SolverBusy` when the queue is full,
        :class:`SolverTooSlow` past the time limit. Cancelling the caller cancels the job.

        ``ran`` is told the seconds the job ran in its worker (the time limit, for one
        stopped there), not the time it waited behind others' jobs, so whoever asks is
        charged for their own work only; for a job cancelled or lost with its worker, the
        seconds since it was asked, at most the time limit."""
        if self.waiting >= self.queue:
            raise SolverBusy
        self.waiting += 1
        try:
            await self.start()
        except BaseException:
            self.waiting -= 1
            raise
        scheduled = time.perf_counter()
        seconds = 0.0
        future = self._pool.schedule(_timed, args=(function, *args), timeout=self.seconds)
        try:
            answer, seconds = await asyncio.wrap_future(future)
            return answer
        except concurrent.futures.TimeoutError:
            seconds = self.seconds
            raise SolverTooSlow from None
        except BaseException:  # the client left, or the worker died: its time is unknown
            seconds = min(time.perf_counter() - scheduled, self.seconds)
            raise
        finally:
            self.waiting -= 1
            future.cancel()  # the client left: a job still running is stopped
            if ran is not None:
                ran(seconds)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.stop()
            self._pool.join(timeout=5)
            self._pool = None


def _context() -> Any:
    # forkserver: workers forked from a clean process that has the solver imported, never
    # from the server with its threads and sockets (and quick to replace after a timeout)
    if sys.platform.startswith("linux"):
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(
            [
                "phase10.bots.hints",
                "phase10.bots.dice_hints",
                "phase10.search.review",
                "phase10.server.work",
            ]
        )
        return context
    return multiprocessing.get_context("spawn")


#: the pool's progress array, in a worker (None: the pool has none)
_progress: Any = None


def _prepare_worker(memory_mb: int, progress: Any = None) -> None:
    """Bound the worker's memory and threads (one job at a time needs one BLAS thread);
    keep the pool's progress array for the jobs."""
    global _progress
    _progress = progress
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # not on this platform: the time limit holds
        pass


# -- the jobs (run in a worker: they take and return plain, picklable values) -------------


def _timed(function: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``function(*args)`` and the seconds it took, timed in the worker."""
    started = time.perf_counter()
    answer = function(*args)
    return answer, time.perf_counter() - started


def hint_job(view: PlayerView, deals: int) -> dict[str, Any]:
    """The hint message for the player whose view this is, each step weighed over
    ``deals`` deals (the review's: the hint is then the review's choice)."""
    from phase10.search import searched_hint

    try:
        advice = searched_hint(view, deals=deals)
    except ValueError as error:
        return {"error": str(error)}
    data = advice.to_dict()
    for step, told in zip(advice.steps, cast(list[dict[str, object]], data["steps"]), strict=True):
        # a step playable now, named as the legal block names it (a way to lay down, say)
        told["label"] = action_label(view, step.action) if view.is_legal(step.action) else None
    return {"type": "hint", "text": str(advice), "hint": data}


def choices_job(view: PlayerView, kind: str, cards: str) -> dict[str, Any]:
    """The legal lay-downs of exactly these cards, or the legal hits of this one card."""
    try:
        picked = parse_cards(cards)
        if kind == "lay":
            actions = lay_down_choices(view, picked)
        elif len(picked) != 1:
            raise ChoiceError(Refusal.SELECT_ONE, "select exactly one card to hit")
        else:
            actions = hit_choices(view, picked[0])  # type: ignore[assignment]
    except ChoiceError as error:
        return {"error": str(error), "reason": error.code.value}
    except CardError as error:
        return {"error": str(error), "reason": Refusal.MALFORMED.value}
    return {"type": "choices", "kind": kind, "actions": [str(action) for action in actions]}


def dice_hint_job(view: DiceView) -> dict[str, Any]:
    """The ``dice_hint`` message for the dice player whose view this is."""
    from .dice import dice_hint_message

    try:
        return dice_hint_message(view)
    except ValueError as error:
        return {"error": str(error)}


def dice_bot_job(view: DiceView, bots: str, number: int) -> str:
    """The dice bot ``bots``'s action for ``view`` (the game's ``number``-th), as text."""
    from .dice import view_action

    return str(view_action(view, bots, number))


def review_job(
    record: dict[str, Any], seat: int, deals: int, win_deals: int, slot: int
) -> dict[str, Any]:
    """The review of ``seat``'s decisions in a card game's record (``Review.to_dict()``),
    its progress written to the pool's ``slot``; ``{"error": why}`` when it cannot be done."""
    from phase10.core import GameRecord
    from phase10.search.review import review

    def progress(done: int, total: int) -> None:
        if _progress is not None:
            with _progress.get_lock():
                _progress[2 * slot], _progress[2 * slot + 1] = done, total

    try:
        game = GameRecord.from_dict(record)
        done = review(game, seat, deals=deals, win_deals=win_deals, progress=progress)
    except ValueError as error:  # ReviewError, RecordError: the record's own fault
        return {"error": str(error)}
    return {"review": done.to_dict()}

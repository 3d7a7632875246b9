"""Game reviews for the web client: started on request, worked out in a worker process of
their own, kept in the database once done.

A review of one player in a four-player game takes some ten seconds of CPU, so it never
runs on the event loop nor in the hint workers: :class:`Reviews` has its own small pool
(``review_workers`` processes, each review stopped after ``review_seconds``), takes at
most one review a worker and refuses more (``busy``) rather than queue them. The client
asks how far a review has got: each running review writes its progress to a slot of an
array the pool shares with its workers. A finished review is stored with its record,
filed under :func:`~phase10.search.review.review_key`, so asking again answers at once.

Records of finished games are public (``GET /api/records/{id}`` serves them whole), and a
review reads only the reviewed player's views, so anyone may ask for any seat's review.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from phase10.core import GameRecord, RecordError
from phase10.dice.records import DICE_RECORD_FORMAT
from phase10.kernel import available, greedy_unsupported
from phase10.search.review import find_player, review_key

from .db import Store
from .formats import ReviewData
from .limits import Limits
from .models import ReviewState, ReviewStatus
from .work import SolverBusy, SolverPool, SolverTooSlow, review_job

__all__ = ["ReviewRefused", "Reviews"]

log = logging.getLogger("phase10.server")

#: failed reviews remembered (so a client polling learns why), the oldest forgotten first
FAILURES_KEPT = 64

Db = Callable[..., Awaitable[Any]]


class ReviewRefused(Exception):
    """A review that cannot be started or shown: an HTTP error code and its message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass
class _Job:
    record_id: int
    seat: int
    slot: int
    task: asyncio.Task[None] | None = None
    error: str | None = None
    finished: float = 0.0
    #: the progress it had reached when it failed
    done: int = 0
    total: int = 0


class Reviews:
    """The reviews running, failed lately, or stored; one per record, seat and settings."""

    def __init__(self, store: Store, db: Db, limits: Limits) -> None:
        self.store, self.db, self.limits = store, db, limits
        self.pool = SolverPool(
            workers=limits.review_workers,
            seconds=limits.review_seconds,
            queue=limits.review_workers,
            progress_slots=limits.review_workers,
        )
        #: by review key: the reviews running, and those that failed lately
        self.jobs: dict[str, _Job] = {}

    def _free_slot(self) -> int | None:
        used = {job.slot for job in self.jobs.values() if job.error is None}
        return next((s for s in range(self.limits.review_workers) if s not in used), None)

    async def _load(self, record_id: int, player: int | None) -> tuple[GameRecord, int, str]:
        """The record to review, the seat (None: the record's one person, see
        :func:`~phase10.search.review.find_player`) and the review's key;
        :class:`ReviewRefused` if it cannot be."""
        row = await self.db(self.store.record, record_id)
        if row is None:
            raise ReviewRefused("no_such_record", f"there is no finished game {record_id}")
        data = json.loads(row.record)
        if data.get("format") == DICE_RECORD_FORMAT:
            raise ReviewRefused(
                "cannot_review", f"game {record_id} was played with dice: it cannot be reviewed"
            )
        try:
            record = GameRecord.from_dict(data)
        except (RecordError, ValueError) as error:
            raise ReviewRefused("bad_record", str(error)) from None
        players = record.players
        seat = find_player(record, None) if player is None else player
        if not 0 <= seat < len(players):
            seats = ", ".join(f"{i} ({name})" for i, name in enumerate(players))
            raise ReviewRefused(
                "no_such_player", f"game {record_id} has no seat {seat}: its seats are {seats}"
            )
        why = greedy_unsupported(record.rules)
        if why is not None:
            raise ReviewRefused("cannot_review", f"game {record_id} cannot be reviewed: {why}")
        key = review_key(
            record, seat, self.limits.review_deals, self.limits.review_win_deals, seed=0
        )
        return record, seat, key

    async def status(self, record_id: int, player: int | None) -> ReviewStatus:
        """How the review stands; :class:`ReviewRefused` ``no_review`` if nobody asked."""
        _record, seat, key = await self._load(record_id, player)
        found = await self._known(record_id, seat, key)
        if found is None:
            raise ReviewRefused(
                "no_review",
                f"nobody asked for a review of seat {seat} in game {record_id}: "
                "POST to the same address to start one",
            )
        return found

    async def start(
        self, record_id: int, player: int | None, pay: Callable[[], bool] | None = None
    ) -> ReviewStatus:
        """Start the review (or give the one stored or running); ``busy`` past the limit.
        ``pay`` is asked before a review starts (not for one stored or running): False
        refuses it as ``rate_limited``."""
        record, seat, key = await self._load(record_id, player)
        found = await self._known(record_id, seat, key)
        if found is not None and found.state is not ReviewState.FAILED:
            return found
        if not available():
            raise ReviewRefused(
                "reviews_unavailable",
                "this server cannot review games: its compiled kernel is not built",
            )
        running = self.jobs.get(key)
        if running is not None and running.error is None:  # asked twice at once: one review
            return self._running(running)
        slot = self._free_slot()
        if slot is None:
            raise ReviewRefused(
                "busy",
                f"the server is reviewing {self.limits.review_workers} game(s) already, "
                "as many as it may at once: try again in a minute",
            )
        if pay is not None and not pay():
            every = self.limits.review_every_seconds
            raise ReviewRefused(
                "rate_limited",
                f"you have started many reviews lately: one more may start every {every:g} s",
            )
        job = self.jobs[key] = _Job(record_id, seat, slot)
        self.pool.clear_progress(slot)
        job.task = asyncio.create_task(self._run(job, key, record))
        return self._running(job)

    async def _known(self, record_id: int, seat: int, key: str) -> ReviewStatus | None:
        job = self.jobs.get(key)
        if job is not None and job.error is None:
            return self._running(job)
        stored = await self.db(self.store.review, record_id, key)
        if stored is not None:
            data = ReviewData.model_validate_json(stored)
            count = len(data.decisions)
            return ReviewStatus(record=record_id, player=seat, state=ReviewState.DONE,
                                done=count, total=count, review=data, error=None)  # fmt: skip
        if job is not None:
            return ReviewStatus(record=record_id, player=seat, state=ReviewState.FAILED,
                                done=job.done, total=job.total, review=None,
                                error=job.error)  # fmt: skip
        return None

    def _running(self, job: _Job) -> ReviewStatus:
        done, total = self.pool.progress(job.slot)
        return ReviewStatus(record=job.record_id, player=job.seat, state=ReviewState.RUNNING,
                            done=done, total=total, review=None, error=None)  # fmt: skip

    async def _run(self, job: _Job, key: str, record: GameRecord) -> None:
        limits = self.limits
        args = (record.to_dict(), job.seat, limits.review_deals, limits.review_win_deals, job.slot)
        error: str | None = None
        try:
            answer = await self.pool.run(review_job, *args)
            if "error" in answer:
                error = str(answer["error"])
            else:
                text = json.dumps(answer["review"])
                await self.db(self.store.put_review, job.record_id, job.seat, key, text)
        except SolverBusy:
            error = "the server was reviewing as many games as it may at once: try again"
        except SolverTooSlow:
            error = f"the review took longer than {limits.review_seconds:g} seconds and was stopped"
        except asyncio.CancelledError:
            error = "the server stopped before the review was done"
            raise
        except Exception:  # a worker that died, a database that failed: logged, said
            log.exception("the review of seat %s in game %s failed", job.seat, job.record_id)
            error = "the review failed; the problem was logged"
        finally:
            job.done, job.total = self.pool.progress(job.slot)
            if error is None:
                self.jobs.pop(key, None)
            else:
                job.error, job.finished = error, time.monotonic()
                self._forget_old_failures()

    def _forget_old_failures(self) -> None:
        failed = sorted((j.finished, k) for k, j in self.jobs.items() if j.error is not None)
        for _finished, key in failed[: max(0, len(failed) - FAILURES_KEPT)]:
            del self.jobs[key]

    async def close(self) -> None:
        tasks = [job.task for job in self.jobs.values() if job.task and not job.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.pool.close()

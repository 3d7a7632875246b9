"""Hints and choices a player asks for, worked out in the solver's worker processes.

:class:`~phase10.server.manager.TableManager` takes these methods from
:class:`SolverRequests` (a mixin, as :class:`~phase10.server.hosting.HostControls`). A
request is refused at once (``busy``) while the connection's last one, or too many of its
address's, are being worked on, or while the address owes thinking time; the time each
job runs in its worker (not its wait behind others') is charged to the address.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import Counter
from typing import Any

from phase10.core import CardError, Game, Refusal, parse_cards
from phase10.core.choices import NotHeldError, check_held
from phase10.dice import DiceGame

from .connection import Connection
from .limits import Limits, Visitors
from .protocol import ProtocolError, error_message
from .tables import LiveTable
from .work import SolverBusy, SolverPool, SolverTooSlow, choices_job, dice_hint_job, hint_job

__all__ = ["SolverRequests"]

log = logging.getLogger("phase10.server")


class SolverRequests:
    """Hints, and the lay-downs or hits of some cards, for the player to move."""

    pool: SolverPool
    jobs: Counter[str]
    visitors: Visitors
    limits: Limits

    def _playing(self, table: LiveTable) -> Game:
        raise NotImplementedError

    def _playing_dice(self, table: LiveTable) -> DiceGame:
        raise NotImplementedError

    def ask_solver(self, table: LiveTable, conn: Connection, kind: str, cards: str = "") -> None:
        """Start a hint (``kind`` "hint") or the choices of some cards ("lay", "hit") for
        the player to move; the answer is pushed when the worker has it. Refused at once
        when the cards are not held or the connection or its address already waits."""
        if table.is_dice:
            if kind != "hint":
                raise ProtocolError(
                    "no_choice",
                    "a dice table has no lay-downs or hits: its dice view lists the legal actions",
                )
            dice = self._playing_dice(table)
            if conn.seat is None or dice.current != conn.seat:
                raise ProtocolError("not_your_turn")
            self._start_job(table, conn, (dice_hint_job, dice.view(conn.seat)))
            return
        game = self._playing(table)
        seat = conn.seat
        if seat is None or game.current != seat:
            raise ProtocolError("not_your_turn")
        view = game.view(seat)
        if kind != "hint":
            try:
                check_held(view, parse_cards(cards))
            except CardError as error:
                raise ProtocolError.refusal("invalid_action", error, Refusal.MALFORMED) from None
            except NotHeldError as error:
                raise ProtocolError.refusal("not_held", error, error.code) from None
        hinted = (hint_job, view, self.limits.review_deals)  # (the hint is the review's choice)
        job = hinted if kind == "hint" else (choices_job, view, kind, cards)
        self._start_job(table, conn, job)

    def _start_job(self, table: LiveTable, conn: Connection, job: tuple[Any, ...]) -> None:
        """Start a client's solver job, refused as ``busy`` while the connection's last one
        or too many of its address's are still being worked on."""
        if conn.job is not None and not conn.job.done():
            raise ProtocolError(
                "busy", "your last hint or choices request is still being worked on"
            )
        if self.jobs[conn.address] >= self.limits.solver_jobs_per_address:
            raise ProtocolError("busy")
        # hints and choices count against the address's thinking time, as its bots do
        wait = self.visitors.thinking.get(conn.address).wait()
        if wait > 0:
            raise ProtocolError(
                "busy",
                "your hints and bots have had much of the server's thinking time lately: "
                f"ask again in {math.ceil(wait)} s",
            )
        address = conn.address
        self.jobs[address] += 1  # counted at once: the next message may ask again

        def done(_task: asyncio.Task[None]) -> None:
            self.jobs[address] -= 1
            if not self.jobs[address]:
                del self.jobs[address]

        conn.job = asyncio.create_task(self._solve(table, conn, job))
        conn.job.add_done_callback(done)

    async def _solve(self, table: LiveTable, conn: Connection, job: tuple[Any, ...]) -> None:
        version = table.version
        address = conn.address

        def charge(seconds: float) -> None:  # its own work, not its wait behind others'
            self.visitors.thinking.get(address).charge(seconds)

        try:
            answer = await self.pool.run(*job, ran=charge)
        except SolverBusy:
            conn.push(error_message("busy"))
        except SolverTooSlow:
            conn.push(error_message("too_slow"))
        except asyncio.CancelledError:
            raise
        except Exception:  # a worker that died: the client still gets an answer
            log.exception("table %s: a solver job failed", table.id)
            conn.push(error_message("server_error"))
        else:
            if "error" in answer:
                code = "no_choice" if job[0] is choices_job else "no_hint"
                conn.push(error_message(code, answer["error"], answer.get("reason")))
            else:
                conn.push(answer | {"version": version})

"""The host's controls, players who leave or are away, and rematches that wait for everyone.

:class:`~phase10.server.manager.TableManager` takes these methods from :class:`HostControls`
(a mixin, so neither module grows past what one can read). An away player's turns are
played by a stand-in after the table's ``away_seconds``, one action at a time, until the
player is back; a rematch starts once every player who is here asked for it, or the host
says so.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from phase10.bots import make_player
from phase10.bots.seats import HUMAN, seat_bots
from phase10.bots.simple import Player

from .connection import Connection
from .db import SeatRow, Store
from .limits import Limits
from .models import ActedBy, SeatKind, TableStatus
from .protocol import PROTOCOL_VERSION, ProtocolError
from .tables import LiveTable, SeatState

__all__ = ["CLOSE_REMOVED", "HostControls", "controllers", "welcome"]

P = ParamSpec("P")
R = TypeVar("R")

#: the WebSocket close code of a player who lost their seat (docs/server-protocol.md)
CLOSE_REMOVED = 4403


class HostControls:
    """Removing, replacing and handing over seats; away players; rematch votes."""

    store: Store
    limits: Limits
    clock: Callable[[], float]
    bot_delay: float
    stand_in: str

    async def db(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        raise NotImplementedError

    def after_change(self, table: LiveTable) -> None:
        raise NotImplementedError

    def broadcast(self, table: LiveTable) -> None:
        raise NotImplementedError

    async def _begin(self, table: LiveTable, game_no: int, bots: list[SeatRow]) -> None:
        raise NotImplementedError

    async def _play_for(self, table: LiveTable, seat: int, player: Player, by: ActedBy) -> bool:
        raise NotImplementedError

    def _seat_bot_in_lobby(self, table: LiveTable, number: int) -> None:
        raise NotImplementedError

    # -- the host's controls, and leaving -------------------------------------------

    async def remove_player(self, table: LiveTable, seat: int) -> None:
        """The host removes a player: in the lobby the seat is open again; in a game a bot
        takes it over. The player's link stops working."""
        async with table.lock:
            self._other_human(table, seat)
            if table.status is TableStatus.LOBBY:
                await self._open_seat(table, seat)
            else:
                await self._bot_takes_over(table, seat)
            self._say_goodbye(table, seat, "the host removed you from the table")
        self.after_change(table)

    async def seat_bot(self, table: LiveTable, seat: int) -> None:
        """The host gives a seat to a bot: an open seat in the lobby, or a player's."""
        async with table.lock:
            if not 0 <= seat < len(table.seats):
                raise ProtocolError("no_such_seat")
            if table.seats[seat].kind is SeatKind.BOT:
                raise ProtocolError("no_such_seat", f"seat {seat + 1} is a bot already")
            if table.seats[seat].kind is SeatKind.HUMAN:
                self._other_human(table, seat)
                self._say_goodbye(table, seat, "the host gave your seat to a bot")
            if table.status is TableStatus.LOBBY:
                self._seat_bot_in_lobby(table, seat)
                await self.db(self.store.put_seat, table.seats[seat].row(table.id, seat))
            elif table.seats[seat].kind is SeatKind.OPEN:
                raise ProtocolError("no_such_seat")
            else:
                await self._bot_takes_over(table, seat)
        self.after_change(table)

    async def hand_over(self, table: LiveTable, seat: int) -> None:
        """The host makes another player the host."""
        async with table.lock:
            self._other_human(table, seat)
            await self._set_host(table, seat)
        self.broadcast(table)

    async def leave(self, table: LiveTable, seat: int) -> None:
        """A player gives up their seat (a bot takes it over in a game); a host who leaves
        hands the role to another player."""
        async with table.lock:
            if table.status is TableStatus.LOBBY:
                await self._open_seat(table, seat)
            else:
                await self._bot_takes_over(table, seat)
            if seat == table.host:
                others = table.humans()
                if others:
                    here = [n for n in others if table.connected(n)]
                    await self._set_host(table, (here or others)[0])
            self._say_goodbye(table, seat, "you left the table")
        self.after_change(table)

    def _other_human(self, table: LiveTable, seat: int) -> None:
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind is not SeatKind.HUMAN:
            raise ProtocolError("no_such_seat")
        if seat == table.host:
            raise ProtocolError("no_such_seat", "that is your own seat")

    async def _open_seat(self, table: LiveTable, seat: int) -> None:
        _forget_token(table, seat)
        table.seats[seat] = SeatState()
        await self.db(self.store.open_seat, table.id, seat)

    async def _bot_takes_over(self, table: LiveTable, seat: int) -> None:
        _forget_token(table, seat)
        old = table.seats[seat]
        table.seats[seat] = SeatState(old.name, SeatKind.BOT, table.options.bots)
        await self.db(self.store.put_seat, table.seats[seat].row(table.id, seat))
        assert table.seed is not None  # a game is on
        if not table.is_dice:  # the dice bot keeps no state
            table.bots[seat] = seat_bots(controllers(table), table.seed)[seat]

    async def _set_host(self, table: LiveTable, seat: int) -> None:
        table.host = seat
        table.host_away_since = None if table.connected(seat) else self.clock()
        await self.db(self.store.set_host, table.id, seat)
        for conn in table.conns:
            if conn.seat is not None:
                conn.push(welcome(table, conn))

    def _say_goodbye(self, table: LiveTable, seat: int, reason: str) -> None:
        for conn in [conn for conn in table.conns if conn.seat == seat]:
            conn.push({"type": "goodbye", "reason": reason})
            conn.end(CLOSE_REMOVED, "removed")
            table.conns.remove(conn)

    def _watch_the_host(self, table: LiveTable) -> None:
        """When the host has been away long enough, hand the role to a player who is here."""
        if table.host_away_since is None or table.host_check is not None:
            return
        if not any(table.connected(n) for n in table.humans() if n != table.host):
            return
        wait = table.host_away_since + self.limits.host_away_seconds - self.clock()
        table.host_check = asyncio.create_task(self._host_check(table, max(0.0, wait)))

    async def _host_check(self, table: LiveTable, wait: float) -> None:
        await asyncio.sleep(wait)
        table.host_check = None
        if table.host_away_since is None or table.connected(table.host):
            return
        here = [n for n in table.humans() if n != table.host and table.connected(n)]
        if here:
            async with table.lock:
                await self._set_host(table, here[0])
            self.broadcast(table)

    # -- away players ---------------------------------------------------------------------

    def _cancel_away(self, table: LiveTable) -> None:
        if table.away_task is not None and table.away_task is not asyncio.current_task():
            table.away_task.cancel()
        table.away_task = None

    def _watch_away(self, table: LiveTable) -> None:
        """When the player to move is a person with no connection, let a stand-in play
        their next action once they have been away ``away_seconds`` (at once if longer)."""
        self._cancel_away(table)
        seat, seconds = table.current, table.options.away_seconds
        if not seconds or table.status is not TableStatus.PLAYING or seat is None:
            return
        if table.seats[seat].kind is not SeatKind.HUMAN or table.connected(seat):
            return
        if not table.anyone_seated_here():
            # nobody seated is here to wait for the game: it waits for them (a stand-in
            # would play it out for bots alone), and goes on when one comes back
            return
        since = table.away_since.setdefault(seat, self.clock())
        wait = max(self.bot_delay, since + seconds - self.clock())
        if table.options.turn_seconds:
            wait = min(wait, float(table.options.turn_seconds))
        number = table.version
        table.away_task = asyncio.create_task(self._away_turn(table, seat, number, wait))

    async def _away_turn(self, table: LiveTable, seat: int, number: int, wait: float) -> None:
        await asyncio.sleep(wait)
        if (
            table.status is not TableStatus.PLAYING
            or table.version != number
            or table.current != seat
            or table.connected(seat)
            or not table.anyone_seated_here()
        ):
            return
        # one action: the change it makes schedules the next (after_change)
        await self._play_for(table, seat, self._stand_in_for(table, seat), ActedBy.AWAY)

    def _stand_in_for(self, table: LiveTable, seat: int) -> Player:
        """The bot that plays for the person in ``seat`` while they are away or out of
        time: the same one each time, so what it decided ahead for the turn is played
        (reseeded for every decision, a new one would choose the same)."""
        stand_in = table.stand_ins.get(seat)
        if stand_in is None:
            stand_in = table.stand_ins[seat] = make_player(self.stand_in, random.Random(0))
        return stand_in

    def player_left(self, table: LiveTable, seat: int) -> None:
        """A seat's last connection closed: from now it counts as away."""
        table.away_since[seat] = self.clock()
        if table.timer is None:
            self._watch_away(table)
        if table.status is TableStatus.OVER and table.rematch:
            table.rematch_task = asyncio.create_task(self._rematch_if_agreed(table))

    def player_back(self, table: LiveTable, seat: int) -> None:
        table.away_since.pop(seat, None)

    # -- rematch ------------------------------------------------------------------------

    async def rematch(self, table: LiveTable, seat: int, *, force: bool = False) -> None:
        """``seat`` wants a rematch; it starts once every person here wants one, or at once
        when the host forces it."""
        if force and seat != table.host:
            raise ProtocolError("not_host", "only the host can start a rematch for everyone")
        async with table.lock:
            if table.status is not TableStatus.OVER:
                raise ProtocolError("game_not_over")
            table.rematch.add(seat)
            if force or not self._rematch_waits_for(table):
                await self._begin(table, table.game_no + 1, [])
        self.after_change(table)

    def _rematch_waits_for(self, table: LiveTable) -> list[int]:
        """The people here who have not asked for the rematch."""
        return [n for n in table.humans() if table.connected(n) and n not in table.rematch]

    async def _rematch_if_agreed(self, table: LiveTable) -> None:
        async with table.lock:
            if table.status is not TableStatus.OVER or not table.rematch:
                return
            if self._rematch_waits_for(table):
                return
            await self._begin(table, table.game_no + 1, [])
        self.after_change(table)


def _forget_token(table: LiveTable, seat: int) -> None:
    """Remember the hash of a seat's token as no longer holding it (``seat_gone``)."""
    token_hash = table.seats[seat].token_hash
    if token_hash is not None:
        table.former_tokens.add(token_hash)


def welcome(table: LiveTable, conn: Connection) -> dict[str, Any]:
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "table": table.id,
        "seat": conn.seat,
        "role": "spectator" if conn.seat is None else "player",
        "host": conn.seat is not None and conn.seat == table.host,
    }


def controllers(table: LiveTable) -> list[str]:
    """Who plays each seat: a bot's spec, or a person (an open seat counts as one)."""
    return [seat.bot if seat.kind is SeatKind.BOT and seat.bot else HUMAN for seat in table.seats]

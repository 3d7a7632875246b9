"""The tables a server holds: one :class:`~phase10.core.game.Game` each, in memory.

The engine checks every action; the store keeps it before anyone hears of it; each
connection then receives its own view only. Bots play their seats on the server,
seeded per decision, and a stand-in plays the turn of a player whose time ran out.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from phase10.bots import make_player
from phase10.bots.hints import hint
from phase10.bots.registry import reseed
from phase10.bots.simple import Player
from phase10.core import (
    CardError,
    Discard,
    Game,
    GameRecord,
    IllegalActionError,
    InvalidActionError,
    PlayerView,
    Rules,
    parse_cards,
)
from phase10.core.choices import ChoiceError, hit_choices, lay_down_choices
from phase10.core.narration import EventLog
from phase10.core.records import event_to_dict

from .db import SeatRow, Store, TableRow, hash_token
from .protocol import ProtocolError

__all__ = ["BOT_NAMES", "Connection", "LiveTable", "SeatState", "TableManager"]

log = logging.getLogger("phase10.server")

#: the names bots take, skipping those the players chose
BOT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
#: how many log lines a state message carries
LOG_LINES = 50


@dataclass(slots=True)
class SeatState:
    name: str = ""
    #: open, human or bot
    kind: str = "open"
    bot: str | None = None
    token_hash: str | None = None

    def row(self, table_id: str, seat: int) -> SeatRow:
        return SeatRow(
            table_id=table_id,
            seat=seat,
            name=self.name,
            kind=self.kind,
            bot=self.bot,
            token_hash=self.token_hash,
        )


class Connection:
    """One WebSocket: who it is, its outgoing queue and its rate limit."""

    def __init__(
        self,
        send: Callable[[str], Any],
        clock: Callable[[], float],
        *,
        rate: float = 30.0,
        burst: float = 60.0,
    ) -> None:
        self.send = send
        self.clock = clock
        #: messages a second on average, and at once
        self.rate, self.burst = rate, burst
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=512)
        self.joined = False
        self.seat: int | None = None
        self.bad_tokens = 0
        self.dropped = 0
        #: the client stopped reading: its messages piled up and the socket is closed
        self.overflowed = False
        self._tokens = burst
        self._last = clock()

    def allow(self) -> bool:
        """Take one message from the token bucket; False when the client floods."""
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            self.dropped += 1
            return False
        self._tokens -= 1
        self.dropped = 0
        return True

    def push(self, data: dict[str, Any] | str) -> None:
        text = data if isinstance(data, str) else dumps(data)
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("dropping a connection that does not read its messages")
            self.overflowed = True
            self.close()

    def close(self) -> None:
        """End the writer once the queued messages are sent (at once if the queue is full)."""
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    async def writer(self) -> None:
        while (text := await self.queue.get()) is not None:
            await self.send(text)


@dataclass(eq=False)
class LiveTable:
    id: str
    options: dict[str, Any]
    rules: Rules
    seats: list[SeatState]
    status: str = "lobby"
    host: int = 0
    game_no: int = 0
    seed: int | None = None
    game: Game | None = None
    record_id: int | None = None
    conns: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: each viewer's narration of the game, and how many of its events it has read
    logs: dict[int | None, tuple[EventLog, int]] = field(default_factory=dict)
    bots: dict[int, Player] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None
    deadline: float | None = None
    #: each viewer's events of this hand as JSON, and the hand they belong to
    encoded: dict[int | None, tuple[list[dict[str, Any]], int]] = field(default_factory=dict)
    #: what is computed once per table: the phases' texts, the hands' results as JSON
    results: dict[str, Any] = field(default_factory=dict)

    @property
    def phase_texts(self) -> list[str]:
        texts = self.results.get("phases")
        if texts is None:
            texts = self.results["phases"] = [str(p) for p in self.rules.phase_sequence]
        return texts

    @property
    def version(self) -> int:
        return len(self.game.actions) if self.game is not None else 0

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is (compared in constant time), or None."""
        digest = hash_token(token)
        found = None
        for number, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
                found = number
        return found

    def public(self, clock: float) -> dict[str, Any]:
        """What anyone with the table's link may know about it (never the seed)."""
        connected = {conn.seat for conn in self.conns if conn.seat is not None}
        return {
            "id": self.id,
            "status": self.status,
            "game_no": self.game_no,
            "host": self.host,
            "seats": [
                {
                    "seat": number,
                    "name": seat.name,
                    "kind": seat.kind,
                    "bot": seat.bot,
                    "connected": number in connected,
                }
                for number, seat in enumerate(self.seats)
            ],
            "options": {
                "preset": self.options["preset"],
                "seats": len(self.seats),
                "bots": self.options["bots"],
                "turn_seconds": self.options["turn_seconds"],
                "rules": self.options["rules"],
                "phase_sequence": self.phase_texts,
            },
            "record_id": self.record_id,
            "turn_left": None if self.deadline is None else max(0.0, self.deadline - clock),
        }


class TableManager:
    """Every table of one server, their games, connections, bots and timers."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.0,
        stand_in: str = "greedy",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.stand_in = stand_in
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}

    # -- loading ----------------------------------------------------------------------

    def load_all(self) -> int:
        """Rebuild every unfinished table from the store; returns how many."""
        for row, seats, actions in self.store.tables():
            self.tables[row.id] = self._rebuild(row, seats, actions)
        return len(self.tables)

    def get(self, table_id: str) -> LiveTable | None:
        table = self.tables.get(table_id)
        if table is None and len(table_id) <= 32:
            loaded = self.store.table(table_id)
            if loaded is not None:
                table = self.tables[table_id] = self._rebuild(*loaded)
        return table

    def _rebuild(self, row: TableRow, seat_rows: list[SeatRow], actions: list[str]) -> LiveTable:
        options = json.loads(row.options)
        seats = [SeatState() for _ in range(options["seats"])]
        for seat_row in seat_rows:
            seats[seat_row.seat] = SeatState(
                seat_row.name, seat_row.kind, seat_row.bot, seat_row.token_hash
            )
        table = LiveTable(
            id=row.id,
            options=options,
            rules=Rules.from_dict(options["rules"]),
            seats=seats,
            status=row.status,
            host=row.host_seat,
            game_no=row.game_no,
            seed=row.seed,
        )
        if row.status != "lobby" and row.seed is not None:
            self._new_game(table, row.seed)
            assert table.game is not None
            for text in actions:
                table.game.apply(text)
        return table

    def _new_game(self, table: LiveTable, seed: int) -> None:
        names = [seat.name for seat in table.seats]
        table.seed = seed
        table.game = Game(names, rules=table.rules, seed=seed)
        table.encoded = {}
        table.results.pop("hands", None)
        table.logs = {}
        table.bots = {
            number: make_player(seat.bot or "greedy", random.Random(f"{seed}:{number}"))
            for number, seat in enumerate(table.seats)
            if seat.kind == "bot"
        }

    # -- lobby ------------------------------------------------------------------------

    def create(self, name: str, options: dict[str, Any]) -> tuple[LiveTable, int, str]:
        """A new table with its host in seat 0; returns the table, the seat and its token."""
        table_id = secrets.token_urlsafe(9)
        token = secrets.token_urlsafe(24)
        rules = Rules.from_dict(options["rules"])
        seats = [SeatState() for _ in range(options["seats"])]
        seats[0] = SeatState(name, "human", None, hash_token(token))
        self.store.create_table(table_id, options, [seats[0].row(table_id, 0)])
        table = LiveTable(id=table_id, options=options, rules=rules, seats=seats)
        self.tables[table_id] = table
        return table, 0, token

    async def join(self, table: LiveTable, name: str) -> tuple[int, str]:
        """Seat a new player in the first open seat; returns the seat and its token."""
        async with table.lock:
            if table.status != "lobby":
                raise ProtocolError("already_started")
            free = [n for n, seat in enumerate(table.seats) if seat.kind == "open"]
            if not free:
                raise ProtocolError("already_started", "the table is full")
            token = secrets.token_urlsafe(24)
            seat = SeatState(name, "human", None, hash_token(token))
            self.store.put_seat(seat.row(table.id, free[0]))
            table.seats[free[0]] = seat
        self.broadcast(table)
        return free[0], token

    async def start(self, table: LiveTable) -> None:
        async with table.lock:
            if table.status != "lobby":
                raise ProtocolError("already_started")
            taken = {seat.name for seat in table.seats}
            names = iter(name for name in BOT_NAMES if name not in taken)
            bots = []
            for number, seat in enumerate(table.seats):
                if seat.kind == "open":
                    seat.name, seat.kind, seat.bot = next(names), "bot", table.options["bots"]
                    bots.append(seat.row(table.id, number))
            self._begin(table, 1, bots)
        self.after_change(table)

    def _begin(self, table: LiveTable, game_no: int, bots: list[SeatRow]) -> None:
        requested = table.options.get("seed")
        seed = requested if game_no == 1 and requested is not None else _fresh_seed()
        self.store.start_game(table.id, game_no, seed, bots)
        table.status, table.game_no, table.record_id = "playing", game_no, None
        self._new_game(table, seed)

    async def rematch(self, table: LiveTable) -> None:
        async with table.lock:
            if table.status != "over":
                raise ProtocolError("game_not_over")
            self._begin(table, table.game_no + 1, [])
        self.after_change(table)

    async def set_bots(self, table: LiveTable, bots: str) -> None:
        async with table.lock:
            if table.status != "lobby":
                raise ProtocolError("already_started")
            table.options["bots"] = bots
        self.broadcast(table)

    # -- playing ----------------------------------------------------------------------

    async def act(
        self, table: LiveTable, seat: int, text: str, *, by: str, version: int | None = None
    ) -> None:
        """Check an action with the engine, store it, apply it, then tell everyone."""
        async with table.lock:
            game = self._playing(table)
            if game.current != seat:
                raise ProtocolError("not_your_turn")
            if version is not None and version != len(game.actions):
                raise ProtocolError("stale")
            try:
                action = game.check(game.parse_action(text))
            except IllegalActionError as error:
                raise ProtocolError("illegal_action", str(error)) from None
            except (InvalidActionError, CardError) as error:
                raise ProtocolError("invalid_action", str(error)) from None
            self.store.append_action(table.id, table.game_no, len(game.actions), str(action), by)
            game.apply_unchecked(action)
            if game.is_over:
                self._finish(table)
        self.after_change(table)

    def _playing(self, table: LiveTable) -> Game:
        if table.status == "lobby" or table.game is None:
            raise ProtocolError("not_started")
        if table.status == "over":
            raise ProtocolError("game_over")
        return table.game

    def _finish(self, table: LiveTable) -> None:
        game = table.game
        assert game is not None
        controllers = ",".join(seat.bot or "human" for seat in table.seats)
        tags = {"controllers": controllers, "table": table.id, "game": str(table.game_no)}
        record = GameRecord.from_game(game, tags).to_dict()
        winners = [game.seats[w].name for w in game.winners]
        table.record_id = self.store.finish_game(table.id, table.game_no, record, winners)
        table.status = "over"

    def choices(self, table: LiveTable, seat: int, kind: str, cards: str) -> list[str]:
        game = self._playing(table)
        if game.current != seat:
            raise ProtocolError("not_your_turn")
        try:
            picked = parse_cards(cards)
        except CardError as error:
            raise ProtocolError("invalid_action", str(error)) from None
        view = game.view(seat)
        try:
            if kind == "lay":
                return [str(action) for action in lay_down_choices(view, picked)]
            if len(picked) != 1:
                raise ChoiceError("select exactly one card to hit")
            return [str(action) for action in hit_choices(view, picked[0])]
        except ChoiceError as error:
            raise ProtocolError("no_choice", str(error)) from None

    async def hint(self, table: LiveTable, seat: int) -> dict[str, Any]:
        game = self._playing(table)
        if game.current != seat:
            raise ProtocolError("not_your_turn")
        view = game.view(seat)
        try:
            advice = await asyncio.to_thread(hint, view)
        except ValueError as error:
            raise ProtocolError("no_hint", str(error)) from None
        return {"type": "hint", "text": str(advice), "hint": advice.to_dict()}

    # -- after every change: bots, the turn timer, the broadcast ------------------------

    def after_change(self, table: LiveTable) -> None:
        self._cancel_timer(table)
        game = table.game
        if table.status == "playing" and game is not None:
            seat = table.seats[game.current]
            if seat.kind == "bot":
                if table.bot_task is None or table.bot_task.done():
                    table.bot_task = asyncio.create_task(self._run_bots(table))
            elif table.options["turn_seconds"]:
                seconds = float(table.options["turn_seconds"])
                table.deadline = self.clock() + seconds
                table.timer = asyncio.create_task(
                    self._time_out(table, game.current, len(game.actions), seconds)
                )
        self.broadcast(table)

    def _cancel_timer(self, table: LiveTable) -> None:
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
        table.deadline = None

    async def _run_bots(self, table: LiveTable) -> None:
        while table.status == "playing" and table.game is not None:
            game = table.game
            seat = game.current
            if table.seats[seat].kind != "bot":
                return
            await asyncio.sleep(self.bot_delay)
            if table.game is not game or game.current != seat or table.status != "playing":
                continue
            if not await self._play_for(table, seat, table.bots[seat], "bot"):
                return

    async def _play_for(self, table: LiveTable, seat: int, player: Player, by: str) -> bool:
        game = table.game
        assert game is not None
        number = len(game.actions)
        reseed(player, f"{table.seed}:{seat}:{number}")
        view = game.view(seat)
        choose = player.choose
        action = choose(view) if by != "bot" or _quick(player) else await _thread(choose, view)
        try:
            await self.act(table, seat, str(action), by=by, version=number)
        except ProtocolError as error:
            log.error("table %s: %s could not play %s: %s", table.id, by, action, error.message)
            return False
        return True

    async def _time_out(self, table: LiveTable, seat: int, number: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        game = table.game
        if game is None or len(game.actions) != number or table.status != "playing":
            return
        stand_in = make_player(self.stand_in, random.Random(0))
        while table.status == "playing" and game.current == seat:
            before = len(game.actions)
            if not await self._play_for(table, seat, stand_in, "timer"):
                return
            if isinstance(game.actions[before], Discard):
                return

    def broadcast(self, table: LiveTable) -> None:
        """Send every connection its own state: its seat's view, or the public one."""
        cache: dict[int | None, str] = {}
        for conn in list(table.conns):
            if not conn.joined:
                continue
            if conn.seat not in cache:
                cache[conn.seat] = dumps(self.state(table, conn.seat))
            conn.push(cache[conn.seat])

    def state(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        game = table.game
        return {
            "type": "state",
            "version": table.version,
            "you": seat,
            "table": table.public(self.clock()),
            "view": None if game is None else _view_dict(table, game, seat),
            "log": [] if game is None else _log_lines(table, game, seat),
        }

    # -- connections ------------------------------------------------------------------

    async def hello(self, table: LiveTable, conn: Connection, token: str | None) -> None:
        if conn.joined:
            raise ProtocolError("already_joined")
        if token is not None:
            seat = table.seat_of(token)
            if seat is None:
                conn.bad_tokens += 1
                raise ProtocolError("bad_token")
            conn.seat = seat
        conn.joined = True
        table.conns.append(conn)
        conn.push(
            {
                "type": "welcome",
                "table": table.id,
                "seat": conn.seat,
                "role": "spectator" if conn.seat is None else "player",
                "host": conn.seat == table.host,
            }
        )
        self.broadcast(table)

    def leave(self, table: LiveTable, conn: Connection) -> None:
        if conn in table.conns:
            table.conns.remove(conn)
            self.broadcast(table)

    async def shutdown(self) -> None:
        tasks = [
            task
            for table in self.tables.values()
            for task in (table.bot_task, table.timer)
            if task is not None and not task.done()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _log_lines(table: LiveTable, game: Game, viewer: int | None) -> list[str]:
    """The last lines of the game's narration for one viewer, narrated when first asked for
    (a table without spectators never narrates for one)."""
    entry = table.logs.get(viewer)
    if entry is None:
        names = [seat.name for seat in table.seats]
        entry = (EventLog(names, table.rules, viewer=viewer, verbose=True), 0)
    event_log, read = entry
    if read < len(game.history):
        event_log.feed(game.history[read:])
        del event_log.lines[:-LOG_LINES]
    table.logs[viewer] = (event_log, len(game.history))
    return event_log.lines


def _view_dict(table: LiveTable, game: Game, seat: int | None) -> dict[str, Any]:
    """``game.view(seat).to_dict()``, with each event encoded once per viewer, not per message."""
    events = game.history[game.hand_start :]
    cache = table.encoded.get(seat)
    if cache is None or cache[1] != game.hand_start or len(cache[0]) > len(events):
        cache = table.encoded[seat] = ([], game.hand_start)
    encoded = cache[0]
    encoded.extend(event_to_dict(event.seen_by(seat)) for event in events[len(encoded) :])
    data = PlayerView.of(game, seat, history=False).to_dict()
    data["history"] = list(encoded)
    results = table.results.setdefault("hands", [])
    if len(results) > len(game.hand_results):
        results.clear()
    results.extend(event_to_dict(event) for event in game.hand_results[len(results) :])
    data["hand_results"] = list(results)
    return data


def dumps(data: Any) -> str:
    """Compact JSON text (orjson: every action sends each connection its whole state)."""
    return orjson.dumps(data).decode()


def _fresh_seed() -> int:
    return random.SystemRandom().randrange(2**62)


def _quick(player: Player) -> bool:
    """Whether a bot decides fast enough to run on the event loop."""
    return type(player).__name__ in {"RandomPlayer", "GreedyPlayer", "SimplePlayer"}


async def _thread(function: Callable[[Any], Any], argument: Any) -> Any:
    return await asyncio.to_thread(function, argument)

"""Every table of one server: creating, joining, the host's controls, play, bots, timers.

The engine checks every action; the store keeps it before anyone hears of it; each
connection then receives its own view only. Bots play their seats on the server,
seeded per decision, and a stand-in plays the turn of a player whose time ran out.
Solver work a client asks for runs in worker processes (:mod:`phase10.server.work`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from phase10.bots.seats import bot_names, bot_turn, controllers_tag, plan_turn, seat_bots
from phase10.bots.simple import Player
from phase10.core import (
    CardError,
    Discard,
    Game,
    GameRecord,
    IllegalActionError,
    InvalidActionError,
    Refusal,
    Rules,
)
from phase10.core.names import NameTakenError, PlayerNameError, check_name
from phase10.dice import DiceActionError, DiceGame, IllegalDiceActionError

from .connection import Connection, dumps
from .db import SeatRow, Store, TableRow, hash_token
from .dice import (
    STAND_IN_DICE_BOT,
    bot_action,
    card_table_bot,
    dice_record,
    dice_table_bot,
    new_dice_game,
    quick_dice_bot,
)
from .hosting import CLOSE_REMOVED, HostControls, controllers, welcome
from .limits import Limits, Visitors
from .models import ActedBy, SeatKind, TableOptions, TableStatus, by_tag
from .protocol import PROTOCOL_VERSION, ProtocolError, error_message
from .replays import Replays
from .reviews import Reviews
from .solving import SolverRequests
from .tables import LiveTable, PlannedTurn, SeatState, state_message
from .thinking import PLAN_SECONDS, FairThinking
from .work import (
    SolverPool,
    dice_bot_job,
)

__all__ = ["CLOSE_REMOVED", "TableManager", "secret_seed"]

P = ParamSpec("P")
R = TypeVar("R")

log = logging.getLogger("phase10.server")
#: a bot's move the database refused (locked, full) is tried again after this long,
#: doubled at each refusal in a row up to a minute
DB_RETRY_SECONDS = 2.0


def secret_seed() -> int:
    """A game's seed: unguessable, so no player can know the deal or the draw order."""
    return secrets.randbelow(2**62)


class TableManager(HostControls, SolverRequests):
    """Every table of one server, their games, connections, bots and timers."""

    def __init__(
        self,
        store: Store,
        *,
        limits: Limits | None = None,
        bot_delay: float = 0.0,
        stand_in: str = "greedy",
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        seeds: Callable[[], int] = secret_seed,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.bot_delay = bot_delay
        self.stand_in = stand_in
        self.clock = clock
        self.wall = wall
        self.seeds = seeds
        self.tables: dict[str, LiveTable] = {}
        self.visitors = Visitors(self.limits, clock)
        self.pool = SolverPool(
            workers=self.limits.solver_workers,
            seconds=self.limits.solver_seconds,
            queue=self.limits.solver_queue,
        )
        #: solver jobs in flight, by address
        self.jobs: Counter[str] = Counter()
        #: game reviews, in worker processes of their own
        self.reviews = Reviews(store, self.db, self.limits)
        #: finished games' replays, kept and worked out off the event loop
        self.replays = Replays()
        # every read and write of the store, in order, on one thread of its own: the event
        # loop never waits on the database, and SQLite sees one writer
        self._database = ThreadPoolExecutor(1, thread_name_prefix="phase10-db")
        # the card bots think on two threads of their own, in fair turns between the
        # addresses that opened the tables (more threads would think no faster in pure
        # Python, but would take the interpreter's lock from the event loop more often)
        self.thinking = FairThinking(self.visitors.thinking, threads=2)

    async def db(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a store call on the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._database, lambda: function(*args, **kwargs))

    # -- loading ----------------------------------------------------------------------

    async def load_all(self) -> int:
        """Rebuild every unfinished table from the store; returns how many. One this
        version cannot read is logged by its id and left in the store, the others served."""
        for row, seats, actions in await self.db(self.store.tables):
            try:
                table = self._rebuild(row, seats, actions)
            except Exception:  # (whatever this version cannot read: the others go on)
                log.exception("table %s cannot be loaded; it is left in the database", row.id)
                continue
            self.tables[row.id] = table
            await self._load_marks(table)
            await self._finish_if_over(table)
        return len(self.tables)

    async def _finish_if_over(self, table: LiveTable) -> bool:
        """Finish a game over whose finish was not stored (the database failed as it
        ended); whether it was finished now. A failure again is logged, and the next
        sweep tries once more."""
        if table.status is not TableStatus.PLAYING or not table.game_over:
            return False
        try:
            async with table.lock:
                if table.status is TableStatus.PLAYING:
                    await self._finish(table)
                    return True
        except Exception:  # (the database, still failing)
            log.exception("table %s: its game is over but could not be finished", table.id)
        return False

    async def get(self, table_id: str) -> LiveTable | None:
        table = self.tables.get(table_id)
        if table is None and len(table_id) <= 32:
            loaded = await self.db(self.store.table, table_id)
            if loaded is not None and table_id not in self.tables:
                try:
                    rebuilt = self._rebuild(*loaded)
                except Exception:  # (as in load_all: logged, and not served)
                    log.exception("table %s cannot be loaded; it is left in the database", table_id)
                    return None
                self.tables[table_id] = rebuilt
                await self._load_marks(rebuilt)
            table = self.tables.get(table_id)
        return table

    def _rebuild(self, row: TableRow, seat_rows: list[SeatRow], actions: list[str]) -> LiveTable:
        options = TableOptions.model_validate(json.loads(row.options))
        seats = [SeatState() for _ in range(options.seats)]
        for seat_row in seat_rows:
            seats[seat_row.seat] = SeatState(
                seat_row.name, SeatKind(seat_row.kind), seat_row.bot, seat_row.token_hash
            )
        table = LiveTable(
            id=row.id,
            options=options,
            rules=Rules.from_dict(options.rules),
            seats=seats,
            status=TableStatus(row.status),
            host=row.host_seat,
            game_no=row.game_no,
            seed=row.seed,
            owner=row.owner or "",
            host_away_since=self.clock(),  # nobody is connected yet
            away_since={
                n: self.clock() for n, seat in enumerate(seats) if seat.kind is SeatKind.HUMAN
            },
        )
        if table.status is not TableStatus.LOBBY and row.seed is not None:
            game = self._new_game(table, row.seed)
            for text in actions:
                game.apply(text)  # either kind of game reads its actions' text
        return table

    async def _load_marks(self, table: LiveTable) -> None:
        """Mark again the events of the actions a stand-in played (for the log)."""
        game = table.game
        if game is None:  # (a dice table's log does not mark a stand-in's actions)
            return
        numbers = set(await self.db(self.store.stand_in_actions, table.id, table.game_no))
        if not numbers:
            return
        replay = Game(table.names, rules=table.rules, seed=table.seed)
        for number, action in enumerate(game.actions):
            start, seat = len(replay.history), replay.current
            replay.apply_unchecked(action)
            if number in numbers:
                table.marked.update(dict.fromkeys(range(start, len(replay.history)), seat))

    def _new_game(self, table: LiveTable, seed: int) -> Game | DiceGame:
        table.seed = seed
        table.encoded = {}
        table.results.pop("hands", None)
        table.logs = {}
        table.legal, table.progress, table.marked = {}, {}, {}
        if table.is_dice:  # its bot needs no state (phase10.server.dice)
            table.bots = {}
            dice = table.dice = new_dice_game(table.names, seed)
            return dice
        game = table.game = Game(table.names, rules=table.rules, seed=seed)
        table.bots = seat_bots(controllers(table), seed)
        return game

    # -- lobby ------------------------------------------------------------------------

    async def create(
        self, name: str, options: TableOptions, address: str = ""
    ) -> tuple[LiveTable, int, str]:
        """A new table with its host in seat 0; returns the table, the seat and its token
        (a seed in ``options`` makes the table its host's and bots' alone). ``address``
        opened it: the thinking of its bots counts against that address's."""
        name = _name(name)
        live = sum(1 for table in self.tables.values() if table.status is not TableStatus.OVER)
        if live >= self.limits.max_tables:
            raise ProtocolError("server_full")
        table_id = secrets.token_urlsafe(9)
        token = secrets.token_urlsafe(24)
        rules = Rules.from_dict(options.rules)
        seats = [SeatState() for _ in range(options.seats)]
        seats[0] = SeatState(name, SeatKind.HUMAN, None, hash_token(token))
        first = [seats[0].row(table_id, 0)]
        await self.db(self.store.create_table, table_id, options.model_dump(), first, address)
        table = LiveTable(id=table_id, options=options, rules=rules, seats=seats, owner=address)
        self.tables[table_id] = table
        return table, 0, token

    async def join(self, table: LiveTable, name: str) -> tuple[int, str]:
        """Seat a new player in the first open seat; returns the seat and its token."""
        async with table.lock:
            if table.status is not TableStatus.LOBBY:
                raise ProtocolError("already_started")
            if table.options.seed is not None:
                raise ProtocolError("seeded_table")
            free = [n for n, seat in enumerate(table.seats) if seat.kind is SeatKind.OPEN]
            if not free:
                raise ProtocolError("table_full")
            taken = [seat.name for seat in table.seats if seat.kind is not SeatKind.OPEN]
            name = _name(name, taken)
            token = secrets.token_urlsafe(24)
            seat = SeatState(name, SeatKind.HUMAN, None, hash_token(token))
            await self.db(self.store.put_seat, seat.row(table.id, free[0]))
            table.seats[free[0]] = seat
        self.broadcast(table)
        return free[0], token

    async def start(self, table: LiveTable) -> None:
        async with table.lock:
            if table.status is TableStatus.OVER:
                raise ProtocolError("game_over", "the game is over: a rematch starts the next")
            if table.status is not TableStatus.LOBBY:
                raise ProtocolError("already_started")
            bots = []
            for number, seat in enumerate(table.seats):
                if seat.kind is SeatKind.OPEN:
                    self._seat_bot_in_lobby(table, number)
                    bots.append(table.seats[number].row(table.id, number))
            await self._begin(table, 1, bots)
        self.after_change(table)

    def _seat_bot_in_lobby(self, table: LiveTable, number: int) -> None:
        taken = [seat.name for seat in table.seats if seat.kind is not SeatKind.OPEN]
        [name] = bot_names(taken, 1)
        table.seats[number] = SeatState(name, SeatKind.BOT, table.options.bots)

    async def _begin(self, table: LiveTable, game_no: int, bots: list[SeatRow]) -> None:
        chosen = table.options.seed
        seed = chosen if game_no == 1 and chosen is not None else self.seeds()
        await self.db(self.store.start_game, table.id, game_no, seed, bots)
        table.status, table.game_no, table.record_id = TableStatus.PLAYING, game_no, None
        table.rematch = set()
        self._new_game(table, seed)

    async def set_bots(self, table: LiveTable, bots: str) -> None:
        async with table.lock:
            if table.status is not TableStatus.LOBBY:
                raise ProtocolError("already_started")
            try:
                bots = dice_table_bot(bots) if table.is_dice else card_table_bot(bots)
            except ValueError as error:
                raise ProtocolError.refusal("invalid_message", error) from None
            table.options = table.options.model_copy(update={"bots": bots})
            await self.db(self.store.set_options, table.id, table.options.model_dump())
        self.broadcast(table)

    # -- playing ----------------------------------------------------------------------

    async def act(
        self, table: LiveTable, seat: int, text: str, *, by: ActedBy, version: int | None = None
    ) -> None:
        """Check an action with the engine, store it, apply it, then tell everyone."""
        if table.is_dice:
            await self._act_dice(table, seat, text, by=by, version=version)
            return
        async with table.lock:
            game = self._playing(table)
            _check_player(table, seat, by)
            _check_turn(game.current, seat, len(game.actions), version)
            try:
                action = game.check(game.parse_action(text))
            except IllegalActionError as error:
                raise ProtocolError.refusal("illegal_action", error, error.code) from None
            except InvalidActionError as error:  # its message may quote the text sent: cut short
                raise ProtocolError.refusal("invalid_action", error, error.code) from None
            except CardError as error:
                raise ProtocolError.refusal("invalid_action", error, Refusal.MALFORMED) from None
            number = len(game.actions)
            await self.db(
                self.store.append_action, table.id, table.game_no, number, str(action), by
            )
            start = len(game.history)
            game.apply_unchecked(action)
            if by in (ActedBy.TIMER, ActedBy.AWAY):
                table.marked.update(dict.fromkeys(range(start, len(game.history)), seat))
            if game.is_over:
                await self._finish(table)
        self.after_change(table)

    async def _act_dice(
        self, table: LiveTable, seat: int, text: str, *, by: ActedBy, version: int | None
    ) -> None:
        """``act`` at a dice table: the dice engine checks the action."""
        async with table.lock:
            game = self._playing_dice(table)
            _check_player(table, seat, by)
            _check_turn(game.current, seat, len(game.actions), version)
            try:
                action = game.parse_action(text)
                game.check(action)
            except IllegalDiceActionError as error:
                raise ProtocolError.refusal("illegal_action", error, error.code) from None
            except DiceActionError as error:  # its message may quote the text sent: cut short
                raise ProtocolError.refusal("invalid_action", error, error.code) from None
            number = len(game.actions)
            await self.db(
                self.store.append_action, table.id, table.game_no, number, str(action), by
            )
            game.apply(action)
            if game.is_over:
                await self._finish(table)
        self.after_change(table)

    def _playing(self, table: LiveTable) -> Game:
        self._check_playing(table)
        if table.game is None:
            raise ProtocolError("not_started", "this table plays dice: there are no cards")
        return table.game

    def _playing_dice(self, table: LiveTable) -> DiceGame:
        self._check_playing(table)
        assert table.dice is not None  # a dice table that is playing has its game
        return table.dice

    @staticmethod
    def _check_playing(table: LiveTable) -> None:
        if table.status is TableStatus.LOBBY or not table.started:
            raise ProtocolError("not_started")
        if table.status is TableStatus.OVER:
            raise ProtocolError("game_over")

    async def _finish(self, table: LiveTable) -> None:
        game = table.dice if table.is_dice else table.game
        assert game is not None  # only a game that just ended is finished
        acted = await self.db(self.store.acted_by, table.id, table.game_no)
        tags = {
            "controllers": controllers_tag(controllers(table)),
            # a private table's id is its invitation: a published record never holds it
            **({"table": table.id} if table.options.public else {}),
            "game": str(table.game_no),
            "by": by_tag(acted),
        }
        if isinstance(game, DiceGame):
            record = dice_record(game, tags)
            totals = list(game.totals())
        else:
            record = GameRecord.from_game(game, tags).to_dict()
            totals = [seat.score for seat in game.seats]
        winners = [game.seats[w].name for w in game.winners]
        table.record_id = await self.db(
            self.store.finish_game, table.id, table.game_no, record, winners
        )
        table.status = TableStatus.OVER
        table.last_game = {
            "game_no": table.game_no,
            "record_id": table.record_id,
            "players": table.names,
            "winners": list(game.winners),
            "winner_names": winners,
            "totals": totals,
        }

    # -- after every change: bots, the turn timer, the broadcast ------------------------

    def after_change(self, table: LiveTable) -> None:
        self._cancel_timer(table)
        self._cancel_away(table)
        current = table.current
        if table.status is TableStatus.PLAYING and current is not None:
            seat = table.seats[current]
            if seat.kind is SeatKind.BOT and not table.humans():
                pass  # nobody holds a seat any more: the bots stop (see _run_bots)
            elif seat.kind is SeatKind.BOT:
                if table.bot_task is None or table.bot_task.done():
                    table.bot_task = asyncio.create_task(self._run_bots(table))
            elif not table.connected(current) and table.options.away_seconds:
                if not table.standing_in:  # the turn timer's stand-in finishes the turn
                    self._watch_away(table)
            elif table.options.turn_seconds:
                seconds = float(table.options.turn_seconds)
                table.deadline = self.clock() + seconds
                table.timer = asyncio.create_task(
                    self._time_out(table, current, table.version, seconds)
                )
        self.broadcast(table)

    def _cancel_timer(self, table: LiveTable) -> None:
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
        table.deadline = None

    async def _run_bots(self, table: LiveTable) -> None:
        if table.is_dice:
            await self._run_dice_bots(table)
            return
        failures = 0  # the database's, in a row
        while table.status is TableStatus.PLAYING and table.game is not None:
            game = table.game
            seat = game.current
            # (a game nobody is seated at any more stops: bots alone could play for ever)
            if table.seats[seat].kind is not SeatKind.BOT or not table.humans():
                return
            await asyncio.sleep(self.bot_delay)
            if (
                table.game is not game
                or game.current != seat
                or table.status is not TableStatus.PLAYING
            ):
                continue
            try:
                if not await self._play_for(table, seat, table.bots[seat], ActedBy.BOT):
                    return
                failures = 0
            except SQLAlchemyError:  # (locked or full: nothing changed; it may pass)
                failures += 1
                wait = min(60.0, DB_RETRY_SECONDS * 2 ** (failures - 1))
                log.exception(
                    "table %s: a bot's move could not be stored: again in %g s", table.id, wait
                )
                await asyncio.sleep(wait)

    async def _run_dice_bots(self, table: LiveTable) -> None:
        while table.status is TableStatus.PLAYING and table.dice is not None:
            game, seat = table.dice, table.current
            if seat is None or table.seats[seat].kind is not SeatKind.BOT or not table.humans():
                return
            await asyncio.sleep(self.bot_delay)
            if table.dice is not game or table.current != seat:
                continue
            if not await self._play_dice_for(table, seat, ActedBy.BOT):
                return

    async def _play_dice_for(self, table: LiveTable, seat: int, by: ActedBy) -> bool:
        """One action of the seat's dice bot (a person's stand-in: the quick greedy bot)."""
        game = table.dice
        assert game is not None
        bots = table.seats[seat].bot if by is ActedBy.BOT else None
        version = len(game.actions)
        action = await self._dice_bot_action(table, game, seat, bots or STAND_IN_DICE_BOT)
        if table.dice is not game or len(game.actions) != version:
            return True  # the game moved on while the bot thought: its answer is dropped
        try:
            await self.act(table, seat, str(action), by=by, version=version)
        except ProtocolError as error:
            log.error("table %s: %s could not play %s: %s", table.id, by, action, error.message)
            return False
        return True

    async def _dice_bot_action(self, table: LiveTable, game: DiceGame, seat: int, bots: str) -> str:
        """The dice bot's action: at once for a quick bot, else worked out in a solver
        worker, bounded by its time limit. A bot the server no longer knows, a queue that
        is full or a worker too slow or gone: the stand-in's quick choice instead, so a
        dice table never stalls."""
        try:
            if quick_dice_bot(bots):
                return str(bot_action(game, seat, bots))
            return str(await self.pool.run(dice_bot_job, game.view(seat), bots, len(game.actions)))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # (SolverBusy, SolverTooSlow, ValueError, a dead worker)
            log.warning(
                "table %s: dice bot %s failed (%s): the %s bot plays instead",
                table.id,
                bots,
                type(error).__name__,
                STAND_IN_DICE_BOT,
            )
            return str(bot_action(game, seat, STAND_IN_DICE_BOT))

    async def _play_for(self, table: LiveTable, seat: int, player: Player, by: ActedBy) -> bool:
        if table.is_dice:
            return await self._play_dice_for(table, seat, by)
        game = table.game
        assert game is not None
        version = len(game.actions)
        action = table.planned.next_for(game, seat, player) if table.planned else None
        if action is None:
            turn, twin = bot_turn(game, table.bots, player), game.copy()
            # every bot thinks off the event loop: even the quick ones search lay-downs,
            # which a house phase of many tiny groups makes take up to the bots' step budget
            # (about half a second: phase10.bots.bounded), in fair turns between the
            # addresses that opened the tables, within their thinking time
            # (phase10.server.thinking), deciding ahead what it can of the rest of its turn
            actions = await self.thinking.run(
                table.owner or f"table {table.id}", lambda: plan_turn(turn, twin, PLAN_SECONDS)
            )
            if not turn.is_current(game) or table.game is not game:
                return True  # the game moved on while the bot thought: its answer is dropped
            action, later = actions[0], enumerate(actions[1:], version + 1)
            table.planned = PlannedTurn(game, seat, player, deque(later))
        try:
            await self.act(table, seat, str(action), by=by, version=version)
        except ProtocolError as error:
            log.error("table %s: %s could not play %s: %s", table.id, by, action, error.message)
            return False
        return True

    async def _time_out(self, table: LiveTable, seat: int, number: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if table.version != number or table.status is not TableStatus.PLAYING:
            return
        stand_in = self._stand_in_for(table, seat)
        table.standing_in = True
        try:
            while table.status is TableStatus.PLAYING and table.current == seat:
                before = table.version
                if not await self._play_for(table, seat, stand_in, ActedBy.TIMER):
                    break
                game = table.game
                if game is not None and isinstance(game.actions[before], Discard):
                    break
        finally:
            table.standing_in = False
        # the next player may be away too: their stand-in was held back meanwhile
        self._watch_away(table)

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
        return state_message(table, seat, self.clock())

    # -- connections ------------------------------------------------------------------

    def admit(self, table: LiveTable, address: str) -> str | None:
        """Why a new connection to ``table`` from ``address`` is refused, or None."""
        limits = self.limits
        room = limits.connections_per_table + limits.connections_per_seat * len(table.seats)
        if len(table.conns) >= room:
            return "the table has as many connections as it takes"
        return self.visitors.admit_socket(address)

    async def hello(
        self, table: LiveTable, conn: Connection, token: str | None, protocol: int | None = None
    ) -> None:
        """Sit the connection at its token's seat, or let it watch. Only a player's arrival
        changes what the others see: a spectator's costs them nothing."""
        if conn.joined:
            raise ProtocolError("already_joined")
        if protocol is not None and protocol != PROTOCOL_VERSION:
            raise ProtocolError(
                "protocol_mismatch",
                f"this server speaks version {PROTOCOL_VERSION} of the protocol, not {protocol}",
            )
        if token is not None:
            seat = table.seat_of(token)
            if seat is None and hash_token(token) in table.former_tokens:
                raise ProtocolError("seat_gone")
            if seat is None:
                conn.bad_tokens += 1
                raise ProtocolError("bad_token")
            if sum(other.seat == seat for other in table.conns) >= self.limits.connections_per_seat:
                raise ProtocolError(
                    "too_many_connections",
                    f"your seat is open in {self.limits.connections_per_seat} places already: "
                    "close one of them",
                )
            conn.seat = seat
        elif sum(other.seat is None for other in table.conns) >= self.limits.connections_per_table:
            raise ProtocolError(
                "too_many_connections",
                f"the table has {self.limits.connections_per_table} spectators, as many as it takes",
            )
        arriving = conn.seat is not None and not table.connected(conn.seat)
        conn.joined = True
        table.conns.append(conn)
        conn.push(welcome(table, conn))
        if conn.seat is not None and conn.seat == table.host:
            table.host_away_since = None
        if arriving:
            assert conn.seat is not None
            self.player_back(table, conn.seat)
            if table.current == conn.seat:
                self.after_change(table)  # back on their turn: no stand-in now
            else:
                self.broadcast(table)
                # a game that waited for anyone seated to be here goes on: the player
                # to move, if away, gets their stand-in
                self._watch_away(table)
            self._watch_the_host(table)
        else:
            conn.push(dumps(self.state(table, conn.seat)))

    def leave_connection(self, table: LiveTable, conn: Connection) -> None:
        conn.cancel_job()
        if conn in table.conns:
            table.conns.remove(conn)
            if conn.seat is not None and not table.connected(conn.seat):
                if conn.seat == table.host:
                    table.host_away_since = self.clock()
                self.player_left(table, conn.seat)
                self.broadcast(table)
                self._watch_the_host(table)

    # -- housekeeping -----------------------------------------------------------------

    async def sweep(self) -> int:
        """Close the lobbies nobody has touched for ``lobby_idle_hours`` and nobody is
        connected to, and the games nobody is seated at or watches any more; let go of
        finished tables nobody watches (they stay in the database, as history, and load
        again when asked for). Returns the tables closed."""
        cutoff = self.wall() - self.limits.lobby_idle_hours * 3600
        closed = 0
        for table_id in await self.db(self.store.idle_lobbies, cutoff):
            table = self.tables.get(table_id)
            if table is not None and table.conns:
                continue
            if await self.db(self.store.delete_lobby, table_id):
                self.tables.pop(table_id, None)
                closed += 1
        for table_id, table in list(self.tables.items()):
            if await self._finish_if_over(table):  # (one the database failed to finish)
                self.after_change(table)
            if table.status is TableStatus.OVER and not table.conns:
                del self.tables[table_id]
            elif (
                # a game its last person left stopped, and nobody can sit down again: it
                # would hold a place among max_tables, and reload at every start, for ever
                table.status is TableStatus.PLAYING
                and not table.game_over  # (over, its finish still to store: kept)
                and not table.humans()
                and not table.conns
                and await self.db(self.store.delete_abandoned, table_id)
            ):
                self.tables.pop(table_id, None)
                closed += 1
        return closed

    async def sweep_forever(self, every: float = 300.0) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:  # a database hiccup: try again next time
                log.exception("the sweep of idle tables failed")

    async def shutdown(self) -> None:
        tasks = [
            task
            for table in self.tables.values()
            for task in (table.bot_task, table.timer, table.host_check, table.away_task)
            if task is not None and not task.done()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            self.pool.close()
        with contextlib.suppress(Exception):
            await self.reviews.close()
        self.thinking.close()
        self._database.shutdown(wait=True)


def _name(text: str, taken: list[str] | None = None) -> str:
    try:
        return check_name(text, taken or ())
    except NameTakenError as error:
        raise ProtocolError("name_taken", str(error)) from None
    except PlayerNameError as error:
        raise ProtocolError("bad_name", str(error)) from None


def _check_turn(current: int, seat: int, now: int, version: int | None) -> None:
    """Refuse an action chosen on another version of the game (the turn may have passed
    since), or of a seat not to move."""
    if version is not None and version != now:
        when = "an older" if version < now else "a later"
        raise ProtocolError(
            "stale",
            f"the action was chosen on version {version}, {when} version than the "
            f"game's: it is at version {now}",
            version=now,
        )
    if current != seat:
        raise ProtocolError("not_your_turn")


def _check_player(table: LiveTable, seat: int, by: ActedBy) -> None:
    """Refuse a player's action for a seat no person holds any more (removed, given to a
    bot or left, while the action was on its way)."""
    if by is ActedBy.PLAYER and table.seats[seat].kind is not SeatKind.HUMAN:
        raise ProtocolError("seat_gone")


def _error(code: str, message: str | None = None) -> dict[str, Any]:
    return error_message(code, message)

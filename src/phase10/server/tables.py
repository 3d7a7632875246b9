"""A table the server holds: its seats, its game in memory, and what each viewer receives.

:class:`~phase10.server.manager.TableManager` changes tables; this module holds their
state and turns it into the messages each connection gets: its own seat's view or the
public one, never more.
"""

from __future__ import annotations

import asyncio
import hmac
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from phase10.bots.simple import Player
from phase10.core import Action, Game, PlayerView, Rules, Stage
from phase10.core.narration import EventLog, last_move
from phase10.core.records import event_to_dict
from phase10.core.rules_text import explain_rules
from phase10.dice import DiceGame

from .connection import Connection, dumps
from .db import SeatRow, hash_token
from .dice import DICE_RULES_TEXT, dice_block, dice_log, dice_phase_texts
from .legal import legal_block, progress_block
from .models import SeatKind, TableKind, TableOptions, TableStatus

__all__ = ["LOG_LINES", "LiveTable", "PlannedTurn", "SeatState", "dumps", "state_message"]
#: how many log lines a state message carries
LOG_LINES = 50
#: the most events of the hand a state message's view holds (its last ones: a hand bots
#: drag out can hold tens of thousands, and every message would carry them all)
HISTORY_EVENTS = 400


@dataclass(slots=True)
class PlannedTurn:
    """The rest of a bot's turn, decided ahead (phase10.bots.seats.plan_turn): each action
    is played only in the same game, by the same bot, at the version it was decided for."""

    game: Game
    seat: int
    player: Player
    #: (the number of actions in the game before it, the action), in order
    actions: deque[tuple[int, Action]]

    def next_for(self, game: Game, seat: int, player: Player) -> Action | None:
        """The action planned for ``player`` in ``seat`` of ``game`` now, taken from the
        plan; None if there is none (the game moved on another way, or the plan is spent)."""
        if (
            self.game is not game
            or self.seat != seat
            or self.player is not player
            or not self.actions
            or game.current != seat
            or game.is_over
            or self.actions[0][0] != len(game.actions)
        ):
            return None
        return self.actions.popleft()[1]


@dataclass(slots=True)
class SeatState:
    name: str = ""
    kind: SeatKind = SeatKind.OPEN
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


@dataclass(eq=False)
class LiveTable:
    id: str
    options: TableOptions
    rules: Rules
    seats: list[SeatState]
    status: TableStatus = TableStatus.LOBBY
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
    #: since when the host has had no connection (None: the host is here)
    host_away_since: float | None = None
    host_check: asyncio.Task[None] | None = None
    #: each viewer's last events of this hand as JSON (at most HISTORY_EVENTS), the hand
    #: they belong to, and how many of its events have been read
    encoded: dict[int | None, tuple[list[dict[str, Any]], int, int]] = field(default_factory=dict)
    #: what is computed once per table: the phases' texts, the hands' results as JSON
    results: dict[str, Any] = field(default_factory=dict)
    #: each seat's legal block and the version it is for; each seat's progress and the
    #: hand it was worked out from (it changes only when that seat's cards do)
    legal: dict[int, tuple[int, dict[str, Any] | None]] = field(default_factory=dict)
    #: since when each person has had no connection (a stand-in plays after away_seconds)
    away_since: dict[int, float] = field(default_factory=dict)
    away_task: asyncio.Task[None] | None = None
    #: whether the turn timer's stand-in is playing a turn now
    standing_in: bool = False
    #: the game's events (indices into its history) from actions a stand-in played, and
    #: the seat it played for
    marked: dict[int, int] = field(default_factory=dict)
    #: the seats that asked for a rematch of the finished game
    rematch: set[int] = field(default_factory=set)
    #: what the bot to move decided ahead for the rest of its turn
    planned: PlannedTurn | None = None
    #: the bot playing for each away player, by seat
    stand_ins: dict[int, Player] = field(default_factory=dict)
    #: the address that opened the table ("" for one an older version stored: the table
    #: then counts as its own)
    owner: str = ""
    rematch_task: asyncio.Task[None] | None = None
    #: the last finished game's result and record, kept while the next is played
    last_game: dict[str, Any] | None = None
    #: the token hashes of seats given up (their links answer seat_gone, not bad_token)
    former_tokens: set[str] = field(default_factory=set)
    progress: dict[int, tuple[object, dict[str, Any] | None]] = field(default_factory=dict)
    #: the game of a dice table (``game`` stays None there)
    dice: DiceGame | None = None

    @property
    def is_dice(self) -> bool:
        return self.options.kind is TableKind.DICE

    @property
    def phase_texts(self) -> list[str]:
        texts = self.results.get("phases")
        if texts is None:
            texts = self.results["phases"] = (
                dice_phase_texts() if self.is_dice else [str(p) for p in self.rules.phase_sequence]
            )
        return texts

    @property
    def rules_text(self) -> list[str]:
        """The rules in sentences (phase10.core.rules_text), worked out once per table."""
        texts = self.results.get("rules_text")
        if texts is None:
            texts = self.results["rules_text"] = (
                list(DICE_RULES_TEXT) if self.is_dice else explain_rules(self.rules)
            )
        return texts

    @property
    def version(self) -> int:
        """How many actions the game on the table has had (either kind of game)."""
        if self.dice is not None:
            return len(self.dice.actions)
        return len(self.game.actions) if self.game is not None else 0

    @property
    def started(self) -> bool:
        """Whether a game (of either kind) is on the table or just ended there."""
        return self.game is not None or self.dice is not None

    @property
    def game_over(self) -> bool:
        """Whether the game on the table (either kind) has ended."""
        game: Game | DiceGame | None = self.dice if self.dice is not None else self.game
        return game is not None and game.is_over

    @property
    def current(self) -> int | None:
        """The seat to move in the game on the table (either kind); None without a game
        or once it is over."""
        game: Game | DiceGame | None = self.dice if self.dice is not None else self.game
        return None if game is None or game.is_over else game.current

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is (compared in constant time), or None."""
        digest = hash_token(token)
        found = None
        for number, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(digest, seat.token_hash):
                found = number
        return found

    def connected(self, seat: int) -> bool:
        return any(conn.seat == seat for conn in self.conns)

    def humans(self) -> list[int]:
        return [number for number, seat in enumerate(self.seats) if seat.kind is SeatKind.HUMAN]

    def anyone_seated_here(self) -> bool:
        """Whether any person seated at the table has a connection to it."""
        return any(self.connected(person) for person in self.humans())

    def public(self, clock: float) -> dict[str, Any]:
        """What anyone with the table's link may know about it (never the seed)."""
        connected = {conn.seat for conn in self.conns if conn.seat is not None}
        away = {
            number
            for number, seat in enumerate(self.seats)
            if seat.kind is SeatKind.HUMAN and number not in connected
        }
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
                    "away": number in away,
                    "stand_in": number in away and self.stood_in_for(number, clock),
                }
                for number, seat in enumerate(self.seats)
            ],
            "options": {
                "kind": self.options.kind,
                "preset": self.options.preset,
                "seats": len(self.seats),
                "bots": self.options.bots,
                "turn_seconds": self.options.turn_seconds,
                "away_seconds": self.options.away_seconds,
                "rules": self.options.rules,
                "phase_sequence": self.phase_texts,
                "rules_text": self.rules_text,
                "public": self.options.public,
                "seeded": self.options.seed is not None,
            },
            "record_id": self.record_id,
            "turn_left": None if self.deadline is None else max(0.0, self.deadline - clock),
            "rematch": sorted(self.rematch),
            "last_game": self.last_game,
        }

    def stood_in_for(self, seat: int, clock: float) -> bool:
        """Whether a stand-in plays this away person's turns (away ``away_seconds``)."""
        seconds = self.options.away_seconds
        since = self.away_since.get(seat)
        return bool(seconds) and since is not None and clock - since >= seconds


def state_message(table: LiveTable, seat: int | None, clock: float) -> dict[str, Any]:
    """The ``state`` message for one viewer: the public table, their view, their log."""
    if table.is_dice:
        dice = table.dice
        return {
            "type": "state",
            "version": table.version,
            "you": seat,
            "table": table.public(clock),
            "view": None,
            "log": [] if dice is None else dice_log(dice, table.names, LOG_LINES),
            "legal": None,
            "progress": None,
            "dice": None if dice is None else dice_block(dice, seat),
        }
    game = table.game
    return {
        "type": "state",
        "version": table.version,
        "you": seat,
        "table": table.public(clock),
        "view": None if game is None else _view_dict(table, game, seat),
        "log": [] if game is None else _log_lines(table, game, seat),
        "last_move": None if game is None else _last_move(table, game, seat),
        "legal": None if game is None or seat is None else _legal(table, game, seat),
        "progress": None if game is None or seat is None else _progress(table, game, seat),
    }


def _legal(table: LiveTable, game: Game, seat: int) -> dict[str, Any] | None:
    """The seat's legal block, worked out once per version (phase10.server.legal)."""
    cached = table.legal.get(seat)
    if cached is None or cached[0] != table.version:
        cached = table.legal[seat] = (
            table.version,
            legal_block(PlayerView.of(game, seat, history=False)),
        )
    return cached[1]


def _progress(table: LiveTable, game: Game, seat: int) -> dict[str, Any] | None:
    """The seat's progress, worked out again only when what it depends on changed."""
    view = PlayerView.of(game, seat, history=False)
    info = view.seats[seat]
    key = (view.hand, info.laid, view.allowed_phases(seat), view.stage is Stage.DECLARE)
    cached = table.progress.get(seat)
    if cached is None or cached[0] != key:
        cached = table.progress[seat] = (key, progress_block(view))
    return cached[1]


def _last_move(table: LiveTable, game: Game, viewer: int | None) -> dict[str, object] | None:
    """The hand's last move, as this viewer may know it, for the table to mark."""
    moved = last_move(game.history, table.names, viewer)
    return None if moved is None else moved.to_dict()


def _log_lines(table: LiveTable, game: Game, viewer: int | None) -> list[str]:
    """The last lines of the game's narration for one viewer, narrated when first asked for
    (a table without spectators never narrates for one)."""
    entry = table.logs.get(viewer)
    if entry is None:
        # a seated player reads "You draw R2"; a spectator reads every seat by name
        narration = EventLog(table.names, table.rules, viewer=viewer, you=viewer, verbose=True)
        entry = (narration, 0)
    event_log, read = entry
    if read < len(game.history):
        # fed in runs of events played by the same hand (a person, or a stand-in for one),
        # so that one action's events are told together ("discards Y1 and goes out")
        number = read
        while number < len(game.history):
            seat = table.marked.get(number)
            end = number + 1
            while end < len(game.history) and table.marked.get(end) == seat:
                end += 1
            event_log.feed(game.history[number:end], stand_in_for=seat)
            number = end
        del event_log.lines[:-LOG_LINES]
    table.logs[viewer] = (event_log, len(game.history))
    return event_log.lines


def _view_dict(table: LiveTable, game: Game, seat: int | None) -> dict[str, Any]:
    """``game.view(seat).to_dict()``, with each event encoded once per viewer, not per message."""
    events = len(game.history) - game.hand_start
    cache = table.encoded.get(seat)
    if cache is None or cache[1] != game.hand_start or cache[2] > events:
        cache = ([], game.hand_start, 0)
    encoded, read = cache[0], cache[2]
    start = max(read, events - HISTORY_EVENTS) + game.hand_start
    encoded.extend(event_to_dict(event.seen_by(seat)) for event in game.history[start:])
    del encoded[:-HISTORY_EVENTS]
    table.encoded[seat] = (encoded, game.hand_start, events)
    data = PlayerView.of(game, seat, history=False).to_dict()
    data["history"] = list(encoded)
    results = table.results.setdefault("hands", [])
    if len(results) > len(game.hand_results):
        results.clear()
    results.extend(event_to_dict(event) for event in game.hand_results[len(results) :])
    data["hand_results"] = list(results)
    return data


def encode_state(table: LiveTable, seat: int | None, clock: float) -> str:
    return dumps(state_message(table, seat, clock))

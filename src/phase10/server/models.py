"""The HTTP API's requests and answers, and the words the server stores, as types.

Requests are read strictly (no type is converted, no unknown field is accepted); every
answer is a model, so the API's schema (``/api/openapi.json`` with ``--api-docs``) says
exactly what comes back.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from phase10.bots.registry import builtin_bot

__all__ = [
    "ActedBy",
    "BotChoice",
    "BotSpec",
    "CreateTable",
    "ErrorBody",
    "History",
    "HistoryGame",
    "JoinTable",
    "LastGame",
    "Presets",
    "PublicSeat",
    "PublicTable",
    "ReplayFrame",
    "ReplayHand",
    "SeatKind",
    "Seated",
    "TableList",
    "TableOptions",
    "TableStatus",
]


class TableStatus(StrEnum):
    """Where a table is: waiting for players, playing a game, or between games."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


class SeatKind(StrEnum):
    """Who sits in a seat: nobody yet, a person, or a bot."""

    OPEN = "open"
    HUMAN = "human"
    BOT = "bot"


class ActedBy(StrEnum):
    """Who chose a stored action: the seat's player, its bot, or the turn timer's stand-in."""

    PLAYER = "player"
    BOT = "bot"
    TIMER = "timer"
    #: the stand-in of a player away longer than the table's away_seconds
    AWAY = "away"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


#: a built-in bot (never a program), written the one way (phase10.bots.registry)
BotSpec = Annotated[str, Field(max_length=24), AfterValidator(builtin_bot)]
#: a name as sent, before phase10.core.names.check_name reads it
RawName = Annotated[str, Field(max_length=96)]
OptionName = Annotated[str, Field(max_length=40)]
OptionValue = Annotated[str, Field(max_length=200)]


class CreateTable(_Strict):
    """``POST /api/tables``: a new table, its creator in seat 0 as the host."""

    name: RawName
    seats: int = Field(2, ge=2, le=6)
    preset: Annotated[str, Field(max_length=40)] = "official"
    #: rules options on top of the preset (e.g. {"skip_target": "next"})
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=16)
    bots: BotSpec = "greedy"
    #: seconds for a turn before a stand-in plays it (0: no timer)
    turn_seconds: int = Field(0, ge=0, le=600)
    #: seconds a player may be away (no connection) before a stand-in plays their turns
    #: until they are back (0: never)
    away_seconds: int = Field(60, ge=0, le=3600)
    #: listed on the home page for anyone to join (otherwise only the invite link finds it)
    public: bool = False
    #: the deal's seed: only for a table of its host and bots (it lets the host know
    #: every hand, so nobody else may sit at it)
    seed: int | None = Field(None, ge=0, lt=2**62)


class JoinTable(_Strict):
    """``POST /api/tables/{id}/join``: take the first open seat."""

    name: RawName


class TableOptions(BaseModel):
    """A table's settings as the server keeps them (the rules already checked)."""

    model_config = ConfigDict(extra="ignore")

    preset: str
    #: every rules option (phase10.core.Rules.to_dict)
    rules: dict[str, Any]
    seats: int
    bots: str
    turn_seconds: int = 0
    away_seconds: int = 60
    public: bool = False
    seed: int | None = None


class Seated(BaseModel):
    """A seat taken: the seat's secret token and the links to the table."""

    table: str
    seat: int
    token: str
    invite: str
    link: str


class PublicSeat(BaseModel):
    seat: int
    name: str
    kind: SeatKind
    bot: str | None
    connected: bool
    #: a person with no connection now
    away: bool
    #: a stand-in plays this person's turns (away longer than away_seconds)
    stand_in: bool


class PublicOptions(BaseModel):
    preset: str
    seats: int
    bots: str
    turn_seconds: int
    away_seconds: int
    rules: dict[str, Any]
    phase_sequence: list[str]
    public: bool
    #: whether the host chose the deal's seed (the table is then the host's and bots')
    seeded: bool


class LastGame(BaseModel):
    game_no: int
    record_id: int | None
    players: list[str]
    winners: list[str]
    totals: list[int]


class PublicTable(BaseModel):
    """What anyone with a table's link may know of it (never the seed or a token)."""

    id: str
    status: TableStatus
    game_no: int
    host: int
    seats: list[PublicSeat]
    options: PublicOptions
    record_id: int | None
    turn_left: float | None
    #: the seats that asked for a rematch (the game is over)
    rematch: list[int]
    #: the last finished game at this table, kept while the next one is played
    last_game: LastGame | None


class TableList(BaseModel):
    tables: list[PublicTable]


class BotChoice(BaseModel):
    spec: str
    label: str


class Presets(BaseModel):
    """The rules presets, every option's values and the bots, for a new-table form."""

    presets: dict[str, str]
    options: dict[str, list[str]]
    bots: list[BotChoice]


class HistoryGame(BaseModel):
    id: int
    table: str
    game: int
    finished: float
    players: list[str]
    winners: list[str]
    totals: list[int]


class History(BaseModel):
    games: list[HistoryGame]


class ReplayHand(BaseModel):
    """One hand of a finished game: the steps it spans and how it ended."""

    hand: int
    #: the step (actions played) the hand starts at: its deal
    start: int
    #: the step whose action ended it (its results are shown from there)
    end: int
    #: the hand's HandEnded event as in records (points, totals, who went out, phases)
    result: dict[str, Any]


class ReplayFrame(BaseModel):
    """A finished game after its first ``step`` actions, every hand shown."""

    step: int
    total: int
    action: str | None
    #: the seat (and name) that played ``action``: taken before the action, so a Skip or
    #: a hand-ending discard names its player, not the next one
    actor: int | None
    actor_name: str | None
    view: dict[str, Any]
    hands: list[str]
    log: list[str]
    #: every hand of the game, for hand-by-hand navigation
    hand_index: list[ReplayHand]


class ErrorBody(BaseModel):
    """Every HTTP error: a code from docs/server-protocol.md and a sentence."""

    error: str
    message: str

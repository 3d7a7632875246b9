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
    "Presets",
    "PublicSeat",
    "PublicTable",
    "ReplayFrame",
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


class PublicOptions(BaseModel):
    preset: str
    seats: int
    bots: str
    turn_seconds: int
    rules: dict[str, Any]
    phase_sequence: list[str]
    public: bool
    #: whether the host chose the deal's seed (the table is then the host's and bots')
    seeded: bool


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


class ReplayFrame(BaseModel):
    """A finished game after its first ``step`` actions, every hand shown."""

    step: int
    total: int
    action: str | None
    view: dict[str, Any]
    hands: list[str]
    log: list[str]


class ErrorBody(BaseModel):
    """Every HTTP error: a code from docs/server-protocol.md and a sentence."""

    error: str
    message: str

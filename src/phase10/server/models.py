"""The HTTP API's requests and answers, and the words the server stores, as types.

Requests are read strictly (no type is converted, no unknown field is accepted); every
answer is a model, so the API's schema (``/api/openapi.json`` with ``--api-docs``) says
exactly what comes back.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from phase10.core.rules import (
    MAX_PHASES,
    Advance,
    AntiPhase,
    Deck,
    DeclareWhen,
    EmptyDrawPile,
    EndWhen,
    GivingUp,
    GoingOut,
    NaturalMin,
    PhaseOrder,
    SavedScore,
    SavePile,
    SkipTarget,
    WildDealUp,
)

from .dice import table_bot
from .formats import Cards, HandEndedData, ReviewData, RulesData, ViewData, Wire
from .protocol import HTTP_ERRORS

__all__ = [
    "ActedBy",
    "BotChoice",
    "BotSpec",
    "CreateTable",
    "ErrorBody",
    "Health",
    "History",
    "HistoryGame",
    "JoinTable",
    "LastGame",
    "OptionWords",
    "Presets",
    "PublicSeat",
    "PublicTable",
    "ReplayFrame",
    "ReplayHand",
    "ReviewState",
    "ReviewStatus",
    "RuleOptions",
    "SchemaIndex",
    "SeatKind",
    "Seated",
    "TableKind",
    "TableList",
    "TableOptions",
    "TableStatus",
    "acted_by",
    "by_tag",
]


class TableStatus(StrEnum):
    """Where a table is: waiting for players, playing a game, or between games."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


class TableKind(StrEnum):
    """The game a table plays: Phase 10 with cards, or Phase 10 Dice."""

    CARDS = "cards"
    DICE = "dice"


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

    @property
    def letter(self) -> str:
        """Its letter in a record's ``by`` tag (:func:`by_tag`)."""
        return self.value[0]


def by_tag(acted: list[str]) -> str:
    """A record's ``by`` tag: who chose each action, one letter each, in order (``p`` the
    seat's player, ``b`` its bot, ``t`` the turn timer's stand-in, ``a`` an away
    player's stand-in).

    >>> by_tag(["player", "bot", "timer", "away"])
    'pbta'
    """
    return "".join(ActedBy(by).letter for by in acted)


def acted_by(tag: str | None, step: int) -> ActedBy | None:
    """Who chose the ``step``-th action (from 1) by a record's ``by`` tag; None when the
    record does not say.

    >>> acted_by("pbta", 3), acted_by("pb", 3), acted_by(None, 1)
    (<ActedBy.TIMER: 'timer'>, None, None)
    """
    if tag is None or not 1 <= step <= len(tag):
        return None
    return next((by for by in ActedBy if by.letter == tag[step - 1]), None)


class _Strict(BaseModel):
    """A request: read strictly (no type converted, no unknown field accepted)."""

    model_config = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)


#: a built-in bot (never a program), written the one way: a card bot
#: (phase10.bots.registry) or a dice bot (phase10.bots.dice), checked with the table's kind
BotSpec = Annotated[
    str,
    Field(max_length=24, examples=["random", "greedy", "strong:1", "strong", "optimal"]),
    AfterValidator(table_bot),
]
#: a name as sent, before phase10.core.names.check_name reads it (and refuses one over 24
#: characters in its own words: this bound only keeps what it reads small)
RawName = Annotated[str, Field(max_length=1000)]
#: one phase in words, as the phrase language reads it (``1 set of 4 + 1 run of 4``)
Phrase = Annotated[str, Field(min_length=1, max_length=120)]
PhaseNumber = Annotated[int, Field(ge=1, le=MAX_PHASES)]


E = TypeVar("E", bound=StrEnum)
#: a rules option chosen by a word: read from JSON as the option's words
Word = Annotated[E | None, Field(strict=False)]


class RuleOptions(_Strict):
    """Rules options on top of the preset (docs/rules.md §8); each one left out keeps the
    preset's. A value that does not fit is refused as ``bad_rules``."""

    phase_list: (
        Annotated[str, Field(max_length=40)]
        | Annotated[list[Phrase], Field(min_length=1, max_length=MAX_PHASES)]
        | None
    ) = None
    """A shipped phase list by name (``GET /api/presets``: ``phase_lists``), or your own
    list of one to ten phrases (``["2 sets of 3", "1 run of 7"]``)."""
    phases: PhaseNumber | Annotated[list[PhaseNumber], Field(max_length=MAX_PHASES)] | None = None
    """Which phases of the list are played, by number, in order (``[2, 4, 6]``); a number N
    plays the first N; ``[]`` plays them all."""
    advance: Word[Advance] = None
    """``completed`` (official) or ``all`` (everyone advances every hand)."""
    phase_order: Word[PhaseOrder] = None
    """``sequence`` (official) or ``any``."""
    declare: Word[DeclareWhen] = None
    """With ``phase_order`` ``any``: ``laydown`` (official) or ``deal``."""
    going_out: Word[GoingOut] = None
    """``any`` (official) or ``discard``."""
    wild_deal_up: Word[WildDealUp] = None
    """``first_player`` (official) or ``dealer_chooses``."""
    skip_target: Word[SkipTarget] = None
    """``choose`` (official) or ``next``."""
    natural_min: Word[NaturalMin] = None
    """``group`` (official) or ``phase``."""
    end_when: Word[EndWhen] = None
    """``hand_end`` (official) or ``immediately``."""
    empty_draw_pile: Word[EmptyDrawPile] = None
    """``reshuffle`` (official) or ``end_hand``."""
    deck: Word[Deck] = None
    """``standard`` (official: 8 Wilds, 4 Skips), ``masters`` (8 Wilds, 2 Skips) or
    ``masters_12_wilds`` (12 Wilds, 2 Skips)."""
    save_pile: Word[SavePile] = None
    """``off`` (official), ``private`` (others see how many saved cards) or ``public``."""
    saved_score: Word[SavedScore] = None
    """``none`` (official: saved cards never score) or ``penalty``."""
    give_up: Word[GivingUp] = None
    """Masters Variant #2: ``off`` (official), ``forfeit`` or ``keep``."""
    anti_phase: Word[AntiPhase] = None
    """The Anti-phase card: ``off`` (official) or ``on`` (one in the deck; not with
    ``advance`` ``all``)."""

    def given(self) -> dict[str, Any]:
        """The options sent, as ``Rules.from_dict`` reads them."""
        return {
            name: value.value if isinstance(value, StrEnum) else value
            for name, value in self.model_dump(exclude_none=True).items()
        }


class CreateTable(_Strict):
    """``POST /api/tables``: a new table, its creator in seat 0 as the host. Only ``name``
    is needed: ``{"name": "Ann"}`` opens a private two-seat table with the official rules."""

    name: RawName
    """Your name at the table: 1-24 characters once its spaces are trimmed, with no
    control or invisible characters (`bad_name` says what is wrong with one refused)."""
    kind: Annotated[TableKind, Field(strict=False)] = TableKind.CARDS
    """``cards`` (Phase 10) or ``dice`` (Phase 10 Dice, docs/dice.md: it takes no
    ``preset`` or ``options``, and its bots are dice bots)."""
    seats: int = Field(2, ge=1, le=6)
    """How many seats, yours included (2-6; a dice table also takes 1, solitaire)."""
    preset: Annotated[str, Field(max_length=40)] = "official"
    """The rules preset (``GET /api/presets``)."""
    options: RuleOptions = Field(default_factory=RuleOptions, json_schema_extra={"default": {}})
    """Rules options on top of the preset."""
    bots: BotSpec | None = None
    """The bot for the seats still open at the start. At a card table (left out:
    ``greedy``): ``random``, ``greedy``, ``strong:1`` to ``strong:4``, ``strong`` (level
    4) or ``expert``; the spelling is read loosely (case, spaces, leading zeros) and kept one way:
    ``strong:4`` is kept as ``strong``. At a dice table (left out: ``optimal``): a dice bot,
    ``random``, ``greedy``, ``optimal``... (``GET /api/presets``: ``dice_bots``)."""
    turn_seconds: int = Field(0, ge=0, le=600)
    """Seconds for a turn before a stand-in plays it (0: no turn timer)."""
    away_seconds: int = Field(60, ge=0, le=3600)
    """Seconds a player may be away (no connection) before a stand-in plays their turns
    until they are back (0: never)."""
    public: bool = False
    """List the table on the home page and in ``GET /api/tables`` (else only its invite
    link finds it)."""
    seed: int | None = Field(None, ge=0, lt=2**62)
    """The first game's seed. The host could then know every hand, so a table with a seed
    takes no other players: it is its host's and bots'."""


class JoinTable(_Strict):
    """``POST /api/tables/{id}/join``: take the first open seat."""

    name: RawName
    """Your name at the table (unique there, in any case): 1-24 characters once its
    spaces are trimmed, with no control or invisible characters (`bad_name` says what is
    wrong with one refused)."""


class TableOptions(BaseModel):
    """A table's settings as the server keeps them (the rules already checked)."""

    model_config = ConfigDict(extra="ignore")

    preset: str
    #: every rules option (phase10.core.Rules.to_dict); a dice table keeps the defaults
    rules: dict[str, Any]
    #: a table stored before dice tables existed plays cards
    kind: TableKind = TableKind.CARDS
    seats: int
    bots: str
    turn_seconds: int = 0
    away_seconds: int = 60
    public: bool = False
    seed: int | None = None


_Answer = Wire


class Seated(_Answer):
    """A seat taken: its secret token and the links to the table."""

    table: str
    """The table's id."""
    seat: int
    """Your seat, from 0."""
    token: str
    """The seat's secret token (32 characters): send it in ``hello`` to sit."""
    invite: str
    """The invite link, ``/t/TABLE``, for others to join or watch."""
    link: str
    """Your seat link, ``/t/TABLE#token=TOKEN``: it rejoins the seat from any device."""


class PublicSeat(_Answer):
    """One seat of a table."""

    seat: int
    """Its number, from 0."""
    name: str
    """Its player's name (empty while the seat is open)."""
    kind: SeatKind
    """``open``, ``human`` or ``bot``."""
    bot: str | None
    """The bot playing it, or null."""
    connected: bool
    """Whether its player has a connection open now."""
    away: bool
    """A person with no connection now."""
    stand_in: bool
    """A stand-in plays this person's turns (away longer than ``away_seconds``)."""


class PublicOptions(_Answer):
    """A table's settings (never its seed)."""

    kind: TableKind
    """``cards`` or ``dice`` (Phase 10 Dice: the state's ``dice`` holds its game)."""
    preset: str
    """The rules preset."""
    seats: int
    """How many seats."""
    bots: str
    """The bot for open seats, written one way (``strong`` is level 4)."""
    turn_seconds: int
    """Seconds for a turn (0: no timer)."""
    away_seconds: int
    """Seconds away before a stand-in plays (0: never)."""
    rules: RulesData
    """Every rules option, the preset's and the table's own together."""
    phase_sequence: list[str]
    """The phases played, in order, as phrases (a dice table: the ten dice phases)."""
    rules_text: list[str]
    """The rules in play as sentences, one per option (``phase10.core.rules_text``)."""
    public: bool
    """Whether the table is listed publicly."""
    seeded: bool
    """Whether the host chose the deal's seed (the table is then the host's and bots')."""


class LastGame(_Answer):
    """The last finished game at a table."""

    game_no: int
    """Its number at the table, from 1."""
    record_id: int | None
    """Its record's id (``GET /api/records/{id}``)."""
    players: list[str]
    """The players' names, in seat order."""
    winners: list[int]
    """The winning seats."""
    winner_names: list[str]
    """The winners' names."""
    totals: list[int]
    """Each seat's final total."""


class PublicTable(_Answer):
    """What anyone with a table's link may know of it (never the seed or a token)."""

    id: str
    """The table's id."""
    status: TableStatus
    """``lobby`` (waiting for players), ``playing`` or ``over``."""
    game_no: int
    """The game's number at this table (0 in the lobby)."""
    host: int
    """The host's seat."""
    seats: list[PublicSeat]
    """Every seat, in order."""
    options: PublicOptions
    """The table's settings."""
    record_id: int | None
    """The finished game's record id; null while a game is on."""
    turn_left: float | None
    """Seconds left before the stand-in plays the turn, when the turn timer is on."""
    rematch: list[int]
    """The seats that asked for a rematch (the game is over)."""
    last_game: LastGame | None
    """The last finished game at this table, kept while the next one is played; null
    before the first ends."""


class TableList(_Answer):
    """``GET /api/tables``."""

    tables: list[PublicTable]
    """The public tables with an open seat, at most 50."""


class BotChoice(_Answer):
    """A built-in bot."""

    spec: str
    """How to name it in ``bots``."""
    label: str
    """How to show it."""


class OptionWords(_Answer):
    """A rules option in words, as a form asks it."""

    label: str
    """The question (``Anti-phase card``)."""
    values: dict[str, str]
    """Each of its words, in words (``on``: ``one in the deck``)."""


class Presets(_Answer):
    """The rules presets, every option's values, the phase lists and the bots."""

    presets: dict[str, str]
    """Each preset's name and a line on it."""
    options: dict[str, list[str]]
    """Each rules option chosen by a word, with its words (the first is the official)."""
    labels: dict[str, OptionWords]
    """Each option of ``options`` in words, for a form to show instead of the words sent."""
    phase_lists: dict[str, list[str]]
    """Each shipped phase list by name, with its phrases (``phase_list`` names one, or
    sends phrases of its own)."""
    bots: list[BotChoice]
    """The built-in bots of card tables, weakest first (the default's label says so)."""
    bot: str
    """The bot a new card table gets when ``bots`` is left out."""
    dice_bots: list[BotChoice]
    """The dice bots of dice tables, weakest first (the default's label says so)."""
    dice_bot: str
    """The dice bot a new dice table gets when ``bots`` is left out."""


class HistoryGame(_Answer):
    """A finished game."""

    id: int
    """Its record's id (``GET /api/records/{id}``)."""
    kind: TableKind
    """``cards``, or ``dice`` (no step-by-step replay: its record only)."""
    table: str | None
    """The table it was played at, when that table is listed publicly (None: a private
    table, whose id is its invitation)."""
    game: int
    """Its number at the table."""
    finished: str
    """When it ended, ISO 8601 in UTC (``2026-01-31T20:15:00+00:00``)."""
    players: list[str]
    """The players' names, in seat order."""
    winners: list[int]
    """The winning seats."""
    winner_names: list[str]
    """The winners' names."""
    totals: list[int]
    """Each seat's final total."""


class History(_Answer):
    """``GET /api/history``."""

    games: list[HistoryGame]
    """The last 100 finished games, newest first."""


class ReplayHand(_Answer):
    """One hand of a finished game: the steps it spans and how it ended."""

    hand: int
    """The hand's number, from 1."""
    start: int
    """The step (actions played) the hand starts at: its deal."""
    end: int
    """The step whose action ended it (its results are shown from there)."""
    result: HandEndedData
    """The hand's ``HandEnded`` event (points, totals, who went out, phases)."""


class ReplayFrame(_Answer):
    """A finished game after its first ``step`` actions, every hand shown."""

    step: int
    """How many actions were played (0: the first deal)."""
    total: int
    """How many actions the game has."""
    action: str | None
    """The ``step``-th action, or null at step 0."""
    actor: int | None
    """The seat that played ``action``: taken before it, so a Skip or a hand-ending discard
    names its player, not the next one."""
    actor_name: str | None
    """That seat's name."""
    by: ActedBy | None
    """Who chose ``action``: ``player``, ``bot``, ``timer`` or ``away`` (a stand-in for a
    person); null at step 0."""
    view: ViewData
    """The spectator's view of the table then."""
    hands: list[Cards]
    """Every seat's hand then, in seat order."""
    log: list[str]
    """The game's last 40 lines of story."""
    hand_index: list[ReplayHand]
    """Every hand of the game, for hand-by-hand navigation."""
    review_player: int
    """The seat a review of this game is of when none is named: the game's one person, by
    its ``controllers`` tag, else the player named "You", else seat 0."""


class ReviewState(StrEnum):
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class ReviewStatus(_Answer):
    """A game review's progress (``POST`` or ``GET /api/records/{id}/review?player=N``)."""

    record: int
    """The finished game's record id."""
    player: int
    """The reviewed seat."""
    state: ReviewState
    """``running``, ``done`` (``review`` holds it) or ``failed`` (``error`` says why)."""
    done: int
    """The player's decisions weighed so far."""
    total: int
    """Their decisions in all (0 while the count is not known yet)."""
    review: ReviewData | None
    """The review, once done."""
    error: str | None
    """Why the review failed, in words; null otherwise."""


class ErrorBody(_Answer):
    """Every HTTP error."""

    error: Annotated[str, Field(json_schema_extra={"enum": list(HTTP_ERRORS)})]
    """The error's code (docs/server-protocol.md lists each with its status)."""
    message: str
    """What went wrong, in plain English; repeats at most a short excerpt of what was
    sent."""


class Health(_Answer):
    """``GET /healthz``."""

    ok: bool
    """Always true."""
    tables: int
    """How many tables the server holds in memory."""


class SchemaIndex(_Answer):
    """``GET /api/schemas``."""

    protocol: int
    """The protocol's version (the ``welcome`` message says the same)."""
    schemas: dict[str, str]
    """Each schema's name and its path (``/api/schemas/{name}.json``)."""

"""The engine's JSON forms that the server sends, as types: the rules, groups, events, a
player's view and a game record.

The engine writes these forms itself (``Rules.to_dict``, ``event_to_dict``,
``PlayerView.to_dict``, ``GameRecord.to_dict``); the models here say exactly what each
holds, so that the protocol's schemas (``docs/schemas/server/``) and field tables
(docs/server-protocol.md) describe them, and the tests check every message sent against
them. Cards are written as in records: ``R7`` (a colour letter R, B, G or Y and a
number 1-12), ``W`` (a Wild) and ``S`` (a Skip); several cards as one text, ``"R7 B7 W"``.
Seats are numbers from 0, phases numbers from 1.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from phase10.core import Color, GroupKind, Parity, Stage
from phase10.core.rules import (
    Advance,
    DeclareWhen,
    EmptyDrawPile,
    EndWhen,
    GoingOut,
    NaturalMin,
    PhaseOrder,
    SkipTarget,
    WildDealUp,
)

__all__ = [
    "CARD",
    "Card",
    "Cards",
    "Event",
    "GroupData",
    "RecordData",
    "RulesData",
    "SeatData",
    "TableGroup",
    "ViewData",
]

#: one card as text
CARD = r"(?:[RBGY](?:1[0-2]|[1-9])|W|S)"
Card = Annotated[str, Field(pattern=f"^{CARD}$")]
#: cards as one text, separated by single spaces (empty: no cards)
Cards = Annotated[str, Field(pattern=f"^(?:{CARD}(?: {CARD})*)?$")]
Seat = Annotated[int, Field(ge=0, le=5)]
PhaseNumber = Annotated[int, Field(ge=1, le=10)]


class Wire(BaseModel):
    """What the server sends: every field documented, nothing more accepted. The server
    builds these from the engine's dicts (enums as their words); the tests read what was
    sent strictly (``validate_json(text, strict=True)``): no type converted."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class RulesData(Wire):
    """Every rules option (``Rules.to_dict()``; docs/rules.md §8)."""

    phase_list: list[str] = Field(min_length=1, max_length=10)
    """The full phase list, one phrase per phase (``2 sets of 3``)."""
    phases: list[PhaseNumber] = Field(max_length=10)
    """The phases of ``phase_list`` played, by number, in order; empty: every one."""
    advance: Advance
    """Who advances after a hand: ``completed`` (those who laid their phase) or ``all``."""
    phase_order: PhaseOrder
    """``sequence`` (phases in order) or ``any`` (any phase not yet completed)."""
    declare: DeclareWhen
    """With phases in any order: name the phase after the ``deal`` or on ``laydown``."""
    going_out: GoingOut
    """``any`` way of emptying the hand, or only by a ``discard``."""
    wild_deal_up: WildDealUp
    """A Wild turned up at the deal: the ``first_player`` may take it, or the
    ``dealer_chooses`` who gets it."""
    skip_target: SkipTarget
    """A Skip names whom it skips (``choose``) or skips the ``next`` player."""
    natural_min: NaturalMin
    """A numbered card needed in every ``group``, or once per ``phase``."""
    end_when: EndWhen
    """The game ends at the ``hand_end`` or ``immediately`` when a lone player lays the last
    phase."""
    empty_draw_pile: EmptyDrawPile
    """``reshuffle`` the discard pile, or ``end_hand`` as if nobody went out."""


class GroupData(Wire):
    """A group of cards as it lies (``group_to_dict``)."""

    kind: GroupKind
    """``set``, ``run``, ``color``, ``even_odd``, ``color_run`` or ``color_even_odd``."""
    cards: Cards
    """The cards, in the group's order (a run from its low end)."""
    number: int | None
    """A set's number (null for other kinds)."""
    low: int | None
    """A run's lowest number, Wilds counted (null for other kinds)."""
    color: Color | None
    """A colour group's colour letter (null for other kinds)."""
    parity: Parity | None
    """An even-or-odd group's parity (null for other kinds)."""


class TableGroup(Wire):
    """A group on the table; its id is its index in ``melds``."""

    owner: Seat
    """The seat that laid it down."""
    group: GroupData
    """The group."""
    text: str
    """The group in words, every Wild with its value: ``set of 7s (R7 B7 W=7)``."""


class SeatData(Wire):
    """One seat as every player may know it."""

    name: str
    """The player's name."""
    hand_size: int
    """How many cards the player holds."""
    score: int
    """The player's total so far (points left in hand, added up)."""
    phase: int
    """The phase the player is on: its position in ``phase_sequence``, from 1 (one past
    the last when every phase is done)."""
    completed: list[int]
    """The positions in ``phase_sequence`` (from 1) completed."""
    laid: int | None
    """The phase laid down this hand (from 1), or null."""
    declared: int | None
    """The phase declared for this hand (masters), or null."""
    pending_skip: bool
    """Whether the player's next turn will be skipped."""
    floating: bool
    """Whether the player's hand emptied by hits or a lay-down (floating: they must still
    discard to go out)."""


class _Event(Wire):
    pass


class HandStartedData(_Event):
    """A hand was dealt."""

    type: Literal["HandStarted"]
    hand: int
    """The hand's number, from 1."""
    dealer: Seat
    """The dealer's seat."""
    players: list[Seat]
    """The seats that play this hand (the tied players only, in a tie-break hand)."""
    first_player: Seat
    """Who moves first."""
    discard_top: Card
    """The card turned up to start the discard pile."""
    tie_break: bool
    """Whether this is a tie-break hand."""


class DealtData(_Event):
    """A player's dealt hand: the cards only for that player (null for anyone else)."""

    type: Literal["Dealt"]
    player: Seat
    """The seat dealt to."""
    cards: list[Card] | None
    """The ten cards, or null when they are not yours."""


class DeclaredData(_Event):
    """A player named the phase they attempt this hand (masters)."""

    type: Literal["Declared"]
    player: Seat
    """The seat."""
    phase: PhaseNumber
    """The phase, from 1."""


class WildGivenData(_Event):
    """The dealer gave the turned-up Wild to a player (wild deal-up)."""

    type: Literal["WildGiven"]
    dealer: Seat
    """The dealer."""
    player: Seat
    """Who got it."""


class ReshuffledData(_Event):
    """The discard pile, all but its top card, became a new draw pile."""

    type: Literal["Reshuffled"]
    cards: int
    """How many cards the new draw pile holds."""


class DrewData(_Event):
    """A player drew from the draw pile."""

    type: Literal["Drew"]
    player: Seat
    """The seat."""
    card: Card | None
    """The card, or null when it is not yours."""


class TookDiscardData(_Event):
    """A player took the top discard."""

    type: Literal["TookDiscard"]
    player: Seat
    """The seat."""
    card: Card
    """The card taken."""


class LaidDownData(_Event):
    """A player laid down a phase."""

    type: Literal["LaidDown"]
    player: Seat
    """The seat."""
    phase: PhaseNumber
    """The phase laid, from 1 (its number in the phase list)."""
    groups: list[GroupData]
    """Its groups."""
    group_ids: list[int]
    """Each group's id on the table (its index in ``melds``)."""


class CardHitData(_Event):
    """A player put a card on a table group."""

    type: Literal["CardHit"]
    player: Seat
    """The seat."""
    card: Card
    """The card put down."""
    group: int
    """The table group's id (its index in ``melds``)."""
    number: int | None
    """The number a Wild stands for in a run or set, else null."""
    group_after: GroupData
    """The group as it lies after the hit (a run's new ends, a Wild's value)."""


class DiscardedData(_Event):
    """A player discarded, ending their turn."""

    type: Literal["Discarded"]
    player: Seat
    """The seat."""
    card: Card
    """The card."""
    target: Seat | None
    """The seat a Skip skips when its player chose one, else null."""


class SkippedData(_Event):
    """A player's turn passed because of a pending skip."""

    type: Literal["Skipped"]
    player: Seat
    """The seat skipped."""


class FloatingData(_Event):
    """A player's hand emptied by hits or a lay-down under the floating rule."""

    type: Literal["Floating"]
    player: Seat
    """The seat."""


class WentOutData(_Event):
    """A player went out, ending the hand."""

    type: Literal["WentOut"]
    player: Seat
    """The seat."""


class HandEndedData(_Event):
    """A hand ended: its points, totals and who advanced."""

    type: Literal["HandEnded"]
    hand: int
    """The hand's number, from 1."""
    went_out: Seat | None
    """Who went out, or null (the draw pile ran out)."""
    reason: str
    """Why it ended, in words."""
    points: list[int | None]
    """Each seat's points this hand (null for a seat not in the hand)."""
    totals: list[int]
    """Each seat's total after the hand."""
    advanced: list[Seat]
    """The seats that advanced to their next phase."""
    phases_completed: list[int]
    """How many phases each seat has completed."""
    cards_left: list[int]
    """How many cards each seat held at the end."""


class TieBreakStartedData(_Event):
    """The tied players play a hand on the last phase; the first to go out wins."""

    type: Literal["TieBreakStarted"]
    players: list[Seat]
    """The tied seats."""


class GameEndedData(_Event):
    """The game is over."""

    type: Literal["GameEnded"]
    winners: list[Seat]
    """The winning seats (several only for a shared win)."""
    reason: str
    """Why they won, in words."""
    totals: list[int]
    """Each seat's final total."""


#: every event (``event_to_dict``), told apart by ``type``
Event = Annotated[
    HandStartedData
    | DealtData
    | DeclaredData
    | WildGivenData
    | ReshuffledData
    | DrewData
    | TookDiscardData
    | LaidDownData
    | CardHitData
    | DiscardedData
    | SkippedData
    | FloatingData
    | WentOutData
    | HandEndedData
    | TieBreakStartedData
    | GameEndedData,
    Field(discriminator="type"),
]


class ViewData(Wire):
    """What one seat may know of the game (``PlayerView.to_dict()``; rules §7), or what a
    spectator may (``viewer`` null: no hand)."""

    viewer: Seat | None
    """Your seat, or null for a spectator."""
    rules: RulesData
    """The game's rules."""
    phase_sequence: list[str]
    """The phases played, in order, as phrases (``phases`` picked from ``phase_list``)."""
    stage: Stage
    """What the game waits for: ``give_wild``, ``wild_discard``, ``declare``, ``draw``,
    ``play`` or ``game_over``."""
    current: Seat
    """The seat to move."""
    dealer: Seat
    """The dealer of this hand."""
    hand_number: int
    """This hand's number, from 1."""
    players_in_hand: list[Seat]
    """The seats that play this hand."""
    tie_break: bool
    """Whether this is a tie-break hand."""
    hand: Cards
    """Your cards (empty for a spectator)."""
    seats: list[SeatData]
    """Every seat, in seat order."""
    melds: list[TableGroup]
    """The groups on the table; a group's id is its index here."""
    discard_pile: Cards
    """The discard pile, bottom first (its last card is the top)."""
    draw_size: int
    """How many cards the draw pile holds."""
    history: list[Event]
    """This hand's events so far, as you may know them."""
    hand_results: list[HandEndedData]
    """Every finished hand's ``HandEnded`` event, in order."""
    winners: list[Seat]
    """The winning seats once the game is over, else empty."""


class ArrangementData(Wire):
    """An arranged deal (a record of a set-up position)."""

    hands: list[Cards]
    """Each seat's hand."""
    discard: Cards
    """The discard pile."""
    draw: Cards
    """The draw pile, top first."""
    phases: list[int] | None
    """Each seat's phase, or null."""
    scores: list[int] | None
    """Each seat's score, or null."""


class RecordResult(Wire):
    """A finished game's result."""

    winners: list[Seat] | None
    """The winning seats."""
    totals: list[int]
    """Each seat's final total."""


class RecordData(Wire):
    """A game record (``GameRecord.to_dict()``): replaying its actions from its seed gives
    the game back exactly."""

    format: Literal["phase10-record"]
    """Always ``phase10-record``."""
    version: Literal[1]
    """The record format's version."""
    date: str | None
    """When the game ended, ISO 8601 in UTC (``2026-01-31T20:15:00+00:00``)."""
    players: list[str]
    """The players' names, in seat order."""
    rules: RulesData
    """The rules."""
    seed: int
    """The seed the game was dealt from."""
    dealer: Seat
    """The first hand's dealer."""
    arrangement: ArrangementData | None
    """An arranged deal, or null."""
    actions: list[str]
    """Every action in its text form, in order (``draw``, ``discard R7``)."""
    result: RecordResult | None
    """The result, or null for an unfinished game."""
    tags: dict[str, str]
    """Name and value pairs about the game; the server writes ``controllers`` (who played
    each seat: ``human`` or a bot), ``table``, ``game`` (its number at the table) and
    ``stand_ins`` (see below)."""

"""The engine's JSON forms as types: the rules, groups, table groups, seats, events and a
player's view, described once for both protocols that carry them.

The engine writes these forms itself (``Rules.to_dict``, ``event_to_dict``,
``PlayerView.to_dict``); the models here say exactly what each holds. The bot protocol
(:mod:`phase10.bots.wire`, ``docs/schemas/bot/``, docs/bot-protocol.md) and the server
protocol (``phase10.server``, ``docs/schemas/server/``, docs/server-protocol.md) both
build their schemas and field tables from them, and the tests check every message the
engine sends against them. Cards are written as in records: ``R7`` (a colour letter R, B, G or Y and a
number 1-12), ``W`` (a Wild), ``S`` (a Skip) and ``A`` (the Anti-phase card); several cards as one text, ``"R7 B7 W"``.
Seats are numbers from 0, phases numbers from 1.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from phase10.core import Color, GroupKind, Parity, Stage
from phase10.core.codec import EVENT_READERS
from phase10.core.rules import (
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

__all__ = [
    "CARD",
    "EVENTS",
    "Card",
    "CardHitData",
    "Cards",
    "DealtData",
    "DeclaredData",
    "DiscardedData",
    "DrewData",
    "Event",
    "FloatingData",
    "GameEndedData",
    "GaveUpData",
    "GroupData",
    "HandEndedData",
    "HandStartedData",
    "LaidDownData",
    "MovedDownData",
    "PhaseNumber",
    "RefilledData",
    "ReshuffledData",
    "RulesData",
    "SavedData",
    "Seat",
    "SeatData",
    "SkippedData",
    "TableGroup",
    "TieBreakStartedData",
    "TookDiscardData",
    "TookSavedData",
    "ViewData",
    "WentOutData",
    "WildGivenData",
    "Wire",
]

#: one card as text
CARD = r"(?:[RBGY](?:1[0-2]|[1-9])|W|S|A)"
Card = Annotated[str, Field(pattern=f"^{CARD}$")]
#: cards as one text, separated by single spaces (empty: no cards)
Cards = Annotated[str, Field(pattern=f"^(?:{CARD}(?: {CARD})*)?$")]
Seat = Annotated[int, Field(ge=0, le=5)]
PhaseNumber = Annotated[int, Field(ge=1, le=10)]
#: a position in ``phase_sequence``, from 1 (one past the last once every phase is done)
Position = Annotated[int, Field(ge=1)]
#: a card's number, 1-12
Number = Annotated[int, Field(ge=1, le=12)]


class Wire(BaseModel):
    """What the engine sends: every field documented, nothing more accepted, so the tests
    catch a field the documentation does not tell. The server builds these from the
    engine's dicts (enums as their words); its tests read what was sent strictly
    (``validate_json(text, strict=True)``): no type converted."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class RulesData(Wire):
    """Every rules option (``Rules.to_dict()``; docs/rules.md §8), each always written;
    "the default" marks the value of ``Rules()``."""

    phase_list: list[str] = Field(min_length=1, max_length=10)
    """The full phase list, one phrase per phase (``2 sets of 3``)."""
    phases: list[PhaseNumber] = Field(max_length=10)
    """The phases of ``phase_list`` played, by number, in order; empty: every one."""
    advance: Advance
    """Who advances after a hand: ``completed`` (those who laid their phase;
    the default) or ``all``."""
    phase_order: PhaseOrder
    """``sequence`` (phases in order, the default) or ``any`` (any phase not yet
    completed)."""
    declare: DeclareWhen
    """With phases in any order: name the phase after the ``deal`` or on ``laydown`` (the
    default)."""
    going_out: GoingOut
    """``any`` way of emptying the hand (the default), or only by a ``discard``."""
    wild_deal_up: WildDealUp
    """A Wild turned up at the deal: the ``first_player`` may take it (the default), or
    the ``dealer_chooses`` who gets it."""
    skip_target: SkipTarget
    """A Skip names whom it skips (``choose``, the default) or skips the ``next``
    player."""
    natural_min: NaturalMin
    """A numbered card needed in every ``group`` (the default), or once per ``phase``."""
    end_when: EndWhen
    """The game ends at the ``hand_end`` (the default) or ``immediately`` when a lone player
    lays the last phase."""
    empty_draw_pile: EmptyDrawPile
    """``reshuffle`` the discard pile (the default), or ``end_hand`` as if nobody went
    out."""
    deck: Deck
    """The deck: ``standard`` (8 Wilds, 4 Skips; the default), ``masters`` (8 Wilds,
    2 Skips) or ``masters_12_wilds`` (12 Wilds, 2 Skips)."""
    save_pile: SavePile
    """Save piles: ``off`` (the default), ``private`` (others see how many cards, not
    which) or ``public``."""
    saved_score: SavedScore
    """Saved cards at a hand's end: ``none`` (they never score; the default) or
    ``penalty`` (they score like cards in hand)."""
    give_up: GivingUp
    """Masters Variant #2: ``off`` (the default), ``forfeit`` (a laid phase may be given
    up and does not count) or ``keep`` (given up, it still counts)."""
    anti_phase: AntiPhase
    """The Anti-phase card: ``off`` (the default) or ``on`` (one in the deck; go out with it
    to move a player down a phase)."""


class GroupData(Wire):
    """A group of cards as it lies (``group_to_dict``)."""

    kind: GroupKind
    """``set``, ``run``, ``color``, ``even_odd``, ``color_run`` or ``color_even_odd``."""
    cards: Cards
    """The cards, in the group's order (a run from its low end)."""
    number: Number | None
    """A set's number (null for other kinds)."""
    low: Number | None
    """A run's lowest number, Wilds counted (null for other kinds)."""
    color: Color | None
    """A colour group's colour letter (null for other kinds)."""
    parity: Parity | None
    """An even-or-odd group's parity (null for other kinds)."""


class TableGroup(Wire):
    """A group on the table; its id is its index in ``melds`` (``g0``, ``g1``, ... in an
    action's text)."""

    owner: Seat
    """The seat that laid it down."""
    group: GroupData
    """The group."""
    text: str
    """The group as a lay-down writes it (``G3 G4 W G6``): no Wild value its place
    implies."""
    faces: str
    """The group as the table shows it, each Wild in a run with the number its place gives
    it (``G3 G4 W=5 G6``); in a set or a colour group a Wild stays ``W``, its value the
    group's own (``group``)."""


class SeatData(Wire):
    """One seat as every player may know it."""

    name: str
    """The player's name."""
    hand_size: int = Field(ge=0)
    """How many cards the player holds (never which)."""
    score: int = Field(ge=0)
    """The player's total so far (points left in hand, added up; lower is better)."""
    phase: Position
    """The phase the player is on: its position in ``phase_sequence``, from 1 (one past
    the last when every phase is done)."""
    completed: list[Position]
    """The positions in ``phase_sequence`` (from 1) completed."""
    laid: Position | None
    """The phase laid down this hand (from 1), or null."""
    declared: Position | None
    """The phase declared for this hand (masters), or null."""
    pending_skip: bool
    """Whether the player's next turn will be skipped."""
    floating: bool
    """Whether the player's hand emptied by hits or a lay-down (floating, with
    ``going_out`` = ``discard``: they must still discard to go out)."""
    saved_count: int = Field(ge=0)
    """How many cards the player's save pile holds."""
    saved: Cards | None
    """The save pile's cards, oldest first, when save piles are public; else null."""
    saved_this_hand: bool
    """Whether the player has saved a card this hand (once per hand)."""
    gave_up: bool
    """Whether the player has given up a laid phase this hand (Variant #2)."""
    refill: bool
    """Whether the player gave up their phase this turn (they end it with a discard or a
    save, then draw back up to ten)."""


class _Event(Wire):
    pass


class HandStartedData(_Event):
    """A hand was dealt."""

    type: Literal["HandStarted"]
    hand: int = Field(ge=1)
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
    cards: int = Field(ge=0)
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
    group: int = Field(ge=0)
    """The table group's id (its index in ``melds``)."""
    number: Number | None
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
    """The seat a Skip skips when its player chose one, or the seat the Anti-phase card moves
    down when it was the last card, else null."""


class SavedData(_Event):
    """A player ended the turn by saving a card on their save pile."""

    type: Literal["Saved"]
    player: Seat
    """The seat."""
    card: Card | None
    """The card, or null when it is not yours and save piles are private."""
    public: bool
    """Whether save piles are public (everyone sees the card)."""


class TookSavedData(_Event):
    """A player took a card back from their save pile instead of drawing."""

    type: Literal["TookSaved"]
    player: Seat
    """The seat."""
    card: Card | None
    """The card, or null when it is not yours and save piles are private."""
    public: bool
    """Whether save piles are public (everyone sees the card)."""


class GaveUpData(_Event):
    """A player gave up their laid phase (Variant #2)."""

    type: Literal["GaveUp"]
    player: Seat
    """The seat."""
    phase: PhaseNumber
    """The phase given up, from 1."""
    group_ids: list[int]
    """The ids the groups had; they left the table and the later groups moved down."""
    cards: int = Field(ge=0)
    """How many cards went to the bottom of the discard pile."""


class MovedDownData(_Event):
    """At a hand's end a player moved down a phase (the Anti-phase card)."""

    type: Literal["MovedDown"]
    player: Seat
    """The seat that moved down."""
    phase: PhaseNumber | None
    """The completed phase they lost, from 1; null when they had none."""
    named_by: Seat | None
    """Who went out with the Anti-phase card and named them; null: they held the card."""


class RefilledData(_Event):
    """After giving up a phase, a player drew back up to ten cards."""

    type: Literal["Refilled"]
    player: Seat
    """The seat."""
    count: int = Field(ge=0)
    """How many cards they drew."""
    cards: list[Card] | None
    """The cards, or null when they are not yours."""


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
    hand: int = Field(ge=1)
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
    moved_down: list[Seat] = []
    """The seats that moved down a phase (the Anti-phase card), in the order they did."""


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
    | SavedData
    | TookSavedData
    | GaveUpData
    | RefilledData
    | MovedDownData
    | SkippedData
    | FloatingData
    | WentOutData
    | HandEndedData
    | TieBreakStartedData
    | GameEndedData,
    Field(discriminator="type"),
]
#: every event's model, by its ``type`` (phase10/core/events.py)
EVENTS: dict[str, type[Wire]] = {
    "HandStarted": HandStartedData,
    "Dealt": DealtData,
    "Declared": DeclaredData,
    "WildGiven": WildGivenData,
    "Reshuffled": ReshuffledData,
    "Drew": DrewData,
    "TookDiscard": TookDiscardData,
    "LaidDown": LaidDownData,
    "CardHit": CardHitData,
    "Discarded": DiscardedData,
    "Saved": SavedData,
    "TookSaved": TookSavedData,
    "GaveUp": GaveUpData,
    "Refilled": RefilledData,
    "MovedDown": MovedDownData,
    "Skipped": SkippedData,
    "Floating": FloatingData,
    "WentOut": WentOutData,
    "HandEnded": HandEndedData,
    "TieBreakStarted": TieBreakStartedData,
    "GameEnded": GameEndedData,
}
assert set(EVENTS) == set(EVENT_READERS), "every event the core reads has its model"


class ViewData(Wire):
    """What one seat may know of the game (``PlayerView.to_dict()``; rules §7), or what a
    spectator may (``viewer`` null: no hand)."""

    viewer: Seat | None
    """Your seat, or null for a spectator (a bot always gets its own)."""
    rules: RulesData
    """The game's rules."""
    phase_sequence: list[str]
    """The phases played, in order, as phrases (``phases`` picked from ``phase_list``):
    phase N is entry N-1."""
    stage: Stage
    """What the game waits for: ``give_wild``, ``wild_discard``, ``declare``, ``draw``,
    ``play`` or ``game_over`` (a bot is never asked then)."""
    current: Seat
    """The seat to move."""
    dealer: Seat
    """The dealer of this hand."""
    hand_number: int = Field(ge=1)
    """This hand's number, from 1."""
    players_in_hand: list[Seat]
    """The seats that play this hand."""
    tie_break: bool
    """Whether this is a tie-break hand (rules §5)."""
    hand: Cards
    """Your cards (empty for a spectator)."""
    seats: list[SeatData]
    """Every seat, in seat order."""
    melds: list[TableGroup]
    """The groups on the table; a group's id is its index here."""
    discard_pile: Cards
    """The discard pile, bottom first (its last card is the top)."""
    draw_size: int = Field(ge=0)
    """How many cards the draw pile holds."""
    history: list[Event]
    """This hand's events so far, as you may know them."""
    hand_results: list[HandEndedData]
    """Every finished hand's ``HandEnded`` event, in order."""
    winners: list[Seat]
    """The winning seats once the game is over, else empty."""
    saved: Cards
    """Your save pile, oldest first (empty for a spectator or without save piles)."""

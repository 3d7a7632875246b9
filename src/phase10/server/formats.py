"""The game record the server keeps and serves, and a game's review, as types; the engine's other forms it sends
(the rules, groups, events, a player's view) are described once, in
:mod:`phase10.bots.formats`, for both protocols, and named here again for the server.

A record is written by ``GameRecord.to_dict()``; the model says exactly what it holds, so
that ``docs/schemas/server/record.json`` and docs/server-protocol.md describe it and the
tests check every record served against it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from phase10.bots.formats import (
    CARD,
    Card,
    Cards,
    Event,
    GroupData,
    HandEndedData,
    PhaseNumber,
    RulesData,
    Seat,
    SeatData,
    TableGroup,
    ViewData,
    Wire,
)

__all__ = [
    "CARD",
    "ArrangementData",
    "Card",
    "Cards",
    "DiceRecordData",
    "DiceSetupData",
    "Event",
    "GroupData",
    "HandEndedData",
    "PhaseNumber",
    "RecordData",
    "RecordResult",
    "ReviewData",
    "ReviewDecision",
    "ReviewHand",
    "ReviewOutcome",
    "ReviewPoint",
    "RulesData",
    "Seat",
    "SeatData",
    "TableGroup",
    "ViewData",
    "Wire",
]


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


class DiceSetupData(Wire):
    """A dice game set up exactly (``phase10.dice.DiceSetup``; tests and examples)."""

    order: list[Seat] | None
    phases: list[int] | None
    totals: list[int] | None
    rolls: list[str]
    """The faces of the game's first rolls, in order (``R5 O5 GW``)."""


class DiceRecordData(Wire):
    """A dice game record (``phase10.dice.DiceRecord.to_dict()``, docs/dice.md): replaying
    its actions from its seed gives the game back exactly."""

    format: Literal["phase10-dice-record"]
    """Always ``phase10-dice-record``."""
    version: Literal[1]
    """The record format's version."""
    date: str | None
    """When the game ended, ISO 8601 in UTC."""
    players: list[str]
    """The players' names, in seat order."""
    seed: int
    """The seed of every roll."""
    setup: DiceSetupData | None
    """A set-up game, or null."""
    actions: list[str]
    """Every action in its text form, in order (``roll``, ``keep H1 L3``, ``score``)."""
    result: RecordResult | None
    """The result, or null for an unfinished game."""
    tags: dict[str, str]
    """Name and value pairs about the game, as a card record's."""


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
    each seat: ``human`` or a bot), ``table`` (for a listed table only: a private
    table's id is its invitation), ``game`` (its number at the table) and ``stand_ins``
    (see below)."""


#: a chance, from 0 to 1
Chance = Annotated[float, Field(ge=0.0, le=1.0)]


class ReviewOutcome(Wire):
    """What the play-outs after one move showed, on average over the deals."""

    value: float
    """The hand's end's value for the player, in the expert's units (one's own phase
    completed this hand counts 1)."""
    phase: Chance
    """The share of deals in which the player completes their phase this hand."""
    points: float
    """The player's points this hand."""
    rivals: float
    """The phases the player's opponents complete this hand, between them."""
    win: Chance
    """The player's chance to win the game, played out to its end."""
    game: float = 0.0
    """The part of ``value`` that is the game won (or lost to an opponent) this hand, in
    the same units (absent from reviews an earlier version kept: 0)."""


class ReviewDecision(Wire):
    """One decision of the reviewed player, weighed against the expert's choice."""

    step: int = Field(ge=0)
    """The actions played before it: the replay's position (``replay?step=N``)."""
    hand: int = Field(ge=1)
    """The hand it was made in."""
    kind: Literal[
        "take or draw",
        "lay down",
        "hit",
        "discard",
        "skip",
        "save",
        "give up",
        "declare",
        "give the Wild",
    ]
    """What was decided."""
    played: str
    """The move played, in words."""
    best: str
    """The expert's choice, in words (the move played when the expert agrees)."""
    choices: int = Field(ge=2)
    """How many moves were weighed."""
    after_played: ReviewOutcome
    """What followed the move played."""
    after_best: ReviewOutcome
    """What followed the expert's choice."""
    loss: float = Field(ge=0.0)
    """The value the move played gave up against the expert's choice."""
    noise: float = Field(ge=0.0)
    """The standard error of that loss, over the paired deals."""
    mistake: bool
    """Whether the loss is large enough (and beyond the noise) to count as a mistake."""
    reason: str
    """One line, in words: what the play-outs showed."""


class ReviewHand(Wire):
    """One hand of the review."""

    hand: int = Field(ge=1)
    decisions: int = Field(ge=0)
    """The player's decisions weighed in it."""
    mistakes: int = Field(ge=0)
    lost: float = Field(ge=0.0)
    """The value given up in the hand's mistakes (the other decisions' losses lie within
    the search's noise and are left out)."""
    made_phase: bool | None
    """Whether the player completed their phase (null: the hand did not end)."""
    points: int | None
    """The player's points this hand (null: the hand did not end)."""
    win_before: Chance | None
    """The player's chance to win at the hand's first decision (null: they had none this
    hand)."""
    win_after: Chance | None
    """The same at its last."""


class ReviewPoint(Wire):
    """Every seat's estimated chance to win the game, after one decision of the player."""

    step: int = Field(ge=0)
    """The actions played before that decision (the game's end: every action)."""
    hand: int = Field(ge=1)
    wins: list[Chance]
    """Each seat's chance, in seat order (at the game's end: 1 for a winner, else 0)."""


class ReviewData(Wire):
    """A review of one player's decisions in a finished game (``Review.to_dict()``,
    ``phase10.search.review``): each weighed against the expert bot's choice from the
    player's view alone."""

    format: Literal["phase10-review"]
    """Always ``phase10-review``."""
    version: Literal[1]
    """The review format's version."""
    player: Seat
    """The reviewed seat."""
    name: str
    """That player's name."""
    players: list[str]
    """Every player's name, in seat order."""
    deals: int = Field(ge=1)
    """The deals played out from each decision to the hand's end."""
    win_deals: int = Field(ge=1)
    """The deals played out from each decision to the game's end."""
    seed: int
    """The seed of the review's deals."""
    note: str
    """What the review could and could not know, in words: show it with the review."""
    decisions: list[ReviewDecision]
    """Every decision of the player that had a choice, in order."""
    mistakes: list[int]
    """The mistakes, the costliest first: indexes into ``decisions``."""
    hands: list[ReviewHand]
    """Each hand, in order."""
    chances: list[ReviewPoint]
    """Every seat's chance to win through the game, in order."""

"""The game record the server keeps and serves, as types; the engine's other forms it sends
(the rules, groups, events, a player's view) are described once, in
:mod:`phase10.bots.formats`, for both protocols, and named here again for the server.

A record is written by ``GameRecord.to_dict()``; the model says exactly what it holds, so
that ``docs/schemas/server/record.json`` and docs/server-protocol.md describe it and the
tests check every record served against it.
"""

from __future__ import annotations

from typing import Literal

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
    each seat: ``human`` or a bot), ``table``, ``game`` (its number at the table) and
    ``stand_ins`` (see below)."""

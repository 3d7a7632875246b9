"""The table-side companion: a score sheet for a game played with real cards.

The browser keeps the sheet; the server does the sums with the engine's own rules:
the points of the cards left in hand, who advances, and who has won (with the
official tie rules: the lowest total among those who completed the last phase, then
a tie-break hand between the players still tied).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from phase10.core import (
    Advance,
    CardError,
    Deck,
    PhaseOrder,
    RulesError,
    check_deck_can_hold,
    deck_counts,
    hand_points,
    parse_cards,
    preset,
)
from phase10.core.names import PlayerNameError, check_name
from phase10.core.standings import decide

from .formats import Cards, Wire

__all__ = ["Points", "PointsAnswer", "Sheet", "Standings", "router", "tally"]

router = APIRouter(prefix="/api/companion")


def _checked_name(text: str) -> str:
    try:
        return check_name(text)
    except PlayerNameError as error:
        raise ValueError(str(error)) from None


#: a player's name, read as every interface reads names (phase10.core.names)
Name = Annotated[str, StringConstraints(max_length=96), AfterValidator(_checked_name)]


class Points(BaseModel):
    """``POST /api/companion/points``: the cards left in a hand."""

    model_config = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)

    cards: Annotated[str, Field(max_length=400)]
    """The cards as one text (``R7 W S``)."""


class PointsAnswer(Wire):
    """What the cards count."""

    cards: Cards
    """The cards as read."""
    points: int
    """Their points."""


class Entry(BaseModel):
    """One player's line for one hand: the points left in hand and whether the phase was made."""

    model_config = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)

    points: int = Field(0, ge=0, le=1000)
    """The points left in hand."""
    phase: bool = False
    """Whether the player made their phase."""


class Sheet(BaseModel):
    """``POST /api/companion/standings``: a score sheet."""

    model_config = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)

    preset: str = "official"
    """The rules preset (one with the phases in order)."""
    players: list[Name] = Field(min_length=2, max_length=6)
    """The players' names."""
    hands: list[list[Entry]] = Field(
        default_factory=list, max_length=200, json_schema_extra={"default": []}
    )
    """Each hand played: one line per player, in order."""
    tie_break_winner: int | None = None
    """The seat that went out first in the tie-break hand, once it has been played."""


class SheetPlayer(Wire):
    """One player's standing."""

    name: str
    """The name."""
    total: int
    """Their total."""
    completed: int
    """How many phases they completed."""
    phase: int | None
    """The phase they are on (from 1), or null when every phase is done."""


class Outcome(Wire):
    """How the game ended, or that a tie-break hand decides it."""

    winners: list[int]
    """The winning seats (empty while a tie-break hand is to be played)."""
    winner_names: list[str]
    """The winners' names."""
    reason: str
    """Why, in words."""
    tie_break: list[int]
    """The seats that play the tie-break hand (empty once there are winners)."""


class Standings(Wire):
    """Totals, phases and the outcome of a score sheet."""

    phase_sequence: list[str]
    """The phases played, in order."""
    players: list[SheetPlayer]
    """Each player's standing, in order."""
    outcome: Outcome | None
    """Null while the game goes on."""


class SheetError(ValueError):
    pass


def tally(sheet: Sheet) -> dict[str, Any]:
    """Totals, phases and the outcome of a score sheet (raises :class:`SheetError`).

    >>> sheet = Sheet(players=["Ann", "Bob"], hands=[[{"points": 0, "phase": True},
    ...     {"points": 35, "phase": False}]])
    >>> result = tally(sheet)
    >>> [(p["name"], p["total"], p["phase"]) for p in result["players"]], result["outcome"]
    ([('Ann', 0, 2), ('Bob', 35, 1)], None)
    """
    try:
        rules = preset(sheet.preset)
    except RulesError as error:
        raise SheetError(str(error)) from None
    if rules.phase_order is PhaseOrder.ANY:
        raise SheetError("the score sheet follows the phases in order: choose another preset")
    count = len(sheet.players)
    players = list(range(count))
    scores, completed, positions = [0] * count, [0] * count, [0] * count
    outcome = None
    for number, hand in enumerate(sheet.hands, start=1):
        if outcome is not None:
            raise SheetError(f"the game was over after hand {number - 1}")
        if len(hand) != count:
            raise SheetError(f"hand {number} needs one line for each of the {count} players")
        for seat, entry in enumerate(hand):
            if positions[seat] >= rules.phase_count and entry.phase:
                raise SheetError(f"{sheet.players[seat]} has no phase left to make")
            scores[seat] += entry.points
            if entry.phase:
                completed[seat] += 1
            if rules.advance is Advance.ALL or entry.phase:
                positions[seat] += 1
        outcome = decide(
            rules, scores=scores, completed=completed, positions=positions, players=players
        )
    result: dict[str, Any] = {
        "phase_sequence": [str(phase) for phase in rules.phase_sequence],
        "players": [
            {
                "name": name,
                "total": scores[seat],
                "completed": completed[seat],
                "phase": positions[seat] + 1 if positions[seat] < rules.phase_count else None,
            }
            for seat, name in enumerate(sheet.players)
        ],
        "outcome": None,
    }
    if outcome is not None:
        winners, reason = outcome.winners, outcome.reason
        if outcome.tie_break and sheet.tie_break_winner is not None:
            if sheet.tie_break_winner not in outcome.tie_break:
                raise SheetError("the tie-break winner must be one of the tied players")
            winners, reason = (sheet.tie_break_winner,), "went out first in the tie-break hand"
        result["outcome"] = {
            "winners": list(winners),
            "winner_names": [sheet.players[seat] for seat in winners],
            "reason": reason,
            "tie_break": list(outcome.tie_break) if not winners else [],
        }
    return result


#: the most of each card any printing's deck holds (with the Anti-phase card): a hand no
#: deck could hold is a typing mistake
ANY_DECK = deck_counts(max(deck.wilds for deck in Deck), max(deck.skips for deck in Deck), 1)


@router.post("/points", response_model=PointsAnswer)
def points(body: Points) -> Any:
    """The points the cards count left in hand."""
    try:
        cards = parse_cards(body.cards)
        check_deck_can_hold(cards, ANY_DECK)
    except CardError as error:
        return JSONResponse({"error": "bad_cards", "message": str(error)}, 422)
    return {"cards": " ".join(str(card) for card in cards), "points": hand_points(cards)}


@router.post("/standings", response_model=Standings)
def standings(body: Sheet) -> Any:
    """Totals, phases and the winner of a score sheet."""
    try:
        return tally(body)
    except SheetError as error:
        return JSONResponse({"error": "bad_sheet", "message": str(error)}, 422)

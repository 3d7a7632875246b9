"""Phase 10 Dice events: what each action caused, as frozen values (docs/dice.md §3-§6).

Everything in this game is public, so every viewer sees every event whole. Dice are
indices into :data:`~phase10.dice.faces.DICE`; a phase is its number, 1 to 10.
:data:`DiceEvent` is the closed union of every kind.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, TypeAlias

from .faces import Face

__all__ = [
    "BonusKind",
    "DiceEvent",
    "DiceGameEnded",
    "DiceGameStarted",
    "EarnedBonus",
    "FailedPhase",
    "KeptDice",
    "LastRoundStarted",
    "OrderRolled",
    "Penalised",
    "Rolled",
    "ScoredPhase",
    "TurnStarted",
    "UnkeptDice",
    "event_to_dict",
]


class BonusKind(StrEnum):
    FIVE_PHASE = "five_phase"  #: +40 when the total is over 220 right after phase 5
    FIRST_FINISH = "first_finish"  #: +40 for the first to complete phase 10 (and some others)


@dataclass(frozen=True, slots=True)
class OrderRolled:
    """To order the turns, ``players`` each rolled one high die: ``values`` (5-10), in the
    same order. ``round`` counts from 1; later rounds settle ties among the tied."""

    round: int
    players: tuple[int, ...]
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiceGameStarted:
    """The game began: the turn order (first player first), and whether it is solitaire."""

    order: tuple[int, ...]
    solitaire: bool


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A turn began: whose, at which phase, and whether it is part of their last try
    (after someone completed phase 10)."""

    player: int
    phase: int
    last_try: bool = False


@dataclass(frozen=True, slots=True)
class Rolled:
    """The player rolled ``dice`` (roll 1-3 of the turn), which show ``faces`` in order."""

    player: int
    roll: int
    dice: tuple[int, ...]
    faces: tuple[Face, ...]


@dataclass(frozen=True, slots=True)
class KeptDice:
    """The player set ``dice`` aside (they show ``faces``)."""

    player: int
    dice: tuple[int, ...]
    faces: tuple[Face, ...]


@dataclass(frozen=True, slots=True)
class UnkeptDice:
    """The player took ``dice`` back from those set aside."""

    player: int
    dice: tuple[int, ...]
    faces: tuple[Face, ...]


@dataclass(frozen=True, slots=True)
class ScoredPhase:
    """The player completed ``phase`` with ``dice``, grouped as the phase's groups
    (``groups``, their faces), scoring ``points``; ``total`` is their total now."""

    player: int
    phase: int
    dice: tuple[int, ...]
    groups: tuple[tuple[Face, ...], ...]
    points: int
    total: int


@dataclass(frozen=True, slots=True)
class FailedPhase:
    """The turn ended without ``phase``: it is tried again next turn. ``failures`` counts
    the player's failed turns so far (solitaire takes 5 points for each at the end)."""

    player: int
    phase: int
    failures: int


@dataclass(frozen=True, slots=True)
class EarnedBonus:
    """The player earned a bonus of ``points``; ``total`` is their total now."""

    player: int
    kind: BonusKind
    points: int
    total: int


@dataclass(frozen=True, slots=True)
class LastRoundStarted:
    """``finisher`` completed phase 10 first: ``players``, in turn order, each get a last try."""

    finisher: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Penalised:
    """Solitaire's end: 5 points off for each of ``failures`` failed turns."""

    player: int
    failures: int
    points: int
    total: int


@dataclass(frozen=True, slots=True)
class DiceGameEnded:
    """The game is over: the highest total wins; ``winners`` has several seats for a tie
    (docs/dice.md §5: a tie is a shared win)."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    reason: str


#: Every dice event.
DiceEvent: TypeAlias = (
    OrderRolled
    | DiceGameStarted
    | TurnStarted
    | Rolled
    | KeptDice
    | UnkeptDice
    | ScoredPhase
    | FailedPhase
    | EarnedBonus
    | LastRoundStarted
    | Penalised
    | DiceGameEnded
)


def _plain(value: Any) -> Any:
    if isinstance(value, Face):
        return str(value)
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def event_to_dict(event: DiceEvent) -> dict[str, Any]:
    """The event as a JSON-ready dict: ``{"type": "Rolled", ...}``, faces as text.

    >>> event_to_dict(Rolled(0, 2, (2, 6), (Face.parse("B7"), Face.parse("R1"))))
    {'type': 'Rolled', 'player': 0, 'roll': 2, 'dice': [2, 6], 'faces': ['B7', 'R1']}
    """
    data: dict[str, Any] = {"type": type(event).__name__}
    for field in fields(event):
        data[field.name] = _plain(getattr(event, field.name))
    return data

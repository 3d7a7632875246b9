"""The pieces of a dice game's state that views share: the stage, seats and the set-up."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .events import BonusKind
from .faces import DICE_COUNT, DiceError, Face, assign_dice, format_faces, parse_faces

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "ROLLS", "DiceSeatInfo", "DiceSetup", "DiceStage"]

MIN_PLAYERS = 1
MAX_PLAYERS = 8
#: rolls in a turn
ROLLS = 3
#: the phases, 1 to 10; a seat on phase 11 has completed them all
PHASE_COUNT = 10


class DiceStage(StrEnum):
    """What the game waits for."""

    ROLL = "roll"  #: the turn's first roll (of all ten dice)
    CHOOSE = "choose"  #: rolls left: keep, unkeep, roll again, score or pass
    FINAL = "final"  #: three rolls made: score or pass
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class DiceSeatInfo:
    """One player's public state: the score sheet."""

    name: str
    #: the phase worked on, 1-10 (11 once phase 10 is completed)
    phase: int
    total: int
    #: the points scored for each phase, None where not yet completed
    scores: tuple[int | None, ...]
    #: failed turns so far (solitaire takes 5 points for each at the end)
    failures: int
    bonuses: tuple[BonusKind, ...] = ()

    @property
    def finished(self) -> bool:
        """Whether the player has completed phase 10."""
        return self.phase > PHASE_COUNT


@dataclass(slots=True)
class Seat:
    """One player's mutable state inside a game."""

    name: str
    phase: int = 1
    total: int = 0
    scores: list[int | None] = field(default_factory=lambda: [None] * PHASE_COUNT)
    failures: int = 0
    #: failed turns at the phase worked on now (solitaire's First Finish Bonus needs none)
    tries: int = 0
    bonuses: list[BonusKind] = field(default_factory=list)

    def info(self) -> DiceSeatInfo:
        return DiceSeatInfo(
            self.name,
            self.phase,
            self.total,
            tuple(self.scores),
            self.failures,
            tuple(self.bonuses),
        )

    def copy(self) -> Seat:
        return Seat(
            self.name,
            self.phase,
            self.total,
            list(self.scores),
            self.failures,
            self.tries,
            list(self.bonuses),
        )


@dataclass(frozen=True, slots=True)
class DiceSetup:
    """A game set up exactly, for tests and worked examples (docs/dice.md §3).

    ``order``: the turn order, first player first (no order rolls); ``phases`` and
    ``totals``: each seat's phase (1-10) and total at the start; ``rolls``: the faces the
    game's first rolls show, in order (each assigned to the dice rolled, as
    :func:`~phase10.dice.faces.assign_dice` finds them); later rolls come from the seed.
    Rolls may be written as text: ``rolls=("R5 O5 GW ...", ...)``.

    >>> DiceSetup(rolls=("G10 G10 G10",))
    Traceback (most recent call last):
    ...
    phase10.dice.faces.DiceError: set-up roll 1: no roll shows G10 G10 G10: only 2 dice have a G10 face
    """

    order: tuple[int, ...] | None = None
    phases: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None
    rolls: tuple[tuple[Face, ...] | str, ...] = ()

    def __post_init__(self) -> None:
        rolls: list[tuple[Face, ...]] = []
        for number, roll in enumerate(self.rolls, start=1):
            try:
                faces = parse_faces(roll) if isinstance(roll, str) else tuple(roll)
                if not all(isinstance(face, Face) for face in faces):
                    raise DiceError(f"a roll is faces or their text, not {roll!r}")
                if not 1 <= len(faces) <= DICE_COUNT:
                    raise DiceError(f"a roll shows 1 to {DICE_COUNT} faces, not {len(faces)}")
                assign_dice(faces)
            except DiceError as error:
                raise DiceError(f"set-up roll {number}: {error}") from None
            rolls.append(faces)
        object.__setattr__(self, "rolls", tuple(rolls))
        for name in ("order", "phases", "totals"):
            value = getattr(self, name)
            if value is not None:
                if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                    raise ValueError(f"the set-up's {name} are whole numbers, not {value!r}")
                object.__setattr__(self, name, tuple(value))

    def check(self, players: int) -> None:
        """Refuse a set-up that does not fit a game of ``players`` players."""
        if self.order is not None and sorted(self.order) != list(range(players)):
            raise ValueError(
                f"the set-up's order must name each seat 0 to {players - 1} once, "
                f"not {list(self.order)}"
            )
        for name, values in (("phases", self.phases), ("totals", self.totals)):
            if values is not None and len(values) != players:
                raise ValueError(f"the set-up gives {len(values)} {name} for {players} players")
        if self.phases is not None and not all(1 <= p <= PHASE_COUNT for p in self.phases):
            raise ValueError(f"a set-up phase runs from 1 to 10, not {list(self.phases)}")
        if self.totals is not None and not all(t >= 0 for t in self.totals):
            raise ValueError(f"a set-up total is 0 or more, not {list(self.totals)}")

    @property
    def roll_faces(self) -> tuple[tuple[Face, ...], ...]:
        """The set-up rolls as faces (text is read when the set-up is made)."""
        return tuple(roll for roll in self.rolls if not isinstance(roll, str))

    def rolls_text(self) -> tuple[str, ...]:
        return tuple(format_faces(roll) for roll in self.roll_faces)

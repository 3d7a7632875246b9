"""Phase 10 Dice: the ten phases and the best-scoring way dice make one (docs/dice.md §2).

The phases are the card game's standard ten, in order. A set is dice of one number; a run
is consecutive numbers within 1-10 (no wrap); a Wild stands for any number in sets and runs.
Phase 8, seven of one colour, takes seven dice of that colour, a Wild counting only as its
own colour. A phase made scores the sum of the dice used in it (a Wild scores 0; the dice
left over score nothing), so :func:`best_way` picks, among the ways to make the phase, one
that scores the most.

>>> from phase10.dice.faces import parse_faces
>>> way = best_way(1, parse_faces("R5 O5 GW B9 R9 G9 B2 O3 R7 G8"))
>>> way.score, [str(face) for face in way.used]
(37, ['R5', 'O5', 'GW', 'R9', 'G9', 'B9'])
>>> best_way(4, parse_faces("R5 O5 GW B9 R9 G9 B2 O3 R7 G8")) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .faces import Colour, DiceError, Face

__all__ = ["PHASES", "DicePhase", "GroupKind", "Way", "best_way", "dice_phase"]


class GroupKind(Enum):
    SET = "set"
    RUN = "run"
    COLOUR = "colour"


@dataclass(frozen=True, slots=True)
class DicePhase:
    """A phase: its number (1-10) and its groups, each a kind and a size."""

    number: int
    groups: tuple[tuple[GroupKind, int], ...]

    @property
    def dice_needed(self) -> int:
        return sum(size for _, size in self.groups)

    def __str__(self) -> str:
        """The phase as the card game words it: ``2 sets of 3``, ``1 set of 3 + 1 run of 4``.

        >>> str(PHASES[0]), str(PHASES[7])
        ('2 sets of 3', '7 of one colour')
        """
        if self.groups[0][0] is GroupKind.COLOUR:
            return f"{self.groups[0][1]} of one colour"
        if len(self.groups) == 2 and self.groups[0] == self.groups[1]:
            kind, size = self.groups[0]
            return f"2 {kind.value}s of {size}"
        return " + ".join(f"1 {kind.value} of {size}" for kind, size in self.groups)


_S, _R, _C = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR
#: The ten phases, in order (the card game's standard list).
PHASES: Final[tuple[DicePhase, ...]] = (
    DicePhase(1, ((_S, 3), (_S, 3))),
    DicePhase(2, ((_S, 3), (_R, 4))),
    DicePhase(3, ((_S, 4), (_R, 4))),
    DicePhase(4, ((_R, 7),)),
    DicePhase(5, ((_R, 8),)),
    DicePhase(6, ((_R, 9),)),
    DicePhase(7, ((_S, 4), (_S, 4))),
    DicePhase(8, ((_C, 7),)),
    DicePhase(9, ((_S, 5), (_S, 2))),
    DicePhase(10, ((_S, 5), (_S, 3))),
)


def dice_phase(number: int) -> DicePhase:
    """The phase of that number, 1 to 10."""
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10:
        raise DiceError(f"phases run from 1 to 10, not {number!r}")
    return PHASES[number - 1]


@dataclass(frozen=True, slots=True)
class Way:
    """A way the dice make a phase: the dice used, group by group, and what they score."""

    groups: tuple[tuple[Face, ...], ...]
    score: int

    @property
    def used(self) -> tuple[Face, ...]:
        return tuple(face for group in self.groups for face in group)


def best_way(phase: int | DicePhase, faces: Sequence[Face]) -> Way | None:
    """The best-scoring way ``faces`` make the phase (ties: the first found, in a fixed
    order), or None when they cannot."""
    chosen = phase if isinstance(phase, DicePhase) else dice_phase(phase)
    kinds = [kind for kind, _ in chosen.groups]
    if kinds == [_C]:
        return _colour_way(chosen.groups[0][1], faces)
    wilds = [face for face in faces if face.is_wild]
    by_value: dict[int, list[Face]] = {}
    for face in sorted(faces, reverse=True):  # (a fixed order: the same dice, the same way)
        if not face.is_wild:
            by_value.setdefault(face.value, []).append(face)
    best: Way | None = None
    for plan in _plans(chosen):
        way = _fill(plan, by_value, wilds)
        if way is not None and (best is None or way.score > best.score):
            best = way
    return best


def _plans(phase: DicePhase) -> list[list[tuple[GroupKind, int, int]]]:
    """Every choice of numbers for the groups: (kind, size, number or a run's low end)."""
    plans: list[list[tuple[GroupKind, int, int]]] = [[]]
    for kind, size in phase.groups:
        starts = range(1, 11) if kind is _S else range(1, 12 - size)
        plans = [[*plan, (kind, size, start)] for plan in plans for start in starts]
    return plans


def _fill(
    plan: Sequence[tuple[GroupKind, int, int]],
    by_value: dict[int, list[Face]],
    wilds: Sequence[Face],
) -> Way | None:
    """The dice for a plan: numbered dice where there are any (they score; a Wild does
    not, and a die used as itself never costs a Wild), Wilds for the rest."""
    left = {value: list(dice) for value, dice in by_value.items()}
    spare = list(wilds)
    groups: list[tuple[Face, ...]] = []
    # runs first: each needs one die of each number, so a set takes what they leave
    order = sorted(range(len(plan)), key=lambda i: plan[i][0] is not _R)
    made: dict[int, tuple[Face, ...]] = {}
    for index in order:
        kind, size, start = plan[index]
        numbers = [start] * size if kind is _S else list(range(start, start + size))
        group: list[Face] = []
        for number in numbers:
            pool = left.get(number)
            if pool:
                group.append(pool.pop(0))
            elif spare:
                group.append(spare.pop(0))
            else:
                return None
        made[index] = tuple(group)
    groups = [made[index] for index in range(len(plan))]
    return Way(tuple(groups), sum(face.points for group in groups for face in group))


def _colour_way(size: int, faces: Sequence[Face]) -> Way | None:
    """Seven of one colour: the colour whose best seven dice score the most."""
    best: Way | None = None
    for colour in Colour:
        dice = sorted((face for face in faces if face.colour is colour), reverse=True)
        if len(dice) < size:
            continue
        way = Way((tuple(dice[:size]),), sum(face.points for face in dice[:size]))
        if best is None or way.score > best.score:
            best = way
    return best

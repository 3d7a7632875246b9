"""How the Phase 10 Dice solver sees the dice of a phase: classes of alike dice and the
value of every final roll (docs/dice-odds.md).

Phases of sets and runs look only at values: the six high dice show 5-10 alike and the four
low dice 1, 2, 3, 4, W, W alike, so the dice form two classes and a roll is a multiset of
values. Phase 8 (seven of one colour) looks only at colours, and each die has its own
colours; but the dice fall into four kinds by how many faces of each colour they have
(every die has two colours on two faces each and two on one face), and dice of a kind are
alike for colours, so the classes are those kinds and a roll is a multiset of colours per
kind. Phase 8's points depend on which die shows which value, so only its probability is
solved on these classes; its points die by die (:mod:`phase10.solver.dice_colour`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from phase10.dice import DICE, Colour, DicePhase, Face, GroupKind, dice_phase

from .dice_dp import DiceClass, Floats, Ints, StateSpace

__all__ = ["COLOURS", "Model", "model"]

#: the order of the colour symbols in phase 8's classes
COLOURS = tuple(Colour)
_HIGH_VALUES = (5, 6, 7, 8, 9, 10)
_LOW_SYMBOLS = (1, 2, 3, 4, 0)  # 0: a Wild, on two faces of each low die


@dataclass(frozen=True)
class Model:
    """A phase's classes of dice: which class each die is in, and each face's symbol."""

    phase: DicePhase
    space: StateSpace
    die_class: tuple[int, ...]
    by_colour: bool

    def symbol(self, face: Face) -> int:
        if self.by_colour:
            return COLOURS.index(face.colour)
        if face.value >= 5:
            return _HIGH_VALUES.index(face.value)
        return _LOW_SYMBOLS.index(face.value)

    def state(self, dice: Sequence[int], faces: Sequence[Face]) -> tuple[tuple[int, ...], ...]:
        """The symbol counts per class of ``faces`` shown by ``dice`` (die indices)."""
        counts = [[0] * len(cls.weights) for cls in self.space.classes]
        for die, face in zip(dice, faces, strict=True):
            counts[self.die_class[die]][self.symbol(face)] += 1
        return tuple(tuple(row) for row in counts)

    @property
    def has_points(self) -> bool:
        """Whether the classes tell a roll's score (not for phase 8: values differ by die)."""
        return not self.by_colour

    def final_values(self, points: bool) -> Floats:
        """Every full roll's value: 1 or 0 (made or not), or the points it scores."""
        if self.by_colour:
            if points:
                raise ValueError("phase 8's points are not told by colours alone")
            return _colour_made(self.space, self.phase)
        made, score = _value_finals(self.phase.number)
        return score.astype(np.float64) if points else made.astype(np.float64)

    def greedy_keeps(self) -> Ints:
        """For each full state, the flat index of the state the greedy player keeps."""
        if self.by_colour:
            return _colour_greedy()
        return _value_greedy(self.phase.number)


@cache
def _value_space() -> StateSpace:
    return StateSpace((DiceClass(6, (1,) * 6), DiceClass(4, (1, 1, 1, 1, 2))))


@cache
def _colour_space() -> tuple[StateSpace, tuple[int, ...]]:
    kinds: list[tuple[int, ...]] = []
    die_class = []
    for die in DICE:
        weights = tuple(sum(face.colour is colour for face in die.faces) for colour in COLOURS)
        if weights not in kinds:
            kinds.append(weights)
        die_class.append(kinds.index(weights))
    classes = tuple(DiceClass(die_class.count(k), kind) for k, kind in enumerate(kinds))
    return StateSpace(classes), tuple(die_class)


@cache
def model(phase: int) -> Model:
    """The solver's view of a phase's dice (1-10)."""
    chosen = dice_phase(phase)
    if any(kind is GroupKind.COLOUR for kind, _ in chosen.groups):
        space, die_class = _colour_space()
        return Model(chosen, space, die_class, by_colour=True)
    die_class = tuple(0 if die.is_high else 1 for die in DICE)
    return Model(chosen, _value_space(), die_class, by_colour=False)


@cache
def _full_counts() -> tuple[Ints, Ints]:
    """The value counts (1-10) and the Wilds of every full value state, shaped like the
    full states ``(462, 70, 10)`` and ``(462, 70)``."""
    high, low = _value_space().classes
    counts = np.zeros((len(high.full), len(low.full), 10), dtype=np.int64)
    wilds = np.zeros((len(high.full), len(low.full)), dtype=np.int64)
    for i, state in enumerate(high.full):
        counts[i, :, 4:] = high.states[int(state)]
    for i, state in enumerate(low.full):
        counts[:, i, :4] = low.states[int(state)][:4]
        wilds[:, i] = low.states[int(state)][4]
    return counts, wilds


def _plans(phase: DicePhase) -> Ints:
    """Every choice of numbers for the groups, as how many dice of each value it asks for."""
    asks: set[tuple[int, ...]] = {(0,) * 10}
    for kind, size in phase.groups:
        grown: set[tuple[int, ...]] = set()
        for ask in asks:
            if kind is GroupKind.SET:
                starts = [(number,) * size for number in range(1, 11)]
            else:
                starts = [tuple(range(low, low + size)) for low in range(1, 12 - size)]
            for numbers in starts:
                row = list(ask)
                for number in numbers:
                    row[number - 1] += 1
                grown.add(tuple(row))
        asks = grown
    return np.array(sorted(asks), dtype=np.int64)


@cache
def _value_finals(phase: int) -> tuple[Ints, Ints]:
    """Made (0/1) and best score of every full value state: the same as
    :func:`phase10.dice.best_way` (a plan uses numbered dice where it can, Wilds for the rest)."""
    counts, wilds = _full_counts()
    counts16, wilds16 = counts.astype(np.int16), wilds.astype(np.int16)
    values = np.arange(1, 11, dtype=np.int16)
    best = np.full(wilds.shape, -1, dtype=np.int16)
    for ask in _plans(dice_phase(phase)).astype(np.int16):
        used = np.minimum(counts16, ask)
        short = int(ask.sum()) - used.sum(axis=-1, dtype=np.int16)
        score = np.where(short <= wilds16, used @ values, -1)
        np.maximum(best, score, out=best)
    best = best.astype(np.int64)
    return (best >= 0).astype(np.int64), np.maximum(best, 0)


@cache
def _value_greedy(phase: int) -> Ints:
    """The greedy keep of every full value state: the dice of the plan they fill most
    (numbered dice it asks for and the Wilds it is short of), the higher scoring on a tie."""
    counts, wilds = _full_counts()
    counts16, wilds16 = counts.astype(np.int16), wilds.astype(np.int16)
    values = np.arange(1, 11, dtype=np.int16)
    asks = _plans(dice_phase(phase)).astype(np.int16)
    best_key = np.full(wilds.shape, -1, dtype=np.int32)
    best_plan = np.zeros(wilds.shape, dtype=np.int64)
    for p, ask in enumerate(asks):
        used = np.minimum(counts16, ask)
        held = used.sum(axis=-1, dtype=np.int32)
        wild = np.minimum(wilds16, int(ask.sum()) - held)
        key = (held + wild) * 1000 + (used @ values).astype(np.int32)
        better = key > best_key
        best_key[better] = key[better]
        best_plan[better] = p
    ask = asks[best_plan].astype(np.int64)
    kept = np.minimum(counts, ask)
    kept_wilds = np.minimum(wilds, ask.sum(axis=-1) - kept.sum(axis=-1))
    high, low = _value_space().classes
    low_counts = np.concatenate([kept[..., :4], kept_wilds[..., None]], axis=-1)
    high_index = high.indices(kept[..., 4:])
    low_index = low.indices(low_counts)
    return np.asarray(np.ravel_multi_index((high_index, low_index), _value_space().shape))


def _colour_totals(space: StateSpace) -> Ints:
    """How many dice of each colour every full colour state shows: shape full + (4,)."""
    grids = np.meshgrid(*(np.arange(len(cls.full)) for cls in space.classes), indexing="ij")
    totals = np.zeros((*space.full_shape, len(COLOURS)), dtype=np.int64)
    for cls, grid in zip(space.classes, grids, strict=True):
        states = np.array(cls.states, dtype=np.int64)[cls.full]
        totals += states[grid]
    return totals


def _colour_made(space: StateSpace, phase: DicePhase) -> Floats:
    size = phase.groups[0][1]
    made = _colour_totals(space).max(axis=-1) >= size
    return np.asarray(made, dtype=np.float64)


@cache
def _colour_greedy() -> Ints:
    """Keep every die of the colour most dice show (the first in R, O, G, B on a tie)."""
    space = _colour_space()[0]
    totals = _colour_totals(space)
    colour = totals.argmax(axis=-1)
    grids = np.meshgrid(*(np.arange(len(cls.full)) for cls in space.classes), indexing="ij")
    indices = []
    for cls, grid in zip(space.classes, grids, strict=True):
        states = np.array(cls.states, dtype=np.int64)[cls.full][grid]
        kept = np.where(np.arange(len(COLOURS)) == colour[..., None], states, 0)
        indices.append(cls.indices(kept))
    return np.asarray(np.ravel_multi_index(tuple(indices), space.shape))

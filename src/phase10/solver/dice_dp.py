"""Exact expectations over dice rolls, on the multisets of faces that matter.

Dice that are alike for a phase form a class: ``count`` dice, each showing one of a few
symbols with weights out of six (the high dice: values 5-10, one face each; the low dice:
1, 2, 3, 4 and W, the W on two faces). What a class shows is a multiset of symbols, so a
state is one sub-multiset per class: the dice kept (or, when every class is full, all the
dice showing). Rolling the dice not kept and averaging a final value is done one die at a
time (the dice are independent, so the expectation of the whole roll is the expectation
of the last die of it, and so on), and the best keep below a full state is a running
maximum over sub-multisets, class by class. Both run on NumPy arrays indexed by state.

>>> coins = DiceClass(2, (1, 1))  # two coins, say: heads or tails
>>> space = StateSpace((coins,))
>>> [coins.states[i] for i in coins.full]  # heads and tails counts
[(0, 2), (1, 1), (2, 0)]
>>> chance = space.roll_expectation(np.array([0.0, 0.0, 1.0]))  # of two heads
>>> float(chance[coins.index[(0, 0)]]), float(chance[coins.index[(1, 0)]])
(0.25, 0.5)
>>> start = np.zeros(space.shape)
>>> start[coins.index[(0, 0)]] = 1.0  # both coins to toss
>>> space.roll_forward(start).tolist()  # where they land, in the order of the full states
[0.25, 0.5, 0.25]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["DiceClass", "StateSpace"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class DiceClass:
    """``count`` interchangeable dice, each showing symbol ``i`` with chance ``weights[i]/6``."""

    count: int
    weights: tuple[int, ...]
    states: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    index: dict[tuple[int, ...], int] = field(init=False, repr=False)
    add: Ints = field(init=False, repr=False)
    remove: Ints = field(init=False, repr=False)
    levels: tuple[Ints, ...] = field(init=False, repr=False)
    lookup: Ints = field(init=False, repr=False)

    def __post_init__(self) -> None:
        symbols = len(self.weights)
        by_size: list[list[tuple[int, ...]]] = [[] for _ in range(self.count + 1)]
        for counts in product(range(self.count + 1), repeat=symbols):
            if sum(counts) <= self.count:
                by_size[sum(counts)].append(counts)
        states = tuple(state for level in by_size for state in sorted(level, reverse=True))
        index = {state: i for i, state in enumerate(states)}
        add = np.full((len(states), symbols), -1, dtype=np.int64)
        remove = np.full((len(states), symbols), -1, dtype=np.int64)
        for i, state in enumerate(states):
            for s in range(symbols):
                bumped = (*state[:s], state[s] + 1, *state[s + 1 :])
                add[i, s] = index.get(bumped, -1)
                if state[s]:
                    remove[i, s] = index[(*state[:s], state[s] - 1, *state[s + 1 :])]
        levels = tuple(
            np.array([index[state] for state in level], dtype=np.int64) for level in by_size
        )
        base = self.count + 1
        lookup = np.full(base**symbols, -1, dtype=np.int64)
        for i, state in enumerate(states):
            lookup[sum(c * base**s for s, c in enumerate(state))] = i
        for name, value in (
            ("lookup", lookup),
            ("states", states),
            ("index", index),
            ("add", add),
            ("remove", remove),
            ("levels", levels),
        ):
            object.__setattr__(self, name, value)

    @property
    def full(self) -> Ints:
        """The states where every die of the class shows (or is kept)."""
        return self.levels[self.count]

    def indices(self, counts: Ints) -> Ints:
        """The state index of each row of symbol counts (``(..., symbols)``)."""
        codes = counts @ (self.count + 1) ** np.arange(len(self.weights))
        return np.asarray(self.lookup[codes], dtype=np.int64)

    @property
    def probabilities(self) -> tuple[float, ...]:
        total = sum(self.weights)
        return tuple(weight / total for weight in self.weights)


@dataclass(frozen=True)
class StateSpace:
    """The product of the classes' states: arrays shaped ``(len(states) per class)``."""

    classes: tuple[DiceClass, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(cls.states) for cls in self.classes)

    @property
    def full_shape(self) -> tuple[int, ...]:
        return tuple(len(cls.full) for cls in self.classes)

    def roll_expectation(self, final: Floats) -> Floats:
        """For every state, the expected ``final`` value (given on the full states, shaped
        :attr:`full_shape`) once the dice not in the state are rolled."""
        values = np.full(self.shape, np.nan)
        values[np.ix_(*(cls.full for cls in self.classes))] = final
        # fill the last class first: a state whose earlier classes are full and whose class j
        # has m dice draws on states of class j with m + 1, already known
        for j in reversed(range(len(self.classes))):
            cls = self.classes[j]
            before = [c.full for c in self.classes[:j]]
            rest: tuple[Any, ...] = (slice(None),) * (len(self.classes) - j - 1)
            for size in range(cls.count - 1, -1, -1):
                level = cls.levels[size]
                total: Any = 0.0
                for s, chance in enumerate(cls.probabilities):
                    if chance:
                        source: tuple[Any, ...] = (*np.ix_(*before, cls.add[level, s]), *rest)
                        total = total + chance * values[source]
                target: tuple[Any, ...] = (*np.ix_(*before, level), *rest)
                values[target] = total
        return values

    def roll_forward(self, chance: Floats) -> Floats:
        """Where the chance on every state goes once the dice not in it are rolled: the
        chance of each full state (shaped :attr:`full_shape`); the transpose of
        :meth:`roll_expectation`."""
        values = chance.astype(np.float64, copy=True)
        for j, cls in enumerate(self.classes):
            before = [c.full for c in self.classes[:j]]
            rest: tuple[Any, ...] = (slice(None),) * (len(self.classes) - j - 1)
            for size in range(cls.count):
                level = cls.levels[size]
                source: tuple[Any, ...] = (*np.ix_(*before, level), *rest)
                moving = values[source]
                values[source] = 0.0
                for s, probability in enumerate(cls.probabilities):
                    if probability:
                        target: tuple[Any, ...] = (*np.ix_(*before, cls.add[level, s]), *rest)
                        values[target] += probability * moving
        return self.full_values(values)

    def best_below(self, values: Floats) -> tuple[Floats, Ints]:
        """For every state, the greatest value over its sub-states (itself included) and the
        flat index (into :attr:`shape`) of a sub-state that has it: the best keep."""
        best = values.copy()
        where = np.arange(best.size, dtype=np.int64).reshape(self.shape)
        for j, cls in enumerate(self.classes):
            for size in range(1, cls.count + 1):
                level = cls.levels[size]
                for s in range(len(cls.weights)):
                    smaller = cls.remove[level, s]
                    has = smaller >= 0
                    if not has.any():
                        continue
                    here: list[slice | Ints] = [slice(None)] * len(self.classes)
                    there: list[slice | Ints] = [slice(None)] * len(self.classes)
                    here[j], there[j] = level[has], smaller[has]
                    better = best[tuple(there)] > best[tuple(here)] + 1e-12
                    best[tuple(here)] = np.where(better, best[tuple(there)], best[tuple(here)])
                    where[tuple(here)] = np.where(better, where[tuple(there)], where[tuple(here)])
        return best, where

    def full_values(self, values: Floats) -> Floats:
        """``values`` on the full states only."""
        return np.asarray(values[np.ix_(*(cls.full for cls in self.classes))])

    def flat(self, states: Sequence[tuple[int, ...]]) -> int:
        """The flat index of a state given as one symbol-count tuple per class."""
        indices = tuple(cls.index[state] for cls, state in zip(self.classes, states, strict=True))
        return int(np.ravel_multi_index(indices, self.shape))

    def unflat(self, flat: int) -> tuple[tuple[int, ...], ...]:
        indices = np.unravel_index(flat, self.shape)
        return tuple(cls.states[int(i)] for cls, i in zip(self.classes, indices, strict=True))

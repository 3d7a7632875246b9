"""Phase 8's points, exactly: seven dice of one colour score the sum of their values, and
each die carries its own values on its colours, so here every die counts on its own
(docs/dice-odds.md, "Phase 8's points").

Ten dice can never show seven of two colours at once, so a roll's score is a sum over the
colours of what each colour scores alone: for a colour, only which dice show it, and on which
of their faces, matters (each die has one or two faces of a colour: at most 3¹⁰ states). So
with one roll left the value of any keep is a sum of four small per-colour tables
(:func:`one_roll`). The best keep of a roll with one roll left is the best over keeps of one
colour only (a die of another colour kept can help only that colour, which then needs six or
more of the dice rolled); ``benchmarks/bench_dice_phase8.py`` proves this over all 6¹⁰
rolls against every keep, and does the same for the keeps with two rolls left. The best of
each roll with one roll left is a table of all 6¹⁰ ≈ 60 million rolls (float32, 240 MB, built
in a few seconds on first use); a keep with two rolls left is worth its average over the dice
rolled, taken one die at a time (:func:`two_rolls`).

>>> from phase10.dice import parse_faces
>>> roll = parse_faces("R5 G5 O5 R5 R7 G7 O3 O4 R2 R4")  # five red
>>> faces = [DICE[d].faces.index(face) for d, face in enumerate(roll)]
>>> kept = np.array([[f if d in (0, 3, 4, 8, 9) else -1 for d, f in enumerate(faces)]])
>>> points, made = one_roll(kept)  # keep the reds, roll the rest once more
>>> round(float(points[0]), 4), round(float(made[0]), 4)
(8.9725, 0.2605)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from phase10.dice import DICE, DICE_COUNT, Colour

from .dice_dp import DiceClass, Floats, Ints, StateSpace
from .dice_models import model

__all__ = [
    "SEVEN",
    "TurnValue",
    "best_one_roll",
    "best_two_rolls",
    "one_roll",
    "strategy_points",
    "strategy_score_chances",
    "turn_value",
    "two_rolls",
]

#: phase 8 asks for seven dice of one colour
SEVEN = 7
_FACES = 6
_COLOURS = tuple(Colour)
_ROLLS_SHAPE = (_FACES,) * DICE_COUNT
Floats32 = npt.NDArray[np.float32]


@dataclass(frozen=True)
class _Colour:
    """One colour's view of the dice: which faces of each die show it, and two lattices of
    per-die states: ``rolled`` (rolled, kept not showing it, kept on its i-th face of the
    colour: index 0, 1, 2 + i) and ``kept`` (rolled, kept on its i-th face: 0, 1 + i)."""

    colour: Colour
    faces: tuple[tuple[int, ...], ...]
    rolled: StateSpace
    kept: StateSpace

    def rolled_code(self) -> Ints:
        """Per die and face (-1 for rolled, then 0-5), the die's index in ``rolled``."""
        code = np.zeros((DICE_COUNT, _FACES + 1), dtype=np.int64)
        for d, mine in enumerate(self.faces):
            for face in range(_FACES):
                code[d, face + 1] = 2 + mine.index(face) if face in mine else 1
        return code

    def kept_code(self) -> Ints:
        """Per die and face (0-5), the die's index in ``kept`` for a roll showing it (0 for
        another colour: the die is rolled again)."""
        code = np.zeros((DICE_COUNT, _FACES), dtype=np.int64)
        for d, mine in enumerate(self.faces):
            for i, face in enumerate(mine):
                code[d, face] = 1 + i
        return code


@cache
def _colours() -> tuple[_Colour, ...]:
    views = []
    for colour in _COLOURS:
        faces = tuple(
            tuple(f for f, face in enumerate(die.faces) if face.colour is colour) for die in DICE
        )
        rolled = StateSpace(tuple(DiceClass(1, (_FACES - len(m), *(1,) * len(m))) for m in faces))
        kept = StateSpace(tuple(DiceClass(1, (1,) * len(m)) for m in faces))
        views.append(_Colour(colour, faces, rolled, kept))
    return tuple(views)


def _strides(shape: Sequence[int]) -> Ints:
    return np.array([int(np.prod(shape[d + 1 :])) for d in range(len(shape))], dtype=np.int64)


@cache
def _finals(c: int) -> tuple[Floats, Floats]:
    """A colour's score and made (0/1) for every roll seen by the colour (per die: not the
    colour, or its i-th face of it): the seven highest values when seven or more show it."""
    view = _colours()[c]
    shape = tuple(1 + len(mine) for mine in view.faces)
    states = np.indices(shape).reshape(DICE_COUNT, -1).T  # (rolls, dice): 0 or 1 + i
    values = np.full(states.shape, -1, dtype=np.int64)
    for d, mine in enumerate(view.faces):
        points = np.array([-1] + [DICE[d].faces[f].points for f in mine], dtype=np.int64)
        values[:, d] = points[states[:, d]]
    count = (values >= 0).sum(axis=1)
    top = (-np.sort(-values, axis=1))[:, :SEVEN].clip(min=0).sum(axis=1)
    made = count >= SEVEN
    score = np.where(made, top, 0).astype(np.float64).reshape(shape)
    return score, made.astype(np.float64).reshape(shape)


@cache
def _rolled(c: int) -> tuple[Floats, Floats]:
    """A colour's expected score and chance from every state of ``rolled``: the dice
    rolled are rolled once more."""
    space = _colours()[c].rolled
    # roll_expectation takes the full states in each class's own order
    order = np.ix_(*(np.array(cls.states)[cls.full].argmax(axis=1) for cls in space.classes))
    score, made = _finals(c)
    return space.roll_expectation(score[order]), space.roll_expectation(made[order])


def one_roll(kept: Ints) -> tuple[Floats, Floats]:
    """For each row of ``kept`` (per die: the face kept, 0-5, or -1 when rolled), the
    expected phase 8 score and the chance of making it once the rest are rolled."""
    kept = np.asarray(kept, dtype=np.int64).reshape(-1, DICE_COUNT)
    points = np.zeros(len(kept))
    made = np.zeros(len(kept))
    for c, view in enumerate(_colours()):
        code = view.rolled_code()
        flat = (code[np.arange(DICE_COUNT), kept + 1] * _strides(view.rolled.shape)).sum(axis=1)
        score, chance = _rolled(c)
        points += score.reshape(-1)[flat]
        made += chance.reshape(-1)[flat]
    return points, made


@cache
def _one_colour_keeps(c: int) -> tuple[Floats, Ints, Floats]:
    """With one roll left, for every state of colour ``c``'s ``kept`` lattice: the most
    points expected keeping some of its dice (and none of another colour), the flat index
    of that keep, and its chance."""
    view = _colours()[c]
    score, chance = _rolled(c)
    mine = np.ix_(*([0, *range(2, 2 + len(m))] for m in view.faces))
    points, made = score[mine], chance[mine]
    for other, other_view in enumerate(_colours()):
        if other != c:  # the dice kept show c, so not this colour
            not_other = np.ix_(*([0] + [1] * len(m) for m in view.faces))
            other_score, other_chance = _rolled(other)
            points = points + other_score[not_other]
            made = made + other_chance[not_other]
            assert other_view.colour is not view.colour
    best, where = view.kept.best_below(points)
    return best, where, made.reshape(-1)[where]


@cache
def _roll_indices(c: int) -> tuple[npt.NDArray[np.int32], Ints]:
    """Where every roll is in colour ``c``'s ``kept`` lattice, in two parts: the flat index
    that the last eight dice give (shape (6,) * 8), and what the first two add (6, 6)."""
    view = _colours()[c]
    code, strides = view.kept_code(), _strides(view.kept.shape)
    flat = np.zeros((1,) * (DICE_COUNT - 2), dtype=np.int32)
    for d in range(2, DICE_COUNT):
        axis = [1] * (DICE_COUNT - 2)
        axis[d - 2] = _FACES
        flat = flat + (code[d] * strides[d]).astype(np.int32).reshape(axis)
    first_two = code[0][:, None] * strides[0] + code[1][None, :] * strides[1]
    return np.asarray(flat, dtype=np.int32), first_two


def _best_of_rolls(
    tables: Sequence[tuple[Floats, Floats]], second: bool
) -> tuple[Floats32, Floats32 | None]:
    """For every roll of the ten dice: the greatest of the colours' tables (each indexed by
    its ``kept`` lattice) at the roll, and (if ``second``) the second table's value where it
    is reached."""
    best = np.empty(_ROLLS_SHAPE, dtype=np.float32)
    other = np.empty(_ROLLS_SHAPE, dtype=np.float32) if second else None
    narrow = [(first.astype(np.float32), then.astype(np.float32)) for first, then in tables]
    for a in range(_FACES):
        for b in range(_FACES):
            top = best[a, b]
            for c, (first, then) in enumerate(narrow):
                rest, first_two = _roll_indices(c)
                flat = rest + np.int32(first_two[a, b])
                value = first.reshape(-1)[flat]
                if c == 0:
                    top[...] = value
                    if other is not None:
                        other[a, b] = then.reshape(-1)[flat]
                    continue
                if other is not None:
                    better = value > top
                    np.copyto(other[a, b], then.reshape(-1)[flat], where=better)
                np.maximum(top, value, out=top)
    return best, other


@cache
def best_one_roll() -> Floats32:
    """The most points expected from every roll of the ten dice (shape (6,) * 10, by face
    index) with one roll left."""
    tables = []
    for c in range(len(_COLOURS)):
        best, _, made = _one_colour_keeps(c)
        tables.append((best, made))
    return _best_of_rolls(tables, second=False)[0]


def two_rolls(roll: Sequence[int]) -> Floats:
    """With two rolls left and the ten dice showing faces ``roll`` (indices 0-5), the most
    points expected from here for every keep: shape (2,) * 10, 1 where a die is kept."""
    values: Floats32 = best_one_roll()
    for face in roll:  # reduce the first die's axis; the reduced ones go last
        kept = values[face]
        rolled = values.mean(axis=0)  # (float32 is precise enough for six terms at a time)
        values = np.stack([rolled, kept], axis=-1)
    return values.astype(np.float64)


@dataclass(frozen=True)
class TurnValue:
    """Phase 8 from the start of a turn, keeping for the most points every roll."""

    points: float
    probability: float


def _made_one_roll() -> Floats32:
    """The chance of making phase 8 from every roll with one roll left, keeping for points."""
    tables = []
    for c in range(len(_COLOURS)):
        best, _, made = _one_colour_keeps(c)
        tables.append((best, made))
    chance = _best_of_rolls(tables, second=True)[1]
    assert chance is not None
    return chance


def _keep_one_colour(values: Floats32, c: int) -> Floats:
    """Average ``values`` (every roll) over the dice rolled, for every state of colour
    ``c``'s ``kept`` lattice: the value of keeping those dice with two rolls left."""
    view = _colours()[c]
    reduced = values
    for mine in view.faces:
        rolled = reduced.mean(axis=0)  # (float32 is precise enough for six terms at a time)
        reduced = np.stack([rolled, *(reduced[face] for face in mine)], axis=-1)
    return reduced.astype(np.float64)


def best_two_rolls() -> tuple[Floats32, Floats32]:
    """For every roll of the ten dice (shape (6,) * 10) with two rolls left: the most points
    expected keeping dice of one colour, and the chance of making phase 8 that way."""
    points_one = best_one_roll()
    made_one = _made_one_roll()
    tables = []
    for c in range(len(_COLOURS)):
        kept_points = _keep_one_colour(points_one, c)
        kept_made = _keep_one_colour(made_one, c)
        best, where = _colours()[c].kept.best_below(kept_points)
        tables.append((best, kept_made.reshape(-1)[where]))
    del made_one
    points, chance = _best_of_rolls(tables, second=True)
    assert chance is not None
    return points, chance


@cache
def turn_value() -> TurnValue:
    """The expected points of phase 8 from a turn's start under the keeps of most points,
    and the chance those keeps make it."""
    points, made = best_two_rolls()
    return TurnValue(float(points.mean(dtype=np.float64)), float(made.mean(dtype=np.float64)))


# -- the points of keeps chosen by colour alone (the best-chance and greedy strategies) --
#
# A strategy that looks only at colours never looks at a value, so given the colours every
# die shows, its value is any of its faces of that colour, equally likely, whatever came
# before. Its points are therefore the average, over the colours the dice end on, of the
# expected seven highest values of the colour made: a roll is a colour per die (4¹⁰), a keep
# a colour or nothing per die (5¹⁰).


@cache
def _colour_lattice() -> StateSpace:
    """Per die: rolled (0) or kept showing colour k (1 + k); its weights: faces per colour."""
    classes = []
    for die in DICE:
        weights = tuple(sum(face.colour is colour for face in die.faces) for colour in _COLOURS)
        classes.append(DiceClass(1, weights))
    return StateSpace(tuple(classes))


@cache
def _colour_rolls() -> Ints:
    """Every roll as a colour per die (0-3), in the order of the lattice's full states."""
    space = _colour_lattice()
    symbols = [np.array(cls.states)[cls.full].argmax(axis=1) for cls in space.classes]
    grid = np.meshgrid(*symbols, indexing="ij")
    return np.stack([axis.reshape(-1) for axis in grid], axis=1)


def _top_sums(c: int, dice: Sequence[int]) -> Ints:
    """The sum of the seven highest values of ``dice`` all showing colour ``c``, for each
    way they may show it (each die on one of its faces of the colour, all equally likely)."""
    options = [[DICE[d].faces[f].points for f in _colours()[c].faces[d]] for d in dice]
    combos = np.array(np.meshgrid(*options, indexing="ij")).reshape(len(dice), -1).T
    return np.asarray((-np.sort(-combos, axis=1))[:, :SEVEN].sum(axis=1), dtype=np.int64)


def _expected_top(c: int, dice: Sequence[int]) -> float:
    """The expected sum of the seven highest values of ``dice`` all showing colour ``c``."""
    return float(_top_sums(c, dice).mean())


@cache
def _colour_finals() -> Floats:
    """Every roll's expected score given only its colours (full states of the lattice)."""
    rolls = _colour_rolls()
    scores = np.zeros(len(rolls))
    for c in range(len(_COLOURS)):
        mine = rolls == c
        made = mine.sum(axis=1) >= SEVEN
        masks = mine[made] @ (1 << np.arange(DICE_COUNT))
        table = {
            int(mask): _expected_top(c, [d for d in range(DICE_COUNT) if mask >> d & 1])
            for mask in np.unique(masks)
        }
        scores[made] = [table[int(mask)] for mask in masks]
    return scores.reshape(_colour_lattice().full_shape)


@cache
def _rolls_by_kind(class_of: tuple[int, ...]) -> tuple[Ints, tuple[Ints, ...], tuple[Ints, ...]]:
    """For every roll of colours, what does not depend on a strategy's keeps (dice of a
    kind alike, die ``d`` in kind ``class_of[d]``, the kinds of :func:`.dice_models.model`
    for phase 8): the position of its full state among the kinds' full states, each die's
    place among the dice alike in kind and colour (in die order, from 0), and each die's
    column in a (kind, colour) table."""
    class_space = model(8).space
    rolls = _colour_rolls().astype(np.int8)
    colours = len(_COLOURS)
    counts = [
        sum(
            ((rolls[:, d] == c).astype(np.int64) for d in range(DICE_COUNT) if class_of[d] == k),
            np.zeros(len(rolls), dtype=np.int64),
        )
        for k in range(len(class_space.classes))
        for c in range(colours)
    ]  # per kind and colour: how many dice of the kind show the colour
    position = np.ravel_multi_index(
        tuple(
            _full_position(cls)[cls.indices(np.stack(counts[k * colours : (k + 1) * colours], 1))]
            for k, cls in enumerate(class_space.classes)
        ),
        class_space.full_shape,
    )
    place = tuple(
        sum(
            (
                (rolls[:, e] == rolls[:, d]).astype(np.int64)
                for e in range(d)
                if class_of[e] == class_of[d]
            ),
            np.zeros(len(rolls), dtype=np.int64),
        )
        for d in range(DICE_COUNT)
    )
    column = tuple(class_of[d] * colours + rolls[:, d].astype(np.int64) for d in range(DICE_COUNT))
    return np.asarray(position, dtype=np.int64), place, column


def _colour_strategy(
    class_of: Sequence[int], class_space: StateSpace, keeps: dict[int, Ints]
) -> dict[int, Ints]:
    """For a strategy that keeps by colour (``keeps[rolls]`` maps each full state of
    ``class_space``, dice of a kind alike, die ``d`` in kind ``class_of[d]``, to the flat
    index of the state it keeps with ``rolls`` rolls left; :mod:`.dice_models`), the
    colour-lattice keep of every roll of colours, per rolls left. Of dice alike in kind and
    colour it keeps the first by die order (as :func:`phase10.solver.dice.play_turn` does)."""
    rolls = _colour_rolls()
    position, place, column = _rolls_by_kind(tuple(class_of))
    strides = _strides(_colour_lattice().shape)
    states = [np.array(cls.states, dtype=np.int64) for cls in class_space.classes]
    rows = np.arange(len(rolls))
    kept: dict[int, Ints] = {}
    for left in (1, 2):
        kept_state = np.unravel_index(keeps[left].reshape(-1)[position], class_space.shape)
        wanted = np.concatenate(
            [table[index] for table, index in zip(states, kept_state, strict=True)], axis=1
        )  # (rolls, kind * colours + colour): how many of each the strategy keeps
        flat = np.zeros(len(rolls), dtype=np.int64)
        for d in range(DICE_COUNT):
            keep = place[d] < wanted[rows, column[d]]
            flat += np.where(keep, 1 + rolls[:, d], 0) * strides[d]
        kept[left] = flat
    return kept


def strategy_points(
    class_of: Sequence[int], class_space: StateSpace, keeps: dict[int, Ints]
) -> float:
    """The expected phase 8 score from a turn's start of a strategy that keeps by colour
    (arguments as for :func:`_colour_strategy`)."""
    space = _colour_lattice()
    kept = _colour_strategy(class_of, class_space, keeps)
    value = _colour_finals()
    for left in (1, 2):
        after = space.roll_expectation(value)
        value = after.reshape(-1)[kept[left]].reshape(space.full_shape)
    return float(space.roll_expectation(value).reshape(-1)[0])


def strategy_score_chances(
    class_of: Sequence[int], class_space: StateSpace, keeps: dict[int, Ints]
) -> Floats:
    """The chance that a strategy that keeps by colour makes phase 8 in a turn with each
    score (index: points, 0-70; the chance of failing is what the sum leaves)."""
    space = _colour_lattice()
    kept = _colour_strategy(class_of, class_space, keeps)
    start = np.zeros(space.shape)
    start[(0,) * DICE_COUNT] = 1.0  # every die to roll
    chance = space.roll_forward(start).reshape(-1)
    for left in (2, 1):
        moved = np.bincount(kept[left], weights=chance, minlength=start.size).astype(np.float64)
        chance = space.roll_forward(moved.reshape(space.shape)).reshape(-1)
    rolls = _colour_rolls()
    scores = np.zeros(10 * DICE_COUNT + 1)
    for c in range(len(_COLOURS)):
        mine = rolls == c
        made = mine.sum(axis=1) >= SEVEN
        masks = mine[made] @ (1 << np.arange(DICE_COUNT))
        weight = np.bincount(masks, weights=chance[made], minlength=1 << DICE_COUNT)
        for mask in np.flatnonzero(weight):
            sums = _top_sums(c, [d for d in range(DICE_COUNT) if mask >> d & 1])
            scores += weight[mask] * np.bincount(sums, minlength=len(scores)) / len(sums)
    return scores


def _full_position(cls: DiceClass) -> Ints:
    """A class's state index -> its position among the class's full states (-1: not full)."""
    position = np.full(len(cls.states), -1, dtype=np.int64)
    position[cls.full] = np.arange(len(cls.full))
    return position

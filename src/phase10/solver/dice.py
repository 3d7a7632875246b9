"""The exact Phase 10 Dice solver: which dice to keep, and the odds of a turn
(docs/dice-odds.md).

A turn rolls all ten dice, then twice more the dice not set aside; after the first roll
dice may only be set aside (those already aside stay), after the second any die may also
be taken back. :func:`advise` gives, for the dice showing, the dice set aside and the rolls
left, every distinct keep with its chance of completing the phase this turn (and its
expected points: the phase's score if made, 0 if not), both under optimal play from there,
and the best keep for the chosen :class:`Objective`. :func:`turn_odds` gives the same from
the start of a turn, under optimal play and under simple strategies.

The values are exact expectations over the dice (:mod:`phase10.solver.dice_dp`), computed
for a phase on its first use and kept (0.1 to 0.5 s a phase, see ``make bench``); every
answer after that is a lookup (a hint: a few milliseconds). Phase 8's points are valued die
by die (:mod:`phase10.solver.dice_colour`: a table of every roll, about 2 s to build; a
hint for points with two rolls left then takes about 0.2 s).

>>> from phase10.dice import parse_faces
>>> advice = advise(7, parse_faces("R5 G5 O5 R9 R9 G7 B1 B2 GW B3"), rolls_left=1)
>>> [str(advice.faces[i]) for i in advice.best.keep], round(advice.best.probability, 4)
(['R5', 'G5', 'O5', 'R9', 'R9', 'GW'], 0.4105)
>>> round(turn_odds(1).probability, 4)
0.9866
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

import numpy as np

from phase10.dice import DICE, DICE_COUNT, DiceError, Face, Way, assign_dice, best_way, dice_phase

from . import dice_colour
from .dice_dp import Floats, Ints
from .dice_models import Model, model

__all__ = [
    "Advice",
    "KeepOption",
    "Objective",
    "Strategy",
    "TurnOdds",
    "advise",
    "odds_table",
    "phase_odds",
    "play_turn",
    "turn_odds",
]

MAX_ROLLS_LEFT = 2


class Objective(StrEnum):
    """What a keep is chosen to maximise."""

    PROBABILITY = "probability"  # of completing the phase this turn
    POINTS = "points"  # expected: the phase's score if made, 0 if not


class Strategy(StrEnum):
    """How a player keeps dice, for :func:`turn_odds`."""

    OPTIMAL = "optimal"  # the keep of greatest probability (or expected points), every roll
    GREEDY = "greedy"  # the dice of the target the dice showing fill most, every roll
    ONE_ROLL = "one-roll"  # no reroll: the first roll is the turn


@dataclass(frozen=True)
class _Tables:
    """A phase's values for one objective: what keeping a state is worth with 1 or 2
    rolls left (played optimally for the objective), and the optimal keeps."""

    keep_value: dict[int, Floats]
    best_keep: dict[int, Ints]  # per rolls left: full state -> flat kept state


@cache
def _tables(phase: int, objective: Objective) -> _Tables:
    shape = model(phase)
    space = shape.space
    final = shape.final_values(objective is Objective.POINTS)
    keep_value: dict[int, Floats] = {}
    best_keep: dict[int, Ints] = {}
    for rolls in (1, 2):
        values = space.roll_expectation(final)
        keep_value[rolls] = values
        best, where = space.best_below(values)
        final = space.full_values(best)
        best_keep[rolls] = space.full_values(where.astype(np.float64)).astype(np.int64)
    return _Tables(keep_value, best_keep)


@dataclass(frozen=True)
class TurnOdds:
    """A phase from the start of a turn under a strategy: the chance of completing it and
    the expected points."""

    phase: int
    strategy: Strategy
    objective: Objective
    probability: float
    points: float


def _evaluate(shape: Model, last_roll: Floats, keeps: dict[int, Ints]) -> float:
    """The expected final value from the start of a turn under fixed keeps per rolls left,
    given what keeping each state is worth with one roll left (``last_roll``)."""
    space = shape.space
    values = last_roll.reshape(-1)[keeps[1]].reshape(space.full_shape)
    kept = space.roll_expectation(values)
    values = kept.reshape(-1)[keeps[2]].reshape(space.full_shape)
    return float(space.roll_expectation(values).reshape(-1)[0])


@cache
def turn_odds(
    phase: int,
    strategy: Strategy = Strategy.OPTIMAL,
    objective: Objective = Objective.PROBABILITY,
) -> TurnOdds:
    """The chance of completing ``phase`` in one turn and the expected points, under a
    strategy (``objective`` says what the optimal strategy maximises)."""
    shape = model(phase)
    strategy, objective = Strategy(strategy), Objective(objective)
    if not shape.has_points:
        return _colour_turn_odds(shape, strategy, objective)
    keeps = _strategy_keeps(shape, strategy, objective)
    last_roll = {goal: _tables(phase, goal).keep_value[1] for goal in Objective}
    probability = _evaluate(shape, last_roll[Objective.PROBABILITY], keeps)
    points = _evaluate(shape, last_roll[Objective.POINTS], keeps)
    return TurnOdds(phase, strategy, objective, probability, points)


def _strategy_keeps(shape: Model, strategy: Strategy, objective: Objective) -> dict[int, Ints]:
    """What a strategy keeps from each full state, per rolls left (one roll: everything)."""
    if strategy is Strategy.OPTIMAL:
        return _tables(shape.phase.number, objective).best_keep
    if strategy is Strategy.GREEDY:
        greedy = shape.greedy_keeps()
        return {1: greedy, 2: greedy}
    keep_all = _full_flats(shape.phase.number).reshape(shape.space.full_shape)
    return {1: keep_all, 2: keep_all}


def _colour_turn_odds(shape: Model, strategy: Strategy, objective: Objective) -> TurnOdds:
    """Phase 8: its chance on the colour classes; its points die by die
    (:mod:`phase10.solver.dice_colour`) for the keeps of most points and for one roll."""
    phase = shape.phase.number
    if strategy is Strategy.OPTIMAL and objective is Objective.POINTS:
        value = dice_colour.turn_value()
        return TurnOdds(phase, strategy, objective, value.probability, value.points)
    keeps = _strategy_keeps(shape, strategy, Objective.PROBABILITY)
    last_roll = _tables(phase, Objective.PROBABILITY).keep_value[1]
    probability = _evaluate(shape, last_roll, keeps)
    if strategy is Strategy.ONE_ROLL:  # the first roll is the turn: its average score
        rolled = np.full((1, DICE_COUNT), -1, dtype=np.int64)
        points = float(dice_colour.one_roll(rolled)[0][0])
    else:
        points = dice_colour.strategy_points(shape.die_class, shape.space, keeps)
    return TurnOdds(phase, strategy, objective, probability, points)


def phase_odds(phase: int) -> list[TurnOdds]:
    """A phase under optimal play (for probability, then for points) and the simple
    strategies."""
    return [
        turn_odds(phase),
        turn_odds(phase, objective=Objective.POINTS),
        turn_odds(phase, Strategy.GREEDY),
        turn_odds(phase, Strategy.ONE_ROLL),
    ]


def odds_table() -> list[TurnOdds]:
    """:func:`phase_odds` of every phase, phase by phase."""
    return [row for phase in range(1, 11) for row in phase_odds(phase)]


@dataclass(frozen=True)
class KeepOption:
    """A keep: the dice set aside (positions in :attr:`Advice.faces`), with the chance of
    completing the phase this turn and the expected points when playing on optimally for
    each (phase 8's points only when advising for points: None otherwise)."""

    keep: tuple[int, ...]
    probability: float
    points: float | None

    def value(self, objective: Objective) -> float:
        if objective is Objective.POINTS:
            if self.points is None:
                raise DiceError("this keep's points were not worked out: advise for points")
            return self.points
        return self.probability


@dataclass(frozen=True)
class Advice:
    """What to keep: :attr:`best` for the objective, then every other distinct keep, best
    first (keeps that differ only by alike dice are one option). With no roll left the one
    option keeps everything and tells whether (and with what score) the phase is made."""

    phase: int
    rolls_left: int
    objective: Objective
    faces: tuple[Face, ...]
    dice: tuple[int, ...]  # the die showing each face
    kept: tuple[int, ...]  # positions set aside before
    options: tuple[KeepOption, ...]
    made: Way | None  # the best way the dice showing make the phase now

    @property
    def best(self) -> KeepOption:
        return self.options[0]

    @property
    def rerolled(self) -> tuple[int, ...]:
        """The positions the best keep rolls again."""
        return tuple(i for i in range(len(self.faces)) if i not in self.best.keep)

    @property
    def keep_dice(self) -> tuple[int, ...]:
        """The dice (indices into :data:`phase10.dice.DICE`) the best keep sets aside."""
        return tuple(sorted(self.dice[i] for i in self.best.keep))

    @property
    def take_back(self) -> tuple[int, ...]:
        """The dice set aside before that the best keep rolls again (with one roll left)."""
        return tuple(sorted(self.dice[i] for i in self.kept if i not in self.best.keep))


def advise(
    phase: int,
    faces: Sequence[Face],
    *,
    rolls_left: int,
    kept: Sequence[int] = (),
    objective: Objective | str = Objective.PROBABILITY,
    dice: Sequence[int] | None = None,
) -> Advice:
    """The keeps for ten dice showing ``faces`` with ``rolls_left`` rolls (0-2) to go,
    ``kept`` (positions) set aside before: with 2 rolls left they stay aside, with 1 they
    may be taken back. ``dice`` names the die showing each face (default: as
    :func:`phase10.dice.assign_dice` matches them). A game's view fits as it is: its faces
    showing by die, ``dice=range(10)``, its rolls left and the dice it has set aside.

    >>> from phase10.dice import parse_faces
    >>> advice = advise(
    ...     1, parse_faces("R5 G5 O5 R9 R9 G7 B1 B2 GW B3"), rolls_left=1, kept=(5,),
    ...     dice=range(10), objective="points")
    >>> advice.keep_dice, advice.take_back, round(advice.best.points or 0, 2)
    ((0, 1, 2, 3, 4, 6, 7, 8, 9), (5,), 34.5)
    """
    chosen = dice_phase(phase)
    objective = Objective(objective)
    faces = tuple(faces)
    if len(faces) != DICE_COUNT:
        raise DiceError(f"a hint needs all {DICE_COUNT} dice showing, not {len(faces)}")
    if isinstance(rolls_left, bool) or rolls_left not in (0, 1, MAX_ROLLS_LEFT):
        raise DiceError(f"rolls left are 0, 1 or 2, not {rolls_left!r}")
    owners = tuple(assign_dice(faces) if dice is None else dice)
    if sorted(owners) != list(range(DICE_COUNT)) or any(
        face not in DICE[die].faces for face, die in zip(faces, owners, strict=True)
    ):
        raise DiceError("each face must be shown by a die that has it, one face per die")
    aside = tuple(sorted(set(kept)))
    if any(not 0 <= i < DICE_COUNT for i in aside):
        raise DiceError(f"kept dice are positions 0-{DICE_COUNT - 1}")
    shape = model(chosen.number)
    die_by_die = objective is Objective.POINTS and not shape.has_points
    made = best_way(chosen, faces)
    if rolls_left == 0:
        option = KeepOption(
            tuple(range(DICE_COUNT)),
            1.0 if made else 0.0,
            float(made.score if made else 0) if shape.has_points or die_by_die else None,
        )
        return Advice(chosen.number, 0, objective, faces, owners, aside, (option,), made)
    fixed = aside if rolls_left == MAX_ROLLS_LEFT else ()
    probability = _tables(chosen.number, Objective.PROBABILITY).keep_value[rolls_left]
    expected: Floats | None = None
    if die_by_die:
        keeps, flats, expected = _colour_keeps(shape, faces, owners, fixed, rolls_left)
    else:
        keeps, flats = _keeps(shape, faces, owners, fixed, prefer=aside)
        if shape.has_points:
            points = _tables(chosen.number, Objective.POINTS).keep_value[rolls_left]
            expected = points.reshape(-1)[flats]
    chances = probability.reshape(-1)[flats]
    options = [
        KeepOption(keep, float(chances[n]), None if expected is None else float(expected[n]))
        for n, keep in enumerate(keeps)
    ]
    # best first; on a tie the other objective, then keeping more (fewer dice to roll)
    other = Objective.POINTS if objective is Objective.PROBABILITY else Objective.PROBABILITY
    options.sort(
        key=lambda o: (
            -round(o.value(objective), 12),
            -round(o.value(other), 12) if o.points is not None else 0,
            -len(o.keep),
        )
    )
    return Advice(chosen.number, rolls_left, objective, faces, owners, aside, tuple(options), made)


def _keeps(
    shape: Model,
    faces: Sequence[Face],
    owners: Sequence[int],
    fixed: Sequence[int],
    prefer: Sequence[int],
) -> tuple[list[tuple[int, ...]], Ints]:
    """One keep (positions) per distinct kept state that holds every ``fixed`` position,
    and the flat index of each kept state; of alike dice, those in ``prefer`` (set aside
    already) are kept first."""
    groups: dict[tuple[int, int], list[int]] = {}
    for i in sorted(range(len(faces)), key=lambda i: (i not in prefer, i)):
        key = (shape.die_class[owners[i]], shape.symbol(faces[i]))
        groups.setdefault(key, []).append(i)
    keys = list(groups)
    ranges = [
        np.arange(sum(1 for i in groups[key] if i in fixed), len(groups[key]) + 1) for key in keys
    ]
    grid = np.stack([axis.reshape(-1) for axis in np.meshgrid(*ranges, indexing="ij")], axis=1)
    space = shape.space
    indices = []
    for c, cls in enumerate(space.classes):
        counts = np.zeros((len(grid), len(cls.weights)), dtype=np.int64)
        for g, (klass, symbol) in enumerate(keys):
            if klass == c:
                counts[:, symbol] = grid[:, g]
        indices.append(cls.indices(counts))
    flats = np.ravel_multi_index(tuple(indices), space.shape)
    keeps = [
        tuple(sorted(i for n, key in zip(row, keys, strict=True) for i in groups[key][:n]))
        for row in grid.tolist()
    ]
    return keeps, np.asarray(flats)


def _colour_keeps(
    shape: Model,
    faces: Sequence[Face],
    owners: Sequence[int],
    fixed: Sequence[int],
    rolls_left: int,
) -> tuple[list[tuple[int, ...]], Ints, Floats]:
    """Phase 8 for points: every keep holding the ``fixed`` positions (each die on its own,
    as its values differ), the flat index of its colour-class state, and its expected
    points (:mod:`phase10.solver.dice_colour`; rounded to float32's precision)."""
    face_of = [0] * DICE_COUNT  # each die's face, as an index into its faces
    for face, die in zip(faces, owners, strict=True):
        face_of[die] = DICE[die].faces.index(face)
    free = [i for i in range(DICE_COUNT) if i not in fixed]
    keeps = [
        tuple(sorted((*fixed, *(i for n, i in enumerate(free) if mask >> n & 1))))
        for mask in range(1 << len(free))
    ]
    kept_faces = np.full((len(keeps), DICE_COUNT), -1, dtype=np.int64)
    for row, keep in enumerate(keeps):
        for i in keep:
            kept_faces[row, owners[i]] = face_of[owners[i]]
    if rolls_left == 1:
        points = dice_colour.one_roll(kept_faces)[0]
    else:
        points = dice_colour.two_rolls(face_of)[tuple((kept_faces >= 0).astype(np.int64).T)]
    flats = np.array(
        [
            shape.space.flat(shape.state([owners[i] for i in keep], [faces[i] for i in keep]))
            for keep in keeps
        ],
        dtype=np.int64,
    )
    return keeps, flats, np.round(points, 5)


def play_turn(
    phase: int,
    rng: random.Random,
    strategy: Strategy = Strategy.OPTIMAL,
    objective: Objective = Objective.PROBABILITY,
) -> Way | None:
    """Play one turn with the real dice (each die rolled on its own faces) keeping by a
    strategy's tables; the best way the final dice make the phase, or None."""
    shape = model(phase)
    faces = [rng.choice(die.faces) for die in DICE]
    if strategy is Strategy.OPTIMAL and objective is Objective.POINTS and not shape.has_points:
        kept: tuple[int, ...] = ()
        for rolls in (2, 1):  # phase 8 for points: each die on its own, by advise
            advice = advise(
                phase,
                faces,
                rolls_left=rolls,
                kept=kept,
                objective=objective,
                dice=range(DICE_COUNT),
            )
            kept = advice.best.keep
            faces = [
                face if i in kept else rng.choice(DICE[i].faces) for i, face in enumerate(faces)
            ]
        return best_way(phase, faces)
    if strategy is Strategy.ONE_ROLL:
        return best_way(phase, faces)
    keeps = _strategy_keeps(shape, strategy, objective)
    space = shape.space
    position = _full_positions(phase)
    for rolls in (2, 1):
        state = shape.state(range(DICE_COUNT), faces)
        target = space.unflat(int(keeps[rolls].reshape(-1)[position[space.flat(state)]]))
        wanted = {(c, s): n for c, row in enumerate(target) for s, n in enumerate(row)}
        for die in range(DICE_COUNT):
            key = (shape.die_class[die], shape.symbol(faces[die]))
            if wanted.get(key, 0):
                wanted[key] -= 1
            else:
                faces[die] = rng.choice(DICE[die].faces)
    return best_way(phase, faces)


@cache
def _full_flats(phase: int) -> Ints:
    """The flat index of every full state, in :meth:`StateSpace.full_values` order."""
    space = model(phase).space
    full = np.arange(int(np.prod(space.shape))).reshape(space.shape)
    return space.full_values(full.astype(np.float64)).astype(np.int64).reshape(-1)


@cache
def _full_positions(phase: int) -> Ints:
    """The inverse of :func:`_full_flats`: a full state's flat index -> its position."""
    flats = _full_flats(phase)
    positions = np.full(int(np.prod(model(phase).space.shape)), -1, dtype=np.int64)
    positions[flats] = np.arange(len(flats))
    return positions

"""Phase 8's points by exhaustive enumeration: every keep of every roll, each die on its
own, against :mod:`phase10.solver.dice_colour` (which keeps dice of one colour only).

Every die is in one of seven states (one of its six faces, or rolled), so every keep of
every roll is a cell of a 7¹⁰ array (282 million float32 cells, 1.1 GB). The score of each
of the 6¹⁰ rolls is worked out here from the faces directly (and checked against
:func:`phase10.dice.best_way` on sampled rolls). Then, with nothing left out:

1. rolling: a cell with a die rolled is the average over that die's six faces, one die at
   a time; this is the value of every keep with one roll left;
2. choosing: every cell takes the greatest value of its sub-keeps (any die may be rolled
   again), so each roll holds the best of all its 1,024 keeps: compared with
   :func:`~phase10.solver.dice_colour.best_one_roll` on all 6¹⁰ rolls;
3. rolling and choosing again gives each roll's best keep with two rolls left: compared
   with :func:`~phase10.solver.dice_colour.best_two_rolls`, and the average over the rolls
   with :func:`~phase10.solver.dice_colour.turn_value`.

Takes a minute or two and about 3 GB of memory; the result is written to
``benchmarks/results/dice-phase8.json``.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from phase10.dice import DICE, DICE_COUNT, best_way
from phase10.solver.dice_colour import SEVEN, best_one_roll, best_two_rolls, turn_value

RESULTS = Path(__file__).resolve().parent / "results"
FACES = 6
ROLLED = FACES  # the seventh state of a die
SAMPLES = 2_000

Array = npt.NDArray[np.float32]


def _along(axis: int, index: int | slice) -> tuple[int | slice, ...]:
    return (slice(None),) * axis + (index,)


def _scores() -> Array:
    """Every roll's phase 8 score, by face index (shape (6,) * 10)."""
    colours = np.array([[ord(face.colour.value) for face in die.faces] for die in DICE])
    points = np.array([[face.points for face in die.faces] for die in DICE])
    rolls = np.indices((FACES,) * (DICE_COUNT - 2)).reshape(DICE_COUNT - 2, -1).T
    scores = np.empty((FACES,) * DICE_COUNT, dtype=np.float32)
    for a in range(FACES):
        for b in range(FACES):
            faces = np.concatenate(
                [np.full((len(rolls), 1), a), np.full((len(rolls), 1), b), rolls], axis=1
            )
            colour = colours[np.arange(DICE_COUNT), faces]
            value = points[np.arange(DICE_COUNT), faces]
            best = np.zeros(len(rolls))
            for letter in np.unique(colours):
                mine = np.where(colour == letter, value, -1)
                top = (-np.sort(-mine, axis=1))[:, :SEVEN].clip(min=0).sum(axis=1)
                best = np.where((mine >= 0).sum(axis=1) >= SEVEN, top, best)
            scores[a, b] = best.reshape((FACES,) * (DICE_COUNT - 2))
    return scores


def _check_scores(scores: Array, rng: random.Random) -> int:
    """Sampled rolls (half of them made) scored by the engine: the number checked."""
    checked = 0
    while checked < SAMPLES:
        faces = [rng.randrange(FACES) for _ in range(DICE_COUNT)]
        if checked % 2:  # a made roll: most dice of one colour
            colour = rng.choice([face.colour for face in DICE[0].faces])
            for d, die in enumerate(DICE):
                mine = [f for f, face in enumerate(die.faces) if face.colour is colour]
                if mine and rng.random() < 0.9:
                    faces[d] = rng.choice(mine)
        way = best_way(8, [DICE[d].faces[f] for d, f in enumerate(faces)])
        expected = 0 if way is None else way.score
        if scores[tuple(faces)] != expected:
            raise AssertionError(f"roll {faces}: {scores[tuple(faces)]} != {expected}")
        checked += 1
    return checked


def _roll(cells: Array) -> None:
    """Every cell with dice rolled becomes the average over their faces (in place)."""
    for d in range(DICE_COUNT):
        faces = cells[_along(d, slice(0, FACES))]
        cells[_along(d, ROLLED)] = faces.mean(axis=d, dtype=np.float64)


def _choose(cells: Array) -> None:
    """Every cell becomes the greatest value of its sub-keeps (in place)."""
    for d in range(DICE_COUNT):
        rolled = cells[_along(d, slice(ROLLED, ROLLED + 1))]
        np.maximum(cells[_along(d, slice(0, FACES))], rolled, out=cells[_along(d, slice(0, FACES))])


def main() -> dict[str, object]:
    start = time.perf_counter()
    rng = random.Random(8)
    cells = np.zeros((FACES + 1,) * DICE_COUNT, dtype=np.float32)
    rolls = (slice(0, FACES),) * DICE_COUNT
    scores = _scores()
    checked = _check_scores(scores, rng)
    cells[rolls] = scores
    del scores
    _roll(cells)
    _choose(cells)
    one = best_one_roll()
    one_error = float(np.abs(cells[rolls] - one).max())
    _roll(cells)
    _choose(cells)
    two, _ = best_two_rolls()
    two_error = float(np.abs(cells[rolls] - two).max())
    exhaustive = float(cells[rolls].mean(dtype=np.float64))
    solved = turn_value()
    result: dict[str, object] = {
        "rolls_scored_against_engine": checked,
        "one_roll_left_max_difference": one_error,
        "two_rolls_left_max_difference": two_error,
        "turn_points_exhaustive": round(exhaustive, 6),
        "turn_points_solver": round(solved.points, 6),
        "turn_chance_solver": round(solved.probability, 6),
        "seconds": round(time.perf_counter() - start, 1),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "dice-phase8.json").write_text(json.dumps(result, indent=2) + "\n")
    return result

"""Phase 8's points (phase10.solver.dice_colour), each die on its own, against brute force:
a keep with one roll left against every outcome of the real dice rolled, the best of a roll
against every one of its 1,024 keeps, a keep with two rolls left against every outcome and
the best keep after it, and the strategies' points against playing them with real dice.
(benchmarks/bench_dice_phase8.py does the same over every roll at once.)"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from itertools import product

import numpy as np
import pytest

from phase10.dice import DICE, Colour, Face, best_way, parse_faces
from phase10.solver import dice_colour
from phase10.solver.dice import Objective, Strategy, _tables, advise, play_turn, turn_odds
from phase10.solver.dice_models import model


def _roll(rng: random.Random, colour: Colour | None = None) -> list[Face]:
    """A roll of the real dice; with a colour, most dice show it (phase 8 nearly made)."""
    faces = []
    for die in DICE:
        mine = [face for face in die.faces if face.colour is colour]
        faces.append(rng.choice(mine if mine and rng.random() < 0.7 else die.faces))
    return faces


def _points(faces: list[Face]) -> float:
    way = best_way(8, faces)
    return 0 if way is None else way.score


def _average(faces: list[Face], rolled: list[int], value: Callable[[list[Face]], float]) -> float:
    """The average of ``value`` over every outcome of the ``rolled`` dice."""
    outcomes = list(product(*(DICE[d].faces for d in rolled)))
    total = 0.0
    for outcome in outcomes:
        final = list(faces)
        for d, face in zip(rolled, outcome, strict=True):
            final[d] = face
        total += value(final)
    return total / len(outcomes)


def test_a_keep_with_one_roll_left_is_the_average_over_every_outcome() -> None:
    rng = random.Random(8)
    for colour in (Colour.RED, Colour.BLUE, None):
        faces = _roll(rng, colour)
        advice = advise(8, faces, rolls_left=1, dice=range(10), objective="points")
        by_keep = {option.keep: option for option in advice.options}
        assert len(by_keep) == 1024  # every die on its own: every keep is an option
        for rolled in (3, 4):
            keep = tuple(sorted(rng.sample(range(10), 10 - rolled)))
            expected = _average(faces, [d for d in range(10) if d not in keep], _points)
            assert by_keep[keep].points == pytest.approx(expected, abs=1e-5)


def test_the_best_of_a_roll_is_the_best_of_all_its_keeps() -> None:
    # keeps of one colour only are searched; every keep (dice of several colours too) is
    # valued here, and none is better
    best = dice_colour.best_one_roll()
    rng = random.Random(9)
    for n in range(12):
        faces = _roll(rng, list(Colour)[n % 4] if n % 3 else None)
        advice = advise(8, faces, rolls_left=1, dice=range(10), objective="points")
        everything = max(option.points or 0.0 for option in advice.options)
        index = tuple(DICE[d].faces.index(face) for d, face in enumerate(faces))
        assert float(best[index]) == pytest.approx(everything, abs=1e-4)


def test_a_keep_with_two_rolls_left_is_the_average_of_the_best_after() -> None:
    rng = random.Random(10)
    faces = _roll(rng, Colour.GREEN)
    keep = tuple(sorted(rng.sample(range(10), 8)))
    advice = advise(8, faces, rolls_left=2, kept=keep, dice=range(10), objective="points")
    assert all(set(keep) <= set(option.keep) for option in advice.options)
    option = next(o for o in advice.options if o.keep == keep)
    rolled = [d for d in range(10) if d not in keep]
    expected = _average(faces, rolled, _best_after)
    assert option.points == pytest.approx(expected, abs=1e-4)


def _best_after(faces: list[Face]) -> float:
    """The most points expected from ``faces`` with one roll left, over every keep."""
    return advise(8, faces, rolls_left=1, dice=range(10), objective="points").best.points or 0.0


@pytest.mark.parametrize("strategy", [Strategy.OPTIMAL, Strategy.GREEDY])
def test_the_strategies_points_match_playing_them_with_real_dice(strategy: Strategy) -> None:
    odds = turn_odds(8, strategy)
    assert odds.points is not None
    rng = random.Random(80)
    turns = 3000
    scores = [
        0 if way is None else way.score
        for way in (play_turn(8, rng, strategy) for _ in range(turns))
    ]
    mean = sum(scores) / turns
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / (turns - 1))
    assert abs(mean - odds.points) <= 4 * spread / math.sqrt(turns)


def test_advice_for_points_keeps_the_high_dice_of_the_colour() -> None:
    faces = parse_faces("R5 G5 O5 R5 R7 G7 O3 O4 R2 R4")  # five red
    advice = advise(8, faces, rolls_left=1, objective="points")
    assert [str(faces[i]) for i in advice.best.keep] == ["R5", "R5", "R7", "R2", "R4"]
    assert advice.best.points == pytest.approx(8.97248, abs=1e-5)
    chance = advise(8, faces, rolls_left=1)  # for the chance: no points worked out
    assert chance.best.points is None
    assert chance.best.probability == pytest.approx(advice.best.probability)


def test_the_best_chance_keeps_score_distribution_adds_up_to_their_odds() -> None:
    shape = model(8)
    keeps = {left: _tables(8, Objective.PROBABILITY).best_keep[left] for left in (1, 2)}
    chances = dice_colour.strategy_score_chances(shape.die_class, shape.space, keeps)
    odds = turn_odds(8)
    assert chances.sum() == pytest.approx(odds.probability, abs=1e-12)
    assert (chances * np.arange(len(chances))).sum() == pytest.approx(odds.points, abs=1e-9)

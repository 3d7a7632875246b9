"""The Phase 10 Dice solver (phase10.solver.dice) against brute force: every final roll's
value against best_way, keep values against exhaustive enumeration of the real dice, the
two-rolls-left values against the one-roll-left advice, phase 8's one-roll chance against
enumerating every die's colours, and the optimal policy's start-of-turn chance against
simulation."""

from __future__ import annotations

import math
import random
from itertools import product

import numpy as np
import pytest

from phase10.dice import DICE, DiceError, Face, best_way, parse_faces
from phase10.solver.dice import (
    Objective,
    Strategy,
    advise,
    play_turn,
    turn_odds,
)
from phase10.solver.dice_models import COLOURS, _full_counts, _value_finals, model


def _roll(rng: random.Random) -> list[Face]:
    return [rng.choice(die.faces) for die in DICE]


@pytest.mark.parametrize("phase", [1, 2, 3, 4, 5, 6, 7, 9, 10])
def test_final_values_are_best_way_on_every_value_state(phase: int) -> None:
    # one roll per full value state (any dice showing those values): made and score agree
    made, score = _value_finals(phase)
    counts, wilds = _full_counts()
    high = [[die.faces[v - 5] for die in DICE[:6]] for v in range(5, 11)]
    rng = random.Random(phase)
    for _ in range(80):  # a sample of the 32,340 states (best_way is slow)
        i, j = rng.randrange(counts.shape[0]), rng.randrange(counts.shape[1])
        values = [v for v in range(5, 11) for _ in range(counts[i, j, v - 1])]
        faces = [high[v - 5][k] for k, v in enumerate(values)]
        lows = [v for v in range(1, 5) for _ in range(counts[i, j, v - 1])]
        lows += [0] * int(wilds[i, j])
        faces += [
            next(f for f in die.faces if f.value == v)
            for die, v in zip(DICE[6:], lows, strict=True)
        ]
        way = best_way(phase, faces)
        assert bool(made[i, j]) == (way is not None)
        assert score[i, j] == (way.score if way else 0)


def _enumerate(phase: int, faces: list[Face], reroll: list[int]) -> tuple[float, float]:
    """The chance and expected points of rerolling ``reroll`` (die indices) once, by every
    outcome of those real dice."""
    made = points = 0
    outcomes = list(product(*(DICE[d].faces for d in reroll)))
    for outcome in outcomes:
        final = list(faces)
        for d, face in zip(reroll, outcome, strict=True):
            final[d] = face
        way = best_way(phase, final)
        made += way is not None
        points += way.score if way else 0
    return made / len(outcomes), points / len(outcomes)


@pytest.mark.parametrize("phase", range(1, 11))
def test_one_roll_left_keeps_match_enumerating_the_real_dice(phase: int) -> None:
    rng = random.Random(phase)
    for _ in range(2):
        faces = _roll(rng)
        advice = advise(phase, faces, rolls_left=1, dice=range(10))
        by_keep = {option.keep: option for option in advice.options}
        for rerolled in (2, 3):
            keep = tuple(sorted(rng.sample(range(10), 10 - rerolled)))
            option = next(o for k, o in by_keep.items() if _alike(phase, faces, k, keep))
            chance, points = _enumerate(phase, faces, [d for d in range(10) if d not in keep])
            assert option.probability == pytest.approx(chance, abs=1e-12)
            if option.points is not None:
                assert option.points == pytest.approx(points, abs=1e-9)


def _alike(phase: int, faces: list[Face], a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    shape = model(phase)
    return shape.state(a, [faces[i] for i in a]) == shape.state(b, [faces[i] for i in b])


@pytest.mark.parametrize("phase", [2, 8, 10])
def test_two_rolls_left_is_the_average_of_the_best_one_roll_left_keep(phase: int) -> None:
    # the value of a keep with two rolls left: every outcome of the dice rolled, then the
    # best of every keep (any die may be taken back) with one roll left
    rng = random.Random(100 + phase)
    faces = _roll(rng)
    keep = tuple(sorted(rng.sample(range(10), 8)))
    advice = advise(phase, faces, rolls_left=2, kept=keep, dice=range(10))
    assert all(set(keep) <= set(option.keep) for option in advice.options)
    option = next(o for o in advice.options if _alike(phase, faces, o.keep, keep))
    rolled = [d for d in range(10) if d not in keep]
    total = {"p": 0.0, "pts": 0.0}
    outcomes = list(product(*(DICE[d].faces for d in rolled)))
    for outcome in outcomes:
        final = list(faces)
        for d, face in zip(rolled, outcome, strict=True):
            final[d] = face
        after = advise(phase, final, rolls_left=1, dice=range(10))
        total["p"] += max(o.probability for o in after.options)
        if after.best.points is not None:
            total["pts"] += max(o.points or 0 for o in after.options)
    assert option.probability == pytest.approx(total["p"] / len(outcomes), abs=1e-12)
    if option.points is not None:
        points = advise(phase, faces, rolls_left=2, kept=keep, dice=range(10), objective="points")
        best = next(o for o in points.options if _alike(phase, faces, o.keep, keep))
        assert best.points == pytest.approx(total["pts"] / len(outcomes), abs=1e-9)


def test_phase_8_in_one_roll_matches_every_die_s_colours() -> None:
    # each die on its own: the chance of each colour, multiplied over all 4**10 colourings
    chance = np.ones((1,) * 0)
    for die in DICE:
        per = np.array([sum(f.colour is c for f in die.faces) / 6 for c in COLOURS])
        chance = np.multiply.outer(chance, per)
    colourings = np.indices((4,) * 10).reshape(10, -1).T
    counts = np.stack([(colourings == c).sum(axis=1) for c in range(4)], axis=1)
    made = counts.max(axis=1) >= 7
    exact = float(chance.reshape(-1)[made].sum())
    assert turn_odds(8, Strategy.ONE_ROLL).probability == pytest.approx(exact, abs=1e-12)


@pytest.mark.parametrize("phase", [4, 8, 10])
def test_the_optimal_policy_played_with_real_dice_scores_its_odds(phase: int) -> None:
    # a check of the whole: keeps read from the tables, real dice, best_way at the end
    odds = turn_odds(phase)
    rng = random.Random(phase)
    turns = 1000
    results = [play_turn(phase, rng) for _ in range(turns)]
    made = sum(way is not None for way in results) / turns
    bound = 4 * math.sqrt(odds.probability * (1 - odds.probability) / turns) + 1e-9
    assert abs(made - odds.probability) <= bound


def test_a_made_phase_is_kept_and_optimal_beats_the_simple_strategies() -> None:
    faces = parse_faces("R5 G5 O5 R9 R9 G7 B1 B2 GW B3")
    advice = advise(1, faces, rolls_left=1)
    assert advice.made is not None and advice.best.probability == pytest.approx(1.0)
    assert {str(faces[i]) for i in advice.best.keep} >= {"R5", "G5", "O5", "R9", "GW"}
    for phase in (1, 8, 10):
        best = turn_odds(phase).probability
        assert best >= turn_odds(phase, Strategy.GREEDY).probability - 1e-12
        assert (
            turn_odds(phase, Strategy.GREEDY).probability
            > turn_odds(phase, Strategy.ONE_ROLL).probability
        )
    assert turn_odds(1, objective=Objective.POINTS).points > turn_odds(1).points


def test_bad_input_is_refused_by_name() -> None:
    faces = parse_faces("R5 G5 O5 R9 R9 G7 B1 B2 GW B3")
    with pytest.raises(DiceError, match="rolls left are 0, 1 or 2"):
        advise(1, faces, rolls_left=3)
    with pytest.raises(DiceError, match="all 10 dice"):
        advise(1, faces[:9], rolls_left=1)
    with pytest.raises(DiceError, match="points were not worked out"):
        advise(8, faces, rolls_left=1).best.value(Objective.POINTS)


def test_phase_8_keeps_match_every_outcome_of_five_real_dice() -> None:
    # each die rolled on its own six faces (its own colours), 6**5 outcomes per keep
    rng = random.Random(88)
    chances = []
    for _ in range(3):
        faces = _roll(rng)
        advice = advise(8, faces, rolls_left=1, dice=range(10))
        # keep the dice of the most common colour, and others up to five
        common = max(COLOURS, key=lambda c: sum(f.colour is c for f in faces))
        keep = tuple(sorted(sorted(range(10), key=lambda d: faces[d].colour is not common)[:5]))
        option = next(o for o in advice.options if _alike(8, faces, o.keep, keep))
        rolled = [d for d in range(10) if d not in keep]
        kept = [faces[d].colour for d in keep]
        made = 0
        outcomes = list(product(*(DICE[d].faces for d in rolled)))
        for outcome in outcomes:
            colours = kept + [face.colour for face in outcome]
            made += max(colours.count(colour) for colour in COLOURS) >= 7
        assert option.probability == pytest.approx(made / len(outcomes), abs=1e-12)
        chances.append(made / len(outcomes))
    assert min(chances) > 0

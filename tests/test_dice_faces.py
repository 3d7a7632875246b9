"""docs/dice.md §1 (the dice and their faces) and §2 (the phases, the best-scoring way)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from phase10.dice import (
    DICE,
    HIGH_DICE,
    LOW_DICE,
    PHASES,
    Colour,
    DiceError,
    Face,
    assign_dice,
    best_way,
    dice_phase,
    parse_faces,
)


def test_d1_six_high_dice_and_four_low_dice_with_the_published_colours() -> None:
    assert len(DICE) == 10 and len(HIGH_DICE) == 6 and len(LOW_DICE) == 4
    for index in HIGH_DICE:
        assert [face.value for face in DICE[index].faces] == [5, 6, 7, 8, 9, 10]
    for index in LOW_DICE:
        assert [face.value for face in DICE[index].faces] == [1, 2, 3, 4, 0, 0]
    assert " ".join(str(face) for face in DICE[0].faces) == "R5 O6 B7 G8 O9 G10"
    assert " ".join(str(face) for face in DICE[9].faces) == "G1 O2 B3 R4 RW GW"
    colours = Counter(face.colour for die in DICE for face in die.faces)
    assert set(colours) == set(Colour) and sum(colours.values()) == 60


def test_d1_a_face_is_its_colour_letter_and_value_and_reads_back() -> None:
    for die in DICE:
        for face in die.faces:
            assert Face.parse(str(face)) == face and Face.parse(str(face).lower()) == face
    assert parse_faces("o10, b4 gw") == (Face.parse("O10"), Face.parse("B4"), Face.parse("GW"))
    assert Face.parse("GW").is_wild and Face.parse("GW").points == 0
    for bad in ("Y5", "R11", "R0", "W", "", "RW5"):
        with pytest.raises(DiceError, match="is not a die face"):
            Face.parse(bad)


def test_d1_a_roll_must_be_possible_with_the_physical_dice() -> None:
    with pytest.raises(DiceError, match="only 2 dice have a G10 face"):
        assign_dice(parse_faces("G10 G10 G10"))
    with pytest.raises(DiceError, match="only 1 die has an R1 face"):
        assign_dice(parse_faces("R1 R1"))
    with pytest.raises(DiceError, match="11 faces"):
        assign_dice(parse_faces("R5 " * 11))
    # every roll of the ten dice is accepted, whatever order its faces are written in
    rng = random.Random(1)
    for _ in range(200):
        faces = [rng.choice(die.faces) for die in DICE]
        rng.shuffle(faces)
        dice = assign_dice(faces)
        assert sorted(dice) == list(range(10))
        assert all(face in DICE[die].faces for face, die in zip(faces, dice, strict=True))


def test_d2_the_ten_phases_are_the_card_games() -> None:
    assert [str(phase) for phase in PHASES] == [
        "2 sets of 3",
        "1 set of 3 + 1 run of 4",
        "1 set of 4 + 1 run of 4",
        "1 run of 7",
        "1 run of 8",
        "1 run of 9",
        "2 sets of 4",
        "7 of one colour",
        "1 set of 5 + 1 set of 2",
        "1 set of 5 + 1 set of 3",
    ]
    with pytest.raises(DiceError, match="phases run from 1 to 10, not 11"):
        dice_phase(11)


def brute_best(number: int, faces: tuple[Face, ...]) -> int | None:
    """The best score by trying every way to put each die in a group or leave it out."""
    groups = dice_phase(number).groups
    best: int | None = None
    for places in itertools.product(range(len(groups) + 1), repeat=len(faces)):
        members: list[list[Face]] = [[] for _ in groups]
        for face, place in zip(faces, places, strict=True):
            if place < len(groups):
                members[place].append(face)
        if all(
            _valid(kind.value, size, dice)
            for (kind, size), dice in zip(groups, members, strict=True)
        ):
            score = sum(face.points for dice in members for face in dice)
            best = score if best is None else max(best, score)
    return best


def _valid(kind: str, size: int, dice: list[Face]) -> bool:
    """Whether these dice are a group of that kind and size (read from the rules alone)."""
    if len(dice) != size:
        return False
    numbers = [face.value for face in dice if not face.is_wild]
    if kind == "set":
        return len(set(numbers)) <= 1
    if kind == "run":  # distinct numbers within a window of ``size`` inside 1-10
        return len(set(numbers)) == len(numbers) and any(
            all(low <= n < low + size for n in numbers) for low in range(1, 12 - size)
        )
    return len({face.colour for face in dice}) == 1


@pytest.mark.parametrize("number", range(1, 11))
def test_d2_the_best_way_scores_what_brute_force_finds(number: int) -> None:
    """Rolls of one die more than the phase needs, half of them rolled from its own faces
    so that the phase is often made, against every placing of the dice."""
    rng = random.Random(number)
    need = dice_phase(number).dice_needed
    for case in range(4):
        dice = rng.sample(range(10), need + 1)
        faces = tuple(rng.choice(DICE[die].faces) for die in dice)
        if case % 2:  # the best way of ten dice, and one die more: a roll that makes it
            ten = tuple(rng.choice(die.faces) for die in DICE)
            way = best_way(number, ten)
            if way is not None:
                faces = (*way.used, rng.choice([f for f in ten if f not in way.used] or ten))
        way = best_way(number, faces)
        assert (None if way is None else way.score) == brute_best(number, faces), faces
        if way is not None:
            assert Counter(way.used) <= Counter(faces) and len(way.used) == need


def test_d2_wilds_fill_sets_and_runs_and_score_nothing() -> None:
    way = best_way(4, parse_faces("R5 O6 GW B8 RW G10 R9 O1 B2 O3"))
    assert way is not None and way.score == 5 + 6 + 8 + 9 + 10  # 4-10, the Wilds as 4 and 7
    nine = best_way(6, parse_faces("R5 O6 GW B8 RW G10 R9 O1 B2 O3"))
    assert nine is not None and nine.score == 2 + 3 + 5 + 6 + 8 + 9 + 10  # 2-10 beats 1-9
    assert best_way(6, parse_faces("R5 O6 G1 B8 R2 G10 R9 O1 B2 O4")) is None  # no 3, no 7
    two_sets = best_way(7, parse_faces("R5 O5 B5 G5 R6 RW GW O2 B9 G9"))
    assert two_sets is not None and two_sets.score == 20 + 18  # 5 5 5 5 and 9 9 W W

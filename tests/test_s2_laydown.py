"""docs/rules.md §2, laying a phase down: the rules for it, played through the game, and the
enumeration of every way a hand can lay a phase down (checked by hand and by brute force).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable
from functools import cache
from itertools import permutations, product

import pytest

from helpers import arranged, assert_refused, play
from phase10 import (
    COLORS,
    Card,
    Game,
    Group,
    GroupError,
    GroupKind,
    HandEnded,
    Hit,
    IllegalActionError,
    InvalidActionError,
    LaidDown,
    LayDown,
    NaturalMin,
    Parity,
    Phase,
    PhaseOrder,
    Rules,
    check_lay_down,
    lay_downs,
    parse_cards,
    parse_group,
    restore,
    snapshot,
)
from phase10 import DeclareWhen as Declare

K = GroupKind
GROUP = NaturalMin.GROUP
PHASE = NaturalMin.PHASE


def laid_groups(events: Iterable[object]) -> list[str]:
    laid = next(event for event in events if isinstance(event, LaidDown))
    return [group.describe() for group in laid.groups]


# -- only your current phase, all of its groups at once ------------------------------


def test_s2_only_the_current_phase() -> None:
    # Seat 0 is on phase 2 (a set of 3 and a run of 4) and also holds phase 1.
    game = arranged(
        ["R7 B7 G7 R3 B3 G3 G4 G5 G6 Y9", "Y11 Y12"], discard="Y1", draw="B5", phases=(2, 1)
    )
    game.apply("draw")
    assert_refused(game, "lay 1: R7 B7 G7 + R3 B3 G3", IllegalActionError, "(you may: 2)")
    assert_refused(
        game, "lay 3: R7 B7 G7 + G3 G4 G5 G6", IllegalActionError, "cannot lay down phase 3 now"
    )
    # Phase 1's shape read as phase 2: the second group is not a run.
    assert_refused(game, "lay R7 B7 G7 + R3 B3 G3", InvalidActionError, "run of 4: R3 B3 G3")
    events = game.apply("lay R7 B7 G7 + G3 G4 G5 G6")
    assert laid_groups(events) == ["R7 B7 G7", "G3 G4 G5 G6"]
    assert next(e for e in events if isinstance(e, LaidDown)).phase == 2
    assert game.seats[0].laid == 1


def test_s2_phase_order_any_lays_any_phase_not_completed() -> None:
    rules = Rules(phase_order=PhaseOrder.ANY, declare=Declare.LAYDOWN)
    # Seat 0 has completed phases 1 and 2.
    game = arranged(
        ["R1 R2 R3 R4 R5 R6 R7 R9 B9 G9", "Y11 Y12"],
        discard="Y1",
        draw="B5",
        phases=(3, 1),
        rules=rules,
    )
    game.apply("draw")
    assert_refused(
        game,
        "lay 1: R9 B9 G9 + R9 B9 G9",
        IllegalActionError,
        "cannot lay down phase 1 now (you may: 3, 4, 5, 6, 7, 8, 9, 10)",
    )
    run = LayDown((parse_group(K.RUN, "R1 R2 R3 R4 R5 R6 R7"),))
    assert_refused(game, run, IllegalActionError, "say which phase you lay down: lay N: ...")
    events = game.apply("lay 4: R1 R2 R3 R4 R5 R6 R7")
    assert next(e for e in events if isinstance(e, LaidDown)).phase == 4
    assert game.seats[0].laid == 3


def test_s2_all_groups_of_the_phase_at_once() -> None:
    game = arranged(["R7 B7 G7 R3 B3 G3 Y9", "Y11 Y12"], discard="Y1", draw="B5")
    game.apply("draw")
    assert_refused(game, "lay R7 B7 G7", InvalidActionError, "2 sets of 3 has 2 groups")
    one = LayDown((parse_group(K.SET, "R7 B7 G7"),))
    assert_refused(game, one, IllegalActionError, "2 sets of 3 is 2 groups, not 1")
    assert game.melds == []
    game.apply("lay R7 B7 G7 + R3 B3 G3")
    assert len(game.melds) == 2


def test_s2_all_cards_from_own_hand() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y9", "G3 G3 Y12"], discard="B3 W", draw="B5", phases=(1, 1))
    game.apply("draw")
    before = snapshot(game)
    # A card nobody holds, another player's card, the top discard not taken, a second copy.
    assert_refused(game, "lay R7 B7 G7 + R3 B3 Y3", IllegalActionError, "you have no Y3")
    assert_refused(game, "lay R7 B7 G7 + R3 B3 G3", IllegalActionError, "you have no G3")
    assert_refused(game, "lay R7 B7 G7 + R3 B3 W", IllegalActionError, "you have no W")
    assert_refused(game, "lay R7 B7 G7 + R3 B3 B3", IllegalActionError, "you have 1 B3, not 2")
    assert snapshot(game) == before


def test_s2_cards_taken_from_the_discard_pile_are_then_your_own() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y9", "G3 G3 Y12"], discard="B3 W", draw="B5")
    game.apply("take")
    events = game.apply("lay R7 B7 G7 + R3 B3 W")
    assert laid_groups(events) == ["R3 B3 W=3", "R7 B7 G7"]
    assert game.hand(0) == parse_cards("Y9")


def test_s2_only_one_phase_per_hand() -> None:
    # Seat 0 holds phase 1 twice over.
    game = arranged(
        ["R7 B7 G7 R3 B3 G3 R9 B9 G9 R5", "B5 G5 Y5 Y12"], discard="Y1", draw="B11 G11 R11"
    )
    game.apply("draw")
    game.apply("lay R7 B7 G7 + R3 B3 G3")
    assert_refused(
        game, "lay R9 B9 G9 + R9 B9 G9", IllegalActionError, "already laid down a phase this hand"
    )
    again = LayDown((parse_group(K.SET, "R9 B9 G9"), parse_group(K.SET, "R9 B9 G9")))
    assert_refused(game, again, IllegalActionError, "already laid down a phase this hand")
    assert not any(isinstance(action, LayDown) for action in game.legal_actions)
    play(game, "discard R5; draw; discard Y12; draw")  # seat 0's next turn, same hand
    assert_refused(game, again, IllegalActionError, "already laid down a phase this hand")


def test_s2_run_of_9_completes_only_one_phase() -> None:
    # On phase 4 (a run of 7), a run of 9 is laid: only phase 4 is completed this hand.
    game = arranged(
        ["R1 R2 R3 R4 R5 R6 R7 R8 R9 Y11", "Y12 Y12"], discard="Y1", draw="B10", phases=(4, 1)
    )
    game.apply("draw")
    game.apply("lay R1 R2 R3 R4 R5 R6 R7 R8 R9")
    game.apply("hit B10 g0")
    events = game.apply("discard Y11")
    ended = next(event for event in events if isinstance(event, HandEnded))
    assert ended.went_out == 0
    assert game.seats[0].completed == {0, 1, 2, 3}
    assert game.seats[0].phase == 4  # phase 5 next (0-based 4), not phase 6


# -- extras, no extra groups, shared numbers -----------------------------------------


@pytest.mark.parametrize(
    ("phase", "hand", "text", "shown"),
    [
        (1, "R7 B7 G7 Y7 R3 B3 G3 Y9", "R7 B7 G7 Y7 + R3 B3 G3", ["R3 B3 G3", "R7 B7 G7 Y7"]),
        (1, "R7 B7 G7 W R3 B3 G3 Y9", "R7 B7 G7 W + R3 B3 G3", ["R3 B3 G3", "R7 B7 G7 W=7"]),
        (
            4,
            "R1 R2 R3 R4 R5 R6 R7 R8 R9 Y11",
            "R1 R2 R3 R4 R5 R6 R7 R8 R9",
            ["R1 R2 R3 R4 R5 R6 R7 R8 R9"],
        ),
        (4, "W R2 R3 R4 R5 R6 R7 W Y1", "W R2 R3 R4 R5 R6 R7 W", ["W=1 R2 R3 R4 R5 R6 R7 W=8"]),
        (
            8,
            "G1 G2 G4 G6 G8 G9 G10 G12 W Y1",
            "G1 G2 G4 G6 G8 G9 G10 G12 W",
            ["G1 G2 G4 G6 G8 G9 G10 G12 W=G"],
        ),
        (9, "R4 B4 G4 Y4 W R9 B9 G9", "R4 B4 G4 Y4 W + R9 B9 G9", ["R4 B4 G4 Y4 W=4", "R9 B9 G9"]),
    ],
    ids=[
        "four-7s-in-set-of-3",
        "wild-extra-in-set",
        "run-of-9-for-run-of-7",
        "run-of-8-with-wilds",
        "9-of-colour-for-7",
        "set-of-3-for-set-of-2",
    ],
)
def test_s2_extras_that_fit_may_be_laid(phase: int, hand: str, text: str, shown: list[str]) -> None:
    game = arranged([hand, "Y11 Y12"], discard="Y5", draw="B5", phases=(phase, 1))
    game.apply("draw")
    events = game.apply(f"lay {text}")
    assert sorted(laid_groups(events)) == shown
    laid = [card for meld in game.melds for card in meld.group.cards]
    assert Counter(laid) == Counter(parse_cards(text.replace("+", " ")))
    assert Counter(game.hand(0)) == Counter(parse_cards(hand)) + Counter(
        parse_cards("B5")
    ) - Counter(laid)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("R7 B7 G7 R8 + R3 B3 G3", "R7 and R8 are different numbers"),
        ("R7 B7 G7 + R3 B3 G3 Y2", "R3 and Y2 are different numbers"),
    ],
    ids=["extra-8-in-7s", "extra-2-in-3s"],
)
def test_s2_extras_must_fit_their_group(text: str, reason: str) -> None:
    game = arranged(["R7 B7 G7 R8 R3 B3 G3 Y2", "Y11 Y12"], discard="Y5", draw="B5")
    game.apply("draw")
    assert_refused(game, f"lay {text}", InvalidActionError, reason)


def test_s2_no_extra_groups() -> None:
    game = arranged(["R7 B7 G7 R3 B3 G3 R9 B9 G9 Y1", "Y11 Y12"], discard="Y5", draw="B5")
    game.apply("draw")
    assert_refused(
        game,
        "lay R7 B7 G7 + R3 B3 G3 + R9 B9 G9",
        InvalidActionError,
        "2 sets of 3 has 2 groups; write them separated by '+', in that order (3 given)",
    )
    three = LayDown(
        tuple(parse_group(K.SET, text) for text in ("R7 B7 G7", "R3 B3 G3", "R9 B9 G9"))
    )
    assert_refused(game, three, IllegalActionError, "no extra groups")
    assert all(
        len(action.groups) == 2 for action in game.legal_actions if isinstance(action, LayDown)
    )


def test_s2_two_sets_of_one_phase_may_share_a_number() -> None:
    game = arranged(["R10 B10 G10 Y10 R10 B10 Y1", "Y11 Y12"], discard="Y5", draw="B5")
    game.apply("draw")
    events = game.apply("lay R10 B10 G10 + Y10 R10 B10")
    assert laid_groups(events) == ["R10 B10 G10", "R10 B10 Y10"]
    assert [meld.group.number for meld in game.melds] == [10, 10]


def test_s2_two_runs_of_one_phase_may_overlap_in_numbers() -> None:
    rules = Rules(phase_list=(Phase.parse("2 runs of 4"),))
    game = arranged(["R3 R4 R5 R6 B4 B5 B6 B7 Y1", "Y11 Y12"], discard="Y9", draw="B1", rules=rules)
    game.apply("draw")
    events = game.apply("lay R3 R4 R5 R6 + B4 B5 B6 B7")
    assert sorted(laid_groups(events)) == ["B4 B5 B6 B7", "R3 R4 R5 R6"]


# -- Wilds: natural_min ----------------------------------------------------------------

WILD_HAND = "R7 B7 G7 W W W W W W Y1"


def test_s2_natural_min_group_refuses_all_wild_group() -> None:
    game = arranged([WILD_HAND, "Y11 Y12"], discard="Y5", draw="B5")
    game.apply("draw")
    assert_refused(
        game,
        "lay R7 B7 G7 + W=3 W=3 W=3",
        IllegalActionError,
        "W=3 W=3 W=3 is all Wilds: every group needs at least one numbered card",
    )
    assert not any(
        all(card.is_wild for card in group.cards)
        for action in game.legal_actions
        if isinstance(action, LayDown)
        for group in action.groups
    )
    # With a numbered card in each group it is fine.
    events = game.apply("lay R7 B7 W + G7 W W")
    assert laid_groups(events) == ["R7 B7 W=7", "G7 W=7 W=7"]


def test_s2_natural_min_phase_allows_all_wild_group_with_declared_value() -> None:
    rules = Rules(natural_min=NaturalMin.PHASE)
    game = arranged([WILD_HAND, "Y11 Y12"], discard="Y5", draw="B5", rules=rules)
    game.apply("draw")
    events = game.apply("lay R7 B7 G7 + W=3 W=3 W=3")
    assert laid_groups(events) == ["R7 B7 G7", "W=3 W=3 W=3"]
    assert game.melds[1].group.number == 3
    assert str(game.melds[1].group) == "W=3 W=3 W=3"


def test_s2_natural_min_phase_all_wild_group_must_declare_its_value() -> None:
    rules = Rules(natural_min=NaturalMin.PHASE)
    game = arranged([WILD_HAND, "Y11 Y12"], discard="Y5", draw="B5", rules=rules)
    game.apply("draw")
    assert_refused(
        game, "lay R7 B7 G7 + W W W", InvalidActionError, "an all-Wild set must declare its number"
    )


def test_s2_natural_min_phase_refuses_a_phase_of_only_wilds() -> None:
    rules = Rules(natural_min=NaturalMin.PHASE)
    game = arranged([WILD_HAND, "Y11 Y12"], discard="Y5", draw="B5", rules=rules)
    game.apply("draw")
    assert_refused(
        game,
        "lay W=3 W=3 W=3 + W=9 W=9 W=9",
        IllegalActionError,
        "a phase needs at least one numbered card; these are all Wilds",
    )


def test_s2_natural_min_phase_all_wild_colour_group() -> None:
    rules = Rules(
        natural_min=NaturalMin.PHASE, phase_list=(Phase.parse("3 cards of one color + 1 set of 2"),)
    )
    game = arranged(["W W W R9 B9 Y1", "Y11 Y12"], discard="Y5", draw="B5", rules=rules)
    game.apply("draw")
    assert_refused(game, "lay W W W + R9 B9", InvalidActionError, "must declare its colour")
    events = game.apply("lay W=G W=G W=G + R9 B9")
    assert laid_groups(events) == ["W=G W=G W=G", "R9 B9"]


# -- Wilds: declared values ------------------------------------------------------------


def test_s2_wild_value_fixed_in_run() -> None:
    # Phase 2: a set of 3 and a run of 4; the Wild in the run stands for 5 by its place.
    game = arranged(
        ["R3 B3 W G4 W G6 G7 G8 G3 Y1", "Y11 Y12"], discard="Y5", draw="G2", phases=(2, 1)
    )
    game.apply("draw")
    events = game.apply("lay R3 B3 W + G4 W G6 G7")
    assert laid_groups(events) == ["R3 B3 W=3", "G4 W=5 G6 G7"]
    game.apply("hit G8 g1")
    game.apply("hit G3 g1")
    game.apply("hit G2 g1")
    run = game.melds[1].group
    assert run.describe() == "G2 G3 G4 W=5 G6 G7 G8"
    assert run.wild_value(3) == "5"
    # Written explicitly, a Wild that disagrees with its place is refused.
    game2 = arranged(
        ["R3 B3 W G4 W G6 G7 G8 G3 Y1", "Y11 Y12"], discard="Y5", draw="G2", phases=(2, 1)
    )
    game2.apply("draw")
    assert_refused(
        game2, "lay R3 B3 W + G4 W=6 G6 G7", InvalidActionError, "do not match their places"
    )
    events = game2.apply("lay R3 B3 W + G4 W=5 G6 G7")
    assert laid_groups(events) == ["R3 B3 W=3", "G4 W=5 G6 G7"]


def test_s2_wild_value_implied_in_a_set() -> None:
    game = arranged(["R7 B7 W R3 B3 G3 W Y1", "Y11 Y12"], discard="Y5", draw="B5")
    game.apply("draw")
    game.apply("lay R7 B7 W + R3 B3 G3")
    sevens = next(meld.group for meld in game.melds if meld.group.number == 7)
    assert str(sevens) == "R7 B7 W"  # the value is forced, so it is not written
    assert sevens.describe() == "R7 B7 W=7"
    gid = next(i for i, meld in enumerate(game.melds) if meld.group is sevens)
    assert_refused(game, f"hit W=8 g{gid}", IllegalActionError, "takes the group's value")


@pytest.mark.parametrize(
    ("phrase", "text", "shown"),
    [
        ("4 cards of one color", "B2 B9 W W", "B2 B9 W=B W=B"),
        ("1 even or odd of 4", "R1 G5 W W", "R1 G5 W=odd W=odd"),
        ("1 color run of 4", "W Y2 Y3 W", "W=Y1 Y2 Y3 W=Y4"),
        ("1 color even or odd of 3", "G12 W G2", "G2 G12 W=Geven"),
    ],
    ids=["colour-takes-colour", "even-odd-takes-parity", "colour-run-takes-both", "colour-parity"],
)
def test_s2_wild_takes_the_declared_value_of_its_group(phrase: str, text: str, shown: str) -> None:
    rules = Rules(phase_list=(Phase.parse(phrase),))
    game = arranged([f"{text} R11", "Y11 Y12"], discard="Y5", draw="B5", rules=rules)
    game.apply("draw")
    events = game.apply(f"lay {text}")
    assert laid_groups(events) == [shown]


def test_s2_wild_never_moves_to_another_group() -> None:
    # After the lay-down, no legal action takes a card off the table or changes a Wild's value.
    game = arranged(
        ["R3 B3 W G4 W G6 G7 G8 W Y1", "Y11 Y12"], discard="Y5", draw="G3", phases=(2, 1)
    )
    game.apply("draw")
    game.apply("lay R3 B3 W + G4 W G6 G7")
    before = snapshot(game)
    old = [meld.group for meld in game.melds]
    actions = list(game.legal_actions)
    assert any(isinstance(action, Hit) for action in actions)
    for action in actions:
        copy = restore(before)
        copy.apply(action)
        if copy.hand_number != game.hand_number:
            continue
        for was, meld in zip(old, copy.melds, strict=False):
            now = meld.group
            assert Counter(was.describe().split()) <= Counter(now.describe().split())
            if was.kind.is_run:
                assert was.describe() in now.describe()


# -- Skips ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "hand", "text"),
    [
        (1, "R7 B7 G7 R3 B3 G3 S Y1", "R7 B7 S + R3 B3 G3"),
        (2, "R7 B7 G7 R3 R5 R6 S Y1", "R7 B7 G7 + R3 S R5 R6"),
        (8, "B1 B2 B3 B4 B5 B6 S Y1", "B1 B2 B3 B4 B5 B6 S"),
    ],
    ids=["set", "run", "colour-group"],
)
def test_s2_skip_never_part_of_a_phase(phase: int, hand: str, text: str) -> None:
    game = arranged([hand, "Y11 Y12"], discard="Y5", draw="Y9", phases=(phase, 1))
    game.apply("draw")
    assert_refused(game, f"lay {text}", InvalidActionError, "a Skip can never be part of a group")
    for action in game.legal_actions:
        if isinstance(action, LayDown):
            assert not any(card.is_skip for card in action.cards)


# -- every way to lay a phase down -----------------------------------------------------


def way_texts(ways: Iterable[tuple[Group, ...]]) -> list[tuple[str, ...]]:
    """Each lay-down as its groups' texts, sorted (the order of groups aside)."""
    return [tuple(sorted(group.describe() for group in way)) for way in ways]


def norm(*ways: tuple[str, ...] | list[str]) -> set[tuple[str, ...]]:
    return {tuple(sorted(way)) for way in ways}


# Each case: phase, hand, natural_min and the exact lay-downs, worked out by hand.
HAND_CASES = [
    pytest.param(
        # Any 3 or all 4 of four different 7s: C(4,3) + 1 = 5.
        "1 set of 3",
        "R7 B7 G7 Y7",
        GROUP,
        norm(["B7 G7 Y7"], ["R7 G7 Y7"], ["R7 B7 Y7"], ["R7 B7 G7"], ["R7 B7 G7 Y7"]),
        id="four-7s",
    ),
    pytest.param(
        # Two of {R7, B7, W} (3 ways, a Wild needs a 7 beside it) or all three.
        "1 set of 2",
        "R7 B7 W",
        GROUP,
        norm(["R7 B7"], ["R7 W=7"], ["B7 W=7"], ["R7 B7 W=7"]),
        id="pair-with-wild",
    ),
    pytest.param(
        # R7 with one or two Wilds; W W alone would be a phase of only Wilds.
        "1 set of 2",
        "R7 W W",
        PHASE,
        norm(["R7 W=7"], ["R7 W=7 W=7"]),
        id="pair-phase-min",
    ),
    pytest.param(
        # Each 7 takes one Wild: the only split where both groups have a numbered card.
        "2 sets of 2",
        "R7 B7 W W",
        GROUP,
        norm(["R7 W=7", "B7 W=7"]),
        id="two-pairs-group-min",
    ),
    pytest.param(
        # As above, plus R7 B7 with an all-Wild pair of any number 1-12: 1 + 12 = 13.
        "2 sets of 2",
        "R7 B7 W W",
        PHASE,
        norm(["R7 W=7", "B7 W=7"])
        | {tuple(sorted(["R7 B7", f"W={n} W={n}"])) for n in range(1, 13)},
        id="two-pairs-phase-min",
    ),
    pytest.param(
        # 1-2-3 natural or with the Wild for one of them (4), 2-3-4 (1), 1-2-3-4 (1).
        "1 run of 3",
        "R1 R2 R3 W",
        GROUP,
        norm(
            ["R1 R2 R3"],
            ["W=1 R2 R3"],
            ["R1 W=2 R3"],
            ["R1 R2 W=3"],
            ["R2 R3 W=4"],
            ["R1 R2 R3 W=4"],
        ),
        id="run-1-2-3-wild",
    ),
    pytest.param(
        # Red: one or both of R1 R2 with Wilds up to 3 or 4 cards (4); blue: B3 W W (1).
        "3 cards of one color",
        "R1 R2 B3 W W",
        GROUP,
        norm(
            ["R1 W=R W=R"],
            ["R2 W=R W=R"],
            ["R1 R2 W=R"],
            ["R1 R2 W=R W=R"],
            ["B3 W=B W=B"],
        ),
        id="colour-of-3",
    ),
    pytest.param(
        # Only red reaches 4 cards: R1 R2 W W.
        "4 cards of one color",
        "R1 R2 B3 W W",
        GROUP,
        norm(["R1 R2 W=R W=R"]),
        id="colour-of-4",
    ),
    pytest.param(
        # The 5s as the set (the run is W R6 R7 or R6 R7 W), or one 5 and the Wild as the set
        # (the other 5 starts the run R6 R7): 2 + 2 = 4.
        "1 set of 2 + 1 run of 3",
        "R5 B5 R6 R7 W",
        GROUP,
        norm(
            ["R5 B5", "W=5 R6 R7"],
            ["R5 B5", "R6 R7 W=8"],
            ["R5 W=5", "B5 R6 R7"],
            ["B5 W=5", "R5 R6 R7"],
        ),
        id="set-and-run",
    ),
    pytest.param(
        # Without the Wild both groups want a 5 of their own: nothing.
        "1 set of 2 + 1 run of 3",
        "R5 B5 R6 R7",
        GROUP,
        set(),
        id="set-and-run-impossible",
    ),
    pytest.param(
        # Even: R2 B4 W (odd has R3 W: too short).
        "1 even or odd of 3",
        "R2 B4 R3 W",
        GROUP,
        norm(["R2 B4 W=even"]),
        id="even-of-3",
    ),
    pytest.param(
        # The 7s whole with R3 B3 W; any Wild among the 7s leaves the 3s short.
        "2 sets of 3",
        "R7 B7 G7 R3 B3 W",
        GROUP,
        norm(["R7 B7 G7", "R3 B3 W=3"]),
        id="phase-1",
    ),
    pytest.param(
        # Red odd: R1 R3, R1 W, R3 W, R1 R3 W (4); blue even: B2 W (1).
        "1 color even or odd of 2",
        "R1 R3 B2 W",
        GROUP,
        norm(["R1 R3"], ["R1 W=Rodd"], ["R3 W=Rodd"], ["R1 R3 W=Rodd"], ["B2 W=Beven"]),
        id="colour-parity-of-2",
    ),
]


@pytest.mark.parametrize(("phrase", "hand", "natural_min", "expected"), HAND_CASES)
def test_s2_lay_downs_exact(
    phrase: str, hand: str, natural_min: NaturalMin, expected: set[tuple[str, ...]]
) -> None:
    phase = Phase.parse(phrase)
    ways = list(lay_downs(phase, parse_cards(hand), natural_min, max_cards=None))
    assert len(set(ways)) == len(ways)  # distinct
    assert set(way_texts(ways)) == expected
    assert len(way_texts(ways)) == len(expected)
    for way in ways:
        assert check_lay_down(phase, way, natural_min) == way
        used = Counter(card for group in way for card in group.cards)
        assert used <= Counter(parse_cards(hand))


@cache
def brute_groups(kind: GroupKind, cards: tuple[Card, ...]) -> frozenset[Group]:
    """Every group of exactly these cards, by trying every order and every declared value."""
    found: set[Group] = set()
    orders = set(permutations(cards)) if kind.is_run else {cards}
    numbers = [None, *range(1, 13)] if kind is K.SET else [None]
    lows = [None, *range(1, 13)] if kind.is_run else [None]
    colors = [None, *COLORS] if kind.needs_color else [None]
    parities = [None, *Parity] if kind.needs_parity else [None]
    for order in orders:
        for number, low, color, parity in product(numbers, lows, colors, parities):
            with contextlib.suppress(GroupError):
                found.add(
                    Group.make(kind, order, number=number, low=low, color=color, parity=parity)
                )
    return frozenset(found)


def brute_lay_downs(
    phase: Phase, hand: tuple[Card, ...], natural_min: NaturalMin
) -> set[tuple[Group, ...]]:
    """Every card to one of the phase's groups or to none; every group those cards make."""
    found: set[tuple[Group, ...]] = set()
    slots = len(phase.groups)
    for assignment in product(range(slots + 1), repeat=len(hand)):
        parts = [
            tuple(card for card, where in zip(hand, assignment, strict=True) if where == slot)
            for slot in range(slots)
        ]
        if any(len(part) < spec.size for part, spec in zip(parts, phase.groups, strict=True)):
            continue
        options = [
            brute_groups(spec.kind, part) for spec, part in zip(phase.groups, parts, strict=True)
        ]
        for groups in product(*options):
            with contextlib.suppress(IllegalActionError):
                found.add(check_lay_down(phase, groups, natural_min))
    return found


BRUTE_CASES = [
    ("2 sets of 2", "R7 B7 W W", GROUP),
    ("2 sets of 2", "R7 B7 W W", PHASE),
    ("1 set of 2 + 1 run of 3", "R5 B5 R6 R7 W", GROUP),
    ("1 set of 2 + 1 run of 3", "R5 B5 R6 R7 W", PHASE),
    ("1 run of 3", "R1 R2 R3 W", GROUP),
    ("1 run of 3", "R11 W W", PHASE),
    ("1 run of 3", "R12 B12 W W", GROUP),
    ("1 color run of 3", "R1 R2 R3 B2 W", GROUP),
    ("1 color even or odd of 2", "R1 R3 B2 W", GROUP),
    ("3 cards of one color", "R1 R2 B3 W W", GROUP),
    ("1 even or odd of 2 + 1 set of 2", "R2 B2 R4 W", PHASE),
    ("1 even or odd of 2 + 1 set of 2", "R2 B2 R4 W", GROUP),
    ("2 runs of 3", "R1 R2 R3 B2 B3 W", GROUP),
    ("1 color run of 3 + 1 set of 2", "G4 G5 W W R9", PHASE),
    ("2 sets of 3", "R7 B7 G7 R3 B3 W", GROUP),
    ("2 sets of 2", "R7 R7 B7 B7", GROUP),
]


@pytest.mark.parametrize(
    ("phrase", "hand", "natural_min"),
    [pytest.param(*case, id=f"{case[0]}|{case[1]}|{case[2].value}") for case in BRUTE_CASES],
)
def test_s2_lay_downs_match_brute_force(phrase: str, hand: str, natural_min: NaturalMin) -> None:
    phase = Phase.parse(phrase)
    cards = parse_cards(hand)
    ways = list(lay_downs(phase, cards, natural_min, max_cards=None))
    brute = brute_lay_downs(phase, cards, natural_min)
    assert len(ways) == len(set(ways)) == len(brute)
    assert set(ways) == brute


def test_s2_lay_downs_are_the_games_legal_lay_downs() -> None:
    game = arranged(["R5 B5 R6 R7 W Y1 Y3", "Y11 Y12"], discard="Y9", draw="B1", phases=(2, 1))
    game.apply("draw")
    legal = {action for action in game.legal_actions if isinstance(action, LayDown)}
    ways = set(lay_downs(game.phase_of(1), game.hand(0), NaturalMin.GROUP))
    assert legal == {LayDown(way) for way in ways}
    for action in legal:
        assert game.check(action) == action


def test_s2_lay_downs_of_a_dealt_hand_all_pass() -> None:
    for seed in range(6):
        game = Game(2, seed=seed)
        game.apply("draw")
        hand = game.hand(game.current)
        for way in lay_downs(game.phase_of(0), hand, NaturalMin.GROUP):
            assert game.is_legal(LayDown(way))

"""docs/rules.md §2 as tables: which cards make which group, and which groups make a phase
(checked alone and through the game). Hits are in test_s2_hits_table.py.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from helpers import arranged, assert_refused
from phase10 import (
    WILD,
    Card,
    CardError,
    Color,
    Group,
    GroupError,
    GroupKind,
    IllegalActionError,
    InvalidActionError,
    LaidDown,
    LayDown,
    NaturalMin,
    Parity,
    Phase,
    Rules,
    check_lay_down,
    full_deck,
    parse_action,
    parse_cards,
    parse_group,
)

K = GroupKind
GROUP = NaturalMin.GROUP
PHASE = NaturalMin.PHASE
ALL_CARDS = [Card.from_index(index) for index in range(50)]


def row_id(*parts: object) -> str:
    return "-".join(str(part).replace(" ", "_") for part in parts if part != "")


# -- groups: which cards make a group of each kind -----------------------------------

# (kind, cards as written, every card with each Wild's value shown)
GROUP_OK = [
    (K.SET, "R7 B7 G7", "R7 B7 G7"),
    (K.SET, "Y7 R7 W", "R7 Y7 W=7"),
    (K.SET, "R7 R7 B7", "R7 R7 B7"),
    (K.SET, "R7 W W", "R7 W=7 W=7"),
    (K.SET, "R7 B7 G7 Y7", "R7 B7 G7 Y7"),
    (K.SET, "R7 R7 B7 B7 G7 G7 Y7 Y7", "R7 R7 B7 B7 G7 G7 Y7 Y7"),
    (K.SET, "R12 W W W W W", "R12 W=12 W=12 W=12 W=12 W=12"),
    (K.SET, "r1 b1", "R1 B1"),
    (K.SET, "W=7 W=7 W=7", "W=7 W=7 W=7"),
    (K.SET, "R7 W=7", "R7 W=7"),
    (K.SET, "W G5", "G5 W=5"),
    (K.RUN, "R1 B2 G3 Y4", "R1 B2 G3 Y4"),
    (K.RUN, "W R2 R3 R4", "W=1 R2 R3 R4"),
    (K.RUN, "R9 R10 R11 W", "R9 R10 R11 W=12"),
    (K.RUN, "R3 W R5 W", "R3 W=4 R5 W=6"),
    (K.RUN, "G3 G4 W G6", "G3 G4 W=5 G6"),
    (K.RUN, "R9 B10 G11 Y12", "R9 B10 G11 Y12"),
    (
        K.RUN,
        "R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 Y12",
        "R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 Y12",
    ),
    (K.RUN, "W W R3", "W=1 W=2 R3"),
    (K.RUN, "R10 W W", "R10 W=11 W=12"),
    (K.RUN, "W=5 W=6 W=7", "W=5 W=6 W=7"),
    (K.RUN, "W=1 W W", "W=1 W=2 W=3"),
    (K.RUN, "W W W=12", "W=10 W=11 W=12"),
    (K.RUN, "R3 W=4 R5", "R3 W=4 R5"),
    (K.COLOR, "R1 R5 R12 R7", "R1 R5 R7 R12"),
    (K.COLOR, "B2 B2 W", "B2 B2 W=B"),
    (K.COLOR, "W=G W=G W=G", "W=G W=G W=G"),
    (K.COLOR, "Y3 W W W", "Y3 W=Y W=Y W=Y"),
    (K.COLOR, "G1 G2 G3 G4 G5 G6 G7", "G1 G2 G3 G4 G5 G6 G7"),
    (K.COLOR, "W=R R3 R4", "R3 R4 W=R"),
    (K.EVEN_ODD, "R2 B4 G6 Y8", "R2 B4 G6 Y8"),
    (K.EVEN_ODD, "R1 B3 G5 Y7 R9 B11", "R1 B3 G5 Y7 R9 B11"),
    (K.EVEN_ODD, "R2 W B12", "R2 B12 W=even"),
    (K.EVEN_ODD, "W=odd W=odd", "W=odd W=odd"),
    (K.EVEN_ODD, "R1 R1 W", "R1 R1 W=odd"),
    (K.EVEN_ODD, "R12 R10 W=even", "R10 R12 W=even"),
    (K.COLOR_RUN, "R3 R4 R5 R6", "R3 R4 R5 R6"),
    (K.COLOR_RUN, "W G2 G3", "W=G1 G2 G3"),
    (K.COLOR_RUN, "B9 B10 B11 W", "B9 B10 B11 W=B12"),
    (K.COLOR_RUN, "W=Y4 W=Y5 W=Y6", "W=Y4 W=Y5 W=Y6"),
    (K.COLOR_RUN, "W=Y4 W W", "W=Y4 W=Y5 W=Y6"),
    (K.COLOR_RUN, "Y1 W Y3", "Y1 W=Y2 Y3"),
    (K.COLOR_EVEN_ODD, "R2 R4 R6", "R2 R4 R6"),
    (K.COLOR_EVEN_ODD, "B1 B3 W", "B1 B3 W=Bodd"),
    (K.COLOR_EVEN_ODD, "W=Reven W=Reven W=Reven", "W=Reven W=Reven W=Reven"),
    (K.COLOR_EVEN_ODD, "G12 G12 G10", "G10 G12 G12"),
]

# (kind, cards as written, a phrase of the reason given)
GROUP_REFUSED = [
    (K.SET, "R7 B8 W", "R7 and B8 are different numbers"),
    (K.SET, "R7 B7 S", "a Skip can never be part of a group"),
    (K.SET, "W W W", "an all-Wild set must declare its number"),
    (K.SET, "R7 W=8", "a Wild in a set of 7s cannot be 8"),
    (K.SET, "W=13", "is not a Wild's value"),
    (K.SET, "W=R W W", "a set has no colour to declare"),
    (K.SET, "W=even R2", "a set has no parity to declare"),
    (K.SET, "R7 X9", "'X9' is not a card"),
    (K.SET, "", "a group needs at least one card"),
    (K.RUN, "W R1 R2", "a run must lie within 1 to 12"),
    (K.RUN, "R11 R12 W", "a run must lie within 1 to 12"),
    (K.RUN, "W W W=2", "a run must lie within 1 to 12"),
    (K.RUN, "R12 R1 R2", "R1 cannot stand in place 2 of a run from 12"),
    (K.RUN, "R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 Y12 W", "a run holds at most 12 cards"),
    (K.RUN, "R3 R5 R6", "R5 cannot stand in place 2 of a run from 3"),
    (K.RUN, "R4 R3 R2", "runs are written lowest first"),
    (K.RUN, "R3 R3 R4", "R3 cannot stand in place 2"),
    (K.RUN, "R3 R4 S", "a Skip can never be part of a group"),
    (K.RUN, "W W W", "an all-Wild run must declare its numbers"),
    (K.RUN, "R3 W=5 R5", "do not match their places in the run"),
    (K.RUN, "W=5 W=7", "are not consecutive"),
    (K.RUN, "W=R5 W W", "a run has no colour to declare"),
    (K.COLOR, "R1 B1 R2", "R1 and B1 are different colours"),
    (K.COLOR, "R1 R2 S", "a Skip can never be part of a group"),
    (K.COLOR, "B1 B2 S", "a Skip can never be part of a group"),
    (K.COLOR, "W W W", "an all-Wild group must declare its colour"),
    (K.COLOR, "W=B R3 R4", "its cards are red, not blue"),
    (K.COLOR, "W=R3 R3", "a Wild in one colour does not take a number"),
    (K.COLOR, "W=even R2", "one colour has no parity to declare"),
    (K.COLOR, "W=R W=B", "cannot declare different values"),
    (K.EVEN_ODD, "R2 R3 R4", "R2 is even and R3 is not"),
    (K.EVEN_ODD, "R2 B4 S", "a Skip can never be part of a group"),
    (K.EVEN_ODD, "W W", "an all-Wild group must declare even or odd"),
    (K.EVEN_ODD, "W=odd R2", "its cards are even, not odd"),
    (K.EVEN_ODD, "W=R R2", "an even or odd group has no colour to declare"),
    (K.EVEN_ODD, "W=2 R2", "does not take a number"),
    (K.COLOR_RUN, "R3 B4 R5", "R3 and B4 are different colours"),
    (K.COLOR_RUN, "R3 R4 R5 S", "a Skip can never be part of a group"),
    (K.COLOR_RUN, "W R1 R2", "a run must lie within 1 to 12"),
    (K.COLOR_RUN, "W=B3 R4 R5", "its cards are red, not blue"),
    (K.COLOR_RUN, "W W W", "an all-Wild group must declare its colour"),
    (K.COLOR_RUN, "W=R W=R W=R", "an all-Wild run must declare its numbers"),
    (K.COLOR_RUN, "W=4 W=5 W=6", "an all-Wild group must declare its colour"),
    (K.COLOR_RUN, "R3 R5 R6", "cannot stand in place 2"),
    (K.COLOR_EVEN_ODD, "R2 B4 R6", "R2 and B4 are different colours"),
    (K.COLOR_EVEN_ODD, "R2 R3 R4", "R2 is even and R3 is not"),
    (K.COLOR_EVEN_ODD, "R2 R4 S", "a Skip can never be part of a group"),
    (K.COLOR_EVEN_ODD, "W=R W=R", "an all-Wild group must declare even or odd"),
    (K.COLOR_EVEN_ODD, "W=Bodd R1", "its cards are red, not blue"),
    (K.COLOR_EVEN_ODD, "W W", "an all-Wild group must declare its colour"),
    (K.COLOR_EVEN_ODD, "W=Rodd W=even", "cannot declare different values"),
]


@pytest.mark.parametrize(
    ("kind", "text", "shown"),
    [pytest.param(*row, id=row_id(row[0], row[1])) for row in GROUP_OK],
)
def test_s2_group_table_accepts(kind: GroupKind, text: str, shown: str) -> None:
    group = parse_group(kind, text)
    assert group.kind is kind
    assert group.describe() == shown
    # The text forms read back to the same group.
    assert parse_group(kind, str(group)) == group
    assert parse_group(kind, group.describe()) == group
    if "=" not in text:
        assert Group.make(kind, parse_cards(text)) == group


@pytest.mark.parametrize(
    ("kind", "text", "reason"),
    [pytest.param(*row, id=row_id(row[0], row[1] or "empty")) for row in GROUP_REFUSED],
)
def test_s2_group_table_refuses(kind: GroupKind, text: str, reason: str) -> None:
    with pytest.raises(GroupError, match=re.escape(reason)):
        parse_group(kind, text)
    if "=" in text:
        return
    try:
        cards = parse_cards(text)
    except CardError:
        return
    with pytest.raises(GroupError, match=re.escape(reason)):
        Group.make(kind, cards)


# Group.make with values declared as arguments (all-Wild groups, or values that must agree).
MAKE_DECLARED = [
    ("set-all-wild", K.SET, "W W W", {"number": 7}, "W=7 W=7 W=7"),
    ("set-agrees", K.SET, "R7 W", {"number": 7}, "R7 W=7"),
    ("set-disagrees", K.SET, "R7 W", {"number": 8}, "its cards are 7s, not 8s"),
    ("set-number-13", K.SET, "W W", {"number": 13}, "a set's number runs from 1 to 12"),
    ("run-all-wild", K.RUN, "W W W", {"low": 10}, "W=10 W=11 W=12"),
    ("run-all-wild-past-12", K.RUN, "W W W", {"low": 11}, "must lie within 1 to 12"),
    ("run-all-wild-at-0", K.RUN, "W W W", {"low": 0}, "must lie within 1 to 12"),
    ("run-disagrees", K.RUN, "R3 R4 W", {"low": 5}, "R3 cannot stand in place 1 of a run from 5"),
    ("run-no-colour", K.RUN, "R3 R4 W", {"color": Color.RED}, "a run has no colour to declare"),
    ("colour-all-wild", K.COLOR, "W W", {"color": Color.YELLOW}, "W=Y W=Y"),
    ("colour-disagrees", K.COLOR, "R1 W", {"color": Color.BLUE}, "its cards are red, not blue"),
    ("colour-no-number", K.COLOR, "R1 W", {"number": 1}, "one colour has no number to declare"),
    ("parity-all-wild", K.EVEN_ODD, "W W", {"parity": Parity.ODD}, "W=odd W=odd"),
    ("parity-disagrees", K.EVEN_ODD, "R1 W", {"parity": Parity.EVEN}, "its cards are odd"),
    (
        "colour-run-all-wild",
        K.COLOR_RUN,
        "W W W",
        {"low": 1, "color": Color.GREEN},
        "W=G1 W=G2 W=G3",
    ),
    (
        "colour-parity-all-wild",
        K.COLOR_EVEN_ODD,
        "W W",
        {"color": Color.BLUE, "parity": Parity.EVEN},
        "W=Beven W=Beven",
    ),
    ("colour-parity-half", K.COLOR_EVEN_ODD, "W W", {"color": Color.BLUE}, "even or odd"),
]


@pytest.mark.parametrize(
    ("kind", "text", "declared", "expected"),
    [pytest.param(*row[1:], id=row[0]) for row in MAKE_DECLARED],
)
def test_s2_group_make_with_declared_values(
    kind: GroupKind, text: str, declared: dict[str, object], expected: str
) -> None:
    cards = parse_cards(text)
    if expected.startswith(("W=", "R7")):
        group = Group.make(kind, cards, **declared)  # type: ignore[arg-type]
        assert group.describe() == expected
        assert group.natural_count == sum(card.is_natural for card in cards)
    else:
        with pytest.raises(GroupError, match=re.escape(expected)):
            Group.make(kind, cards, **declared)  # type: ignore[arg-type]


# -- phases: which groups make a phase, checked alone and through the game ------------

OK = None

# (id, phase, groups in the phase's order as after "lay", natural_min, error or OK, result)
# The result is the lay-down as the engine keeps it: groups of one kind largest first.
PHASE_ROWS: list[tuple[str, str, str, NaturalMin, type[ValueError] | None, str]] = [
    # sets
    ("set", "1 set of 3", "R7 B7 G7", GROUP, OK, "R7 B7 G7"),
    ("set-four-7s-extra", "1 set of 3", "R7 B7 G7 Y7", GROUP, OK, "R7 B7 G7 Y7"),
    ("set-wilds", "1 set of 3", "R7 W W", GROUP, OK, "R7 W=7 W=7"),
    (
        "set-too-short",
        "1 set of 3",
        "R7 B7",
        GROUP,
        IllegalActionError,
        "R7 B7 has 2 cards; set of 3 needs at least 3",
    ),
    ("set-skip", "1 set of 3", "R7 B7 S", GROUP, InvalidActionError, "a Skip can never"),
    ("set-mixed", "1 set of 3", "R7 B7 G8", GROUP, InvalidActionError, "different numbers"),
    (
        "set-undeclared-wilds",
        "1 set of 3",
        "W W W",
        PHASE,
        InvalidActionError,
        "an all-Wild set must declare its number",
    ),
    (
        "set-all-wild-group-min",
        "1 set of 3",
        "W=7 W=7 W=7",
        GROUP,
        IllegalActionError,
        "every group needs at least one numbered card",
    ),
    (
        "set-all-wild-phase-min",
        "1 set of 3",
        "W=7 W=7 W=7",
        PHASE,
        IllegalActionError,
        "a phase needs at least one numbered card",
    ),
    (
        "two-sets-share-number",
        "2 sets of 3",
        "R10 B10 G10 + Y10 R10 B10",
        GROUP,
        OK,
        "R10 B10 G10 + R10 B10 Y10",
    ),
    ("two-sets", "2 sets of 3", "R3 B3 W + R7 B7 G7", GROUP, OK, "R3 B3 W=3 + R7 B7 G7"),
    (
        "two-sets-all-wild-group-phase-min",
        "2 sets of 3",
        "R7 B7 G7 + W=3 W=3 W=3",
        PHASE,
        OK,
        "R7 B7 G7 + W=3 W=3 W=3",
    ),
    (
        "two-sets-all-wild-group-group-min",
        "2 sets of 3",
        "R7 B7 G7 + W=3 W=3 W=3",
        GROUP,
        IllegalActionError,
        "W=3 W=3 W=3 is all Wilds",
    ),
    (
        "two-sets-all-wild-phase",
        "2 sets of 3",
        "W=3 W=3 W=3 + W=7 W=7 W=7",
        PHASE,
        IllegalActionError,
        "a phase needs at least one numbered card; these are all Wilds",
    ),
    ("two-sets-one-given", "2 sets of 3", "R7 B7 G7", GROUP, InvalidActionError, "(1 given)"),
    (
        "two-sets-extra-group",
        "2 sets of 3",
        "R7 B7 G7 + R3 B3 G3 + R5 B5 G5",
        GROUP,
        InvalidActionError,
        "2 sets of 3 has 2 groups",
    ),
    (
        "five-and-two-either-order",
        "1 set of 5 + 1 set of 2",
        "R9 B9 + R4 B4 G4 Y4 W",
        GROUP,
        OK,
        "R4 B4 G4 Y4 W=4 + R9 B9",
    ),
    (
        "five-and-two-no-five",
        "1 set of 5 + 1 set of 2",
        "R4 B4 G4 + R9 B9 G9 Y9",
        GROUP,
        IllegalActionError,
        "set of 5 needs at least 5",
    ),
    # runs
    ("run-wild-at-1", "1 run of 4", "W R2 R3 R4", GROUP, OK, "W=1 R2 R3 R4"),
    ("run-wild-at-12", "1 run of 4", "R9 R10 R11 W", GROUP, OK, "R9 R10 R11 W=12"),
    ("run-wild-at-0", "1 run of 4", "W R1 R2 R3", GROUP, InvalidActionError, "within 1 to 12"),
    ("run-wild-at-13", "1 run of 4", "R10 R11 R12 W", GROUP, InvalidActionError, "within 1"),
    ("run-from-1", "1 run of 4", "R1 B2 G3 Y4", GROUP, OK, "R1 B2 G3 Y4"),
    ("run-to-12", "1 run of 4", "R9 B10 G11 Y12", GROUP, OK, "R9 B10 G11 Y12"),
    (
        "run-of-12",
        "1 run of 9",
        "R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 Y12",
        GROUP,
        OK,
        "R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 Y12",
    ),
    (
        "run-of-13",
        "1 run of 9",
        "R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 Y12 W",
        GROUP,
        InvalidActionError,
        "a run holds at most 12 cards",
    ),
    (
        "run-of-9-for-7",
        "1 run of 7",
        "R1 R2 R3 R4 R5 R6 R7 R8 R9",
        GROUP,
        OK,
        "R1 R2 R3 R4 R5 R6 R7 R8 R9",
    ),
    (
        "run-too-short",
        "1 run of 7",
        "R1 R2 R3 R4 R5 R6",
        GROUP,
        IllegalActionError,
        "has 6 cards; run of 7 needs at least 7",
    ),
    ("run-gap", "1 run of 4", "R3 R4 R6 R7", GROUP, InvalidActionError, "place 3"),
    ("run-wrap", "1 run of 4", "R11 R12 R1 R2", GROUP, InvalidActionError, "no wrap"),
    ("run-skip", "1 run of 4", "R3 R4 S R6", GROUP, InvalidActionError, "Skip"),
    ("run-three-wilds", "1 run of 4", "W W W R4", GROUP, OK, "W=1 W=2 W=3 R4"),
    (
        "run-all-wild-group-min",
        "1 run of 4",
        "W=1 W=2 W=3 W=4",
        GROUP,
        IllegalActionError,
        "is all Wilds",
    ),
    (
        "set-and-all-wild-run-phase-min",
        "1 set of 3 + 1 run of 4",
        "R7 B7 G7 + W=1 W=2 W=3 W=4",
        PHASE,
        OK,
        "R7 B7 G7 + W=1 W=2 W=3 W=4",
    ),
    (
        "set-and-all-wild-run-group-min",
        "1 set of 3 + 1 run of 4",
        "R7 B7 G7 + W=1 W=2 W=3 W=4",
        GROUP,
        IllegalActionError,
        "W=1 W=2 W=3 W=4 is all Wilds",
    ),
    (
        "set-and-run",
        "1 set of 3 + 1 run of 4",
        "R7 B7 W + G3 G4 W G6",
        GROUP,
        OK,
        "R7 B7 W=7 + G3 G4 W=5 G6",
    ),
    (  # groups may come in any order; they are laid in the phase's order
        "set-and-run-other-order",
        "1 set of 3 + 1 run of 4",
        "G3 G4 G5 G6 + R7 B7 G7",
        GROUP,
        OK,
        "R7 B7 G7 + G3 G4 G5 G6",
    ),
    # colour
    ("colour", "4 cards of one color", "G1 G5 G9 G12", GROUP, OK, "G1 G5 G9 G12"),
    ("colour-wilds", "4 cards of one color", "G1 G5 W W", GROUP, OK, "G1 G5 W=G W=G"),
    (
        "colour-mixed",
        "4 cards of one color",
        "G1 G5 B9 G12",
        GROUP,
        InvalidActionError,
        "G1 and B9 are different colours",
    ),
    ("colour-skip", "4 cards of one color", "G1 G5 G9 S", GROUP, InvalidActionError, "Skip"),
    (
        "colour-too-short",
        "4 cards of one color",
        "G1 G5 G9",
        GROUP,
        IllegalActionError,
        "4 cards of one color needs at least 4",
    ),
    (
        "colour-all-wild-group-min",
        "4 cards of one color",
        "W=G W=G W=G W=G",
        GROUP,
        IllegalActionError,
        "is all Wilds",
    ),
    (
        "colour-all-wild-phase-min",
        "4 cards of one color + 1 set of 5",
        "W=R W=R W=R W=R + B5 G5 Y5 R5 W",
        PHASE,
        OK,
        "W=R W=R W=R W=R + R5 B5 G5 Y5 W=5",
    ),
    (
        "colour-extras",
        "7 cards of one color",
        "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8",
        GROUP,
        OK,
        "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8",
    ),
    # even/odd
    ("even", "1 even or odd of 4", "R2 B4 G6 Y8", GROUP, OK, "R2 B4 G6 Y8"),
    ("odd-wilds", "1 even or odd of 4", "R1 B3 W W", GROUP, OK, "R1 B3 W=odd W=odd"),
    (
        "even-odd-mixed",
        "1 even or odd of 4",
        "R2 B4 G5 Y8",
        GROUP,
        InvalidActionError,
        "R2 is even and G5 is not",
    ),
    ("even-odd-skip", "1 even or odd of 4", "R2 B4 G6 S", GROUP, InvalidActionError, "Skip"),
    (
        "even-odd-all-wild-group-min",
        "1 even or odd of 4",
        "W=even W=even W=even W=even",
        GROUP,
        IllegalActionError,
        "is all Wilds",
    ),
    (
        "even-odd-too-short",
        "1 even or odd of 4",
        "R2 B4 G6",
        GROUP,
        IllegalActionError,
        "even or odd of 4 needs at least 4",
    ),
    (
        "ten-odd",
        "10 cards of even or odd",
        "R1 R3 R5 R7 R9 R11 B1 B3 B5 B7",
        GROUP,
        OK,
        "R1 B1 R3 B3 R5 B5 R7 B7 R9 R11",
    ),
    # colour run
    ("colour-run", "1 color run of 4", "B5 B6 B7 B8", GROUP, OK, "B5 B6 B7 B8"),
    ("colour-run-wild-at-1", "1 color run of 4", "W B2 B3 B4", GROUP, OK, "W=B1 B2 B3 B4"),
    ("colour-run-wild-at-12", "1 color run of 4", "B9 B10 B11 W", GROUP, OK, "B9 B10 B11 W=B12"),
    (
        "colour-run-wrong-colour",
        "1 color run of 4",
        "B5 R6 B7 B8",
        GROUP,
        InvalidActionError,
        "B5 and R6 are different colours",
    ),
    ("colour-run-at-0", "1 color run of 4", "W B1 B2 B3", GROUP, InvalidActionError, "1 to 12"),
    ("colour-run-skip", "1 color run of 4", "B5 B6 B7 S", GROUP, InvalidActionError, "Skip"),
    ("colour-run-gap", "1 color run of 4", "B5 B6 B8 B9", GROUP, InvalidActionError, "place 3"),
    (
        "colour-run-all-wild-group-min",
        "1 color run of 4",
        "W=Y1 W=Y2 W=Y3 W=Y4",
        GROUP,
        IllegalActionError,
        "is all Wilds",
    ),
    (
        "colour-run-all-wild-phase-min",
        "1 color run of 4 + 1 set of 3",
        "W=Y1 W=Y2 W=Y3 W=Y4 + R9 B9 G9",
        PHASE,
        OK,
        "W=Y1 W=Y2 W=Y3 W=Y4 + R9 B9 G9",
    ),
    # colour even/odd
    ("colour-even", "1 color even or odd of 3", "R2 R4 R12", GROUP, OK, "R2 R4 R12"),
    ("colour-odd-wild", "1 color even or odd of 3", "G1 G3 W", GROUP, OK, "G1 G3 W=Godd"),
    (
        "colour-even-odd-mixed-colour",
        "1 color even or odd of 3",
        "G1 B3 G5",
        GROUP,
        InvalidActionError,
        "G1 and B3 are different colours",
    ),
    (
        "colour-even-odd-mixed-parity",
        "1 color even or odd of 3",
        "G1 G2 G5",
        GROUP,
        InvalidActionError,
        "G1 is odd and G2 is not",
    ),
    (
        "colour-even-odd-skip",
        "1 color even or odd of 3",
        "G1 G3 S",
        GROUP,
        InvalidActionError,
        "a Skip can never be part of a group",
    ),
    (
        "colour-even-odd-all-wild-group-min",
        "1 color even or odd of 3",
        "W=Geven W=Geven W=Geven",
        GROUP,
        IllegalActionError,
        "is all Wilds",
    ),
    (
        "two-colour-even-odd",
        "1 color even or odd of 3 + 1 color even or odd of 4",
        "R2 R4 R6 + B1 B3 B5 B7",
        GROUP,
        OK,
        "R2 R4 R6 + B1 B3 B5 B7",
    ),
    (
        "two-colour-even-odd-either-order",
        "1 color even or odd of 3 + 1 color even or odd of 4",
        "B1 B3 B5 B7 + R2 R4 R6",
        GROUP,
        OK,
        "R2 R4 R6 + B1 B3 B5 B7",
    ),
    # kinds in another order than the phase's
    (
        "run-and-colour-other-order",
        "1 run of 4 + 4 cards of one color",
        "G1 G5 G9 G12 + R3 R4 R5 R6",
        GROUP,
        OK,
        "R3 R4 R5 R6 + G1 G5 G9 G12",
    ),
    (
        "run-and-colour",
        "1 run of 4 + 4 cards of one color",
        "R3 R4 R5 R6 + G1 G5 G9 G12",
        GROUP,
        OK,
        "R3 R4 R5 R6 + G1 G5 G9 G12",
    ),
]

PHASE_PARAMS = [pytest.param(*row[1:], id=row[0]) for row in PHASE_ROWS]


@pytest.mark.parametrize(("phrase", "text", "natural_min", "error", "result"), PHASE_PARAMS)
def test_s2_lay_down_table_check_lay_down(
    phrase: str,
    text: str,
    natural_min: NaturalMin,
    error: type[ValueError] | None,
    result: str,
) -> None:
    phase = Phase.parse(phrase)
    if error is InvalidActionError:
        with pytest.raises(InvalidActionError, match=re.escape(result)):
            parse_action(f"lay {text}", phase)
        return
    action = parse_action(f"lay {text}", phase)
    assert isinstance(action, LayDown)
    groups = action.groups
    if error is IllegalActionError:
        with pytest.raises(IllegalActionError, match=re.escape(result)):
            check_lay_down(phase, groups, natural_min)
        return
    laid = check_lay_down(phase, groups, natural_min)
    assert " + ".join(group.describe() for group in laid) == result
    assert Counter(card for group in laid for card in group.cards) == Counter(
        card for group in groups for card in group.cards
    )
    assert check_lay_down(phase, laid, natural_min) == laid


def _spares(used: list[Card], count: int) -> list[Card]:
    """``count`` numbered cards the deck still holds once ``used`` are taken out."""
    left = Counter(full_deck())
    left.subtract(used)
    spares: list[Card] = []
    for card in reversed(list(dict.fromkeys(full_deck()))):
        while card.is_natural and left[card] > 0 and len(spares) < count:
            left[card] -= 1
            spares.append(card)
    return spares


def _hand_of(text: str) -> list[Card]:
    """The cards a lay-down text uses (``W=5`` is a Wild)."""
    words = [w for w in re.split(r"[\s,+]+", text) if w]
    return [WILD if word.upper().startswith("W=") else Card.parse(word) for word in words]


@pytest.mark.parametrize(("phrase", "text", "natural_min", "error", "result"), PHASE_PARAMS)
def test_s2_lay_down_table_through_the_game(
    phrase: str,
    text: str,
    natural_min: NaturalMin,
    error: type[ValueError] | None,
    result: str,
) -> None:
    used = _hand_of(text)
    spare = _spares(used, 5)  # one kept by the layer, two for the other player, discard, draw
    rules = Rules(phase_list=(Phase.parse(phrase),), natural_min=natural_min)
    hand = " ".join(map(str, [*used, spare[0]]))
    game = arranged(
        [hand, f"{spare[1]} {spare[2]}"], discard=str(spare[3]), draw=str(spare[4]), rules=rules
    )
    game.apply("draw")
    if error is not None:
        assert_refused(game, f"lay {text}", error, result)
        assert game.melds == [] and game.seats[0].laid is None
        return
    events = game.apply(f"lay {text}")
    laid = next(event for event in events if isinstance(event, LaidDown))
    assert " + ".join(group.describe() for group in laid.groups) == result
    assert [meld.group for meld in game.melds] == list(laid.groups)
    assert {meld.owner for meld in game.melds} == {0}
    assert game.seats[0].laid == 0
    assert Counter(game.hand(0)) == Counter([spare[0], spare[4]])


# check_lay_down given groups directly: kinds, counts and groups built by hand.
def _g(kind: GroupKind, text: str) -> Group:
    return parse_group(kind, text)


R7, B7, S_ = Card.parse("R7"), Card.parse("B7"), Card.parse("S")
KIND_ROWS = [
    (
        "colour-for-set",
        "2 sets of 3",
        [_g(K.SET, "R7 B7 G7"), _g(K.COLOR, "R1 R2 R3")],
        "is laid as color, but 2 sets of 3 asks for set of 3",
    ),
    (
        "run-for-colour-run",
        "1 color run of 4",
        [_g(K.RUN, "R3 R4 R5 R6")],
        "asks for color run of 4",
    ),
    (
        "extra-group",
        "1 run of 7",
        [_g(K.RUN, "R1 R2 R3 R4 R5 R6 R7"), _g(K.SET, "R9 B9 G9")],
        "1 run of 7 is 1 group, not 2; no extra groups",
    ),
    ("missing-group", "2 sets of 3", [_g(K.SET, "R7 B7 G7")], "is 2 groups, not 1"),
    ("no-groups", "2 sets of 3", [], "is 2 groups, not 0"),
    (
        "hand-built-set-with-skip",
        "1 set of 3",
        [Group(K.SET, (R7, B7, S_), number=7)],
        "a Skip can never be part of a group",
    ),
    (
        "hand-built-colour-with-skip",
        "3 cards of one color",
        [Group(K.COLOR, (*parse_cards("B1 B2"), S_), color=Color.BLUE)],
        "a Skip can never be part of a group",
    ),
    (
        "hand-built-run-with-gap",
        "1 run of 3",
        [Group(K.RUN, parse_cards("R3 R5 R6"), low=3)],
        "cannot stand in place 2",
    ),
    (
        "hand-built-run-past-12",
        "1 run of 3",
        [Group(K.RUN, parse_cards("R11 R12 W"), low=11)],
        "within 1 to 12",
    ),
    (
        "hand-built-set-wrong-number",
        "1 set of 3",
        [Group(K.SET, parse_cards("R7 B7 W"), number=8)],
        "its cards are 7s, not 8s",
    ),
    (
        "hand-built-colour-wrong-colour",
        "3 cards of one color",
        [Group(K.COLOR, parse_cards("R1 R2 R3"), color=Color.BLUE)],
        "its cards are red, not blue",
    ),
]


@pytest.mark.parametrize(
    ("phrase", "groups", "reason"), [pytest.param(*row[1:], id=row[0]) for row in KIND_ROWS]
)
def test_s2_check_lay_down_refuses(phrase: str, groups: list[Group], reason: str) -> None:
    for natural_min in NaturalMin:
        with pytest.raises(IllegalActionError, match=re.escape(reason)):
            check_lay_down(Phase.parse(phrase), groups, natural_min)


def test_s2_check_lay_down_puts_groups_in_the_phase_order() -> None:
    run, kept = _g(K.RUN, "G3 G4 G5 G6"), _g(K.SET, "R7 B7 G7")
    for natural_min in NaturalMin:
        laid = check_lay_down(Phase.parse("1 set of 3 + 1 run of 4"), [run, kept], natural_min)
        assert [group.kind for group in laid] == [K.SET, K.RUN]


def test_s2_hand_built_group_with_skip_refused_by_the_game() -> None:
    game = arranged(["R7 B7 S R3 B3 G3 Y9", "Y11 Y12"], discard="Y1", draw="B5")
    game.apply("draw")
    bad = Group(K.SET, (R7, B7, S_), number=7)
    action = LayDown((bad, parse_group(K.SET, "R3 B3 G3")))
    assert_refused(game, action, IllegalActionError, "a Skip can never be part of a group")

"""docs/rules.md §2 and §4 hitting: which cards fit a group on the table, and what it becomes."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from helpers import arranged, assert_refused
from phase10 import (
    WILD,
    Card,
    CardHit,
    GroupError,
    GroupKind,
    Hit,
    IllegalActionError,
    InvalidActionError,
    parse_group,
)

K = GroupKind
ALL_CARDS = [Card.from_index(index) for index in range(50)]


def row_id(*parts: object) -> str:
    return "-".join(str(part).replace(" ", "_") for part in parts if part != "")


# -- hits: which cards fit a group on the table and what it becomes -------------------

# (kind, group, card, places it can take, each resulting group)
HIT_ROWS = [
    (K.SET, "R7 B7 G7", "G7", (None,), ["R7 B7 G7 G7"]),
    (K.SET, "R7 B7 G7", "Y7", (None,), ["R7 B7 G7 Y7"]),
    (K.SET, "R7 B7 G7", "W", (None,), ["R7 B7 G7 W=7"]),
    (K.SET, "R7 B7 G7", "R8", (), []),
    (K.SET, "R7 B7 G7", "S", (), []),
    (K.SET, "W=7 W=7 W=7", "R7", (None,), ["R7 W=7 W=7 W=7"]),
    (K.SET, "W=7 W=7 W=7", "R8", (), []),
    (K.RUN, "R3 R4 R5 R6", "G2", (2,), ["G2 R3 R4 R5 R6"]),
    (K.RUN, "R3 R4 R5 R6", "Y7", (7,), ["R3 R4 R5 R6 Y7"]),
    (K.RUN, "R3 R4 R5 R6", "W", (2, 7), ["W=2 R3 R4 R5 R6", "R3 R4 R5 R6 W=7"]),
    (K.RUN, "R3 R4 R5 R6", "G5", (), []),
    (K.RUN, "R3 R4 R5 R6", "G8", (), []),
    (K.RUN, "R3 R4 R5 R6", "S", (), []),
    (K.RUN, "W R2 R3", "W", (4,), ["W=1 R2 R3 W=4"]),
    (K.RUN, "W R2 R3", "B1", (), []),
    (K.RUN, "W R2 R3", "B4", (4,), ["W=1 R2 R3 B4"]),
    (K.RUN, "R10 R11 R12", "W", (9,), ["W=9 R10 R11 R12"]),
    (K.RUN, "R10 R11 R12", "B9", (9,), ["B9 R10 R11 R12"]),
    (K.RUN, "R10 R11 R12", "B1", (), []),
    (K.RUN, "R10 R11 W", "B9", (9,), ["B9 R10 R11 W=12"]),
    (K.RUN, "W=5 W=6 W=7", "R8", (8,), ["W=5 W=6 W=7 R8"]),
    (K.COLOR, "R1 R5 R9", "R12", (None,), ["R1 R5 R9 R12"]),
    (K.COLOR, "R1 R5 R9", "R5", (None,), ["R1 R5 R5 R9"]),
    (K.COLOR, "R1 R5 R9", "B12", (), []),
    (K.COLOR, "R1 R5 R9", "W", (None,), ["R1 R5 R9 W=R"]),
    (K.COLOR, "R1 R5 R9", "S", (), []),
    (K.COLOR, "W=G W=G W=G", "G4", (None,), ["G4 W=G W=G W=G"]),
    (K.EVEN_ODD, "R2 R4 R6", "B8", (None,), ["R2 R4 R6 B8"]),
    (K.EVEN_ODD, "R2 R4 R6", "B7", (), []),
    (K.EVEN_ODD, "R2 R4 R6", "W", (None,), ["R2 R4 R6 W=even"]),
    (K.EVEN_ODD, "R1 R3", "G11", (None,), ["R1 R3 G11"]),
    (K.EVEN_ODD, "R1 R3", "S", (), []),
    (K.COLOR_RUN, "G3 G4 G5", "G2", (2,), ["G2 G3 G4 G5"]),
    (K.COLOR_RUN, "G3 G4 G5", "G6", (6,), ["G3 G4 G5 G6"]),
    (K.COLOR_RUN, "G3 G4 G5", "R2", (), []),
    (K.COLOR_RUN, "G3 G4 G5", "R6", (), []),
    (K.COLOR_RUN, "G3 G4 G5", "W", (2, 6), ["W=G2 G3 G4 G5", "G3 G4 G5 W=G6"]),
    (K.COLOR_RUN, "W=Y4 W=Y5 W=Y6", "Y3", (3,), ["Y3 W=Y4 W=Y5 W=Y6"]),
    (K.COLOR_RUN, "W=Y4 W=Y5 W=Y6", "R3", (), []),
    (K.COLOR_RUN, "W=Y4 W=Y5 W=Y6", "W", (3, 7), ["W=Y3 W=Y4 W=Y5 W=Y6", "W=Y4 W=Y5 W=Y6 W=Y7"]),
    (K.COLOR_RUN, "B10 B11 B12", "W", (9,), ["W=B9 B10 B11 B12"]),
    (K.COLOR_EVEN_ODD, "B1 B3 B5", "B7", (None,), ["B1 B3 B5 B7"]),
    (K.COLOR_EVEN_ODD, "B1 B3 B5", "R7", (), []),
    (K.COLOR_EVEN_ODD, "B1 B3 B5", "B2", (), []),
    (K.COLOR_EVEN_ODD, "B1 B3 B5", "W", (None,), ["B1 B3 B5 W=Bodd"]),
    (K.COLOR_EVEN_ODD, "B1 B3 B5", "S", (), []),
]


@pytest.mark.parametrize(
    ("kind", "text", "card", "places", "results"),
    [pytest.param(*row, id=row_id(row[0], row[1], "+", row[2])) for row in HIT_ROWS],
)
def test_s2_hit_table(
    kind: GroupKind, text: str, card: str, places: tuple[int | None, ...], results: list[str]
) -> None:
    group = parse_group(kind, text)
    hitter = Card.parse(card)
    assert group.placements(hitter) == places
    assert [group.hit(hitter, place).describe() for place in places] == results
    for place, shown in zip(places, results, strict=True):
        grown = group.hit(hitter, place)
        assert grown.kind is kind and len(grown.cards) == len(group.cards) + 1
        assert grown.describe() == shown
        # Hitting keeps every card already there, with its value.
        assert Counter(group.describe().split()) <= Counter(shown.split())
        if kind.is_run:
            assert group.describe() in shown
    if not places:
        with pytest.raises(GroupError, match=re.escape(f"{card} does not fit on")):
            group.hit(hitter)


@pytest.mark.parametrize(
    ("kind", "text", "card", "number", "reason"),
    [
        (K.RUN, "R3 R4 R5 R6", "W", None, "say which end of R3 R4 R5 R6 the Wild goes on"),
        (K.RUN, "R3 R4 R5 R6", "W", 8, "only as 2 or 7, not as 8"),
        (K.RUN, "R3 R4 R5 R6", "R7", 2, "only as 7, not as 2"),
        (K.COLOR_RUN, "G3 G4 G5", "W", None, "say which end"),
        (K.SET, "R7 B7 G7", "W", 8, "takes the group's value; it cannot be 8"),
        (K.COLOR, "R1 R5 R9", "W", 5, "takes the group's value"),
        (K.SET, "R7 B7 G7", "R8", None, "R8 does not fit on R7 B7 G7"),
    ],
    ids=[
        "wild-both-ends",
        "wild-past-end",
        "natural-wrong-end",
        "colour-run-both-ends",
        "set-wild-number",
        "colour-wild-number",
        "wrong-number",
    ],
)
def test_s2_hit_refused(
    kind: GroupKind, text: str, card: str, number: int | None, reason: str
) -> None:
    with pytest.raises(GroupError, match=re.escape(reason)):
        parse_group(kind, text).hit(Card.parse(card), number)


@pytest.mark.parametrize(
    ("text", "wild_at", "past_closed_end", "grown"),
    [
        ("W R2 R3", 4, 0, "W=1 R2 R3 W=4"),
        ("R1 R2 R3", 4, 0, "R1 R2 R3 W=4"),
        ("R10 R11 R12", 9, 13, "W=9 R10 R11 R12"),
        ("R10 W R12", 9, 13, "W=9 R10 W=11 R12"),
    ],
    ids=["closed-at-1-wild", "closed-at-1", "closed-at-12", "closed-at-12-wild"],
)
def test_s2_hit_wild_on_run_closed_at_one_end_goes_to_the_other(
    text: str, wild_at: int, past_closed_end: int, grown: str
) -> None:
    group = parse_group(K.RUN, text)
    assert group.placements(WILD) == (wild_at,)
    assert group.hit(WILD).describe() == grown  # no end needed: only one is open
    assert group.hit(WILD, wild_at).describe() == grown
    with pytest.raises(GroupError, match=f"only as {wild_at}, not as {past_closed_end}"):
        group.hit(WILD, past_closed_end)


FULL_RUN = parse_group(K.RUN, "R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 W")


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_s2_hit_run_of_12_refuses_every_card(card: Card) -> None:
    assert FULL_RUN.placements(card) == ()
    with pytest.raises(GroupError, match="does not fit"):
        FULL_RUN.hit(card)


def test_s2_hit_run_grown_to_12_by_hits() -> None:
    group = parse_group(K.RUN, "R5 R6 R7")
    for number in (8, 9, 10, 11, 12):
        group = group.hit(Card.parse(f"B{number}"))
    for number in (4, 3, 2):
        group = group.hit(Card.parse(f"G{number}"))
    group = group.hit(WILD)  # only 1 is left open
    assert (group.low, group.high, len(group.cards)) == (1, 12, 12)
    assert group.describe().startswith("W=1 G2")
    assert not any(group.placements(card) for card in ALL_CARDS)


# -- hits through the game -----------------------------------------------------------

# Both players on phase 2 (a set of 3 and a run of 4); seat 0 plays first.
HIT_DEAL = (
    ["R7 B7 G7 G3 G4 G5 G6 Y7 W R1", "R10 B10 G10 Y2 Y3 Y4 Y5 B7 S B12"],
    "Y1",
    "G2 G9 Y6",
)


def test_s2_hit_before_own_phase_is_down_is_refused() -> None:
    game = arranged(HIT_DEAL[0], discard=HIT_DEAL[1], draw=HIT_DEAL[2], phases=(2, 2))
    game.apply("draw")
    assert_refused(game, "hit Y7 g0", IllegalActionError, "you may hit only once your own phase")
    game.apply("lay R7 B7 G7 + G3 G4 G5 G6")
    game.apply("discard R1")
    game.apply("draw")
    # Seat 1 has not laid down: hitting seat 0's groups is refused.
    assert_refused(game, "hit B7 g0", IllegalActionError, "you may hit only once your own phase")
    assert not any(isinstance(action, Hit) for action in game.legal_actions)


def test_s2_hit_own_and_other_players_groups() -> None:
    game = arranged(HIT_DEAL[0], discard=HIT_DEAL[1], draw=HIT_DEAL[2], phases=(2, 2))
    game.apply("draw")  # G2
    game.apply("lay R7 B7 G7 + G3 G4 G5 G6")
    assert [str(meld.group) for meld in game.melds] == ["R7 B7 G7", "G3 G4 G5 G6"]
    # A Wild on a run open at both ends must name its end.
    assert_refused(game, "hit W g1", IllegalActionError, "say which end of g1 the Wild goes on")
    assert_refused(game, "hit W=8 g1", IllegalActionError, "W can go on g1 only as 2 or 7")
    assert_refused(game, "hit W=8 g0", IllegalActionError, "a Wild on g0 takes the group's value")
    game.apply("hit W=7 g1")
    game.apply("hit G2 g1")  # own group, the low end
    assert game.melds[1].group.describe() == "G2 G3 G4 G5 G6 W=7"
    game.apply("discard R1")

    game.apply("draw")  # G9
    game.apply("lay R10 B10 G10 + Y2 Y3 Y4 Y5")
    game.apply("hit B7 g0")  # another player's group
    assert game.melds[0].owner == 0
    assert game.melds[0].group.describe() == "R7 B7 B7 G7"
    assert_refused(game, "hit G9 g2", IllegalActionError, "G9 does not fit on g2 (R10 B10 G10)")
    game.apply("discard G9")

    game.apply("draw")  # Y6
    game.apply("hit Y6 g3")  # seat 0 hits seat 1's run
    assert game.melds[3].owner == 1
    assert game.melds[3].group.describe() == "Y2 Y3 Y4 Y5 Y6"
    assert len(game.melds) == 4


def test_s2_hitting_never_makes_a_new_group() -> None:
    game = arranged(HIT_DEAL[0], discard=HIT_DEAL[1], draw=HIT_DEAL[2], phases=(2, 2))
    game.apply("draw")
    game.apply("lay R7 B7 G7 + G3 G4 G5 G6")
    assert_refused(game, "hit Y7 g2", InvalidActionError, "there is no group g2 on the table")
    assert_refused(game, "hit R1 g9", InvalidActionError, "there is no group g9")
    for action in game.legal_actions:
        if isinstance(action, Hit):
            assert 0 <= action.group < len(game.melds)
    game.apply("hit Y7 g0")
    game.apply("hit W=2 g1")
    assert len(game.melds) == 2


def test_s2_a_skip_never_hits() -> None:
    game = arranged(HIT_DEAL[0], discard=HIT_DEAL[1], draw=HIT_DEAL[2], phases=(2, 2))
    game.apply("draw")
    game.apply("lay R7 B7 G7 + G3 G4 G5 G6")
    game.apply("discard R1")
    game.apply("draw")
    game.apply("lay R10 B10 G10 + Y2 Y3 Y4 Y5")
    for group in range(4):
        assert_refused(game, f"hit S g{group}", IllegalActionError, f"S does not fit on g{group}")
    assert not any(isinstance(action, Hit) and action.card.is_skip for action in game.legal_actions)


def test_s2_hitting_never_uses_the_discard_pile() -> None:
    game = arranged(HIT_DEAL[0], discard="B3 G7", draw=HIT_DEAL[2], phases=(2, 2))
    game.apply("draw")
    game.apply("lay R7 B7 G7 + G3 G4 G5 G6")
    # G7 lies on top of the discard pile and would fit the 7s, but it is not in the hand.
    assert_refused(game, "hit G7 g0", IllegalActionError, "you have no G7")


def test_s2_legal_hits_are_exactly_the_placements() -> None:
    game = arranged(HIT_DEAL[0], discard=HIT_DEAL[1], draw=HIT_DEAL[2], phases=(2, 2))
    game.apply("draw")
    game.apply("lay R7 B7 G7 + G3 G4 G5 G6")
    legal = {action for action in game.legal_actions if isinstance(action, Hit)}
    expected = {
        Hit(card, gid, place if card.is_wild else None)
        for card in set(game.hand(0))
        for gid, meld in enumerate(game.melds)
        for place in meld.group.placements(card)
    }
    assert legal == expected
    assert legal == {
        Hit(Card.parse("Y7"), 0),
        Hit(Card.parse("Y7"), 1),  # Y7 also ends the run 3-6
        Hit(WILD, 0),
        Hit(WILD, 1, 2),
        Hit(WILD, 1, 7),
        Hit(Card.parse("G2"), 1),
    }


def test_s2_hit_wild_on_run_closed_at_1_through_the_game() -> None:
    game = arranged(
        ["R1 R2 R3 R4 R5 R6 R7 W W Y9", "Y11 Y12"], discard="Y1", draw="B5", phases=(4, 1)
    )
    game.apply("draw")
    game.apply("lay R1 R2 R3 R4 R5 R6 R7")
    assert_refused(game, "hit W=0 g0", IllegalActionError, "W can go on g0 only as 8")
    events = game.apply("hit W g0")  # the run starts at 1: the Wild can only be its 8
    assert [(e.card, e.group, e.number) for e in events if isinstance(e, CardHit)] == [(WILD, 0, 8)]
    assert game.melds[0].group.describe() == "R1 R2 R3 R4 R5 R6 R7 W=8"
    assert game.actions[-1] == Hit(WILD, 0, 8)

"""Action text: every legal action's text parses back to it; malformed texts say what is wrong."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers import arranged
from phase10 import (
    PRESETS,
    SKIP,
    WILD,
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    Game,
    GiveWild,
    Hit,
    IllegalActionError,
    InvalidActionError,
    LayDown,
    Phase,
    RecordError,
    TakeDiscard,
    action_from_dict,
    parse_action,
    preset,
    snapshot,
)
from randomplay import choose, legal_list

PRESET_NAMES = tuple(PRESETS)
#: Positions per preset whose every legal action is written and read back.
STEPS_PER_PRESET = 240


def round_trip(game: Game, action: Action) -> None:
    text = str(action)
    assert game.parse_action(text) == action, text
    assert game.parse_action(text.lower()) == action, text
    assert game.parse_action(f"  {text.upper()}  ") == action, text
    if not isinstance(action, LayDown):
        assert parse_action(text) == action, text


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_legal_action_text_parses_back(name: str) -> None:
    kinds: Counter[str] = Counter()
    seed = PRESET_NAMES.index(name)
    game = Game(2 + seed % 5, rules=preset(name), seed=seed)
    policy = random.Random(seed)
    for _ in range(STEPS_PER_PRESET):
        if game.is_over:
            break
        actions = legal_list(game)
        for action in actions:
            round_trip(game, action)
            kinds[type(action).__name__] += 1
        game.apply(str(choose(game, policy, actions)))  # applied through its text
    assert kinds["Draw"] and kinds["Discard"] and kinds["LayDown"]


def test_every_kind_of_action_is_written_and_read() -> None:
    """Positions with each kind: declarations, gifts of a Wild, explicit phase numbers, Wild hits."""
    seen: Counter[str] = Counter()
    for name, players in (("masters", 3), ("wild-deal-up", 4), ("arkansas", 2), ("official", 2)):
        for seed in range(12):
            game = Game(players, rules=preset(name), seed=seed)
            policy = random.Random(seed)
            while not game.is_over and len(game.actions) < 250:
                for action in legal_list(game):
                    round_trip(game, action)
                    seen[type(action).__name__] += 1
                    if isinstance(action, Hit) and action.number is not None:
                        seen["wild hit with a number"] += 1
                    if isinstance(action, LayDown) and action.phase is not None:
                        seen["lay with a phase number"] += 1
                    if isinstance(action, Discard) and action.target is not None:
                        seen["skip with a target"] += 1
                game.apply(choose(game, policy))
    wanted = {"Draw", "TakeDiscard", "LayDown", "Hit", "Discard", "Declare", "GiveWild"}
    wanted |= {"wild hit with a number", "lay with a phase number", "skip with a target"}
    assert wanted <= set(seen)


@pytest.mark.parametrize(
    ("text", "action", "canonical"),
    [
        ("draw", Draw(), "draw"),
        (" TAKE ", TakeDiscard(), "take"),
        ("hit r8 G2", Hit(Card.parse("R8"), 2), "hit R8 g2"),
        ("HIT w=9 g2", Hit(WILD, 2, 9), "hit W=9 g2"),
        ("hit W g0", Hit(WILD, 0), "hit W g0"),
        ("hit  B12   g10", Hit(Card.parse("B12"), 10), "hit B12 g10"),
        ("discard y1", Discard(Card.parse("Y1")), "discard Y1"),
        ("discard s>p2", Discard(SKIP, 2), "discard S>p2"),
        ("discard S > P0", Discard(SKIP, 0), "discard S>p0"),
        ("discard S", Discard(SKIP), "discard S"),
        ("declare 4", Declare(4), "declare 4"),
        ("give p1", GiveWild(1), "give p1"),
        ("Give P5", GiveWild(5), "give p5"),
    ],
)
def test_non_lay_actions_parse(text: str, action: Action, canonical: str) -> None:
    assert parse_action(text) == action
    assert str(action) == canonical
    assert parse_action(canonical) == action


@pytest.mark.parametrize(
    ("phase", "text", "canonical"),
    [
        ("2 sets of 3", "lay r7 b7 w + g3 y3 g3", "lay R7 B7 W + G3 G3 Y3"),
        ("1 set of 3 + 1 run of 4", "lay R7 B7 W + G3 G4 W G6", "lay R7 B7 W + G3 G4 W G6"),
        ("1 run of 4", "lay W G4 W=5 G6", "lay W G4 W G6"),
        ("1 run of 4", "lay W=9 W=10 W=11 R12", "lay W W W R12"),
        ("7 cards of one color", "lay R1 R5 R9 W R12 R3 R3", "lay R1 R3 R3 R5 R9 R12 W"),
        ("1 even or odd of 4", "lay B2 W Y4 G12", "lay B2 Y4 G12 W"),
        ("1 color run of 3", "lay G3 W G5", "lay G3 W G5"),
        ("1 set of 3", "lay W=5 W=5 W=5", "lay W=5 W=5 W=5"),
        ("1 color even or odd of 3", "lay W=Reven W=Reven W=Reven", "lay W=Reven W=Reven W=Reven"),
        ("2 sets of 3", "lay 1: R7 B7 W + Y3 G3 G3", "lay 1: R7 B7 W + G3 G3 Y3"),
    ],
)
def test_lay_texts_parse_against_their_phase(phase: str, text: str, canonical: str) -> None:
    action = parse_action(text, Phase.parse(phase))
    assert isinstance(action, LayDown)
    assert str(action) == canonical
    assert parse_action(canonical, Phase.parse(phase)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "unknown action ''; actions are: draw, take, lay"),
        ("jump", "unknown action 'jump'; actions are"),
        ("draw 2", "'draw' takes nothing after it, not '2'"),
        ("take R7", "'take' takes nothing after it, not 'R7'"),
        ("hit R8", r"write a hit as 'hit CARD gN' \(e.g. 'hit R8 g2', 'hit W=9 g2'\)"),
        ("hit R8 2", "write a hit as 'hit CARD gN'"),
        ("hit g2", "write a hit as 'hit CARD gN'"),
        ("hit R13 g2", "'R13' is not a card: write a colour letter R, B, G or Y"),
        ("hit R8=5 g2", "only a Wild is given a value; R8 is already 8"),
        ("discard", "write a discard as 'discard CARD' or 'discard S>pN'"),
        ("discard X9", "'X9' is not a card"),
        ("discard R7 B7", "write a discard as"),
        ("discard R7>p1", "only a Skip or the Anti-phase card names a player; R7 does not"),
        ("discard S>2", "name the player to skip by seat"),
        ("declare", "write 'declare N' with the phase's number"),
        ("declare four", "write 'declare N'"),
        ("declare ٣", "write 'declare N'"),  # only ASCII digits are numbers here
        ("give 1", "write 'give pN' with the player's seat number"),
        ("give", "write 'give pN'"),
        ("lay R7 R7 R7", "a lay-down is read against a phase"),
    ],
)
def test_malformed_texts_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_action(text)


@pytest.mark.parametrize(
    ("phase", "text", "message"),
    [
        (
            "2 sets of 3",
            "lay R7 B7 W",
            r"2 sets of 3 has 2 groups; write them separated by '\+'",
        ),
        ("2 sets of 3", "lay R7 B7 W +", r"\(2 given\)"),
        ("2 sets of 3", "lay R7 B8 W + R3 B3 W", "set of 3: R7 B8 W is not a set: R7 and B8"),
        ("1 run of 4", "lay R5 R4 R3 R2", "run of 4: .* cannot stand in place 2"),
        ("1 run of 4", "lay W=13 R12 R11 R10", "'W=13' is not a Wild's value"),
        ("1 run of 4", "lay R10 R11 R12 W", "a run must lie within 1 to 12"),
        ("1 set of 3", "lay R7 S W", "a Skip can never be part of a group"),
        ("1 set of 3", "lay W W W", "an all-Wild set must declare its number"),
        ("1 set of 3", "lay R7 W=8 W", "a Wild in a set of 7s cannot be 8"),
        ("7 cards of one color", "lay R1 B2 W W W W W", "R1 and B2 are different colours"),
    ],
)
def test_malformed_lay_texts_say_what_is_wrong(phase: str, text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_action(text, Phase.parse(phase))


def test_game_reads_lay_texts_against_the_players_phase() -> None:
    game = Game(2, seed=3)
    game.apply("draw")
    with pytest.raises(InvalidActionError, match=r"2 sets of 3 has 2 groups"):
        game.parse_action("lay R1 R1 R1")
    with pytest.raises(InvalidActionError, match="there is no phase 11"):
        game.parse_action("lay 11: R1 R1 R1")
    action = game.parse_action("lay 2: R1 R1 W + G3 G4 W G6")
    assert isinstance(action, LayDown) and action.phase == 2
    assert str(action) == "lay 2: R1 R1 W + G3 G4 W G6"


def test_refused_texts_leave_the_game_unchanged() -> None:
    game = Game(3, seed=4)
    game.apply("draw")
    before = snapshot(game)
    for text in ("dance", "hit R7", "discard R13", "lay R1", "declare x", "give p9", "draw"):
        with pytest.raises((InvalidActionError, IllegalActionError)):
            game.apply(text)
        assert snapshot(game) == before
    # check reads text as apply does, and changes nothing either
    with pytest.raises(IllegalActionError, match="already drawn"):
        game.check("draw")
    with pytest.raises(InvalidActionError, match="not an action"):
        game.check(5)  # type: ignore[arg-type]
    assert snapshot(game) == before


def test_constructors_refuse_malformed_actions() -> None:
    with pytest.raises(
        InvalidActionError, match="only a Skip or the Anti-phase card names a player"
    ):
        Discard(Card.parse("R7"), 1)
    assert str(Discard(SKIP, 3)) == "discard S>p3"


@pytest.mark.parametrize(
    ("phase", "hand", "text", "canonical"),
    [
        (2, "R7 B7 W G3 G4 G6 W Y2", "lay G3 G4 W G6 + R7 B7 W", "lay R7 B7 W + G3 G4 W G6"),
        (2, "R7 B7 W G3 G4 G6 W Y2", "lay R7 B7 W + G3 G4 W=5 G6", "lay R7 B7 W + G3 G4 W G6"),
        (1, "R7 B7 W G3 G3 Y3 Y1 Y2", "lay R7 B7 W + G3 Y3 G3", "lay G3 G3 Y3 + R7 B7 W"),
        (
            3,
            "R7 B7 Y7 G7 G3 G4 G6 W",
            "lay G3 G4 W G6 + Y7 R7 B7 G7",
            "lay R7 B7 G7 Y7 + G3 G4 W G6",
        ),
    ],
)
def test_a_lay_down_is_one_written_form_read_in_any_group_order(
    phase: int, hand: str, text: str, canonical: str
) -> None:
    """Any order of the groups is the same lay-down; the engine writes it in the phase's
    order, each Wild a bare W once a numbered card implies its value."""
    game = arranged([hand, "R1 R2 R3 R4 R5 R6 R8 R9 R10 R11"], "B12", "Y12", phases=(phase, 1))
    game.apply("draw")
    action = game.check(game.parse_action(text))
    assert str(action) == canonical
    assert canonical in [str(a) for a in game.legal_actions]
    assert game.check(game.parse_action(canonical)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("lay G3 G4 W G6 + R7 B8 W", "R7 B8 W is not a set: R7 and B8 are different numbers"),
        ("lay R7 B8 W + G3 G4 W G6", r"the groups may be written in any order"),
    ],
)
def test_a_lay_down_that_fits_in_no_order_says_the_order_was_not_the_problem(
    text: str, message: str
) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_action(text, Phase.parse("1 set of 3 + 1 run of 4"))


def test_a_lay_down_object_may_list_its_groups_in_any_order() -> None:
    game = arranged(
        ["R7 B7 W G3 G4 G6 W Y2", "R1 R2 R3 R4 R5 R6 R8 R9 R10 R11"], "B12", "Y12", phases=(2, 1)
    )
    game.apply("draw")
    run = {"kind": "run", "cards": "G3 G4 W G6", "number": None, "low": None}
    run_as_text = {"kind": "run", "text": "G3 G4 W=5 G6"}
    for first in (run, run_as_text):
        data = {"type": "LayDown", "groups": [first, {"kind": "set", "cards": "R7 B7 W"}]}
        assert str(game.check(action_from_dict(data))) == "lay R7 B7 W + G3 G4 W G6"


@pytest.mark.parametrize(
    ("group", "message"),
    [
        (
            {"kind": "run", "cards": "G3 G4 W G6", "text": "G3 G4 W G6"},
            "a group gives its cards or its text, not both",
        ),
        ({"kind": "run", "text": "G3 G4 W G6", "low": 3}, "not in 'low'"),
        ({"kind": "run", "cards": "G3 G4 W=5 G6"}, "each Wild a bare W"),
        ({"kind": "run", "cards": "W G4 G5 G6", "low": 4}, "G4 cannot stand in place 2"),
        ({"kind": "run", "cards": "W G4 G5 G6", "number": 3}, "a run has no number to declare"),
        ({"kind": "set", "cards": "W W W"}, "an all-Wild set must declare its number"),
        ({"kind": "run", "cards": "W W W"}, "an all-Wild run must declare its numbers"),
    ],
)
def test_the_lay_down_object_form_is_one_reading(group: dict[str, object], message: str) -> None:
    """``cards`` (bare Wilds, values beside them) or ``text`` (written as in a lay-down),
    never both; values the cards contradict are refused, never ignored."""
    with pytest.raises(RecordError, match=message):
        action_from_dict({"type": "LayDown", "groups": [group]})


@pytest.mark.parametrize(
    ("kind", "cards", "values", "written"),
    [
        ("run", "W W W", {"low": 3}, "W=3 W=4 W=5"),
        ("set", "W W W", {"number": 9}, "W=9 W=9 W=9"),
        ("run", "W G4 G5 G6", {"low": 3}, "W G4 G5 G6"),
        ("color", "W W W", {"color": "R"}, "W=R W=R W=R"),
    ],
)
def test_bare_wilds_take_the_values_given_beside_them(
    kind: str, cards: str, values: dict[str, object], written: str
) -> None:
    action = action_from_dict(
        {"type": "LayDown", "groups": [{"kind": kind, "cards": cards, **values}]}
    )
    assert isinstance(action, LayDown)
    assert action.groups[0].written() == written

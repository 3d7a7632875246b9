"""docs/rules.md §2 (Groups and phases): the six group kinds, the standard phases and the phrase
language phase lists are written in (parsing, printing back, the shipped lists, user lists).
"""

from __future__ import annotations

import pytest

from phase10 import (
    PHASE_LISTS,
    PRESETS,
    STANDARD_PHASES,
    Color,
    Game,
    Group,
    GroupError,
    GroupKind,
    GroupSpec,
    Parity,
    Phase,
    PhaseParseError,
    Rules,
    RulesError,
    parse_cards,
    parse_group,
    parse_phase_list,
    phase_list,
)

K = GroupKind

# The standard list exactly as rules §2 writes it.
STANDARD_TEXT = [
    "2 sets of 3",
    "1 set of 3 + 1 run of 4",
    "1 set of 4 + 1 run of 4",
    "1 run of 7",
    "1 run of 8",
    "1 run of 9",
    "2 sets of 4",
    "7 cards of one color",
    "1 set of 5 + 1 set of 2",
    "1 set of 5 + 1 set of 3",
]

# Every phase list of the published overview of the editions (docs/rules.md §2) as printed
# there, in the order printed: the standard list, the unnamed list after it, Island Paradise,
# then the other unnamed lists.
SEED_LISTS: dict[str, tuple[str, ...]] = {
    "standard": tuple(STANDARD_TEXT),
    "edition-1": (
        "3 sets of 3", "4 sets of 2", "1 set of 5 + 1 run of 4", "2 sets of 3 + 1 run of 3",
        "1 set of 3 + 1 run of 6", "2 runs of 4", "1 run of 4 + 4 cards of one color",
        "1 run of 5 of one color", "8 cards of one color", "9 cards of one color",
    ),
    "island-paradise": (
        "1 run of 7", "1 set of 2 + 2 sets of 3", "1 run of 6 + 1 set of 2",
        "3 sets of 2 + 1 set of 3", "1 set of 3 + 1 run of 6", "2 runs of 4",
        "3 cards of one color + 1 set of 4", "8 cards of one color",
        "4 cards of one color + 1 set of 5", "9 cards of one color",
    ),
    "edition-2": (
        "6 cards of one color", "7 cards of one color",
        "4 cards of one color + 5 cards of one color", "2 sets of 3", "1 run of 8", "1 run of 9",
        "1 set of 4 + 1 run of 4", "10 cards of even or odd", "1 set of 4 + 1 run of 6",
        "1 set of 5 + 1 run of 4",
    ),
    "edition-3": (
        "1 even or odd of 8", "1 even or odd of 9", "1 color run of 3 + 2 sets of 2",
        "7 of one color", "1 color run of 5 + 2 sets of 2",
        "1 color even or odd of 3 + 1 color even or odd of 4", "1 color run of 4 + 1 set of 4",
        "1 color run of 4 + 3 sets of 2", "1 run of 3 + 2 sets of 3",
        "1 run of 3 + 1 set of 4 + 1 set of 3",
    ),
    "edition-4": (
        "3 of one color + 3 of one color + 4 of one color", "1 color run of 3 + 2 sets of 2",
        "7 of one color", "1 set of 3 + 1 set of 3", "1 set of 4 + 1 set of 2", "1 set of 5",
        "2 color even or odd of 4", "1 run of 9", "1 color run of 5 + 2 sets of 2",
        "1 color run of 6 + 1 set of 2",
    ),
    "edition-5": (
        "1 run of 3 + 3 sets of 2", "1 run of 8", "1 run of 9", "1 color run of 3 + 1 set of 3",
        "1 set of 2 + 2 sets of 3", "1 set of 2 + 1 set of 3 + 1 set of 4",
        "4 of one color + 6 of one color", "5 of one color + 5 of one color",
        "1 run of 5 + 1 set of 3 + 1 set of 2", "1 run of 3 + 1 set of 4 + 1 set of 3",
    ),
    "edition-6": (
        "1 even or odd of 9", "1 even or odd of 10", "1 run of 8", "1 run of 10", "2 sets of 3",
        "2 sets of 4", "1 color run of 4", "1 color run of 3 + 3 of one color",
        "1 set of 3 + 1 run of 4", "1 set of 4 + 1 run of 6",
    ),
    "edition-7": (
        "1 set of 4 + 1 set of 2", "2 sets of 3", "1 run of 7", "1 run of 8",
        "1 set of 2 + 2 sets of 3", "1 set of 5", "1 run of 9", "1 run of 6 + 2 sets of 2",
        "1 run of 8 + 1 set of 2", "1 set of 4 + 1 run of 6",
    ),
    "edition-8": (
        "1 set of 2 + 1 run of 6", "1 even or odd of 9", "1 even or odd of 10",
        "1 color run of 3 + 1 set of 3", "1 set of 3 + 1 run of 5", "1 set of 5 + 1 run of 4",
        "1 color run of 5", "1 color even or odd of 3 + 1 color even or odd of 5", "5 sets of 2",
        "2 sets of 3 + 2 sets of 2",
    ),
    "edition-9": (
        "1 even or odd of 8", "1 color run of 3 + 1 set of 3", "1 even or odd of 9",
        "1 color run of 4", "1 even or odd of 10", "1 color run of 5", "1 color even or odd of 5",
        "1 color run of 5 + 1 set of 2", "1 color even or odd of 6",
        "1 color run of 5 + 3 of one color",
    ),
    "edition-10": (
        "1 set of 3 + 1 run of 5", "1 run of 4 + 1 set of 3 + 1 set of 2",
        "1 run of 3 + 1 set of 3 + 2 sets of 2", "1 color run of 4",
        "1 color run of 4 + 1 set of 2", "1 color run of 4 + 2 sets of 2",
        "1 set of 5 + 1 run of 4", "1 color even or odd of 5", "1 color even or odd of 6",
        "1 color run of 3 + 3 of one color + 1 set of 2",
    ),
    "edition-11": (
        "1 run of 7", "1 set of 4 + 1 set of 3", "1 color run of 5 + 1 set of 2",
        "1 even or odd of 10", "2 runs of 5", "3 sets of 3", "1 color run of 4 + 1 set of 3",
        "1 color even or odd of 3 + 1 color even or odd of 4", "1 run of 7 + 1 set of 2",
        "1 color run of 5 + 1 set of 3",
    ),
    "edition-12": (
        "1 set of 2 + 1 run of 6", "1 even or odd of 9", "1 even or odd of 10",
        "1 color run of 3 + 1 set of 3", "1 set of 3 + 1 run of 5", "1 set of 5 + 1 run of 4",
        "1 color run of 5", "1 color even or odd of 3 + 1 color even or odd of 5", "5 sets of 2",
        "2 sets of 3 + 2 sets of 2",
    ),
}  # fmt: skip

_CODES = {
    "S": K.SET,
    "R": K.RUN,
    "C": K.COLOR,
    "E": K.EVEN_ODD,
    "CR": K.COLOR_RUN,
    "CE": K.COLOR_EVEN_ODD,
}


def specs(code: str) -> tuple[GroupSpec, ...]:
    """Groups written short: ``"S3 R4"`` is a set of 3 then a run of 4; ``CR`` a colour run,
    ``CE`` a colour even/odd, ``C`` a colour group, ``E`` an even/odd group.
    """
    out = []
    for word in code.split():
        letters = word.rstrip("0123456789")
        out.append(GroupSpec(_CODES[letters], int(word[len(letters) :])))
    return tuple(out)


# A few phases of every list, read by hand from the printed lists (1-based phase numbers).
SEED_MEANINGS = [
    ("standard", 1, "S3 S3"),
    ("standard", 2, "S3 R4"),
    ("standard", 8, "C7"),
    ("standard", 9, "S5 S2"),
    ("edition-1", 2, "S2 S2 S2 S2"),
    ("edition-1", 7, "R4 C4"),
    ("edition-1", 8, "CR5"),
    ("island-paradise", 2, "S2 S3 S3"),
    ("island-paradise", 4, "S2 S2 S2 S3"),
    ("island-paradise", 7, "C3 S4"),
    ("island-paradise", 10, "C9"),
    ("edition-2", 3, "C4 C5"),
    ("edition-2", 8, "E10"),
    ("edition-2", 10, "S5 R4"),
    ("edition-3", 1, "E8"),
    ("edition-3", 4, "C7"),
    ("edition-3", 6, "CE3 CE4"),
    ("edition-3", 10, "R3 S4 S3"),
    ("edition-4", 1, "C3 C3 C4"),
    ("edition-4", 4, "S3 S3"),
    ("edition-4", 7, "CE4 CE4"),
    ("edition-4", 10, "CR6 S2"),
    ("edition-5", 1, "R3 S2 S2 S2"),
    ("edition-5", 6, "S2 S3 S4"),
    ("edition-5", 7, "C4 C6"),
    ("edition-6", 2, "E10"),
    ("edition-6", 4, "R10"),
    ("edition-6", 8, "CR3 C3"),
    ("edition-7", 1, "S4 S2"),
    ("edition-7", 8, "R6 S2 S2"),
    ("edition-7", 9, "R8 S2"),
    ("edition-8", 1, "S2 R6"),
    ("edition-8", 8, "CE3 CE5"),
    ("edition-8", 9, "S2 S2 S2 S2 S2"),
    ("edition-8", 10, "S3 S3 S2 S2"),
    ("edition-9", 2, "CR3 S3"),
    ("edition-9", 7, "CE5"),
    ("edition-9", 10, "CR5 C3"),
    ("edition-10", 3, "R3 S3 S2 S2"),
    ("edition-10", 9, "CE6"),
    ("edition-10", 10, "CR3 C3 S2"),
    ("edition-11", 4, "E10"),
    ("edition-11", 5, "R5 R5"),
    ("edition-11", 9, "R7 S2"),
    ("edition-12", 2, "E9"),
    ("edition-12", 7, "CR5"),
    ("edition-12", 10, "S3 S3 S2 S2"),
]

ALL_SHIPPED = [
    pytest.param(name, index, id=f"{name}-{index + 1}")
    for name, phases in PHASE_LISTS.items()
    for index in range(len(phases))
]
ALL_SEED = [
    pytest.param(name, index, phrase, id=f"{name}-{index + 1}")
    for name, phrases in SEED_LISTS.items()
    for index, phrase in enumerate(phrases)
]


# -- group kinds ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "phrase"),
    [
        (GroupSpec(K.SET, 3), "set of 3"),
        (GroupSpec(K.RUN, 4), "run of 4"),
        (GroupSpec(K.COLOR, 7), "7 cards of one color"),
        (GroupSpec(K.EVEN_ODD, 8), "even or odd of 8"),
        (GroupSpec(K.COLOR_RUN, 4), "color run of 4"),
        (GroupSpec(K.COLOR_EVEN_ODD, 3), "color even or odd of 3"),
    ],
    ids=[kind.value for kind in K],
)
def test_s2_group_kind_phrase_on_the_reference_card(spec: GroupSpec, phrase: str) -> None:
    assert str(spec) == phrase
    assert Phase.parse(phrase).groups == (spec,)


def test_s2_group_kind_flags() -> None:
    assert {kind for kind in K if kind.is_run} == {K.RUN, K.COLOR_RUN}
    assert {kind for kind in K if kind.needs_color} == {K.COLOR, K.COLOR_RUN, K.COLOR_EVEN_ODD}
    assert {kind for kind in K if kind.needs_parity} == {K.EVEN_ODD, K.COLOR_EVEN_ODD}


def test_s2_set_is_one_number_any_colours() -> None:
    group = Group.make(K.SET, parse_cards("R7 B7 G7 Y7 R7"))
    assert group.number == 7 and len(group.cards) == 5
    with pytest.raises(GroupError, match="different numbers"):
        Group.make(K.SET, parse_cards("R7 R8 R9"))


def test_s2_run_is_consecutive_numbers_any_colours() -> None:
    group = Group.make(K.RUN, parse_cards("R4 B5 G6 Y7"))
    assert (group.low, group.high) == (4, 7)
    with pytest.raises(GroupError, match="cannot stand in place 3"):
        Group.make(K.RUN, parse_cards("R4 B5 G7"))


@pytest.mark.parametrize(
    "text", ["R11 R12 R1", "R12 R1 R2", "B10 B11 B12 B1", "W R1 R2", "R11 R12 W"]
)
def test_s2_run_never_wraps(text: str) -> None:
    with pytest.raises(GroupError, match=r"no wrap|never followed by 1"):
        Group.make(K.RUN, parse_cards(text))


def test_s2_run_at_most_12_long() -> None:
    twelve = parse_cards("R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 Y12")
    assert Group.make(K.RUN, twelve).high == 12
    with pytest.raises(GroupError, match="at most 12 cards"):
        Group.make(K.RUN, (*twelve, parse_cards("W")[0]))
    with pytest.raises(PhaseParseError, match="at most 12"):
        GroupSpec(K.RUN, 13)
    with pytest.raises(PhaseParseError, match="at most 12"):
        GroupSpec(K.COLOR_RUN, 13)
    assert str(GroupSpec(K.RUN, 12)) == "run of 12"


def test_s2_colour_group_is_one_colour_any_numbers() -> None:
    group = Group.make(K.COLOR, parse_cards("G1 G12 G5 G5"))
    assert group.color is Color.GREEN
    with pytest.raises(GroupError, match="different colours"):
        Group.make(K.COLOR, parse_cards("G1 Y1"))


def test_s2_even_odd_is_one_parity_any_colours() -> None:
    assert Group.make(K.EVEN_ODD, parse_cards("R2 B4 G12")).parity is Parity.EVEN
    assert Group.make(K.EVEN_ODD, parse_cards("R1 B1 Y11")).parity is Parity.ODD
    with pytest.raises(GroupError, match="R2 is even and R3 is not"):
        Group.make(K.EVEN_ODD, parse_cards("R2 R3"))


def test_s2_colour_run_is_a_run_all_of_one_colour() -> None:
    group = Group.make(K.COLOR_RUN, parse_cards("Y3 Y4 Y5"))
    assert (group.color, group.low) == (Color.YELLOW, 3)
    with pytest.raises(GroupError, match="different colours"):
        Group.make(K.COLOR_RUN, parse_cards("Y3 R4 Y5"))
    with pytest.raises(GroupError, match="cannot stand in place"):
        Group.make(K.COLOR_RUN, parse_cards("Y3 Y5 Y6"))


def test_s2_colour_even_odd_is_even_odd_all_of_one_colour() -> None:
    group = Group.make(K.COLOR_EVEN_ODD, parse_cards("B1 B9 B5"))
    assert (group.color, group.parity) == (Color.BLUE, Parity.ODD)
    with pytest.raises(GroupError, match="different colours"):
        Group.make(K.COLOR_EVEN_ODD, parse_cards("B1 R3"))
    with pytest.raises(GroupError, match="is odd and B2 is not"):
        Group.make(K.COLOR_EVEN_ODD, parse_cards("B1 B2"))


@pytest.mark.parametrize("kind", list(K), ids=[kind.value for kind in K])
def test_s2_skip_never_part_of_a_group(kind: GroupKind) -> None:
    # Every kind refuses a Skip, even among blue cards (old decks printed Skips blue).
    cards = {
        K.SET: "B7 B7 S",
        K.RUN: "B1 B2 S",
        K.COLOR: "B1 B5 S",
        K.EVEN_ODD: "B1 B5 S",
        K.COLOR_RUN: "B1 B2 S",
        K.COLOR_EVEN_ODD: "B1 B5 S",
    }[kind]
    with pytest.raises(GroupError, match="a Skip can never be part of a group"):
        Group.make(kind, parse_cards(cards))
    with pytest.raises(GroupError, match="Skip"):
        parse_group(kind, cards)


# -- standard phases -----------------------------------------------------------------


def test_s2_standard_list_exactly_as_rules_writes_it() -> None:
    assert [str(phase) for phase in STANDARD_PHASES] == STANDARD_TEXT
    assert PHASE_LISTS["standard"] == STANDARD_PHASES
    assert Rules().phase_sequence == STANDARD_PHASES


@pytest.mark.parametrize(
    ("number", "code"),
    list(
        enumerate(
            ["S3 S3", "S3 R4", "S4 R4", "R7", "R8", "R9", "S4 S4", "C7", "S5 S2", "S5 S3"],
            start=1,
        )
    ),
)
def test_s2_standard_phase_groups(number: int, code: str) -> None:
    assert STANDARD_PHASES[number - 1].groups == specs(code)


@pytest.mark.parametrize(
    ("text", "minimum"),
    [("2 sets of 3", 6), ("1 run of 9", 9), ("1 set of 5 + 1 set of 3", 8), ("5 sets of 2", 10)],
)
def test_s2_phase_min_cards(text: str, minimum: int) -> None:
    assert Phase.parse(text).min_cards == minimum


# -- the phrase language -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "1 set of 3 + 1 run of 4",
        "4 cards of one color + 1 set of 5",
        "1 color even or odd of 3 + 1 color even or odd of 4",
    ],
)
def test_s2_rules_examples_print_back_the_same(text: str) -> None:
    assert str(Phase.parse(text)) == text


@pytest.mark.parametrize(("name", "index"), ALL_SHIPPED)
def test_s2_every_preset_list_parses_and_prints_back(name: str, index: int) -> None:
    phase = PHASE_LISTS[name][index]
    again = Phase.parse(str(phase))
    assert again == phase
    assert str(again) == str(phase)
    assert eval(repr(phase), {"Phase": Phase}) == phase


@pytest.mark.parametrize("name", list(PRESETS))
def test_s2_every_rules_preset_phase_sequence_prints_back(name: str) -> None:
    rules = PRESETS[name]
    assert parse_phase_list(str(phase) for phase in rules.phase_sequence) == rules.phase_sequence
    assert Rules.from_dict(rules.to_dict()) == rules


def test_s2_phase_lists_named_in_seed_order() -> None:
    assert list(PHASE_LISTS) == list(SEED_LISTS)
    assert list(PHASE_LISTS)[2] == "island-paradise"
    assert [name for name in PHASE_LISTS if name.startswith("edition-")] == [
        f"edition-{n}" for n in range(1, 13)
    ]


@pytest.mark.parametrize(("name", "index", "phrase"), ALL_SEED)
def test_s2_every_seed_phrase_parses_to_the_shipped_phase(
    name: str, index: int, phrase: str
) -> None:
    assert Phase.parse(phrase) == PHASE_LISTS[name][index]


@pytest.mark.parametrize(
    ("name", "number", "code"),
    [pytest.param(n, i, c, id=f"{n}-{i}") for n, i, c in SEED_MEANINGS],
)
def test_s2_seed_phases_mean_what_the_seed_says(name: str, number: int, code: str) -> None:
    assert PHASE_LISTS[name][number - 1].groups == specs(code)
    assert Phase.parse(SEED_LISTS[name][number - 1]).groups == specs(code)


@pytest.mark.parametrize("name", list(PHASE_LISTS))
def test_s2_every_shipped_list_has_ten_phases_and_is_a_preset(name: str) -> None:
    assert len(PHASE_LISTS[name]) == 10
    assert phase_list(name) is PHASE_LISTS[name]
    if name != "standard":
        assert PRESETS[name].phase_list == PHASE_LISTS[name]
        assert PRESETS[name].phase_sequence == PHASE_LISTS[name]


def test_s2_island_paradise_by_name() -> None:
    assert [str(p) for p in phase_list("island-paradise")][:3] == [
        "1 run of 7",
        "1 set of 2 + 2 sets of 3",
        "1 run of 6 + 1 set of 2",
    ]


def test_s2_edition_12_is_the_seeds_second_copy_of_edition_8() -> None:
    assert PHASE_LISTS["edition-12"] == PHASE_LISTS["edition-8"]


def test_s2_unknown_list_name_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="island-paradise"):
        phase_list("paradise")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7 cards of one colour", "7 cards of one color"),
        ("7 cards of one color", "7 cards of one color"),
        ("7 cards of 1 colour", "7 cards of one color"),
        ("7 cards of the same colour", "7 cards of one color"),
        ("7 of one colour", "7 cards of one color"),
        ("1 colour run of 4", "1 color run of 4"),
        ("1 COLOUR Run of 4", "1 color run of 4"),
        ("1 colour even or odd of 3", "1 color even or odd of 3"),
        ("1 run of 5 of one colour", "1 color run of 5"),
        ("1 even or odd of 5 of one colour", "1 color even or odd of 5"),
        ("10 cards of even or odd", "1 even or odd of 10"),
        ("2 colour even or odd of 4", "1 color even or odd of 4 + 1 color even or odd of 4"),
        ("two sets of three", "2 sets of 3"),
        ("a run of seven", "1 run of 7"),
        ("set of 3 + run of 4", "1 set of 3 + 1 run of 4"),
        ("color run of 4 + even or odd of 2", "1 color run of 4 + 1 even or odd of 2"),
        ("1 set of 3, 1 run of 4", "1 set of 3 + 1 run of 4"),
        ("1 set of 3 and 1 run of 4", "1 set of 3 + 1 run of 4"),
        ("1 set of 3 + 1 set of 3", "2 sets of 3"),
        ("1 set of 3+1 run of 4", "1 set of 3 + 1 run of 4"),
        ("3 of one color + 3 of one color", "3 cards of one color + 3 cards of one color"),
    ],
    ids=lambda value: value,
)
def test_s2_phrase_spellings(text: str, canonical: str) -> None:
    phase = Phase.parse(text)
    assert str(phase) == canonical
    assert Phase.parse(canonical) == phase


def test_s2_colour_and_color_read_the_same() -> None:
    for british, american in [
        ("7 cards of one colour", "7 cards of one color"),
        ("1 colour run of 4", "1 color run of 4"),
        ("1 colour even or odd of 3", "1 color even or odd of 3"),
    ]:
        assert Phase.parse(british) == Phase.parse(american)
        assert "colour" not in str(Phase.parse(british))


def test_s2_phase_keeps_groups_in_the_order_written() -> None:
    assert Phase.parse("1 run of 4 + 1 set of 3").groups == specs("R4 S3")
    assert Phase.parse("1 set of 3 + 1 run of 4").groups == specs("S3 R4")


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("2 sets of three and a flush of 4", "stopped at word 7, 'flush'"),
        ("1 sett of 3", "stopped at word 2, 'sett'"),
        ("1 run of 13", "stopped at word 4, '13'"),
        ("1 color run of 13", "stopped at word 5, '13'"),
        ("1 set of 3 1 run of 4", "stopped at word 5, '1'"),
        ("0 sets of 3", "stopped at word 2, 'sets'"),
        ("1 set of 0", "stopped at word 4, '0'"),
        ("1 color set of 3", "stopped at word 3, 'set'"),
        ("7 cards of two colors", "stopped at word 4, 'two'"),
        ("1 even and odd of 4", "stopped at word 3, 'and'"),
        ("1 set of 3 of one color", "stopped at word 5, 'of'"),
        ("1 set of 3 plus 1 run of 4", "stopped at word 5, 'plus'"),
        ("sets of 3", "stopped at word 1, 'sets'"),
        ("1 set", "it ended too soon"),
        ("1 set of 3 +", "it ended too soon"),
        ("7 cards of one", "it ended too soon"),
        ("", "it ended too soon"),
    ],
    ids=lambda value: repr(value),
)
def test_s2_parser_error_names_the_word_it_stopped_at(text: str, where: str) -> None:
    with pytest.raises(PhaseParseError) as info:
        Phase.parse(text)
    message = str(info.value)
    assert f"cannot read {text!r}: {where}" in message
    assert "expected" in message


def test_s2_runs_at_most_12_in_phrases() -> None:
    assert Phase.parse("1 run of 12").groups == specs("R12")
    assert Phase.parse("1 color run of 12").groups == specs("CR12")
    with pytest.raises(PhaseParseError, match="a run holds at most 12 cards"):
        Phase.parse("1 run of 13")
    # A hand never holds 12 cards to lay, so a rules object refuses such a phase.
    with pytest.raises(RulesError, match="a hand holds at most 11"):
        Rules(phase_list=(Phase.parse("1 run of 12"),))


# -- user phase lists ----------------------------------------------------------------


def test_s2_user_phase_list_via_parse_phase_list() -> None:
    phrases = ["1 run of 5 of one colour", "two sets of 3", "8 cards of even or odd"]
    phases = parse_phase_list(phrases)
    assert [str(p) for p in phases] == [
        "1 color run of 5",
        "2 sets of 3",
        "1 even or odd of 8",
    ]
    rules = Rules(phase_list=phases)
    assert rules.phase_count == 3
    assert Rules.from_dict({"phase_list": phrases}) == rules
    game = Game(2, rules=rules, seed=4)
    assert game.current_phase(0) == phases[0]


def test_s2_user_phase_list_may_hold_fewer_than_ten() -> None:
    assert len(parse_phase_list(["2 sets of 3"])) == 1


def test_s2_user_phase_list_error_names_phase_and_word() -> None:
    with pytest.raises(PhaseParseError, match=r"phase 2: cannot read '1 sett of 3': stopped at"):
        parse_phase_list(["2 sets of 3", "1 sett of 3"])
    with pytest.raises(RulesError, match="phase 3:"):
        Rules.from_dict({"phase_list": ["2 sets of 3", "1 run of 7", "3 flushes of 2"]})


def test_s2_user_phase_list_must_not_be_empty() -> None:
    with pytest.raises(PhaseParseError, match="at least one phase"):
        parse_phase_list([])


def test_s2_rules_from_dict_reads_a_list_by_name() -> None:
    assert (
        Rules.from_dict({"phase_list": "island-paradise"}).phase_list
        == (PHASE_LISTS["island-paradise"])
    )
    with pytest.raises(RulesError, match="no phase list named"):
        Rules.from_dict({"phase_list": "atlantis"})


def test_s2_user_phase_list_has_at_most_ten_phases() -> None:
    from phase10 import Rules, RulesError, parse_phase_list

    ten = parse_phase_list(["2 sets of 3"] * 10)
    assert Rules(phase_list=ten).phase_count == 10
    with pytest.raises(RulesError, match="at most 10 phases, not 11"):
        Rules(phase_list=ten + parse_phase_list(["1 run of 4"]))
    with pytest.raises(RulesError, match="at most 10 phases"):
        Rules.from_dict({"phase_list": ["1 set of 2"] * 12})


@pytest.mark.parametrize(
    ("kind", "most", "too_many"),
    [
        (K.SET, 16, "1 set of 17"),
        (K.COLOR, 32, "33 cards of one color"),
        (K.EVEN_ODD, 56, "1 even or odd of 57"),
        (K.COLOR_EVEN_ODD, 20, "1 color even or odd of 21"),
    ],
)
def test_s2_no_group_larger_than_one_deck_can_fill(kind: K, most: int, too_many: str) -> None:
    """A set has 8 cards of its number and 8 Wilds to draw on, a colour 24 cards and 8
    Wilds, and so on: a phrase asking for more is refused as it is read."""
    assert GroupSpec(kind, most).size == most
    with pytest.raises(PhaseParseError, match=f"cannot be made: .*{most} cards at most"):
        GroupSpec(kind, most + 1)
    with pytest.raises(PhaseParseError, match=f"cannot be made: .*{most} cards at most"):
        Phase.parse(too_many)


def test_s2_a_phase_uses_at_most_the_decks_104_numbered_cards_and_wilds() -> None:
    assert Phase.parse("6 sets of 16 + 1 set of 8").min_cards == 104
    with pytest.raises(PhaseParseError, match="a phase of 112 cards cannot be made"):
        Phase.parse("7 sets of 16")
    for text in ("1 set of 17", "1 set of 40000", "1 set of 100000000000000000000"):
        with pytest.raises(PhaseParseError, match="cannot be made"):
            Phase.parse(text)


def test_s2_a_huge_count_is_refused_before_any_group_is_made() -> None:
    """A count of groups is anyone's to write (a server's table rules take phrases from
    its visitors): it is checked before the groups are made, so no phrase can ask for
    more memory than the 104 cards a phase may hold."""
    for text, words in (
        ("99999999999999999999 sets of 3", "with 999999999999… in it cannot be made"),
        ("35 sets of 3", "a phase of 105 cards cannot be made"),
        ("9" * 5000 + " runs of 4", "cannot be made"),
        ("2 sets of " + "9" * 5000, "cannot be made"),
    ):
        with pytest.raises(PhaseParseError, match=words):
            Phase.parse(text)
    assert len(Phase.parse("34 sets of 3").groups) == 34

"""docs/rules.md §1 (Cards): the deck, the colours, the notation, identical cards and points."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phase10 import (
    COLORS,
    DECK_COUNTS,
    SKIP,
    WILD,
    Arrangement,
    Card,
    CardError,
    CardKind,
    Color,
    Deck,
    Game,
    HandEnded,
    Rules,
    RulesError,
    check_deck_can_hold,
    deck_counts,
    format_cards,
    full_deck,
    hand_points,
    parse_cards,
    preset,
)

ALL_CARDS = [Card.from_index(index) for index in range(50)]
cards_st = st.sampled_from(ALL_CARDS)


# -- deck ----------------------------------------------------------------------------


def test_s1_deck_has_108_cards() -> None:
    deck = full_deck()
    assert len(deck) == 108
    counts = Counter(deck)
    assert sum(1 for card in deck if card.is_natural) == 96
    assert counts[WILD] == 8
    assert counts[SKIP] == 4
    assert counts == Counter(DECK_COUNTS)
    assert sum(DECK_COUNTS.values()) == 108


def test_s1_deck_numbers_1_to_12_in_four_colours_two_of_each() -> None:
    counts = Counter(full_deck())
    for color in COLORS:
        for number in range(1, 13):
            assert counts[Card.number_card(color, number)] == 2
    assert len(counts) == 50  # 48 numbered values, Wild, Skip
    by_colour = Counter(card.color for card in full_deck() if card.is_natural)
    assert by_colour == dict.fromkeys(COLORS, 24)
    by_number = Counter(card.number for card in full_deck() if card.is_natural)
    assert by_number == dict.fromkeys(range(1, 13), 8)


def test_s1_wild_and_skip_have_no_colour_or_number() -> None:
    for card in (WILD, SKIP):
        assert card.color is None and card.number is None
        assert not card.is_natural
    assert WILD.is_wild and not WILD.is_skip
    assert SKIP.is_skip and not SKIP.is_wild


# -- colours -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("letter", "name"),
    [("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow")],
    ids=["red", "blue", "green", "yellow"],
)
def test_s1_colours_letters_and_names(letter: str, name: str) -> None:
    color = Color(letter)
    assert color.letter == letter
    assert color.display_name == name
    assert color in COLORS


def test_s1_colours_are_exactly_four() -> None:
    assert [color.letter for color in COLORS] == ["R", "B", "G", "Y"]


def test_s1_orange_is_a_display_name_only_not_a_card_letter() -> None:
    # The 40th-anniversary deck prints orange for blue; the notation stays B.
    with pytest.raises(CardError, match="not a card"):
        Card.parse("O7")
    assert str(Card.parse("B7")) == "B7"


# -- notation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("R7", "R7"),
        ("r7", "R7"),
        ("B12", "B12"),
        ("b12", "B12"),
        ("G1", "G1"),
        ("g1", "G1"),
        ("Y10", "Y10"),
        ("y10", "Y10"),
        ("W", "W"),
        ("w", "W"),
        ("S", "S"),
        ("s", "S"),
        ("  r9 ", "R9"),
    ],
    ids=lambda value: repr(value),
)
def test_s1_notation_canonical_form(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert Card.parse(canonical) == card


@pytest.mark.parametrize(
    "text",
    ["R0", "R13", "G00", "O7", "X", "", "7R", "WW", "W7", "S1", "RR7", "R-1", "R 7", "r07"],
    ids=lambda value: repr(value),
)
def test_s1_notation_refuses_what_is_not_a_card(text: str) -> None:
    with pytest.raises(CardError, match="is not a card"):
        Card.parse(text)


def test_s1_notation_kinds() -> None:
    card = Card.parse("Y10")
    assert card.kind is CardKind.NUMBER
    assert card.color is Color.YELLOW and card.number == 10
    assert Card.parse("W") is WILD and Card.parse("S") is SKIP


@given(cards_st)
def test_s1_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert Card.parse(f"  {card} ") == card


@given(cards_st)
def test_s1_repr_is_evalable(card: Card) -> None:
    text = repr(card)
    assert eval(text, {"Card": Card}) == card
    assert text == f"Card.parse({str(card)!r})"


@given(cards_st)
def test_s1_index_and_from_index_agree(card: Card) -> None:
    assert Card.from_index(card.index) == card
    assert 0 <= card.index < 50


@st.composite
def written_hands(draw: st.DrawFn) -> tuple[list[Card], str]:
    """A hand and one way of writing it: any case, spaces and commas mixed."""
    hand = draw(st.lists(cards_st, max_size=12))
    separators = st.sampled_from([" ", ",", ", ", " ,", "  ", ",,", "\t", " , "])
    text = draw(st.sampled_from(["", " ", ","]))
    for position, card in enumerate(hand):
        word = "".join(char.lower() if draw(st.booleans()) else char.upper() for char in str(card))
        text += word
        text += draw(separators) if position < len(hand) - 1 else draw(st.sampled_from(["", " "]))
    return hand, text


@given(written_hands())
def test_s1_parse_cards_tolerates_case_and_commas(written: tuple[list[Card], str]) -> None:
    hand, text = written
    assert parse_cards(text) == tuple(hand)
    assert parse_cards(format_cards(hand)) == tuple(hand)


@given(st.text(max_size=6))
def test_s1_parse_only_ever_raises_card_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardError:
        return
    assert Card.parse(str(card)) == card


def test_s1_hand_separated_by_spaces_or_commas() -> None:
    expected = (Card.parse("R7"), Card.parse("B12"), WILD, SKIP)
    assert parse_cards("R7 B12 W S") == expected
    assert parse_cards("R7,B12,W,S") == expected
    assert parse_cards("r7, b12 ,w   s") == expected
    assert parse_cards(["R7", "b12", "w", "S"]) == expected
    assert parse_cards("") == ()


def test_s1_parse_cards_names_the_bad_card() -> None:
    with pytest.raises(CardError, match="'R13' is not a card"):
        parse_cards("R7 R13 W")


def test_s1_card_constructor_checks_its_values() -> None:
    with pytest.raises(CardError, match="1 to 12"):
        Card(CardKind.NUMBER, Color.RED, 13)
    with pytest.raises(CardError, match="needs a colour"):
        Card(CardKind.NUMBER, None, 7)
    with pytest.raises(CardError, match="no colour or number"):
        Card(CardKind.WILD, Color.RED)
    with pytest.raises(CardError, match="not 0"):
        Card.number_card(Color.RED, 0)


# -- two identical cards -------------------------------------------------------------


def test_s1_two_identical_cards_are_interchangeable() -> None:
    first, second = Card.parse("R7"), Card.parse("r7")
    assert first == second and hash(first) == hash(second)
    assert first is second  # one interned value per card
    assert len({first, second}) == 1
    assert Counter(parse_cards("R7 R7"))[first] == 2


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("R7 R7", True),
        ("R7 R7 R7", False),
        ("W W W W W W W W", True),
        ("W W W W W W W W W", False),
        ("S S S S", True),
        ("S S S S S", False),
        ("R1 B1 G1 Y1 R1 B1 G1 Y1", True),
    ],
    ids=["two-R7", "three-R7", "eight-W", "nine-W", "four-S", "five-S", "eight-1s"],
)
def test_s1_deck_holds_only_its_copies(text: str, ok: bool) -> None:
    if ok:
        check_deck_can_hold(parse_cards(text))
    else:
        with pytest.raises(CardError, match="the deck holds only"):
            check_deck_can_hold(parse_cards(text))


def test_s1_arrangement_cannot_hold_more_than_the_deck() -> None:
    arrangement = Arrangement(
        hands=(parse_cards("R7 R7"), parse_cards("R7")), discard=parse_cards("Y1")
    )
    with pytest.raises(ValueError, match="more cards than the deck"):
        Game(2, seed=1, arrangement=arrangement)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_s1_game_conserves_the_108_cards_at_the_deal(players: int) -> None:
    game = Game(players, seed=players)
    assert Counter(game.all_cards()) == Counter(DECK_COUNTS)


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_s1_game_conserves_the_108_cards_through_play(seed: int) -> None:
    game = Game(3, seed=seed)
    chooser = random.Random(seed)
    for _ in range(80):
        if game.is_over:
            break
        actions = list(game.legal_actions)
        game.apply(chooser.choice(actions))
        assert len(game.all_cards()) == 108
        assert Counter(game.all_cards()) == Counter(DECK_COUNTS)


# -- other decks (rules §1 "Other decks", option deck) --------------------------------


@pytest.mark.parametrize(
    ("deck", "wilds", "skips", "size"),
    [("standard", 8, 4, 108), ("masters", 8, 2, 106), ("masters_12_wilds", 12, 2, 110)],
)
def test_s1_other_decks_hold_their_wilds_and_skips(
    deck: str, wilds: int, skips: int, size: int
) -> None:
    rules = Rules(deck=deck)
    cards = Counter(full_deck(rules.deck_counts))
    assert (cards[WILD], cards[SKIP], rules.deck_size) == (wilds, skips, size)
    assert all(cards[card] == 2 for card in ALL_CARDS[:48])
    assert Rules.from_dict(rules.to_dict()) == rules
    assert (Deck(deck).wilds, Deck(deck).skips) == (wilds, skips)


def test_s1_the_masters_preset_plays_the_tin_and_conserves_its_106_cards() -> None:
    rules = preset("masters")
    assert rules.deck is Deck.MASTERS
    game = Game(3, seed=5, rules=rules)
    chooser = random.Random(5)
    for _ in range(120):
        assert Counter(game.all_cards()) == Counter(rules.deck_counts)
        if game.is_over:
            break
        game.apply(chooser.choice(list(game.legal_actions)))


def test_s1_a_deck_refuses_more_copies_than_it_holds() -> None:
    with pytest.raises(CardError, match="the deck holds only 2 S, not 3"):
        check_deck_can_hold(parse_cards("S S S"), Rules(deck="masters").deck_counts)
    check_deck_can_hold(parse_cards("W " * 12), Rules(deck="masters_12_wilds").deck_counts)
    arrangement = Arrangement(
        hands=(parse_cards("S S"), parse_cards("S")), discard=parse_cards("Y1")
    )
    with pytest.raises(ValueError, match="more cards than the deck"):
        Game(2, seed=1, rules=Rules(deck="masters"), arrangement=arrangement)
    with pytest.raises(RulesError, match="deck must be one of"):
        Rules(deck="tin")
    with pytest.raises(CardError, match="0 or more Skips"):
        deck_counts(8, -2)


# -- points left in hand -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "points"),
    [(f"R{n}", 5) for n in range(1, 10)]
    + [("B10", 10), ("G11", 10), ("Y12", 10)]
    + [("W", 25), ("S", 15)],
    ids=lambda value: str(value),
)
def test_s1_points_left_in_hand(text: str, points: int) -> None:
    assert Card.parse(text).points == points
    assert hand_points(parse_cards(text)) == points


@given(cards_st)
def test_s1_points_depend_only_on_number_not_colour(card: Card) -> None:
    if card.is_natural:
        assert card.number is not None
        for color in COLORS:
            assert Card.number_card(color, card.number).points == card.points


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("", 0),
        ("R1 R9", 10),
        ("R9 R10", 15),
        ("R1 R10 W S", 55),
        ("W W S S", 80),
        ("G12 G12 B11 Y10", 40),
    ],
    ids=["empty", "two-low", "nine-and-ten", "mixed", "specials", "high"],
)
def test_s1_hand_points_add_up(text: str, points: int) -> None:
    assert hand_points(parse_cards(text)) == points


def test_s1_whole_deck_is_worth_860_points() -> None:
    # numbered: 4 colours x 2 copies x (9 x 5 + 3 x 10) = 600; Wilds 200; Skips 60
    assert hand_points(full_deck()) == 860


def test_s1_points_left_in_hand_are_scored_at_the_end_of_a_hand() -> None:
    loser_hand = parse_cards("R1 R10 W S B12 G9")
    game = Game(
        2,
        seed=5,
        dealer=1,
        arrangement=Arrangement(
            hands=(parse_cards("R7 B7 G7 R3 B3 G3 Y7"), loser_hand),
            discard=parse_cards("Y1"),
            draw=parse_cards("Y3"),
        ),
    )
    game.apply("draw")
    game.apply("lay R7 B7 G7 + R3 B3 G3")
    game.apply("hit Y7 g1")
    events = game.apply("hit Y3 g0")
    ended = next(event for event in events if isinstance(event, HandEnded))
    assert ended.went_out == 0
    assert ended.points == (0, hand_points(loser_hand)) == (0, 70)
    assert [seat.score for seat in game.seats] == [0, 70]

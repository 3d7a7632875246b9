"""Cards, the deck (108 cards; other printings by rules §8 ``deck``, the Anti-phase card by
``anti_phase``) and the points a card counts in hand (docs/rules.md §1).

A card is a small frozen value with a notation that round-trips:

>>> card = Card.parse("r7")
>>> card, str(card)
(Card.parse('R7'), 'R7')
>>> Card.parse(str(card)) == card
True
>>> parse_cards("R7 B12, w s")
(Card.parse('R7'), Card.parse('B12'), Card.parse('W'), Card.parse('S'))
>>> len(full_deck()), card.points, WILD.points, SKIP.points, ANTI.points
(108, 5, 25, 15, 15)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Final

__all__ = [
    "ANTI",
    "ANTI_INDEX",
    "COLORS",
    "DECK_COUNTS",
    "DISTINCT_CARDS",
    "NUMBERED_CARDS",
    "NUMBERS",
    "SKIP",
    "SKIP_INDEX",
    "STANDARD_SKIPS",
    "STANDARD_WILDS",
    "WILD",
    "WILD_INDEX",
    "Card",
    "CardError",
    "CardKind",
    "Color",
    "Parity",
    "check_deck_can_hold",
    "deck_counts",
    "format_cards",
    "full_deck",
    "hand_points",
    "is_plain_number",
    "parse_cards",
]


def is_plain_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits, as every number the game reads
    is written: ``"٣"`` and ``"²"`` are digits to Python's ``str`` methods, not to us.

    >>> is_plain_number("12"), is_plain_number("٣"), is_plain_number("²"), is_plain_number("")
    (True, False, False, False)
    """
    return text.isascii() and text.isdecimal()


class CardError(ValueError):
    """A card or hand written in a notation the engine cannot read."""


class Color(StrEnum):
    """The four colours. The 40th-anniversary deck prints orange for blue: a display name only."""

    RED = "R"
    BLUE = "B"
    GREEN = "G"
    YELLOW = "Y"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def display_name(self) -> str:
        return self.name.lower()


COLORS: Final = (Color.RED, Color.BLUE, Color.GREEN, Color.YELLOW)
NUMBERS: Final = tuple(range(1, 13))

# Every card value has a compact index (:attr:`Card.index`), the column of count tables and
# encodings: the numbered cards first, colour by colour, then the Wild, then the Skip.
#: How many different numbered cards there are (4 colours of 1-12): indices 0 to 47.
NUMBERED_CARDS: Final = 48
#: The Wild's index.
WILD_INDEX: Final = 48
#: The Skip's index.
SKIP_INDEX: Final = 49
#: The Anti-phase card's index (rules §8 ``anti_phase``: one in the deck, or none).
ANTI_INDEX: Final = 50
#: How many different cards there are, Wild, Skip and Anti-phase included: indices 0 to 50.
DISTINCT_CARDS: Final = 51


class Parity(StrEnum):
    """The parity of an even/odd group."""

    EVEN = "even"
    ODD = "odd"

    @classmethod
    def of(cls, number: int) -> Parity:
        return cls.EVEN if number % 2 == 0 else cls.ODD


class CardKind(Enum):
    NUMBER = "number"
    WILD = "wild"
    SKIP = "skip"
    ANTI = "anti"  #: the Anti-phase card (rules §4 "Anti-phase")


_NOTATION = re.compile(r"^(?:([RBGY])(1[0-2]|[1-9])|(W)|(S)|(A))$")


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a numbered card (colour and 1-12), a Wild, a Skip or the Anti-phase card.

    Two physical cards of the same colour and number are the same value: they are
    interchangeable in play, and the engine counts copies to conserve the deck's cards.
    """

    kind: CardKind
    color: Color | None = None
    number: int | None = None
    #: A compact index 0..50 (the numbered cards, then the Wild, the Skip and the Anti-phase
    #: card), for tables and encodings: see :data:`NUMBERED_CARDS`, :data:`WILD_INDEX`,
    #: :data:`SKIP_INDEX` and :data:`ANTI_INDEX`.
    index: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind is CardKind.NUMBER:
            if self.color is None or self.number is None or not 1 <= self.number <= 12:
                raise CardError("a numbered card needs a colour and a number from 1 to 12")
            index = COLORS.index(self.color) * 12 + self.number - 1
        else:
            if self.color is not None or self.number is not None:
                raise CardError(f"a {self.kind.value} card has no colour or number")
            index = {CardKind.WILD: WILD_INDEX, CardKind.SKIP: SKIP_INDEX}.get(
                self.kind, ANTI_INDEX
            )
        object.__setattr__(self, "index", index)

    @staticmethod
    def number_card(color: Color, number: int) -> Card:
        """The numbered card of that colour and number (an interned value)."""
        if not isinstance(number, int) or not 1 <= number <= 12:
            raise CardError(f"card numbers run from 1 to 12, not {number!r}")
        return _BY_INDEX[COLORS.index(color) * 12 + number - 1]

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card: ``R7``, ``b12``, ``W`` (Wild), ``S`` (Skip) or ``A`` (Anti-phase);
        case is ignored."""
        if not isinstance(text, str):
            raise CardError(f"a card is written as text such as 'R7', not {text!r}")
        card = _BY_TEXT.get(text)
        if card is not None:  # the common case: exactly as written by str(card)
            return card
        token = text.strip().upper()
        match = _NOTATION.match(token)
        if match is None:
            raise CardError(
                f"{text.strip()!r} is not a card: write a colour letter R, B, G or Y and a "
                "number 1-12 (like R7 or B12), W for a Wild, S for a Skip or A for the Anti-phase card"
            )
        if match.group(3):
            return WILD
        if match.group(4):
            return SKIP
        if match.group(5):
            return ANTI
        return Card.number_card(Color(match.group(1)), int(match.group(2)))

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with that compact index (see :attr:`index`)."""
        if not isinstance(index, int) or not 0 <= index < len(_BY_INDEX):
            raise CardError(f"card indices run from 0 to {len(_BY_INDEX) - 1}, not {index!r}")
        return _BY_INDEX[index]

    @property
    def is_wild(self) -> bool:
        return self.kind is CardKind.WILD

    @property
    def is_skip(self) -> bool:
        return self.kind is CardKind.SKIP

    @property
    def is_anti(self) -> bool:
        """The Anti-phase card (rules §4): never part of a group."""
        return self.kind is CardKind.ANTI

    @property
    def is_natural(self) -> bool:
        """A numbered card (the rules call it a natural card)."""
        return self.kind is CardKind.NUMBER

    # The searches ask for points and sort keys millions of times: both are looked up by
    # index in tables built once from the functions below.
    @property
    def points(self) -> int:
        """Points the card counts when left in hand: 1-9 five, 10-12 ten, Skip and Anti-phase
        15, Wild 25."""
        return _POINTS[self.index]

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Number first, then colour; Wilds after numbers, then Skips, the Anti-phase card last."""
        return _SORT_KEYS[self.index]

    def _points(self) -> int:
        if self.kind is CardKind.WILD:
            return 25
        if self.kind in (CardKind.SKIP, CardKind.ANTI):
            return 15
        assert self.number is not None
        return 5 if self.number <= 9 else 10

    def _sort_key(self) -> tuple[int, int, int]:
        if self.number is None:
            return (13 + [CardKind.WILD, CardKind.SKIP, CardKind.ANTI].index(self.kind), 0, 0)
        assert self.color is not None
        return (self.number, COLORS.index(self.color), 0)

    @property
    def color_sort_key(self) -> tuple[int, int]:
        """Colour first, then number; Wilds, Skips and the Anti-phase card last."""
        if self.number is None:
            return (4 + [CardKind.WILD, CardKind.SKIP, CardKind.ANTI].index(self.kind), 0)
        assert self.color is not None
        return (COLORS.index(self.color), self.number)

    # Cards are compared and hashed in the hot paths of every search: use the index alone.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and self.index == other.index

    def __hash__(self) -> int:
        return self.index

    def __str__(self) -> str:
        # Every record, view and message writes cards: look the notation up by index.
        return _TEXTS[self.index]

    def _notation(self) -> str:
        if self.kind is CardKind.WILD:
            return "W"
        if self.kind is CardKind.SKIP:
            return "S"
        if self.kind is CardKind.ANTI:
            return "A"
        assert self.color is not None
        return f"{self.color.value}{self.number}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_BY_INDEX: Final[tuple[Card, ...]] = (
    *(Card(CardKind.NUMBER, color, number) for color in COLORS for number in NUMBERS),
    Card(CardKind.WILD),
    Card(CardKind.SKIP),
    Card(CardKind.ANTI),
)
_TEXTS: Final[tuple[str, ...]] = tuple(card._notation() for card in _BY_INDEX)
_POINTS: Final[tuple[int, ...]] = tuple(card._points() for card in _BY_INDEX)
_SORT_KEYS: Final[tuple[tuple[int, int, int], ...]] = tuple(card._sort_key() for card in _BY_INDEX)
_BY_TEXT: Final[dict[str, Card]] = {str(card): card for card in _BY_INDEX}
WILD: Final = _BY_INDEX[WILD_INDEX]
SKIP: Final = _BY_INDEX[SKIP_INDEX]
#: The Anti-phase card (rules §4): in the deck only with ``anti_phase = "on"``.
ANTI: Final = _BY_INDEX[ANTI_INDEX]

#: The Wilds and Skips of the standard deck (rules §1); other printings differ (rules §8 ``deck``).
STANDARD_WILDS: Final = 8
STANDARD_SKIPS: Final = 4


def deck_counts(
    wilds: int = STANDARD_WILDS, skips: int = STANDARD_SKIPS, antis: int = 0
) -> dict[Card, int]:
    """How many copies of each card value a deck holds: two of each numbered card,
    ``wilds`` Wilds, ``skips`` Skips and ``antis`` Anti-phase cards (0 or 1; the Anti-phase
    card has an entry only in a deck that holds it).

    >>> counts = deck_counts(8, 2)
    >>> counts[WILD], counts[SKIP], ANTI in counts, sum(counts.values())
    (8, 2, False, 106)
    >>> deck_counts(antis=1)[ANTI], sum(deck_counts(antis=1).values())
    (1, 109)
    >>> deck_counts(-1, 2)
    Traceback (most recent call last):
    ...
    phase10.core.cards.CardError: a deck holds 0 or more Wilds, not -1
    """
    for count, noun in ((wilds, "Wilds"), (skips, "Skips")):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise CardError(f"a deck holds 0 or more {noun}, not {count!r}")
    if antis not in (0, 1) or isinstance(antis, bool):
        raise CardError(f"a deck holds 0 or 1 Anti-phase card, not {antis!r}")
    numbered = {card: 2 for card in _BY_INDEX[:NUMBERED_CARDS]}
    return numbered | {WILD: wilds, SKIP: skips} | ({ANTI: 1} if antis else {})


#: How many copies of each card value the standard deck holds.
DECK_COUNTS: Final[dict[Card, int]] = deck_counts()

_SEPARATORS = re.compile(r"[\s,]+")


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read a hand: cards separated by spaces or commas, in any case.

    >>> parse_cards("g1, y10 W")
    (Card.parse('G1'), Card.parse('Y10'), Card.parse('W'))
    >>> parse_cards("R13")
    Traceback (most recent call last):
    ...
    phase10.core.cards.CardError: 'R13' is not a card: write a colour letter R, B, G or Y and a number 1-12 (like R7 or B12), W for a Wild, S for a Skip or A for the Anti-phase card
    """
    if not isinstance(text, (str, Iterable)):
        raise CardError(f"cards are written as text such as 'R7 B12 W', not {text!r}")
    tokens = _SEPARATORS.split(text) if isinstance(text, str) else list(text)
    return tuple(
        Card.parse(token) for token in tokens if not isinstance(token, str) or token.strip()
    )


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by spaces (the inverse of :func:`parse_cards`)."""
    return " ".join(str(card) for card in cards)


def full_deck(counts: Mapping[Card, int] = DECK_COUNTS) -> list[Card]:
    """The deck's cards in a fixed order: by default the standard 108, two of each numbered
    card, 8 Wilds and 4 Skips; ``counts`` (:func:`deck_counts`) names another deck.

    >>> len(full_deck(deck_counts(12, 2)))
    110
    """
    return [card for card, copies in counts.items() for _ in range(copies)]


def card_list(cards: Iterable[Card], what: str = "a hand") -> list[Card]:
    """``cards`` as a list, every one a :class:`Card`; a TypeError that says what was
    expected for text or anything else (the library takes cards, not their names).

    >>> card_list("R7 W")
    Traceback (most recent call last):
    ...
    TypeError: a hand is a list of Cards, such as parse_cards('R7 W'), not a string
    """
    if isinstance(cards, str):
        raise TypeError(f"{what} is a list of Cards, such as parse_cards({cards!r}), not a string")
    try:
        found = list(cards)
    except TypeError:
        raise TypeError(f"{what} is a list of Cards, not {type(cards).__name__}") from None
    for card in found:
        if not isinstance(card, Card):
            shown = f"{card!r:.40}"
            raise TypeError(f"{what} is a list of Cards, not of {type(card).__name__} ({shown})")
    return found


def hand_points(cards: Iterable[Card]) -> int:
    """The points those cards count left in hand.

    >>> hand_points(parse_cards("R1 R10 W S"))
    55
    """
    return sum(card.points for card in card_list(cards))


def check_deck_can_hold(cards: Iterable[Card], counts: Mapping[Card, int] = DECK_COUNTS) -> None:
    """Raise :class:`CardError` if one deck (by default the standard one) cannot hold all
    these cards.

    >>> check_deck_can_hold(parse_cards("R7 R7 R7"))
    Traceback (most recent call last):
    ...
    phase10.core.cards.CardError: the deck holds only 2 R7, not 3
    >>> check_deck_can_hold(parse_cards("S S S"), deck_counts(8, 2))
    Traceback (most recent call last):
    ...
    phase10.core.cards.CardError: the deck holds only 2 S, not 3
    """
    for card, count in Counter(cards).items():
        held = counts.get(card, 0)
        if count > held:
            if held == 0:
                raise CardError(f"the deck holds no {card}")
            raise CardError(f"the deck holds only {held} {card}, not {count}")

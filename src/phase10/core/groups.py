"""Groups of cards as they lie on the table, with each Wild's value fixed (docs/rules.md §2, §4).

A group knows its kind and the values that define it — a set's number, a run's
lowest number, a colour, a parity — so every Wild in it has a declared value that
never changes. Runs keep their cards in order, lowest first, so a Wild's position
is its number.

>>> run = Group.make(GroupKind.RUN, parse_cards("W R4 R5 R6"))
>>> run.low, run.high, str(run)
(3, 6, 'W=3 R4 R5 R6')
>>> run.placements(Card.parse("G7")), run.placements(WILD)
((7,), (2, 7))
>>> str(run.hit(WILD, 7))
'W=3 R4 R5 R6 W=7'
>>> Group.make(GroupKind.SET, parse_cards("R7 B8 W"))
Traceback (most recent call last):
...
phase10.core.groups.GroupError: R7 B8 W is not a set: R7 and B8 are different numbers
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import WILD, Card, CardError, Color, Parity, parse_cards
from .phases import GroupKind

__all__ = ["Group", "GroupError", "parse_group", "wild_value_text"]


class GroupError(ValueError):
    """Cards that do not make the group they are offered as, with the reason."""


_KIND_NAMES = {
    GroupKind.SET: "a set",
    GroupKind.RUN: "a run",
    GroupKind.COLOR: "one colour",
    GroupKind.EVEN_ODD: "an even or odd group",
    GroupKind.COLOR_RUN: "a colour run",
    GroupKind.COLOR_EVEN_ODD: "a colour even or odd group",
}


@dataclass(frozen=True, slots=True)
class Group:
    """A group of cards of one kind with its defining values fixed.

    Build one with :meth:`make`, which checks the cards and works out the values the
    numbered cards imply; declared values are needed only for all-Wild groups.
    """

    kind: GroupKind
    cards: tuple[Card, ...]
    number: int | None = None  # a set's number
    low: int | None = None  # a run's lowest number
    color: Color | None = None  # the colour of the colour kinds
    parity: Parity | None = None  # the parity of the even/odd kinds

    @staticmethod
    def make(
        kind: GroupKind,
        cards: tuple[Card, ...] | list[Card],
        *,
        number: int | None = None,
        low: int | None = None,
        color: Color | None = None,
        parity: Parity | None = None,
    ) -> Group:
        """Check the cards make a group of that kind and fix every value.

        Runs are given in order, lowest first. Values are declared only where the
        numbered cards do not imply them (an all-Wild group); a declared value that
        disagrees with the cards is refused.
        """
        cards = tuple(cards)
        shown = " ".join(map(str, cards))
        what = f"{shown} is not {_KIND_NAMES[kind]}"
        if not cards:
            raise GroupError(f"a group needs at least one card ({_KIND_NAMES[kind]})")
        naturals = [card for card in cards if card.is_natural]
        if any(card.is_skip for card in cards):
            raise GroupError(f"{what}: a Skip can never be part of a group")
        if any(card.is_anti for card in cards):
            raise GroupError(f"{what}: the Anti-phase card can never be part of a group")

        if kind.needs_color:
            colors = {card.color for card in naturals}
            if len(colors) > 1:
                first, other = _two_differing(naturals, lambda card: card.color)
                raise GroupError(f"{what}: {first} and {other} are different colours")
            if colors:
                implied = colors.pop()
                assert implied is not None
                if color is not None and color is not implied:
                    raise GroupError(
                        f"{what}: its cards are {implied.display_name}, not {color.display_name}"
                    )
                color = implied
            elif color is None:
                raise GroupError(f"{what}: an all-Wild group must declare its colour")
        elif color is not None:
            raise GroupError(f"{_KIND_NAMES[kind]} has no colour to declare")

        if kind.needs_parity:
            parities = {Parity.of(card.number) for card in naturals if card.number is not None}
            if len(parities) > 1:
                first, other = _two_differing(naturals, lambda card: Parity.of(card.number or 0))
                raise GroupError(
                    f"{what}: {first} is {Parity.of(first.number or 0)} and {other} is not"
                )
            if parities:
                implied_parity = parities.pop()
                if parity is not None and parity is not implied_parity:
                    raise GroupError(f"{what}: its cards are {implied_parity}, not {parity}")
                parity = implied_parity
            elif parity is None:
                raise GroupError(f"{what}: an all-Wild group must declare even or odd")
        elif parity is not None:
            raise GroupError(f"{_KIND_NAMES[kind]} has no parity to declare")

        if kind is GroupKind.SET:
            numbers = {card.number for card in naturals}
            if len(numbers) > 1:
                first, other = _two_differing(naturals, lambda card: card.number)
                raise GroupError(f"{what}: {first} and {other} are different numbers")
            if numbers:
                implied_number = numbers.pop()
                if number is not None and number != implied_number:
                    raise GroupError(f"{what}: its cards are {implied_number}s, not {number}s")
                number = implied_number
            elif number is None:
                raise GroupError(f"{what}: an all-Wild set must declare its number")
            elif not 1 <= number <= 12:
                raise GroupError(f"a set's number runs from 1 to 12, not {number}")
        elif number is not None:
            raise GroupError(f"{_KIND_NAMES[kind]} has no number to declare")

        if kind.is_run:
            if len(cards) > 12:
                raise GroupError(f"{what}: a run holds at most 12 cards (1 to 12, no wrap)")
            for position, card in enumerate(cards):
                if card.number is not None:
                    start = card.number - position
                    if low is None:
                        low = start
                    elif low != start:
                        raise GroupError(
                            f"{what}: {card} cannot stand in place {position + 1} of a run "
                            f"from {low} (runs are written lowest first, no wrap)"
                        )
            if low is None:
                raise GroupError(f"{what}: an all-Wild run must declare its numbers")
            if low < 1 or low + len(cards) - 1 > 12:
                raise GroupError(
                    f"{what}: a run must lie within 1 to 12 (12 is never followed by 1)"
                )
        elif low is not None:
            raise GroupError(f"{_KIND_NAMES[kind]} is not a run")

        if not kind.is_run:
            cards = tuple(sorted(cards, key=_sort_key))
        return Group(kind, cards, number, low, color, parity)

    @property
    def high(self) -> int | None:
        """A run's highest number."""
        return None if self.low is None else self.low + len(self.cards) - 1

    @property
    def natural_count(self) -> int:
        return sum(1 for card in self.cards if card.is_natural)

    def wild_value(self, position: int) -> str:
        """The declared value of the Wild at that position, as text (``"5"``, ``"R"``, ``"even"``)."""
        return wild_value_text(
            number=self.number if self.low is None else self.low + position,
            color=self.color,
            parity=self.parity,
        )

    def placements(self, card: Card) -> tuple[int | None, ...]:
        """Where ``card`` can hit this group: the numbers it can take in a run, ``(None,)``
        when it fits a group of another kind, ``()`` when it does not fit.
        """
        if card.is_skip or card.is_anti:
            return ()
        natural = card.number is not None
        if self.color is not None and natural and card.color is not self.color:
            return ()
        if self.parity is not None and natural and Parity.of(card.number or 0) is not self.parity:
            return ()
        if self.number is not None:
            return (None,) if not natural or card.number == self.number else ()
        if self.low is not None:
            high = self.low + len(self.cards) - 1
            ends = tuple(n for n in (self.low - 1, high + 1) if 1 <= n <= 12)
            if natural:
                return (card.number,) if card.number in ends else ()
            return ends
        return (None,)

    def hit(self, card: Card, number: int | None = None) -> Group:
        """This group with ``card`` added (at the end of a run that ``number`` names).

        Raises :class:`GroupError` if it does not fit there.
        """
        spots = self.placements(card)
        if not spots:
            raise GroupError(f"{card} does not fit on {self}")
        if self.low is None:
            if number is not None and card.is_wild and number != self.number:
                raise GroupError(f"a Wild on {self} takes the group's value; it cannot be {number}")
            return Group(
                self.kind,
                tuple(sorted((*self.cards, card), key=_sort_key)),
                self.number,
                self.low,
                self.color,
                self.parity,
            )
        if number is None:
            if len(spots) > 1:
                raise GroupError(
                    f"say which end of {self} the Wild goes on: as {spots[0]} or as {spots[1]}"
                )
            number = spots[0]
        if number not in spots:
            places = " or ".join(str(spot) for spot in spots)
            raise GroupError(f"{card} can go on {self} only as {places}, not as {number}")
        assert number is not None
        if number < self.low:
            return Group(self.kind, (card, *self.cards), None, number, self.color, self.parity)
        return Group(self.kind, (*self.cards, card), None, self.low, self.color, self.parity)

    def __str__(self) -> str:
        implied = self.natural_count > 0 and self.low is None
        parts = []
        for position, card in enumerate(self.cards):
            if card.is_wild and not implied:
                parts.append(f"W={self.wild_value(position)}")
            else:
                parts.append(str(card))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"parse_group(GroupKind.{self.kind.name}, {str(self)!r})"

    def written(self) -> str:
        """The group as a lay-down writes it: once a group holds a numbered card, that card
        implies every Wild's value (a run's by its place), so each Wild is a bare ``W``; an
        all-Wild group writes each Wild's value. :func:`parse_group` reads it back.

        >>> run = parse_group(GroupKind.RUN, "W=3 R4 R5 R6")
        >>> run.written(), str(run)
        ('W R4 R5 R6', 'W=3 R4 R5 R6')
        >>> parse_group(GroupKind.RUN, "W=3 W W").written()
        'W=3 W=4 W=5'
        """
        if self.natural_count == 0:
            return str(self)
        return " ".join(map(str, self.cards))

    def describe(self) -> str:
        """Every card with each Wild's value shown: ``R7 B7 W=7``."""
        return " ".join(
            f"W={self.wild_value(i)}" if card.is_wild else str(card)
            for i, card in enumerate(self.cards)
        )


def wild_value_text(
    *, number: int | None = None, color: Color | None = None, parity: Parity | None = None
) -> str:
    """A Wild's value as written after ``W=``: ``7``, ``R7``, ``R``, ``even``, ``Reven``."""
    text = color.value if color is not None else ""
    if number is not None:
        return f"{text}{number}"
    if parity is not None:
        return f"{text}{parity.value}"
    return text


_WILD_VALUE = re.compile(r"^W=([RBGY])?(1[0-2]|[1-9]|EVEN|ODD)?$")


def parse_group(kind: GroupKind, text: str) -> Group:
    """Read a group written in card notation, Wilds as ``W`` or ``W=value``.

    >>> parse_group(GroupKind.RUN, "g3 g4 w g6").describe()
    'G3 G4 W=5 G6'
    >>> str(parse_group(GroupKind.COLOR, "W=R W=R W=R"))
    'W=R W=R W=R'
    """
    tokens = [token for token in re.split(r"[\s,]+", text.strip()) if token]
    cards: list[Card] = []
    declared: dict[str, object] = {}
    declared_numbers: dict[int, int] = {}
    for position, token in enumerate(tokens):
        upper = token.upper()
        if not upper.startswith("W="):
            try:
                cards.extend(parse_cards(token))
            except CardError as error:
                raise GroupError(str(error)) from None
            continue
        match = _WILD_VALUE.match(upper)
        if match is None or not (match.group(1) or match.group(2)):
            raise GroupError(
                f"{token!r} is not a Wild's value: write W=7 (a number), W=R (a colour), "
                "W=R7, W=even or W=Reven"
            )
        cards.append(WILD)
        letter, value = match.group(1), match.group(2)
        values: dict[str, object] = {}
        if letter:
            values["color"] = Color(letter)
        if value in ("EVEN", "ODD"):
            values["parity"] = Parity(value.lower())
        elif value:
            declared_numbers[position] = int(value)
        for key, item in values.items():
            if declared.setdefault(key, item) != item:
                raise GroupError(f"the Wilds of one group cannot declare different values ({text})")
    number = low = None
    if kind.is_run:
        starts = {n - position for position, n in declared_numbers.items()}
        if len(starts) > 1:
            raise GroupError(f"the Wilds' numbers in {text!r} are not consecutive")
        low = starts.pop() if starts else None
    else:
        numbers = set(declared_numbers.values())
        if len(numbers) > 1:
            raise GroupError(f"the Wilds of one group cannot declare different numbers ({text})")
        if numbers and kind is not GroupKind.SET:
            raise GroupError(f"a Wild in {_KIND_NAMES[kind]} does not take a number")
        number = numbers.pop() if numbers else None
        if kind is GroupKind.SET and number is not None and any(c.is_natural for c in cards):
            naturals = {c.number for c in cards if c.is_natural}
            if naturals != {number}:
                raise GroupError(f"a Wild in a set of {naturals.pop()}s cannot be {number}")
            number = None
    color = declared.get("color")
    parity = declared.get("parity")
    if kind.is_run and low is not None and any(card.is_natural for card in cards):
        # The numbered cards fix the positions; Group.make checks the Wilds agree.
        natural_low = next(c.number - i for i, c in enumerate(cards) if c.number is not None)
        if natural_low != low:
            raise GroupError(f"the Wilds' numbers in {text!r} do not match their places in the run")
        low = None
    return Group.make(
        kind,
        cards,
        number=number,
        low=low,
        color=color if isinstance(color, Color) else None,
        parity=parity if isinstance(parity, Parity) else None,
    )


def _sort_key(card: Card) -> tuple[int, int, int]:
    return card.sort_key


def _two_differing(cards: list[Card], key: object) -> tuple[Card, Card]:
    assert callable(key)
    first = cards[0]
    other = next(card for card in cards if key(card) != key(first))
    return first, other

"""Phases written the way the reference card says them (docs/rules.md §2).

A phase is one or more groups, each of a kind and a minimum size, written as an
English phrase that the engine parses and prints back:

>>> phase = Phase.parse("1 set of 3 + 1 run of 4")
>>> str(phase)
'1 set of 3 + 1 run of 4'
>>> [str(group) for group in phase.groups]
['set of 3', 'run of 4']
>>> str(Phase.parse("7 cards of 1 colour"))
'7 cards of one color'
>>> Phase.parse("2 sets of three and a flush of 4")
Traceback (most recent call last):
...
phase10.core.phases.PhaseParseError: cannot read '2 sets of three and a flush of 4': stopped at word 7, 'flush': expected a group such as 'set of 3', 'run of 4', '7 cards of one color', 'even or odd of 8', 'color run of 4' or 'color even or odd of 3'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache

from .cards import is_plain_number

__all__ = ["GroupKind", "GroupSpec", "Phase", "PhaseParseError"]


class PhaseParseError(ValueError):
    """A phase phrase the parser does not understand; the message names the word it stopped at."""


class GroupKind(StrEnum):
    """The six kinds of group a phase can ask for."""

    SET = "set"
    RUN = "run"
    COLOR = "color"
    EVEN_ODD = "even_odd"
    COLOR_RUN = "color_run"
    COLOR_EVEN_ODD = "color_even_odd"

    @property
    def is_run(self) -> bool:
        return self in (GroupKind.RUN, GroupKind.COLOR_RUN)

    @property
    def needs_color(self) -> bool:
        return self in (GroupKind.COLOR, GroupKind.COLOR_RUN, GroupKind.COLOR_EVEN_ODD)

    @property
    def needs_parity(self) -> bool:
        return self in (GroupKind.EVEN_ODD, GroupKind.COLOR_EVEN_ODD)


_NOUNS = {
    GroupKind.SET: ("set", "sets"),
    GroupKind.RUN: ("run", "runs"),
    GroupKind.COLOR_RUN: ("color run", "color runs"),
}


#: The most cards a group of each kind can hold with one deck (runs: see GroupSpec).
_MOST_CARDS = {
    GroupKind.SET: (16, "the deck holds 8 cards of each number and 8 Wilds"),
    GroupKind.COLOR: (32, "the deck holds 24 cards of each color and 8 Wilds"),
    GroupKind.EVEN_ODD: (56, "the deck holds 48 even and 48 odd cards and 8 Wilds"),
    GroupKind.COLOR_EVEN_ODD: (
        20,
        "the deck holds 12 even and 12 odd cards of a color and 8 Wilds",
    ),
}
#: Numbered cards and Wilds in the deck: no phase can use more.
MOST_PHASE_CARDS = 104


@dataclass(frozen=True, slots=True)
class GroupSpec:
    """One group of a phase: its kind and the fewest cards it may hold.

    >>> str(GroupSpec(GroupKind.COLOR, 7)), str(GroupSpec(GroupKind.COLOR_EVEN_ODD, 3))
    ('7 cards of one color', 'color even or odd of 3')
    """

    kind: GroupKind
    size: int

    def __post_init__(self) -> None:
        if not isinstance(self.size, int) or self.size < 1:
            raise PhaseParseError(f"a group needs at least one card, not {self.size!r}")
        if self.kind.is_run and self.size > 12:
            raise PhaseParseError(f"a run holds at most 12 cards (1 to 12), not {self.size}")
        most, why = _MOST_CARDS.get(self.kind, (0, ""))
        if most and self.size > most:
            raise PhaseParseError(f"{self.phrase()} cannot be made: {why}, {most} cards at most")

    def phrase(self, count: int = 1) -> str:
        """The phrase for ``count`` groups like this one (``count`` > 1 only for nouns)."""
        if self.kind in _NOUNS:
            singular, plural = _NOUNS[self.kind]
            return f"{count} {plural if count > 1 else singular} of {self.size}"
        if self.kind is GroupKind.COLOR:
            return f"{self.size} cards of one color"
        name = "even or odd" if self.kind is GroupKind.EVEN_ODD else "color even or odd"
        return f"{count} {name} of {self.size}"

    def __str__(self) -> str:
        text = self.phrase()
        return text[2:] if text.startswith("1 ") else text


@dataclass(frozen=True, slots=True)
class Phase:
    """A phase: the groups that must be laid down together, in the order written."""

    groups: tuple[GroupSpec, ...]
    _text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.groups:
            raise PhaseParseError("a phase needs at least one group")
        cards = sum(group.size for group in self.groups)
        if cards > MOST_PHASE_CARDS:
            raise PhaseParseError(
                f"a phase of {cards} cards cannot be made: the deck holds "
                f"{MOST_PHASE_CARDS} numbered cards and Wilds"
            )
        # Views, records and messages write the same few phases over and over.
        object.__setattr__(self, "_text", self._phrase())

    @staticmethod
    def parse(text: str) -> Phase:
        """Read a phase phrase such as ``"1 set of 4 + 1 run of 4"``.

        Groups are joined by ``+``, ``and`` or commas; counts and sizes may be digits
        or words; ``color`` and ``colour`` are both understood, as are the phrasings
        of the published phase lists (``"7 of one color"``, ``"10 cards of even or
        odd"``, ``"1 run of 5 of one color"``).

        >>> Phase.parse("2 color even or odd of 4")
        Phase.parse('1 color even or odd of 4 + 1 color even or odd of 4')
        """
        if not isinstance(text, str):
            return _Parser(text).phase()  # refused there, with the message for every reader
        return _parse(text)

    @property
    def min_cards(self) -> int:
        """The fewest cards that can make this phase."""
        return sum(group.size for group in self.groups)

    def __str__(self) -> str:
        return self._text

    def _phrase(self) -> str:
        parts: list[str] = []
        index = 0
        while index < len(self.groups):
            group = self.groups[index]
            count = 1
            if group.kind in _NOUNS:
                while index + count < len(self.groups) and self.groups[index + count] == group:
                    count += 1
            parts.append(group.phrase(count))
            index += count
        return " + ".join(parts)

    def __repr__(self) -> str:
        return f"Phase.parse({str(self)!r})"


_NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
} | {"a": 1, "an": 1}
_TOKEN = re.compile(r"\+|,|[a-z]+|\d+|\S")
_EXPECTED_GROUP = (
    "a group such as 'set of 3', 'run of 4', '7 cards of one color', 'even or odd of 8', "
    "'color run of 4' or 'color even or odd of 3'"
)


@lru_cache(maxsize=1024)
def _parse(text: str) -> Phase:
    """Phases are values: every reader of rules (views, records, messages) parses the same few."""
    return _Parser(text).phase()


class _Parser:
    """A small recursive-descent reader of phase phrases, one word at a time."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise PhaseParseError(f"a phase is written as a phrase, not {text!r}")
        self.text = text
        self.words = _TOKEN.findall(text.lower().replace("colour", "color"))
        self.at = 0

    def fail(self, expected: str) -> PhaseParseError:
        if self.at < len(self.words):
            where = f"stopped at word {self.at + 1}, {self.words[self.at]!r}"
        else:
            where = "it ended too soon"
        return PhaseParseError(f"cannot read {self.text!r}: {where}: expected {expected}")

    def peek(self, offset: int = 0) -> str | None:
        index = self.at + offset
        return self.words[index] if index < len(self.words) else None

    def accept(self, *words: str) -> bool:
        if self.peek() in words:
            self.at += 1
            return True
        return False

    def expect(self, *words: str) -> None:
        if not self.accept(*words):
            raise self.fail(" or ".join(repr(word) for word in words))

    def number(self, expected: str) -> int:
        word = self.peek()
        if word is not None and is_plain_number(word):
            if len(word) > 3:  # (no phase holds more than MOST_PHASE_CARDS cards)
                shown = word if len(word) <= 12 else word[:12] + "…"
                raise PhaseParseError(
                    f"a phase with {shown} in it cannot be made: it holds at most "
                    f"{MOST_PHASE_CARDS} cards"
                )
            self.at += 1
            return int(word)
        if word in _NUMBER_WORDS:
            self.at += 1
            return _NUMBER_WORDS[word]
        raise self.fail(expected)

    def phase(self) -> Phase:
        if not self.words:
            raise self.fail(_EXPECTED_GROUP)
        groups: list[GroupSpec] = []
        while True:
            groups.extend(self.group())
            if self.peek() is None:
                break
            self.expect("+", "and", ",")
        return Phase(tuple(groups))

    def group(self) -> list[GroupSpec]:
        # The reference card's "set of 3" is one group: the count may be left out.
        singular = self.peek() in ("set", "run", "even", "color")
        first = 1 if singular else self.number(_EXPECTED_GROUP)
        word = self.peek()
        if word in ("cards", "card", "of"):
            # "7 cards of one color", "7 of one color", "10 cards of even or odd"
            self.accept("cards", "card")
            self.expect("of")
            if self.peek() in ("even", "evens"):
                self.even_or_odd()
                return [self.spec(GroupKind.EVEN_ODD, first)]
            self.one_color()
            return [self.spec(GroupKind.COLOR, first)]
        count = first
        if count < 1:
            raise self.fail("a count of at least 1")
        if self.accept("set", "sets"):
            kind = GroupKind.SET
        elif self.accept("run", "runs"):
            kind = GroupKind.RUN
        elif self.accept("even", "evens"):
            self.at -= 1
            self.even_or_odd()
            kind = GroupKind.EVEN_ODD
        elif self.accept("color"):
            if self.accept("run", "runs"):
                kind = GroupKind.COLOR_RUN
            elif self.peek() in ("even", "evens"):
                self.even_or_odd()
                kind = GroupKind.COLOR_EVEN_ODD
            else:
                raise self.fail("'run' or 'even or odd'")
        else:
            raise self.fail(_EXPECTED_GROUP)
        self.expect("of")
        size = self.number("the number of cards in the group")
        self.accept("cards", "card")
        if self.peek() == "of" and self.peek(1) in ("one", "1", "a", "the"):
            # "1 run of 5 of one color"
            if kind is GroupKind.SET:
                raise self.fail("'+' or the end: a set cannot be of one color")
            self.at += 1
            self.one_color()
            kind = {
                GroupKind.RUN: GroupKind.COLOR_RUN,
                GroupKind.EVEN_ODD: GroupKind.COLOR_EVEN_ODD,
            }.get(kind, kind)
        spec = self.spec(kind, size)
        if count * size > MOST_PHASE_CARDS:  # before making the groups: the count is anyone's
            raise PhaseParseError(
                f"a phase of {count * size} cards cannot be made: the deck holds "
                f"{MOST_PHASE_CARDS} numbered cards and Wilds"
            )
        return [spec] * count

    def spec(self, kind: GroupKind, size: int) -> GroupSpec:
        try:
            return GroupSpec(kind, size)
        except PhaseParseError as error:
            self.at -= 1
            raise self.fail(f"a possible size ({error})") from None

    def even_or_odd(self) -> None:
        self.expect("even", "evens")
        self.expect("or")
        self.expect("odd", "odds")

    def one_color(self) -> None:
        self.expect("one", "1", "a", "the")
        self.accept("same")
        self.expect("color")

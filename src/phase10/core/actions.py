"""Actions a player submits, as frozen values with a text form that parses back.

======================  =====================================================
text                    action
======================  =====================================================
``draw``                draw the top card of the draw pile
``take``                take the top card of the discard pile
``lay R7 B7 W + G3 G4 W G6``  lay down the phase, groups in the phase's order
``lay 3: ...``          lay down phase 3 (when phases may be made in any order)
``hit R8 g2``           put R8 on table group 2
``hit W=9 g2``          put a Wild on run 2 as its 9
``discard R7``          discard R7, ending the turn
``discard S>p2``        discard a Skip and skip player 2 (seats count from 0)
``declare 4``           name phase 4 for this hand (Masters: ``declare = "deal"``)
``give p1``             the dealer gives a turned-up Wild to player 1 (wild deal-up)
``save R7``             put R7 on your save pile, ending the turn (``save_pile``)
``take-saved R7``       take R7 back from your save pile instead of drawing
``give-up``             give up your laid-down phase (``give_up``, Masters Variant #2)
======================  =====================================================

>>> parse_action("discard s>p2")
Discard(card=Card.parse('S'), target=2)
>>> str(parse_action("HIT w=9 g2"))
'hit W=9 g2'
>>> from phase10.core.phases import Phase
>>> str(parse_action("lay r7 b7 w + g3 g4 w g6", Phase.parse("1 set of 3 + 1 run of 4")))
'lay R7 B7 W + G3 G4 W G6'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from .cards import Card, CardError, is_plain_number
from .errors import InvalidActionError
from .groups import Group, GroupError, parse_group
from .matching import match
from .phases import GroupSpec, Phase
from .words import plural

__all__ = [
    "Action",
    "Declare",
    "Discard",
    "Draw",
    "GiveUp",
    "GiveWild",
    "Hit",
    "InvalidActionError",
    "LayDown",
    "Save",
    "TakeDiscard",
    "TakeSaved",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the draw pile."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile (never a Skip)."""

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class LayDown:
    """Lay down a phase: its groups in the order the phase lists them.

    ``phase`` names the phase by number when phases may be made in any order and are
    declared as they are laid down; otherwise it is None.
    """

    groups: tuple[Group, ...]
    phase: int | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for group in self.groups for card in group.cards)

    def __str__(self) -> str:
        prefix = f"{self.phase}: " if self.phase is not None else ""
        return "lay " + prefix + " + ".join(group.written() for group in self.groups)


@dataclass(frozen=True, slots=True)
class Hit:
    """Put one card on a group on the table. ``number`` places a Wild at a run's end."""

    card: Card
    group: int
    number: int | None = None

    def __str__(self) -> str:
        card = (
            f"W={self.number}" if self.card.is_wild and self.number is not None else str(self.card)
        )
        return f"hit {card} g{self.group}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card, ending the turn. A Skip names the player it skips (``target``); the
    Anti-phase card discarded as the last card names the player who moves down a phase."""

    card: Card
    target: int | None = None

    def __post_init__(self) -> None:
        names = isinstance(self.card, Card) and (self.card.is_skip or self.card.is_anti)
        if self.target is not None and not names:
            raise InvalidActionError(
                f"only a Skip or the Anti-phase card names a player; {self.card} does not"
            )

    def __str__(self) -> str:
        target = f">p{self.target}" if self.target is not None else ""
        return f"discard {self.card}{target}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Name the phase (by number) to attempt this hand."""

    phase: int

    def __str__(self) -> str:
        return f"declare {self.phase}"


@dataclass(frozen=True, slots=True)
class GiveWild:
    """The dealer gives the turned-up Wild to a player."""

    player: int

    def __str__(self) -> str:
        return f"give p{self.player}"


@dataclass(frozen=True, slots=True)
class Save:
    """End the turn by putting a card on your own save pile instead of discarding it."""

    card: Card

    def __str__(self) -> str:
        return f"save {self.card}"


@dataclass(frozen=True, slots=True)
class TakeSaved:
    """Take a card back from your save pile instead of drawing."""

    card: Card

    def __str__(self) -> str:
        return f"take-saved {self.card}"


@dataclass(frozen=True, slots=True)
class GiveUp:
    """Give up your laid-down phase: its groups leave the table and, after this turn's
    discard or save, you draw back up to ten cards."""

    def __str__(self) -> str:
        return "give-up"


#: Every action a player can submit. The union is closed: a ``match`` over an action ends
#: in :func:`typing.assert_never`, so mypy names every place a new kind must be handled.
Action: TypeAlias = (
    Draw | TakeDiscard | LayDown | Hit | Discard | Declare | GiveWild | Save | TakeSaved | GiveUp
)

_HIT = re.compile(r"^(\S+?)(?:=(\d+))?\s+g(\d+)$", re.IGNORECASE)
_DISCARD = re.compile(r"^(\S+?)(?:\s*>\s*p(\d+))?$", re.IGNORECASE)
_PLAYER = re.compile(r"^p(\d+)$", re.IGNORECASE)
_LAY_PREFIX = re.compile(r"^(\d+)\s*:\s*(.*)$", re.DOTALL)
_USAGE = (
    "draw, take, lay ..., hit CARD gN, discard CARD, discard S>pN, declare N, give pN, "
    "save CARD, take-saved CARD or give-up"
)


def parse_action(text: str, phase: Phase | None = None) -> Action:
    """Read an action from its text form.

    A lay-down needs the phase it lays (for its groups' kinds): pass it as ``phase``.
    ``Game.parse_action`` does that for the player to move.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action's text must be a string, not {text!r}")
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    try:
        if verb in ("draw", "take", "give-up"):
            if rest:
                raise InvalidActionError(f"{verb!r} takes nothing after it, not {rest!r}")
            plain: dict[str, Action] = {"draw": Draw(), "take": TakeDiscard(), "give-up": GiveUp()}
            return plain[verb]
        if verb in ("save", "take-saved"):
            if not rest or " " in rest:
                raise InvalidActionError(f"write '{verb} CARD' with one card (e.g. '{verb} R7')")
            card = Card.parse(rest)
            return Save(card) if verb == "save" else TakeSaved(card)
        if verb == "hit":
            match = _HIT.match(rest)
            if match is None:
                raise InvalidActionError(
                    "write a hit as 'hit CARD gN' (e.g. 'hit R8 g2', 'hit W=9 g2')"
                )
            card = Card.parse(match.group(1))
            number = int(match.group(2)) if match.group(2) else None
            if number is not None and not card.is_wild:
                raise InvalidActionError(
                    f"only a Wild is given a value; {card} is already {card.number}"
                )
            return Hit(card, int(match.group(3)), number)
        if verb == "discard":
            if ">" in rest and not re.search(r">\s*p\d+$", rest, re.IGNORECASE):
                raise InvalidActionError("name the player to skip by seat: 'discard S>p2'")
            match = _DISCARD.match(rest)
            if match is None:
                raise InvalidActionError("write a discard as 'discard CARD' or 'discard S>pN'")
            target = int(match.group(2)) if match.group(2) else None
            return Discard(Card.parse(match.group(1)), target)
        if verb == "declare":
            if not is_plain_number(rest):
                raise InvalidActionError("write 'declare N' with the phase's number")
            return Declare(int(rest))
        if verb == "give":
            match = _PLAYER.match(rest)
            if match is None:
                raise InvalidActionError("write 'give pN' with the player's seat number")
            return GiveWild(int(match.group(1)))
        if verb == "lay":
            return _parse_lay(rest, phase)
    except (CardError, GroupError) as error:
        raise InvalidActionError(str(error)) from None
    raise InvalidActionError(f"unknown action {text.strip()!r}; actions are: {_USAGE}")


def _parse_lay(rest: str, phase: Phase | None) -> LayDown:
    number: int | None = None
    match = _LAY_PREFIX.match(rest)
    if match:
        number, rest = int(match.group(1)), match.group(2)
    if phase is None:
        raise InvalidActionError("a lay-down is read against a phase: say which phase it lays")
    parts = [part for part in (p.strip() for p in rest.split("+"))]
    if len(parts) != len(phase.groups) or not all(parts):
        raise InvalidActionError(
            f"{phase} has {plural(len(phase.groups), 'group')}; write them separated by '+', "
            f"in that order ({len(parts)} given)"
        )
    # The groups may come in any order: read them in the phase's order first, then in each
    # other order of its groups; the rulebook puts them back in the phase's order. When no
    # order reads, the reason is the one of the order read furthest.
    reading = _LayReading(phase.groups, parts)
    groups = reading.first_order()
    if groups is not None:
        return LayDown(groups, number)
    reason = reading.furthest()
    if len({spec.kind for spec in phase.groups}) > 1:
        reason += " (the groups may be written in any order)"
    raise InvalidActionError(reason)


#: the most orders :meth:`_LayReading.furthest` tries when none reads (only its message
#: depends on it: a phase of 11 groups has 11! orders)
_READING_NODES = 5000


class _LayReading:
    """The groups of a lay-down's text, read against the phase's groups in any order.

    Each part is read as each kind of group at most once, and the orders are searched
    as a matching of parts to groups: the first order that reads (the phase's own, then
    the others as :func:`itertools.permutations` gives them) is found without trying the
    orders that cannot (eleven groups have 40 million orders).
    """

    def __init__(self, specs: tuple[GroupSpec, ...], parts: list[str]) -> None:
        self.specs = specs
        self.parts = parts
        self.read: dict[tuple[int, object], Group | GroupError] = {}

    def group(self, part: int, spec: GroupSpec) -> Group | GroupError:
        key = (part, spec.kind)
        if key not in self.read:
            try:
                self.read[key] = parse_group(spec.kind, self.parts[part])
            except GroupError as error:
                self.read[key] = error
        return self.read[key]

    def fits(self, part: int, spec: GroupSpec) -> bool:
        return isinstance(self.group(part, spec), Group)

    def matchable(self, first: int, free: list[int]) -> bool:
        """Whether the parts from ``first`` on can each be read as a group of ``free``."""
        found = match(
            range(first, len(self.parts)),
            free,
            lambda part, slot: self.fits(part, self.specs[slot]),
        )
        return found is not None

    def first_order(self) -> tuple[Group, ...] | None:
        if not self.matchable(0, list(range(len(self.specs)))):
            return None
        chosen: list[Group] = []

        def extend(part: int, free: list[int]) -> bool:
            if part == len(self.parts):
                return True
            tried: list[GroupSpec] = []
            for slot in free:
                spec = self.specs[slot]
                if spec in tried:  # (identical groups: one order of them)
                    continue
                tried.append(spec)
                group = self.group(part, spec)
                rest = [other for other in free if other != slot]
                if isinstance(group, Group) and self.matchable(part + 1, rest):
                    chosen.append(group)
                    if extend(part + 1, rest):
                        return True
                    chosen.pop()
            return False

        # (the phase's own order is the first one tried)
        return tuple(chosen) if extend(0, list(range(len(self.specs)))) else None

    def furthest(self) -> str:
        """Why no order reads: the reason of the order read furthest (of the first
        :data:`_READING_NODES` tried)."""
        best: tuple[int, str] = (-1, "")
        nodes = 0

        def extend(part: int, free: list[int]) -> None:
            nonlocal best, nodes
            tried: list[GroupSpec] = []
            for slot in free:
                spec = self.specs[slot]
                if spec in tried or nodes >= _READING_NODES:
                    continue
                tried.append(spec)
                nodes += 1
                group = self.group(part, spec)
                if isinstance(group, GroupError):
                    if part > best[0]:
                        best = (part, f"{spec}: {group}")
                    continue
                extend(part + 1, [other for other in free if other != slot])

        extend(0, list(range(len(self.specs))))
        return best[1]

"""Events: what each applied action caused, as frozen values.

The list of events is the game's story: the replay, the feed a screen animates and
what a network server broadcasts. An event is public unless it says otherwise:
its ``seen_by`` hides what a given player may not know (the card drawn from the draw
pile by someone else, the hands dealt to others).

:data:`Event` is the closed union of every kind: a ``match`` over an event ends in
:func:`typing.assert_never`, so mypy names every place a new kind must be handled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self, TypeAlias

from .cards import Card
from .groups import Group

__all__ = [
    "CardHit",
    "Dealt",
    "Declared",
    "Discarded",
    "Drew",
    "Event",
    "Floating",
    "GameEnded",
    "GaveUp",
    "HandEnded",
    "HandStarted",
    "LaidDown",
    "MovedDown",
    "Refilled",
    "Reshuffled",
    "Saved",
    "Skipped",
    "TieBreakStarted",
    "TookDiscard",
    "TookSaved",
    "WentOut",
    "WildGiven",
]


@dataclass(frozen=True, slots=True)
class _Public:
    """An event everyone sees whole (the kinds that hide something override ``seen_by``)."""

    def seen_by(self, viewer: int | None) -> Self:
        """This event as ``viewer`` may know it (``None``: a spectator)."""
        return self


@dataclass(frozen=True, slots=True)
class HandStarted(_Public):
    """A hand was dealt: its number (from 1), dealer, players in it and the turned-up card."""

    hand: int
    dealer: int
    players: tuple[int, ...]
    first_player: int
    discard_top: Card
    tie_break: bool = False


@dataclass(frozen=True, slots=True)
class Dealt(_Public):
    """A player's dealt hand: only that player sees the cards."""

    player: int
    cards: tuple[Card, ...] | None

    def seen_by(self, viewer: int | None) -> Dealt:
        return self if viewer == self.player else Dealt(self.player, None)


@dataclass(frozen=True, slots=True)
class Declared(_Public):
    player: int
    phase: int


@dataclass(frozen=True, slots=True)
class WildGiven(_Public):
    """The dealer gave the turned-up Wild to a player (wild deal-up)."""

    dealer: int
    player: int


@dataclass(frozen=True, slots=True)
class Reshuffled(_Public):
    """The discard pile, but its top card, was shuffled into a new draw pile of ``cards`` cards."""

    cards: int


@dataclass(frozen=True, slots=True)
class Drew(_Public):
    """A player drew from the draw pile; only they see the card."""

    player: int
    card: Card | None

    def seen_by(self, viewer: int | None) -> Drew:
        return self if viewer == self.player else Drew(self.player, None)


@dataclass(frozen=True, slots=True)
class TookDiscard(_Public):
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class LaidDown(_Public):
    """A player laid down a phase (its number) as these table groups (their ids)."""

    player: int
    phase: int
    groups: tuple[Group, ...]
    group_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardHit(_Public):
    """A player put a card on a table group; ``group_after`` is the group as it now lies."""

    player: int
    card: Card
    group: int
    number: int | None
    group_after: Group


@dataclass(frozen=True, slots=True)
class Discarded(_Public):
    player: int
    card: Card
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Saved(_Public):
    """A player ended the turn by saving a card. ``public`` (rules ``save_pile = "public"``):
    everyone sees it; otherwise only that player does."""

    player: int
    card: Card | None
    public: bool = False

    def seen_by(self, viewer: int | None) -> Saved:
        return self if self.public or viewer == self.player else Saved(self.player, None)


@dataclass(frozen=True, slots=True)
class TookSaved(_Public):
    """A player took a card back from their save pile, seen as :class:`Saved` is."""

    player: int
    card: Card | None
    public: bool = False

    def seen_by(self, viewer: int | None) -> TookSaved:
        return self if self.public or viewer == self.player else TookSaved(self.player, None)


@dataclass(frozen=True, slots=True)
class GaveUp(_Public):
    """A player gave up their laid-down phase (its number): the groups with these ids left
    the table, and their ``cards`` went to the bottom of the discard pile. The groups
    after them move down to fill the gap."""

    player: int
    phase: int
    group_ids: tuple[int, ...]
    cards: int


@dataclass(frozen=True, slots=True)
class MovedDown(_Public):
    """At a hand's end, a player moved down a phase (the Anti-phase card, rules §4): named by
    ``named_by``, who went out with it, or (``named_by`` None) caught holding it. ``phase`` is
    the completed phase they lost, from 1, to be made again; None when they had none to lose."""

    player: int
    phase: int | None
    named_by: int | None


@dataclass(frozen=True, slots=True)
class Refilled(_Public):
    """After giving up a phase, a player drew back up to ten cards; only they see which."""

    player: int
    count: int
    cards: tuple[Card, ...] | None

    def seen_by(self, viewer: int | None) -> Refilled:
        return self if viewer == self.player else Refilled(self.player, self.count, None)


@dataclass(frozen=True, slots=True)
class Skipped(_Public):
    """A player's turn was passed because of a pending skip (the skip is now cleared)."""

    player: int


@dataclass(frozen=True, slots=True)
class Floating(_Public):
    """A player's hand emptied by hitting or laying down under the floating rule."""

    player: int


@dataclass(frozen=True, slots=True)
class WentOut(_Public):
    player: int


@dataclass(frozen=True, slots=True)
class HandEnded(_Public):
    """End of a hand: who went out (None: nobody), points per seat, totals, who advanced."""

    hand: int
    went_out: int | None
    reason: str
    points: tuple[int | None, ...]
    totals: tuple[int, ...]
    advanced: tuple[int, ...]
    phases_completed: tuple[int, ...]
    #: how many cards each seat held at the end (public: every hand's size is)
    cards_left: tuple[int, ...] = ()
    #: the seats that moved down a phase (the Anti-phase card: see :class:`MovedDown`)
    moved_down: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TieBreakStarted(_Public):
    """The tied players alone play a hand on the last phase; the first to go out wins."""

    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameEnded(_Public):
    """The game is over. ``winners`` has several seats only for a shared win."""

    winners: tuple[int, ...]
    reason: str
    totals: tuple[int, ...]


#: Every event, in the order a hand makes them.
Event: TypeAlias = (
    HandStarted
    | Dealt
    | Declared
    | WildGiven
    | Reshuffled
    | Drew
    | TookDiscard
    | LaidDown
    | CardHit
    | Discarded
    | Saved
    | TookSaved
    | GaveUp
    | Refilled
    | Skipped
    | Floating
    | WentOut
    | MovedDown
    | HandEnded
    | TieBreakStarted
    | GameEnded
)

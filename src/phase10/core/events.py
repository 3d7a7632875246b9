"""Events: what each applied action caused, as frozen values.

The list of events is the game's story: the replay, the feed a screen animates and
what a network server broadcasts. An event is public unless it says otherwise:
:meth:`Event.seen_by` hides what a given player may not know (the card drawn from
the draw pile by someone else, the hands dealt to others).
"""

from __future__ import annotations

from dataclasses import dataclass

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
    "HandEnded",
    "HandStarted",
    "LaidDown",
    "Reshuffled",
    "Skipped",
    "TieBreakStarted",
    "TookDiscard",
    "WentOut",
    "WildGiven",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event."""

    def seen_by(self, viewer: int | None) -> Event:
        """This event as ``viewer`` may know it (``None``: a spectator)."""
        return self


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand was dealt: its number (from 1), dealer, players in it and the turned-up card."""

    hand: int
    dealer: int
    players: tuple[int, ...]
    first_player: int
    discard_top: Card
    tie_break: bool = False


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A player's dealt hand: only that player sees the cards."""

    player: int
    cards: tuple[Card, ...] | None

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.player else Dealt(self.player, None)


@dataclass(frozen=True, slots=True)
class Declared(Event):
    player: int
    phase: int


@dataclass(frozen=True, slots=True)
class WildGiven(Event):
    """The dealer gave the turned-up Wild to a player (wild deal-up)."""

    dealer: int
    player: int


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discard pile, but its top card, was shuffled into a new draw pile of ``cards`` cards."""

    cards: int


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """A player drew from the draw pile; only they see the card."""

    player: int
    card: Card | None

    def seen_by(self, viewer: int | None) -> Event:
        return self if viewer == self.player else Drew(self.player, None)


@dataclass(frozen=True, slots=True)
class TookDiscard(Event):
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class LaidDown(Event):
    """A player laid down a phase (its number) as these table groups (their ids)."""

    player: int
    phase: int
    groups: tuple[Group, ...]
    group_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardHit(Event):
    """A player put a card on a table group; ``group_after`` is the group as it now lies."""

    player: int
    card: Card
    group: int
    number: int | None
    group_after: Group


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    player: int
    card: Card
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    """A player's turn was passed because of a pending skip (the skip is now cleared)."""

    player: int


@dataclass(frozen=True, slots=True)
class Floating(Event):
    """A player's hand emptied by hitting or laying down under the floating rule."""

    player: int


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    player: int


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
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


@dataclass(frozen=True, slots=True)
class TieBreakStarted(Event):
    """The tied players alone play a hand on the last phase; the first to go out wins."""

    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over. ``winners`` has several seats only for a shared win."""

    winners: tuple[int, ...]
    reason: str
    totals: tuple[int, ...]

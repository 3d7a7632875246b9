"""The pieces of a game's state that views share: stages, seats and table groups."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .cards import Card
from .groups import Group

__all__ = ["Meld", "Seat", "SeatInfo", "Stage"]


class Stage(StrEnum):
    """What the game waits for."""

    GIVE_WILD = "give_wild"  #: the dealer gives the turned-up Wild to a player
    WILD_DISCARD = "wild_discard"  #: that player discards a card
    DECLARE = "declare"  #: players name their phase for the hand, in turn order
    DRAW = "draw"  #: the player to move draws or takes the top discard
    PLAY = "play"  #: the player to move lays down, hits and then discards
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Meld:
    """A group on the table and the player who laid it down. Its id is its index."""

    owner: int
    group: Group


@dataclass(slots=True)
class Seat:
    """One player's mutable state inside a game."""

    name: str
    hand: list[Card] = field(default_factory=list)
    score: int = 0
    #: the phase (0-based index into the phase sequence) the player works on in order
    phase: int = 0
    #: the phases (0-based) completed so far
    completed: set[int] = field(default_factory=set)
    #: the phase laid down this hand, if any
    laid: int | None = None
    #: the phase named for this hand (any order, declared after the deal)
    declared: int | None = None
    pending_skip: bool = False
    floating: bool = False
    #: the save pile (rules §4), kept from hand to hand, oldest first
    saved: list[Card] = field(default_factory=list)
    #: whether the player has saved a card this hand (once per hand)
    saved_this_hand: bool = False
    #: whether the player has given up a laid phase this hand (Variant #2; once per hand)
    gave_up: bool = False
    #: the player gave up their phase this turn: the turn ends with a discard or a save,
    #: then they draw back up to ten cards
    refill: bool = False
    # the last SeatInfo given out, and what it was made from (every view asks for one)
    _info: SeatInfo | None = field(default=None, init=False, repr=False, compare=False)
    _made_from: tuple[object, ...] = field(default=(), init=False, repr=False, compare=False)

    @property
    def saved_count(self) -> int:
        """How many cards the save pile holds."""
        return len(self.saved)

    def info(self, *, public_saves: bool = False) -> SeatInfo:
        """What everyone may know about this player now; ``public_saves``: the save pile's
        cards too (rules ``save_pile = "public"``), not only how many there are."""
        completed = frozenset(self.completed)
        saved = tuple(self.saved) if public_saves else None
        made_from = (
            self.name,
            len(self.hand),
            self.score,
            self.phase,
            completed,
            self.laid,
            self.declared,
            self.pending_skip,
            self.floating,
            len(self.saved),
            saved,
            self.saved_this_hand,
            self.gave_up,
            self.refill,
        )
        # (getattr: a seat pickled before the cache existed has neither slot set)
        info: SeatInfo | None = getattr(self, "_info", None)
        if info is None or made_from != getattr(self, "_made_from", None):
            info = self._info = SeatInfo(
                name=self.name,
                hand_size=len(self.hand),
                score=self.score,
                phase=self.phase,
                completed=completed,
                laid=self.laid,
                declared=self.declared,
                pending_skip=self.pending_skip,
                floating=self.floating,
                saved_count=len(self.saved),
                saved=saved,
                saved_this_hand=self.saved_this_hand,
                gave_up=self.gave_up,
                refill=self.refill,
            )
            self._made_from = made_from
        return info


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What everyone may know about a player (docs/rules.md §7): no cards, only their count."""

    name: str
    hand_size: int
    score: int
    phase: int
    completed: frozenset[int]
    laid: int | None
    declared: int | None
    pending_skip: bool
    floating: bool
    #: how many cards the player's save pile holds
    saved_count: int = 0
    #: the save pile's cards when save piles are public; None when they are private
    saved: tuple[Card, ...] | None = None
    saved_this_hand: bool = False
    gave_up: bool = False
    refill: bool = False

"""What a bot can work out from its view alone: its aims, the leader, who wants what.

Shared by the greedy and strong bots; nothing here looks past the
:class:`~phase10.core.PlayerView` it is given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from phase10.core import (
    DISTINCT_CARDS,
    Action,
    Card,
    CardHit,
    Discarded,
    Drew,
    Event,
    Group,
    HandStarted,
    LaidDown,
    Phase,
    PlayerView,
    Reshuffled,
    Saved,
    TookDiscard,
    TookSaved,
    WildGiven,
)
from phase10.solver.tactics import view_unseen_counts

__all__ = [
    "HeldTracker",
    "danger",
    "declined",
    "drawable_counts",
    "known_held",
    "leader_key",
    "legal_list",
    "next_player",
    "skip_key",
    "stalled",
    "table_groups",
    "target_phases",
]


_CARDS = tuple(Card.from_index(index) for index in range(DISTINCT_CARDS))

#: Events in one hand past which the bots take it to be stuck. The longest hands of
#: seeded greedy games hold about 120 events; under a house list such as "1 set of 11"
#: a hand can circle forever, each player keeping back what another needs.
STALLED_EVENTS = 1000


def stalled(view: PlayerView) -> bool:
    """Whether this hand has gone on so long that the bots' own caution may be what holds
    it up (Wilds never given up, cards kept from the next player): they then discard at
    random, which lets every card come round, so the hand can still end.
    """
    return len(view.history) > STALLED_EVENTS


def legal_list(view: PlayerView) -> list[Action]:
    """Every legal action for the viewer (who must be the one to act)."""
    actions = list(view.legal_actions)
    if not actions:
        raise ValueError(f"player {view.viewer} has nothing to do: it is not their turn")
    return actions


def target_phases(view: PlayerView, seat: int | None = None) -> list[tuple[int, Phase]]:
    """The phases (0-based index, phase) the player may lay down this hand; none once down.

    ``seat`` defaults to the viewer; a spectator's view must name one (:class:`ValueError`).
    """
    seat = view.viewer if seat is None else seat
    if seat is None:  # a real check: an assert would vanish under python -O
        raise ValueError("a spectator's view has no player of its own: name the seat")
    if view.seats[seat].laid is not None:
        return []
    return [(index, view.phase_of(index)) for index in view.allowed_phases(seat)]


def table_groups(view: PlayerView) -> list[Group]:
    """The groups on the table, by meld id."""
    return [meld.group for meld in view.melds]


def leader_key(view: PlayerView, seat: int) -> tuple[int, int, int, int]:
    """How close a player is to winning the game: phases done (this hand's lay-down
    counts), then phase down this hand, then fewest cards, then lowest score.
    """
    info = view.seats[seat]
    done = len(info.completed) + (info.laid is not None)
    return (done, info.laid is not None, -info.hand_size, -info.score)


def skip_key(view: PlayerView, seat: int, *, down: bool | None = None) -> tuple[int, ...]:
    """Whom a Skip hurts most this hand (higher first): while the viewer is not down, the
    player down with the fewest cards, who may end the hand before the viewer lays its
    phase; once it is down, a player not yet down, who may still gain a phase. Then the
    game's leader (:func:`leader_key`); the last four entries are that key. ``down`` says
    whether the viewer is down by the Skip's discard (default: whether it is now).
    """
    me = view.viewer
    assert me is not None
    info = view.seats[seat]
    lead = leader_key(view, seat)
    if down is None:
        down = view.seats[me].laid is not None
    if not down:
        down = info.laid is not None
        return (down, -info.hand_size if down else 0, *lead)
    return (info.laid is None, *lead)


def next_player(view: PlayerView) -> int | None:
    """The player who plays after the viewer in this hand (passing over a pending skip)."""
    me = view.viewer
    order = list(view.players_in_hand)
    if me not in order or len(order) < 2:
        return None
    at = order.index(me)
    for step in range(1, len(order)):
        seat = order[(at + step) % len(order)]
        if not view.seats[seat].pending_skip:
            return seat
    return None


class HeldTracker:
    """The cards each player is known to hold, kept up to date event by event (what
    :func:`known_held` reads off a view; environments that observe every step feed it
    each action's events instead of reading the hand's history again).

    The count for a card goes up when the player takes it from the discard pile (or, from
    a public save pile, back from their own) and down when they discard, hit, lay or
    publicly save it, from their first take in the hand on; a card saved unseen forgets
    what was known of that player; a new hand clears everything. Only positive counts are knowledge (:meth:`held`).

    >>> from phase10.core import Game
    >>> tracker = HeldTracker(2)
    >>> for event in Game(2, seed=3).history:
    ...     tracker.feed(event)
    >>> tracker.held(0)
    {}
    """

    __slots__ = ("counts", "started")

    def __init__(self, players: int) -> None:
        #: per seat, a signed count per card index
        self.counts = [[0] * DISTINCT_CARDS for _ in range(players)]
        self.started = [False] * players

    def clear(self) -> None:
        self.counts = [[0] * DISTINCT_CARDS for _ in self.counts]
        self.started = [False] * len(self.counts)

    def feed(self, event: Event) -> None:
        kind = type(event)  # the event types are final: no isinstance chain per event
        if kind is TookDiscard:
            assert isinstance(event, TookDiscard)
            self.counts[event.player][event.card.index] += 1
            self.started[event.player] = True
        elif kind is Discarded or kind is CardHit:
            assert isinstance(event, (Discarded, CardHit))
            if self.started[event.player]:
                self.counts[event.player][event.card.index] -= 1
        elif kind is LaidDown:
            assert isinstance(event, LaidDown)
            if self.started[event.player]:
                counts = self.counts[event.player]
                for group in event.groups:
                    for card in group.cards:
                        counts[card.index] -= 1
        elif kind is Saved:
            assert isinstance(event, Saved)
            if self.started[event.player] and event.public and event.card is not None:
                self.counts[event.player][event.card.index] -= 1
            elif self.started[event.player]:  # an unseen card left: what was known may be gone
                self.counts[event.player] = [0] * DISTINCT_CARDS
                self.started[event.player] = False
        elif kind is TookSaved:
            assert isinstance(event, TookSaved)
            if event.public and event.card is not None:
                self.counts[event.player][event.card.index] += 1
                self.started[event.player] = True
        elif kind is HandStarted:
            self.clear()

    def held(self, seat: int) -> dict[Card, int]:
        """The cards ``seat`` is known to hold, with their copies."""
        if not self.started[seat]:
            return {}
        return {_CARDS[i]: count for i, count in enumerate(self.counts[seat]) if count > 0}

    def copy(self) -> HeldTracker:
        twin = HeldTracker(0)
        twin.counts = [list(counts) for counts in self.counts]
        twin.started = list(self.started)
        return twin


def known_held(view: PlayerView) -> dict[int, Counter[Card]]:
    """Cards other players are known to hold: taken from the discard pile this hand and
    not since laid, hit or discarded (as far as the public history shows).
    """
    tracker = HeldTracker(len(view.seats))
    for event in view.history:
        tracker.feed(event)
    held: dict[int, Counter[Card]] = {}
    for seat in range(len(view.seats)):
        cards = tracker.held(seat)
        if seat != view.viewer and cards:
            held[seat] = Counter(cards)
    return held


def drawable_counts(view: PlayerView) -> list[int]:
    """The copies of each card (by index) ``view``'s player may yet draw: those it cannot
    see, less those other players are known to hold (taken from the discard pile)."""
    pool = view_unseen_counts(view)
    for cards in known_held(view).values():
        for card, copies in cards.items():
            pool[card.index] = max(0, pool[card.index] - copies)
    return pool


def danger(view: PlayerView, card: Card, wanted: Sequence[Card], *, after: int | None = -1) -> int:
    """How much discarding ``card`` may help the next player (0 none, higher worse).

    A card they can hit once their phase is down is the worst; otherwise cards like
    the ones they have taken from the discard pile (same number, or next to it).
    ``after`` is :func:`next_player` when the caller has it already (-1: find it).
    """
    if after == -1:
        after = next_player(view)
    if after is None or card.is_skip:
        return 0
    info = view.seats[after]
    if card.is_wild:
        return 3
    if info.laid is not None:
        return 2 if any(meld.group.placements(card) for meld in view.melds) else 0
    score = 0
    for other in wanted:
        if other.number is None or card.number is None:
            continue
        if other.number == card.number:
            score = max(score, 2)
        elif abs(other.number - card.number) <= 1:
            score = max(score, 1)
    return score


def declined(view: PlayerView, seat: int) -> list[Card]:
    """The top discards ``seat`` passed over this hand, drawing from the pile instead
    (a hint of cards they did not need then). Skips, which nobody may take, are left out.
    """
    pile: list[Card] = []
    passed: list[Card] = []
    for event in view.history:
        if isinstance(event, HandStarted):
            pile = [event.discard_top]
        elif isinstance(event, Discarded):
            pile.append(event.card)
        elif isinstance(event, (TookDiscard, WildGiven)) and pile:
            pile.pop()
        elif isinstance(event, Reshuffled):
            pile = pile[-1:]
        elif isinstance(event, Drew) and event.player == seat and pile and not pile[-1].is_skip:
            passed.append(pile[-1])
    return passed

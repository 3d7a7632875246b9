"""The game's state as plain values: an exact first deal (:class:`Arrangement`) and every
field of a position (:class:`GameState`), which snapshots write out and games are built from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import Card
from .events import Event
from .rules import HAND_SIZE, Advance, Rules, SavePile
from .state import Meld, Seat, Stage

__all__ = [
    "Arrangement",
    "GameState",
    "check_arrangement",
    "copy_seat",
    "is_int",
    "is_seq",
    "player_names",
]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """An exact first deal, for tests, puzzles and teaching.

    ``hands`` per seat; ``discard`` from bottom to top; ``draw`` the next cards of the
    draw pile in the order they will be drawn (the rest of the deck is shuffled below
    them). ``phases`` (1-based, per seat) and ``scores`` set where each player starts;
    ``saved`` gives each seat a save pile to start with.
    """

    hands: tuple[tuple[Card, ...], ...]
    discard: tuple[Card, ...]
    draw: tuple[Card, ...] = ()
    phases: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None
    #: each seat's save pile, oldest first (rules ``save_pile``)
    saved: tuple[tuple[Card, ...], ...] | None = None


def player_names(players: object, game: str, fewest: int, most: int) -> list[str]:
    """The players' names from a count (``Player 0``, ``Player 1``, ...) or a list of names;
    ValueError, saying why, for anything else, or a number of players ``game`` is not for.

    >>> player_names(2, "Phase 10", 2, 6)
    ['Player 0', 'Player 1']
    """
    if is_int(players):
        if not fewest <= players <= most:  # type: ignore[operator]
            raise ValueError(f"{game} is for {fewest} to {most} players, not {players}")
        names = [f"Player {i}" for i in range(players)]  # type: ignore[call-overload]
    elif isinstance(players, Sequence) and not isinstance(players, str):
        names = list(players)
    else:
        raise ValueError(f"give the players as a count or a list of names, not {players!r}")
    if not fewest <= len(names) <= most:
        raise ValueError(f"{game} is for {fewest} to {most} players, not {len(names)}")
    if any(not isinstance(name, str) or not name.strip() for name in names):
        raise ValueError("every player needs a non-empty name")
    return names


def check_arrangement(arrangement: Arrangement, players: int, rules: Rules) -> None:
    """Raise ValueError, saying why, if the arrangement's values cannot start a game of
    ``players`` under ``rules`` (its cards are checked against the deck when dealt)."""
    hands = arrangement.hands
    piles = [*hands, arrangement.discard, arrangement.draw] if is_seq(hands) else [hands]
    if not all(is_seq(pile) and all(isinstance(c, Card) for c in pile) for pile in piles):
        raise ValueError("the arrangement's hands and piles must be tuples of cards")
    for label, values in (("phases", arrangement.phases), ("scores", arrangement.scores)):
        if values is not None and (not is_seq(values) or not all(map(is_int, values))):
            raise ValueError(f"the arrangement's {label} must be whole numbers")
        if values is not None and len(values) != players:
            raise ValueError(f"the arrangement's {label} need one value per player ({players})")
    if rules.advance is Advance.ALL and len(set(arrangement.phases or ())) > 1:
        raise ValueError("with advance='all' every player is on the same phase")
    for phase in arrangement.phases or ():
        if not 1 <= phase <= rules.phase_count:
            raise ValueError(f"phase numbers run from 1 to {rules.phase_count}, not {phase}")
    saved = arrangement.saved
    if saved is not None:
        if not is_seq(saved) or len(saved) != players:
            raise ValueError(f"the arrangement's saved needs one save pile per player ({players})")
        if not all(is_seq(pile) and all(isinstance(c, Card) for c in pile) for pile in saved):
            raise ValueError("the arrangement's save piles must be tuples of cards")
        if any(saved) and rules.save_pile is SavePile.OFF:
            raise ValueError("the arrangement has saved cards, but these rules have no save piles")
        spare = save_pile_room(rules, players)
        if sum(len(pile) for pile in saved) > spare:
            raise ValueError(
                f"the arrangement's save piles hold more than the {spare} cards the deck can "
                "spare: the next hand could not be dealt"
            )


def save_pile_room(rules: Rules, players: int) -> int:
    """How many cards the save piles may hold between them: what a deal leaves of the deck
    (ten a player and the turned-up card), so that every hand can be dealt.

    >>> from phase10.core.rules import preset
    >>> save_pile_room(preset("masters"), 6), save_pile_room(preset("masters"), 2)
    (45, 85)
    """
    return rules.deck_size - HAND_SIZE * players - 1


@dataclass(frozen=True, slots=True)
class GameState:
    """Every field of a game's state but its header (players, rules, seed, first dealer,
    arrangement): what :meth:`Game.state` reads and :meth:`Game.from_state` builds a game
    from. A snapshot (:mod:`phase10.core.snapshots`) writes these fields out as JSON.

    The seats are copies: changing them changes neither the game they were read from nor
    one built from them.
    """

    #: the random generator's state, as ``random.Random.getstate()`` gives it
    rng: tuple[Any, ...]
    hand_number: int
    dealer: int
    current: int
    stage: Stage
    players_in_hand: tuple[int, ...]
    tie_break: bool
    winners: tuple[int, ...]
    draw_pile: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    melds: tuple[Meld, ...]
    seats: tuple[Seat, ...]
    #: the players still to declare a phase this hand, next first
    declare_queue: tuple[int, ...]
    #: who plays the hand's first turn (the player after the dealer)
    first_player: int
    #: where this hand's events begin in the history
    hand_start: int
    history: tuple[Event, ...]
    actions: tuple[Action, ...]


def copy_seat(seat: Seat) -> Seat:
    # every field by name: several times faster than dataclasses.replace (games are copied
    # often); tests/test_game.py checks that no field is left out
    return Seat(
        seat.name,
        list(seat.hand),
        seat.score,
        seat.phase,
        set(seat.completed),
        seat.laid,
        seat.declared,
        seat.pending_skip,
        seat.floating,
        list(seat.saved),
        seat.saved_this_hand,
        seat.gave_up,
        seat.refill,
    )


def is_int(value: object) -> bool:
    """A whole number (not a bool, a float or a numeric string)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_seq(value: object) -> bool:
    return isinstance(value, (tuple, list))

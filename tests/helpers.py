"""Shared helpers for the rule-row tests: exact positions, scripted play and refusals.

``arranged`` builds a game in an exact position, ``play`` applies actions written as
text, ``assert_refused`` checks that an action is refused with the right error and
leaves the game exactly as it was.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import pytest

from phase10 import (
    Action,
    Arrangement,
    Card,
    Discard,
    Draw,
    Event,
    Game,
    Hit,
    IllegalActionError,
    InvalidActionError,
    LayDown,
    PlayerView,
    Rules,
    TakeDiscard,
    full_deck,
    parse_cards,
    snapshot,
)
from phase10.core.snapshots import _read_unchecked

E = TypeVar("E", bound=Event)


def cards(text: str) -> tuple[Card, ...]:
    """Cards from their text: ``cards("R7 B7 W")``."""
    return parse_cards(text)


def arranged(
    hands: Sequence[str],
    discard: str,
    draw: str = "",
    *,
    phases: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    rules: Rules | None = None,
    dealer: int | None = None,
    seed: int = 1,
    names: Sequence[str] | None = None,
    saved: Sequence[str] | None = None,
) -> Game:
    """A game dealt exactly: ``hands`` per seat, ``discard`` bottom to top, ``draw`` the next
    cards drawn (first first). The dealer defaults to the last seat, so seat 0 plays first.
    """
    count = len(hands)
    return Game(
        list(names) if names is not None else count,
        rules=rules,
        seed=seed,
        dealer=count - 1 if dealer is None else dealer,
        arrangement=Arrangement(
            hands=tuple(parse_cards(hand) for hand in hands),
            discard=parse_cards(discard),
            draw=parse_cards(draw),
            phases=None if phases is None else tuple(phases),
            scores=None if scores is None else tuple(scores),
            saved=None if saved is None else tuple(parse_cards(pile) for pile in saved),
        ),
    )


def rest_of_deck(*used: str) -> list[Card]:
    """The 108-card deck without the cards written in ``used`` (in the deck's own order)."""
    rest = Counter(full_deck())
    rest.subtract(card for text in used for card in parse_cards(text))
    if any(count < 0 for count in rest.values()):
        raise ValueError(f"more cards used than the deck holds: {used}")
    return [card for card in dict.fromkeys(full_deck()) for _ in range(rest[card])]


def text_of(cards_: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards_)


def play(game: Game, script: str) -> list[Event]:
    """Apply actions written as text, separated by ``;`` or new lines; return all events."""
    events: list[Event] = []
    for line in script.replace("\n", ";").split(";"):
        if line.strip():
            events += game.apply(line.strip())
    return events


def of_type(events: Sequence[Event], kind: type[E]) -> list[E]:
    """The events of one type, in order."""
    return [event for event in events if isinstance(event, kind)]


def assert_refused(
    game: Game,
    action: Action | str,
    error: type[IllegalActionError] | type[InvalidActionError],
    phrase: str,
) -> None:
    """The action raises exactly ``error`` with ``phrase`` in its message, the game is left
    exactly as it was, and the action is not among the legal ones.
    """
    before = snapshot(game)
    history = list(game.history)
    with pytest.raises(error) as raised:
        game.apply(action)
    assert type(raised.value) is error
    assert phrase in str(raised.value), str(raised.value)
    assert snapshot(game) == before
    assert game.history == history
    try:
        parsed = game.parse_action(action) if isinstance(action, str) else action
    except (IllegalActionError, InvalidActionError):
        return
    assert not game.is_legal(parsed)
    assert parsed not in game.legal_actions


def edited(game: Game, edit: Callable[[dict[str, Any]], None]) -> Game:
    """A copy of ``game`` read from its snapshot after ``edit`` changed the snapshot's state.

    The edited position is one no legal game reaches (its record no longer leads to it),
    which ``restore`` refuses: it is read without ``restore``'s checks.
    """
    data = copy.deepcopy(snapshot(game))
    edit(data["state"])
    return _read_unchecked(data)


# -- simple players, for tests that need whole hands played out ------------------------------


def greedy_action(position: Game | PlayerView) -> Action:
    """Lay down when possible, hit when possible, take a Wild, else draw; then discard the
    card whose number the hand holds least (a Skip first, a Wild last).
    """
    actions = list(position.legal_actions)
    for kind in (LayDown, Hit):
        for action in actions:
            if isinstance(action, kind):
                return action
    top = position.discard_pile[-1] if position.discard_pile else None
    if TakeDiscard() in actions and ((top is not None and top.is_wild) or Draw() not in actions):
        return TakeDiscard()
    if Draw() in actions:
        return Draw()
    discards = [a for a in actions if isinstance(a, Discard)]
    if not discards:
        return actions[0]
    hand = position.hand(position.current) if isinstance(position, Game) else position.hand
    counts = Counter(card.number for card in hand)

    def worth(action: Discard) -> tuple[int, int, int, str]:
        card = action.card
        return (card.is_wild, not card.is_skip, counts[card.number], str(action))

    return min(discards, key=worth)


def passive_action(position: Game | PlayerView) -> Action:
    """Never lay down or hit: draw (or take) and discard, so nobody goes out."""
    actions = list(position.legal_actions)
    for kind in (Draw, TakeDiscard):
        for action in actions:
            if isinstance(action, kind):
                return action
    discards = [a for a in actions if isinstance(a, Discard)]
    return discards[0] if discards else actions[0]


def play_until(
    game: Game,
    stop: Callable[[Game], bool],
    policy: Callable[[Game], Action] = greedy_action,
    limit: int = 5000,
) -> list[Event]:
    """Apply the policy's actions (checked) until ``stop(game)``; return the events."""
    events: list[Event] = []
    for _ in range(limit):
        if stop(game) or game.is_over:
            return events
        events += game.apply(policy(game))
    raise AssertionError(f"no stop after {limit} actions")


def walk(value: object, path: str = "") -> Iterator[tuple[str, object]]:
    """Every value reachable from ``value`` through dataclass fields and containers."""
    yield path, value
    if isinstance(value, (str, int, float, bool, enum.Enum, Card)) or value is None:
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from walk(getattr(value, item.name), f"{path}.{item.name}")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{path}[{key!r}]")
    elif isinstance(value, (tuple, list, set, frozenset)):
        for index, item in enumerate(value):
            yield from walk(item, f"{path}[{index}]")


def cards_in(value: object) -> list[tuple[str, Card]]:
    """Every card reachable from ``value``, with where it was found."""
    return [(path, item) for path, item in walk(value) if isinstance(item, Card)]


def meld_with(game: Game | PlayerView, text: str) -> int:
    """The table id of the group holding exactly the cards written in ``text``."""
    wanted = Counter(parse_cards(text))
    for index, meld in enumerate(game.melds):
        if Counter(meld.group.cards) == wanted:
            return index
    raise AssertionError(f"no group {text} on the table: {[str(m.group) for m in game.melds]}")


#: the fields of a player's view (docs/rules.md §7): what every interface may show
VIEW_FIELDS = {
    "viewer",
    "rules",
    "stage",
    "current",
    "dealer",
    "hand_number",
    "players_in_hand",
    "tie_break",
    "hand",
    "seats",
    "melds",
    "discard_pile",
    "draw_size",
    "history",
    "hand_results",
    "winners",
    "saved",
}

"""Turning a player's selection of cards into the legal actions it can mean.

An interface lets a player pick cards and press "lay down" or "hit"; these functions
ask the engine which actions those cards make, and say why when there is none.

>>> from phase10.core.game import Game
>>> game = Game(["Ann", "Bob"], seed=3)
>>> lay_down_choices(game.view(game.current), [])
Traceback (most recent call last):
...
phase10.core.choices.ChoiceError: draw a card or take the discard first

Each refusal carries a :class:`~phase10.core.errors.Refusal` code, so an interface can
add its own keys to the plain message:

>>> try:
...     lay_down_choices(game.view(game.current), [])
... except ChoiceError as error:
...     error.code
<Refusal.MUST_DRAW_FIRST: 'must_draw_first'>
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .actions import Hit, LayDown
from .cards import Card
from .errors import Refusal, RefusalError, SearchLimitError
from .laydowns import lay_downs
from .state import Stage
from .views import PlayerView

__all__ = [
    "CHOICE_STEPS",
    "ChoiceError",
    "NotHeldError",
    "check_held",
    "hit_choices",
    "lay_down_choices",
    "lay_down_order",
]

#: the most groups the lay-down search tries for one selection (every shipped phase list
#: needs far fewer for any hand; a house list of many small groups can need more)
CHOICE_STEPS = 200_000


class ChoiceError(RefusalError):
    """A selection that makes no legal action: ``code`` says why, and so does the message."""


class NotHeldError(ChoiceError):
    """A selection naming cards the player does not hold (code :attr:`Refusal.NOT_HELD`)."""

    def __init__(self, message: str) -> None:
        super().__init__(Refusal.NOT_HELD, message)


#: the refusal of a lay-down or hit in each stage that waits for something else
_WAITS_FOR = {
    Stage.DRAW: (Refusal.MUST_DRAW_FIRST, "draw a card or take the discard first"),
    Stage.WILD_DISCARD: (Refusal.MUST_DISCARD, "discard a card for the Wild you were given"),
    Stage.DECLARE: (Refusal.MUST_DECLARE, "declare the phase you attempt this hand first"),
    Stage.GIVE_WILD: (Refusal.MUST_GIVE_WILD, "give the turned-up Wild to a player first"),
    Stage.GAME_OVER: (Refusal.GAME_OVER, "the game is over"),
}


def _check_turn(view: PlayerView) -> int:
    """The viewer's seat, if they may lay down or hit now; else refuse saying why."""
    if not view.is_over and not view.is_my_turn:
        raise ChoiceError(Refusal.NOT_YOUR_TURN, "it is not your turn")
    if view.stage in _WAITS_FOR:
        raise ChoiceError(*_WAITS_FOR[view.stage])
    assert view.viewer is not None
    return view.viewer


def lay_down_choices(view: PlayerView, cards: Sequence[Card]) -> list[LayDown]:
    """Every legal lay-down of exactly ``cards`` (all of them) for the viewer, by the text.

    Raises :class:`ChoiceError` saying why when there is none.
    """
    me = _check_turn(view)
    if view.seats[me].laid is not None:
        raise ChoiceError(
            Refusal.ALREADY_LAID,
            "you have laid down your phase this hand: hit cards onto groups instead",
        )
    if not cards:
        raise ChoiceError(Refusal.NOTHING_SELECTED, "select the cards to lay down first")
    check_held(view, cards)
    allowed = view.allowed_phases(me)
    explicit = view.names_phase_when_laid
    found: dict[str, LayDown] = {}
    for index in allowed:
        ways = lay_downs(
            view.phase_of(index), cards, view.rules.natural_min, max_steps=CHOICE_STEPS
        )
        try:
            for groups in ways:
                if sum(len(group.cards) for group in groups) != len(cards):
                    continue
                action = LayDown(groups, index + 1 if explicit else None)
                if view.is_legal(action):
                    canonical = view.check(action)
                    assert isinstance(canonical, LayDown)
                    found.setdefault(str(canonical), canonical)
        except SearchLimitError:
            raise ChoiceError(
                Refusal.TOO_MANY_WAYS,
                "these cards can be laid down in too many ways to list: "
                "select fewer cards, or fewer Wilds",
            ) from None
    if not found:
        phases = " or ".join(f"phase {i + 1} ({view.phase_of(i)})" for i in allowed)
        shown = " ".join(str(card) for card in cards)
        raise ChoiceError(
            Refusal.NOT_THE_PHASE, f"{shown} do not make {phases} using every selected card"
        )
    return sorted(found.values(), key=lay_down_order)


def lay_down_order(action: LayDown) -> tuple[object, ...]:
    """The order ways to lay down are offered in: the most cards first, then the most
    points shed, then by the groups' numbers as a player reads them (7s before 8s, 6s
    before 10s), the engine's text last only to make the order total.

    >>> from phase10.core.actions import parse_action
    >>> from phase10.core.phases import Phase
    >>> phase = Phase.parse("2 sets of 3")
    >>> ways = [parse_action(text, phase) for text in
    ...         ["lay R8 B8 W + R3 B3 G3", "lay R7 B7 W + R3 B3 G3", "lay G10 W W + R3 B3 G3"]]
    >>> [str(way) for way in sorted(ways, key=lay_down_order)]
    ['lay G10 W W + R3 B3 G3', 'lay R7 B7 W + R3 B3 G3', 'lay R8 B8 W + R3 B3 G3']
    """
    cards = action.cards
    groups = tuple(
        (group.number or group.low or 0, tuple(card.sort_key for card in group.cards))
        for group in action.groups
    )
    return (
        -len(cards),
        -sum(card.points for card in cards),
        action.phase or 0,
        groups,
        str(action),
    )


def hit_choices(view: PlayerView, card: Card) -> list[Hit]:
    """Every legal way to put ``card`` on a table group (each group, each run end).

    Raises :class:`ChoiceError` saying why when there is none.
    """
    me = _check_turn(view)
    if view.seats[me].laid is None:
        raise ChoiceError(
            Refusal.LAY_DOWN_FIRST, "lay down your phase before you hit cards onto groups"
        )
    check_held(view, [card])
    choices = [
        Hit(card, gid, spot if card.is_wild else None)
        for gid, meld in enumerate(view.melds)
        for spot in meld.group.placements(card)
    ]
    legal = [hit for hit in choices if view.is_legal(hit)]
    if not legal:
        raise ChoiceError(Refusal.DOES_NOT_FIT, f"{card} fits no group on the table")
    return legal


def check_held(view: PlayerView, cards: Sequence[Card]) -> None:
    """Refuse, with :class:`NotHeldError`, cards the viewer does not hold (as many copies
    as named): no search starts from cards that are not in the hand.

    >>> from phase10.core.cards import parse_cards
    >>> from phase10.core.game import Game
    >>> view = Game(["Ann", "Bob"], seed=3).view(0)
    >>> check_held(view, parse_cards("R1 R1 R1 R1 W W W W W W"))
    Traceback (most recent call last):
    ...
    phase10.core.choices.NotHeldError: you do not hold ...
    """
    short = Counter(cards) - Counter(view.hand)
    if short:
        named = sorted(short.elements(), key=lambda card: card.sort_key)
        shown = " ".join(str(card) for card in named[:6]) + (" ..." if len(named) > 6 else "")
        raise NotHeldError(f"you do not hold {shown}")

"""Every built-in bot decides in bounded time, whatever the phases.

The lay-down and phase searches the bots lean on grow exponentially with some house
phases: under "11 sets of 1" one decision of the strong bot searched for minutes, and
under "5 even or odd of 1" the greedy bot's lay-down took ten seconds. A bot's decision
therefore runs inside a :func:`~phase10.core.budget.step_budget` of :data:`BOT_STEPS`
search steps (steps, not seconds: the same game gives the same decisions on any
machine). No decision under the official phases or any preset's comes near it
(``benchmarks/bench_bounded.py`` counts them); one that spends it plays
:func:`plain_move` instead, which needs next to no search. The expert's compiled
play-outs have a bound of their own (:data:`phase10.search.expert.KERNEL_STEPS`).

>>> import random
>>> from phase10.core import Draw, Game, Phase, Rules
>>> from phase10.core.budget import step_budget
>>> from phase10.bots.greedy import GreedyPlayer
>>> game = Game(2, rules=Rules(phase_list=(Phase.parse("5 even or odd of 1"),) * 10), seed=3)
>>> _ = game.apply(Draw())
>>> with step_budget(10**12) as counted:  # (a budget around the bot's counts its steps)
...     action = GreedyPlayer(random.Random(0)).choose(game.view(game.current))
>>> counted.used > BOT_STEPS, game.is_legal(action)
(True, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from phase10.core import (
    Action,
    Discard,
    Draw,
    GiveWild,
    Hit,
    IllegalActionError,
    InvalidActionError,
    LayDown,
    PlayerView,
    SearchLimitError,
    Stage,
    lay_downs,
)
from phase10.core.budget import step_budget

from .knowledge import legal_list

__all__ = ["BOT_STEPS", "PLAIN_STEPS", "bounded", "plain_move"]

#: the search steps one bot decision may take (about 0.4 s on one core). The strong
#: bot's costliest decisions under the official phases take under 300 steps, and under
#: the editions' phases up to 150,000 (benchmarks/bench_bounded.py)
BOT_STEPS = 400_000
#: the steps :func:`plain_move` gives the search for a first lay-down of each phase
PLAIN_STEPS = 2_000

_Bot = TypeVar("_Bot")


def bounded(
    choose: Callable[[_Bot, PlayerView], Action],
) -> Callable[[_Bot, PlayerView], Action]:
    """Wrap a bot's ``choose``: its searches share :data:`BOT_STEPS` steps; past them
    the bot plays :func:`plain_move`."""

    @functools.wraps(choose)
    def bounded_choose(self: _Bot, view: PlayerView) -> Action:
        try:
            with step_budget(BOT_STEPS):
                return choose(self, view)
        except SearchLimitError:
            pass  # (the fallback runs outside the spent budget)
        return plain_move(view)

    return bounded_choose


def plain_move(view: PlayerView) -> Action:
    """A legal move found with next to no search: the first phase lay-down a short
    search finds, else a card hit on the table, else the discard of the card worth most
    (a Wild last); outside play, drawing (or the first choice the rules give).

    >>> from phase10.core import Game, Phase, Rules
    >>> game = Game(2, seed=1)
    >>> str(plain_move(game.view(game.current)))
    'draw'
    """
    me = view.viewer
    if me is None or not view.is_my_turn:
        raise ValueError(f"player {me} has nothing to do: it is not their turn")
    if view.stage is not Stage.PLAY:
        # outside play the choices include no lay-down: listing them is quick
        actions = legal_list(view)
        for preferred in (Draw(), GiveWild(me)):
            if preferred in actions:
                return preferred
        return actions[0]
    for action in _first_lay_downs(view):
        return action
    for action in _hits(view):
        return action
    for action in _discards(view):
        return action
    # (a floating card must be hit, or a refill taken: neither lists lay-downs)
    return next(a for a in legal_list(view) if not isinstance(a, LayDown))


def _first_lay_downs(view: PlayerView) -> list[Action]:
    me = view.viewer
    assert me is not None
    if view.seats[me].laid is not None:
        return []
    explicit = view.names_phase_when_laid
    for index in view.allowed_phases(me):
        try:
            ways = lay_downs(
                view.phase_of(index),
                view.hand,
                view.rules.natural_min,
                max_steps=PLAIN_STEPS,
                max_cards=None,
            )
            groups = next(ways, None)
        except SearchLimitError:
            continue
        if groups is not None:
            action = LayDown(groups, index + 1 if explicit else None)
            if view.is_legal(action):
                return [view.check(action)]
    return []


def _hits(view: PlayerView) -> list[Action]:
    me = view.viewer
    assert me is not None
    if view.seats[me].laid is None or len(view.hand) <= 1:
        return []  # (a last card goes out by its discard)
    for card in sorted(set(view.hand), key=lambda card: (card.is_wild, card.sort_key)):
        for group in range(len(view.melds)):
            for number in view.melds[group].group.placements(card):
                action = Hit(card, group, number if card.is_wild else None)
                if view.is_legal(action):
                    return [view.check(action)]
    return []


def _discards(view: PlayerView) -> list[Action]:
    # the card worth most first, a Wild last; a Skip or the Anti-phase card at whoever
    # the rules let it name first
    order = sorted(set(view.hand), key=lambda card: (card.is_wild, -card.points, card.sort_key))
    for card in order:
        for target in (None, *range(len(view.seats))):
            try:
                return [view.check(Discard(card, target))]
            except (IllegalActionError, InvalidActionError):
                continue
    return []

"""The greedy policy's rules of play in the kernel, and its Python reference.

The kernel plays :class:`phase10.bots.greedy.GreedyPlayer` decision for decision (see
docs/kernel.md, "The greedy policy"), under every rule option the kernel plays; :func:`greedy_unsupported` names
any whose greedy play it does not have yet (none today). :func:`engine_greedy_action` and
:func:`engine_play_greedy` are the same interface over the Python bot: what
:class:`~phase10.kernel.EngineGame` plays, and what the tests compare the kernel with.

>>> import random
>>> from phase10.core import Game
>>> game = Game(3, seed=4)
>>> engine_greedy_action(game, game.current, random.Random(1))
(0,)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from phase10.bots.greedy import GreedyPlayer
from phase10.bots.knowledge import HeldTracker
from phase10.core import Game, PlayerView, Rules, Stage

from .convert import ActionKey, action_key

__all__ = [
    "engine_greedy_action",
    "engine_play_greedy",
    "greedy_unsupported",
    "held_knowledge",
    "view_knowledge",
]


#: the rule options the kernel plays but not yet greedily, each with what tells them on:
#: none since save piles and the Anti-phase card came in (an option the kernel learns is
#: added here until its greedy play follows)
_NOT_GREEDY: tuple[tuple[str, Callable[[Rules], bool]], ...] = ()


def greedy_unsupported(rules: Rules) -> str | None:
    """The rule option whose greedy play the kernel does not have yet, or None.

    >>> from phase10.core import preset
    >>> greedy_unsupported(preset("anti-phase")) is None
    True
    """
    for option, differs in _NOT_GREEDY:
        if differs(rules):
            return f"the greedy policy in the kernel does not play {option} = {getattr(rules, option).value!r} yet"
    return None


def held_knowledge(game: Game) -> tuple[int, list[list[int]], list[bool]]:
    """What the greedy bot reads off this hand's history: how many events it holds, and
    :class:`~phase10.bots.knowledge.HeldTracker`'s counts and started flags."""
    history = game.history[game.hand_start :]
    tracker = HeldTracker(game.num_players)
    for event in history:
        tracker.feed(event)
    return len(history), tracker.counts, tracker.started


def view_knowledge(view: PlayerView) -> tuple[int, list[list[int]], list[bool]]:
    """:func:`held_knowledge` as far as ``view`` shows this hand's history."""
    tracker = HeldTracker(len(view.seats))
    for event in view.history:
        tracker.feed(event)
    return len(view.history), tracker.counts, tracker.started


def _check_turn(game: Game, player: int) -> None:
    if game.stage is Stage.GAME_OVER or player != game.current:
        raise ValueError(f"player {player} has nothing to do: it is not their turn")


def engine_greedy_action(game: Game, player: int, rng: random.Random) -> ActionKey:
    """The action :class:`~phase10.bots.greedy.GreedyPlayer` with ``rng`` chooses for
    ``player`` (who must be the one to move), as a kernel action."""
    _check_turn(game, player)
    return action_key(GreedyPlayer(rng).choose(game.view(player)))


def engine_play_greedy(
    game: Game,
    rngs: Sequence[random.Random],
    max_actions: int = -1,
    *,
    record: bool = False,
    hands: int = 0,
) -> tuple[int, list[ActionKey] | None]:
    """Every seat a :class:`~phase10.bots.greedy.GreedyPlayer` (``rngs``: one generator a
    seat) until the game ends, ``hands`` hands have ended (0: no limit) or ``max_actions``
    are played: how many were, and the actions if ``record``."""
    if len(rngs) != game.num_players:
        raise ValueError(f"one generator per seat ({game.num_players}), not {len(rngs)}")
    players = [GreedyPlayer(rng) for rng in rngs]
    chosen: list[ActionKey] | None = [] if record else None
    played, start = 0, game.hand_number
    while (
        not game.is_over
        and (max_actions < 0 or played < max_actions)
        and (hands <= 0 or game.hand_number - start < hands)
    ):
        seat = game.current
        action = players[seat].choose(game.view(seat))
        if chosen is not None:
            chosen.append(action_key(action))
        game.apply(action)
        played += 1
    return played, chosen

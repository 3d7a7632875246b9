"""Tournament games with the greedy bot's decisions made in the compiled kernel.

The kernel plays :class:`~phase10.bots.greedy.GreedyPlayer` exactly: the same decisions
and the same draws on the bot's generator, on the same deals (it carries the engine's
generator). So a tournament may let it play, and the games come out the same:

- a game whose every seat is the plain greedy bot runs wholly inside the kernel
  (:func:`play_greedy_game`), some 55 times as fast;
- in any other game the greedy seats choose through the kernel (:func:`kernel_greedy`),
  which follows the engine game action by action; the engine and the other bots still
  play, so this saves only the greedy bot's own share of the time.

Neither applies where the kernel is not built or turned off, nor under rules whose greedy
play it lacks (:func:`phase10.kernel.greedy_unsupported`), nor to a greedy bot made with
``+nosave`` or ``+noanti``: there the Python bots play, as they do everywhere else.

>>> import random
>>> from phase10.bots import make_player, play_game
>>> from phase10.core import Game, Rules
>>> def seats(specs):
...     return [make_player(spec, random.Random(seat)) for seat, spec in enumerate(specs)]
>>> game = Game(2, rules=Rules(phases=(1,)), seed=3)
>>> played = play_greedy_game(game, seats(["greedy", "greedy"]))
>>> slow = Game(2, rules=Rules(phases=(1,)), seed=3)
>>> play_game(slow, seats(["greedy", "greedy"]))
>>> played is None or (played[0].winners, played[1]) == (slow.winners, len(slow.actions))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import phase10.kernel as kernel
from phase10.bots import Player
from phase10.bots.greedy import GreedyPlayer
from phase10.core import Action, Game, PlayerView, Rules
from phase10.kernel.convert import action_key, to_action

__all__ = ["greedy_seats", "kernel_greedy", "play_greedy_game"]


def greedy_seats(players: Sequence[Player], rules: Rules) -> list[bool]:
    """Which seats the kernel can play: the plain greedy bot's, when the kernel is in use
    and plays these rules greedily (else none)."""
    if not kernel.available() or kernel.greedy_unsupported(rules) is not None:
        return [False] * len(players)
    return [type(player) is GreedyPlayer and player.saves and player.anti for player in players]


def play_greedy_game(
    game: Game, players: Sequence[Player], max_actions: int = -1
) -> tuple[Game, int] | None:
    """Play fresh ``game`` to its end in the kernel when every seat is one it can play
    (:func:`greedy_seats`), each choosing as its bot would from the state of the bot's
    generator: the final position (an engine game without a history) and the number of
    actions played. None when it cannot, or the game did not end within ``max_actions``.
    ``game`` and the bots are left as they were."""
    if not all(greedy_seats(players, game.rules)):
        return None
    try:
        play = kernel.KernelGame(game)
    except kernel.KernelUnsupported:
        return None
    rngs = []
    for player in players:
        assert isinstance(player, GreedyPlayer)
        rng = random.Random()  # a copy: the bots stay fresh if Python has to play after all
        rng.setstate(player.rng.getstate())
        rngs.append(rng)
    played, _ = play.play_greedy(rngs, max_actions)
    if not play.is_over:
        return None
    return play.to_game(), played


class _Mirror:
    """``game`` in the kernel, brought up to date with the engine's actions when a greedy
    seat is asked; dropped (the Python bot choosing instead) if the kernel ever refuses."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.play: kernel.KernelGame | None = kernel.KernelGame(game)
        self.synced = len(game.actions)

    def choose(self, view: PlayerView, bot: GreedyPlayer) -> Action:
        if self.play is not None and view.viewer is not None:
            try:
                actions = self.game.actions
                for action in actions[self.synced :]:
                    self.play.apply(action_key(action))
                self.synced = len(actions)
                # (the bot's generator is only advanced once the kernel has chosen)
                return to_action(self.play.greedy_action(view.viewer, bot.rng))
            except ValueError:  # KernelUnsupported too: never expected, but stay exact
                self.play = None
        return bot.choose(view)


class _KernelGreedy:
    """A greedy seat choosing through the kernel's mirror of the game."""

    def __init__(self, mirror: _Mirror, bot: GreedyPlayer) -> None:
        self.mirror = mirror
        self.bot = bot

    def choose(self, view: PlayerView) -> Action:
        return self.mirror.choose(view, self.bot)


def kernel_greedy(game: Game, players: Sequence[Player]) -> list[Player]:
    """``players`` for fresh ``game``, each seat the kernel can play (:func:`greedy_seats`)
    choosing through it: the same actions as the bot, drawing on the bot's generator.
    Every player is returned as it was when there is none."""
    seats = greedy_seats(players, game.rules)
    if not any(seats):
        return list(players)
    try:
        mirror = _Mirror(game)
    except kernel.KernelUnsupported:
        return list(players)
    return [
        _KernelGreedy(mirror, player) if fast and isinstance(player, GreedyPlayer) else player
        for player, fast in zip(players, seats, strict=True)
    ]

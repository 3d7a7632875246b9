"""Players that pick actions from what they may know: a :class:`PlayerView`, never the game.

>>> import random
>>> from phase10.core import Game
>>> game = Game(2, seed=1)
>>> play_game(game, [SimplePlayer(random.Random(0)), RandomPlayer(random.Random(1))])
>>> game.is_over
True
"""

from .registry import BOT_NAMES, make_player, parse_bot_list
from .simple import GameTooLongError, Player, RandomPlayer, SimplePlayer, phase_gap, play_game

__all__ = [
    "BOT_NAMES",
    "GameTooLongError",
    "Player",
    "RandomPlayer",
    "SimplePlayer",
    "make_player",
    "parse_bot_list",
    "phase_gap",
    "play_game",
]

"""``phase10 demo``: a seeded game between simple players, told from its public events.

>>> lines = demo_log(seed=3, players=2, rules_name="short-5")
>>> lines[0]
'Phase 10 demo: Ann and Bob; rules: short-5; seed 3'
>>> lines[-1].startswith("Winner: ")
True
>>> demo_log(seed=3, players=2, rules_name="short-5", quiet=True) == lines[-1:]
True
"""

from __future__ import annotations

import random

from phase10.bots import SimplePlayer, play_game
from phase10.bots.seats import SEAT_NAMES
from phase10.core import MAX_PLAYERS, MIN_PLAYERS, Game, preset
from phase10.core.narration import EventLog, and_list

__all__ = ["NAMES", "EventLog", "demo_game", "demo_log"]

#: The demo players' names, in seat order (the names bots take everywhere).
NAMES = SEAT_NAMES


def demo_game(
    seed: int = 1, players: int = 4, rules_name: str = "official"
) -> tuple[Game, list[SimplePlayer]]:
    """The demo's game (not yet played) and its players, all seeded from ``seed``.

    Raises :class:`ValueError` for a player count outside 2-6 or an unknown preset.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"the demo is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    game = Game(NAMES[:players], rules=preset(rules_name), seed=seed)
    return game, [SimplePlayer(random.Random(f"{seed}:{seat}")) for seat in range(players)]


def demo_log(
    seed: int = 1, players: int = 4, rules_name: str = "official", *, quiet: bool = False
) -> list[str]:
    """Play the demo game to its end and return its log, line by line.

    ``quiet`` keeps only the final result. Raises :class:`ValueError` like :func:`demo_game`.
    """
    game, bots = demo_game(seed, players, rules_name)
    names = [seat.name for seat in game.view(None).seats]
    log = EventLog(names, game.rules)
    log.lines.append(f"Phase 10 demo: {and_list(names)}; rules: {rules_name}; seed {seed}")
    log.feed(game.history)  # the first deal happens before any action
    play_game(game, bots, log.feed)
    return log.lines[-1:] if quiet else log.lines

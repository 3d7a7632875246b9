"""The win dice bot against the optimal one, paired: the numbers in docs/dice-odds.md.

Game ``n`` is seeded ``seed + n`` as ``phase10 dice tournament`` seeds it, with seat 0 and
the rivals in the seats after it. Until someone completes phase 10 the ``win`` bot plays exactly as
``optimal`` does (and neither draws on its own random generator), so the game is played
once to the start of the last round, then twice from there: seat 0 by ``win`` and by
``optimal``, on the same dice. Seat 0's share of the win in the ``win`` arm is game for
game what ``phase10 dice tournament --bots win,RIVALS --seed SEED`` gives it; the paired
difference has far less noise than two tournaments compared.

Usage: ``python -m benchmarks.dice_win_paired RIVALS GAMES SEED`` (RIVALS: comma-separated,
``optimal`` or ``optimal,optimal``; not run by ``make bench``).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence

from phase10.bots.dice import DicePlayer, make_dice_player, play_dice_game
from phase10.dice import DiceGame
from phase10.sim.stats import mean_interval


def _share(game: DiceGame, seat: int) -> float:
    return 1 / len(game.winners) if seat in game.winners else 0.0


def _players(bots: Sequence[str], seed: int) -> list[DicePlayer]:
    """The seats' bots as ``dice_tournament`` makes them for the game seeded ``seed``."""
    return [make_dice_player(bot, random.Random(f"{seed}:{i}")) for i, bot in enumerate(bots)]


def paired(rivals: Sequence[str], games: int, seed: int) -> dict[str, float]:
    """Seat 0's mean share of the win by ``win`` and by ``optimal``, the mean paired
    difference and its 95% interval (normal approximation), and how many games differ."""
    differences = []
    wins = optimal = 0.0
    for n in range(games):
        game = DiceGame([f"seat {i + 1}" for i in range(len(rivals) + 1)], seed=seed + n)
        start = _players(("optimal", *rivals), seed + n)
        while not game.is_over and game.finisher is None:
            game.apply(start[game.current].choose(game.view(game.current)))
        shares = []
        for first in ("win", "optimal"):
            arm = game.copy()
            play_dice_game(arm, _players((first, *rivals), seed + n))
            shares.append(_share(arm, 0))
        wins += shares[0]
        optimal += shares[1]
        differences.append(shares[0] - shares[1])
        print(n, *shares, file=sys.stderr, flush=True)  # progress, game by game
    mean, half = mean_interval(differences)
    return {
        "games": games,
        "seed": seed,
        "win_share": wins / games,
        "optimal_share": optimal / games,
        "difference": mean,
        "low": mean - half,
        "high": mean + half,
        "games_that_differ": sum(1 for d in differences if d),
    }


if __name__ == "__main__":
    names, count, first_seed = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
    for key, value in paired(names, count, first_seed).items():
        print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")

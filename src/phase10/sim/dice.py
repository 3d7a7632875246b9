"""Dice bots against each other: many seeded games, win rates and mean totals.

Each game seats the bots in the order given (the game rolls who starts); a shared win
counts as a fraction of a win for each winner, so the win rates add up to 1.

>>> result = dice_tournament(["greedy", "greedy"], games=2, seed=1)
>>> [row.bot for row in result.rows], result.games
(['greedy', 'greedy'], 2)
>>> round(sum(row.win_rate for row in result.rows), 6)
1.0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from phase10.bots.dice import make_dice_player, play_dice_game
from phase10.dice import MAX_PLAYERS, DiceGame

from .tournament import MAX_GAMES

__all__ = ["DiceSeatResult", "DiceTournament", "dice_tournament"]


@dataclass(frozen=True, slots=True)
class DiceSeatResult:
    """One seat's results: its bot, wins (shared wins in part), and totals."""

    seat: int
    bot: str
    wins: float
    win_rate: float
    mean_total: float


@dataclass(frozen=True, slots=True)
class DiceTournament:
    games: int
    seed: int
    rows: tuple[DiceSeatResult, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "seats": [
                {
                    "seat": row.seat,
                    "bot": row.bot,
                    "wins": row.wins,
                    "win_rate": row.win_rate,
                    "mean_total": row.mean_total,
                }
                for row in self.rows
            ],
        }


def dice_tournament(bots: Sequence[str], *, games: int, seed: int) -> DiceTournament:
    """Play ``games`` games between ``bots`` (one seat each), game ``n`` seeded ``seed + n``."""
    if not 1 <= len(bots) <= MAX_PLAYERS:
        raise ValueError(f"a dice game seats 1 to {MAX_PLAYERS} bots, not {len(bots)}")
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"play 1 to {MAX_GAMES:,} games, not {games:,}")
    wins = [0.0] * len(bots)
    totals = [0] * len(bots)
    for number in range(games):
        game = DiceGame([f"{bot} {i + 1}" for i, bot in enumerate(bots)], seed=seed + number)
        players = [
            make_dice_player(bot, random.Random(f"{seed + number}:{i}"))
            for i, bot in enumerate(bots)
        ]
        play_dice_game(game, players)
        for winner in game.winners:
            wins[winner] += 1 / len(game.winners)
        totals = [a + b for a, b in zip(totals, game.totals(), strict=True)]
    rows = tuple(
        DiceSeatResult(i, bot, wins[i], wins[i] / games, totals[i] / games)
        for i, bot in enumerate(bots)
    )
    return DiceTournament(games, seed, rows)

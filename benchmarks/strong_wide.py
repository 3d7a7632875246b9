"""Does searching wider make the strong bot stronger against itself? The strong bot with
``--factor`` times level 4's futures, samples of the next player's hand and draw sequences
for the way out, against ``strong`` (level 4), heads-up: the games of ``phase10
tournament --bots ...,strong --seed 7`` (duplicate deals, seats rotated, official rules,
the deals the expert's match against strong plays), the wider bot's share of wins with
its 95% Wilson interval. The expert's goal against strong is 55%.

``python -m benchmarks.strong_wide --games 2000 --jobs 2 [--factor 4]`` keeps each game
in ``benchmarks/results/strong-wide<FACTOR>-vs-strong-seed7.jsonl`` and goes on from there
when run again (a game takes some seconds: 4 times wider, about 6 s on one core).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import time
from multiprocessing import get_context
from pathlib import Path

from phase10.bots import play_game
from phase10.bots.strong import LEVELS, StrongPlayer
from phase10.core import Game
from phase10.sim.stats import wilson_interval
from phase10.sim.tournament import plan_games

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 7


def play_one(index: int, factor: int) -> dict[str, float]:
    """Game ``index`` of the match: the wider bot is entry 0, strong entry 1."""
    plan = plan_games(2, index + 1, SEED)[index]
    level = LEVELS[4]
    wide = dataclasses.replace(
        level,
        futures=level.futures * factor,
        opponent_samples=level.opponent_samples * factor,
        outs=level.outs * factor,
    )
    players = []
    for entry, seed in zip(plan.seating, plan.bot_seeds, strict=True):
        player = StrongPlayer(random.Random(seed))  # as make_player("strong") seats it
        if entry == 0:
            player.budget = wide
        players.append(player)
    start = time.perf_counter()
    game = Game(2, seed=plan.seed)
    play_game(game, players)
    first = [plan.seating[seat] for seat in game.winners].count(0) / len(game.winners)
    return {"game": index, "first_wins": first, "seconds": time.perf_counter() - start}


def _play(job: tuple[int, int]) -> dict[str, float]:
    return play_one(*job)


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--factor", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    RESULTS.mkdir(exist_ok=True)
    kept = RESULTS / f"strong-wide{args.factor}-vs-strong-seed{SEED}.jsonl"
    rows = [json.loads(line) for line in kept.read_text().splitlines()] if kept.exists() else []
    done = {row["game"] for row in rows}
    todo = [(index, args.factor) for index in range(args.games) if index not in done]
    with get_context("fork").Pool(args.jobs) as pool, kept.open("a") as out:
        for row in pool.imap_unordered(_play, todo):
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
    counted = [row for row in rows if row["game"] < args.games]
    wins = sum(row["first_wins"] for row in counted)
    low, high = wilson_interval(wins, len(counted))
    result = {
        "games": len(counted),
        "wider bot's share of wins": f"{wins / len(counted):.1%} ({low:.1%}-{high:.1%})",
        "goal (the expert's, against strong)": "55%",
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()

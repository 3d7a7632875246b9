"""The game review's search as a bot: every decision searched as a review (and a hint)
searches it, on the expert's benchmark games.

    python -m benchmarks.expert_review_bot hu --first 0 --last 1000
    python -m benchmarks.expert_review_bot hu --first 1000 --last 2000

plays the games of ``python -m benchmarks.bench_expert MATCH`` (those of ``phase10
tournament --seed 7``, game for game) with the expert's seat taken by a player that makes
the review's best move at each decision (:func:`phase10.search.decisions.weigh_decision`:
take or draw, lay down or wait, each hit and the discard; every legal move played over 48
deals, lay-downs with the rest of their turn, the strong bot's choice standing unless
beaten beyond the noise after a closer look), the move a hint gives first. Each game's
result and decision times go to ``benchmarks/results/review-bot-MATCH-seed7.jsonl``; run
again, it goes on from there (two runs on disjoint ranges can share the file). It prints
the win rate with its 95% Wilson interval and the decision times.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import numpy as np

from phase10.bots import Player, make_player, play_game
from phase10.core import Action, Game, PlayerView, Rules
from phase10.kernel import bounded_steps
from phase10.search.decisions import REVIEW_STEPS, decision_rng, weigh_decision
from phase10.sim.kernel_play import kernel_greedy
from phase10.sim.stats import wilson_interval
from phase10.sim.tournament import check_bots, plan_games

from .bench_expert import MATCHES, RESULTS, SEED


class ReviewBot:
    """Makes the review's best move at each decision (the hint's first step)."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def choose(self, view: PlayerView) -> Action:
        start = time.perf_counter()
        with bounded_steps(REVIEW_STEPS):
            weighed = weigh_decision(view, None, decision_rng(view), 48)
        self.times.append(time.perf_counter() - start)
        return weighed.action(weighed.best)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("match", choices=sorted(MATCHES))
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=2000, help="the game after the last")
    args = parser.parse_args(argv)
    bots, _ = MATCHES[args.match]
    specs = check_bots(bots, None)
    if not specs[0].startswith("expert"):
        parser.error(f"{args.match} has no expert seat to take")
    kept = RESULTS / f"review-bot-{args.match}-seed{SEED}.jsonl"
    RESULTS.mkdir(exist_ok=True)
    done = {json.loads(line)["game"] for line in _lines(kept)}
    with kept.open("a") as out:
        for plan in plan_games(len(specs), max(args.last, 1), SEED)[args.first : args.last]:
            if plan.index in done:
                continue
            game = Game(len(plan.seating), rules=Rules(), seed=plan.seed)
            bot = ReviewBot()
            players: list[Player] = [
                bot if entry == 0 else make_player(specs[entry], random.Random(bot_seed))
                for entry, bot_seed in zip(plan.seating, plan.bot_seeds, strict=True)
            ]
            play_game(game, kernel_greedy(game, players))
            first = plan.seating.index(0)
            row = {
                "game": plan.index,
                "first_wins": (first in game.winners) / len(game.winners),
                "ms": [round(t * 1000, 2) for t in bot.times],
            }
            out.write(json.dumps(row) + "\n")
            out.flush()
    rows = [json.loads(line) for line in _lines(kept)]
    wins = sum(row["first_wins"] for row in rows)
    low, high = wilson_interval(wins, len(rows))
    times = np.array([t for row in rows for t in row["ms"]])
    p50, p95 = np.percentile(times, [50, 95])
    print(
        f"{args.match}: the review's search wins {wins / len(rows):.1%} ({low:.1%}-{high:.1%}) "
        f"of {len(rows)} games; decisions p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
        f"max {times.max():.0f} ms ({len(times)} decisions)"
    )


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


if __name__ == "__main__":
    main()

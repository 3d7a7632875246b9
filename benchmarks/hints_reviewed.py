"""Following every hint, then reviewing the game: how many hinted moves the review calls
mistakes, and how long a hint takes.

    python -m benchmarks.hints_reviewed --games 3
    python -m benchmarks.hints_reviewed --against strong --games 4 --first 20
    python -m benchmarks.hints_reviewed --players 4 --games 3 --first 40

plays seat 0 by the searched hint's first step at each of its decisions
(:func:`phase10.search.searched_hint`, asked afresh each time), the other seats by
``--against`` bots, game g dealt from seed ``--seed`` + g, then reviews seat 0
(:func:`phase10.search.review.review`, its defaults: 48 deals, seed 0). The hint weighs
each decision as the review does, on the same deals, so the review should find every
hinted move the best: it prints each decision where it does not, and the totals.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from phase10.bots import Player, make_player, play_game
from phase10.core import Action, Game, GameRecord, PlayerView
from phase10.search import searched_hint
from phase10.search.review import review


class HintFollower:
    """Plays the hint's first step, asked afresh at each decision; times each hint."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def choose(self, view: PlayerView) -> Action:
        start = time.perf_counter()
        action = searched_hint(view).steps[0].action
        self.times.append(time.perf_counter() - start)
        return action


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--against", default="greedy", help="the other seats' bot")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--seed", type=int, default=10_000)
    args = parser.parse_args(argv)
    if args.games < 1 or not 2 <= args.players <= 6:
        parser.error("--games must be at least 1 and --players from 2 to 6")
    decisions = differ = mistakes = 0
    times: list[float] = []
    for number in range(args.first, args.first + args.games):
        names = ["You", *(f"Bot {seat}" for seat in range(1, args.players))]
        game = Game(names, seed=args.seed + number)
        follower = HintFollower()
        seats: list[Player] = [follower] + [
            make_player(args.against, random.Random(number * 10 + seat))
            for seat in range(1, args.players)
        ]
        play_game(game, seats)
        done = review(GameRecord.from_game(game), 0)
        times += follower.times
        for decision in done.decisions:
            if decision.played != decision.best:
                print(
                    f"  game {number}, step {decision.step}: played {decision.played}, "
                    f"the review's best {decision.best} (lost {decision.loss:.3f}"
                    f"{', a mistake' if decision.mistake else ''})"
                )
        decisions += len(done.decisions)
        differ += sum(d.played != d.best for d in done.decisions)
        mistakes += len(done.mistakes)
        print(f"game {number}: {len(done.decisions)} decisions reviewed", flush=True)
    p50, p95 = np.percentile(times, [50, 95])
    print(
        f"{args.games} {args.players}-player games against {args.against}: {decisions} "
        f"hinted decisions reviewed, {differ} not the review's best, {mistakes} mistakes; "
        f"a hint took p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()

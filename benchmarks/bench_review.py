"""How long a game review takes (goal: a whole 4-player game in under a minute).

Plays 4-player games between greedy bots (seeded), then reviews them with
:func:`phase10.search.review` at its default settings: one player (what ``phase10
review`` does) and every player in turn (what a table of four reviewing at once asks); and
one player of one game under the slowest house list to review.
Wall time on one process; the search releases the GIL but runs on one core.

    python -m benchmarks review            # 3 games
    python -m benchmarks.bench_review 10   # 10 games
"""

from __future__ import annotations

import random
import sys
import time

from phase10.bots import play_game
from phase10.bots.greedy import GreedyPlayer
from phase10.core import Game, preset
from phase10.core.records import GameRecord
from phase10.kernel import available
from phase10.search.review import review
from phase10.server.limits import Limits

GOAL_SECONDS = 60.0


#: the house list whose phases are the hardest to weigh (colour runs beside sets of two,
#: colour parities): the slowest review of the presets
HOUSE_LIST = "edition-3"


def _record(seed: int, rules: str = "official") -> GameRecord:
    game = Game(["You", "Ann", "Bob", "Cy"], seed=seed, rules=preset(rules))
    play_game(game, [GreedyPlayer(random.Random(seed * 10 + seat)) for seat in range(4)])
    return GameRecord.from_game(game)


def main(games: int = 3) -> dict[str, str]:
    if not available():
        return {"skipped": "the kernel is not built"}
    one: list[float] = []
    every: list[float] = []
    decisions = mistakes = 0
    for seed in range(1, games + 1):
        record = _record(seed)
        total = 0.0
        for seat in range(4):
            start = time.perf_counter()
            done = review(record, seat)
            took = time.perf_counter() - start
            total += took
            decisions += len(done.decisions)
            mistakes += len(done.mistakes)
            if seat == 0:
                one.append(took)
        every.append(total)
    start = time.perf_counter()
    review(_record(1, HOUSE_LIST), 0)
    house = time.perf_counter() - start
    return {
        "games": f"{games} 4-player games of greedy bots, {len(record.actions)} actions in the last",
        "one player": f"{sum(one) / games:.1f} s a game on average, worst {max(one):.1f} s "
        f"(goal under {GOAL_SECONDS:.0f} s: {'met' if max(one) < GOAL_SECONDS else 'NOT met'})",
        "all four players": f"{sum(every) / games:.1f} s a game on average, worst {max(every):.1f} s",
        f"one player, under {HOUSE_LIST}": f"{house:.1f} s (one game, seed 1; the slowest "
        f"phase list to review; the server stops a review after "
        f"{Limits().review_seconds:g} s)",
        "decisions weighed": f"{decisions} ({decisions / sum(every):.0f} a second), "
        f"{mistakes} flagged as mistakes",
    }


if __name__ == "__main__":
    result = main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    for key, value in result.items():
        print(f"  {key}: {value}")

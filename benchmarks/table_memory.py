"""What one game in memory costs the server, by its bots: the bound behind ``max_tables``.

A browser table keeps its game (every event) and its bots (the strong bot's and the
expert's reading of the other hands grows with what they have seen) in memory while it
is played. For each bot, whole 4-player games between four copies of it, kept alive one
after another in a fresh process; the memory each game adds is the growth of the
process's resident set from the first quarter of the games to the last, over the games
between (so the interpreter's own start and the bots' first imports do not count).

Usage::

    python -m benchmarks.table_memory                     # greedy, strong, expert
    python -m benchmarks.table_memory --games 48 --bots strong
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
from collections.abc import Sequence

from phase10.bots import make_player
from phase10.core import Game


def _rss_kib() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4


def measure(bot: str, games: int) -> dict[str, float]:
    """Play ``games`` whole games of four ``bot`` seats, all kept; the KiB each adds."""
    kept: list[tuple[Game, list[object]]] = []
    first = max(1, games // 4)
    start = 0
    for number in range(games):
        game = Game(4, seed=number)
        players = [make_player(bot, random.Random(number * 4 + seat)) for seat in range(4)]
        while not game.is_over:
            game.apply(players[game.current].choose(game.view(game.current)))
        kept.append((game, list(players)))
        if number + 1 == first:
            gc.collect()
            start = _rss_kib()
    gc.collect()
    grown = _rss_kib() - start
    return {"games": games, "kib_per_game": round(grown / (games - first), 1)}


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--bots", nargs="+", default=["greedy", "strong", "expert"])
    parser.add_argument("--one", help=argparse.SUPPRESS)  # (the child process's own run)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one, args.games)))
        return {}
    results = {}
    for bot in args.bots:
        command = [sys.executable, "-m", "benchmarks.table_memory", "--one", bot]
        out = subprocess.run(
            [*command, "--games", str(args.games)], check=True, capture_output=True, text=True
        )
        results[bot] = json.loads(out.stdout)
        print(f"{bot}: {results[bot]['kib_per_game']:.0f} KiB a game", flush=True)
    return results


if __name__ == "__main__":
    main()

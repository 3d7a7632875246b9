"""How much of their step budget the bots' decisions use, and how long the worst take.

Every built-in bot decides inside a budget of search steps
(:data:`phase10.bots.bounded.BOT_STEPS`): past it, it plays a plain move. For each bot
and each preset (and some house phases built to make the searches explode), 4-player
games between four copies of the bot, each decision's steps counted: the most any took,
how many ran out of budget, and the slowest decision in seconds.

The budget must be out of reach under every preset (no decision falls back) and bound
the house phases' decisions to well under a second.

Usage::

    python -m benchmarks bounded                       # a short run (make bench)
    python -m benchmarks.bench_bounded --games 4 --bots greedy strong random
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path

from phase10.bots import make_player
from phase10.bots.bounded import BOT_STEPS
from phase10.core import Game, Phase, Rules
from phase10.core.budget import step_budget
from phase10.core.rules import PRESETS
from phase10.solver.blas import single_blas_thread

RESULTS = Path(__file__).resolve().parent / "results"
#: phases whose lay-down or phase searches grow exponentially (a visitor may name any)
HOSTILE = ("11 sets of 1", "5 even or odd of 1", "3 runs of 2 + 2 sets of 1")
#: the most actions a game is played to here (a hostile phase may never be made)
MAX_ACTIONS = 200
#: a budget no decision runs out of (it only counts)
UNBOUNDED = 10**15


def _rules(name: str) -> Rules:
    return PRESETS[name] if name in PRESETS else Rules(phase_list=(Phase.parse(name),) * 10)


def measure(bot: str, rules_name: str, games: int) -> dict[str, object]:
    """Four copies of ``bot`` play ``games`` games under a preset or a house phase.

    Each decision runs inside a budget of its own, too large to run out: the bot's
    budget counts against it as well, so it counts every step the decision took (a
    decision over :data:`~phase10.bots.bounded.BOT_STEPS` ran out and played a plain move).
    """
    steps: list[int] = []
    seconds: list[float] = []
    rules = _rules(rules_name)
    for number in range(games):
        game = Game(4, rules=rules, seed=number)
        players = [make_player(bot, random.Random(number * 4 + seat)) for seat in range(4)]
        while not game.is_over and len(game.actions) < MAX_ACTIONS:
            view = game.view(game.current)
            start = time.perf_counter()
            with step_budget(UNBOUNDED) as counted:
                action = players[game.current].choose(view)
            seconds.append(time.perf_counter() - start)
            steps.append(counted.used)
            game.apply(action)
    within = [used for used in steps if used <= BOT_STEPS]
    return {
        "decisions": len(steps),
        "most_steps": max(within, default=0),
        "out_of_budget": len(steps) - len(within),
        "slowest_s": round(max(seconds, default=0.0), 3),
    }


def run(bots: Sequence[str], names: Sequence[str], games: int) -> dict[str, object]:
    results: dict[str, object] = {"budget_steps": BOT_STEPS}
    with single_blas_thread():  # as tournaments, play and serve run the bots
        for bot in bots:
            for name in names:
                results[f"{bot} {name}"] = measure(bot, name, games)
    return results


def main(argv: Sequence[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_bounded")
    parser.add_argument("--games", type=int, default=1, help="games per bot and rules")
    parser.add_argument("--bots", nargs="+", default=["greedy", "strong"])
    parser.add_argument(
        "--rules",
        nargs="+",
        default=["official", "edition-3", "edition-10", *HOSTILE],
        help="presets or house phases (one phase played ten times); 'all' for every preset",
    )
    args = parser.parse_args([] if argv is None else argv)
    names = [*PRESETS, *HOSTILE] if args.rules == ["all"] else args.rules
    results = run(args.bots, names, args.games)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bounded.json").write_text(json.dumps(results, indent=2) + "\n")
    return results


if __name__ == "__main__":
    import sys

    for key, value in main(sys.argv[1:]).items():
        print(f"{key}: {value}")

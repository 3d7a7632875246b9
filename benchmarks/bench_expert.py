"""The expert bot's strength against its goals, side by side with the strong bot's: the
games of ``phase10 tournament --seed 7`` (duplicate deals, seats rotated, official rules),
played one by one, the win rate of the first bot with its 95% Wilson interval.

- expert vs greedy, heads-up (goal: at least 75%), and strong vs greedy beside it;
- expert vs three greedy, 4 players (goal: at least 40%), and strong vs three greedy;
- expert vs strong, heads-up (goal: at least 55%).

``python -m benchmarks expert`` plays ``PHASE10_BENCH_EXPERT_GAMES`` games of each match
(default 20: some minutes; the goals are for 2,000). ``python -m benchmarks.bench_expert
MATCH --games N --minutes M`` plays one match (``hu``, ``strong-hu``, ``4p``, ``strong-4p``,
``vs-strong``) until N games or M minutes, keeping each game's result in
``benchmarks/results/expert-MATCH-seed7.jsonl``: run again, it goes on from there. The
games are the tournament's, game for game, whether played here or by the CLI.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from phase10.core import Rules
from phase10.sim.stats import wilson_interval
from phase10.sim.tournament import check_bots, plan_games, play_planned

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 7

#: name: (bots, goal for the first bot's win rate)
MATCHES: dict[str, tuple[str, float | None]] = {
    "hu": ("expert,greedy", 0.75),
    "strong-hu": ("strong,greedy", None),
    "4p": ("expert,greedy,greedy,greedy", 0.40),
    "strong-4p": ("strong,greedy,greedy,greedy", None),
    "vs-strong": ("expert,strong", 0.55),
}


def play_match(name: str, games: int, minutes: float | None = None) -> dict[str, object]:
    """Play match ``name`` on from the games already kept, to ``games`` or ``minutes``."""
    bots, goal = MATCHES[name]
    specs = check_bots(bots, None)
    RESULTS.mkdir(exist_ok=True)
    kept = RESULTS / f"expert-{name}-seed{SEED}.jsonl"
    done = [json.loads(line) for line in kept.read_text().splitlines()] if kept.exists() else []
    start = time.monotonic()
    plans = plan_games(len(specs), games, SEED)
    with kept.open("a") as out:
        for plan in plans[len(done) :]:
            if minutes is not None and time.monotonic() - start > 60 * minutes:
                break
            summary = play_planned(plan, specs, Rules())
            row = {
                "game": plan.index,
                "first_wins": (0 in summary.winners) / len(summary.winners),
                "seconds": summary.seconds,
            }
            out.write(json.dumps(row) + "\n")
            out.flush()
            done.append(row)
    wins = sum(row["first_wins"] for row in done)
    low, high = wilson_interval(wins, len(done)) if done else (0.0, 1.0)
    return {
        "bots": bots,
        "games": len(done),
        "win_rate": round(wins / len(done), 4) if done else None,
        "ci95": [round(low, 4), round(high, 4)],
        "goal": goal,
        "seconds_per_game": round(sum(r["seconds"] for r in done) / max(len(done), 1), 2),
    }


def main() -> dict[str, object]:
    games = int(os.environ.get("PHASE10_BENCH_EXPERT_GAMES", "20"))
    return {name: play_match(name, games) for name in MATCHES}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("match", choices=sorted(MATCHES))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--minutes", type=float, default=None)
    args = parser.parse_args()
    print(json.dumps(play_match(args.match, args.games, args.minutes), indent=2))

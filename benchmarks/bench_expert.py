"""The expert bot's strength against its goals, side by side with the strong bot's, in one
run: tournaments of duplicate deals with the seats rotated (``phase10 tournament``), the
win rate of the first bot with its 95% Wilson interval.

- expert vs greedy, heads-up (goal: at least 75%), and strong vs greedy beside it;
- expert vs three greedy, 4 players (goal: at least 40%), and strong vs three greedy;
- expert vs strong, heads-up (goal: at least 55%).

The games (seed 7, deals the bots never tuned on) number ``PHASE10_BENCH_EXPERT_GAMES``
each (default 200: some minutes; the README's figures are 2,000), on every core.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from phase10.sim.tournament import run_tournament

RESULTS = Path(__file__).resolve().parent / "results"
SEED = 7

#: (label, bots, goal for the first bot's win rate)
MATCHES = (
    ("expert vs greedy, heads-up", "expert,greedy", 0.75),
    ("strong vs greedy, heads-up", "strong,greedy", None),
    ("expert vs three greedy", "expert,greedy,greedy,greedy", 0.40),
    ("strong vs three greedy", "strong,greedy,greedy,greedy", None),
    ("expert vs strong, heads-up", "expert,strong", 0.55),
)


def main() -> dict[str, object]:
    games = int(os.environ.get("PHASE10_BENCH_EXPERT_GAMES", "200"))
    results: dict[str, object] = {"games_each": games, "seed": SEED}
    for label, bots, goal in MATCHES:
        result = run_tournament(bots, games=games, seed=SEED, jobs=0)
        first = result.entries[0]
        row = {
            "win_rate": round(first.win_rate, 4),
            "ci95": [round(first.ci_low, 4), round(first.ci_high, 4)],
            "goal": goal,
            "minutes": round(result.seconds / 60, 1),
        }
        results[label] = row
        print(
            f"  {label:28} {first.win_rate:6.1%} ({first.ci_low:.1%}-{first.ci_high:.1%})"
            + (f"  goal >= {goal:.0%}" if goal else ""),
            flush=True,
        )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "expert.json").write_text(json.dumps(results, indent=2) + "\n")
    return results

"""The Phase 10 Dice solver: how long a phase's tables take on first use, and how long a
hint takes after, for each phase at each roll (2 rolls left, 1, 0), and the whole odds table.
Phase 8 has a second row, ``8 points``: its keeps for the most points, valued die by die
(:mod:`phase10.solver.dice_colour`), with their own table of every roll.

A hint is :func:`phase10.solver.dice.advise` on a random roll of the real dice: the best
keep and every other distinct keep with its chance and expected points. Times are the
median of ``HINTS`` hints on different rolls (seeded).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from pathlib import Path

from phase10.dice import DICE
from phase10.solver import dice as solver
from phase10.solver.dice import Objective, advise, odds_table
from phase10.solver.dice_colour import best_one_roll
from phase10.solver.dice_models import model
from phase10.solver.dice_win import LastTry, Rival, win_chance

RESULTS = Path(__file__).resolve().parent / "results"
HINTS = 50
LAST_TRIES = 20


def _first_use(phase: int, objective: Objective) -> float:
    start = time.perf_counter()
    if model(phase).has_points:
        for goal in Objective:
            solver._tables(phase, goal)
    elif objective is Objective.PROBABILITY:
        solver._tables(phase, objective)
    else:
        best_one_roll()
    return time.perf_counter() - start


def _hint_ms(
    phase: int, rolls_left: int, rng: random.Random, objective: Objective = Objective.PROBABILITY
) -> float:
    times = []
    for _ in range(HINTS):
        faces = [rng.choice(die.faces) for die in DICE]
        kept = tuple(sorted(rng.sample(range(10), rng.randrange(4)))) if rolls_left == 2 else ()
        start = time.perf_counter()
        advise(phase, faces, rolls_left=rolls_left, kept=kept, dice=range(10), objective=objective)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def _last_try_ms(rng: random.Random) -> list[float]:
    """The time to solve a last-try turn for the win, each situation new (uncached)."""
    times = []
    for _ in range(LAST_TRIES):
        rivals = tuple(
            Rival(rng.randrange(150, 450), rng.choice((None, rng.randrange(1, 11))))
            for _ in range(rng.randrange(1, 4))
        )
        situation = LastTry(rng.randrange(1, 11), rng.randrange(150, 450), False, rivals)
        start = time.perf_counter()
        win_chance(situation)
        times.append(time.perf_counter() - start)
    return [1000 * t for t in times]


def main() -> dict[str, object]:
    rng = random.Random(0)
    rows: dict[str, dict[str, float]] = {}
    cells = [(phase, Objective.PROBABILITY) for phase in range(1, 11)]
    cells.insert(8, (8, Objective.POINTS))
    for phase, objective in cells:
        first = _first_use(phase, objective)
        name = f"{phase} points" if objective is Objective.POINTS else str(phase)
        rows[name] = {
            "first_use_s": round(first, 3),
            **{
                f"hint_ms_{r}_left": round(_hint_ms(phase, r, rng, objective), 2) for r in (2, 1, 0)
            },
        }
    solver.turn_odds.cache_clear()
    start = time.perf_counter()
    odds_table()
    table_s = time.perf_counter() - start
    print(f"  {'phase':>8} {'first use':>10} {'hint, 2 left':>13} {'1 left':>8} {'0 left':>8}")
    for name, row in rows.items():
        print(
            f"  {name:>8} {row['first_use_s']:>9.3f}s {row['hint_ms_2_left']:>11.2f}ms "
            f"{row['hint_ms_1_left']:>6.2f}ms {row['hint_ms_0_left']:>6.2f}ms"
        )
    start = time.perf_counter()
    win_chance(LastTry(1, 0, False, (Rival(0, 1),)))  # every phase's tables, phase 8's points
    warm_s = time.perf_counter() - start
    last_try = _last_try_ms(rng)
    print(
        f"  win bot: warm-up {warm_s:.2f}s, a last try's turn {statistics.median(last_try):.0f}ms"
        f" median, {max(last_try):.0f}ms at most"
    )
    results = {
        "hints_per_cell": HINTS,
        "phases": rows,
        "odds_table_s": round(table_s, 2),
        "win_warm_up_s": round(warm_s, 2),
        "win_last_try_ms": {
            "median": round(statistics.median(last_try), 1),
            "max": round(max(last_try), 1),
        },
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "dice.json").write_text(json.dumps(results, indent=2) + "\n")
    slowest = max(max(v for k, v in row.items() if k.startswith("hint")) for row in rows.values())
    return {
        "slowest median hint": f"{slowest:.2f} ms",
        "all tables, first use": f"{sum(r['first_use_s'] for r in rows.values()):.2f} s",
        "odds table (tables built)": f"{table_s:.2f} s",
        "win bot, a last try's turn (median)": f"{statistics.median(last_try):.0f} ms",
    }

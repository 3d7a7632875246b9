"""Tournament throughput: the speed-up of worker processes, full greedy games per second
on one core with the Python bots and in the compiled kernel, the same with greedy seats
beside other bots, and hands dealt per second when random bots play.

Every figure comes from :func:`phase10.sim.tournament.run_tournament` under the full
official rules with 4 players. The speed-up is measured on the Python bots
(``kernel=False``: the work of a bot that is not in the kernel); the 1- and 2-worker runs
play the very same games, and the kernel's games are the Python bots' (the benchmark
checks both).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from phase10.kernel import available
from phase10.sim.tournament import TournamentResult, run_tournament

RESULTS = Path(__file__).resolve().parent / "results"

#: Greedy games for the speed-up (a multiple of 4: duplicate deals). Starting the worker
#: processes costs about a quarter of a second, so the run is long enough (some 20 s on
#: one core) for the speed-up to be that of a real tournament, not of the start-up.
SPEEDUP_GAMES = 400
#: Random-bot games for the deal rate (their games are long: ~20 hands, ~5,000 actions).
RANDOM_GAMES = 6
#: All-greedy games in the kernel (a couple of milliseconds each); the first
#: ``SPEEDUP_GAMES`` must be the Python bots' games.
KERNEL_GAMES = 2000
#: Games with greedy seats beside another bot, each way (the strong bot's take seconds).
MIXED = (("random", 8), ("strong", 4))


def _figures(result: TournamentResult) -> dict[str, float]:
    hands = sum(game.hands for game in result.games)
    cpu = sum(game.cpu_seconds for game in result.games)  # in the processes that played
    return {
        "games": len(result.games),
        "seconds": round(result.seconds, 2),
        "games_per_s": round(result.games_per_second, 2),
        "hands_per_s": round(hands / result.seconds, 1),
        "games_per_cpu_s": round(len(result.games) / cpu, 2),
        "hands_per_cpu_s": round(hands / cpu, 1),
        "hands_per_game": round(result.mean_hands, 1),
        "actions_per_game": round(result.mean_actions),
    }


def _mixed(other: str, games: int) -> tuple[dict[str, object], list[tuple[str, TournamentResult]]]:
    """``other`` against three greedy bots, the greedy seats choosing in the kernel and in
    Python (the same games)."""
    bots = [other, "greedy", "greedy", "greedy"]
    fast = run_tournament(bots, games=games, seed=1, jobs=1)
    slow = run_tournament(bots, games=games, seed=1, jobs=1, kernel=False)
    if fast != slow:
        raise AssertionError(f"{other} + 3 greedy: the kernel's greedy seats played other games")
    python, kernel = _figures(slow), _figures(fast)
    figures: dict[str, object] = {
        "python": python,
        "kernel": kernel,
        # per CPU second: steadier than the run's time on a machine doing other work
        "speedup_cpu": round(kernel["games_per_cpu_s"] / python["games_per_cpu_s"], 2),
    }
    return figures, [(f"{other}+3 greedy, Python", slow), (f"{other}+3 greedy, kernel", fast)]


def main() -> dict[str, object]:
    load = os.getloadavg()[0]  # other work on the machine skews every figure
    greedy = ["greedy"] * 4
    serial = run_tournament(greedy, games=SPEEDUP_GAMES, seed=1, jobs=1, kernel=False)
    parallel = run_tournament(greedy, games=SPEEDUP_GAMES, seed=1, jobs=2, kernel=False)
    if parallel != serial:
        raise AssertionError("2 workers gave another result than 1")
    kernel = run_tournament(greedy, games=KERNEL_GAMES, seed=1, jobs=1)
    if kernel.games[:SPEEDUP_GAMES] != serial.games:
        raise AssertionError("the kernel played other games than the Python bots")
    random_play = run_tournament(["random"] * 4, games=RANDOM_GAMES, seed=1, jobs=1)
    speedup = serial.seconds / parallel.seconds
    busy = sum(game.seconds for game in parallel.games) / (parallel.jobs * parallel.seconds)
    # What 2 otherwise idle CPUs would give: the workers' busy share of the run times the
    # CPU time per game in one process over that in the workers.
    cpu_ratio = _figures(parallel)["games_per_cpu_s"] / _figures(serial)["games_per_cpu_s"]
    estimate = parallel.jobs * busy * cpu_ratio
    results: dict[str, object] = {
        "cpus": os.cpu_count(),
        "load_average_before": round(load, 2),
        "greedy_4p_1_worker": _figures(serial),
        "greedy_4p_2_workers": _figures(parallel),
        "speedup_2_workers": round(speedup, 2),
        "workers_busy_fraction": round(busy, 3),
        "speedup_2_workers_cpu_bound_estimate": round(estimate, 2),
        "greedy_4p_games_per_s_per_core": round(serial.games_per_second, 2),
        "random_4p_deals_per_s": round(
            sum(g.hands for g in random_play.games) / random_play.seconds, 1
        ),
        "random_4p": _figures(random_play),
        "kernel_available": available(),
        "greedy_4p_kernel_1_worker": _figures(kernel),
        "greedy_4p_kernel_games_in_kernel": kernel.kernel_games,
        "greedy_4p_kernel_speedup_cpu": round(
            _figures(kernel)["games_per_cpu_s"] / _figures(serial)["games_per_cpu_s"], 1
        ),
    }
    rows = [
        ("greedy 4p, Python, 1 worker", serial),
        ("greedy 4p, Python, 2 workers", parallel),
        ("greedy 4p, kernel, 1 worker", kernel),
        ("random 4p, 1 worker", random_play),
    ]
    for other, games in MIXED:
        results[f"{other}_3_greedy"], mixed_rows = _mixed(other, games)
        rows.extend(mixed_rows)
    print(f"  {'run':<30}{'games':>6}{'seconds':>9}{'games/s':>9}{'hands/s':>9}{'games/cpu-s':>13}")
    for label, result in rows:
        figures = _figures(result)
        print(
            f"  {label:<30}{figures['games']:>6}{figures['seconds']:>9}"
            f"{figures['games_per_s']:>9}{figures['hands_per_s']:>9}"
            f"{figures['games_per_cpu_s']:>13}"
        )
    print(
        f"  speed-up on 2 workers: {speedup:.2f}x measured; {estimate:.2f}x on idle CPUs "
        f"(workers busy {100 * busy:.0f}% of the run, load average {load:.1f} before)"
    )
    results["load_average_after"] = round(os.getloadavg()[0], 2)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "tournament.json").write_text(json.dumps(results, indent=2) + "\n")
    return results

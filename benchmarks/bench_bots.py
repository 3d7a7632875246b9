"""Bots and the scalar solver: how fast one hand is checked, and how long bots think.

- scalar phase checks: ``can_lay`` on random 11-card hands, every standard phase, and
  ``missing`` (the exact distance the greedy bot uses), one core;
- decision time of the strong bot at every level and of the expert bot (p50 / p95 / max
  per decision), in 4-player official games against greedy bots, on one BLAS thread;
- decision time of the greedy bot.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from pathlib import Path

from phase10 import PHASE_LISTS, Game, full_deck
from phase10.bots import Player, make_player
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.strong import LEVELS
from phase10.core import Action, PlayerView
from phase10.solver import can_lay, compile_phase, hand_counts, missing
from phase10.solver.blas import single_blas_thread

RESULTS = Path(__file__).resolve().parent / "results"


def _scalar(hands: int) -> dict[str, float]:
    rng = random.Random(1)
    deck = full_deck()
    counts = [hand_counts(rng.sample(deck, 11)) for _ in range(hands)]
    compiled = [compile_phase(phase) for phase in PHASE_LISTS["standard"]]
    start = time.perf_counter()
    for hand in counts:
        for phase in compiled:
            can_lay(phase, hand)
    checks = len(counts) * len(compiled) / (time.perf_counter() - start)
    start = time.perf_counter()
    for hand in counts[: hands // 4]:
        for phase in compiled:
            missing(phase, hand)
    distances = hands // 4 * len(compiled) / (time.perf_counter() - start)
    return {"can_lay_per_s": round(checks), "missing_per_s": round(distances)}


class _Timed:
    def __init__(self, player: Player) -> None:
        self.player = player
        self.times: list[float] = []

    def choose(self, view: PlayerView) -> Action:
        start = time.perf_counter()
        action = self.player.choose(view)
        self.times.append(time.perf_counter() - start)
        return action


def _decisions(bot: str, games: int) -> dict[str, float]:
    """Decision times of ``bot`` (a registry name) in 4-player games against greedy."""
    times: list[float] = []
    for seed in range(games):
        game = Game(4, seed=seed)
        timed = _Timed(make_player(bot, random.Random(seed)))
        players = [timed] + [_Timed(GreedyPlayer(random.Random(seed * 10 + i))) for i in (1, 2, 3)]
        while not game.is_over:
            seat = game.current
            game.apply(players[seat].choose(game.view(seat)))
        times.extend(timed.times)
    times.sort()
    return {
        "decisions": len(times),
        "p50_ms": round(1000 * statistics.median(times), 2),
        "p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 2),
        "max_ms": round(1000 * times[-1], 2),
        "mean_ms": round(1000 * statistics.fmean(times), 2),
    }


def main() -> dict[str, object]:
    results: dict[str, object] = {"scalar_solver": _scalar(4000)}
    results["greedy_decision"] = _decisions("greedy", 4)
    with single_blas_thread():  # as tournaments, play and serve run the bots
        for level in LEVELS:
            results[f"strong_{level}_decision"] = _decisions(f"strong:{level}", 4)
        results["expert_decision"] = _decisions("expert", 8)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bots.json").write_text(json.dumps(results, indent=2) + "\n")
    return results

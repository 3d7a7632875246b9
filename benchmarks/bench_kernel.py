"""The compiled kernel against the Python engine: random play's speed, and a long
differential run.

``engine_random`` and ``kernel_random`` play whole 4-player games of uniformly random
legal actions under the official rules (the same seeds; one core each, one after the
other). ``differential`` plays kernel and engine side by side, the same random actions,
and compares the events, the whole state and the legal actions after every action, over every preset
the kernel plays; ``replayed`` replays whole seeded kernel games in the engine and
compares the final states. ``playouts`` times batched random play-outs from
determinized deals. ``engine_greedy`` and ``kernel_greedy`` play whole 4-player games
with every seat the greedy bot (phase10.bots.greedy): the Python bot on the engine, and
the kernel's greedy policy (the same seeds, the same games); the goal is 300 games a
second on one core. ``greedy_by_preset`` plays 20 such kernel games under each preset
(games a second, slowest first): the house lists with colour, parity and mixed groups need
the general lay-down test, a search over anchors with a flow, the slowest part. Set ``PHASE10_BENCH_KERNEL_ACTIONS`` for a longer (or shorter)
differential run.
"""

from __future__ import annotations

import os
import random
import time

from phase10 import PRESETS, Game, preset
from phase10.kernel import EngineGame, KernelGame, available, load_error, to_action
from phase10.kernel.convert import state_of

SUPPORTED = tuple(PRESETS)  # the kernel plays every preset


def _engine_random(games: int) -> dict[str, float]:
    start = time.perf_counter()
    actions = 0
    for seed in range(games):
        game = Game(4, seed=seed)
        chooser = random.Random(seed)
        while not game.is_over:
            game.apply_unchecked(chooser.choice(list(game.legal_actions)))
            actions += 1
    elapsed = time.perf_counter() - start
    return {"actions_per_s": round(actions / elapsed), "games": games, "actions": actions}


def _kernel_random(games: int) -> dict[str, float]:
    start = time.perf_counter()
    actions = 0
    for seed in range(games):
        play = KernelGame(Game(4, seed=seed))
        played, _ = play.play_random(seed)
        actions += played
    elapsed = time.perf_counter() - start
    return {"actions_per_s": round(actions / elapsed), "games": games, "actions": actions}


def _greedy(games: int, *, kernel: bool) -> dict[str, float]:
    """Whole 4-player official games, every seat greedy (the seat's generator seeded from
    the game's seed): through the kernel, or the Python bot on the engine."""
    start = time.perf_counter()
    actions = 0
    for seed in range(games):
        game = Game(4, seed=seed)
        play = KernelGame(game) if kernel else EngineGame(game)
        played, _ = play.play_greedy([random.Random(seed * 4 + seat) for seat in range(4)])
        assert play.is_over
        actions += played
    elapsed = time.perf_counter() - start
    return {
        "games_per_s": round(games / elapsed, 1),
        "games": games,
        "mean_actions": round(actions / games),
    }


def _greedy_by_preset(games: int) -> dict[str, float]:
    """Kernel greedy games a second under each preset (4 players), slowest first."""
    speeds: dict[str, float] = {}
    for name in SUPPORTED:
        start = time.perf_counter()
        for seed in range(games):
            play = KernelGame(Game(4, seed=seed, rules=preset(name)))
            play.play_greedy([random.Random(seed * 4 + seat) for seat in range(4)])
        speeds[name] = round(games / (time.perf_counter() - start), 1)
    return dict(sorted(speeds.items(), key=lambda item: item[1]))


def _playouts(count: int) -> dict[str, float]:
    """Random play-outs to the game's end from fresh determinizations of a 4-player game
    forty actions in, for the player to move (all inside the kernel)."""
    play = KernelGame(Game(4, seed=1))
    play.play_random(1, 40)
    viewer = play.to_game().current
    start = time.perf_counter()
    results = play.playouts(viewer, [[] for _ in range(4)], count, seed=2)
    elapsed = time.perf_counter() - start
    actions = sum(played for _, _, played in results)
    return {
        "playouts_per_s": round(count / elapsed),
        "actions_per_s": round(actions / elapsed),
        "mean_actions": round(actions / count),
    }


def _differential(total: int) -> dict[str, float]:
    start = time.perf_counter()
    actions = games = 0
    while actions < total:
        name = SUPPORTED[games % len(SUPPORTED)]
        game = Game(2 + games % 5, seed=games, rules=preset(name))
        play, reference = KernelGame(game), EngineGame(game)
        chooser = random.Random(games)
        while not reference.is_over and actions < total:
            assert play.state() == reference.state(), f"game {games}: states differ"
            legal = reference.legal()
            assert play.legal() == legal, f"game {games}: legal actions differ"
            key = chooser.choice(legal)
            assert play.apply(key) == reference.apply(key), f"game {games}: events differ"
            actions += 1
        assert play.state() == reference.state()
        games += 1
    return {"actions": actions, "games": games, "seconds": round(time.perf_counter() - start, 1)}


def _replayed(games: int) -> dict[str, float]:
    actions = 0
    for seed in range(games):
        game = Game(2 + seed % 5, seed=seed, rules=preset(SUPPORTED[seed % len(SUPPORTED)]))
        play = KernelGame(game)
        _, chosen = play.play_random(seed, record=True)
        assert chosen is not None
        replay = game.copy()
        for key in chosen:
            replay.apply(to_action(key))
        assert state_of(replay) == play.state(), f"game {seed}: the replay differs"
        actions += len(chosen)
    return {"games": games, "actions": actions}


def main() -> dict[str, object]:
    if not available():
        return {"kernel": f"not available: {load_error()}"}
    engine = _engine_random(3)
    kernel = _kernel_random(200)
    total = int(os.environ.get("PHASE10_BENCH_KERNEL_ACTIONS", "100000"))
    return {
        "engine_random": engine,
        "kernel_random": kernel,
        "speedup": round(kernel["actions_per_s"] / engine["actions_per_s"], 1),
        "playouts": _playouts(100),
        "engine_greedy": (slow := _greedy(10, kernel=False)),
        "kernel_greedy": (fast := _greedy(500, kernel=True)),
        "greedy_speedup": round(fast["games_per_s"] / slow["games_per_s"], 1),
        "greedy_by_preset": _greedy_by_preset(20),
        "differential": _differential(total),
        "replayed": _replayed(20),
    }

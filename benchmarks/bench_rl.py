"""Reinforcement-learning environment throughput: steps per second with random legal
actions in one process, for the stepping core (what every adapter runs), the PettingZoo
AEC environment and the vectorised batch; and for the OpenSpiel game, the time of one
``clone()`` along a whole game and of OpenSpiel's ``random_sim_test`` on a whole
two-player official game.

A step is one action of the player to act: its mask and observation are built, a
uniformly random legal action is chosen from the mask and applied. Games that end are
started again, so the figures cover whole games (official rules, all ten phases).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import numpy as np
import pyspiel

import phase10.rl.openspiel  # noqa: F401 - registers python_phase10
from phase10.rl import EnvCore, VectorPhase10, phase10_v1

RESULTS = Path(__file__).resolve().parent / "results"


def _core(players: int, steps: int) -> dict[str, float]:
    core = EnvCore(players)
    core.reset(seed=players)
    rng = random.Random(players)
    games = 0
    start = time.perf_counter()
    for _ in range(steps):
        if core.done:
            core.reset()
            games += 1
        legal = np.flatnonzero(core.mask())
        core.observe(core.current)
        core.step(int(legal[rng.randrange(len(legal))]))
    elapsed = time.perf_counter() - start
    return {"steps_per_s": round(steps / elapsed), "games_finished": games}


def _aec(players: int, steps: int) -> dict[str, float]:
    env = phase10_v1.raw_env(players=players)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    start = time.perf_counter()
    done = 0
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            done += 1
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    elapsed = time.perf_counter() - start
    return {"steps_per_s": round(steps / elapsed)}


def _vector(players: int, envs: int, batches: int) -> dict[str, float]:
    vec = VectorPhase10(envs, players=players)
    vec.reset(seed=players)
    rng = np.random.default_rng(players)
    start = time.perf_counter()
    for _ in range(batches):
        vec.step(vec.random_actions(rng))
    elapsed = time.perf_counter() - start
    return {"steps_per_s": round(envs * batches / elapsed), "envs": envs}


def _openspiel_clone(players: int, seed: int) -> dict[str, float]:
    """Milliseconds per ``state.clone()`` at every 50th node of a whole random game (the
    best of three at each, so that a busy machine or a garbage collection counts less)."""
    state = pyspiel.load_game("python_phase10", {"players": players}).new_initial_state()
    rng = random.Random(seed)
    times: list[float] = []
    nodes = 0
    while not state.is_terminal():
        if nodes % 50 == 0:
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                state.clone()
                best = min(best, time.perf_counter() - start)
            times.append(best)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        nodes += 1
    times.sort()
    return {
        "clone_ms_median": round(1000 * times[len(times) // 2], 3),
        "clone_ms_p90": round(1000 * times[len(times) * 9 // 10], 3),
        "nodes": nodes,
    }


def _openspiel_random_sim_test() -> dict[str, float]:
    game = pyspiel.load_game("python_phase10")
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    return {"seconds": round(time.perf_counter() - start, 1)}


def main() -> dict[str, object]:
    openspiel = {
        "openspiel_clone_2p": _openspiel_clone(2, 0),
        "openspiel_clone_4p": _openspiel_clone(4, 1),
        "openspiel_random_sim_test_2p": _openspiel_random_sim_test(),
    }
    results: dict[str, object] = {
        "core_2p": _core(2, 60_000),
        "core_4p": _core(4, 60_000),
        "core_6p": _core(6, 40_000),
        "pettingzoo_aec_4p": _aec(4, 40_000),
        "vector_2p_x64": _vector(2, 64, 600),
        "vector_4p_x64": _vector(4, 64, 600),
    }
    rows = [f"  {name:<20} {value['steps_per_s']:>8,} steps/s" for name, value in results.items()]  # type: ignore[index]
    rows += [f"  {name:<28} {value}" for name, value in openspiel.items()]
    print("\n".join(rows))
    results.update(openspiel)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "rl.json").write_text(json.dumps(results, indent=2) + "\n")
    return results

"""Reinforcement-learning environment throughput: steps per second with random legal
actions in one process, for the stepping core (what every adapter runs), the PettingZoo
AEC environment and the vectorised batch, side by side with OpenSpiel's C++ ``gin_rummy``
played through ``pyspiel`` in the same run; and for the OpenSpiel game, the time of one
``clone()`` along a whole game and of OpenSpiel's ``random_sim_test`` on a whole
two-player official game.

A step is one action of the player to act: its mask and observation are built, a
uniformly random legal action is chosen from the mask and applied. Games that end are
started again, so the figures cover whole games (official rules, all ten phases). The
rates are steps per second of the process's CPU time (one core; a machine busy with other
work slows them less than wall-clock time would), each the best of three runs made in
turn with all the others.

``gin_rummy`` is measured two ways: with the observation tensor and the legal-action mask
read at every decision, as an RL loop reads them and as every step of this project's
environments builds them (``gin_rummy_obs``), and with the legal actions alone
(``gin_rummy_legal``). Chance nodes (the deal, the draws) are sampled but not counted.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel

import phase10.rl.openspiel  # noqa: F401 - registers python_phase10
from phase10.rl import EnvCore, VectorPhase10, phase10_v1, phase10_v3

RESULTS = Path(__file__).resolve().parent / "results"


def _rate(steps: int, start: float) -> int:
    return round(steps / (time.process_time() - start))


def _core(players: int, steps: int, *, kernel: bool | None = None) -> dict[str, float]:
    core = EnvCore(players, kernel=kernel)
    core.reset(seed=players)
    rng = random.Random(players)
    games = 0
    start = time.process_time()
    for _ in range(steps):
        if core.done:
            core.reset()
            games += 1
        legal = np.flatnonzero(core.mask())
        core.observe(core.current)
        core.step(int(legal[rng.randrange(len(legal))]))
    return {"steps_per_s": _rate(steps, start), "games_finished": games}


def _aec(players: int, steps: int, *, wrapped: bool = False) -> dict[str, float]:
    """``phase10_v1.raw_env``, or ``phase10_v3.env()`` as users get it (the current version,
    PettingZoo's standard wrappers around it)."""
    env = phase10_v3.env(players=players) if wrapped else phase10_v1.raw_env(players=players)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    start = time.process_time()
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return {"steps_per_s": _rate(steps, start)}


def _vector(players: int, envs: int, batches: int, version: int | None = None) -> dict[str, float]:
    vec = VectorPhase10(envs, players=players, version=version)
    vec.reset(seed=players)
    rng = np.random.default_rng(players)
    start = time.process_time()
    for _ in range(batches):
        vec.step(vec.random_actions(rng))
    return {"steps_per_s": _rate(envs * batches, start), "envs": envs}


def _gin_rummy(steps: int, *, observe: bool) -> dict[str, float]:
    """OpenSpiel's C++ gin rummy (two players) through pyspiel, random legal actions."""
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    state = game.new_initial_state()
    games = done = 0
    start = time.process_time()
    while done < steps:
        if state.is_terminal():
            state = game.new_initial_state()
            games += 1
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            player = state.current_player()
            if observe:  # as the loops over this project's environments read them
                np.asarray(state.observation_tensor(player), np.float32)
                mask = np.asarray(state.legal_actions_mask(player), np.int8)
                legal = np.flatnonzero(mask).tolist()
            else:
                legal = state.legal_actions(player)
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return {"steps_per_s": _rate(steps, start), "games_finished": games}


def _best(runs: list[Callable[[], dict[str, float]]], rounds: int = 3) -> list[dict[str, float]]:
    """Each run ``rounds`` times, alternately; the faster of its results."""
    best: list[dict[str, float]] = [{"steps_per_s": 0} for _ in runs]
    for _ in range(rounds):
        for index, run in enumerate(runs):
            result = run()
            if result["steps_per_s"] > best[index]["steps_per_s"]:
                best[index] = result
    return best


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


def _rate_of(results: dict[str, object], name: str) -> float:
    result = results[name]
    assert isinstance(result, dict)
    return float(result["steps_per_s"])


def main() -> dict[str, object]:
    runs: dict[str, Callable[[], dict[str, float]]] = {
        "core_2p": lambda: _core(2, 60_000),
        "core_4p": lambda: _core(4, 60_000),
        "core_6p": lambda: _core(6, 40_000),
        "core_4p_python": lambda: _core(4, 10_000, kernel=False),
        "pettingzoo_aec_4p": lambda: _aec(4, 40_000),
        "vector_2p_x64": lambda: _vector(2, 64, 1_500),
        "vector_4p_x64": lambda: _vector(4, 64, 1_500),
        "openspiel_gin_rummy_obs": lambda: _gin_rummy(20_000, observe=True),
        "openspiel_gin_rummy_legal": lambda: _gin_rummy(40_000, observe=False),
        "pettingzoo_v3_4p_wrapped": lambda: _aec(4, 30_000, wrapped=True),
        "vector_v3_4p_x64": lambda: _vector(4, 64, 3_000, version=3),
    }
    results: dict[str, object] = dict(zip(runs, _best(list(runs.values())), strict=True))
    aec = _rate_of(results, "pettingzoo_v3_4p_wrapped")
    for peer in ("obs", "legal"):
        gin = _rate_of(results, f"openspiel_gin_rummy_{peer}")
        results[f"ratio_wrapped_to_gin_{peer}"] = round(aec / gin, 2)
    openspiel = {
        "openspiel_clone_2p": _openspiel_clone(2, 0),
        "openspiel_clone_4p": _openspiel_clone(4, 1),
        "openspiel_random_sim_test_2p": _openspiel_random_sim_test(),
    }
    rows = [
        f"  {name:<28} {value['steps_per_s']:>9,} steps/s"
        if isinstance(value, dict)
        else f"  {name:<28} {value}"
        for name, value in results.items()
    ]
    rows += [f"  {name:<28} {value}" for name, value in openspiel.items()]
    print("\n".join(rows))
    results.update(openspiel)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "rl.json").write_text(json.dumps(results, indent=2) + "\n")
    return results

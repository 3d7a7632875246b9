"""sb3-contrib's MaskablePPO against the engine's random bot, with the recommended start:
short games (the first phases only) and ``phase_reward`` shaping. Prints the learning
curve: the win rate against the bot, with a 95% Wilson interval, every ``--eval-every``
steps.

    pip install 'phase10[rl]' 'sb3-contrib>=2.4' torch==2.13.0
    python examples/rl/maskable_ppo.py --steps 60000 --phases 1 --phase-reward 0.1 --seed 0

The environments come from Stable-Baselines3's ``make_vec_env`` (which asks for
``render_mode="rgb_array"``); MaskablePPO reads the mask through the wrappers by calling
``action_masks()`` on each environment, as ``get_action_masks`` does. It makes
``Phase10-v1``, the version docs/rl.md's figures were measured with; for new work make
``Phase10-v3``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import phase10.rl  # noqa: F401 - registers phase10/Phase10-v1
from phase10 import Rules
from phase10.rl import Phase10Env
from phase10.sim.stats import wilson_interval


def env_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    rules = Rules(phases=tuple(range(1, args.phases + 1))) if args.phases < 10 else Rules()
    return {
        "players": 2,
        "opponents": args.opponent,
        "rules": rules,
        "phase_reward": args.phase_reward,
        "max_steps": args.max_steps,
    }


def win_rate(
    model: MaskablePPO, args: argparse.Namespace, games: int, seed: int
) -> dict[str, float]:
    """Games against the bot, the learner's seat drawn each game, greedy masked actions."""
    env = Phase10Env(**{**env_kwargs(args), "seat": None, "phase_reward": 0.0})
    wins = 0
    for game in range(games):
        obs, info = env.reset(seed=seed + game)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        wins += bool(info["winners"][info["seat"]])
    low, high = wilson_interval(wins, games)
    return {"win_rate": wins / games, "low": round(low, 3), "high": round(high, 3)}


class Curve(BaseCallback):
    """Measures the win rate every ``every`` steps."""

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__()
        self.args = args
        self.points: list[dict[str, float]] = []
        self.next = 0

    def measure(self, model: MaskablePPO, steps: int) -> None:
        point = {"steps": steps}
        point.update(win_rate(model, self.args, self.args.eval_games, 10_000))
        self.points.append(point)
        print(json.dumps(point), flush=True)
        self.next = steps + self.args.eval_every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.measure(self.model, self.num_timesteps)
        return True


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60_000)
    parser.add_argument("--phases", type=int, default=1, help="play phases 1..N (10: all)")
    parser.add_argument("--phase-reward", type=float, default=0.1)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--max-steps", type=int, default=2_000)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--n-steps", type=int, default=256)
    parser.add_argument("--eval-every", type=int, default=10_000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small networks: more threads only contend
    vec = make_vec_env("phase10/Phase10-v1", args.envs, seed=args.seed, env_kwargs=env_kwargs(args))
    assert get_action_masks(vec).shape == (args.envs, vec.action_space.n)  # through wrappers
    model = MaskablePPO(
        "MultiInputPolicy",
        vec,
        n_steps=args.n_steps,
        batch_size=min(256, args.n_steps * args.envs),
        learning_rate=3e-4,
        gamma=0.995,
        ent_coef=0.01,
        seed=args.seed,
        verbose=0,
    )
    curve = Curve(args)
    start = time.perf_counter()
    curve.measure(model, 0)  # before any step: the untrained policy
    model.learn(total_timesteps=args.steps, callback=curve)
    final = {"steps": model.num_timesteps}
    final.update(win_rate(model, args, args.eval_games, 10_000))
    if not curve.points or curve.points[-1]["steps"] != final["steps"]:
        curve.points.append(final)
        print(json.dumps(final), flush=True)
    summary = {
        "settings": {k: v for k, v in vars(args).items()},
        "curve": curve.points,
        "seconds": round(time.perf_counter() - start),
    }
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()

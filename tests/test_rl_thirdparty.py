"""The environments with the libraries researchers train with: PettingZoo's render test,
Gymnasium vector environments in their default autoreset mode under a masked PyTorch
sampler, Stable-Baselines3's ``make_vec_env`` with sb3-contrib's MaskablePPO, Tianshou's
DQN on the AEC environment, and the examples in examples/rl/, each for a few hundred
steps."""

from __future__ import annotations

import importlib.util
import random
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
import torch
from pettingzoo.test import api_test, render_test

from phase10 import Rules
from phase10.rl import Phase10Env, phase10_v0, phase10_v1

SHORT = Rules(phases=(1,))
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "rl"


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"rl_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_pettingzoo_render_test_and_infos_with_the_same_keys_every_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    render_test(lambda render_mode=None: phase10_v1.env(rules=SHORT, render_mode=render_mode))
    assert "player" in capsys.readouterr().out  # "human" prints the table
    env = phase10_v1.env(players=3, rules=SHORT)
    env.reset(seed=3)
    rng = random.Random(3)
    for _agent in env.agent_iter(600):
        obs, _reward, terminated, truncated, info = env.last()
        assert set(info) == {"winners"} and info["winners"].shape == (3,)
        if terminated or truncated:
            assert info["winners"].sum() == (1 if terminated else 0)
            env.step(None)
        else:
            assert not info["winners"].any()
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


def test_version_1_adds_the_known_cards_and_version_0_stays() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(phase10_v1.env(players=3, rules=SHORT), num_cycles=200)
    old, new = phase10_v0.raw_env(players=4), phase10_v1.raw_env(players=4)
    old.reset(seed=2)
    new.reset(seed=2)
    size = old.observation_space("player_0")["observation"].shape[0]
    assert new.observation_space("player_0")["observation"].shape[0] == size + 3 * 50
    rng = random.Random(2)
    taken = 0
    for _ in range(700):
        agent = new.agent_selection
        if new.terminations[agent] or new.truncations[agent]:
            break
        before, after = old.observe(agent), new.observe(agent)
        assert np.array_equal(before["observation"], after["observation"][:size])
        view = new.core.game.view(new.core.current)
        assert np.array_equal(after["observation"], new.core.layout.observe_view(view))
        taken += int(after["observation"][size:].sum() > 0)
        action = rng.choice(np.flatnonzero(after["action_mask"]).tolist())
        old.step(action)
        new.step(action)
    assert taken > 0  # cards taken from the discard pile showed up


def _masked_sample(masks: np.ndarray, generator: torch.Generator) -> np.ndarray:
    """What a masked PyTorch policy does: it raises ValueError on an all-zero mask."""
    allowed = torch.as_tensor(masks, dtype=torch.bool)
    logits = torch.zeros(allowed.shape).masked_fill(~allowed, float("-inf"))
    probs = torch.distributions.Categorical(logits=logits).probs
    return torch.multinomial(probs, 1, generator=generator).squeeze(1).numpy()


def test_gymnasium_vector_envs_never_offer_an_all_zero_mask() -> None:
    """Gymnasium's default (next-step) autoreset hands over the final observation of an
    episode first: its mask allows one placeholder action, which the reset ignores."""
    make = [lambda: gym.make("phase10/Phase10-v1", rules=SHORT, max_steps=30)] * 2
    envs = gym.vector.SyncVectorEnv(make)
    obs, _info = envs.reset(seed=0)
    generator = torch.Generator().manual_seed(0)
    ended = 0
    for _ in range(240):
        assert obs["action_mask"].sum(axis=1).min() >= 1
        obs, _reward, terminated, truncated, info = envs.step(
            _masked_sample(obs["action_mask"], generator)
        )
        ended += int((terminated | truncated).sum())
        assert set(info) >= {"seat", "action_mask", "winners", "illegal_action"}
    assert ended >= 6


def test_gymnasium_wrappers_reach_the_action_masks_and_every_render_mode() -> None:
    env = gym.make("phase10/Phase10-v1", rules=SHORT, render_mode="rgb_array")
    obs, _info = env.reset(seed=1)
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == np.bool_ and np.array_equal(masks, obs["action_mask"].astype(bool))
    image = env.render()
    assert isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[2] == 3
    assert isinstance(Phase10Env(render_mode="ansi").render(), str)
    with pytest.raises(ValueError, match="render_mode must be one of"):
        Phase10Env(render_mode="video")


def test_stable_baselines3_make_vec_env_and_maskable_ppo() -> None:
    """``make_vec_env`` asks for ``render_mode="rgb_array"``; MaskablePPO finds the masks
    through the Monitor wrapper; the example script trains and measures a few hundred
    steps (its full run is in docs/rl.md)."""
    summary = _example("maskable_ppo").main(
        [
            *("--steps", "256", "--envs", "2", "--n-steps", "64", "--eval-every", "100000"),
            *("--eval-games", "2", "--max-steps", "150"),
        ]
    )
    assert summary["curve"][0]["steps"] == 0 and summary["curve"][-1]["steps"] == 256
    assert all(0.0 <= point["win_rate"] <= 1.0 for point in summary["curve"])


def test_tianshou_dqn_on_the_aec_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tianshou's replay buffer takes every step's info (it refuses a key that comes and
    goes); the example collects, trains and tests a few hundred steps."""
    import numba

    # Tianshou compiles its buffer code with Numba when it is imported (about 20 s of CPU);
    # for a few hundred steps plain Python is faster.
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    summary: dict[str, Any] = _example("tianshou_dqn").main(
        [
            *("--epochs", "1", "--epoch-steps", "100", "--envs", "2", "--test-episodes", "1"),
            *("--max-steps", "80", "--no-progress"),
        ]
    )
    assert summary["env_steps"] >= 100 and -1.0 <= summary["best_return_seat_0"] <= 1.5


def test_the_baseline_example_counts_each_game_by_its_real_winners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The evaluation reads ``info["winners"]``, one boolean per seat: a sole win counts 1,
    a shared one 1/k, a loss 0. Its rate is checked against the engine's own winners."""
    example = _example("train_baseline")
    assert example.win_share(np.array([False, True]), 1) == 1.0
    assert example.win_share(np.array([False, True]), 0) == 0.0
    assert example.win_share(np.array([True, True, False]), 0) == 0.5
    finals: list[tuple[int, tuple[int, ...]]] = []
    step = Phase10Env.step

    def noting(self: Phase10Env, action: int) -> Any:
        result = step(self, action)
        if result[2] or result[3]:
            finals.append((self.seat, tuple(self.core.winners())))
        return result

    monkeypatch.setattr(Phase10Env, "step", noting)
    monkeypatch.setattr(example, "RULES", SHORT)
    torch.manual_seed(0)
    policy = example.Policy(
        Phase10Env(rules=SHORT, known_cards=False).observation_space["observation"].shape[0],
        Phase10Env(rules=SHORT).action_space.n,
    )
    result = example.evaluate(policy, games=12, seed=3, opponent="greedy")
    expected = sum(1 / len(won) for seat, won in finals if seat in won)
    assert len(finals) == 12
    assert result["win_rate"] == pytest.approx(expected / 12)
    assert result["win_rate"] < 0.5  # an untrained network against greedy: mostly lost

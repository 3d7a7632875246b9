"""The fast wrappers of ``phase10_vN.env()`` (phase10.rl.wrappers) against PettingZoo's own:
the same classes to ``isinstance``, the same errors in the same places, the same illegal-
action endings and the same games, step by step."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers as stock
from pettingzoo.utils.env_logger import EnvLogger

from phase10 import Rules
from phase10.rl import phase10_v0, phase10_v1, phase10_v2, phase10_v3

SHORT = Rules(phases=(1,))


def stock_env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """``phase10_v3.raw_env`` in PettingZoo's own three wrappers, as ``env()`` once was."""
    raw = phase10_v3.raw_env(**kwargs)
    wrapped = stock.TerminateIllegalWrapper(raw, illegal_reward=-1)
    return stock.OrderEnforcingWrapper(stock.AssertOutOfBoundsWrapper(wrapped))


def outcome(call: Callable[..., object], *args: object) -> tuple[object, str]:
    """What a call raised (its type and message), or that it returned."""
    try:
        call(*args)
    except Exception as error:
        return type(error), str(error)
    return "returned", ""


def snapshot(env: AECEnv[str, dict[str, Any], int]) -> tuple[object, ...]:
    """Everything a training loop reads of the environment at this point."""
    obs, reward, terminated, truncated, info = env.last()
    return (
        env.agent_selection,
        list(env.agents),
        obs["observation"].tobytes(),
        obs["action_mask"].tobytes(),
        (reward, terminated, truncated, info["winners"].tobytes()),
        (dict(env.rewards), dict(env._cumulative_rewards)),
        (dict(env.terminations), dict(env.truncations)),
    )


@pytest.mark.parametrize("module", [phase10_v0, phase10_v1, phase10_v2, phase10_v3])
def test_every_factory_wraps_in_subclasses_of_pettingzoos_wrappers(module: Any) -> None:
    env = module.env(players=2)
    assert isinstance(env, stock.OrderEnforcingWrapper)
    assert isinstance(env.env, stock.AssertOutOfBoundsWrapper)
    assert isinstance(env.env.env, stock.TerminateIllegalWrapper)
    assert type(env.unwrapped) is module.raw_env and env.env.env.env is env.unwrapped
    assert str(env) == module.raw_env.metadata["name"]


def test_the_same_errors_before_reset_and_out_of_range() -> None:
    fast, slow = phase10_v3.env(players=3), stock_env(players=3)
    before: list[Callable[[AECEnv[str, dict[str, Any], int]], object]] = [
        lambda env: env.step(0),
        lambda env: env.observe("player_0"),
        lambda env: env.last(),
        lambda env: env.agent_selection,
        lambda env: env.terminations,
        lambda env: env.num_agents,
        lambda env: env.render(),
        lambda env: env.agent_iter(),
        lambda env: env._skip_agent_selection,
    ]
    for call in before:
        assert outcome(call, fast) == outcome(call, slow) != ("returned", "")
    assert fast.possible_agents == slow.possible_agents == ["player_0", "player_1", "player_2"]
    fast.reset(seed=5)
    slow.reset(seed=5)
    size = int(fast.action_space("player_0").n)
    for action in (size, -1, None, 2**70, np.int64(size), np.int8(-1), 1.0, "0"):
        refused = outcome(fast.step, action)
        assert refused == outcome(slow.step, action)
        assert refused == (AssertionError, "action is not in action space")
    iterator = iter(fast.agent_iter())
    next(iterator)
    with pytest.raises(AssertionError, match="need to call step"):
        next(iterator)  # twice without a step, as PettingZoo's iterator refuses
    assert snapshot(fast) == snapshot(slow)  # nothing above changed the game


@pytest.mark.parametrize("action_type", [int, np.int64])
def test_an_illegal_action_ends_the_game_as_pettingzoos_wrapper_ends_it(
    action_type: Callable[[int], Any],
) -> None:
    fast, slow = phase10_v3.env(players=3), stock_env(players=3)
    for env in (fast, slow):
        env.reset(seed=2)
        for _ in range(4):  # a few legal moves first
            env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    illegal = action_type(int(np.flatnonzero(fast.last()[0]["action_mask"] == 0)[0]))
    actor = fast.agent_selection
    EnvLogger.flush()
    fast.step(illegal)
    assert any("Illegal move" in message for message in EnvLogger.mqueue)
    slow.step(illegal)
    assert fast.rewards == {agent: -1.0 if agent == actor else 0 for agent in fast.agents}
    assert all(fast.terminations.values()) and all(fast.truncations.values())
    while fast.agents:  # every agent then steps None off the table, stock and fast alike
        # except that nobody has a legal action left (the stock wrapper leaves the masks)
        assert not fast.last()[0]["action_mask"].any()
        mine, stock = snapshot(fast), snapshot(slow)
        assert mine[:3] + mine[4:] == stock[:3] + stock[4:]
        assert outcome(fast.step, 0) == outcome(slow.step, 0)
        fast.step(None)
        slow.step(None)
    assert not slow.agents
    EnvLogger.flush()
    fast.step(None)  # after the game: PettingZoo's warning, no error
    assert any("step() called after all agents" in message for message in EnvLogger.mqueue)


def test_the_same_games_as_pettingzoos_wrappers_step_by_step() -> None:
    fast, slow = phase10_v3.env(players=3, rules=SHORT), stock_env(players=3, rules=SHORT)
    fast.reset(seed=11)
    slow.reset(seed=11)
    rng = random.Random(11)
    games = 0
    for _agent, _same in zip(fast.agent_iter(600), slow.agent_iter(600), strict=True):
        state = snapshot(fast)
        assert state == snapshot(slow)
        obs, _reward, terminated, truncated, _info = fast.last()
        if terminated or truncated:
            fast.step(None)
            slow.step(None)
            if not fast.agents:
                games += 1
                assert not slow.agents
                fast.reset(seed=games)
                slow.reset(seed=games)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = legal[rng.randrange(len(legal))]  # numpy and Python integers alike
        fast.step(action if rng.random() < 0.5 else int(action))
        slow.step(int(action))
    assert games >= 2

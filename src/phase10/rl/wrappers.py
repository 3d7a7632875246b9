"""PettingZoo's three standard AEC wrappers, cheap to step through.

``phase10_vN.env()`` wraps its raw environment as PettingZoo's classic environments are
wrapped: ``TerminateIllegalWrapper`` (an illegal action ends the game), then
``AssertOutOfBoundsWrapper``, then ``OrderEnforcingWrapper``. Stock, these cost four times
the raw environment's own time per step: each reaches the environment's attributes
(``agent_selection``, ``terminations``, ...) through ``BaseWrapper.__getattr__``, which
Python calls only after a failed lookup, some 30 times a step across the three layers, and
``Discrete.contains`` looks up ``np.iinfo`` for every action.

The classes here subclass those three, so ``isinstance`` checks against PettingZoo's
wrappers still hold and ``unwrapped``, ``agent_iter``, ``str`` and the errors are theirs.
They change only how fast the common case runs: the attributes are forwarded by
properties found at once (read-only: set them on ``env.unwrapped``; stock, setting one on
a wrapper only hid the game's value behind it), and a step with an in-range integer action (and, for
``TerminateIllegalWrapper``, a legal one of a live agent) skips straight to the wrapped
environment after the same checks. Everything else (errors before ``reset``, out-of-range
actions, illegal actions, finished agents' ``None``) runs PettingZoo's own code.
tests/test_rl_wrappers.py plays them side by side with the stock wrappers.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np
from gymnasium.spaces import Discrete
from pettingzoo.utils import wrappers
from pettingzoo.utils.env import ActionType, AECEnv, AgentID, ObsType

from .core import action_number

__all__ = [
    "AssertOutOfBoundsWrapper",
    "OrderEnforcingWrapper",
    "TerminateIllegalWrapper",
    "wrap",
]


def _forwarded(name: str) -> Any:
    """The wrapped environment's attribute ``name``, as ``BaseWrapper.__getattr__`` returns
    it, but found by the first lookup and read in C (``attrgetter``)."""
    return property(attrgetter(f"env.{name}"))


def _forwarded_after_reset(name: str) -> Any:
    """:func:`_forwarded` with ``OrderEnforcingWrapper``'s refusal before ``reset``."""

    def get(wrapper: wrappers.OrderEnforcingWrapper[Any, Any, Any]) -> Any:
        if not wrapper._has_reset:  # Python then asks __getattr__, which raises the stock error
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(wrapper.env, name)

    return property(get)


class TerminateIllegalWrapper(wrappers.TerminateIllegalWrapper[AgentID, ObsType, ActionType]):
    """PettingZoo's ``TerminateIllegalWrapper`` with its attributes forwarded directly."""

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    possible_agents = _forwarded("possible_agents")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def observe(self, agent: AgentID) -> ObsType | None:
        # the stock observe, remembering the selected agent's observation and info
        obs = self.env.observe(agent)
        selected = self.agent_selection
        if agent == selected:
            self._prev_obs = obs
            self._prev_info = self.infos.get(selected, {})
        return obs

    def step(self, action: ActionType) -> None:
        # A legal action of a live agent, its mask in the observation last made (the stock
        # step's last branch): straight on. Anything else: the stock step.
        prev = self._prev_obs
        if type(prev) is dict and "action_mask" in prev and not self._terminated:
            agent = self.agent_selection
            if (
                not self.terminations[agent]
                and not self.truncations[agent]
                and prev["action_mask"][action]
            ):
                self._prev_obs = self._prev_info = None
                self.env.step(action)
                return
        super().step(action)
        if self._terminated:  # (an illegal action ended the game: nobody may act now)
            core = getattr(self.unwrapped, "core", None)
            if core is not None:
                core.abort()


class AssertOutOfBoundsWrapper(wrappers.AssertOutOfBoundsWrapper[AgentID, ObsType, ActionType]):
    """PettingZoo's ``AssertOutOfBoundsWrapper`` with its attributes forwarded directly and
    an integer action checked against a ``Discrete`` space without ``contains``."""

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    possible_agents = _forwarded("possible_agents")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def __init__(self, env: AECEnv[AgentID, ObsType, ActionType]) -> None:
        super().__init__(env)
        #: each agent's actions as (start, stop) when its action space is ``Discrete``
        #: (PettingZoo requires an agent's action space never to change)
        self._bounds: dict[AgentID, tuple[int, int] | None] = {}

    def step(self, action: ActionType) -> None:
        agent = self.agent_selection
        if agent not in self._bounds:
            space = self.env.action_space(agent)
            self._bounds[agent] = (
                (int(space.start), int(space.start + space.n)) if type(space) is Discrete else None
            )
        bounds = self._bounds[agent]
        # an integer in range is what Discrete.contains accepts: on to the environment
        if (
            bounds is not None
            and (type(action) is int or isinstance(action, np.integer))
            and bounds[0] <= action < bounds[1]
        ):
            self.env.step(action)
        else:  # the stock assertion (None from a finished agent, or out of range)
            if isinstance(action, bool | np.bool_):  # (the stock wrappers take it for 0 or 1,
                action_number(action)  # then fail on the mask): a TypeError saying so
            super().step(action)


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper[AgentID, ObsType, ActionType]):
    """PettingZoo's ``OrderEnforcingWrapper`` with its attributes forwarded directly (the
    same ``AttributeError`` before ``reset``)."""

    agent_selection = _forwarded_after_reset("agent_selection")
    agents = _forwarded_after_reset("agents")
    rewards = _forwarded_after_reset("rewards")
    terminations = _forwarded_after_reset("terminations")
    truncations = _forwarded_after_reset("truncations")
    infos = _forwarded_after_reset("infos")
    possible_agents = _forwarded("possible_agents")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def __str__(self) -> str:
        # the stock __str__ gives the environment's name for OrderEnforcingWrapper itself only
        return str(self.env) if hasattr(self, "metadata") else repr(self)

    def step(self, action: ActionType) -> None:
        if self._has_reset and self.env.agents:  # the stock step's last branch, directly
            self._has_updated = True
            self.env.step(action)
        else:  # the stock error before reset, or warning once every agent is done
            super().step(action)

    def last(
        self, observe: bool = True
    ) -> tuple[ObsType | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:  # the stock error
            stock: tuple[ObsType | None, float, bool, bool, dict[str, Any]] = super().last(observe)
            return stock
        # AECEnv.last, reading the wrapped environment's attributes once checked
        env = self.env
        agent = env.agent_selection
        assert agent is not None
        observation = env.observe(agent) if observe else None
        return (
            observation,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        )


def wrap(env: AECEnv[str, dict[str, Any], int]) -> AECEnv[str, dict[str, Any], int]:
    """``env`` in the three wrappers, as PettingZoo's classic environments are wrapped: an
    illegal action ends the game, the agent who played it rewarded ``-1``."""
    return OrderEnforcingWrapper(
        AssertOutOfBoundsWrapper(TerminateIllegalWrapper(env, illegal_reward=-1))
    )

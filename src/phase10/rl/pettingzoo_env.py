"""The PettingZoo AEC environment ``phase10_v1`` (``phase10_v0``, ``phase10_v2`` and
``phase10_v3`` subclass it with their versions of the encoding): every seat is an agent.

>>> from phase10.rl import phase10_v1
>>> env = phase10_v1.env(players=3)
>>> env.reset(seed=42)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum()), info
('player_1', (775,), 2, {'winners': array([False, False, False])})
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from phase10.core import Rules

from .core import DEFAULT_MAX_STEPS, EnvCore, action_number
from .render import RENDER_MODES, check_render_mode, render
from .wrappers import wrap

__all__ = ["env", "raw_env"]


class raw_env(AECEnv[str, dict[str, Any], int]):
    """Phase 10 for 2-6 agents ``player_0`` ... (seats 0 ...), under any rules.

    Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``
    from the observing player's own view; see docs/rl.md for both layouts, the rewards
    and the step cap. Every agent's ``infos`` entry always holds ``winners``: one
    boolean per seat, true for the game's winners (all false until it ends), so every
    step's infos have the same keys and shapes (as replay buffers need). An action the mask does not allow raises
    :class:`~phase10.rl.core.IllegalActionError` (:func:`env` ends the game instead).
    ``kernel`` is :class:`~phase10.rl.EnvCore`'s: the compiled kernel steps the game when
    it is built (False: the Python path; the same games either way).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "phase10_v1",
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
        "is_parallelizable": False,
    }
    #: whether observations end with the cards each other player is known to hold
    known_cards: ClassVar[bool] = True
    #: the version of the encoding (docs/rl.md, "Versioning")
    version: ClassVar[int] = 1

    def __init__(
        self,
        players: int = 2,
        rules: Rules | None = None,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        phase_reward: float = 0.0,
        render_mode: str | None = None,
        kernel: bool | None = None,
    ) -> None:
        super().__init__()
        self.render_mode = check_render_mode(render_mode)
        self.core = EnvCore(
            players,
            rules=rules,
            max_steps=max_steps,
            phase_reward=phase_reward,
            version=self.version,
            kernel=kernel,
        )
        layout = self.core.layout
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = list(self.possible_agents)
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, layout.observation_high, (layout.observation_size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (layout.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        action = spaces.Discrete(layout.num_actions)
        self.action_spaces = {agent: action for agent in self.possible_agents}
        self._reset_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _reset_state(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        no_winner = np.zeros(len(self.possible_agents), np.bool_)
        self.infos: dict[str, dict[str, Any]] = {
            agent: {"winners": no_winner.copy()} for agent in self.agents
        }
        self.agent_selection = self.possible_agents[self.core.current]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` reseeds this environment in place (its settings stay)."""
        self.core.reset(seed)
        self._reset_state()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        core = self.core
        mask = np.zeros(core.layout.num_actions, np.int8)
        if seat == core.current and not core.done:
            core.mask(mask)
        return {"observation": core.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a finished agent")
        self._cumulative_rewards[agent] = 0.0
        core = self.core
        rewards = core.step(action_number(action))
        self.rewards = dict(zip(self.agents, rewards, strict=True))
        done = core.done
        if done:
            if core.terminated:
                self.terminations = dict.fromkeys(self.agents, True)
            elif core.truncated:
                self.truncations = dict.fromkeys(self.agents, True)
            winners = np.zeros(len(self.possible_agents), np.bool_)
            winners[list(core.winners())] = True
            self.infos = {name: {"winners": winners.copy()} for name in self.agents}
        self.agent_selection = self.possible_agents[core.current]
        self._accumulate_rewards()
        if done:
            self.agent_selection = self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode: make the environment with "
                f"render_mode set to one of {', '.join(RENDER_MODES)}"
            )
        return render(self.core.game, self.core.current, self.render_mode)

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """The environment with PettingZoo's standard wrappers: an illegal action ends the game
    for the agent who played it with reward -1; actions out of range are refused (the
    wrappers are :mod:`phase10.rl.wrappers`' faster subclasses of PettingZoo's own)."""
    return wrap(raw_env(**kwargs))

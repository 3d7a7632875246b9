"""Many games stepped as one batch: arrays in, arrays out, for self-play at scale.

Every seat of every game is played by the caller (self-play); ``agents[i]`` says which
seat acts in game ``i``. A game that ends is started again at once (with the next game
of its seeded sequence): the step that ended it reports ``terminated``/``truncated`` and
the rewards of its last action, and already returns the new game's first observation.

>>> import numpy as np
>>> vec = VectorPhase10(8, players=2)
>>> obs, masks, agents = vec.reset(seed=0)
>>> obs.shape, masks.shape, agents.shape
((8, 570), (8, 293), (8,))
>>> actions = vec.random_actions(np.random.default_rng(0))
>>> bool(masks[np.arange(8), actions].all())
True
>>> obs, masks, agents, rewards, terminated, truncated = vec.step(actions)
>>> rewards.shape, terminated.any()
((8, 2), np.False_)

For one learner against bots, ``gymnasium.vector.SyncVectorEnv`` or ``AsyncVectorEnv``
over :class:`~phase10.rl.Phase10Env` works as for any Gymnasium environment.
"""

from __future__ import annotations

import random

import numpy as np
from numpy.typing import NDArray

from phase10.core import Rules

from .core import DEFAULT_MAX_STEPS, EnvCore

__all__ = ["VectorPhase10"]


class VectorPhase10:
    """``num_envs`` games of ``players`` players under ``rules``, stepped together; the
    encoding is version 1's (``known_cards=False``: version 0's; ``version=2``: version
    2's, with the save pile and giving up; ``version=3``: version 3's, with the Anti-phase
    card too)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        *,
        rules: Rules | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        phase_reward: float = 0.0,
        known_cards: bool = True,
        version: int | None = None,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.num_envs = num_envs
        self.players = players
        self.cores = [
            EnvCore(
                players,
                rules=rules,
                max_steps=max_steps,
                phase_reward=phase_reward,
                known_cards=known_cards and version != 0,
                version=version,
            )
            for _ in range(num_envs)
        ]
        layout = self.cores[0].layout
        self.layout = layout
        self.observations = np.zeros((num_envs, layout.observation_size), np.float32)
        self.masks = np.zeros((num_envs, layout.num_actions), np.int8)
        self.agents = np.zeros(num_envs, np.int64)
        self.episodes = 0

    def reset(
        self, seed: int | None = None
    ) -> tuple[NDArray[np.float32], NDArray[np.int8], NDArray[np.int64]]:
        """Start every game; ``seed`` fixes the whole batch's sequence of games."""
        seeder = random.Random(seed)
        for index, core in enumerate(self.cores):
            core.reset(seeder.randrange(2**63))
            self._write(index, core)
        return self.observations, self.masks, self.agents

    def _write(self, index: int, core: EnvCore) -> None:
        seat = core.current
        self.agents[index] = seat
        self.masks[index] = core.mask()
        core.observe(seat, self.observations[index])

    def step(
        self, actions: NDArray[np.integer] | list[int]
    ) -> tuple[
        NDArray[np.float32],
        NDArray[np.int8],
        NDArray[np.int64],
        NDArray[np.float32],
        NDArray[np.bool_],
        NDArray[np.bool_],
    ]:
        """Play one action in every game: observations, masks and agents to act next,
        then every seat's rewards and whether each game ended (arrays are reused: copy
        what you keep)."""
        rewards = np.zeros((self.num_envs, self.players), np.float32)
        terminated = np.zeros(self.num_envs, np.bool_)
        truncated = np.zeros(self.num_envs, np.bool_)
        for index, core in enumerate(self.cores):
            rewards[index] = core.step(int(actions[index]))
            if core.done:
                terminated[index] = core.terminated
                truncated[index] = core.truncated
                self.episodes += 1
                core.reset()
            self._write(index, core)
        return self.observations, self.masks, self.agents, rewards, terminated, truncated

    def random_actions(self, rng: np.random.Generator) -> NDArray[np.int64]:
        """A uniformly random legal action for every game."""
        scores = rng.random(self.masks.shape) * self.masks
        chosen: NDArray[np.int64] = np.argmax(scores, axis=1)
        return chosen

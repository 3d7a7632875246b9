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
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from phase10.core import Rules

from .core import (
    DEFAULT_MAX_STEPS,
    EnvCore,
    IllegalActionError,
    check_known_cards,
    check_seed,
    is_int,
)

if TYPE_CHECKING:
    from phase10.kernel._kernel import Kernel

__all__ = ["VectorPhase10"]


class VectorPhase10:
    """``num_envs`` games of ``players`` players under ``rules``, stepped together; the
    encoding is version 1's (``known_cards=False``: version 0's; ``version=2``: version
    2's, with the save pile and giving up; ``version=3``: version 3's, with the Anti-phase
    card too). ``kernel`` is :class:`EnvCore`'s: when every game runs in the compiled
    kernel, one call steps the whole batch in C and writes the arrays in place."""

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
        kernel: bool | None = None,
    ) -> None:
        if not is_int(num_envs):
            raise TypeError(f"num_envs is a whole number of games, not {num_envs!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        check_known_cards(known_cards, version)
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
                kernel=kernel,
            )
            for _ in range(num_envs)
        ]
        self._stepper = self.cores[0]._stepper  # the kernel's, or None: the Python path
        layout = self.cores[0].layout
        self.layout = layout
        self.observations = np.zeros((num_envs, layout.observation_size), np.float32)
        self.masks = np.zeros((num_envs, layout.num_actions), np.int8)
        self.agents = np.zeros(num_envs, np.int64)
        self.episodes = 0
        self._started = False

    def reset(
        self, seed: int | None = None
    ) -> tuple[NDArray[np.float32], NDArray[np.int8], NDArray[np.int64]]:
        """Start every game; ``seed`` fixes the whole batch's sequence of games."""
        check_seed(seed)
        seeder = random.Random(None if seed is None else int(seed))
        self._started = True
        for index, core in enumerate(self.cores):
            core.reset(seeder.randrange(2**63))
            self._write(index, core)
        return self.observations, self.masks, self.agents

    def _write(self, index: int, core: EnvCore) -> None:
        kernel = core._kernel
        if self._stepper is not None and kernel is not None:
            self._stepper.write(
                kernel, index, self.num_envs, self.observations, self.masks, self.agents
            )
            return
        seat = core.current
        self.agents[index] = seat
        self.masks[index] = core.mask()
        core.observe(seat, self.observations[index])

    def _batch(self) -> list[Kernel] | None:
        """Every game's kernel, when every game runs in the kernel."""
        kernels = [core._kernel for core in self.cores]
        if self._stepper is None or None in kernels:
            return None
        return kernels  # type: ignore[return-value]

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
        actions = _action_numbers(actions, self.num_envs)
        if not self._started:
            raise RuntimeError("call reset() before step()")
        self._check_legal(actions)
        rewards = np.zeros((self.num_envs, self.players), np.float32)
        terminated = np.zeros(self.num_envs, np.bool_)
        truncated = np.zeros(self.num_envs, np.bool_)
        kernels = self._batch()
        if kernels is not None:  # every game in the kernel: one call steps them all
            self._step_kernels(kernels, actions, rewards, terminated, truncated)
            return self.observations, self.masks, self.agents, rewards, terminated, truncated
        for index, core in enumerate(self.cores):
            rewards[index] = core.step(int(actions[index]))  # (checked above)
            if core.done:
                terminated[index] = core.terminated
                truncated[index] = core.truncated
                self.episodes += 1
                core.reset()
            self._write(index, core)
        return self.observations, self.masks, self.agents, rewards, terminated, truncated

    def _check_legal(self, actions: NDArray[np.int64]) -> None:
        """Every action against its game's mask, before any game is stepped: a refused
        batch changes nothing."""
        count = self.masks.shape[1]
        inside = (actions >= 0) & (actions < count)
        allowed = inside.copy()
        allowed[inside] = self.masks[np.flatnonzero(inside), actions[inside]] != 0
        if allowed.all():
            return
        game = int(np.flatnonzero(~allowed)[0])
        action = int(actions[game])
        legal = np.flatnonzero(self.masks[game]).tolist()
        if not inside[game]:
            raise IllegalActionError(
                f"game {game}: {action} is not an action number (0 to {count - 1}); legal: {legal}"
            )
        raise IllegalActionError(
            f"game {game}: action {action} ({self.cores[game].describe(action)}) is not "
            f"legal now; legal: {legal}"
        )

    def _step_kernels(
        self,
        kernels: list[Kernel],
        actions: NDArray[np.integer] | list[int],
        rewards: NDArray[np.float32],
        terminated: NDArray[np.bool_],
        truncated: NDArray[np.bool_],
    ) -> None:
        assert self._stepper is not None
        numbers = np.ascontiguousarray(actions, dtype=np.int64)
        try:
            ended = self._stepper.step_batch(
                kernels,
                numbers,
                self.cores[0].max_steps,
                self.observations,
                self.masks,
                self.agents,
                rewards,
                terminated,
                truncated,
            )
        except ValueError as error:
            for index, core in enumerate(self.cores):  # (the games before it were stepped)
                if core.done:
                    self.episodes += 1
                    core.reset()
                    self._write(index, core)
            raise IllegalActionError(str(error)) from None
        for index in ended:
            core = self.cores[index]
            self.episodes += 1
            core.reset()
            self._write(index, core)

    def random_actions(self, rng: np.random.Generator) -> NDArray[np.int64]:
        """A uniformly random legal action for every game: with ``u = rng.random()`` for
        each, the ``floor(u * legal)``-th of its ``legal`` legal actions, in order."""
        uniforms = rng.random(self.num_envs)
        chosen = np.zeros(self.num_envs, np.int64)
        if self._stepper is not None:
            self._stepper.choose(self.masks, uniforms, chosen)
            return chosen
        legal = self.masks.sum(axis=1, dtype=np.int64)
        nth = np.minimum((uniforms * legal).astype(np.int64), legal - 1)
        chosen[:] = np.argmax(np.cumsum(self.masks, axis=1, dtype=np.int64) > nth[:, None], axis=1)
        return chosen


def _action_numbers(actions: NDArray[np.integer] | list[int], games: int) -> NDArray[np.int64]:
    """One integer action per game, or a TypeError or ValueError saying what is wrong
    (floats and bools would be read as other numbers unseen).

    >>> _action_numbers([1, 2], 2)
    array([1, 2])
    >>> _action_numbers(np.zeros(2), 2)
    Traceback (most recent call last):
    ...
    TypeError: actions are integers (indices into the action masks), not float64
    >>> _action_numbers([1, 2, 3], 2)
    Traceback (most recent call last):
    ...
    ValueError: one action per game (2), not (3,)
    """
    numbers = np.asarray(actions)
    if numbers.dtype == np.bool_ or not np.issubdtype(numbers.dtype, np.integer):
        raise TypeError(
            f"actions are integers (indices into the action masks), not {numbers.dtype}"
        )
    if numbers.shape != (games,):
        raise ValueError(f"one action per game ({games}), not {numbers.shape}")
    return numbers.astype(np.int64, copy=False)

"""The Gymnasium environment: one learner against bots.

The learner sits at ``seat``; the other seats are played by bots named as
:func:`phase10.bots.make_player` names them (``"random"``, ``"greedy"``, ``"strong"``,
``"strong:2"``, ``"cmd:..."``). The bots act on their own views between the learner's
actions, so every observation is the learner's, at its turn.

>>> import gymnasium as gym
>>> import phase10.rl
>>> env = gym.make("phase10/Phase10-v3", opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, sorted(info)
((692,), ['action_mask', 'illegal_action', 'seat', 'winners'])
>>> env.get_wrapper_attr("action_masks")().sum()  # the mask through any wrappers
np.int64(2)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from phase10.bots import Player, make_player
from phase10.core import Rules
from phase10.core.words import plural

from .core import DEFAULT_MAX_STEPS, EnvCore, action_number, check_known_cards, is_int
from .encoding import DRAW
from .render import RENDER_MODES, check_render_mode, render

__all__ = ["Phase10Env"]


class Phase10Env(gym.Env[dict[str, Any], int]):
    """Phase 10 for one learner against ``players - 1`` bots.

    ``opponents`` is one bot name for every other seat or a list of one per seat.
    ``seat`` is the learner's seat, or ``None`` for a seat drawn at each reset.
    ``version`` is the encoding's (docs/rl.md): ``phase10/Phase10-v3`` makes version 3,
    which has the save pile, giving up and the Anti-phase card (``Phase10-v2``: version
    2, without the Anti-phase card); left ``None``, ``known_cards`` (version 1, the
    default) ends the observation with the cards each other player is known to hold and
    ``False`` gives version 0's.
    The reward is the learner's (docs/rl.md); an action the mask does not allow ends the
    episode with reward -1 and ``info["illegal_action"] = True`` (it is never replaced by
    a legal one). Every ``info`` has the same keys and shapes: ``seat``, ``action_mask``
    (the mask again), ``winners`` (one boolean per seat, true for the game's winners;
    all false until it ends) and ``illegal_action``; :meth:`action_masks` gives the mask
    as booleans. ``kernel`` is :class:`~phase10.rl.EnvCore`'s (the compiled kernel when it
    is built; False: the Python path).

    Once the episode is over the observation's mask allows action 0 alone, so that a
    masked sampler always has an action: the action chosen on a final observation is
    never played (a vector environment resets instead; a single one must be reset).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        *,
        rules: Rules | None = None,
        seat: int | None = 0,
        max_steps: int = DEFAULT_MAX_STEPS,
        phase_reward: float = 0.0,
        known_cards: bool = True,
        version: int | None = None,
        render_mode: str | None = None,
        kernel: bool | None = None,
    ) -> None:
        self.render_mode = check_render_mode(render_mode)
        check_known_cards(known_cards, version)
        self.core = EnvCore(
            players,
            rules=rules,
            max_steps=max_steps,
            phase_reward=phase_reward,
            known_cards=known_cards and version != 0,
            version=version,
            kernel=kernel,
        )
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"name {plural(players - 1, 'opponent')}, not {len(specs)}")
        for spec in specs:
            make_player(spec, random.Random(0))  # refuses an unknown name now
        self.opponent_specs = specs
        if seat is not None and not (is_int(seat) and 0 <= seat < players):
            raise ValueError(f"the learner's seat is 0 to {players - 1}, not {seat}")
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        layout = self.core.layout
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, layout.observation_high, (layout.observation_size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (layout.num_actions,), np.int8),
            }
        )
        self.action_space: spaces.Discrete = spaces.Discrete(layout.num_actions)  # type: ignore[assignment]
        self._opponents: dict[int, Player] = {}
        self._rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        self.core.reset(self._rng.randrange(2**63))
        players = self.core.players
        self.seat = self.fixed_seat if self.fixed_seat is not None else self._rng.randrange(players)
        others = [s for s in range(players) if s != self.seat]
        self._opponents = {
            s: make_player(spec, random.Random(self._rng.randrange(2**63)))
            for s, spec in zip(others, self.opponent_specs, strict=True)
        }
        self._play_opponents()
        if self.core.done:  # (the bots used up max_steps: there is no move to ask for)
            raise ValueError(
                f"max_steps={self.core.max_steps} ran out before the learner's first move "
                "(the other seats played them all): give it more steps"
            )
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        core = self.core
        if not self._opponents and self.core.players > 1:
            raise RuntimeError("call reset() before step()")
        if core.done:
            raise RuntimeError("the episode is over: call reset()")
        action = action_number(action)
        mask = core.mask()
        if not 0 <= action < len(mask):  # (not in the action space: not a move at all)
            raise ValueError(f"{action} is not in the action space (0 to {len(mask) - 1})")
        if not mask[action]:
            core.abort()
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), -1.0, True, False, info
        reward = core.step(action)[self.seat]
        reward += self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, core.terminated, core.truncated, self._info()

    def _play_opponents(self) -> float:
        """Let the bots act until it is the learner's turn or the game ends."""
        core = self.core
        reward = 0.0
        while not core.done and core.current != self.seat:
            seat = core.current
            action = self._opponents[seat].choose(core.game.view(seat))
            reward += core.apply(action)[self.seat]
        return reward

    def _mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        core = self.core
        mask = core.mask().copy()
        if core.done:
            mask[DRAW] = 1  # never played: see the class docstring
        return mask

    def _observation(self) -> dict[str, Any]:
        return {"observation": self.core.observe(self.seat), "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        core = self.core
        winners = np.zeros(core.players, np.bool_)
        if core.terminated:
            winners[list(core.winners())] = True
        return {
            "seat": self.seat,
            "action_mask": self._mask(),
            "winners": winners,
            "illegal_action": False,
        }

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The observation's mask as booleans (the convention of maskable policies)."""
        return self._mask().astype(bool)

    def render(self) -> Any:
        if self.render_mode is None:
            gym.logger.warn(
                "render() was called without a render_mode: make the environment with "
                f"render_mode set to one of {', '.join(RENDER_MODES)}"
            )
        return render(self.core.game, self.seat, self.render_mode)

    def close(self) -> None:
        """End the bots' programs (``cmd:`` opponents), if any."""
        for player in self._opponents.values():
            close = getattr(player, "close", None)
            if callable(close):
                close()
        self._opponents = {}
        super().close()

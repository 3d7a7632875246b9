"""``phase10_v3``: the PettingZoo environment by its versioned name (the current version:
version 2 plus the Anti-phase card: the discard actions that name who moves down a phase
and the Anti-phase block of the observation; docs/rl.md).

>>> from phase10 import preset
>>> from phase10.rl import phase10_v3
>>> env = phase10_v3.env(players=2, rules=preset("anti-phase"))
>>> env.metadata["name"], env.observation_space("player_0")["observation"].shape
('phase10_v3', (692,))
>>> int(env.action_space("player_0").n)
400
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from . import pettingzoo_env
from .render import RENDER_MODES
from .wrappers import wrap

__all__ = ["env", "raw_env"]


class raw_env(pettingzoo_env.raw_env):
    """:class:`phase10.rl.phase10_v1.raw_env` with version 3 of the encoding."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "phase10_v3",
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
        "is_parallelizable": False,
    }
    known_cards: ClassVar[bool] = True
    version: ClassVar[int] = 3


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """The environment with PettingZoo's standard wrappers (see ``phase10_v1.env``)."""
    return wrap(raw_env(**kwargs))

"""``phase10_v0``: the first version of the PettingZoo environment, kept so that results
measured with it can be reproduced. Its observation has no known-cards block; use
:mod:`phase10.rl.phase10_v3` for new work. Rules with a save pile, giving up or the
Anti-phase card are refused (this version has no actions for them).

>>> from phase10.rl import phase10_v0
>>> env = phase10_v0.env(players=2, render_mode="ansi")
>>> env.metadata["name"], env.observation_space("player_0")["observation"].shape
('phase10_v0', (520,))
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from . import pettingzoo_env
from .render import RENDER_MODES
from .wrappers import wrap

__all__ = ["env", "raw_env"]


class raw_env(pettingzoo_env.raw_env):
    """:class:`phase10.rl.phase10_v1.raw_env` with the version 0 observation."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "phase10_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
        "is_parallelizable": False,
    }
    known_cards: ClassVar[bool] = False
    version: ClassVar[int] = 0


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """The environment with PettingZoo's standard wrappers (see ``phase10_v1.env``)."""
    return wrap(raw_env(**kwargs))

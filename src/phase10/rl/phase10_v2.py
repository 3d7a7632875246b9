"""``phase10_v2``: the PettingZoo environment with version 2 of the encoding: version 1 plus
the Masters Edition save pile and giving up a phase (the save, take-saved and give-up
actions and the save-pile block of the observation; docs/rl.md). Kept so that results
measured with it can be reproduced; use :mod:`phase10.rl.phase10_v3` for new work. Rules
with the Anti-phase card are refused (this version has no actions for it).

>>> from phase10 import preset
>>> from phase10.rl import phase10_v2
>>> env = phase10_v2.env(players=2, rules=preset("masters-variant-2"))
>>> env.metadata["name"], env.observation_space("player_0")["observation"].shape
('phase10_v2', (685,))
>>> int(env.action_space("player_0").n)
394
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from . import pettingzoo_env
from .render import RENDER_MODES
from .wrappers import wrap

__all__ = ["env", "raw_env"]


class raw_env(pettingzoo_env.raw_env):
    """:class:`phase10.rl.phase10_v1.raw_env` with version 2 of the encoding."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "phase10_v2",
        "render_modes": list(RENDER_MODES),
        "render_fps": 4,
        "is_parallelizable": False,
    }
    known_cards: ClassVar[bool] = True
    version: ClassVar[int] = 2


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """The environment with PettingZoo's standard wrappers (see ``phase10_v1.env``)."""
    return wrap(raw_env(**kwargs))

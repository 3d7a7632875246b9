"""``phase10_v1``: the PettingZoo environment whose observation ends with the cards each
other player is known to hold, kept so that results measured with it can be reproduced;
use :mod:`phase10.rl.phase10_v3` for new work. Rules with a save pile, giving up or the
Anti-phase card are refused (this version has no actions for them).

>>> from phase10.rl import phase10_v1
>>> env = phase10_v1.env(players=2, render_mode="ansi")
>>> env.metadata["name"], env.observation_space("player_0")["observation"].shape
('phase10_v1', (570,))
"""

from .pettingzoo_env import env, raw_env

__all__ = ["env", "raw_env"]

"""``phase10_v1``: the PettingZoo environment by its versioned name (the current version:
its observation ends with the cards each other player is known to hold).

>>> from phase10.rl import phase10_v1
>>> env = phase10_v1.env(players=2, render_mode="ansi")
>>> env.metadata["name"], env.observation_space("player_0")["observation"].shape
('phase10_v1', (570,))
"""

from .pettingzoo_env import env, raw_env

__all__ = ["env", "raw_env"]

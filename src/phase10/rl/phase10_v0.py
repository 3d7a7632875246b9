"""``phase10_v0``: the PettingZoo environment by its versioned name.

>>> from phase10.rl import phase10_v0
>>> env = phase10_v0.env(players=2, render_mode="ansi")
>>> env.metadata["name"]
'phase10_v0'
"""

from .pettingzoo_env import env, raw_env

__all__ = ["env", "raw_env"]

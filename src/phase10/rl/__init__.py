"""Reinforcement-learning environments for Phase 10 (``pip install 'phase10[rl]'``).

- :mod:`phase10.rl.phase10_v3`: the PettingZoo AEC environment, every seat an agent
  (:mod:`phase10.rl.phase10_v0`, :mod:`phase10.rl.phase10_v1`,
  :mod:`phase10.rl.phase10_v2`: its earlier versions, kept for reproducing results; they
  refuse rules they have no actions for: v0 and v1 a save pile or giving up, all three
  the Anti-phase card);
- :class:`Phase10Env` (``gymnasium.make("phase10/Phase10-v3")``): one learner against bots;
- :mod:`phase10.rl.openspiel`: importing it registers ``pyspiel.load_game("python_phase10")``;
- :class:`VectorPhase10`: many games stepped as one batch of arrays.

The action numbering and observation layout are in :mod:`phase10.rl.encoding` and
docs/rl.md. Three lines to a game:

>>> from phase10.rl import phase10_v3
>>> env = phase10_v3.env(players=4)
>>> env.reset(seed=0)
"""

try:
    import gymnasium
    import pettingzoo  # noqa: F401  (the environments stand on both)
except ModuleNotFoundError as missing:  # say which extra brings it, not only its name
    raise ModuleNotFoundError(
        f"phase10.rl needs the 'rl' extra ({missing.name} is not installed): "
        "pip install 'phase10[rl]'",
        name=missing.name,
    ) from None

from . import phase10_v0, phase10_v1, phase10_v2, phase10_v3
from .core import DEFAULT_MAX_STEPS, EnvCore, IllegalActionError
from .encoding import Layout
from .gym_env import Phase10Env
from .vector import VectorPhase10

__all__ = [
    "DEFAULT_MAX_STEPS",
    "EnvCore",
    "IllegalActionError",
    "Layout",
    "Phase10Env",
    "VectorPhase10",
    "phase10_v0",
    "phase10_v1",
    "phase10_v2",
    "phase10_v3",
]

if "phase10/Phase10-v0" not in gymnasium.registry:
    gymnasium.register(
        id="phase10/Phase10-v0",
        entry_point="phase10.rl.gym_env:Phase10Env",
        kwargs={"known_cards": False},
    )
if "phase10/Phase10-v1" not in gymnasium.registry:
    gymnasium.register(id="phase10/Phase10-v1", entry_point="phase10.rl.gym_env:Phase10Env")
if "phase10/Phase10-v2" not in gymnasium.registry:
    gymnasium.register(
        id="phase10/Phase10-v2",
        entry_point="phase10.rl.gym_env:Phase10Env",
        kwargs={"version": 2},
    )
if "phase10/Phase10-v3" not in gymnasium.registry:
    gymnasium.register(
        id="phase10/Phase10-v3",
        entry_point="phase10.rl.gym_env:Phase10Env",
        kwargs={"version": 3},
    )

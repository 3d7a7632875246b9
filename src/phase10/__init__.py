"""phase10: an exact Phase 10 rules engine.

>>> import phase10
>>> game = phase10.Game(["Ann", "Bob"], seed=1)
>>> str(phase10.Phase.parse("1 set of 3 + 1 run of 4"))
'1 set of 3 + 1 run of 4'
"""

from .core import *  # noqa: F403
from .core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]

"""The two ways an action can be refused. Both are :class:`ValueError`.

* :class:`InvalidActionError`: malformed — it cannot be read, or names something
  that does not exist in this game.
* :class:`IllegalActionError`: well formed, but against the rules right now
  ("you must draw before you discard").

Either way the game is left exactly as it was.
"""

from __future__ import annotations

__all__ = ["IllegalActionError", "InvalidActionError"]


class InvalidActionError(ValueError):
    """An action that is malformed: it cannot be read or names nothing in this game."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow now; the message says why."""

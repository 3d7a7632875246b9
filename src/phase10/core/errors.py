"""The two ways an action can be refused. Both are :class:`ValueError`.

* :class:`InvalidActionError`: malformed — it cannot be read, or names something
  that does not exist in this game.
* :class:`IllegalActionError`: well formed, but against the rules right now
  ("you must draw before you discard").

Either way the game is left exactly as it was.

A third, :class:`SearchLimitError`, refuses work rather than an action: a search asked
about more cards than any hand can hold, or one that would run longer than allowed.
"""

from __future__ import annotations

__all__ = ["IllegalActionError", "InvalidActionError", "SearchLimitError"]


class InvalidActionError(ValueError):
    """An action that is malformed: it cannot be read or names nothing in this game."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow now; the message says why."""


class SearchLimitError(ValueError):
    """A search refused: more cards than a hand can hold, or more steps than allowed.

    Every search a client can start is bounded in size and time; this says which bound.
    """

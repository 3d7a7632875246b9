"""Small helpers for writing English, used wherever the engine words a count.

>>> plural(1, "card"), plural(3, "group"), plural(0, "point")
('1 card', '3 groups', '0 points')
"""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, word: str) -> str:
    """``1 card``, ``2 cards``, ``0 cards``: a count and its noun, never ``card(s)``."""
    return f"{count} {word}{'' if count == 1 else 's'}"

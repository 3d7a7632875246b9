"""A matching of one set of things to another (Kuhn's augmenting paths): the parts of a
lay-down's text to the phase's groups, the faces of a dice roll to the dice.

>>> match(range(2), [0, 1], lambda left, right: left != right)
{1: 0, 0: 1}
>>> match(range(2), [0, 1], lambda left, right: right == 0) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

__all__ = ["match"]


def match(
    lefts: Iterable[int], rights: Sequence[int], fits: Callable[[int, int], bool]
) -> dict[int, int] | None:
    """A right for each left, no right twice, where ``fits(left, right)``; as a dict from
    right to left, or None when there is none (small sets: a phase's groups, ten dice)."""
    owner: dict[int, int] = {}

    def place(left: int, seen: set[int]) -> bool:
        for right in rights:
            if right in seen or not fits(left, right):
                continue
            seen.add(right)
            if right not in owner or place(owner[right], seen):
                owner[right] = left
                return True
        return False

    return owner if all(place(left, set()) for left in lefts) else None

"""The fewest Wilds for the commonest phase shapes, in closed form.

:func:`phase10.core.feasibility.wilds_needed` searches over every way to pin each
group down. For the shapes most phase lists are made of, the best choice can be
read off the hand's per-number counts directly, which is what play asks for most
often (a bot weighs a discard by asking this once per card in hand):

- one or two sets: the two most-held numbers (or one number for both sets);
- one run: the window of numbers holding the most different numbers;
- one set and one run: for each window of the run, the best number for the set,
  inside the window (sharing one copy with the run) or outside it.

Each function takes the per-number counts of numbered cards (``cells``, 12 entries)
and returns the fewest Wilds that complete the phase, or :data:`NO_WAY` when no
choice meets the natural-card rule. They agree with the search on every hand (the
tests compare them on hundreds of thousands).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["NO_WAY", "run_need", "set_run_need", "sets_need"]

#: no choice of groups meets the natural-card rule
NO_WAY = 1 << 20


def sets_need(sizes: Sequence[int], cells: Sequence[int], group_rule: bool) -> int:
    """One set, or two (``sizes`` largest first): the fewest Wilds.

    Two sets take the two most-held numbers, the larger set the more-held one (or
    both take one number, which then needs a numbered card for each set).
    """
    first = second = 0  # the two largest counts, at different numbers
    for count in cells:
        if count > first:
            first, second = count, first
        elif count > second:
            second = count
    if first == 0:
        return NO_WAY
    if len(sizes) == 1:
        return max(0, sizes[0] - first)
    big, small = sizes[0], sizes[1]
    best = NO_WAY
    if second > 0 or not group_rule:
        best = max(0, big - first) + max(0, small - second)
    if first >= 2 or not group_rule:
        best = min(best, max(0, big + small - first))
    return best


def run_need(size: int, cells: Sequence[int]) -> int:
    """One run of ``size``: the window of numbers holding the most different numbers."""
    most = 0
    for low in range(13 - size):
        held = 0
        for number in range(low, low + size):
            if cells[number]:
                held += 1
        if held > most:
            most = held
    return size - most if most else NO_WAY


def set_run_need(set_size: int, run_size: int, cells: Sequence[int], group_rule: bool) -> int:
    """One set of ``set_size`` and one run of ``run_size``: the fewest Wilds.

    For a window of the run, the set's number either lies outside it (the set takes
    up to ``set_size`` of its copies) or inside it (the run keeps one copy and the set
    takes up to ``set_size`` of the rest). With a numbered card needed in each group,
    a number held once inside the window can serve only one of them.
    """
    # numbers held, most copies first: the best number outside a window is the first
    # of them that lies outside it
    held_numbers = sorted((n for n in range(12) if cells[n]), key=lambda n: -cells[n])
    best = NO_WAY
    total = set_size + run_size
    for low in range(13 - run_size):
        high = low + run_size  # the window is numbers low .. high - 1 (0-based)
        held = 0
        inside = 0  # the most the set can take from a number inside the window
        single = False  # a number held once lies inside
        for number in range(low, high):
            count = cells[number]
            if count:
                held += 1
                if count == 1:
                    single = True
                elif min(set_size, count - 1) > inside:
                    inside = min(set_size, count - 1)
        placed = -1  # the most numbered cards placed with this window (-1: none allowed)
        # (A window holding no number is never better than one holding the set's number,
        # so it is left out even where an all-Wild run is allowed.)
        if held:
            # a number inside held twice or more serves both groups; held once, it needs
            # another number in the window for the run
            if inside > 0 or not group_rule or (single and held >= 2):
                placed = held + inside
            for number in held_numbers:
                if not low <= number < high:
                    placed = max(placed, held + min(set_size, cells[number]))
                    break
        if not group_rule:
            # an all-Wild set: its number is any other, held or not
            placed = max(placed, held)
        if placed > 0 and total - placed < best:
            best = total - placed
    return best

"""A budget of search steps shared by every search a caller starts, for answers in bounded time.

The lay-down and phase searches grow exponentially with some house phases ("11 sets of
1", "5 even or odd of 1"): a bot deciding under one could search for minutes. A caller
that must answer soon (a bot, on a server or in the terminal game) runs its decision
inside :func:`step_budget`; every search started within counts its steps against the
budget and raises :class:`~phase10.core.errors.SearchLimitError` once it is spent, and
the caller falls back to a move that needs no search. Steps, not seconds: the same game
gives the same decisions on any machine.

>>> from phase10.core.cards import parse_cards
>>> from phase10.core.laydowns import lay_downs
>>> from phase10.core.phases import Phase
>>> from phase10.core.rules import NaturalMin
>>> hand = parse_cards("R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11")
>>> with step_budget(50):
...     ways = list(lay_downs(Phase.parse("5 even or odd of 1"), hand, NaturalMin.GROUP))
Traceback (most recent call last):
...
phase10.core.errors.SearchLimitError: the search ran out of its 50 steps

Outside a budget the searches are bounded only by their own limits:

>>> len(list(lay_downs(Phase.parse("2 sets of 1"), parse_cards("R1 B2"), NaturalMin.GROUP)))
1
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .errors import SearchLimitError

__all__ = ["StepBudget", "current_budget", "step_budget"]


class StepBudget:
    """Steps left for the searches of one decision (see :func:`step_budget`)."""

    __slots__ = ("left", "parent", "steps")

    def __init__(self, steps: int, parent: StepBudget | None = None) -> None:
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            raise ValueError(f"a step budget is a whole number from 1, not {steps!r}")
        self.steps = steps
        self.left = steps
        self.parent = parent

    def spend(self, steps: int = 1) -> None:
        """Count ``steps`` more; raise :class:`SearchLimitError` once the budget is spent
        (or the one it is part of)."""
        self.left -= steps
        if self.parent is not None:
            self.parent.spend(steps)
        if self.left < 0:
            raise SearchLimitError(f"the search ran out of its {self.steps} steps")

    @property
    def used(self) -> int:
        """The steps spent so far."""
        return self.steps - self.left

    def __repr__(self) -> str:
        return f"StepBudget({self.steps}, left={self.left})"


_BUDGET: ContextVar[StepBudget | None] = ContextVar("phase10_step_budget", default=None)


def current_budget() -> StepBudget | None:
    """The budget searches started now count against (None: no budget)."""
    return _BUDGET.get()


@contextmanager
def step_budget(steps: int) -> Iterator[StepBudget]:
    """Count every search step taken inside against ``steps``. A budget inside another
    counts against both: it runs out when either does.

    >>> with step_budget(1000) as outer, step_budget(10) as inner:
    ...     inner.spend(4)
    >>> outer.used, inner.used
    (4, 4)
    """
    budget = StepBudget(steps, _BUDGET.get())
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)

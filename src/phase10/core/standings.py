"""Who has won once a hand is scored (docs/rules.md §5 and §8), for the engine and a score sheet.

The engine asks this after every hand; a score keeper for a game played with real
cards asks the same question with the totals and phases written on its sheet.

>>> from phase10.core.rules import Rules
>>> rules = Rules()
>>> decide(rules, scores=[120, 95], completed=[10, 9], positions=[10, 9], players=[0, 1])
Outcome(winners=(0,), reason='completed the last phase', tie_break=())
>>> decide(rules, scores=[80, 80], completed=[10, 10], positions=[10, 10], players=[0, 1])
Outcome(winners=(), reason='tied on the lowest total', tie_break=(0, 1))
>>> decide(rules, scores=[80, 80], completed=[9, 8], positions=[9, 8], players=[0, 1]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rules import Advance, Rules

__all__ = ["Outcome", "decide"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game (``winners``), or the players who must play a tie-break hand."""

    winners: tuple[int, ...] = ()
    reason: str = ""
    #: the tied players who play a hand on the last phase (the first to go out wins)
    tie_break: tuple[int, ...] = ()


def decide(
    rules: Rules,
    *,
    scores: Sequence[int],
    completed: Sequence[int],
    positions: Sequence[int],
    players: Sequence[int],
) -> Outcome | None:
    """The outcome after a scored hand, or None when the game goes on.

    ``scores`` are the totals per seat, ``completed`` how many phases each seat has
    completed, ``positions`` the phase (0-based) each seat works on next, and
    ``players`` the seats still in the game.
    """
    count = rules.phase_count
    if rules.advance is Advance.ALL:
        if not players or positions[players[0]] < count:
            return None
        best = min(scores[p] for p in players)
        low = [p for p in players if scores[p] == best]
        most = max(completed[p] for p in low)
        winners = tuple(p for p in low if completed[p] == most)
        reason = "lowest total score" if len(low) == 1 else "lowest total, most phases completed"
        return Outcome(winners, reason if len(winners) == 1 else "a shared win")
    finishers = [p for p in players if completed[p] >= count]
    if not finishers:
        return None
    if len(finishers) == 1:
        return Outcome((finishers[0],), "completed the last phase")
    best = min(scores[p] for p in finishers)
    tied = tuple(p for p in finishers if scores[p] == best)
    if len(tied) == 1:
        return Outcome(tied, "completed the last phase with the lowest total")
    return Outcome((), "tied on the lowest total", tie_break=tied)

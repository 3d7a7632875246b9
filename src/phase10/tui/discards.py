"""The discard pile, every card of it, top first, with who discarded each one: everyone may
see the pile (docs/rules.md §7), and this hand's events in the view say who put each card
there. Nothing beyond the person's own view is used.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from phase10.core import (
    Card,
    Discarded,
    HandStarted,
    PlayerView,
    Reshuffled,
    TookDiscard,
    WildGiven,
)

from .render import card_text

__all__ = ["discard_history", "discards_table"]


def discard_history(view: PlayerView) -> list[tuple[Card, str | None]]:
    """The discard pile, top first, each card with who discarded it (``turned up`` for the
    card that started the pile; None where the view does not tell, as when this hand's
    events are not all in it)."""
    pile: list[tuple[Card, str | None]] = []
    names = [seat.name for seat in view.seats]
    for event in view.history:
        match event:
            case HandStarted():
                pile = [(event.discard_top, "turned up")]
            case Discarded():
                pile.append((event.card, names[event.player]))
            case TookDiscard() | WildGiven() if pile:
                pile.pop()
            case Reshuffled():
                pile = pile[-1:]
            case _:
                pass
    if [card for card, _ in pile] != list(view.discard_pile):
        # the events do not account for the pile: show its cards without their owners
        return [(card, None) for card in reversed(view.discard_pile)]
    return list(reversed(pile))


def discards_table(view: PlayerView, *, colour_blind: bool = False) -> Table | str:
    """The discard pile page: place from the top, card, who discarded it."""
    pile = discard_history(view)
    if not pile:
        return "The discard pile is empty."
    table = Table(box=None, header_style="bold", caption="top of the pile first")
    table.add_column("#", justify="right")
    table.add_column("card")
    table.add_column("discarded by")
    for place, (card, who) in enumerate(pile, start=1):
        table.add_row(
            str(place),
            card_text(card, colour_blind=colour_blind),
            Text(who or "-", style="dim" if who is None else ""),
        )
    return table

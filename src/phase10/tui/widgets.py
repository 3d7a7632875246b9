"""The table's pieces: your hand, the groups on the table, the seats, the piles, the log."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click, Resize
from textual.message import Message
from textual.widgets import RichLog, Static

from phase10.core import Card, PlayerView, SavePile

from .render import card_text, group_text, meld_title, seat_phase_text

__all__ = [
    "CardChip",
    "GameLog",
    "GroupRow",
    "PilesPanel",
    "SeatsPanel",
    "hand_order",
    "saved_text",
    "title_width",
]


def hand_order(hand: Sequence[Card], by: str) -> list[Card]:
    """The hand as shown: by number (then colour) or by colour (then number)."""
    if by == "colour":
        return sorted(hand, key=lambda card: card.color_sort_key)
    return sorted(hand, key=lambda card: card.sort_key)


class CardChip(Static):
    """One card of your hand; a click selects it."""

    class Clicked(Message):
        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(
        self, card: Card, position: int, *, selected: bool, cursor: bool, colour_blind: bool
    ) -> None:
        classes = "card" + (" selected" if selected else "") + (" cursor" if cursor else "")
        super().__init__(card_text(card, colour_blind=colour_blind), classes=classes)
        self.card = card
        self.position = position

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.position))


#: the widest a group's title column gets, so the cards keep most of the table's width
TITLE_WIDTH = 26


def title_width(view: PlayerView, you: int | None = None) -> int:
    """One width for every group's title, so the cards line up: the longest title's, up to
    :data:`TITLE_WIDTH`."""
    me = view.viewer if you is None else you
    titles = [meld_title(view, gid, meld, you=me) for gid, meld in enumerate(view.melds)]
    return min(TITLE_WIDTH, 1 + max(map(len, titles), default=0))


class GroupRow(Horizontal):
    """A group on the table with its owner, on one line: the title, then the cards, which
    wrap under the cards (not under the title) when the group is long. A click aims the
    selected card at it. ``you`` is the seat called "your" (default: the viewer);
    ``last`` marks the group the last move made or hit.
    """

    class Clicked(Message):
        def __init__(self, group_id: int) -> None:
            super().__init__()
            self.group_id = group_id

    def __init__(
        self,
        view: PlayerView,
        group_id: int,
        *,
        colour_blind: bool,
        you: int | None = None,
        last: bool = False,
        title_width: int | None = None,
    ) -> None:
        super().__init__(classes="group last" if last else "group")
        meld = view.melds[group_id]
        self.title = meld_title(view, group_id, meld, you=view.viewer if you is None else you)
        self.cards = group_text(meld.group, colour_blind=colour_blind)
        self.title_width = title_width or len(self.title) + 1
        self.group_id = group_id

    def compose(self) -> ComposeResult:
        title = Static(Text(self.title, style="bold"), classes="group-title")
        title.styles.width = self.title_width
        yield title
        yield Static(self.cards, classes="group-cards")

    def redraw(self, other: GroupRow) -> None:
        """Show what ``other`` (a row for the same group, never mounted) shows, in place:
        a row that stays mounted never leaves the table blank while it is rebuilt."""
        self.title, self.cards, self.title_width = other.title, other.cards, other.title_width
        self.set_class(other.has_class("last"), "last")
        if self.is_mounted and self.children:
            title = self.query_one(".group-title", Static)
            title.update(Text(self.title, style="bold"))
            title.styles.width = self.title_width
            self.query_one(".group-cards", Static).update(self.cards)

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.group_id))


def saved_text(view: PlayerView, seat: int, *, colour_blind: bool = False) -> Text:
    """What the seats show of a seat's save pile: how many cards, then the cards when the
    viewer may see them (another's public pile); bold when it saved one this hand.

    >>> from phase10.core import Game, Rules, SavePile
    >>> game = Game(["Ann", "Bob"], rules=Rules(save_pile=SavePile.PUBLIC), seed=3)
    >>> _ = game.apply("draw")
    >>> _ = game.apply("save B3")
    >>> saved_text(game.view(0), 1).plain, saved_text(game.view(1), 1).plain
    ('1  3 ', '1')
    """
    info = view.seats[seat]
    text = Text(str(info.saved_count), style="bold" if info.saved_this_hand else "")
    if info.saved and seat != view.viewer:
        for card in info.saved:
            text.append(" ")
            text.append_text(card_text(card, colour_blind=colour_blind))
    return text


class SeatsPanel(Static):
    """Every player: cards in hand, phase, score, a pending skip; whose turn it is; with a
    save pile (rules ``save_pile``), how many cards each has saved."""

    #: the narrowest the seats may be and still show who plays each seat beside the save
    #: piles (at 80 columns the save piles' column takes the place of the bots' names)
    PLAYS_WIDTH = 56
    #: what was shown last (drawn again when the width changes)
    shown: tuple[PlayerView, Sequence[str] | None, bool] | None = None

    def show(
        self, view: PlayerView, kinds: Sequence[str] | None = None, *, colour_blind: bool = False
    ) -> None:
        """``kinds`` says who plays each seat (no such column when None)."""
        self.shown = (view, kinds, colour_blind)
        table = Table(box=None, header_style="bold", pad_edge=False, collapse_padding=True)
        saving = view.rules.save_pile is not SavePile.OFF
        if saving and self.content_size.width < self.PLAYS_WIDTH:
            kinds = None
        for column, justify in (
            ("", "left"),
            ("player", "left"),
            *([("plays", "left")] if kinds is not None else []),
            ("cards", "right"),
            *([("saved", "left")] if saving else []),
            ("phase", "left"),
            ("score", "right"),
            ("", "left"),
        ):
            table.add_column(column, justify=justify, no_wrap=True, min_width=len(column) or 1)  # type: ignore[arg-type]
        for seat, info in enumerate(view.seats):
            turn = "▶" if seat == view.current and not view.is_over else ""
            notes = []
            if info.pending_skip:
                notes.append("skip")
            if seat not in view.players_in_hand:
                notes.append("sits out")
            if seat == view.dealer:
                notes.append("dealer")
            if info.gave_up:
                notes.append("gave up")
            name = Text(info.name, style="bold" if seat == view.viewer else "")
            table.add_row(
                turn,
                name,
                *([kinds[seat]] if kinds is not None else []),
                str(info.hand_size),
                *([saved_text(view, seat, colour_blind=colour_blind)] if saving else []),
                seat_phase_text(view, seat),
                str(info.score),
                ", ".join(notes),
            )
        self.update(table)

    def on_resize(self, event: Resize) -> None:
        # the columns shown depend on the width (PLAYS_WIDTH)
        if self.shown is not None:
            view, kinds, colour_blind = self.shown
            self.show(view, kinds, colour_blind=colour_blind)


class PilesPanel(Static):
    """The discard pile's top and the draw pile's size; with a save pile (rules
    ``save_pile``), the cards of yours. A click on the draw pile draws; on the discard pile
    it takes the top card, or discards the selected one; on your save pile it takes a card
    back (or saves the selected one).
    """

    class Clicked(Message):
        def __init__(self, pile: str) -> None:
            super().__init__()
            self.pile = pile  # "draw", "discard" or "saved"

    #: whether your save pile is shown (under the hand's number)
    saving = False

    def show(self, view: PlayerView, *, colour_blind: bool, just_discarded: bool = False) -> None:
        """``just_discarded``: the top card is the last move's discard (it is marked)."""
        text = Text("Discard ", style="bold")
        top = view.discard_top
        if top is None:
            text.append("(empty)")
        else:
            text.append_text(card_text(top, colour_blind=colour_blind))
            if just_discarded:
                text.append(" ◂", style="bold yellow")
            if len(view.discard_pile) > 1:
                text.append(f" ({len(view.discard_pile)} cards)")
        text.append(f"\nDraw pile {view.draw_size} cards", style="bold")
        text.append(f"\nHand {view.hand_number}", style="dim")
        self.saving = view.rules.save_pile is not SavePile.OFF and view.viewer is not None
        if self.saving:
            text.append("\nSaved ", style="bold")
            if not view.saved:
                text.append("(none)")
            for number, card in enumerate(view.saved):
                text.append(" " if number else "")
                text.append_text(card_text(card, colour_blind=colour_blind))
        self.update(text)

    def on_click(self, event: Click) -> None:
        event.stop()
        # the discard pile's line, the draw pile's (and the hand's), then your save pile's
        if event.y == 0:
            self.post_message(self.Clicked("discard"))
        else:
            self.post_message(self.Clicked("saved" if event.y >= 3 and self.saving else "draw"))


class GameLog(RichLog):
    """The log: keeps the lines it was given, and wraps them again to its new width when
    the terminal is resized (a plain RichLog keeps the width each line was written at).
    A line too long for the log goes on indented, so each line's start stands out."""

    def __init__(self, **options: Any) -> None:
        super().__init__(wrap=True, **options)
        self.texts: list[str] = []
        self._wrapped_at = 0

    def say(self, text: str) -> None:
        """Add a line (kept, to wrap again on a resize)."""
        self.texts.append(text)
        if self.max_lines is not None:
            del self.texts[: -self.max_lines]
        self.write(self._hung(text))

    def _hung(self, text: str) -> str:
        """``text`` wrapped to the log's width, its later lines indented by two."""
        width = self.scrollable_content_region.width
        if width < 12 or len(text) <= width:
            return text
        return "\n".join(textwrap.wrap(text, width, subsequent_indent="  "))

    def reset(self) -> None:
        """Empty the log."""
        self.texts.clear()
        self.clear()

    def on_resize(self, event: Resize) -> None:
        width = self.scrollable_content_region.width
        known = self._size_known  # until then the first writes wait for a width anyway
        if known and width != self._wrapped_at and self.texts:
            self.clear()
            for text in self.texts:
                self.write(self._hung(text))
        self._wrapped_at = width
        if known and self.auto_scroll:
            # shorter too (a hint line appeared): the latest line stays in sight
            self.scroll_end(animate=False)

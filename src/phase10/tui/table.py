"""The table as the person sees it: seats and piles, the groups, the log, the prompt and the
hand. :class:`TableApp` lays it out and draws it from the session; the moves
(:mod:`phase10.tui.moves`) and the game's flow (:mod:`phase10.tui.app`) build on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.events import Resize
from textual.widgets import Footer, Label, Static

from phase10.bots.hints import Hint
from phase10.core import Action, Card, Event, PlayerView
from phase10.core.narration import EventLog

from .render import last_turn, my_phase_text, turn_prompt
from .session import HUMAN, Session
from .widgets import (
    CardChip,
    GameLog,
    GroupRow,
    PilesPanel,
    SeatsPanel,
    hand_order,
    title_width,
)

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "TableApp"]

#: the smallest terminal the table is laid out for (play.tcss: Screen.-short)
MIN_WIDTH, MIN_HEIGHT = 80, 24


class TableApp(App[None]):
    """The table's layout and what it shows; the person's selection and cursor."""

    CSS_PATH = "play.tcss"
    #: a short terminal (80 x 24) gets the compact layout (play.tcss: Screen.-short)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012 (typed by App)

    def __init__(self, *, colour_blind: bool = False) -> None:
        super().__init__()
        self.session: Session | None = None
        self.colour_blind = colour_blind
        self.sort_by = "number"
        self.selected: set[int] = set()
        self.cursor = 0
        self.thinking = False
        self.waiting = False  # a result screen is up: the game waits for the person
        #: while a hand's result is up, the table as that hand ended (None: not known)
        self.ended_view: PlayerView | None = None
        #: events after a hand's end (the next deal), told once its result is dismissed
        self.held_events: list[Event] = []
        self.log_lines = 0
        self.event_log: EventLog | None = None
        self.error_text = ""
        #: the move the hint named when its cards were selected (a for "apply the hint"):
        #: a dialog of several ways to make it starts on the hint's way
        self.hinted: Action | None = None
        #: the hint shown under the hand ("": none), for ? again to show whole
        self.hint_text = ""
        #: the last searched hint and the view it is for (a search takes a moment)
        self._hint_for: tuple[PlayerView, Hint] | None = None
        #: the latest move of this hand in words ("Ann discards R7"), "" before any
        self.last_move = ""

    def compose(self) -> ComposeResult:
        # below the smallest size the table is laid out for, cards would be cut off unseen
        yield Static(id="too-small", classes="-hidden")
        with Horizontal(id="top"):
            yield SeatsPanel(id="seats")
            yield PilesPanel(id="piles")
        with Horizontal(id="middle"):
            yield VerticalScroll(id="table-groups")
            yield GameLog(id="log", max_lines=400, min_width=20)
        yield Static(id="prompt")
        yield Horizontal(id="hand")
        # the hint's line is there only while it says something (80 x 24 has no line to spare)
        yield Static(id="hint", classes="-hidden")
        # the palette's hint would push the keys past 80 columns (ctrl+p still opens it)
        yield Footer(show_command_palette=False)

    def on_resize(self, event: Resize) -> None:
        width, height = event.size
        note = self.query_one("#too-small", Static)
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        note.set_class(not small, "-hidden")
        if small:
            note.update(
                f"This terminal is {width}×{height}: the table needs {MIN_WIDTH}×{MIN_HEIGHT} "
                "to show every card. Make the window larger (or the font smaller)."
            )

    def name_panels(self) -> None:
        """Title the table's bordered panels (once mounted)."""
        self.query_one("#table-groups").border_title = "Table"
        self.query_one("#log").border_title = "Log"
        self.query_one("#hand").border_title = "Your hand"

    # -- the log ----------------------------------------------------------------------

    def _reset_log(self) -> None:
        assert self.session is not None
        game = self.session.game
        human = self.session.human
        self.event_log = EventLog(
            self.session.names, game.rules, viewer=human, you=human, verbose=True
        )
        self.log_lines = 0
        self.last_move = ""
        self.query_one(GameLog).reset()
        self._feed(game.history)

    def _feed(self, events: Sequence[Event]) -> None:
        assert self.event_log is not None and self.session is not None
        self.event_log.feed(events)
        widget = self.query_one(GameLog)
        for line in self.event_log.lines[self.log_lines :]:
            if line.startswith("Hand "):
                self.last_move = ""  # a new deal: nobody has moved in this hand yet
            elif line.startswith(("  turn ", "  deal: ")):
                self.last_move = line.split(": ", 1)[1]
            if line.strip():
                widget.say(line.strip() if not line.startswith("  ") else line[2:])
        self.log_lines = len(self.event_log.lines)

    # -- drawing the table ------------------------------------------------------------

    def refresh_table(self) -> None:
        session = self.session
        if session is None or not self.is_running:  # (closing: the table is taken down)
            return
        if self.waiting:
            self.query_one("#prompt", Static).update(Text("The hand is over: Enter goes on."))
            if self.ended_view is None:  # (its table not known: what was shown stays)
                return
        # a hand's result is up: the table as that hand ended (the engine has dealt the
        # next one) until the result is dismissed
        view = self.ended_view if self.waiting and self.ended_view is not None else session.view
        kinds = [
            "you" if who == HUMAN else who.replace("strong:", "strong ")
            for who in session.controllers
        ]
        self.query_one(SeatsPanel).show(view, kinds, colour_blind=self.colour_blind)
        touched, discarded = last_turn(view)
        self.query_one(PilesPanel).show(
            view, colour_blind=self.colour_blind, just_discarded=discarded
        )
        self._draw_groups(view, touched)
        self._refresh_hand(view)
        # your phase and how close you are stay in sight under your hand
        self.query_one("#hand").border_subtitle = (
            f"Hand {view.hand_number} is over" if self.waiting else my_phase_text(view)
        )
        if self.waiting:
            return
        prompt = Text(turn_prompt(view))
        if self.error_text:
            prompt.append(f"   ✗ {self.error_text}", style="bold red")
        if self.last_move:
            prompt.append(f"\nLast move: {self.last_move}", style="not bold dim")
        self.query_one("#prompt", Static).update(prompt)

    def _draw_groups(self, view: PlayerView, touched: set[int]) -> None:
        """Draw the groups, redrawing the rows already there in place. Removing every row
        and mounting new ones on each move raced with the scroll to the last move's group:
        while a bot played, the table could show empty lines though groups were down."""
        box = self.query_one("#table-groups", VerticalScroll)
        width = title_width(view) if view.melds else 0
        rows = [
            GroupRow(
                view, gid, colour_blind=self.colour_blind, last=gid in touched, title_width=width
            )
            for gid in range(len(view.melds))
        ]
        shown = [row for row in box.children if isinstance(row, GroupRow)]
        if not rows or len(shown) > len(rows) or len(shown) != len(box.children):
            # a new hand, or the "No phase is down yet." line: start the box afresh
            box.remove_children()
            box.scroll_to(y=0, animate=False)
            shown = []
            if not rows:
                box.mount(Label("No phase is down yet.", classes="muted"))
                return
        for row, new in zip(shown, rows, strict=False):
            row.redraw(new)
        if len(rows) > len(shown):
            box.mount_all(rows[len(shown) :])
        on_table = shown + rows[len(shown) :]
        marked = [row for row in on_table if row.group_id in touched]
        if marked:
            # the table scrolls: bring the last move's group into sight
            self.call_after_refresh(self._scroll_to_group, marked[-1])

    def _scroll_to_group(self, row: GroupRow) -> None:
        if row.is_attached:  # a later redraw may have removed it
            row.scroll_visible(animate=False)

    def _shown_hand(self, view: PlayerView | None = None) -> list[Card]:
        assert self.session is not None
        return hand_order((view or self.session.view).hand, self.sort_by)

    def _refresh_hand(self, view: PlayerView | None = None) -> None:
        cards = self._shown_hand(view)
        self.selected = {p for p in self.selected if p < len(cards)}
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        hand = self.query_one("#hand")
        hand.remove_children()
        hand.mount_all(
            CardChip(
                card,
                position,
                selected=position in self.selected,
                cursor=position == self.cursor,
                colour_blind=self.colour_blind,
            )
            for position, card in enumerate(cards)
        )

    def show_hint(self, text: str) -> None:
        """Show the hint under the hand ("" hides its line). A hint longer than its box is
        cut short, saying that ? again shows all of it (the box scrolls only with a mouse)."""
        self.hint_text = text
        hint = self.query_one("#hint", Static)
        lines = 3 if self.screen_stack[0].has_class("-short") else 6
        width = max(20, self.size.width - 2)
        room = int(lines * width * 0.85)  # (lines wrap at words: a little less than the box)
        if len(text) > room:  # cut where the box is sure to show the way to the rest
            tail = " … (? again: the whole hint)"
            text = text[: room - len(tail)].rstrip() + tail
        hint.update(Text(text))
        hint.set_class(not text, "-hidden")

    def say(self, text: str) -> None:
        """Explain why a choice was refused (nothing changed)."""
        self.error_text = text
        self.refresh_table()
        self.bell()

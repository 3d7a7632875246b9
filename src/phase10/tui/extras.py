"""The table's pages beyond the moves: how to play, the discard pile, the statistics; and
the settings the person changes while playing (colour-blind mode, the hand's order, the
computer's speed), remembered for the next game.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.binding import Binding, BindingType

from .discards import discards_table
from .howto import how_to_play_text
from .moves import KEYS, TableMoves
from .preferences import Preferences, next_speed, save_preferences
from .screens import InfoScreen
from .stats import read_results, stats_table

__all__ = ["MORE_KEYS", "TableExtras"]

#: the keys of these pages, after the table's own (phase10.tui.moves.KEYS)
MORE_KEYS = (
    ("v", "the discard pile, every card top first, with who discarded it"),
    ("i / F1", "how to play: the goal, a turn, phases, Wilds and Skips"),
    ("w / F2", "your statistics: games, wins and scores by difficulty"),
    ("b", "the computer's speed: instant, normal or slow"),
)

_PAGE_ACTIONS = {"discards", "bot_speed"}
_ANYWHERE_ACTIONS = {"how_to_play", "statistics"}


class TableExtras(TableMoves):
    """Pages and remembered settings on top of the table's moves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "discards", "Discards", show=False),
        Binding("i", "how_to_play", "How to play", show=False),
        Binding("w", "statistics", "Statistics", show=False),
        Binding("b", "bot_speed", "Speed", show=False),
        # function keys work on the new-game screen too, whose text boxes take letters
        # (that screen shows them in its footer)
        Binding("f1", "how_to_play", "How to play", show=False),
        Binding("f2", "statistics", "Statistics", show=False),
    ]

    #: save settings the person changes (``phase10 play`` turns it on; tests keep it off)
    remember = False
    #: why the remembered settings could not be used, shown once the screen is up
    settings_problem: str | None = None
    bot_delay: float

    def on_ready(self) -> None:
        if self.settings_problem is not None:
            self.notify(self.settings_problem, severity="warning", timeout=10)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        on_top = self.screen is not self.screen_stack[0]
        if action in _PAGE_ACTIONS:
            return not on_top
        if action in _ANYWHERE_ACTIONS:
            # over the table or the new-game screen, never over another page
            return not isinstance(self.screen, InfoScreen)
        return super().check_action(action, parameters)

    # -- pages --------------------------------------------------------------------------

    def action_keys(self) -> None:
        table = Table(box=None, show_header=False)
        table.add_column(style="bold")
        table.add_column()
        for keys, meaning in (*KEYS, *MORE_KEYS):
            table.add_row(keys, meaning)
        self.push_screen(InfoScreen("Keys", table))

    def action_discards(self) -> None:
        if self.session is None:
            return
        body = discards_table(self.session.view, colour_blind=self.colour_blind)
        self.push_screen(InfoScreen("The discard pile", body))

    def action_how_to_play(self) -> None:
        self.push_screen(InfoScreen("How to play", how_to_play_text()))

    def action_statistics(self) -> None:
        rows, unreadable = read_results()
        self.push_screen(InfoScreen("Your statistics", stats_table(rows, unreadable)))

    # -- settings remembered ------------------------------------------------------------

    def action_sort(self) -> None:
        super().action_sort()
        self.remember_settings()

    def action_colour_blind(self) -> None:
        super().action_colour_blind()
        self.remember_settings()

    def action_bot_speed(self) -> None:
        self.bot_delay, name = next_speed(self.bot_delay)
        self.notify(f"the computer's speed: {name}")
        self.remember_settings()

    def preferences(self) -> Preferences:
        """The settings as they are now (the new game's and the table's)."""
        settings = self.settings
        return Preferences(
            name=settings.name,
            opponents=settings.opponents,
            difficulty=settings.difficulty,
            undo=settings.undo,
            colour_blind=self.colour_blind,
            sort_by=self.sort_by,
            bot_delay=self.bot_delay,
        )

    def remember_settings(self) -> None:
        """Save the settings for the next game (when remembering is on); a failure is shown
        once as a warning and the game goes on."""
        if not self.remember:
            return
        problem = save_preferences(self.preferences())
        if problem is not None:
            self.notify(problem, severity="warning")

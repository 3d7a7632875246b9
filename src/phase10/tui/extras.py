"""The table's pages beyond the moves: how to play, the discard pile, the statistics, the
past games to replay; and
the settings the person changes while playing (colour-blind mode, the hand's order, the
computer's speed), remembered for the next game.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.binding import Binding, BindingType

from phase10.core import RecordError

from .discards import discards_table
from .history import KEPT, FinishedGame, finished_games
from .howto import how_to_play_text
from .moves import KEYS, TableMoves
from .preferences import Preferences, next_speed, save_preferences
from .replay import PastGameReplayScreen, read_positions
from .screens import ChoiceScreen, GameOverScreen, InfoScreen, NewGameScreen
from .stats import read_results, stats_table

__all__ = ["MORE_KEYS", "TableExtras"]

#: the keys of these pages, after the table's own (phase10.tui.moves.KEYS)
MORE_KEYS = (
    ("v", "the discard pile, every card top first, with who discarded it"),
    ("i / F1", "how to play: the goal, a turn, phases, Wilds and Skips"),
    ("w / F2", "your statistics: games, wins and scores by difficulty"),
    ("F3", f"past games: replay (and review) any of the last {KEPT} you finished"),
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
        Binding("f3", "past_games", "Past games", show=False),
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
        if action == "past_games":
            # from the table, the new-game screen or a game's result, not from a replay
            return not on_top or isinstance(self.screen, NewGameScreen | GameOverScreen)
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

    def action_past_games(self, highlight: int = 0) -> None:
        """The finished games kept (newest first); the one picked is replayed, and
        Escape there comes back to this list."""
        games = finished_games()
        if not games:
            self.notify(
                "No finished game yet: each game you finish is kept here, to replay and review."
            )
            return

        def chosen(game: FinishedGame | None) -> None:
            if game is None:
                return
            try:
                positions = read_positions(game.record)
            except RecordError as error:
                self.notify(f"{game.path} cannot be replayed: {error}", severity="error")
                return
            replay = PastGameReplayScreen(
                game.record,
                positions,
                colour_blind=self.colour_blind,
                path=game.path,
                seat=game.seat,
            )
            self.push_screen(replay, lambda _: self.action_past_games(games.index(game)))

        title = f"Replay which game? (the last {KEPT} you finished are kept)"
        options = [(game.label, game) for game in games]
        self.push_screen(ChoiceScreen(title, options, min(highlight, len(games) - 1)), chosen)

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

"""``phase10 play``: Phase 10 in the terminal, against the computer (Textual).

The table shows your hand, every group laid down (each Wild with its value), the
piles, every player's cards, phase, score and pending skip, and a log. Keys and
mouse clicks both play; every move is checked by the engine, and an illegal one
says why and changes nothing. Opponents think in a worker thread, so the screen
never freezes; the game is saved after every action.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.table import Table
from textual.worker import Worker, WorkerState

from phase10.core import (
    Event,
    GameEnded,
    HandEnded,
    IllegalActionError,
    InvalidActionError,
    MovedDown,
    RecordError,
    TieBreakStarted,
)
from phase10.core.narration import and_list
from phase10.search import Review

from .extras import TableExtras
from .history import keep_finished
from .moves import KEYS
from .replay import GameReplayScreen, read_positions
from .saves import Kept, SavedGame, keep_unfinished, unfinished_games
from .screens import RESUME, ChoiceScreen, GameOverScreen, HandEndScreen, NewGameScreen
from .session import Session, SessionError, Settings
from .stats import GameResult, record_result

__all__ = ["KEYS", "PlayApp"]


def result_headline(names: Sequence[str], human: int, event: GameEnded) -> str:
    """The game's result as the person reads it.

    >>> from phase10.core import GameEnded
    >>> result_headline(["You", "Ann"], 0, GameEnded((0,), "completed the last phase", (5, 30)))
    'You win! (completed the last phase)'
    >>> result_headline(["Zed", "Ann", "Bob"], 0, GameEnded((1, 2), "a shared win", (5, 9, 9)))
    'Ann and Bob share the win (a shared win)'
    >>> result_headline(["Zed", "Ann"], 0, GameEnded((0, 1), "a shared win", (9, 9)))
    'You share the win with Ann (a shared win)'
    """
    others = [names[seat] for seat in event.winners if seat != human]
    if human not in event.winners:
        verb = "wins" if len(others) == 1 else "share the win"
        return f"{and_list(others)} {verb} ({event.reason})"
    if not others:
        return f"You win! ({event.reason})"
    return f"You share the win with {and_list(others)} ({event.reason})"


class PlayApp(TableExtras):
    """The terminal game. Give ``settings`` and ``start=True`` to skip the new-game screen,
    or ``session`` to go on with a game (``--resume``).
    """

    TITLE = "Phase 10"
    CSS_PATH = "play.tcss"

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        start: bool = False,
        session: Session | None = None,
        autosave: Path | None = None,
        preset_name: str = "official",
        bot_delay: float = 0.4,
        colour_blind: bool = False,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(colour_blind=colour_blind)
        #: salts undo's reshuffles in new games (None: each session seeds one from secrets)
        self.rng = rng
        self.settings = settings or Settings()
        self.start_now = start
        self.session = session
        self.autosave = autosave
        self.preset_name = preset_name
        self.bot_delay = bot_delay
        self.shown_save_error: str | None = None
        self.saved_games: list[SavedGame] = []
        #: the finished game's reviews, by seat (reopening one is instant)
        self.reviews: dict[int, Review] = {}
        #: where the finished game is kept for replay (its reviews are kept beside it)
        self.finished_path: Path | None = None

    def on_mount(self) -> None:
        self.name_panels()
        if self.session is not None:
            self._begin(self.session)
        elif self.start_now:
            self.start_game(self.settings)
        else:
            self.new_game_screen()

    # -- the game's flow --------------------------------------------------------------

    def new_game_screen(self) -> None:
        """The new-game screen, offering every unfinished game (the autosave and ``games/``)."""
        self.saved_games = unfinished_games(self.autosave)
        saved = None
        if len(self.saved_games) == 1:
            saved = f"Saved game: {self.saved_games[0].label}"
        elif self.saved_games:
            saved = f"Saved: {len(self.saved_games)} unfinished games (Resume lists them)"
        self.push_screen(NewGameScreen(self.settings, self.preset_name, saved), self.start_game)

    def start_game(self, settings: Settings | str | None) -> None:
        if settings is None:
            self.exit()
            return
        if settings == RESUME:
            self.choose_saved_game()
            return
        assert isinstance(settings, Settings)
        self.settings = settings
        self.remember_settings()
        in_progress = [game for game in self.saved_games if game.path == self.autosave]
        if not in_progress:
            self.start_new(settings)
            return

        def answered(choice: str | None) -> None:
            if choice == "new":
                self.start_new(settings)
            elif choice == "resume":
                self.resume_from(in_progress[0].path)
            else:
                self.new_game_screen()

        # Play must never silently replace a game in progress: ask, and keep it
        self.push_screen(
            ChoiceScreen(
                f"You have a game in progress ({in_progress[0].label}).",
                [
                    ("Start the new game (the other is kept: Resume lists it)", "new"),
                    ("Go on with the game in progress", "resume"),
                ],
            ),
            answered,
        )

    def choose_saved_game(self) -> None:
        games = self.saved_games
        if not games:
            self.new_game_screen()
        elif len(games) == 1:
            self.resume_from(games[0].path)
        else:

            def chosen(path: Path | None) -> None:
                if path is None:
                    self.new_game_screen()
                else:
                    self.resume_from(path)

            options = [
                (("last played: " if game.path == self.autosave else "") + game.label, game.path)
                for game in games
            ]
            self.push_screen(ChoiceScreen("Go on with which game?", options), chosen)

    def start_new(self, settings: Settings) -> None:
        """A new game in the autosave's place, once an unfinished game there is kept."""
        try:
            kept = keep_unfinished(self.autosave)
            session = Session.new(settings, autosave=self.autosave, rng=self.rng)
        except OSError as error:
            self.notify(f"could not keep the game in progress: {error}", severity="error")
            self.new_game_screen()
            return
        except SessionError as error:
            self.notify(str(error), severity="error")
            self.new_game_screen()
            return
        self._begin(session)
        self._say_kept(kept)

    def _say_kept(self, kept: Kept | None) -> None:
        """Tell the player where a save this version could not read went (the new game
        took its place)."""
        if kept is not None and kept.unreadable:
            self.notify(
                f"The saved game could not be read ({kept.unreadable}); it was kept, "
                f"as it was, in {kept.path}",
                severity="warning",
                timeout=30,
            )

    def resume_from(self, path: Path) -> None:
        """Go on with the game saved at ``path``; it becomes the autosave (the one there is
        kept first if it is another unfinished game)."""
        try:
            kept = keep_unfinished(self.autosave) if path != self.autosave else None
            session = Session.load(path, autosave=self.autosave)
            session.save()
        except (SessionError, OSError) as error:
            self.notify(str(error), severity="error")
            self.new_game_screen()
            return
        self._begin(session)
        self._say_kept(kept)

    def _begin(self, session: Session) -> None:
        self.session = session
        self.reviews = {}
        self.finished_path = None
        self.thinking = False
        self.waiting = False
        self.selected.clear()
        self.cursor = 0
        self.refresh_table()
        # the log is filled once laid out, so its first lines wrap to its real width
        self.call_after_refresh(self._reset_log)
        if session.game.is_over:  # (resumed after its end: its result, and a new game from there)
            self.call_after_refresh(self._show_result_again)
        else:
            self.call_after_refresh(self.advance)

    def _show_result_again(self) -> None:
        session = self.session
        if session is None:
            return
        ended = [event for event in session.game.history if isinstance(event, GameEnded)]
        if ended:
            self.show_game_over(ended[-1], record=False)  # (counted when it was played)

    def advance(self) -> None:
        """Hand the move to whoever is next: a bot thinks in a thread; the person waits."""
        session = self.session
        # (a paced move's timer may fire as the app closes, its table already taken down)
        if session is None or self.waiting or self.thinking or not self.is_running:
            return
        self.refresh_table()
        if session.game.is_over or not session.bot_to_move:
            return
        self.thinking = True
        turn = session.bot_turn()
        self.run_worker(
            lambda: (turn, turn.choose()), thread=True, group="bot", exit_on_error=False
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "bot":
            return
        if event.state is WorkerState.ERROR:
            self.thinking = False
            self.notify(f"a computer player failed: {event.worker.error}", severity="error")
            return
        if event.state is not WorkerState.SUCCESS:
            return
        if not self.is_running:  # closing, the table taken down: the move is not played
            return
        result = event.worker.result
        assert result is not None
        turn, action = result
        if self.session is None or not turn.is_current(self.session.game):
            return  # the game changed (undo, new game) while the bot thought
        self.thinking = False
        self.error_text = ""  # an old refusal does not linger into the next turn
        try:
            events = self.session.apply_bot(action)
        except (IllegalActionError, InvalidActionError, SessionError) as error:
            self.notify(f"a computer player tried an illegal move: {error}", severity="error")
            return
        self.after(events)

    def after(self, events: Sequence[Event]) -> None:
        """Show what an action did, then go on (after a result screen, if a hand ended)."""
        assert self.session is not None
        if self.session.save_error and self.session.save_error != self.shown_save_error:
            self.notify(self.session.save_error, severity="warning", timeout=10)
        self.shown_save_error = self.session.save_error
        ended = [event for event in events if isinstance(event, HandEnded)]
        over = [event for event in events if isinstance(event, GameEnded)]
        # a hand ended: the next one is dealt already, but the table shows the ended one
        # and the log holds back the next deal until its result is dismissed; the prompt
        # says the game waits for the person
        self.waiting = bool(ended) and not over
        self.ended_view = None
        if self.waiting:
            end = max(i for i, event in enumerate(events) if isinstance(event, HandEnded))
            self._feed(events[: end + 1])
            self.held_events = list(events[end + 1 :])
            try:
                self.ended_view = self.session.table_at_hand_end()
            except (SessionError, RecordError, ValueError):  # (shown as it was instead)
                self.ended_view = None
        else:
            self._feed(events)
        self.refresh_table()
        if over:
            while len(self.screen_stack) > 1:
                self.pop_screen()
            self.show_game_over(over[-1])
            return
        if ended:
            # an info page or dialog left open must not hide the summary (Esc would close it
            # unseen): the summary comes on top of the table alone
            while len(self.screen_stack) > 1:
                self.pop_screen()
            assert self.session is not None
            names = self.session.names
            note = ""
            for event in events:
                if isinstance(event, TieBreakStarted):
                    tied = and_list([names[seat] for seat in event.players])
                    note = (
                        f"{tied} completed the last phase with the same total: they play a "
                        "tie-break hand on the last phase, and the first to go out wins."
                    )
            moved = [event for event in events if isinstance(event, MovedDown)]
            self.push_screen(
                HandEndScreen(ended[-1], names, self.session.game.rules, note, moved),
                self._hand_screen_closed,
            )
            return
        if self.session is not None and self.session.bot_to_move:
            self.set_timer(self.bot_delay, self.advance) if self.bot_delay else self.call_later(
                self.advance
            )

    def _hand_screen_closed(self, _: Any = None) -> None:
        self.waiting = False
        self.ended_view = None
        held, self.held_events = self.held_events, []
        self._feed(held)  # the next hand's deal
        self.refresh_table()
        self.advance()

    def keep_on_leaving(self) -> str | None:
        """On the way out, keep what could not be kept during the game (a disk full then
        may have room now): the autosave, and a finished game's result and copy for
        replay. Returns why the game still is not saved (None: it is)."""
        session = self.session
        if session is None:
            return None
        problem = session.save_again()
        if session.game.is_over and self.remember and self.finished_path is None:
            end = next(e for e in reversed(session.game.history) if isinstance(e, GameEnded))
            record_result(GameResult.of(session, end))  # (once: a game recorded is not again)
            with contextlib.suppress(OSError):
                self.finished_path = keep_finished(session)
        return problem

    def show_game_over(self, event: GameEnded, *, record: bool = True) -> None:
        assert self.session is not None
        headline = result_headline(self.session.names, self.session.human, event)
        if self.remember and record:
            problem = record_result(GameResult.of(self.session, event))
            if problem is not None:
                self.notify(problem, severity="warning")
        if self.remember:  # (a game kept already is not written again)
            try:
                self.finished_path = keep_finished(self.session)
            except OSError as error:
                self.notify(
                    f"could not keep the game for replay: {error.strerror or error}",
                    severity="warning",
                )
        table = Table(box=None, header_style="bold")
        table.add_column("player")
        table.add_column("phases done", justify="right")
        table.add_column("total", justify="right")
        for seat, info in enumerate(self.session.game.view(None).seats):
            table.add_row(info.name, str(len(info.completed)), str(event.totals[seat]))
        self.waiting = True
        self.push_screen(GameOverScreen(headline, table), self._game_over_closed)

    def action_review_game(self) -> None:
        """Review the finished game: your decisions against the expert's, over its replay
        (Escape goes back to the result)."""
        session = self.session
        if session is None or not session.game.is_over:
            return
        record = session.record()
        try:
            positions = read_positions(record)
        except RecordError as error:
            self.notify(f"the game cannot be replayed: {error}", severity="error")
            return
        replay = GameReplayScreen(
            record,
            positions,
            colour_blind=self.colour_blind,
            # the copy kept for replay (not the autosave: its place is the next game's)
            path=self.finished_path,
            seat=session.human,
            review_now=True,
        )
        replay.reviews = self.reviews
        self.push_screen(replay)

    def _game_over_closed(self, choice: str | None) -> None:
        self.waiting = False
        if choice == "new":
            self.new_game_screen()
        else:
            self.exit()

"""``phase10 play``: Phase 10 in the terminal, against the computer (Textual).

The table shows your hand, every group laid down (each Wild with its value), the
piles, every player's cards, phase, score and pending skip, and a log. Keys and
mouse clicks both play; every move is checked by the engine, and an illegal one
says why and changes nothing. Opponents think in a worker thread, so the screen
never freezes; the game is saved after every action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Label, RichLog, Static
from textual.worker import Worker, WorkerState

from phase10.bots.hints import hint
from phase10.core import (
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    Event,
    GameEnded,
    GiveWild,
    HandEnded,
    IllegalActionError,
    InvalidActionError,
    PlayerView,
    SkipTarget,
    Stage,
    TakeDiscard,
    TieBreakStarted,
)
from phase10.core.narration import EventLog, and_list

from .render import meld_title, my_phase_text, refusal_text, stage_prompt
from .saves import SavedGame, keep_unfinished, unfinished_games
from .screens import (
    RESUME,
    ChoiceScreen,
    GameOverScreen,
    HandEndScreen,
    InfoScreen,
    NewGameScreen,
    phase_list_table,
    rules_table,
    score_sheet_table,
)
from .session import (
    HUMAN,
    ChoiceError,
    Session,
    SessionError,
    Settings,
    hit_choices,
    lay_down_choices,
    save_copy,
)
from .widgets import CardChip, GroupRow, PilesPanel, SeatsPanel, hand_order

__all__ = ["KEYS", "PlayApp"]

#: every key of the table, for the help page and the README
KEYS = (
    ("d / t", "draw from the pile / take the top discard (or click the pile)"),
    ("← →, space", "move along your hand, select or unselect a card (or click it)"),
    ("1-9", "select or unselect the card at that place"),
    ("l", "lay down the selected cards as your phase"),
    ("h", "hit the selected card on a group (or click the group)"),
    ("x", "discard the selected card, or click the discard pile (a Skip asks whom)"),
    ("e / g", "declare a phase / give the turned-up Wild (when the rules ask)"),
    ("?", "hint: what the solver would do"),
    ("u", "undo your last action (when undo is on)"),
    ("s", "sort your hand by number or by colour"),
    ("c", "colour-blind mode: letters and marks on every colour"),
    ("p / r / k", "the phase list / the rules / these keys"),
    ("o", "the score sheet: every hand's points and totals"),
    ("ctrl+s", "save a copy of the game record"),
    ("esc", "clear the selection"),
    ("q", "quit (the game is saved: make play, then Resume (Ctrl+R), goes on)"),
)


_TABLE_ACTIONS = {
    "draw", "take", "lay", "hit", "discard", "hint", "undo", "sort", "colour_blind",
    "phases", "rules", "keys", "quit_game", "declare", "give", "cursor",
    "clear", "save", "pick", "select", "scores",
}  # fmt: skip


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


class PlayApp(App[None]):
    """The terminal game. Give ``settings`` and ``start=True`` to skip the new-game screen,
    or ``session`` to go on with a game (``--resume``).
    """

    TITLE = "Phase 10"
    CSS_PATH = "play.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", "Draw"),
        # the prompt names t whenever the discard can be taken: the footer has no room
        Binding("t", "take", "Take", show=False),
        Binding("l", "lay", "Lay down"),
        Binding("h", "hit", "Hit"),
        Binding("x", "discard", "Discard"),
        Binding("question_mark", "hint", "Hint"),
        # Keys and Quit early: an 80-column footer cuts off what comes after Quit
        Binding("k", "keys", "Keys"),
        Binding("q", "quit_game", "Quit"),
        Binding("o", "scores", "Scores"),
        Binding("u", "undo", "Undo"),
        Binding("s", "sort", "Sort"),
        Binding("c", "colour_blind", "Colour-blind"),
        Binding("p", "phases", "Phases"),
        Binding("r", "rules", "Rules"),
        Binding("e", "declare", "Declare", show=False),
        Binding("g", "give", "Give Wild", show=False),
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("space", "select", "Select", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("ctrl+s", "save", "Save", show=False),
        *[Binding(str(n), f"pick({n})", show=False) for n in range(1, 10)],
    ]

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
        super().__init__()
        #: salts undo's reshuffles in new games (None: each session seeds one from secrets)
        self.rng = rng
        self.settings = settings or Settings()
        self.start_now = start
        self.session: Session | None = session
        self.autosave = autosave
        self.preset_name = preset_name
        self.bot_delay = bot_delay
        self.colour_blind = colour_blind
        self.sort_by = "number"
        self.selected: set[int] = set()
        self.cursor = 0
        self.thinking = False
        self.waiting = False  # a result screen is up: the game waits for the person
        self.log_lines = 0
        self.event_log: EventLog | None = None
        self.error_text = ""
        self.shown_save_error: str | None = None
        self.saved_games: list[SavedGame] = []

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # the table's keys sleep while a dialog or the new-game screen is up
        return not (action in _TABLE_ACTIONS and self.screen is not self.screen_stack[0])

    # -- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield SeatsPanel(id="seats")
            yield PilesPanel(id="piles")
        with Horizontal(id="middle"):
            yield VerticalScroll(id="table-groups")
            yield RichLog(id="log", max_lines=400, wrap=True, min_width=20)
        yield Static(id="prompt")
        yield Horizontal(id="hand")
        yield Static(id="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#table-groups").border_title = "Table"
        self.query_one("#log").border_title = "Log"
        self.query_one("#hand").border_title = "Your hand"
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
            keep_unfinished(self.autosave)
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

    def resume_from(self, path: Path) -> None:
        """Go on with the game saved at ``path``; it becomes the autosave (the one there is
        kept first if it is another unfinished game)."""
        try:
            if path != self.autosave:
                keep_unfinished(self.autosave)
            session = Session.load(path, autosave=self.autosave)
            session.save()
        except (SessionError, OSError) as error:
            self.notify(str(error), severity="error")
            self.new_game_screen()
            return
        self._begin(session)

    def _begin(self, session: Session) -> None:
        self.session = session
        self.thinking = False
        self.waiting = False
        self.selected.clear()
        self.cursor = 0
        self.refresh_table()
        # the log is filled once laid out, so its first lines wrap to its real width
        self.call_after_refresh(self._reset_log)
        self.call_after_refresh(self.advance)

    def _reset_log(self) -> None:
        assert self.session is not None
        game = self.session.game
        human = self.session.human
        self.event_log = EventLog(
            self.session.names, game.rules, viewer=human, you=human, verbose=True
        )
        self.log_lines = 0
        self.query_one(RichLog).clear()
        self._feed(game.history)

    def _feed(self, events: Sequence[Event]) -> None:
        assert self.event_log is not None and self.session is not None
        self.event_log.feed(events)
        widget = self.query_one(RichLog)
        for line in self.event_log.lines[self.log_lines :]:
            if line.strip():
                widget.write(line.strip() if not line.startswith("  ") else line[2:])
        self.log_lines = len(self.event_log.lines)

    def advance(self) -> None:
        """Hand the move to whoever is next: a bot thinks in a thread; the person waits."""
        session = self.session
        if session is None or self.waiting or self.thinking:
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
        self._feed(events)
        self.refresh_table()
        ended = [event for event in events if isinstance(event, HandEnded)]
        over = [event for event in events if isinstance(event, GameEnded)]
        if over:
            self.show_game_over(over[-1])
            return
        if ended:
            self.waiting = True
            self.refresh_table()  # the prompt says the game waits for the person
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
            self.push_screen(
                HandEndScreen(ended[-1], names, self.session.game.rules, note),
                self._hand_screen_closed,
            )
            return
        if self.session is not None and self.session.bot_to_move:
            self.set_timer(self.bot_delay, self.advance) if self.bot_delay else self.call_later(
                self.advance
            )

    def _hand_screen_closed(self, _: Any = None) -> None:
        self.waiting = False
        self.advance()

    def show_game_over(self, event: GameEnded) -> None:
        assert self.session is not None
        headline = result_headline(self.session.names, self.session.human, event)
        table = Table(box=None, header_style="bold")
        table.add_column("player")
        table.add_column("phases done", justify="right")
        table.add_column("total", justify="right")
        for seat, info in enumerate(self.session.game.view(None).seats):
            table.add_row(info.name, str(len(info.completed)), str(event.totals[seat]))
        self.waiting = True
        self.push_screen(GameOverScreen(headline, table), self._game_over_closed)

    def _game_over_closed(self, choice: str | None) -> None:
        self.waiting = False
        if choice == "new":
            self.new_game_screen()
        else:
            self.exit()

    # -- drawing the table ------------------------------------------------------------

    def refresh_table(self) -> None:
        session = self.session
        if session is None:
            return
        view = session.view
        kinds = [
            "you" if who == HUMAN else who.replace("strong:", "strong ")
            for who in session.controllers
        ]
        self.query_one(SeatsPanel).show(view, kinds)
        self.query_one(PilesPanel).show(view, colour_blind=self.colour_blind)
        groups = self.query_one("#table-groups")
        groups.remove_children()
        if view.melds:
            groups.mount_all(
                GroupRow(view, gid, colour_blind=self.colour_blind)
                for gid in range(len(view.melds))
            )
        else:
            groups.mount(Label("No phase is down yet.", classes="muted"))
        self._refresh_hand()
        # your phase and how close you are stay in sight under your hand
        self.query_one("#hand").border_subtitle = my_phase_text(view)
        prompt = stage_prompt(view) if not self.waiting else "The hand is over: Enter goes on."
        if self.error_text:
            prompt = f"{prompt}   ✗ {self.error_text}"
        self.query_one("#prompt", Static).update(prompt)

    def _shown_hand(self) -> list[Card]:
        assert self.session is not None
        return hand_order(self.session.view.hand, self.sort_by)

    def _refresh_hand(self) -> None:
        cards = self._shown_hand()
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

    def say(self, text: str) -> None:
        """Explain why a choice was refused (nothing changed)."""
        self.error_text = text
        self.refresh_table()
        self.bell()

    # -- the person's moves -----------------------------------------------------------

    def play(self, action: Action | None) -> None:
        """Submit the person's action; an illegal one is explained and changes nothing."""
        if action is None or self.session is None:
            return
        if self.thinking or self.waiting or not self.session.human_to_move:
            self.say("wait for your turn")
            return
        try:
            events = self.session.apply(action)
        except (IllegalActionError, InvalidActionError, SessionError) as error:
            self.say(refusal_text(error))
            return
        self.error_text = ""
        self.selected.clear()
        self.query_one("#hint", Static).update("")
        self.after(events)

    def _selected_cards(self) -> list[Card]:
        cards = self._shown_hand()
        return [cards[p] for p in sorted(self.selected)]

    def _one_card(self) -> Card | None:
        """The selected card, or the one under the cursor when none is selected."""
        cards = self._selected_cards()
        if len(cards) == 1:
            return cards[0]
        if not cards:
            shown = self._shown_hand()
            return shown[self.cursor] if shown else None
        self.say("select just one card for that")
        return None

    def _my_turn(self) -> bool:
        if self.session is None:
            return False
        if self.session.game.is_over:
            self.say("the game is over")
            return False
        if self.thinking or not self.session.human_to_move:
            self.say("it is not your turn yet")
            return False
        return True

    def action_draw(self) -> None:
        if self._my_turn():
            self.play(Draw())

    def action_take(self) -> None:
        if self._my_turn():
            self.play(TakeDiscard())

    def action_lay(self) -> None:
        if not self._my_turn():
            return
        assert self.session is not None
        try:
            choices = lay_down_choices(self.session.view, self._selected_cards())
        except ChoiceError as error:
            self.say(refusal_text(error))
            return
        self._choose_then_play("Lay down how?", [(str(a)[4:], a) for a in choices])

    def action_hit(self, group_id: int | None = None) -> None:
        if not self._my_turn():
            return
        assert self.session is not None
        card = self._one_card()
        if card is None:
            return
        view = self.session.view
        try:
            choices = hit_choices(view, card)
        except ChoiceError as error:
            self.say(refusal_text(error))
            return
        if group_id is not None:
            choices = [hit for hit in choices if hit.group == group_id]
            if not choices:
                self.say(f"{card} does not fit group g{group_id}")
                return
        labels = []
        for hit in choices:
            title = meld_title(view, hit.group, view.melds[hit.group])
            where = f" as {hit.number}" if hit.number is not None else ""
            labels.append((f"{title}: {view.melds[hit.group].group.describe()}{where}", hit))
        self._choose_then_play(f"Hit {card} where?", labels)

    def action_discard(self) -> None:
        if not self._my_turn():
            return
        assert self.session is not None
        card = self._one_card()
        if card is None:
            return
        view = self.session.view
        me = self.session.human
        if card.is_skip and view.rules.skip_target is SkipTarget.CHOOSE:
            targets = view.skip_targets(me)
            if targets:
                self._choose_then_play(
                    "Skip whom?", [(view.seats[t].name, Discard(card, t)) for t in targets]
                )
                return
        self.play(Discard(card))

    def action_declare(self) -> None:
        self._stage_choice(
            Stage.DECLARE,
            "Declare which phase?",
            "there is nothing to declare now",
            lambda view, action: (
                f"phase {action.phase}: {view.phase_of(action.phase - 1)}"
                if isinstance(action, Declare)
                else None
            ),
        )

    def action_give(self) -> None:
        self._stage_choice(
            Stage.GIVE_WILD,
            "Give the Wild to whom?",
            "there is no Wild to give now",
            lambda view, action: (
                view.seats[action.player].name if isinstance(action, GiveWild) else None
            ),
        )

    def _stage_choice(
        self,
        stage: Stage,
        title: str,
        refusal: str,
        label: Callable[[PlayerView, Action], str | None],
    ) -> None:
        """Offer the legal actions of a stage that asks one question (declare, give)."""
        if not self._my_turn():
            return
        assert self.session is not None
        view = self.session.view
        if view.stage is not stage:
            self.say(refusal)
            return
        labelled = [(label(view, action), action) for action in view.legal_actions]
        self._choose_then_play(title, [(text, a) for text, a in labelled if text is not None])

    def _choose_then_play(self, title: str, options: Sequence[tuple[str, Action]]) -> None:
        if len(options) == 1:
            self.play(options[0][1])
        else:
            self.push_screen(ChoiceScreen(title, options), self.play)

    @on(CardChip.Clicked)
    def card_clicked(self, event: CardChip.Clicked) -> None:
        self.cursor = event.position
        self.action_select()

    @on(PilesPanel.Clicked)
    def pile_clicked(self, event: PilesPanel.Clicked) -> None:
        if self.session is None:
            return
        if event.pile == "draw":
            self.action_draw()
        elif self.session.view.stage is Stage.DRAW:
            self.action_take()
        else:
            self.action_discard()

    @on(GroupRow.Clicked)
    def group_clicked(self, event: GroupRow.Clicked) -> None:
        self.action_hit(event.group_id)

    def action_cursor(self, step: int) -> None:
        count = len(self._shown_hand()) if self.session else 0
        if count:
            self.cursor = (self.cursor + step) % count
            self._refresh_hand()

    def action_select(self) -> None:
        if self.session is None or not self._shown_hand():
            return
        self.selected ^= {self.cursor}
        self.error_text = ""
        self._refresh_hand()

    def action_pick(self, number: int) -> None:
        if self.session is None or number > len(self._shown_hand()):
            return
        self.cursor = number - 1
        self.action_select()

    def action_clear(self) -> None:
        self.selected.clear()
        self.error_text = ""
        self.refresh_table()

    # -- help, settings, saving -------------------------------------------------------

    def action_hint(self) -> None:
        if not self._my_turn():
            return
        assert self.session is not None
        advice = hint(self.session.view)
        self.query_one("#hint", Static).update(Text("Hint: " + str(advice).replace("\n", " · ")))

    def action_undo(self) -> None:
        if self.session is None or self.waiting:
            return
        try:
            taken = self.session.undo()
        except SessionError as error:
            self.say(str(error))
            return
        self.thinking = False
        self.selected.clear()
        self.error_text = ""
        self._reset_log()
        self.notify(f"took back {taken} action{'s' if taken != 1 else ''}")
        self.advance()

    def action_sort(self) -> None:
        self.sort_by = "colour" if self.sort_by == "number" else "number"
        self.selected.clear()
        self.refresh_table()

    def action_colour_blind(self) -> None:
        self.colour_blind = not self.colour_blind
        self.refresh_table()

    def action_phases(self) -> None:
        if self.session is None:
            return
        view = self.session.view
        me = view.seats[self.session.human]
        self.push_screen(
            InfoScreen("Phases", phase_list_table(view.rules, sorted(me.completed), me.phase))
        )

    def action_scores(self) -> None:
        if self.session is None:
            return
        sheet = score_sheet_table(self.session.names, self.session.view.hand_results)
        self.push_screen(InfoScreen("Score sheet", sheet))

    def action_rules(self) -> None:
        rules = self.session.game.rules if self.session else self.settings.rules
        self.push_screen(InfoScreen("Rules", rules_table(rules)))

    def action_keys(self) -> None:
        table = Table(box=None, show_header=False)
        table.add_column(style="bold")
        table.add_column()
        for keys, meaning in KEYS:
            table.add_row(keys, meaning)
        self.push_screen(InfoScreen("Keys", table))

    def action_save(self) -> None:
        if self.session is None:
            return
        try:
            path = save_copy(self.session)
        except OSError as error:
            self.say(f"could not save: {error}")
            return
        self.notify(f"saved to {path}")

    def action_quit_game(self) -> None:
        self.exit()

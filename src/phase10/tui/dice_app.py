"""``phase10 dice play``: Phase 10 Dice in the terminal (Textual), against 1 to 7 computer
opponents or alone (docs/dice-terminal.md).

The ten dice show their colour, its letter and their value (``O10``: readable without
colour); the dice set aside sit on a row of their own. Every action goes through the
engine: one it refuses says why and changes nothing. The game is saved after every action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, RichLog, Static

from phase10.bots.dice_hints import dice_hint, hint_text
from phase10.core.narration import and_list
from phase10.dice import (
    DICE,
    BonusKind,
    Colour,
    DiceAction,
    DiceActionError,
    DiceEvent,
    DiceStage,
    DiceView,
    Face,
    Keep,
    Pass,
    Roll,
    Score,
    Unkeep,
    describe,
    dice_phase,
)

from .dice_session import YOU, DiceSession

__all__ = ["DiceApp", "face_label", "result_line"]

#: a mark per colour, told apart by shape alone (colour-blind mode)
MARKS = {Colour.RED: "●", Colour.ORANGE: "◆", Colour.GREEN: "▲", Colour.BLUE: "■"}
STYLES = {
    Colour.RED: "bold white on #c62828",
    Colour.ORANGE: "bold black on #ff9800",
    Colour.GREEN: "bold white on #2e7d32",
    Colour.BLUE: "bold white on #1565c0",
}
KEYS = "1234567890"
WIDTH = 7  # a die's column


def face_label(face: Face, *, colour_blind: bool = False) -> str:
    """A face as the screen shows it: colour letter and value, and in colour-blind mode
    the colour's mark too.

    >>> from phase10.dice import Face
    >>> face_label(Face.parse("O10")), face_label(Face.parse("GW"), colour_blind=True)
    ('O10', 'GW▲')
    """
    return str(face) + (MARKS[face.colour] if colour_blind else "")


def dice_text(view: DiceView, cursor: int | None, *, colour_blind: bool) -> Text:
    """Four lines: the keys, the dice rolling, the dice set aside, the dice's names."""
    lines = [Text("key   "), Text("roll  "), Text("kept  "), Text("die   ")]
    for index, die in enumerate(DICE):
        lines[0].append(KEYS[index].center(WIDTH), style="dim")
        face = view.showing[index]
        chip = Text(" " * WIDTH)
        if face is not None:
            label = f" {face_label(face, colour_blind=colour_blind)} "
            pad = WIDTH - len(label)
            chip = Text(" " * (pad // 2))
            chip.append(label, style=STYLES[face.colour])
            chip.append(" " * (pad - pad // 2))
        elif index not in view.kept:
            chip = Text("·".center(WIDTH), style="dim")
        empty = Text(" " * WIDTH)
        kept = index in view.kept
        lines[1].append_text(empty if kept else chip)
        lines[2].append_text(chip if kept else empty)
        name = f"[{die.name}]" if index == cursor else die.name
        lines[3].append(name.center(WIDTH), style="reverse" if index == cursor else "")
    return Text("\n").join(lines)


def sheet_table(view: DiceView) -> Table:
    """The score sheet: each player's phase, total and bonuses (5: the Five Phase Bonus,
    F: the First Finish Bonus); ▶ marks the player to move."""
    table = Table(box=None, padding=(0, 1), header_style="bold", expand=True)
    table.add_column("player", no_wrap=True, overflow="ellipsis", max_width=12)
    table.add_column("ph", justify="right")
    table.add_column("total", justify="right")
    table.add_column("bonus")
    for seat in view.order:
        info = view.seats[seat]
        mark = "▶" if seat == view.current and not view.is_over else " "
        phase = "done" if info.phase > len(info.scores) else str(info.phase)
        bonus = "".join("5" if kind is BonusKind.FIVE_PHASE else "F" for kind in info.bonuses)
        winner = " ★" if seat in view.winners else ""
        table.add_row(f"{mark}{info.name}{winner}", phase, str(info.total), bonus)
    return table


def result_line(view: DiceView, names: Sequence[str]) -> str:
    """The game's result as the person (seat 0) reads it.

    >>> from phase10.dice import DiceGame, DiceSetup
    >>> game = DiceGame(["You", "Ann", "Bob"], seed=1, setup=DiceSetup(phases=(10, 10, 10)))
    >>> _ = game.apply("roll")
    >>> game.winners = (1, 2)
    >>> game.over = True
    >>> result_line(game.view(0), ["You", "Ann", "Bob"])
    'Ann and Bob share the win.'
    >>> game.winners = (0,)
    >>> result_line(game.view(0), ["You", "Ann", "Bob"])
    'You win!'
    >>> result_line(DiceGame(["You"], seed=1).view(0), ["You"])
    'Game over: your total is 0.'
    """
    if view.solitaire:
        return f"Game over: your total is {view.seats[YOU].total}."
    others = [names[seat] for seat in view.winners if seat != YOU]
    if YOU not in view.winners:
        return f"{and_list(others)} {'wins' if len(others) == 1 else 'share the win'}."
    return f"You share the win with {and_list(others)}." if others else "You win!"


#: the keys of a turn, which a finished game's footer leaves out
_TURN_ACTIONS = frozenset(
    {"keep_die", "toggle_cursor", "cursor", "roll", "score", "pass_turn", "hint"}
)


class DiceApp(App[None]):
    """The dice game for one person (seat 0) against the bots of ``session``."""

    TITLE = "Phase 10 Dice"
    CSS = """
    #status { height: 1; background: $boost; padding: 0 1; }
    #dice { height: 6; border: round $primary; padding: 0 0; }
    #prompt { height: 2; padding: 0 1; }
    #bottom { height: 1fr; }
    #sheet { width: 34; border: round $secondary; }
    #log { border: round $secondary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *[
            Binding(key, f"keep_die({index})", f"Die {key}", show=False)
            for index, key in enumerate(KEYS)
        ],
        Binding("r", "roll", "Roll"),
        Binding("space", "toggle_cursor", "Keep", priority=True),
        Binding("s", "score", "Score"),
        Binding("p", "pass_turn", "Pass"),
        Binding("question_mark", "hint", "Hint"),
        Binding("c", "colour_blind", "Colour-blind", show=False),
        Binding("n", "new_game", "New game"),
        Binding("q", "quit_game", "Quit"),
        Binding("left", "cursor(-1)", "Left", show=False, priority=True),
        Binding("right", "cursor(1)", "Right", show=False, priority=True),
    ]

    def __init__(
        self,
        session: DiceSession,
        *,
        bot_delay: float = 0.4,
        colour_blind: bool = False,
        resumed: bool = False,
    ) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self.colour_blind = colour_blind
        self.resumed = resumed
        self.cursor = 0
        self.message = ""
        #: the game's action count when p asked to be pressed again (passing with rolls left)
        self.pass_armed: int | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a finished game's footer offers what can still be done: a new game, or quit
        over = self.session.game.is_over
        if action in _TURN_ACTIONS:
            return not over
        if action == "new_game":
            return over
        return True

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="dice")
        yield Static(id="prompt")
        with Horizontal(id="bottom"):
            yield Static(id="sheet")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.call_after_refresh(self._start)

    def _start(self) -> None:
        log = self.query_one("#log", RichLog)
        log.clear()
        if self.resumed:
            log.write("(the saved game goes on)")
        for event in self.session.game.history[-60:]:
            log.write(describe(event, self.session.names))
        self.refresh_table()
        self.next_move()

    # -- showing the game ---------------------------------------------------------------

    @property
    def view(self) -> DiceView:
        return self.session.game.view(YOU)

    def refresh_table(self) -> None:
        view = self.view
        mover = self.session.names[view.current]
        phase = view.seats[view.current].phase
        if view.is_over:
            status = "Game over"
        else:
            who = "Your" if view.current == YOU else f"{mover}'s"
            status = (
                f"{who} turn · phase {phase}: {dice_phase(phase)} · rolls left {view.rolls_left}"
            )
            if view.last_try:
                status += " · last try"
        self.query_one("#status", Static).update(status)
        cursor = self.cursor if view.is_my_turn else None
        self.query_one("#dice", Static).update(
            dice_text(view, cursor, colour_blind=self.colour_blind)
        )
        self.query_one("#sheet", Static).update(sheet_table(view))
        self.query_one("#prompt", Static).update(self.message or self.prompt(view))
        self.refresh_bindings()
        if self.session.save_error:
            self.notify(self.session.save_error, severity="warning")

    def prompt(self, view: DiceView) -> str:
        """What the person may do now, as the engine allows it."""
        if view.is_over:
            kept = self.session.autosave is not None and self.session.save_error is None
            again = " · phase10 dice replay shows it again" if kept else ""
            return f"{result_line(view, self.session.names)} n: new game, q: quit{again}"
        if not view.is_my_turn:
            return f"{self.session.names[view.current]} is playing…"
        made = f"The dice make your phase ({view.way.score} points): s scores. " if view.way else ""
        if view.stage is DiceStage.ROLL:
            return "r: roll all ten dice"
        if view.stage is DiceStage.FINAL:
            return made or "The dice do not make your phase: p passes."
        return made + "1-0 or ←→ space: keep or take back a die; r: roll the rest; ?: hint"

    def write_events(self, events: list[DiceEvent]) -> None:
        log = self.query_one("#log", RichLog)
        for event in events:
            log.write(describe(event, self.session.names))

    # -- the flow ----------------------------------------------------------------------

    def next_move(self) -> None:
        if self.session.bot_to_move:
            if self.bot_delay:
                self.set_timer(self.bot_delay, self.bot_move)
            else:
                self.call_later(self.bot_move)

    def bot_move(self) -> None:
        if not self.session.bot_to_move:
            return
        action = self.session.bot_action()
        try:
            events = self.session.apply(action)
        except DiceActionError as error:
            self.notify(f"a computer player tried an illegal action: {error}", severity="error")
            return
        self.write_events(events)
        self.refresh_table()
        self.next_move()

    def play(self, action: DiceAction) -> None:
        """Apply the person's action; a refusal is shown and changes nothing."""
        if self.session.game.is_over or self.session.bot_to_move:
            self.message = "Wait for your turn." if not self.session.game.is_over else ""
            self.refresh_table()
            return
        try:
            events = self.session.apply(action)
        except DiceActionError as error:
            self.message = f"{error}"
            self.refresh_table()
            return
        self.message = ""
        self.write_events(events)
        self.refresh_table()
        self.next_move()

    # -- keys --------------------------------------------------------------------------

    def action_keep_die(self, index: int) -> None:
        self.cursor = index
        kept = index in self.session.game.kept
        self.play(Unkeep((index,)) if kept else Keep((index,)))

    def action_toggle_cursor(self) -> None:
        self.action_keep_die(self.cursor)

    def action_cursor(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(DICE)
        self.refresh_table()

    def action_roll(self) -> None:
        self.play(Roll())

    def action_score(self) -> None:
        self.play(Score())

    def action_pass_turn(self) -> None:
        """Pass; with rolls left, only when p is pressed again (a pass fails the phase)."""
        view, count = self.view, len(self.session.game.actions)
        if view.is_my_turn and view.stage is DiceStage.CHOOSE and self.pass_armed != count:
            self.pass_armed = count
            rolls = "1 roll" if view.rolls_left == 1 else f"{view.rolls_left} rolls"
            made = " and the dice make your phase" if view.way else ""
            phase = view.seats[view.current].phase
            self.message = (
                f"You have {rolls} left{made}: p again passes, and phase {phase} is "
                "not made this turn (r rolls, s scores)."
            )
            self.refresh_table()
            return
        self.pass_armed = None
        self.play(Pass())

    def action_hint(self) -> None:
        view = self.view
        if not view.is_my_turn:
            self.message = "A hint is for your turn."
        else:
            self.message = hint_text(dice_hint(view))
        self.refresh_table()

    def action_colour_blind(self) -> None:
        self.colour_blind = not self.colour_blind
        self.refresh_table()

    def action_new_game(self) -> None:
        if not self.session.game.is_over:
            self.message = "Finish this game first (q saves it and quits)."
            self.refresh_table()
            return
        old = self.session
        bot = next((spec for spec in old.bots if spec is not None), "greedy")
        self.session = DiceSession.new(
            old.names[YOU], opponents=len(old.bots) - 1, bot=bot, autosave=old.autosave
        )
        self.message = ""
        self.resumed = False
        self._start()

    def action_quit_game(self) -> None:
        self.session.save()
        self.exit()

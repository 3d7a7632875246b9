"""The terminal game's screens besides the table: new game, choices, results, reference."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    Collapsible,
    Input,
    Label,
    OptionList,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from phase10.bots.registry import DEFAULT_BOT, bot_choices, builtin_bot
from phase10.core import (
    PRESETS,
    AntiPhase,
    GivingUp,
    HandEnded,
    MovedDown,
    PhaseOrder,
    Rules,
    SavePile,
    preset,
)
from phase10.core.labels import option_label, option_value_label
from phase10.core.rules_text import explain_rules

from .session import SessionError, Settings

__all__ = [
    "DIFFICULTIES",
    "ChoiceScreen",
    "Dialog",
    "GameOverScreen",
    "HandEndScreen",
    "InfoScreen",
    "NewGameScreen",
    "dismiss_once",
]

T = TypeVar("T")


def dismiss_once(screen: Screen[Any], result: Any = None) -> None:
    """Close ``screen`` with ``result``, unless it is closing already or not on top: two
    keys that arrive in the same instant (two quick Enters over a slow link, a paste)
    close it once, and never the screen beneath."""
    if getattr(screen, "_dismissed_once", False) or not screen.is_current:
        return
    setattr(screen, "_dismissed_once", True)  # noqa: B010 (a flag of this module's own)
    screen.dismiss(result)


class Dialog(ModalScreen[T]):
    """A dialog: opening it clears the passing notices ("took back 1 action", "saved to
    ...") whose toasts would cover its text; a warning or an error stays until it expires."""

    def on_mount(self) -> None:
        app = self.app
        # (Textual offers only clear_notifications, which would take warnings with them)
        for notice in list(getattr(app, "_notifications", ())):
            if notice.severity == "information":
                app._unnotify(notice, refresh=False)
        app._refresh_notifications()


#: the opponents' difficulties offered on the new-game screen
DIFFICULTIES = tuple(bot_choices(DEFAULT_BOT))


class ChoiceScreen(Dialog[T | None], Generic[T]):
    """Pick one of several options (arrow keys and Enter, a click, or Escape to cancel)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        options: Sequence[tuple[str, T]],
        highlight: int = 0,
        keys: Sequence[str] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)
        #: the option Enter chooses until the arrows move
        self.highlight = highlight
        #: a key that chooses each option at once (a phase's number), if any
        self.keys = {key: i for i, key in enumerate(keys or ())}

    def compose(self) -> ComposeResult:
        with Vertical(id="choice", classes="dialog"):
            yield Label(self.title_text, id="choice-title")
            yield OptionList(
                *[Option(label, id=f"option-{i}") for i, (label, _) in enumerate(self.options)],
                id="choices",
            )
            keys = "its number or Enter chooses" if self.keys else "Enter chooses"
            yield Label(f"{keys} · Esc cancels", classes="muted")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = self.highlight
        options.focus()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        dismiss_once(self, self.options[event.option_index][1])

    def on_key(self, event: events.Key) -> None:
        index = self.keys.get(event.character or "")
        if index is not None:
            event.stop()
            dismiss_once(self, self.options[index][1])

    def action_cancel(self) -> None:
        dismiss_once(self, None)


class InfoScreen(Dialog[None]):
    """A page of reference: the phase list, the rules, the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
        Binding("enter", "close", "Close", show=False),
        # (? opens the whole hint here: ? again closes it, as a key that toggles)
        Binding("question_mark", "close", "Close", show=False),
    ]

    def __init__(self, title: str, body: Any) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="info", classes="dialog"):
            yield Label(self.title_text, id="info-title")
            with VerticalScroll():
                yield Static(self.body, id="info-body")
            yield Label("Esc closes", classes="muted")

    def action_close(self) -> None:
        dismiss_once(self, None)


def phase_list_table(
    rules: Rules, done: Sequence[int] = (), now: Sequence[int] = (), laid: int | None = None
) -> Table:
    """The phase list, marking the phases done, the one laid down this hand and the ones
    that may be made now (the engine's allowed phases)."""
    table = Table(box=None, show_header=True, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("phase")
    table.add_column("")
    for index, phase in enumerate(rules.phase_sequence):
        if index == laid:
            mark = "down this hand"
        elif index in done:
            mark = "done"
        else:
            mark = "← now" if index in now and laid is None else ""
        table.add_row(str(index + 1), str(phase), mark)
    return table


def score_sheet_table(names: Sequence[str], results: Sequence[HandEnded]) -> Table | str:
    """Every hand played so far: each player's points, running total and phase made (✓)."""
    if not results:
        return "No hand has ended yet: the score sheet fills in as hands end."
    caption = "points +, total, ✓ phase made"
    moved = any(result.moved_down for result in results)
    if moved:
        caption += "\n↓ moved down a phase (the Anti-phase card)"  # a line of its own
    table = Table(box=None, header_style="bold", caption=caption)
    table.add_column("hand", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    table.add_column("out")
    for result in results:
        cells = []
        for seat in range(len(names)):
            points = result.points[seat]
            made = " ✓" if seat in result.advanced else "  "
            if moved:  # one more mark's place in every cell: the totals stay aligned
                made += "↓" if seat in result.moved_down else " "
            cells.append("-" if points is None else f"+{points} {result.totals[seat]}{made}")
        out = "nobody" if result.went_out is None else names[result.went_out]
        table.add_row(str(result.hand), *cells, out)
    return table


def rules_page(rules: Rules) -> Text:
    """The rules in play in sentences (phase10.core.rules_text), one a line."""
    text = Text()
    for number, sentence in enumerate(explain_rules(rules)):
        text.append(("\n" if number else "") + "• " + sentence)
    keys = []
    if rules.save_pile is not SavePile.OFF:
        keys.append("S saves the selected card, T takes a saved card back")
    if rules.give_up is not GivingUp.OFF:
        keys.append("G gives up your phase")
    if rules.anti_phase is AntiPhase.ON:
        keys.append("x on the Anti-phase card (A), your last card, asks whom it names")
    if keys:
        text.append("\n\n" + "; ".join(keys) + ".", "dim")
    text.append("\n\np shows the phase list; docs/rules.md has the whole rule book.", "dim")
    return text


class HandEndScreen(Dialog[None]):
    """The end of a hand: cards left, points, totals and who advanced."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Next hand"),
        Binding("escape", "close", "Next hand"),
    ]

    def __init__(
        self,
        result: HandEnded,
        names: Sequence[str],
        rules: Rules,
        note: str = "",
        moved: Sequence[MovedDown] = (),
    ) -> None:
        super().__init__()
        self.result = result
        self.names = list(names)
        self.rules = rules
        self.note = note
        #: who moved down a phase at this hand's end (the Anti-phase card)
        self.moved = {event.player: event for event in moved}

    def compose(self) -> ComposeResult:
        result = self.result
        out = (
            f"nobody went out ({result.reason})"
            if result.went_out is None
            else f"{self.names[result.went_out]} went out"
        )
        table = Table(title=f"Hand {result.hand}: {out}", title_style="bold", title_justify="left")
        table.add_column("player")
        table.add_column("cards left", justify="right")
        table.add_column("points", justify="right")
        table.add_column("total", justify="right")
        table.add_column("phase")
        for seat, name in enumerate(self.names):
            points = result.points[seat]
            advanced = seat in result.advanced
            phase_done = result.phases_completed[seat]
            left = result.cards_left[seat] if result.cards_left else None
            progress = "advanced ✓ " if advanced else "same phase "
            if seat in self.moved:
                # the Anti-phase card: phases_completed already counts the phase lost
                moved = self.moved[seat]
                why = "held A" if moved.named_by is None else "named"
                lost = "no phase lost" if moved.phase is None else f"lost phase {moved.phase} ↓"
                progress = ("advanced, " if advanced else "") + f"{why}: {lost} "
            table.add_row(
                name,
                "-" if points is None or left is None else str(left),
                "-" if points is None else str(points),
                str(result.totals[seat]),
                Text(
                    progress + f"({phase_done} done)",
                    style="green" if advanced and seat not in self.moved else "red",
                ),
            )
        with Vertical(id="hand-end", classes="dialog"):
            yield Static(table)
            if self.note:
                yield Label(self.note, id="hand-note")
            yield Button("Next hand (Enter)", id="next-hand", variant="primary")

    @on(Button.Pressed, "#next-hand")
    def action_close(self) -> None:
        dismiss_once(self, None)


class GameOverScreen(Dialog[str]):
    """The final result, with how it was decided; a review of your decisions, a new game,
    quit, or the past games to replay."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "app.review_game", "Review"),
        Binding("n", "new", "New game"),
        Binding("q", "quit", "Quit"),
        Binding("f3", "app.past_games", "Past games"),
    ]

    def __init__(self, text: str, totals: Table) -> None:
        super().__init__()
        self.text = text
        self.totals = totals

    def compose(self) -> ComposeResult:
        with Vertical(id="game-over", classes="dialog"):
            yield Label(self.text, id="result")
            yield Static(self.totals)
            with Horizontal(classes="buttons"):
                yield Button("Review (r)", id="review")
                yield Button("New game (n)", id="new", variant="primary")
                yield Button("Quit (q)", id="quit")
                yield Button("Past games (F3)", id="past")

    @on(Button.Pressed, "#review")
    async def review(self) -> None:
        await self.run_action("app.review_game")

    @on(Button.Pressed, "#past")
    async def past_games(self) -> None:
        await self.run_action("app.past_games")

    @on(Button.Pressed, "#new")
    def action_new(self) -> None:
        dismiss_once(self, "new")

    @on(Button.Pressed, "#quit")
    def action_quit(self) -> None:
        dismiss_once(self, "quit")


def _option_fields(rules: Rules) -> list[tuple[str, type[StrEnum], StrEnum]]:
    """Every rule option that is a choice among names (the new-game screen offers each)."""
    found = []
    for item in fields(rules):
        value = getattr(rules, item.name)
        if isinstance(value, StrEnum):
            found.append((item.name, type(value), value))
    return found


#: what the new-game screen answers when the person goes on with the saved game
RESUME = "resume"


class NewGameScreen(Screen[Settings | str]):
    """Opponents, their difficulty, the rules preset and options, a seed; then play.

    ``saved`` describes the unfinished saved games, offered to go on with (Ctrl+R).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start"),
        Binding("ctrl+r", "resume", "Resume", show=False),
        Binding("escape", "app.quit", "Quit"),
        Binding("f1", "app.how_to_play", "How to play"),
        Binding("f2", "app.statistics", "Statistics"),
        Binding("f3", "app.past_games", "Past games"),
    ]

    def __init__(
        self, settings: Settings, preset_name: str = "official", saved: str | None = None
    ) -> None:
        super().__init__()
        self.settings = settings
        self.preset_name = preset_name if preset_name in PRESETS else "custom"
        self.saved = saved

    def compose(self) -> ComposeResult:
        s = self.settings
        # the form itself takes no focus: Tab goes from Quit straight back to the name
        with VerticalScroll(id="new-game", can_focus=False):
            yield Label("Phase 10 — a new game", id="new-title")
            # what most people choose comes first; everything else is folded below
            with Grid(classes="new-grid"):
                yield Label("Your name")
                yield Input(s.name, id="name")
                yield Label("Opponents")
                yield Select(
                    [(str(n), n) for n in range(1, 6)],
                    value=s.opponents,
                    allow_blank=False,
                    id="opponents",
                )
                yield Label("Difficulty")
                values = [value for _, value in DIFFICULTIES]
                chosen = _known_bot(s.difficulty)
                yield Select(
                    DIFFICULTIES,
                    value=chosen if chosen in values else DEFAULT_BOT,
                    allow_blank=False,
                    id="difficulty",
                )
            more = Collapsible(title="More options: rules, seed, undo", id="more")
            with more, Grid(classes="new-grid"):
                yield Label("Rules preset")
                presets = [(name, name) for name in PRESETS]
                if self.preset_name == "custom":
                    presets.append(("custom (from the command line)", "custom"))
                yield Select(presets, value=self.preset_name, allow_blank=False, id="preset")
                for name, enum, value in _option_fields(s.rules):
                    yield Label(option_label(name))
                    yield Select(
                        [(option_value_label(name, member.value), member) for member in enum],
                        value=value,
                        allow_blank=False,
                        id=f"rule-{name}",
                    )
                yield Label("Seed (blank: random)")
                yield Input("" if s.seed is None else str(s.seed), id="seed", type="integer")
                yield Label("Undo")
                yield Checkbox("allow undo of my moves", s.undo, id="undo")
            yield Label("", id="new-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Play (Ctrl+S)", id="start", variant="primary")
                if self.saved is not None:
                    yield Button("Resume (Ctrl+R)", id="resume", variant="success")
                yield Button("Quit (Esc)", id="quit-new")
            yield Label(
                "F1 how to play · F2 your statistics · F3 past games",
                classes="muted",
                id="new-help",
            )
            if self.saved is not None:
                yield Label(self.saved, classes="muted", id="saved")

    def on_mount(self) -> None:
        # the name first: typing a name works at once (Enter there starts the game)
        self.query_one("#name", Input).focus(scroll_visible=False)
        # the form opens at its top, whatever the terminal's height
        self.query_one("#new-game").scroll_home(animate=False)

    @on(Select.Changed, "#preset")
    def preset_changed(self, event: Select.Changed) -> None:
        if event.value == "custom" or event.value is Select.BLANK:
            return
        rules = preset(str(event.value))
        for name, _, value in _option_fields(rules):
            self.query_one(f"#rule-{name}", Select).value = value

    @on(Button.Pressed, "#resume")
    def action_resume(self) -> None:
        if self.saved is not None:
            dismiss_once(self, RESUME)

    @on(Button.Pressed, "#quit-new")
    def quit_pressed(self) -> None:
        self.app.exit()

    @on(Input.Submitted, "#name")
    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            settings = self.read_settings()
            settings.validate()
        except SessionError as error:
            self.query_one("#new-error", Label).update(str(error))
            return
        dismiss_once(self, settings)

    def read_settings(self) -> Settings:
        name = self.query_one("#name", Input).value
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            raise SessionError(f"the seed must be a whole number, not {seed_text!r}") from None
        chosen = str(self.query_one("#preset", Select).value)
        base = self.settings.rules if chosen == "custom" else preset(chosen)
        changes = {
            name: self.query_one(f"#rule-{name}", Select).value
            for name, _, _ in _option_fields(base)
        }
        try:
            rules = base.with_options(**changes)
        except ValueError as error:
            raise SessionError(str(error)) from None
        opponents = self.query_one("#opponents", Select).value
        assert isinstance(opponents, int)
        return Settings(
            name=name,
            opponents=opponents,
            difficulty=str(self.query_one("#difficulty", Select).value),
            rules=rules,
            seed=seed,
            undo=self.query_one("#undo", Checkbox).value,
        )


def any_order(rules: Rules) -> bool:
    return rules.phase_order is PhaseOrder.ANY


def _known_bot(spec: str) -> str:
    """A bot spec as the menu writes it (``strong:4`` is ``strong``), or "" if unknown."""
    try:
        return builtin_bot(spec)
    except ValueError:
        return ""

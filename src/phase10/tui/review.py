"""The game review in the terminal: each decision of one player weighed against the
expert's choice (:mod:`phase10.search.review`), with the mistakes, a hand-by-hand summary
and every player's chance to win through the game.

The review runs in a worker thread (the kernel's search lets the screen go on), kept
beside the record when it came from a file, so a second look is instant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Label, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

from phase10.core.records import GameRecord
from phase10.search import Decision, Point, Review, ReviewError, cached_review, review

from .screens import ChoiceScreen, dismiss_once

__all__ = ["Effort", "ReviewScreen", "WinChart", "chart_lines"]


@dataclass(frozen=True, slots=True)
class Effort:
    """How many deals a review plays out at each decision (to the hand's end, to the
    game's end): more is steadier and slower."""

    deals: int = 48
    win_deals: int = 32


#: what the review screen closes with: the review shown and the step of the mistake
#: picked (None: closed without picking one)
Closed = tuple[Review | None, int | None]

#: the players' colours in the chart (the reviewed player's line is bold too)
COLOURS = ("cyan", "magenta", "yellow", "green", "red", "blue", "bright_white", "bright_black")
BLOCKS = " ▁▂▃▄▅▆▇█"


class _Stopped(Exception):
    """The review was closed while it ran: its thread stops at the next decision."""


class ReviewScreen(Screen[Closed]):
    """One player's review of ``record``: runs it (or reads it back), then shows it.

    ``memo`` keeps the reviews made while the app runs, by seat (shared with the caller,
    so reopening is instant); ``path`` is the record's file, beside which reviews are kept.
    Enter on a mistake closes the screen with its step; Escape closes (and stops a review
    under way); p reviews another player.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("p", "other_player", "Other player"),
        # over the mistakes' list too: the hands and the chart are below it
        Binding("pagedown", "page(1)", "Scroll", priority=True),
        Binding("pageup", "page(-1)", "Scroll up", show=False, priority=True),
    ]

    #: the review's effort (tests make it small)
    effort: ClassVar[Effort] = Effort()

    def __init__(
        self,
        record: GameRecord,
        seat: int,
        *,
        path: Path | None = None,
        memo: dict[int, Review] | None = None,
    ) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.path = path
        self.memo = memo if memo is not None else {}
        self.shown: Review | None = None
        #: why the review could not be made (None: it was, or is under way)
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        yield Label(id="review-title")
        yield Static(id="review-note", classes="muted")
        yield ProgressBar(id="review-progress", show_eta=False)
        yield Label(id="review-count", classes="muted")
        yield Static(id="review-error")
        with VerticalScroll(id="review-body"):
            yield Label(id="review-summary")
            yield Label("Mistakes, costliest first", classes="review-heading")
            yield Static(
                "lost: value given up against the expert's choice (a phase of your own "
                "made this hand counts 1) · Enter shows the table as it stood",
                classes="muted",
            )
            yield OptionList(id="review-mistakes")
            yield Label("Hand by hand", classes="review-heading")
            yield Static(id="review-hands")
            yield Label(
                "Each player's chance to win, as the reviewed player could estimate it",
                classes="review-heading",
            )
            yield WinChart(id="review-chart")
        yield Footer()

    def on_mount(self) -> None:
        self.start(self.seat)

    # -- running -----------------------------------------------------------------------

    def start(self, seat: int) -> None:
        self.seat = seat
        self.shown = None
        self.error = None
        name = self.record.players[seat]
        whose = possessive(name)
        self.query_one("#review-title", Label).update(f"Review of {whose} decisions")
        self.query_one("#review-error", Static).display = False
        self.query_one("#review-body").display = False
        known = self.memo.get(seat)
        if known is not None:
            self.show_review(known)
            return
        self.query_one("#review-note", Static).update(
            f"Weighing each of {whose} decisions against the expert's choice, from "
            f"{whose} view only… Esc stops."
        )
        bar = self.query_one(ProgressBar)
        bar.update(total=None, progress=0)
        bar.display = True
        count = self.query_one("#review-count", Label)
        count.update("")
        count.display = True

        def advanced(done: int, total: int) -> None:
            bar.update(total=total, progress=done)
            count.update(f"move {done} of {total} (forced moves are not weighed)")

        effort = self.effort
        record, path = self.record, self.path

        def work() -> Review:
            worker = get_current_worker()

            def progress(done: int, total: int) -> None:
                if worker.is_cancelled:
                    raise _Stopped
                self.app.call_from_thread(advanced, done, total)

            if path is not None:
                return cached_review(
                    path,
                    record,
                    seat,
                    deals=effort.deals,
                    win_deals=effort.win_deals,
                    progress=progress,
                )
            return review(
                record, seat, deals=effort.deals, win_deals=effort.win_deals, progress=progress
            )

        self.run_worker(work, thread=True, group="review", exclusive=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "review":
            return
        event.stop()
        if event.state is WorkerState.SUCCESS:
            done = event.worker.result
            assert done is not None
            self.memo[done.player] = done
            if done.player == self.seat:
                self.show_review(done)
        elif event.state is WorkerState.ERROR:
            error = event.worker.error
            if isinstance(error, _Stopped):
                return
            why = str(error) if isinstance(error, ReviewError) else f"the review failed: {error}"
            self.show_error(why)

    def show_error(self, why: str) -> None:
        self.error = why
        self.query_one(ProgressBar).display = False
        self.query_one("#review-count").display = False
        self.query_one("#review-note", Static).update("")
        message = self.query_one("#review-error", Static)
        message.update(Text.assemble(("No review: ", "bold"), why, "\n\nEsc closes."))
        message.display = True

    # -- showing -----------------------------------------------------------------------

    def show_review(self, done: Review) -> None:
        self.shown = done
        self.query_one(ProgressBar).display = False
        self.query_one("#review-count").display = False
        self.query_one("#review-note", Static).update(done.note)
        mistakes = done.mistakes
        lost = sum(d.loss for d in mistakes)
        counted = "no mistakes" if not mistakes else _plural(len(mistakes), "mistake")
        self.query_one("#review-summary", Label).update(
            f"{_plural(len(done.decisions), 'decision')} weighed: {counted}"
            + (f", {lost:.2f} lost in all" if mistakes else "")
        )
        options = self.query_one("#review-mistakes", OptionList)
        options.clear_options()
        options.add_options(Option(mistake_text(d), id=f"step-{d.step}") for d in mistakes)
        if not mistakes:
            options.add_option(
                Option(
                    "None: the expert agreed, or did better only by less than its noise.",
                    disabled=True,
                )
            )
        self.query_one("#review-hands", Static).update(hands_table(done))
        self.query_one(WinChart).show(done.chances, done.players, done.player)
        self.query_one("#review-body").display = True
        options.focus()
        if mistakes:
            options.highlighted = 0

    @on(OptionList.OptionSelected, "#review-mistakes")
    def picked(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id
        if option_id is not None and option_id.startswith("step-"):
            dismiss_once(self, (self.shown, int(option_id.removeprefix("step-"))))

    def action_page(self, direction: int) -> None:
        body = self.query_one("#review-body", VerticalScroll)
        body.scroll_page_down() if direction > 0 else body.scroll_page_up()

    def action_close(self) -> None:
        self.workers.cancel_group(self, "review")
        dismiss_once(self, (self.shown, None))

    def action_other_player(self) -> None:
        def chosen(seat: int | None) -> None:
            if seat is not None and seat != self.seat:
                self.workers.cancel_group(self, "review")
                self.start(seat)

        names = self.record.players
        self.app.push_screen(
            ChoiceScreen(
                "Review whose decisions?",
                [
                    (name + (" (shown)" if s == self.seat else ""), s)
                    for s, name in enumerate(names)
                ],
            ),
            chosen,
        )


def possessive(name: str) -> str:
    """``your`` for the person named You (the table speaks to them), else ``Ann's``.

    >>> possessive("You"), possessive("Ann")
    ('your', "Ann's")
    """
    return "your" if name == "You" else f"{name}'s"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def mistake_text(decision: Decision) -> Text:
    """One mistake in two lines: what was played, the expert's choice and the value lost;
    why."""
    text = Text()
    text.append(f"Hand {decision.hand}", style="bold")
    text.append(f" · {decision.played}")
    text.append(" → the expert: ", style="dim")
    text.append(decision.best, style="bold")
    text.append(f"  (lost {decision.loss:.2f})", style="dim")
    text.append(f"\n    {decision.reason}")
    return text


def hands_table(done: Review) -> Table:
    """Per hand: decisions, mistakes, the value lost, the phase, the points, the win chance."""
    table = Table(box=None, header_style="bold", padding=(0, 1))
    for name in ("hand", "decisions", "mistakes", "lost"):
        table.add_column(name, justify="right")
    table.add_column("phase")
    table.add_column("points", justify="right")
    table.add_column("chance to win", justify="right")
    for hand in done.hands:
        phase = "—" if hand.made_phase is None else "made" if hand.made_phase else "missed"
        table.add_row(
            str(hand.hand),
            str(hand.decisions),
            str(hand.mistakes),
            f"{hand.lost:.2f}",
            phase,
            "—" if hand.points is None else str(hand.points),
            "—"  # (no decision of the player's this hand: nobody's chance was estimated)
            if hand.win_before is None or hand.win_after is None
            else f"{hand.win_before:>4.0%} → {hand.win_after:>4.0%}",
        )
    return table


def chart_lines(
    chances: Sequence[Point], names: Sequence[str], seat: int, width: int
) -> list[Text]:
    """A block chart, one line per player (0 to 100% bottom to top of a block), of
    ``chances`` squeezed or stretched to ``width`` columns, with the final chance; then
    a line marking where each hand starts.

    >>> from phase10.search import Point
    >>> points = [Point(0, 1, (0.5, 0.5)), Point(5, 2, (1.0, 0.0))]
    >>> [line.plain for line in chart_lines(points, ["Ann", "Bob"], 0, 16)]
    ['Ann  ▄▄▄███ 100%', 'Bob  ▄▄▄···   0%', 'hand 1  2']
    """
    label = max(len(name) for name in (*names, "hand")) + 1
    room = max(width - label - 5, 1)
    count = len(chances)
    if count == 0:
        return [Text("no decisions to chart")]
    columns = count * (room // count) if count <= room else room
    spans = [
        (j * count // columns, max(j * count // columns + 1, (j + 1) * count // columns))
        for j in range(columns)
    ]
    lines = []
    for player, name in enumerate(names):
        line = Text(f"{name:<{label}}", style="bold" if player == seat else "")
        colour = COLOURS[player % len(COLOURS)]
        for lo, hi in spans:
            value = sum(p.wins[player] for p in chances[lo:hi]) / (hi - lo)
            if value <= 0:
                line.append("·", style="dim")
            else:
                line.append(BLOCKS[max(1, round(value * 8))], style=colour)
        final = chances[-1].wins[player]
        line.append(f" {final:>4.0%}", style="bold" if player == seat else "")
        lines.append(line)
    # the hand numbers, each where its hand starts (when there is room to write it)
    marks = [" "] * columns
    previous, free = None, 0
    for j, (lo, _) in enumerate(spans):
        hand = chances[lo].hand
        if hand != previous and j >= free:
            tag = str(hand)[: columns - j]
            marks[j : j + len(tag)] = tag
            free = j + len(tag) + 1
        previous = hand
    axis = Text(f"{'hand':<{label}}" + "".join(marks).rstrip(), style="dim")
    lines.append(axis)
    return lines


class WinChart(Widget):
    """Every player's estimated chance to win through the game (:func:`chart_lines`)."""

    DEFAULT_CSS = """
    WinChart {
        height: auto;
        width: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.chances: tuple[Point, ...] = ()
        self.names: tuple[str, ...] = ()
        self.seat = 0

    def show(self, chances: Sequence[Point], names: Sequence[str], seat: int) -> None:
        self.chances, self.names, self.seat = tuple(chances), tuple(names), seat
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.names) + 1 if self.names else 1

    def render(self) -> Text:
        if not self.names:
            return Text("")
        return Text("\n").join(
            chart_lines(self.chances, self.names, self.seat, self.size.width or 60)
        )

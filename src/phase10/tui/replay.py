"""``phase10 replay FILE``: step through any game record, action by action."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Label, RichLog, Static

from phase10.core import Card, Game, PlayerView
from phase10.core.narration import EventLog
from phase10.core.records import GameRecord, RecordError

from .render import card_text
from .session import SessionError, read_reshuffles, reshuffle_unseen
from .widgets import GroupRow, PilesPanel, SeatsPanel, hand_order

__all__ = ["Position", "ReplayApp"]


@dataclass(frozen=True, slots=True)
class Position:
    """The game after ``number`` actions: the last action, the public view, every hand."""

    number: int
    action: str | None
    actor: int | None
    view: PlayerView
    hands: tuple[tuple[Card, ...], ...]


class ReplayApp(App[None]):
    """Steps through a record: ← → one action, Home/End, n/b the next/previous hand."""

    TITLE = "Phase 10 replay"
    CSS_PATH = "play.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "Next"),
        Binding("left", "step(-1)", "Back"),
        Binding("n", "hand(1)", "Next hand"),
        Binding("b", "hand(-1)", "Previous hand"),
        Binding("home", "go(0)", "Start"),
        Binding("end", "go(-1)", "End"),
        Binding("c", "colour_blind", "Colour-blind"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        record: GameRecord,
        positions: Sequence[Position],
        *,
        reveal: bool = True,
        colour_blind: bool = False,
    ) -> None:
        super().__init__()
        self.record = record
        self.steps = list(positions)
        self.reveal = reveal
        self.colour_blind = colour_blind
        self.index = 0
        tag = record.tag("controllers")
        #: who played each seat, when the record says (a game against the computer does)
        self.kinds: list[str] | None = (
            [who.replace("human", "person") for who in tag.split(",")] if tag else None
        )

    @staticmethod
    def read(record: GameRecord) -> list[Position]:
        """Every position of the record (raises :class:`RecordError` if it does not replay)."""
        # a terminal game's record may say where an undo reshuffled the unseen cards
        try:
            reshuffles = read_reshuffles(record)
        except SessionError as error:
            raise RecordError(str(error)) from None
        game = record.new_game()
        found = [_position(game, 0, None, None)]
        for number, text in enumerate(record.actions, start=1):
            for point, salt in reshuffles:
                if point == number - 1:
                    reshuffle_unseen(game, salt)
            actor = game.current
            try:
                game.apply(text)
            except ValueError as error:
                raise RecordError(f"action {number} ({text!r}) does not apply: {error}") from None
            found.append(_position(game, number, text, actor))
        return found

    def compose(self) -> ComposeResult:
        yield Label(id="replay-title")
        with Horizontal(id="top"):
            yield SeatsPanel(id="seats")
            yield PilesPanel(id="piles")
        with Horizontal(id="middle"):
            yield VerticalScroll(id="table-groups")
            yield RichLog(id="log", max_lines=400, wrap=True, min_width=20)
        yield Static(id="hands")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#table-groups").border_title = "Table"
        self.query_one("#log").border_title = "This hand"
        self.show()

    @property
    def position(self) -> Position:
        return self.steps[self.index]

    def show(self) -> None:
        position = self.position
        view = position.view
        names = [info.name for info in view.seats]
        last = len(self.steps) - 1
        action = (
            "the deal"
            if position.action is None
            else f"{names[position.actor or 0]}: {position.action}"
        )
        self.query_one("#replay-title", Label).update(
            f"Action {position.number} of {last} — {action}   (hand {view.hand_number})"
        )
        self.query_one(SeatsPanel).show(view, self.kinds)
        self.query_one(PilesPanel).show(view, colour_blind=self.colour_blind)
        groups = self.query_one("#table-groups")
        groups.remove_children()
        groups.mount_all(
            GroupRow(view, gid, colour_blind=self.colour_blind) for gid in range(len(view.melds))
        )
        log = self.query_one(RichLog)
        log.clear()
        # a seat named "You" (the person who played against the computer) is told as you
        you = names.index("You") if "You" in names else None
        narration = EventLog(names, view.rules, you=you, verbose=True)
        narration.feed(view.history)
        for line in narration.lines:
            if line.strip():
                log.write(line.strip())
        hands = Text()
        if self.reveal:
            for seat, cards in enumerate(position.hands):
                hands.append(f"{names[seat]:<8}", style="bold")
                for card in hand_order(cards, "number"):
                    hands.append_text(card_text(card, colour_blind=self.colour_blind))
                    hands.append(" ")
                hands.append("\n")
        self.query_one("#hands", Static).update(hands)

    def action_step(self, step: int) -> None:
        self.index = max(0, min(len(self.steps) - 1, self.index + step))
        self.show()

    def action_go(self, index: int) -> None:
        self.index = index % len(self.steps)
        self.show()

    def action_hand(self, step: int) -> None:
        """Jump to the first position of the next (or this/previous) hand."""
        starts = [
            i
            for i, p in enumerate(self.steps)
            if i == 0 or p.view.hand_number != self.steps[i - 1].view.hand_number
        ]
        if step > 0:
            later = [i for i in starts if i > self.index]
            self.index = later[0] if later else len(self.steps) - 1
        else:
            earlier = [i for i in starts if i < self.index]
            self.index = earlier[-1] if earlier else 0
        self.show()

    def action_colour_blind(self) -> None:
        self.colour_blind = not self.colour_blind
        self.show()


def _position(game: Game, number: int, text: str | None, actor: int | None) -> Position:
    return Position(
        number=number,
        action=text,
        actor=actor,
        view=game.view(None),
        hands=tuple(game.hand(seat) for seat in range(game.num_players)),
    )

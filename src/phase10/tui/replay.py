"""``phase10 replay FILE``: step through any game record, action by action."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Label, Static

from phase10.core import Card, Event, Game, HandEnded, HandStarted, PlayerView
from phase10.core.narration import EventLog
from phase10.core.records import GameRecord, RecordError, reshuffle_unseen
from phase10.search import Decision, Review

from .render import card_text
from .review import Closed, ReviewScreen, possessive
from .screens import ChoiceScreen, dismiss_once
from .widgets import GameLog, GroupRow, PilesPanel, SeatsPanel, hand_order, title_width

__all__ = [
    "PastGameReplayScreen",
    "Position",
    "ReplayApp",
    "ReplayScreen",
    "read_positions",
    "you_seat",
]


@dataclass(frozen=True, slots=True)
class Position:
    """The game after ``number`` actions: the last action (in words too), the public view,
    every hand. At the end of a hand, ``ended`` is its result and the view shows the table
    as the hand ended; the next position is the next hand's deal (``action`` None)."""

    number: int
    action: str | None
    actor: int | None
    view: PlayerView
    hands: tuple[tuple[Card, ...], ...]
    #: the action as the log tells it ("You discard R7"), or what the position is
    said: str = ""
    ended: HandEnded | None = None
    #: this hand's events so far, whole (the log tells them as the person saw them)
    events: tuple[Event, ...] = ()


def you_seat(names: Sequence[str]) -> int | None:
    """The seat the replay speaks to as "you": the person named You, if anyone is.

    >>> you_seat(["Ann", "You"]), you_seat(["Ann", "Bob"])
    (1, None)
    """
    return list(names).index("You") if "You" in names else None


def read_positions(record: GameRecord, *, reveal: bool = True) -> list[Position]:
    """Every position of the record, each hand's end included (raises
    :class:`RecordError` if it does not replay). The actions are told as the person (the
    seat named You) saw them, or with ``reveal`` False as a spectator did."""
    # a terminal game's record may say where an undo reshuffled the unseen cards
    reshuffles = record.reshuffles()
    game = record.new_game()
    you = you_seat(record.players)
    viewer = you if reveal else None
    log = EventLog(record.players, record.rules, viewer=viewer, you=you, verbose=True)
    log.feed(game.history)
    found = [_position(game, 0, None, None, "the deal of hand 1")]
    # the game at its hand's deal, to show a hand's end from (see _hand_end)
    hand_start, hand_first = copy.deepcopy(game), 0
    for number, text in enumerate(record.actions, start=1):
        for point, salt in reshuffles:
            if point == number - 1:
                reshuffle_unseen(game, salt)
        actor = game.current
        try:
            events = game.apply(text)
        except ValueError as error:
            raise RecordError(f"action {number} ({text!r}) does not apply: {error}") from None
        said = _told(log, events, text)
        dealt = [event for event in events if isinstance(event, HandStarted)]
        ended = [event for event in events if isinstance(event, HandEnded)]
        if not dealt:
            found.append(_position(game, number, text, actor, said, *ended))
            continue
        # the engine deals the next hand in the same step: show the table as the hand ended
        at_end = _hand_end(hand_start, record.actions[:number], reshuffles, hand_first)
        found.append(_position(at_end, number, text, actor, said, *ended))
        found.append(_position(game, number, None, None, f"the deal of hand {dealt[-1].hand}"))
        hand_start, hand_first = copy.deepcopy(game), number
    return found


class ReplayScreen(Screen[None]):
    """Steps through a record: ← → one action, Home/End, n/b the next/previous hand; r
    reviews a player's decisions, m/M go to the next/previous mistake found.

    ``path`` is the record's file (its reviews are kept beside it); ``seat`` the player to
    review (None: the person named You, else the person who played, else ask).
    ``review_now`` opens the review at once.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "Next"),
        Binding("left", "step(-1)", "Back"),
        Binding("n", "hand(1)", "Next hand"),
        Binding("b", "hand(-1)", "Prev hand"),
        Binding("home", "go(0)", "Start", show=False),
        Binding("end", "go(-1)", "End", show=False),
        Binding("r", "review", "Review"),
        Binding("m", "mistake(1)", "Mistake"),
        Binding("M", "mistake(-1)", "Previous mistake", show=False),
        Binding("c", "colour_blind", "Colours"),
        Binding("q", "app.quit", "Quit"),
    ]
    #: whether the screen closes back to what opened it (:class:`GameReplayScreen`)
    closable: ClassVar[bool] = False

    def __init__(
        self,
        record: GameRecord,
        positions: Sequence[Position],
        *,
        reveal: bool = True,
        colour_blind: bool = False,
        path: Path | None = None,
        seat: int | None = None,
        review_now: bool = False,
    ) -> None:
        super().__init__()
        self.record = record
        self.steps = list(positions)
        self.reveal = reveal
        self.colour_blind = colour_blind
        self.path = path
        self.review_now = review_now
        self.index = 0
        tag = record.tag("controllers")
        #: who played each seat, when the record says (a game against the computer does)
        self.kinds: list[str] | None = (
            [who.replace("human", "you") for who in tag.split(",")] if tag else None
        )
        self.seat = seat if seat is not None else self.default_seat()
        #: the reviews made so far, by seat; the one last shown steers m and M
        self.reviews: dict[int, Review] = {}
        self.review: Review | None = None

    def default_seat(self) -> int | None:
        """The seat to review unasked: the person named You, else the one person who
        played against the computer (None: ask)."""
        you = you_seat(self.record.players)
        if you is not None:
            return you
        if self.kinds is not None and self.kinds.count("you") == 1:
            return self.kinds.index("you")
        return None

    def compose(self) -> ComposeResult:
        yield Label(id="replay-title")
        yield Label(id="replay-mistake")
        with Horizontal(id="top"):
            yield SeatsPanel(id="seats")
            yield PilesPanel(id="piles")
        with Horizontal(id="middle"):
            yield VerticalScroll(id="table-groups")
            yield GameLog(id="log", max_lines=400, min_width=20)
        yield Static(id="hands")
        # every key the footer names fits 80 columns (Home and End go unnamed; the
        # palette, ctrl+p, still opens)
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#table-groups").border_title = "Table"
        self.query_one("#log").border_title = "This hand"
        self.show()
        if self.review_now:
            self.call_after_refresh(self.action_review)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # m and M are offered once a review has found a mistake
        if action == "mistake":
            return self.review is not None and bool(self.review.mistakes)
        return True

    @property
    def position(self) -> Position:
        return self.steps[self.index]

    def show(self) -> None:
        position = self.position
        view = position.view
        names = [info.name for info in view.seats]
        you = you_seat(names)
        last = self.steps[-1].number
        ends = " (the hand ends)" if position.ended is not None else ""
        self.query_one("#replay-title", Label).update(
            f"Hand {view.hand_number} · action {position.number} of {last} — {position.said}{ends}"
        )
        self.show_mistake()
        self.query_one(SeatsPanel).show(view, self.kinds, colour_blind=self.colour_blind)
        self.query_one(PilesPanel).show(view, colour_blind=self.colour_blind)
        groups = self.query_one("#table-groups")
        groups.remove_children()
        width = title_width(view, you)
        groups.mount_all(
            GroupRow(view, gid, colour_blind=self.colour_blind, you=you, title_width=width)
            for gid in range(len(view.melds))
        )
        log = self.query_one(GameLog)
        log.reset()
        # a seat named "You" (the person who played against the computer) is told as you
        # the person's own draws as they saw them; the others' stay hidden, as at the table
        viewer = you if self.reveal else None
        narration = EventLog(names, view.rules, viewer=viewer, you=you, verbose=True)
        narration.feed(position.events or view.history)
        for line in narration.lines:
            if line.strip():
                log.say(line.strip())
        hands = Text()
        ended = position.ended
        width = max(8, *(len(name) + 1 for name in names))
        for seat, cards in enumerate(position.hands):
            if not self.reveal and ended is None:
                break
            hands.append(f"{names[seat]:<{width}}", style="bold")
            if ended is not None:
                # the hand's points and the running total, as the score sheet has them
                points = ended.points[seat]
                shown = "sits out" if points is None else f"+{points}"
                hands.append(f"{shown:>4} → {ended.totals[seat]:<5} ")
            for card in hand_order(cards, "number") if self.reveal else ():
                hands.append_text(card_text(card, colour_blind=self.colour_blind))
                hands.append(" ")
            hands.append("\n")
        self.query_one("#hands", Static).update(hands)

    def show_mistake(self) -> None:
        """Under the title, the mistake made at this position, if the review found one."""
        line = self.query_one("#replay-mistake", Label)
        found = self.mistake_here()
        line.display = found is not None
        if found is None or self.review is None:
            return
        mistakes = sorted(self.review.mistakes, key=lambda d: d.step)
        text = Text()
        whose = possessive(self.review.name)
        whose = whose[0].upper() + whose[1:]
        text.append(
            f"{whose} mistake here ({mistakes.index(found) + 1} of {len(mistakes)} in the "
            "game; m/M the next/previous): ",
            style="bold",
        )
        text.append(f"{found.played} → the expert: {found.best} (cost {found.loss:.2f}); ")
        text.append(found.reason, style="italic")
        line.update(text)

    def mistake_here(self) -> Decision | None:
        if self.review is None:
            return None
        for decision in self.review.mistakes:
            if self.index_of(decision.step) == self.index:
                return decision
        return None

    def index_of(self, step: int) -> int:
        """The position at which a decision made after ``step`` actions was made (the next
        hand's deal, when the action before it ended a hand)."""
        found = [i for i, p in enumerate(self.steps) if p.number == step and p.ended is None]
        return found[-1] if found else min(step, len(self.steps) - 1)

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

    def action_back(self) -> None:
        if self.closable:
            dismiss_once(self, None)

    # -- the review --------------------------------------------------------------------

    def action_review(self) -> None:
        if self.seat is None:

            def chosen(seat: int | None) -> None:
                if seat is not None:
                    self.seat = seat
                    self.action_review()

            self.app.push_screen(
                ChoiceScreen(
                    "Review whose decisions? (p on the review picks another)",
                    [(name, seat) for seat, name in enumerate(self.record.players)],
                ),
                chosen,
            )
            return
        screen = ReviewScreen(self.record, self.seat, path=self.path, memo=self.reviews)
        self.app.push_screen(screen, self.reviewed)

    def reviewed(self, closed: Closed | None) -> None:
        done, step = closed if closed is not None else (None, None)
        if done is not None:
            self.review = done
            self.seat = done.player
            self.refresh_bindings()
        if step is not None:
            self.index = self.index_of(step)
            self.show()
        elif self.review_now and self.closable:
            # opened for its review alone: closing the review goes back to the game
            dismiss_once(self, None)
            return
        else:
            self.show()
        self.review_now = False

    def action_mistake(self, direction: int) -> None:
        """Go to the next (or previous) mistake of the review, in the game's order."""
        if self.review is None:
            return
        places = sorted({self.index_of(d.step) for d in self.review.mistakes})
        later = [i for i in places if i > self.index]
        earlier = [i for i in places if i < self.index]
        target = (later[:1] if direction > 0 else earlier[-1:]) or None
        if target is None:
            self.notify("no later mistake" if direction > 0 else "no earlier mistake")
            return
        self.index = target[0]
        self.show()


class GameReplayScreen(ReplayScreen):
    """The replay of the game just finished in the terminal game, over its result: Escape
    (or q) goes back to the result; closing its review unpicked goes back there too."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back to the result"),
        Binding("q", "back", "Back", show=False),
    ]
    closable = True


class PastGameReplayScreen(ReplayScreen):
    """A finished game picked from the past games (F3): Escape (or q) goes back to the
    list."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back to the list"),
        Binding("q", "back", "Back", show=False),
    ]
    closable = True


class ReplayApp(App[None]):
    """``phase10 replay``: the :class:`ReplayScreen` of one record (``path``: its file)."""

    TITLE = "Phase 10 replay"
    CSS_PATH = "play.tcss"

    def __init__(
        self,
        record: GameRecord,
        positions: Sequence[Position],
        *,
        reveal: bool = True,
        colour_blind: bool = False,
        path: Path | None = None,
    ) -> None:
        super().__init__()
        self.replay = ReplayScreen(
            record, positions, reveal=reveal, colour_blind=colour_blind, path=path
        )

    read = staticmethod(read_positions)

    def get_default_screen(self) -> ReplayScreen:
        return self.replay

    # the replay's state, for those who hold the app
    @property
    def record(self) -> GameRecord:
        return self.replay.record

    @property
    def steps(self) -> list[Position]:
        return self.replay.steps

    @property
    def index(self) -> int:
        return self.replay.index

    @index.setter
    def index(self, index: int) -> None:
        self.replay.index = index

    @property
    def position(self) -> Position:
        return self.replay.position

    def show(self) -> None:
        self.replay.show()


def _position(
    game: Game,
    number: int,
    text: str | None,
    actor: int | None,
    said: str,
    ended: HandEnded | None = None,
) -> Position:
    return Position(
        number=number,
        action=text,
        actor=actor,
        view=game.view(None),
        hands=tuple(game.hand(seat) for seat in range(game.num_players)),
        said=said,
        ended=ended,
        events=tuple(game.history[game.hand_start :]),
    )


def _told(log: EventLog, events: Sequence[Event], text: str) -> str:
    """The action as the log tells it (its first line), or its text when the log is silent."""
    start = len(log.lines)
    log.feed(events)
    for line in log.lines[start:]:
        if line.startswith("  ") and ": " in line:
            return line.split(": ", 1)[1]
    return text


def _hand_end(
    start: Game, actions: Sequence[str], reshuffles: Sequence[tuple[int, int]], first: int
) -> Game:
    """The game as the last of ``actions`` ended the hand, before the next deal.

    ``start`` is a copy of the game with ``first`` actions played (the hand's deal);
    ``actions`` are the record's, up to the one that ends the hand. The engine deals the
    next hand in the same step as it ends one, so the last action is played by
    :meth:`Game.table_as_hand_ends`, which stops before the deal.
    """
    game = copy.deepcopy(start)
    for number in range(first, len(actions)):
        for point, salt in reshuffles:
            if point == number:
                reshuffle_unseen(game, salt)
        if number == len(actions) - 1:
            return game.table_as_hand_ends(actions[number])
        game.apply(actions[number])
    return game

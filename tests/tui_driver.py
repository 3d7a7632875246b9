"""Playing the terminal game the way a person does: keys and clicks, never the engine.

The person's moves are chosen by a greedy bot from the person's view, then entered
through the interface: select cards, press keys or click, answer the dialogs.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import OptionList

from phase10.bots.greedy import GreedyPlayer
from phase10.core import (
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    GiveWild,
    Hit,
    LayDown,
    Stage,
    TakeDiscard,
)
from phase10.tui.app import PlayApp
from phase10.tui.screens import ChoiceScreen
from phase10.tui.session import Session, Settings
from phase10.tui.widgets import CardChip, GroupRow, PilesPanel, hand_order


async def settle(pilot: Pilot[None], app: PlayApp, limit: int = 400) -> None:
    """Wait until the person is to move, a result screen is up, or the game is over."""
    for _ in range(limit):
        await pilot.pause()
        session = app.session
        if session is None:
            continue
        if app.waiting or session.game.is_over:
            return
        if session.human_to_move and not app.thinking:
            return
        await app.workers.wait_for_complete()
    state = app.session and (app.session.game.stage, app.session.game.current, app.thinking)
    raise AssertionError(f"the computer players never handed the move back: {state} {app.screen}")


def positions_of(app: PlayApp, cards: list[Card]) -> list[int]:
    """Where the cards sit in the hand as shown (copies of a card take distinct places)."""
    assert app.session is not None
    shown = hand_order(app.session.view.hand, app.sort_by)
    used: set[int] = set()
    found = []
    for card in cards:
        place = next(i for i, c in enumerate(shown) if c == card and i not in used)
        used.add(place)
        found.append(place)
    return found


async def select(pilot: Pilot[None], app: PlayApp, cards: list[Card], *, click: bool) -> None:
    """Select exactly these cards: by clicking them, or with the cursor and space."""
    await pilot.press("escape")
    for place in positions_of(app, cards):
        if click:
            chip = next(chip for chip in app.query(CardChip) if chip.position == place)
            await pilot.click(chip)
        elif place < 10:
            await pilot.press(str((place + 1) % 10))  # 0 is the 10th card
        else:
            await pilot.press("home", *["right"] * place, "space")
    await pilot.pause()
    assert sorted(app.selected) == sorted(positions_of(app, cards))


async def choose(pilot: Pilot[None], app: PlayApp, wanted: Action) -> str | None:
    """Answer an open choice dialog with the option whose action is ``wanted``; return the
    dialog's title (None when there was none: a single way, played at once).
    """
    await pilot.pause()
    screen = app.screen
    if not isinstance(screen, ChoiceScreen):
        return None
    values = [value for _, value in screen.options]
    index = values.index(wanted)
    screen.query_one(OptionList).highlighted = index
    await pilot.press("enter")
    await pilot.pause()
    return screen.title_text


async def enter(pilot: Pilot[None], app: PlayApp, action: Action, *, mouse: bool) -> str | None:
    """Enter one action through the interface; return the title of the dialog it needed."""
    assert app.session is not None
    dialog = None
    view = app.session.view
    canonical = view.check(action)
    match canonical:
        case Draw() if mouse:
            await pilot.click(PilesPanel, offset=(3, 1))
        case Draw():
            await pilot.press("d")
        case TakeDiscard() if mouse:
            await pilot.click(PilesPanel, offset=(3, 0))
        case TakeDiscard():
            await pilot.press("t")
        case LayDown():
            await select(pilot, app, list(canonical.cards), click=mouse)
            await pilot.press("l")
            dialog = await choose(pilot, app, canonical)
        case Hit():
            await select(pilot, app, [canonical.card], click=mouse)
            if mouse:
                row = next(row for row in app.query(GroupRow) if row.group_id == canonical.group)
                await pilot.click(row)
            else:
                await pilot.press("h")
            dialog = await choose(pilot, app, canonical)
        case Discard():
            await select(pilot, app, [canonical.card], click=mouse)
            if mouse:
                await pilot.click(PilesPanel, offset=(3, 0))
            else:
                await pilot.press("x")
            dialog = await choose(pilot, app, canonical)
        case Declare():
            await pilot.press("e")
            dialog = await choose(pilot, app, canonical)
        case GiveWild():
            await pilot.press("g")
            dialog = await choose(pilot, app, canonical)
    await pilot.pause()
    return dialog


class Person:
    """Chooses the person's moves (greedy, from the person's view) and enters them."""

    def __init__(self, seed: int) -> None:
        self.bot = GreedyPlayer(random.Random(seed))
        self.moves = 0
        self.dialogs: list[str] = []

    async def turn(self, pilot: Pilot[None], app: PlayApp) -> Action:
        assert app.session is not None
        action = app.session.view.check(self.bot.choose(app.session.view))
        before = len(app.session.game.actions)
        dialog = await enter(pilot, app, action, mouse=self.moves % 3 == 1)
        if dialog is not None:
            self.dialogs.append(dialog)
        self.moves += 1
        assert len(app.session.game.actions) > before, f"{action} was not played: {app.error_text}"
        return action


def played_until(settings: Settings, done: Callable[[Session], bool], seed: int = 3) -> Session:
    """A game without a screen (the person played by a greedy bot), stopped at the person's
    first turn where ``done`` holds: a seeded position, reached the same way every run."""
    session = Session.new(settings, autosave=None)
    person = GreedyPlayer(random.Random(seed))
    while True:
        if session.human_to_move and done(session):
            return session
        assert not session.game.is_over, "the game ended first"
        if session.human_to_move:
            session.apply(person.choose(session.view))
        else:
            session.play_bot()


def six_players_with_groups_down(groups: int = 8) -> Session:
    """Six players (five greedy opponents), ``groups`` groups or more on the table, the
    person to draw."""
    return played_until(
        Settings(opponents=5, difficulty="greedy", seed=3),
        lambda s: len(s.view.melds) >= groups and s.view.stage is Stage.DRAW,
    )


def played_to_the_end(settings: Settings) -> Session:
    """A whole game of ``settings`` with no screen: the person's seat played by a greedy
    bot seeded like the game, every other seat by its own bot."""
    session = Session.new(settings, autosave=None)
    person = GreedyPlayer(random.Random(settings.seed))
    while not session.game.is_over:
        if session.human_to_move:
            session.apply(person.choose(session.view))
        else:
            session.play_bot()
    return session


def two_wilds_to_place() -> Session:
    """You (after drawing G7) hold R7 B7 G7 Y3 Y3 W W: phase 1's two sets take the Wilds
    either way (with the 7s or with the 3s); Ann plays greedy."""
    from helpers import arranged
    from phase10.bots.seats import HUMAN

    game = arranged(
        ["R7 B7 G7 Y3 Y3 W W G9 B10 R11", "R1 R2 R3 R4 R5 B6 B8 G9 G10 G11"],
        discard="B5",
        draw="G7",
        names=["You", "Ann"],
    )
    session = Session(game, (HUMAN, "greedy"))
    session.apply("draw")
    return session

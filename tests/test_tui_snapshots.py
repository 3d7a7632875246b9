"""Screen snapshots of the terminal game: every main screen, drawn at 120 x 40 (and the
table, the new-game screen and a few others at 80 x 24 too).

Each position is seeded and reached the same way every run; nothing on screen depends
on the clock, the machine or a path. Update the pictures with ``--snapshot-update``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.table import Table
from textual.pilot import Pilot
from textual.widgets import Input, Static

from phase10.bots.greedy import GreedyPlayer
from phase10.core import SKIP, Action, Event, GameEnded, HandEnded, Rules, Stage
from phase10.core.records import GameRecord
from phase10.tui.app import PlayApp
from phase10.tui.replay import ReplayApp
from phase10.tui.screens import ChoiceScreen, GameOverScreen, HandEndScreen, InfoScreen
from phase10.tui.session import Session, Settings
from phase10.tui.widgets import CardChip, hand_order
from tui_driver import enter, select, settle, six_players_with_groups_down

SIZE = (120, 40)
#: at the person's first turn to play (after being skipped once) they hold a Skip, and
#: after drawing, any of the three opponents can be skipped
SKIP_SEED = 3

Compare = Callable[..., bool]
RunBefore = Callable[[Pilot[None]], Awaitable[None]]


def table_app(seed: int = SKIP_SEED, **options: Any) -> PlayApp:
    settings = Settings(opponents=3, difficulty="greedy", seed=seed)
    return PlayApp(settings, start=True, autosave=None, bot_delay=0, **options)


def at_first_turn(*keys: str) -> RunBefore:
    """Wait for the person's first turn to play, then press ``keys``."""

    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, PlayApp)
        await settle(pilot, app)
        assert app.session is not None and app.session.view.stage is Stage.DRAW
        if keys:
            await pilot.press(*keys)
            await pilot.pause()

    return run_before


def ends(session: Session, action: Action, kind: type[Event]) -> bool:
    """Whether ``action`` (the next one) brings an event of ``kind``, tried on a copy."""
    trial = copy.deepcopy(session.game)
    return any(isinstance(event, kind) for event in trial.apply(action))


def just_before(kind: type[Event], rules: Rules, seed: int) -> tuple[Session, Action]:
    """A game (the person played by a greedy bot) stopped one action before the first
    event of ``kind`` (the end of a hand, or of the game), and that action.
    """
    session = Session.new(
        Settings(opponents=2, difficulty="greedy", seed=seed, rules=rules), autosave=None
    )
    person = GreedyPlayer(random.Random(seed))
    while True:
        action = person.choose(session.view) if session.human_to_move else session.bot_action()
        if ends(session, action, kind):
            return session, action
        if session.human_to_move:
            session.apply(action)
        else:
            session.apply_bot(action)


def finish_the_hand(last: Action) -> RunBefore:
    """Play the hand's last action: by keys if it is the person's, else the bot plays it."""

    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, PlayApp)
        await settle(pilot, app)
        if not app.waiting:
            assert app.session is not None and app.session.human_to_move
            await enter(pilot, app, last, mouse=False)
            await settle(pilot, app)
        assert app.waiting

    return run_before


def noting_the_screen(run_before: RunBefore, screens: list[object]) -> RunBefore:
    """``run_before``, then note the screen on top (the app is gone once pictured)."""

    async def noted(pilot: Pilot[None]) -> None:
        await run_before(pilot)
        screens.append(pilot.app.screen)

    return noted


async def steady_cursor(pilot: Pilot[None]) -> None:
    """The name field's cursor stops blinking, shown (a picture taken mid-blink would
    differ). The field gets the focus a moment after the screen shows, and the focus
    restarts the blink: so wait for it, then turn the blink off."""
    for _ in range(100):
        await pilot.pause()
        if isinstance(pilot.app.focused, Input):
            break
    for field in pilot.app.screen.query(Input):  # (the new-game screen's, on top)
        field.cursor_blink = False  # pauses the blink with the cursor shown
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), SIZE], ids=["80x24", "120x40"])
def test_new_game_screen(snap_compare: Compare, size: tuple[int, int]) -> None:
    app = PlayApp(Settings(opponents=2, difficulty="greedy", seed=11), autosave=None)
    assert snap_compare(app, terminal_size=size, run_before=steady_cursor)
    assert app.session is None


def test_table_at_the_first_turn(snap_compare: Compare) -> None:
    assert snap_compare(table_app(), terminal_size=SIZE, run_before=at_first_turn())


def test_table_after_drawing_with_two_cards_selected(snap_compare: Compare) -> None:
    app = table_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=at_first_turn("d", "1", "3"))
    assert app.selected == {0, 2}
    assert app.session is not None and app.session.view.stage is Stage.PLAY


def test_table_in_colour_blind_mode(snap_compare: Compare) -> None:
    app = table_app()
    assert snap_compare(app, terminal_size=SIZE, run_before=at_first_turn("c"))
    assert app.colour_blind


def test_skip_whom_dialog(snap_compare: Compare) -> None:
    app = table_app()
    screens: list[object] = []

    async def run_before(pilot: Pilot[None]) -> None:
        await at_first_turn("d")(pilot)
        assert app.session is not None
        assert len(app.session.view.skip_targets(app.session.human)) >= 2
        await select(pilot, app, [SKIP], click=False)
        await pilot.press("x")
        await pilot.pause()
        screens.append(app.screen)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    (screen,) = screens
    assert isinstance(screen, ChoiceScreen) and screen.title_text == "Skip whom?"
    assert [label for label, _ in screen.options] == ["Ann", "Bob", "Cy"]


def test_hand_end_screen(snap_compare: Compare) -> None:
    session, last = just_before(HandEnded, Rules(phases=(1, 2)), seed=4)
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    screens: list[object] = []
    run_before = noting_the_screen(finish_the_hand(last), screens)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    assert isinstance(screens[0], HandEndScreen)
    assert app.session is not None and not app.session.game.is_over


def test_game_over_screen(snap_compare: Compare) -> None:
    session, last = just_before(GameEnded, Rules(phases=(1,)), seed=6)
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    screens: list[object] = []
    run_before = noting_the_screen(finish_the_hand(last), screens)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    assert isinstance(screens[0], GameOverScreen)
    assert app.session is not None and app.session.game.is_over
    assert any(isinstance(event, GameEnded) for event in app.session.game.history)


def test_keys_help(snap_compare: Compare) -> None:
    app = table_app()
    screens: list[object] = []
    run_before = noting_the_screen(at_first_turn("k"), screens)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    assert isinstance(screens[0], InfoScreen) and screens[0].title_text == "Keys"


def finished_record(seed: int) -> GameRecord:
    """A short whole game, every seat played by a bot through the session."""
    session = Session.new(
        Settings(opponents=2, difficulty="greedy", seed=seed, rules=Rules(phases=(1, 2))),
        autosave=None,
    )
    person = GreedyPlayer(random.Random(seed))
    while not session.game.is_over:
        if session.human_to_move:
            session.apply(person.choose(session.view))
        else:
            session.play_bot()
    return session.record()


def test_replay_viewer(snap_compare: Compare) -> None:
    record = finished_record(5)
    steps = ReplayApp.read(record)
    app = ReplayApp(record, steps)
    # into the second hand, a few actions after its deal
    assert snap_compare(app, terminal_size=SIZE, press=["n", *["right"] * 6])
    assert steps[app.index].view.hand_number == 2


SMALL = (80, 24)


@pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "120x40"])
def test_score_sheet(snap_compare: Compare, size: tuple[int, int]) -> None:
    session, last = just_before(HandEnded, Rules(phases=(1, 2)), seed=4)
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    screens: list[object] = []

    async def run_before(pilot: Pilot[None]) -> None:
        await finish_the_hand(last)(pilot)
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("o")
        await pilot.pause()
        screens.append(app.screen)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
    assert isinstance(screens[0], InfoScreen) and screens[0].title_text == "Score sheet"


@pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "120x40"])
def test_table_at_80_by_24_and_120_by_40(snap_compare: Compare, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(), terminal_size=size, run_before=at_first_turn())


@pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "120x40"])
def test_play_asks_before_replacing_a_game_in_progress(
    snap_compare: Compare,
    size: tuple[int, int],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path))
    save = tmp_path / "autosave.json"
    Session.new(Settings(opponents=2, difficulty="greedy", seed=11), autosave=save)
    app = PlayApp(Settings(opponents=2, difficulty="greedy", seed=12), autosave=save)
    assert snap_compare(app, terminal_size=size, press=["ctrl+s"])
    assert app.session is None  # still asking: nothing replaced


@pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "120x40"])
def test_six_players(snap_compare: Compare, size: tuple[int, int]) -> None:
    app = PlayApp(session=six_players_with_groups_down(), autosave=None, bot_delay=0)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("d")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
    assert app.session is not None and len(app.session.view.seats) == 6


async def test_the_hand_summary_comes_on_top_of_an_open_page() -> None:
    session, last = just_before(HandEnded, Rules(phases=(1, 2)), seed=4)
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert not app.waiting and app.session is not None and app.session.human_to_move
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, InfoScreen)
        app.play(last)  # the hand ends while the phase list is open
        await pilot.pause()
        assert isinstance(app.screen, HandEndScreen) and len(app.screen_stack) == 2
        await pilot.press("enter")
        await settle(pilot, app)
        # the phase list marks the phase the person may make now, not an old one
        await pilot.press("p")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InfoScreen) and isinstance(screen.body, Table)
        marks = list(screen.body.columns[2].cells)
        me = app.session.view.seats[app.session.human]
        assert [i for i, mark in enumerate(marks) if mark == "← now"] == [me.phase]


async def test_the_table_shows_the_ended_hand_until_its_summary_is_dismissed() -> None:
    session, last = just_before(HandEnded, Rules(phases=(1, 2)), seed=4)
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert app.session is not None and app.session.human_to_move

        def chips() -> list[object]:
            return [chip.card for chip in app.query(CardChip)]

        before = chips()
        app.play(last)
        await pilot.pause()
        assert isinstance(app.screen, HandEndScreen)
        assert app.session.view.hand_number == 2  # dealt already...
        # ...but the table shows hand 1 as it ended: the last move played, not the deal
        ended = app.session.table_at_hand_end()
        assert ended.hand_number == 1 and chips() == hand_order(ended.hand, app.sort_by)
        assert chips() != before
        assert "The hand is over" in str(app.query_one("#prompt", Static).render())
        await pilot.press("enter")
        await settle(pilot, app)
        assert chips() == hand_order(app.session.view.hand, app.sort_by)

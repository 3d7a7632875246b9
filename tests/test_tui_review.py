"""The game review in the terminal: from the replay (r, a mistake picked, m/M), from the
game-over screen, and a record that cannot be reviewed. Tiny games and few deals keep
each review well under a second."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import pytest
from textual.widgets import Label, OptionList, Static

from phase10 import kernel
from phase10.core import Rules, SavePile
from phase10.core.records import GameRecord, dumps, loads
from phase10.search import Review, cached_review
from phase10.tui.app import PlayApp
from phase10.tui.replay import GameReplayScreen, ReplayApp, ReplayScreen
from phase10.tui.review import Effort, ReviewScreen, WinChart
from phase10.tui.screens import GameOverScreen, NewGameScreen
from phase10.tui.session import Session, Settings
from tui_driver import played_to_the_end

SIZE = (100, 40)
needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")


@pytest.fixture(autouse=True)
def _small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ReviewScreen, "effort", Effort(deals=8, win_deals=4))
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path / "home"))


def finished(seed: int = 9, rules: Rules | None = None) -> Session:
    """A one-phase game against one greedy bot, the person's seat played by another
    (seed 9: the review finds a mistake in it)."""
    settings = Settings(
        opponents=1, difficulty="greedy", seed=seed, rules=rules or Rules(phases=(1,))
    )
    return played_to_the_end(settings)


async def reviewed(pilot, app) -> ReviewScreen:  # type: ignore[no-untyped-def]
    """Wait for the review screen's review (or its refusal)."""
    for _ in range(200):
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, ReviewScreen) and (screen.shown or screen.error):
            return screen
        await app.workers.wait_for_complete()
    raise AssertionError(f"no review came: {app.screen}")


@needs_kernel
async def test_the_replay_reviews_you_and_goes_to_a_mistake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = finished().record()
    path = tmp_path / "game.json"
    path.write_text(dumps(record))
    app = ReplayApp(record, ReplayApp.read(record), path=path)
    async with app.run_test(size=SIZE) as pilot:
        replay = app.replay
        assert not replay.check_action("mistake", (1,))  # m waits for a review
        await pilot.press("r")
        screen = await reviewed(pilot, app)
        done = screen.shown
        assert done is not None and done.player == 0 and done.deals == 8
        assert "your view only" in str(screen.query_one("#review-note", Static).render())
        mistakes = done.mistakes
        assert mistakes, "seed 9's game has a mistake to show"
        options = screen.query_one("#review-mistakes", OptionList)
        assert options.option_count == len(mistakes)
        first = str(options.get_option_at_index(0).prompt)
        assert mistakes[0].played in first and mistakes[0].best in first
        assert mistakes[0].reason in first
        hands = screen.query_one("#review-hands", Static).render()
        assert "chance to win" in str(hands) or done.hands  # the table is drawn
        chart = str(screen.query_one(WinChart).render())
        assert all(name in chart for name in record.players) and "%" in chart

        # Enter on the costliest mistake: the replay stands where it was made
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is replay
        assert replay.position.number == mistakes[0].step and replay.position.ended is None
        said = str(replay.query_one("#replay-mistake", Label).render())
        assert "Your mistake here" in said and mistakes[0].best in said
        # m and M step through the mistakes in the game's order
        order = sorted(d.step for d in mistakes)
        await pilot.press("home", "m")
        assert replay.position.number == order[0]
        await pilot.press("end", "M")
        assert replay.position.number == order[-1]

    # the review was kept beside the record: a second look reads it back, unsearched
    assert (tmp_path / "game.review.json").exists()

    def no_search(*_: object, **__: object) -> Review:
        raise AssertionError("searched again")

    # (phase10.search.review the function hides the module of that name)
    monkeypatch.setattr(importlib.import_module("phase10.search.review"), "review", no_search)
    app = ReplayApp(record, ReplayApp.read(record), path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        screen = await reviewed(pilot, app)
        assert screen.shown == done


@needs_kernel
async def test_a_record_without_you_asks_whom_to_review_and_p_switches() -> None:
    record = finished().record()
    record = GameRecord.from_dict({**record.to_dict(), "players": ["Ann", "Bob"], "tags": {}})
    app = ReplayApp(record, ReplayApp.read(record))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("down", "enter")  # Bob
        screen = await reviewed(pilot, app)
        assert screen.shown is not None and screen.shown.name == "Bob"
        assert "Bob's view only" in str(screen.query_one("#review-note", Static).render())
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("home", "enter")  # Ann
        screen = await reviewed(pilot, app)
        assert screen.shown is not None and screen.shown.name == "Ann"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.replay.seat == 0


@needs_kernel
async def test_r_on_the_game_over_screen_reviews_the_finished_game() -> None:
    session = finished()
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # a finished game opened (play --resume after its end) shows its result at once
        assert isinstance(app.screen, GameOverScreen)
        assert (
            len([screen for screen in app.screen_stack if isinstance(screen, GameOverScreen)]) == 1
        )
        await pilot.press("r")
        screen = await reviewed(pilot, app)
        assert screen.shown is not None and screen.shown.player == session.human
        # Escape goes back to the result, the replay closed with the review
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        # again: instant (kept), and a mistake picked opens the replay at it
        await pilot.press("r")
        screen = await reviewed(pilot, app)
        step = screen.shown.mistakes[0].step if screen.shown else -1
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameReplayScreen)
        assert app.screen.position.number == step
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


async def test_a_record_that_cannot_be_reviewed_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    # rules whose greedy play-outs the kernel lacks (none today: as if one were)
    lacking = "the greedy policy in the kernel does not play some_option = 'on' yet"
    module = importlib.import_module("phase10.search.review")
    monkeypatch.setattr(module, "greedy_unsupported", lambda rules: lacking)
    record = finished(rules=Rules(phases=(1,), save_pile=SavePile.PRIVATE)).record()
    app = ReplayApp(record, ReplayApp.read(record))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        screen = await reviewed(pilot, app)
        said = str(screen.query_one("#review-error", Static).render())
        assert said.startswith("No review: ") and screen.error is not None
        assert screen.error in said.replace("\n", " ") or screen.error[:30] in said
        assert not screen.query_one("#review-body").display
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.replay


def test_a_hand_without_a_decision_of_the_player_shows_no_chance() -> None:
    from dataclasses import replace

    from rich.console import Console

    from phase10.search import HandSummary
    from phase10.tui.review import hands_table

    done = Review(0, "You", ("You", "Bob"), 8, 4, 0, (), (), ())
    skipped = HandSummary(3, 0, 0, 0.0, False, 70, None, None)
    console = Console(width=100, record=True)
    console.print(hands_table(replace(done, hands=(skipped,))))
    text = console.export_text()
    assert "missed" in text and "70" in text and "%" not in text


async def test_a_finished_game_resumed_shows_its_result_and_n_starts_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``play --resume`` on a game already over is no dead end: its result, not counted
    again in the results file, and ``n`` goes to the new-game screen."""
    recorded: list[object] = []
    monkeypatch.setattr("phase10.tui.app.record_result", recorded.append)
    app = PlayApp(session=finished(), autosave=None, bot_delay=0)
    app.remember = True
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
    assert recorded == []


@needs_kernel
async def test_the_result_s_review_reads_the_one_made_from_past_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = finished()
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    app.remember = True  # (keeps the game in finished/, where Past games finds it)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and app.finished_path is not None
        # reviewed earlier from Past games: the kept copy, written at another time
        kept = dataclasses.replace(loads(app.finished_path.read_text()), date="2020-01-02T03:04:05")
        app.finished_path.write_text(dumps(kept))
        earlier = cached_review(app.finished_path, kept, session.human, deals=8, win_deals=4)

        def searched_again(*args: object, **kwargs: object) -> Review:
            raise AssertionError("the review was searched again")

        module = importlib.import_module("phase10.search.review")
        monkeypatch.setattr(module, "review", searched_again)
        await pilot.press("r")
        screen = await reviewed(pilot, app)
        assert screen.error is None and screen.shown is not None
        assert screen.shown.to_dict() == earlier.to_dict()

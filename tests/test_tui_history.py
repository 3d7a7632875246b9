"""Finished games kept for replay: kept once at the game's end, listed by F3 newest first,
replayed from the list (Escape comes back to it), the oldest dropped with their reviews,
and ``phase10 replay`` with no file opening the newest.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.app import App
from typer.testing import CliRunner

from phase10.cli.app import app as cli
from phase10.core import GameEnded, Rules
from phase10.tui import history
from phase10.tui.app import PlayApp
from phase10.tui.history import finished_dir, finished_games, keep_finished
from phase10.tui.replay import PastGameReplayScreen, ReplayApp
from phase10.tui.screens import ChoiceScreen, GameOverScreen, NewGameScreen
from phase10.tui.session import Session, Settings
from tui_driver import played_to_the_end, settle

SMALL = (80, 24)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("PHASE10_HOME", str(home))
    return home


def finished(seed: int, opponents: int = 1) -> Session:
    """A one-phase game against greedy bots, played to its end by a greedy person."""
    rules = Rules(phases=(1,))
    return played_to_the_end(
        Settings(opponents=opponents, difficulty="greedy", seed=seed, rules=rules)
    )


def game_end(session: Session) -> GameEnded:
    return next(e for e in session.game.history if isinstance(e, GameEnded))


async def test_a_finished_game_is_kept_once_and_replayed_from_the_list() -> None:
    session = finished(seed=6)
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    app.remember = True
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        app.show_game_over(game_end(session), record=False)  # shown again: kept once
        kept = finished_games()
        assert [game.path for game in kept] == [app.finished_path]
        assert kept[0].record.actions == session.record().actions
        assert kept[0].seat == session.human
        app.pop_screen()  # (the second result screen)
        await pilot.press("f3")
        assert isinstance(app.screen, ChoiceScreen)
        assert "Replay which game?" in app.screen.title_text
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, PastGameReplayScreen)
        assert replay.path == app.finished_path and replay.seat == session.human
        assert len(replay.steps) == len(session.record().actions) + 1  # the deal, then each
        await pilot.press("end")
        assert replay.index == len(replay.steps) - 1
        await pilot.press("escape")  # back to the list, not out of the game
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("r")  # the review is filed beside the kept copy
        await pilot.pause()
        assert app.screen.path == app.finished_path  # type: ignore[attr-defined]


async def test_past_games_from_the_new_game_screen_and_none_yet() -> None:
    app = PlayApp(Settings(opponents=1, difficulty="greedy", seed=3), autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        shown = [n.message for n in app._notifications]
        assert any("No finished game yet" in message for message in shown), shown
        keep_finished(finished(seed=2))
        keep_finished(finished(seed=4))
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert [label for label, _ in app.screen.options] == [g.label for g in finished_games()]
        assert len(app.screen.options) == 2


def test_the_newest_come_first_and_the_oldest_go_with_their_reviews(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(history, "KEPT", 2)
    paths = []
    for age, seed in enumerate((1, 2, 3)):
        path = keep_finished(finished(seed))
        os.utime(path, (1_000_000 + age, 1_000_000 + age))
        path.with_name(f"{path.stem}.review.json").write_text("{}")
        paths.append(path)
    assert [game.path for game in finished_games()] == [paths[2], paths[1]]
    assert not paths[0].exists()
    assert not paths[0].with_name(f"{paths[0].stem}.review.json").exists()
    assert paths[1].with_name(f"{paths[1].stem}.review.json").exists()


def test_unreadable_or_unfinished_files_are_left_out() -> None:
    kept = keep_finished(finished(seed=5))
    (finished_dir() / "phase10-broken.json").write_text("not a record")
    (finished_dir() / "phase10-binary.json").write_bytes(b"\xff\xfe")
    unfinished = Session.new(Settings(opponents=1, seed=9), autosave=None)
    unfinished.save(finished_dir() / "phase10-unfinished.json")
    assert [game.path for game in finished_games()] == [kept]


def test_a_game_not_over_is_not_kept() -> None:
    with pytest.raises(ValueError, match="not over"):
        keep_finished(Session.new(Settings(opponents=1, seed=9), autosave=None))


def test_the_label_says_when_who_and_how_it_went() -> None:
    session = finished(seed=7, opponents=2)
    keep_finished(session)
    label = finished_games()[0].label
    end = game_end(session)
    names = " and ".join(session.names[1:])
    assert f" · against {names} (greedy) · your total {end.totals[session.human]}" in label
    if end.winners == (session.human,):
        assert " · you won · " in label
    else:
        assert f" · {session.names[end.winners[0]]} " in label


def test_replay_without_a_file_opens_the_newest_finished_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[Path | None] = []

    def run(self: App[object], *args: object, **kwargs: object) -> None:
        assert isinstance(self, ReplayApp)
        opened.append(self.replay.path)

    monkeypatch.setattr(App, "run", run)
    runner = CliRunner()
    none = runner.invoke(cli, ["replay"])
    assert none.exit_code == 2
    assert "no finished game is kept" in none.output and "name a record FILE" in none.output
    keep_finished(finished(seed=2))
    newest = keep_finished(finished(seed=3))
    os.utime(newest, (2_000_000_000, 2_000_000_000))
    result = runner.invoke(cli, ["replay"])
    assert result.exit_code == 0, result.output
    assert opened == [newest]


async def test_two_quick_enters_close_a_dialog_once() -> None:
    """Two Enters that arrive together (a slow link, a paste) pick once: the second is
    not a second close, which would pop the screen beneath or fail."""
    keep_finished(finished(seed=2))
    keep_finished(finished(seed=4))
    session = finished(seed=6)
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        listing = app.screen
        listing.query_one("OptionList").action_select()  # Enter, still on its way
        listing.action_cancel()  # a second key, in the same instant
        await pilot.pause()
        # the list closed once: the result beneath stays, and the app runs on
        assert isinstance(app.screen, GameOverScreen) and app.is_running
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)

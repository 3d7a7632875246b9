"""The terminal game's pages and remembered settings, driven by Textual's Pilot: the rules in
sentences, how to play, the discard pile, the statistics, the Masters table, settings kept
between games (and overridden by flags); snapshots of the new pages at 80 x 24.
"""

from __future__ import annotations

import json
import random
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from typer.testing import CliRunner

from phase10.bots.greedy import GreedyPlayer
from phase10.cli.app import app as cli
from phase10.core import Discarded, GameEnded, Rules, Stage, preset
from phase10.core.rules_text import explain_rules
from phase10.tui.app import PlayApp
from phase10.tui.discards import discard_history
from phase10.tui.howto import HOW_TO_PLAY
from phase10.tui.preferences import Preferences, load_preferences, save_preferences
from phase10.tui.replay import ReplayApp
from phase10.tui.screens import GameOverScreen, InfoScreen, NewGameScreen
from phase10.tui.session import Session, Settings
from phase10.tui.stats import read_results
from phase10.tui.widgets import SeatsPanel
from tui_driver import settle

SMALL = (80, 24)
Compare = Callable[..., bool]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings, results and saves go to a directory of the test's own."""
    home = tmp_path / "home"
    monkeypatch.setenv("PHASE10_HOME", str(home))
    return home


def table_app(rules: Rules | None = None, seed: int = 3) -> PlayApp:
    settings = Settings(opponents=2, difficulty="greedy", seed=seed, rules=rules or Rules())
    return PlayApp(settings, start=True, autosave=None, bot_delay=0)


def rendered(renderable: Any) -> str:
    """What a Rich renderable shows, as plain text."""
    console = Console(width=1000, color_system=None)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


def page_text(app: PlayApp) -> str:
    screen = app.screen
    assert isinstance(screen, InfoScreen)
    return rendered(screen.body)


async def test_r_explains_the_rules_in_play_in_sentences() -> None:
    app = table_app(preset("masters"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        text = page_text(app)
        for sentence in explain_rules(preset("masters")):
            assert sentence in text
        assert "names the phase they will try" in text  # declared after the deal
        assert "wild_deal_up" not in text and "first_player" not in text


async def test_the_masters_table_shows_each_declared_phase_and_who_is_down() -> None:
    app = table_app(preset("masters"), seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        session = app.session
        assert session is not None
        # everyone before the person has declared; the person declares now
        assert session.view.stage is Stage.DECLARE
        await pilot.press("e", "enter")
        await settle(pilot, app)
        view = session.view
        seats = rendered(app.query_one(SeatsPanel).content)
        for info in view.seats:
            assert info.declared is not None
            down = info.laid is not None and f"{info.laid + 1} down" in seats
            assert f"0/10 · {info.declared + 1} declared" in seats or down, seats


async def test_v_lists_the_discard_pile_top_first_with_who_discarded_each_card() -> None:
    app = table_app(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        session = app.session
        assert session is not None
        person = GreedyPlayer(random.Random(1))
        for _ in range(3):  # three of the person's turns, the bots' in between
            while session.human_to_move:
                session.apply(person.choose(session.view))
            app.advance()
            await settle(pilot, app)
        view = session.view
        pile = discard_history(view)
        assert [card for card, _ in pile] == list(reversed(view.discard_pile))
        discarded = [e for e in view.history if isinstance(e, Discarded)]
        assert pile[0] == (discarded[-1].card, view.seats[discarded[-1].player].name)
        assert pile[-1][1] == "turned up" or len(pile) < len(discarded) + 1
        await pilot.press("v")
        assert app.screen.title_text == "The discard pile"  # type: ignore[attr-defined]
        rows = page_text(app).splitlines()[1 : 1 + len(pile)]
        for place, (row, (_, who)) in enumerate(zip(rows, pile, strict=True), start=1):
            assert row.split()[0] == str(place) and row.rstrip().endswith(who or "-"), row
        await pilot.press("escape")
        assert not isinstance(app.screen, InfoScreen)


async def test_how_to_play_and_statistics_from_the_new_game_screen_and_the_table() -> None:
    app = PlayApp(Settings(opponents=2, difficulty="greedy", seed=3), autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("f1")
        assert app.screen.title_text == "How to play"  # type: ignore[attr-defined]
        assert all(heading in page_text(app) for heading, _ in HOW_TO_PLAY)
        await pilot.press("escape", "f2")
        assert "No finished game yet" in page_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        await pilot.press("i")
        assert app.screen.title_text == "How to play"  # type: ignore[attr-defined]
        await pilot.press("w")  # no page opens over another
        assert app.screen.title_text == "How to play"  # type: ignore[attr-defined]
        await pilot.press("escape", "w")
        assert app.screen.title_text == "Your statistics"  # type: ignore[attr-defined]


def just_before_the_end(seed: int) -> tuple[Session, Any]:
    """A one-phase game played by greedy bots on every seat, one action before it ends."""
    session = Session.new(
        Settings(opponents=1, difficulty="greedy", seed=seed, rules=Rules(phases=(1,))),
        autosave=None,
    )
    person = GreedyPlayer(random.Random(seed))
    while True:
        action = person.choose(session.view) if session.human_to_move else session.bot_action()
        trial = Session.from_record(session.record())
        ends = trial.apply(action) if trial.human_to_move else trial.apply_bot(action)
        if any(isinstance(event, GameEnded) for event in ends):
            return session, action
        session.apply(action) if session.human_to_move else session.apply_bot(action)


async def test_each_finished_game_is_recorded_once_and_counted(home: Path) -> None:
    session, last = just_before_the_end(seed=6)
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    app.remember = True
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)  # a bot's last move is played by the app itself
        if not session.game.is_over:
            app.after(session.apply(last))
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        end = next(e for e in session.game.history if isinstance(e, GameEnded))
        app.show_game_over(end)  # shown again: still one game in the record
        rows, bad = read_results()
        assert bad == 0 and len(rows) == 1
        won = session.human in end.winners
        assert rows[0].won is won and rows[0].score == end.totals[session.human]
        assert rows[0].difficulty == "greedy" and rows[0].phase_count == 1
        assert rows[0].rules == "official, phase 1"  # (scores under other rules apart)
        # private, as the saved games beside it
        assert stat.S_IMODE((home / "results.jsonl").stat().st_mode) == 0o600
        await pilot.press("n")  # a new game: the statistics are on its screen too
        await pilot.pause()
        await pilot.press("f2")
        text = page_text(app)
        assert "greedy" in text and ("100%" if won else "0%") in text
    (home / "results.jsonl").write_text("not json\n" + (home / "results.jsonl").read_text())
    rows, bad = read_results()
    assert len(rows) == 1 and bad == 1


async def test_changed_settings_are_remembered(home: Path) -> None:
    app = table_app()
    app.remember = True
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("c", "s", "b")
    saved, problem = load_preferences()
    assert problem is None
    assert saved.colour_blind and saved.sort_by == "colour" and saved.bot_delay == 0.4
    assert (saved.opponents, saved.difficulty) == (2, "greedy")


def test_unusable_settings_give_a_clear_message_and_the_defaults(home: Path) -> None:
    home.mkdir(parents=True)
    path = home / "settings.json"
    for text, words in (
        ("{not json", "not JSON"),
        ('{"bot_delay": -1}', "bot_delay is 0 to 60 seconds"),
        ('{"difficulty": "wizard"}', "unknown difficulty 'wizard'"),
        ("[1, 2]", "a JSON object"),
    ):
        path.write_text(text)
        prefs, problem = load_preferences()
        assert prefs == Preferences() and problem is not None and words in problem, problem
    path.write_bytes(b"\xff\xfe")
    assert load_preferences()[1] is not None
    # one bad setting goes back to its default; the others are kept
    path.write_text(
        '{"name": "Zo\u00eb", "colour_blind": true, "sort_by": "colour", "bot_delay": 61}'
    )
    prefs, problem = load_preferences()
    assert prefs == Preferences(name="Zoë", colour_blind=True, sort_by="colour")
    assert problem == (
        f"the settings in {path} are partly unusable (bot_delay is 0 to 60 seconds, not 61): "
        "bot_delay back to its default, the others kept"
    )


def test_play_uses_the_saved_settings_and_flags_override_them(
    home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    apps: list[PlayApp] = []

    def run(self: PlayApp, *args: object, **kwargs: object) -> None:
        apps.append(self)  # stands in for the full-screen run

    monkeypatch.setattr(PlayApp, "run", run)
    saved = Preferences(
        name="Zoe", opponents=2, difficulty="random", colour_blind=True, sort_by="colour"
    )
    assert save_preferences(saved) is None
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "--delay", "0", "--difficulty", "greedy"])
    assert result.exit_code == 0, result.output
    app = apps[-1]
    assert (app.settings.name, app.settings.opponents) == ("Zoe", 2)
    assert app.settings.difficulty == "greedy" and app.bot_delay == 0  # the flags win
    assert app.colour_blind and app.sort_by == "colour" and app.remember
    # --resume keeps colour-blind mode too
    save = tmp_path / "game.json"
    Session.new(Settings(opponents=1, seed=2), autosave=save)
    result = runner.invoke(cli, ["play", "--resume", "--save-file", str(save)])
    assert result.exit_code == 0, result.output
    assert apps[-1].colour_blind
    result = runner.invoke(cli, ["play", "--resume", "--save-file", str(save), "--no-colour-blind"])
    assert not apps[-1].colour_blind
    # a corrupt file: a note, the defaults, and the game goes on
    (home / "settings.json").write_text(json.dumps({"opponents": 9}))
    result = runner.invoke(cli, ["play"])
    assert result.exit_code == 0 and "opponents is 1 to 5" in result.output
    assert apps[-1].settings.opponents == 3
    assert "opponents is 1 to 5" in (apps[-1].settings_problem or "")  # shown on the screen too

    # replay shows colours as the games do, unless told otherwise
    assert save_preferences(saved) is None
    replays: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self, *a, **k: replays.append(self))
    assert runner.invoke(cli, ["replay", str(save)]).exit_code == 0
    assert replays[-1].replay.colour_blind
    assert runner.invoke(cli, ["replay", str(save), "--no-colour-blind"]).exit_code == 0
    assert not replays[-1].replay.colour_blind


# -- snapshots of the new pages at 80 x 24 ---------------------------------------------


def at_table(*keys: str) -> Callable[[Pilot[None]], Any]:
    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, PlayApp)
        await settle(pilot, app)
        await pilot.press(*keys)
        await pilot.pause()

    return run_before


def test_snapshot_rules_page(snap_compare: Compare) -> None:
    app = table_app(preset("masters"))
    assert snap_compare(app, terminal_size=SMALL, run_before=at_table("r"))


def test_snapshot_how_to_play(snap_compare: Compare) -> None:
    assert snap_compare(table_app(), terminal_size=SMALL, run_before=at_table("i"))


def test_snapshot_discard_pile(snap_compare: Compare) -> None:
    app = table_app()

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        assert app.session is not None
        person = GreedyPlayer(random.Random(1))
        for _ in range(2):
            while app.session.human_to_move:
                app.session.apply(person.choose(app.session.view))
            app.advance()
            await settle(pilot, app)
        await pilot.press("v")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SMALL, run_before=run_before)


def test_snapshot_statistics(snap_compare: Compare, home: Path) -> None:
    home.mkdir(parents=True)
    lines = [
        {"game": f"g{n}", "difficulty": kind, "opponents": 3, "won": won, "score": score,
         "phases": phases, "phase_count": 10, "hands": 12}
        for n, (kind, won, score, phases) in enumerate(
            [("greedy", True, 145, 10), ("greedy", False, 260, 8), ("strong", False, 310, 7)]
        )
    ]  # fmt: skip
    (home / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert snap_compare(table_app(), terminal_size=SMALL, run_before=at_table("w"))

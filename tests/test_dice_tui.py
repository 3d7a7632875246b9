"""``phase10 dice play``: a dice game to its end by keys (Textual's Pilot), its autosave,
and the dice commands ``play`` and ``tournament``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._footer import FooterKey
from typer.testing import CliRunner

from phase10.bots.dice import GreedyDicePlayer
from phase10.cli.app import app as cli
from phase10.dice import DiceGame, DiceSetup, DiceStage, Keep, Pass, Roll, Score, Unkeep
from phase10.tui.dice_app import KEYS, DiceApp, sheet_table
from phase10.tui.dice_session import DiceSession, finished_dice_games, keep_finished
from phase10.tui.session import SessionError

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("PHASE10_HOME", str(home))
    return home


def short_session(autosave: Path) -> DiceSession:
    """You against a greedy bot, both on phase 10: a whole game in a few turns."""
    game = DiceGame(["You", "Greedy 1"], seed=11, setup=DiceSetup(order=(0, 1), phases=(10, 10)))
    return DiceSession(game, (None, "greedy"), autosave)


async def my_turn(pilot: Pilot[None], app: DiceApp) -> None:
    for _ in range(500):
        await pilot.pause()
        if app.session.game.is_over or not app.session.bot_to_move:
            return
    raise AssertionError("the computer never handed the move back")


def shown(app: DiceApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def test_a_dice_game_to_its_end_by_keys_saved_after_every_action(tmp_path: Path) -> None:
    autosave = tmp_path / "dice.json"
    app = DiceApp(short_session(autosave), bot_delay=0)
    person = GreedyDicePlayer()
    keys = 0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")  # before the first roll: the engine's refusal, nothing done
        assert "roll the dice first" in shown(app, "#prompt")
        assert app.session.game.actions == []
        footer = [key.description for key in app.query(FooterKey)]
        assert "Roll" in footer and "New game" not in footer
        while not app.session.game.is_over:
            await my_turn(pilot, app)
            if app.session.game.is_over:
                break
            view = app.session.game.view(0)
            action = person.choose(view)
            if isinstance(action, (Keep, Unkeep)):
                await pilot.press(*(KEYS[i] for i in action.dice))
            else:
                key = {Roll: "r", Score: "s", Pass: "p"}[type(action)]
                if key == "r" and view.stage is DiceStage.CHOOSE:
                    await pilot.press("question_mark")
                    assert "the best chance" in shown(app, "#prompt")
                if key == "p" and view.stage is DiceStage.CHOOSE:  # rolls left: p asks first
                    before = len(app.session.game.actions)
                    await pilot.press("p")
                    assert "p again passes" in shown(app, "#prompt")
                    assert len(app.session.game.actions) == before
                await pilot.press(key)
            keys += 1
            assert keys < 400
            saved = DiceSession.load(autosave)
            assert saved.game.actions == app.session.game.actions
        assert "n: new game" in shown(app, "#prompt")
        assert "phase10 dice replay shows it again" in shown(app, "#prompt")
        await pilot.pause()  # the footer offers a new game, and no turn's keys
        footer = [key.description for key in app.query(FooterKey)]
        assert "New game" in footer and "Quit" in footer
        assert not {"Roll", "Score", "Pass", "Hint", "Keep"} & set(footer)
        console = Console(width=34, record=True, file=io.StringIO())
        console.print(sheet_table(app.view))
        assert "★" in console.export_text()
        assert DiceSession.load(autosave).game.is_over
        kept = finished_dice_games()  # kept for replay, as the autosave becomes the next game's
        assert len(kept) == 1
        assert DiceSession.load(kept[0]).game.actions == app.session.game.actions
        await pilot.press("n")  # a new game in its place, the same table (the bot may start)
        assert not app.session.game.is_over and app.session.bots == (None, "greedy")
        old_seed = 11
        assert DiceSession.load(autosave).game.seed == app.session.game.seed != old_seed


async def test_passing_with_rolls_left_takes_p_twice(tmp_path: Path) -> None:
    """A pass fails the turn's phase: with rolls left, a single p says so and does
    nothing; p again passes. Any other move in between asks afresh."""
    app = DiceApp(short_session(tmp_path / "dice.json"), bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await my_turn(pilot, app)
        await pilot.press("r")
        assert app.view.stage is DiceStage.CHOOSE and app.view.rolls_left == 2
        await pilot.press("p")
        assert "You have 2 rolls left" in shown(app, "#prompt")
        assert "p again passes" in shown(app, "#prompt")
        assert app.session.game.actions == [Roll()]
        await pilot.press("r", "p")  # (a roll in between: asked again)
        assert "You have 1 roll left" in shown(app, "#prompt")
        assert app.session.game.actions == [Roll(), Roll()]
        await pilot.press("p")
        assert app.session.game.actions[:3] == [Roll(), Roll(), Pass()]  # (then the bot)


async def test_arrows_space_colour_blind_and_resume(tmp_path: Path) -> None:
    autosave = tmp_path / "dice.json"
    session = short_session(autosave)
    app = DiceApp(session, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "right", "right", "space", "c")
        assert app.session.game.kept == {2}
        assert "▲" in shown(app, "#dice") or "●" in shown(app, "#dice")
        await pilot.press("q")
    resumed = DiceSession.load(autosave, autosave)
    assert resumed.game.kept == {2} and resumed.bots == (None, "greedy")
    app = DiceApp(resumed, bot_delay=0, resumed=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # the cursor starts on H1
        assert app.session.game.kept == {0, 2}


def test_saved_games_that_cannot_be_read_say_why(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="there is no saved dice game"):
        DiceSession.load(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(SessionError, match="not a dice game"):
        DiceSession.load(bad)
    with pytest.raises(SessionError, match="0 \\(solitaire\\) to 7 computer opponents, not 8"):
        DiceSession.new("Ann", opponents=8, bot="greedy")
    assert DiceSession.new("Ann", opponents=0, bot="greedy").game.solitaire
    with pytest.raises(SessionError, match="unknown dice bot 'clever'"):
        DiceSession.new("Ann", opponents=1, bot="clever")


runner = CliRunner()


def test_dice_tournament_command() -> None:
    result = runner.invoke(cli, ["dice", "tournament", "--bots", "greedy,greedy", "--games", "2"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "2 games, seeds 0 to 1"
    assert lines[2].split()[:2] == ["1", "greedy"] and lines[3].split()[:2] == ["2", "greedy"]
    result = runner.invoke(
        cli, ["dice", "tournament", "--bots", "greedy", "--games", "1", "--seed", "5", "--json"]
    )
    data = json.loads(result.stdout)
    assert data["seed"] == 5 and data["seats"][0]["win_rate"] == 1.0
    result = runner.invoke(cli, ["dice", "tournament", "--bots", "greedy,clever"])
    assert result.exit_code == 2 and "unknown dice bot 'clever'" in result.output
    for args, said in (
        (["--games", "999999999999"], "play 1 to 10,000,000 games, not 999,999,999,999"),
        (["--games", "0"], "play 1 to 10,000,000 games, not 0"),
        (["--bots", "greedy,,random"], "a bot's name is missing in 'greedy,,random'"),
    ):
        result = runner.invoke(cli, ["dice", "tournament", *args])
        assert result.exit_code == 2 and said in result.output, (args, result.output)


def test_dice_play_refuses_bad_settings_before_starting(tmp_path: Path) -> None:
    result = runner.invoke(cli, ["dice", "play", "--opponents", "9"])
    assert result.exit_code == 2 and "0 (solitaire) to 7 computer opponents" in result.output
    result = runner.invoke(cli, ["dice", "play", "--bot", "clever"])
    assert result.exit_code == 2 and "unknown dice bot 'clever'" in result.output
    broken = tmp_path / "broken.json"
    broken.write_text("not json", encoding="utf-8")
    result = runner.invoke(cli, ["dice", "play", "--save-file", str(broken)])
    assert result.exit_code == 2 and "start afresh with --new" in result.output


def test_dice_replay_without_a_file_prints_the_last_finished_game(tmp_path: Path) -> None:
    runner = CliRunner()
    none = runner.invoke(cli, ["dice", "replay"])
    assert none.exit_code == 2
    assert "no finished dice game is kept" in none.output and "name a record FILE" in none.output
    session = short_session(tmp_path / "dice.json")
    person = GreedyDicePlayer()
    while not session.game.is_over:
        session.apply(
            session.bot_action() if session.bot_to_move else person.choose(session.game.view(0))
        )
    kept = finished_dice_games()
    assert len(kept) == 1 and keep_finished(session) == kept[0]  # once
    result = runner.invoke(cli, ["dice", "replay"])
    assert result.exit_code == 0, result.output
    assert result.output == runner.invoke(cli, ["dice", "replay", str(kept[0])]).output
    assert result.output.splitlines()[-1].startswith("Game over (")


def test_a_dice_game_without_an_autosave_is_not_kept(tmp_path: Path) -> None:
    session = short_session(None)  # type: ignore[arg-type]
    person = GreedyDicePlayer()
    while not session.game.is_over:
        session.apply(
            session.bot_action() if session.bot_to_move else person.choose(session.game.view(0))
        )
    assert finished_dice_games() == []


def test_quitting_after_a_new_game_at_the_end_names_the_game_in_progress(
    monkeypatch: pytest.MonkeyPatch, _data_home: Path
) -> None:
    """The person finished a game, pressed n, and quit the new one: it is the new one that
    is saved, and the message says how to go on with it."""

    def run(self: DiceApp) -> None:
        person = GreedyDicePlayer()
        session = self.session
        while not session.game.is_over:
            view = session.game.view(0)
            session.apply(session.bot_action() if session.bot_to_move else person.choose(view))
        self.session = DiceSession.new(
            "You", opponents=1, bot="greedy", seed=5, autosave=session.autosave
        )

    monkeypatch.setattr(DiceApp, "run", run)
    result = CliRunner().invoke(cli, ["dice", "play", "--opponents", "1", "--bot", "greedy"])
    assert result.exit_code == 0, result.output
    assert "Game saved in" in result.output and "dice play" in result.output
    assert "finished" not in result.output
    assert len(finished_dice_games()) == 1  # the first game, kept for replay


def test_a_dice_game_a_full_disk_kept_from_saving_is_saved_on_the_way_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A whole game on a full disk: leaving, the command tries once more; still full, it
    says the file is behind the game (exit 1), where it said the game was kept."""
    import phase10.tui.dice_session as dice_session

    real = dice_session.write_atomically

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    def run(self: DiceApp) -> None:
        person = GreedyDicePlayer()
        session = self.session
        monkeypatch.setattr(dice_session, "write_atomically", full)
        while not session.game.is_over:
            view = session.game.view(0)
            session.apply(session.bot_action() if session.bot_to_move else person.choose(view))

    monkeypatch.setattr(DiceApp, "run", run)
    save = tmp_path / "dice.json"
    args = ["dice", "play", "--opponents", "1", "--bot", "greedy", "--save-file", str(save)]
    still_full = CliRunner().invoke(cli, args)
    assert still_full.exit_code == 1, still_full.output
    assert "the game's last moves could not be saved" in still_full.stderr
    assert "No space left on device" in still_full.stderr and "Game saved" not in still_full.output
    # with room again on the way out, the game is saved whole and kept for replay
    save.unlink()

    def run_then_room(self: DiceApp) -> None:
        run(self)
        monkeypatch.setattr(dice_session, "write_atomically", real)

    monkeypatch.setattr(DiceApp, "run", run_then_room)
    roomy = CliRunner().invoke(cli, args)
    assert roomy.exit_code == 0, roomy.output
    assert "Game finished and kept for replay" in roomy.output
    assert DiceSession.load(save).game.is_over  # every move, to the end


def test_an_unreadable_dice_save_is_kept_aside_by_new(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A save this version cannot read stops `dice play` (nothing is replaced); with --new
    it is copied aside as it was, said, and the new game takes its place."""
    monkeypatch.setattr(DiceApp, "run", lambda self: None)
    save = tmp_path / "dice.json"
    text = '{"format": "phase10-dice-record", "version": 99}'
    save.write_text(text)
    args = ["dice", "play", "--bot", "greedy", "--save-file", str(save)]
    refused = CliRunner().invoke(cli, args)
    assert refused.exit_code == 2 and "start afresh with --new" in refused.stderr
    assert save.read_text() == text
    started = CliRunner().invoke(cli, [*args, "--new"])
    assert started.exit_code == 0, started.output
    kept = list((tmp_path / "home" / "dice-games").glob("dice-unreadable-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == text
    assert f"it is kept, as it was, in {kept[0]}" in started.stderr
    assert not DiceSession.load(save).game.actions  # the new game

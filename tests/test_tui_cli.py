"""``phase10 play`` / ``phase10 replay`` refusing bad input, and the screen-free session:
settings, moves, undo, saving, resuming, and turning a selection into actions.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from helpers import arranged, cards
from phase10.cli.app import app
from phase10.core import Card, Draw, Game, IllegalActionError, InvalidActionError, Rules, Stage
from phase10.core.records import GameRecord, dumps, loads
from phase10.core.snapshots import snapshot
from phase10.tui.session import (
    HUMAN,
    ChoiceError,
    Session,
    SessionError,
    Settings,
    hit_choices,
    lay_down_choices,
)
from tui_driver import two_wilds_to_place

runner = CliRunner()


@pytest.fixture(autouse=True)
def no_screen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Bad input must be refused before any full-screen app starts; nothing is saved in
    the user's own data directory.
    """
    from textual.app import App

    def refuse(self: App[object], *args: object, **kwargs: object) -> None:
        raise AssertionError(f"{type(self).__name__} started a full screen")

    monkeypatch.setattr(App, "run", refuse)
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def refused(result: Result, *words: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    message = result.output
    assert message.startswith("error: "), message
    for word in words:
        assert word in message, message
    return message


def a_record(actions: list[str] | None = None, **tags: str) -> str:
    game = Game(["You", "Ann"], seed=7)
    game.apply("draw")
    data = json.loads(dumps(GameRecord.from_game(game, tags)))
    if actions is not None:
        data["actions"] = actions
    return json.dumps(data)


# -- the command line -----------------------------------------------------------------


def test_play_refuses_an_unknown_rules_preset_naming_the_presets() -> None:
    message = refused(run("play", "--rules", "nope"), "'nope'", "presets:", "official", "masters")
    assert "error: no rules preset named 'nope'" in message


@pytest.mark.parametrize("count", ["9", "0"])
def test_play_refuses_a_number_of_opponents_out_of_range(count: str) -> None:
    refused(run("play", "--opponents", count, "--quick"), "1 to 5", count)


def test_play_refuses_an_unknown_difficulty_and_a_program() -> None:
    refused(run("play", "--difficulty", "nope"), "'nope'", "random", "greedy", "strong")
    refused(run("play", "--difficulty", "cmd:echo hi"), "unknown difficulty 'cmd:echo hi'")


def test_play_refuses_a_delay_out_of_range_and_bad_names() -> None:
    for delay in ("-1", "61", "inf", "nan"):
        refused(run("play", "--delay", delay), "the delay is 0 to 60 seconds, not ")
    refused(run("play", "--name", " "), "name must not be empty")
    refused(run("play", "--name", "Ann"), "'Ann' is an opponent's name")


def test_play_refuses_a_save_file_it_cannot_write(tmp_path: Path) -> None:
    refused(run("play", "--quick", "--save-file", str(tmp_path)), "is a folder, not a file")
    refused(run("play", "--quick", "--save-file", str(tmp_path / "no" / "x.json")), "no folder")


def test_a_new_session_that_cannot_save_raises_a_session_error(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match=f"cannot save to {tmp_path}: Is a directory"):
        Session.new(Settings(), autosave=tmp_path)


def test_resume_without_a_saved_game(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    refused(run("play", "--resume", "--save-file", str(missing)), "there is no saved game")
    assert not missing.exists()


def test_resume_refuses_a_corrupt_or_unreadable_file(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text("{not json")
    refused(run("play", "--resume", "--save-file", str(corrupt)), "is not a saved game")
    assert corrupt.read_text() == "{not json"  # left as it was
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    refused(run("play", "--resume", "--save-file", str(binary)), "is not a saved game")
    refused(run("play", "--resume", "--save-file", str(tmp_path)), "is a folder, not a file")


def test_resume_refuses_a_record_that_does_not_replay(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text(a_record(["draw", "draw"], controllers="human,greedy"))
    refused(run("play", "--resume", "--save-file", str(broken)), "action 2", "does not apply")


def test_replay_refuses_a_missing_file() -> None:
    refused(run("replay", "missing.json"), "there is no file missing.json")


def test_replay_refuses_what_is_not_a_record(tmp_path: Path) -> None:
    (tmp_path / "other.json").write_text('{"format": "something else", "actions": []}')
    refused(run("replay", "other.json"), "other.json is not a game record")
    (tmp_path / "list.json").write_text("[1, 2]")
    refused(run("replay", "list.json"), "is not a game record")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00\x01")
    refused(run("replay", "binary.json"), "is not a game record")


def test_replay_refuses_a_record_whose_action_does_not_apply(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text(a_record(["draw", "discard R99"]))
    refused(run("replay", "bad.json"), "is not a game record", "action 2", "does not apply")
    (tmp_path / "illegal.json").write_text(a_record(["draw", "draw"]))
    refused(run("replay", "illegal.json"), "action 2 ('draw') does not apply")


# -- settings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "reason"),
    [
        (Settings(name=""), "your name must not be empty"),
        (Settings(name="   "), "your name must not be empty"),
        (Settings(name="Bob", opponents=2), "'Bob' is an opponent's name"),
        (Settings(name=" Ann "), "'Ann' is an opponent's name"),
        (Settings(opponents=0), "1 to 5 opponents, not 0"),
        (Settings(opponents=6), "1 to 5 opponents, not 6"),
        (Settings(difficulty="clever"), "unknown difficulty 'clever': choose random, greedy"),
        (Settings(difficulty="strong:9"), "unknown difficulty 'strong:9'"),
        (Settings(difficulty="cmd:python bot.py"), "unknown difficulty 'cmd:python bot.py'"),
        (Settings(difficulty=" CMD:python bot.py"), "unknown difficulty"),
    ],
)
def test_settings_refuse(settings: Settings, reason: str, tmp_path: Path) -> None:
    with pytest.raises(SessionError, match=reason):
        settings.validate()
    with pytest.raises(SessionError, match=reason):
        Session.new(settings, autosave=tmp_path / "a.json")
    assert not (tmp_path / "a.json").exists()


def test_good_settings_pass_and_a_name_may_be_an_unused_opponents_name() -> None:
    Settings(name="Eve", opponents=4, difficulty="strong:2").validate()
    session = Session.new(Settings(name="Dee", opponents=2, difficulty="random"), autosave=None)
    assert session.names == ("Dee", "Ann", "Bob")
    assert session.controllers == (HUMAN, "random", "random")


# -- moves, undo, saving --------------------------------------------------------------


def two_player(autosave: Path | None = None, *, undo: bool = True) -> Session:
    """You (seat 0, first to play) against a greedy bot, dealt exactly."""
    game = arranged(
        ["R7 B7 G7 Y3 Y3 W G9 B10 R11 Y12", "R1 R2 R3 R4 R5 B6 B8 G9 G10 G11"],
        discard="B5",
        draw="G7 Y1 Y2 Y4 Y5",
        names=["You", "Ann"],
    )
    return Session(game, (HUMAN, "greedy"), undo=undo, autosave=autosave)


def test_an_illegal_move_raises_changes_nothing_and_saves_nothing(tmp_path: Path) -> None:
    save = tmp_path / "auto.json"
    session = two_player(save)
    session.save()
    save.unlink()
    before = snapshot(session.game)
    for action in ("discard R7", "lay R7 B7 G7 + Y3 Y3 W", "hit R7 g0", "discard R1"):
        with pytest.raises(IllegalActionError):
            session.apply(action)
    with pytest.raises(InvalidActionError):
        session.apply("discard nonsense")
    assert snapshot(session.game) == before
    assert not save.exists()
    assert session.undo_points == [] and not session.can_undo


def test_the_person_cannot_move_for_a_bot_nor_a_bot_for_the_person() -> None:
    session = two_player()
    with pytest.raises(SessionError, match="no computer player is to move"):
        session.apply_bot(Draw())
    with pytest.raises(SessionError, match="no computer player is to move"):
        session.bot_turn()
    session.apply("draw")
    session.apply("discard Y12")
    assert session.bot_to_move
    before = snapshot(session.game)
    with pytest.raises(SessionError, match="it is not your turn"):
        session.apply("draw")
    assert snapshot(session.game) == before and session.undo_points == [0, 1]


def test_undo_when_it_is_off_or_there_is_nothing_to_undo() -> None:
    session = two_player(undo=False)
    session.apply("draw")
    before = snapshot(session.game)
    with pytest.raises(SessionError, match="undo is off"):
        session.undo()
    assert snapshot(session.game) == before
    fresh = two_player()
    with pytest.raises(SessionError, match="no action of yours to undo"):
        fresh.undo()


def test_undo_takes_back_the_persons_move_and_the_bots_since(tmp_path: Path) -> None:
    save = tmp_path / "auto.json"
    session = two_player(save)
    start = snapshot(session.game)
    session.apply("draw")
    after_draw = snapshot(session.game)
    session.apply("discard Y12")
    while session.bot_to_move:
        session.play_bot()
    assert session.undo() >= 2
    assert seen(snapshot(session.game)) == seen(after_draw)
    assert loads(save.read_text()).actions == ("draw",)
    assert session.undo() == 1 and seen(snapshot(session.game)) == seen(start)
    # only the unseen cards moved: the draw pile holds the same cards, reshuffled
    pile = snapshot(session.game)["state"]["draw_pile"].split()
    assert sorted(pile) == sorted(start["state"]["draw_pile"].split())


def test_undo_stops_at_the_start_of_a_hand(tmp_path: Path) -> None:
    # a hand's end shows every hand: taking moves back past it would replay the hand
    # knowing the opponents' cards
    from phase10.bots.greedy import GreedyPlayer

    save = tmp_path / "auto.json"
    settings = Settings(opponents=1, difficulty="greedy", seed=3, rules=Rules(phases=(1, 2)))
    session = Session.new(settings, autosave=save)
    me = GreedyPlayer(random.Random(1))

    def play_until(done: Any) -> None:
        while not done():
            if session.bot_to_move:
                session.play_bot()
            else:
                session.apply(me.choose(session.view))

    play_until(lambda: session.game.hand_results and session.human_to_move)
    assert session.undo_points == [] and not session.can_undo
    before = snapshot(session.game)
    with pytest.raises(SessionError, match="undo goes back to the start of a hand at most"):
        session.undo()
    assert snapshot(session.game) == before
    assert Session.load(save).undo_points == []  # (resumed, the same)
    start = len(session.game.actions)
    session.apply(me.choose(session.view))
    assert session.undo() == 1 and len(session.game.actions) == start
    play_until(lambda: session.game.is_over)
    with pytest.raises(SessionError, match="the game is over"):
        session.undo()
    assert Session.load(save).undo_points == []


def seen(data: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without what nobody has seen (the draw pile's order, the generator)."""
    state = {k: v for k, v in data["state"].items() if k not in ("draw_pile", "rng")}
    return {"actions": data["record"]["actions"], "state": state}


def test_saving_is_atomic_and_leaves_no_temporary_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "saves"
    save = folder / "auto.json"
    session = two_player(save)
    session.save()
    session.apply("draw")
    session.apply("discard Y12")
    while session.bot_to_move:
        session.play_bot()
    assert sorted(os.listdir(folder)) == ["auto.json"]
    assert loads(save.read_text()).actions == session.record().actions
    written = save.read_text()

    def broken_replace(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    session.apply("draw")
    assert session.save_error is not None and "No space left" in session.save_error
    with pytest.raises(OSError):
        session.save()
    assert save.read_text() == written  # the old save is whole
    assert sorted(os.listdir(folder)) == ["auto.json"]


def test_load_round_trip_keeps_controllers_undo_and_undo_points(tmp_path: Path) -> None:
    save = tmp_path / "auto.json"
    settings = Settings(opponents=2, difficulty="random", seed=21, rules=Rules(phases=(1, 2)))
    session = Session.new(settings, autosave=save)
    for _ in range(3):
        while session.bot_to_move:
            session.play_bot()
        session.apply("draw")
        card = next(card for card in session.view.hand if not card.is_skip)
        session.apply(f"discard {card}")
    while session.bot_to_move:
        session.play_bot()
    resumed = Session.load(save, autosave=save)
    assert resumed.controllers == session.controllers == (HUMAN, "random", "random")
    assert resumed.undo_allowed and resumed.human == 0
    assert resumed.undo_points == session.undo_points and len(resumed.undo_points) == 6
    assert snapshot(resumed.game) == snapshot(session.game)
    # undo after resuming does what it would have done without quitting (given the same
    # salt for its reshuffle: each session draws one from its own generator)
    resumed.rng, session.rng = random.Random(5), random.Random(5)
    assert resumed.undo() == session.undo()
    assert snapshot(resumed.game) == snapshot(session.game)
    # and the bots go on exactly as they would have
    while session.bot_to_move:
        assert resumed.bot_action() == session.bot_action()
        session.play_bot()
        resumed.play_bot()

    off = Session.new(Settings(opponents=1, difficulty="greedy", seed=2, undo=False), autosave=save)
    assert not Session.load(save).undo_allowed and off.record().tag("undo") == "off"


def test_a_record_without_tags_seats_the_person_first_against_greedy_bots(
    tmp_path: Path,
) -> None:
    game = Game(["Ann", "Bob", "Cy"], seed=9)
    (tmp_path / "plain.json").write_text(dumps(game))
    session = Session.load(tmp_path / "plain.json")
    assert session.controllers == (HUMAN, "greedy", "greedy") and session.human == 0
    assert session.names == ("Ann", "Bob", "Cy") and session.undo_allowed


@pytest.mark.parametrize(
    ("tag", "reason"),
    [
        ("human,greedy", "name 2 seats, not 3"),
        ("greedy,greedy,greedy", "name 0 people, not 1"),
        ("human,human,greedy", "name 2 people, not 1"),
        ("human,clever,greedy", "cannot be played: unknown bot 'clever'"),
        ("human,cmd:touch pwned,greedy", "only built-in bots"),
    ],
)
def test_a_record_with_a_wrong_controllers_tag_is_refused(
    tag: str, reason: str, tmp_path: Path
) -> None:
    game = Game(["You", "Ann", "Bob"], seed=9)
    (tmp_path / "tagged.json").write_text(dumps(GameRecord.from_game(game, {"controllers": tag})))
    with pytest.raises(SessionError, match=reason):
        Session.load(tmp_path / "tagged.json")
    assert not (tmp_path / "pwned").exists()


# -- turning a selection into actions -------------------------------------------------


def test_lay_down_choices_say_why_not() -> None:
    session = two_player()
    view = session.view
    with pytest.raises(ChoiceError, match="draw a card or take the discard first"):
        lay_down_choices(view, cards("R7 B7 G7 Y3 Y3 W"))
    with pytest.raises(ChoiceError, match="it is not your turn"):
        lay_down_choices(session.game.view(1), cards("R1 R2 R3"))
    session.apply("draw")
    view = session.view
    with pytest.raises(ChoiceError, match="select the cards to lay down first"):
        lay_down_choices(view, [])
    with pytest.raises(
        ChoiceError, match=r"R7 B7 Y3 do not make phase 1 \(2 sets of 3\) using every"
    ):
        lay_down_choices(view, cards("R7 B7 Y3"))
    with pytest.raises(ChoiceError, match="do not make phase 1"):
        lay_down_choices(view, cards("R7 B7 G7 Y3 Y3 W G9"))  # one card too many


def test_lay_down_choices_are_all_legal_and_play() -> None:
    session = two_player()
    session.apply("draw")
    view = session.view
    choices = lay_down_choices(view, cards("R7 B7 G7 Y3 Y3 W"))
    assert choices and all(view.is_legal(choice) for choice in choices)
    assert len({str(choice) for choice in choices}) == len(choices)
    session.apply(choices[0])
    with pytest.raises(ChoiceError, match="you have laid down your phase this hand"):
        lay_down_choices(session.view, cards("G9 B10"))


def test_lay_down_choices_offer_each_way_to_place_the_wilds() -> None:
    session = two_wilds_to_place()
    view = session.view
    choices = lay_down_choices(view, cards("R7 B7 G7 Y3 Y3 W W"))
    assert sorted(str(choice) for choice in choices) == [
        "lay R7 B7 G7 W + Y3 Y3 W",
        "lay Y3 Y3 W W + R7 B7 G7",
    ]
    assert all(view.is_legal(choice) for choice in choices)
    session.apply(choices[1])
    assert session.view.seats[0].laid is not None


def test_hit_choices_say_why_not_and_give_only_legal_hits() -> None:
    session = two_player()
    with pytest.raises(ChoiceError, match="draw a card or take the discard first"):
        hit_choices(session.view, Card.parse("R7"))
    with pytest.raises(ChoiceError, match="it is not your turn"):
        hit_choices(session.game.view(1), Card.parse("R1"))
    session.apply("draw")  # G7
    with pytest.raises(ChoiceError, match="lay down your phase before you hit"):
        hit_choices(session.view, Card.parse("G7"))
    session.apply("lay R7 B7 G7 + Y3 Y3 W")
    view = session.view
    with pytest.raises(ChoiceError, match="G9 fits no group on the table"):
        hit_choices(view, Card.parse("G9"))
    sevens = next(gid for gid, meld in enumerate(view.melds) if "R7" in str(meld.group))
    hits = hit_choices(view, Card.parse("G7"))
    assert [(hit.card, hit.group) for hit in hits] == [(Card.parse("G7"), sevens)]
    assert all(view.is_legal(hit) for hit in hits)
    session.apply(hits[0])
    assert session.view.stage is Stage.PLAY and Card.parse("G7") not in session.view.hand


def test_the_quit_message_names_a_command_that_works_from_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from phase10.cli.common import command_from_here
    from phase10.cli.play import play_command

    script = tmp_path / ".venv" / "bin" / "phase10"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    # not on PATH (as after make play): the path to the script
    monkeypatch.setenv("PATH", "/nonexistent")
    assert play_command(str(script)) == ".venv/bin/phase10 play --resume"
    assert play_command(".venv/bin/phase10", Path("my.json")) == (
        ".venv/bin/phase10 play --resume --save-file my.json"
    )
    # the dice game's quit message too
    assert command_from_here(str(script), "dice play") == ".venv/bin/phase10 dice play"
    # on PATH (the virtualenv activated, or installed with pip): plain phase10
    monkeypatch.setenv("PATH", str(script.parent))
    assert play_command(str(script)) == "phase10 play --resume"
    # run as a module: the same Python
    assert play_command("/somewhere/phase10/cli/__main__.py").endswith(
        " -m phase10.cli play --resume"
    )

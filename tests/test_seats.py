"""Who plays each seat, one rule for every interface: the bot kinds, seeding, the late
answer guard and the controllers tag (phase10.bots.registry and phase10.bots.seats)."""

from __future__ import annotations

import random

import pytest

from phase10.bots.registry import BOT_KINDS, DEFAULT_BOT, builtin_bot, make_player
from phase10.bots.seats import (
    HUMAN,
    SEAT_NAMES,
    answers_at_once,
    bot_names,
    bot_turn,
    controllers_tag,
    read_controllers,
    seat_bots,
)
from phase10.core import Game


def test_every_bot_kind_is_written_one_way_and_makes_a_player() -> None:
    specs = [kind.spec for kind in BOT_KINDS]
    assert len(set(specs)) == len(specs) and DEFAULT_BOT in specs
    assert len({kind.label for kind in BOT_KINDS}) == len(BOT_KINDS)
    for spec in specs:
        assert builtin_bot(spec) == spec
        assert make_player(spec, random.Random(0)).choose is not None
    assert builtin_bot("strong:4") == builtin_bot("STRONG") == "strong"
    for bad in ("cmd:python bot.py", "clever", "greedy,random", 7, ""):
        with pytest.raises(ValueError, match="choose from"):
            builtin_bot(bad)
    with pytest.raises(ValueError, match="level is 1 to 4"):
        builtin_bot("strong:5")


def test_only_searching_bots_and_programs_think_off_the_event_loop() -> None:
    quick = {
        kind.spec: answers_at_once(make_player(kind.spec, random.Random(0))) for kind in BOT_KINDS
    }
    assert quick == {
        "random": True,
        "greedy": True,
        "strong:1": False,
        "strong:2": False,
        "strong:3": False,
        "strong": False,
        "expert": False,
    }
    assert answers_at_once(object()) is False  # a bot that does not say is given a thread


def test_the_interfaces_offer_exactly_the_registry_s_bots() -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("textual")
    from fastapi.testclient import TestClient

    from phase10.server import create_app
    from phase10.tui.screens import DIFFICULTIES

    assert [spec for _, spec in DIFFICULTIES] == [kind.spec for kind in BOT_KINDS]
    with TestClient(create_app(database_url="sqlite://")) as client:
        presets = client.get("/api/presets").json()
    offered = presets["bots"]
    assert [choice["spec"] for choice in offered] == [kind.spec for kind in BOT_KINDS]
    # each menu marks its own default, once: the browser form preselects the one marked
    browser_default = [c["spec"] for c in offered if c["label"].endswith(" (default)")]
    assert browser_default == [presets["bot"]] == ["greedy"]
    terminal_default = [spec for label, spec in DIFFICULTIES if label.endswith(" (default)")]
    assert terminal_default == [DEFAULT_BOT]


def test_bots_are_seeded_by_game_seat_and_turn_and_late_answers_are_dropped() -> None:
    def bot_choices(seed: int) -> list[str]:
        game = Game(["You", "Ann", "Bob"], seed=seed)
        bots = seat_bots([HUMAN, "strong:1", "greedy"], game.seed)
        person = make_player("random", random.Random(0))
        chosen = []
        while len(chosen) < 12:
            if game.current == 0:
                game.apply(person.choose(game.view(0)))
                continue
            turn = bot_turn(game, bots)
            action = turn.choose()
            assert turn.is_current(game)
            chosen.append(str(action))
            game.apply(action)
            assert not turn.is_current(game)  # the game moved on
        return chosen

    assert bot_choices(11) == bot_choices(11)
    game = Game(["Ann", "You"], seed=3)
    bots = seat_bots(["greedy", HUMAN], game.seed)
    while game.current != 0:
        game.apply(make_player("random", random.Random(1)).choose(game.view(1)))
    turn = bot_turn(game, bots)
    again = Game(["Ann", "You"], seed=3)  # an undo replays into a new game object
    for action in game.actions:
        again.apply(action)
    assert turn.is_current(game) and not turn.is_current(again)


def test_the_controllers_tag_is_read_and_written_one_way() -> None:
    assert controllers_tag([HUMAN, "strong", "greedy"]) == "human,strong,greedy"
    assert read_controllers("human, Strong:04 ,GREEDY", players=3, humans=1) == (
        HUMAN,
        "strong",
        "greedy",
    )
    with pytest.raises(ValueError, match="2 seats, not 3"):
        read_controllers("human,greedy", players=3)
    with pytest.raises(ValueError, match="2 people, not 1"):
        read_controllers("human,human", players=2, humans=1)
    with pytest.raises(ValueError, match="a program"):
        read_controllers("human,cmd:rm -rf /", players=2)
    with pytest.raises(ValueError, match="unknown bot"):
        read_controllers("human,wizard", players=2)
    assert read_controllers("human,cmd:bot", players=2, programs=True)[1] == "cmd:bot"


def test_bots_take_the_names_nobody_has() -> None:
    assert bot_names(["ann", "Cy"], 3) == ["Bob", "Dee", "Eve"]
    assert bot_names(SEAT_NAMES, 2) == ["Bot 1", "Bot 2"]

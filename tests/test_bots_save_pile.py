"""The bots and the hints use the save pile (Masters Edition) and give up only where it pays."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from phase10.bots import play_game
from phase10.bots.hints import hint
from phase10.bots.registry import make_player, parse_bot_list
from phase10.bots.saving import give_up_wanted, keeper_value
from phase10.bots.simple import Player, SimplePlayer
from phase10.core import (
    Action,
    Declare,
    Game,
    GiveUp,
    GivingUp,
    LayDown,
    Save,
    Stage,
    TakeSaved,
    parse_cards,
    preset,
)
from phase10.core.game import Arrangement

# phase 1 "2 sets of 3", phase 2 "1 run of 7"
RULES = preset("masters").with_options(phases=(1, 4))
BOTS = ("simple", "greedy", "strong:1", "strong")


def bot(spec: str, seed: int = 0) -> Player:
    if spec == "simple":
        return SimplePlayer(random.Random(seed))
    return make_player(spec, random.Random(seed))


def position(saved: str) -> Game:
    """Ann holds 1-6 toward the run of 7 and 9-12 she does not need; Bob goes first.
    ``saved`` is Ann's save pile to start with."""
    deal = Arrangement(
        hands=(
            parse_cards("R1 B2 G3 Y4 R5 B6 R9 G10 B11 Y12"),
            parse_cards("Y5 Y6 Y7 Y8 G1 G2 B3 B4 B5 R8"),
        ),
        discard=parse_cards("G1"),
        draw=parse_cards("Y1 Y2 Y3"),
        saved=(parse_cards(saved), ()),
    )
    return Game(["Ann", "Bob"], rules=RULES, seed=3, dealer=0, arrangement=deal)


def until_ann(game: Game, stage: Stage, players: list[Player]) -> None:
    """Play (Ann declaring with her own bot) until it is Ann's turn at ``stage``."""
    for _ in range(20):
        if game.current == 0 and game.stage is stage:
            return
        game.apply(players[game.current].choose(game.view(game.current)))
    raise AssertionError("Ann's turn never came")


@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_saves_a_card_that_pairs_with_its_save_pile(spec: str) -> None:
    """B11 is no use to Ann's run of 7 this hand, but with the R11 she saved it makes a
    pair toward 2 sets of 3: she saves it rather than discard anything."""
    game = position("R11")
    until_ann(game, Stage.PLAY, [bot(spec), bot("greedy", 1)])
    assert game.seats[0].declared == 1  # the run of 7, 1-6 in hand
    assert bot(spec).choose(game.view(0)) == Save(parse_cards("B11")[0])


def test_a_bot_forbidden_to_save_discards() -> None:
    game = position("R11")
    until_ann(game, Stage.PLAY, [bot("greedy"), bot("greedy", 1)])
    for spec in ("greedy+nosave", "strong:1+nosave"):
        action = make_player(spec, random.Random(0)).choose(game.view(0))
        assert not isinstance(action, Save | TakeSaved)


@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_takes_back_the_saved_card_that_completes_its_phase(spec: str) -> None:
    """With R7 on her save pile Ann declares the run of 7, takes R7 back instead of
    drawing, and lays the run down."""
    game = position("R7")
    players = [bot(spec), bot("greedy", 1)]
    until_ann(game, Stage.DRAW, players)
    assert game.seats[0].declared == 1
    assert players[0].choose(game.view(0)) == TakeSaved(parse_cards("R7")[0])
    game.apply(TakeSaved(parse_cards("R7")[0]))
    assert isinstance(players[0].choose(game.view(0)), LayDown)


def test_declaring_counts_the_save_pile() -> None:
    """Two 11s and two 12s saved make 2 sets of 3 closer than the run of 7 in hand."""
    deal = Arrangement(
        hands=(
            parse_cards("R1 B2 G3 Y4 R11 R12 G5 G8 G9 Y6"),
            parse_cards("Y5 Y6 Y7 Y8 G1 G2 B3 B4 B5 R8"),
        ),
        discard=parse_cards("G1"),
        saved=(parse_cards("B11 G11 B12 G12"), ()),
    )
    for spec in BOTS:
        game = Game(["Ann", "Bob"], rules=RULES, seed=3, dealer=1, arrangement=deal)
        assert game.stage is Stage.DECLARE and game.current == 0
        assert bot(spec).choose(game.view(0)) == Declare(1), spec
        assert make_player("greedy+nosave", random.Random(0)).choose(game.view(0)) == Declare(2)


def test_hints_suggest_saving_and_taking_back() -> None:
    game = position("R11")
    until_ann(game, Stage.PLAY, [bot("greedy"), bot("greedy", 1)])
    advice = hint(game.view(0))
    assert advice.steps[-1].action == Save(parse_cards("B11")[0])
    assert advice.steps[-1].text == "save B11 on your save pile"
    assert "save pile" in advice.steps[-1].reason
    game = position("R7")
    until_ann(game, Stage.DRAW, [bot("greedy"), bot("greedy", 1)])
    step = hint(game.view(0)).steps[0]
    assert step.action == TakeSaved(parse_cards("R7")[0])
    assert (
        step.text == "take R7 back from your save pile" and "from 1 card away to 0" in step.reason
    )


def test_keeper_values() -> None:
    sets, runs = RULES.phase_sequence
    assert keeper_value(parse_cards("W")[0], (), [sets]) > keeper_value(
        parse_cards("R7")[0], parse_cards("B7"), [sets]
    )
    assert keeper_value(parse_cards("R7")[0], parse_cards("B8"), [sets]) == 0
    assert keeper_value(parse_cards("R7")[0], parse_cards("B8"), [runs]) == 2
    assert keeper_value(parse_cards("S")[0], parse_cards("B8"), [runs]) == -1


def test_bot_specs_name_the_nosave_option() -> None:
    assert parse_bot_list("Strong + NoSave, strong:3+nosave, greedy") == [
        "strong+nosave",
        "strong:3+nosave",
        "greedy",
    ]
    assert make_player("random+nosave", random.Random(0)).saves is False  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown bot option 'often'"):
        make_player("strong+often", random.Random(0))


@pytest.mark.parametrize("preset_name", ["masters", "masters-variant-2"])
def test_every_bot_finishes_short_masters_games(preset_name: str) -> None:
    """Mixed tables of every bot, saving and giving up where they choose, play legally
    (play_game checks every action) to the end; the bots do use their save piles."""
    rules = preset(preset_name).with_options(phases=(1, 2))
    used: Counter[str] = Counter()
    for seed, specs in enumerate(
        [("random", "simple", "greedy"), ("strong:1", "greedy+nosave"), ("simple", "strong:1")]
    ):
        game = Game(len(specs), rules=rules, seed=seed)
        players = [bot(spec, seed) for spec in specs]

        def count(events: list[object], game: Game = game) -> None:
            used.update(type(event).__name__ for event in events)

        play_game(game, players, on_events=count)  # type: ignore[arg-type]
        assert game.is_over
    assert used["Saved"] > 0 and used["TookSaved"] > 0


def test_give_up_only_where_the_phase_is_kept() -> None:
    """Under forfeit a bot never gives a phase up; under keep it does, for a second phase."""
    for give_up, expect in ((GivingUp.FORFEIT, False), (GivingUp.KEEP, True)):
        rules = preset("masters-variant-2").with_options(phases=(1, 2, 3), give_up=give_up)
        gave_up = False
        for seed in range(2):
            game = Game(2, rules=rules, seed=seed)
            players = [bot("greedy", 0), bot("simple", 1)]
            while not game.is_over:
                action: Action = players[game.current].choose(game.view(game.current))
                gave_up |= isinstance(action, GiveUp)
                if isinstance(action, GiveUp):
                    view = game.view(game.current)
                    assert give_up_wanted(view)
                    # the hint says the same: give up (after any hits), then end the turn
                    steps = [step.action for step in hint(view).steps]
                    assert GiveUp() in steps and steps.index(GiveUp()) == len(steps) - 2
                    advice = hint(view).steps[steps.index(GiveUp())]
                    assert "still counts as completed" in advice.reason
                game.apply(action)
        assert gave_up is expect, give_up

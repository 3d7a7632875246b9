"""The dice bots (phase10.bots.dice) and dice tournaments (phase10.sim.dice): every action
a bot takes is legal, each bot does what its rule says, and greedy beats random."""

from __future__ import annotations

import random

import pytest

from phase10.bots.dice import (
    DEFAULT_DICE_BOT,
    DICE_BOT_NAMES,
    GreedyDicePlayer,
    OptimalDicePlayer,
    RandomDicePlayer,
    greedy_keep,
    make_dice_player,
    play_dice_game,
)
from phase10.dice import (
    DiceGame,
    DiceSetup,
    DiceStage,
    Keep,
    Pass,
    Roll,
    Score,
    Unkeep,
)
from phase10.sim.dice import dice_tournament
from phase10.solver.dice import advise


def test_greedy_plays_whole_games_legally_solitaire_and_three_players() -> None:
    for players, seed in ((1, 1), (3, 2)):
        game = DiceGame(players, seed=seed)
        play_dice_game(game, [GreedyDicePlayer() for _ in range(players)])  # apply checks
        assert game.is_over and game.winners


def test_random_takes_only_legal_actions() -> None:
    for seed in range(2):
        game = DiceGame(2, seed=seed, setup=DiceSetup(phases=(9, 10)))
        bots = [RandomDicePlayer(random.Random(seed)), RandomDicePlayer(random.Random(-seed))]
        for _ in range(300):
            if game.is_over:
                break
            view = game.view(game.current)
            action = bots[game.current].choose(view)
            assert action in view.legal_actions
            game.apply(action)


def test_greedy_keeps_its_plan_then_rolls_scores_a_made_phase_and_passes_a_failed_one() -> None:
    game = DiceGame(["Ann"], seed=0)
    bot = GreedyDicePlayer()
    assert bot.choose(game.view(0)) == Roll()
    game.apply("roll")
    keep, reason = greedy_keep(1, game.showing)
    assert reason == "5 of 6 dice for 2 sets of 3: 8 8 8 + 4 4"
    hint = bot.hint(game.view(0))
    assert hint.action == Keep(keep) and hint.keep == keep
    game.apply(hint.action)
    assert bot.choose(game.view(0)) == Roll()  # the plan is set aside: roll the rest
    # a made phase is scored at once; at the last roll a failed one is passed
    made = DiceGame(["Ann"], seed=0, setup=DiceSetup(rolls=("R5 G5 O5 O7 B6 O10 OW G3 R3 RW",)))
    made.apply("roll")
    assert made.way() is not None and bot.choose(made.view(0)) == Score()
    no_run = "G8 O8 O5 O7 R9 R8 G4 G3 B4 B3"  # 3-5 and 7-9: no run of 7
    failed = DiceGame(["Ann"], seed=0, setup=DiceSetup(phases=(4,), rolls=(no_run,) * 3))
    for _ in range(3):
        failed.apply("roll")
    assert failed.stage is DiceStage.FINAL and failed.way() is None
    assert bot.hint(failed.view(0)).action == Pass()


def test_greedy_takes_back_dice_outside_its_plan() -> None:
    game = DiceGame(["Ann"], seed=0)
    game.apply("roll")
    keep, _ = greedy_keep(1, game.showing)
    other = next(i for i in range(10) if i not in keep)
    game.apply(Keep((other,)))
    bot = GreedyDicePlayer()
    actions = {type(bot.choose(game.view(0)))}
    game.apply(bot.choose(game.view(0)))
    actions.add(type(bot.choose(game.view(0))))
    assert Unkeep in actions or Keep in actions
    while (action := bot.choose(game.view(0))) != Roll():
        game.apply(action)
    assert tuple(sorted(game.kept)) == keep


def test_the_colour_phase_keeps_the_most_common_colour() -> None:
    game = DiceGame(["Ann"], seed=0)
    game.apply("roll")
    keep, reason = greedy_keep(8, game.showing)
    colours = {game.showing[i].colour for i in keep}  # type: ignore[union-attr]
    assert len(colours) == 1 and reason.startswith(f"{len(keep)} of 7 ")


def test_greedy_beats_random_in_a_small_tournament() -> None:
    result = dice_tournament(["greedy", "random"], games=3, seed=0)
    greedy, rand = result.rows
    assert greedy.win_rate > rand.win_rate and greedy.mean_total > rand.mean_total
    assert result.to_dict()["seats"][0]["bot"] == "greedy"


def test_bot_names_and_their_errors() -> None:
    assert DICE_BOT_NAMES == ("random", "greedy", "optimal", "win")
    assert DEFAULT_DICE_BOT == "optimal"
    assert isinstance(make_dice_player(" Greedy ", random.Random(0)), GreedyDicePlayer)
    with pytest.raises(ValueError, match="unknown dice bot 'clever': choose from random"):
        make_dice_player("clever", random.Random(0))
    with pytest.raises(ValueError, match="seats 1 to 8 bots"):
        dice_tournament(["greedy"] * 9, games=1, seed=0)
    with pytest.raises(ValueError, match="3 players play this game, not 2"):
        play_dice_game(DiceGame(3, seed=1), [GreedyDicePlayer()] * 2)


def test_optimal_plays_legally_and_keeps_what_the_solver_advises() -> None:
    game = DiceGame(2, seed=4, setup=DiceSetup(phases=(10, 10)))
    play_dice_game(game, [make_dice_player("optimal", random.Random(0)) for _ in range(2)])
    assert game.is_over
    game = DiceGame(["Ann"], seed=0, setup=DiceSetup(phases=(10,)))
    game.apply("roll")
    bot = OptimalDicePlayer()
    hint = bot.hint(game.view(0))
    advice = advise(10, game.showing, rolls_left=2, dice=range(10))  # type: ignore[arg-type]
    assert hint.keep == advice.keep_dice and hint.action == Keep(advice.keep_dice)
    assert hint.reason == (
        f"The phase is made this turn {advice.best.probability:.0%} of the time, the best chance."
    )
    game.apply(hint.action)
    assert bot.choose(game.view(0)) == Roll()


def test_a_die_set_aside_after_the_first_roll_binds_no_hint() -> None:
    """Any die set aside may be taken back before the next roll (docs/dice.md §3): the
    hint's keep is the same whatever the player has set aside meanwhile, and its next
    step takes the stray die back."""
    from phase10.bots.dice_hints import dice_hint
    from phase10.dice.actions import Keep, Roll

    checked = 0
    for seed in range(20):
        game = DiceGame(["Ann"], seed=seed)
        game.apply("roll")
        base = dice_hint(game.view(0))
        if base.keep is None or len(base.keep) == 10:
            continue
        stray = next(i for i in range(10) if i not in base.keep)
        game.apply(Keep((stray,)))
        after = dice_hint(game.view(0))
        assert after.keep == base.keep, seed
        while not isinstance(after.action, Roll):  # its steps take the stray die back
            game.apply(after.action)
            after = dice_hint(game.view(0))
        assert game.view(0).kept == base.keep
        checked += 1
    assert checked >= 8

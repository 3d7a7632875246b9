"""The win dice bot (phase10.bots.dice.WinDicePlayer) and its solver
(phase10.solver.dice_win): it plays its last try for the win where optimal plays for the
phase, its model's chance of winning is what its play achieves, and it plays legally."""

from __future__ import annotations

import math
import random

import pytest

from phase10.bots.dice import OptimalDicePlayer, WinDicePlayer, make_dice_player, play_dice_game
from phase10.dice import DiceGame, DiceSetup, Keep, Roll, Score
from phase10.solver.dice import Objective, advise, turn_odds
from phase10.solver.dice_win import LastTry, Rival, advise_to_win, win_chance

# phase 10 made for 28 points: 5 5 5 5 5 + 1 1 1
LOW_TEN = "R5 G5 O5 R5 B5 O6 B1 R1 O1 G1"


def _last_try(totals: tuple[int, int], *rolls: str) -> DiceGame:
    """Bob (seat 1) plays first and completes phase 10 with LOW_TEN (28 points and the
    First Finish Bonus); then Ann (seat 0), on phase 10 too, takes her last try."""
    game = DiceGame(
        ["Ann", "Bob"],
        seed=1,
        setup=DiceSetup(order=(1, 0), phases=(10, 10), totals=totals, rolls=(LOW_TEN, *rolls)),
    )
    game.apply("roll")
    game.apply("score")
    assert game.finisher == 1 and game.current == 0 and game.last_try
    return game


def test_behind_it_rolls_on_past_a_made_phase_where_optimal_scores() -> None:
    game = _last_try((350, 360), LOW_TEN)  # Bob ends on 428
    game.apply("roll")
    view = game.view(0)
    assert view.way is not None and view.way.score == 28  # 350 + 28 + 40 = 418: not enough
    assert OptimalDicePlayer().choose(view) == Score()
    hint = WinDicePlayer().hint(view)
    assert isinstance(hint.action, (Roll, Keep)) and hint.keep is not None
    advice = advise_to_win(view)
    assert advice is not None and not advice.score and advice.score_chance == 0.0
    assert 0 < advice.chance < 1 and advice.short == 78
    assert hint.reason.startswith("Needs 79 more points to pass the leader: rolling on wins ")
    assert hint.reason.endswith(", scoring 28 now 0%.")


def test_behind_it_keeps_for_points_where_optimal_keeps_for_the_phase() -> None:
    game = _last_try((350, 360), "R5 G5 O5 R9 R9 G7 B1 B2 GW B3")  # needs 39 points or more
    game.apply("roll")
    view = game.view(0)
    assert OptimalDicePlayer().hint(view).keep == (0, 1, 2, 3, 4, 8)  # 5 5 5 + 9 9 W
    hint = WinDicePlayer().hint(view)
    assert hint.keep == (3, 4, 8) and hint.action == Keep((3, 4, 8))  # 9 9 W: the 5s are too few
    assert hint.reason == (
        "Needs 79 more points to pass the leader: keeping H4 H5 L3, the game is won 50% of "
        "the time."
    )


def test_ahead_it_scores_at_once() -> None:
    game = _last_try((400, 300), LOW_TEN)  # Bob ends on 368
    game.apply("roll")
    hint = WinDicePlayer().hint(game.view(0))
    assert hint.action == Score()
    assert hint.reason == "Leads by 32 points: scoring 28 now, the game is won 100% of the time."


def test_with_the_game_won_whatever_happens_it_plays_for_points() -> None:
    game = _last_try((500, 300), "R5 G5 O5 R9 R9 G7 B1 B2 GW B3")  # Bob ends on 368
    game.apply("roll")
    view = game.view(0)
    hint = WinDicePlayer().hint(view)
    faces = [face for face in view.showing if face is not None]
    points = advise(10, faces, rolls_left=2, dice=range(10), objective="points")
    assert hint.keep == points.keep_dice != tuple(range(10))
    assert hint.reason.startswith("Leads by 132 points: keeping ")
    assert hint.reason.endswith(", the game is won 100% of the time.")


def test_before_the_last_round_it_plays_as_optimal() -> None:
    game = DiceGame(["Ann", "Bob"], seed=3, setup=DiceSetup(phases=(10, 10)))
    game.apply("roll")
    view = game.view(game.current)
    assert advise_to_win(view) is None
    assert WinDicePlayer().hint(view) == OptimalDicePlayer().hint(view)


def test_the_bonuses_count_as_the_engine_awards_them() -> None:
    # with the First Finish Bonus, any phase 10 made (8 dice, at least 4 high: 20 points or
    # more) passes 350 from 300; without it, only one of over 50 points does
    made = turn_odds(10).probability
    with_bonus = LastTry(phase=10, total=300, first_finish=True, rivals=(Rival(350),))
    assert math.isclose(win_chance(with_bonus), made, rel_tol=1e-9)
    without = LastTry(phase=10, total=300, first_finish=False, rivals=(Rival(350),))
    assert 0 < win_chance(without) < turn_odds(10, objective=Objective.POINTS).probability
    # a rival far behind is beaten whatever happens, and one out of reach never
    assert win_chance(LastTry(10, 300, False, (Rival(100),))) == 1.0
    assert win_chance(LastTry(10, 300, False, (Rival(500),))) == 0.0
    # a rival still to come on phase 10 (First Finish Bonus open) is beaten less often than
    # one whose total is final
    later = LastTry(phase=10, total=300, first_finish=True, rivals=(Rival(300, 10, True),))
    assert win_chance(later) < win_chance(LastTry(10, 300, True, (Rival(300),)))


def test_a_last_try_refuses_what_cannot_be() -> None:
    with pytest.raises(ValueError, match="phase runs from 1 to 10, not 11"):
        LastTry(phase=11, total=0, first_finish=False, rivals=(Rival(0),))
    with pytest.raises(ValueError, match="a rival's total is a whole number, 0 or more, not -5"):
        Rival(-5)
    with pytest.raises(ValueError, match="one or more Rival rivals"):
        LastTry(phase=10, total=0, first_finish=False, rivals=())


def test_its_chance_of_winning_is_what_its_play_achieves() -> None:
    base = _last_try((350, 360))  # Bob ends on 428: Ann needs 39 points or more (38 ties)
    expected = win_chance(LastTry(phase=10, total=350, first_finish=True, rivals=(Rival(428),)))
    games, won = 120, 0.0
    for seed in range(games):
        game = base.copy(rng=random.Random(seed))
        play_dice_game(game, [WinDicePlayer(), OptimalDicePlayer()])
        won += 1 / len(game.winners) if 0 in game.winners else 0.0
    # three standard errors of a mean of shares in [0, 1] (the seeds fix the sample)
    assert abs(won / games - expected) < 3 * math.sqrt(expected * (1 - expected) / games)


def test_it_plays_whole_games_legally() -> None:
    game = DiceGame(3, seed=5, setup=DiceSetup(phases=(9, 10, 9)))
    bots = [make_dice_player(name, random.Random(n)) for n, name in enumerate(("win",) * 3)]
    play_dice_game(game, bots)  # apply checks every action
    assert game.is_over and game.finisher is not None and game.winners

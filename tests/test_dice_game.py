"""The dice game's rules, one test per rule row of docs/dice.md (§3 a turn, §4 scoring and
bonuses, §5 the end, §6 solitaire, §7 readings); each sets the rolls up exactly."""

from __future__ import annotations

import json
import pickle

import pytest

from phase10.dice import (
    BonusKind,
    DiceError,
    DiceGame,
    DiceGameEnded,
    DiceRefusal,
    DiceSetup,
    DiceStage,
    EarnedBonus,
    FailedPhase,
    IllegalDiceActionError,
    InvalidDiceActionError,
    Keep,
    LastRoundStarted,
    OrderRolled,
    Pass,
    Penalised,
    Roll,
    Rolled,
    Score,
    ScoredPhase,
    TurnStarted,
    Unkeep,
    best_way,
    die_index,
    parse_action,
    parse_faces,
)

#: all six high dice show 10 and the four low dice Wilds: phases 1, 7, 9 and 10 at once
TENS = "G10 R10 O10 B10 G10 O10 RW BW GW GW"
#: no two numbers alike and no Wild: no set, so phases 1-3, 7, 9 and 10 fail
NOTHING = "R5 R6 R7 B8 R9 O10 B1 B2 R3 R4"
#: 8 8 8 and 10 W W, the sheet's example (34 points for phase 1)
SHEET = "G8 O8 B8 B10 B5 O6 RW BW O1 G1"


def game_with(*rolls: str, players: int = 2, **setup: object) -> DiceGame:
    order = setup.pop("order", tuple(range(players)))
    return DiceGame(players, seed=1, setup=DiceSetup(order=order, rolls=rolls, **setup))  # type: ignore[arg-type]


def refused(game: DiceGame, action: str, code: DiceRefusal) -> str:
    before = (game.view(0).to_dict(), game.rng.getstate(), list(game.actions))
    with pytest.raises((IllegalDiceActionError, InvalidDiceActionError)) as caught:
        game.apply(action)
    assert caught.value.code is code, caught.value
    assert (game.view(0).to_dict(), game.rng.getstate(), list(game.actions)) == before
    return str(caught.value)


# -- §1 the dice ----------------------------------------------------------------------


def test_d1_a_set_up_roll_the_dice_cannot_show_is_refused_by_name() -> None:
    with pytest.raises(DiceError, match="set-up roll 2: no roll shows G10 G10 G10"):
        DiceSetup(rolls=(TENS, "G10 G10 G10"))
    with pytest.raises(DiceError, match="'Y5' is not a die face"):
        DiceSetup(rolls=("R5 Y5",))
    game = game_with(TENS, "R5 R6")  # the second roll rolls 8 dice, not 2
    game.apply("roll")
    game.apply("keep H1 H2")
    with pytest.raises(DiceError, match="2 faces for 8 dice"):
        game.apply("roll")
    assert game.rolls_made == 1 and len(game.actions) == 2


def test_d1_dice_are_named_and_faces_name_them_only_unambiguously() -> None:
    game = game_with(SHEET)
    game.apply("roll")
    assert game.apply("keep O1 G8")[0].dice == (0, 8)  # type: ignore[union-attr]
    # two dice show a Wild each of its own colour, and B8 just one die (H3)
    assert game.parse_action("keep RW BW B8") == Keep((2, 6, 7))
    assert game.parse_action("unkeep o1") == Unkeep((8,))
    message = refused(game, "keep O8 O8", DiceRefusal.MALFORMED)
    assert message == "only 1 die you may keep shows O8 (2 named)"
    assert "not set aside" not in refused(game, "unkeep R9", DiceRefusal.MALFORMED)
    assert "neither a die" in refused(game, "keep H7", DiceRefusal.MALFORMED)
    assert "named twice" in refused(game, "keep H2 h2", DiceRefusal.MALFORMED)
    twin = game_with("R5 R6 B8 B8 R7 R8 B1 B2 R3 R4")  # H3 and H4 both show B8
    twin.apply("roll")
    assert "2 dice you may keep show B8 (H3 and H4)" in refused(
        twin, "keep B8", DiceRefusal.MALFORMED
    )
    assert twin.parse_action("keep B8 B8") == Keep((2, 3))
    tens = game_with(TENS)
    tens.apply("roll")  # a score reads faces alone: any die showing one will do
    assert tens.parse_action("score G10 G10 R10 O10 O10 B10") == Score((0, 1, 2, 3, 4, 5))
    assert str(parse_action("score l4 h1")) == "score H1 L4" and die_index("h6") == 5


# -- §2 the phases --------------------------------------------------------------------


def test_d2_a_phase_uses_exactly_its_number_of_dice() -> None:
    game = game_with(TENS)
    game.apply("roll")
    assert "uses 6 dice, not 7" in refused(
        game, "score H1 H2 H3 H4 H5 H6 L1", DiceRefusal.WRONG_COUNT
    )
    events = game.apply("score")
    scored = next(e for e in events if isinstance(e, ScoredPhase))
    assert len(scored.dice) == 6 and scored.points == 60


# -- §3 a turn ------------------------------------------------------------------------


def test_d3_who_starts_highest_roll_first_ties_roll_again() -> None:
    seen_tie = False
    for seed in range(60):
        game = DiceGame(4, seed=seed)
        rolls = [e for e in game.history if isinstance(e, OrderRolled)]
        first = rolls[0]
        assert sorted(first.players) == [0, 1, 2, 3] and all(5 <= v <= 10 for v in first.values)
        # the order sorts the first roll's values, highest first
        ranked = [dict(zip(first.players, first.values, strict=True))[p] for p in game.order]
        assert ranked == sorted(ranked, reverse=True)
        for again in rolls[1:]:  # a re-roll is among players tied in the roll before
            seen_tie = True
            assert len(again.players) >= 2 and again.round >= 2
        assert game.current == game.order[0]
    assert seen_tie
    assert DiceGame(["Solo"], seed=3).order == (0,)
    assert not any(isinstance(e, OrderRolled) for e in DiceGame(["Solo"], seed=3).history)


def test_d3_a_turn_starts_with_a_roll_of_all_ten() -> None:
    game = game_with(SHEET)
    assert game.stage is DiceStage.ROLL and game.legal_actions() == (Roll(),)
    for action in ("keep H1", "unkeep H1", "score", "pass"):
        assert "roll the dice first" in refused(game, action, DiceRefusal.ROLL_FIRST)
    assert "nothing after it" in refused(game, "roll H1", DiceRefusal.MALFORMED)
    rolled = game.apply("roll")[0]
    assert isinstance(rolled, Rolled) and rolled.dice == tuple(range(10)) and rolled.roll == 1
    assert " ".join(map(str, game.showing)) == SHEET


def test_d3_the_second_roll_rolls_only_the_dice_not_set_aside() -> None:
    game = game_with(SHEET)
    game.apply("roll")
    game.apply("keep H1 H2 H3")
    assert "already set aside" in refused(game, "keep H2 L1", DiceRefusal.ALREADY_KEPT)
    rolled = game.apply("roll")[0]
    assert isinstance(rolled, Rolled) and rolled.dice == (3, 4, 5, 6, 7, 8, 9)
    assert " ".join(map(str, game.showing[:3])) == "G8 O8 B8"  # kept, not rolled
    assert game.kept == {0, 1, 2} and game.rolls_left == 1


def test_d3_setting_aside_may_change_before_a_roll_and_after_the_second() -> None:
    game = game_with(SHEET)
    game.apply("roll")
    game.apply("keep H1 H2")
    game.apply("unkeep H2")  # a change of mind before the second roll
    game.apply("roll")
    game.apply("unkeep H1")  # set aside before the second roll: taken back
    game.apply("keep H2")
    rolled = game.apply("roll")[0]
    assert isinstance(rolled, Rolled) and 0 in rolled.dice and 1 not in rolled.dice
    assert rolled.roll == 3 and game.stage is DiceStage.FINAL


def test_d3_after_the_third_roll_only_score_or_pass() -> None:
    game = game_with(NOTHING, NOTHING, NOTHING, players=1)
    for _ in range(3):
        game.apply("roll")
    for action in ("roll", "keep H1", "unkeep H1"):
        assert "rolled 3 times" in refused(game, action, DiceRefusal.NO_ROLLS_LEFT)
    assert game.legal_actions() == (Pass(),)
    assert "do not make phase 1" in refused(game, "score", DiceRefusal.NOT_THE_PHASE)
    game.apply("pass")
    assert game.seats[0].phase == 1 and game.stage is DiceStage.ROLL  # the same phase again


def test_d3_rolling_with_every_die_set_aside_uses_the_roll() -> None:
    game = game_with(TENS)
    game.apply("roll")
    game.apply("keep " + " ".join(f"H{i}" for i in range(1, 7)) + " L1 L2 L3 L4")
    rolled = game.apply("roll")[0]
    assert isinstance(rolled, Rolled) and rolled.dice == () and game.rolls_left == 1
    assert " ".join(map(str, game.showing)) == TENS


def test_d3_the_score_may_be_taken_after_any_roll_and_rolling_on_is_a_choice() -> None:
    game = game_with(TENS, TENS)
    game.apply("roll")
    assert Score() in game.legal_actions() and Roll() in game.legal_actions()
    game.apply("score")
    assert game.seats[0].phase == 2 and game.current == 1


def test_d3_a_phase_the_dice_make_cannot_be_passed() -> None:
    game = game_with(TENS)
    game.apply("roll")
    assert "score it" in refused(game, "pass", DiceRefusal.PHASE_MADE)


def test_d3_a_failed_turn_scores_nothing_and_the_next_player_rolls() -> None:
    game = game_with(NOTHING)
    game.apply("roll")
    events = game.apply("pass")
    assert isinstance(events[0], FailedPhase) and events[0].phase == 1
    assert events[1] == TurnStarted(1, 1, False)
    assert game.seats[0].total == 0 and game.seats[0].phase == 1 and game.seats[0].failures == 1


def test_d3_turns_go_round_in_the_rolled_order() -> None:
    game = game_with(NOTHING, NOTHING, NOTHING, NOTHING, players=3, order=(2, 0, 1))
    movers = []
    for _ in range(4):
        movers.append(game.current)
        game.apply("roll")
        game.apply("pass")
    assert movers == [2, 0, 1, 2]


# -- §4 scoring and bonuses -----------------------------------------------------------


def test_d4_a_phase_scores_the_dice_used_a_wild_scores_nothing() -> None:
    game = game_with(SHEET)
    game.apply("roll")
    scored = game.apply("score")[0]
    assert isinstance(scored, ScoredPhase)
    assert scored.points == 34 and game.seats[0].total == 34 and game.seats[0].scores[0] == 34
    assert [" ".join(map(str, g)) for g in scored.groups] == ["O8 G8 B8", "B10 RW BW"]
    # the best of the ways: 9 9 9 + 5 6 7 8 (53), not 9 9 W + 6 7 8 9 (48)
    way = best_way(2, parse_faces("R9 B9 G9 GW R5 R6 R7 B8"))
    assert way is not None and way.score == 53 and len(way.used) == 7


def test_d4_score_with_chosen_dice_and_refused_when_they_do_not_make_it() -> None:
    game = game_with(SHEET)
    game.apply("roll")
    assert "do not make phase 1" in refused(
        game, "score G8 O8 B8 B10 B5 O6", DiceRefusal.NOT_THE_PHASE
    )
    scored = game.apply("score G8 O8 B8 O1 G1 RW")[0]  # 8 8 8 and 1 1 W: a worse way
    assert isinstance(scored, ScoredPhase) and scored.points == 26


def test_d4_five_phase_bonus_over_220_right_after_phase_5() -> None:
    run = "R5 R6 R7 B8 R9 O10 B1 B2 R3 R4"  # a run of 8 from 3 to 10: 52
    game = game_with(run, run, phases=(5, 5), totals=(169, 168))
    game.apply("roll")
    events = game.apply("score")
    assert events[1] == EarnedBonus(0, BonusKind.FIVE_PHASE, 40, 169 + 52 + 40)
    game.apply("roll")
    events = game.apply("score")  # 168 + 52 = 220: not over 220
    assert not any(isinstance(e, EarnedBonus) for e in events)
    assert game.seats[1].total == 220 and game.seats[0].bonuses == [BonusKind.FIVE_PHASE]


def test_d4_first_finish_bonus_to_the_first_to_complete_phase_10() -> None:
    game = game_with(TENS, players=2, phases=(10, 10))
    game.apply("roll")
    events = game.apply("score")
    assert events[1] == EarnedBonus(0, BonusKind.FIRST_FINISH, 40, 60 + 40)
    assert events[2] == LastRoundStarted(0, (1,))


def test_d4_first_finish_bonus_in_the_last_round_only_after_the_finisher_and_on_10() -> None:
    # order 0, 1, 2, 3: seat 0 fails, seat 1 finishes; the last tries go 2, 3, 0
    game = game_with(NOTHING, TENS, TENS, TENS, TENS, TENS, players=4, phases=(10, 10, 10, 9))
    game.apply("roll")
    game.apply("pass")
    game.apply("roll")
    finished = game.apply("score")
    assert LastRoundStarted(1, (2, 3, 0)) in finished
    bonuses: dict[int, list[BonusKind]] = {}
    while not game.is_over:
        game.apply("roll")
        for event in game.apply("score"):
            if isinstance(event, EarnedBonus):
                bonuses.setdefault(event.player, []).append(event.kind)
    # seat 2: after the finisher, on phase 10: earns it; seat 3 began its last try on
    # phase 9; seat 0 played before the finisher
    assert bonuses == {2: [BonusKind.FIRST_FINISH]}
    assert [seat.phase for seat in game.seats] == [11, 11, 11, 11]


# -- §5 the end -----------------------------------------------------------------------


def test_d5_a_last_try_goes_on_while_phases_are_made_then_the_highest_total_wins() -> None:
    # seat 0 finishes; seat 1, on phase 7, makes 7, fails 8 (TENS are not one colour)
    game = game_with(TENS, TENS, TENS, NOTHING, players=2, phases=(10, 7))
    game.apply("roll")
    game.apply("score")
    game.apply("roll")
    events = game.apply("score")
    assert events[-1] == TurnStarted(1, 8, True)  # the same player rolls again
    game.apply("roll")
    assert game.legal_actions()[-1] == Pass()
    game.apply("pass")
    end = game.history[-1]
    assert isinstance(end, DiceGameEnded) and game.is_over and game.stage is DiceStage.GAME_OVER
    assert end.totals == (100, 60) and end.winners == (0,)
    assert "game is over" in refused(game, "roll", DiceRefusal.GAME_OVER)
    assert game.legal_actions() == () and game.view(0).legal_actions == ()


def test_d5_every_player_after_and_before_the_finisher_gets_a_last_try() -> None:
    game = game_with(NOTHING, TENS, NOTHING, players=3, phases=(10, 10, 3))
    game.apply("roll")
    game.apply("pass")
    game.apply("roll")
    assert LastRoundStarted(1, (2, 0)) in game.apply("score")
    movers = []
    while not game.is_over:
        movers.append(game.current)
        game.apply("roll")
        game.apply("pass" if Pass() in game.legal_actions() else "score")
    assert movers == [2, 0]


def test_d5_a_tie_for_the_highest_total_is_a_shared_win() -> None:
    game = game_with(TENS, TENS, players=2, phases=(10, 10))
    for _ in range(2):
        game.apply("roll")
        game.apply("score")
    # seat 1 played after the finisher and was on phase 10: the bonus too, 100 each
    end = game.history[-1]
    assert isinstance(end, DiceGameEnded) and end.winners == (0, 1) and end.totals == (100, 100)


# -- §6 solitaire ---------------------------------------------------------------------


def test_d6_solitaire_takes_5_points_a_failure_at_the_end_and_ends_with_phase_10() -> None:
    game = game_with(NOTHING, NOTHING, TENS, TENS, players=1, phases=(9,), totals=(200,))
    for action in ("roll", "pass", "roll", "pass", "roll", "score"):
        game.apply(action)
    assert game.current == 0 and game.seats[0].phase == 10 and game.seats[0].total == 260
    game.apply("roll")
    events = game.apply("score")
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["ScoredPhase", "EarnedBonus", "Penalised", "DiceGameEnded"]
    assert events[2] == Penalised(0, 2, -10, 260 + 60 + 40 - 10)
    assert game.winners == (0,) and game.is_over


def test_d6_solitaire_first_finish_bonus_only_at_the_first_try() -> None:
    game = game_with(NOTHING, TENS, players=1, phases=(10,))
    for action in ("roll", "pass", "roll", "score"):
        game.apply(action)
    assert not any(isinstance(e, EarnedBonus) for e in game.history)
    assert game.seats[0].total == 60 - 5


# -- the engine's own promises --------------------------------------------------------


def test_players_and_set_ups_are_checked() -> None:
    with pytest.raises(ValueError, match="1 to 8 players, not 9"):
        DiceGame(9)
    with pytest.raises(ValueError, match="order must name each seat"):
        DiceGame(2, setup=DiceSetup(order=(0, 0)))
    with pytest.raises(ValueError, match="phase runs from 1 to 10"):
        DiceGame(2, setup=DiceSetup(phases=(1, 11)))
    with pytest.raises(ValueError, match="gives 1 totals for 2 players"):
        DiceGame(2, setup=DiceSetup(totals=(5,)))


def test_views_are_public_and_name_the_legal_actions_of_the_player_to_move() -> None:
    game = game_with(SHEET)
    game.apply("roll")
    mine, theirs, spectator = game.view(0), game.view(1), game.view(None)
    assert mine.showing == theirs.showing == spectator.showing
    assert mine.is_my_turn and not theirs.is_my_turn and theirs.legal_actions == ()
    assert mine.way is not None and mine.way.score == 34
    assert [str(a) for a in mine.legal_actions][:2] == ["roll", "keep H1"]
    data = json.loads(json.dumps(mine.to_dict()))
    assert data["showing"] == SHEET.split() and data["legal_actions"][-1] == "score"
    assert data["history"][-1] == {
        "type": "Rolled",
        "player": 0,
        "roll": 1,
        "dice": list(range(10)),
        "faces": SHEET.split(),
    }
    with pytest.raises(ValueError, match="no player 2"):
        game.view(2)


def test_the_same_seed_and_actions_give_the_same_game_and_copies_are_independent() -> None:
    one, two = DiceGame(3, seed=5), DiceGame(3, seed=5)
    for action in ("roll", "keep H1", "roll"):
        assert one.apply(action) == two.apply(action)
    twin = one.copy()
    twin.apply("roll")
    assert one.rolls_made == 2 and twin.rolls_made == 3
    assert one.apply("roll") == twin.history[-1:]


def test_refusals_pickle_with_their_code() -> None:
    game = DiceGame(2, seed=1)
    with pytest.raises(IllegalDiceActionError) as caught:
        game.apply("pass")
    again = pickle.loads(pickle.dumps(caught.value))
    assert again.code is DiceRefusal.ROLL_FIRST and str(again) == str(caught.value)


def test_faces_are_read_as_the_dice_show_them() -> None:
    assert parse_faces(TENS)[0].value == 10

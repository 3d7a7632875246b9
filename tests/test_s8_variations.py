"""docs/rules.md §8: every variation option, and every named preset."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from helpers import (
    arranged,
    assert_refused,
    edited,
    greedy_action,
    meld_with,
    of_type,
    play,
    play_until,
    rest_of_deck,
    text_of,
)
from phase10 import (
    PHASE_LISTS,
    PRESET_NOTES,
    PRESETS,
    SKIP,
    STANDARD_PHASES,
    WILD,
    Advance,
    Card,
    Deck,
    Declare,
    Declared,
    DeclareWhen,
    Discard,
    Discarded,
    Draw,
    Drew,
    EmptyDrawPile,
    EndWhen,
    Floating,
    Game,
    GameEnded,
    GiveWild,
    GoingOut,
    HandEnded,
    IllegalActionError,
    InvalidActionError,
    LaidDown,
    LayDown,
    NaturalMin,
    PhaseOrder,
    Reshuffled,
    Rules,
    RulesError,
    Skipped,
    SkipTarget,
    Stage,
    TakeDiscard,
    TookDiscard,
    WentOut,
    WildDealUp,
    WildGiven,
    dumps,
    full_deck,
    loads,
    parse_phase_list,
    preset,
    snapshot,
)

C = Card.parse
TEN_A = "R5 R5 B5 B5 G5 R9 B9 G9"
LAY_A = "lay R5 R5 B5 B5 G5 + R9 B9 G9"
TEN_B = "G6 Y6 Y6 R6 R6 R10 B10 G10"
LAY_B = "lay G6 Y6 Y6 R6 R6 + R10 B10 G10"


# == phases = 1..N or a chosen list ========================================================


def test_s8_phases_first_n() -> None:
    rules = Rules(phases=(1, 2, 3))
    assert rules.phase_count == 3
    assert rules.phase_sequence == STANDARD_PHASES[:3]
    assert Rules.from_dict({"phases": 3}) == rules
    assert preset("short-5").phase_sequence == STANDARD_PHASES[:5]


def test_s8_phases_first_n_game_ends_after_phase_n() -> None:
    rules = Rules(phases=(1, 2, 3))
    game = arranged(["R7 B7 G7 Y7 R1 B2 G3", "B1 B10"], "R12", "Y4", phases=(3, 1), rules=rules)
    events = play(game, "draw; lay R7 B7 G7 Y7 + R1 B2 G3 Y4")
    assert of_type(events, GameEnded)[0].winners == (0,)


def test_s8_phases_arranged_phase_must_be_in_the_list() -> None:
    with pytest.raises(ValueError, match="phase numbers run from 1 to 3, not 4"):
        arranged(["R1", "R2"], "R12", phases=(4, 1), rules=Rules(phases=(1, 2, 3)))


def test_s8_phases_only_even() -> None:
    rules = preset("even-phases")
    assert rules.phases == (2, 4, 6, 8, 10)
    assert [str(p) for p in rules.phase_sequence] == [
        "1 set of 3 + 1 run of 4",
        "1 run of 7",
        "1 run of 9",
        "7 cards of one color",
        "1 set of 5 + 1 set of 3",
    ]
    game = arranged(["R7 B7 G7 R3 B3 Y3 B4 G5 Y6", "B1 B10"], "R12", "R1", rules=rules)
    game.apply("draw")
    assert str(game.current_phase(0)) == "1 set of 3 + 1 run of 4"
    assert_refused(game, "lay R7 B7 G7 + R3 B3 Y3", InvalidActionError, "is not a run")
    events = game.apply("lay R7 B7 G7 + R3 B4 G5 Y6")
    assert of_type(events, LaidDown)[0].phase == 1  # the first phase played


def test_s8_phases_only_odd() -> None:
    rules = preset("odd-phases")
    assert rules.phase_sequence == tuple(STANDARD_PHASES[i - 1] for i in (1, 3, 5, 7, 9))
    game = arranged([TEN_A, "B1 B10"], "R12", "R1", phases=(5, 5), rules=rules)
    game.apply("draw")
    assert str(game.current_phase(0)) == "1 set of 5 + 1 set of 2"
    events = game.apply("lay R5 R5 B5 B5 G5 + R9 B9")
    assert of_type(events, LaidDown)[0].phase == 5


def test_s8_phases_chosen_list_last_phase_ends_the_game() -> None:
    game = arranged([TEN_A, "B1 B10"], "R12", "R1", phases=(5, 3), rules=preset("even-phases"))
    events = play(game, f"draw; {LAY_A}; discard R1")
    assert of_type(events, GameEnded)[0].winners == (0,)
    assert of_type(events, LaidDown)[0].phase == 5


@pytest.mark.parametrize(
    ("phases", "phrase"), [((0,), "not 0"), ((11,), "not 11"), ((2, 2), "twice")]
)
def test_s8_phases_bad_choice_refused(phases: tuple[int, ...], phrase: str) -> None:
    with pytest.raises(RulesError, match=phrase):
        Rules(phases=phases)


# == advance = "all" ("ten hands") =========================================================

TEN_HANDS = Rules(advance=Advance.ALL)


def test_s8_advance_all_everyone_advances() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B10"], "R12", "Y3", rules=TEN_HANDS)
    result = of_type(play(game, "draw; lay R7 B7 G7 + R3 B3 Y3"), HandEnded)[0]
    assert result.advanced == (0, 1)
    assert [seat.phase for seat in game.seats] == [1, 1]
    assert result.phases_completed == (1, 0)  # completing still counts for the tie-break
    assert str(game.current_phase(1)) == "1 set of 3 + 1 run of 4"


def test_s8_advance_all_plays_one_hand_per_phase() -> None:
    rules = Rules(advance=Advance.ALL, phases=(1, 2, 3))
    game = Game(3, rules=rules, seed=8)
    events = play_until(game, lambda g: False, greedy_action)
    assert len(game.hand_results) == 3
    assert [r.hand for r in game.hand_results] == [1, 2, 3]
    assert of_type(events, GameEnded)[0].totals == game.hand_results[-1].totals


def test_s8_advance_all_lowest_total_wins() -> None:
    game = arranged(
        [TEN_A, "B1 B10"], "R12", "R1", phases=(10, 10), scores=(30, 20), rules=TEN_HANDS
    )
    events = play(game, f"draw; {LAY_A}; discard R1")
    assert of_type(events, GameEnded) == [GameEnded((0,), "lowest total score", (30, 35))]


def test_s8_advance_all_lowest_total_wins_even_without_completing() -> None:
    game = arranged(
        [TEN_A, "B1 B10"], "R12", "R1", phases=(10, 10), scores=(90, 20), rules=TEN_HANDS
    )
    events = play(game, f"draw; {LAY_A}; discard R1")
    assert of_type(events, GameEnded)[0].winners == (1,)  # 35 beats 90


def test_s8_advance_all_tie_goes_to_more_phases_completed() -> None:
    game = arranged(
        [TEN_A, "B1 B10"], "R12", "R1", phases=(10, 10), scores=(50, 35), rules=TEN_HANDS
    )
    events = play(game, f"draw; {LAY_A}; discard R1")
    result = of_type(events, HandEnded)[0]
    assert result.totals == (50, 50) and result.phases_completed == (10, 9)
    assert of_type(events, GameEnded) == [
        GameEnded((0,), "lowest total, most phases completed", (50, 50))
    ]


def test_s8_advance_all_still_tied_is_a_shared_win() -> None:
    game = arranged(
        [TEN_A + " R1 R2", TEN_B],
        "R12",
        "G12 Y1",
        phases=(10, 10),
        scores=(40, 50),
        rules=TEN_HANDS,
    )
    play(game, f"draw; {LAY_A}; discard G12")  # p0 keeps R1 R2: 40 + 10
    events = play(game, f"draw; {LAY_B}; discard Y1")  # p1 goes out: 50
    assert of_type(events, HandEnded)[0].phases_completed == (10, 10)
    assert of_type(events, GameEnded) == [GameEnded((0, 1), "a shared win", (50, 50))]
    assert game.winners == (0, 1)


def test_s8_advance_all_conflicting_options_refused() -> None:
    with pytest.raises(RulesError, match="any order"):
        Rules(advance=Advance.ALL, phase_order=PhaseOrder.ANY)
    with pytest.raises(RulesError, match="end_when must be 'hand_end'"):
        Rules(advance=Advance.ALL, end_when=EndWhen.IMMEDIATELY)


# == phase_list = ... ======================================================================


@pytest.mark.parametrize("name", sorted(PHASE_LISTS))
def test_s8_phase_list_presets(name: str) -> None:
    rules = PRESETS["official"] if name == "standard" else preset(name)
    assert rules.phase_list == PHASE_LISTS[name]
    assert Rules.from_dict({"phase_list": name}) == rules
    assert Rules.from_dict(rules.to_dict()) == rules


def test_s8_phase_list_island_paradise_is_played() -> None:
    rules = preset("island-paradise")
    game = arranged(["R3 B4 G5 Y6 R7 B8 R1", "B1 B10"], "R12", "G9", rules=rules)
    game.apply("draw")
    assert str(game.current_phase(0)) == "1 run of 7"
    events = game.apply("lay R3 B4 G5 Y6 R7 B8 G9")
    assert of_type(events, LaidDown)[0].groups[0].low == 3


def test_s8_phase_list_from_the_users_phrases() -> None:
    phrases = ["1 run of 3 + 4 cards of one color", "1 even or odd of 5"]
    rules = Rules.from_dict({"phase_list": phrases})
    assert [str(p) for p in rules.phase_list] == phrases
    assert rules.phase_count == 2
    game = arranged(["R1 B2 G3 Y4 Y6 Y8 Y10", "B1 B10"], "R12", "R9", rules=rules)
    events = play(game, "draw; lay R1 B2 G3 + Y4 Y6 Y8 Y10")
    assert of_type(events, LaidDown)[0].groups[1].color is not None
    assert game.hand(0) == (C("R9"),)


def test_s8_phase_list_last_user_phase_ends_the_game() -> None:
    rules = Rules(phase_list=parse_phase_list(["2 sets of 3", "1 even or odd of 5"]))
    game = arranged(["R2 B4 G6 Y8", "B1 B10"], "R12", "W", phases=(2, 1), rules=rules)
    events = play(game, "draw; lay R2 B4 G6 Y8 W")
    assert of_type(events, GameEnded)[0].winners == (0,)


@pytest.mark.parametrize(
    ("data", "phrase"),
    [
        ({"phase_list": "no-such-list"}, "no phase list named"),
        ({"phase_list": ["2 sets of 3", "a pile of cards"]}, "phase 2"),
        ({"phase_list": []}, "at least one phase"),
        ({"phase_list": ["1 run of 12"]}, "a hand holds at most 11"),
    ],
)
def test_s8_phase_list_bad_phrases_refused(data: dict[str, Any], phrase: str) -> None:
    with pytest.raises(RulesError, match=phrase):
        Rules.from_dict(data)


# == phase_order = "any", declare = "deal" (Masters) =======================================

MASTERS = Rules(phase_order=PhaseOrder.ANY, declare=DeclareWhen.DEAL)
HANDS3 = ["R7 B7 G7 R3 B3 Y3 R1", "B1 B2 B3 B4", "G1 G2"]


def test_s8_declare_stage_after_the_deal() -> None:
    game = arranged(HANDS3, "R12", "Y9", rules=MASTERS, dealer=1)
    assert game.stage is Stage.DECLARE and game.current == 2
    assert list(game.legal_actions) == [Declare(n) for n in range(1, 11)]
    events = play(game, "declare 1; declare 4; declare 2")
    assert events == [Declared(2, 1), Declared(0, 4), Declared(1, 2)]
    assert [seat.declared for seat in game.seats] == [3, 1, 0]
    assert game.stage is Stage.DRAW and game.current == 2


def test_s8_declare_before_anything_else() -> None:
    game = arranged(HANDS3, "R12", "Y9", rules=MASTERS)
    assert_refused(game, "draw", IllegalActionError, "must first declare a phase")
    assert_refused(game, "declare 11", InvalidActionError, "there is no phase 11")
    play(game, "declare 1; declare 1; declare 1")
    assert_refused(game, "declare 2", IllegalActionError, "declared only right after the deal")


def test_s8_declare_a_completed_phase_refused() -> None:
    game = arranged(HANDS3, "R12", "Y9", rules=MASTERS, phases=(3, 1, 1))
    assert_refused(game, "declare 2", IllegalActionError, "already completed phase 2")
    assert [a.phase for a in game.legal_actions if isinstance(a, Declare)] == list(range(3, 11))


def test_s8_declared_phase_is_held_to_for_the_hand() -> None:
    game = arranged(HANDS3, "R12", "Y9", rules=MASTERS)
    play(game, "declare 4; declare 1; declare 1; draw")
    assert game.allowed_phases(0) == (3,)
    assert_refused(game, "lay 1: R7 B7 G7 + R3 B3 Y3", IllegalActionError, "(you may: 4)")
    assert not [a for a in game.legal_actions if isinstance(a, LayDown)]
    assert game.view(1).seats[0].declared == 3  # the declaration is public


def test_s8_declared_phase_is_laid_and_completed() -> None:
    game = arranged(HANDS3, "R12", "Y9", rules=MASTERS)
    play(game, "declare 1; declare 4; declare 2; draw")
    events = game.apply("lay R7 B7 G7 + R3 B3 Y3")
    assert of_type(events, LaidDown)[0].phase == 1
    play(game, "discard R1")
    game2 = arranged(["R7 B7 G7 R3 B3", "B1 B2 B3 B4"], "R12", "Y3", rules=MASTERS)
    play(game2, "declare 1; declare 4; draw")
    result = of_type(game2.apply("lay R7 B7 G7 + R3 B3 Y3"), HandEnded)[0]
    assert result.advanced == (0,)
    assert game2.seats[0].completed == {0}
    assert game2.stage is Stage.DECLARE  # the next hand begins with declarations again
    assert all(seat.declared is None for seat in game2.seats)
    assert game2.current == 1  # the deal moved left: p1 declares first
    game2.apply("declare 2")
    assert_refused(game2, "declare 1", IllegalActionError, "already completed phase 1")


def test_s8_masters_completing_the_last_uncompleted_phase_wins() -> None:
    game = arranged([TEN_A, "B1 B10"], "R12", "R1", rules=MASTERS, phases=(10, 1))
    assert list(game.legal_actions) == [Declare(10)]
    events = play(game, f"declare 10; declare 1; draw; {LAY_A}; discard R1")
    assert of_type(events, GameEnded)[0].winners == (0,)


def test_s8_masters_turned_up_skip_passes_the_first_turn_after_declaring() -> None:
    game = arranged(["R1 R2", "B1 B2", "G1 G2"], "S", "Y9", rules=MASTERS)
    assert game.stage is Stage.DECLARE and game.current == 0
    events = play(game, "declare 1; declare 2; declare 3")
    assert events[-1] == Skipped(0)
    assert game.current == 1 and game.stage is Stage.DRAW


# == phase_order = "any", declare = "laydown" (Arkansas) ===================================

ARKANSAS = Rules(phase_order=PhaseOrder.ANY, declare=DeclareWhen.LAYDOWN)


def test_s8_laydown_names_the_phase() -> None:
    game = arranged(["R7 B7 G7 Y7 R3 B3 G3 Y3 R1", "B1 B10"], "R12", "Y9", rules=ARKANSAS)
    assert game.stage is Stage.DRAW  # no declare stage
    game.apply("draw")
    # Without its number a lay-down cannot even be read (which phase's groups?) ...
    assert_refused(game, "lay R7 B7 G7 + R3 B3 Y3", InvalidActionError, "say which phase")
    # ... and a LayDown value without one is refused by the rules.
    named = game.parse_action("lay 1: R7 B7 G7 + R3 B3 Y3")
    assert isinstance(named, LayDown) and named.phase == 1
    unnamed = LayDown(named.groups)
    assert_refused(game, unnamed, IllegalActionError, "lay N: ...")
    events = game.apply("lay 7: R7 B7 G7 Y7 + R3 B3 G3 Y3")
    laid = of_type(events, LaidDown)[0]
    assert laid.phase == 7
    assert str(game.actions[-1]).startswith("lay 7: ")
    assert game.seats[0].laid == 6


def test_s8_laydown_any_uncompleted_phase() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "B1 B10"], "R12", "Y9", rules=ARKANSAS, phases=(3, 1))
    game.apply("draw")
    assert game.allowed_phases(0) == tuple(range(2, 10))
    assert_refused(
        game, "lay 1: R7 B7 G7 + R3 B3 Y3", IllegalActionError, "cannot lay down phase 1"
    )
    lays = {a.phase for a in game.legal_actions if isinstance(a, LayDown)}
    assert 1 not in lays and lays <= set(range(3, 11))


def test_s8_laydown_completed_phases_are_remembered() -> None:
    game = arranged(["R7 B7 G7 Y7 R3 B3 G3", "B1 B10"], "R12", "Y3", rules=ARKANSAS)
    events = play(game, "draw; lay 7: R7 B7 G7 Y7 + R3 B3 G3 Y3")
    assert of_type(events, HandEnded)[0].phases_completed == (1, 0)
    assert game.seats[0].completed == {6}
    assert game.allowed_phases(0) == (0, 1, 2, 3, 4, 5, 7, 8, 9)


def with_completed(game: Game, seat: int, completed: list[int]) -> Game:
    def edit(state: dict[str, Any]) -> None:
        state["seats"][seat]["completed"] = completed

    return edited(game, edit)


def test_s8_any_order_must_complete_all_to_win() -> None:
    base = arranged([TEN_A, "B1 B10"], "R12", "R1", rules=ARKANSAS)
    missing_three = with_completed(base, 0, [0, 1, 3, 4, 5, 6, 7, 8])  # lacks 3 and 10
    events = play(missing_three, f"draw; {LAY_A.replace('lay', 'lay 10:')}; discard R1")
    assert of_type(events, WentOut) == [WentOut(0)]
    assert of_type(events, GameEnded) == [] and not missing_three.is_over
    assert missing_three.seats[0].completed == {0, 1, 3, 4, 5, 6, 7, 8, 9}


def test_s8_any_order_last_uncompleted_phase_wins() -> None:
    base = arranged(["R7 B7 G7 Y7 R3 B4 G5", "B1 B10"], "R12", "Y6", rules=ARKANSAS)
    all_but_three = with_completed(base, 0, [0, 1, 3, 4, 5, 6, 7, 8, 9])
    assert all_but_three.allowed_phases(0) == (2,)
    events = play(all_but_three, "draw; lay 3: R7 B7 G7 Y7 + R3 B4 G5 Y6")
    assert of_type(events, GameEnded)[0].winners == (0,)


# == going_out = "discard" (floating) ======================================================

FLOATING = Rules(going_out=GoingOut.DISCARD)


def floating_game(draws: str, other: str = "B1 B2 R7 B11 B12") -> Game:
    """p0 lays phase 1 and hits its last two cards: their hand is empty, so they float."""
    game = arranged(["R7 B7 G7 R3 B3 Y3 G3", other], "R12", "Y7 " + draws, rules=FLOATING)
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    play(game, f"hit G3 g{meld_with(game, 'R3 B3 Y3')}")
    return game


def test_s8_floating_hand_emptied_by_hitting_floats() -> None:
    game = floating_game("G1")
    events = game.apply(f"hit Y7 g{meld_with(game, 'R7 B7 G7')}")
    assert of_type(events, Floating) == [Floating(0)]
    assert of_type(events, WentOut) == [] and of_type(events, HandEnded) == []
    assert game.hand(0) == () and game.seats[0].floating
    assert game.current == 1 and game.stage is Stage.DRAW  # the turn passes without a discard
    assert game.view(1).seats[0].floating


def test_s8_floating_hand_emptied_by_laying_down_floats() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B2"], "R12", "Y3", rules=FLOATING)
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    assert of_type(events, Floating) == [Floating(0)] and of_type(events, WentOut) == []
    assert game.current == 1


def test_s8_floating_going_out_by_discarding_as_usual() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3", "B1 B2"], "R12", "R1", rules=FLOATING)
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R1")
    assert of_type(events, WentOut) == [WentOut(0)]
    assert of_type(events, Floating) == []


def test_s8_floating_must_take_and_hit_the_top_discard_if_it_fits() -> None:
    game = floating_game("G1")
    sevens = meld_with(game, "R7 B7 G7")
    play(game, f"hit Y7 g{sevens}; draw; discard R7")  # p1 discards a 7
    assert game.current == 0
    assert_refused(game, "draw", IllegalActionError, "you are floating: you must take R7")
    assert list(game.legal_actions) == [TakeDiscard()]
    game.apply("take")
    assert_refused(game, "discard R7", IllegalActionError, "so you must hit it")
    assert list(game.legal_actions) == [game.parse_action(f"hit R7 g{sevens}")]
    events = game.apply(f"hit R7 g{sevens}")
    assert of_type(events, Floating) == [Floating(0)]  # floating again
    assert game.current == 1


def test_s8_floating_draws_when_the_top_discard_does_not_fit_and_must_hit_it() -> None:
    game = floating_game("B1 Y3")
    play(game, f"hit Y7 g{meld_with(game, 'R7 B7 G7')}; draw; discard B11")
    assert_refused(game, "take", IllegalActionError, "B11 fits nowhere: you must draw")
    assert list(game.legal_actions) == [Draw()]
    assert game.apply("draw") == [Drew(0, C("Y3"))]
    assert_refused(game, "discard Y3", IllegalActionError, "so you must hit it")
    events = game.apply(f"hit Y3 g{meld_with(game, 'R3 B3 Y3 G3')}")
    assert of_type(events, Floating) == [Floating(0)]


def test_s8_floating_goes_out_by_discarding_a_drawn_card_that_fits_nowhere() -> None:
    game = floating_game("B1 R11")
    play(game, f"hit Y7 g{meld_with(game, 'R7 B7 G7')}; draw; discard B11")
    play(game, "draw")
    assert [type(a) for a in game.legal_actions] == [Discard]
    events = game.apply("discard R11")
    assert of_type(events, WentOut) == [WentOut(0)]
    assert of_type(events, HandEnded)[0].went_out == 0


def test_s8_floating_player_has_nothing_left_to_score() -> None:
    # Reading: a floating player whose hand ends while floating holds no cards: 0 points,
    # but did not go out.
    game = floating_game("B9", other="B5 G5 Y5 R9 B9 B1")
    play(game, f"hit Y7 g{meld_with(game, 'R7 B7 G7')}")
    events = play(game, "draw; lay B5 G5 Y5 + R9 B9 B9; discard B1")
    result = of_type(events, HandEnded)[0]
    assert result.went_out == 1 and result.points == (0, 0)


def test_s8_floating_off_by_default() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B2"], "R12", "Y3")
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    assert of_type(events, WentOut) == [WentOut(0)] and of_type(events, Floating) == []


# == wild_deal_up = "dealer_chooses" =======================================================

WILD_UP = Rules(wild_deal_up=WildDealUp.DEALER_CHOOSES)


def test_s8_wild_deal_up_dealer_gives_it() -> None:
    game = arranged(["R1 R2 R3", "B1 B2 B3", "G1 G2 G3"], "W", "Y5", rules=WILD_UP, dealer=1)
    assert game.stage is Stage.GIVE_WILD and game.current == 1  # the dealer chooses
    assert list(game.legal_actions) == [GiveWild(0), GiveWild(1), GiveWild(2)]
    events = game.apply("give p0")
    assert events == [WildGiven(1, 0)]
    assert game.hand(0) == (C("R1"), C("R2"), C("R3"), WILD)
    assert game.discard_pile == []
    assert game.stage is Stage.WILD_DISCARD and game.current == 0


def test_s8_wild_deal_up_recipient_discards_then_play_starts() -> None:
    game = arranged(["R1 R2 R3", "B1 B2 B3", "G1 G2 G3"], "W", "Y5", rules=WILD_UP, dealer=0)
    play(game, "give p0")
    assert_refused(game, "draw", IllegalActionError, "discard a card for the Wild")
    assert_refused(game, "discard B1", IllegalActionError, "you have no B1")
    events = game.apply("discard R2")
    assert events == [Discarded(0, C("R2"))]
    assert game.hand(0) == (C("R1"), C("R3"), WILD)
    assert game.stage is Stage.DRAW and game.current == 1  # left of the dealer
    assert game.discard_pile == [C("R2")]
    assert game.apply("take") == [TookDiscard(1, C("R2"))]


def test_s8_wild_deal_up_only_giving_allowed_first() -> None:
    game = arranged(["R1 R2 R3", "B1 B2 B3"], "W", "Y5", rules=WILD_UP)
    assert_refused(game, "take", IllegalActionError, "must first give the turned-up Wild")
    assert_refused(game, "give p2", InvalidActionError, "there is no player 2")


def test_s8_wild_deal_up_give_only_when_a_wild_is_turned_up() -> None:
    game = arranged(["R1 R2 R3", "B1 B2 B3"], "R12", "Y5", rules=WILD_UP)
    assert game.stage is Stage.DRAW
    assert_refused(game, "give p1", IllegalActionError, "no turned-up Wild to give")


def test_s8_wild_deal_up_then_declarations() -> None:
    rules = MASTERS.with_options(wild_deal_up=WildDealUp.DEALER_CHOOSES)
    game = arranged(["R1 R2 R3", "B1 B2 B3"], "W", "Y5", rules=rules, dealer=1)
    play(game, "give p1; discard B1")
    assert game.stage is Stage.DECLARE and game.current == 0


# == skip_target = "next" ==================================================================

SKIP_NEXT = Rules(skip_target=SkipTarget.NEXT)


def test_s8_skip_next_skips_the_next_player() -> None:
    game = arranged(["R1 R2 S", "B1 B2", "G1 G2"], "R12", "Y5", rules=SKIP_NEXT)
    game.apply("draw")
    assert Discard(SKIP) in list(game.legal_actions)
    events = game.apply("discard S")
    assert events == [Discarded(0, SKIP, 1), Skipped(1)]
    assert game.current == 2


def test_s8_skip_next_cannot_name_another_player() -> None:
    game = arranged(["R1 R2 S", "B1 B2", "G1 G2"], "R12", "Y5", rules=SKIP_NEXT)
    game.apply("draw")
    assert_refused(game, "discard S>p2", IllegalActionError, "skips the next player (player 1)")
    assert game.check(Discard(SKIP, 1)) == Discard(SKIP)  # naming the next player is fine


def test_s8_skip_next_two_players_discarder_plays_again() -> None:
    game = arranged(["R1 R2 S", "B1 B2"], "R12", "Y5 Y6", rules=SKIP_NEXT)
    events = play(game, "draw; discard S")
    assert events[-1] == Skipped(1) and game.current == 0 and game.stage is Stage.DRAW


# == natural_min = "phase" =================================================================

NATURAL_PHASE = Rules(natural_min=NaturalMin.PHASE)


def test_s8_natural_min_phase_allows_an_all_wild_group() -> None:
    hands = ["R7 B7 G7 W W W W W W R1", "B1 B2"]
    strict = arranged(hands, "R12", "Y9")
    strict.apply("draw")
    assert_refused(strict, "lay R7 B7 G7 + W=5 W=5 W=5", IllegalActionError, "every group needs")
    loose = arranged(hands, "R12", "Y9", rules=NATURAL_PHASE)
    loose.apply("draw")
    events = loose.apply("lay R7 B7 G7 + W=5 W=5 W=5")
    wilds = next(g for g in of_type(events, LaidDown)[0].groups if g.natural_count == 0)
    assert wilds.number == 5 and str(wilds) == "W=5 W=5 W=5"


def test_s8_natural_min_phase_still_needs_one_numbered_card() -> None:
    game = arranged(["W W W W W W R1", "B1 B2"], "R12", "Y9", rules=NATURAL_PHASE)
    game.apply("draw")
    assert_refused(game, "lay W=7 W=7 W=7 + W=5 W=5 W=5", IllegalActionError, "at least one")


def test_s8_natural_min_phase_all_wild_group_must_declare_its_value() -> None:
    game = arranged(["R7 B7 G7 W W W R1", "B1 B2"], "R12", "Y9", rules=NATURAL_PHASE)
    game.apply("draw")
    assert_refused(game, "lay R7 B7 G7 + W W W", InvalidActionError, "must declare its number")


def test_s8_natural_min_phase_all_wild_run() -> None:
    game = arranged(
        ["R7 B7 G7 W W W W R1", "B1 B2"], "R12", "Y9", phases=(2, 1), rules=NATURAL_PHASE
    )
    game.apply("draw")
    events = game.apply("lay R7 B7 G7 + W=3 W=4 W=5 W=6")
    run = next(g for g in of_type(events, LaidDown)[0].groups if g.low is not None)
    assert (run.low, run.high) == (3, 6)
    assert game.melds[meld_with(game, "W W W W")].group.placements(C("G7")) == (7,)


# == end_when = "immediately" ==============================================================

IMMEDIATELY = Rules(end_when=EndWhen.IMMEDIATELY)


def test_s8_end_immediately_lone_player_on_last_phase_lays_it_down() -> None:
    game = arranged([TEN_A + " R1 R2", "B1 B10"], "R12", "G12", phases=(10, 9), rules=IMMEDIATELY)
    events = play(game, f"draw; {LAY_A}")
    result = of_type(events, HandEnded)[0]
    assert result.went_out is None and result.reason == "laid down the last phase"
    assert result.points == (20, 15)  # the winner still holds R1 R2 G12
    assert of_type(events, GameEnded) == [
        GameEnded((0,), "the only player on the last phase laid it down", (20, 15))
    ]
    assert game.is_over
    assert_refused(game, "discard R1", IllegalActionError, "the game is over")


def test_s8_end_immediately_not_when_two_players_are_on_the_last_phase() -> None:
    game = arranged([TEN_A + " R1 R2", "B1 B10"], "R12", "G12", phases=(10, 10), rules=IMMEDIATELY)
    events = play(game, f"draw; {LAY_A}")
    assert of_type(events, GameEnded) == [] and game.stage is Stage.PLAY


def test_s8_end_immediately_off_by_default() -> None:
    game = arranged([TEN_A + " R1 R2", "B1 B10"], "R12", "G12", phases=(10, 9))
    events = play(game, f"draw; {LAY_A}")
    assert of_type(events, GameEnded) == [] and game.stage is Stage.PLAY


# == empty_draw_pile = "end_hand" ==========================================================

END_HAND = Rules(empty_draw_pile=EmptyDrawPile.END_HAND)


def test_s8_empty_draw_pile_end_hand() -> None:
    rest = rest_of_deck("R7 B7 G7 R3 B3 Y3 R1 B1 B10 Y5 R12")
    hands = ["R7 B7 G7 R3 B3 Y3 R1", "B1 B10"]
    game = arranged(hands, text_of(rest) + " R12", "Y5", rules=END_HAND)
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R1")
    result = of_type(events, HandEnded)[0]
    assert result.went_out is None and result.reason == "the draw pile ran out"
    assert result.points == (5, 15)  # nobody scores zero
    assert result.advanced == (0,)  # the phase laid still counts
    assert game.hand_number == 2


def test_s8_empty_draw_pile_reshuffles_by_default() -> None:
    rest = rest_of_deck("R7 B7 G7 R3 B3 Y3 R1 B1 B10 Y5 R12")
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "B1 B10"], text_of(rest) + " R12", "Y5")
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R1; draw")
    assert of_type(events, HandEnded) == [] and game.hand_number == 1
    assert isinstance(events[-2], Reshuffled)


# == presets ===============================================================================


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_s8_preset_rules_round_trip(name: str) -> None:
    rules = PRESETS[name]
    assert preset(name) is rules
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert PRESET_NOTES.get(name)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_s8_preset_plays(name: str) -> None:
    game = Game(3, rules=PRESETS[name], seed=sum(map(ord, name)))
    events = play_until(game, lambda g: len(g.actions) >= 40, greedy_action)
    assert any(isinstance(event, (Drew, TookDiscard)) for event in events)
    assert Counter(game.all_cards()) == Counter(full_deck(PRESETS[name].deck_counts))
    replayed = loads(dumps(game)).replay()
    assert replayed.rules == PRESETS[name]
    assert snapshot(replayed) == snapshot(game)


def test_s8_every_option_value_is_in_some_preset() -> None:
    options = {
        "advance": Advance,
        "phase_order": PhaseOrder,
        "declare": DeclareWhen,
        "going_out": GoingOut,
        "wild_deal_up": WildDealUp,
        "skip_target": SkipTarget,
        "natural_min": NaturalMin,
        "end_when": EndWhen,
        "empty_draw_pile": EmptyDrawPile,
        "deck": Deck,
    }
    for option, enum in options.items():
        used = {getattr(rules, option) for rules in PRESETS.values()}
        assert used == set(enum), option
    assert {rules.phase_list for rules in PRESETS.values()} == set(PHASE_LISTS.values())
    assert any(rules.phases for rules in PRESETS.values())


def test_s8_official_preset_is_the_default() -> None:
    assert PRESETS["official"] == Rules()
    assert Rules().to_dict() == {
        "phase_list": [str(p) for p in STANDARD_PHASES],
        "phases": [],
        "advance": "completed",
        "phase_order": "sequence",
        "declare": "laydown",
        "going_out": "any",
        "wild_deal_up": "first_player",
        "skip_target": "choose",
        "natural_min": "group",
        "end_when": "hand_end",
        "empty_draw_pile": "reshuffle",
        "deck": "standard",
        "save_pile": "off",
        "saved_score": "none",
        "give_up": "off",
        "anti_phase": "off",
    }


def test_s8_unknown_preset_or_option_refused() -> None:
    with pytest.raises(RulesError, match="no rules preset named 'house'"):
        preset("house")
    with pytest.raises(RulesError, match="unknown rules option 'colour'"):
        Rules.from_dict({"colour": "red"})
    with pytest.raises(RulesError, match="skip_target must be one of"):
        Rules.from_dict({"skip_target": "left"})


def test_s8_options_are_saved_with_the_game() -> None:
    rules = Rules(skip_target=SkipTarget.NEXT, going_out=GoingOut.DISCARD, phases=(1, 2))
    game = Game(2, rules=rules, seed=5)
    game.apply(greedy_action(game))
    assert json.loads(dumps(game))["rules"] == rules.to_dict()
    assert loads(dumps(game)).rules == rules

"""docs/rules.md §5: end of a hand, scoring, end of the game and the tie-break hand."""

from __future__ import annotations

import pytest

from helpers import (
    arranged,
    assert_refused,
    edited,
    greedy_action,
    of_type,
    passive_action,
    play,
    play_until,
    text_of,
)
from phase10 import (
    Dealt,
    EmptyDrawPile,
    Event,
    Game,
    GameEnded,
    HandEnded,
    HandStarted,
    IllegalActionError,
    Rules,
    Stage,
    TieBreakStarted,
    WentOut,
    hand_points,
    parse_cards,
)

# Phase 10 is "1 set of 5 + 1 set of 3".
TEN_A = "R5 R5 B5 B5 G5 R9 B9 G9"
TEN_B = "G6 Y6 Y6 R6 R6 R10 B10 G10"
TEN_C = "B8 B8 G8 G8 Y8 R2 B2 G2"
LAY_A = "lay R5 R5 B5 B5 G5 + R9 B9 G9"
LAY_B = "lay G6 Y6 Y6 R6 R6 + R10 B10 G10"
LAY_C = "lay B8 B8 G8 G8 Y8 + R2 B2 G2"


def last_result(game_events: list[Event]) -> HandEnded:
    results = [event for event in game_events if isinstance(event, HandEnded)]
    assert results, "no hand ended"
    return results[-1]


# -- scoring a hand ----------------------------------------------------------------------


def test_s5_went_out_scores_zero_others_score_cards_in_hand() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B10 W S", "G12 G11 Y9"], "R12", "Y3")
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    result = last_result(events)
    assert result.went_out == 0
    assert result.points == (0, 5 + 10 + 25 + 15, 10 + 10 + 5)
    assert result.totals == (0, 55, 25)
    assert [seat.score for seat in game.seats] == [0, 55, 25]
    assert result.reason == "went out"


@pytest.mark.parametrize(
    ("hand", "points"),
    [("R1", 5), ("Y9", 5), ("B10", 10), ("G12", 10), ("S", 15), ("W", 25), ("R1 W W S", 70)],
)
def test_s5_card_points_left_in_hand(hand: str, points: int) -> None:
    game = arranged(["R7 B7 G7 R3 B3", hand], "R12", "Y3")
    result = last_result(play(game, "draw; lay R7 B7 G7 + R3 B3 Y3"))
    assert result.points[1] == points == hand_points(parse_cards(hand))


def test_s5_only_cards_in_hand_count() -> None:
    # p0 laid eight cards down and keeps one: only that one counts.
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1 R4", "B5 G5 Y5 R9 B9"], "R12", "R11 G9")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R11")
    result = last_result(play(game, "draw; lay B5 G5 Y5 + R9 B9 G9"))
    assert result.went_out == 1
    assert result.points == (10, 0)  # R1 and R4, not the six laid cards


def test_s5_scores_add_up_over_the_game() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B10"], "R12", "Y3", scores=(40, 15))
    result = last_result(play(game, "draw; lay R7 B7 G7 + R3 B3 Y3"))
    assert result.totals == (40, 30)
    play_until(game, lambda g: g.hand_number >= 4)
    for seat in range(2):
        start = (40, 15)[seat]
        added = sum(r.points[seat] or 0 for r in game.hand_results)
        assert game.seats[seat].score == start + added
    assert game.hand_results[-1].totals == tuple(s.score for s in game.seats)


def test_s5_lower_total_is_better_for_the_finishers() -> None:
    game = arranged([TEN_A + " R1", TEN_B], "R12", "R11 Y12", phases=(10, 10), scores=(0, 100))
    play(game, f"draw; {LAY_A}; discard R11")
    events = play(game, f"draw; {LAY_B}; discard Y12")
    assert of_type(events, GameEnded)[0].winners == (0,)  # 5 beats 100


# -- advancing ---------------------------------------------------------------------------


def test_s5_players_who_laid_advance_others_stay() -> None:
    game = arranged(
        ["R7 B7 G7 R3 B3 Y3 R1 R4", "B5 G5 Y5 R9 B9", "G1 G2 G4"], "R12", "R11 G9", phases=None
    )
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R11")
    result = last_result(play(game, "draw; lay B5 G5 Y5 + R9 B9 G9"))
    assert result.advanced == (0, 1)
    assert result.phases_completed == (1, 1, 0)
    assert [seat.phase for seat in game.seats] == [1, 1, 0]
    assert [sorted(seat.completed) for seat in game.seats] == [[0], [0], []]


def test_s5_player_who_did_not_lay_stays_on_their_phase() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B10"], "R12", "Y3", phases=(1, 6))
    result = last_result(play(game, "draw; lay R7 B7 G7 + R3 B3 Y3"))
    assert result.advanced == (0,)
    assert [seat.phase for seat in game.seats] == [1, 5]
    assert game.current_phase(1) is not None
    assert str(game.current_phase(1)) == "1 run of 9"


def test_s5_next_hand_is_dealt_fresh() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B10"], "R12", "Y3", scores=(3, 4))
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    assert game.hand_number == 2 and not game.is_over
    assert game.melds == []
    assert all(len(game.hand(s)) == 10 for s in range(2))
    assert all(seat.laid is None and not seat.pending_skip for seat in game.seats)
    assert [seat.score for seat in game.seats] == [3, 4 + 15]


# -- end of the game ---------------------------------------------------------------------


def test_s5_game_goes_on_until_someone_completes_the_last_phase() -> None:
    game = arranged(["R3 B4 G5 Y6 R7 B8 G9 Y10", "B1 B10"], "R12", "G11", phases=(6, 6))
    events = play(game, "draw; lay R3 B4 G5 Y6 R7 B8 G9 Y10 G11")
    assert of_type(events, GameEnded) == []
    assert not game.is_over and game.hand_number == 2


def test_s5_single_finisher_wins() -> None:
    game = arranged([TEN_A, "B1 B10"], "R12", "R1", phases=(10, 10), scores=(300, 0))
    events = play(game, f"draw; {LAY_A}; discard R1")
    ended = of_type(events, GameEnded)
    assert ended == [GameEnded((0,), "completed the last phase", (300, 15))]
    assert game.winners == (0,) and game.is_over and game.stage is Stage.GAME_OVER
    assert game.seats[0].phase == 10  # past the last phase


def test_s5_finisher_need_not_be_the_one_who_went_out() -> None:
    game = arranged(
        [TEN_A + " R1 R2", "R7 B7 G7 R3 B3"], "R12", "G12 Y3", phases=(10, 1), scores=(0, 0)
    )
    play(game, f"draw; {LAY_A}; discard G12")
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    assert of_type(events, WentOut) == [WentOut(1)]
    assert of_type(events, GameEnded)[0].winners == (0,)


def test_s5_lowest_total_wins_among_finishers() -> None:
    # p0 and p1 both complete phase 10; p2, lowest of all, did not and cannot win.
    game = arranged(
        [TEN_A + " R1", TEN_B, "G1 G3"],
        "R12",
        "R11 Y12 Y1",
        phases=(10, 10, 4),
        scores=(60, 50, 0),
    )
    play(game, f"draw; {LAY_A}; discard R11")  # p0 keeps R1: 60 + 5 = 65
    events = play(game, f"draw; {LAY_B}; discard Y12")  # p1 goes out: 50
    ended = of_type(events, GameEnded)
    assert ended == [
        GameEnded((1,), "completed the last phase with the lowest total", (65, 50, 10))
    ]
    assert of_type(events, TieBreakStarted) == []


def tied_game() -> tuple[Game, list[Event]]:
    """p0 and p1 complete phase 10 with 50 each; p2 does not."""
    game = arranged(
        [TEN_A + " R1", TEN_B, "G1 G3"],
        "R12",
        "R11 Y12 Y1",
        phases=(10, 10, 4),
        scores=(45, 50, 0),
    )
    play(game, f"draw; {LAY_A}; discard R11")
    events = play(game, f"draw; {LAY_B}; discard Y12")
    return game, events


def test_s5_tie_break_hand_only_tied_players() -> None:
    game, events = tied_game()
    assert of_type(events, TieBreakStarted) == [TieBreakStarted((0, 1))]
    assert of_type(events, GameEnded) == []
    start = of_type(events, HandStarted)[-1]
    assert start.tie_break and start.players == (0, 1) and start.hand == 2
    assert game.tie_break and game.players_in_hand == (0, 1)
    dealt = of_type(events[events.index(start) :], Dealt)
    assert [event.player for event in dealt] == [0, 1]
    assert game.hand(2) == ()
    assert len(game.hand(0)) == len(game.hand(1)) == 10
    assert game.dealer in (0, 1) and game.current in (0, 1)


def test_s5_tie_break_is_played_on_the_last_phase() -> None:
    game, _ = tied_game()
    for seat in (0, 1):
        assert game.allowed_phases(seat) == (9,)
        assert str(game.current_phase(seat)) == "1 set of 5 + 1 set of 3"


def test_s5_tie_break_turns_pass_only_between_tied_players() -> None:
    game, _ = tied_game()
    seen = set()
    for _ in range(12):
        seen.add(game.current)
        game.apply(passive_action(game))
    assert seen == {0, 1}


def test_s5_tie_break_first_to_go_out_wins() -> None:
    game, _ = tied_game()
    totals = tuple(seat.score for seat in game.seats)
    events = play_until(game, lambda g: False, greedy_action)
    ended = of_type(events, GameEnded)[0]
    last = of_type(events, HandEnded)[-1]
    assert last.went_out in (0, 1)
    assert ended.winners == (last.went_out,)
    assert ended.reason == "went out first in the tie-break hand"
    # The tie-break hand only decides the winner: no points are added (the engine's reading).
    assert ended.totals == totals == (50, 50, 10)
    assert last.advanced == ()


def test_s5_tie_break_repeats_if_nobody_goes_out() -> None:
    game, _ = tied_game()
    first = game.current
    other = 1 - first

    def exhaust(state: dict[str, object]) -> None:
        # Leave one card to take and nothing to draw; give the first player a Skip.
        seats = state["seats"]
        assert isinstance(seats, list)
        pool = list(parse_cards(str(state["draw_pile"]) + " " + str(state["discard_pile"])))
        mine = list(parse_cards(seats[first]["hand"]))
        theirs = list(parse_cards(seats[other]["hand"]))
        skip = parse_cards("S")[0]
        for cards in (mine, pool, theirs):
            if skip in cards:
                cards.remove(skip)
                break
        take = next(card for card in pool if not card.is_skip)
        pool.remove(take)
        seats[first]["hand"] = text_of([*mine, skip])
        seats[other]["hand"] = text_of(theirs + pool)
        state["draw_pile"] = ""
        state["discard_pile"] = str(take)

    crafted = edited(game, exhaust)
    assert len(crafted.all_cards()) == 108
    events = play(crafted, f"take; discard S>p{other}")
    result = of_type(events, HandEnded)[0]
    assert result.went_out is None
    assert of_type(events, GameEnded) == [] and not crafted.is_over
    again = of_type(events, HandStarted)[-1]
    assert again.tie_break and again.players == (0, 1) and again.hand == 3
    assert crafted.tie_break
    assert [seat.score for seat in crafted.seats] == [50, 50, 10]


def test_s5_tie_break_repeats_when_the_draw_pile_runs_out() -> None:
    rules = Rules(empty_draw_pile=EmptyDrawPile.END_HAND)
    game = arranged(
        [TEN_A + " R1", TEN_B, "G1 G3"],
        "R12",
        "R11 Y12 Y1",
        phases=(10, 10, 4),
        scores=(45, 50, 0),
        rules=rules,
    )
    play(game, f"draw; {LAY_A}; discard R11; draw; {LAY_B}; discard Y12")
    assert game.tie_break and game.hand_number == 2
    events = play_until(game, lambda g: g.hand_number == 4, passive_action)
    results = of_type(events, HandEnded)
    assert [r.went_out for r in results] == [None, None]
    starts = of_type(events, HandStarted)
    assert [(s.hand, s.tie_break, s.players) for s in starts] == [
        (3, True, (0, 1)),
        (4, True, (0, 1)),
    ]
    events = play_until(game, lambda g: False, greedy_action)
    assert of_type(events, GameEnded)[0].winners[0] in (0, 1)


def test_s5_lowest_total_wins_among_three_finishers() -> None:
    game = arranged(
        [TEN_A + " R1", TEN_B + " R3 R4", TEN_C],
        "R12",
        "R11 Y12 Y1",
        phases=(10, 10, 10),
        scores=(45, 0, 50),
    )
    play(game, f"draw; {LAY_A}; discard R11")  # p0: 45 + 5
    play(game, f"draw; {LAY_B}; discard Y12")  # p1: 0 + 10
    events = play(game, f"draw; {LAY_C}; discard Y1")  # p2 goes out: 50 + 0
    result = of_type(events, HandEnded)[0]
    assert result.totals == (50, 10, 50)
    assert of_type(events, GameEnded) == [
        GameEnded((1,), "completed the last phase with the lowest total", (50, 10, 50))
    ]


def test_s5_three_finishers_two_tied_lowest_play_the_tie_break() -> None:
    game = arranged(
        [TEN_A + " R1", TEN_B + " R3 R4", TEN_C],
        "R12",
        "R11 Y12 Y1",
        phases=(10, 10, 10),
        scores=(45, 60, 50),
    )
    events = play(
        game,
        f"draw; {LAY_A}; discard R11; draw; {LAY_B}; discard Y12; draw; {LAY_C}; discard Y1",
    )
    assert of_type(events, HandEnded)[0].totals == (50, 70, 50)
    assert of_type(events, TieBreakStarted) == [TieBreakStarted((0, 2))]
    assert game.players_in_hand == (0, 2)
    assert game.hand(1) == ()


def test_s5_game_over_refuses_every_action() -> None:
    game = arranged([TEN_A, "B1 B10"], "R12", "R1", phases=(10, 10))
    play(game, f"draw; {LAY_A}; discard R1")
    assert game.is_over
    for text in ("draw", "take", "discard R1", "hit R5 g0"):
        assert_refused(game, text, IllegalActionError, "the game is over")
    assert list(game.legal_actions) == []
    assert not game.view(0).legal_actions

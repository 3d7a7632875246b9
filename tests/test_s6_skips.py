"""docs/rules.md §6: Skip cards (discarding one, whom it skips, pending skips, going out on one)."""

from __future__ import annotations

import pytest

from helpers import arranged, assert_refused, of_type, play
from phase10 import (
    SKIP,
    Card,
    Discard,
    Discarded,
    Drew,
    HandEnded,
    IllegalActionError,
    InvalidActionError,
    Skipped,
    Stage,
    WentOut,
    parse_cards,
)

C = Card.parse
FOUR = ["R1 R2 S S", "B1 B2 S", "G1 G2", "Y1 Y2"]


def test_s6_discarding_a_skip_is_the_turns_discard() -> None:
    game = arranged(["R1 R2 S", "B1 B2", "G1 G2"], "R12", "Y5 Y6")
    events = play(game, "draw; discard S>p2")
    assert events[1] == Discarded(0, SKIP, 2)
    assert game.discard_pile[-1] == SKIP
    assert game.current == 1 and game.stage is Stage.DRAW  # the turn is over
    assert game.seats[2].pending_skip


def test_s6_skipped_player_loses_their_next_turn() -> None:
    game = arranged(["R1 R2 S", "B1 B2", "G1 G2"], "R12", "Y5 Y6")
    play(game, "draw; discard S>p2")
    events = play(game, "draw; discard B1")
    assert events[-1] == Skipped(2)
    assert game.current == 0
    assert not game.seats[2].pending_skip  # cleared once used


def test_s6_skipped_turn_is_passed_entirely() -> None:
    game = arranged(["R1 R2 S", "B1 B2", "G1 G2"], "R12", "Y5 Y6 Y7")
    play(game, "draw; discard S>p2; draw; discard B1")
    assert game.hand(2) == parse_cards("G1 G2")  # no draw, no play
    assert [e for e in game.history if isinstance(e, Drew)] == [Drew(0, C("Y5")), Drew(1, C("Y6"))]
    assert game.draw_pile[-1] == C("Y7")


def test_s6_skip_to_the_next_player_skips_them_at_once() -> None:
    game = arranged(["R1 R2 S", "B1 B2", "G1 G2"], "R12", "Y5 Y6")
    events = play(game, "draw; discard S>p1")
    assert events[-2:] == [Discarded(0, SKIP, 1), Skipped(1)]
    assert game.current == 2 and not game.seats[1].pending_skip


def test_s6_choose_any_other_player() -> None:
    game = arranged(FOUR, "R12", "Y5 Y6 Y7")
    game.apply("draw")
    skip_discards = [a for a in game.legal_actions if isinstance(a, Discard) and a.card.is_skip]
    assert skip_discards == [Discard(SKIP, 1), Discard(SKIP, 2), Discard(SKIP, 3)]


def test_s6_skip_must_name_its_target() -> None:
    game = arranged(FOUR, "R12", "Y5 Y6 Y7")
    game.apply("draw")
    assert_refused(game, "discard S", IllegalActionError, "name the player to skip")


def test_s6_cannot_skip_yourself() -> None:
    game = arranged(FOUR, "R12", "Y5 Y6 Y7")
    game.apply("draw")
    assert_refused(game, "discard S>p0", IllegalActionError, "you cannot skip yourself")


def test_s6_skip_target_must_be_in_the_game() -> None:
    game = arranged(FOUR, "R12", "Y5 Y6 Y7")
    game.apply("draw")
    assert_refused(game, "discard S>p4", InvalidActionError, "there is no player 4")


def test_s6_skip_cannot_target_player_with_pending_skip() -> None:
    game = arranged(FOUR, "R12", "Y5 Y6 Y7")
    play(game, "draw; discard S>p3; draw")
    assert game.current == 1 and game.seats[3].pending_skip
    assert_refused(game, "discard S>p3", IllegalActionError, "already has a Skip waiting")
    targets = [a.target for a in game.legal_actions if isinstance(a, Discard) and a.card.is_skip]
    assert targets == [0, 2]
    assert game.skip_targets(1) == (0, 2)


def test_s6_pending_skips_are_used_in_turn_order() -> None:
    game = arranged(FOUR, "R12", "Y5 Y6 Y7 Y8")
    play(game, "draw; discard S>p3; draw; discard S>p0; draw; discard G1")
    # p3 then p0 lose their turns, each once.
    skipped = [e.player for e in game.history if isinstance(e, Skipped)]
    assert skipped == [3, 0]
    assert game.current == 1


def test_s6_two_skips_in_a_row_pass_two_turns() -> None:
    game = arranged(FOUR, "R12", "Y5 Y6 Y7")
    play(game, "draw; discard S>p2")
    events = play(game, "draw; discard S>p3")
    assert events[-2:] == [Skipped(2), Skipped(3)]
    assert game.current == 0


def test_s6_two_player_skip_discarder_plays_again() -> None:
    game = arranged(["R1 R2 S", "B1 B2"], "R12", "Y5 Y6")
    events = play(game, "draw; discard S>p1")
    assert events[-2:] == [Discarded(0, SKIP, 1), Skipped(1)]
    assert game.current == 0 and game.stage is Stage.DRAW
    assert game.apply("draw") == [Drew(0, C("Y6"))]  # a new card
    assert game.hand(1) == parse_cards("B1 B2")


def test_s6_skip_can_never_be_taken_from_the_discard_pile() -> None:
    game = arranged(["R1 R2 S", "B1 B2", "G1 G2"], "R12", "Y5 Y6")
    play(game, "draw; discard S>p2")
    assert_refused(game, "take", IllegalActionError, "a Skip can never be taken")


def test_s6_skip_cannot_be_used_in_a_phase() -> None:
    game = arranged(["R7 B7 S R3 B3 Y3", "B1 B2"], "R12", "Y9")
    game.apply("draw")
    assert_refused(game, "lay R7 B7 S + R3 B3 Y3", InvalidActionError, "a Skip can never be")


def test_s6_skip_cannot_be_hit_onto_a_group() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 S R1", "B1 B2"], "R12", "Y9")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    assert_refused(game, "hit S g0", IllegalActionError, "does not fit")


def test_s6_skip_cannot_be_used_in_a_colour_group() -> None:
    game = arranged(["R1 R3 R5 R6 R8 R10 S R2", "B1 B2"], "Y12", "Y11", phases=(8, 1))
    game.apply("draw")
    assert_refused(game, "lay R1 R3 R5 R6 R8 R10 S", InvalidActionError, "a Skip can never be")


def test_s6_a_wild_cannot_be_used_as_a_skip() -> None:
    game = arranged(["R1 W", "B1 B2"], "R12", "Y5")
    game.apply("draw")
    assert_refused(
        game,
        "discard W>p1",
        InvalidActionError,
        "only a Skip or the Anti-phase card names a player",
    )
    with pytest.raises(
        InvalidActionError, match="only a Skip or the Anti-phase card names a player"
    ):
        Discard(C("W"), 1)
    events = game.apply("discard W")
    assert events == [Discarded(0, C("W"))]
    assert not game.seats[1].pending_skip and game.current == 1


def test_s6_skip_may_be_last_card_going_out() -> None:
    game = arranged(["R7 B7 G7 R3 B3 S", "B1 B2", "G1 G2"], "R12", "Y3")
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard S>p2")
    assert of_type(events, Discarded) == [Discarded(0, SKIP, 2)]
    assert of_type(events, WentOut) == [WentOut(0)]
    result = of_type(events, HandEnded)[0]
    assert result.went_out == 0 and result.points == (0, 10, 10)
    assert of_type(events, Skipped) == []
    # The pending skip ends with the hand.
    assert game.hand_number == 2 and not game.seats[2].pending_skip


def test_s6_pending_skip_is_public() -> None:
    game = arranged(FOUR, "R12", "Y5 Y6 Y7")
    play(game, "draw; discard S>p3")
    for viewer in (None, 0, 1, 2, 3):
        view = game.view(viewer)
        assert [seat.pending_skip for seat in view.seats] == [False, False, False, True]

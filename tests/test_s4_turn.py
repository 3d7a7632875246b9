"""docs/rules.md §4: a turn (draw, lay down, hit, discard), going out, and out-of-order errors."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import (
    arranged,
    assert_refused,
    meld_with,
    of_type,
    play,
    rest_of_deck,
    text_of,
)
from phase10 import (
    WILD,
    Card,
    CardHit,
    Discard,
    Discarded,
    Draw,
    Drew,
    HandEnded,
    HandStarted,
    Hit,
    IllegalActionError,
    InvalidActionError,
    LaidDown,
    LayDown,
    Reshuffled,
    Skipped,
    Stage,
    TakeDiscard,
    TookDiscard,
    WentOut,
    full_deck,
    hand_points,
    parse_cards,
)

C = Card.parse

# -- 1. draw -----------------------------------------------------------------------------


def test_s4_draw_takes_top_of_draw_pile() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5 G6")
    events = game.apply("draw")
    assert events == [Drew(0, C("Y5"))]
    assert game.hand(0) == parse_cards("R1 R2 Y5")
    assert game.draw_pile[-1] == C("G6")
    assert game.stage is Stage.PLAY and game.current == 0


def test_s4_take_top_of_discard_pile() -> None:
    game = arranged(["R1 R2", "B1 B2"], "G4 R12", "Y5")
    events = game.apply("take")
    assert events == [TookDiscard(0, C("R12"))]
    assert game.hand(0) == parse_cards("R1 R2 R12")
    assert game.discard_pile == [C("G4")]
    assert game.stage is Stage.PLAY


def test_s4_draw_from_discard_never_a_skip() -> None:
    game = arranged(["R1 R2 S", "B1 B2", "G1 G2"], "R12", "Y5 Y6")
    play(game, "draw; discard S>p2")
    assert game.current == 1 and game.discard_pile[-1].is_skip
    assert_refused(game, "take", IllegalActionError, "a Skip can never be taken")
    assert list(game.legal_actions) == [Draw()]


def test_s4_draw_offers_both_piles() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5")
    assert list(game.legal_actions) == [Draw(), TakeDiscard()]


def test_s4_reshuffle_when_draw_pile_empty() -> None:
    rest = rest_of_deck("R1 R2 B1 B2 Y5 R12")
    game = arranged(["R1 R2", "B1 B2"], text_of(rest) + " R12", "Y5")
    assert len(game.draw_pile) == 1
    play(game, "draw; discard R1")  # the draw pile is now empty
    assert game.draw_pile == [] and game.stage is Stage.DRAW
    old_discards = Counter(game.discard_pile[:-1])
    events = game.apply("draw")
    assert events[0] == Reshuffled(len(rest) + 1)  # all of the discard pile but its top
    assert isinstance(events[1], Drew) and events[1].player == 1
    assert game.discard_pile == [C("R1")]  # the top card stays
    assert Counter([*game.draw_pile, events[1].card]) == old_discards
    assert Counter(game.all_cards()) == Counter(full_deck())


def test_s4_reshuffle_uses_the_games_random_source() -> None:
    def after_reshuffle(seed: int) -> list[Card]:
        rest = rest_of_deck("R1 R2 B1 B2 Y5 R12")
        game = arranged(["R1 R2", "B1 B2"], text_of(rest) + " R12", "Y5", seed=seed)
        play(game, "draw; discard R1; draw")
        return list(game.draw_pile)

    assert after_reshuffle(3) == after_reshuffle(3)
    assert after_reshuffle(3) != after_reshuffle(4)
    assert after_reshuffle(3) != sorted(after_reshuffle(3), key=lambda c: c.sort_key)


def test_s4_empty_draw_pile_that_cannot_be_refilled_leaves_only_the_top_discard() -> None:
    rest = rest_of_deck("R12")
    game = arranged([text_of(rest[:53]), text_of(rest[53:])], "R12")
    assert game.draw_pile == [] and game.stage is Stage.DRAW
    assert_refused(game, "draw", IllegalActionError, "cannot be refilled: take the top discard")
    assert list(game.legal_actions) == [TakeDiscard()]
    assert game.apply("take") == [TookDiscard(0, C("R12"))]


def test_s4_exhausted_draw_pile_with_skip_on_top_ends_hand_nobody_out() -> None:
    rest = rest_of_deck("R12 R1 R1 B1 R2 R2 B2 S")
    hands = [
        "R1 R1 B1 R2 R2 B2 S " + text_of(rest[:30]),
        text_of(rest[30:65]),
        text_of(rest[65:]),
    ]
    game = arranged(hands, "R12")
    events = play(game, "take; lay R1 R1 B1 + R2 R2 B2; discard S>p2")
    # p1 cannot draw (nothing to reshuffle) nor take (a Skip): the hand ends at once.
    ended = of_type(events, HandEnded)
    assert len(ended) == 1
    result = ended[0]
    assert result.went_out is None
    assert "exhausted" in result.reason
    assert of_type(events, WentOut) == []
    assert all(points and points > 0 for points in result.points)  # nobody scores zero
    assert result.points[0] == hand_points(parse_cards(text_of(rest[:30]) + " R12"))
    assert result.points[1] == hand_points(rest[30:65])
    assert result.advanced == (0,)  # the phase laid still counts
    assert game.seats[0].phase == 1 and game.seats[1].phase == 0
    assert result.totals == tuple(p or 0 for p in result.points)
    assert game.hand_number == 2


# -- 2. lay down -------------------------------------------------------------------------


def test_s4_lay_down_current_phase() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "B1 B2"], "R12", "Y9")
    game.apply("draw")
    events = game.apply("lay R7 B7 G7 + R3 B3 Y3")
    laid = of_type(events, LaidDown)
    assert len(laid) == 1 and laid[0].player == 0 and laid[0].phase == 1
    assert len(game.melds) == 2 and all(meld.owner == 0 for meld in game.melds)
    assert game.hand(0) == parse_cards("R1 Y9")
    assert game.seats[0].laid == 0
    assert game.stage is Stage.PLAY and game.current == 0


def test_s4_lay_down_is_optional() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "B1 B2"], "R12", "Y9")
    game.apply("draw")
    assert any(isinstance(action, LayDown) for action in game.legal_actions)
    assert game.apply("discard R1") == [Discarded(0, C("R1"))]
    assert game.current == 1


def test_s4_lay_down_before_draw_refused() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "B1 B2"], "R12", "Y9")
    assert_refused(game, "lay R7 B7 G7 + R3 B3 Y3", IllegalActionError, "you must draw")


def test_s4_lay_down_with_cards_not_held_refused() -> None:
    game = arranged(["R7 B7 G7 R3 B3 R1", "B1 B2"], "R12", "Y9")
    game.apply("draw")
    assert_refused(game, "lay R7 B7 G7 + R3 B3 Y3", IllegalActionError, "you have no Y3")


def test_s4_lay_down_with_too_few_copies_refused() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "B1 B2"], "R12", "Y9")
    game.apply("draw")
    assert_refused(game, "lay R7 R7 G7 + R3 B3 Y3", IllegalActionError, "you have 1 R7, not 2")


def test_s4_only_one_phase_per_hand() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R5 B5 G5 R9 B9 G9", "B1 B2"], "R12", "Y9 Y1")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    assert_refused(game, "lay R5 B5 G5 + R9 B9 G9", IllegalActionError, "one per hand")
    play(game, "discard Y9; draw; discard B1; draw")
    assert_refused(game, "lay R5 B5 G5 + R9 B9 G9", IllegalActionError, "one per hand")


def test_s4_lay_down_with_wrong_groups_refused() -> None:
    game = arranged(["R7 B7 G8 R3 B3 Y3 R1", "B1 B2"], "R12", "Y9")
    game.apply("draw")
    assert_refused(game, "lay R7 B7 G8 + R3 B3 Y3", InvalidActionError, "different numbers")


# -- 3. hit ------------------------------------------------------------------------------


def test_s4_hit_before_phase_down_refused() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "Y7 B2 B4"], "R12", "Y9 G11")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R1; draw")
    sevens = meld_with(game, "R7 B7 G7")
    assert_refused(
        game, f"hit Y7 g{sevens}", IllegalActionError, "only once your own phase is down"
    )


def test_s4_hit_before_draw_refused() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1 G3", "Y7 B2 B4"], "R12", "Y9 G11 B11")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R1; draw; discard B2")
    threes = meld_with(game, "R3 B3 Y3")
    assert_refused(game, f"hit G3 g{threes}", IllegalActionError, "you must draw")


def test_s4_hit_in_the_turn_the_phase_is_laid() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 G3 R1", "B1 B2"], "R12", "Y9")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    threes = meld_with(game, "R3 B3 Y3")
    events = game.apply(f"hit G3 g{threes}")
    assert len(events) == 1 and isinstance(events[0], CardHit)
    assert events[0].player == 0 and events[0].card == C("G3") and events[0].group == threes
    assert Counter(game.melds[threes].group.cards) == Counter(parse_cards("R3 B3 Y3 G3"))
    assert C("G3") not in game.hand(0)


def test_s4_hit_on_a_later_turn_and_on_another_players_group() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1 R11", "B5 G5 Y5 R9 B9 G9 Y7 B1"], "R12", "Y9 G11 Y3 B2")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R1")
    play(game, "draw; lay B5 G5 Y5 + R9 B9 G9")
    sevens = meld_with(game, "R7 B7 G7")
    events = game.apply(f"hit Y7 g{sevens}")  # p1 hits p0's group
    assert of_type(events, CardHit)[0].player == 1
    assert game.melds[sevens].owner == 0
    play(game, "discard B1; draw")
    nines = meld_with(game, "R9 B9 G9")
    game.apply(f"hit Y9 g{nines}")  # p0 hits p1's group, on a later turn
    assert Counter(game.melds[nines].group.cards) == Counter(parse_cards("R9 B9 G9 Y9"))


def test_s4_hit_with_several_cards_in_one_turn() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 G3 Y7 R1", "B1 B2"], "R12", "G7")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    sevens, threes = meld_with(game, "R7 B7 G7"), meld_with(game, "R3 B3 Y3")
    play(game, f"hit G3 g{threes}; hit Y7 g{sevens}; hit G7 g{sevens}")
    assert game.hand(0) == (C("R1"),)
    assert len(game.melds[sevens].group.cards) == 5


def test_s4_hit_card_not_held_refused() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "B1 B2"], "R12", "Y9")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    assert_refused(game, "hit G3 g0", IllegalActionError, "you have no G3")


def test_s4_hit_that_does_not_fit_refused() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "B1 B2"], "R12", "Y9")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    sevens = meld_with(game, "R7 B7 G7")
    assert_refused(game, f"hit Y9 g{sevens}", IllegalActionError, "does not fit")


def test_s4_hit_never_makes_a_new_group() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R1", "B1 B2"], "R12", "Y9")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    assert_refused(game, "hit R1 g2", InvalidActionError, "there is no group g2")


def test_s4_hit_run_at_either_end() -> None:
    game = arranged(["R3 B4 G5 Y6 R7 B8 G9 Y2 R10 B12", "B1 B2"], "R12", "Y11", phases=(4, 1))
    play(game, "draw; lay R3 B4 G5 Y6 R7 B8 G9")
    run = meld_with(game, "R3 B4 G5 Y6 R7 B8 G9")
    events = play(game, f"hit Y2 g{run}; hit R10 g{run}")
    assert [e.group_after.low for e in of_type(events, CardHit)] == [2, 2]
    assert game.melds[run].group.high == 10
    assert_refused(game, f"hit B12 g{run}", IllegalActionError, "does not fit")
    assert game.melds[run].group.placements(WILD) == (1, 11)


def test_s4_hit_run_never_wraps_past_twelve() -> None:
    game = arranged(["R6 B7 G8 Y9 R10 B11 G12 R1 R5", "B1 B2"], "R12", "Y11", phases=(4, 1))
    play(game, "draw; lay R6 B7 G8 Y9 R10 B11 G12")
    run = meld_with(game, "R6 B7 G8 Y9 R10 B11 G12")
    assert_refused(game, f"hit R1 g{run}", IllegalActionError, "does not fit")
    game.apply(f"hit R5 g{run}")
    assert game.melds[run].group.low == 5


def test_s4_hit_wild_on_a_run_names_its_end() -> None:
    game = arranged(["R3 B4 G5 Y6 R7 B8 G9 W W", "B1 B2"], "R12", "Y11", phases=(4, 1))
    play(game, "draw; lay R3 B4 G5 Y6 R7 B8 G9")
    run = meld_with(game, "R3 B4 G5 Y6 R7 B8 G9")
    assert_refused(game, f"hit W g{run}", IllegalActionError, "say which end")
    assert_refused(game, f"hit W=5 g{run}", IllegalActionError, "only as 2 or 10")
    events = game.apply(f"hit W=10 g{run}")
    assert events[0] == CardHit(0, WILD, run, 10, game.melds[run].group)
    game.apply(f"hit W=2 g{run}")
    assert game.melds[run].group.describe() == "W=2 R3 B4 G5 Y6 R7 B8 G9 W=10"


def test_s4_hit_wild_on_a_set_takes_its_number() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 W R1", "B1 B2"], "R12", "Y9")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    sevens = meld_with(game, "R7 B7 G7")
    assert_refused(game, f"hit W=3 g{sevens}", IllegalActionError, "takes the group's value")
    events = game.apply(f"hit W g{sevens}")
    hit = of_type(events, CardHit)[0]
    assert hit.group_after.describe().endswith("W=7")


def test_s4_hit_wild_on_a_full_run_refused() -> None:
    hand = "R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11 R12 W"
    game = arranged([hand, "B1 B2"], "Y12", "Y11", phases=(6, 1))
    play(game, "draw; lay R1 B2 G3 Y4 R5 B6 G7 Y8 R9; hit B10 g0; hit G11 g0")
    assert game.melds[0].group.placements(WILD) == (12,)
    game.apply("hit R12 g0")  # 1 to 12: the run cannot grow any more
    assert_refused(game, "hit W g0", IllegalActionError, "does not fit")
    assert_refused(game, "hit Y11 g0", IllegalActionError, "does not fit")


def test_s4_hit_colour_group_same_colour_only() -> None:
    game = arranged(["R1 R3 R5 R6 R8 R10 R12 R2 B2 W", "B1 B2"], "Y12", "Y11", phases=(8, 1))
    play(game, "draw; lay R1 R3 R5 R6 R8 R10 R12")
    assert_refused(game, "hit B2 g0", IllegalActionError, "does not fit")
    play(game, "hit R2 g0; hit W g0")
    assert game.melds[0].group.describe().endswith("W=R")
    assert len(game.melds[0].group.cards) == 9


# -- 4. discard --------------------------------------------------------------------------


def test_s4_discard_ends_the_turn() -> None:
    game = arranged(["R1 R2", "B1 B2", "G1 G2"], "R12", "Y5 Y6")
    events = play(game, "draw; discard R2")
    assert events[-1] == Discarded(0, C("R2"))
    assert game.discard_pile[-1] == C("R2")
    assert game.current == 1 and game.stage is Stage.DRAW
    assert game.hand(0) == parse_cards("R1 Y5")


def test_s4_discard_before_draw_refused() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5")
    assert_refused(
        game, "discard R1", IllegalActionError, "you must draw a card (or take the top discard)"
    )
    # a Skip on top cannot be taken: the refusal offers only the draw
    skip = arranged(["R1 R2", "B1 S", "G1 G2"], "R12", "Y5 Y6")
    play(skip, "draw; discard R1; draw; discard S>p2")  # (Ann skips Cy: Ann's turn again)
    assert skip.discard_top == C("S") and skip.stage is Stage.DRAW
    assert_refused(
        skip,
        "discard " + str(skip.hand(skip.current)[0]),
        IllegalActionError,
        "you must draw a card first (the top discard cannot be taken)",
    )


def test_s4_discard_card_not_held_refused() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5")
    game.apply("draw")
    assert_refused(game, "discard B1", IllegalActionError, "you have no B1 to discard")


def test_s4_discard_is_exactly_one_card() -> None:
    game = arranged(["R1 R2 R3", "B1 B2"], "R12", "Y5 Y6")
    play(game, "draw; discard R1")
    assert game.current == 1
    assert len(game.hand(0)) == 3  # drew one, discarded one


def test_s4_draw_twice_refused() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5")
    game.apply("draw")
    assert_refused(game, "draw", IllegalActionError, "already drawn this turn")
    assert_refused(game, "take", IllegalActionError, "already drawn this turn")


def test_s4_take_then_draw_refused() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5")
    game.apply("take")
    assert_refused(game, "draw", IllegalActionError, "already drawn this turn")


def test_s4_actions_out_of_turn_refused() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5")
    other = game.view(1)
    for action in (Draw(), TakeDiscard(), Discard(C("B1"))):
        with pytest.raises(IllegalActionError, match="it is not your turn"):
            other.check(action)
        assert not other.is_legal(action)
    assert list(other.legal_actions) == []


def test_s4_malformed_actions_refused() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5")
    assert_refused(game, "dance", InvalidActionError, "unknown action")
    assert_refused(game, "draw R1", InvalidActionError, "takes nothing after it")
    assert_refused(game, "discard X9", InvalidActionError, "X9")
    assert_refused(game, "hit R1", InvalidActionError, "hit CARD gN")


def test_s4_refused_action_leaves_history_and_piles_unchanged() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5")
    before = (list(game.history), list(game.draw_pile), list(game.discard_pile), game.hand(0))
    for text in ("discard R1", "hit R1 g0", "lay R1 R1 R1 + R2 R2 R2"):
        with pytest.raises((IllegalActionError, InvalidActionError)):
            game.apply(text)
    assert (list(game.history), list(game.draw_pile), list(game.discard_pile), game.hand(0)) == (
        before
    )
    assert game.actions == []


def test_s4_legal_actions_agree_with_check() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 G3 W S", "B1 B2 B3"], "R12", "Y9")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    legal = list(game.legal_actions)
    assert len(legal) == len(set(legal)) == game.legal_actions.count()
    assert all(game.is_legal(action) for action in legal)
    assert Hit(C("S"), 0) not in game.legal_actions
    assert Discard(C("S"), 1) in legal and Discard(C("S")) not in legal


# -- going out ---------------------------------------------------------------------------


def test_s4_going_out_by_laying_down() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B2"], "R12", "Y3")
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    kinds = [type(e) for e in events]
    assert kinds[:4] == [Drew, LaidDown, WentOut, HandEnded]
    assert of_type(events, WentOut) == [WentOut(0)]
    assert of_type(events, HandEnded)[0].went_out == 0
    assert game.hand_number == 2  # the hand ended at once and the next was dealt


def test_s4_going_out_by_hitting() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 G3", "B1 B2"], "R12", "Y7")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    sevens, threes = meld_with(game, "R7 B7 G7"), meld_with(game, "R3 B3 Y3")
    game.apply(f"hit G3 g{threes}")
    events = game.apply(f"hit Y7 g{sevens}")
    assert [type(e) for e in events][:3] == [CardHit, WentOut, HandEnded]
    assert of_type(events, HandEnded)[0].went_out == 0


def test_s4_going_out_by_discarding() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3", "B1 B2"], "R12", "R1")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    events = game.apply("discard R1")
    assert [type(e) for e in events][:3] == [Discarded, WentOut, HandEnded]
    assert of_type(events, HandEnded)[0].went_out == 0


def test_s4_going_out_by_a_mix_of_laying_hitting_and_discarding() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 G3 R11", "B1 B2"], "R12", "Y7")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    play(game, f"hit G3 g{meld_with(game, 'R3 B3 Y3')}")
    play(game, f"hit Y7 g{meld_with(game, 'R7 B7 G7')}")
    events = game.apply("discard R11")
    assert of_type(events, WentOut) == [WentOut(0)]


def test_s4_going_out_ends_the_hand_before_anyone_else_plays() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B2", "G1 G2"], "R12", "Y3")
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    after = events[events.index(WentOut(0)) + 1 :]
    assert isinstance(after[0], HandEnded)
    assert isinstance(after[1], HandStarted) and after[1].hand == 2
    assert not of_type(after, Drew)


def test_s4_a_discard_that_is_not_the_last_card_does_not_go_out() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 R5", "B1 B2"], "R12", "R1")
    events = play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R1")
    assert of_type(events, WentOut) == [] and of_type(events, Skipped) == []
    assert game.current == 1 and game.hand(0) == (C("R5"),)

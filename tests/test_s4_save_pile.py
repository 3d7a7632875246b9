"""docs/rules.md §4: the save pile (``save_pile``, ``saved_score``) and giving up a phase
(``give_up``, the Masters Edition's second variant); §7: who sees a save pile."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import arranged, assert_refused, of_type, play
from phase10 import (
    Card,
    GaveUp,
    HandEnded,
    IllegalActionError,
    Refilled,
    Rules,
    Save,
    Saved,
    Stage,
    TakeSaved,
    TookSaved,
    preset,
)

SAVING = Rules(save_pile="private")
#: p0 lays phase 1 at once, saves G5, then hits Y1 and discards Y3 to go out
QUICK_HANDS = ("R1 B1 G1 R2 B2 G2 G5", "R9 R10 R11 B4 B5 B6 Y7 Y8 G12 G11")
QUICK_DRAWS = "Y3 B12 Y1"


def test_s4_a_save_ends_the_turn_instead_of_a_discard() -> None:
    game = arranged(QUICK_HANDS, "Y12", QUICK_DRAWS, rules=SAVING)
    events = play(game, "draw; save G5")
    assert of_type(events, Saved) == [Saved(0, Card.parse("G5"))]
    assert game.seats[0].saved == [Card.parse("G5")] and Card.parse("G5") not in game.hand(0)
    assert game.discard_pile == [Card.parse("Y12")]  # nothing discarded
    assert (game.current, game.stage) == (1, Stage.DRAW)


def test_s4_a_save_is_once_a_hand_and_never_the_last_card() -> None:
    game = arranged(QUICK_HANDS, "Y12", QUICK_DRAWS + " G9", rules=SAVING)
    play(game, "draw; lay R1 B1 G1 + R2 B2 G2")
    assert Save(Card.parse("G5")) in game.legal_actions  # two cards left: G5 and Y3
    play(game, "save G5; draw; discard B12; draw")
    assert_refused(game, "save Y3", IllegalActionError, "already saved a card this hand")
    # a player down to their last card cannot save it: going out takes a discard or a hit
    other = arranged(("R1 B1 G1 R2 B2 G2", QUICK_HANDS[1]), "Y12", "G5", rules=SAVING)
    play(other, "draw; lay R1 B1 G1 + R2 B2 G2")
    assert_refused(other, "save G5", IllegalActionError, "cannot save your last card")


def test_s4_no_save_without_a_save_pile() -> None:
    game = arranged(QUICK_HANDS, "Y12", QUICK_DRAWS)
    play(game, "draw")
    assert_refused(game, "save G5", IllegalActionError, "no save piles")
    assert not any(isinstance(action, Save) for action in game.legal_actions)


def test_s4_taking_a_saved_card_back_is_the_turns_draw() -> None:
    game = arranged(QUICK_HANDS, "Y12", QUICK_DRAWS, rules=SAVING, saved=("W B9", ""))
    assert TakeSaved(Card.parse("W")) in game.legal_actions
    assert_refused(game, "take-saved G3", IllegalActionError, "no G3 on your save pile")
    events = play(game, "take-saved W")
    assert of_type(events, TookSaved) == [TookSaved(0, Card.parse("W"))]
    assert game.seats[0].saved == [Card.parse("B9")] and game.stage is Stage.PLAY
    assert_refused(game, "draw", IllegalActionError, "already drawn")


def test_s4_saved_cards_stay_out_of_the_next_deal() -> None:
    game = arranged(QUICK_HANDS, "Y12", QUICK_DRAWS, rules=SAVING.with_options(phases=(1, 2)))
    play(game, "draw; lay R1 B1 G1 + R2 B2 G2; save G5; draw; discard B12; draw; hit Y1 g0")
    events = play(game, "discard Y3")
    assert of_type(events, HandEnded)[0].went_out == 0
    assert game.hand_number == 2 and game.seats[0].saved == [Card.parse("G5")]
    assert [len(game.hand(seat)) for seat in (0, 1)] == [10, 10]
    g5s = sum(card == Card.parse("G5") for card in [*game.draw_pile, *game.discard_pile])
    g5s += sum(card == Card.parse("G5") for seat in (0, 1) for card in game.hand(seat))
    assert g5s == 1  # the deck's other G5: the saved one was not dealt
    assert Counter(game.all_cards()) == Counter(dict(game.rules.deck_counts))


def test_s4_saved_cards_score_only_under_saved_score_penalty() -> None:
    for score, wanted in (("none", 0), ("penalty", 25)):
        rules = SAVING.with_options(saved_score=score, phases=(1, 2))
        game = arranged(QUICK_HANDS, "Y12", QUICK_DRAWS, rules=rules, saved=("", "W"))
        play(game, "draw; lay R1 B1 G1 + R2 B2 G2; save G5; draw; discard B12; draw; hit Y1 g0")
        ended = of_type(play(game, "discard Y3"), HandEnded)[0]
        held = sum(card.points for card in QUICK_HANDS[1].split() for card in [Card.parse(card)])
        assert ended.points[1] == held + wanted, score


def test_s7_others_see_how_many_cards_are_saved_not_which_unless_public() -> None:
    for pile, shown in (("private", None), ("public", (Card.parse("G5"),))):
        game = arranged(QUICK_HANDS, "Y12", QUICK_DRAWS, rules=Rules(save_pile=pile))
        play(game, "draw; save G5")
        mine, theirs = game.view(0), game.view(1)
        assert mine.saved == (Card.parse("G5"),) and theirs.saved == ()
        assert theirs.seats[0].saved_count == 1 and theirs.seats[0].saved == shown
        seen = [event for event in theirs.history if isinstance(event, Saved)]
        assert seen[0].card == (None if pile == "private" else Card.parse("G5"))


def test_s4_giving_up_a_phase_clears_it_and_draws_back_up_to_ten() -> None:
    rules = Rules(give_up="forfeit")
    hands = ("R1 B1 G1 R2 B2 G2 G5 Y5 Y6 Y9", "R9 R10 R11 B4 B5 B6 Y7 Y8 G12 G11")
    game = arranged(hands, "Y12", "Y3 B7 B8 B9 B10 B11 B12", rules=rules)
    assert_refused(game, "give-up", IllegalActionError, "must draw")
    play(game, "draw")
    assert_refused(game, "give-up", IllegalActionError, "no phase down to give up")
    play(game, "lay R1 B1 G1 + R2 B2 G2")
    events = play(game, "give-up")
    assert of_type(events, GaveUp) == [GaveUp(0, 1, (0, 1), 6)]
    assert game.melds == [] and game.seats[0].laid is None
    assert game.discard_pile[-1] == Card.parse("Y12")  # the given-up cards went under it
    assert_refused(game, "lay R1 B1 G1 + R2 B2 G2", IllegalActionError, "gave up your phase")
    assert_refused(game, "give-up", IllegalActionError, "already given up")
    refilled = of_type(play(game, "discard Y9"), Refilled)
    assert refilled[0].count == 6 and len(game.hand(0)) == 10
    assert Refilled(0, 6, None) in game.view(1).history  # the others see how many, not which
    assert game.allowed_phases(0) == (0,)  # forfeit: phase 1 is still to make


def test_s4_a_phase_given_up_under_keep_stays_completed() -> None:
    hands = ("R1 B1 G1 R2 B2 G2 G5 Y5 Y6 Y9", "R9 R10 R11 B4 B5 B6 Y7 Y8 G12 G11")
    game = arranged(hands, "Y12", "Y3 B7 B8 B9 B10 B11 B12", rules=Rules(give_up="keep"))
    play(game, "draw; lay R1 B1 G1 + R2 B2 G2; give-up")
    assert game.seats[0].completed == {0} and game.allowed_phases(0) == (1,)


def test_s8_the_masters_presets_have_a_save_pile_and_variant_2_gives_up() -> None:
    assert preset("masters").save_pile.value == "private"
    assert preset("masters").deck.value == "masters"
    variant = preset("masters-variant-2")
    assert (variant.declare.value, variant.give_up.value) == ("laydown", "forfeit")
    assert preset("masters-variant-1").give_up.value == "off"


def test_s4_the_save_piles_keep_back_no_more_than_a_deal_can_spare() -> None:
    """Every hand must be dealt (ten cards a player and the turned-up card): a save that
    would leave fewer out of the save piles is refused, where the next deal ran out of
    cards and stopped half made. The kernel offers the same saves."""
    from phase10.core import Arrangement, Game, Refusal, full_deck
    from phase10.core.positions import save_pile_room
    from phase10.kernel import EngineGame, KernelGame, available

    deck = full_deck(SAVING.deck_counts)
    room = save_pile_room(SAVING, 2)
    assert room == 108 - 20 - 1
    hands, discard = (tuple(deck[:10]), tuple(deck[10:20])), (deck[20],)
    saved, draw = tuple(deck[21 : 21 + room - 1]), tuple(deck[21 + room - 1 :])
    game = Game(
        2,
        rules=SAVING,
        seed=1,
        dealer=1,
        arrangement=Arrangement(hands=hands, discard=discard, draw=draw, saved=(saved, ())),
    )
    play(game, "draw")
    play(game, f"save {game.hand(0)[0]}")  # the last card the piles may hold
    assert sum(len(seat.saved) for seat in game.seats) == room
    play(game, "take")
    assert_refused(game, f"save {game.hand(1)[0]}", IllegalActionError, "all the deck can spare")
    with pytest.raises(IllegalActionError) as refused:
        game.apply(f"save {game.hand(1)[0]}")
    assert refused.value.code is Refusal.SAVE_PILES_FULL
    assert not any(isinstance(action, Save) for action in game.legal_actions)
    if available():
        assert KernelGame(game).legal() == EngineGame(game).legal()
    # nor can a game be arranged with more saved than that (short hands leave room for it)
    short = Arrangement(
        hands=(tuple(deck[:5]), tuple(deck[5:10])),
        discard=(deck[10],),
        saved=(tuple(deck[11 : 11 + room + 1]), ()),
    )
    with pytest.raises(ValueError, match=f"more than the {room} cards the deck can spare"):
        Game(2, rules=SAVING, arrangement=short)

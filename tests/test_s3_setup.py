"""docs/rules.md §3: setting up a hand (players, dealer, deal, first player, the turned-up card)."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import arranged, assert_refused, of_type, play, play_until
from phase10 import (
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    WILD,
    Card,
    Dealt,
    Drew,
    Game,
    HandStarted,
    IllegalActionError,
    Skipped,
    Stage,
    TakeDiscard,
    TookDiscard,
    full_deck,
    snapshot,
)

# -- players -----------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 7))
def test_s3_two_to_six_players(count: int) -> None:
    game = Game(count, seed=5)
    assert game.num_players == count
    assert len(game.seats) == count
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 6)


@pytest.mark.parametrize("count", [0, 1, 7, 10])
def test_s3_other_player_counts_refused_with_clear_error(count: int) -> None:
    with pytest.raises(ValueError, match=f"2 to 6 players, not {count}"):
        Game(count, seed=5)


def test_s3_player_names_given_as_list() -> None:
    game = Game(["Ann", "Bob", "Cy"], seed=5)
    assert [seat.name for seat in game.seats] == ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize("names", [["Ann"], ["A", "B", "C", "D", "E", "F", "G"]])
def test_s3_name_list_of_wrong_length_refused(names: list[str]) -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        Game(names, seed=5)


def test_s3_blank_player_name_refused() -> None:
    with pytest.raises(ValueError, match="non-empty name"):
        Game(["Ann", "  "], seed=5)


# -- the dealer --------------------------------------------------------------------------


def test_s3_first_dealer_chosen_by_seed() -> None:
    dealers = {seed: Game(4, seed=seed).dealer for seed in range(40)}
    assert all(Game(4, seed=seed).dealer == dealer for seed, dealer in dealers.items())
    assert set(dealers.values()) == {0, 1, 2, 3}  # the seed really chooses


@pytest.mark.parametrize("dealer", range(4))
def test_s3_first_dealer_may_be_given(dealer: int) -> None:
    game = Game(4, seed=9, dealer=dealer)
    assert game.dealer == game.first_dealer == dealer
    assert game.history[0] == HandStarted(
        1, dealer, (0, 1, 2, 3), (dealer + 1) % 4, game.discard_pile[0], False
    )


@pytest.mark.parametrize("dealer", [-1, 4])
def test_s3_dealer_outside_the_table_refused(dealer: int) -> None:
    with pytest.raises(ValueError, match="dealer must be a seat from 0 to 3"):
        Game(4, seed=9, dealer=dealer)


def test_s3_giving_the_dealer_does_not_change_the_shuffle() -> None:
    # The seed draws a dealer even when one is given, so the deal depends on the seed only.
    drawn = Game(3, seed=21)
    given = Game(3, seed=21, dealer=drawn.dealer)
    assert [given.hand(s) for s in range(3)] == [drawn.hand(s) for s in range(3)]


def test_s3_deal_rotates_left_each_hand() -> None:
    game = Game(3, seed=4, dealer=1)
    play_until(game, lambda g: g.hand_number >= 5)
    starts = of_type(game.history, HandStarted)
    assert [start.dealer for start in starts] == [1, 2, 0, 1, 2]
    assert [start.first_player for start in starts] == [2, 0, 1, 2, 0]


def test_s3_deal_rotates_after_an_arranged_first_hand() -> None:
    game = arranged(["R1 R1 B1 G5 G5", "Y9 Y10"], "R12", "Y5", dealer=1)
    events = play(game, "draw; lay R1 R1 B1 + G5 G5 Y5")
    assert game.hand_number == 2
    assert of_type(events, HandStarted)[0].dealer == 0
    assert game.current == 1  # left of the new dealer


# -- the deal ----------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 7))
def test_s3_deal_ten_cards_each_rest_face_down_one_turned_up(count: int) -> None:
    game = Game(count, seed=count)
    assert all(len(game.hand(s)) == HAND_SIZE for s in range(count))
    assert len(game.discard_pile) == 1
    assert len(game.draw_pile) == 108 - HAND_SIZE * count - 1
    assert Counter(game.all_cards()) == Counter(full_deck())
    dealt = of_type(game.history, Dealt)
    assert [event.player for event in dealt] == list(range(count))
    assert all(event.cards == game.hand(event.player) for event in dealt)


def test_s3_shuffle_depends_on_seed_only() -> None:
    one, two, other = Game(4, seed=77), Game(4, seed=77), Game(4, seed=78)
    assert snapshot(one)["state"] == snapshot(two)["state"]
    assert [one.hand(s) for s in range(4)] != [other.hand(s) for s in range(4)]


# -- who plays first ---------------------------------------------------------------------


@pytest.mark.parametrize(("count", "dealer"), [(2, 0), (2, 1), (4, 3), (5, 2), (6, 5)])
def test_s3_player_left_of_dealer_plays_first(count: int, dealer: int) -> None:
    game = Game(count, seed=3, dealer=dealer)
    if game.discard_pile[-1].is_skip:
        pytest.skip("turned-up Skip")
    assert game.current == (dealer + 1) % count
    assert game.stage is Stage.DRAW


def test_s3_play_goes_clockwise_in_seat_order() -> None:
    game = arranged(["R1 R2", "B1 B2", "G1 G2", "Y1 Y2"], "R12", "R3 B3 G3 Y3", dealer=1)
    turns = []
    for _ in range(4):
        turns.append(game.current)
        play(game, f"draw; discard {game.hand(game.current)[0]}")
    assert turns == [2, 3, 0, 1]


# -- the turned-up card ------------------------------------------------------------------


def test_s3_skip_turned_up_skips_first_player() -> None:
    game = arranged(["R1 R2", "B1 B2", "G1 G2"], "S", "R3", dealer=2)
    assert of_type(game.history, Skipped) == [Skipped(0)]
    assert game.history[-1] == Skipped(0)
    assert game.current == 1
    assert game.stage is Stage.DRAW
    assert not game.seats[0].pending_skip  # the pending skip was used up
    assert game.hand(0) == tuple(Card.parse(c) for c in ("R1", "R2"))  # no draw for them


def test_s3_skip_turned_up_in_two_player_game_gives_the_dealer_the_first_turn() -> None:
    game = arranged(["R1 R2", "B1 B2"], "S", dealer=0)
    assert of_type(game.history, Skipped) == [Skipped(1)]
    assert game.current == 0


def test_s3_skip_turned_up_cannot_be_taken_by_the_next_player() -> None:
    game = arranged(["R1 R2", "B1 B2", "G1 G2"], "S", "R3", dealer=2)
    assert_refused(game, "take", IllegalActionError, "a Skip can never be taken")
    assert [type(a) for a in game.legal_actions] == [type(game.parse_action("draw"))]


def test_s3_skip_turned_up_counts_as_pending_skip_in_the_history() -> None:
    for seed in range(200):  # find a seeded deal that turns up a Skip
        game = Game(3, seed=seed, dealer=0)
        if game.discard_pile[-1].is_skip:
            break
    else:
        pytest.fail("no seed turned up a Skip")
    start = game.history[0]
    assert isinstance(start, HandStarted) and start.discard_top.is_skip
    assert of_type(game.history, Skipped) == [Skipped(1)]
    assert game.current == 2


def test_s3_wild_turned_up_may_be_taken() -> None:
    game = arranged(["R1 R2", "B1 B2"], "W", "R3")
    assert TakeDiscard() in game.legal_actions
    events = game.apply("take")
    assert events == [TookDiscard(0, WILD)]
    assert WILD in game.hand(0)
    assert game.discard_pile == []
    assert game.stage is Stage.PLAY


def test_s3_wild_turned_up_may_be_left_for_a_draw() -> None:
    game = arranged(["R1 R2", "B1 B2"], "W", "R3")
    assert game.stage is Stage.DRAW  # no giving stage under the default rules
    events = game.apply("draw")
    assert events == [Drew(0, Card.parse("R3"))]
    assert game.discard_pile == [WILD]


# -- arranged deals (the test and puzzle door) -------------------------------------------


def test_s3_arrangement_needs_one_hand_per_player() -> None:
    with pytest.raises(ValueError, match="one hand per player"):
        arranged(["R1"], "R12", names=["Ann", "Bob"])


def test_s3_arrangement_cannot_hold_more_cards_than_the_deck() -> None:
    with pytest.raises(ValueError, match="more cards than the deck"):
        arranged(["R1 R1", "R1"], "R12")


def test_s3_arrangement_needs_a_turned_up_card() -> None:
    with pytest.raises(ValueError, match="at least one card on the discard pile"):
        arranged(["R1", "R2"], "")


def test_s3_arrangement_draw_cards_come_first() -> None:
    game = arranged(["R1", "R2"], "R12", "Y7 G8")
    assert game.draw_pile[-2:] == [Card.parse("G8"), Card.parse("Y7")]
    assert Counter(game.all_cards()) == Counter(full_deck())


def test_s3_an_arranged_deal_gives_every_player_cards() -> None:
    from phase10 import Arrangement, Game, parse_cards

    with pytest.raises(ValueError, match="gives player 1 no cards"):
        Game(
            2,
            seed=1,
            arrangement=Arrangement(hands=(parse_cards("R1 R2"), ()), discard=parse_cards("G5")),
        )

"""docs/rules.md §7: player knowledge. A view holds exactly what its player may know."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from helpers import VIEW_FIELDS, arranged, cards_in, meld_with, of_type, play, walk
from phase10 import (
    Card,
    CardHit,
    Dealt,
    Discard,
    Discarded,
    Draw,
    Drew,
    Game,
    HandEnded,
    HandStarted,
    IllegalActionError,
    LaidDown,
    PlayerView,
    SeatInfo,
    Stage,
    TakeDiscard,
    TookDiscard,
    parse_cards,
)

C = Card.parse

SEAT_FIELDS = {
    "name",
    "hand_size",
    "score",
    "phase",
    "completed",
    "laid",
    "declared",
    "pending_skip",
    "floating",
    "saved_count",
    "saved",
    "saved_this_hand",
    "gave_up",
    "refill",
}


def secret_game() -> Game:
    """Every 11 and 12 is hidden from p0: in p1's and p2's hands, drawn by them, or deep in
    the draw pile. p0 draws R5.
    """
    game = arranged(
        ["R7 B7 G7 R3 B3 Y3 R1 G4", "Y11 Y11 Y12 Y12 B1 B2", "G11 G11 G12 G12 G1 G2"],
        "R9",
        "R5 B11 B12 R11 R11 R12 R12 B11 B12",
    )
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3; discard R1")
    play(game, "draw; discard B1")
    play(game, "draw; discard G1")
    return game


# -- what a view is made of --------------------------------------------------------------


def test_s7_view_hides_other_hands_and_draw_order() -> None:
    assert {item.name for item in dataclasses.fields(PlayerView)} == VIEW_FIELDS
    assert {item.name for item in dataclasses.fields(SeatInfo)} == SEAT_FIELDS
    view = secret_game().view(0)
    for name in ("draw_pile", "rng", "seed", "arrangement", "actions", "all_cards"):
        assert not hasattr(view, name), name
    assert getattr(view, "__dict__", {}) == {}  # nothing hides beside the fields
    assert all(not isinstance(value, (Game, list)) for _, value in walk(view))


def test_s7_view_contains_no_hidden_card() -> None:
    game = secret_game()
    found = {str(card) for _, card in cards_in(game.view(0)) if (card.number or 0) >= 11}
    assert found == set()
    assert game.hand(1).count(C("B11")) == 1  # p1 really holds a drawn B11
    assert game.draw_pile[-1] == C("R11")  # and the draw pile really holds 11s and 12s


def test_s7_view_shows_own_hidden_cards_only() -> None:
    game = secret_game()
    seen_by_p1 = {str(card) for _, card in cards_in(game.view(1)) if (card.number or 0) >= 11}
    assert seen_by_p1 == {"Y11", "Y12", "B11"}
    seen_by_p2 = {str(card) for _, card in cards_in(game.view(2)) if (card.number or 0) >= 11}
    assert seen_by_p2 == {"G11", "G12", "B12"}


def test_s7_spectator_sees_only_public() -> None:
    game = secret_game()
    view = game.view(None)
    assert view.viewer is None and view.hand == ()
    assert not view.is_my_turn and list(view.legal_actions) == []
    assert {str(card) for _, card in cards_in(view) if (card.number or 0) >= 11} == set()
    assert all(event.cards is None for event in of_type(list(view.history), Dealt))
    assert all(event.card is None for event in of_type(list(view.history), Drew))
    assert C("R5") not in view.hand  # even p0's drawn card is not shown
    with pytest.raises(IllegalActionError, match="not your turn"):
        view.check(Draw())


def test_s7_view_holds_nothing_beyond_public_information() -> None:
    # Two games that differ only in what p0 may not know give p0 the same view.
    def game(p1: str, draws: str, seed: int) -> Game:
        g = arranged(["R1 R2 R3", p1], "R12", draws, seed=seed)
        play(g, "draw; discard R1; draw; discard B1")
        return g

    one = game("B1 Y7 Y8", "G5 G6 G7 G8", seed=1)
    two = game("B1 G11 W", "G5 S Y9 Y10", seed=2)
    assert one.hand(1) != two.hand(1) and one.draw_pile != two.draw_pile
    assert one.view(0) == two.view(0)
    assert one.view(None) == two.view(None)
    assert one.view(1) != two.view(1)


def test_s7_view_is_computable_on_its_own() -> None:
    game = secret_game()
    view = copy.deepcopy(game.view(0))
    assert view.is_my_turn and view.stage is Stage.DRAW
    assert list(view.legal_actions) == list(game.legal_actions) == [Draw(), TakeDiscard()]
    game.apply("draw")
    view = copy.deepcopy(game.view(0))
    assert set(view.legal_actions) == set(game.legal_actions)
    for action in (Draw(), Discard(C("B12")), Discard(C("G4"))):
        assert view.is_legal(action) == game.is_legal(action)


def test_s7_view_refuses_with_the_games_messages() -> None:
    game = secret_game()
    view = game.view(0)
    for action in (Discard(C("G4")), Discard(C("R1"))):
        with pytest.raises(IllegalActionError) as from_view:
            view.check(action)
        with pytest.raises(IllegalActionError) as from_game:
            game.check(action)
        assert str(from_view.value) == str(from_game.value)


def test_s7_view_of_a_player_not_to_move_has_no_actions() -> None:
    game = secret_game()
    for seat in (1, 2):
        view = game.view(seat)
        assert not view.is_my_turn and list(view.legal_actions) == []


def test_s7_view_is_frozen_and_a_snapshot() -> None:
    game = secret_game()
    view = game.view(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
    before = copy.deepcopy(view)
    game.apply("draw")
    assert view == before  # the view does not follow the game
    assert game.view(0) != view


def test_s7_view_of_an_unknown_seat_refused() -> None:
    game = secret_game()
    for seat in (-1, 3):
        with pytest.raises(ValueError, match="there is no player"):
            game.view(seat)


# -- each item of the list ---------------------------------------------------------------


def test_s7_view_shows_own_hand() -> None:
    game = secret_game()
    for seat in range(3):
        assert game.view(seat).hand == game.hand(seat)


def test_s7_view_shows_groups_with_wild_values() -> None:
    game = arranged(["R7 B7 W R3 B4 W G6 R1", "B1 B2"], "R12", "Y9", phases=(2, 1))
    play(game, "draw; lay R7 B7 W + R3 B4 W G6")
    for viewer in (None, 0, 1):
        view = game.view(viewer)
        assert view.melds == tuple(game.melds)
        run = meld_with(view, "R3 B4 W G6")
        assert view.melds[run].group.describe() == "R3 B4 W=5 G6"
        assert view.melds[meld_with(view, "R7 B7 W")].group.describe().endswith("W=7")


def test_s7_view_shows_the_whole_discard_pile() -> None:
    game = arranged(["R1 R2 R3", "B1 B2 B3"], "G4 G5 R12", "Y5 Y6")
    play(game, "draw; discard R1; draw; discard B2")
    for viewer in (None, 0, 1):
        assert game.view(viewer).discard_pile == parse_cards("G4 G5 R12 R1 B2")


def test_s7_view_shows_sizes_of_draw_pile_and_hands() -> None:
    game = secret_game()
    for viewer in (None, 0, 1, 2):
        view = game.view(viewer)
        assert view.draw_size == len(game.draw_pile)
        assert [seat.hand_size for seat in view.seats] == [len(game.hand(s)) for s in range(3)]


def test_s7_view_shows_phases_scores_and_pending_skips() -> None:
    game = arranged(
        ["R1 R2 S", "B1 B2", "G1 G2"], "R12", "Y5", phases=(3, 5, 7), scores=(5, 10, 20)
    )
    play(game, "draw; discard S>p2")
    for viewer in (None, 0, 1, 2):
        view = game.view(viewer)
        assert [seat.phase for seat in view.seats] == [2, 4, 6]
        assert [seat.score for seat in view.seats] == [5, 10, 20]
        assert [seat.pending_skip for seat in view.seats] == [False, False, True]
        assert [seat.name for seat in view.seats] == ["Player 0", "Player 1", "Player 2"]


def test_s7_history_hides_others_draws_but_shows_their_takes() -> None:
    game = arranged(["R1 R2", "B1 B2"], "R12", "Y5 Y6")
    play(game, "draw; discard R1; take; discard B1")
    mine, theirs = game.view(0).history, game.view(1).history
    assert Drew(0, C("Y5")) in mine and Drew(0, None) in theirs
    assert TookDiscard(1, C("R1")) in mine and TookDiscard(1, C("R1")) in theirs
    assert Discarded(1, C("B1")) in mine and Discarded(0, C("R1")) in theirs


def test_s7_history_shows_what_was_laid_and_hit() -> None:
    game = arranged(["R7 B7 G7 R3 B3 Y3 G3 R1", "B1 B2"], "R12", "Y9")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    play(game, f"hit G3 g{meld_with(game, 'R3 B3 Y3')}")
    for viewer in (None, 1):
        history = game.view(viewer).history
        laid = of_type(list(history), LaidDown)[0]
        assert laid.player == 0 and {str(g) for g in laid.groups} == {"R3 B3 Y3", "R7 B7 G7"}
        assert of_type(list(history), CardHit)[0].card == C("G3")


def test_s7_dealt_hands_of_others_hidden() -> None:
    game = secret_game()
    for viewer in (0, 1, 2):
        dealt = of_type(list(game.view(viewer).history), Dealt)
        assert [event.player for event in dealt] == [0, 1, 2]
        for event in dealt:
            if event.player == viewer:
                assert event.cards == of_type(game.history, Dealt)[viewer].cards
                assert event.cards is not None
            else:
                assert event.cards is None


def test_s7_view_history_is_this_hand_and_results_sum_up_earlier_hands() -> None:
    game = arranged(["R7 B7 G7 R3 B3", "B1 B10"], "R12", "Y3")
    play(game, "draw; lay R7 B7 G7 + R3 B3 Y3")
    view = game.view(1)
    assert isinstance(view.history[0], HandStarted) and view.history[0].hand == 2
    assert not of_type(list(view.history), LaidDown)
    assert view.hand_results == tuple(game.hand_results)
    assert isinstance(view.hand_results[0], HandEnded)
    assert view.hand_results[0].points == (0, 15)


def test_s7_view_history_is_this_hands_events_as_each_viewer_sees_them() -> None:
    """The game keeps each viewer's copy of the history as it grows: it always equals this
    hand's events seen by that viewer, also after a restore, a deep copy or a new hand."""
    import random

    from phase10 import restore, snapshot

    def expected(game: Game, viewer: int | None) -> tuple[object, ...]:
        return tuple(event.seen_by(viewer) for event in game.history[game.hand_start :])

    game = Game(3, seed=12)
    rng = random.Random(12)
    hands = set()
    for step in range(600):
        if game.is_over:
            break
        for viewer in (None, 0, 1, 2):
            assert game.view(viewer).history == expected(game, viewer)
        if step % 97 == 50:  # the same game read back, and a copy: their views agree too
            for other in (restore(snapshot(game)), copy.deepcopy(game)):
                for viewer in (None, 0, 1, 2):
                    assert other.view(viewer).history == expected(game, viewer)
        hands.add(game.hand_number)
        actions = list(game.legal_actions)
        game.apply(rng.choice([a for a in actions if not isinstance(a, Discard)] or actions))
    assert len(hands) > 2

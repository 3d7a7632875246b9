"""The kernel's determinized search (docs/kernel.md, "Searching"): a game made from one
player's view agrees with everything the view shows, and ``search`` gives, seed for seed,
what the Python engine's twin gives.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import phase10.kernel as kernel
from phase10.bots import knowledge
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.knowledge import known_held
from phase10.core import WILD, Card, Game, PlayerView, Rules, SavePile, Stage, preset
from phase10.kernel import EngineGame, KernelGame
from phase10.kernel.convert import action_key, state_from_view

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")


def _greedy_game(players: int, seed: int, actions: int, rules: str | Rules = "official") -> Game:
    game = Game(players, seed=seed, rules=preset(rules) if isinstance(rules, str) else rules)
    bots = [GreedyPlayer(random.Random(seed * 10 + seat)) for seat in range(players)]
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bots[game.current].choose(game.view(game.current)))
    return game


def _known(view: PlayerView) -> list[list[int]]:
    known: list[list[int]] = [[] for _ in view.seats]
    for seat, cards in known_held(view).items():
        known[seat] = [card.index for card in cards.elements()]
    return known


#: positions where the player to move knows another player holds a card (taken from the
#: discard pile), one with a group on the table
@pytest.mark.parametrize(("players", "seed", "actions"), [(2, 1, 38), (4, 2, 110), (3, 3, 157)])
def test_a_state_from_a_view_shows_the_same_and_hides_the_rest(
    players: int, seed: int, actions: int
) -> None:
    game = _greedy_game(players, seed, actions)
    me = game.current
    view = game.view(me)
    state = state_from_view(view)
    seats = state[11]
    # what the view shows is as it is
    assert seats[me][0] == tuple(card.index for card in game.seats[me].hand)
    assert state[9] == tuple(card.index for card in game.discard_pile)
    assert [seat[1:8] for seat in seats] == [
        (
            s.score,
            s.phase,
            sum(1 << i for i in s.completed),
            -1 if s.laid is None else s.laid,
            s.pending_skip,
            s.floating,
            -1,
        )
        for s in game.seats
    ]
    # the hidden cards are the same cards, in the same numbers
    hidden = Counter(state[8])
    truth = Counter(card.index for card in game.draw_pile)
    for seat in range(players):
        assert len(seats[seat][0]) == len(game.seats[seat].hand)
        if seat != me:
            hidden.update(seats[seat][0])
            truth.update(card.index for card in game.seats[seat].hand)
    assert hidden == truth
    # and who is known to hold a card holds it
    known = {seat: cards for seat, cards in known_held(view).items() if cards}
    assert known
    for seat, cards in known.items():
        assert not cards - Counter(Card.from_index(c) for c in seats[seat][0])


@needs_kernel
def test_a_state_from_a_view_during_the_declarations_plays_on_as_the_game_does() -> None:
    """Phases named after the deal, in turn: the state knows who has yet to declare."""
    rules = preset("masters").with_options(save_pile=SavePile.OFF)
    seen = 0
    for seed in range(1, 4):
        game = Game(3, seed=seed, rules=rules)
        bots = [GreedyPlayer(random.Random(seed * 10 + seat)) for seat in range(3)]
        while game.hand_number < 3 and not game.is_over:
            if game.stage is Stage.DECLARE:
                seen += 1
                play = KernelGame.from_view(game.view(game.current))
                assert play.game.declare_queue == game.declare_queue
                assert sorted(play.legal()) == sorted(
                    action_key(action) for action in game.legal_actions
                )
            game.apply(bots[game.current].choose(game.view(game.current)))
    assert seen >= 9


@needs_kernel
@pytest.mark.parametrize("save_pile", ["private", "public"])
def test_a_state_from_a_view_hides_private_save_piles_only(save_pile: str) -> None:
    game = _greedy_game(3, 4, 160, preset("anti-phase").with_options(save_pile=save_pile))
    me = game.current
    view = game.view(me)
    seats = state_from_view(view)[11]
    truth = [tuple(card.index for card in seat.saved) for seat in game.seats]
    assert seats[me][8] == truth[me] and all(truth)
    hidden, unseen = Counter(state_from_view(view)[8]), Counter(c.index for c in game.draw_pile)
    for seat in range(3):
        if seat != me:
            hidden.update(seats[seat][0])
            unseen.update(card.index for card in game.seats[seat].hand)
            assert len(seats[seat][8]) == len(truth[seat])
            if save_pile == "public":
                assert seats[seat][8] == truth[seat]
            else:
                hidden.update(seats[seat][8])
                unseen.update(truth[seat])
    assert hidden == unseen
    play = KernelGame.from_view(view)
    assert play.legal() == KernelGame(game).legal()
    assert play.search(me, _known(view), [0, len(play.legal()) - 1], 4, 2).shape == (4, 2, 3, 3)


def test_a_spectator_has_no_state_to_search() -> None:
    with pytest.raises(ValueError, match="spectator"):
        state_from_view(Game(2, seed=1).view(None))


@needs_kernel
@pytest.mark.parametrize(
    ("players", "seed", "actions", "hands"), [(2, 4, 41, 1), (4, 5, 120, 1), (3, 6, 60, 2)]
)
def test_search_agrees_with_the_engine_seed_for_seed(
    players: int, seed: int, actions: int, hands: int
) -> None:
    game = _greedy_game(players, seed, actions)
    me = game.current
    fast, slow = KernelGame(game), EngineGame(game)
    legal = fast.legal()
    assert legal == slow.legal()
    candidates = list(range(min(len(legal), 4)))
    known = _known(game.view(me))
    got = fast.search(me, known, candidates, 3, seed, hands)
    assert got.shape == (3, len(candidates), players, 3)
    assert np.array_equal(got, slow.search(me, known, candidates, 3, seed, hands))
    # an oracle's search: the cards as they lie
    lying = fast.search(me, known, candidates, 2, seed, hands, redeal=False)
    assert np.array_equal(lying, slow.search(me, known, candidates, 2, seed, hands, redeal=False))
    # a hand was played to its end in every play-out: somebody's score or phase moved on
    before = np.array([[len(s.completed), s.score] for s in game.seats])
    assert (got[..., :2] != before).any(axis=(2, 3)).all()


@needs_kernel
@pytest.mark.parametrize(
    ("rules", "players", "seed", "actions"),
    [("masters", 4, 7, 247), ("anti-phase", 3, 5, 165), ("masters-variant-2", 2, 8, 96)],
)
def test_search_agrees_with_the_engine_under_the_masters_rules(
    rules: str, players: int, seed: int, actions: int
) -> None:
    """Save piles (private: dealt afresh), the Anti-phase card and the evidence the expert
    passes (settled seats, passed-over discards)."""
    game = _greedy_game(players, seed, actions, rules)
    me = game.current
    view = game.view(me)
    fast, slow = KernelGame(game), EngineGame(game)
    legal = fast.legal()
    assert legal == slow.legal()
    candidates = list(range(min(len(legal), 3)))
    declined = [[c.index for c in knowledge.declined(view, seat)] for seat in range(players)]
    evidence = {"settled": (1 << players) - 1, "declined": declined}
    got = fast.search(me, _known(view), candidates, 3, seed, **evidence)
    assert np.array_equal(got, slow.search(me, _known(view), candidates, 3, seed, **evidence))


@needs_kernel
def test_settled_seats_are_dealt_no_phase_they_could_lay() -> None:
    game = _greedy_game(2, 10, 3)  # the first player has had a turn and is not down
    me = game.current
    other = 1 - me
    assert game.seats[other].laid is None
    fast, slow = KernelGame(game), EngineGame(game)
    known: list[list[int]] = [[], []]
    settled = fast.search(me, known, [0], 40, 5, 1, settled=1 << other)
    assert np.array_equal(settled, slow.search(me, known, [0], 40, 5, 1, settled=1 << other))
    assert not np.array_equal(settled, fast.search(me, known, [0], 40, 5, 1))


@needs_kernel
@pytest.mark.parametrize(
    ("rules", "seed"), [(preset("arkansas"), 11), (Rules(phase_order="any", declare="deal"), 10)]
)
def test_settled_seats_in_any_order_are_dealt_none_of_their_phases(rules: Rules, seed: int) -> None:
    game = Game(2, seed=seed, rules=rules)
    bots = [GreedyPlayer(random.Random(seed * 10 + seat)) for seat in range(2)]
    for _ in range(3):
        game.apply(bots[game.current].choose(game.view(game.current)))
    me = game.current
    fast, slow = KernelGame(game), EngineGame(game)
    known: list[list[int]] = [[], []]
    settled = fast.search(me, known, [0], 20, 5, 1, settled=1 << (1 - me))
    assert np.array_equal(settled, slow.search(me, known, [0], 20, 5, 1, settled=1 << (1 - me)))


@needs_kernel
def test_passed_over_discards_are_held_against_a_deal() -> None:
    game = _greedy_game(3, 12, 9)
    me = game.current
    view = game.view(me)
    declined = [[c.index for c in knowledge.declined(view, seat)] for seat in range(3)]
    assert any(declined[seat] for seat in range(3) if seat != me)
    fast, slow = KernelGame(game), EngineGame(game)
    known = _known(view)
    both = {"settled": 0b111, "declined": declined}
    found = fast.search(me, known, [0, 1], 12, 9, 1, **both)
    assert np.array_equal(found, slow.search(me, known, [0, 1], 12, 9, 1, **both))
    assert not np.array_equal(found, fast.search(me, known, [0, 1], 12, 9, 1))
    with pytest.raises(ValueError, match="declined"):
        fast.search(me, known, [0], 1, 1, declined=[[1]])


@needs_kernel
def test_search_from_a_view_keeps_the_legal_actions() -> None:
    game = _greedy_game(4, 7, 66)
    view = game.view(game.current)
    play = KernelGame.from_view(view)
    assert play.legal() == KernelGame(game).legal()
    result = play.search(game.current, _known(view), [0, 1], 8, 3, 0)  # to the game's end
    assert (result[..., 2].sum(axis=2) >= 1).all()  # every play-out has a winner


@needs_kernel
def test_search_refuses_bad_requests() -> None:
    game = _greedy_game(2, 8, 11)
    play = KernelGame(game)
    me, other = game.current, 1 - game.current
    known: list[list[int]] = [[], []]
    with pytest.raises(ValueError, match="not the one to move"):
        play.search(other, known, [0], 1, 1)
    with pytest.raises(ValueError, match="not an index"):
        play.search(me, known, [len(play.legal())], 1, 1)
    with pytest.raises(ValueError, match="no candidate"):
        play.search(me, known, [], 1, 1)
    with pytest.raises(ValueError, match="count of play-outs"):
        play.search(me, known, [0], -1, 1)
    assert play.search(me, known, [0], 0, 1).shape == (0, 1, 2, 3)


@needs_kernel
@pytest.mark.parametrize(
    ("rules", "players", "seed", "actions"), [("official", 3, 4, 40), ("masters", 2, 6, 30)]
)
def test_weighted_deals_agree_with_the_engine_seed_for_seed(
    rules: str, players: int, seed: int, actions: int
) -> None:
    """Deals weighted by a model of each other seat's hand: the kernel and the Python
    fallback draw the same cards (a seat without weights, uniformly)."""
    game = _greedy_game(players, seed, actions, rules)
    me = game.current
    view = game.view(me)
    fast, slow = KernelGame(game), EngineGame(game)
    rng = random.Random(seed)
    weights: list[list[float] | None] = [
        [rng.uniform(0.1, 50.0) for _ in range(51)] for _ in range(players)
    ]
    if players > 2:  # a seat without weights is dealt uniformly
        weights[(me + 1) % players] = None
    candidates = list(range(min(len(fast.legal()), 3)))
    evidence = {"settled": (1 << players) - 1, "weights": weights}
    got = fast.search(me, _known(view), candidates, 4, seed, **evidence)
    assert np.array_equal(got, slow.search(me, _known(view), candidates, 4, seed, **evidence))
    assert not np.array_equal(got, fast.search(me, _known(view), candidates, 4, seed))


BOTH = [pytest.param(KernelGame, marks=needs_kernel), EngineGame]


@pytest.mark.parametrize("make", BOTH)
def test_weights_deal_the_cards_they_favour(make: type[KernelGame] | type[EngineGame]) -> None:
    """Bob dealt Wilds above all (his hand is hidden) lays his phase down on his first turn
    in every play-out; dealt uniformly he seldom does."""
    game = Game(["You", "Bob"], seed=3)
    play = make(game)
    me = game.current
    bob = 1 - me
    wilds = [1.0] * 51
    wilds[WILD.index] = 1e6
    weights: list[list[float] | None] = [None, None]
    weights[bob] = wilds
    draw = [play.legal().index(key) for key in play.legal() if key[0] == 0]
    known: list[list[int]] = [[], []]
    # eight actions: your turn, then Bob's
    favoured = play.search(me, known, draw, 16, 1, 1, 8, weights=weights)
    uniform = play.search(me, known, draw, 16, 1, 1, 8)
    assert favoured[..., bob, 0].mean() > 0.9 > 0.4 > uniform[..., bob, 0].mean()


@pytest.mark.parametrize("make", BOTH)
def test_bad_weights_get_a_clear_error(make: type[KernelGame] | type[EngineGame]) -> None:
    game = _greedy_game(2, 8, 11)
    play = make(game)
    me = game.current
    known: list[list[int]] = [[], []]
    for weights, message in (
        ([None], r"one per player \(2\)"),
        ([None, [1.0] * 50], "51 per player"),
        ([None, [0.0] * 51], "from above 0 to 1e6"),
        ([None, [float("nan")] * 51], "from above 0 to 1e6"),
        ([None, [2e6] * 51], "from above 0 to 1e6"),
    ):
        with pytest.raises(ValueError, match=message):
            play.search(me, known, [0], 1, 1, weights=weights)

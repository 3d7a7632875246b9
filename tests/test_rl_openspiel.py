"""The OpenSpiel game: OpenSpiel's own random simulation test on a whole official game,
chance nodes that deal and draw uniformly over the unseen cards (and games the engine
agrees with), fast independent clones, resampling from an information state, and ISMCTS."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

import phase10.rl.openspiel  # noqa: F401 - registers python_phase10
from phase10.core import (
    ANTI,
    ANTI_INDEX,
    PRESETS,
    SKIP_INDEX,
    WILD_INDEX,
    Drew,
    HandStarted,
    Refilled,
    full_deck,
)
from phase10.rl.encoding import CARDS

DECK = Counter(card.index for card in full_deck())


def _random_step(state: pyspiel.State, rng: random.Random) -> int:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        action = rng.choices(actions, probs)[0]
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return int(action)


def test_random_sim_test_on_a_whole_official_game() -> None:
    """OpenSpiel's own checks (clones, strings, tensors, returns at every node) over a whole
    two-player game of the official rules, all ten phases (benchmarks/bench_rl.py times it)."""
    pyspiel.random_sim_test(
        pyspiel.load_game("python_phase10"), num_sims=1, serialize=False, verbose=False
    )


def test_chance_deals_and_draws_the_unseen_cards_and_the_engine_agrees() -> None:
    game = pyspiel.load_game("python_phase10", {"players": 3, "phases": 2})
    state = game.new_initial_state()
    rng = random.Random(5)
    assert state.chance_outcomes() == [(seat, 1 / 3) for seat in range(3)]
    _random_step(state, rng)
    deal: list[int] = []  # the cards of the deal in progress
    draws: list[int] = []
    hands = 0
    while not state.is_terminal():
        if state.is_chance_node():
            text = state.action_to_string(pyspiel.PlayerId.CHANCE, 0)
            outcomes = dict(state.chance_outcomes())
            assert abs(sum(outcomes.values()) - 1) < 1e-9
            if text.startswith(("deal", "turn up")):
                dealt = Counter(deal)
                left = {i: DECK[i] - dealt[i] for i in range(CARDS) if DECK[i] > dealt[i]}
                total = sum(left.values())
                assert outcomes == {i: n / total for i, n in left.items()}  # uniform, unseen
                deal.append(_random_step(state, rng))
                if text.startswith("turn up"):
                    hands += 1
                    deal = []
            else:  # a draw: uniform over the draw pile (or the pile a reshuffle makes)
                engine = state.engine_game
                pile = engine.draw_pile or engine.discard_pile[:-1]
                counts = Counter(card.index for card in pile)
                assert outcomes == {i: n / len(pile) for i, n in counts.items()}
                draws.append(_random_step(state, rng))
            continue
        engine = state.engine_game
        action = rng.choice(state.legal_actions())
        engine.check(state.core.layout.decode(engine, action))  # the engine's own check
        state.apply_action(action)
    engine = state.engine_game
    assert hands == engine.hand_number >= 2
    assert Counter(card.index for card in engine.all_cards()) == DECK
    # the engine dealt and drew exactly what chance chose
    assert sum(isinstance(event, HandStarted) for event in engine.history) == hands
    drawn = [event.card.index for event in engine.history if isinstance(event, Drew)]
    assert drawn == draws and engine.winners


def test_chance_deals_from_the_rules_deck() -> None:
    """Rules §1 "Other decks": the masters preset deals from the tin's 106 cards."""
    state = pyspiel.load_game(
        "python_phase10", {"players": 2, "rules": "masters"}
    ).new_initial_state()
    state.apply_action(0)  # the first dealer
    outcomes = dict(state.chance_outcomes())
    assert outcomes[SKIP_INDEX] == pytest.approx(2 / 106)
    assert outcomes[WILD_INDEX] == pytest.approx(8 / 106)


def test_clones_are_fast_copies_and_independent() -> None:
    game = pyspiel.load_game("python_phase10", {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(400):
        _random_step(state, rng)
    while state.is_chance_node():
        _random_step(state, rng)
    before = str(state), state.history(), state.information_state_string(0)
    twin = state.clone()
    assert type(twin) is type(state) and twin.history() == state.history()
    for _ in range(60):
        _random_step(twin, rng)
    assert (str(state), state.history(), state.information_state_string(0)) == before
    assert twin.engine_game is not state.engine_game


def test_resample_from_infostate_keeps_what_the_player_knows() -> None:
    game = pyspiel.load_game("python_phase10", {"players": 3, "phases": 1})
    state = game.new_initial_state()
    rng = random.Random(8)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = moved = 0
    for step in range(900):
        if state.is_terminal():
            break
        if not state.is_chance_node() and step % 7 == 0:
            for player in range(3):
                other = state.resample_from_infostate(player, sampler)
                assert other.current_player() == state.current_player()
                assert other.information_state_string(player) == (
                    state.information_state_string(player)
                )
                assert np.array_equal(
                    other.information_state_tensor(player),
                    state.information_state_tensor(player),
                )
                assert other.legal_actions() == state.legal_actions() or (
                    player != state.current_player()
                )
                engine, sampled = state.engine_game, other.engine_game
                assert Counter(sampled.all_cards()) == Counter(engine.all_cards())
                assert sampled.hand(player) == engine.hand(player)
                moved += any(
                    sampled.hand(seat) != engine.hand(seat) for seat in range(3) if seat != player
                )
                checked += 1
        _random_step(state, rng)
    assert checked > 20 and moved > checked // 2


def test_ismcts_plays_with_resampled_worlds() -> None:
    """OpenSpiel's ISMCTS searches over worlds drawn by ``resample_from_infostate``."""
    game = pyspiel.load_game("python_phase10", {"players": 2, "phases": 1, "max_steps": 40})
    evaluator = _ProgressEvaluator()
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(3)
    )
    state = game.new_initial_state()
    rng = random.Random(3)
    moves = 0
    while not state.is_terminal() and moves < 12:
        if state.is_chance_node() or state.current_player() == 1:
            _random_step(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 12


class _ProgressEvaluator:
    """A cheap leaf value for tests: fewer cards in hand is better."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        sizes = np.array([len(state.engine_game.hand(seat)) for seat in range(2)], float)
        return np.tanh((sizes[::-1] - sizes) / 5)

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(action, 1 / len(actions)) for action in actions]


def test_the_ismcts_example_plays_a_game_against_a_bot() -> None:
    path = Path(__file__).resolve().parent.parent / "examples" / "rl" / "openspiel_ismcts.py"
    spec = importlib.util.spec_from_file_location("rl_example_ismcts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    summary = module.main(["--games", "1", "--simulations", "4", "--max-steps", "80"])
    assert summary["win_rate"] in (0.0, 1.0)


def test_save_piles_and_giving_up_under_chance() -> None:
    """Masters Variant #2 (version 2): saved cards stay out of later deals, a refill after
    giving up draws its cards by chance (and the engine's ``Refilled`` agrees), every card
    is conserved, and resampling redeals the private save piles but keeps their sizes."""
    game = pyspiel.load_game(
        "python_phase10", {"players": 3, "rules": "masters-variant-2", "phases": 2}
    )
    deck = Counter({card.index: n for card, n in PRESETS["masters"].deck_counts.items()})
    state = game.new_initial_state()
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    refills: list[int] = []
    resampled = later_deals = 0
    dealing = False
    while not state.is_terminal():
        if state.is_chance_node():
            text = state.action_to_string(pyspiel.PlayerId.CHANCE, state.chance_outcomes()[0][0])
            if text.startswith("deal") and not dealing:  # a deal's first card
                saved = Counter(c.index for s in state.engine_game.seats for c in s.saved)
                outcomes = dict(state.chance_outcomes())
                total = deck.total() - saved.total()  # from the deck but the saved cards
                assert outcomes == {
                    i: (deck[i] - saved[i]) / total for i in deck if deck[i] > saved[i]
                }
                later_deals += saved.total() > 0
            dealing = text.startswith("deal")
            action = _random_step(state, rng)
            if "refills" in text:
                refills.append(action)
            continue
        engine = state.engine_game
        layout = state.core.layout
        legal = state.legal_actions()
        take_saved = range(layout.save_offset + CARDS, layout.save_offset + 2 * CARDS)
        plain = [a for a in legal if a not in take_saved] or legal  # keep saved cards saved
        new = [a for a in plain if a >= layout.save_offset]
        action = rng.choice(new if new and rng.random() < 0.4 else plain)
        engine.check(layout.decode(engine, action))
        if engine.seats[engine.current].saved and resampled < 6:
            resampled += 1
            player = (engine.current + 1) % 3
            other = state.resample_from_infostate(player, sampler)
            sampled = other.engine_game
            assert Counter(sampled.all_cards()) == Counter(engine.all_cards())
            assert sampled.seats[player].saved == engine.seats[player].saved
            assert [len(s.saved) for s in sampled.seats] == [len(s.saved) for s in engine.seats]
            assert np.array_equal(
                other.information_state_tensor(player), state.information_state_tensor(player)
            )
            assert other.information_state_string(player) == state.information_state_string(player)
        state.apply_action(action)
    engine = state.engine_game
    assert Counter(card.index for card in engine.all_cards()) == deck
    drawn = [c.index for e in engine.history if isinstance(e, Refilled) for c in e.cards or ()]
    assert refills and drawn == refills and later_deals and resampled


def test_the_version_parameter() -> None:
    """Version 3 by default (the Anti-phase card's actions after version 2's); versions 2 and
    1 keep their numbers and refuse the rules they have no actions for."""
    assert pyspiel.load_game("python_phase10").num_distinct_actions() == 293 + 101 + 6
    assert pyspiel.load_game("python_phase10", {"version": 2}).num_distinct_actions() == 394
    assert pyspiel.load_game("python_phase10", {"version": 1}).num_distinct_actions() == 293
    with pytest.raises(ValueError, match="use version 2"):
        pyspiel.load_game("python_phase10", {"version": 1, "rules": "masters"})
    with pytest.raises(ValueError, match="use version 3"):
        pyspiel.load_game("python_phase10", {"version": 2, "rules": "anti-phase"})
    with pytest.raises(ValueError, match="versions 1, 2 and 3"):
        pyspiel.load_game("python_phase10", {"version": 0})


def test_the_anti_phase_card_under_chance() -> None:
    """Version 3 deals the Anti-phase card (card index 50) by chance like any other; a whole
    one-phase game plays through with every action checked by the engine, and the public
    observation hides whether the player holds it."""
    game = pyspiel.load_game("python_phase10", {"players": 3, "rules": "anti-phase", "phases": 1})
    assert game.max_chance_outcomes() == 51
    state = game.new_initial_state()
    state.apply_action(0)
    assert dict(state.chance_outcomes())[ANTI_INDEX] == pytest.approx(1 / 107)
    rng = random.Random(2)
    public = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    held = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _random_step(state, rng)
            continue
        engine = state.engine_game
        layout = state.core.layout
        me = state.current_player()
        if ANTI in engine.seats[me].hand:
            held += 1
            public.set_from(state, me)
            assert public.tensor[layout.anti_block_offset] == 0
            assert state.observation_tensor(me)[layout.anti_block_offset] == 1
        action = rng.choice(state.legal_actions())
        engine.check(layout.decode(engine, action))
        state.apply_action(action)
    deck = Counter({card.index: n for card, n in PRESETS["anti-phase"].deck_counts.items()})
    assert Counter(card.index for card in state.engine_game.all_cards()) == +deck and held


def test_the_phase_reward_shapes_the_returns_as_the_other_environments_do() -> None:
    """Each phase completed adds the phase reward to its player's return, on top of the
    game's ±1, as in PettingZoo and Gymnasium; the utility bounds widen to hold it."""
    game = pyspiel.load_game("python_phase10", {"phases": 2, "phase_reward": 0.25})
    assert (game.min_utility(), game.max_utility()) == (-1.5, 1.5)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        _random_step(state, rng)
    engine = state.engine_game
    for seat, total in enumerate(state.returns()):
        won = 1.0 / len(engine.winners) if seat in engine.winners else -1.0
        phases = len(engine.seats[seat].completed)
        assert total == pytest.approx(won + 0.25 * phases)
    assert any(len(seat.completed) for seat in engine.seats)


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"rules": "offical"}, "no rules 'offical': choose one of anti-phase"),
        ({"phases": -1}, "phases is 1 to 10"),
        ({"phases": 11}, "not 11"),
        ({"players": 7}, "players is a whole number from 2 to 6, not 7"),
        ({"max_steps": 0}, "max_steps is a whole number from 1"),
        ({"phase_reward": float("inf")}, "phase_reward is a finite number"),
    ],
)
def test_bad_parameters_are_refused_in_words(params: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        pyspiel.load_game("python_phase10", params)

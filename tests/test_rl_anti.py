"""Version 3 of the RL encoding: the Anti-phase card. Its sizes and version 2's layout kept
as a prefix, the older versions' refusals, masks equal to the engine's legal actions over
whole anti-phase games with every action number round-tripping, and going out with the
card: the action, the observation, the MovedDown and the phase reward it costs."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable

import gymnasium as gym
import numpy as np
import pytest

from phase10 import PRESETS, Rules
from phase10.core import ANTI, AntiPhase, Arrangement, Discard, Game, MovedDown, parse_cards
from phase10.rl import (
    EnvCore,
    Layout,
    Phase10Env,
    VectorPhase10,
    phase10_v0,
    phase10_v1,
    phase10_v2,
    phase10_v3,
)
from phase10.rl.encoding import CARDS, DECLARE, HIT, LAY_FEWEST, LAY_MOST

ANTI_RULES = PRESETS["anti-phase"]


def _short(rules: Rules, phases: int) -> Rules:
    numbers = rules.phase_numbers
    return rules.with_options(phases=numbers[:phases])


def test_version_3_sizes_and_version_2_as_its_prefix() -> None:
    """Six actions after version 2's; the observation is version 2's up to its known cards,
    then the Anti-phase block (4 + one per seat), then the known cards with a 51st column."""
    for players in (2, 4, 6):
        v2, v3 = Layout(players, version=2), Layout(players, version=3)
        assert v3.anti_offset == v2.num_actions and v3.num_actions == v2.num_actions + 6
        assert v3.anti_block_offset == v2.known_offset
        assert v3.known_offset == v2.known_offset + 4 + players
        assert v3.observation_size == v3.known_offset + (players - 1) * (CARDS + 1)
        assert all(v3.action_name(a) == v2.action_name(a) for a in range(v2.num_actions))
    assert (Layout(2, version=3).num_actions, Layout(2, version=3).observation_size) == (400, 692)
    names = [Layout(3, version=3).action_name(a) for a in range(394 + 100, 394 + 106)]
    assert names == ["discard A", *(f"discard A>+{r}" for r in range(1, 6))]
    # the same game seen by both versions: version 2's features unchanged, the card's column 0
    rules = _short(PRESETS["masters-variant-2"], 2)
    old = EnvCore(3, rules=rules, version=2)
    new = EnvCore(3, rules=rules, version=3)
    old.reset(seed=3)
    new.reset(seed=3)
    rng = random.Random(3)
    cut, known = old.layout.known_offset, new.layout.known_offset
    for _ in range(120):
        for seat in range(3):
            before, after = old.observe(seat), new.observe(seat)
            assert np.array_equal(before[:cut], after[:cut])
            assert after[cut + 3] == 0  # the rules' anti_phase flag
            assert np.array_equal(
                before[cut:].reshape(2, CARDS), after[known:].reshape(2, CARDS + 1)[:, :CARDS]
            )
        assert np.array_equal(old.mask(), new.mask()[: old.layout.num_actions])
        action = rng.choice(old.legal_actions())
        old.step(action)
        new.step(action)


def test_older_versions_refuse_the_anti_phase_card() -> None:
    makers: list[Callable[[], object]] = [
        lambda: phase10_v0.env(rules=ANTI_RULES),
        lambda: phase10_v1.raw_env(rules=ANTI_RULES),
        lambda: phase10_v2.raw_env(rules=ANTI_RULES),
        lambda: gym.make("phase10/Phase10-v2", rules=ANTI_RULES),
        lambda: VectorPhase10(2, rules=ANTI_RULES, version=2),
        lambda: Layout(2, Rules(anti_phase=AntiPhase.ON), version=2),
    ]
    for make in makers:
        with pytest.raises(ValueError, match="use version 3"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gymnasium's note that v3 exists
            make()
    env = gym.make("phase10/Phase10-v3", rules=ANTI_RULES)
    assert isinstance(env.unwrapped, Phase10Env) and env.unwrapped.core.layout.version == 3
    assert phase10_v3.raw_env(players=2, rules=ANTI_RULES).core.layout.version == 3
    v2 = Layout(2, PRESETS["masters"], version=2)
    with pytest.raises(ValueError, match="no number for discard A"):
        v2.encode(Game(2, rules=PRESETS["masters"], seed=1), Discard(ANTI))


def _engine_mask(core: EnvCore) -> np.ndarray:
    """The engine's legal actions in the encoding (both lay-downs per phase)."""
    layout, game = core.layout, core.game
    mask = np.zeros(layout.num_actions, np.int8)
    for action in game.legal_actions:
        mask[layout.encode(game, action)] = 1
    lays = np.flatnonzero(mask[LAY_MOST:LAY_FEWEST])
    mask[LAY_FEWEST + lays] = 1
    return mask


def test_version_3_masks_are_the_engines_legal_actions_in_anti_phase_games() -> None:
    """Whole one-phase games of the anti-phase preset: the mask is exactly the engine's list,
    every allowed number decodes to an action the engine accepts and encodes back to itself,
    and the observation equals the one built from the view. The players keep the card for
    their last, so that some go out with it."""
    rng = random.Random(7)
    rules = _short(ANTI_RULES, 1)
    met: set[str] = set()
    moved = 0
    for episode in range(4):
        players = 2 + episode % 3
        core = EnvCore(players, rules=rules, max_steps=2000, version=3)
        core.reset(seed=episode)
        layout, game = core.layout, core.game
        while not core.done:
            mask = core.mask()
            assert np.array_equal(mask, _engine_mask(core))
            seat = rng.randrange(players)
            assert np.array_equal(core.observe(seat), layout.observe_view(game.view(seat)))
            legal = [int(a) for a in np.flatnonzero(mask)]
            for action in legal:
                engine = layout.decode(game, action)
                game.check(engine)
                if not LAY_FEWEST <= action < LAY_FEWEST + 10:  # (those encode as "most")
                    assert layout.encode(game, engine) == action
            anti = [a for a in legal if a >= layout.anti_offset]
            met.update("named" if a > layout.anti_offset else "plain" for a in anti)
            # lay down and hit when possible, keep the card to the last (mostly)
            down = [a for a in legal if LAY_MOST <= a < LAY_FEWEST or HIT <= a < layout.save_offset]
            keep = [a for a in legal if a not in anti] if rng.random() < 0.9 else legal
            core.step(rng.choice(down or keep or legal))
            moved += sum(isinstance(event, MovedDown) for event in core.last_events)
    assert met == {"plain", "named"} and moved


def test_going_out_with_the_anti_phase_card() -> None:
    """Player 0 lays down ten cards and goes out with the Anti-phase card on player 1, who
    had phases 1 and 2 done: the observation showed the card held and what each seat
    stood to lose, the action is "discard A>+1", and player 1's phase reward goes down."""
    hands = (
        parse_cards("R3 B3 G3 Y3 R5 B5 G5 Y5 W A"),
        parse_cards("R1 R2 R4 R6 R8 B9 B10 B11 B12 G1"),
        parse_cards("G2 G4 G6 G8 G9 Y10 Y11 Y12 Y1 Y2"),
    )
    arrangement = Arrangement(hands, tuple(parse_cards("B7")), tuple(parse_cards("G3")), (1, 3, 1))
    game = Game(3, rules=ANTI_RULES, seed=1, dealer=2, arrangement=arrangement)
    core = EnvCore(3, rules=ANTI_RULES, version=3, phase_reward=0.5)
    core.load(game)
    layout = core.layout
    at = layout.anti_block_offset
    for declared in (1, 10, 1):  # declare = "deal": each declares a phase first
        core.step(DECLARE + declared - 1)
    core.step(0)  # draws the G3
    core.step(LAY_MOST)  # lays the two sets with every card but the Anti-phase card
    legal = core.legal_actions()
    assert [layout.action_name(a) for a in legal] == ["discard A>+1", "discard A>+2"]
    assert layout.decode(game, legal[0]) == Discard(ANTI, 1)
    seen = [core.observe(seat)[at : at + 7].tolist() for seat in range(3)]
    # held, on top, in the pile, the rule; then what seats +0, +1, +2 stand to lose / 10
    assert seen[0] == pytest.approx([1, 0, 0, 1, 0.1, 0.2, 0])
    assert seen[1] == pytest.approx([0, 0, 0, 1, 0.2, 0, 0.1])  # (never the others' card)
    rewards = core.step(legal[0])
    moved = [event for event in core.last_events if isinstance(event, MovedDown)]
    assert moved == [MovedDown(1, 2, 0)]
    assert rewards == [0.5, -0.5, 0.0]  # phase 1 done; phase 2 lost
    assert [len(seat.completed) for seat in game.seats] == [1, 1, 0]

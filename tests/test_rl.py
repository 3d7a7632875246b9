"""The reinforcement-learning environments: the official API checks of PettingZoo,
Gymnasium and OpenSpiel, masks against the engine, observations against the views,
golden playthroughs, seeding, rewards and the vectorised batch."""

from __future__ import annotations

import json
import os
import random
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from phase10 import PRESETS, GivingUp, Rules
from phase10.rl import (
    EnvCore,
    IllegalActionError,
    Layout,
    Phase10Env,
    VectorPhase10,
    phase10_v0,
    phase10_v1,
    phase10_v2,
    phase10_v3,
)
from phase10.rl.encoding import CARDS, LAY_FEWEST, LAY_MOST

GOLDEN = Path(__file__).parent / "rl_golden"
SHORT = Rules(phases=(1,))


def short(name: str, phases: int = 1) -> Rules:
    """A preset cut to its first phase(s), so that games end quickly."""
    rules = PRESETS[name]
    numbers = rules.phase_numbers
    return rules.with_options(phases=numbers[:phases])


#: the version of the encoding each preset's tests use: 2 where the rules need it
NEEDS_V2 = frozenset({"masters", "masters-12-wilds", "masters-variant-1", "masters-variant-2"})
#: the presets only version 3 encodes (the Anti-phase card)
NEEDS_V3 = frozenset({"anti-phase"})


# -- the official checks --------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "preset"),
    [(2, "official"), (3, "masters-variant-2"), (5, "floating"), (3, "anti-phase")],
)
def test_pettingzoo_api_test(players: int, preset: str) -> None:
    module = phase10_v3 if preset in NEEDS_V3 else phase10_v2 if preset in NEEDS_V2 else phase10_v0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations draw PettingZoo's generic notes
        api_test(module.env(players=players, rules=short(preset, 2)), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: phase10_v0.env(players=4), num_cycles=100)


def test_gymnasium_check_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(Phase10Env(players=3, opponents="greedy", rules=SHORT))
        check_env(gym.make("phase10/Phase10-v0", opponents=["random"]).unwrapped)
        check_env(gym.make("phase10/Phase10-v2", rules=short("masters")).unwrapped)


# -- masks, actions and observations against the engine -------------------------------


def _engine_mask(core: EnvCore) -> np.ndarray:
    """The engine's legal actions mapped into the encoding (both lay-downs per phase)."""
    layout, game = core.layout, core.game
    mask = np.zeros(layout.num_actions, np.int8)
    for action in game.legal_actions:
        mask[layout.encode(game, action)] = 1
    lays = np.flatnonzero(mask[LAY_MOST:LAY_FEWEST])
    mask[LAY_FEWEST + lays] = 1
    return mask


@pytest.mark.parametrize(
    "preset",
    [
        "official",
        "masters",
        "masters-variant-2",
        "arkansas",
        "floating",
        "wild-deal-up",
        "skip-next",
        "natural-per-phase",
        "ten-hands",
        "island-paradise",
        "no-reshuffle",
        "end-immediately",
    ],
)
def test_masks_are_the_engines_legal_actions(preset: str) -> None:
    """Whole short games: the mask is exactly the engine's list, every allowed action is
    accepted by ``game.check``, and the observation equals the one built from the view."""
    rng = random.Random(preset)
    version = 2 if preset in NEEDS_V2 else 0
    for episode in range(3 if version == 2 else 6):  # save piles make hands longer
        players = 2 + episode % 5
        core = EnvCore(players, rules=short(preset), max_steps=1500, version=version)
        core.reset(seed=episode)
        while not core.done:
            mask = core.mask()
            assert np.array_equal(mask, _engine_mask(core))
            seat = rng.randrange(players)
            view = core.game.view(seat)
            assert np.array_equal(core.observe(seat), core.layout.observe_view(view))
            legal = np.flatnonzero(mask)
            for action in legal:
                core.game.check(core.layout.decode(core.game, int(action)))
            core.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_masks_never_allow_an_illegal_action(players: int) -> None:
    """Many random episodes (capped short): every action the mask allows is legal."""
    rng = random.Random(players)
    presets = ["official", "masters", "floating", "skip-next", "wild-deal-up", "arkansas"]
    for episode in range(400):
        rules = short(presets[episode % len(presets)])
        core = EnvCore(players, rules=rules, max_steps=90, version=2)  # its masks: any version's
        core.reset(seed=episode)
        while not core.done:
            legal = np.flatnonzero(core.mask())
            assert len(legal) > 0
            action = int(legal[rng.randrange(len(legal))])
            core.game.check(core.layout.decode(core.game, action))
            core.step(action)


def test_lay_down_actions_lay_most_and_fewest() -> None:
    core = EnvCore(2, rules=Rules(phases=(2,)))
    for seed in range(400):
        core.reset(seed=seed)
        rng = random.Random(seed)
        while not core.done and core.steps < 300:
            mask = core.mask()
            if mask[LAY_MOST + 0]:
                most = core.layout.decode(core.game, LAY_MOST)
                fewest = core.layout.decode(core.game, LAY_FEWEST)
                assert len(most.cards) >= len(fewest.cards) >= 7  # type: ignore[attr-defined]
                return
            legal = np.flatnonzero(mask)
            core.step(int(legal[rng.randrange(len(legal))]))
    pytest.fail("no lay-down met")


# -- golden playthroughs ----------------------------------------------------------------

GOLDEN_CASES = {
    "official_2p": {"players": 2, "rules": "official", "phases": 1, "seed": 11},
    # versions 0 and 1 have no save pile: the masters preset without it
    "masters_3p": {
        "players": 3,
        "rules": "masters",
        "options": {"save_pile": "off"},
        "phases": 2,
        "seed": 12,
    },
    "masters_variant_2_3p": {"players": 3, "rules": "masters-variant-2", "phases": 2, "seed": 15},
    # (a seed whose game discards the Anti-phase card and goes out with it)
    "anti_phase_3p": {"players": 3, "rules": "anti-phase", "phases": 2, "seed": 53},
    "floating_4p": {"players": 4, "rules": "floating", "phases": 1, "seed": 13},
    "skip_next_6p": {"players": 6, "rules": "skip-next", "phases": 1, "seed": 14},
}


def _playthrough(case: dict[str, Any], steps: int = 160, version: int = 0) -> dict[str, Any]:
    rules = PRESETS[case["rules"]].with_options(**case.get("options", {}))
    numbers = rules.phase_numbers
    module = (phase10_v0, phase10_v1, phase10_v2, phase10_v3)[version]
    env = module.raw_env(
        players=case["players"], rules=rules.with_options(phases=numbers[: case["phases"]])
    )
    env.reset(seed=case["seed"])
    rng = random.Random(case["seed"])
    record: list[dict[str, Any]] = []
    for agent in env.agent_iter(steps):
        obs, reward, terminated, truncated, _ = env.last()
        entry: dict[str, Any] = {
            "agent": agent,
            "reward": reward,
            "observation": {
                str(i): round(float(obs["observation"][i]), 6)
                for i in np.flatnonzero(obs["observation"])
            },
            "legal": [int(a) for a in np.flatnonzero(obs["action_mask"])],
        }
        if terminated or truncated:
            env.step(None)
        else:
            action = rng.choice(entry["legal"])
            entry["action"] = action
            entry["text"] = env.core.describe(action)
            env.step(action)
        record.append(entry)
    return {"case": case, "steps": record}


@pytest.mark.parametrize(
    ("name", "version"),
    [(name, 0) for name in sorted(GOLDEN_CASES) if "variant" not in name and "anti" not in name]
    + [(name, 1) for name in ("masters_3p", "official_2p")]
    + [("masters_variant_2_3p", 2), ("anti_phase_3p", 3)],
)
def test_golden_playthroughs(name: str, version: int) -> None:
    """Seeded action sequences with every observation, mask and reward: any change in the
    environments' behaviour shows here. ``PHASE10_REGENERATE_GOLDEN=1`` rewrites them
    (version 0 files are named by case; later versions' end in ``_v1``, ``_v2``, ``_v3``)."""
    path = GOLDEN / f"{name}{f'_v{version}' if version else ''}.json"
    played = _playthrough(GOLDEN_CASES[name], version=version)
    if os.environ.get("PHASE10_REGENERATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(played, separators=(",", ":")) + "\n")
    expected = json.loads(path.read_text())
    assert expected["case"] == played["case"]
    for index, (want, got) in enumerate(zip(expected["steps"], played["steps"], strict=True)):
        assert want == got, f"{name}: step {index} differs"


# -- seeding, rewards, illegal actions ---------------------------------------------------


def test_reset_reseeds_in_place_and_keeps_settings() -> None:
    env = phase10_v0.raw_env(players=3, rules=SHORT, max_steps=50)
    env.reset(seed=5)
    first = env.observe(env.agent_selection)["observation"].copy()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    env.reset(seed=5)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], first)
    assert env.core.rules == SHORT and env.core.max_steps == 50 and env.num_agents == 3
    env.reset(seed=6)
    assert not np.array_equal(env.observe(env.agent_selection)["observation"], first)


def test_rewards_at_the_end_and_the_step_cap() -> None:
    core = EnvCore(3, rules=SHORT, phase_reward=0.25)
    core.reset(seed=2)
    rng = random.Random(2)
    totals = [0.0, 0.0, 0.0]
    while not core.done:
        legal = core.legal_actions()
        for seat, reward in enumerate(core.step(rng.choice(legal))):
            totals[seat] += reward
    winners = core.winners()
    assert core.terminated and len(winners) == 1
    completed = [len(seat.completed) for seat in core.game.seats]
    for seat in range(3):
        end = 1.0 if seat in winners else -1.0
        assert totals[seat] == pytest.approx(end + 0.25 * completed[seat])
    capped = EnvCore(2, max_steps=10)
    capped.reset(seed=1)
    for _ in range(10):
        capped.step(capped.legal_actions()[0])
    assert capped.truncated and not capped.terminated and capped.mask().sum() == 0


def test_illegal_actions() -> None:
    raw = phase10_v0.raw_env(players=2)
    raw.reset(seed=1)
    with pytest.raises(IllegalActionError):
        raw.step(raw.core.layout.num_actions - 1)
    wrapped = phase10_v0.env(players=2)
    wrapped.reset(seed=1)
    wrapped.step(wrapped.action_space(wrapped.agent_selection).n - 1)
    assert all(wrapped.terminations.values())
    assert min(wrapped.rewards.values()) == -1
    env = Phase10Env(opponents="random")
    env.reset(seed=1)
    obs, reward, terminated, _truncated, info = env.step(env.action_space.n - 1)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert np.flatnonzero(obs["action_mask"]).tolist() == [0]  # a placeholder, never played


def test_gym_env_plays_a_whole_game_against_bots() -> None:
    env = Phase10Env(players=3, opponents=["greedy", "random"], rules=SHORT, seat=None)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    done = False
    while not done:
        assert env.core.current == info["seat"]
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert info["winners"].sum() == 1 and reward == (1.0 if info["winners"][env.seat] else -1.0)


def test_vector_batch_is_seeded_and_restarts_games() -> None:
    def run(seed: int) -> tuple[np.ndarray, int]:
        vec = VectorPhase10(4, players=2, rules=SHORT, max_steps=400)
        vec.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total = np.zeros(2)
        ended = 0
        for _ in range(600):
            actions = vec.random_actions(rng)
            assert vec.masks[np.arange(4), actions].all()
            _obs, _masks, _agents, rewards, terminated, truncated = vec.step(actions)
            total += rewards.sum(axis=0)
            ended += int(terminated.sum() + truncated.sum())
        return total, ended

    first, ended = run(3)
    assert ended > 0 and np.array_equal(first, run(3)[0])


def test_layout_sizes() -> None:
    assert (Layout(2).num_actions, Layout(4).num_actions, Layout(6).num_actions) == (293, 493, 693)
    island = Layout(6, PRESETS["island-paradise"])
    groups = max(len(phase.groups) for phase in PRESETS["island-paradise"].phase_sequence)
    assert island.groups_per_phase == groups and island.num_actions == 93 + 50 * 6 * groups
    with pytest.raises(ValueError):
        Layout(7)


# -- version 2: the save pile and giving up ----------------------------------------------


def test_version_2_sizes_and_older_versions_refuse_save_piles_and_giving_up() -> None:
    v2 = Layout(2, version=2)  # version 1's actions and observation blocks, then its own
    assert (v2.save_offset, v2.num_actions) == (Layout(2).num_actions, 293 + 101)
    assert v2.observation_size == Layout(2, known_cards=True).observation_size + 54 * 2 + 7
    assert Layout(4, version=2).observation_size == 980 + 54 * 4 + 7
    for rules in (PRESETS["masters"], Rules(give_up=GivingUp.FORFEIT)):
        for make in (
            lambda rules=rules: phase10_v0.env(rules=rules),
            lambda rules=rules: phase10_v1.raw_env(rules=rules),
            lambda rules=rules: gym.make("phase10/Phase10-v1", rules=rules),
            lambda rules=rules: VectorPhase10(2, rules=rules),
        ):
            with pytest.raises(ValueError, match="use version 2"), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # gymnasium's note that v2 exists
                make()
    observations, masks, _ = VectorPhase10(2, rules=short("masters"), version=2).reset(seed=0)
    assert (observations.shape, masks.shape) == ((2, 685), (2, 394))
    with pytest.raises(ValueError, match="versions"):
        Layout(2, version=4)
    with pytest.raises(ValueError, match="known-cards"):
        Layout(2, known_cards=True, version=0)


def test_version_2_actions_round_trip_and_saving_shows_in_the_observation() -> None:
    """Masters Variant #2: every save, take-saved and give-up number decodes to the engine's
    action and encodes back; a save shows on the saver's own pile and, as a count only,
    to the others."""
    rules = short("masters-variant-2", 2)
    core = EnvCore(3, rules=rules, max_steps=3000, version=2)
    core.reset(seed=21)
    layout, game = core.layout, core.game
    rng = random.Random(21)
    met: set[str] = set()
    own = layout.save_pile_offset  # the own save pile's counts
    sizes = own + CARDS  # then per seat: size / 10, saved this hand, gave up, refill
    while not core.done and len(met) < 3:
        legal = core.legal_actions()
        new = [a for a in legal if a >= layout.save_offset]
        for action in new:
            engine = layout.decode(game, action)
            assert layout.encode(game, engine) == action
            assert layout.action_name(action) == str(engine)
        if not new or rng.random() < 0.5:
            core.step(rng.choice(legal))
            continue
        action = rng.choice(new)
        me, name = core.current, layout.action_name(action)
        met.add(name.split()[0])
        before = [core.observe(seat).copy() for seat in range(3)]
        core.step(action)
        after = [core.observe(seat) for seat in range(3)]
        if name.startswith("save"):
            card = action - layout.save_offset
            assert after[me][own + card] == before[me][own + card] + 1
            assert after[me][sizes] == before[me][sizes] + 0.1 and after[me][sizes + 1] == 1
            for other in (me + 1) % 3, (me + 2) % 3:  # private: the size, never the card
                at = sizes + (me - other) % 3 * 4
                assert after[other][at] == pytest.approx(before[other][at] + 0.1)
                assert np.array_equal(
                    after[other][own : own + CARDS], before[other][own : own + CARDS]
                )
        elif name == "give-up":
            assert after[me][sizes + 2] == 1 and after[me][sizes + 3] == 1  # gave up, refill
    assert met == {"save", "take-saved", "give-up"}


def test_known_cards_follow_saves() -> None:
    """A card taken from the discard pile stays known until it is publicly saved; a card
    saved unseen may have been it, so what was known of that player is forgotten; a card
    taken back from a public save pile is known."""
    from phase10.bots.knowledge import HeldTracker
    from phase10.core import Card, Saved, TookDiscard, TookSaved

    r7, b2 = Card.parse("R7"), Card.parse("B2")
    tracker = HeldTracker(2)
    for event in (TookDiscard(0, r7), TookDiscard(0, b2), Saved(0, r7, public=True)):
        tracker.feed(event)
    assert tracker.held(0) == {b2: 1}
    tracker.feed(Saved(0, r7))  # private: the others do not see which card
    assert tracker.held(0) == {}
    tracker.feed(TookSaved(1, r7, public=True))
    assert tracker.held(1) == {r7: 1}

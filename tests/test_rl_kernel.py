"""RL stepping in the compiled kernel against the Python path (docs/rl.md, "Speed").

The kernel works out the masks, observations, action decoding and rewards itself; these
tests step the same seeded games both ways and require the same masks, the same
observations for every seat (float32 bit for bit), the same rewards and the same games,
for 2 and 4 players and every version of the encoding; the batch the same way; and the
same results again with the kernel turned off (``PHASE10_KERNEL=off``), where everything
runs in Python.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings

import numpy as np
import pytest

import phase10.kernel as kernel
import phase10.kernel.rl as kernel_rl
from phase10.core import PRESETS, Rules
from phase10.core.snapshots import snapshot
from phase10.kernel import KernelFallbackWarning
from phase10.kernel.convert import state_of
from phase10.rl import EnvCore, Phase10Env, VectorPhase10, phase10_v3
from phase10.rl.core import IllegalActionError

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")


def short(name: str, phases: int = 1, **options: str) -> Rules:
    """A preset cut to its first phase(s), so that games end within the test."""
    rules = PRESETS[name]
    numbers = rules.phase_numbers
    return rules.with_options(phases=numbers[:phases], **options)


#: (rules, the encoding versions that can play them): every kind of action and block
CASES: tuple[tuple[Rules, tuple[int, ...]], ...] = (
    (short("official", 2), (0, 1, 2, 3)),
    (short("official", 1, skip_target="next", going_out="discard"), (0, 1)),
    (short("edition-1", 2, wild_deal_up="dealer_chooses", natural_min="phase"), (1, 3)),
    (short("official", 3, phase_order="any", declare="deal"), (1,)),
    (short("official", 3, phase_order="any", end_when="immediately"), (3,)),
    (short("official", 2, advance="all", empty_draw_pile="end_hand"), (2,)),
    (short("masters-variant-2", 2, save_pile="public"), (2, 3)),
    (short("masters", 2, saved_score="penalty", give_up="forfeit"), (3,)),
    (short("anti-phase", 2), (3,)),
)


def _step_both(players: int, rules: Rules, version: int, seed: int, steps: int) -> int:
    """Step a kernel core and a Python core with the same random actions; compare
    everything after each step. Returns how many games ended."""
    fast = EnvCore(players, rules=rules, version=version, phase_reward=0.25, max_steps=300)
    slow = EnvCore(
        players, rules=rules, version=version, phase_reward=0.25, max_steps=300, kernel=False
    )
    assert fast.uses_kernel and not slow.uses_kernel
    fast.reset(seed)
    slow.reset(seed)
    rng = random.Random(seed)
    ended = 0
    for step in range(steps):
        where = f"{players} players, version {version}, {rules.phases}, step {step}"
        if fast.done:
            assert slow.done and (fast.terminated, fast.truncated) == (
                slow.terminated,
                slow.truncated,
            )
            assert list(fast.winners()) == list(slow.winners()), where
            assert state_of(fast.game) == state_of(slow.game), where
            ended += 1
            fast.reset()
            slow.reset()
        assert fast.current == slow.current, where
        assert np.array_equal(fast.mask(), slow.mask()), where
        for seat in range(players):  # bit for bit
            assert fast.observe(seat).tobytes() == slow.observe(seat).tobytes(), where
        legal = slow.legal_actions()
        action = legal[rng.randrange(len(legal))]
        assert fast.step(action) == slow.step(action), where
        assert fast.steps == slow.steps
    assert state_of(fast.game) == state_of(slow.game)  # the engine game, replayed
    return ended


@needs_kernel
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(("rules", "versions"), CASES)
def test_the_kernel_steps_as_the_python_path(
    players: int, rules: Rules, versions: tuple[int, ...]
) -> None:
    ended = sum(
        _step_both(players, rules, version, seed=players * 10 + version, steps=350)
        for version in versions
    )
    assert ended >= 1  # the ends of games are compared too


def _run_vector(kernel_on: bool | None, seed: int) -> list[bytes]:
    vec = VectorPhase10(
        6, players=3, rules=short("official"), max_steps=250, version=3, kernel=kernel_on
    )
    arrays = list(vec.reset(seed=seed))
    rng = np.random.default_rng(seed)
    out = [array.tobytes() for array in arrays]
    for _ in range(400):
        actions = vec.random_actions(rng)
        assert vec.masks[np.arange(6), actions].all()
        out.extend(array.tobytes() for array in (actions, *vec.step(actions)))
    assert vec.episodes > 0
    return out


@needs_kernel
def test_the_batch_steps_as_the_python_batch() -> None:
    batched = _run_vector(None, 5)
    assert batched == _run_vector(False, 5)


@needs_kernel
def test_illegal_actions_are_refused_by_the_kernel_path() -> None:
    core = EnvCore(4, version=3)
    core.reset(seed=2)
    with pytest.raises(IllegalActionError, match="not legal now"):
        core.step(40)
    with pytest.raises(IllegalActionError):
        core.step(10**30)
    vec = VectorPhase10(3, players=2, rules=short("official"))
    vec.reset(seed=1)
    actions = vec.random_actions(np.random.default_rng(1))
    actions[1] = 5  # a lay-down nobody may make yet
    with pytest.raises(IllegalActionError, match="game 1"):
        vec.step(actions)


@pytest.mark.parametrize("kernel", [None, False])
def test_a_refused_batch_moves_no_game(kernel: bool | None) -> None:
    """The batch checks every action before it steps any game: one illegal action leaves
    every game where it was, and the same batch with it mended steps as it would have."""
    vec = VectorPhase10(4, players=2, rules=short("official"), kernel=kernel)
    twin = VectorPhase10(4, players=2, rules=short("official"), kernel=kernel)
    vec.reset(seed=3)
    twin.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        actions = vec.random_actions(rng)
        before = (vec.observations.copy(), vec.masks.copy(), vec.agents.copy())
        wrong = actions.copy()
        wrong[2] = int(np.flatnonzero(vec.masks[2] == 0)[0])
        with pytest.raises(IllegalActionError, match=r"game 2: action .* is not legal now"):
            vec.step(wrong)
        wrong[2] = -1
        with pytest.raises(IllegalActionError, match="game 2: -1 is not an action number"):
            vec.step(wrong)
        assert all(
            np.array_equal(a, b)
            for a, b in zip(before, (vec.observations, vec.masks, vec.agents), strict=True)
        )
        stepped, again = vec.step(actions), twin.step(actions)
        assert all(np.array_equal(a, b) for a, b in zip(stepped, again, strict=True))


def test_the_settings_and_seeds_are_checked_as_given() -> None:
    import phase10

    with pytest.raises(TypeError, match="rules must be a Rules object"):
        EnvCore(2, rules="official")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="players is a whole number of seats, not '2'"):
        EnvCore("2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"players is a whole number of seats, not 2\.0"):
        VectorPhase10(2, players=2.0)  # type: ignore[arg-type]
    for reward in (float("nan"), float("inf"), True, "1"):
        with pytest.raises(ValueError, match="phase_reward is a finite number"):
            EnvCore(2, phase_reward=reward)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="kernel is True, False or None"):
        EnvCore(2, kernel="off")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="known_cards=False is version 0"):
        VectorPhase10(2, version=3, known_cards=False)
    with pytest.raises(RuntimeError, match="call reset"):
        VectorPhase10(2).step([0, 0])
    numpy_made = EnvCore(np.int64(2), phase_reward=np.float32(0.5), max_steps=np.int64(99))
    assert (numpy_made.players, numpy_made.max_steps) == (2, 99)
    core = EnvCore(2)
    for seed, error in ((-3, ValueError), ("x", TypeError), (1.5, TypeError), (True, TypeError)):
        with pytest.raises(error, match="a seed is"):
            core.reset(seed)  # type: ignore[arg-type]
    core.reset(np.int64(4))
    twin = EnvCore(2)
    twin.reset(4)
    assert core.legal_actions() == twin.legal_actions()
    assert snapshot(core.game) == snapshot(twin.game)
    with pytest.raises(phase10.IllegalActionError) as refused:  # the engine's, too
        core.step(int(np.flatnonzero(core.mask() == 0)[0]))
    assert refused.value.code is phase10.Refusal.NOT_IN_MASK


@needs_kernel
def test_engine_actions_and_copies_keep_the_kernel_in_step() -> None:
    core = EnvCore(3, rules=short("official"), version=1)
    twin = EnvCore(3, rules=short("official"), version=1, kernel=False)
    core.reset(seed=8)
    twin.reset(seed=8)
    rng = random.Random(8)
    for step in range(120):
        if core.done:
            break
        legal = twin.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if step % 3 == 0:  # as an engine action (a bot's, say)
            engine = twin.layout.decode(twin.game, action)
            assert core.apply(engine) == twin.apply(engine)
        else:
            assert core.step(action) == twin.step(action)
        assert np.array_equal(core.mask(), twin.mask())
    copy = core.copy()
    assert copy.uses_kernel and state_of(copy.game) == state_of(core.game)
    assert copy.observe(0).tobytes() == twin.observe(0).tobytes()
    wide = np.zeros(core.layout.observation_size)  # float64: the Python encoder writes it
    assert np.array_equal(core.observe(1, wide), twin.observe(1, np.zeros_like(wide)))
    assert np.array_equal(core.mask(np.zeros(core.layout.num_actions, np.int64)), twin.mask())


def test_without_the_kernel_the_python_path_runs_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(kernel_rl, "available", lambda: False)
    monkeypatch.setattr(kernel_rl, "load_error", lambda: "turned off for a test")
    monkeypatch.setattr(kernel_rl, "_warned", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        core = EnvCore(2)
        EnvCore(2)
    assert not core.uses_kernel
    assert [str(w.message) for w in caught] == [
        "phase10.rl: stepping in the Python engine: turned off for a test"
    ]
    assert [w.category for w in caught] == [KernelFallbackWarning]
    with pytest.raises(RuntimeError, match="not available"):
        EnvCore(2, kernel=True)


_DIGEST = """
import hashlib, sys
sys.path.insert(0, {tests!r})
from test_rl_kernel import _run_vector
print(hashlib.sha256(b"".join(_run_vector(None, 5))).hexdigest())
"""


@needs_kernel
def test_the_kernel_turned_off_gives_the_same_results() -> None:
    code = _DIGEST.format(tests=os.path.dirname(__file__))
    env = {**os.environ, "PHASE10_KERNEL": "off", "PYTHONWARNINGS": "ignore"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    import hashlib

    assert done.stdout.strip() == hashlib.sha256(b"".join(_run_vector(None, 5))).hexdigest()


def _aec_stream(kernel_on: bool | None) -> list[bytes]:
    env = phase10_v3.env(players=4, rules=short("anti-phase"), kernel=kernel_on)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    out: list[bytes] = []
    for _ in range(600):
        obs, reward, terminated, truncated, info = env.last()
        out += [
            obs["observation"].tobytes(),
            obs["action_mask"].tobytes(),
            info["winners"].tobytes(),
        ]
        out.append(repr((env.agent_selection, reward, terminated, truncated)).encode())
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset()
                out.append(b"game over")
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


def _gym_stream(kernel_on: bool | None) -> list[bytes]:
    env = Phase10Env(players=3, rules=short("official"), version=3, kernel=kernel_on)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    out: list[bytes] = []
    for _ in range(150):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        out += [obs["observation"].tobytes(), obs["action_mask"].tobytes()]
        out.append(repr((reward, terminated, truncated, info["seat"])).encode())
        if terminated or truncated:
            obs, _ = env.reset()
            out.append(b"game over")
    return out


@needs_kernel
def test_the_pettingzoo_and_gymnasium_environments_are_the_same_both_ways() -> None:
    for stream in (_aec_stream, _gym_stream):
        fast = stream(None)
        assert b"game over" in fast and fast == stream(False)


@needs_kernel
def test_the_stepper_refuses_games_its_version_cannot_number() -> None:
    from phase10.core import Game
    from phase10.kernel.rl import load_position, new_kernel, rl_stepper

    rules = PRESETS["masters"]  # a save pile: version 2 on
    game = new_kernel(2, rules)
    load_position(game, Game(2, rules=rules, seed=1))
    old = rl_stepper(2, rules, version=1, groups=2, phase_reward=0.0, required=True)
    assert old is not None
    with pytest.raises(ValueError, match="cannot number"):
        old.start(game)
    new = rl_stepper(2, rules, version=2, groups=2, phase_reward=0.0, required=True)
    assert new is not None
    new.start(game)
    mask = np.zeros(new.sizes[0], np.int8)
    new.mask(game, mask)
    assert mask.any()


@needs_kernel
def test_a_kernel_built_before_rl_stepping_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    from phase10.kernel import _kernel

    monkeypatch.delattr(_kernel, "RLStepper")
    with pytest.warns(KernelFallbackWarning, match="rebuild it"):
        core = EnvCore(2)
    assert not core.uses_kernel

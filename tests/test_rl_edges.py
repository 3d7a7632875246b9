"""The environments at their edges, as a researcher meets them: actions of the wrong type,
a step cap too small to reach the learner, frames of one size for a video, the human
render mode, copies, pickling, closing bot programs, and the masks after an illegal move.
"""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from phase10 import Rules
from phase10.kernel import available as kernel_available
from phase10.rl import Phase10Env, VectorPhase10, phase10_v3

SHORT = Rules(phases=(1,))
ROOT = Path(__file__).resolve().parent.parent
KERNELS = [False, True] if kernel_available() else [False]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("action", ["0", True, 2.7, None, np.float64(2.0), np.array([2])])
def test_an_action_that_is_no_integer_is_refused_in_words(action: object, kernel: bool) -> None:
    env = Phase10Env(rules=SHORT, kernel=kernel)
    env.reset(seed=1)
    before = env.core.game.actions[:]
    with pytest.raises(TypeError, match="an action is an integer"):
        env.step(action)  # type: ignore[arg-type]
    assert env.core.game.actions == before and not env.core.done
    raw = phase10_v3.raw_env(rules=SHORT, kernel=kernel)
    raw.reset(seed=1)
    refusal = "must act: None is only for a finished agent" if action is None else "an action is"
    with pytest.raises((TypeError, ValueError), match=refusal):
        raw.step(action)  # type: ignore[arg-type]
    # wrapped as users get it: as PettingZoo's own wrappers refuse it, but a bool, which
    # they would read as 0 or 1 and then fail on in numpy's words
    wrapped = phase10_v3.env(rules=SHORT, kernel=kernel)
    wrapped.reset(seed=1)
    kind, words = (TypeError, "an action is an integer") if action is True else (
        AssertionError, "action is not in action space")  # fmt: skip
    with pytest.raises(kind, match=words):
        wrapped.step(action)  # type: ignore[arg-type]
    assert wrapped.unwrapped.core.game.actions == before


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_batch_refuses_float_actions_and_a_wrong_count_before_stepping_any(
    kernel: bool,
) -> None:
    vec = VectorPhase10(3, rules=SHORT, kernel=kernel)
    obs, _masks, _agents = vec.reset(seed=2)
    before = obs.copy()
    with pytest.raises(TypeError, match="actions are integers"):
        vec.step(np.zeros(3))
    with pytest.raises(TypeError, match="not bool"):
        vec.step(np.ones(3, np.bool_))
    with pytest.raises(ValueError, match=r"one action per game \(3\), not \(2,\)"):
        vec.step(np.zeros(2, np.int64))
    assert np.array_equal(vec.observations, before)
    vec.step(vec.random_actions(np.random.default_rng(0)))  # integers still step


@pytest.mark.parametrize("kernel", KERNELS)
def test_numpy_integers_and_0_d_arrays_are_actions(kernel: bool) -> None:
    env = Phase10Env(rules=SHORT, kernel=kernel)
    obs, _ = env.reset(seed=1)
    legal = np.flatnonzero(obs["action_mask"])
    env.step(np.int32(legal[0]))
    obs = env.step(np.array(np.flatnonzero(env.action_masks())[0]))[0]
    assert obs["action_mask"].any()


def test_a_step_cap_the_bots_use_up_before_the_learner_moves_is_refused() -> None:
    env = gym.make("phase10/Phase10-v3", max_steps=1, seat=1, opponents="greedy")
    with pytest.raises(ValueError, match="max_steps=1 ran out before the learner's first"):
        env.reset(seed=0)


def test_step_before_reset_says_so() -> None:
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        Phase10Env(seat=1).step(0)


@pytest.mark.parametrize("players", [2, 4])
def test_rgb_frames_of_a_game_all_have_one_size(players: int) -> None:
    """A video (Gymnasium's RecordVideo, Stable-Baselines3's VecVideoRecorder) needs every
    frame of the same size; the table grows and shrinks as groups are laid down."""
    env = Phase10Env(players, rules=Rules(phases=(1, 2)), render_mode="rgb_array")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    shapes = {env.render().shape}
    lines = set()
    for _ in range(400):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, terminated, truncated, _ = env.step(action)
        shapes.add(env.render().shape)
        lines.add(len(env.core.game.melds))
        if terminated or truncated:
            obs, _ = env.reset()
    assert len(shapes) == 1 and len(lines) > 1, (shapes, lines)
    raw = phase10_v3.raw_env(players=players, render_mode="rgb_array")
    raw.reset(seed=3)
    assert raw.render().shape[2] == 3


def test_human_mode_draws_on_reset_and_step_and_no_mode_warns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = Phase10Env(rules=SHORT, render_mode="human")
    obs, _ = env.reset(seed=1)
    assert "stage draw" in capsys.readouterr().out
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "hand 1" in capsys.readouterr().out
    raw = phase10_v3.raw_env(rules=SHORT, render_mode="human")
    raw.reset(seed=1)
    assert "hand 1" in capsys.readouterr().out
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert Phase10Env(rules=SHORT).render() is None
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert phase10_v3.raw_env(rules=SHORT).render() is None


@pytest.mark.parametrize("kernel", KERNELS)
def test_deep_copies_go_on_alike_and_apart(kernel: bool) -> None:
    env = Phase10Env(rules=SHORT, kernel=kernel)
    obs, _ = env.reset(seed=4)
    twin = copy.deepcopy(env)
    action = int(np.flatnonzero(obs["action_mask"])[0])
    first, second = env.step(action), twin.step(action)
    assert np.array_equal(first[0]["observation"], second[0]["observation"])
    assert first[1:4] == second[1:4]
    twin.step(int(np.flatnonzero(second[0]["action_mask"])[-1]))
    assert env.core.game.actions != twin.core.game.actions  # (the original stayed put)
    aec = phase10_v3.env(rules=SHORT, kernel=kernel)
    aec.reset(seed=4)
    copied = copy.deepcopy(aec)
    assert np.array_equal(aec.last()[0]["observation"], copied.last()[0]["observation"])


def test_pickling_needs_the_python_path_and_says_so() -> None:
    env = Phase10Env(rules=SHORT, kernel=False)
    env.reset(seed=5)
    back = pickle.loads(pickle.dumps(env))
    assert back.core.game.actions == env.core.game.actions
    if kernel_available():
        with pytest.raises(TypeError, match="make it with kernel=False to pickle it"):
            pickle.dumps(Phase10Env(rules=SHORT, kernel=True))


def test_close_ends_the_opponents_programs() -> None:
    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'}"
    env = Phase10Env(rules=SHORT, opponents=bot, seat=1)
    env.reset(seed=6)
    programs = [player for player in env._opponents.values()]
    processes = [p._process for p in programs if getattr(p, "_process", None) is not None]
    assert processes, "the opponent's program did not start"
    env.close()
    for process in processes:
        assert process.wait(timeout=10) is not None
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step(0)


def test_after_an_illegal_move_nobody_has_a_legal_action() -> None:
    env = phase10_v3.env(rules=SHORT)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    env.step(illegal)
    seen = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        assert terminated or truncated
        assert not obs["action_mask"].any()
        env.step(None)
        seen += 1
    assert seen == 2


def test_the_gymnasium_ids_work_in_a_fresh_interpreter_with_the_module_named() -> None:
    code = (
        "import gymnasium as gym\n"
        "env = gym.make('phase10.rl:phase10/Phase10-v3', players=2)\n"
        "obs, info = env.reset(seed=0)\n"
        "print(obs['observation'].shape)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(692,)"


@pytest.mark.parametrize("module", ["gymnasium", "pettingzoo"])
def test_without_the_rl_extra_the_import_says_which_extra_to_install(module: str) -> None:
    code = (
        f"import sys; sys.modules[{module!r}] = None\n"  # (as if it were not installed)
        "try:\n    import phase10.rl\n"
        "except ModuleNotFoundError as error:\n    print(error.name, '|', error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    name, said = done.stdout.strip().split(" | ")
    assert name == module
    assert said == (
        f"phase10.rl needs the 'rl' extra ({module} is not installed): pip install 'phase10[rl]'"
    )


def test_frames_keep_their_spaces_and_columns() -> None:
    """A space is a whole column, as in the text the frame draws (a proportional font all
    but dropped them: "10 cardsskip")."""
    pytest.importorskip("PIL")
    from phase10.rl.render import text_image

    def last_ink(text: str) -> int:  # (the right edge of the text's last letter)
        return int(np.flatnonzero((text_image(text) < 128).any(axis=(0, 2)))[-1])

    assert last_ink("a x") == last_ink("aax") == last_ink("a_x")
    assert last_ink("iiix") == last_ink("MMMx")

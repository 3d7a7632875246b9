"""The kernel's build (hatch_build.py, docs/kernel.md "Building"): the plain C path that
compilers without GCC's builtins take, and the setuptools path that Windows builds take,
each compiled here and held to the kernel as installed, game for game.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import phase10.kernel as kernel
from phase10.core import Game, preset
from phase10.kernel import KernelGame

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "phase10" / "kernel" / "_kernel.c"
needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")
#: presets whose phases take every path of the bit tricks: sets and runs, and colour and
#: even/odd groups mixed with others (the branch-and-bound and its flow)
PRESETS = ("official", "edition-5", "edition-3", "island-paradise", "masters")


def _hatch_build() -> ModuleType:
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    return hatch_build


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("_kernel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def _games() -> list[tuple[str, int, int]]:
    return [(name, players, seed) for name in PRESETS for players, seed in ((2, 3), (4, 8))]


def _play(name: str, players: int, seed: int) -> tuple[object, ...]:
    """A greedy game and a search from its middle, as the kernel in use plays them."""
    game = Game(players, seed=seed, rules=preset(name))
    whole = KernelGame(game)
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    played, actions = whole.play_greedy(rngs, record=True)
    middle = KernelGame(game)
    middle.play_greedy([random.Random(seed * 10 + s) for s in range(players)], 60)
    keys = middle.legal()
    # played out to the game's end: the phases counted at the end run up to ten
    known: list[list[int]] = [[] for _ in range(players)]
    found = middle.search(middle.current, known, [0, len(keys) - 1], 4, seed, hands=0)
    return played, actions, whole.state(), middle.state(), np.asarray(found).tolist()


def _same_play(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = [_play(*game) for game in _games()]
    with monkeypatch.context() as patch:
        patch.setattr(kernel, "_MODULE", module)
        assert type(KernelGame(Game(2, seed=1))._kernel) is module.Kernel
        got = [_play(*game) for game in _games()]
    for game, mine, theirs in zip(_games(), got, expected, strict=True):
        assert mine == theirs, f"{game}: the rebuilt kernel plays differently"


@needs_kernel
def test_the_plain_c_bit_tricks_play_as_the_builtins_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / f"_kernel{_suffix()}"
    error = _hatch_build().compile_kernel(SOURCE, output, ("PHASE10_PLAIN_C",))
    assert error is None, error
    _same_play(_load(output), monkeypatch)


@needs_kernel
def test_setuptools_builds_a_kernel_that_plays_as_the_installed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / f"_kernel{_suffix()}"
    error = _hatch_build().compile_with_setuptools(SOURCE, output)
    assert error is None, error
    _same_play(_load(output), monkeypatch)


def test_a_setuptools_failure_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "_kernel.c"
    broken.write_text("this is not C;\n")
    monkeypatch.setenv("CC", "false")
    error = _hatch_build().compile_with_setuptools(broken, tmp_path / f"_kernel{_suffix()}")
    assert error is not None and error.startswith(f"setuptools could not build {broken}")
    assert not (tmp_path / f"_kernel{_suffix()}").exists()

"""Shared pytest configuration for the phase10 test suite."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# Property-based tests are derandomized so that every run, locally and in CI,
# explores the same examples; deadlines are disabled because timing on shared
# machines is too noisy to be a meaningful failure signal.
settings.register_profile("default", deadline=None, derandomize=True)
settings.register_profile("ci", deadline=None, derandomize=True)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def own_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test saves its games and settings in a directory of its own, never in the
    user's data directory: a saved game there would change what the screens show."""
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path / "phase10-home"))


# --------------------------------------------------------------------- Chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright, for one test module (the modules
    that use it call ``browser_support.require_browser()`` first)."""
    from playwright.sync_api import sync_playwright

    from browser_support import CHROMIUM

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        yield launched
        launched.close()


# --------------------------------------------------------------------- PostgreSQL


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Any]:
    """A throw-away PostgreSQL server for the whole session (tests/postgres_support.py);
    the tests that use it are skipped, with the reason, where PostgreSQL is unavailable."""
    from postgres_support import Unavailable, cluster

    try:
        with cluster() as running:
            yield running
    except Unavailable as reason:
        pytest.skip(f"PostgreSQL is unavailable: {reason}")


@pytest.fixture
def postgres_url(postgres_cluster: Any) -> Iterator[str]:
    """A SQLAlchemy URL to a new, empty PostgreSQL database, dropped after the test."""
    name = postgres_cluster.create_database()
    yield postgres_cluster.url(name)
    postgres_cluster.drop_database(name)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The server's database, once in SQLite and once in PostgreSQL."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


# --------------------------------------------------------------------- slow tests

#: Modules whose every test is slow: a real browser, a killed and restarted server, a real
#: pseudo-terminal. `make test-fast` (-m "not slow") leaves them out, with the PostgreSQL runs.
SLOW_MODULES = frozenset({"test_server_browser", "test_server_crash", "test_tui_terminal"})
#: Single tests that take tens of seconds: whole games of every preset, brute-force
#: agreement over many hands, a whole terminal game by keys, the Ray backend.
SLOW_TESTS = frozenset(
    {
        "test_short_games",
        "test_full_games",
        "test_missing_with_a_limit_agrees_with_missing_without",
        "test_hint_for_every_stage_is_a_legal_first_step",
        "test_a_whole_game_by_keys_and_mouse_with_undo_save_and_resume",
        "test_ray_backend_gives_the_same_result",
        "test_masks_never_allow_an_illegal_action",
    }
)


#: The longest tests of all (tens of seconds each, a minute for the browser game).
START_FIRST = SLOW_TESTS | {
    "test_two_browsers_play_a_game_with_a_bot_to_the_end",
    "test_your_phase_is_always_on_screen_and_o_shows_the_score_sheet",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        module = item.module.__name__.rsplit(".", 1)[-1]
        on_postgres = "postgres_url" in item.fixturenames
        if module in SLOW_MODULES or item.originalname in SLOW_TESTS or on_postgres:
            item.add_marker(pytest.mark.slow)
    # The long single tests start first: under xdist a long test started last leaves the
    # other worker idle until it ends (the order is otherwise kept: the sort is stable).
    items.sort(key=lambda item: getattr(item, "originalname", None) not in START_FIRST)

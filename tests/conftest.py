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


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The server's database, once in SQLite and once in PostgreSQL."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"

"""A throw-away PostgreSQL server for the tests: a cluster in a temporary directory.

``initdb`` and ``pg_ctl`` from the PostgreSQL installation (Debian's live in
``/usr/lib/postgresql/VERSION/bin``, or set ``PHASE10_PG_BINDIR``) make a cluster that
listens on 127.0.0.1 at a free port, with its socket in the same temporary directory.
PostgreSQL refuses to run as root: as root, the cluster belongs to the ``postgres`` user
and its commands run through ``runuser``. Set ``PHASE10_TEST_POSTGRES_URL`` (a
``postgresql+psycopg://`` URL to a database whose user may create databases) to use a
running server instead.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from glob import glob
from itertools import count
from pathlib import Path

#: the variable naming a running server to use instead of a throw-away cluster
URL_VARIABLE = "PHASE10_TEST_POSTGRES_URL"


class Unavailable(Exception):
    """PostgreSQL cannot be started here (the message says why)."""


def find_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl`` (the newest version installed)."""
    chosen = os.environ.get("PHASE10_PG_BINDIR")
    if chosen:
        candidates = [Path(chosen)]
    else:
        on_path = shutil.which("initdb")
        candidates = [Path(on_path).parent] if on_path else []
        found = glob("/usr/lib/postgresql/*/bin") + glob("/usr/local/pgsql/bin")

        def version(path: str) -> tuple[int, ...]:
            return tuple(int(part) for part in re.findall(r"\d+", path))

        candidates += [Path(path) for path in sorted(found, key=version, reverse=True)]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise Unavailable(
        "PostgreSQL is not installed (apt-get install -y postgresql, or set PHASE10_PG_BINDIR)"
    )


@dataclass
class Cluster:
    """A running PostgreSQL server; :meth:`database` makes a fresh, empty database."""

    #: a URL to the server's maintenance database (``postgres``), without the driver's name
    admin: str
    _numbers: Iterator[int]

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of one database of this server (psycopg 3 as the driver)."""
        base = self.admin.rsplit("/", 1)[0]
        return f"postgresql+psycopg://{base.split('://', 1)[1]}/{database}"

    def create_database(self) -> str:
        """A new empty database; returns its name."""
        import psycopg

        name = f"phase10_test_{os.getpid()}_{next(self._numbers)}"
        with psycopg.connect(self.admin, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _runner() -> tuple[list[str], int | None, int | None]:
    """The command prefix that runs PostgreSQL's programs, and the owner of its files."""
    if os.geteuid() != 0:
        return [], None, None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable(
            "running as root and there is no postgres user to run PostgreSQL"
        ) from None
    runuser = shutil.which("runuser")
    if runuser is None:
        raise Unavailable("running as root and runuser is missing to run PostgreSQL as postgres")
    return [runuser, "-u", "postgres", "--"], user.pw_uid, user.pw_gid


@contextmanager
def cluster() -> Iterator[Cluster]:
    """A PostgreSQL server for the duration of the block: started, then stopped and removed."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise Unavailable("the psycopg driver is missing (pip install 'psycopg[binary]')") from None
    url = os.environ.get(URL_VARIABLE)
    if url:
        yield Cluster(url.replace("postgresql+psycopg://", "postgresql://", 1), count())
        return
    bindir = find_bindir()
    prefix, uid, gid = _runner()
    # not under pytest's own temporary folder: its parents are private to this user
    folder = Path(tempfile.mkdtemp(prefix="phase10-pg-"))
    data, log = folder / "data", folder / "server.log"
    port = free_port()
    try:
        if uid is not None and gid is not None:
            os.chown(folder, uid, gid)
        initdb = [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"]
        initdb += ["-E", "UTF8", "--locale=C", "--no-sync"]
        _run([*prefix, *initdb])
        settings = f"-p {port} -k '{folder}' -c listen_addresses=127.0.0.1 -c fsync=off"
        settings += " -c full_page_writes=off -c synchronous_commit=off"
        start = [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", settings]
        _run([*prefix, *start, "-w", "-t", "60", "start"], log)
        try:
            yield Cluster(f"postgresql://postgres@127.0.0.1:{port}/postgres", count())
        finally:
            stop = [str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]
            _run([*prefix, *stop], log)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _run(command: list[str], log: Path | None = None) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        details = result.stderr or result.stdout
        if log is not None and log.exists():
            details += log.read_text(errors="replace")
        raise RuntimeError(f"{' '.join(command)} failed: {details.strip()[-2000:]}")

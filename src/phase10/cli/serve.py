"""``phase10 serve``: the multiplayer server and its browser client.

It needs the ``server`` extra (FastAPI, uvicorn, SQLAlchemy); without it it says how
to install it.
"""

from __future__ import annotations

import gc
import math
import socket
from pathlib import Path
from typing import Annotated

import typer

from .common import MAX_DELAY, fail

__all__ = ["check_address", "serve"]


def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host", metavar="HOST", help="The address to listen on (0.0.0.0: every one)."
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", help="The port to listen on.")
    ] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            metavar="URL",
            help="sqlite:///FILE or postgresql+psycopg://USER:PASSWORD@HOST/DB "
            "(default: SQLite in the data directory).",
        ),
    ] = None,
    bot_delay: Annotated[
        float,
        typer.Option(
            "--bot-delay", metavar="SECONDS", help="The pause before each bot action (0 to 60 s)."
        ),
    ] = 0.6,
    rate_limit: Annotated[
        float,
        typer.Option(
            "--rate-limit",
            metavar="N",
            help="Messages a second one connection may send on average (twice that at once).",
        ),
    ] = 30.0,
    proxy_headers: Annotated[
        bool,
        typer.Option(
            "--proxy-headers/--no-proxy-headers",
            help="Trust X-Forwarded-* headers from a reverse proxy on this machine.",
        ),
    ] = True,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            metavar="NAME=VALUE",
            help="Change one of the limits on clients (docs/security.md lists them), "
            "e.g. --limit connections_per_address=50; may be given again.",
        ),
    ] = None,
    api_docs: Annotated[
        bool,
        typer.Option("--api-docs", help="Serve the HTTP API's documentation at /api/docs."),
    ] = False,
    test_seed: Annotated[
        int | None,
        typer.Option(
            "--test-seed",
            hidden=True,
            help="Deal every game from this seed (for tests only: players could know every hand).",
        ),
    ] = None,
) -> None:
    """Host games in the browser: tables with an invite link, bots, history, a score sheet."""
    try:
        import uvicorn

        from phase10.server import create_app
        from phase10.server.http_guard import guarded_http
        from phase10.server.limits import Limits
    except ImportError:
        fail("the server needs the 'server' extra: pip install 'phase10[server]'")
    if not 0 < port < 65536:
        fail(f"the port must be 1 to 65535, not {port}")
    if not 0 <= bot_delay <= MAX_DELAY:  # also refuses nan
        fail(f"the bot delay is 0 to {MAX_DELAY:g} seconds, not {bot_delay}")
    if not 0 < rate_limit < math.inf:
        fail(f"the rate limit is a number of messages a second above 0, not {rate_limit}")
    if database_url is not None and not database_url.strip():
        fail("--database-url is empty: give sqlite:///FILE or postgresql+psycopg://...")
    if database_url is not None:
        _check_sqlite_folder(database_url)
    try:
        limits = Limits(message_rate=rate_limit, message_burst=2 * rate_limit)
        limits = limits.with_changes(limit or [])
    except ValueError as error:
        fail(str(error))
    check_address(host, port)  # before the database is opened or created
    try:
        extra = {} if test_seed is None else {"seeds": lambda: test_seed}
        app = create_app(
            database_url=database_url,
            bot_delay=bot_delay,
            limits=limits,
            api_docs=api_docs,
            start_solver=True,
            **extra,  # type: ignore[arg-type]
        )
    except Exception as error:  # a bad URL or an unreachable database
        fail(f"cannot open the database: {error}")
    from phase10.server.db import DatabaseInUse

    try:
        app.state.store.claim()  # before it says it is running
    except DatabaseInUse as error:
        app.state.store.close()
        fail(str(error))
    if test_seed is not None:
        typer.echo(f"every game is dealt from seed {test_seed}: for tests only", err=True)
    typer.echo(f"phase10 server on http://{host}:{port}/ (Ctrl+C stops it)")
    quiet_garbage_collector()
    from phase10.solver.blas import set_blas_threads

    set_blas_threads(1)  # stand-in bots check hands faster on one thread
    uvicorn.run(
        app,
        host=host,
        port=port,
        proxy_headers=proxy_headers,
        ws_max_size=max(65536, limits.max_message_bytes),  # (a frame, then the message)
        limit_concurrency=limits.max_connections,
        http=guarded_http(limits),
        log_level="warning",
    )


def check_address(host: str, port: int) -> None:
    """Fail with a plain message unless the server could listen on ``host:port`` (a name
    that does not resolve, an address not on this machine, a port in use), before it
    says it is running.
    """
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        fail(f"cannot listen on {host}:{port}: {getattr(error, 'strerror', None) or error}")
    family, kind, protocol, _, address = found[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as error:
            fail(f"cannot listen on {host}:{port}: {error.strerror or error}")


def quiet_garbage_collector() -> None:
    """Keep full garbage collections out of play.

    A server holds every table's game history, and a full collection walks all of it,
    stopping every table for about 100 ms, several times a minute under load. The code
    and data loaded at start are frozen out of the collector's sight, and the older
    generations are collected far less often (a full collection after some 25 million
    allocations rather than 70,000). Memory stays flat: a game's garbage is freed by
    reference counting.
    """
    gc.freeze()
    gc.set_threshold(5000, 5, 1000)


def _check_sqlite_folder(url: str) -> None:
    """A SQLite file's folder must be there (the database is made in it, the folder not):
    said plainly, where SQLite says only "unable to open database file"."""
    scheme, _, rest = url.partition(":///")
    if scheme.split("+")[0] != "sqlite" or not rest or rest.startswith(":memory:"):
        return
    folder = Path(rest.split("?")[0]).parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        fail(f"cannot open the database: its folder {folder} {what}")

"""The web application: the routes of every area, the guard in front, errors as JSON.

>>> from fastapi.testclient import TestClient
>>> with TestClient(create_app(database_url="sqlite://")) as client:
...     answer = client.post("/api/tables", json={"name": "Ann"})
...     answer.status_code, client.get("/api/tables").json(), client.get("/api/docs").json()
(201, {'tables': []}, {'error': 'not_found', 'message': 'Not Found'})
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .companion import router as companion_router
from .db import Store, default_database_url
from .guard import Guard
from .limits import Limits
from .manager import TableManager, secret_seed
from .protocol import excerpt
from .routes import pages, records, socket, tables
from .routes.common import ApiError

__all__ = ["STATIC", "create_app"]

log = logging.getLogger("phase10.server")

STATIC = pages.STATIC


def _furthest(problem: Any) -> tuple[int, bool]:
    """How far into a value an error got: deeper first, then one about the value's size
    or content before one about its type."""
    return len(problem.get("loc", ())), not str(problem.get("type", "")).endswith("_type")


def _kind_tag(part: object) -> bool:
    """Whether a part of an error's place names which kind of a union was tried
    (``constrained-str``, ``list[int]``), not a field.

    >>> _kind_tag("constrained-str"), _kind_tag("list[int]"), _kind_tag("phase_list"), _kind_tag(0)
    (True, True, False, False)
    """
    return isinstance(part, str) and (
        "[" in part or "-" in part or part in {"str", "int", "float", "bool"}
    )


def create_app(
    database_url: str | None = None,
    *,
    limits: Limits | None = None,
    bot_delay: float = 0.0,
    stand_in: str = "greedy",
    seeds: Callable[[], int] = secret_seed,
    api_docs: bool = False,
    start_solver: bool = False,
    clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The server's application. ``database_url`` defaults to SQLite in the data directory;
    ``limits`` bounds what each client may ask (:class:`~phase10.server.limits.Limits`);
    ``bot_delay`` is the pause before each bot action (seconds), so people can follow them;
    ``seeds`` gives each game's seed (unguessable unless a test injects its own);
    ``api_docs`` serves the API's documentation at ``/api/docs``; ``start_solver`` starts
    the solver's worker processes at once rather than at the first hint.
    """
    limits = limits or Limits()
    store = Store(database_url or default_database_url())
    manager = TableManager(
        store, limits=limits, bot_delay=bot_delay, stand_in=stand_in, clock=clock, seeds=seeds
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store.claim()  # (DatabaseInUse: another server plays these tables)
        await manager.sweep()
        await manager.load_all()
        for table in list(manager.tables.values()):
            manager.after_change(table)
        sweeper = asyncio.create_task(manager.sweep_forever())
        warming = asyncio.create_task(manager.pool.start()) if start_solver else None
        yield
        sweeper.cancel()
        if warming is not None:
            with contextlib.suppress(BaseException):
                await warming
        await manager.shutdown()
        store.close()

    app = FastAPI(
        title="Phase 10",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json" if api_docs else None,
    )
    app.state.manager = manager
    app.state.store = store
    app.add_middleware(Guard, visitors=manager.visitors, max_body=limits.max_body_bytes)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for router in (pages.router, tables.router, records.router, socket.router, companion_router):
        app.include_router(router)
    if api_docs:
        app.include_router(pages.docs_router)
    _answer_errors_as_json(app)
    return app


def _answer_errors_as_json(app: FastAPI) -> None:
    """Every HTTP error in the one documented form, repeating at most an excerpt of what
    the client sent."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"error": error.code, "message": error.message}, error.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        # a value that fits none of a union's kinds is refused once for each: the one
        # that got furthest into it says what is wrong (a phrase too long, not "not text")
        first = max(problems, key=_furthest) if problems else {}
        if first.get("type") == "json_invalid":
            return JSONResponse({"error": "bad_json", "message": "the body is not JSON"}, 400)
        loc = tuple(first.get("loc", ()))
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if loc == ("body",):  # no object at all (FastAPI reads another type as none)
            message = "the body must be a JSON object"
            if kind != "application/json":
                message += (
                    ", sent with the header Content-Type: application/json "
                    f"(not {excerpt(kind, 40) or 'none'})"
                )
            return JSONResponse({"error": "invalid_request", "message": message}, 422)
        where = ".".join(str(part) for part in loc if part != "body" and not _kind_tag(part))
        text = f"{excerpt(where, 40)}: {first.get('msg', 'invalid request')}".strip(": ")
        # a rules option that does not exist or does not fit: as Rules itself would say
        code = "bad_rules" if loc[:2] == ("body", "options") and len(loc) > 2 else "invalid_request"
        return JSONResponse({"error": code, "message": excerpt(text, 200)}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and pages.for_a_person(request):
            return pages.page(404)  # a mistyped address: the page says so, with ways on
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "bad_request")
        message = excerpt(str(error.detail), 200)
        return JSONResponse({"error": code, "message": message}, error.status_code)

    @app.exception_handler(Exception)
    async def _crash(_request: Request, error: Exception) -> JSONResponse:
        log.error("a request failed", exc_info=error)
        message = "the server could not answer; the problem was logged"
        return JSONResponse({"error": "internal_error", "message": message}, 500)

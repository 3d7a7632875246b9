"""The web application: pages, the HTTP API and the WebSocket of every table.

>>> app = create_app(database_url="sqlite://")
>>> paths = [getattr(route, "path", "") for route in app.routes]
>>> sorted({path for path in paths if path.startswith("/api/tables")})
['/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/join']
>>> "/api/docs" in paths
False
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from phase10.core import GameRecord, RecordError, Rules, RulesError, preset
from phase10.core.narration import EventLog
from phase10.core.rules import PRESET_NOTES

from .companion import router as companion_router
from .connection import Connection
from .db import Store, default_database_url
from .guard import CSP, Guard
from .limits import Limits, address_key
from .manager import TableManager, secret_seed
from .protocol import ERRORS, HOST_ONLY, ProtocolError, excerpt, parse_client_message
from .tables import LiveTable

__all__ = ["STATIC", "create_app"]

log = logging.getLogger("phase10.server")

STATIC = Path(__file__).parent / "static"
#: the pages the browser client draws (each is index.html; the script reads the path)
PAGES = ("/", "/t/{table_id}", "/history", "/replay/{record_id}", "/companion")
#: WebSocket close codes (docs/server-protocol.md)
CLOSE_NO_TABLE, CLOSE_BAD_TOKENS, CLOSE_FLOOD = 4404, 4401, 4429
#: a name as sent, before :func:`~phase10.core.names.check_name` reads it
RawName = Annotated[str, Field(max_length=96)]
BotSpec = Annotated[str, Field(pattern=r"^(random|greedy|strong(:[1-4])?)$")]
OptionName = Annotated[str, Field(max_length=40)]
OptionValue = Annotated[str, Field(max_length=200)]
#: the status each HTTP error code is answered with
STATUS = {
    "bad_name": 422,
    "name_taken": 409,
    "seeded_table": 409,
    "already_started": 409,
    "server_full": 503,
}


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: RawName
    seats: int = Field(2, ge=2, le=6)
    preset: Annotated[str, Field(max_length=40)] = "official"
    #: rules options on top of the preset (e.g. {"skip_target": "next"})
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=16)
    bots: BotSpec = "greedy"
    #: seconds for a turn before a stand-in plays it (0: no timer)
    turn_seconds: int = Field(0, ge=0, le=600)
    #: listed on the home page for anyone to join (otherwise only the invite link finds it)
    public: bool = False
    #: the deal's seed: only for a table of its host and bots (it lets the host know
    #: every hand, so nobody else may sit at it)
    seed: int | None = Field(None, ge=0, lt=2**62)


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: RawName


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


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
        manager.sweep()
        manager.load_all()
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
    app.include_router(companion_router)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"error": error.code, "message": error.message}, error.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        first = problems[0] if problems else {}
        if first.get("type") == "json_invalid":
            return JSONResponse({"error": "bad_json", "message": "the body is not JSON"}, 400)
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        text = f"{excerpt(where, 40)}: {first.get('msg', 'invalid request')}".strip(": ")
        return JSONResponse({"error": "invalid_request", "message": excerpt(text, 200)}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "bad_request")
        message = excerpt(str(error.detail), 200)
        return JSONResponse({"error": code, "message": message}, error.status_code)

    @app.exception_handler(Exception)
    async def _crash(_request: Request, error: Exception) -> JSONResponse:
        log.error("a request failed", exc_info=error)
        message = "the server could not answer; the problem was logged"
        return JSONResponse({"error": "internal_error", "message": message}, 500)

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    if api_docs:

        @app.get("/api/docs", include_in_schema=False)
        def docs() -> HTMLResponse:
            # the page's scripts are this server's own; Swagger UI styles some parts inline
            csp = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
            text = (STATIC / "api-docs.html").read_text()
            return HTMLResponse(text, headers={"Content-Security-Policy": csp})

    def table_or_404(table_id: str) -> LiveTable:
        table = manager.get(table_id)
        if table is None:
            raise ApiError(404, "no_such_table", f"there is no table {excerpt(table_id, 40)!r}")
        return table

    def refuse(error: ProtocolError) -> ApiError:
        return ApiError(STATUS.get(error.code, 409), error.code, error.message)

    def client_address(request: Request) -> str:
        return address_key(request.client.host if request.client else None)

    # -- tables -----------------------------------------------------------------------

    @app.get("/api/presets")
    def presets() -> dict[str, Any]:
        """The rules presets and every option's values, for the new-table form."""
        defaults = Rules()
        choices = {
            name: [member.value for member in type(getattr(defaults, name))]
            for name, value in defaults.to_dict().items()
            if isinstance(value, str)
        }
        return {
            "presets": dict(PRESET_NOTES),
            "options": choices,
            "bots": ["random", "greedy", "strong:1", "strong:2", "strong:3", "strong:4"],
        }

    @app.post("/api/tables", status_code=201)
    def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        try:
            base = preset(body.preset)
            rules = Rules.from_dict({**base.to_dict(), **body.options})
        except RulesError as error:
            raise ApiError(422, "bad_rules", excerpt(str(error), 200)) from None
        if not manager.visitors.creates.take(client_address(request)):
            raise ApiError(429, "rate_limited", "you have opened many tables lately: wait a while")
        options = {
            "preset": body.preset,
            "rules": rules.to_dict(),
            "seats": body.seats,
            "bots": body.bots,
            "turn_seconds": body.turn_seconds,
            "public": body.public,
            "seed": body.seed,
        }
        try:
            table, seat, token = manager.create(body.name, options)
        except ProtocolError as error:
            raise refuse(error) from None
        return _seated(table, seat, token)

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        table = table_or_404(table_id)
        if not manager.visitors.joins.take(client_address(request)):
            raise ApiError(429, "rate_limited", "you have joined many tables lately: wait a while")
        try:
            seat, token = await manager.join(table, body.name)
        except ProtocolError as error:
            raise refuse(error) from None
        return _seated(table, seat, token)

    @app.get("/api/tables/{table_id}")
    def get_table(table_id: str) -> dict[str, Any]:
        return table_or_404(table_id).public(manager.clock())

    @app.get("/api/tables")
    def open_tables() -> dict[str, Any]:
        """The public tables waiting for players (a table is public only if its host said so)."""
        waiting = [
            table.public(manager.clock())
            for table in manager.tables.values()
            if table.status == "lobby"
            and table.options.get("public")
            and any(seat.kind == "open" for seat in table.seats)
        ]
        return {"tables": waiting[:50]}

    # -- finished games ---------------------------------------------------------------

    @app.get("/api/history")
    def history() -> dict[str, Any]:
        return {
            "games": [
                {
                    "id": row.id,
                    "table": row.table_id,
                    "game": row.game_no,
                    "finished": row.finished,
                    "players": json.loads(row.players),
                    "winners": json.loads(row.winners),
                    "totals": json.loads(row.record)["result"]["totals"],
                }
                for row in store.records()
            ]
        }

    def load_record(record_id: int) -> GameRecord:
        row = store.record(record_id)
        if row is None:
            raise ApiError(404, "no_such_record", f"there is no finished game {record_id}")
        return GameRecord.from_dict(json.loads(row.record))

    @app.get("/api/records/{record_id}")
    def record(record_id: int) -> dict[str, Any]:
        """A finished game's full record (its seed included: the game is over)."""
        return load_record(record_id).to_dict()

    @app.get("/api/records/{record_id}/replay")
    def replay(record_id: int, step: int = 0) -> dict[str, Any]:
        """The table after the first ``step`` actions of a finished game, every hand shown."""
        saved = load_record(record_id)
        step = max(0, min(step, len(saved.actions)))
        try:
            game = saved.replay(upto=step)
        except RecordError as error:
            raise ApiError(500, "bad_record", str(error)) from None
        names = list(saved.players)
        narration = EventLog(names, saved.rules, verbose=True)
        narration.feed(game.history)
        return {
            "step": step,
            "total": len(saved.actions),
            "action": saved.actions[step - 1] if step else None,
            "view": game.view(None).to_dict(),
            "hands": [" ".join(str(card) for card in game.hand(s)) for s in range(len(names))],
            "log": narration.lines[-40:],
        }

    @app.get("/api/errors")
    def errors() -> dict[str, str]:
        """Every error code of the WebSocket protocol."""
        return dict(ERRORS)

    @app.get("/healthz")
    def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(manager.tables)}

    # -- the WebSocket ----------------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        address = address_key(websocket.client.host if websocket.client else None)
        await websocket.accept()
        table = manager.get(table_id)
        if table is None:
            await _close_with(websocket, CLOSE_NO_TABLE, "no_such_table")
            return
        refusal = manager.admit(table, address)
        if refusal is not None:
            await _close_with(websocket, CLOSE_FLOOD, "too_many_connections", refusal)
            return
        conn = Connection(
            websocket.send_text,
            manager.clock,
            address=address,
            rate=limits.message_rate,
            burst=limits.message_burst,
            shared=manager.visitors.messages.get(address),
        )

        async def write() -> None:
            await conn.writer()
            if conn.overflowed:
                await websocket.close(code=1008)
            elif conn.close_code is not None:
                await websocket.close(code=conn.close_code[0], reason=conn.close_code[1])

        writer = asyncio.ensure_future(write())
        try:
            while conn.close_code is None:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data: str | bytes = message.get("text") or message.get("bytes") or b""
                if not conn.allow():
                    conn.push(_error("rate_limited"))
                    if conn.dropped > limits.flood_strikes:
                        conn.end(CLOSE_FLOOD, "flooding")
                    continue
                await _handle(manager, table, conn, data, limits)
                if conn.bad_tokens >= 5:
                    conn.end(CLOSE_BAD_TOKENS, "too many wrong tokens")
        except WebSocketDisconnect:
            pass
        finally:
            manager.leave_connection(table, conn)
            manager.visitors.socket_closed(address)
            conn.close()
            with contextlib.suppress(Exception):
                await writer
            if websocket.client_state is WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    return app


async def _handle(
    manager: TableManager, table: LiveTable, conn: Connection, data: str | bytes, limits: Limits
) -> None:
    """One client message: carried out, or refused with a specific error.

    Every message has paid 1 from the buckets; one that asks for solver work pays the
    rest of its cost once it is read (so no way of writing it can pass for a cheap one).
    """
    try:
        message = parse_client_message(data)
        kind = message.type
        extra = {"hint": limits.hint_cost, "choices": limits.choices_cost}.get(kind, 1) - 1
        if extra > 0 and not conn.allow(extra):
            raise ProtocolError("rate_limited")
        if kind == "ping":
            conn.push({"type": "pong"})
            return
        if kind == "hello":
            await manager.hello(table, conn, message.token)
            return
        if not conn.joined:
            raise ProtocolError("not_joined")
        if conn.seat is None:
            raise ProtocolError("spectator")
        seat = conn.seat
        if kind in HOST_ONLY and seat != table.host:
            raise ProtocolError("not_host")
        if kind == "start":
            await manager.start(table)
        elif kind == "bots":
            await manager.set_bots(table, message.bots)
        elif kind == "remove_player":
            await manager.remove_player(table, message.seat)
        elif kind == "seat_bot":
            await manager.seat_bot(table, message.seat)
        elif kind == "hand_over":
            await manager.hand_over(table, message.seat)
        elif kind == "leave":
            await manager.leave(table, seat)
        elif kind == "rematch":
            await manager.rematch(table)
        elif kind == "action":
            await manager.act(table, seat, message.action, by="player", version=message.version)
        elif kind == "choices":
            manager.ask_solver(table, conn, message.kind, message.cards)
        elif kind == "hint":
            manager.ask_solver(table, conn, "hint")
    except ProtocolError as error:
        conn.push(_error(error.code, error.message))


async def _close_with(websocket: WebSocket, code: int, error: str, message: str = "") -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json(_error(error, message or None))
        await websocket.close(code=code)


def _error(code: str, message: str | None = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message or ERRORS[code]}


def _seated(table: LiveTable, seat: int, token: str) -> dict[str, Any]:
    return {
        "table": table.id,
        "seat": seat,
        "token": token,
        "invite": f"/t/{table.id}",
        "link": f"/t/{table.id}#token={token}",
    }

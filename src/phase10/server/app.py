"""The web application: pages, the HTTP API and the WebSocket of every table.

>>> app = create_app(database_url="sqlite://")
>>> paths = [getattr(route, "path", "") for route in app.routes]
>>> sorted({path for path in paths if path.startswith("/api/tables")})
['/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/join']
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.websockets import WebSocketDisconnect, WebSocketState

from phase10.core import GameRecord, RecordError, Rules, RulesError, preset
from phase10.core.narration import EventLog
from phase10.core.rules import PRESET_NOTES

from .companion import router as companion_router
from .db import Store, default_database_url
from .protocol import ERRORS, ProtocolError, parse_client_message
from .tables import Connection, LiveTable, TableManager

__all__ = ["STATIC", "create_app"]

STATIC = Path(__file__).parent / "static"
#: the pages the browser client draws (each is index.html; the script reads the path)
PAGES = ("/", "/t/{table_id}", "/history", "/replay/{record_id}", "/companion")

#: a player's name: no control characters (PostgreSQL cannot store NUL in text)
Name = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=24, pattern=r"^[^\x00-\x1f\x7f]+$"
    ),
]
BotSpec = Annotated[str, Field(pattern=r"^(random|greedy|strong(:[1-4])?)$")]


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name
    seats: int = Field(2, ge=2, le=6)
    preset: str = "official"
    #: rules options on top of the preset (e.g. {"skip_target": "next"})
    options: dict[str, str] = Field(default_factory=dict, max_length=16)
    bots: BotSpec = "greedy"
    #: seconds for a turn before a stand-in plays it (0: no timer)
    turn_seconds: int = Field(0, ge=0, le=600)
    seed: int | None = Field(None, ge=0, lt=2**62)


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.0,
    stand_in: str = "greedy",
    rate: float = 30.0,
    burst: float = 60.0,
) -> FastAPI:
    """The server's application. ``database_url`` defaults to SQLite in the data directory;
    ``bot_delay`` is the pause before each bot action (seconds), so people can follow them;
    ``rate`` and ``burst`` limit the messages of one connection (a second, and at once).
    """
    store = Store(database_url or default_database_url())
    manager = TableManager(store, bot_delay=bot_delay, stand_in=stand_in)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager.load_all()
        for table in list(manager.tables.values()):
            manager.after_change(table)
        yield
        await manager.shutdown()
        store.close()

    app = FastAPI(title="Phase 10", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.manager = manager
    app.state.store = store
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(companion_router)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"error": error.code, "message": error.message}, error.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        text = f"{where}: {first.get('msg', 'invalid request')}".strip(": ")
        return JSONResponse({"error": "invalid_request", "message": text}, 422)

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    def table_or_404(table_id: str) -> LiveTable:
        table = manager.get(table_id)
        if table is None:
            raise ApiError(404, "no_such_table", f"there is no table {table_id!r}")
        return table

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
    def create_table(body: CreateTable) -> dict[str, Any]:
        try:
            base = preset(body.preset)
            rules = Rules.from_dict({**base.to_dict(), **body.options})
        except RulesError as error:
            raise ApiError(422, "bad_rules", str(error)) from None
        options = {
            "preset": body.preset,
            "rules": rules.to_dict(),
            "seats": body.seats,
            "bots": body.bots,
            "turn_seconds": body.turn_seconds,
            "seed": body.seed,
        }
        table, seat, token = manager.create(body.name, options)
        return _seated(table, seat, token)

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, body: JoinTable) -> dict[str, Any]:
        table = table_or_404(table_id)
        try:
            seat, token = await manager.join(table, body.name)
        except ProtocolError as error:
            raise ApiError(409, error.code, error.message) from None
        return _seated(table, seat, token)

    @app.get("/api/tables/{table_id}")
    def get_table(table_id: str) -> dict[str, Any]:
        return table_or_404(table_id).public(manager.clock())

    @app.get("/api/tables")
    def open_tables() -> dict[str, Any]:
        """Tables waiting for players."""
        waiting = [
            table.public(manager.clock())
            for table in manager.tables.values()
            if table.status == "lobby"
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
        await websocket.accept()
        table = manager.get(table_id)
        if table is None:
            await websocket.send_json(
                {"type": "error", "code": "no_such_table", "message": "there is no such table"}
            )
            await websocket.close(code=4404)
            return
        conn = Connection(websocket.send_text, manager.clock, rate=rate, burst=burst)

        async def write() -> None:
            await conn.writer()
            if conn.overflowed:
                await websocket.close(code=1008)

        writer = _spawn(write())
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    text = data.decode("utf-8", "replace") if len(data) < 65536 else "x" * 65536
                if not conn.allow():
                    conn.push(_error("rate_limited"))
                    if conn.dropped > 200:
                        break
                    continue
                await _handle(manager, table, conn, text)
                if conn.bad_tokens >= 5:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            manager.leave(table, conn)
            conn.close()
            with contextlib.suppress(Exception):
                await writer
            if websocket.client_state is WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    return app


async def _handle(manager: TableManager, table: LiveTable, conn: Connection, text: str) -> None:
    """One client message: carried out, or refused with a specific error."""
    try:
        message = parse_client_message(text)
        kind = message.type
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
        if kind in ("start", "bots") and seat != table.host:
            raise ProtocolError("not_host")
        if kind == "start":
            await manager.start(table)
        elif kind == "bots":
            await manager.set_bots(table, message.bots)
        elif kind == "rematch":
            await manager.rematch(table)
        elif kind == "action":
            await manager.act(table, seat, message.action, by="player", version=message.version)
        elif kind == "choices":
            actions = manager.choices(table, seat, message.kind, message.cards)
            conn.push({"type": "choices", "kind": message.kind, "actions": actions})
        elif kind == "hint":
            conn.push(await manager.hint(table, seat))
    except ProtocolError as error:
        conn.push(_error(error.code, error.message))


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


def _spawn(coroutine: Any) -> Any:
    import asyncio

    return asyncio.ensure_future(coroutine)

"""The WebSocket of a table: one connection's messages in, its own state and answers out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..connection import Connection
from ..limits import Limits
from ..manager import TableManager
from ..models import ActedBy
from ..protocol import HOST_ONLY, ProtocolError, error_message, parse_client_message
from ..tables import LiveTable
from .common import client_address, manager_of

log = logging.getLogger("phase10.server")

__all__ = ["CLOSE_BAD_TOKENS", "CLOSE_FLOOD", "CLOSE_NO_TABLE", "router"]

#: WebSocket close codes (docs/server-protocol.md)
CLOSE_NO_TABLE, CLOSE_BAD_TOKENS, CLOSE_FLOOD = 4404, 4401, 4429

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def socket(websocket: WebSocket, table_id: str) -> None:
    manager = manager_of(websocket)
    limits = manager.limits
    address = client_address(websocket)
    await websocket.accept()
    if not manager.visitors.connects.get(address).can_take(1):  # (before a lookup)
        wait = "too many new connections from your address: wait a little"
        await _close_with(websocket, CLOSE_FLOOD, "too_many_connections", wait)
        return
    table = await manager.get(table_id)
    if table is None:
        # paid for as a new connection: asking for ids at random is bounded as well
        manager.visitors.connects.take(address)
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


async def _handle(
    manager: TableManager, table: LiveTable, conn: Connection, data: str | bytes, limits: Limits
) -> None:
    """One client message: carried out, or refused with a specific error.

    Every message has paid 1 from the buckets; one that asks for solver work pays the
    rest of its cost once it is read (so no way of writing it can pass for a cheap one).
    """
    try:
        message = parse_client_message(data, limits.max_message_bytes)
        kind = message.type
        extra = {"hint": limits.hint_cost, "choices": limits.choices_cost}.get(kind, 1) - 1
        if extra > 0 and not conn.allow(extra):
            raise ProtocolError("rate_limited")
        if kind == "ping":
            conn.push({"type": "pong"})
            return
        if kind == "hello":
            await manager.hello(table, conn, message.token, message.protocol)
            return
        if not conn.joined:
            raise ProtocolError("not_joined")
        if conn.seat is None:
            raise ProtocolError("spectator")
        if conn.close_code is not None or conn not in table.conns:
            # removed, replaced by a bot or left, with this message already on its way
            raise ProtocolError("seat_gone")
        seat = conn.seat
        if kind in HOST_ONLY and seat != table.host:
            raise ProtocolError("not_host")
        match kind:
            case "start":
                await manager.start(table)
            case "bots":
                await manager.set_bots(table, message.bots)
            case "remove_player":
                await manager.remove_player(table, message.seat)
            case "seat_bot":
                await manager.seat_bot(table, message.seat)
            case "hand_over":
                await manager.hand_over(table, message.seat)
            case "leave":
                await manager.leave(table, seat)
            case "rematch":
                await manager.rematch(table, seat, force=message.force)
            case "action":
                version = message.version
                await manager.act(table, seat, message.action, by=ActedBy.PLAYER, version=version)
            case "choices":
                manager.ask_solver(table, conn, message.kind, message.cards)
            case "hint":
                manager.ask_solver(table, conn, "hint")
            case _:  # pragma: no cover (every parsed type is handled above)
                raise ProtocolError("invalid_message", f"no handler for {kind!r}")
    except ProtocolError as error:
        conn.push(error_message(error.code, error.message, error.reason, error.version))
    except SQLAlchemyError:  # (locked, full, gone: nothing was changed, and it may pass)
        log.exception("table %s: the database failed on a message", table.id)
        conn.push(error_message("server_error", "the server could not store that now: try again"))


async def _close_with(websocket: WebSocket, code: int, error: str, message: str = "") -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json(_error(error, message or None))
        await websocket.close(code=code)


def _error(code: str, message: str | None = None) -> dict[str, Any]:
    return error_message(code, message)

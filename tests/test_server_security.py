"""The server gives nothing away and lets nothing through: every message a client
receives holds only its own view; bad tokens, out-of-turn, stale, malformed, oversized
and flooding messages are refused with a specific error and change nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from phase10.server import create_app
from phase10.server.protocol import ERRORS, MAX_MESSAGE_BYTES
from server_support import (
    Client,
    check_no_leaks,
    create,
    join,
    play_out,
    two_players_and_a_watcher,
)

SEED = 771_204_993_115


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(database_url=f"sqlite:///{tmp_path / 's.sqlite3'}")


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def started(client: TestClient, seats: int = 2) -> tuple[dict[str, Any], dict[str, Any]]:
    host = create(client, name="Ann", seats=seats, preset="short-5", seed=SEED)
    guest = join(client, host["table"], "Bob")
    return host, guest


def version(app: Any, table: str) -> int:
    result: int = app.state.manager.tables[table].version
    return result


def test_every_message_holds_only_its_own_view(app: Any, client: TestClient) -> None:
    host, guest = started(client, seats=3)
    with two_players_and_a_watcher(client, host, guest) as (ann, bob, watcher):
        ann.send({"type": "start"})
        state = play_out([ann, bob], [watcher], upto=12)
        actor = ann if state["view"]["current"] == 0 else bob
        # every other message type, from the player to move
        actor.send({"type": "hint"})
        assert actor.next_of("hint")["text"]
        actor.send({"type": "choices", "kind": "hit", "cards": "R1"})
        assert actor.next_of("error")["code"] in {"no_choice", "invalid_action"}
        actor.send({"type": "ping"})
        actor.next_of("pong")
        for client_ in (ann, bob, watcher):
            client_.ws.close()
    manager = app.state.manager
    table = manager.tables[host["table"]]
    from phase10.core import GameRecord

    record = GameRecord.from_game(table.game, {"game": "1"}).to_dict()
    assert check_no_leaks(record, [ann, bob, watcher]) > 30
    kinds = {m["type"] for c in (ann, bob, watcher) for m in c.messages}
    assert kinds == {"welcome", "state", "hint", "error", "pong"}
    for message in watcher.states():
        if message["view"] is not None:
            assert message["view"]["hand"] == "" and message["view"]["viewer"] is None
    public = json.dumps(client.get(f"/api/tables/{host['table']}").json())
    assert str(SEED) not in public and host["token"] not in public
    assert "token" not in public and "hash" not in public


def test_bad_tokens_and_roles(app: Any, client: TestClient) -> None:
    host, guest = started(client)
    other = create(client, name="Eve", seats=2)
    url = f"/ws/{host['table']}"
    with client.websocket_connect(url) as ws:
        intruder = Client(ws, hello=False)
        intruder.send({"type": "action", "action": "draw"})
        assert intruder.error()["code"] == "not_joined"
        intruder.send({"type": "hello", "token": other["token"]})
        assert intruder.error()["code"] == "bad_token"
        intruder.send({"type": "hello", "token": host["token"][:-1] + "A"})
        assert intruder.error()["code"] == "bad_token"
        intruder.send({"type": "hello"})
        assert intruder.next_of("welcome")["role"] == "spectator"
        intruder.send({"type": "hello", "token": host["token"]})
        assert intruder.error()["code"] == "already_joined"
        intruder.send({"type": "start"})
        assert intruder.error()["code"] == "spectator"
    with client.websocket_connect(url) as ws:
        bob = Client(ws, guest["token"])
        bob.send({"type": "start"})
        assert bob.error()["code"] == "not_host"
        bob.send({"type": "action", "action": "draw"})
        assert bob.error()["code"] == "not_started"
    assert app.state.manager.tables[host["table"]].status == "lobby"
    with client.websocket_connect(url) as ws:
        guesser = Client(ws, hello=False)
        for _ in range(5):
            guesser.send({"type": "hello", "token": "x" * 32})
            assert guesser.error()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect):
            guesser.receive()


def test_out_of_turn_stale_illegal_and_malformed_actions_change_nothing(
    app: Any, client: TestClient
) -> None:
    host, guest = started(client)
    url = f"/ws/{host['table']}"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        ann, bob = Client(a, host["token"]), Client(b, guest["token"])
        ann.send({"type": "start"})
        state = ann.wait_stable(0)
        bob.wait_stable(0)
        mover = ann if state["view"]["current"] == 0 else bob
        waiting = bob if mover is ann else ann
        table = host["table"]
        before = version(app, table)
        cases: list[tuple[Client, Any, str]] = [
            (waiting, {"type": "action", "action": "draw"}, "not_your_turn"),
            (mover, {"type": "action", "action": "draw", "version": before + 3}, "stale"),
            (mover, {"type": "action", "action": "discard R1"}, "illegal_action"),
            (mover, {"type": "action", "action": "fly away"}, "invalid_action"),
            (mover, {"type": "action", "action": "hit R13 g0"}, "invalid_action"),
            (mover, {"type": "choices", "kind": "lay", "cards": "R1 R2"}, "no_choice"),
            (mover, {"type": "choices", "kind": "lay", "cards": "Q9"}, "invalid_action"),
            (mover, {"type": "rematch"}, "game_not_over"),
            (mover, {"type": "start"} if mover is ann else {"type": "bots", "bots": "random"}, ""),
            (mover, "not json", "bad_json"),
            (mover, "[1, 2]", "bad_json"),
            (mover, {"type": "teleport"}, "invalid_message"),
            (mover, {"type": "action"}, "invalid_message"),
            (mover, {"type": "action", "action": "draw", "extra": 1}, "invalid_message"),
            (mover, {"type": "action", "action": 7}, "invalid_message"),
            (mover, {"type": "action", "action": "x" * 500}, "invalid_message"),
            (mover, {"type": "bots", "bots": "cmd:rm -rf /"}, "invalid_message"),
            (mover, {"type": "hello", "token": "y" * 65}, "invalid_message"),
            (mover, json.dumps({"type": "ping", "pad": "z" * MAX_MESSAGE_BYTES}), "too_large"),
            (waiting, {"type": "hint"}, "not_your_turn"),
        ]
        for sender, message, code in cases:
            sender.send(message)
            error = sender.error()
            assert error["code"] == (code or error["code"]), (message, error)
            assert error["code"] in ERRORS and error["message"]
            assert version(app, table) == before
        mover.ws.send_bytes(b"\xff\xfe")
        assert mover.error()["code"] == "bad_json"
        mover.send({"type": "action", "action": "draw", "version": before})
        assert mover.next_of("state")["version"] == before + 1


def test_a_flood_is_rate_limited(app: Any, client: TestClient) -> None:
    host, _ = started(client)
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        for _ in range(300):
            ann.send({"type": "ping"})
        replies = []
        while not any(m.get("code") == "rate_limited" for m in replies):
            assert len(replies) < 320
            replies.append(ann.receive())
        assert sum(m["type"] == "pong" for m in replies) >= 50
        ann.send({"type": "action", "action": "draw"})
        assert ann.error()["code"] in {"rate_limited", "not_started"}


def test_every_error_code_is_documented() -> None:
    text = (Path(__file__).parent.parent / "docs" / "server-protocol.md").read_text()
    for code in [*ERRORS, "no_such_record", "bad_rules", "invalid_request", "bad_sheet"]:
        assert f"`{code}`" in text, code


def test_a_client_that_stops_reading_is_dropped() -> None:
    import asyncio
    import time

    from phase10.server.tables import Connection

    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    async def scenario() -> Connection:
        conn = Connection(send, time.monotonic)
        for number in range(conn.queue.maxsize + 10):
            conn.push({"n": number})
        await asyncio.wait_for(conn.writer(), timeout=5)
        return conn

    conn = asyncio.run(scenario())
    assert conn.overflowed and sent == []

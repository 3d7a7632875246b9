"""Helpers for the server tests: sockets that keep every message, a leak check, a driver."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from helpers import VIEW_FIELDS
from phase10.bots import make_player
from phase10.core import GameRecord, PlayerView
from phase10.core.narration import EventLog
from phase10.server.legal import legal_block, progress_block
from phase10.server.limits import Limits
from phase10.server.messages import ServerMessage
from phase10.server.tables import LOG_LINES

#: limits that let one test client (one address) play many tables quickly
ROOMY = Limits(
    message_rate=1000,
    message_burst=1000,
    address_message_rate=5000,
    address_message_burst=5000,
    http_rate=1000,
    http_burst=1000,
    create_burst=1000,
    join_burst=1000,
    connect_burst=1000,
    connections_per_address=200,
    bot_seconds_burst=1000,
)


def make_app(database_url: str, *, seed: int = 1, limits: Limits = ROOMY, **options: Any) -> Any:
    """A server app whose games all get ``seed`` (a real server's seeds are secret), with
    limits one test client cannot reach (unless given others)."""
    from phase10.server import create_app

    return create_app(database_url=database_url, limits=limits, seeds=lambda: seed, **options)


_SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)

#: the keys of a view a client may receive (docs/rules.md §7), and of the public table
VIEW_KEYS = VIEW_FIELDS | {"phase_sequence"}
TABLE_KEYS = {"id", "status", "game_no", "host", "seats", "options", "record_id", "turn_left"}
TABLE_KEYS |= {"rematch", "last_game"}
OPTION_KEYS = {"preset", "seats", "bots", "turn_seconds", "away_seconds", "rules", "phase_sequence"}
OPTION_KEYS |= {"public", "seeded", "rules_text", "kind"}


class Client:
    """A test WebSocket that remembers every message it received."""

    def __init__(self, ws: Any, token: str | None = None, *, hello: bool = True) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.seat: int | None = None
        if hello:
            self.send({"type": "hello", "token": token})
            welcome = self.receive()
            assert welcome["type"] == "welcome", welcome
            self.seat = welcome["seat"]

    def send(self, data: dict[str, Any] | str) -> None:
        if isinstance(data, str):
            self.ws.send_text(data)
        else:
            self.ws.send_text(json.dumps(data))

    def receive(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        check_message(text)
        message: dict[str, Any] = json.loads(text)
        self.messages.append(message)
        return message

    def next_of(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message

    def error(self) -> dict[str, Any]:
        """The next error (states broadcast meanwhile are kept)."""
        return self.next_of("error")

    def wait_stable(self, version: int) -> dict[str, Any]:
        """The first game state at ``version`` or later where a person (or nobody) is to move."""
        while True:
            message = self.receive()
            if message["type"] == "error":
                raise AssertionError(f"unexpected error: {message}")
            if message["type"] != "state" or message["version"] < version:
                continue
            if _stable(message):
                return message

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "state"]


def check_message(text: str) -> None:
    """Every message a server sends is one of the protocol's models, read strictly: no
    field the models lack, none missing, no type converted (docs/schemas/server/)."""
    _SERVER_MESSAGE.validate_json(text, strict=True)


def _stable(state: dict[str, Any]) -> bool:
    view = state["view"]
    if view is None:
        return False
    if view["stage"] == "game_over":
        return True
    return state["table"]["seats"][view["current"]]["kind"] == "human"


def create(client: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Ann")
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def join(client: Any, table: str, name: str) -> dict[str, Any]:
    response = client.post(f"/api/tables/{table}/join", json={"name": name})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


@contextmanager
def two_players_and_a_watcher(
    client: Any, host: dict[str, Any], guest: dict[str, Any]
) -> Iterator[tuple[Client, Client, Client]]:
    """Sockets for the host, the guest (by their tokens) and a spectator of the host's table."""
    url = f"/ws/{host['table']}"
    with (
        client.websocket_connect(url) as a,
        client.websocket_connect(url) as b,
        client.websocket_connect(url) as s,
    ):
        yield Client(a, host["token"]), Client(b, guest["token"]), Client(s)


def play_out(
    players: list[Client], watchers: Iterable[Client] = (), *, upto: int | None = None
) -> dict[str, Any]:
    """Play the seated clients with greedy bots (seeded by seat) until the game ends or
    ``upto`` actions are played; returns the last stable state."""
    watchers = list(watchers)
    by_seat = {client.seat: client for client in players}
    bots = {seat: make_player("greedy", random.Random(seat)) for seat in by_seat}
    version = 0
    order = players + watchers
    while True:
        states = [client.wait_stable(version) for client in order]
        state = states[0]
        assert {s["version"] for s in states} == {state["version"]}
        view = state["view"]
        if view["stage"] == "game_over" or (upto is not None and state["version"] >= upto):
            return state
        seat = view["current"]
        actor = by_seat[seat]
        mine = next(s for s in reversed(actor.states()) if s["version"] == state["version"])
        action = bots[seat].choose(PlayerView.from_dict(mine["view"]))
        actor.send({"type": "action", "action": str(action), "version": state["version"]})
        order = [actor] + [client for client in players + watchers if client is not actor]
        version = state["version"] + 1


def check_no_leaks(record: dict[str, Any], clients: Iterable[Client]) -> int:
    """Every message each client received holds exactly what its seat may know: the view
    the engine computes for that seat at that version, the public table, never the seed.
    Returns the number of messages checked."""
    saved = GameRecord.from_dict(record)
    seed_text = str(saved.seed)
    game = saved.new_game()
    names = list(saved.players)
    logs = {
        viewer: EventLog(names, saved.rules, viewer=viewer, you=viewer, verbose=True)
        for viewer in [None, *range(len(names))]
    }
    for event_log in logs.values():
        event_log.feed(game.history)
    expected: dict[tuple[int, int | None], tuple[dict[str, Any], list[str], Any, Any]] = {}
    for version in range(len(saved.actions) + 1):
        for viewer in logs:
            view = game.view(viewer)
            expected[version, viewer] = (
                view.to_dict(),
                logs[viewer].lines[-LOG_LINES:],
                legal_block(view),
                progress_block(view),
            )
        if version < len(saved.actions):
            events = game.apply(saved.actions[version])
            for event_log in logs.values():
                event_log.feed(events)
    checked = 0
    for client in clients:
        for message in client.messages:
            raw = json.dumps(message)
            assert len(seed_text) < 6 or seed_text not in raw, message["type"]
            checked += 1
            if message["type"] != "state":
                assert message["type"] in {"welcome", "error", "choices", "hint", "pong", "goodbye"}
                continue
            assert message["you"] == client.seat
            assert set(message["table"]) == TABLE_KEYS
            assert set(message["table"]["options"]) == OPTION_KEYS
            if message["view"] is None:
                continue
            if message["table"]["game_no"] != int(saved.tag("game") or 1):
                continue
            assert set(message["view"]) == VIEW_KEYS
            view, lines, legal, progress = expected[message["version"], client.seat]
            assert message["view"] == view
            assert message["log"] == lines
            # the seat's choices are the engine's (tests/test_server_legal.py): none for a watcher
            assert message["legal"] == legal and message["progress"] == progress
    return checked


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def server(database: Path | str, port: int, *options: str) -> Iterator[subprocess.Popen[bytes]]:
    """A real ``phase10 serve`` on a free port (killed at the end if still running), on a
    SQLite file or a database URL."""
    import httpx

    url = database if isinstance(database, str) else f"sqlite:///{database}"
    command = [sys.executable, "-m", "phase10.cli", "serve", "--port", str(port)]
    command += ["--database-url", url, "--bot-delay", "0", *options]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)

"""A real ``phase10 serve`` killed with SIGKILL mid-game resumes with no action lost,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import os
import random
import signal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
sync_client = pytest.importorskip("websockets.sync.client")

from phase10.bots import make_player  # noqa: E402
from phase10.core import GameRecord, PlayerView  # noqa: E402
from server_support import free_port, server  # noqa: E402


class Seat:
    def __init__(self, port: int, table: str, token: str) -> None:
        self.ws = sync_client.connect(f"ws://127.0.0.1:{port}/ws/{table}", legacy=True)
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.state: dict[str, Any] = {}

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
        assert message["type"] != "error", message
        if message["type"] == "state":
            self.state = message
        return message

    def wait(self, version: int) -> dict[str, Any]:
        """The first state at ``version`` or later where this seat or nobody is to move."""
        while True:
            message = self.receive()
            view = message.get("view")
            if message["type"] != "state" or view is None or message["version"] < version:
                continue
            seats = message["table"]["seats"]
            if view["stage"] == "game_over" or seats[view["current"]]["kind"] == "human":
                return message


def play(seat: Seat, state: dict[str, Any], stop: int | None) -> tuple[int, dict[str, Any]]:
    """Play greedy actions for the seat from ``state`` until ``stop`` actions (or the end);
    returns the number of actions acknowledged by the server and the last state."""
    bot = make_player("greedy", random.Random(1))
    while True:
        if state["view"]["stage"] == "game_over" or (stop is not None and state["version"] >= stop):
            return state["version"], state
        action = bot.choose(PlayerView.from_dict(state["view"]))
        seat.ws.send(json.dumps({"type": "action", "action": str(action)}))
        state = seat.wait(state["version"] + 1)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_sigkill_then_restart_loses_no_action(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    database: Path | str = tmp_path / "crash.sqlite3"
    if kind == "postgresql":
        database = request.getfixturevalue("postgres_url")
    port = free_port()
    with server(database, port, "--rate-limit", "1000") as process:
        base = f"http://127.0.0.1:{port}"
        body = {"name": "Ann", "seats": 2, "preset": "short-5", "seed": 424_242_424}
        host = httpx.post(f"{base}/api/tables", json=body).json()
        ann = Seat(port, host["table"], host["token"])
        ann.ws.send(json.dumps({"type": "start"}))
        acknowledged, before = play(ann, ann.wait(0), stop=40)
        # the next action is in flight when the server dies
        ann.ws.send(json.dumps({"type": "action", "action": "draw"}))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    assert acknowledged >= 40
    with server(database, port, "--rate-limit", "1000"):
        ann = Seat(port, host["table"], host["token"])
        state = ann.wait(0)
        assert state["version"] >= acknowledged
        if state["version"] == acknowledged:
            assert state["view"] == before["view"]
        total, final = play(ann, state, stop=None)
        assert final["view"]["stage"] == "game_over"
        record = httpx.get(f"{base}/api/records/{final['table']['record_id']}").json()
    saved = GameRecord.from_dict(record)
    assert len(saved.actions) == total
    assert saved.replay().winners == tuple(final["view"]["winners"])
    if isinstance(database, Path):
        assert os.path.exists(str(database) + "-wal") or database.stat().st_size > 0

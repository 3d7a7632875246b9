"""The example client of `phase10 serve` (examples/clients/ws_client.py) plays a whole game
against bots through a real server, choosing only from each state's `legal` block."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from phase10.server.limits import Limits
from server_support import ROOMY, free_port, make_app

CLIENT = Path(__file__).resolve().parents[1] / "examples" / "clients" / "ws_client.py"


def _client_module() -> Any:
    spec = importlib.util.spec_from_file_location("ws_client", CLIENT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextmanager
def served(database: Path, limits: Limits = ROOMY) -> Iterator[str]:
    """A real server on a free port, in a thread of this process (no start-up imports)."""
    uvicorn = pytest.importorskip("uvicorn")
    port = free_port()
    app = make_app(f"sqlite:///{database}", limits=limits)
    config = uvicorn.Config(app, port=port, log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not instance.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        instance.should_exit = True
        thread.join(10)


def test_the_websocket_client_plays_a_short_game_to_its_end(tmp_path: Path) -> None:
    client = _client_module()
    with served(tmp_path / "games.sqlite") as url:
        final = client.play(url, name="Wes", seats=2, preset="short-5",
                            options={"advance": "all"}, bots="greedy")  # fmt: skip
        record = httpx.get(f"{url}/api/records/{final['table']['last_game']['record_id']}").json()
    assert final["table"]["status"] == "over" and final["view"]["winners"]
    assert final["table"]["last_game"]["players"] == ["Wes", final["table"]["seats"][1]["name"]]
    assert len(final["view"]["hand_results"]) == 5  # advance = all: one hand per phase
    # every action, the client's among them, is in the finished game's record
    assert len(record["actions"]) == final["version"]


def test_the_client_sends_again_an_action_dropped_for_coming_too_fast(tmp_path: Path) -> None:
    """Against bots that play at once a game goes faster than a connection's message
    tokens: the client's actions are dropped (`rate_limited`) and it sends them again."""
    client = _client_module()
    tight = dataclasses.replace(ROOMY, message_rate=20, message_burst=2)
    with served(tmp_path / "games.sqlite", tight) as url:
        final = client.play(url, name="Wes", seats=2, preset="short-5",
                            options={"advance": "all"}, bots="greedy")  # fmt: skip
    assert final["table"]["status"] == "over" and final["view"]["winners"]


def test_the_client_chooses_from_the_legal_block_only() -> None:
    client = _client_module()
    empty: dict[str, Any] = {"give": [], "declare": [], "draw": [], "hits": [], "discards": [],
                             "skips": [], "lay": {"ways": []}}  # fmt: skip
    assert client.choose(empty) is None
    assert client.choose({**empty, "draw": [{"action": "draw"}, {"action": "take"}]}) == "draw"
    hits = [{"hits": []}, {"hits": [{"action": "hit R8 g1"}]}]
    assert client.choose({**empty, "hits": hits, "discards": [{"action": "discard R9"}]}) == (
        "hit R8 g1"
    )
    assert client.choose({**empty, "skips": [{"action": "discard S>p1"}]}) == "discard S>p1"


if __name__ == "__main__":  # pragma: no cover
    sys.exit("run with pytest")

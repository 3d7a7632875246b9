"""The server in-process, on SQLite and on PostgreSQL: tables, joining, bots, a whole
game over several sockets, rejoining, the turn timer, a rematch, history and replay."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

from phase10.core import Rules, preset
from phase10.core.rules_text import explain_rules
from server_support import (
    Client,
    check_no_leaks,
    create,
    free_port,
    join,
    make_app,
    play_out,
    two_players_and_a_watcher,
)


@pytest.fixture
def db(database_url: str) -> str:
    """SQLite, then PostgreSQL (tests/conftest.py)."""
    return database_url


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(make_app(db, seed=905_117_330)) as test_client:
        yield test_client


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/history", "/replay/3", "/companion"):
        response = client.get(path)
        assert response.status_code == 200
        assert '<script type="module"' in response.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/style.css").status_code == 200


def test_create_join_and_the_lobby(client: TestClient) -> None:
    host = create(client, name="Ann", seats=3, bots="random")
    assert len(host["token"]) >= 32 and host["link"].endswith(host["token"])
    guest = join(client, host["table"], "Bob")
    assert guest["seat"] == 1 and guest["token"] != host["token"]
    info = client.get(f"/api/tables/{host['table']}").json()
    assert [seat["kind"] for seat in info["seats"]] == ["human", "human", "open"]
    assert "seed" not in info["options"]
    # the rules in sentences, the same the terminal game shows (the browser's Rules panel)
    assert info["options"]["rules_text"] == explain_rules(Rules())
    masters = create(client, name="Cy", seats=2, preset="masters")
    options = client.get(f"/api/tables/{masters['table']}").json()["options"]
    assert options["rules_text"] == explain_rules(preset("masters"))
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        state = ann.wait_stable(0)
        assert state["table"]["seats"][2]["kind"] == "bot"
        assert state["table"]["status"] == "playing"
    third = client.post(f"/api/tables/{host['table']}/join", json={"name": "Cy"})
    assert third.status_code == 409 and third.json()["error"] == "already_started"


def test_bad_requests_get_specific_errors(client: TestClient) -> None:
    assert client.post("/api/tables", json={"name": ""}).json()["error"] == "bad_name"
    assert client.post("/api/tables", json={"name": "A", "seats": 7}).status_code == 422
    bad = client.post("/api/tables", json={"name": "A", "preset": "nope"})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_rules"
    bad = client.post("/api/tables", json={"name": "A", "options": {"advance": "sideways"}})
    assert bad.json()["error"] == "bad_rules"
    assert client.get("/api/tables/nothere").json()["error"] == "no_such_table"
    with client.websocket_connect("/ws/nothere") as ws:
        assert ws.receive_json()["code"] == "no_such_table"


def test_a_whole_game_two_people_a_bot_and_a_spectator(client: TestClient) -> None:
    host = create(client, name="Ann", seats=3, bots="greedy", preset="short-5")
    guest = join(client, host["table"], "Bob")
    with two_players_and_a_watcher(client, host, guest) as (ann, bob, watcher):
        assert (ann.seat, bob.seat, watcher.seat) == (0, 1, None)
        ann.send({"type": "start"})
        final = play_out([ann, bob], [watcher])
        assert final["view"]["stage"] == "game_over" and final["view"]["winners"]
        record_id = final["table"]["record_id"]
        assert record_id is not None
    record = client.get(f"/api/records/{record_id}").json()
    assert record["tags"]["controllers"] == "human,human,greedy"
    assert len(record["actions"]) == final["version"]
    assert check_no_leaks(record, [ann, bob, watcher]) > 3 * len(record["actions"])
    history = client.get("/api/history").json()["games"]
    assert history[0]["id"] == record_id and history[0]["players"] == ["Ann", "Bob", "Cy"]
    frame = client.get(f"/api/records/{record_id}/replay", params={"step": 3}).json()
    assert frame["step"] == 3 and frame["action"] == record["actions"][2]
    assert all(len(hand.split()) >= 9 for hand in frame["hands"])


def test_rejoin_with_the_same_link_after_a_disconnect(client: TestClient) -> None:
    host = create(client, name="Ann", seats=2, preset="short-5", seed=9)
    url = f"/ws/{host['table']}"
    with client.websocket_connect(url) as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        state = ann.wait_stable(0)
        ann.send({"type": "action", "action": "draw", "version": state["version"]})
        after = ann.next_of("state")
        hand = after["view"]["hand"]
    with client.websocket_connect(url) as ws:
        again = Client(ws, host["token"])
        state = again.next_of("state")
        assert state["version"] == after["version"] and state["view"]["hand"] == hand
        assert state["view"]["stage"] == "play"


def test_the_turn_timer_lets_a_stand_in_play_the_turn(db: str) -> None:
    with TestClient(make_app(db, seed=3)) as client:
        host = create(client, name="Ann", seats=2, turn_seconds=1)
        with client.websocket_connect(f"/ws/{host['table']}") as ws:
            ann = Client(ws, host["token"])
            ann.send({"type": "start"})
            first = ann.wait_stable(0)
            assert first["view"]["current"] == 0 and 0 < first["table"]["turn_left"] <= 1
            later = ann.wait_stable(first["version"] + 1)
            assert later["version"] > first["version"]
    by = _actions_by(db, host["table"])
    assert by[first["version"]] == "timer"
    assert set(by[: first["version"]]) <= {"bot"}


def _actions_by(db: str, table: str) -> list[str]:
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    with engine.connect() as connection:
        rows = connection.execute(
            text("select by from actions where table_id = :t order by number"), {"t": table}
        )
        return [row[0] for row in rows]


def test_rematch_starts_a_new_game_at_the_same_table(client: TestClient) -> None:
    host = create(client, name="Ann", seats=2, preset="short-5", seed=2)
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "rematch"})
        assert ann.error()["code"] == "game_not_over"
        ann.send({"type": "start"})
        final = play_out([ann])
        assert final["view"]["stage"] == "game_over"
        ann.send({"type": "rematch"})
        state = ann.wait_stable(0)
        while state["table"]["game_no"] != 2:
            state = ann.wait_stable(0)
        assert state["table"]["status"] == "playing" and state["table"]["record_id"] is None


def test_tables_resume_from_the_database(db: str) -> None:
    with TestClient(make_app(db, seed=4)) as client:
        host = create(client, name="Ann", seats=2, preset="short-5", seed=4)
        with client.websocket_connect(f"/ws/{host['table']}") as ws:
            ann = Client(ws, host["token"])
            ann.send({"type": "start"})
            middle = play_out([ann], upto=30)
    app = make_app(db)
    with TestClient(app) as client, client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        state = ann.next_of("state")
        assert state["version"] == middle["version"]
        assert state["view"] == middle["view"]


def test_serve_refuses_bad_options() -> None:
    from typer.testing import CliRunner

    from phase10.cli.app import app

    runner = CliRunner()
    port = str(free_port())
    result = runner.invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "port" in result.output
    result = runner.invoke(app, ["serve", "--port", port, "--database-url", "nosuchdb://x"])
    assert result.exit_code == 2 and "cannot open the database" in result.output
    for option, value, message in [
        ("--rate-limit", "0", "the rate limit is a number of messages a second above 0, not 0.0"),
        ("--rate-limit", "inf", "above 0, not inf"),
        ("--rate-limit", "nan", "above 0, not nan"),
        ("--bot-delay", "-1", "the bot delay is 0 to 60 seconds, not -1.0"),
        ("--bot-delay", "nan", "the bot delay is 0 to 60 seconds, not nan"),
        ("--bot-delay", "inf", "the bot delay is 0 to 60 seconds, not inf"),
        ("--host", "not a host!", "cannot listen on not a host!:"),
        ("--database-url", "", "--database-url is empty"),
        (
            "--database-url",
            "sqlite:////nonexistent-phase10/db.sqlite3",
            "cannot open the database: its folder /nonexistent-phase10 does not exist",
        ),
        (
            "--database-url",
            f"sqlite:///{__file__}/db",
            f"its folder {__file__} is not a folder",
        ),
    ]:
        result = runner.invoke(app, ["serve", "--port", port, option, value])
        assert result.exit_code == 2 and result.stdout == "", (option, value)
        assert result.stderr.startswith("error: ") and message in result.stderr, (option, value)


def test_serve_refuses_a_database_another_server_is_using(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from phase10.cli.app import app
    from phase10.server.db import Store

    database = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    running = Store(database)  # (as a server on another port holds it)
    running.claim()
    try:
        args = ["serve", "--port", str(free_port()), "--database-url", database]
        result = CliRunner().invoke(app, args)
    finally:
        running.close()
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(
        f"error: another phase10 server is using the database {tmp_path / 'server.sqlite3'}: "
    )
    assert "--database-url sqlite:///FILE" in result.stderr


def test_serve_says_when_its_port_is_taken(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from phase10.cli.app import app

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        database = f"sqlite:///{tmp_path / 'never.db'}"
        args = ["serve", "--port", str(port), "--database-url", database]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}: ")
    assert not (tmp_path / "never.db").exists()  # refused before the database is made


def test_serve_keeps_full_garbage_collections_rare() -> None:
    import gc

    from phase10.cli.serve import quiet_garbage_collector

    before = gc.get_threshold()
    try:
        quiet_garbage_collector()
        assert gc.get_threshold() == (5000, 5, 1000)
        assert gc.get_freeze_count() > 0  # what was loaded at start is out of sight
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)

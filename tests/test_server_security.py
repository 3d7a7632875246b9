"""The server gives nothing away and lets nothing through: every message a client
receives holds only its own view; bad tokens, out-of-turn, stale, malformed, oversized
and flooding messages are refused with a specific error and change nothing."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from phase10.bots import make_player
from phase10.core import PlayerView, Refusal
from phase10.server.db import RecordRow
from phase10.server.limits import Limits
from phase10.server.protocol import ERRORS, MAX_MESSAGE_BYTES
from server_support import (
    Client,
    check_no_leaks,
    create,
    join,
    make_app,
    play_out,
    two_players_and_a_watcher,
)

SEED = 771_204_993_115


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return make_app(f"sqlite:///{tmp_path / 's.sqlite3'}", seed=SEED, limits=Limits())


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def started(client: TestClient, seats: int = 2) -> tuple[dict[str, Any], dict[str, Any]]:
    host = create(client, name="Ann", seats=seats, preset="short-5")
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
        assert actor.next_of("error")["code"] in {"no_choice", "not_held"}
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
        last = "B" if host["token"].endswith("A") else "A"  # (a random token may end in A)
        intruder.send({"type": "hello", "token": host["token"][:-1] + last})
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
            (mover, {"type": "choices", "kind": "lay", "cards": "R1 R2 R3 R4 R5"}, "not_held"),
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
            (mover, {"type": "action", "action": "fly away " * 44}, "invalid_action"),
            (mover, {"type": "action", "action": "discard " + "R7 " * 130}, ""),
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
            assert len(error["message"]) < 300, error  # what was sent, only in part
            if error["code"] in {"illegal_action", "invalid_action", "not_held"}:
                assert Refusal(error["reason"]), error  # the engine's reason, sent along
            else:
                assert "reason" not in error, error
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

    from phase10.server.connection import Connection

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

    async def big_messages() -> Connection:
        """A few large states fill the queue's bytes long before its count."""
        conn = Connection(send, time.monotonic)
        state = "x" * (QUEUE_BYTES // 8)
        for _ in range(9):
            conn.push(state)
        assert conn.queued == 0 and conn.overflowed  # dropped at the ninth, backlog gone
        await asyncio.wait_for(conn.writer(), timeout=5)
        return conn

    from phase10.server.connection import QUEUE_BYTES

    assert asyncio.run(big_messages()).overflowed and sent == []


# -- attacks: each was possible against the server before it was hardened ----------------

#: 48 distinct cards: every number of every colour (a hand holds at most 11)
EVERY_CARD = " ".join(f"{colour}{number}" for colour in "RBGY" for number in range(1, 13))


def fresh_app(tmp_path: Path, **changes: Any) -> Any:
    """An app with the default limits but for ``changes`` (one test client, one address)."""
    limits = Limits().with_changes(f"{name}={value}" for name, value in changes.items())
    return make_app(f"sqlite:///{tmp_path / 'attack.sqlite3'}", seed=SEED, limits=limits)


def solo(client: TestClient, **body: Any) -> tuple[dict[str, Any], Client, Any]:
    """A started two-seat table of Ann and a bot; returns the seat, Ann and her socket."""
    host = create(client, name="Ann", seats=2, **body)
    ws = client.websocket_connect(f"/ws/{host['table']}").__enter__()
    ann = Client(ws, host["token"])
    ann.send({"type": "start"})
    return host, ann, ws


def to_play_stage(ann: Client) -> dict[str, Any]:
    """Ann's state once it is her turn and she has drawn."""
    state = ann.wait_stable(0)
    while state["view"]["stage"] != "draw" or state["view"]["current"] != 0:
        if state["view"]["stage"] == "declare":
            ann.send({"type": "action", "action": "declare 1", "version": state["version"]})
        state = ann.wait_stable(state["version"] + 1)
    ann.send({"type": "action", "action": "draw", "version": state["version"]})
    return ann.wait_stable(state["version"] + 1)


def test_choices_naming_cards_not_held_are_refused_at_once(tmp_path: Path) -> None:
    """48 distinct cards (the lay-down search on them ran for minutes on the event loop),
    or 40 Wilds under natural_min=phase: refused as not held, without any search."""
    with TestClient(fresh_app(tmp_path)) as client:
        for options in ({}, {"natural_min": "phase"}):
            _, ann, ws = solo(client, preset="arkansas", options=options)
            state = to_play_stage(ann)
            assert state["view"]["stage"] == "play"
            for cards in (EVERY_CARD, " ".join(["W"] * 40), "W W W W W W W W W"):
                ann.send({"type": "choices", "kind": "lay", "cards": cards})
                error = ann.error()
                assert error["code"] == "not_held", error
                assert len(error["message"]) < 80
            ann.send({"type": "ping"})
            ann.next_of("pong")
            held = state["view"]["hand"].split()[:2]
            ann.send({"type": "choices", "kind": "lay", "cards": " ".join(held)})
            error = ann.next_of("error")
            assert (error["code"], error["reason"]) == ("no_choice", "not_the_phase"), error
            ws.__exit__(None, None, None)
        assert client.get("/healthz").json()["ok"]


def test_the_search_functions_refuse_more_cards_than_a_hand_holds() -> None:
    from phase10.bots.hints import plan_turn
    from phase10.core import NaturalMin, Phase, SearchLimitError, lay_downs, parse_cards
    from phase10.core.laydowns import best_lay_down
    from phase10.solver.tactics import best_hits

    cards = parse_cards(EVERY_CARD)
    phase = Phase.parse("1 set of 4 + 1 run of 4")
    with pytest.raises(SearchLimitError, match="at most 11 cards, not 48"):
        next(lay_downs(phase, cards, NaturalMin.GROUP))
    with pytest.raises(SearchLimitError, match="at most 11"):
        best_lay_down(phase, cards, NaturalMin.PHASE)
    with pytest.raises(SearchLimitError, match="at most 11"):
        best_hits([], cards)
    with pytest.raises(SearchLimitError, match="at most 11"):
        plan_turn(phase, cards)
    wilds = parse_cards("W W W W W R6 R7 R8 R9 R10 R11")
    with pytest.raises(SearchLimitError, match="too many ways"):
        list(lay_downs(Phase.parse("11 sets of 1"), wilds, NaturalMin.PHASE, max_steps=1000))


def test_a_table_with_two_people_never_uses_a_seed_its_host_chose(tmp_path: Path) -> None:
    with TestClient(make_app(f"sqlite:///{tmp_path / 's.sqlite3'}")) as client:
        seeded = create(client, name="Ann", seats=3, seed=12345)
        refused = client.post(f"/api/tables/{seeded['table']}/join", json={"name": "Bob"})
        assert refused.status_code == 409 and refused.json()["error"] == "seeded_table"
        info = client.get(f"/api/tables/{seeded['table']}").json()
        assert info["options"]["seeded"] is True and "12345" not in json.dumps(info)
        plain = create(client, name="Ann", seats=2)
        assert client.get(f"/api/tables/{plain['table']}").json()["options"]["seeded"] is False
    # left to itself the server draws every seed from the secrets module
    from phase10.server.manager import secret_seed

    assert len({secret_seed() for _ in range(20)}) == 20


def test_hints_are_priced_one_at_a_time_and_dropped_with_their_connection(
    tmp_path: Path,
) -> None:
    app = fresh_app(tmp_path)
    manager = app.state.manager
    with TestClient(app) as client:
        _, ann, ws = solo(client)
        to_play_stage(ann)
        for _ in range(8):  # 8 hints at once: 80 tokens where a connection holds 60
            ann.send({"type": "hint"})
        answers = [ann.receive() for _ in range(8)]
        codes = [m.get("code") for m in answers if m["type"] == "error"]
        assert "busy" in codes and "rate_limited" in codes
        assert sum(m["type"] == "hint" for m in answers) <= 1
        ws.__exit__(None, None, None)
        deadline = time.monotonic() + 10
        while manager.jobs or manager.pool.waiting:
            assert time.monotonic() < deadline, "the hint outlived its connection"
            time.sleep(0.02)


def test_the_message_size_limit_is_the_server_s_own(tmp_path: Path) -> None:
    """``--limit max_message_bytes=N`` bounds what a client may send."""
    with TestClient(fresh_app(tmp_path, max_message_bytes=300)) as client:
        _, ann, ws = solo(client)
        ann.send({"type": "ping", "pad": "z" * 280})
        refused = ann.error()
        assert refused["code"] == "too_large" and "300 bytes" in refused["message"]
        ann.send({"type": "ping"})  # the connection goes on
        assert ann.next_of("pong")
        ws.__exit__(None, None, None)


def test_a_move_the_database_refuses_is_said_and_the_connection_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError

    app = fresh_app(tmp_path)
    manager = app.state.manager

    def locked(*args: object) -> None:
        raise OperationalError("INSERT INTO actions", {}, Exception("database is locked"))

    with TestClient(app) as client:
        host, ann, ws = solo(client)
        state = ann.wait_stable(0)
        while state["view"]["current"] != state["you"]:  # (the bot moves first, maybe)
            state = ann.wait_stable(state["version"] + 1)
        monkeypatch.setattr(manager.store, "append_action", locked)
        ann.send({"type": "action", "action": "draw", "version": state["version"]})
        refused = ann.error()
        assert refused["code"] == "server_error" and "try again" in refused["message"]
        table = manager.tables[host["table"]]
        assert table.version == state["version"]  # nothing was played
        monkeypatch.undo()
        ann.send({"type": "action", "action": "draw", "version": state["version"]})
        assert ann.wait_stable(state["version"] + 1)["version"] == state["version"] + 1
        ws.__exit__(None, None, None)


def test_hints_count_against_the_address_s_thinking_time(tmp_path: Path) -> None:
    app = fresh_app(tmp_path)
    manager = app.state.manager
    with TestClient(app) as client:
        _, ann, ws = solo(client)
        to_play_stage(ann)
        thinking = manager.visitors.thinking.get("testclient")
        before = thinking.tokens
        ann.send({"type": "hint"})
        assert ann.next_of("hint")["text"]
        assert thinking.tokens < before  # the hint's time was charged
        thinking.charge(1000.0)  # the address's thinking time is spent, and more
        ann.send({"type": "hint"})
        refused = ann.error()
        assert refused["code"] == "busy" and "ask again in" in refused["message"]
        ws.__exit__(None, None, None)


def test_tables_are_private_unless_their_host_says_otherwise(tmp_path: Path) -> None:
    with TestClient(fresh_app(tmp_path)) as client:
        private = create(client, name="Ann", seats=3)
        public = create(client, name="Cy", seats=3, public=True)
        listed = [table["id"] for table in client.get("/api/tables").json()["tables"]]
        assert listed == [public["table"]]
        assert private["table"] not in client.get("/").text


def test_the_host_removes_a_player_gives_a_seat_to_a_bot_and_hands_over(tmp_path: Path) -> None:
    with TestClient(fresh_app(tmp_path)) as client:
        host = create(client, name="Ann", seats=4)
        bob = join(client, host["table"], "Bob")
        cy = join(client, host["table"], "Cy")
        url = f"/ws/{host['table']}"
        with (
            client.websocket_connect(url) as a,
            client.websocket_connect(url) as b,
            client.websocket_connect(url) as c,
        ):
            ann, bob_s, cy_s = (
                Client(a, host["token"]),
                Client(b, bob["token"]),
                Client(c, cy["token"]),
            )
            bob_s.send({"type": "remove_player", "seat": 0})
            assert bob_s.error()["code"] == "not_host"
            ann.send({"type": "remove_player", "seat": 0})
            assert ann.error()["code"] == "no_such_seat"
            ann.send({"type": "remove_player", "seat": 1})
            assert bob_s.next_of("goodbye")["reason"] == "the host removed you from the table"
            with pytest.raises(WebSocketDisconnect) as closed:
                bob_s.receive()
            assert closed.value.code == 4403
            state = ann.next_of("state")
            assert [s["kind"] for s in state["table"]["seats"]] == [
                "human",
                "open",
                "human",
                "open",
            ]
            ann.send({"type": "seat_bot", "seat": 3})
            state = ann.next_of("state")
            assert state["table"]["seats"][3]["kind"] == "bot"
            ann.send({"type": "hand_over", "seat": 2})
            assert cy_s.next_of("welcome")["host"] is True
            cy_s.send({"type": "start"})
            while cy_s.next_of("state")["table"]["status"] != "playing":
                pass
        with client.websocket_connect(url) as again:
            gone = Client(again, hello=False)
            gone.send({"type": "hello", "token": bob["token"]})
            assert gone.error()["code"] == "seat_gone"


def test_a_lobby_whose_host_left_gets_a_new_host(tmp_path: Path) -> None:
    with TestClient(fresh_app(tmp_path, host_away_seconds=0.2)) as client:
        host = create(client, name="Ann", seats=3)
        bob = join(client, host["table"], "Bob")
        url = f"/ws/{host['table']}"
        with client.websocket_connect(url) as b:
            bob_s = Client(b, bob["token"])
            with client.websocket_connect(url) as a:
                Client(a, host["token"])
            welcome = bob_s.next_of("welcome")  # sent again when the role changes hands
            assert welcome["host"] is True and welcome["seat"] == 1
        assert client.get(f"/api/tables/{host['table']}").json()["host"] == 1


def test_abandoned_lobbies_expire_and_finished_games_stay(tmp_path: Path) -> None:
    app = fresh_app(tmp_path)
    manager = app.state.manager
    with TestClient(app) as client:
        idle = create(client, name="Ann", seats=2)
        busy = create(client, name="Bob", seats=2)
        manager.wall = lambda: time.time() + 25 * 3600
        with client.websocket_connect(f"/ws/{busy['table']}") as ws:
            Client(ws, busy["token"])
            assert client.portal.call(manager.sweep) == 1  # type: ignore[union-attr]
        assert client.get(f"/api/tables/{idle['table']}").json()["error"] == "no_such_table"
        assert client.get(f"/api/tables/{busy['table']}").status_code == 200


def test_per_address_limits_on_tables_joins_and_connections(tmp_path: Path) -> None:
    app = fresh_app(
        tmp_path, create_burst=3, join_burst=2, connections_per_address=4, max_tables=100
    )
    with TestClient(app) as client:
        made = [client.post("/api/tables", json={"name": "Ann", "seats": 6}) for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert made[3].json()["error"] == "rate_limited"
        table = made[0].json()["table"]
        joins = [
            client.post(f"/api/tables/{table}/join", json={"name": name}).status_code
            for name in ("Bob", "Cy", "Dee")
        ]
        assert joins == [200, 200, 429]
        with contextlib.ExitStack() as stack:
            opened = [
                stack.enter_context(client.websocket_connect(f"/ws/{table}")) for _ in range(5)
            ]
            assert opened[4].receive_json()["code"] == "too_many_connections"


def test_a_table_takes_a_bounded_number_of_watchers_who_cost_the_players_nothing(
    tmp_path: Path,
) -> None:
    with TestClient(fresh_app(tmp_path, connections_per_table=4)) as client:
        host = create(client, name="Ann", seats=2)
        url = f"/ws/{host['table']}"
        with client.websocket_connect(url) as a, contextlib.ExitStack() as stack:
            ann = Client(a, host["token"])
            ann.next_of("state")
            before = len(ann.messages)
            watchers = [stack.enter_context(client.websocket_connect(url)) for _ in range(5)]
            for ws in watchers[:4]:
                Client(ws)
            Client(watchers[4], hello=False).send({"type": "hello"})
            refused = watchers[4].receive_json()
            assert refused["code"] == "too_many_connections"
            assert "4 spectators" in refused["message"]
            ann.send({"type": "ping"})
            ann.next_of("pong")
            assert len(ann.messages) == before + 1  # no state for the watchers' arrival
            # the watchers never crowd out the players: Ann's seat opens in two more places
            more = [stack.enter_context(client.websocket_connect(url)) for _ in range(3)]
            for ws in more[:2]:
                assert Client(ws, host["token"]).seat == 0  # (welcomed)
            Client(more[2], hello=False).send({"type": "hello", "token": host["token"]})
            crowded = more[2].receive_json()
            assert crowded["code"] == "too_many_connections" and "3 places" in crowded["message"]


def test_the_server_holds_a_bounded_number_of_tables(tmp_path: Path) -> None:
    with TestClient(fresh_app(tmp_path, max_tables=2)) as client:
        codes = [client.post("/api/tables", json={"name": "Ann"}).status_code for _ in range(3)]
        assert codes == [201, 201, 503]


def test_bodies_are_bounded_and_errors_never_echo_them(tmp_path: Path) -> None:
    with TestClient(fresh_app(tmp_path)) as client:
        huge = client.post("/api/tables", json={"name": "x" * 70_000})
        assert huge.status_code == 413 and huge.json()["error"] == "too_large"
        assert len(huge.content) < 200

        def chunks() -> Iterator[bytes]:
            yield b'{"name": "'
            for _ in range(100):
                yield b"y" * 1000
            yield b'"}'

        streamed = client.post(
            "/api/tables", content=chunks(), headers={"content-type": "application/json"}
        )
        assert streamed.status_code == 413
        long_value = client.post(
            "/api/tables", json={"name": "A", "options": {"skip_target": "z" * 150}}
        )
        assert long_value.status_code == 422 and len(long_value.content) < 400
        long_key = client.post("/api/tables", json={"name": "A", "options": {"k" * 5000: "x"}})
        assert long_key.status_code == 422 and len(long_key.content) < 400


def test_deeply_nested_json_is_bad_json_on_the_socket_and_over_http(tmp_path: Path) -> None:
    nested = "[" * 1500 + "]" * 1500
    with TestClient(fresh_app(tmp_path)) as client:
        answer = client.post(
            "/api/tables", content=nested, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 400 and answer.json()["error"] == "bad_json"
        host = create(client, name="Ann")
        with client.websocket_connect(f"/ws/{host['table']}") as ws:
            ann = Client(ws, host["token"])
            for text in (nested, '{"type": "hello", "token": ' + nested + "}"):
                ann.send(text)
                assert ann.error()["code"] in {"bad_json", "too_large"}
            ann.send('{"type": "ping", "x": ' + "[" * 600 + "]" * 600 + "}")
            assert ann.error()["code"] == "invalid_message"
            ann.send({"type": "ping"})
            ann.next_of("pong")  # the connection is still open
        missing = client.get("/api/nothing-here")
        assert missing.status_code == 404 and set(missing.json()) == {"error", "message"}
        wrong = client.put("/api/tables")
        assert wrong.status_code == 405 and wrong.json()["error"] == "method_not_allowed"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Al\u202eice", "U+202E"),
        ("\u200b", "U+200B"),
        ("Bo\u0085b", "U+0085"),
        ("Bob (you)", "(you)"),
        ("▶ Ann", "▶"),
        ("   ", "at least one letter"),
        ("\u3164", "U+3164"),
        ("a" * 25, "at most 24"),
        ("a" * 200, "at most 24 characters, not 200"),
    ],
)
def test_names_that_could_pass_for_something_else_are_refused(
    tmp_path: Path, name: str, why: str
) -> None:
    with TestClient(fresh_app(tmp_path)) as client:
        answer = client.post("/api/tables", json={"name": name})
        assert answer.status_code == 422 and answer.json()["error"] == "bad_name"
        assert why in answer.json()["message"]


def test_names_are_normalised_and_unique_at_a_table(tmp_path: Path) -> None:
    with TestClient(fresh_app(tmp_path)) as client:
        host = create(client, name="  Zoe\u0308  ")
        info = client.get(f"/api/tables/{host['table']}").json()
        assert info["seats"][0]["name"] == "Zoë"
        for taken in ("zoë", "ZOË", "Ｚoë"):
            answer = client.post(f"/api/tables/{host['table']}/join", json={"name": taken})
            assert answer.status_code == 409 and answer.json()["error"] == "name_taken"
        join(client, host["table"], "Ann")


def test_types_are_never_converted(tmp_path: Path) -> None:
    with TestClient(fresh_app(tmp_path)) as client:
        for body in (
            {"name": "A", "seats": "3"},
            {"name": "A", "seats": 3.0},
            {"name": "A", "public": "yes"},
            {"name": "A", "seed": "7"},
        ):
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 422 and answer.json()["error"] == "invalid_request", body
        host = create(client, name="Ann")
        with client.websocket_connect(f"/ws/{host['table']}") as ws:
            ann = Client(ws, host["token"])
            for version in ("5", True, 1.0):
                ann.send({"type": "action", "action": "draw", "version": version})
                assert ann.error()["code"] == "invalid_message"
            ann.send({"type": "remove_player", "seat": "1"})
            assert ann.error()["code"] == "invalid_message"


def test_security_headers_head_and_no_public_api_docs(tmp_path: Path) -> None:
    with TestClient(fresh_app(tmp_path)) as client:
        for path in ("/", "/api/presets", "/static/app.js", "/api/nothing"):
            headers = client.get(path).headers
            assert "default-src 'self'" in headers["content-security-policy"]
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert headers["referrer-policy"] == "no-referrer"
            assert headers["x-content-type-options"] == "nosniff"
        head = client.head("/")
        assert head.status_code == 200 and head.content == b""
        assert client.head("/api/presets").status_code == 200
        assert client.get("/api/docs").status_code == 404
        assert client.get("/api/openapi.json").status_code == 404
    app = make_app(f"sqlite:///{tmp_path / 'docs.sqlite3'}", api_docs=True)
    with TestClient(app) as client:
        page = client.get("/api/docs").text
        assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in page
        assert "http" not in page.split("<body>")[0].replace("http-equiv", "")
        assert client.get("/static/vendor/swagger-ui/swagger-ui-bundle.js").status_code == 200
        assert client.get("/api/openapi.json").json()["paths"]


def test_a_removed_players_action_on_its_way_is_refused(app: Any, client: TestClient) -> None:
    """The host removes Bob while Bob's action is on its way: whether it reaches the
    table before the socket closes or waits for the table while the removal is carried
    out, it is refused (``seat_gone``), and the bot that took the seat plays it."""
    from phase10.server.models import ActedBy
    from phase10.server.protocol import ProtocolError
    from phase10.server.routes.socket import _handle

    host, guest = started(client)
    url = f"/ws/{host['table']}"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        ann, bob = Client(a, host["token"]), Client(b, guest["token"])
        ann.send({"type": "start"})
        while ann.next_of("state")["table"]["status"] != "playing":
            pass
        manager = app.state.manager
        table = manager.tables[host["table"]]
        game = table.game
        bob_conn = next(conn for conn in table.conns if conn.seat == 1)
        ann.send({"type": "remove_player", "seat": 1})
        assert bob.next_of("goodbye")["reason"] == "the host removed you from the table"
        before = len(game.actions)

        async def late() -> list[str]:
            codes = []
            pushed: list[Any] = []
            bob_conn.push = pushed.append  # (the socket is closing: keep what it is told)
            await _handle(manager, table, bob_conn, '{"type": "action", "action": "draw"}',
                          manager.limits)  # fmt: skip
            codes.append(json.loads(pushed[-1])["code"] if isinstance(pushed[-1], str)
                         else pushed[-1]["code"])  # fmt: skip
            try:
                await manager.act(table, 1, "draw", by=ActedBy.PLAYER)
            except ProtocolError as error:
                codes.append(error.code)
            return codes

        assert client.portal.call(late) == ["seat_gone", "seat_gone"]
        assert all(by != "player" or n < before for n, by in enumerate(table_by(app, host)))


def table_by(app: Any, host: dict[str, Any]) -> list[str]:
    """Who played each action of the table's game so far, as stored."""
    manager = app.state.manager
    stored: list[str] = manager.store.acted_by(host["table"], 1)
    return stored


def test_a_phase_list_asking_for_countless_groups_is_refused_at_once(
    client: TestClient,
) -> None:
    """A table's phase list comes from its visitor: a count of groups with twenty digits
    once made the server build that many groups (memory without end). It is refused as
    read, in words."""
    started_at = time.monotonic()
    answer = client.post(
        "/api/tables",
        json={"name": "Ann", "options": {"phase_list": ["99999999999999999999 sets of 3"]}},
    )
    assert answer.status_code == 422 and answer.json()["error"] == "bad_rules"
    assert "cannot be made" in answer.json()["message"]
    assert time.monotonic() - started_at < 5


def test_a_private_tables_id_is_never_published_with_its_games(tmp_path: Path) -> None:
    """A table's id is its invitation: the history and the records give it for a listed
    table only, so nobody can find a private table's rematch from its finished game (a
    record an earlier version stored with the id loses it when served)."""
    app = make_app(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    with TestClient(app) as client:
        check_private_ids(app, client)


def check_private_ids(app: Any, client: TestClient) -> None:
    ids = {}
    for listed in (False, True):
        host = create(client, name="Ann", seats=2, bots="greedy", preset="short-5",
                      public=listed)  # fmt: skip
        url = f"/ws/{host['table']}"
        with client.websocket_connect(url) as ws:
            ann = Client(ws, host["token"])
            ann.send({"type": "start"})
            final = play_out([ann])
        ids[listed] = (host["table"], final["table"]["record_id"])
    history = {game["id"]: game for game in client.get("/api/history").json()["games"]}
    (private_table, private_record), (public_table, public_record) = ids[False], ids[True]
    assert history[private_record]["table"] is None
    assert history[public_record]["table"] == public_table
    assert "table" not in client.get(f"/api/records/{private_record}").json()["tags"]
    assert client.get(f"/api/records/{public_record}").json()["tags"]["table"] == public_table
    assert private_table not in client.get("/api/history").text
    # a record stored with the id by an earlier version: served without it
    store = app.state.manager.store
    with store.session() as session:
        row = session.get(RecordRow, private_record)
        data = json.loads(row.record)
        data["tags"]["table"] = private_table
        row.record = json.dumps(data)
    assert private_table not in client.get(f"/api/records/{private_record}").text


def test_a_body_that_is_no_json_object_says_what_to_send(client: TestClient) -> None:
    plain = client.post("/api/tables", content=b'{"name": "Ann"}')
    assert plain.status_code == 422 and plain.json()["error"] == "invalid_request"
    assert plain.json()["message"] == (
        "the body must be a JSON object, sent with the header Content-Type: "
        "application/json (not none)"
    )
    listed = client.post("/api/tables", json=[1])
    assert listed.json()["message"] == "the body must be a JSON object"


def test_a_full_lobby_and_a_finished_game_say_so(tmp_path: Path) -> None:
    with TestClient(make_app(f"sqlite:///{tmp_path / 'f.sqlite3'}")) as client:
        host = create(client, name="Ann", seats=2, bots="greedy", preset="short-5")
        join(client, host["table"], "Bob")
        full = client.post(f"/api/tables/{host['table']}/join", json={"name": "Cy"})
        assert full.status_code == 409 and full.json() == {
            "error": "table_full",
            "message": "every seat at the table is taken",
        }
        solo = create(client, name="Dee", seats=2, bots="greedy", preset="short-5")
        with client.websocket_connect(f"/ws/{solo['table']}") as ws:
            dee = Client(ws, solo["token"])
            dee.send({"type": "start"})
            play_out([dee])
            dee.send({"type": "start"})
            refused = dee.error()
            assert refused["code"] == "game_over" and "rematch" in refused["message"]


def test_sockets_to_unknown_tables_are_paid_for_like_any_other(tmp_path: Path) -> None:
    """Asking for table ids at random is bounded by the same budget of new connections:
    past it, the server refuses before it looks the id up."""
    app = make_app(f"sqlite:///{tmp_path / 'u.sqlite3'}", limits=Limits(connect_burst=3))
    codes = []
    with TestClient(app) as client:
        for number in range(5):
            with client.websocket_connect(f"/ws/nosuch{number}") as ws:
                codes.append(ws.receive_json()["code"])
    assert codes == ["no_such_table"] * 3 + ["too_many_connections"] * 2


def test_a_binary_message_that_is_not_utf8_says_so() -> None:
    from phase10.server.protocol import ProtocolError, parse_client_message

    for data, where in ((b'{"type": "ping"\xff}', "byte 16"), (b"\xed\xa0\x80", "byte 1")):
        with pytest.raises(ProtocolError) as refused:
            parse_client_message(data)
        assert refused.value.code == "bad_json"
        assert refused.value.message == f"the message is not UTF-8 text ({where})"


def _until(done: Any, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def test_a_visitors_bots_wait_once_their_thinking_time_is_spent(tmp_path: Path) -> None:
    """The bots at the tables one address opened share a budget of thinking time: in debt,
    they wait (the server's clock here moves only when the test moves it)."""
    now = [0.0]
    app = make_app(f"sqlite:///{tmp_path / 't.sqlite3'}", seed=SEED, clock=lambda: now[0])
    with TestClient(app) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        host, ann, ws = solo(client)
        table = manager.tables[host["table"]]
        assert table.owner == "testclient"
        thinking = manager.visitors.thinking.get(table.owner)
        assert _until(lambda: table.game is not None)
        greedy = make_player("greedy", random.Random(0))
        while True:  # Ann plays until the bot is to move
            state = ann.wait_stable(table.version)
            if state["view"]["current"] != 0:
                break
            view = PlayerView.from_dict(state["view"])
            action = str(greedy.choose(view))
            ends_turn = view.stage.value == "play" and action.startswith("discard")
            if ends_turn:
                thinking.charge(1000.0)  # the bot's thinking time is spent, and more
            ann.send({"type": "action", "action": action, "version": state["version"]})
            if ends_turn:
                break
        assert _until(lambda: table.game.current == 1 and thinking.wait() > 0)
        played = len(table.game.actions)
        time.sleep(0.3)
        assert len(table.game.actions) == played  # it waits: the debt is not earned back
        now[0] += 1000.0 / Limits().bot_seconds_rate + 1  # ... until it is
        assert _until(lambda: len(table.game.actions) > played)
        assert thinking.tokens < thinking.burst  # what it thought was charged
        ws.__exit__(None, None, None)

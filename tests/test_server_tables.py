"""Table management: a stand-in for an away player (marked in the log), rematches that
wait for everyone and keep the last results, the replay's actors and hands, dead links."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from phase10.bots import make_player
from phase10.core import Game, GameRecord, PlayerView
from server_support import Client, create, join, make_app, play_out, two_players_and_a_watcher


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with TestClient(make_app(f"sqlite:///{tmp_path / 'p10.db'}", seed=905_117_330)) as test:
        yield test


def test_a_stand_in_plays_for_an_away_player_until_they_are_back(client: TestClient) -> None:
    host = create(client, name="Ann", seats=2, preset="short-5", away_seconds=1)
    bob_seat = join(client, host["table"], "Bob")
    url = f"/ws/{host['table']}"
    greedy = make_player("greedy", random.Random(0))
    manager = client.app.state.manager  # type: ignore[attr-defined]
    hand_offs = []
    real_run = manager.thinking.run

    async def counted(owner: str, decide: Any) -> Any:
        hand_offs.append(owner)
        return await real_run(owner, decide)

    manager.thinking.run = counted
    with client.websocket_connect(url) as ws:
        ann = Client(ws, host["token"])
        with client.websocket_connect(url) as ws_bob:
            Client(ws_bob, bob_seat["token"])
            ann.send({"type": "start"})
            ann.next_of("state")
        # Bob has gone: Ann plays her turns, a stand-in plays Bob's after a second
        marked: list[str] = []
        for _ in range(400):
            state = ann.next_of("state")
            seats = state["table"]["seats"]
            if seats[1]["connected"] or state["view"] is None:
                continue  # sent before the deal or before Bob's leaving was seen
            assert seats[1]["away"] is True and seats[0]["away"] is False
            marked = [line for line in state["log"] if "Bot plays for Bob: Bob " in line]
            if marked and state["view"]["current"] == 0 and seats[1]["stand_in"]:
                break
            view = state["view"]
            if view["current"] == 0 and view["stage"] != "game_over":
                action = greedy.choose(PlayerView.from_dict(view))
                ann.send({"type": "action", "action": str(action), "version": state["version"]})
        assert marked, "no stand-in played for Bob"
        assert not any("Bot plays for Ann" in line for line in state["log"])
        # the stand-in decides each of Bob's turns at one hand-off to a thread
        game = manager.tables[host["table"]].game
        replay, bobs = Game(2, seed=game.seed, rules=game.rules), 0
        for action in game.actions:
            bobs += replay.current == 1
            replay.apply(action)
        assert 0 < len(hand_offs) < bobs
        with client.websocket_connect(url) as ws_bob:
            bob = Client(ws_bob, bob_seat["token"])
            back = bob.next_of("state")
            assert back["table"]["seats"][1] == back["table"]["seats"][1] | {
                "away": False,
                "stand_in": False,
                "connected": True,
            }
    by = client.get(f"/api/tables/{host['table']}").json()
    assert by["options"]["away_seconds"] == 1


def test_a_game_nobody_seated_is_at_waits_for_them(client: TestClient) -> None:
    """A stand-in plays for an away player so that the people there are not held up:
    with nobody seated there, the game waits (it would be played out for bots alone),
    and it goes on once someone is back."""
    host = create(client, name="Ann", seats=3, preset="short-5", away_seconds=1)
    bob_seat = join(client, host["table"], "Bob")
    url = f"/ws/{host['table']}"
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table = manager.tables[host["table"]]
    with client.websocket_connect(url) as ws:
        ann = Client(ws, host["token"])
        with client.websocket_connect(url) as ws_bob:
            Client(ws_bob, bob_seat["token"])
            ann.send({"type": "start"})
            while ann.next_of("state")["view"] is None:
                pass
    # both gone: whoever is to move, nobody plays for them (the bot plays its turn only)
    deadline = time.monotonic() + 10
    while table.game is None or table.seats[table.game.current].kind.value == "bot":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    played = len(table.game.actions)
    time.sleep(2.0)  # twice away_seconds
    assert len(table.game.actions) == played and table.away_task is None
    # Bob is back: the game goes on, a stand-in playing Ann's turns (away as she is)
    marked = len(table.marked)
    greedy = make_player("greedy", random.Random(0))
    with client.websocket_connect(url) as ws_bob:
        bob = Client(ws_bob, bob_seat["token"])
        deadline = time.monotonic() + 20
        while len(table.marked) == marked:
            assert time.monotonic() < deadline, "no stand-in played for Ann"
            state = bob.next_of("state")
            view = state["view"]
            if view and view["current"] == bob.seat and state["version"] == table.version:
                action = str(greedy.choose(PlayerView.from_dict(view)))
                bob.send({"type": "action", "action": action, "version": state["version"]})
        assert all(seat == 0 for seat in list(table.marked.values())[marked:])


def test_away_seconds_is_checked_and_zero_means_never(client: TestClient) -> None:
    bad = client.post("/api/tables", json={"name": "Ann", "away_seconds": -1})
    assert bad.status_code == 422
    bad = client.post("/api/tables", json={"name": "Ann", "away_seconds": "60"})
    assert bad.status_code == 422
    table = create(client, name="Ann", away_seconds=0)
    assert client.get(f"/api/tables/{table['table']}").json()["options"]["away_seconds"] == 0
    default = create(client, name="Ann")
    assert client.get(f"/api/tables/{default['table']}").json()["options"]["away_seconds"] == 60


def test_a_rematch_waits_for_the_others_and_keeps_the_last_results(client: TestClient) -> None:
    host = create(client, name="Ann", seats=2, preset="short-5")
    guest = join(client, host["table"], "Bob")
    with two_players_and_a_watcher(client, host, guest) as (ann, bob, watcher):
        ann.send({"type": "start"})
        final = play_out([ann, bob], [watcher])
        record_id = final["table"]["record_id"]
        last = final["table"]["last_game"]
        assert last["record_id"] == record_id and last["players"] == ["Ann", "Bob"]
        assert last["winners"] and len(last["totals"]) == 2
        bob.send({"type": "rematch", "force": True})
        assert bob.error()["code"] == "not_host"
        ann.send({"type": "rematch"})
        waiting = watcher.next_of("state")
        while waiting["table"]["rematch"] != [0]:
            waiting = watcher.next_of("state")
        assert waiting["table"]["status"] == "over" and waiting["table"]["record_id"] == record_id
        assert waiting["view"]["stage"] == "game_over"  # Bob's result screen stays
        bob.send({"type": "rematch"})
        started = watcher.next_of("state")
        while started["table"]["game_no"] != 2:
            started = watcher.next_of("state")
        table = started["table"]
        assert table["status"] == "playing" and table["rematch"] == []
        assert table["record_id"] is None and table["last_game"] == last
        # the host may start it without waiting (a second finished game is not needed:
        # forcing is refused only while a game is on)
        ann.send({"type": "rematch", "force": True})
        assert ann.error()["code"] == "game_not_over"


def test_the_replay_names_who_played_each_step_and_indexes_the_hands(
    client: TestClient,
) -> None:
    host = create(client, name="Ann", seats=3, preset="short-5", seed=4)
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        final = play_out([ann])
    record_id = final["table"]["record_id"]
    record = GameRecord.from_dict(client.get(f"/api/records/{record_id}").json())
    game = record.new_game()
    actors = []
    for text in record.actions:
        actors.append(game.current)
        game.apply(text)
    first = client.get(f"/api/records/{record_id}/replay", params={"step": 0}).json()
    assert first["actor"] is None and first["action"] is None
    index = first["hand_index"]
    assert [hand["hand"] for hand in index] == list(range(1, len(index) + 1))
    assert index[0]["start"] == 0 and index[-1]["end"] == len(record.actions)
    assert all(a["end"] == b["start"] for a, b in pairwise(index))
    assert [hand["result"]["type"] for hand in index] == ["HandEnded"] * len(index)
    skips = [n for n, text in enumerate(record.actions, 1) if text.startswith("discard S")]
    steps = sorted({*skips[:6], *(hand["end"] for hand in index)})
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    reads = []
    real_record = store.record
    store.record = lambda number: reads.append(number) or real_record(number)
    for step in steps:
        frame = client.get(f"/api/records/{record_id}/replay", params={"step": step}).json()
        assert frame["actor"] == actors[step - 1], (step, frame["action"])
        assert frame["actor_name"] == record.players[actors[step - 1]]
        assert frame["hand_index"] == index
    assert reads == []  # the record replayed is kept: not read and parsed again each step


def test_dead_links_get_distinct_errors(client: TestClient) -> None:
    assert client.get("/api/tables/nothere").json()["error"] == "no_such_table"
    assert client.get("/api/records/999999/replay").json()["error"] == "no_such_record"
    with client.websocket_connect("/ws/nothere") as ws:
        assert ws.receive_json()["code"] == "no_such_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    host = create(client, name="Ann", seats=2)
    guest = join(client, host["table"], "Bob")
    url = f"/ws/{host['table']}"
    with client.websocket_connect(url) as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "remove_player", "seat": guest["seat"]})
        ann.next_of("state")
    with client.websocket_connect(url) as ws:
        stale = Client(ws, hello=False)
        stale.send({"type": "hello", "token": guest["token"]})
        assert stale.error()["code"] == "seat_gone"
        stale.send({"type": "hello"})  # the link still lets them watch
        assert stale.next_of("welcome")["role"] == "spectator"
    with client.websocket_connect(url) as ws:
        wrong = Client(ws, hello=False)
        wrong.send({"type": "hello", "token": "x" * 32})
        assert wrong.error()["code"] == "bad_token"


def test_a_state_holds_only_the_last_events_of_a_long_hand(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand bots drag out can hold tens of thousands of events: a state's view holds the
    last HISTORY_EVENTS of them, the same as the engine's, and the log the rest."""
    from phase10.core import event_to_dict
    from phase10.server import tables

    monkeypatch.setattr(tables, "HISTORY_EVENTS", 6)
    host = create(client, name="Ann", seats=2, bots="greedy", preset="short-5")
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        state = play_out([ann], upto=9)
        game = client.app.state.manager.tables[host["table"]].game  # type: ignore[attr-defined]
        seen = [event_to_dict(event) for event in game.seen_history(0)]
        assert len(seen) > 6
        assert state["view"]["history"] == seen[-6:]


def test_a_game_nobody_is_seated_at_stops(client: TestClient) -> None:
    """When its last person leaves, a game of bots alone stops rather than play on for ever
    (a phase no bot makes would keep it going, and growing, without end)."""
    import time

    host = create(client, name="Ann", seats=3, bots="random", preset="short-5")
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        ann.wait_stable(0)
        ann.send({"type": "leave"})
        ann.next_of("goodbye")
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table = manager.tables[host["table"]]
    before = len(table.game.actions)
    time.sleep(0.5)
    assert len(table.game.actions) == before and not table.game.is_over
    assert table.bot_task is None or table.bot_task.done()
    # nobody can sit down again: the next sweep closes it, so it holds no place among
    # max_tables and does not load again at the next start
    assert client.portal.call(manager.sweep) == 1  # type: ignore[union-attr]
    assert host["table"] not in manager.tables
    assert manager.store.table(host["table"]) is None
    assert client.get(f"/api/tables/{host['table']}").json()["error"] == "no_such_table"


def test_the_prompt_never_lists_the_lay_downs() -> None:
    """A house phase of many tiny groups can be laid down in millions of ways: the state's
    prompt checks only the actions it names, so it never lists them."""
    from phase10.core import Game, Phase, Rules, Stage, legality
    from phase10.core.labels import stage_prompt

    rules = Rules(phase_list=(Phase.parse("3 even or odd of 1 + 2 runs of 1"),) * 10)
    game = Game(2, seed=0, rules=rules)
    game.apply("draw")
    view = game.view(game.current)
    assert view.stage is Stage.PLAY

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the prompt listed the lay-downs")

    original = legality.lay_downs
    legality.lay_downs = refuse  # type: ignore[assignment]
    try:
        assert stage_prompt(view).startswith("Lay down your phase")
    finally:
        legality.lay_downs = original


def test_bots_think_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot's decision, the quick ones' too, runs in a worker thread: no search a
    table's rules make long can hold up the other tables."""
    import threading

    from phase10.bots.seats import BotTurn

    threads: list[str] = []
    choose = BotTurn.choose

    def noting(self: BotTurn) -> Any:
        threads.append(threading.current_thread().name)
        return choose(self)

    monkeypatch.setattr(BotTurn, "choose", noting)
    host = create(client, name="Ann", seats=2, bots="greedy", preset="short-5")
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        play_out([ann], upto=20)
    assert threads and all(name != "MainThread" for name in threads)
    loop_thread = client.portal.call(lambda: threading.current_thread().name)  # type: ignore[union-attr]
    assert loop_thread not in threads

"""The server's store on SQLite and on PostgreSQL: every read and write, the ids, the
limits of what the columns hold, and a table resumed mid-game by a new manager."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError

from phase10.bots import make_player
from phase10.core import Game, GameRecord, snapshot
from phase10.server import create_app
from phase10.server.db import MAX_ID, DatabaseInUse, SeatRow, Store, hash_token
from phase10.server.manager import TableManager
from phase10.server.models import ActedBy, TableOptions, TableStatus
from server_support import create

#: a name of 24 characters outside the Basic Multilingual Plane (4 bytes each in UTF-8)
WIDE_NAME = "🂡" * 24
#: the largest seed a table accepts
BIG_SEED = 2**62 - 1


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    yield opened
    opened.close()


def seat(
    table: str, number: int, name: str, kind: str = "human", bot: str | None = None
) -> SeatRow:
    token = None if kind == "bot" else hash_token(f"{table}:{number}")
    return SeatRow(table_id=table, seat=number, name=name, kind=kind, bot=bot, token_hash=token)


def test_a_table_written_then_read_back(store: Store) -> None:
    options = {"preset": "official", "seats": 3, "bots": "greedy", "seed": None, "note": "é ✓"}
    store.create_table("t1", options, [seat("t1", 0, WIDE_NAME)])
    store.put_seat(seat("t1", 1, "Bob"))
    store.put_seat(seat("t1", 1, "Bobby"))  # the same seat again: replaced, not added
    row, seats, actions = store.table("t1") or pytest.fail("the table is missing")
    assert (row.status, row.game_no, row.seed, row.host_seat) == ("lobby", 0, None, 0)
    assert json.loads(row.options) == options
    assert [(s.seat, s.name, s.kind) for s in seats] == [
        (0, WIDE_NAME, "human"),
        (1, "Bobby", "human"),
    ]
    assert seats[0].token_hash == hash_token("t1:0") and actions == []

    store.start_game("t1", 1, BIG_SEED, [seat("t1", 2, "Cy", "bot", "strong:4")])
    texts = ["draw", "discard R7", "take", "lay R7 B7 W + G3 G4 W G6", "hit W=9 g1"]
    for number, text in enumerate(texts):
        store.append_action("t1", 1, number, text, ["player", "bot", "timer"][number % 3])
    row, seats, actions = store.table("t1") or pytest.fail("the table is missing")
    assert (row.status, row.game_no, row.seed) == ("playing", 1, BIG_SEED)
    assert [(s.name, s.kind, s.bot, s.token_hash) for s in seats[2:]] == [
        ("Cy", "bot", "strong:4", None)
    ]
    assert actions == texts
    assert [t.id for t, _, _ in store.tables()] == ["t1"]


def test_actions_are_read_in_order_for_the_current_game_only(store: Store) -> None:
    store.create_table("t2", {"seats": 2}, [seat("t2", 0, "Ann")])
    store.start_game("t2", 1, 5, [])
    for number in (2, 0, 1):
        store.append_action("t2", 1, number, f"game 1 action {number}", "player")
    assert store.table("t2")[2] == [f"game 1 action {n}" for n in range(3)]  # type: ignore[index]
    store.start_game("t2", 2, 6, [])  # a rematch: the next game's actions start again at 0
    store.append_action("t2", 2, 0, "draw", "player")
    row, _, actions = store.table("t2") or pytest.fail("the table is missing")
    assert (row.game_no, row.seed, actions) == (2, 6, ["draw"])


def test_an_action_number_is_stored_once(store: Store) -> None:
    store.create_table("t3", {"seats": 2}, [seat("t3", 0, "Ann")])
    store.start_game("t3", 1, 7, [])
    store.append_action("t3", 1, 0, "draw", "player")
    with pytest.raises(IntegrityError):
        store.append_action("t3", 1, 0, "take", "player")
    with pytest.raises(IntegrityError):  # an action of a table that does not exist
        store.append_action("nothere", 1, 0, "draw", "player")
    store.append_action("t3", 1, 1, "discard R7", "player")  # the store still works
    assert store.table("t3")[2] == ["draw", "discard R7"]  # type: ignore[index]


def test_finished_games_their_records_and_ids(store: Store) -> None:
    ids = []
    for number in range(3):
        table = f"f{number}"
        store.create_table(table, {"seats": 2}, [seat(table, 0, "Ann")])
        store.start_game(table, 1, number, [])
        record = {"players": ["Ann", WIDE_NAME], "result": {"totals": [number, 5]}}
        ids.append(store.finish_game(table, 1, record, [WIDE_NAME]))
    assert ids == sorted(ids) and len(set(ids)) == 3
    assert [row.id for row in store.records()] == ids[::-1]
    assert [row.id for row in store.records(limit=2)] == ids[:0:-1]
    row = store.record(ids[1]) or pytest.fail("the record is missing")
    assert (row.table_id, row.game_no) == ("f1", 1)
    assert json.loads(row.winners) == [WIDE_NAME]
    assert json.loads(row.record)["result"]["totals"] == [1, 5]
    assert row.finished > 0
    for missing in (0, -1, ids[-1] + 1, MAX_ID, MAX_ID + 1, 10**30):
        assert store.record(missing) is None
    # a finished table is not resumed, but can still be read
    assert store.tables() == []
    assert store.table("f0")[0].status == "over"  # type: ignore[index]
    assert store.table("no\x00such") is None and store.table("nothere") is None


def test_unfinished_tables_are_all_reloaded(store: Store) -> None:
    for table, status in (("a", "lobby"), ("b", "playing"), ("c", "over")):
        store.create_table(table, {"seats": 2}, [seat(table, 0, "Ann")])
        if status != "lobby":
            store.start_game(table, 1, 11, [])
            store.append_action(table, 1, 0, "draw", "player")
        if status == "over":
            store.finish_game(table, 1, {"players": ["Ann", "Bob"]}, ["Ann"])
    loaded = {row.id: actions for row, _, actions in store.tables()}
    assert loaded == {"a": [], "b": ["draw"]}


async def test_a_new_manager_resumes_a_game_with_no_action_lost(database_url: str) -> None:
    """Two people play 60 actions; a new store and manager on the same database carry on
    from the very same state, and the game ends with every action in its record."""
    first = TableManager(Store(database_url), seeds=lambda: 8_675_309)
    options = TableOptions(preset="short-5", rules={}, seats=2, bots="greedy")
    table, _, _ = await first.create("Ann", options)
    await first.join(table, WIDE_NAME)
    await first.start(table)
    bots = [make_player("greedy", random.Random(seat)) for seat in range(2)]

    async def play(manager: TableManager, upto: int | None) -> Game:
        live = manager.tables[table.id]
        game = live.game
        assert game is not None
        while not game.is_over and (upto is None or len(game.actions) < upto):
            seat = game.current
            action = bots[seat].choose(game.view(seat))
            await manager.act(live, seat, str(action), by=ActedBy.PLAYER)
        return game

    played = await play(first, 60)
    before = snapshot(played)
    first.store.close()

    second = TableManager(Store(database_url))
    assert await second.load_all() == 1
    resumed = second.tables[table.id]
    assert resumed.status == "playing" and resumed.game is not None
    assert [s.name for s in resumed.seats] == ["Ann", WIDE_NAME]
    assert snapshot(resumed.game) == before
    finished = await play(second, None)
    assert resumed.status == "over" and resumed.record_id is not None
    row = second.store.record(resumed.record_id) or pytest.fail("the record is missing")
    saved = GameRecord.from_dict(json.loads(row.record))
    texts = [str(action) for action in finished.actions]
    assert list(saved.actions) == texts and len(texts) > 60
    assert saved.replay().winners == finished.winners
    stored = second.store.table(table.id) or pytest.fail("the table is missing")
    assert stored[0].status == "over" and stored[2] == texts
    assert second.store.tables() == []
    second.store.close()


async def test_a_table_loaded_at_a_restart_still_counts_against_its_opener(
    database_url: str,
) -> None:
    """Its bots' thinking is charged to the address that opened it, not to the table
    alone (which would let one address's tables each take a full share after a restart)."""
    first = TableManager(Store(database_url))
    options = TableOptions(preset="short-5", rules={}, seats=2, bots="greedy")
    table, _, _ = await first.create("Ann", options, "203.0.113.9")
    first.store.close()
    second = TableManager(Store(database_url))
    assert await second.load_all() == 1
    assert second.tables[table.id].owner == "203.0.113.9"
    second.store.close()


async def test_a_game_the_database_failed_to_finish_is_finished_later(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last action is stored but storing the record fails (a full disk): the game is
    finished by the next sweep, or at a restart, never left playing for ever."""
    manager = TableManager(Store(database_url), seeds=lambda: 8_675_309)
    options = TableOptions(preset="short-5", rules={}, seats=2, bots="greedy")
    table, _, _ = await manager.create("Ann", options)
    await manager.join(table, "Bob")
    await manager.start(table)
    game = table.game
    assert game is not None
    bots = [make_player("greedy", random.Random(seat)) for seat in range(2)]
    real = manager.store.finish_game

    def full(*args: object) -> None:
        raise OSError(28, "database or disk is full")

    monkeypatch.setattr(manager.store, "finish_game", full)
    with pytest.raises(OSError, match="disk is full"):
        while True:
            seat = game.current
            await manager.act(
                table, seat, str(bots[seat].choose(game.view(seat))), by=ActedBy.PLAYER
            )
    assert game.is_over and table.status == "playing"
    assert await manager.sweep() == 0 and table.status == "playing"  # still full: kept
    # at a restart (the disk has room again) the game is finished as it loads
    restarted = TableManager(Store(database_url))
    assert await restarted.load_all() == 1
    again = restarted.tables[table.id]
    assert again.status == "over" and again.record_id is not None
    restarted.store.close()
    # and by the next sweep of a server that goes on
    monkeypatch.setattr(manager.store, "finish_game", real)
    table.status = TableStatus.PLAYING  # (as it was before the restart above)
    await manager.sweep()
    assert table.status == "over" and table.record_id is not None
    manager.store.close()


async def test_a_table_this_version_cannot_read_is_left_out_and_the_others_served(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    first = TableManager(Store(database_url), seeds=lambda: 8_675_309)
    options = TableOptions(preset="short-5", rules={}, seats=2, bots="greedy")
    good, _, _ = await first.create("Ann", options)
    bad, _, _ = await first.create("Cy", options)
    for table in (good, bad):
        await first.start(table)
    first.store.append_action(bad.id, bad.game_no, 0, "discard R99", ActedBy.PLAYER)
    first.store.close()
    second = TableManager(Store(database_url))
    assert await second.load_all() == 1 and list(second.tables) == [good.id]
    assert f"table {bad.id} cannot be loaded" in caplog.text
    assert await second.get(bad.id) is None  # asked for by its link: none, logged again
    second.store.close()


def test_an_older_database_gains_the_new_columns(tmp_path: Path) -> None:
    """A database an older version made (no ``touched``, no ``owner``) opens: its tables
    load, with no opener known."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    Store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as old:
        old.execute("ALTER TABLE tables DROP COLUMN owner")
        old.execute("ALTER TABLE tables DROP COLUMN touched")
        old.execute(
            "INSERT INTO tables (id, created, status, host_seat, options, game_no)"
            " VALUES ('t1', 0, 'lobby', 0, '{}', 0)"
        )
    store = Store(f"sqlite:///{path}")
    row, _, _ = store.table("t1") or pytest.fail("the table is missing")
    assert (row.owner, row.touched) == (None, None)
    store.create_table("t2", {}, [], "198.51.100.7")
    assert (store.table("t2") or pytest.fail("missing"))[0].owner == "198.51.100.7"
    store.close()


def test_what_the_database_cannot_hold_is_refused_cleanly(database_url: str) -> None:
    """PostgreSQL refuses NUL in text and integers beyond 64 bits: the API answers 404 or
    422 for them (never 500), on every database alike."""
    with TestClient(create_app(database_url=database_url)) as client:
        bad = client.post("/api/tables", json={"name": "A\x00B"})
        assert bad.status_code == 422 and bad.json()["error"] == "bad_name"
        host = create(client, name=WIDE_NAME, seed=BIG_SEED)
        open_table = create(client, name="Cy")
        bad = client.post(f"/api/tables/{open_table['table']}/join", json={"name": "Bob\x07"})
        assert bad.status_code == 422
        assert client.get(f"/api/tables/{host['table']}").json()["seats"][0]["name"] == WIDE_NAME
        assert client.get("/api/tables/a%00b").json()["error"] == "no_such_table"
        for record in (2**31, 2**63, 10**30):
            answer = client.get(f"/api/records/{record}")
            assert answer.status_code == 404 and answer.json()["error"] == "no_such_record"
        with client.websocket_connect("/ws/a%00b") as ws:
            assert ws.receive_json()["code"] == "no_such_table"


def test_sqlite_log_stays_small_under_steady_writes(tmp_path: Path) -> None:
    """Each commit adds pages to SQLite's write-ahead log; it must be copied back and
    restarted as the server goes, not grow for as long as games are played."""
    path = tmp_path / "server.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.create_table("t1", {"seats": 2}, [seat("t1", 0, "Ann")])
    store.start_game("t1", 1, 5, [])
    for number in range(4000):  # about 4,000 pages of log: four times SQLite's checkpoint
        store.append_action("t1", 1, number, "discard R7", "human")
    log_file = path.with_name(path.name + "-wal")
    assert log_file.stat().st_size < 1200 * 4096
    store.close()


async def test_a_bot_move_the_database_refused_is_tried_again(
    database_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A locked or full database refuses a bot's move: nothing changes, and the bot tries
    again a moment later, where the table stalled until the server restarted."""
    from sqlalchemy.exc import OperationalError

    import phase10.server.manager as manager_module

    manager = TableManager(Store(database_url), seeds=lambda: 8_675_309)
    options = TableOptions(preset="short-5", rules={}, seats=2, bots="greedy")
    table, _, _ = await manager.create("Ann", options)
    await manager.start(table)
    game = table.game
    assert game is not None
    ann = make_player("greedy", random.Random(0))
    while game.current != 1:  # Ann plays until it is the bot's turn
        await manager.act(table, 0, str(ann.choose(game.view(0))), by=ActedBy.PLAYER)
    real = manager.store.append_action
    refused: list[int] = []

    def locked_once(*args: object) -> None:
        if not refused:
            refused.append(len(game.actions))
            raise OperationalError("INSERT INTO actions", {}, Exception("database is locked"))
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(manager.store, "append_action", locked_once)
    monkeypatch.setattr(manager_module, "DB_RETRY_SECONDS", 0.01)
    before = len(game.actions)
    await manager._run_bots(table)  # (until it is Ann's turn again)
    assert refused == [before] and len(game.actions) > before and game.current == 0
    assert "a bot's move could not be stored: again in 0.01 s" in caplog.text
    manager.store.close()


def test_a_second_server_on_the_same_database_is_refused(database_url: str) -> None:
    first, second = Store(database_url), Store(database_url)
    try:
        first.claim()
        with pytest.raises(DatabaseInUse, match="another phase10 server is using the database"):
            second.claim()
        with pytest.raises(DatabaseInUse):  # (a refusal holds nothing, and says it again)
            second.claim()
        first.close()  # the first server stops: the database is free
        second.claim()
        third = Store(database_url)
        with pytest.raises(DatabaseInUse):
            third.claim()
        third.close()
    finally:
        first.close()
        second.close()


def test_a_running_app_holds_its_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    with TestClient(create_app(database_url=url)):
        other = TestClient(create_app(database_url=url))
        with pytest.raises(DatabaseInUse, match="write over each other's moves"):
            other.__enter__()
    with TestClient(create_app(database_url=url)) as client:  # (stopped: free again)
        assert client.get("/api/tables").status_code == 200
    with (
        TestClient(create_app(database_url="sqlite://")),
        TestClient(create_app(database_url="sqlite://")),
    ):
        pass  # (in memory: each its own)

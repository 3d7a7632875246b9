"""Dice tables at the server (docs/server-protocol.md, "Dice tables"): created, joined and
watched like card tables, played through the socket with the dice engine checking every
action, hostile messages refused with clear errors, and resumed after a restart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

import phase10.server.manager as manager_module
from phase10.bots.dice import DICE_BOT_NAMES
from phase10.bots.dice_hints import dice_hint, hint_text
from phase10.dice import DiceGame, DiceRecord, DiceSetup
from phase10.server.dice import DICE_BOT, bot_action
from phase10.server.work import SolverBusy
from server_support import Client, create, join, make_app

#: the host's first roll misses phase 10 (three 10s); kept, the 10s and the second roll
#: make it (five 10s and three Wilds): a game that ends in a few actions
ROLLS = ("G10 R10 O10 R5 B6 G7 B1 B2 R3 R4", "B10 G10 B5 RW BW GW RW")


def late_game(names: list[str], seed: int) -> DiceGame:
    """Every player on phase 10, the host first, the first rolls set."""
    order = tuple(range(len(names)))
    setup = DiceSetup(order=order, phases=(10,) * len(names), rolls=ROLLS)
    return DiceGame(names, seed=seed, setup=setup)


@pytest.fixture
def late(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(manager_module, "new_dice_game", late_game)


def _url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(_url(tmp_path), seed=7)) as test_client:
        yield test_client


def wait_dice(client: Client, *, turn: bool = False) -> dict[str, Any]:
    """The next state with a dice game (with ``turn``: one where the client is to move or
    the game is over)."""
    while True:
        message = client.receive()
        assert message["type"] != "error", message
        if message["type"] != "state" or message.get("dice") is None:
            continue
        view = message["dice"]["view"]
        if not turn or view["legal_actions"] or view["stage"] == "game_over":
            return message


def test_a_dice_table_is_created_joined_and_shown_as_one(client: TestClient) -> None:
    host = create(client, kind="dice", seats=3)
    table = client.get(f"/api/tables/{host['table']}").json()
    assert table["options"]["kind"] == "dice" and table["options"]["bots"] == DICE_BOT
    assert table["options"]["phase_sequence"][7] == "7 of one colour"
    guest = join(client, host["table"], "Bob")
    assert guest["seat"] == 1
    # the card form's defaults are taken; card rules and other bots are not
    for body, code in (
        ({"preset": "masters"}, "bad_rules"),
        ({"options": {"deck": "masters"}}, "bad_rules"),
        ({"bots": "strong"}, "invalid_request"),
        ({"kind": "chess"}, "invalid_request"),
        ({"kind": ["dice"]}, "invalid_request"),
    ):
        answer = client.post("/api/tables", json={"name": "Ann", "kind": "dice", **body})
        assert answer.status_code == 422 and answer.json()["error"] == code, answer.text
        assert "dice" in answer.json()["message"] or code == "invalid_request"
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        lobby = ann.next_of("state")
        assert lobby["dice"] is None and lobby["view"] is None
        ann.send({"type": "bots", "bots": "strong"})
        refused = ann.error()["message"]
        assert all(name in refused for name in DICE_BOT_NAMES), refused


def test_the_host_chooses_the_dice_bot_of_the_open_seats(client: TestClient) -> None:
    """Every dice bot is offered (by the server, for the browser's forms) and may be
    chosen, at the start or in the lobby; a bot of the other game is refused, naming the
    bots that fit."""
    offered = client.get("/api/presets").json()["dice_bots"]
    assert [bot["spec"] for bot in offered] == list(DICE_BOT_NAMES)
    assert [bot["label"] for bot in offered if "default" in bot["label"]] == [
        f"{DICE_BOT.capitalize()} (default)"
    ]
    for name in DICE_BOT_NAMES:
        host = create(client, kind="dice", bots=name.upper())
        assert client.get(f"/api/tables/{host['table']}").json()["options"]["bots"] == name
    for kind, bots, names in (
        ("dice", "strong:2", DICE_BOT_NAMES),
        ("cards", "optimal", ["strong"]),
    ):
        answer = client.post("/api/tables", json={"name": "Ann", "kind": kind, "bots": bots})
        assert answer.status_code == 422 and answer.json()["error"] == "invalid_request"
        message = answer.json()["message"]
        assert f"a {'dice' if kind == 'dice' else 'card'} table's bots are" in message
        assert all(name in message for name in names), message
    answer = client.post("/api/tables", json={"name": "Ann", "kind": "dice", "bots": "clever"})
    assert all(name in answer.json()["message"] for name in DICE_BOT_NAMES)
    host = create(client, kind="dice", seats=3)
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.next_of("state")
        ann.send({"type": "bots", "bots": " Random "})
        assert ann.next_of("state")["table"]["options"]["bots"] == "random"
        ann.send({"type": "bots", "bots": "strong"})
        assert ann.error()["code"] == "invalid_message"
        ann.send({"type": "start"})
        started = ann.next_of("state")
        assert [seat["bot"] for seat in started["table"]["seats"]] == [None, "random", "random"]


def test_a_game_against_a_bot_to_its_end_then_its_record(client: TestClient, late: None) -> None:
    host = create(client, kind="dice", seats=2)
    url = f"/ws/{host['table']}"
    with client.websocket_connect(url) as ws, client.websocket_connect(url) as watching:
        ann = Client(ws, host["token"])
        spectator = Client(watching)
        ann.send({"type": "start"})
        state = wait_dice(ann, turn=True)
        dice = state["dice"]
        assert dice["view"]["legal_actions"] == ["roll"] and dice["prompt"].startswith(
            "Your phase 10"
        )
        assert [d["die"] for d in dice["dice"]][:2] == ["H1", "H2"]
        replica = late_game(["Ann", "Bob"], 7)
        for action in ("roll", "keep H1 H2 H3", "unkeep H3", "keep O10", "roll"):
            if action in ("roll", "keep H1 H2 H3"):  # the hint of the terminal game's ?
                ann.send({"type": "hint"})
                hint = ann.next_of("dice_hint")
                expected = dice_hint(replica.view(0))
                assert hint["text"] == hint_text(expected) and hint["version"] == state["version"]
                assert hint["hint"]["action"] == str(expected.action)
                assert hint["hint"]["reason"] == expected.reason
            ann.send({"type": "action", "action": action, "version": state["version"]})
            state = wait_dice(ann, turn=True)
            replica.apply(action)
        # before the first roll: roll; after it, the dice to keep, by index and by name
        assert hint["hint"]["keep"] == [0, 1, 2] and hint["hint"]["keep_dice"] == ["H1", "H2", "H3"]
        assert hint["text"] == (
            "Hint: keep H1 H2 H3, roll the rest. The phase is made this turn 60% of the time, "
            "the best chance."
        )
        dice = state["dice"]
        assert dice["dice"][2]["label"] == "orange 10, high die 3, set aside"
        assert dice["view"]["way"]["score"] == 55 and "score" in dice["view"]["legal_actions"]
        ann.send({"type": "action", "action": "score", "version": state["version"]})
        final = wait_dice(ann, turn=True)
        assert final["dice"]["view"]["stage"] == "game_over"
        assert final["table"]["status"] == "over" and final["dice"]["view"]["legal_actions"] == []
        assert final["log"][-1].startswith("Game over")
        assert final["dice"]["view"]["seats"][0]["scores"][9] == 55
        # the spectator saw every move, and no legal action
        watched = [m for m in spectator.messages if m["type"] == "state" and m.get("dice")]
        while not watched or watched[-1]["dice"]["view"]["stage"] != "game_over":
            watched.append(wait_dice(spectator))
        assert all(m["you"] is None and not m["dice"]["view"]["legal_actions"] for m in watched)
    record_id = final["table"]["record_id"]
    record = client.get(f"/api/records/{record_id}").json()
    assert record["format"] == "phase10-dice-record" and record["actions"][:5] == [
        "roll",
        "keep H1 H2 H3",
        "unkeep H3",
        "keep H3",
        "roll",
    ]
    # the default bot (optimal) played its seat (its last try) to the game's end
    assert (
        record["tags"]["controllers"] == f"human,{DICE_BOT}"
        and record["tags"]["by"][:6] == "pppppp"
    )
    assert set(record["tags"]["by"][6:]) == {"b"}
    game = DiceRecord.from_dict(record).replay()  # checks the stated result too
    assert [s["total"] for s in final["dice"]["view"]["seats"]] == list(game.totals())
    games = client.get("/api/history").json()["games"]
    assert games[0]["kind"] == "dice" and games[0]["id"] == record_id
    refused = client.get(f"/api/records/{record_id}/replay")
    assert refused.status_code == 404 and refused.json()["error"] == "dice_record"


def test_hostile_and_wrong_messages_are_refused_plainly(client: TestClient, late: None) -> None:
    host = create(client, kind="dice")
    guest = join(client, host["table"], "Bob")
    url = f"/ws/{host['table']}"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        ann, bob = Client(a, host["token"]), Client(b, guest["token"])
        ann.send({"type": "action", "action": "roll"})
        assert ann.error()["code"] == "not_started"
        ann.send({"type": "start"})
        state = wait_dice(ann, turn=True)
        bob.send({"type": "action", "action": "roll"})
        assert bob.error()["code"] == "not_your_turn"
        cases = [
            ("keep H1", "illegal_action", "roll_first"),
            ("score", "illegal_action", "roll_first"),
            ("roll H1", "invalid_action", "malformed"),
            ("dance", "invalid_action", "malformed"),
            ("keep " + "Q9 " * 120, "invalid_action", "malformed"),
        ]
        for text, code, reason in cases:
            ann.send({"type": "action", "action": text, "version": state["version"]})
            error = ann.error()
            assert (error["code"], error["reason"]) == (code, reason), error
            assert len(error["message"]) < 260
        ann.send({"type": "action", "action": "roll", "version": state["version"] + 5})
        assert ann.error()["code"] == "stale"
        ann.send({"type": "action", "action": "x" * 401})
        assert ann.error()["code"] == "invalid_message"
        bob.send({"type": "hint"})
        assert bob.error()["code"] == "not_your_turn"
        ann.send({"type": "choices", "kind": "lay", "cards": "R1"})
        assert ann.error()["code"] == "no_choice"
        ann.send({"type": "action", "action": "roll", "version": state["version"]})
        state = wait_dice(ann, turn=True)
        for text, reason in (
            ("keep G10 G10 G10", "malformed"),
            ("score", "not_the_phase"),
            ("keep L5", None),
        ):
            ann.send({"type": "action", "action": text})
            error = ann.error()
            assert error["code"] in {"invalid_action", "illegal_action"}, error
            assert reason is None or error["reason"] == reason
        assert wait_dice_version(ann, state["version"]) == state["version"]


def wait_dice_version(client: Client, version: int) -> int:
    """Nothing refused changed the game: a ping's pong comes with no newer state."""
    client.send({"type": "ping"})
    while (message := client.receive())["type"] != "pong":
        assert message["type"] != "state" or message["version"] == version
    return version


def test_a_dice_game_resumes_after_a_restart(tmp_path: Path, late: None) -> None:
    """The game, the bot the host chose and the seats' links all outlive the server."""
    url = _url(tmp_path)
    with TestClient(make_app(url, seed=7)) as first:
        host = create(first, kind="dice", seats=3)
        with first.websocket_connect(f"/ws/{host['table']}") as ws:
            ann = Client(ws, host["token"])
            ann.send({"type": "bots", "bots": "random"})
            ann.send({"type": "start"})
            state = wait_dice(ann, turn=True)
            for action in ("roll", "keep H1 H2 H3"):
                ann.send({"type": "action", "action": action, "version": state["version"]})
                state = wait_dice(ann, turn=True)
            before = state["dice"]
    with TestClient(make_app(url, seed=7)) as second:
        table = second.get(f"/api/tables/{host['table']}").json()
        assert table["status"] == "playing" and table["options"]["kind"] == "dice"
        assert [s["bot"] for s in table["seats"]] == [None, "random", "random"]
        assert table["options"]["bots"] == "random"
        with second.websocket_connect(f"/ws/{host['table']}") as ws:
            ann = Client(ws, host["token"])
            state = wait_dice(ann, turn=True)
            assert state["dice"] == before and state["version"] == 2
            ann.send({"type": "action", "action": "roll", "version": 2})
            state = wait_dice(ann, turn=True)
            assert state["dice"]["view"]["way"]["score"] == 55
            ann.send({"type": "action", "action": "score", "version": state["version"]})
            final = wait_dice(ann, turn=True)  # the chosen bots take their last tries
        assert final["dice"]["view"]["stage"] == "game_over"
        record = second.get(f"/api/records/{final['table']['record_id']}").json()
        assert record["tags"]["controllers"] == "human,random,random"


def test_the_tables_bot_plays_a_whole_game() -> None:
    """The greedy dice bot (the stand-in of a dice table) always plays a legal action
    (``apply`` refuses any other), at most three between two rolls, and ends a game from
    phase 1."""
    for seed in range(3):
        game = DiceGame(["Ann", "Bob", "Cy"], seed=seed)
        since_roll = 0
        while not game.is_over:
            action = bot_action(game, game.current, "greedy")
            game.apply(action)
            since_roll = 0 if str(action) == "roll" else since_roll + 1
            assert since_roll <= 3
            assert len(game.actions) < 3000
        assert game.winners


def test_the_host_gives_a_players_seat_to_the_bot_mid_game(client: TestClient, late: None) -> None:
    host = create(client, kind="dice", bots="greedy")
    guest = join(client, host["table"], "Bob")
    url = f"/ws/{host['table']}"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        ann, bob = Client(a, host["token"]), Client(b, guest["token"])
        ann.send({"type": "start"})
        state = wait_dice(ann, turn=True)
        for action in ("roll", "keep H1 H2 H3", "roll", "score"):
            ann.send({"type": "action", "action": action, "version": state["version"]})
            state = wait_dice(ann)
        assert state["dice"]["view"]["current"] == 1 and state["dice"]["view"]["last_try"]
        ann.send({"type": "seat_bot", "seat": 1})
        assert bob.next_of("goodbye")["reason"] == "the host gave your seat to a bot"
        final = wait_dice(ann, turn=True)
    assert final["dice"]["view"]["stage"] == "game_over"
    assert (
        final["table"]["seats"][1]["kind"] == "bot"
        and final["table"]["seats"][1]["bot"] == "greedy"
    )
    record = client.get(f"/api/records/{final['table']['record_id']}").json()
    assert record["tags"]["by"].startswith("pppp") and set(record["tags"]["by"][4:]) == {"b"}


def test_a_thinking_bot_that_gets_no_answer_is_stood_in_for(
    client: TestClient, late: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The optimal bot thinks in a solver worker; a full queue (or a worker too slow or
    gone) never stalls the table: the greedy dice bot plays that action instead."""
    manager = client.app.state.manager  # type: ignore[attr-defined]
    asked: list[str] = []

    async def busy(function: object, *args: object) -> object:
        asked.append(getattr(function, "__name__", ""))
        raise SolverBusy

    monkeypatch.setattr(manager.pool, "run", busy)
    host = create(client, kind="dice", bots="optimal")
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        state = wait_dice(ann, turn=True)
        for action in ("roll", "keep H1 H2 H3", "roll", "score"):
            ann.send({"type": "action", "action": action, "version": state["version"]})
            state = wait_dice(ann, turn=True)
        ann.send({"type": "hint"})
        assert ann.error()["code"] == "game_over"
    assert state["dice"]["view"]["stage"] == "game_over" and set(asked) == {"dice_bot_job"}
    assert state["table"]["seats"][1]["bot"] == "optimal"


def test_one_seat_is_dice_solitaire(client: TestClient, late: None) -> None:
    """A dice table of one seat plays solitaire; a card table needs two."""
    refused = client.post("/api/tables", json={"name": "Ann", "seats": 1})
    assert refused.status_code == 422 and "dice table's solitaire" in refused.json()["message"]
    host = create(client, kind="dice", seats=1)
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        state = wait_dice(ann, turn=True)
        assert [seat["name"] for seat in state["table"]["seats"]] == ["Ann"]
        for action in ("roll", "keep H1 H2 H3", "roll", "score"):
            ann.send({"type": "action", "action": action, "version": state["version"]})
            state = wait_dice(ann, turn=True)
    assert state["dice"]["view"]["stage"] == "game_over" and state["dice"]["view"]["winners"] == [0]
    record = client.get(f"/api/records/{state['table']['record_id']}").json()
    assert record["tags"]["controllers"] == "human"

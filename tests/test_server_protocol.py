"""The server's protocol as others build on it (docs/server-protocol.md): the schemas and the
doc's reference are generated from the models and up to date, served by the server; table
options take every rules option; defaults, bots, versions, close codes, records and the
history say what the doc says."""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from phase10.bots import make_player
from phase10.core import Game, PlayerView, Refusal, Rules
from phase10.server.hosting import CLOSE_REMOVED
from phase10.server.models import ActedBy
from phase10.server.protocol import ERRORS, HTTP_ERRORS, PROTOCOL_VERSION
from phase10.server.routes.socket import CLOSE_BAD_TOKENS, CLOSE_FLOOD, CLOSE_NO_TABLE
from phase10.server.schemas import DOC, OUT, SCHEMAS, schema_of, stale_files
from server_support import Client, create, join, make_app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(f"sqlite:///{tmp_path / 'server.sqlite3'}", seed=7)) as test_client:
        yield test_client


def test_the_schemas_and_the_docs_reference_are_generated_and_up_to_date() -> None:
    stale = stale_files(ROOT)
    assert not stale, f"run `make schemas`: {[str(p.relative_to(ROOT)) for p in stale]}"
    doc = (ROOT / DOC).read_text()
    for name in SCHEMAS:
        schema = schema_of(name)
        models = [schema, *schema.get("$defs", {}).values()]
        for model in models:
            for field in model.get("properties", {}):
                assert f"| `{field}` |" in doc, (name, model.get("title"), field)
    for code in ERRORS:
        assert f"| `{code}` |" in doc, code
    # every close code the server uses, in the close codes' table
    closes = {int(code) for code in re.findall(r"^\| (\d{4}) \|", doc, re.MULTILINE)}
    assert {1000, 1008, CLOSE_NO_TABLE, CLOSE_BAD_TOKENS, CLOSE_FLOOD, CLOSE_REMOVED} == closes
    http = dict(re.findall(r"^\| `(\w+)` \| (\d{3}) \|", doc, re.MULTILINE))
    assert http == {code: str(status) for code, (status, _) in HTTP_ERRORS.items()}
    # the overview names every message type the models know
    for name in ("client-message", "server-message"):
        union = schema_of(name)
        for member in union["oneOf"]:
            model = union["$defs"][member["$ref"].rsplit("/", 1)[1]]
            kind = model["properties"]["type"]["const"]
            assert f"| `{kind}` | [{model['title']}](#{model['title'].lower()}) |" in doc, kind


def test_the_server_serves_its_schemas_and_version(client: TestClient) -> None:
    index = client.get("/api/schemas").json()
    assert index["protocol"] == PROTOCOL_VERSION
    assert set(index["schemas"]) == set(SCHEMAS)
    served = client.get(index["schemas"]["state"])
    assert served.headers["content-type"].startswith("application/schema+json")
    assert served.json() == json.loads((ROOT / OUT / "state.json").read_text())
    assert client.get("/api/schemas/nothing.json").json()["error"] == "not_found"
    # a browser asking for a page that is not there gets the page that says so; a program,
    # or any address under /api/, the JSON error
    page = client.get("/histroy", headers={"accept": "text/html,*/*"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert client.get("/histroy").json()["error"] == "not_found"
    refused = client.get("/api/nothing", headers={"accept": "text/html"})
    assert refused.status_code == 404 and refused.json()["error"] == "not_found"
    host = create(client)
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, hello=False)
        ann.send({"type": "hello", "token": host["token"], "protocol": PROTOCOL_VERSION + 1})
        refused = ann.error()
        assert (
            refused["code"] == "protocol_mismatch" and str(PROTOCOL_VERSION) in refused["message"]
        )
        ann.send({"type": "hello", "token": host["token"], "protocol": PROTOCOL_VERSION})
        assert ann.next_of("welcome")["protocol"] == PROTOCOL_VERSION


def _answers(name: str, data: Any) -> None:
    """An HTTP answer matches its committed schema (for clients in any language) and its
    model, read strictly."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / OUT / f"{name}.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    kind, _ = SCHEMAS[name]
    TypeAdapter(kind).validate_json(json.dumps(data), strict=True)


def test_every_http_answer_matches_its_schema(client: TestClient) -> None:
    seated = client.post("/api/tables", json={"name": "Ann", "public": True})
    _answers("seated", seated.json())
    table = seated.json()["table"]
    _answers("seated", join(client, table, "Bob"))
    _answers("public-table", client.get(f"/api/tables/{table}").json())
    _answers("table-list", client.get("/api/tables").json())
    _answers("presets", client.get("/api/presets").json())
    _answers("history", client.get("/api/history").json())
    _answers("health", client.get("/healthz").json())
    _answers("schema-index", client.get("/api/schemas").json())
    _answers("points", client.post("/api/companion/points", json={"cards": "R7 W S"}).json())
    sheet = {"players": ["Ann", "Bob"], "hands": [[{"points": 0, "phase": True}, {}]]}
    _answers("standings", client.post("/api/companion/standings", json=sheet).json())
    for bad in (
        client.post("/api/tables", json={"name": "Ann", "seats": 9}),
        client.post("/api/tables", json={"name": "Ann", "options": {"phases": [0]}}),
        client.get("/api/tables/nothere"),
        client.get("/api/records/5"),
        client.get("/nowhere/at/all"),
        client.post("/api/companion/points", json={"cards": "Q9"}),
    ):
        _answers("error-body", bad.json())


def test_a_name_alone_makes_a_private_two_seat_official_table(client: TestClient) -> None:
    host = create(client, name="Ann")
    options = client.get(f"/api/tables/{host['table']}").json()["options"]
    assert options["seats"] == 2 and options["preset"] == "official"
    assert options["bots"] == "greedy" and options["public"] is False
    assert options["turn_seconds"] == 0 and options["away_seconds"] == 60
    assert options["rules"] == Rules().to_dict() and options["seeded"] is False


@pytest.mark.parametrize(
    ("spelling", "kept"),
    [
        ("strong", "strong"),
        ("Strong:4", "strong"),
        (" strong:02 ", "strong:2"),
        ("GREEDY", "greedy"),
    ],
)
def test_bots_are_kept_one_way(client: TestClient, spelling: str, kept: str) -> None:
    host = create(client, bots=spelling)
    assert client.get(f"/api/tables/{host['table']}").json()["options"]["bots"] == kept
    # the host's `bots` message keeps it the same way
    other = create(client)
    with client.websocket_connect(f"/ws/{other['table']}") as ws:
        ann = Client(ws, other["token"])
        ann.next_of("state")
        ann.send({"type": "bots", "bots": spelling})
        assert ann.next_of("state")["table"]["options"]["bots"] == kept


def test_table_options_take_every_rules_option(client: TestClient) -> None:
    phrases = ["1 run of 5", "2 sets of 2 + 1 set of 3", "6 cards of one color"]
    every = {
        "phase_list": phrases,
        "phases": [3, 1],
        "advance": "completed",
        "phase_order": "sequence",
        "declare": "laydown",
        "going_out": "discard",
        "wild_deal_up": "dealer_chooses",
        "skip_target": "next",
        "natural_min": "phase",
        "end_when": "immediately",
        "empty_draw_pile": "end_hand",
        "deck": "masters",
        "save_pile": "public",
        "saved_score": "penalty",
        "give_up": "keep",
        "anti_phase": "on",
    }
    assert set(every) == set(Rules().to_dict())  # a rules option added is added here too
    host = create(client, options=every)
    table = client.get(f"/api/tables/{host['table']}").json()["options"]
    assert table["rules"] == Rules.from_dict(every).to_dict()
    assert table["phase_sequence"] == ["6 cards of one color", "1 run of 5"]
    named = create(client, preset="short-5", options={"phase_list": "island-paradise", "phases": 2})
    table = client.get(f"/api/tables/{named['table']}").json()["options"]
    assert table["phase_sequence"] == ["1 run of 7", "1 set of 2 + 2 sets of 3"]
    presets = client.get("/api/presets").json()
    shipped = presets["phase_lists"]
    assert shipped["island-paradise"][0] == "1 run of 7" and len(shipped) > 10
    # every option a form offers, in words, each of its words too
    labels = presets["labels"]
    assert {name: set(words["values"]) for name, words in labels.items()} == {
        name: set(values) for name, values in presets["options"].items()
    }
    assert labels["anti_phase"] == {
        "label": "Anti-phase card",
        "values": {"off": "none", "on": "one in the deck"},
    }
    assert "anti-phase" in presets["presets"]


@pytest.mark.parametrize(
    "options",
    [
        {"phases": "1,2"},  # every string form of phases used to be the only way in
        {"phases": [0]},
        {"phases": [1, 1]},
        {"phases": [11]},
        {"phases": True},
        {"phases": list(range(1, 12))},
        {"phase_list": "no-such-list"},
        {"phase_list": []},
        {"phase_list": ["2 sets of 3"] * 11},
        {"phase_list": ["2 sets of 3 and a flush"]},
        {"phase_list": ["1 set of 12"]},
        {"phase_list": ["x" * 500]},
        {"phase_list": [3]},
        {"phase_list": ["2 sets of 3"], "phases": [2]},
        {"advance": "sideways"},
        {"advance": 1},
        {"advance": "all", "phase_order": "any"},
        {"colour": "red"},
    ],
)
def test_rules_options_that_do_not_fit_are_bad_rules(client: TestClient, options: Any) -> None:
    answer = client.post("/api/tables", json={"name": "Ann", "options": options})
    assert answer.status_code == 422 and answer.json()["error"] == "bad_rules", answer.text
    assert len(answer.content) < 400


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"phase_list": ["x" * 500]}, "options.phase_list.0: String should have at most 120"),
        ({"phase_list": []}, "options.phase_list: List should have at least 1 item"),
    ],
)
def test_a_union_s_refusal_says_what_is_wrong_with_the_value(
    client: TestClient, options: Any, said: str
) -> None:
    """A value that fits none of an option's kinds is refused by the kind it came closest
    to (a phrase too long, not "should be text")."""
    answer = client.post("/api/tables", json={"name": "Ann", "options": options})
    assert answer.json()["message"].startswith(said), answer.text


def test_a_game_with_the_players_own_phrases(client: TestClient) -> None:
    host = create(client, options={"phase_list": ["1 run of 4", "2 sets of 2"], "phases": [2]})
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        state = ann.wait_stable(0)
        assert state["view"]["phase_sequence"] == ["2 sets of 2"]
        assert state["progress"]["text"] == "2 sets of 2"


def test_saving_a_card_and_taking_it_back_over_the_socket(client: TestClient) -> None:
    """A masters table: ``legal`` lists the saves after the draw; a save ends the turn, a
    second one is refused the same hand, and the next draw offers the card back."""
    host = create(client, preset="masters", seed=5)
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        bot = make_player("greedy", random.Random(1))
        state = ann.wait_stable(0)
        while not state["legal"]["saves"]:
            action = bot.choose(PlayerView.from_dict(state["view"]))
            ann.send({"type": "action", "action": str(action)})
            state = ann.wait_stable(state["version"] + 1)
        card = state["legal"]["saves"][0]["card"]
        assert state["legal"]["saves"][0] == {
            "action": f"save {card}",
            "label": f"Save {card}",
            "card": card,
        }
        assert state["legal"]["give_up"] == [] and state["legal"]["take_saved"] == []
        ann.send({"type": "action", "action": f"save {card}"})
        state = ann.wait_stable(state["version"] + 1)
        assert state["view"]["saved"] == card and state["view"]["seats"][0]["saved_count"] == 1
        assert f"You save {card} on the save pile" in "\n".join(state["log"])
        take = {
            "action": f"take-saved {card}",
            "label": f"Take {card} from your save pile",
            "card": card,
        }
        assert state["legal"]["take_saved"] == [take]
        ann.send({"type": "action", "action": "draw"})
        state = ann.wait_stable(state["version"] + 1)
        assert state["legal"]["saves"] == []
        other = next(c for c in state["view"]["hand"].split() if c != card)
        ann.send({"type": "action", "action": f"save {other}"})
        assert ann.error()["reason"] == Refusal.ALREADY_SAVED


def test_stale_says_which_version_and_refusals_name_no_keys(client: TestClient) -> None:
    host = create(client, seed=11)
    with client.websocket_connect(f"/ws/{host['table']}") as ws:
        ann = Client(ws, host["token"])
        ann.send({"type": "start"})
        state = ann.wait_stable(0)
        now = state["version"]
        for sent, word in ((now + 3, "later"), (max(now - 1, 0), "older")):
            if sent == now:
                continue
            ann.send({"type": "action", "action": "draw", "version": sent})
            error = ann.error()
            assert error["code"] == "stale" and error["version"] == now
            assert word in error["message"] and str(sent) in error["message"]
        # refusals before and after the draw: plain words, no interface's keys
        keys = re.compile(r"\s\((?:[a-z0-9]|enter|space|esc|tab)\)", re.IGNORECASE)
        before = ["discard R1", "hit R1 g0", "lay R1 R1 R1 + R2 R2 R2", "give p1", "lay"]
        after = ["take", "declare 1", "give p1", "hit W g9", "lay", "discard S>p0", "draw"]
        reasons = set()
        for texts in (before, ["draw"], after):
            for text in texts:
                ann.send({"type": "action", "action": text})
                if texts == ["draw"]:
                    continue
                message = ann.error()
                assert not keys.search(message["message"]), message
                reasons.add(message["reason"])
        assert {Refusal.MUST_DRAW_FIRST, Refusal.MALFORMED} <= reasons


def test_sockets_on_one_token_and_the_close_codes(client: TestClient) -> None:
    host = create(client, seed=5)
    url = f"/ws/{host['table']}"
    with client.websocket_connect(url) as phone, client.websocket_connect(url) as laptop:
        first, second = Client(phone, host["token"]), Client(laptop, host["token"])
        assert first.seat == second.seat == 0
        first.send({"type": "start"})
        state = second.wait_stable(0)
        first.wait_stable(0)
        action = state["legal"]["draw"][0]["action"]
        second.send({"type": "action", "action": action, "version": state["version"]})
        assert first.wait_stable(state["version"] + 1)["version"] > state["version"]
        # the committed schema files read every message too, for clients in any language
        jsonschema = pytest.importorskip("jsonschema")
        schema = json.loads((ROOT / OUT / "server-message.json").read_text())
        validator = jsonschema.Draft202012Validator(schema)
        for message in first.messages + second.messages:
            validator.validate(message)
        assert not validator.is_valid({"type": "pong", "extra": 1})
    with client.websocket_connect(url) as ws:
        guesser = Client(ws, hello=False)
        for _ in range(5):
            guesser.send({"type": "hello", "token": "x" * 32})
            assert guesser.error()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            guesser.receive()
        assert closed.value.code == 4401
    with client.websocket_connect("/ws/nothere") as ws:
        assert ws.receive_json()["code"] == "no_such_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_records_mark_stand_in_turns_and_the_history_has_one_kind_of_types(
    client: TestClient,
) -> None:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    host = create(client, name="Ann", seats=3, options={"phases": [1]})
    bob = join(client, host["table"], "Bob")
    url = f"/ws/{host['table']}"
    greedy = make_player("greedy", random.Random(0))
    played: dict[int, str] = {}
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        ann, bobs = Client(a, host["token"]), Client(b, bob["token"])
        ann.send({"type": "start"})
        version, stand_ins = 0, 0
        while True:
            state = ann.wait_stable(version)
            view = state["view"]
            if view["stage"] == "game_over":
                break
            seat = view["current"]
            mine = ann if seat == 0 else bobs
            own = state if seat == 0 else bobs.wait_stable(state["version"])
            action = str(greedy.choose(PlayerView.from_dict(own["view"])))
            # every third action of the people is played by the timer's stand-in
            if stand_ins % 3 == 0:
                table = manager.tables[host["table"]]
                act = functools.partial(manager.act, table, seat, action, by=ActedBy.TIMER)
                client.portal.call(act)  # type: ignore[union-attr]
                played[state["version"]] = "t"
            else:
                mine.send({"type": "action", "action": action, "version": state["version"]})
                played[state["version"]] = "p"
            stand_ins += 1
            version = state["version"] + 1
    [game] = client.get("/api/history").json()["games"]
    record = client.get(f"/api/records/{game['id']}").json()
    by = record["tags"]["by"]
    assert len(by) == len(record["actions"]) and set(by) == {"p", "t", "b"}
    assert {number: by[number] for number in played} == played
    assert set(by) - set(played.values()) == {"b"}
    timer_step = 1 + next(n for n, letter in played.items() if letter == "t")
    frame = client.get(f"/api/records/{game['id']}/replay?step={timer_step}").json()
    _answers("record", record)
    _answers("replay-frame", frame)
    _answers("history", client.get("/api/history").json())
    assert frame["by"] == "timer"
    assert client.get(f"/api/records/{game['id']}/replay?step=0").json()["by"] is None
    # one kind of type everywhere: seats as numbers with names beside, times in ISO 8601
    replayed = Game(record["players"], rules=Rules.from_dict(record["rules"]), seed=record["seed"])
    for text in record["actions"]:
        replayed.apply(text)
    assert game["winners"] == record["result"]["winners"] == list(replayed.winners)
    assert game["winner_names"] == [record["players"][seat] for seat in game["winners"]]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", game["finished"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", record["date"])
    last = client.get(f"/api/tables/{host['table']}").json()["last_game"]
    assert last["winners"] == game["winners"] and last["winner_names"] == game["winner_names"]

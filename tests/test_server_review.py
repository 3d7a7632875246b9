"""Game reviews over HTTP (``/api/records/{id}/review``): started, followed, stored and
answered at once the second time; refused clearly for a dice game, rules the review does
not play, a seat the game lacks, and past the reviews a server runs at once. Tiny games
(two players, one phase) and few deals keep each review well under a second."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("pebble")

from fastapi.testclient import TestClient
from pydantic import TypeAdapter
from sqlalchemy import text

from phase10.bots import make_player, play_game
from phase10.core import Game, GameRecord, Rules
from phase10.kernel import available
from phase10.server import reviews as reviews_module
from phase10.server import work
from phase10.server.formats import ReviewData
from phase10.server.models import ReviewStatus
from phase10.server.schemas import OUT
from server_support import ROOMY, make_app

if not available():
    pytest.skip("reviews need the compiled kernel", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
#: few deals: a review of a one-phase game of two takes a fraction of a second
SMALL = ROOMY.with_changes(["review_deals=8", "review_win_deals=4"])


def tiny_record(seed: int = 0, rules: Rules | None = None, *, play: bool = True) -> GameRecord:
    """A game of two with one phase: a random player (who errs) against a greedy one."""
    game = Game(["Ann", "Bob"], seed=seed, rules=rules or Rules(phases=(1,)))
    if play:
        players = [
            make_player("random", random.Random(seed)),
            make_player("greedy", random.Random(1)),
        ]
        play_game(game, players)
    return GameRecord.from_game(game)


def store_record(client: TestClient, data: dict[str, Any], table: str = "t1") -> int:
    """Keep ``data`` as a finished game's record, as the server does at a game's end."""
    store = client.app.state.store  # type: ignore[attr-defined]
    store.create_table(table, {}, [])
    record_id: int = store.finish_game(table, 1, data, [])
    return record_id


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=SMALL)) as test:
        yield test


def wait_done(client: TestClient, url: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60  # a generous bound: a worker starting on a busy machine
    while time.monotonic() < deadline:
        status: dict[str, Any] = client.get(url).json()
        assert status["state"] != "failed", status
        assert 0 <= status["done"] <= max(status["total"], 0) or status["total"] == 0, status
        if status["state"] == "done":
            return status
        time.sleep(0.05)
    raise AssertionError(f"the review at {url} did not end")


def matches_schema(name: str, data: Any, kind: Any) -> None:
    """Strictly the model, and the committed JSON Schema clients in any language read."""
    TypeAdapter(kind).validate_json(json.dumps(data), strict=True)
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / OUT / f"{name}.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)


def test_a_review_is_started_followed_stored_and_then_answered_at_once(
    client: TestClient,
) -> None:
    record = tiny_record(1)  # (seed 1: the random player's mistakes show at 8 deals)
    record_id = store_record(client, record.to_dict())
    url = f"/api/records/{record_id}/review?player=0"
    assert client.get(url).json()["error"] == "no_review"
    started = client.post(url)
    assert started.status_code == 202, started.text
    assert started.json()["state"] == "running"
    matches_schema("review-status", started.json(), ReviewStatus)
    done = wait_done(client, url)
    matches_schema("review-status", done, ReviewStatus)
    matches_schema("review", done["review"], ReviewData)
    review = done["review"]
    assert review["name"] == "Ann" and review["deals"] == 8 and review["win_deals"] == 4
    assert "Ann's view only" in review["note"]
    assert done["done"] == done["total"] == len(review["decisions"]) > 0
    assert review["mistakes"], "a random player errs in this game"
    winners = record.winners or ()
    assert review["chances"][-1]["wins"] == [1.0 if s in winners else 0.0 for s in range(2)]
    # stored with the record: asked again, it is answered at once, the same
    again = client.post(url)
    assert again.status_code == 200 and again.json() == done
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as rows:
        assert rows.execute(text("SELECT record_id, seat FROM reviews")).all() == [(record_id, 0)]
    # the other seat is another review
    assert client.get(f"/api/records/{record_id}/review?player=1").json()["error"] == "no_review"


def test_reviews_that_cannot_be_are_refused_clearly(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_id = store_record(client, tiny_record().to_dict())
    for player, code, status, words in (
        (2, "no_such_player", 422, "no seat 2: its seats are 0 (Ann), 1 (Bob)"),
        (-1, "no_such_player", 422, "no seat -1"),
    ):
        answer = client.post(f"/api/records/{record_id}/review?player={player}")
        assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
        assert words in answer.json()["message"]
    assert client.post(f"/api/records/{record_id}/review?player=x").status_code == 422
    assert client.post("/api/records/999/review?player=0").json()["error"] == "no_such_record"
    # rules whose greedy play-outs the kernel lacks (none today: as if one were)
    lacking = "the greedy policy in the kernel does not play some_option = 'on' yet"
    monkeypatch.setattr(reviews_module, "greedy_unsupported", lambda rules: lacking)
    answer = client.post(f"/api/records/{record_id}/review?player=0")
    assert answer.status_code == 422 and answer.json()["error"] == "cannot_review"
    assert "some_option" in answer.json()["message"]
    monkeypatch.undo()
    dice = store_record(client, {"format": "phase10-dice-record", "players": ["Ann"]}, "t3")
    answer = client.get(f"/api/records/{dice}/review?player=0")
    assert answer.json() == {
        "error": "cannot_review",
        "message": f"game {dice} was played with dice: it cannot be reviewed",
    }


def test_reviews_past_the_servers_limit_are_refused_not_queued(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One review runs at once (``review_workers``); a second is refused with ``busy``
    while it runs, shows its progress, and is taken once it ended."""
    reviews = client.app.state.manager.reviews  # type: ignore[attr-defined]
    release = asyncio.Event()

    async def slow(function: Any, *args: Any) -> Any:
        reviews.pool._progress = work._context().Array("q", 2)  # as the pool makes it
        reviews.pool._progress[0:2] = [3, 7]  # as the worker writes it
        await release.wait()
        return {"error": "stopped by the test"}

    monkeypatch.setattr(reviews.pool, "run", slow)
    first = store_record(client, tiny_record().to_dict())
    assert client.post(f"/api/records/{first}/review?player=0").status_code == 202
    busy = client.post(f"/api/records/{first}/review?player=1")
    assert busy.status_code == 429 and busy.json()["error"] == "busy", busy.text
    running = client.get(f"/api/records/{first}/review?player=0").json()
    assert (running["state"], running["done"], running["total"]) == ("running", 3, 7)
    client.portal.call(release.set)  # type: ignore[union-attr]
    deadline = time.monotonic() + 10
    while (status := client.get(f"/api/records/{first}/review?player=0").json())[
        "state"
    ] == "running" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (status["state"], status["error"]) == ("failed", "stopped by the test")
    # without a seat: the game's one person, by the record's controllers tag
    data = tiny_record(play=False).to_dict()
    data["tags"]["controllers"] = "greedy,human"
    second = store_record(client, data, table="t2")
    taken = client.post(f"/api/records/{second}/review")
    assert taken.status_code == 202 and taken.json()["player"] == 1, taken.text
    # the replay names that seat too, for the browser's review panel to start on
    assert client.get(f"/api/records/{second}/replay").json()["review_player"] == 1
    assert client.get(f"/api/records/{first}/replay").json()["review_player"] == 0


def test_a_review_job_reports_its_progress_through_the_shared_array() -> None:
    """What the client's progress bar shows: the worker writes (done, total) to its slot."""
    progress = work._context().Array("q", 4)
    work._progress = progress  # as the worker's initializer keeps it
    try:
        answer = work.review_job(tiny_record(1).to_dict(), 1, 4, 2, slot=1)
    finally:
        work._progress = None
    review = ReviewData.model_validate(answer["review"])
    assert review.player == 1 and progress[2] == progress[3] > 0 and progress[0] == 0
    bad = work.review_job(tiny_record(1).to_dict(), 5, 4, 2, slot=0)
    assert "no player 5" in bad["error"]


def test_the_store_keeps_one_review_per_record_and_key(database_url: str) -> None:
    """On SQLite and PostgreSQL: a review filed again under its key replaces the first."""
    from phase10.server.db import Store

    store = Store(database_url)
    try:
        store.create_table("t1", {}, [])
        record_id = store.finish_game("t1", 1, tiny_record(play=False).to_dict(), [])
        assert store.review(record_id, "k") is None
        store.put_review(record_id, 1, "k", '{"a": 1}')
        store.put_review(record_id, 1, "k", '{"a": 2}')
        store.put_review(record_id, 0, "other", "{}")
        assert store.review(record_id, "k") == '{"a": 2}'
        assert store.review(record_id + 1, "k") is None
    finally:
        store.close()


def test_one_address_may_start_only_so_many_reviews(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review workers are the server's: an address that starts review after review
    is refused (``rate_limited``) past its budget, while a review stored or running is
    still answered."""
    limits = dataclasses.replace(SMALL, review_burst=2.0, review_every_seconds=3600.0)
    with TestClient(make_app(f"sqlite:///{tmp_path / 'r.sqlite3'}", limits=limits)) as client:
        reviews = client.app.state.manager.reviews  # type: ignore[attr-defined]

        async def quick(function: Any, *args: Any) -> Any:
            return {"error": "stopped by the test"}

        monkeypatch.setattr(reviews.pool, "run", quick)
        record = store_record(client, tiny_record().to_dict())
        answers = []
        for seat in (0, 1, 0):
            answers.append(client.post(f"/api/records/{record}/review?player={seat}"))
            deadline = time.monotonic() + 10
            while (
                client.get(f"/api/records/{record}/review?player={seat}").json()["state"]
                == "running"
                and time.monotonic() < deadline
            ):
                time.sleep(0.01)
        assert [answer.status_code for answer in answers[:2]] == [202, 202]
        assert answers[2].status_code == 429 and answers[2].json()["error"] == "rate_limited"
        assert "one more may start every 3600 s" in answers[2].json()["message"]

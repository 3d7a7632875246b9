"""The score sheet for real cards: points from the cards left, phases, totals and the
winner by the engine's own rules (the lowest total among those who finished, then a
tie-break hand)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from phase10.server import create_app


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(database_url="sqlite://")) as test_client:
        yield test_client


def line(points: int, phase: bool) -> dict[str, Any]:
    return {"points": points, "phase": phase}


def sheet(client: Any, **body: Any) -> Any:
    return client.post("/api/companion/standings", json=body)


def test_points_are_counted_from_the_cards_left(client: Any) -> None:
    assert client.post("/api/companion/points", json={"cards": "r1 R10, W S"}).json() == {
        "cards": "R1 R10 W S",
        "points": 55,
    }
    bad = client.post("/api/companion/points", json={"cards": "R13"})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_cards"


def test_totals_and_phases_add_up_hand_by_hand(client: Any) -> None:
    hands = [[line(0, True), line(35, False)], [line(20, True), line(0, True)]]
    result = sheet(client, players=["Ann", "Bob"], hands=hands).json()
    assert [(p["total"], p["phase"], p["completed"]) for p in result["players"]] == [
        (20, 3, 2),
        (35, 2, 1),
    ]
    assert result["outcome"] is None


def test_the_lowest_total_among_the_finishers_wins(client: Any) -> None:
    hands = [[line(0, True), line(5, True), line(50, True)]] * 4
    hands = [*hands, [line(30, True), line(0, True), line(0, False)]]
    result = sheet(client, preset="short-5", players=["Ann", "Bob", "Cy"], hands=hands).json()
    assert result["outcome"]["winner_names"] == ["Bob"]
    assert result["outcome"]["reason"] == "completed the last phase with the lowest total"
    late = sheet(client, preset="short-5", players=["A", "B", "C"], hands=[*hands, hands[0]])
    assert late.status_code == 422 and late.json()["error"] == "bad_sheet"


def test_a_tie_needs_a_tie_break_hand(client: Any) -> None:
    hands = [[line(10, True), line(10, True)]] * 5
    tied = sheet(client, preset="short-5", players=["Ann", "Bob"], hands=hands).json()
    assert tied["outcome"]["winners"] == [] and tied["outcome"]["tie_break"] == [0, 1]
    done = sheet(
        client, preset="short-5", players=["Ann", "Bob"], hands=hands, tie_break_winner=1
    ).json()
    assert done["outcome"]["winner_names"] == ["Bob"]
    assert done["outcome"]["reason"] == "went out first in the tie-break hand"


def test_ten_hands_everyone_advances_and_the_lowest_total_wins(client: Any) -> None:
    hands = [[line(5, False), line(10, True)]] * 10
    result = sheet(client, preset="ten-hands", players=["Ann", "Bob"], hands=hands).json()
    assert result["outcome"]["winner_names"] == ["Ann"]
    assert [p["phase"] for p in result["players"]] == [None, None]


def test_bad_sheets_are_refused(client: Any) -> None:
    assert sheet(client, players=["Ann"]).status_code == 422
    short = sheet(client, players=["Ann", "Bob"], hands=[[line(0, True)]])
    assert short.json()["error"] == "bad_sheet"
    assert sheet(client, preset="masters", players=["A", "B"]).json()["error"] == "bad_sheet"

"""Finished games: the history, each record (with its seed), a replay step by step, and a
review of any player's decisions (phase10.server.reviews)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request, Response

from phase10.core import (
    GameRecord,
    IllegalActionError,
    InvalidActionError,
    RecordError,
)
from phase10.dice import DiceRecord
from phase10.dice.records import DICE_RECORD_FORMAT
from phase10.search.review import find_player

from ..formats import DiceRecordData, HandEndedData, RecordData, ViewData
from ..models import (
    History,
    HistoryGame,
    ReplayFrame,
    ReplayHand,
    ReviewState,
    ReviewStatus,
    TableKind,
    acted_by,
)
from ..reviews import ReviewRefused
from .common import ApiError, client_address, manager_of

__all__ = ["router"]

router = APIRouter()


@router.get("/api/history")
async def history(request: Request) -> History:
    """The last 100 finished games, newest first: seats as numbers, with names."""
    manager = manager_of(request)
    rows = await manager.db(manager.store.records)
    listed = await manager.db(manager.store.listed, {row.table_id for row in rows})
    games = []
    for row in rows:
        players = json.loads(row.players)
        record = json.loads(row.record)
        result = record["result"]
        winners = list(result["winners"] or [])
        dice = record.get("format") == DICE_RECORD_FORMAT
        games.append(
            HistoryGame(
                id=row.id,
                kind=TableKind.DICE if dice else TableKind.CARDS,
                table=row.table_id if row.table_id in listed else None,
                game=row.game_no,
                finished=iso_time(row.finished),
                players=players,
                winners=winners,
                winner_names=[players[seat] for seat in winners],
                totals=result["totals"],
            )
        )
    return History(games=games)


def iso_time(seconds: float) -> str:
    """A time as ISO 8601 in UTC, to the second, as records write their date.

    >>> iso_time(0.0)
    '1970-01-01T00:00:00+00:00'
    """
    return datetime.fromtimestamp(seconds, UTC).replace(microsecond=0).isoformat()


async def _stored(request: Request, record_id: int) -> dict[str, Any]:
    manager = manager_of(request)
    row = await manager.db(manager.store.record, record_id)
    if row is None:
        raise ApiError("no_such_record", f"there is no finished game {record_id}")
    data: dict[str, Any] = json.loads(row.record)
    tags = data.get("tags")
    # (kept by an earlier version) a private table's id is its invitation: not shown
    if isinstance(tags, dict) and "table" in tags:
        listed = await manager.db(manager.store.listed, [row.table_id])
        data["tags"] = {name: value for name, value in tags.items() if listed or name != "table"}
    return data


async def _load(request: Request, record_id: int) -> GameRecord:
    data = await _stored(request, record_id)
    if data.get("format") == DICE_RECORD_FORMAT:
        raise ApiError(
            "dice_record",
            f"game {record_id} was played with dice: GET /api/records/{record_id} gives its record",
        )
    return GameRecord.from_dict(data)


@router.get("/api/records/{record_id}")
async def record(record_id: int, request: Request) -> RecordData | DiceRecordData:
    """A finished game's full record (its seed included: the game is over); a dice game's
    is a dice record (``format`` ``phase10-dice-record``)."""
    data = await _stored(request, record_id)
    if data.get("format") == DICE_RECORD_FORMAT:
        return DiceRecordData.model_validate(DiceRecord.from_dict(data).to_dict())
    return RecordData.model_validate(GameRecord.from_dict(data).to_dict())


@router.get("/api/records/{record_id}/replay")
async def replay(record_id: int, request: Request, step: int = 0) -> ReplayFrame:
    """The table after the first ``step`` actions of a finished game, every hand shown, with
    who played that step and where every hand starts and ends (one replay of the game,
    kept: phase10.server.replays)."""
    replays = manager_of(request).replays
    # a record replayed lately is not read and parsed again (a long one takes milliseconds)
    kept = replays.kept(record_id)
    saved = kept.record if kept is not None else await _load(request, record_id)
    try:
        index = kept or await replays.index(record_id, saved)
        frame = await replays.frame(record_id, saved, step)
    except (RecordError, IllegalActionError, InvalidActionError, ValueError) as error:
        raise ApiError("bad_record", str(error)) from None
    names = list(saved.players)
    hands = [
        ReplayHand(hand=hand, start=start, end=end, result=HandEndedData.model_validate(result))
        for hand, start, end, result in index.hands
    ]
    return ReplayFrame(
        step=frame.step,
        total=len(saved.actions),
        action=saved.actions[frame.step - 1] if frame.step else None,
        actor=frame.actor,
        actor_name=None if frame.actor is None else names[frame.actor],
        by=acted_by(saved.tag("by"), frame.step),
        view=ViewData.model_validate(frame.view),
        hands=frame.hands,
        log=frame.log,
        hand_index=hands,
        review_player=find_player(saved, None),
    )


@router.post("/api/records/{record_id}/review", status_code=202)
async def start_review(
    record_id: int, request: Request, response: Response, player: int | None = None
) -> ReviewStatus:
    """Start the review of seat ``player``'s decisions in a finished card game (without
    ``player``: the game's one person, by its ``controllers`` tag, else seat 0) (``202``,
    ``running``), or give the one already running or done (``200`` once done). At most
    ``review_workers`` reviews run at once: more are refused (``429 busy``)."""
    manager = manager_of(request)
    address = client_address(request)
    try:
        status = await manager.reviews.start(
            record_id, player, pay=lambda: manager.visitors.reviews.take(address)
        )
    except ReviewRefused as error:
        raise ApiError(error.code, error.message) from None
    if status.state is ReviewState.DONE:
        response.status_code = 200
    return status


@router.get("/api/records/{record_id}/review")
async def review_status(
    record_id: int, request: Request, player: int | None = None
) -> ReviewStatus:
    """How the review of seat ``player`` stands: ``running`` (with its progress), ``done``
    (with the review) or ``failed`` (with why); ``404 no_review`` if none was asked for."""
    try:
        return await manager_of(request).reviews.status(record_id, player)
    except ReviewRefused as error:
        raise ApiError(error.code, error.message) from None

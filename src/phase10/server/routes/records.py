"""Finished games: the history, each record (with its seed), and a replay step by step."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request

from phase10.core import GameRecord, RecordError
from phase10.core.narration import EventLog

from ..models import History, HistoryGame, ReplayFrame
from .common import ApiError, manager_of

__all__ = ["router"]

router = APIRouter()


@router.get("/api/history")
async def history(request: Request) -> History:
    manager = manager_of(request)
    rows = await manager.db(manager.store.records)
    return History(
        games=[
            HistoryGame(
                id=row.id,
                table=row.table_id,
                game=row.game_no,
                finished=row.finished,
                players=json.loads(row.players),
                winners=json.loads(row.winners),
                totals=json.loads(row.record)["result"]["totals"],
            )
            for row in rows
        ]
    )


async def _load(request: Request, record_id: int) -> GameRecord:
    manager = manager_of(request)
    row = await manager.db(manager.store.record, record_id)
    if row is None:
        raise ApiError(404, "no_such_record", f"there is no finished game {record_id}")
    return GameRecord.from_dict(json.loads(row.record))


@router.get("/api/records/{record_id}")
async def record(record_id: int, request: Request) -> dict[str, object]:
    """A finished game's full record (its seed included: the game is over)."""
    return (await _load(request, record_id)).to_dict()


@router.get("/api/records/{record_id}/replay")
async def replay(record_id: int, request: Request, step: int = 0) -> ReplayFrame:
    """The table after the first ``step`` actions of a finished game, every hand shown."""
    saved = await _load(request, record_id)
    step = max(0, min(step, len(saved.actions)))
    try:
        game = saved.replay(upto=step)
    except RecordError as error:
        raise ApiError(500, "bad_record", str(error)) from None
    names = list(saved.players)
    narration = EventLog(names, saved.rules, verbose=True)
    narration.feed(game.history)
    return ReplayFrame(
        step=step,
        total=len(saved.actions),
        action=saved.actions[step - 1] if step else None,
        view=game.view(None).to_dict(),
        hands=[" ".join(str(card) for card in game.hand(s)) for s in range(len(names))],
        log=narration.lines[-40:],
    )

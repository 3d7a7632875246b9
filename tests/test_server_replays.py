"""Replays of finished games (``GET /api/records/{id}/replay``): each record replayed once,
off the event loop, shared by concurrent askers, kept for the last few records, and every
frame the same as a replay from the start.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from phase10.bots import make_player, play_game
from phase10.core import Game, GameRecord
from phase10.core.narration import EventLog
from phase10.server import replays
from phase10.server.replays import CHECKPOINT, KEPT, Replays, build_frame, build_index


def finished_record(seed: int, players: int = 3, bot: str = "random") -> GameRecord:
    game = Game(players, seed=seed)
    play_game(game, [make_player(bot, random.Random(seed + s)) for s in range(players)])
    return GameRecord.from_game(game)


@pytest.fixture(scope="module")
def long_record() -> GameRecord:
    record = finished_record(3)
    assert len(record.actions) > 2 * CHECKPOINT
    return record


def test_every_frame_is_the_game_replayed_from_the_start(long_record: GameRecord) -> None:
    index = build_index(long_record)
    game = long_record.new_game()
    steps = {
        0,
        1,
        CHECKPOINT - 1,
        CHECKPOINT,
        CHECKPOINT + 1,
        2 * CHECKPOINT,
        len(long_record.actions),
    }
    for step in range(len(long_record.actions) + 1):
        if step:
            actor = game.current
            game.apply(long_record.actions[step - 1])
        if step in steps:
            frame = build_frame(index, step)
            assert frame.view == game.view(None).to_dict()
            # the log goes on from the nearest copy's narration, as if told from the start
            told = EventLog(long_record.players, long_record.rules, verbose=True)
            told.feed(game.history)
            assert frame.log == told.lines[-replays.LOG_LINES :]
            assert frame.hands == [" ".join(map(str, game.hand(s))) for s in range(3)]
            assert frame.actor == (actor if step else None)
    ends = [end for _hand, _start, end, _result in index.hands]
    assert ends[-1] == len(long_record.actions) and ends == sorted(ends)


def counting_builds(monkeypatch: pytest.MonkeyPatch, pause: float = 0.0) -> list[int]:
    built: list[int] = []
    real = replays.build_index

    def build(record: GameRecord) -> Any:
        built.append(len(record.actions))
        time.sleep(pause)
        return real(record)

    monkeypatch.setattr(replays, "build_index", build)
    return built


async def test_a_record_is_replayed_once_off_the_loop_however_many_ask(
    monkeypatch: pytest.MonkeyPatch, long_record: GameRecord
) -> None:
    built = counting_builds(monkeypatch, pause=0.3)
    server = Replays()
    ticks = 0

    async def heartbeat() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    beating = asyncio.create_task(heartbeat())
    frames = await asyncio.gather(*(server.frame(4, long_record, step) for step in range(6)))
    beating.cancel()
    assert built == [len(long_record.actions)]  # one build, shared
    assert ticks >= 15  # the loop went on while the record was replayed
    assert [frame.step for frame in frames] == list(range(6))
    await server.frame(4, long_record, 10_000)  # (clamped to the last step)
    assert built == [len(long_record.actions)]


async def test_only_the_last_records_asked_for_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    built = counting_builds(monkeypatch)
    record = finished_record(5, players=2, bot="greedy")
    server = Replays()
    for number in range(KEPT + 1):
        await server.frame(number, record, 1)
    assert len(built) == KEPT + 1
    await server.frame(KEPT, record, 2)  # the newest: kept
    assert len(built) == KEPT + 1
    await server.frame(0, record, 2)  # the oldest: gone, replayed again
    assert len(built) == KEPT + 2

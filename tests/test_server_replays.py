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


def assert_frames(record: GameRecord, checkpoint: int) -> None:
    """Frames at the copies' edges and at hands' ends are the game replayed from the start
    (a hand's end shown before the next deal), with its log as if told from the start."""
    index = build_index(record)
    ends = [end for _hand, _start, end, _result in index.hands]
    assert ends[-1] == len(record.actions) and ends == sorted(ends)
    steps = {0, 1, len(record.actions), ends[0], ends[1]} | {
        k * checkpoint + d for k in (1, 2) for d in (-1, 0, 1)
    }
    steps |= {end for end in ends if end % checkpoint in (0, 1)}
    game = record.new_game()
    for step in range(len(record.actions) + 1):
        shown = game
        if step:
            actor = game.current
            if step in ends[:-1]:  # a hand's end is shown before the next deal
                shown = game.table_as_hand_ends(record.actions[step - 1])
            game.apply(record.actions[step - 1])
        if step in steps:
            frame = build_frame(index, step)
            assert frame.view == shown.view(None).to_dict(), step
            told = EventLog(record.players, record.rules, verbose=True)
            told.feed(shown.history)
            assert frame.log == told.lines[-replays.LOG_LINES :], step
            assert frame.hands == [" ".join(map(str, shown.hand(s))) for s in range(3)]
            assert frame.actor == (actor if step else None)
    assert index.hands[0][2] in steps and len(game.hand_results) > 2


def test_every_frame_is_the_game_replayed_from_the_start(long_record: GameRecord) -> None:
    assert_frames(long_record, CHECKPOINT)


def test_a_hand_that_ends_on_a_copy_of_the_game_is_shown_ending(
    monkeypatch: pytest.MonkeyPatch, long_record: GameRecord
) -> None:
    """The copies kept every CHECKPOINT actions hold the next deal already: a hand ending
    just there is shown from the copy before."""
    second_end = build_index(long_record).hands[1][2]
    monkeypatch.setattr(replays, "CHECKPOINT", second_end)
    assert_frames(long_record, second_end)


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

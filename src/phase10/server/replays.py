"""Replays of finished games, served without holding up the tables.

Replaying a record to one step costs time in the length of the game (a long one is ten
thousand actions), and ``GET /api/records/{id}/replay`` asks for it by anyone, step after
step. So a record is replayed once, off the event loop: the index of its hands, who played
each step, and a copy of the game and of its narration every :data:`CHECKPOINT` actions
are kept for the last :data:`KEPT` records asked for. A frame then replays and narrates at
most ``CHECKPOINT - 1`` actions from the nearest copy, however long the game. All of it
runs on one worker thread at a time (the event loop goes on with the tables meanwhile),
so however many visitors ask, they queue behind one another.

>>> import asyncio, random
>>> from phase10.bots import make_player, play_game
>>> game = Game(2, seed=5)
>>> play_game(game, [make_player("greedy", random.Random(s)) for s in range(2)])
>>> record = GameRecord.from_game(game)
>>> replays = Replays()
>>> frame = asyncio.run(replays.frame(7, record, 3))
>>> frame.step, frame.actor in (0, 1), frame.view["hand_number"]
(3, True, 1)
>>> asyncio.run(replays.frame(7, record, 3)) == frame  # the index is kept: the same frame
True
"""

from __future__ import annotations

import asyncio
import copy
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Final

from phase10.core import Game, GameRecord, HandEnded, event_to_dict
from phase10.core.narration import EventLog

__all__ = ["CHECKPOINT", "KEPT", "Frame", "ReplayIndex", "Replays"]

#: actions between the copies of a game kept for its replay
CHECKPOINT: Final = 256
#: how many records' replays are kept
KEPT: Final = 16
#: the lines of the log a frame shows
LOG_LINES: Final = 40


@dataclass(frozen=True, slots=True)
class ReplayIndex:
    """What one replay of a whole record gives: every hand's start, end and result, who
    played each action, and the game every :data:`CHECKPOINT` actions."""

    record: GameRecord
    #: (hand number, first action, last action, the HandEnded event as a dict) per hand
    hands: tuple[tuple[int, int, int, dict[str, Any]], ...]
    #: the seat that played each action
    actors: tuple[int, ...]
    #: the game after 0, CHECKPOINT, 2 × CHECKPOINT ... actions
    checkpoints: tuple[Game, ...] = field(repr=False)
    #: the log of each of those games, its events told (its last lines kept)
    narrations: tuple[EventLog, ...] = field(repr=False)


@dataclass(frozen=True, slots=True)
class Frame:
    """The table after ``step`` actions: its public view, every hand, the log's last lines,
    and who played the step (None at step 0)."""

    step: int
    actor: int | None
    view: dict[str, Any]
    hands: list[str]
    log: list[str]


def build_index(record: GameRecord) -> ReplayIndex:
    """Replay ``record`` once (RecordError, IllegalActionError, InvalidActionError or
    ValueError if it does not replay)."""
    game = record.new_game()
    narration = EventLog(list(record.players), record.rules, verbose=True)
    narration.feed(game.history)
    checkpoints, narrations = [game.copy()], [_kept(narration)]
    hands: list[tuple[int, int, int, dict[str, Any]]] = []
    actors: list[int] = []
    start = 0
    for number, text in enumerate(record.actions, start=1):
        actors.append(game.current)  # before the action: a Skip or a last discard moves it
        events = game.apply(text)
        narration.feed(events)
        for event in events:
            if isinstance(event, HandEnded):
                hands.append((event.hand, start, number, event_to_dict(event)))
                start = number
        if number % CHECKPOINT == 0:
            checkpoints.append(game.copy())
            narrations.append(_kept(narration))
        del narration.lines[:-LOG_LINES]
    return ReplayIndex(record, tuple(hands), tuple(actors), tuple(checkpoints), tuple(narrations))


def _kept(narration: EventLog) -> EventLog:
    """A copy of ``narration`` that goes on apart from it, with its last lines only."""
    kept = copy.copy(narration)
    kept.lines = narration.lines[-LOG_LINES:]
    kept.owners = dict(narration.owners)
    return kept


def build_frame(index: ReplayIndex, step: int) -> Frame:
    """The frame after ``step`` actions (0 to the record's length), from the nearest copy.
    A step that ends a hand shows the table as the hand ended, with the cards left in
    every hand, not the next deal (which the engine makes in the same step: the frame of
    the step after shows it)."""
    record = index.record
    ends_hand = step < len(record.actions) and any(hand[2] == step for hand in index.hands)
    base = (step - 1 if ends_hand else step) // CHECKPOINT
    game = index.checkpoints[base].copy()
    narration = _kept(index.narrations[base])
    texts = record.actions[base * CHECKPOINT : step]
    for text in texts[:-1] if ends_hand else texts:
        narration.feed(game.apply(text))
    if ends_hand:
        told = len(game.history)
        game = game.table_as_hand_ends(texts[-1])
        narration.feed(game.history[told:])
    hands = [" ".join(str(card) for card in game.hand(s)) for s in range(len(record.players))]
    actor = index.actors[step - 1] if step else None
    return Frame(step, actor, game.view(None).to_dict(), hands, narration.lines[-LOG_LINES:])


class Replays:
    """The replays of one server: the last :data:`KEPT` records' indexes, and one worker
    thread's turn at a time for building indexes and frames."""

    def __init__(self) -> None:
        self._indexes: OrderedDict[int, ReplayIndex] = OrderedDict()
        self._building: dict[int, asyncio.Task[ReplayIndex]] = {}
        self._turn = asyncio.Semaphore(1)

    async def _work(self, function: Any, *args: Any) -> Any:
        async with self._turn:
            return await asyncio.to_thread(function, *args)

    def kept(self, record_id: int) -> ReplayIndex | None:
        """The index of ``record_id`` if it is kept (its record read and replayed once: a
        finished game never changes), else None."""
        found = self._indexes.get(record_id)
        if found is not None:
            self._indexes.move_to_end(record_id)
        return found

    async def index(self, record_id: int, record: GameRecord) -> ReplayIndex:
        """The replay index of the finished game ``record_id`` (built once; a build under
        way is shared by everyone who asks)."""
        found = self._indexes.get(record_id)
        if found is not None:
            self._indexes.move_to_end(record_id)
            return found
        task = self._building.get(record_id)
        if task is None:
            task = asyncio.ensure_future(self._work(build_index, record))
            self._building[record_id] = task
            task.add_done_callback(lambda _: self._building.pop(record_id, None))
        index: ReplayIndex = await asyncio.shield(task)
        self._indexes[record_id] = index
        self._indexes.move_to_end(record_id)
        while len(self._indexes) > KEPT:
            self._indexes.popitem(last=False)
        return index

    async def frame(self, record_id: int, record: GameRecord, step: int) -> Frame:
        """The frame after ``step`` actions (clamped to the record) of ``record_id``."""
        index = await self.index(record_id, record)
        step = max(0, min(step, len(record.actions)))
        frame: Frame = await self._work(build_frame, index, step)
        return frame

"""The card bots' fair turns (phase10.server.thinking): one decision at a time per address,
addresses in turn, an address whose thinking time is spent after the others. The decisions
here block on events the test sets, so the order is the test's, not the machine's speed."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from phase10.bots import make_player
from phase10.bots.seats import bot_turn
from phase10.core import Game
from phase10.server.db import Store
from phase10.server.limits import Buckets
from phase10.server.manager import TableManager
from phase10.server.models import ActedBy, TableOptions
from phase10.server.thinking import FairThinking


class Decisions:
    """Decisions that say when they start and finish only when told to."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.release: dict[str, threading.Event] = {}
        self.lock = threading.Lock()

    def make(self, name: str):  # type: ignore[no-untyped-def]
        self.release[name] = threading.Event()

        def decide() -> str:
            with self.lock:
                self.started.append(name)
            assert self.release[name].wait(10), f"{name} was never released"
            return name

        return decide


async def until(condition, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never came")


async def test_one_decision_at_a_time_per_address_and_addresses_in_turn() -> None:
    now = [0.0]
    turns = FairThinking(Buckets(1.0, 100.0, lambda: now[0]), threads=2)
    made = Decisions()
    try:
        # the attacker's three tables ask at once, then the victim's one
        a = [asyncio.create_task(turns.run("attacker", made.make(f"a{i}"))) for i in range(3)]
        await until(lambda: made.started == ["a0"])
        victim = asyncio.create_task(turns.run("victim", made.make("v")))
        # a free thread, but the attacker has one running: the victim's goes first
        await until(lambda: made.started == ["a0", "v"])
        made.release["v"].set()
        assert await victim == "v"
        made.release["a0"].set()
        await until(lambda: made.started == ["a0", "v", "a1"])
        for name in ("a1", "a2"):
            made.release[name].set()
        assert await asyncio.gather(*a) == ["a0", "a1", "a2"]
    finally:
        turns.close()


async def test_an_address_whose_thinking_time_is_spent_waits_for_the_others() -> None:
    now = [0.0]
    budget = Buckets(1.0, 5.0, lambda: now[0])
    turns = FairThinking(budget, threads=1)
    made = Decisions()
    try:
        budget.get("attacker").charge(100.0)  # far in debt
        late = asyncio.create_task(turns.run("attacker", made.make("a")))
        victim = asyncio.create_task(turns.run("victim", made.make("v")))
        await until(lambda: made.started == ["v"])
        made.release["v"].set()
        assert await victim == "v"
        await asyncio.sleep(0.05)
        assert made.started == ["v"]  # still in debt: the clock has not moved
        now[0] += 100.0  # earned back
        made.release["a"].set()
        await until(lambda: made.started == ["v", "a"], seconds=5)
        assert await late == "a"
        # what each decision took was charged to its address
        assert budget.get("victim").tokens < 5.0
    finally:
        turns.close()


async def test_a_decision_no_longer_wanted_gives_up_its_turn() -> None:
    turns = FairThinking(Buckets(1.0, 100.0, lambda: 0.0), threads=1)
    made = Decisions()
    try:
        first = asyncio.create_task(turns.run("a", made.make("a")))
        await until(lambda: made.started == ["a"])
        gone = asyncio.create_task(turns.run("b", made.make("b")))
        after = asyncio.create_task(turns.run("c", made.make("c")))
        await asyncio.sleep(0.05)
        gone.cancel()  # its table closed while it waited
        made.release["a"].set()
        made.release["c"].set()
        assert await first == "a" and await after == "c"
        assert made.started == ["a", "c"]
        with pytest.raises(asyncio.CancelledError):
            await gone
    finally:
        turns.close()


async def test_the_address_with_the_most_thinking_time_saved_goes_first() -> None:
    now = [0.0]
    budget = Buckets(1.0, 10.0, lambda: now[0])
    turns = FairThinking(budget, threads=1)
    made = Decisions()
    try:
        busy = asyncio.create_task(turns.run("other", made.make("o")))
        await until(lambda: made.started == ["o"])
        budget.get("attacker").charge(6.0)  # it has been thinking slowly: 4 s saved
        slow = asyncio.create_task(turns.run("attacker", made.make("a")))
        await asyncio.sleep(0.02)
        quick = asyncio.create_task(turns.run("victim", made.make("v")))  # 10 s saved
        await asyncio.sleep(0.02)
        made.release["o"].set()
        await until(lambda: made.started == ["o", "v"])  # after, though it came first
        made.release["v"].set()
        made.release["a"].set()
        assert await asyncio.gather(busy, quick, slow) == ["o", "v", "a"]
    finally:
        turns.close()


async def test_a_bot_decides_its_turn_at_one_hand_off_as_it_would_one_at_a_time(
    tmp_path: Path,
) -> None:
    """A bot's turn waits for a thread once (phase10.bots.seats.plan_turn), not at each of
    its decisions, and the game it plays is the one it would have played deciding each
    action when its turn came to it."""
    manager = TableManager(Store(f"sqlite:///{tmp_path / 't.sqlite3'}"), seeds=lambda: 4242)
    table, _, _ = await manager.create(
        "Ann", TableOptions(preset="short-5", rules={}, seats=2, bots="strong")
    )
    hand_offs = 0
    real_run = manager.thinking.run

    async def counted(owner: str, decide: Any) -> Any:
        nonlocal hand_offs
        hand_offs += 1
        return await real_run(owner, decide)

    manager.thinking.run = counted  # type: ignore[method-assign]
    await manager.start(table)
    ann = make_player("greedy", random.Random(0))
    game = table.game
    assert game is not None
    while not game.is_over:
        if game.current == 0:
            await manager.act(table, 0, str(ann.choose(game.view(0))), by=ActedBy.PLAYER)
        else:
            await asyncio.sleep(0.001)
    replay, bot = Game(table.names, rules=table.rules, seed=table.seed), table.bots[1]
    bot_actions = bot_turns = 0
    previous = None
    for action in game.actions:
        actor = replay.current
        if actor == 1:
            assert bot_turn(replay, {1: bot}).choose() == action  # as one at a time
            bot_actions += 1
            bot_turns += previous != 1
        previous = actor
        replay.apply(action)
    assert bot_turns <= hand_offs < bot_actions
    manager.store.close()

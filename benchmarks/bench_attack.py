"""Attack clients against a real ``phase10 serve`` while two people play: the players'
round trip must stay short.

The server runs with its default limits, on the loopback. Two players (Ann and Bob, from
127.0.0.1) play a two-player table with greedy decisions, each answering after 50 ms
and pinging five times a second. First they
play alone (the quiet phase); then, for as long again, attack clients run beside them,
each from its own loopback address (127.0.0.2 and up, as separate visitors would):

* choices: on its own solo table, after drawing, ``choices`` naming 48 distinct cards,
  then 40 Wilds, as fast as the socket allows;
* hints: on its own table, a ``hint`` after every answer, as fast as allowed;
* tables: ``POST /api/tables`` in a loop;
* connections: WebSockets to the players' own table, opened, joined as spectators and
  closed, in a loop, many at once;
* bodies: 100 KB bodies posted in a loop;
* slowloris: connections that send half a request and then nothing, 50 at a time, opened
  again as the server cuts them off (``request_seconds``, ``requests_per_address``);
* replays: ``GET /api/records/{id}/replay`` of a finished random-bot game of several
  thousand actions, at random steps, four at once (the record is stored before the
  server starts).

The attackers run at the lowest CPU priority (``nice 19``): on a real server they are
other machines, and here their own CPU must not be what slows the server down.

Reported for each phase: the players' round trip from sending an action to receiving
its state, and from ``ping`` to ``pong`` (p50, p99, max), the attackers' requests and
how they were answered, and the server's CPU and memory. The goal: the round trip's
p99 stays under 50 ms under attack.

    python -m benchmarks attack                     # 20 s quiet, 20 s under attack
    python -m benchmarks.bench_attack --seconds 60  # longer phases
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from benchmarks.bench_server import RESULTS, _cpu_s, _free_port, _rss_mib, _wait_up

EVERY_CARD = " ".join(f"{colour}{number}" for colour in "RBGY" for number in range(1, 13))
FORTY_WILDS = " ".join(["W"] * 40)
#: attack clients of each kind, each on its own address
ATTACKERS = {
    "choices": 4,
    "hints": 4,
    "tables": 2,
    "connections": 4,
    "bodies": 2,
    "slowloris": 2,
    "replays": 2,
}
#: the finished game the replay attackers ask for (stored before the server starts)
REPLAYED = 1


def _ms(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)


def _summary(values: list[float]) -> dict[str, Any]:
    return {
        "count": len(values),
        "p50_ms": round(1000 * statistics.median(values), 2) if values else 0.0,
        "p99_ms": _ms(values, 0.99),
        "max_ms": _ms(values, 1.0),
    }


# -- the players -------------------------------------------------------------------------


#: how long a player thinks before each action, and how often it pings between turns
THINK, PING_EVERY = 0.05, 0.2


async def _player(
    url: str, token: str, host: bool, marks: dict[str, float], out: dict[str, list[float]]
) -> None:
    """One player: answers each turn after :data:`THINK` seconds (a quick human), pings
    every :data:`PING_EVERY` seconds; records round trips by the phase they were sent in.
    A message refused for the rate is counted, and sent again a moment later."""
    import orjson
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from phase10.bots import make_player
    from phase10.core import PlayerView

    bot = make_player("greedy", random.Random(token))
    sent_at: float | None = None
    waiting_for = -1
    ping_at: float | None = None

    def phase(at: float) -> str | None:
        if marks["quiet"] <= at < marks["attack"]:
            return "quiet"
        if marks["attack"] <= at < marks["stop"]:
            return "attack"
        return None

    last_action = ""
    thinking: asyncio.Task[None] | None = None

    async def act_later(ws: Any, action: str, version: int) -> None:
        """Think, then act (apart from the loop reading messages, so a pong that arrives
        meanwhile is timed when it arrives)."""
        nonlocal last_action, sent_at, waiting_for, thinking
        await asyncio.sleep(THINK)
        last_action = json.dumps({"type": "action", "action": action})
        sent_at, waiting_for = time.time(), version + 1
        thinking = None
        await ws.send(last_action)

    async def pinger(ws: Any) -> None:
        nonlocal ping_at
        while True:
            await asyncio.sleep(PING_EVERY)
            if ping_at is None:
                ping_at = time.time()
                await ws.send('{"type": "ping"}')

    async with connect(url, max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        if host:
            await ws.send(json.dumps({"type": "start"}))
        pings = asyncio.create_task(pinger(ws))
        try:
            async for raw in ws:
                received = time.time()
                message = orjson.loads(raw)
                if message["type"] == "pong" and ping_at is not None:
                    if (name := phase(ping_at)) is not None:
                        out[f"ping_{name}"].append(received - ping_at)
                    ping_at = None
                    continue
                if message["type"] == "error":
                    out["refused"].append(received)
                    if message["code"] == "rate_limited" and sent_at is not None:
                        await asyncio.sleep(0.05)
                        await ws.send(last_action)
                    continue
                if message["type"] != "state" or message["view"] is None:
                    continue
                version, view = message["version"], message["view"]
                if sent_at is not None and version >= waiting_for:
                    if (name := phase(sent_at)) is not None:
                        out[f"action_{name}"].append(received - sent_at)
                    sent_at = None
                if view["stage"] == "game_over":
                    # the next game starts once both players ask for it
                    table = message["table"]
                    if table["status"] == "over" and message["you"] not in table["rematch"]:
                        await ws.send(json.dumps({"type": "rematch"}))
                    continue
                if view["current"] != message["you"] or sent_at is not None or thinking:
                    continue
                action = bot.choose(PlayerView.from_dict(view))
                thinking = asyncio.create_task(act_later(ws, str(action), version))
        except ConnectionClosed:
            pass
        finally:
            pings.cancel()


def _players(url: str, host: str, guest: str, marks: dict[str, float]) -> dict[str, list[float]]:
    import uvloop

    out: dict[str, list[float]] = {
        key: [] for key in ("action_quiet", "action_attack", "ping_quiet", "ping_attack", "refused")
    }

    async def both() -> None:
        players = asyncio.gather(
            _player(url, guest, False, marks, out), _player(url, host, True, marks, out)
        )
        with contextlib.suppress(TimeoutError):  # the run is over
            await asyncio.wait_for(players, timeout=marks["stop"] - time.time())

    uvloop.run(both())
    return out


def _players_table(base: str) -> tuple[str, str, str]:
    """Ann's table with Bob seated: its id, and their two tokens."""
    import httpx

    with httpx.Client(base_url=base) as http:
        host = http.post("/api/tables", json={"name": "Ann", "seats": 2}).json()
        guest = http.post(f"/api/tables/{host['table']}/join", json={"name": "Bob"}).json()
    return host["table"], host["token"], guest["token"]


# -- the attackers -----------------------------------------------------------------------


async def _solo_table(base: str, address: str) -> tuple[str, str]:
    import httpx

    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport) as http:
        answer = await http.post("/api/tables", json={"name": "Mallory", "seats": 2})
        seat = answer.json()
    return base.replace("http", "ws") + f"/ws/{seat['table']}", seat["token"]


async def _socket_attack(
    kind: str, base: str, address: str, stop: float, tally: Counter[str]
) -> None:
    """Choices or hints on the attacker's own table, as fast as the socket allows."""
    import orjson
    from websockets.asyncio.client import connect

    url, token = await _solo_table(base, address)
    async with connect(url, local_addr=(address, 0), compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "start"}))
        drawn = False
        while time.time() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.05)
            except TimeoutError:
                raw = None
            if raw is not None:
                message = orjson.loads(raw)
                tally[message.get("code") or message["type"]] += 1
                view = message.get("view") if message["type"] == "state" else None
                if view and view["current"] == message["you"] and view["stage"] == "draw":
                    await ws.send(json.dumps({"type": "action", "action": "draw"}))
                    drawn = True
            if kind == "choices" and drawn:
                for cards in (EVERY_CARD, FORTY_WILDS):
                    await ws.send(json.dumps({"type": "choices", "kind": "lay", "cards": cards}))
                    tally["sent"] += 1
            elif kind == "hints":
                await ws.send(json.dumps({"type": "hint"}))
                tally["sent"] += 1


async def _table_attack(base: str, address: str, stop: float, tally: Counter[str]) -> None:
    import httpx

    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport) as http:
        while time.time() < stop:
            answer = await http.post("/api/tables", json={"name": "Mallory", "seats": 6})
            tally[str(answer.status_code)] += 1


async def _body_attack(base: str, address: str, stop: float, tally: Counter[str]) -> None:
    import httpx

    body = json.dumps({"name": "x" * 100_000}).encode()
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport) as http:
        while time.time() < stop:
            answer = await http.post(
                "/api/tables", content=body, headers={"content-type": "application/json"}
            )
            tally[str(answer.status_code)] += 1


async def _connection_attack(
    base: str, table: str, address: str, stop: float, tally: Counter[str]
) -> None:
    import orjson
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    url = base.replace("http", "ws") + f"/ws/{table}"

    async def one() -> None:
        while time.time() < stop:
            try:
                async with connect(url, local_addr=(address, 0), compression=None) as ws:
                    await ws.send('{"type": "hello"}')
                    message = orjson.loads(await ws.recv())
                    tally[message.get("code") or message["type"]] += 1
            except (ConnectionClosed, InvalidStatus, OSError):
                tally["refused"] += 1
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one() for _ in range(10)))


async def _slowloris_attack(base: str, address: str, stop: float, tally: Counter[str]) -> None:
    host, port = base.removeprefix("http://").split(":")

    async def one() -> None:
        while time.time() < stop:
            try:
                reader, writer = await asyncio.open_connection(
                    host, int(port), local_addr=(address, 0)
                )
            except OSError:
                tally["refused"] += 1
                await asyncio.sleep(0.1)
                continue
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-a: ")
            opened = time.time()
            try:
                await asyncio.wait_for(reader.read(1), timeout=max(0.1, stop - time.time()))
                tally["cut off within 1 s" if time.time() - opened < 1 else "cut off later"] += 1
            except (TimeoutError, OSError):
                tally["held to the end"] += 1
            writer.close()

    await asyncio.gather(*(one() for _ in range(50)))


async def _replay_attack(base: str, address: str, stop: float, tally: Counter[str]) -> None:
    import httpx

    transport = httpx.AsyncHTTPTransport(local_address=address)
    steps = random.Random(address)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:

        async def one() -> None:
            while time.time() < stop:
                step = steps.randrange(10_000)
                answer = await http.get(f"/api/records/{REPLAYED}/replay?step={step}")
                tally[str(answer.status_code)] += 1

        await asyncio.gather(*(one() for _ in range(4)))


def _store_long_game(database: Path) -> int:
    """A finished game of four random bots, stored as the server stores one; its actions."""
    from phase10.bots import make_player, play_game
    from phase10.core import Game, GameRecord
    from phase10.core.records import dumps
    from phase10.server.db import RecordRow, Store

    game = Game(4, seed=3)
    play_game(game, [make_player("random", random.Random(seat)) for seat in range(4)])
    record = GameRecord.from_game(game)
    store = Store(f"sqlite:///{database}")
    with store.session() as session:
        session.add(
            RecordRow(
                table_id="replayed",
                game_no=1,
                finished=time.time(),
                players=json.dumps(list(record.players)),
                winners=json.dumps(list(game.winners)),
                record=dumps(record),
            )
        )
    store.close()
    return len(record.actions)


def _attacker(kind: str, base: str, table: str, number: int, stop: float) -> dict[str, int]:
    import uvloop

    address = f"127.0.0.{2 + number}"
    tally: Counter[str] = Counter()
    if kind in ("choices", "hints"):
        attack = _socket_attack(kind, base, address, stop, tally)
    elif kind == "tables":
        attack = _table_attack(base, address, stop, tally)
    elif kind == "bodies":
        attack = _body_attack(base, address, stop, tally)
    elif kind == "slowloris":
        attack = _slowloris_attack(base, address, stop, tally)
    elif kind == "replays":
        attack = _replay_attack(base, address, stop, tally)
    else:
        attack = _connection_attack(base, table, address, stop, tally)
    try:
        uvloop.run(asyncio.wait_for(attack, timeout=stop - time.time() + 10))
    except Exception as error:  # an attacker that failed says so in the report
        tally[f"failed: {type(error).__name__}"] += 1
    return dict(tally)


def _attack_process(
    base: str, table: str, start: float, stop: float, nice: int, attackers: dict[str, int]
) -> dict[str, Any]:
    """Every attacker, in one process with threads of event loops, at the lowest CPU
    priority: on a real server the attackers are other machines, and here their own
    work must not be what delays the server."""
    from concurrent.futures import ThreadPoolExecutor

    os.nice(nice)
    time.sleep(max(0.0, start - time.time()))
    jobs = [
        (kind, number)
        for number, kind in enumerate(
            kind for kind, count in attackers.items() for _ in range(count)
        )
    ]
    with ThreadPoolExecutor(len(jobs)) as threads:
        futures = {
            f"{kind}@127.0.0.{2 + number}": threads.submit(
                _attacker, kind, base, table, number, stop
            )
            for kind, number in jobs
        }
        results = {name: future.result() for name, future in futures.items()}
    by_kind: dict[str, Counter[str]] = {}
    for name, tally in results.items():
        by_kind.setdefault(name.split("@")[0], Counter()).update(tally)
    return {kind: dict(tally) for kind, tally in by_kind.items()}


# -- the run -----------------------------------------------------------------------------


def run(
    seconds: float = 20.0, nice: int = 19, attackers: dict[str, int] | None = None
) -> dict[str, Any]:
    attackers = ATTACKERS if attackers is None else attackers
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "attack.sqlite3"
        replayed_actions = _store_long_game(database)
        command = [sys.executable, "-m", "phase10.cli", "serve", "--port", str(port)]
        command += ["--database-url", f"sqlite:///{database}", "--bot-delay", "0"]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_up(base, server)
            now = time.time()
            marks = {"quiet": now + 3, "attack": now + 3 + seconds, "stop": now + 3 + 2 * seconds}
            context = multiprocessing.get_context("spawn")
            table, host, guest = _players_table(base)
            url = base.replace("http", "ws") + f"/ws/{table}"
            with ProcessPoolExecutor(2, mp_context=context) as pool:
                players = pool.submit(_players, url, host, guest, marks)
                time.sleep(max(0.0, marks["quiet"] - time.time()))
                cpu, memory = _cpu_s(server.pid), [_rss_mib(server.pid)]
                time.sleep(max(0.0, marks["attack"] - time.time()))
                quiet_cpu = _cpu_s(server.pid) - cpu
                attack = pool.submit(
                    _attack_process, base, table, marks["attack"], marks["stop"], nice, attackers
                )
                while (left := marks["stop"] - time.time()) > 0:
                    time.sleep(min(2.0, left))
                    memory.append(_rss_mib(server.pid))
                attack_cpu = _cpu_s(server.pid) - cpu - quiet_cpu
                played = players.result()
                attacked = attack.result()
            alive = server.poll() is None
        finally:
            server.terminate()
            server.wait(timeout=20)
    return {
        "seconds_per_phase": seconds,
        "attackers": attackers,
        "replayed_game_actions": replayed_actions,
        "attackers_nice": nice,
        "quiet": {
            "action_round_trip": _summary(played["action_quiet"]),
            "ping_round_trip": _summary(played["ping_quiet"]),
            "server_cpu_per_s": round(quiet_cpu / seconds, 2),
        },
        "under_attack": {
            "action_round_trip": _summary(played["action_attack"]),
            "ping_round_trip": _summary(played["ping_attack"]),
            "server_cpu_per_s": round(attack_cpu / seconds, 2),
        },
        "players_messages_refused": len(played["refused"]),
        "attack_answers": attacked,
        "server_rss_mib_max": round(max(memory), 1),
        "server_still_up": alive,
        "goal_p99_ms": 50,
        # a round trip is measured only while the two play (a run whose players stopped
        # measures nothing under attack)
        "goal_met": bool(played["action_attack"])
        and _summary(played["action_attack"])["p99_ms"] <= 50,
        "cores": os.cpu_count(),
    }


def main() -> dict[str, Any]:
    result = run(20.0)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "attack.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's length")
    parser.add_argument(
        "--nice", type=int, default=19, help="the attackers' CPU priority (0: as the server's)"
    )
    parser.add_argument(
        "--only",
        choices=sorted(ATTACKERS),
        action="append",
        help="run only these attackers (as many of each as usual); again for more kinds",
    )
    args = parser.parse_args()
    chosen = {kind: ATTACKERS[kind] for kind in args.only} if args.only else None
    outcome = run(args.seconds, args.nice, chosen)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"attack-{args.seconds:g}s-nice-{args.nice}.json").write_text(
        json.dumps(outcome, indent=2) + "\n"
    )
    print(json.dumps(outcome, indent=2))

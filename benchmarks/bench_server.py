"""Load on a real ``phase10 serve``: N concurrent two-player games of bot clients over
WebSockets on the loopback, each bot choosing from its own view. Reports actions a
second, the latency from sending an action to receiving its state (p50, p99), errors,
and the server's memory over the run. A finished game is followed by a rematch, so the
load stays constant.

The clients play at a set pace: each bot "thinks" for a random time (uniform, averaging
games / rate seconds) before it sends an action, so that the N games together offer
about ``--rate`` actions a second, like people (or bots on a slow link) who do not
answer within a millisecond. ``--rate 0`` removes the pause: every bot answers at once
and the run measures the most the server can take, where the latency is mostly the
queue of 2N waiting clients (Little's law: latency = in flight / throughput).

``python -m benchmarks server`` runs a short check (20 games, 15 s); the full runs are

    python -m benchmarks.bench_server --games 200 --seconds 60               # the goal
    python -m benchmarks.bench_server --games 200 --seconds 600              # the soak
    python -m benchmarks.bench_server --games 200 --seconds 60 --rate 0      # saturation
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
#: the per-address limits a load from one address needs (docs/security.md)
ONE_ADDRESS_LOAD = (
    "address_message_rate=100000",
    "address_message_burst=100000",
    "http_rate=100000",
    "http_burst=100000",
    "create_burst=100000",
    "join_burst=100000",
    "connect_burst=100000",
    "connections_per_address=100000",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _cpu_s(pid: int) -> float:
    """User and system CPU seconds a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.games = 0
        self.measuring = False


Seat = tuple[str, str, bool]


async def _seat(url: str, token: str, host: bool, think: float, stats: Stats) -> None:
    import orjson
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from phase10.bots import make_player
    from phase10.core import PlayerView

    rng = random.Random(token)
    bot = make_player("greedy", rng)
    sent_at: float | None = None
    waiting_for = -1
    async with connect(url, max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        if host:
            await ws.send(json.dumps({"type": "start"}))
        try:
            async for raw in ws:
                received = time.perf_counter()
                message = orjson.loads(raw)
                if message["type"] == "error":
                    stats.errors += 1
                    continue
                if message["type"] != "state" or message["view"] is None:
                    continue
                version, view = message["version"], message["view"]
                if sent_at is not None and version >= waiting_for:
                    if stats.measuring:
                        stats.latencies.append(received - sent_at)
                        stats.actions += 1
                    sent_at = None
                if view["stage"] == "game_over":
                    if host and message["table"]["status"] == "over":
                        stats.games += stats.measuring
                        await ws.send(json.dumps({"type": "rematch"}))
                    continue
                if view["current"] != message["you"] or sent_at is not None:
                    continue
                action = bot.choose(PlayerView.from_dict(view))
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                sent_at, waiting_for = time.perf_counter(), version + 1
                await ws.send(json.dumps({"type": "action", "action": str(action)}))
        except ConnectionClosed:
            pass


async def _play(seats: list[Seat], think: float, start_at: float, stop_at: float) -> Stats:
    """One client process: its seats play until ``stop_at``, measured from ``start_at``."""
    stats = Stats()
    tasks = [asyncio.create_task(_seat(*seat, think, stats)) for seat in seats]
    await asyncio.sleep(max(0.0, start_at - time.time()))
    stats.measuring = True
    await asyncio.sleep(max(0.0, stop_at - time.time()))
    stats.measuring = False
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.errors += sum(
        isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError)
        for result in results
    )
    return stats


def _client(seats: list[Seat], think: float, start_at: float, stop_at: float) -> dict[str, Any]:
    import uvloop  # comes with uvicorn[standard]; the clients need the CPU more than the server

    from phase10.cli.serve import quiet_garbage_collector

    quiet_garbage_collector()  # the clients' own pauses are not the server's latency
    before = _cpu_s(os.getpid())
    stats = uvloop.run(_play(seats, think, start_at, stop_at))
    return {
        "latencies": stats.latencies,
        "actions": stats.actions,
        "errors": stats.errors,
        "games": stats.games,
        "cpu_s": _cpu_s(os.getpid()) - before,
    }


def _tables(base: str, games: int) -> list[Seat]:
    """Create the tables, each with its host and a guest; returns every seat."""
    import httpx

    seats = []
    with httpx.Client(base_url=base) as http:
        for _ in range(games):
            body = {"name": "A", "seats": 2, "preset": "official"}
            host = http.post("/api/tables", json=body).json()
            guest = http.post(f"/api/tables/{host['table']}/join", json={"name": "B"}).json()
            url = base.replace("http", "ws") + f"/ws/{host['table']}"
            seats += [(url, guest["token"], False), (url, host["token"], True)]
    return seats


def _load(
    base: str, games: int, rate: float, clients: int, warmup: float, seconds: float, pid: int
) -> dict[str, Any]:
    seats = _tables(base, games)
    think = games / rate if rate else 0.0
    start_at = time.time() + warmup
    stop_at = start_at + seconds
    # a game's two seats stay in one process; the processes share the games
    parts = [
        [seat for game in range(k, games, clients) for seat in seats[2 * game : 2 * game + 2]]
        for k in range(clients)
    ]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(clients, mp_context=context) as pool:
        futures = [pool.submit(_client, part, think, start_at, stop_at) for part in parts]
        time.sleep(max(0.0, start_at - time.time()))
        memory, cpu = [_rss_mib(pid)], _cpu_s(pid)
        while (left := stop_at - time.time()) > 0:
            time.sleep(min(5.0, left))
            memory.append(_rss_mib(pid))
        server_cpu = _cpu_s(pid) - cpu
        outcomes = [future.result() for future in futures]
    latencies = sorted(value for outcome in outcomes for value in outcome["latencies"]) or [0.0]
    actions = sum(outcome["actions"] for outcome in outcomes)
    half = len(memory) // 2
    return {
        "games": games,
        "offered_rate": rate or "as fast as possible",
        "mean_think_ms": round(1000 * think, 1),
        "client_processes": clients,
        "seconds": round(seconds, 1),
        "actions": actions,
        "actions_per_s": round(actions / seconds),
        "games_finished": sum(outcome["games"] for outcome in outcomes),
        "p50_ms": round(1000 * statistics.median(latencies), 2),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2),
        "max_ms": round(1000 * latencies[-1], 2),
        "errors": sum(outcome["errors"] for outcome in outcomes),
        "server_cpu_per_s": round(server_cpu / seconds, 2),
        "client_cpu_per_s": round(sum(outcome["cpu_s"] for outcome in outcomes) / seconds, 2),
        "server_rss_mib_start": round(memory[0], 1),
        "server_rss_mib_end": round(memory[-1], 1),
        "server_rss_mib_max": round(max(memory), 1),
        # flat memory: the second half of the run should not grow beyond noise
        "server_rss_mib_second_half_growth": round(memory[-1] - memory[half], 1),
        "server_rss_mib_every_5s": [round(value, 1) for value in memory],
    }


def run(
    games: int, seconds: float, rate: float = 1120.0, clients: int = 2, warmup: float = 5.0
) -> dict[str, Any]:
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        command = [sys.executable, "-m", "phase10.cli", "serve", "--port", str(port)]
        command += ["--database-url", f"sqlite:///{database}", "--bot-delay", "0"]
        command += ["--rate-limit", "1000"]
        # every client is on this machine: one address, so its limits are raised to match
        for limit in ONE_ADDRESS_LOAD:
            command += ["--limit", limit]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_up(base, server)
            result = _load(base, games, rate, clients, warmup, seconds, server.pid)
        finally:
            server.terminate()
            server.wait(timeout=20)
    result["cores"] = os.cpu_count()
    return result


def _wait_up(base: str, server: subprocess.Popen[bytes]) -> None:
    import httpx

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server did not start")
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not answer in 30 s")


def _save(result: dict[str, Any], name: str) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")


def main() -> dict[str, Any]:
    """A short run for ``python -m benchmarks`` (see the module's doc for the full one)."""
    result = run(games=20, seconds=15, rate=125)
    _save(result, "server")
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--rate",
        type=float,
        default=1120,
        help="actions a second offered by all games (0: no pause)",
    )
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    args = parser.parse_args()
    outcome = run(args.games, args.seconds, args.rate, args.clients)
    suffix = f"-rate-{args.rate:g}" if args.rate else "-saturation"
    _save(outcome, f"server-{args.games}-games-{args.seconds:g}s{suffix}")
    for key, value in outcome.items():
        if key != "server_rss_mib_every_5s":
            print(f"{key}: {value}")

"""Load on a real ``phase10 serve``: N concurrent two-player games of bot clients over
WebSockets on the loopback, each bot choosing from its own view. Reports actions a
second, the latency from sending an action to receiving its state (p50, p99), errors,
and the server's memory over the run. A finished game is followed by a rematch, so the
load stays constant.

``python -m benchmarks server`` runs a short check (20 games, 15 s); the full run is

    python -m benchmarks.bench_server --games 200 --seconds 60
    python -m benchmarks.bench_server --games 200 --seconds 600   # the 10-minute soak
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


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


async def _seat(url: str, token: str, host: bool, stats: Stats, sockets: list[Any]) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from phase10.bots import make_player
    from phase10.core import PlayerView

    bot = make_player("greedy", random.Random(token))
    sent_at: float | None = None
    waiting_for = -1
    async with connect(url, max_size=2**22, compression=None) as ws:
        sockets.append(ws)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        if host:
            await ws.send(json.dumps({"type": "start"}))
        try:
            async for raw in ws:
                await asyncio.sleep(0)  # let the other games and the timer run
                message = json.loads(raw)
                if message["type"] == "error":
                    stats.errors += 1
                    continue
                if message["type"] != "state" or message["view"] is None:
                    continue
                version, view = message["version"], message["view"]
                if sent_at is not None and version >= waiting_for:
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - sent_at)
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
                sent_at, waiting_for = time.perf_counter(), version + 1
                await ws.send(json.dumps({"type": "action", "action": str(action)}))
        except ConnectionClosed:
            pass


async def _load(base: str, games: int, warmup: float, seconds: float, pid: int) -> dict[str, Any]:
    import httpx

    stats = Stats()
    sockets: list[Any] = []
    seats = []
    async with httpx.AsyncClient(base_url=base) as http:
        for number in range(games):
            body = {"name": "A", "seats": 2, "preset": "official", "seed": number}
            host = (await http.post("/api/tables", json=body)).json()
            guest = (
                await http.post(f"/api/tables/{host['table']}/join", json={"name": "B"})
            ).json()
            url = base.replace("http", "ws") + f"/ws/{host['table']}"
            seats += [(url, guest["token"], False), (url, host["token"], True)]
    tasks = [asyncio.create_task(_seat(*seat, stats, sockets)) for seat in seats]
    await asyncio.sleep(warmup)
    stats.measuring = True
    memory = [_rss_mib(pid)]
    cpu = (_cpu_s(pid), _cpu_s(os.getpid()))
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        await asyncio.sleep(min(5.0, seconds - elapsed))
        memory.append(_rss_mib(pid))
    stats.measuring = False
    elapsed = time.perf_counter() - start
    server_cpu, client_cpu = _cpu_s(pid) - cpu[0], _cpu_s(os.getpid()) - cpu[1]
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = sum(
        isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError)
        for result in results
    )
    latencies = sorted(stats.latencies) or [0.0]
    return {
        "games": games,
        "seconds": round(elapsed, 1),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed),
        "games_finished": stats.games,
        "p50_ms": round(1000 * statistics.median(latencies), 2),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2),
        "errors": stats.errors + failures,
        "server_cpu_per_s": round(server_cpu / elapsed, 2),
        "client_cpu_per_s": round(client_cpu / elapsed, 2),
        "server_rss_mib_start": round(memory[0], 1),
        "server_rss_mib_end": round(memory[-1], 1),
        "server_rss_mib_max": round(max(memory), 1),
    }


def run(games: int, seconds: float, warmup: float = 3.0) -> dict[str, Any]:
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite3"
        command = [sys.executable, "-m", "phase10.cli", "serve", "--port", str(port)]
        command += ["--database-url", f"sqlite:///{database}", "--bot-delay", "0"]
        command += ["--rate-limit", "1000"]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_up(base, server)
            result = asyncio.run(_load(base, games, warmup, seconds, server.pid))
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
    result = run(games=20, seconds=15)
    _save(result, "server")
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    outcome = run(args.games, args.seconds)
    _save(outcome, f"server-{args.games}-games")
    for key, value in outcome.items():
        print(f"{key}: {value}")

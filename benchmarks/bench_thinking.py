"""How long a quick bot decision waits for its turn while other addresses' bots think
slowly (phase10.server.thinking, as the server builds it: two threads, 0.3 s of thinking
a second per address, 10 s saved up at most).

K attacking addresses each keep ten tables' decisions of half a second of CPU queued (as
ten tables of bots under house phases of many tiny groups do); a victim address asks for a
decision of 2 ms every 0.6 s (a bot under the official phases). The wait is from asking to
starting.

    python -m benchmarks.bench_thinking [--seconds 15] [--attackers 1 2 4 8]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Sequence

from phase10.server.limits import Buckets, Limits
from phase10.server.thinking import FairThinking

#: the CPU seconds an attacker's decision takes, and a victim's
SLOW, QUICK = 0.5, 0.002


def _spin(seconds: float) -> int:
    """Hold the interpreter for ``seconds`` of this thread's CPU, as a bot thinking does."""
    end = time.thread_time() + seconds
    count = 0
    while time.thread_time() < end:
        count += 1
    return count


async def _measure(attackers: int, seconds: float) -> list[float]:
    limits = Limits()
    budget = Buckets(limits.bot_seconds_rate, limits.bot_seconds_burst, time.monotonic)
    turns = FairThinking(budget, threads=2)
    stop = time.monotonic() + seconds
    waits: list[float] = []

    async def table(owner: str) -> None:
        while time.monotonic() < stop:
            await turns.run(owner, lambda: _spin(SLOW))

    async def victim() -> None:
        while time.monotonic() < stop:
            await asyncio.sleep(0.6)
            asked = time.monotonic()
            await turns.run("victim", lambda asked=asked: waits.append(time.monotonic() - asked))

    tables = [table(f"attacker {a}") for a in range(attackers) for _ in range(10)]
    await asyncio.gather(*tables, victim())
    turns.close()
    return waits


def main(argv: Sequence[str] | None = None) -> dict[str, str]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--attackers", type=int, nargs="+", default=[1, 2, 4, 8])
    args = parser.parse_args([] if argv is None else argv)
    found: dict[str, str] = {}
    for attackers in args.attackers:
        waits = sorted(asyncio.run(_measure(attackers, args.seconds)))
        p50, worst = waits[len(waits) // 2], waits[-1]
        found[f"{attackers} attacking addresses"] = (
            f"the victim's decision waits p50 {p50:.2f} s, max {worst:.2f} s "
            f"({len(waits)} decisions in {args.seconds:.0f} s)"
        )
    return found


if __name__ == "__main__":
    import sys

    for key, value in main(sys.argv[1:]).items():
        print(f"{key}: {value}")

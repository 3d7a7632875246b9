"""The solver's worker pool (phase10.server.work): whoever asks for a job is charged the
time it ran in its worker, not the time it waited behind other visitors' jobs."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("pebble")

from phase10.server.work import SolverPool, SolverTooSlow


def test_a_job_is_charged_its_own_time_not_its_wait_behind_others() -> None:
    async def main() -> tuple[int, float, list[float]]:
        pool = SolverPool(workers=1, seconds=20.0)
        charged: list[float] = []
        try:
            await pool.start()
            # another visitor's job holds the only worker for a second
            blocker = asyncio.create_task(pool.run(time.sleep, 1.0))
            await asyncio.sleep(0)  # (scheduled first)
            asked = time.perf_counter()
            answer = await pool.run(len, "abc", ran=charged.append)
            waited = time.perf_counter() - asked
            await blocker
        finally:
            pool.close()
        return answer, waited, charged

    answer, waited, charged = asyncio.run(main())
    assert answer == 3 and len(charged) == 1
    # it waited about the second the other job took; it ran for microseconds
    assert charged[0] < waited / 4


def test_a_job_stopped_at_its_time_limit_is_charged_the_limit() -> None:
    async def main() -> list[float]:
        pool = SolverPool(workers=1, seconds=0.5)
        charged: list[float] = []
        try:
            with pytest.raises(SolverTooSlow):
                await pool.run(time.sleep, 30.0, ran=charged.append)
        finally:
            pool.close()
        return charged

    assert asyncio.run(main()) == [0.5]

"""Odds of fresh deals: a million deals of the ten standard phases with one and two
worker processes, and the raw rate of batch phase checks on random 11-card hands.

A "check" is one phase tested against one hand. The raw rate is measured in this
process with one BLAS thread (one core: what :func:`phase_odds` uses) and with
NumPy's default number of BLAS threads (one per core); the two are close on an
idle machine and far apart on a busy one.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np

from phase10.core import STANDARD_PHASES
from phase10.sim.odds import phase_odds, single_blas_thread
from phase10.solver import BatchChecker, deal_counts

RESULTS = Path(__file__).resolve().parent / "results"
DEALS = 1_000_000
RAW_HANDS = 200_000


def _odds_run(jobs: int, repeats: int = 2) -> dict[str, float]:
    """The best of ``repeats`` timings of a million deals of the standard phases."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        phase_odds(STANDARD_PHASES, deals=DEALS, seed=0, jobs=jobs)
        best = min(best, time.perf_counter() - start)
    return {
        "seconds": round(best, 2),
        "deals_per_s": round(DEALS / best),
        "checks_per_s": round(DEALS * len(STANDARD_PHASES) / best),
    }


def _raw_checks(counts: np.ndarray, checkers: list[BatchChecker]) -> dict[str, float]:
    per_phase: dict[str, float] = {}
    total = 0.0
    for checker in checkers:
        checker(counts[:1000])  # warm up
        start = time.perf_counter()
        checker(counts)
        elapsed = time.perf_counter() - start
        per_phase[str(checker.phase)] = round(len(counts) / elapsed)
        total += elapsed
    return {"checks_per_s": round(len(counts) * len(checkers) / total), **per_phase}


def _raw() -> tuple[dict[str, float], dict[str, float], float]:
    """Check rates with one BLAS thread and with the default, and the 11-card deal rate."""
    rng = np.random.default_rng(np.random.SeedSequence(0, spawn_key=(0,)))
    start = time.perf_counter()
    counts = deal_counts(rng, RAW_HANDS, 11)
    dealt = time.perf_counter() - start
    checkers = [BatchChecker(phase) for phase in STANDARD_PHASES]
    with single_blas_thread():
        one_thread = _raw_checks(counts, checkers)
    return one_thread, _raw_checks(counts, checkers), RAW_HANDS / dealt


def main() -> dict[str, object]:
    one_thread, default_threads, deal_rate = _raw()
    runs = {f"jobs_{jobs}": _odds_run(jobs) for jobs in (1, 2)}
    results: dict[str, object] = {
        "cpus": os.cpu_count(),
        "deals": DEALS,
        "phases": len(STANDARD_PHASES),
        **runs,
        "raw_11_card_checks": {
            "hands": RAW_HANDS,
            "deal_11_cards_per_s": round(deal_rate),
            "one_blas_thread": one_thread,
            "default_blas_threads": default_threads,
        },
    }
    print(f"  {'run':<36} {'seconds':>8} {'deals/s':>10} {'checks/s':>11}")
    for name, run in runs.items():
        label = f"{name}: 1M deals x 10 phases"
        print(
            f"  {label:<36} {run['seconds']:>8.2f} "
            f"{run['deals_per_s']:>10,.0f} {run['checks_per_s']:>11,.0f}"
        )
    for label, rates in (
        ("one BLAS thread", one_thread),
        ("default BLAS threads", default_threads),
    ):
        print(
            f"  {'raw 11-card checks, ' + label:<36} {'':>8} {'':>10} {rates['checks_per_s']:>11,.0f}"
        )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "odds.json").write_text(json.dumps(results, indent=2) + "\n")
    return {
        "1M deals, jobs 1": f"{runs['jobs_1']['seconds']} s",
        "1M deals, jobs 2": f"{runs['jobs_2']['seconds']} s",
        "raw checks/s, one core": one_thread["checks_per_s"],
    }

"""How often a fresh deal already holds a phase: Monte Carlo odds with confidence intervals.

Deals are drawn in fixed chunks of :data:`CHUNK` deals, chunk ``i`` from its own
generator ``default_rng(SeedSequence(seed, spawn_key=(i,)))`` (a negative seed ``s`` as
``SeedSequence([-s, 1], ...)``, as NumPy takes no negative entropy), so the answer
depends only on the seed, the number of deals, the cards per deal, the phases
and the natural-card rule: never on how many worker processes share the work.
The first ``N`` deals are the same whatever the total, so a longer run extends a
shorter one.

Worker processes (``jobs`` > 1) are started fresh ("spawn"), so a script that asks
for them must guard its entry point with ``if __name__ == "__main__":``. Each
process checks with one BLAS thread (see :func:`single_blas_thread`).

>>> from phase10.core import Phase
>>> result = phase_odds([Phase.parse("2 sets of 3"), Phase.parse("1 run of 9")], deals=2000, seed=7)
>>> [(entry.number, entry.hits) for entry in result.phases]
[(1, 381), (2, 33)]
>>> round(result.phases[0].probability, 4), [round(x, 4) for x in result.phases[0].ci95]
(0.1905, [0.1739, 0.2083])
>>> result.to_dict()["phases"][1]["text"]
'1 run of 9'
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from phase10.core import HAND_SIZE, Card, Deck, NaturalMin, Phase, deck_counts, natural_min_of
from phase10.solver import BatchChecker, deal_counts
from phase10.solver.batch import DECK_INDICES
from phase10.solver.blas import set_blas_threads, single_blas_thread

from .stats import wilson_interval
from .workers import as_finished

__all__ = [
    "CHUNK",
    "DECK_SIZE",
    "OddsResult",
    "PhaseOdds",
    "chunk_generator",
    "chunk_hits",
    "phase_odds",
    "single_blas_thread",
    "wilson_interval",
]

#: Deals per chunk: each chunk has its own generator, whoever deals it.
CHUNK = 50_000
#: the most deals one call makes (about five hours on two cores)
MAX_DEALS = 10**10
#: The most cards one deal can hold: the whole standard deck (another deck: its size).
DECK_SIZE = len(DECK_INDICES)


@dataclass(frozen=True, slots=True)
class PhaseOdds:
    """One phase's odds: how many of ``deals`` fresh deals held it."""

    number: int  #: the phase's number in its list (from 1)
    phase: Phase
    hits: int
    deals: int

    @property
    def probability(self) -> float:
        """The share of deals that held the phase."""
        return self.hits / self.deals

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson score interval of :attr:`probability`."""
        return wilson_interval(self.hits, self.deals)

    @property
    def one_in(self) -> float | None:
        """The phase comes about once in this many deals (None if no deal held it)."""
        return self.deals / self.hits if self.hits else None

    def to_dict(self) -> dict[str, Any]:
        low, high = self.ci95
        return {
            "phase": self.number,
            "text": str(self.phase),
            "probability": self.probability,
            "ci95": [low, high],
        }


@dataclass(frozen=True, slots=True)
class OddsResult:
    """The odds of every phase asked about, from the same deals."""

    phases: tuple[PhaseOdds, ...]
    deals: int
    cards: int
    seed: int
    natural_min: NaturalMin
    deck: Deck = Deck.STANDARD
    #: whether the deck held the Anti-phase card too (rules ``anti_phase``)
    anti_phase: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"phases": [...], "deals": N, "cards": ..., ...}``."""
        return {
            "phases": [entry.to_dict() for entry in self.phases],
            "deals": self.deals,
            "cards": self.cards,
            "seed": self.seed,
            "natural_min": self.natural_min.value,
            "deck": self.deck.value,
            "anti_phase": self.anti_phase,
        }


def _check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"from {low} to {high}"
        raise ValueError(f"{name} must be {span}, not {value}")
    return value


def phase_odds(
    phases: Sequence[Phase],
    *,
    deals: int,
    cards: int = HAND_SIZE,
    seed: int = 0,
    jobs: int = 1,
    natural_min: NaturalMin | str = NaturalMin.GROUP,
    deck: Deck | str = Deck.STANDARD,
    anti_phase: bool = False,
    numbers: Sequence[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> OddsResult:
    """The share of ``deals`` fresh deals of ``cards`` cards that already hold each phase.

    Every phase is checked against the same deals. ``jobs`` worker processes share
    the chunks (0: one per CPU; 1: this process only); the result is the same for
    any ``jobs``. ``numbers`` gives the phases' numbers in their list (default 1, 2,
    ...). ``deck`` is the deck dealt from (rules §1), with the Anti-phase card shuffled in
    when ``anti_phase`` (it never helps a phase, but takes a place in the deal).
    ``progress`` is called with the number of deals each finished chunk held, so its
    calls add up to ``deals``.
    """
    phases = tuple(phases)
    if not phases:
        raise ValueError("odds need at least one phase")
    for phase in phases:
        if not isinstance(phase, Phase):
            raise ValueError(f"expected phases, not {phase!r}")
    _check_int("deals", deals, 1, MAX_DEALS)
    try:
        chosen = Deck(deck)
    except ValueError:
        choices = ", ".join(repr(member.value) for member in Deck)
        raise ValueError(f"deck must be one of {choices}, not {deck!r}") from None
    if not isinstance(anti_phase, bool):
        raise ValueError(f"anti_phase is True or False, not {anti_phase!r}")
    _check_int("cards", cards, 1, sum(_copies(chosen, anti_phase).values()))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be a whole number, not {seed!r}")
    _check_int("jobs", jobs, 0)
    rule = natural_min_of(natural_min)
    if numbers is None:
        numbers = range(1, len(phases) + 1)
    numbers = tuple(numbers)
    if len(numbers) != len(phases):
        raise ValueError(
            f"{len(numbers)} phase numbers given for {len(phases)} "
            f"phase{'' if len(phases) == 1 else 's'}"
        )
    chunks = [
        (index, min(CHUNK, deals - start)) for index, start in enumerate(range(0, deals, CHUNK))
    ]
    workers = min(jobs or os.cpu_count() or 1, len(chunks))
    totals = np.zeros(len(phases), dtype=np.int64)
    if workers == 1:
        with single_blas_thread():
            checkers = _checkers(phases, rule)
            for index, size in chunks:
                totals += _hits(checkers, seed, index, size, cards, chosen, anti_phase)
                if progress is not None:
                    progress(size)
    else:
        work = _in_processes(chunks, workers, phases, rule, seed, cards, chosen, anti_phase)
        for hits, size in work:
            totals += hits
            if progress is not None:
                progress(size)
    entries = tuple(
        PhaseOdds(number=number, phase=phase, hits=int(hits), deals=deals)
        for number, phase, hits in zip(numbers, phases, totals, strict=True)
    )
    return OddsResult(
        phases=entries,
        deals=deals,
        cards=cards,
        seed=seed,
        natural_min=rule,
        deck=chosen,
        anti_phase=anti_phase,
    )


def chunk_hits(
    phases: Sequence[Phase],
    *,
    seed: int,
    chunk: int,
    size: int = CHUNK,
    cards: int = HAND_SIZE,
    natural_min: NaturalMin = NaturalMin.GROUP,
    deck: Deck = Deck.STANDARD,
    anti_phase: bool = False,
) -> list[int]:
    """How many deals of chunk number ``chunk`` hold each phase (what one worker computes)."""
    checkers = _checkers(tuple(phases), natural_min)
    hits = _hits(checkers, seed, chunk, size, cards, deck, anti_phase)
    return [int(count) for count in hits]


def chunk_generator(seed: int, chunk: int) -> np.random.Generator:
    """The generator that deals chunk number ``chunk`` (any whole ``seed``: a negative one
    deals apart from every other seed, as the tournaments' negative seeds do).

    >>> first = int(chunk_generator(-7, 0).integers(1 << 30))
    >>> first == int(chunk_generator(-7, 0).integers(1 << 30))
    True
    >>> first != int(chunk_generator(7, 0).integers(1 << 30))
    True
    """
    entropy = seed if seed >= 0 else [-seed, 1]
    return np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(chunk,)))


def _checkers(phases: tuple[Phase, ...], rule: NaturalMin) -> list[BatchChecker]:
    return [BatchChecker(phase, rule) for phase in phases]


def _copies(deck: Deck, anti_phase: bool) -> dict[Card, int]:
    """The copies of each card dealt from: ``deck``, and the Anti-phase card if asked."""
    return deck_counts(deck.wilds, deck.skips, 1 if anti_phase else 0)


def _hits(
    checkers: Sequence[BatchChecker],
    seed: int,
    chunk: int,
    size: int,
    cards: int,
    deck: Deck,
    anti_phase: bool,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    counts = deal_counts(chunk_generator(seed, chunk), size, cards, _copies(deck, anti_phase))
    return np.array([np.count_nonzero(checker(counts)) for checker in checkers], dtype=np.int64)


# -- worker processes ---------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _start_worker(
    phases: tuple[Phase, ...],
    rule: NaturalMin,
    seed: int,
    cards: int,
    deck: Deck,
    anti_phase: bool,
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    set_blas_threads(1)
    _WORKER.update(
        checkers=_checkers(phases, rule), seed=seed, cards=cards, deck=deck, anti=anti_phase
    )


def _work(chunk: int, size: int) -> tuple[list[int], int]:
    worker = _WORKER
    hits = _hits(
        worker["checkers"],
        worker["seed"],
        chunk,
        size,
        worker["cards"],
        worker["deck"],
        worker["anti"],
    )
    return hits.tolist(), size


def _in_processes(
    chunks: Sequence[tuple[int, int]],
    workers: int,
    phases: tuple[Phase, ...],
    rule: NaturalMin,
    seed: int,
    cards: int,
    deck: Deck,
    anti_phase: bool,
) -> Iterator[tuple[np.ndarray[Any, np.dtype[np.int64]], int]]:
    """Each chunk's hits as the workers finish them (in any order)."""
    # "spawn": fresh workers, whatever threads this process runs (a progress bar's).
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(phases, rule, seed, cards, deck, anti_phase),
    )
    try:
        for hits, size in as_finished(pool, _work, chunks, workers=workers):
            yield np.array(hits, dtype=np.int64), size
    finally:
        pool.shutdown(wait=True, cancel_futures=True)

"""Phase checks for many hands at once, with NumPy: what odds and benchmarks use.

Hands are rows of a ``(B, 51)`` count matrix (columns are :attr:`Card.index`; a Skip's
and the Anti-phase card's columns count toward no phase).
Phases of sets and runs are checked for every choice of anchors at once: the
Wilds a choice needs, summed over numbers as ``max(0, asked - held)``, is a sum
of indicator products and so one matrix product; the natural-card rule is
Hall's condition on the same indicators. Phases of one group of any kind take
the best anchor directly. Anything else (mixed colour-and-number phases of the
edition lists) falls back to the exact scalar check row by row, so every phase
is answered exactly.

>>> import numpy as np
>>> from phase10.core import Phase, parse_cards
>>> checker = BatchChecker(Phase.parse("2 sets of 3"))
>>> hands = counts_matrix([parse_cards("R7 B7 G7 R3 B3 W"), parse_cards("R1 R2 R3 R4 R5 R6")])
>>> checker(hands).tolist()
[True, False]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

import numpy as np
import numpy.typing as npt

from phase10.core import (
    DECK_COUNTS,
    DISTINCT_CARDS,
    NUMBERED_CARDS,
    WILD_INDEX,
    Card,
    GroupKind,
    GroupSpec,
    NaturalMin,
    Phase,
    full_deck,
)
from phase10.core.feasibility import Anchor, can_lay, compile_phase

__all__ = [
    "DECK_INDICES",
    "BatchChecker",
    "counts_matrix",
    "deal_counts",
    "deck_indices",
    "shared_checker",
]

Counts = npt.NDArray[np.int16]
Mask = npt.NDArray[np.bool_]

#: the standard deck's 108 cards as card indices
DECK_INDICES = np.array([card.index for card in full_deck()], dtype=np.int64)


def deck_indices(counts: Mapping[Card, int] = DECK_COUNTS) -> npt.NDArray[np.int64]:
    """A deck's cards as card indices (``counts``: ``Rules.deck_counts``; default the standard)."""
    if counts is DECK_COUNTS:
        return DECK_INDICES
    return np.array([card.index for card in full_deck(counts)], dtype=np.int64)


# Above this many (anchor choice, group subset) columns a phase is checked row by row.
_MAX_COLUMNS = 40_000
#: the most choices of one anchor per group checked as one matrix (else row by row)
_MAX_CHOICES = 5_000
_CHUNK = 8192
# Added to a choice's need when one of its groups has no numbered card to hold.
_PENALTY = 1_000.0


def counts_matrix(hands: Iterable[Iterable[Card]]) -> Counts:
    """A ``(B, 51)`` count matrix (one column per card index) from hands of cards."""
    rows = [[0] * DISTINCT_CARDS for _ in range(0)]
    for hand in hands:
        row = [0] * DISTINCT_CARDS
        for card in hand:
            row[card.index] += 1
        rows.append(row)
    return np.array(rows, dtype=np.int16).reshape(len(rows), DISTINCT_CARDS)


def deal_counts(
    rng: np.random.Generator, deals: int, cards: int, deck: Mapping[Card, int] = DECK_COUNTS
) -> Counts:
    """``deals`` fresh deals of ``cards`` cards each from the full deck (``deck``: the copies
    of each card, ``Rules.deck_counts``; default the standard 108), as a count matrix.

    Each row is a partial Fisher-Yates shuffle of the deck's cards, done for all rows at once.
    """
    indices = deck_indices(deck)
    size = len(indices)
    if not 1 <= cards <= size:
        raise ValueError(f"a deal holds 1 to {size} cards, not {cards}")
    decks = np.broadcast_to(np.arange(size, dtype=np.int8), (deals, size)).copy()
    rows = np.arange(deals)
    for position in range(cards):
        swap = position + rng.integers(0, size - position, size=deals)
        chosen = decks[rows, swap]
        decks[rows, swap] = decks[:, position]
        decks[:, position] = chosen
    picked = indices[decks[:, :cards]]
    flat = (rows[:, None] * DISTINCT_CARDS + picked).ravel()
    counts = np.bincount(flat, minlength=deals * DISTINCT_CARDS)
    return counts.reshape(deals, DISTINCT_CARDS).astype(np.int16)


class BatchChecker:
    """Checks one phase against many hands: ``checker(counts) -> bool array``."""

    def __init__(self, phase: Phase, natural_min: NaturalMin = NaturalMin.GROUP) -> None:
        self.compiled = compile_phase(phase, natural_min)
        self.phase = phase
        self.natural_min = self.compiled.natural_min
        self.mode = "rows"
        if self.compiled.by_number:
            self._prepare_numbers()
        elif len(self.compiled.specs) == 1:
            self._prepare_single()

    def __call__(self, counts: Counts) -> Mask:
        counts = _count_matrix(counts)
        out = np.empty(len(counts), dtype=bool)
        for start in range(0, len(counts), _CHUNK):
            part = counts[start : start + _CHUNK]
            if self.mode == "numbers":
                out[start : start + len(part)] = self._check_numbers(part)
            elif self.mode == "single":
                out[start : start + len(part)] = self._check_single(part)
            else:
                out[start : start + len(part)] = self._check_rows(part)
        return out

    # -- sets and runs -------------------------------------------------------------

    def _prepare_numbers(self) -> None:
        compiled = self.compiled
        groups = len(compiled.specs)
        group_rule = self.natural_min is NaturalMin.GROUP
        # Sets alone only ever need the numbers held most often: with k sets, the k
        # largest counts (a set moved to a more-held unused number never needs more).
        self._ranks = groups if all(spec.kind is GroupKind.SET for spec in compiled.specs) else 0
        cells = self._ranks or 12
        anchors = compiled.anchors
        if self._ranks:
            anchors = tuple(
                tuple(Anchor((rank,), (((rank,), spec.size),), (rank,)) for rank in range(cells))
                for spec in compiled.specs
            )
        if _choice_count(compiled.specs, anchors) > _MAX_CHOICES:
            return  # too many ways to pin the groups down for one matrix: check row by row
        windows: dict[tuple[int, int], int] = {}  # (low, length) of a run -> feature column
        demands: list[list[int]] = []
        empties: list[list[int]] = []  # per choice: the window features that must be 0
        covers: list[list[list[int]]] = []  # per choice, per group: 0/1 per cell
        for combo in _anchor_choices(compiled.specs, anchors):
            demand = [0] * cells
            empty: list[int] = []
            cover: list[list[int]] = []
            for anchor in combo:
                row = [0] * cells
                for (cell, *_), cap in anchor.slots:
                    demand[cell] += cap
                    row[cell] = 1
                cover.append(row)
                used = [cell for cell in range(cells) if row[cell]]
                key = (used[0], len(used))
                empty.append(windows.setdefault(key, len(windows)))
            demands.append(demand)
            empties.append(empty)
            covers.append(cover)
        subsets = [
            subset for size in range(2, groups + 1) for subset in combinations(range(groups), size)
        ]
        self._hall = group_rule and groups > 2
        if self._hall and len(demands) * len(subsets) > _MAX_COLUMNS:
            return
        demand_array = np.array(demands, dtype=np.int16)  # (A, cells)
        self._levels = np.arange(1, int(demand_array.max()) + 1)
        # need[b, a] = sum over cells n and levels t of [asked >= t] * [held < t], plus a
        # large penalty when a group of the choice has no numbered card (rule "group").
        need_rows = (demand_array[:, :, None] >= self._levels).reshape(len(demands), -1)
        penalty = np.zeros((len(demands), len(windows)), dtype=np.float32)
        if group_rule:
            for choice, empty in enumerate(empties):
                for column in empty:
                    penalty[choice, column] += _PENALTY
        self._windows = sorted(windows, key=windows.__getitem__)
        self._columns = np.concatenate([need_rows.astype(np.float32), penalty], axis=1).T.copy()
        # With one or two groups Hall's condition reduces to "each group has a numbered
        # card" plus, for two, "at least two numbered cards placed" (need <= total - 2).
        self._slack = self.compiled.total - (min(groups, 2) if group_rule else 1)
        if self._hall:
            cover_array = np.array(covers, dtype=np.int16)  # (A, G, cells)
            subset_counts = np.stack(
                [cover_array[:, list(subset), :].sum(axis=1) for subset in subsets], axis=1
            )
            hall_levels = np.arange(1, groups + 1)
            self._hall_levels = hall_levels
            self._hall_columns = (
                (subset_counts[:, :, :, None] >= hall_levels)
                .reshape(len(demands) * len(subsets), -1)
                .T.astype(np.float32)
            )
            self._hall_needed = np.tile(
                np.array([len(subset) for subset in subsets], dtype=np.float32), len(demands)
            )
            self._subsets = len(subsets)
        self._choices = len(demands)
        self.mode = "numbers"

    def _numbers_need(
        self, counts: Counts
    ) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.float32]]:
        """Each hand's counts by number and the Wilds each choice of anchors needs (B, A)."""
        numbers = (
            counts[:, 0:12] + counts[:, 12:24] + counts[:, 24:36] + counts[:, 36:NUMBERED_CARDS]
        )
        if self._ranks:
            numbers = -np.sort(-numbers, axis=1)[:, : self._ranks]
        rows = len(counts)
        short = (numbers[:, :, None] < self._levels).reshape(rows, -1)
        present = np.concatenate(
            [np.zeros((rows, 1), dtype=np.int16), np.cumsum(numbers > 0, axis=1, dtype=np.int16)],
            axis=1,
        )
        empty = np.stack(
            [present[:, low + length] == present[:, low] for low, length in self._windows], axis=1
        )
        features = np.concatenate([short, empty], axis=1).astype(np.float32)
        return numbers, features @ self._columns  # (B, A)

    def _check_numbers(self, counts: Counts) -> Mask:
        numbers, need = self._numbers_need(counts)
        rows = len(counts)
        wilds = counts[:, WILD_INDEX].astype(np.float32)
        if not self._hall:
            limit = np.minimum(wilds, self._slack)
            return np.asarray(need.min(axis=1) <= limit)
        fits = need <= wilds[:, None]
        # Hall's condition only for the hands some choice fits (most hands far from the
        # phase have none)
        out = np.zeros(rows, dtype=bool)
        some = np.flatnonzero(fits.any(axis=1))
        if not len(some):
            return out
        numbers, fits = numbers[some], fits[some]
        held = (numbers[:, :, None] >= self._hall_levels).reshape(len(some), -1)
        supply = held.astype(np.float32) @ self._hall_columns  # (B, A*S)
        hall = (supply >= self._hall_needed).reshape(len(some), self._choices, self._subsets)
        out[some] = (fits & hall.all(axis=2)).any(axis=1)
        return out

    # -- one group of any kind -----------------------------------------------------

    def _prepare_single(self) -> None:
        (spec,) = self.compiled.specs
        (anchors,) = self.compiled.anchors
        members = np.zeros((NUMBERED_CARDS, len(anchors)), dtype=np.float32)
        for column, anchor in enumerate(anchors):
            members[list(anchor.cells), column] = 1
        self._members = members
        self._size = spec.size
        self._is_run = spec.kind.is_run  # slots of one card each: count distinct cards
        self.mode = "single"

    def _single_placed(self, counts: Counts) -> npt.NDArray[np.float32]:
        cells = counts[:, :NUMBERED_CARDS]
        source = (cells > 0) if self._is_run else cells
        placed: npt.NDArray[np.float32] = np.minimum(
            source.astype(np.float32) @ self._members, self._size
        )
        return placed

    def _check_single(self, counts: Counts) -> Mask:
        placed = self._single_placed(counts)
        wilds = counts[:, WILD_INDEX].astype(np.float32)
        fits = (placed >= 1) & (placed + wilds[:, None] >= self._size)
        return np.asarray(fits.any(axis=1))

    # -- how far ---------------------------------------------------------------------

    def shortfall(self, counts: Counts) -> npt.NDArray[np.int16]:
        """For each hand, about how many more cards it needs to hold the phase: 0 exactly
        where the check says it holds it, at least 1 elsewhere. The Wilds short of the
        cheapest choice of anchors for sets and runs and for one group; 1 for any hand
        that falls short in the other phases, which are checked row by row.

        >>> from phase10.core import parse_cards
        >>> checker = BatchChecker(Phase.parse("2 sets of 3"))
        >>> hands = [parse_cards("R7 B7 G7 R3 B3 W"), parse_cards("R7 B7 R3 Y9 G12 B1")]
        >>> checker.shortfall(counts_matrix(hands)).tolist()
        [0, 3]
        """
        counts = _count_matrix(counts)
        if not len(counts):
            return np.zeros(0, dtype=np.int16)
        if len(counts) > _CHUNK:
            return np.concatenate(
                [self.shortfall(counts[i : i + _CHUNK]) for i in range(0, len(counts), _CHUNK)]
            )
        made = self(counts)
        wilds = counts[:, WILD_INDEX].astype(np.float32)
        total = float(self.compiled.total)
        if self.mode == "numbers":
            _, need = self._numbers_need(counts)
            short = np.minimum(need.min(axis=1), total) - wilds
        elif self.mode == "single":
            placed = self._single_placed(counts)
            best = np.where(placed >= 1, placed, 0.0).max(axis=1)
            short = self._size - best - wilds
        else:
            short = np.zeros(len(counts), dtype=np.float32)
        short = np.maximum(np.clip(short, 0.0, total), 1.0)
        return np.where(made, 0, short).astype(np.int16)

    # -- anything else -------------------------------------------------------------

    def _check_rows(self, counts: Counts) -> Mask:
        compiled = self.compiled
        return np.fromiter(
            (can_lay(compiled, row) for row in counts.tolist()), dtype=bool, count=len(counts)
        )


def _choice_count(specs: Sequence[GroupSpec], anchors: Sequence[Sequence[Anchor]]) -> int:
    """How many choices :func:`_anchor_choices` gives, without listing them."""
    count = 1
    index = 0
    while index < len(specs):
        same = 1
        while index + same < len(specs) and specs[index + same] == specs[index]:
            same += 1
        count *= math.comb(len(anchors[index]) + same - 1, same)
        index += same
    return count


def _anchor_choices(
    specs: Sequence[GroupSpec], anchors: Sequence[Sequence[Anchor]]
) -> Iterable[tuple[Anchor, ...]]:
    """Every choice of one anchor per group, identical groups in one order only."""
    runs: list[tuple[int, int]] = []  # (first group, how many identical) in order
    index = 0
    while index < len(specs):
        count = 1
        while index + count < len(specs) and specs[index + count] == specs[index]:
            count += 1
        runs.append((index, count))
        index += count
    parts: list[Sequence[tuple[Anchor, ...]]] = [
        list(combinations_with_replacement(anchors[first], count)) for first, count in runs
    ]
    for pieces in product(*parts):
        yield tuple(anchor for piece in pieces for anchor in piece)


def _count_matrix(counts: Counts) -> Counts:
    """``counts`` as a NumPy matrix of one row of card counts (one per card index) per
    hand, or a ValueError."""
    matrix = np.asarray(counts)
    if matrix.ndim != 2 or matrix.shape[1] != DISTINCT_CARDS:
        raise ValueError(f"expected a (B, {DISTINCT_CARDS}) count matrix, not shape {matrix.shape}")
    return matrix


@lru_cache(maxsize=64)
def shared_checker(phase: Phase, natural_min: NaturalMin = NaturalMin.GROUP) -> BatchChecker:
    """The one :class:`BatchChecker` of ``phase`` for the whole process. A checker is only
    read once built, so every bot and thread can share it: a server's tables then hold
    none of their own (each was some 40 KiB a phase, for every strong bot at every table).

    >>> shared_checker(Phase.parse("2 sets of 3")) is shared_checker(Phase.parse("2 sets of 3"))
    True
    """
    return BatchChecker(phase, natural_min)

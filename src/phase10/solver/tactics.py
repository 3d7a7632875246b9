"""What a player can do with a hand: the best lay-down, the most hits, outs and odds.

Everything here works from what one player may see: their hand, the groups on
the table and the discard pile. Cards nobody can see (other hands and the draw
pile) are "unseen"; draws are modelled as coming uniformly from them.

>>> from phase10.core import NaturalMin, Phase, parse_cards, parse_group, GroupKind
>>> phase = Phase.parse("2 sets of 3")
>>> hand = parse_cards("R7 B7 G7 R3 B3 W Y9 G12")
>>> lay = best_lay_down(phase, hand)
>>> " + ".join(map(str, lay))
'R3 B3 W + R7 B7 G7'
>>> table = [parse_group(GroupKind.RUN, "R4 R5 R6")]
>>> [str(hit) for hit in best_hits(table, parse_cards("Y7 W B9 R1"))]
['hit Y7 g0', 'hit W=8 g0', 'hit B9 g0']
>>> hand = parse_cards("R7 B7 G7 R3 B3 Y9 G12 R1 G5 B6")
>>> unseen = unseen_counts(hand)
>>> [(str(card), copies) for card, copies in outs(phase, hand, unseen)]
[('R3', 1), ('B3', 1), ('G3', 2), ('Y3', 2), ('W', 8)]
>>> round(completion_probability(phase, hand, unseen, draws=2), 4)
0.2887
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations_with_replacement

import numpy as np

from phase10.core import (
    DECK_COUNTS,
    DISTINCT_CARDS,
    MAX_HAND,
    NUMBERED_CARDS,
    WILD_INDEX,
    Card,
    Color,
    Group,
    Hit,
    NaturalMin,
    Phase,
    PlayerView,
    SearchLimitError,
)
from phase10.core.cards import card_list
from phase10.core.feasibility import can_lay, compile_phase, hand_counts
from phase10.core.laydowns import best_lay_down as core_best_lay_down

from .batch import shared_checker

__all__ = [
    "ODDS_CHECKS",
    "best_hits",
    "best_lay_down",
    "check_groups",
    "check_hand_size",
    "completion_odds",
    "completion_probability",
    "outs",
    "unseen_counts",
    "view_unseen_counts",
]

_DECK = [DECK_COUNTS.get(Card.from_index(index), 0) for index in range(DISTINCT_CARDS)]
#: exact enumeration of future draws up to this many; sampling beyond
EXACT_DRAWS = 3
#: the most hands :func:`completion_odds` checks one at a time for an exact answer (phases
#: of colours with other groups have no vectorised check: about 0.1-0.6 ms a hand)
ODDS_CHECKS = 2_000


def check_hand_size(hand: Sequence[Card]) -> None:
    """Refuse more cards than any hand can hold: every search here grows with the hand."""
    if len(hand) > MAX_HAND:
        raise SearchLimitError(f"a hand holds at most {MAX_HAND} cards, not {len(hand)}")


def unseen_counts(*seen: Iterable[Card], deck: Mapping[Card, int] = DECK_COUNTS) -> list[int]:
    """The full deck's counts (by card index) less every card in ``seen``; ``deck`` is the
    copies of each card the deck holds (``Rules.deck_counts``; default the standard deck)."""
    if deck is DECK_COUNTS:
        counts = list(_DECK)
    else:
        counts = [deck.get(Card.from_index(index), 0) for index in range(DISTINCT_CARDS)]
    for cards in seen:
        for card in card_list(cards, "each group of cards seen"):
            counts[card.index] -= 1
            if counts[card.index] < 0:
                raise ValueError(f"more copies of {card} seen than the deck holds")
    return counts


def view_unseen_counts(view: PlayerView) -> list[int]:
    """The cards ``view``'s player cannot see: other hands, the draw pile and the save
    piles kept hidden (their own save pile and public ones are in sight).
    """
    return unseen_counts(
        view.hand,
        (card for meld in view.melds for card in meld.group.cards),
        view.discard_pile,
        view.saved,
        (
            card
            for at, seat in enumerate(view.seats)
            if seat.saved is not None and at != view.viewer
            for card in seat.saved
        ),
        deck=view.rules.deck_counts,
    )


def best_lay_down(
    phase: Phase,
    hand: Iterable[Card],
    natural_min: NaturalMin = NaturalMin.GROUP,
    *,
    max_cards: int | None = MAX_HAND,
) -> tuple[Group, ...] | None:
    """The lay-down that lays the most cards (extras included), then leaves the fewest
    points in hand (ties: the first in text order); None when the hand cannot make it.
    More than ``max_cards`` cards raise :class:`~phase10.core.SearchLimitError`.
    """
    if isinstance(hand, str):  # (listed, it would read as its letters)
        raise TypeError(f"a hand is a list of Cards, such as parse_cards({hand!r}), not a string")
    cards = list(hand)
    if max_cards is not None and len(cards) > max_cards:
        check_hand_size(cards)
    if not can_lay(phase, cards, natural_min):
        return None
    return core_best_lay_down(phase, cards, natural_min, max_cards=max_cards)


def best_hits(groups: Sequence[Group], hand: Iterable[Card]) -> list[Hit]:
    """The most cards (then the most points) the hand can shed onto ``groups``, as hits in
    an order that works (runs grow one end at a time, so order matters there).

    Group numbers in the hits are positions in ``groups`` (the table's meld ids when
    ``groups`` is the whole table).
    """
    cards = card_list(hand)
    check_hand_size(cards)
    return _HitSearch(check_groups(groups)).search(0, Counter(cards), None)[1]


def check_groups(groups: Sequence[Group]) -> Sequence[Group]:
    """``groups`` if each is a :class:`Group` (a group on the table), else a TypeError."""
    if isinstance(groups, str):
        raise TypeError("the table is a list of Groups, not a string")
    for group in groups:
        if not isinstance(group, Group):
            raise TypeError(
                f"the table is a list of Groups (such as a game view's melds' groups), "
                f"not of {type(group).__name__} ({group!r:.40})"
            )
    return groups


class _HitSearch:
    """:func:`best_hits`' memoised search (a class: nothing holds itself once it is done).

    Hits on different runs do not depend on each other, so every order of hits can be
    put in run order: the search grows the first run as it will, then the second, and
    so on, and sheds what is left onto the other groups. Its states are one run's ends
    with the cards left, never every run's ends at once (which grows exponentially).
    """

    def __init__(self, groups: Sequence[Group]) -> None:
        self.groups = groups
        self.runs = [index for index, group in enumerate(groups) if group.low is not None]
        self.others = [index for index, group in enumerate(groups) if group.low is None]
        self.memo: dict[tuple[object, ...], tuple[tuple[int, int], list[Hit]]] = {}
        # From each run on, the colours that still matter to a group left: a number's
        # other colours are tried as one card.
        colors = {groups[index].color for index in self.others if groups[index].kind.needs_color}
        self.colors: list[frozenset[Color | None]] = [frozenset()] * len(self.runs)
        for slot in reversed(range(len(self.runs))):
            colors.add(groups[self.runs[slot]].color)
            self.colors[slot] = frozenset(colors)

    def finish(self, left: Counter[Card]) -> tuple[tuple[int, int], list[Hit]]:
        hits: list[Hit] = []
        for card, copies in sorted(left.items(), key=lambda item: item[0].index):
            for index in self.others:
                if self.groups[index].placements(card):
                    hits.extend(Hit(card, index) for _ in range(copies))
                    break
        return (len(hits), sum(hit.card.points for hit in hits)), hits

    def search(
        self, slot: int, left: Counter[Card], ends: tuple[int, int] | None
    ) -> tuple[tuple[int, int], list[Hit]]:
        """The best hits from run ``slot`` on, that run's ends being ``ends`` (``None``:
        as it lies on the table)."""
        if slot == len(self.runs):
            return self.finish(left)
        index = self.runs[slot]
        group = self.groups[index]
        if ends is None:
            ends = (group.low or 0, group.high or 0)
        key = (slot, tuple(sorted((card.index, n) for card, n in left.items() if n)), ends)
        memo = self.memo
        if key in memo:
            return memo[key]
        best = self.search(slot + 1, left, None)  # this run grows no further
        low, high = ends
        colors = self.colors[slot]
        cards = list({_kind_of(card, colors): card for card, n in left.items() if n}.values())
        for card in cards:
            if not (card.is_natural or card.is_wild) or (
                card.is_natural and group.color is not None and card.color is not group.color
            ):
                continue  # a Skip or the Anti-phase card never hits
            spots = [n for n in (low - 1, high + 1) if 1 <= n <= 12]
            if card.is_natural:
                spots = [n for n in spots if n == card.number]
            for number in spots:
                left[card] -= 1
                grown = (min(low, number), max(high, number))
                (count, points), hits = self.search(slot, left, grown)
                left[card] += 1
                candidate = (count + 1, points + card.points)
                if candidate > best[0]:
                    hit = Hit(card, index, number if card.is_wild else None)
                    best = (candidate, [hit, *hits])
        memo[key] = best
        return best


def outs(
    phase: Phase,
    hand: Iterable[Card],
    unseen: Sequence[int],
    natural_min: NaturalMin = NaturalMin.GROUP,
) -> list[tuple[Card, int]]:
    """The cards that would complete the phase if added to the hand, with how many copies
    of each are unseen (an empty list when the hand already holds it, or nothing single does).
    """
    counts = hand_counts(hand)
    compiled = compile_phase(phase, natural_min)
    _check_unseen(unseen)
    if can_lay(compiled, counts):
        return []
    found: list[tuple[Card, int]] = []
    for index in (*range(NUMBERED_CARDS), WILD_INDEX):  # a Skip or an Anti-phase card never helps
        if unseen[index] <= 0:
            continue
        counts[index] += 1
        if can_lay(compiled, counts):
            found.append((Card.from_index(index), unseen[index]))
        counts[index] -= 1
    return found


def completion_probability(
    phase: Phase,
    hand: Iterable[Card],
    unseen: Sequence[int],
    draws: int = 1,
    natural_min: NaturalMin = NaturalMin.GROUP,
    *,
    samples: int = 20_000,
    rng: random.Random | None = None,
) -> float:
    """The chance that the hand plus ``draws`` cards drawn from the unseen ones holds the
    phase (keeping every card drawn). Exact up to three draws; beyond that a seeded
    Monte Carlo estimate from ``samples`` draws.
    """
    return completion_odds(phase, hand, unseen, draws, natural_min, samples=samples, rng=rng)[0]


def completion_odds(
    phase: Phase,
    hand: Iterable[Card],
    unseen: Sequence[int],
    draws: int = 1,
    natural_min: NaturalMin = NaturalMin.GROUP,
    *,
    samples: int = 20_000,
    rng: random.Random | None = None,
    max_checks: int | None = None,
) -> tuple[float, bool]:
    """:func:`completion_probability`, and whether it is exact, with bounded work: when an
    exact count would check more than ``max_checks`` hands one at a time (None: no bound),
    the chance is a seeded Monte Carlo estimate from ``max_checks`` draws instead.

    >>> from phase10.core import parse_cards
    >>> hand = parse_cards("R1 R2 R3 B5 B6 G7 Y8 Y9 W G11")
    >>> phase = Phase.parse("1 color run of 5 + 2 sets of 2")
    >>> completion_odds(phase, hand, unseen_counts(hand), draws=1, max_checks=100)
    (0.0, True)
    >>> completion_odds(phase, hand, unseen_counts(hand), draws=3, max_checks=100)
    (0.07, False)
    """
    counts = hand_counts(hand)
    compiled = compile_phase(phase, natural_min)
    _check_unseen(unseen)
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
        raise ValueError(f"draws is a whole number of cards, 0 or more, not {draws!r}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples is a whole number, at least 1, not {samples!r}")
    if max_checks is not None and (isinstance(max_checks, bool) or max_checks < 1):
        raise ValueError(f"max_checks is a whole number, at least 1, not {max_checks!r}")
    if can_lay(compiled, counts):
        return 1.0, True
    pool = [max(0, n) for n in unseen]
    size = sum(pool)
    draws = min(draws, size)
    if draws <= 0:
        return 0.0, True
    checker = shared_checker(phase, natural_min)
    base = np.array(counts, dtype=np.int16)
    one_by_one = checker.mode == "rows"
    exact = draws <= EXACT_DRAWS
    if exact and one_by_one and max_checks is not None:
        kinds = sum(1 for n in pool if n)
        exact = math.comb(kinds + draws - 1, draws) <= max_checks
        samples = max_checks
    elif not exact and one_by_one and max_checks is not None:
        samples = min(samples, max_checks)
    if exact:
        # every multiset of ``draws`` cards, weighted by the ways to draw it: built as arrays
        # at once (one combination at a time in Python cost more than checking them all)
        types = [index for index in range(DISTINCT_CARDS) if pool[index]]
        combos = np.array(
            list(combinations_with_replacement(range(len(types)), draws)), dtype=np.intp
        )
        taken = np.zeros((len(combos), len(types)), dtype=np.int64)
        np.add.at(taken, (np.arange(len(combos))[:, None], combos), 1)
        ways = np.array(
            [[math.comb(pool[t], n) for n in range(draws + 1)] for t in types], dtype=np.int64
        )
        weights = ways[np.arange(len(types)), taken].prod(axis=1)
        drawable = weights > 0
        rows = np.tile(base, (len(combos), 1))
        rows[:, types] += taken.astype(np.int16)
        hits = checker(rows[drawable])
        return float(np.dot(hits, weights[drawable]) / math.comb(size, draws)), True
    generator = np.random.default_rng((rng or random.Random(0)).getrandbits(64))
    deck = np.repeat(np.arange(DISTINCT_CARDS), pool)
    keys = generator.random((samples, len(deck)))
    picked = deck[np.argpartition(keys, draws - 1, axis=1)[:, :draws]]
    matrix = np.tile(base, (samples, 1))
    np.add.at(matrix, (np.arange(samples)[:, None], picked), 1)
    return float(checker(matrix).mean()), False


def _check_unseen(unseen: Sequence[int]) -> None:
    """Refuse anything but one count of unseen cards per card index (as
    :func:`unseen_counts` gives)."""
    if isinstance(unseen, str) or not isinstance(unseen, Sequence | np.ndarray):
        raise ValueError(
            f"unseen is {DISTINCT_CARDS} counts, one per card index (unseen_counts gives them), "
            f"not {unseen!r:.60}"
        )
    if len(unseen) != DISTINCT_CARDS:
        raise ValueError(
            f"unseen is {DISTINCT_CARDS} counts, one per card index (unseen_counts gives them), "
            f"not {len(unseen)} entries"
        )


def _kind_of(card: Card, colors: frozenset[Color | None]) -> tuple[int, object]:
    """What a card is to the groups whose colours are ``colors``: its number, and its
    colour if one of them asks for it; a Wild, a Skip or the Anti-phase card is itself."""
    if card.number is None or not card.is_natural:
        return (100 + card.index, None)
    return (card.number, card.color if card.color in colors else None)

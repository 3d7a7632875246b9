"""Laying a phase down: checking the groups offered, and finding every way to do it.

>>> from phase10.core.cards import parse_cards
>>> from phase10.core.phases import Phase
>>> phase = Phase.parse("2 sets of 3")
>>> ways = list(lay_downs(phase, parse_cards("R7 B7 G7 R3 B3 W"), NaturalMin.GROUP))
>>> [" + ".join(map(str, way)) for way in ways]
['R3 B3 W + R7 B7 G7']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import product

from .budget import current_budget
from .cards import COLORS, SKIP, WILD, Card, Color, Parity
from .errors import IllegalActionError, Refusal, SearchLimitError
from .groups import Group, GroupError
from .phases import GroupKind, GroupSpec, Phase
from .rules import MAX_HAND, NaturalMin, natural_min_of
from .words import plural

__all__ = [
    "best_lay_down",
    "canonical_lay_down",
    "check_lay_down",
    "could_fill",
    "group_candidates",
    "lay_downs",
]


_BY_NUMBER: dict[int, tuple[Card, ...]] = {
    number: tuple(Card.number_card(color, number) for color in COLORS) for number in range(1, 13)
}


#: what one group tried costs a caller's step budget: listing a group's candidates takes
#: about ten times as long as a step of the phase search (phase10.core.feasibility)
_BUDGET_COST = 10


def _group_key(group: Group) -> tuple[int, tuple[tuple[int, int, int], ...], int, int, str, str]:
    return (
        -len(group.cards),
        tuple(card.sort_key for card in group.cards),
        group.number or 0,
        group.low or 0,
        group.color.value if group.color else "",
        group.parity.value if group.parity else "",
    )


def _slot_order(phase: Phase) -> list[int]:
    """Slots of each kind, largest first: the order groups are assigned to canonically."""
    return sorted(
        range(len(phase.groups)), key=lambda i: (phase.groups[i].kind, -phase.groups[i].size, i)
    )


def canonical_lay_down(phase: Phase, groups: Sequence[Group]) -> tuple[Group, ...] | None:
    """The groups in the phase's slot order, those of one kind matched largest first; None if
    they cannot fill the phase's groups (wrong kinds or too few cards).
    """
    if len(groups) != len(phase.groups):
        return None
    by_kind: dict[GroupKind, list[Group]] = {}
    for group in groups:
        by_kind.setdefault(group.kind, []).append(group)
    for members in by_kind.values():
        members.sort(key=_group_key)
    placed: list[Group | None] = [None] * len(phase.groups)
    for slot in _slot_order(phase):
        spec = phase.groups[slot]
        waiting = by_kind.get(spec.kind)
        if not waiting:
            return None
        group = waiting.pop(0)
        if len(group.cards) < spec.size:
            return None
        placed[slot] = group
    if any(by_kind.values()):
        return None
    return tuple(group for group in placed if group is not None)


def check_lay_down(
    phase: Phase, groups: Sequence[Group], natural_min: NaturalMin
) -> tuple[Group, ...]:
    """Check the groups make the phase (sizes, kinds, numbered cards); return them canonically.

    Does not check the player holds the cards. Raises :class:`IllegalActionError`.
    """
    if len(groups) != len(phase.groups):
        raise IllegalActionError(
            Refusal.NOT_THE_PHASE,
            f"{phase} is {plural(len(phase.groups), 'group')}, not {len(groups)}; no extra groups",
        )
    groups = [_well_formed(group) for group in groups]
    # any order of the groups is the same lay-down: the kinds must match, not their order
    wanted = sorted(spec.kind for spec in phase.groups)
    if sorted(group.kind for group in groups) != wanted:
        for spec, group in zip(phase.groups, groups, strict=True):
            if group.kind is not spec.kind:
                raise IllegalActionError(
                    Refusal.NOT_THE_PHASE,
                    f"{group} is laid as {group.kind}, but {phase} asks for {spec}",
                )
    canonical = canonical_lay_down(phase, groups)
    if canonical is None:
        by_size = sorted(groups, key=lambda group: (group.kind, len(group.cards)))
        for spec, group in zip(
            sorted(phase.groups, key=lambda s: (s.kind, s.size)), by_size, strict=True
        ):
            if len(group.cards) < spec.size:
                raise IllegalActionError(
                    Refusal.NOT_THE_PHASE,
                    f"{group} has {plural(len(group.cards), 'card')}; {spec} needs at least {spec.size}",
                )
        raise IllegalActionError(
            Refusal.NOT_THE_PHASE, f"these groups cannot fill {phase}"
        )  # pragma: no cover
    if natural_min is NaturalMin.GROUP:
        for group in canonical:
            if group.natural_count == 0:
                raise IllegalActionError(
                    Refusal.ALL_WILDS,
                    f"{group} is all Wilds: every group needs at least one numbered card",
                )
    elif not any(group.natural_count for group in canonical):
        raise IllegalActionError(
            Refusal.ALL_WILDS, "a phase needs at least one numbered card; these are all Wilds"
        )
    return canonical


def _well_formed(group: Group) -> Group:
    """The group as :meth:`Group.make` builds it: a group built by hand (with a Skip, a gap
    or a Wild's value the cards contradict) is refused like one read from text.
    """
    try:
        return Group.make(
            group.kind,
            group.cards,
            number=group.number,
            low=group.low,
            color=group.color,
            parity=group.parity,
        )
    except GroupError as error:
        raise IllegalActionError(Refusal.BAD_GROUP, str(error)) from None


def lay_downs(
    phase: Phase,
    hand: Iterable[Card],
    natural_min: NaturalMin,
    *,
    max_steps: int | None = None,
    max_cards: int | None = MAX_HAND,
) -> Iterator[tuple[Group, ...]]:
    """Every distinct way to lay the phase down from this hand, with extras and Wild values,
    up to identical cards; each in canonical order.

    The search grows exponentially with the cards, so it is bounded: more than
    ``max_cards`` cards (a hand holds at most :data:`~phase10.core.rules.MAX_HAND`) raise
    :class:`~phase10.core.errors.SearchLimitError` at once, as does a search that takes
    more than ``max_steps`` steps (a step is one group tried). None lifts a bound: the
    caller then bounds the work itself (taking only the first way, say).

    >>> from phase10.core.cards import parse_cards
    >>> next(lay_downs(Phase.parse("1 set of 3"), parse_cards("R1 B1 G1 Y1 R2 B2 G2 Y2 "
    ...      "R3 B3 G3 Y3"), NaturalMin.GROUP))
    Traceback (most recent call last):
    ...
    phase10.core.errors.SearchLimitError: a hand holds at most 11 cards, not 12
    """
    counts = _hand_counter(hand, max_cards)
    phase_rule = natural_min_of(natural_min) is NaturalMin.PHASE
    return _LayDownSearch(phase, counts, phase_rule, max_steps).place(0, None)


def _hand_counter(hand: Iterable[Card], max_cards: int | None = MAX_HAND) -> Counter[Card]:
    """The hand's cards counted, refused when there are more than ``max_cards``."""
    counts = Counter(hand)
    size = sum(counts.values())
    if max_cards is not None and size > max_cards:
        if max_cards == MAX_HAND:
            raise SearchLimitError(f"a hand holds at most {MAX_HAND} cards, not {size}")
        raise SearchLimitError(f"this search takes at most {max_cards} cards, not {size}")
    return counts


class _LayDownSearch:
    """The state of one :func:`lay_downs` enumeration (a class, not a recursive closure:
    nothing is left holding itself once the search is dropped)."""

    def __init__(
        self,
        phase: Phase,
        counts: Counter[Card],
        allow_all_wild: bool,
        max_steps: int | None = None,
    ) -> None:
        self.phase = phase
        self.counts = counts
        self.allow_all_wild = allow_all_wild
        self.set_order(_slot_order(phase))
        self.seen: set[tuple[Group, ...]] = set()
        self.chosen: list[Group | None] = [None] * len(phase.groups)
        self.steps_left = max_steps
        self.budget = current_budget()

    def step(self) -> None:
        """Count one group tried against the search's bound and the caller's budget
        (:func:`~phase10.core.budget.step_budget`)."""
        if self.budget is not None:
            self.budget.spend(_BUDGET_COST)
        if self.steps_left is not None:
            self.steps_left -= 1
            if self.steps_left < 0:
                raise SearchLimitError(
                    f"laying {self.phase} down from these cards has too many ways to try"
                )

    def set_order(self, order: list[int]) -> None:
        """Fill the slots in this order; what :meth:`hopeless` asks of the slots still open
        after each depth is worked out once here, not at every step of the search."""
        groups = self.phase.groups
        self.order = order
        # the cards the open groups need at least; their distinct specs (could_fill
        # answers the same for the same spec)
        self.open_sizes = [sum(groups[s].size for s in order[d:]) for d in range(len(order) + 1)]
        self.open_specs = [
            tuple(dict.fromkeys(groups[s] for s in order[d:])) for d in range(len(order) + 1)
        ]

    def hopeless(self, depth: int) -> bool:
        """Whether the groups still open cannot all be filled: one of them alone cannot,
        or together they need more cards than are left (11 sets of 1 would otherwise
        try every way to spend the cards early)."""
        specs = self.open_specs[depth]
        if not specs:
            return False
        counts = self.counts
        # the cards left, Skips aside (a count never goes below 0)
        left = sum(counts.values()) - counts[SKIP]
        if left < self.open_sizes[depth]:
            return True
        allow_all_wild = self.allow_all_wild
        return not all(could_fill(spec, counts, allow_all_wild) for spec in specs)

    def place(self, depth: int, floor: tuple[object, ...] | None) -> Iterator[tuple[Group, ...]]:
        phase, counts, order = self.phase, self.counts, self.order
        allow_all_wild = self.allow_all_wild
        if self.hopeless(depth):
            return
        if depth == len(order):
            groups = tuple(group for group in self.chosen if group is not None)
            if allow_all_wild and not any(group.natural_count for group in groups):
                return
            canonical = canonical_lay_down(phase, groups)
            if canonical is not None and canonical not in self.seen:
                self.seen.add(canonical)
                yield canonical
            return
        slot = order[depth]
        spec = phase.groups[slot]
        same_as_previous = depth > 0 and phase.groups[order[depth - 1]] == spec
        # a group's key matters only next to an identical slot: not worked out otherwise
        keyed = same_as_previous or (
            depth + 1 < len(order) and phase.groups[order[depth + 1]] == spec
        )
        key: tuple[object, ...] | None = None
        for group in group_candidates(spec, counts, allow_all_wild):
            self.step()
            if keyed:
                key = _group_key(group)
                if same_as_previous and floor is not None and key < floor:
                    continue  # identical slots take their groups in one order only
            for card in group.cards:
                counts[card] -= 1
            self.chosen[slot] = group
            yield from self.place(depth + 1, key)
            for card in group.cards:
                counts[card] += 1
        self.chosen[slot] = None


def best_lay_down(
    phase: Phase,
    hand: Iterable[Card],
    natural_min: NaturalMin,
    *,
    max_steps: int | None = None,
    max_cards: int | None = MAX_HAND,
) -> tuple[Group, ...] | None:
    """Of :func:`lay_downs`, the one laying the most cards (extras included), then the most
    points (ties: the first in text order); None when there is none.

    >>> from phase10.core.cards import parse_cards
    >>> way = best_lay_down(Phase.parse("2 sets of 3"), parse_cards("R7 B7 G7 Y7 R3 B3 W Y9"),
    ...                     NaturalMin.GROUP)
    >>> " + ".join(map(str, way))
    'R7 B7 G7 Y7 + R3 B3 W'

    The same answer as ranking every way, found by branch and bound: a partial lay-down
    is dropped once even the most its open groups could still take leaves it behind.
    Bounded as :func:`lay_downs` is (``max_cards`` cards, ``max_steps`` groups tried).
    """
    phase_rule = natural_min_of(natural_min) is NaturalMin.PHASE
    search = _BestLayDown(phase, _hand_counter(hand, max_cards), phase_rule, max_steps)
    search.visit(0, None)
    return search.best


class _BestLayDown(_LayDownSearch):
    """:func:`best_lay_down`'s search: :meth:`_LayDownSearch.place` with bounds."""

    def __init__(
        self, phase: Phase, counts: Counter[Card], allow_all_wild: bool, max_steps: int | None
    ) -> None:
        super().__init__(phase, counts, allow_all_wild, max_steps)
        # Runs last: they have the most candidates, and the last group's candidates can
        # be cut short once they are too small (identical groups stay side by side).
        kinds = phase.groups
        self.set_order(
            [s for s in self.order if not kinds[s].kind.is_run]
            + [s for s in self.order if kinds[s].kind.is_run]
        )
        self.best: tuple[Group, ...] | None = None
        self.best_key: tuple[int, int, str] | None = None
        self.laid = 0
        self.points = 0

    def visit(self, depth: int, floor: tuple[object, ...] | None) -> None:
        phase, counts, order = self.phase, self.counts, self.order
        allow_all_wild = self.allow_all_wild
        if self.hopeless(depth):
            return
        best_key = self.best_key
        if depth == len(order):
            if best_key is not None and (-self.laid, -self.points) > best_key[:2]:
                return  # behind the best on cards or points: its text does not matter
            groups = tuple(group for group in self.chosen if group is not None)
            if allow_all_wild and not any(group.natural_count for group in groups):
                return
            canonical = canonical_lay_down(phase, groups)
            if canonical is None or canonical in self.seen:
                return
            self.seen.add(canonical)
            rank = (-self.laid, -self.points, " + ".join(group.describe() for group in canonical))
            if best_key is None or rank < best_key:
                self.best, self.best_key = canonical, rank
            return
        if best_key is not None and self._behind(depth):
            return
        slot = order[depth]
        spec = phase.groups[slot]
        same_as_previous = depth > 0 and phase.groups[order[depth - 1]] == spec
        last = depth == len(order) - 1
        # identical slots take their groups in one order only, by their keys
        keyed = same_as_previous or (not last and phase.groups[order[depth + 1]] == spec)
        key: tuple[object, ...] | None = None
        # the largest groups first: a good lay-down found early prunes the most
        candidates = sorted(
            group_candidates(spec, counts, allow_all_wild, first_value_only=True),
            key=lambda g: -len(g.cards),
        )
        for group in candidates:
            if (
                last
                and self.best_key is not None
                and self.laid + len(group.cards) < -self.best_key[0]
            ):
                break  # this and every smaller group lays fewer cards than the best
            self.step()
            if keyed:
                key = _group_key(group)
                if same_as_previous and floor is not None and key < floor:
                    continue
            points = 0
            for card in group.cards:
                counts[card] -= 1
                points += card.points
            self.chosen[slot] = group
            self.laid += len(group.cards)
            self.points += points
            self.visit(depth + 1, key)
            self.laid -= len(group.cards)
            self.points -= points
            for card in group.cards:
                counts[card] += 1
        self.chosen[slot] = None

    def _behind(self, depth: int) -> bool:
        """Whether every lay-down from here lays fewer cards, or as many for fewer points,
        than the best found: the open groups take at most what each could hold alone,
        and never more than the cards left."""
        assert self.best_key is not None
        left = 0
        left_points = 0
        for card, copies in self.counts.items():
            if copies > 0 and (card.is_natural or card.is_wild):
                left += copies
                left_points += copies * card.points
        room = sum(_most(self.phase.groups[slot], self.counts) for slot in self.order[depth:])
        most = self.laid + min(left, room)
        best_laid, best_points = -self.best_key[0], -self.best_key[1]
        if most != best_laid:
            return most < best_laid
        return self.points + left_points < best_points


def _most(spec: GroupSpec, counts: Counter[Card]) -> int:
    """The most cards a group of that kind could hold from ``counts`` alone."""
    wilds = max(0, counts[WILD])
    kind = spec.kind
    tally: Counter[tuple[object, object]] = Counter()  # copies held toward each anchor
    numbers: set[tuple[object, int]] = set()  # the different numbers, for runs
    for card, copies in counts.items():
        number = card.number
        if copies <= 0 or number is None:
            continue
        if kind.is_run:
            color = card.color if kind is GroupKind.COLOR_RUN else None
            if (color, number) not in numbers:
                numbers.add((color, number))
                tally[(color, None)] += 1
        elif kind is GroupKind.SET:
            tally[(number, None)] += copies
        else:
            color = card.color if kind.needs_color else None
            parity = number % 2 if kind.needs_parity else None
            tally[(color, parity)] += copies
    most = max(tally.values(), default=0) + wilds
    return min(12, most) if kind.is_run else most


def could_fill(spec: GroupSpec, counts: Counter[Card], allow_all_wild: bool) -> bool:
    """A quick test that ``counts`` might make a group for ``spec`` on its own (exact for one
    group; used to prune the search before enumerating).
    """
    wilds = counts[WILD]
    if allow_all_wild and wilds >= spec.size:
        return True
    kind, size = spec.kind, spec.size
    tally: Counter[tuple[object, ...]] = Counter()
    if kind.is_run:
        present = {
            (card.color if kind is GroupKind.COLOR_RUN else None, card.number)
            for card, n in counts.items()
            if n > 0 and card.number
        }
        for color in COLORS if kind is GroupKind.COLOR_RUN else (None,):
            for low in range(1, 14 - size):
                have = sum(1 for k in range(low, low + size) if (color, k) in present)
                if have and have + wilds >= size:
                    return True
        return False
    if kind is GroupKind.SET:
        by_number: dict[int, int] = {}
        for card, n in counts.items():
            number = card.number
            if n > 0 and number is not None:
                by_number[number] = by_number.get(number, 0) + n
        return any(n + wilds >= size for n in by_number.values())
    for card, n in counts.items():
        if n <= 0 or card.number is None:
            continue
        color = card.color if kind.needs_color else None
        parity = Parity.of(card.number) if kind.needs_parity else None
        tally[(color, parity)] += n
    return any(n + wilds >= size for n in tally.values())


def group_candidates(
    spec: GroupSpec, counts: Counter[Card], allow_all_wild: bool, *, first_value_only: bool = False
) -> Iterator[Group]:
    """Every distinct group of that kind, with at least ``spec.size`` cards, the counts allow.

    ``first_value_only`` gives an all-Wild group only its first declared value in text
    order (a set of 1s, a run from 1, blue, even): the others lay the same cards for the
    same points, so a search for the best lay-down need not try them.
    """
    groups = _group_candidates(spec, counts, allow_all_wild)
    if first_value_only and allow_all_wild:
        return (group for group in groups if group.natural_count or _first_value(group))
    return groups


def _first_value(group: Group) -> bool:
    """Whether an all-Wild group declares the value that is written first (``W=1`` before
    ``W=10`` and ``W=2``; ``W=B`` before ``W=G``; ``W=even`` before ``W=odd``)."""
    return (
        group.number in (None, 1)
        and group.low in (None, 1)
        and group.color in (None, Color.BLUE)
        and group.parity in (None, Parity.EVEN)
    )


def _group_candidates(
    spec: GroupSpec, counts: Counter[Card], allow_all_wild: bool
) -> Iterator[Group]:
    wilds = counts[WILD]
    kind = spec.kind
    if kind is GroupKind.SET:
        numbers = sorted({card.number for card, n in counts.items() if n > 0 and card.number})
        for number in numbers:
            yield from _subset_groups(
                kind, _BY_NUMBER[number], counts, wilds, spec.size, number=number
            )
        if allow_all_wild:
            for size in range(spec.size, wilds + 1):
                for number in range(1, 13):
                    yield Group(kind, (WILD,) * size, number=number)
    elif kind.is_run:
        colors: Sequence[Color | None] = COLORS if kind is GroupKind.COLOR_RUN else (None,)
        for color in colors:
            yield from _runs(kind, color, counts, wilds, spec.size, allow_all_wild)
    else:
        colors = COLORS if kind.needs_color else (None,)
        parities: Sequence[Parity | None] = (
            (Parity.EVEN, Parity.ODD) if kind.needs_parity else (None,)
        )
        for color in colors:
            for parity in parities:
                cards = [
                    card
                    for card in counts
                    if card.is_natural
                    and counts[card] > 0
                    and (color is None or card.color is color)
                    and (parity is None or Parity.of(card.number or 0) is parity)
                ]
                cards.sort(key=lambda card: card.index)
                yield from _subset_groups(
                    kind, cards, counts, wilds, spec.size, color=color, parity=parity
                )
                if allow_all_wild:
                    for size in range(spec.size, wilds + 1):
                        yield Group(kind, (WILD,) * size, color=color, parity=parity)


def _subset_groups(
    kind: GroupKind,
    cards: Sequence[Card],
    counts: Counter[Card],
    wilds: int,
    size: int,
    *,
    number: int | None = None,
    color: Color | None = None,
    parity: Parity | None = None,
) -> Iterator[Group]:
    """Groups of some copies of ``cards`` (at least one) plus some Wilds."""
    available = [(card, n) for card in cards if (n := counts[card]) > 0]
    if not available or sum(n for _, n in available) + wilds < size:
        return
    if len(available) == 1 and available[0][1] == 1:  # the common case: one card
        card = available[0][0]
        for extra in range(max(0, size - 1), wilds + 1):
            yield Group(kind, (card, *([WILD] * extra)), number=number, color=color, parity=parity)
        return
    for taken in product(*(range(n + 1) for _, n in available)):
        naturals = sum(taken)
        if naturals == 0:
            continue
        chosen: list[Card] = []
        for (card, _), copies in zip(available, taken, strict=True):
            chosen.extend([card] * copies)
        # sorted once: the Wilds sort after every numbered card, so they go at the end
        naturals_sorted = tuple(sorted(chosen, key=lambda c: c.sort_key))
        for extra in range(max(0, size - naturals), wilds + 1):
            group_cards = naturals_sorted + (WILD,) * extra
            yield Group(kind, group_cards, number=number, color=color, parity=parity)


def _runs(
    kind: GroupKind,
    color: Color | None,
    counts: Counter[Card],
    wilds: int,
    size: int,
    allow_all_wild: bool,
) -> Iterator[Group]:
    """Every run (of one colour if ``color``) the counts allow, at least ``size`` long."""
    options: dict[int, list[Card]] = {}
    for number in range(1, 13):
        options[number] = [
            card
            for card in _BY_NUMBER[number]
            if counts[card] > 0 and (color is None or card.color is color)
        ]
    for low in range(1, 14 - size):
        yield from _extend_run(kind, color, options, low, low, [], wilds, 0, size, allow_all_wild)


def _extend_run(
    kind: GroupKind,
    color: Color | None,
    options: dict[int, list[Card]],
    low: int,
    number: int,
    cards: list[Card],
    wilds_left: int,
    naturals: int,
    size: int,
    allow_all_wild: bool,
) -> Iterator[Group]:
    """Runs from ``low`` that start with ``cards``, extended one number at a time."""
    if number - low >= size and (naturals or allow_all_wild):
        yield Group(kind, tuple(cards), low=low, color=color)
    if number > 12:
        return
    for card in options[number]:
        cards.append(card)
        yield from _extend_run(
            kind,
            color,
            options,
            low,
            number + 1,
            cards,
            wilds_left,
            naturals + 1,
            size,
            allow_all_wild,
        )
        cards.pop()
    if wilds_left:
        cards.append(WILD)
        yield from _extend_run(
            kind,
            color,
            options,
            low,
            number + 1,
            cards,
            wilds_left - 1,
            naturals,
            size,
            allow_all_wild,
        )
        cards.pop()

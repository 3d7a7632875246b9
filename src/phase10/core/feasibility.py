"""Can a hand make a phase, and how many Wilds short of it is it? (exact, any phrase list)

A phase is compiled once into *anchors*: for each group, every way to pin down
what it is (a set's number, a run's lowest card, a colour, a parity). Each anchor
asks for cards from *slots*: a set of ``size`` cards of one number is one slot of
capacity ``size``; a run is one slot of capacity 1 per number. With one anchor
chosen per group, the most numbered cards the hand can place is a maximum flow
from its cards to the slots; the rest must be Wilds. The natural-card rule adds a
lower bound of one numbered card per group, which a flow meets exactly when the
groups can each be given a different numbered card (augmenting paths never take
a card away from a group), so it is a small matching.

When every group is a set or a run only a card's number matters, the flow has a
closed form (per number, the smaller of what is held and what is asked for), and
that is the fast path for most phase lists.

>>> from phase10.core import NaturalMin, Phase, parse_cards
>>> can_lay(Phase.parse("2 sets of 3"), parse_cards("R7 B7 G7 R3 B3 W Y9"))
True
>>> wilds_needed(Phase.parse("1 run of 7"), parse_cards("R1 B2 G3 Y5 R6 W"))  # a 4 and a 7
2
>>> missing(Phase.parse("1 run of 7"), parse_cards("R1 B2 G3 Y5 R6 W"))
1
>>> can_lay(Phase.parse("1 set of 2"), parse_cards("W W"), NaturalMin.PHASE)
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .budget import current_budget
from .cards import DISTINCT_CARDS, NUMBERED_CARDS, WILD_INDEX, Card
from .closed_forms import NO_WAY, run_need, set_run_need, sets_need
from .phases import GroupKind, GroupSpec, Phase
from .rules import NaturalMin, natural_min_of

__all__ = [
    "CompiledPhase",
    "can_lay",
    "compile_phase",
    "hand_counts",
    "missing",
    "wilds_needed",
]

#: more Wilds than any hand can need: "impossible however many Wilds"
IMPOSSIBLE = 1_000


def hand_counts(hand: Iterable[Card]) -> list[int]:
    """How many of each card (by :attr:`Card.index`, 0..50) the hand holds."""
    counts = [0] * DISTINCT_CARDS
    try:
        for card in hand:
            counts[card.index] += 1
    except (AttributeError, TypeError):
        raise TypeError(_not_a_hand(hand)) from None
    return counts


def _not_a_hand(hand: object) -> str:
    if isinstance(hand, str):
        return f"a hand is a list of Cards, such as parse_cards({hand!r}), not a string"
    return (
        "a hand is a list of Cards (parse_cards('R7 B7 W')) or of 51 card counts, "
        f"not {type(hand).__name__} {hand!r:.60}"
    )


# A slot: the cells it may take cards from, and how many cards it takes.
Slot = tuple[tuple[int, ...], int]


@dataclass(frozen=True, slots=True)
class Anchor:
    """One way to pin a group down, as the slots it fills."""

    label: tuple[object, ...]
    slots: tuple[Slot, ...]
    cells: tuple[int, ...]  # every cell any slot may use
    size: int = 0  # cards the group takes (the slots' capacities summed)
    mask: int = 0  # the cells as bits
    unit: bool = False  # every slot one cell taking one card (a run's slots)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", sum(cap for _, cap in self.slots))
        object.__setattr__(self, "mask", sum(1 << cell for cell in set(self.cells)))
        unit = all(len(cells) == 1 and cap == 1 for cells, cap in self.slots)
        object.__setattr__(self, "unit", unit)


@dataclass(frozen=True, slots=True)
class CompiledPhase:
    """A phase ready for fast checks: its anchors per group, by cell.

    ``by_number`` phases (sets and runs only) use 12 cells, one per number; the
    others use 48, one per numbered card.
    """

    phase: Phase
    natural_min: NaturalMin
    by_number: bool
    specs: tuple[GroupSpec, ...]
    anchors: tuple[tuple[Anchor, ...], ...]
    total: int
    #: a shape with a closed form (:mod:`.closed_forms`): "sets", "run", "set_run" or ""
    shape: str = ""

    def cells_of(self, counts: Sequence[int]) -> list[int]:
        """Per-cell counts of numbered cards from a 51-entry card count."""
        if not self.by_number:
            return list(counts[:NUMBERED_CARDS])
        return [counts[n] + counts[12 + n] + counts[24 + n] + counts[36 + n] for n in range(12)]


def _number_cells(
    number: int, by_number: bool, colors: Iterable[int] = range(4)
) -> tuple[int, ...]:
    if by_number:
        return (number - 1,)
    return tuple(color * 12 + number - 1 for color in colors)


def _anchors(spec: GroupSpec, by_number: bool) -> tuple[Anchor, ...]:
    kind, size = spec.kind, spec.size
    out: list[Anchor] = []
    if kind is GroupKind.SET:
        for number in range(1, 13):
            cells = _number_cells(number, by_number)
            out.append(Anchor((number,), ((cells, size),), cells))
    elif kind.is_run:
        colors: Sequence[int | None] = range(4) if kind is GroupKind.COLOR_RUN else (None,)
        for color in colors:
            for low in range(1, 14 - size):
                slots = tuple(
                    (
                        _number_cells(number, by_number, range(4) if color is None else (color,)),
                        1,
                    )
                    for number in range(low, low + size)
                )
                cells = tuple(cell for slot, _ in slots for cell in slot)
                out.append(Anchor((color, low), slots, cells))
    else:
        colors = range(4) if kind.needs_color else (None,)
        parities: Sequence[int | None] = (0, 1) if kind.needs_parity else (None,)
        for color in colors:
            for parity in parities:
                cells = tuple(
                    c * 12 + number - 1
                    for c in (range(4) if color is None else (color,))
                    for number in range(1, 13)
                    if parity is None or number % 2 == parity
                )
                out.append(Anchor((color, parity), ((cells, size),), cells))
    return tuple(out)


@lru_cache(maxsize=4096)
def compile_phase(phase: Phase, natural_min: NaturalMin = NaturalMin.GROUP) -> CompiledPhase:
    """Compile ``phase`` for :func:`can_lay` and friends (cached); ``natural_min`` may be
    given as its text (``"group"``, ``"phase"``).
    """
    # Read here, once per cache entry: "group" == NaturalMin.GROUP, so the entry made
    # for either answers for both, and must hold the member.
    if phase.__class__ is not Phase:
        raise TypeError(
            f"expected a Phase such as Phase.parse('2 sets of 3'), not {type(phase).__name__}"
        )
    natural_min = natural_min_of(natural_min)
    by_number = all(spec.kind in (GroupKind.SET, GroupKind.RUN) for spec in phase.groups)
    # Most constrained groups first: colour runs, then runs, then the rest; identical
    # specs stay next to each other so their anchors can be taken in one order only.
    order = sorted(
        phase.groups,
        key=lambda spec: (
            spec.kind is not GroupKind.COLOR_RUN,
            not spec.kind.is_run,
            spec.kind.value,
            -spec.size,
        ),
    )
    return CompiledPhase(
        phase=phase,
        natural_min=natural_min,
        by_number=by_number,
        specs=tuple(order),
        anchors=tuple(_anchors(spec, by_number) for spec in order),
        total=phase.min_cards,
        shape=_shape(order) if by_number else "",
    )


def _shape(specs: Sequence[GroupSpec]) -> str:
    """The closed form that answers for these groups (sorted as compiled), if any."""
    kinds = [spec.kind for spec in specs]
    if kinds in ([GroupKind.SET], [GroupKind.SET, GroupKind.SET]):
        return "sets"
    if kinds == [GroupKind.RUN]:
        return "run"
    if kinds == [GroupKind.RUN, GroupKind.SET]:
        return "set_run"
    return ""


def _as_counts(hand: Iterable[Card] | Sequence[int]) -> Sequence[int]:
    """Card counts (51 entries) as given, or counted from cards."""
    if isinstance(hand, (list, tuple)) and len(hand) == DISTINCT_CARDS and isinstance(hand[0], int):
        return hand
    tolist = getattr(hand, "tolist", None)  # a row of a NumPy count matrix
    if tolist is not None and getattr(hand, "shape", None) == (DISTINCT_CARDS,):
        return _as_counts(tolist())
    return hand_counts(hand)  # type: ignore[arg-type]


def wilds_needed(
    phase: Phase | CompiledPhase,
    hand: Iterable[Card] | Sequence[int],
    natural_min: NaturalMin = NaturalMin.GROUP,
    *,
    limit: int = IMPOSSIBLE,
) -> int:
    """The fewest Wilds that, with the hand's numbered cards, make the phase.

    Counts Wilds already held like any others (so the answer is compared with the
    hand's Wilds). Answers above ``limit`` come back as ``limit + 1`` (a cheaper
    search); :data:`IMPOSSIBLE` when no number of Wilds would do (the natural-card
    rule needs numbered cards the hand does not have).
    """
    compiled = phase if isinstance(phase, CompiledPhase) else compile_phase(phase, natural_min)
    counts = _as_counts(hand)
    return _search(compiled, compiled.cells_of(counts), limit, stop_at=0)


def missing(
    phase: Phase | CompiledPhase,
    hand: Iterable[Card] | Sequence[int],
    natural_min: NaturalMin = NaturalMin.GROUP,
    *,
    limit: int = IMPOSSIBLE,
) -> int:
    """How many more cards (at best, as Wilds) the hand needs to make the phase; 0 if it can.

    Answers above ``limit`` come back as ``limit + 1`` (a cheaper search). Exact, except
    for hands with too few numbered cards for the natural-card rule, where the numbered
    cards still needed are added one at a time.
    """
    if limit < 0:
        raise ValueError(f"limit must be at least 0, not {limit}")
    counts = _as_counts(hand)
    bound = limit + counts[WILD_INDEX]
    need = wilds_needed(phase, counts, natural_min, limit=bound)
    if bound < need < IMPOSSIBLE and sum(counts[:NUMBERED_CARDS]) < _group_count(phase):
        # A bounded search answers "above the bound" also when no number of Wilds
        # would do; with this few numbered cards, ask again to tell which.
        need = wilds_needed(phase, counts, natural_min)
    if need >= IMPOSSIBLE:
        # Too few numbered cards for the natural-card rule, so Wilds alone will not do:
        # add the most useful numbered card, one at a time (a close estimate; this only
        # happens to hands of almost nothing but Wilds and Skips).
        compiled = phase if isinstance(phase, CompiledPhase) else compile_phase(phase, natural_min)
        grown = list(counts)
        group_rule = compiled.natural_min is NaturalMin.GROUP
        added = 0
        while need >= IMPOSSIBLE and added < compiled.total:
            added += 1
            need, best = IMPOSSIBLE, 0
            if group_rule and sum(grown[:NUMBERED_CARDS]) + 1 < len(compiled.specs):
                # still too few numbered cards for one in each group whichever is added:
                # every option is impossible, so the first is taken, as the search would
                grown[best] += 1
                continue
            # the first card that needs the fewest Wilds; each later search is bounded
            # by the best so far, which prunes most of them
            for index in range(NUMBERED_CARDS):
                grown[index] += 1
                option = wilds_needed(compiled, grown, limit=need)
                grown[index] -= 1
                if option < need:
                    need, best = option, index
            grown[best] += 1
        return min(added + max(0, need - counts[WILD_INDEX]), limit + 1)
    return min(max(0, need - counts[WILD_INDEX]), limit + 1)


def _group_count(phase: Phase | CompiledPhase) -> int:
    return len(phase.specs) if isinstance(phase, CompiledPhase) else len(phase.groups)


def can_lay(
    phase: Phase | CompiledPhase,
    hand: Iterable[Card] | Sequence[int],
    natural_min: NaturalMin = NaturalMin.GROUP,
) -> bool:
    """Whether the hand holds the phase (exact; extras and Wild values are free)."""
    compiled = phase if isinstance(phase, CompiledPhase) else compile_phase(phase, natural_min)
    counts = _as_counts(hand)
    wilds = counts[WILD_INDEX]
    return _search(compiled, compiled.cells_of(counts), wilds, stop_at=wilds) <= wilds


def _search(compiled: CompiledPhase, cells: list[int], limit: int, stop_at: int) -> int:
    """The fewest Wilds over every choice of anchors (``limit + 1`` if above ``limit``).

    Branch and bound: anchors are tried cheapest first, and a partial choice is
    dropped once it already needs as many Wilds as the best found (adding a group
    never lowers the need). Stops early at ``stop_at`` or the hand's lower bound.
    """
    group_rule = compiled.natural_min is NaturalMin.GROUP
    naturals = sum(cells)
    floor = max(0, compiled.total - naturals)
    too_many = IMPOSSIBLE if limit >= IMPOSSIBLE else limit + 1
    if floor > limit:
        return limit + 1
    if not group_rule and naturals == 0:
        return too_many
    if compiled.shape:
        best = _closed_form(compiled, cells, group_rule)
        if best >= NO_WAY:
            return too_many
        if best > limit:
            return too_many if group_rule else limit + 1
        return best
    options: list[list[tuple[int, int, Anchor]]] = []
    held = sum(1 << cell for cell, count in enumerate(cells) if count)
    for anchors in compiled.anchors:
        viable: list[tuple[int, int, Anchor]] = []
        seen_empty = False
        for index, anchor in enumerate(anchors):
            alone = _single_need(anchor, cells, held)
            if alone == anchor.size:  # no numbered card fits this anchor
                if group_rule or seen_empty:
                    continue
                seen_empty = True  # all-Wild groups are interchangeable: keep one
            if alone <= limit:
                viable.append((alone, index, anchor))
        if not viable:
            return too_many if group_rule else limit + 1
        viable.sort(key=lambda option: option[0])
        options.append(viable)
    if len(options) == 1:
        alone, _, anchor = options[0][0]
        return alone  # one group: its cheapest anchor (which holds a numbered card)
    search = _Search(compiled, cells, held, options, limit + 1, stop_at, floor)
    search.descend(0, 0, 0)
    best = search.best
    if best > limit:
        return too_many if group_rule else limit + 1
    return best


def _closed_form(compiled: CompiledPhase, cells: list[int], group_rule: bool) -> int:
    """The fewest Wilds for a phase of a shape with a closed form (``NO_WAY``: none)."""
    specs = compiled.specs
    shape = compiled.shape
    if shape == "sets":
        return sets_need([spec.size for spec in specs], cells, group_rule)
    if shape == "run":
        return run_need(specs[0].size, cells)
    return set_run_need(specs[1].size, specs[0].size, cells, group_rule)


class _Search:
    """Branch and bound over one anchor per group (see :func:`_search`)."""

    def __init__(
        self,
        compiled: CompiledPhase,
        cells: list[int],
        held: int,
        options: list[list[tuple[int, int, Anchor]]],
        best: int,
        stop_at: int,
        floor: int,
    ) -> None:
        self.compiled = compiled
        self.cells = cells
        self.options = options
        self.best = best
        self.stop_at = stop_at
        self.floor = floor
        self.group_rule = compiled.natural_min is NaturalMin.GROUP
        self.chosen: list[Anchor] = []
        self.demand = [0] * 12
        self.last = len(options) - 1
        self.held = held  # the cells held, as bits
        self.budget = current_budget()  # a caller's bound on the whole decision's searching
        # rest[d]: the least the groups from d on need between them, each its cheapest anchor
        # alone (each group adds at least its own need alone, so a branch whose need plus
        # this reaches the best found is dropped)
        self.rest = [0] * (len(options) + 1)
        for depth in range(len(options) - 1, -1, -1):
            self.rest[depth] = self.rest[depth + 1] + options[depth][0][0]

    def descend(
        self, depth: int, floor_index: int, deficit: int, used: int = 0, shared: bool = False
    ) -> bool:
        """``deficit``: the Wilds the groups chosen so far need; ``used``: the cells held
        they take; ``shared``: whether two of them take the same cell."""
        compiled, cells, demand, chosen = self.compiled, self.cells, self.demand, self.chosen
        specs = compiled.specs
        by_number = compiled.by_number
        same = depth > 0 and specs[depth] == specs[depth - 1]
        need = 0
        later = self.rest[depth + 1]
        budget = self.budget
        for alone, index, anchor in self.options[depth]:
            if deficit + alone + later >= self.best:
                break
            if same and index < floor_index:
                continue
            if budget is not None:
                budget.spend()
            taken = anchor.mask & self.held
            overlap = (taken & used) != 0
            if by_number:
                added = deficit
                for slot_cells, cap in anchor.slots:
                    cell = slot_cells[0]
                    want = demand[cell]
                    have = cells[cell]
                    if want >= have:
                        added += cap
                    elif want + cap > have:
                        added += want + cap - have
                    demand[cell] = want + cap
                need = added
            chosen.append(anchor)
            if not by_number:
                # a group that takes no cell held the others take adds exactly its own
                # need; otherwise the cards go where a flow puts them
                if not overlap:
                    need = deficit + alone
                else:
                    size = sum(a.size for a in chosen)
                    # no flow places more cards than are held in the cells the groups take
                    if size - _held_in(used | taken, cells) + later >= self.best:
                        need = self.best
                    else:
                        need = size - _max_flow(chosen, cells)
            if need + later < self.best:
                if depth == self.last:
                    # groups that share no cell each have their own numbered card (a
                    # viable anchor holds one under the natural-card rule)
                    apart = not by_number and not (shared or overlap)
                    if (
                        (apart or _each_group_gets_one(chosen, cells))
                        if self.group_rule
                        else need < compiled.total  # at least one numbered card laid
                    ):
                        self.best = need
                elif self.descend(depth + 1, index, need, used | taken, shared or overlap):
                    chosen.pop()
                    if by_number:
                        _release(anchor, demand)
                    return True
            chosen.pop()
            if by_number:
                _release(anchor, demand)
            if self.best <= self.stop_at or self.best <= self.floor:
                return True
        return False


def _held_in(mask: int, cells: list[int]) -> int:
    """The numbered cards held in the cells ``mask`` has bits for."""
    held = 0
    while mask:
        low = mask & -mask
        held += cells[low.bit_length() - 1]
        mask ^= low
    return held


def _release(anchor: Anchor, demand: list[int]) -> None:
    for slot_cells, cap in anchor.slots:
        demand[slot_cells[0]] -= cap


def _single_need(anchor: Anchor, cells: list[int], held: int) -> int:
    """The Wilds the anchor's group needs on its own (``held``: the cells held, as bits)."""
    taken = anchor.mask & held
    if not taken:
        return anchor.size
    if anchor.unit:  # a card in each slot it has one for
        return anchor.size - taken.bit_count()
    if len(anchor.slots) == 1:
        have = _held_in(taken, cells)
        return anchor.size - have if have < anchor.size else 0
    placed = 0
    for slot_cells, cap in anchor.slots:
        have = 0
        for cell in slot_cells:
            have += cells[cell]
            if have >= cap:
                have = cap
                break
        placed += have
    return anchor.size - placed


def _max_flow(chosen: list[Anchor], cells: list[int]) -> int:
    """Most numbered cards the chosen anchors' slots can take (augmenting paths)."""
    caps: list[int] = []
    cell_slots: dict[int, list[int]] = {}
    for anchor in chosen:
        for slot_cells, cap in anchor.slots:
            slot = len(caps)
            caps.append(cap)
            for cell in slot_cells:
                if cells[cell]:
                    cell_slots.setdefault(cell, []).append(slot)
    holders: list[list[int]] = [[] for _ in caps]
    flow = 0
    room = sum(caps)
    for cell, slots in cell_slots.items():
        if not slots:
            continue
        for _ in range(cells[cell]):
            if flow == room or not _augment(cell, set(), cell_slots, caps, holders):
                break
            flow += 1
    return flow


def _augment(
    cell: int,
    visited: set[int],
    cell_slots: dict[int, list[int]],
    caps: list[int],
    holders: list[list[int]],
) -> bool:
    """Find room for one more card of ``cell``, moving others along (an augmenting path)."""
    for slot in cell_slots[cell]:
        if slot in visited:
            continue
        visited.add(slot)
        if len(holders[slot]) < caps[slot]:
            holders[slot].append(cell)
            return True
        for position, other in enumerate(holders[slot]):
            if other != cell and _augment(other, visited, cell_slots, caps, holders):
                holders[slot][position] = cell
                return True
    return False


def _each_group_gets_one(chosen: list[Anchor], cells: list[int]) -> bool:
    """Whether every chosen group can have a numbered card of its own (a matching)."""
    if len(chosen) == 1:
        return any(cells[cell] for cell in chosen[0].cells)
    holders: dict[int, list[int]] = {}
    return all(_assign(group, set(), chosen, cells, holders) for group in range(len(chosen)))


def _assign(
    group: int,
    visited: set[int],
    chosen: list[Anchor],
    cells: list[int],
    holders: dict[int, list[int]],
) -> bool:
    """Give ``group`` a numbered card of its own, moving others along (an augmenting path)."""
    for cell in chosen[group].cells:
        if not cells[cell] or cell in visited:
            continue
        visited.add(cell)
        taken = holders.setdefault(cell, [])
        if len(taken) < cells[cell]:
            taken.append(group)
            return True
        for position, other in enumerate(taken):
            if _assign(other, visited, chosen, cells, holders):
                taken[position] = group
                return True
    return False

"""The table's groups as the encoding sees them: where each card fits (the hit actions and
the slot features), and the two ways to lay a phase the actions offer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from phase10.core import (
    NUMBERED_CARDS,
    SKIP_INDEX,
    WILD,
    WILD_INDEX,
    Card,
    Group,
    GroupKind,
    NaturalMin,
    Phase,
    lay_downs,
)

__all__ = ["SLOT_FEATURES", "WILD_HIGH", "WILD_LOW", "Fit", "arrangements", "group_fit"]

#: a hit's column for a Wild on a set, colour or even/odd group or below a run
WILD_LOW: Final = WILD_INDEX
#: a hit's column for a Wild above a run (the Skip's, which never hits)
WILD_HIGH: Final = SKIP_INDEX
#: the columns of a slot's hits and fits: the numbered cards, then the two Wild columns
COLUMNS: Final = WILD_HIGH + 1

_KINDS: Final = tuple(GroupKind)
_NUMBERED: Final = tuple(Card.from_index(i) for i in range(NUMBERED_CARDS))

#: features of one table slot: present, kind (6), cards / 12, fits (50)
SLOT_FEATURES: Final = 1 + len(_KINDS) + 1 + COLUMNS


@dataclass(frozen=True, slots=True)
class Fit:
    """Where cards fit one group on the table, and the group's slot features."""

    group: Group
    naturals: int  # bit c set: numbered card c fits
    wild_low: int | None  # the Wild's number below a run (0 on another kind); None: no fit
    wild_high: int | None  # the Wild's number above a run; None: no fit
    features: NDArray[np.float32]


def group_fit(group: Group) -> Fit:
    """Where cards fit ``group`` now, and its slot features."""
    naturals = 0
    for card in _NUMBERED:
        if group.placements(card):
            naturals |= 1 << card.index
    spots = group.placements(WILD)
    low: int | None = None
    high: int | None = None
    if group.low is None:
        low = 0 if spots else None
    else:
        low = group.low - 1 if group.low - 1 in spots else None
        high = group.low + len(group.cards) if group.low + len(group.cards) in spots else None
    features = np.zeros(SLOT_FEATURES, np.float32)
    features[0] = 1.0
    features[1 + _KINDS.index(group.kind)] = 1.0
    features[1 + len(_KINDS)] = len(group.cards) / 12
    fits = features[2 + len(_KINDS) :]
    for index in range(NUMBERED_CARDS):
        if naturals >> index & 1:
            fits[index] = 1.0
    fits[WILD_LOW] = low is not None
    fits[WILD_HIGH] = high is not None
    return Fit(group, naturals, low, high, features)


def arrangements(
    phase: Phase, hand: Sequence[Card], natural_min: NaturalMin
) -> tuple[tuple[Group, ...], tuple[Group, ...]]:
    """The two lay-downs the actions offer: the most cards laid (then the most points; as
    :func:`phase10.solver.tactics.best_lay_down`), and the fewest cards laid (then the fewest
    Wilds, then the most points). Ties go to the first in text order.

    >>> from phase10.core import parse_cards
    >>> most, fewest = arrangements(
    ...     Phase.parse("1 run of 4"), parse_cards("R3 R4 B5 G6 Y7 W"), NaturalMin.GROUP
    ... )
    >>> " ".join(map(str, most[0].cards)), " ".join(map(str, fewest[0].cards))
    ('R3 R4 B5 G6 Y7 W', 'R3 R4 B5 G6')
    """
    most: tuple[tuple[int, int, str], tuple[Group, ...]] | None = None
    fewest: tuple[tuple[int, int, int, str], tuple[Group, ...]] | None = None
    for way in lay_downs(phase, hand, natural_min, max_cards=None):  # a game's own hand
        laid = [card for group in way for card in group.cards]
        points = sum(card.points for card in laid)
        text = " + ".join(group.describe() for group in way)
        key_most = (-len(laid), -points, text)
        wilds = sum(1 for card in laid if card.is_wild)
        key_fewest = (len(laid), wilds, -points, text)
        if most is None or key_most < most[0]:
            most = (key_most, way)
        if fewest is None or key_fewest < fewest[0]:
            fewest = (key_fewest, way)
    if most is None or fewest is None:
        raise ValueError(f"the hand does not hold {phase}")
    return most[1], fewest[1]

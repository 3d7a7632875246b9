"""The card indices of the observation's card blocks, and the blocks later versions add:
the save piles (version 2) and the Anti-phase card (version 3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from phase10.core import (
    ANTI_INDEX,
    DISTINCT_CARDS,
    SKIP_INDEX,
    AntiPhase,
    Card,
    GivingUp,
    Rules,
    SavedScore,
    SavePile,
)
from phase10.core.legality import SeatLike
from phase10.core.rules import MAX_PHASES

__all__ = [
    "ANTI_FEATURES",
    "ANTI_SEAT_FEATURES",
    "CARDS",
    "RULE_FEATURES",
    "SAVE_SEAT_FEATURES",
    "SaveState",
    "SeatState",
    "anti_block",
    "save_block",
]

#: the card indices of the card blocks: the numbered cards, the Wild, the Skip. Fixed, so
#: that versions 0-2 never change shape; version 3 shows the Anti-phase card (the next
#: index) apart, and in its known-cards block
CARDS: Final = SKIP_INDEX + 1
assert ANTI_INDEX == CARDS and DISTINCT_CARDS == CARDS + 1

#: version 2, per seat: save pile size / 10, saved this hand, gave up this hand, refill
SAVE_SEAT_FEATURES: Final = 4
_SAVE_PILES: Final = tuple(SavePile)
_GIVING_UP: Final = tuple(GivingUp)
#: version 2, the rules: save pile one-hot (off, private, public), saved cards score,
#: giving up one-hot (off, forfeit, keep)
RULE_FEATURES: Final = len(_SAVE_PILES) + 1 + len(_GIVING_UP)
#: version 3, the Anti-phase card: held by the observer, on top of the discard pile, in the
#: discard pile, the rules' anti_phase option
ANTI_FEATURES: Final = 4
#: version 3, per seat: the phase the seat would lose if moved down at the hand's end / 10
ANTI_SEAT_FEATURES: Final = 1


class SaveState(NamedTuple):
    """What the observer may know of the save piles (version 2): their own pile, every
    seat's pile size, and every seat's cards where the piles are public (else None)."""

    own: Sequence[Card]
    sizes: Sequence[int]
    piles: Sequence[Sequence[Card]] | None


class SeatState(SeatLike, Protocol):
    """What everyone may know of a seat (docs/rules.md §7): a :class:`~phase10.core.Seat`
    or a view's :class:`~phase10.core.state.SeatInfo`. Never its cards."""

    @property
    def score(self) -> int: ...


def save_block(
    out: NDArray[np.float32],
    me: int,
    seats: Sequence[SeatState],
    saves: SaveState | None,
    rules: Rules,
) -> None:
    """Write the save-pile block (version 2) seen by seat ``me`` into ``out`` (the block's
    slice): the observer's own pile, each seat's pile size and flags, the other seats'
    piles when they are public, and the rules' options."""
    n = len(seats)
    block = [0.0] * len(out)
    if saves is not None:
        for card in saves.own:
            block[card.index] += 1
    for relative in range(n):
        seat_index = (me + relative) % n
        seat = seats[seat_index]
        base = CARDS + relative * SAVE_SEAT_FEATURES
        if saves is not None:
            block[base] = saves.sizes[seat_index] / 10
        block[base + 1] = seat.saved_this_hand
        block[base + 2] = seat.gave_up
        block[base + 3] = seat.refill
    if saves is not None and saves.piles is not None:
        for relative in range(1, n):
            base = CARDS + n * SAVE_SEAT_FEATURES + (relative - 1) * CARDS
            for card in saves.piles[(me + relative) % n]:
                block[base + card.index] += 1
    base = len(block) - RULE_FEATURES
    block[base + _SAVE_PILES.index(rules.save_pile)] = 1.0
    block[base + len(_SAVE_PILES)] = rules.saved_score is SavedScore.PENALTY
    block[base + len(_SAVE_PILES) + 1 + _GIVING_UP.index(rules.give_up)] = 1.0
    out[:] = block


def anti_block(
    out: NDArray[np.float32],
    me: int,
    seats: Sequence[SeatState],
    tie_break: bool,
    rules: Rules,
    held: int,
    on_top: bool,
    in_pile: int,
) -> None:
    """Write the Anti-phase block (version 3) seen by seat ``me`` into ``out`` (the block's
    slice, all 0): the card in the observer's hand, on top of the discard pile and in it;
    the rules' option; per seat, the phase it would lose if moved down at this hand's end
    (its highest completed, this hand's lay-down counted; none in a tie-break hand, where
    no phase changes)."""
    out[0] = held
    out[1] = on_top
    out[2] = in_pile
    on = rules.anti_phase is AntiPhase.ON
    out[3] = on
    if not on or tie_break:
        return
    n = len(seats)
    for relative in range(n):
        seat = seats[(me + relative) % n]
        done = max(seat.completed, default=-1)
        if seat.laid is not None:
            done = max(done, seat.laid)
        out[ANTI_FEATURES + relative * ANTI_SEAT_FEATURES] = (done + 1) / MAX_PHASES

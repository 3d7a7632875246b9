"""What ``phase10 check`` and ``phase10 score`` compute, apart from the command line.

>>> phase = read_phase("2")
>>> cards = read_cards(["R7 B7 W,", "G3", "G4", "W", "G6", "Y9"])
>>> report = check_hand(phase, cards)
>>> report["complete"], report["described"], report["left"]
(True, ['R7 B7 W=7', 'G3 G4 W=5 G6'], ['Y9'])
>>> read_cards(["R7 A"]), check_hand(phase, read_cards(["R7 B7 W G3 G4 G5 G6 A"]))["left"]
((Card.parse('R7'), Card.parse('A')), ['A'])
>>> read_cards(["A A"])
Traceback (most recent call last):
...
phase10.core.cards.CardError: the deck holds only 1 A, not 2
>>> read_cards(["R7", "R13"])
Traceback (most recent call last):
...
phase10.core.cards.CardError: 'R13' is not a card: write a colour letter R, B, G or Y and a number 1-12 (like R7 or B12), W for a Wild, S for a Skip or A for the Anti-phase card
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from phase10.core import (
    MAX_HAND,
    AntiPhase,
    Card,
    CardError,
    NaturalMin,
    Phase,
    PhaseParseError,
    Rules,
    check_deck_can_hold,
    hand_points,
    is_plain_number,
    parse_cards,
)
from phase10.core.phase_lists import PHASE_LISTS
from phase10.solver.tactics import best_lay_down

__all__ = [
    "CARDS_DECK",
    "best_lay_down",
    "check_hand",
    "read_cards",
    "read_phase",
]

#: The deck cards typed on the command line are checked against: the standard deck and the
#: Anti-phase card (rules ``anti_phase``), so a hand may hold the one A
CARDS_DECK = Rules(anti_phase=AntiPhase.ON).deck_counts


def read_cards(
    tokens: Sequence[str],
    *,
    limit: int | None = MAX_HAND,
    deck: Mapping[Card, int] = CARDS_DECK,
) -> tuple[Card, ...]:
    """Cards from command-line words: several words or one quoted string, commas allowed.

    Raises :class:`~phase10.core.CardError` naming a bad card, or when one deck (``deck``:
    the copies of each card, default :data:`CARDS_DECK`) cannot hold the cards, or when
    they are more than ``limit``.
    """
    cards = parse_cards(" ".join(tokens))
    if not cards:
        raise CardError("no cards given: write them like R7 B7 W G3")
    check_deck_can_hold(cards, deck)
    if limit is not None and len(cards) > limit:
        raise CardError(
            f"a hand holds at most {limit} cards (ten dealt and one drawn), not {len(cards)}"
        )
    return cards


def read_phase(text: str, list_name: str = "standard") -> Phase:
    """A phase by its number in the named list (``"2"``) or by its phrase.

    Raises :class:`~phase10.core.PhaseParseError` (a :class:`ValueError`) with the reason.
    """
    if list_name not in PHASE_LISTS:
        known = ", ".join(PHASE_LISTS)
        raise PhaseParseError(f"no phase list named {list_name!r}; known lists: {known}")
    text = text.strip()
    digits = text.removeprefix("-")
    if not is_plain_number(digits):
        return Phase.parse(text)
    phases = PHASE_LISTS[list_name]
    if len(digits.lstrip("0")) > 6 or not 1 <= int(text) <= len(phases):
        raise PhaseParseError(
            f"phase numbers run from 1 to {len(phases)} (the {list_name} list), not {text}"
        )
    number = int(text)
    return phases[number - 1]


def check_hand(
    phase: Phase, cards: Sequence[Card], natural_min: NaturalMin = NaturalMin.GROUP
) -> dict[str, Any]:
    """The answer to ``phase10 check`` as a JSON-ready dict.

    ``groups`` holds each group's cards as plain card strings (a Wild is ``"W"``) and
    ``described`` the same groups as text with every Wild's value (``"R7 B7 W=7"``);
    ``kinds`` names the phase's group each one fills. All three are empty lists when the
    cards do not hold the phase; ``left`` is what would stay in hand.
    """
    way = best_lay_down(phase, cards, natural_min) or ()
    left = list(cards)
    for group in way:
        for card in group.cards:
            left.remove(card)
    return {
        "phase": str(phase),
        "cards": [str(card) for card in cards],
        "natural_min": natural_min.value,
        "complete": bool(way),
        "kinds": [str(spec) for spec in phase.groups] if way else [],
        "groups": [[str(card) for card in group.cards] for group in way],
        "described": [group.describe() for group in way],
        "left": [str(card) for card in left],
        "left_points": hand_points(left),
    }

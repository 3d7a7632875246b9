"""Save piles and giving up (Masters Edition rules), as every bot and the hints judge them.

A save ends a turn like a discard, once a hand, but the card stays the saver's: it can
be taken back instead of a draw on a later turn or in a later hand, nobody else gets
it, and (under ``saved_score none``) it never scores. So the question is never whether
to part with a card but which card leaves the hand and where it goes:

* a Wild the hand must part with is saved, never thrown away;
* a card the current phase does not need (without it the phase is no further than
  without the planned discard) is saved instead of the discard when it builds on the
  save pile for a phase still to come (a Wild; the twin of a saved card for a set, a
  neighbour for a run, a colour or parity match): the discard stays in hand;
* once the hand is nearly over (someone is down with three cards or fewer), the save
  would be lost unused: the best card to keep is saved, and when the hand is lost
  (still two or more cards short) even a card the phase needs, a Wild first;
* a card that would surely help the next player is saved rather than handed over.

A saved card comes back, instead of a draw, when it brings the phase being worked on
closer and the top discard is not wanted (that card goes if it is not taken; the saved
one waits). Under ``saved_score penalty`` saved cards score at every hand's end, so only
a Wild that must go is saved, and saved cards come back whenever they help or fit.

Giving a phase up (``give_up``): under ``forfeit`` the phase is lost. The best it can buy
is laying another phase later in the same hand, one phase for one, for ten fresh cards
that score against the player if anyone goes out first; so the bots never forfeit a
phase. Under ``keep`` the phase stays completed and the fresh cards are a chance at a
second phase in the hand, so the bots give up a laid phase unless the hand is nearly
over or no other phase is left.

>>> from phase10.core import parse_cards, preset
>>> rules = preset("masters")
>>> keeper_value(parse_cards("W")[0], (), [rules.phase_sequence[1]])
10
>>> keeper_value(parse_cards("R7")[0], parse_cards("B7"), [rules.phase_sequence[0]])
2
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from phase10.core import (
    Card,
    GiveUp,
    GivingUp,
    GroupKind,
    Phase,
    PlayerView,
    SavedScore,
    SavePile,
    Stage,
)

from .knowledge import target_phases

__all__ = [
    "ENDING_CARDS",
    "KEEPER",
    "future_phases",
    "give_up_wanted",
    "hand_ending",
    "keeper_value",
    "save_pick",
    "take_back_pick",
]

#: a player down with this many cards or fewer may end the hand within a round
ENDING_CARDS = 3
#: how well a card must build on the save pile to be saved early in a hand
KEEPER = 2
#: a Wild's worth on the save pile: it fits every phase to come
WILD_KEEPER = 10

#: how far a hand (a list of cards) is from the phase worked on; None once it is down
Gap = Callable[[list[Card]], int]


def future_phases(view: PlayerView, working: Sequence[int] = ()) -> list[Phase]:
    """The viewer's phases still to come: not completed, not down this hand, and not among
    ``working`` (0-based indices of the phases the hand works on now).
    """
    me = view.viewer
    assert me is not None
    info = view.seats[me]
    done = set(info.completed) | set(working)
    if info.laid is not None:
        done.add(info.laid)
    return [view.phase_of(index) for index in range(view.rules.phase_count) if index not in done]


def hand_ending(view: PlayerView, *, others_only: bool = False) -> bool:
    """Whether the hand may end within a round: a player (the viewer too, unless
    ``others_only``) is down with :data:`ENDING_CARDS` cards or fewer.
    """
    return any(
        view.seats[seat].laid is not None
        and view.seats[seat].hand_size <= ENDING_CARDS
        and not (others_only and seat == view.viewer)
        for seat in view.players_in_hand
    )


def keeper_value(card: Card, saved: Sequence[Card], phases: Sequence[Phase]) -> int:
    """How well ``card`` builds on the save pile ``saved`` for ``phases`` (higher: save it):
    :data:`WILD_KEEPER` for a Wild, else its partners among the saved cards (a twin for
    a set 2, a neighbour for a run 2 or 1, a colour or parity match 1). Skips and the
    Anti-phase card (which cannot be saved): -1.
    """
    if card.is_skip or card.is_anti:
        return -1
    if not phases:
        return 0
    if card.is_wild:
        return WILD_KEEPER
    number = card.number
    assert number is not None
    kinds = {spec.kind for phase in phases for spec in phase.groups}
    sets = GroupKind.SET in kinds
    runs = any(kind.is_run for kind in kinds)
    colors = any(kind.needs_color for kind in kinds)
    parities = any(kind.needs_parity for kind in kinds)
    score = 0
    for other in saved:
        if other.number is None:
            continue
        gap = abs(other.number - number)
        if sets and gap == 0:
            score += 2
        if runs and 0 < gap <= 2:
            score += 2 if gap == 1 else 1
        if colors and other.color is card.color:
            score += 1
        if parities and gap % 2 == 0:
            score += 1
    return score


def save_pick(
    view: PlayerView,
    hand: Sequence[Card],
    planned: Card,
    gap: Gap | None,
    *,
    deny: bool = False,
) -> Card | None:
    """The card to save instead of discarding ``planned`` from ``hand`` (the hand as it is
    when the discard is due), or None to discard as planned. ``gap`` tells how far a hand
    is from the phase being worked on (None once the phase is down); ``deny``: the planned
    discard would help the next player. See the module's rules of thumb.
    """
    me = view.viewer
    assert me is not None
    info = view.seats[me]
    if (
        view.rules.save_pile is SavePile.OFF
        or view.stage is not Stage.PLAY
        or info.saved_this_hand
        or len(hand) < 2
        or planned.is_skip
        or planned.is_anti  # saving another card instead would keep it in hand
    ):
        return None
    if view.rules.saved_score is SavedScore.PENALTY:
        return planned if planned.is_wild else None
    working = [index for index, _ in target_phases(view)]
    future = future_phases(view, working)
    ending = hand_ending(view)
    rest = list(hand)
    rest.remove(planned)
    now = gap(rest) if gap is not None else 0
    lost = gap is not None and now >= 2 and hand_ending(view, others_only=True)

    def harmless(card: Card) -> bool:
        """Whether saving ``card`` instead leaves the phase no further than planned."""
        if gap is None or lost or card == planned:
            return True
        other = list(hand)
        other.remove(card)
        return gap(other) <= now

    scores = {
        card: keeper_value(card, view.saved, future)
        for card in dict.fromkeys(hand)
        if (card.is_natural or card.is_wild) and harmless(card)
    }
    if planned.is_wild:
        return planned
    # the best card to keep: most worth, then the planned discard, then the costliest
    best = max(scores, key=lambda card: (scores[card], card == planned, card.points))
    if scores[best] >= KEEPER:
        return best
    if ending or lost:
        return best if scores[best] > 0 else planned
    return planned if deny else None


def take_back_pick(view: PlayerView, gap: Gap, *, top_wanted: bool) -> Card | None:
    """The saved card to take back instead of drawing, or None: one that brings the phase
    worked on closer (``gap`` measures it), the most, a numbered card before a Wild, when
    the top discard is not wanted (``top_wanted``). Once down, a saved card that fits the
    table comes back only where saved cards score.
    """
    me = view.viewer
    assert me is not None
    if view.rules.save_pile is SavePile.OFF or view.stage is not Stage.DRAW or not view.saved:
        return None
    saved = list(dict.fromkeys(view.saved))
    if not target_phases(view):
        if view.rules.saved_score is SavedScore.PENALTY:
            fits = [card for card in saved if view.fits_anywhere(card)]
            return min(fits, key=lambda card: (card.is_wild, -card.points), default=None)
        return None
    if top_wanted:
        return None
    hand = list(view.hand)
    now = gap(hand)
    if now == 0:
        return None
    closer = {card: gap([*hand, card]) for card in saved}
    best = min(saved, key=lambda card: (closer[card], card.is_wild, card.sort_key))
    return best if closer[best] < now else None


def give_up_wanted(view: PlayerView) -> bool:
    """Whether to give up the viewer's laid phase now (see the module's reasoning)."""
    me = view.viewer
    assert me is not None
    info = view.seats[me]
    if view.rules.give_up is not GivingUp.KEEP or info.laid is None or info.gave_up:
        return False
    if not future_phases(view) or hand_ending(view):
        return False
    return view.is_legal(GiveUp())

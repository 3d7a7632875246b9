"""The Anti-phase card (rules ``anti_phase``), as every bot and the hints judge it.

The card never helps make a phase and never hits. Its one use is to go out with it as
the last card, naming a player who then moves down a phase; still held when the hand
ends, it moves its holder down instead. So:

* it is discarded at once (before a Skip, which costs only its points if held), unless
  it can go out soon: the phase is down and one other card is left besides it (a draw
  that hits then lets the card go out), and no other player is down with so few cards
  (:data:`~phase10.bots.saving.ENDING_CARDS`) that they may go out first and catch it in
  hand; a card discarded early is an ordinary discard, and only the next player may
  take it;
* going out with it names the opponent it hurts most (:func:`victim`): the one with the
  most phases completed (a phase laid down this hand counts: it is completed before
  anyone moves down), then the lowest score; a player with no phase completed loses
  nothing, so is named only when nobody else can be;
* it is taken from the discard pile only when the taker can go out with it this very
  turn, naming someone (:func:`takes_anti`): laying the phase down if need be and
  hitting every other card.

>>> from phase10.core import parse_cards
>>> holds_anti(parse_cards("A R7"), down=True), holds_anti(parse_cards("A R7 B9"), down=True)
(True, False)
>>> holds_anti(parse_cards("A R7"), down=False), holds_anti(parse_cards("A R7"), down=True, threatened=True)
(False, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from phase10.core import Card, Discard, PlayerView
from phase10.solver.tactics import best_hits, best_lay_down

from .knowledge import table_groups, target_phases
from .saving import hand_ending

__all__ = ["anti_discard", "holds_anti", "takes_anti", "victim", "victim_key"]


def holds_anti(hand: Sequence[Card], *, down: bool, threatened: bool = False) -> bool:
    """Whether a hand about to discard keeps its Anti-phase card to go out with soon: its
    phase is ``down`` and one other card is left (that card is the discard), and it is not
    ``threatened`` (another player may go out first)."""
    others = sum(1 for card in hand if not card.is_anti)
    return down and not threatened and others == 1 and len(hand) == 2


def victim_key(view: PlayerView, seat: int) -> tuple[bool, int, int]:
    """How much naming ``seat`` with the Anti-phase card hurts (higher first): whether they
    have a phase to lose, how many they will have completed at the hand's end, and then
    the lower score."""
    info = view.seats[seat]
    done = len(info.completed) + (info.laid is not None)
    return (done > 0, done, -info.score)


def victim(view: PlayerView, targets: Sequence[int]) -> int:
    """The player to name among ``targets`` (the first of the equals)."""
    if not targets:
        raise ValueError("the Anti-phase card names nobody here")
    return max(targets, key=lambda seat: victim_key(view, seat))


def anti_discard(
    view: PlayerView, discards: Sequence[Discard]
) -> tuple[Discard | None, list[Discard]]:
    """The discard to make for the Anti-phase card among the legal ``discards``, or None,
    with the discards left to choose from when it is None (the card is kept)."""
    antis = [d for d in discards if d.card.is_anti]
    rest = [d for d in discards if not d.card.is_anti]
    if not antis:
        return None, list(discards)
    named = [d for d in antis if d.target is not None]
    if named:  # the last card: go out naming the one it hurts most
        chosen = victim(view, [d.target for d in named if d.target is not None])
        return next(d for d in named if d.target == chosen), rest
    me = view.viewer
    down = me is not None and view.seats[me].laid is not None
    threatened = hand_ending(view, others_only=True)
    if rest and holds_anti(view.hand, down=down, threatened=threatened):
        return None, rest
    return antis[0], rest


def takes_anti(view: PlayerView) -> bool:
    """Whether to take the Anti-phase card from the discard pile: only to go out with it
    this turn, naming someone (the phase laid down first if need be, every other card hit)."""
    top = view.discard_top
    me = view.viewer
    if top is None or not top.is_anti or me is None or not view.can_take():
        return False
    if not view.anti_targets(me):
        return False
    return goes_out_with_anti(view)


def goes_out_with_anti(view: PlayerView) -> bool:
    """Whether the viewer's hand, less any Anti-phase card, can be laid down and hit away
    this turn (so that the Anti-phase card is the last card)."""
    hand = [card for card in view.hand if not card.is_anti]
    table = table_groups(view)
    phases = target_phases(view)
    me = view.viewer
    if me is None:
        return False
    if view.seats[me].laid is not None:
        return len(best_hits(table, hand)) == len(hand)
    for _, phase in phases:
        groups = best_lay_down(phase, hand, view.rules.natural_min)
        if groups is None:
            continue
        rest = list(hand)
        for group in groups:
            for card in group.cards:
                rest.remove(card)
        if len(best_hits([*table, *groups], rest)) == len(rest):
            return True
    return False

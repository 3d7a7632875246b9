"""The greedy bot: a solid heuristic built on the exact solver.

It keeps the cards that bring its phase closest (the exact number of cards still
missing, from :func:`phase10.solver.missing`), takes a discard only when it brings
the phase closer or can be hit at once, lays its phase down as soon as it can with
the most cards, hits every card it can, aims Skips at the leader, and throws away
what it needs least: high cards, cards without partners, and not the cards the next
player has been collecting or could hit.

>>> import random
>>> from phase10.core import Game
>>> from phase10.bots import play_game
>>> game = Game(3, seed=2)
>>> play_game(game, [GreedyPlayer(random.Random(seat)) for seat in range(3)])
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections import Counter

from phase10.core import (
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    GiveWild,
    GoingOut,
    Hit,
    LayDown,
    Phase,
    PlayerView,
    Stage,
    TakeDiscard,
)
from phase10.solver import compile_phase, hand_counts, missing
from phase10.solver.tactics import best_hits, best_lay_down

from .knowledge import danger, known_held, leader_key, legal_list, next_player, target_phases

__all__ = ["GreedyPlayer", "partner_score"]


class GreedyPlayer:
    """Plays the heuristic above; ``rng`` breaks ties only."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView) -> Action:
        actions = legal_list(view)
        if len(actions) == 1:
            return actions[0]
        me = view.viewer
        assert me is not None
        if view.stage is Stage.GIVE_WILD:
            return GiveWild(me) if GiveWild(me) in actions else actions[0]
        if view.stage is Stage.DECLARE:
            return self.declare(view, actions)
        if view.stage is Stage.DRAW:
            return self.draw(view, actions)
        return self.play(view, actions)

    # -- decisions -------------------------------------------------------------------

    def declare(self, view: PlayerView, actions: list[Action]) -> Action:
        hand = hand_counts(view.hand)
        options = [a for a in actions if isinstance(a, Declare)]
        natural_min = view.rules.natural_min
        return min(
            options,
            key=lambda a: (missing(view.phase_of(a.phase - 1), hand, natural_min), -a.phase),
        )

    def draw(self, view: PlayerView, actions: list[Action]) -> Action:
        top = view.discard_top
        if TakeDiscard() in actions and top is not None and self.wants(view, top):
            return TakeDiscard()
        return Draw() if Draw() in actions else actions[0]

    def wants(self, view: PlayerView, top: Card) -> bool:
        """Whether the top discard is worth taking rather than a blind draw."""
        phases = target_phases(view)
        if not phases:
            return bool(best_hits([m.group for m in view.melds], [top]))
        if top.is_wild:
            return True
        hand = hand_counts(view.hand)
        natural_min = view.rules.natural_min
        now = min(missing(phase, hand, natural_min) for _, phase in phases)
        hand[top.index] += 1
        return min(missing(phase, hand, natural_min) for _, phase in phases) < now

    def play(self, view: PlayerView, actions: list[Action]) -> Action:
        floating = view.rules.going_out is GoingOut.DISCARD
        lay = self.lay_down(view, actions, keep_one=floating)
        if lay is not None:
            return lay
        if view.seats[view.viewer or 0].laid is not None and view.stage is Stage.PLAY:
            hit = self.hit(view, actions, keep_one=floating)
            if hit is not None:
                return hit
        discards = [a for a in actions if isinstance(a, Discard)]
        if discards:
            return self.discard(view, discards)
        return actions[0]

    def lay_down(self, view: PlayerView, actions: list[Action], keep_one: bool) -> Action | None:
        lays = [a for a in actions if isinstance(a, LayDown)]
        if not lays:
            return None
        best: tuple[tuple[int, ...], Action] | None = None
        for index, phase in target_phases(view):
            groups = best_lay_down(phase, view.hand, view.rules.natural_min)
            if groups is None:
                continue
            number = index + 1 if any(a.phase is not None for a in lays) else None
            action = LayDown(groups, number)
            if not view.is_legal(action):
                continue
            laid = sum(len(g.cards) for g in groups)
            key = (not (keep_one and laid == len(view.hand)), laid, index)
            if best is None or key > best[0]:
                best = (key, action)
        if best is not None and not (keep_one and best[0][0] is False and len(lays) > 1):
            return best[1]
        # Fall back on the engine's own list (e.g. to keep a card to discard).
        return max(
            lays,
            key=lambda a: (not (keep_one and len(a.cards) == len(view.hand)), len(a.cards)),
        )

    def hit(self, view: PlayerView, actions: list[Action], keep_one: bool) -> Action | None:
        hand = list(view.hand)
        if keep_one and len(hand) <= 1:
            return None
        plan = best_hits([m.group for m in view.melds], hand)
        if keep_one and len(plan) >= len(hand):
            plan = plan[: len(hand) - 1]
        for hit in plan:
            if view.is_legal(hit):
                return hit
        hits = [a for a in actions if isinstance(a, Hit)]
        return hits[0] if hits and not keep_one else None

    def discard(self, view: PlayerView, discards: list[Discard]) -> Action:
        skips = [d for d in discards if d.card.is_skip]
        if skips:
            return max(
                skips, key=lambda d: leader_key(view, d.target) if d.target is not None else (0,)
            )
        candidates = [d for d in discards if not d.card.is_wild] or discards
        wanted = _wanted_by_next(view)
        phases = target_phases(view)
        hand = hand_counts(view.hand)
        natural_min = view.rules.natural_min
        if len(phases) > 1:  # any order: aim at the phase the hand is closest to
            phases = [min(phases, key=lambda p: missing(p[1], hand, natural_min))]
        compiled = [compile_phase(phase, natural_min) for _, phase in phases]
        seen: dict[Card, tuple[int, int, int, int, float]] = {}
        for discard in candidates:
            card = discard.card
            if card in seen:
                continue
            hand[card.index] -= 1
            gap = min((missing(c, hand) for c in compiled), default=0)
            hand[card.index] += 1
            partners = partner_score(card, view.hand, [p for _, p in phases])
            seen[card] = (
                gap,
                partners,
                danger(view, card, wanted),
                -card.points,
                self.rng.random(),
            )
        return min(candidates, key=lambda d: seen[d.card])


def _wanted_by_next(view: PlayerView) -> list[Card]:
    after = next_player(view)
    if after is None:
        return []
    return list(known_held(view).get(after, Counter()).elements())


def partner_score(card: Card, hand: tuple[Card, ...] | list[Card], phases: list[Phase]) -> int:
    """How well ``card`` fits with the rest of the hand for these phases (higher: keep it)."""
    if card.number is None:
        return 0
    kinds = {spec.kind for phase in phases for spec in phase.groups}
    score = 0
    for other in hand:
        if other is card or other.number is None:
            continue
        if other.number == card.number and any(k.value == "set" for k in kinds):
            score += 2
        if any(k.is_run for k in kinds) and 0 < abs(other.number - card.number) <= 2:
            score += 2 if abs(other.number - card.number) == 1 else 1
        if any(k.needs_color for k in kinds) and other.color is card.color:
            score += 1
        if any(k.needs_parity for k in kinds) and other.number % 2 == card.number % 2:
            score += 1
    return score

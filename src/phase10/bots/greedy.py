"""The greedy bot: a solid heuristic built on the exact solver.

It keeps the cards that bring its phase closest (the exact number of cards still
missing, from :func:`phase10.solver.missing`), takes a discard only when it brings
the phase closer or can be hit at once, lays its phase down as soon as it can with
the most cards, hits every card it can, aims Skips at the leader, and throws away
what it needs least: high cards, cards without partners, and not the cards the next
player has been collecting or could hit. Where the rules have save piles it saves and
takes back saved cards as :mod:`phase10.bots.saving` says (unless made with
``saves=False``), and counts its saved cards when it declares a phase. The Anti-phase
card it plays as :mod:`phase10.bots.anti` says (unless made with ``anti=False``).

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
from collections.abc import Callable, Iterable, Sequence

from phase10.core import (
    DISTINCT_CARDS,
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    GiveUp,
    GiveWild,
    GoingOut,
    GroupKind,
    LayDown,
    NaturalMin,
    Phase,
    PlayerView,
    Save,
    Stage,
    TakeDiscard,
    TakeSaved,
)
from phase10.solver import compile_phase, hand_counts, missing
from phase10.solver.tactics import best_hits, best_lay_down

from .anti import anti_discard, takes_anti
from .bounded import bounded
from .knowledge import (
    danger,
    known_held,
    leader_key,
    legal_list,
    next_player,
    stalled,
    target_phases,
)
from .saving import give_up_wanted, save_pick, take_back_pick
from .simple import checked_rng

__all__ = ["GreedyPlayer", "partner_score"]


class GreedyPlayer:
    """Plays the heuristic above; ``rng`` breaks ties only. ``saves=False`` never saves a
    card nor takes one back (to measure what the save pile is worth); ``anti=False``
    plays the Anti-phase card like any other card, naming the first player it may (to
    measure what playing it well is worth).
    """

    #: decides at once (see phase10.bots.seats.answers_at_once)
    instant = True

    def __init__(self, rng: random.Random, *, saves: bool = True, anti: bool = True) -> None:
        self.rng = checked_rng(rng)
        self.saves = bool(saves)
        self.anti = bool(anti)

    @bounded
    def choose(self, view: PlayerView) -> Action:
        me = view.viewer
        if me is None or not view.is_my_turn:
            raise ValueError(f"player {me} has nothing to do: it is not their turn")
        if view.stage is Stage.GIVE_WILD:
            return _legal_or(view, GiveWild(me))
        if view.stage is Stage.DECLARE:
            return self.declare(view, legal_list(view))
        if view.stage is Stage.DRAW:
            return self.draw(view)
        return self.play(view)

    # -- decisions -------------------------------------------------------------------

    def declare(self, view: PlayerView, actions: list[Action]) -> Action:
        hand = hand_counts(view.hand)
        # saved cards count: each can be taken back instead of a draw
        kept = hand_counts([*view.hand, *view.saved]) if self.saves else hand
        options = [a for a in actions if isinstance(a, Declare)]
        natural_min = view.rules.natural_min

        def key(action: Declare) -> tuple[int, int, int]:
            phase = view.phase_of(action.phase - 1)
            return (
                missing(phase, kept, natural_min),
                missing(phase, hand, natural_min),
                -action.phase,
            )

        return min(options, key=key)

    def draw(self, view: PlayerView) -> Action:
        top = view.discard_top
        if self.anti and takes_anti(view):
            return _legal_or(view, TakeDiscard())
        take = view.can_take() and top is not None and self.wants(view, top)
        if self.saves:
            back = take_back_pick(view, self.gap_of(view), top_wanted=take)
            if back is not None:
                return _legal_or(view, TakeSaved(back))
        if take:
            return _legal_or(view, TakeDiscard())
        return _legal_or(view, Draw() if view.can_draw() else TakeDiscard())

    def gap_of(self, view: PlayerView) -> Callable[[list[Card]], int]:
        """How many cards a hand misses for the nearest phase the viewer may lay now."""
        phases = [phase for _, phase in target_phases(view)]
        natural_min = view.rules.natural_min

        def gap(cards: list[Card]) -> int:
            counts = hand_counts(cards)
            return min((missing(phase, counts, natural_min) for phase in phases), default=0)

        return gap

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
        if now == 0:
            return False
        hand[top.index] += 1
        # only "closer or not" matters: a search bounded at one card fewer is cheaper
        return any(missing(phase, hand, natural_min, limit=now - 1) < now for _, phase in phases)

    def play(self, view: PlayerView) -> Action:
        floating = view.rules.going_out is GoingOut.DISCARD
        if view.stage is Stage.PLAY:
            lay = self.lay_down(view, keep_one=floating)
            if lay is not None:
                return lay
            if view.seats[view.viewer or 0].laid is not None:
                hit = self.hit(view, keep_one=floating)
                if hit is not None:
                    return hit
                if give_up_wanted(view):
                    return GiveUp()
        discards = _legal_discards(view)
        if discards and stalled(view):
            return self.rng.choice(discards)
        if discards and self.anti:
            anti, discards = anti_discard(view, discards)
            if anti is not None:
                return anti
        if discards:
            return self.save_instead(view, self.discard(view, discards))
        return legal_list(view)[0]  # something only the engine's list knows of

    def save_instead(self, view: PlayerView, discard: Action) -> Action:
        """``discard``, or a save where :func:`phase10.bots.saving.save_pick` prefers one."""
        if not self.saves or not isinstance(discard, Discard):
            return discard
        me = view.viewer
        laid = me is not None and view.seats[me].laid is not None
        deny = danger(view, discard.card, _wanted_by_next(view)) >= 2
        card = save_pick(
            view, view.hand, discard.card, None if laid else self.gap_of(view), deny=deny
        )
        if card is None:
            return discard
        return _canonical(view, Save(card)) or discard

    def lay_down(self, view: PlayerView, keep_one: bool) -> Action | None:
        """The lay-down laying the most cards (keeping a card to discard when going out
        needs one), or None when the hand holds no phase it may lay.
        """
        best: tuple[tuple[int, ...], Action] | None = None
        for index, phase in target_phases(view):
            groups = best_lay_down(phase, view.hand, view.rules.natural_min)
            if groups is None:
                continue
            action = _canonical(view, LayDown(groups)) or _canonical(
                view, LayDown(groups, index + 1)
            )
            if action is None:
                continue
            laid = sum(len(g.cards) for g in groups)
            key = (not (keep_one and laid == len(view.hand)), laid, index)
            if best is None or key > best[0]:
                best = (key, action)
        if best is None:
            return None
        if keep_one and best[0][0] is False:
            # Every card would go down: lay the phase with fewer cards if the engine can.
            lays = [a for a in legal_list(view) if isinstance(a, LayDown)]
            return max(
                lays,
                key=lambda a: (len(a.cards) != len(view.hand), len(a.cards)),
            )
        return best[1]

    def hit(self, view: PlayerView, keep_one: bool) -> Action | None:
        hand = list(view.hand)
        if keep_one and len(hand) <= 1:
            return None
        plan = best_hits([m.group for m in view.melds], hand)
        if keep_one and len(plan) >= len(hand):
            plan = plan[: len(hand) - 1]
        for hit in plan:
            legal = _canonical(view, hit)
            if legal is not None:
                return legal
        return None

    def discard(self, view: PlayerView, discards: list[Discard]) -> Action:
        skips = [d for d in discards if d.card.is_skip]
        if skips:
            return max(
                skips, key=lambda d: leader_key(view, d.target) if d.target is not None else (0,)
            )
        candidates = [d for d in discards if not d.card.is_wild] or discards
        wanted = _wanted_by_next(view)
        phases = target_phases(view)
        natural_min = view.rules.natural_min
        if len(phases) > 1:  # any order: aim at the phase the hand is closest to
            hand = hand_counts(view.hand)
            phases = [min(phases, key=lambda p: missing(p[1], hand, natural_min))]
        ranks = discard_ranks(
            view.hand, [p for _, p in phases], natural_min, (d.card for d in candidates)
        )
        after = next_player(view)
        seen = {
            card: (
                gap,
                partners,
                danger(view, card, wanted, after=after),
                minus_points,
                self.rng.random(),
            )
            for card, (gap, partners, minus_points) in ranks.items()
        }
        return min(candidates, key=lambda d: seen[d.card])


def discard_ranks(
    hand: Sequence[Card], phases: Sequence[Phase], natural_min: NaturalMin, cards: Iterable[Card]
) -> dict[Card, tuple[int, int, int]]:
    """How good a discard each of ``cards`` is, lowest best: how many cards the nearest of
    ``phases`` would still miss without it, how many partners it has toward them, and its
    points (negated: the costlier card goes first). The greedy bot and the hints share it.
    """
    counts = hand_counts(hand)
    compiled = [compile_phase(phase, natural_min) for phase in phases]
    # Giving up one card leaves the phase as far as it is now or one card further:
    # searches bounded at the present distance tell which.
    now = min((missing(c, counts) for c in compiled), default=0)
    # Where only numbers matter, every colour of a number is given up alike.
    by_number = all(c.by_number for c in compiled)
    partners = _Partners(hand, phases)
    gaps: dict[int, int] = {}
    ranks: dict[Card, tuple[int, int, int]] = {}
    for card in dict.fromkeys(cards):
        if not (card.is_natural or card.is_wild):
            gap = now  # the phase never counts a Skip or the Anti-phase card
        else:
            key = card.number if by_number and card.number is not None else 100 + card.index
            known = gaps.get(key)
            if known is None:
                counts[card.index] -= 1
                known = min((missing(c, counts, limit=now) for c in compiled), default=0)
                counts[card.index] += 1
                gaps[key] = known
            gap = known
        # one card less leaves the phase at most one card further
        ranks[card] = (min(gap, now + 1), partners.score(card), -card.points)
    return ranks


def _legal_or(view: PlayerView, action: Action) -> Action:
    """``action`` as the engine writes it if legal here, else the first action it lists."""
    return _canonical(view, action) or legal_list(view)[0]


def _canonical(view: PlayerView, action: Action) -> Action | None:
    """The engine's own form of ``action`` (as its list of legal actions has it), or None."""
    try:
        return view.check(action)
    except ValueError:
        return None


def _legal_discards(view: PlayerView) -> list[Discard]:
    """The engine's form of a discard of each different card in hand (a Skip once per player
    it may skip, the Anti-phase card once per player it may name), in the order of the
    hand: what :func:`_discards` lists, less what the engine refuses. Plain cards are
    checked only where the rules may refuse them.
    """
    me = view.viewer
    assert me is not None
    plain = view.stage is Stage.WILD_DISCARD or (
        view.stage is Stage.PLAY and not view.seats[me].floating
    )
    out: dict[Discard, None] = {}
    for card in dict.fromkeys(view.hand):
        if plain and (card.is_natural or card.is_wild):
            out[Discard(card)] = None
            continue
        options = [Discard(card, target) for target in _targets(view, card)]
        options.append(Discard(card))
        for discard in options:
            legal = _canonical(view, discard)
            if isinstance(legal, Discard):
                out[legal] = None
    return list(out)


def _targets(view: PlayerView, card: Card) -> tuple[int, ...]:
    """Whom a discard of ``card`` may name: a Skip's players to skip, or the players the
    Anti-phase card may move down (as its last card); none for other cards."""
    me = view.viewer
    assert me is not None
    if card.is_skip:
        return view.skip_targets(me)
    if card.is_anti:
        return view.anti_targets(me)
    return ()


def _discards(view: PlayerView) -> list[Discard]:
    """A discard of each different card in hand (a Skip or the Anti-phase card once per
    player it may name)."""
    out: list[Discard] = []
    for card in dict.fromkeys(view.hand):
        out.extend(Discard(card, target) for target in _targets(view, card))
        out.append(Discard(card))
    return out


def _wanted_by_next(view: PlayerView) -> list[Card]:
    after = next_player(view)
    if after is None:
        return []
    return list(known_held(view).get(after, Counter()).elements())


class _Partners:
    """:func:`partner_score` for many cards of one hand, from counts made once."""

    def __init__(self, hand: Sequence[Card], phases: Sequence[Phase]) -> None:
        kinds = {spec.kind for phase in phases for spec in phase.groups}
        self.sets = GroupKind.SET in kinds
        self.runs = any(kind.is_run for kind in kinds)
        self.colors = any(kind.needs_color for kind in kinds)
        self.parities = any(kind.needs_parity for kind in kinds)
        self.copies = [0] * DISTINCT_CARDS
        self.numbers = [0] * 15  # by number, with room for 12 + 2
        self.by_color: dict[object, int] = {}
        self.by_parity = [0, 0]
        for card in hand:
            number = card.number
            if number is None:
                continue
            self.copies[card.index] += 1
            self.numbers[number] += 1
            self.by_color[card.color] = self.by_color.get(card.color, 0) + 1
            self.by_parity[number % 2] += 1

    def score(self, card: Card) -> int:
        number = card.number
        if number is None:
            return 0
        alike = self.copies[card.index]  # the card itself and its twin are no partners
        numbers = self.numbers
        score = 0
        if self.sets:
            score += 2 * (numbers[number] - alike)
        if self.runs:
            score += 2 * (numbers[number - 1] + numbers[number + 1])
            score += numbers[number + 2] + (numbers[number - 2] if number > 2 else 0)
        if self.colors:
            score += self.by_color.get(card.color, 0) - alike
        if self.parities:
            score += self.by_parity[number % 2] - alike
        return score


def partner_score(card: Card, hand: Sequence[Card], phases: Sequence[Phase]) -> int:
    """How well ``card`` fits with the rest of the hand for these phases (higher: keep it)."""
    number = card.number
    if number is None:
        return 0
    kinds = {spec.kind for phase in phases for spec in phase.groups}
    sets = GroupKind.SET in kinds
    runs = any(kind.is_run for kind in kinds)
    colors = any(kind.needs_color for kind in kinds)
    parities = any(kind.needs_parity for kind in kinds)
    score = 0
    for other in hand:
        other_number = other.number
        if other is card or other_number is None:
            continue
        gap = abs(other_number - number)
        if sets and gap == 0:
            score += 2
        if runs and 0 < gap <= 2:
            score += 2 if gap == 1 else 1
        if colors and other.color is card.color:
            score += 1
        if parities and gap % 2 == 0:
            score += 1
    return score

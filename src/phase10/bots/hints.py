"""Hints: what to do next and why, from one player's view (or from a hand on its own).

:func:`hint` answers for a player whose turn it is: whether to take the discard
or draw, then the plan for the rest of the turn (the lay-down that lays most, every
hit the table allows, the discard the hand needs least), each step with its reason,
and how far the hand is from its phase: the cards missing, the single cards that
would complete it (outs) and the chance of completing it within 1, 2 and 3 draws.
Where the rules have save piles, a hint may take a saved card back instead of drawing,
or save a card instead of the discard (as :mod:`phase10.bots.saving` judges). The
Anti-phase card is played as :mod:`phase10.bots.anti` judges: thrown away at once,
kept only to go out with soon, taken only to go out with it this turn, and named at
the player it hurts most.
:func:`plan_turn` gives the same advice for a bare hand, a phase and a table.

>>> from phase10.core import GroupKind, Phase, parse_cards, parse_group
>>> advice = plan_turn(Phase.parse("2 sets of 3"), parse_cards("R7 B7 G7 R3 B3 W Y9 G12 R4"),
...                    table=[parse_group(GroupKind.RUN, "G8 G9 G10 G11")])
>>> for step in advice.steps:
...     print(step)
lay down R3 B3 W + R7 B7 G7: lays 2 sets of 3 with 6 cards
hit G12 on the run 8-11: sheds 10 points onto G8 G9 G10 G11
discard Y9: it cannot be hit anywhere, and it is as costly to keep as any (5 points)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from phase10.core import (
    DECK_COUNTS,
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    GiveUp,
    GiveWild,
    Group,
    Hit,
    LayDown,
    NaturalMin,
    Phase,
    PlayerView,
    Save,
    Stage,
    TakeDiscard,
    TakeSaved,
)
from phase10.core.budget import step_budget
from phase10.core.cards import card_list
from phase10.core.errors import SearchLimitError
from phase10.core.labels import action_text, card_words, group_text, plural, view_action_text
from phase10.solver import missing
from phase10.solver.tactics import (
    ODDS_CHECKS,
    best_hits,
    best_lay_down,
    check_groups,
    check_hand_size,
    completion_odds,
    outs,
    unseen_counts,
)

from .anti import holds_anti, victim, victim_key
from .bounded import BOT_STEPS, plain_move
from .greedy import GreedyPlayer, discard_ranks
from .knowledge import drawable_counts, known_held, leader_key, skip_key, target_phases
from .saving import future_phases, give_up_wanted, hand_ending, save_pick

__all__ = ["Advice", "Hint", "hint", "plan_turn"]

ODDS_DRAWS = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class Advice:
    """One recommended action, in words, and the reason for it."""

    action: Action
    reason: str
    #: the action in words (phase10.core.labels.action_text); empty: its engine notation
    text: str = ""

    def __str__(self) -> str:
        return f"{self.text or self.action}: {self.reason}"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of the hand the step plays (none for a draw, a take or a give-up)."""
        match self.action:
            case LayDown():
                return self.action.cards
            case Hit(card=card) | Discard(card=card) | Save(card=card):
                return (card,)
        return ()


@dataclass(frozen=True, slots=True)
class Hint:
    """The advice for the rest of a turn, and how far the hand is from its phase."""

    steps: tuple[Advice, ...]
    #: the phase aimed at (None once the phase is down)
    phase: Phase | None = None
    #: cards still missing for it (0: it can be laid now)
    missing: int | None = None
    #: single cards that would complete it, with how many are unseen
    outs: tuple[tuple[Card, int], ...] = ()
    #: the chance of holding it within 1, 2, 3 draws (keeping every card drawn)
    odds: tuple[float, ...] = field(default=())
    #: whether every chance in ``odds`` is exact (False: some are estimates, from
    #: sampled draws, where counting every draw would take too long)
    odds_exact: bool = True
    #: whether ``missing``, ``outs`` and ``odds`` are counted on the hand the steps leave
    #: (a card taken, the turn's discard made) rather than on the hand held now
    after_steps: bool = False

    def __str__(self) -> str:
        lines = [str(step) for step in self.steps]
        if self.phase is not None and self.missing is not None:
            lines.append(f"{self.phase}{self._distance()}")
            if self.outs:
                cards = ", ".join(f"{card} ({n})" for card, n in self.outs)
                # the count says how many of that card are still unseen
                lines.append(f"outs (copies left): {cards}")
            if self.odds and self.missing:
                parts = ", ".join(
                    f"{_chance(p)} within {plural(n, 'draw')}"
                    for n, p in zip(ODDS_DRAWS, self.odds, strict=False)
                )
                about = "" if self.odds_exact else " (estimated)"
                lines.append(f"chance to hold it by drawing alone{about}: {parts}")
        return "\n".join(lines)

    def _distance(self) -> str:
        # (when, said: the hand held now may be further from the phase or closer)
        if not self.missing:
            if not self.after_steps:
                return ": ready to lay down"
            ends = any(isinstance(step.action, Discard | Save) for step in self.steps)
            return ": ready to lay down " + ("next turn" if ends else "after this move")
        away = f": {plural(self.missing, 'card')} away"
        return " after this turn" + away if self.after_steps else away

    def to_dict(self) -> dict[str, object]:
        return {
            "steps": [
                {
                    "action": str(s.action),
                    "text": s.text or str(s.action),
                    "reason": s.reason,
                    "cards": [str(card) for card in s.cards],
                }
                for s in self.steps
            ],
            "phase": str(self.phase) if self.phase is not None else None,
            "missing": self.missing,
            "outs": [{"card": str(card), "unseen": n} for card, n in self.outs],
            "odds": [
                {"draws": n, "probability": p} for n, p in zip(ODDS_DRAWS, self.odds, strict=False)
            ],
            "odds_exact": self.odds_exact,
            "after_steps": self.after_steps,
        }


def plan_turn(
    phase: Phase | None,
    hand: Sequence[Card],
    table: Sequence[Group] = (),
    natural_min: NaturalMin = NaturalMin.GROUP,
    *,
    seen: Sequence[Card] = (),
    floating: bool = False,
    owners: Sequence[str] | None = None,
    deck: Mapping[Card, int] = DECK_COUNTS,
    threatened: bool = False,
) -> Hint:
    """Advice for a hand that has drawn: lay ``phase`` down if it can (None: it is down
    already), hit the ``table`` groups, and discard. ``seen`` are other cards in sight
    (the discard pile), left out of the unseen cards for the odds. A ``floating`` player
    (the floating variant) must hit every card that fits, even the last one.
    ``owners`` names whose each table group is in the advice's words (``Ann's``, ``your``;
    default ``the``: ``hit G12 on the run 8-11``). ``deck`` is the copies of each card the
    deck holds (``Rules.deck_counts``; default the standard deck), for the odds.
    ``threatened``: another player may go out before this one's next turn (an Anti-phase
    card is then never kept to go out with later).
    """
    hand = card_list(hand)
    check_hand_size(hand)
    groups = list(check_groups(table))
    whose = list(owners) if owners is not None else ["the"] * len(groups)
    if len(whose) != len(groups):
        raise ValueError(f"name the owner of each of the {len(groups)} table groups")
    steps: list[Advice] = []
    if phase is not None:
        lay = best_lay_down(phase, hand, natural_min)
        if lay is not None:
            laid = sum(len(g.cards) for g in lay)
            action = LayDown(lay)
            steps.append(Advice(action, f"lays {phase} with {laid} cards", action_text(action)))
            for group in lay:
                for card in group.cards:
                    hand.remove(card)
            groups.extend(lay)
            whose.extend(["your"] * len(lay))
            phase_left = None
        else:
            phase_left = phase
    else:
        phase_left = None
    if phase_left is None:
        for hit in best_hits(groups, hand):
            if len(hand) == 1 and not floating:
                break  # keep a card to discard
            titles = [
                f"{owner} {group_text(group)}" for owner, group in zip(whose, groups, strict=True)
            ]
            reason = f"sheds {_points(hit.card)} onto {groups[hit.group].describe()}"
            steps.append(Advice(hit, reason, action_text(hit, groups=titles)))
            hand.remove(hit.card)
            groups[hit.group] = groups[hit.group].hit(hit.card, hit.number)
    unseen = unseen_counts(
        hand + [card for group in groups for card in group.cards] + list(seen), deck=deck
    )
    if hand:
        advice = _discard_advice(phase_left, hand, groups, natural_min, threatened)
        steps.append(advice)
        assert isinstance(advice.action, Discard)
        hand.remove(advice.action.card)  # measured on the hand left once it is discarded
    return _with_distance(
        Hint(tuple(steps)), phase_left, hand, natural_min, unseen, after_steps=bool(steps)
    )


def _chance(probability: float) -> str:
    """A whole percentage, but never 0% or 100% for a chance that is neither.

    >>> _chance(0.2049), _chance(0.0014), _chance(0.0), _chance(0.998), _chance(1.0)
    ('20%', '<1%', '0%', '>99%', '100%')
    """
    if 0 < probability < 0.005:
        return "<1%"
    if 0.995 <= probability < 1:
        return ">99%"
    return f"{probability:.0%}"


def _points(card: Card) -> str:
    return f"{card.points} points"


def _discard_advice(
    phase: Phase | None,
    hand: list[Card],
    groups: Sequence[Group],
    natural_min: NaturalMin,
    threatened: bool = False,
) -> Advice:
    anti = _anti_advice(phase, hand, threatened)
    if anti is not None:
        return anti
    skips = [card for card in hand if card.is_skip]
    if skips:
        action = Discard(skips[0])
        return Advice(action, "a Skip is no use in hand (15 points)", action_text(action))
    candidates = [card for card in hand if not card.is_wild] or hand
    phases = [phase] if phase is not None else []
    ranks = discard_ranks(hand, phases, natural_min, candidates)
    card = min(ranks, key=ranks.__getitem__)
    gap = ranks[card][0]
    if phase is None:
        fits = best_hits(groups, [card])
        if fits:
            reason = (
                f"it could be hit onto {groups[fits[0].group].describe()}, but it is kept "
                "back to discard: discarding the last card goes out"
            )
        else:
            # (among cards of equal points, "the costliest" would single out one of many)
            level = sum(other.points == card.points for other in candidates) > 1
            costliest = "as costly to keep as any" if level else "the costliest to keep"
            reason = f"it cannot be hit anywhere, and it is {costliest} ({_points(card)})"
            if not card.is_wild and any(other.is_wild for other in hand):
                reason += " but for the Wild, kept since a Wild fits almost any group"
    elif card.is_wild:
        reason = f"every card in hand is a Wild, and one must go ({_points(card)})"
    else:
        now = missing(phase, hand, natural_min)
        closeness = "no further" if gap == now else f"{plural(gap - now, 'card')} further"
        reason = (
            f"without it the phase is {closeness} from done, it pairs with little ({_points(card)})"
        )
    action = Discard(card)
    return Advice(action, reason, action_text(action))


def _anti_advice(phase: Phase | None, hand: list[Card], threatened: bool) -> Advice | None:
    """The discard a hand holding the Anti-phase card makes (None: it holds none): the
    card itself, unless it keeps it to go out with (:func:`phase10.bots.anti.holds_anti`;
    ``phase`` None: the phase is down)."""
    anti = next((card for card in hand if card.is_anti), None)
    if anti is None:
        return None
    others = [card for card in hand if not card.is_anti]
    if not others:
        action = Discard(anti)
        reason = "it is your last card: go out with it, and the player you name moves down a phase"
    elif holds_anti(hand, down=phase is None, threatened=threatened):
        action = Discard(others[0])
        reason = (
            "the Anti-phase card stays, to go out with once a card you draw can be hit "
            "(the player you name then moves down a phase)"
        )
    else:
        action = Discard(anti)
        reason = (
            "it never helps a phase nor hits; still in your hand when the hand ends, it "
            "moves you down a phase"
        )
    return Advice(action, reason, action_text(action))


def _skip_reason(view: PlayerView, seat: int, targets: Sequence[int], down: bool) -> str:
    """Why the Skip goes to ``seat``, whom it hurts most among ``targets`` (by
    :func:`~phase10.bots.knowledge.skip_key`): who could end the hand before the player
    lays down, or who could still make a phase once the player is down (``down``: by the
    Skip's discard), then who is closest to winning, with what sets them ahead of the
    next."""
    info = view.seats[seat]
    skipped = f"{info.name} misses their next turn"
    if len(targets) == 1:
        return skipped
    key = skip_key(view, seat, down=down)
    others = [skip_key(view, other, down=down) for other in targets if other != seat]
    if all(other == key for other in others):
        return f"everyone is level, so any of them will do ({skipped})"
    threat = key[:-4]  # (the last four are leader_key's; a first 1 is a threat this hand)
    if all(other[:-4] < threat for other in others):
        if info.laid is not None:
            cards = plural(info.hand_size, "card")
            return f"{info.name} is down with {cards} and could go out before you lay down"
        return f"{info.name} is not down yet and could still make their phase this hand"
    peers = [
        leader_key(view, o)
        for o in targets
        if o != seat and skip_key(view, o, down=down)[:-4] == threat
    ]
    reason = _leader_reason(view, seat, peers)
    if not threat[0]:
        return reason
    if info.laid is not None:
        return (
            f"{reason}, of those down with the fewest cards, who could go out before you lay down"
        )
    return f"{reason}, of those not down yet, who could still make their phase this hand"


def _leader_reason(view: PlayerView, seat: int, peers: Sequence[tuple[int, ...]]) -> str:
    """Why ``seat`` is the closest to winning of those whose ``leader_key`` are ``peers``."""
    info = view.seats[seat]
    key = leader_key(view, seat)
    runner_up = max(peers)
    # (phases done, as leader_key counts them: under any-order rules the phase a player is
    # "on" is only their lowest not yet made)
    done = f"{plural(key[0], 'phase')} done" if key[0] else "no phase done"
    if info.laid is not None:
        done += ", laid this hand" if key[0] == 1 else ", counting the one laid this hand"
    if runner_up == key:
        return f"{info.name} is one of the closest to winning ({done})"
    ahead = next(i for i, (a, b) in enumerate(zip(key, runner_up, strict=True)) if a != b)
    why = [
        done,
        "down this hand",
        f"the fewest cards: {info.hand_size}",
        f"the lowest score: {info.score}",
    ][ahead]
    return f"{info.name} is the closest to winning ({why})"


def _victim_reason(view: PlayerView, seat: int, targets: Sequence[int]) -> str:
    """Why the Anti-phase card names ``seat`` among ``targets`` (see
    :func:`phase10.bots.anti.victim_key`)."""
    info = view.seats[seat]
    has_phase, done, _ = victim_key(view, seat)
    if not has_phase:
        return "nobody has a phase to lose, so naming costs no one anything"
    this_hand = ", one of them laid down this hand" if info.laid is not None else ""
    tied = sum(1 for other in targets if victim_key(view, other)[1] == done) > 1
    score = f" and the lowest score of those ({info.score})" if tied else ""
    return f"{info.name} has the most phases completed ({done}{this_hand}){score}"


def _out_of_reach(view: PlayerView) -> list[Card]:
    """The cards outside the hand and the table that the player may not draw: the discard
    pile, the save piles in sight, and the cards others are known to hold."""
    me = view.viewer
    public = [c for at, s in enumerate(view.seats) if at != me and s.saved for c in s.saved]
    known = [card for cards in known_held(view).values() for card in cards.elements()]
    return [*view.discard_pile, *view.saved, *public, *known]


def _with_distance(
    hint: Hint,
    phase: Phase | None,
    hand: list[Card],
    natural_min: NaturalMin,
    unseen: list[int],
    *,
    after_steps: bool = False,
) -> Hint:
    if phase is None:
        return hint
    gap = missing(phase, hand, natural_min)
    # bounded: a hint answers at once, even for phases whose odds are slow to count exactly
    chances = [
        completion_odds(phase, hand, unseen, draws, natural_min, max_checks=ODDS_CHECKS)
        for draws in ODDS_DRAWS
    ]
    return replace(
        hint,
        phase=phase,
        missing=gap,
        outs=tuple(outs(phase, hand, unseen, natural_min)),
        odds=tuple(chance for chance, _ in chances),
        odds_exact=all(exact for _, exact in chances),
        after_steps=after_steps,
    )


def hint(view: PlayerView) -> Hint:
    """Advice for the player whose turn it is, from their view alone.

    Raises :class:`ValueError` when it is not the viewer's turn. The searches behind it
    share a bot decision's budget (:data:`~phase10.bots.bounded.BOT_STEPS`); under house
    phases that need more, the hint is a plain move (:func:`~phase10.bots.bounded.plain_move`)
    and says so.
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"a hint is for a player's view (game.view(seat)), not {view!r:.60}")
    if not view.is_my_turn:
        raise ValueError("a hint is for the player whose turn it is")
    try:
        with step_budget(BOT_STEPS):
            return _hint(view)
    except SearchLimitError:
        pass  # (the plain move is found outside the spent budget)
    action = plain_move(view)
    reason = "these phases take too long to weigh every way: a plain move, not a searched one"
    return Hint((Advice(action, reason, view_action_text(view, action)),))


def _hint(view: PlayerView) -> Hint:
    me = view.viewer
    assert me is not None
    player = GreedyPlayer(random.Random(0))
    natural_min = view.rules.natural_min
    phases = target_phases(view)
    hand = list(view.hand)
    aim = _aim(view)
    unseen = drawable_counts(view)  # (outs and odds: a card another player holds is no out)
    if view.stage is Stage.GIVE_WILD:
        keep = GiveWild(me)
        step = Advice(keep, "a Wild is the best card in the game", view_action_text(view, keep))
        return Hint((step,))
    if view.stage is Stage.DECLARE:
        action = player.choose(view)
        assert isinstance(action, Declare)
        chosen = view.phase_of(action.phase - 1)
        gap = missing(chosen, hand, natural_min)
        step = Advice(
            action,
            f"{chosen} is the closest ({plural(gap, 'card')} away)",
            view_action_text(view, action),
        )
        return _with_distance(Hint((step,)), chosen, hand, natural_min, unseen)
    if view.stage is Stage.DRAW:
        action = player.choose(view)
        top = view.discard_top
        if isinstance(action, TakeSaved):
            before = missing(aim, hand, natural_min) if aim is not None else 0
            after = missing(aim, [*hand, action.card], natural_min) if aim is not None else 0
            step = Advice(
                action,
                f"{action.card} from your save pile brings {aim} from "
                f"{plural(before, 'card')} away to {after}, for sure",
                view_action_text(view, action),
            )
            kept = _hand_taking(view, aim, action.card)
            return _with_distance(Hint((step,)), aim, kept, natural_min, unseen, after_steps=True)
        if isinstance(action, TakeDiscard) and top is not None and top.is_anti:
            targets = view.anti_targets(me)
            if view.can_draw() and targets:
                named = view.seats[victim(view, targets)].name
                reason = (
                    "you can go out with the Anti-phase card this turn, every other card "
                    f"laid down or hit, and name {named} to move down a phase"
                )
            else:
                reason = "the draw pile is empty: the top discard is the only card to take"
        elif isinstance(action, TakeDiscard) and top is not None:
            if aim is None:
                reason = f"{top} can be hit at once"
            elif top.is_wild:
                reason = "a Wild fits any group"
            else:
                before = missing(aim, hand, natural_min)
                after = missing(aim, [*hand, top], natural_min)
                reason = f"{top} brings {aim} from {plural(before, 'card')} away to {after}"
        elif top is not None and top.is_anti:
            reason = (
                "the Anti-phase card is worth taking only to go out with it this turn; "
                "still in your hand when the hand ends, it moves you down a phase"
            )
        elif top is not None and not any(
            isinstance(legal, TakeDiscard) for legal in view.legal_actions
        ):
            reason = f"{card_words(top)} cannot be taken from the discard pile"
        else:
            named = card_words(top) if top is not None else "the discard pile"
            shown = f"the {top}" if top is not None and named == str(top) else named
            reason = f"{shown} does not help"
            action = Draw() if isinstance(action, Draw) else action
        taken = isinstance(action, TakeDiscard) and top is not None and not top.is_anti
        if taken:
            assert top is not None
            hand = _hand_taking(view, aim, top)
        step = Advice(action, reason, view_action_text(view, action))
        return _with_distance(Hint((step,)), aim, hand, natural_min, unseen, after_steps=taken)
    # PLAY (or the Wild's discard): lay down, hit, then discard.
    laid_down = view.seats[me].laid is not None
    plan = plan_turn(
        None if laid_down else aim,
        hand,
        [meld.group for meld in view.melds],
        natural_min,
        seen=_out_of_reach(view),
        floating=view.seats[me].floating,
        owners=[
            "your" if meld.owner == me else f"{view.seats[meld.owner].name}'s"
            for meld in view.melds
        ],
        deck=view.rules.deck_counts,
        threatened=hand_ending(view, others_only=True),
    )
    steps = list(plan.steps)
    if phases and len(phases) > 1 and steps and isinstance(steps[0].action, LayDown):
        index = next(i for i, p in phases if p == aim)
        lay = LayDown(steps[0].action.groups, index + 1)
        steps[0] = replace(steps[0], action=lay, text=action_text(lay))
    if steps and isinstance(steps[-1].action, Discard) and steps[-1].action.card.is_skip:
        targets = view.skip_targets(me)
        if targets:
            # (down by the discard, where the plan lays the phase first)
            down = view.seats[me].laid is not None or any(
                isinstance(step.action, LayDown) for step in steps
            )
            target = max(targets, key=lambda seat: skip_key(view, seat, down=down))
            skip = Discard(steps[-1].action.card, target)
            steps[-1] = Advice(
                skip, _skip_reason(view, target, targets, down), view_action_text(view, skip)
            )
    if steps and isinstance(steps[-1].action, Discard) and steps[-1].action.card.is_anti:
        targets = view.anti_targets(me)
        if targets and _hand_after(view.hand, steps[:-1]) == [steps[-1].action.card]:
            target = victim(view, targets)
            out = Discard(steps[-1].action.card, target)
            steps[-1] = Advice(
                out,
                _victim_reason(view, target, targets),
                view_action_text(view, out),
            )
    last = steps[-1] if steps else None
    if (
        last is not None
        and isinstance(last.action, Discard)
        and not last.action.card.is_anti
        and _hand_after(view.hand, steps[:-1]) == [last.action.card]
    ):
        ends = "it is your last card, and discarding it goes out and ends the hand"
        told = f"{ends} ({last.reason})" if last.action.target is not None else ends
        steps[-1] = replace(last, reason=told)
    if view.stage is Stage.WILD_DISCARD:
        steps = [step for step in steps if isinstance(step.action, Discard)]
    elif steps and isinstance(steps[-1].action, Discard):
        steps[-1] = _save_advice(view, steps, aim if not laid_down else None) or steps[-1]
    if laid_down and steps and give_up_wanted(view):
        # (the hits first: what is hit stays on the table; then the phase is given up)
        left = len(future_phases(view))
        give_up = Advice(
            GiveUp(),
            "a phase given up still counts as completed under these rules: ten fresh cards "
            f"are a chance at a second phase this hand ({plural(left, 'phase')} still to make)",
            view_action_text(view, GiveUp()),
        )
        steps.insert(len(steps) - 1, give_up)
    return replace(plan, steps=tuple(steps))


def _hand_taking(view: PlayerView, aim: Phase | None, card: Card) -> list[Card]:
    """The hand once ``card`` is taken and, unless the phase ``aim`` can then be laid
    down, the turn's discard made (the next draw comes after it): how far the phase is."""
    hand = [*view.hand, card]
    if aim is not None and best_lay_down(aim, hand, view.rules.natural_min) is None:
        table = [meld.group for meld in view.melds]
        dropped = _discard_advice(aim, hand, table, view.rules.natural_min).action
        assert isinstance(dropped, Discard)
        hand.remove(dropped.card)
    return hand


def _aim(view: PlayerView) -> Phase | None:
    """The phase the hint aims at: of those the player may lay, the closest (None once down)."""
    phases = target_phases(view)
    if not phases:
        return None
    hand, natural_min = list(view.hand), view.rules.natural_min
    return min(phases, key=lambda p: (missing(p[1], hand, natural_min), -p[0]))[1]


def replanned(view: PlayerView, advice: Hint, steps: Sequence[Advice]) -> Hint:
    """``advice`` (:func:`hint`'s for ``view``) with ``steps`` for its plan (a searched
    one, say), how far the phase is measured again on the hand those steps leave, as
    :func:`hint` measures its own: after a take, with the card and the turn's discard
    made; after a lay-down, none (the phase is down); else after the hits and the discard.

    >>> from phase10.core import Draw, Game
    >>> view = Game(2, seed=0).view(0)
    >>> print(hint(view))  # doctest: +ELLIPSIS
    take G11 from the discard pile: G11 brings 2 sets of 3 from 1 card away to 0
    2 sets of 3: ready to lay down after this move
    >>> drawn = replanned(view, hint(view), [Advice(Draw(), "it is said why", "draw")])
    >>> print(drawn)  # doctest: +ELLIPSIS
    draw: it is said why
    2 sets of 3: 1 card away
    ...
    """
    if [step.action for step in steps] == [step.action for step in advice.steps]:
        return replace(advice, steps=tuple(steps))
    me = view.viewer
    assert me is not None
    natural_min = view.rules.natural_min
    laid = view.seats[me].laid is not None or any(isinstance(s.action, LayDown) for s in steps)
    aim = None if laid else _aim(view)
    hand = list(view.hand)
    first = steps[0].action if steps else None
    top = view.discard_top
    moved = True
    if isinstance(first, TakeSaved):
        hand = _hand_taking(view, aim, first.card)
    elif isinstance(first, TakeDiscard) and top is not None and not top.is_anti:
        hand = _hand_taking(view, aim, top)
    elif view.stage in (Stage.PLAY, Stage.WILD_DISCARD):
        hand = _hand_after(hand, steps)
        last = steps[-1].action if steps else None
        if isinstance(last, Discard) and last.card in hand:
            hand.remove(last.card)
    else:
        moved = False
    plain = replace(advice, steps=tuple(steps), phase=None, missing=None, outs=(), odds=())
    return _with_distance(plain, aim, hand, natural_min, drawable_counts(view), after_steps=moved)


def _save_advice(view: PlayerView, steps: list[Advice], aim: Phase | None) -> Advice | None:
    """A save instead of the plan's last step (a discard), where one is better."""
    planned = steps[-1].action
    assert isinstance(planned, Discard)
    hand = _hand_after(view.hand, steps[:-1])
    natural_min = view.rules.natural_min
    laid = aim is None or any(isinstance(step.action, LayDown) for step in steps)

    def gap(cards: list[Card]) -> int:
        assert aim is not None
        return missing(aim, cards, natural_min)

    card = save_pick(view, hand, planned.card, None if laid else gap)
    if card is None:
        return None
    action = Save(card)
    if card.is_wild:
        reason = "a Wild is kept on your save pile for a later turn or hand, not thrown away"
    elif card != planned.card:
        reason = f"{card} builds on your save pile for a phase still to come"
    elif hand_ending(view):
        reason = (
            f"the hand is nearly over: a saved card scores no points ({_points(card)}) "
            "and nobody else gets it"
        )
    else:
        reason = "it would help the next player: saved, it stays yours"
    return Advice(action, reason, view_action_text(view, action))


def _hand_after(hand: Sequence[Card], steps: Sequence[Advice]) -> list[Card]:
    """``hand`` once the lay-down and hits among ``steps`` are made."""
    left = list(hand)
    for step in steps:
        match step.action:
            case LayDown(groups=groups):
                for group in groups:
                    for laid_card in group.cards:
                        left.remove(laid_card)
            case Hit(card=hit_card):
                left.remove(hit_card)
    return left

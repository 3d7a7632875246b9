"""The kernel's plain values and the engine's objects, both ways.

The kernel speaks in tuples of small ints (cards by :attr:`~phase10.core.Card.index`):

- an action: ``(0,)`` draw, ``(1,)`` take the discard, ``(2, card, target)`` discard (target
  -1: nobody), ``(3, card, group, number)`` hit (number 0: none), ``(4, groups)`` lay down,
  each group ``(kind, cards)`` (a group of Wilds alone: ``(kind, cards, value)``) in the
  order :class:`~phase10.core.LayDown` holds them
  (``(4, groups, phase)`` where the lay-down names its phase),
  ``(5, player)`` give the turned-up Wild, ``(8, phase)`` declare a phase,
  ``(6, card)`` save a card, ``(7, card)`` take a saved card back, ``(9,)`` give up the
  phase laid down;
- a state: what :func:`state_of` gives, field for field what the kernel's ``dump()`` gives.

Group kinds are numbered as their names sort (colour 0, run 1, set 2), which is how the
engine orders a phase's slots.

>>> from phase10.core import Game, Draw
>>> action_key(Draw()), to_action((2, 49, 1))
((0,), Discard(card=Card.parse('S'), target=1))
>>> game = Game(2, seed=4)
>>> state = state_of(game)
>>> state[:4], len(state[8]), len(state[12])
((1, 0, 1, 0), 87, 625)
"""

from __future__ import annotations

import operator
import random
from typing import Any, TypeAlias

from phase10.bots.knowledge import known_held
from phase10.core import (
    COLORS,
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    Game,
    GameState,
    GiveUp,
    GiveWild,
    Group,
    GroupKind,
    Hit,
    LayDown,
    Meld,
    Parity,
    PlayerView,
    Save,
    SavePile,
    Stage,
    TakeDiscard,
    TakeSaved,
)
from phase10.core.events import (
    CardHit,
    Dealt,
    Declared,
    Discarded,
    Drew,
    Event,
    Floating,
    GameEnded,
    GaveUp,
    HandEnded,
    HandStarted,
    LaidDown,
    MovedDown,
    Refilled,
    Reshuffled,
    Saved,
    Skipped,
    TieBreakStarted,
    TookDiscard,
    TookSaved,
    WentOut,
    WildGiven,
)
from phase10.core.state import Seat
from phase10.solver.tactics import view_unseen_counts

__all__ = [
    "GAME_REASONS",
    "HAND_REASONS",
    "KINDS",
    "STAGES",
    "ActionKey",
    "EventKey",
    "StateKey",
    "action_key",
    "apply_state",
    "event_key",
    "game_from_view",
    "lay_down_order",
    "state_from_view",
    "state_of",
    "to_action",
]

#: An action as the kernel gives and takes it.
ActionKey: TypeAlias = tuple[Any, ...]
#: A state as the kernel's ``dump()`` gives it and ``load()`` takes it.
StateKey: TypeAlias = tuple[Any, ...]
#: An event as the kernel gives it (see :func:`event_key`).
EventKey: TypeAlias = tuple[Any, ...]

#: The group kinds the kernel plays, by their numbers.
KINDS: tuple[GroupKind, ...] = (
    GroupKind.COLOR,
    GroupKind.COLOR_EVEN_ODD,
    GroupKind.COLOR_RUN,
    GroupKind.EVEN_ODD,
    GroupKind.RUN,
    GroupKind.SET,
)
_KIND_CODE = {kind: code for code, kind in enumerate(KINDS)}
#: The stages the kernel plays, by their numbers.
STAGES: tuple[Stage, ...] = (
    Stage.DRAW,
    Stage.PLAY,
    Stage.GAME_OVER,
    Stage.GIVE_WILD,
    Stage.WILD_DISCARD,
    Stage.DECLARE,
)
_STAGE_CODE = {stage: code for code, stage in enumerate(STAGES)}


_INDEX = operator.attrgetter("index")


def _cards(cards: tuple[Card, ...] | list[Card]) -> tuple[int, ...]:
    return tuple(map(_INDEX, cards))


_PARITIES = (Parity.EVEN, Parity.ODD)


def _group_key(group: Group) -> tuple[Any, ...]:
    """``(kind, cards)``; a group of Wilds alone adds its declared value: a set's number, a
    run's lowest number, a colour's index in :data:`~phase10.core.COLORS`, a parity (0 even,
    1 odd), a colour run's ``low * 4 + colour``, a colour even/odd group's
    ``colour * 2 + parity``."""
    kind, cards = _KIND_CODE[group.kind], _cards(group.cards)
    if group.natural_count:
        return (kind, cards)
    color = COLORS.index(group.color) if group.color is not None else 0
    parity = _PARITIES.index(group.parity) if group.parity is not None else 0
    match group.kind:
        case GroupKind.SET:
            value = group.number or 0
        case GroupKind.RUN:
            value = group.low or 0
        case GroupKind.COLOR:
            value = color
        case GroupKind.EVEN_ODD:
            value = parity
        case GroupKind.COLOR_RUN:
            value = (group.low or 0) * 4 + color
        case _:
            value = color * 2 + parity
    return (kind, cards, value)


def _group(key: tuple[Any, ...]) -> Group:
    kind, cards = KINDS[key[0]], [Card.from_index(c) for c in key[1]]
    if len(key) == 2:
        return Group.make(kind, cards)
    value = key[2]
    match kind:
        case GroupKind.SET:
            return Group.make(kind, cards, number=value)
        case GroupKind.RUN:
            return Group.make(kind, cards, low=value)
        case GroupKind.COLOR:
            return Group.make(kind, cards, color=COLORS[value])
        case GroupKind.EVEN_ODD:
            return Group.make(kind, cards, parity=_PARITIES[value])
        case GroupKind.COLOR_RUN:
            return Group.make(kind, cards, low=value // 4, color=COLORS[value % 4])
    return Group.make(kind, cards, color=COLORS[value // 2], parity=_PARITIES[value % 2])


def action_key(action: Action) -> ActionKey:
    """The kernel's tuple for an engine action (one the kernel plays)."""
    match action:
        case Draw():
            return (0,)
        case TakeDiscard():
            return (1,)
        case Discard():
            return (2, action.card.index, -1 if action.target is None else action.target)
        case Hit():
            return (3, action.card.index, action.group, action.number or 0)
        case LayDown():
            groups = tuple(_group_key(group) for group in action.groups)
            return (4, groups) if action.phase is None else (4, groups, action.phase)
        case GiveWild():
            return (5, action.player)
        case Declare():
            return (8, action.phase)
        case Save():
            return (6, action.card.index)
        case TakeSaved():
            return (7, action.card.index)
        case GiveUp():
            return (9,)
    raise ValueError(f"the kernel does not play {action!r}")


def to_action(key: ActionKey) -> Action:
    """The engine action for a kernel tuple."""
    match key:
        case (0,):
            return Draw()
        case (1,):
            return TakeDiscard()
        case (9,):
            return GiveUp()
        case (2, int(card), int(target)):
            return Discard(Card.from_index(card), None if target < 0 else target)
        case (3, int(card), int(group), int(number)):
            return Hit(Card.from_index(card), group, number or None)
        case (4, tuple(groups)) | (4, tuple(groups), int()):
            made = tuple(_group(group) for group in groups)
            return LayDown(made, key[2] if len(key) == 3 else None)
        case (5, int(player)):
            return GiveWild(player)
        case (8, int(phase)):
            return Declare(phase)
        case (6, int(card)):
            return Save(Card.from_index(card))
        case (7, int(card)):
            return TakeSaved(Card.from_index(card))
    raise ValueError(f"not a kernel action: {key!r}")


def lay_down_order(
    key: ActionKey,
) -> tuple[int, tuple[tuple[int, int, tuple[int, ...], int], ...]]:
    """The order the kernel lists lay-downs in: the phase named (if any), then group by
    group, kind, size, cards, then a group of Wilds' value (-1: it has a numbered card)."""
    phase = key[2] if len(key) == 3 else 0
    return phase, tuple(
        (group[0], len(group[1]), group[1], group[2] if len(group) == 3 else -1) for group in key[1]
    )


def state_of(game: Game) -> StateKey:
    """The engine game's state as the kernel's ``dump()`` writes it."""
    seats = []
    for seat in game.seats:
        mask = sum(1 << i for i in seat.completed)
        laid = -1 if seat.laid is None else seat.laid
        seats.append(
            (
                _cards(seat.hand),
                seat.score,
                seat.phase,
                mask,
                laid,
                seat.pending_skip,
                seat.floating,
                -1 if seat.declared is None else seat.declared,
                _cards(seat.saved),
                seat.saved_this_hand,
                seat.gave_up,
                seat.refill,
            )
        )
    melds = tuple((meld.owner, *_group_key(meld.group)) for meld in game.melds)
    return (
        game.hand_number,
        game.dealer,
        game.current,
        _STAGE_CODE[game.stage],
        tuple(game.players_in_hand),
        game.tie_break,
        tuple(game.winners),
        game.first_player,
        _cards(game.draw_pile),
        _cards(game.discard_pile),
        melds,
        tuple(seats),
        tuple(game.rng.getstate()[1]),
        tuple(game.declare_queue),
    )


def state_from_view(view: PlayerView) -> StateKey:
    """A state, as :func:`state_of` writes one, that agrees with all ``view`` shows.

    The cards its player cannot see go, in card order, first to whoever is known to hold
    them (taken from the discard pile and still held, as the view's history tells), then to
    the other hands, the hidden save piles and the draw pile, in the numbers the view
    gives; the game's generator is seeded at 0. Whoever searches from it deals those cards
    afresh (the kernel's ``determinize``).
    """
    if view.viewer is None:
        raise ValueError("a spectator's view has no player")
    unseen = view_unseen_counts(view)
    hands: list[list[int]] = [[] for _ in view.seats]
    for seat, cards in known_held(view).items():
        for card, copies in cards.items():
            take = min(copies, unseen[card.index], view.seats[seat].hand_size - len(hands[seat]))
            hands[seat] += [card.index] * take
            unseen[card.index] -= take
    pool = [index for index, copies in enumerate(unseen) for _ in range(copies)]
    hidden_saves = view.rules.save_pile is SavePile.PRIVATE
    seats = []
    for at, info in enumerate(view.seats):
        if at == view.viewer:
            hand, saved = _cards(view.hand), _cards(view.saved)
        else:
            need = info.hand_size - len(hands[at])
            hand, pool = (*hands[at], *pool[:need]), pool[need:]
            if hidden_saves or info.saved is None:
                saved, pool = tuple(pool[: info.saved_count]), pool[info.saved_count :]
            else:
                saved = _cards(info.saved)
        seats.append(
            (
                hand,
                info.score,
                info.phase,
                sum(1 << i for i in info.completed),
                -1 if info.laid is None else info.laid,
                info.pending_skip,
                info.floating,
                -1 if info.declared is None else info.declared,
                saved,
                info.saved_this_hand,
                info.gave_up,
                info.refill,
            )
        )
    if len(pool) != view.draw_size:
        raise ValueError(
            f"the view does not add up: {len(pool)} unseen cards left for a draw pile of {view.draw_size}"
        )
    started = [event for event in view.history if isinstance(event, HandStarted)]
    first = started[-1].first_player if started else (view.dealer + 1) % len(view.seats)
    queue: tuple[int, ...] = ()
    if view.stage is Stage.DECLARE:  # who has yet to declare: the player to move and those after
        order = [first, *[p for p in view._turn_order_from(first) if p != first]]
        queue = tuple(order[order.index(view.current) :])
    return (
        view.hand_number,
        view.dealer,
        view.current,
        _STAGE_CODE[view.stage],
        tuple(view.players_in_hand),
        view.tie_break,
        tuple(view.winners),
        first,
        tuple(pool),
        _cards(view.discard_pile),
        tuple((meld.owner, *_group_key(meld.group)) for meld in view.melds),
        tuple(seats),
        _SEED_WORDS,
        queue,
    )


#: the generator's state after ``random.Random(0)``, as ``getstate()[1]`` holds it
_SEED_WORDS: tuple[int, ...] = random.Random(0).getstate()[1]


def game_from_view(view: PlayerView) -> Game:
    """An engine game that agrees with all ``view`` shows (:func:`state_from_view`: the
    hidden cards dealt in card order), without a history."""
    names = [seat.name for seat in view.seats]
    return apply_state(Game(names, rules=view.rules, seed=0), state_from_view(view))


def apply_state(game: Game, state: StateKey) -> Game:
    """A new engine game with ``game``'s header (players, rules, seed) in the kernel's state.

    The new game has no history: the kernel keeps none.
    """
    (hand_number, dealer, current, stage, in_hand, tie_break, winners, first) = state[:8]
    draw, discard, melds, seats, words, queue = state[8:]
    made_seats = []
    for old, seat_state in zip(game.seats, seats, strict=True):
        hand, score, phase, mask, laid, pending, floating, declared = seat_state[:8]
        saved, once, gave_up, refill = seat_state[8:]
        seat = Seat(old.name, [Card.from_index(c) for c in hand], score, phase)
        seat.completed = {i for i in range(32) if mask >> i & 1}
        seat.laid = None if laid < 0 else laid
        seat.pending_skip = bool(pending)
        seat.floating = bool(floating)
        seat.declared = None if declared < 0 else declared
        seat.saved = [Card.from_index(c) for c in saved]
        seat.saved_this_hand = bool(once)
        seat.gave_up, seat.refill = bool(gave_up), bool(refill)
        made_seats.append(seat)
    table = tuple(Meld(meld[0], _group(meld[1:])) for meld in melds)
    rng = list(game.rng.getstate())
    rng[1] = tuple(words)
    made = GameState(
        rng=tuple(rng),
        hand_number=hand_number,
        dealer=dealer,
        current=current,
        stage=STAGES[stage],
        players_in_hand=tuple(in_hand),
        tie_break=bool(tie_break),
        winners=tuple(winners),
        draw_pile=tuple(Card.from_index(c) for c in draw),
        discard_pile=tuple(Card.from_index(c) for c in discard),
        melds=table,
        seats=tuple(made_seats),
        declare_queue=tuple(queue),
        first_player=first,
        hand_start=0,
        history=(),
        actions=(),
    )
    names = [seat.name for seat in game.seats]
    return Game.from_state(
        names,
        made,
        rules=game.rules,
        seed=game.seed,
        dealer=game.first_dealer,
        arrangement=game.arrangement,
    )


#: The reasons a hand ends and a game ends, by the numbers the kernel gives them.
HAND_REASONS: tuple[str, ...] = (
    "went out",
    "laid down the last phase",
    "the draw pile ran out",
    "the draw pile is exhausted and the top discard cannot be taken",
    "nobody can go out any more",
)
GAME_REASONS: tuple[str, ...] = (
    "the only player on the last phase laid it down",
    "went out first in the tie-break hand",
    "completed the last phase",
    "completed the last phase with the lowest total",
    "lowest total score",
    "lowest total, most phases completed",
    "a shared win",
)


def _card(card: Card | None) -> int:
    assert card is not None  # the whole truth: every card is known
    return card.index


def event_key(event: Event) -> EventKey:
    """The kernel's tuple for an engine event (the whole truth, not a player's view): its
    type's number, then its fields, cards by index, groups as in actions, None as -1 (a
    hand's points keep None for a player out of the hand), reasons by their numbers in
    :data:`HAND_REASONS` and :data:`GAME_REASONS`."""
    match event:
        case HandStarted():
            return (
                1,
                event.hand,
                event.dealer,
                tuple(event.players),
                event.first_player,
                _card(event.discard_top),
                event.tie_break,
            )
        case Dealt():
            assert event.cards is not None
            return (2, event.player, _cards(event.cards))
        case WildGiven():
            return (3, event.dealer, event.player)
        case Reshuffled():
            return (4, event.cards)
        case Drew():
            return (5, event.player, _card(event.card))
        case TookDiscard():
            return (6, event.player, _card(event.card))
        case LaidDown():
            groups = tuple(_group_key(group) for group in event.groups)
            return (7, event.player, event.phase, groups, tuple(event.group_ids))
        case CardHit():
            hit = (8, event.player, _card(event.card), event.group, event.number or 0)
            return (*hit, _group_key(event.group_after))
        case Discarded():
            target = -1 if event.target is None else event.target
            return (9, event.player, _card(event.card), target)
        case Skipped():
            return (10, event.player)
        case Floating():
            return (11, event.player)
        case WentOut():
            return (12, event.player)
        case HandEnded():
            return (
                13,
                event.hand,
                -1 if event.went_out is None else event.went_out,
                HAND_REASONS.index(event.reason),
                tuple(event.points),
                tuple(event.totals),
                tuple(event.advanced),
                tuple(event.phases_completed),
                tuple(event.cards_left),
                tuple(event.moved_down),
            )
        case TieBreakStarted():
            return (14, tuple(event.players))
        case Declared():
            return (16, event.player, event.phase)
        case Saved():
            return (17, event.player, _card(event.card), event.public)
        case TookSaved():
            return (18, event.player, _card(event.card), event.public)
        case GaveUp():
            return (19, event.player, event.phase, tuple(event.group_ids), event.cards)
        case MovedDown():
            phase = -1 if event.phase is None else event.phase
            return (21, event.player, phase, -1 if event.named_by is None else event.named_by)
        case Refilled():
            assert event.cards is not None
            return (20, event.player, event.count, _cards(event.cards))
        case GameEnded():
            return (15, tuple(event.winners), GAME_REASONS.index(event.reason), tuple(event.totals))
    raise ValueError(f"the kernel has no event like {event!r}")

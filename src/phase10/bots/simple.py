"""Two simple players: one that plays any legal action, one that plays sensibly.

A player sees only its own :class:`~phase10.core.PlayerView` and answers with an
action; :func:`play_game` drives a game between players to its end.

>>> import random
>>> from phase10.core import Game, parse_cards
>>> game = Game(["Ann", "Bob", "Cy"], seed=4)
>>> play_game(game, [SimplePlayer(random.Random(seat)) for seat in range(3)])
>>> game.is_over, len(game.winners)
(True, 1)
>>> phase_gap(Phase.parse("2 sets of 3"), parse_cards("R7 B7 G7 R3 B3 Y9"), NaturalMin.GROUP)
1
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from phase10.core import (
    COLORS,
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    Event,
    Game,
    GiveUp,
    GiveWild,
    GoingOut,
    GroupKind,
    GroupSpec,
    Hit,
    LayDown,
    NaturalMin,
    Phase,
    PlayerView,
    Save,
    Stage,
    TakeDiscard,
    TakeSaved,
    hand_points,
)

from .anti import anti_discard, takes_anti
from .bounded import bounded
from .knowledge import stalled
from .saving import give_up_wanted, save_pick, take_back_pick

__all__ = [
    "MAX_ACTIONS",
    "GameTooLongError",
    "Player",
    "RandomPlayer",
    "SimplePlayer",
    "phase_gap",
    "play_game",
]


class Player(Protocol):
    """Anything that picks an action from what one player may know."""

    def choose(self, view: PlayerView) -> Action:
        """The action to play; called only when ``view.viewer`` is to act."""
        ...


#: The most actions :func:`play_game` applies by default: some 300 times a long game's,
#: there only so that players who cannot end a game (a program bot that never goes out)
#: stop with an error rather than run for ever.
MAX_ACTIONS = 200_000


class GameTooLongError(RuntimeError):
    """The players did not end the game within the actions allowed."""


def play_game(
    game: Game,
    players: Sequence[Player],
    on_events: Callable[[list[Event]], None] | None = None,
    *,
    max_actions: int | None = None,
) -> None:
    """Play ``game`` to its end, asking each player in turn and applying its answer (checked).

    ``on_events`` receives the events of each action as it is applied. Raises
    :class:`GameTooLongError` once ``max_actions`` actions (default :data:`MAX_ACTIONS`)
    have not ended it.
    """
    if len(players) != game.num_players:
        raise ValueError(f"the game has {game.num_players} players, not {len(players)}")
    if max_actions is None:
        max_actions = MAX_ACTIONS
    for _ in range(max_actions):
        if game.is_over:
            return
        seat = game.current
        events = game.apply(players[seat].choose(game.view(seat)))
        if on_events is not None:
            on_events(events)
    if not game.is_over:
        raise GameTooLongError(
            f"the game did not end within {max_actions:,} actions (hand {game.hand_number}): "
            "the players cannot finish these phases"
        )


def checked_rng(rng: random.Random) -> random.Random:
    """``rng`` if it is a :class:`random.Random`; a bot's every choice comes from it."""
    if not isinstance(rng, random.Random):
        raise TypeError(f"a bot takes a random.Random such as random.Random(0), not {rng!r}")
    return rng


class RandomPlayer:
    """Plays a uniformly random legal action (``saves=False``: never a save or a take-back)."""

    #: decides at once (see phase10.bots.seats.answers_at_once)
    instant = True

    def __init__(self, rng: random.Random, *, saves: bool = True) -> None:
        self.rng = checked_rng(rng)
        self.saves = bool(saves)

    @bounded
    def choose(self, view: PlayerView) -> Action:
        actions = _legal(view)
        if not self.saves:
            actions = [a for a in actions if not isinstance(a, Save | TakeSaved)] or actions
        return self.rng.choice(actions)


class SimplePlayer:
    """A plain heuristic: collect cards for the phase, lay it down, hit, shed points.

    It takes the top discard when that helps (brings the phase closer, or fits a group
    on the table once its phase is down), lays down its phase with the most cards it
    can, hits every card it can, and discards the card its phase needs least: a Skip
    first (aimed at the opponent closest to winning), never a Wild unless it must,
    then high cards and cards without a partner. Ties are broken with ``rng``. Where the
    rules have save piles it saves and takes back as :mod:`phase10.bots.saving` says
    (``saves=False``: never), and counts its saved cards when it declares a phase. The
    Anti-phase card it plays as :mod:`phase10.bots.anti` says (``anti=False``: like any
    other card).
    """

    #: decides at once (see phase10.bots.seats.answers_at_once)
    instant = True

    def __init__(self, rng: random.Random, *, saves: bool = True, anti: bool = True) -> None:
        self.rng = checked_rng(rng)
        self.saves = bool(saves)
        self.anti = bool(anti)

    @bounded
    def choose(self, view: PlayerView) -> Action:
        actions = _legal(view)
        me = view.viewer
        assert me is not None
        if len(actions) == 1:
            return actions[0]
        if view.stage is Stage.GIVE_WILD:
            return GiveWild(me) if GiveWild(me) in actions else actions[0]
        if view.stage is Stage.DECLARE:
            # saved cards count: each can be taken back instead of a draw
            hand = list(view.hand) + (list(view.saved) if self.saves else [])
            natural_min = view.rules.natural_min
            declares = [a for a in actions if isinstance(a, Declare)]
            return min(
                declares,
                key=lambda a: (phase_gap(view.phase_of(a.phase - 1), hand, natural_min), -a.phase),
            )
        if view.stage is Stage.DRAW:
            top = view.discard_top
            if self.anti and TakeDiscard() in actions and takes_anti(view):
                return TakeDiscard()
            take = TakeDiscard() in actions and top is not None and self._wants(view, top)
            if self.saves:
                back = take_back_pick(view, self._gap(view), top_wanted=take)
                if back is not None and TakeSaved(back) in actions:
                    return TakeSaved(back)
            if take:
                return TakeDiscard()
            return Draw() if Draw() in actions else actions[0]
        floating = view.rules.going_out is GoingOut.DISCARD  # keep a card to go out with
        lays = [a for a in actions if isinstance(a, LayDown)]
        if lays:
            self.rng.shuffle(lays)
            return max(
                lays,
                key=lambda a: (
                    not (floating and len(a.cards) == len(view.hand)),
                    len(a.cards),
                    hand_points(a.cards),
                    a.phase or 0,
                ),
            )
        hits = [a for a in actions if isinstance(a, Hit)]
        discards = [a for a in actions if isinstance(a, Discard)]
        last_card = floating and len(view.hand) == 1
        if hits and not (last_card and discards):
            held = {card.number for card in view.hand if card.number is not None}
            return min(hits, key=lambda h: (h.card.is_wild, not _next_to(h.number, held)))
        if GiveUp() in actions and give_up_wanted(view):
            return GiveUp()
        if discards and stalled(view):
            return self.rng.choice(discards)
        if discards and self.anti:
            anti, discards = anti_discard(view, discards)
            if anti is not None:
                return anti
        if discards:
            discard = self._discard(view, discards)
            if self.saves and not discard.card.is_skip:
                down = view.seats[me].laid is not None
                card = save_pick(view, view.hand, discard.card, None if down else self._gap(view))
                if card is not None and Save(card) in actions:
                    return Save(card)
            return discard
        return actions[0]

    def _gap(self, view: PlayerView) -> Callable[[list[Card]], int]:
        """How far a hand is from the nearest phase the player may lay now."""
        phases = self._phases(view)
        natural_min = view.rules.natural_min
        return lambda cards: min((phase_gap(p, cards, natural_min) for p in phases), default=0)

    def _phases(self, view: PlayerView) -> list[Phase]:
        """The phases this player works towards now (none once its phase is down)."""
        assert view.viewer is not None
        return [view.phase_of(index) for index in view.allowed_phases(view.viewer)]

    def _wants(self, view: PlayerView, top: Card) -> bool:
        phases = self._phases(view)
        if not phases:
            return view.fits_anywhere(top)
        if top.is_wild:
            return True
        hand = list(view.hand)
        natural_min = view.rules.natural_min
        return min(phase_gap(p, [*hand, top], natural_min) for p in phases) < min(
            phase_gap(p, hand, natural_min) for p in phases
        )

    def _discard(self, view: PlayerView, discards: list[Discard]) -> Discard:
        skips = [d for d in discards if d.card.is_skip]
        if skips:
            return max(skips, key=lambda d: _threat(view, d.target))
        candidates = [d for d in discards if not d.card.is_wild] or discards
        hand = list(view.hand)
        natural_min = view.rules.natural_min
        phases = self._phases(view)
        if len(phases) > 1:  # any order: aim at the phase the hand is closest to
            phases = [min(phases, key=lambda p: phase_gap(p, hand, natural_min))]

        def key(discard: Discard) -> tuple[int, int, int]:
            rest = list(hand)
            rest.remove(discard.card)
            gap = min((phase_gap(p, rest, natural_min) for p in phases), default=0)
            return gap, -discard.card.points, _partners(discard.card, hand)

        self.rng.shuffle(candidates)
        return min(candidates, key=key)


def _legal(view: PlayerView) -> list[Action]:
    actions = list(view.legal_actions)
    if not actions:
        raise ValueError(f"player {view.viewer} has nothing to do: it is not their turn")
    return actions


def _next_to(number: int | None, held: set[int]) -> bool:
    return number is not None and (number - 1 in held or number + 1 in held)


def _partners(card: Card, hand: list[Card]) -> int:
    """How many other cards share the card's number or sit next to it (pairs and runs)."""
    if card.number is None:
        return 0
    near = sum(
        1 for other in hand if other.number is not None and abs(other.number - card.number) <= 1
    )
    return near - 1


def _threat(view: PlayerView, target: int | None) -> tuple[int, int, int]:
    """How close a player is to winning: phases done, then fewest cards, then lowest score."""
    if target is None:
        return (0, 0, 0)
    seat = view.seats[target]
    return (len(seat.completed) + (seat.laid is not None), -seat.hand_size, -seat.score)


# -- how far a hand is from a phase ----------------------------------------------------

#: How many of the most promising aims are tried for each group of a phase.
_BRANCH = 3


def phase_gap(phase: Phase, hand: Iterable[Card], natural_min: NaturalMin) -> int:
    """Roughly how many more cards ``hand`` needs to make ``phase`` (0: about ready).

    A quick estimate, not an exact search: each group aims at the few targets (a
    number, a run's numbers, a colour, ...) the hand already covers best.
    """
    cards = list(hand)
    wilds = sum(1 for card in cards if card.is_wild)
    pool = Counter(card for card in cards if card.is_natural)
    specs = sorted(phase.groups, key=lambda spec: -spec.size)
    missing, empty = _missing(specs, pool)
    floor = empty if natural_min is NaturalMin.GROUP else int(empty == len(specs))
    return max(missing - wilds, floor)


def _missing(specs: list[GroupSpec], pool: Counter[Card]) -> tuple[int, int]:
    """(cards missing, groups with no numbered card) for the best aims found for ``specs``."""
    if not specs:
        return 0, 0
    spec, rest = specs[0], specs[1:]
    best: tuple[int, int] | None = None
    for used in _aims(spec, pool)[:_BRANCH] or [[]]:
        pool.subtract(used)
        missing, empty = _missing(rest, pool)
        pool.update(used)
        result = (missing + spec.size - len(used), empty + (not used))
        best = result if best is None or result < best else best
    assert best is not None
    return best


def _aims(spec: GroupSpec, pool: Counter[Card]) -> list[list[Card]]:
    """For each target the group could have, the cards of ``pool`` it would use; best first."""
    naturals = sorted((c for c, n in pool.items() for _ in range(n)), key=lambda c: c.sort_key)
    aims: list[list[Card]] = []
    if spec.kind.is_run:
        for color in COLORS if spec.kind is GroupKind.COLOR_RUN else (None,):
            by_number = {c.number: c for c in naturals if color is None or c.color is color}
            for low in range(1, 14 - spec.size):
                aims.append([by_number[n] for n in range(low, low + spec.size) if n in by_number])
    else:
        buckets: dict[object, list[Card]] = {}
        for card in naturals:
            buckets.setdefault(_bucket(spec.kind, card), []).append(card)
        aims = [cards[: spec.size] for cards in buckets.values()]
    aims.sort(key=len, reverse=True)
    return [aim for aim in aims if aim]


def _bucket(kind: GroupKind, card: Card) -> object:
    parity = (card.number or 0) % 2
    return {
        GroupKind.SET: card.number,
        GroupKind.COLOR: card.color,
        GroupKind.EVEN_ODD: parity,
        GroupKind.COLOR_EVEN_ODD: (card.color, parity),
    }[kind]

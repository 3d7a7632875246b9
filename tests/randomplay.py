"""A seeded random-play policy that finishes games, for property tests and fixtures.

The policy always lays a phase down when it can (one lay-down chosen at random),
hits with some probability when it can, sometimes saves a card or gives up a phase
where the rules allow it, and otherwise picks uniformly among the other legal actions
(draw or take, discards, declarations, gifts of a Wild):

>>> from phase10 import Game
>>> game = play_game(Game(3, seed=5), random.Random(5))
>>> game.is_over, len(game.winners) >= 1
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from phase10 import (
    Action,
    Discard,
    Event,
    Game,
    GiveUp,
    Hit,
    LayDown,
    Rules,
    Save,
    Stage,
)
from phase10.core.errors import SearchLimitError
from phase10.core.laydowns import lay_downs

__all__ = [
    "HIT_PROBABILITY",
    "MAX_ACTIONS",
    "choose",
    "dead_hand",
    "fingerprint",
    "legal_list",
    "play_game",
    "short_rules",
]

#: How often the policy hits when it could also discard.
HIT_PROBABILITY = 0.8
#: How often the policy saves a card when the rules let it...
SAVE_PROBABILITY = 0.2
#: ...and gives up its phase (rarely: each give-up undoes a phase, and games drag on).
GIVE_UP_PROBABILITY = 0.03
#: A game that has not ended after this many actions is a failure, not a slow game.
MAX_ACTIONS = 60_000


def legal_list(game: Any) -> list[Action]:
    """The legal actions of a game or view, in enumeration order.

    A comprehension, not ``list(...)``: ``list`` asks ``len()`` first, which enumerates
    everything a second time.
    """
    return [action for action in game.legal_actions]


def choose(
    game: Any,
    rng: random.Random,
    actions: Iterable[Action] | None = None,
    hit_probability: float = HIT_PROBABILITY,
) -> Action:
    """Pick the policy's action for the player to move (from ``actions`` if given)."""
    pool = list(actions) if actions is not None else legal_list(game)
    if not pool:
        raise AssertionError(f"no legal action in stage {game.stage} for p{game.current}")
    if game.stage is not Stage.PLAY:
        return rng.choice(pool)
    lays = [action for action in pool if isinstance(action, LayDown)]
    if lays:
        return rng.choice(lays)
    # (no draw from the generator without them: games under other rules play as before)
    if GiveUp() in pool and rng.random() < GIVE_UP_PROBABILITY:
        return GiveUp()
    saves = [action for action in pool if isinstance(action, Save)]
    if saves and rng.random() < SAVE_PROBABILITY:
        return rng.choice(saves)
    hits = [action for action in pool if isinstance(action, Hit)]
    discards = [action for action in pool if isinstance(action, Discard)]
    if hits and (not discards or rng.random() < hit_probability):
        return rng.choice(hits)
    return rng.choice(discards)


Step = Callable[[Game, Action, list[Event]], None]


def play_game(
    game: Game,
    rng: random.Random,
    *,
    on_step: Step | None = None,
    max_actions: int = MAX_ACTIONS,
    stop_after: int | None = None,
) -> Game:
    """Play ``game`` with the policy until it is over (or ``stop_after`` actions); return it.

    ``on_step`` sees the game after each action, the action and its events.
    """
    played = 0
    while not game.is_over and (stop_after is None or played < stop_after):
        action = choose(game, rng)
        events = game.apply_unchecked(action)
        played += 1
        if on_step is not None:
            on_step(game, action, events)
        if played >= max_actions:
            raise AssertionError(f"the game did not end in {max_actions} actions: {game!r}")
    return game


def short_rules(rules: Rules, rng: random.Random) -> Rules:
    """The rules with one to three of their phases chosen at random, in order."""
    sequence_numbers = list(rules.phases) or list(range(1, len(rules.phase_list) + 1))
    count = rng.randint(1, min(3, len(sequence_numbers)))
    picked = sorted(rng.sample(sequence_numbers, count))
    return rules.with_options(phases=tuple(picked))


def fingerprint(game: Game) -> tuple[object, ...]:
    """Everything mutable about a game, cheap to build and compare (a snapshot costs more)."""
    return (
        game.stage,
        game.current,
        game.dealer,
        game.hand_number,
        game.players_in_hand,
        game.tie_break,
        game.winners,
        tuple(game.draw_pile),
        tuple(game.discard_pile),
        tuple(game.melds),
        tuple(
            (
                tuple(seat.hand),
                seat.score,
                seat.phase,
                frozenset(seat.completed),
                seat.laid,
                seat.declared,
                seat.pending_skip,
                seat.floating,
            )
            for seat in game.seats
        ),
        len(game.history),
        len(game.actions),
        game.declare_queue,
        game.first_player,
        game.rng.getstate(),
    )


def dead_hand(game: Game, max_steps: int | None = None) -> bool | None:
    """Whether the hand can never end by anyone going out: nobody floats, the draw pile is
    reshuffled for ever, no card off the table fits any table group, and every player in
    the hand has laid down or can never make a phase they may lay from the cards off the
    table (hands, save piles and both piles). Nobody can then hit, so no hand can shrink
    below its size after the discard.

    A copy of the test ``Game.hand_is_dead`` makes, kept in the tests to check it. With
    ``max_steps``, a search for a lay-down that takes longer gives None (not known).
    """
    if game.is_over or game.rules.empty_draw_pile.value != "reshuffle":
        return False
    if any(game.seats[p].floating for p in game.players_in_hand):
        return False
    loose = Counter(card for seat in game.seats for card in [*seat.hand, *seat.saved])
    loose.update(game.draw_pile)
    loose.update(game.discard_pile)
    if any(meld.group.placements(card) for card in loose for meld in game.melds):
        return False
    pool = list(loose.elements())
    for player in game.players_in_hand:
        for index in game.allowed_phases(player):
            # the card-by-card enumeration, stopped at its first lay-down
            ways = lay_downs(
                game.phase_of(index),
                pool,
                game.rules.natural_min,
                max_cards=None,
                max_steps=max_steps,
            )
            try:
                if next(iter(ways), None):
                    return False
            except SearchLimitError:
                return None
    return True

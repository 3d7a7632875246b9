"""Every refusal the engine raises carries a :class:`Refusal` code and a plain message.

The walk plays random games under several rule sets and, at each position, tries every
kind of action (most of them not legal there) and asks for lay-down and hit choices of
random selections, from the player to move and from the others. Each refusal must carry
a code, and its message must name no interface's keys: the interfaces add their own.
"""

from __future__ import annotations

import pickle
import random
import re

import pytest

from phase10 import (
    ANTI,
    DECK_COUNTS,
    SKIP,
    WILD,
    Action,
    Color,
    Declare,
    Discard,
    Draw,
    Game,
    GiveUp,
    GiveWild,
    Group,
    GroupKind,
    Hit,
    IllegalActionError,
    InvalidActionError,
    LayDown,
    Parity,
    PlayerView,
    Refusal,
    RefusalError,
    Save,
    Stage,
    TakeDiscard,
    TakeSaved,
    preset,
)
from phase10.core.choices import ChoiceError, NotHeldError, hit_choices, lay_down_choices
from randomplay import choose
from refusable import refused_actions, sample_lay

#: a key hint an interface adds, like " (d)", "space" or "click" (not the "(s)" of "group(s)")
KEY_HINT = re.compile(r"(?<!\w)\([a-z]\)|\bspace\b|\bclick")

#: (rules, players, seed): between them they reach every stage and most refusals
WALKS = (
    ("official", 3, 0),
    ("masters", 3, 1),
    ("arkansas", 2, 2),
    ("skip-next", 3, 3),
    ("floating", 2, 4),
    ("wild-deal-up", 3, 3),
    ("natural-per-phase", 2, 5),
    ("no-reshuffle", 2, 6),
    ("masters-variant-2", 2, 12),
    ("anti-phase", 2, 15),
)
#: the share of positions whose refusals are tried (a whole short game is played)...
CHECK_RATE = 0.15
#: ...and every position in the stages a hand passes through once at most
RARE_STAGES = (Stage.DECLARE, Stage.GIVE_WILD, Stage.WILD_DISCARD)


def odd_lays(game: Game, index: int) -> list[LayDown]:
    """The phase laid with Wilds alone, and with a Skip in place of its first card."""
    out = []
    for first in (WILD, SKIP):
        groups = []
        for spec in game.phase_of(index).groups:
            number = 5 if spec.kind is GroupKind.SET else None
            low = 1 if spec.kind.is_run else None
            color = Color.RED if spec.kind.needs_color else None
            parity = Parity.ODD if spec.kind.needs_parity else None
            cards = (first,) + (WILD,) * (spec.size - 1)
            groups.append(Group(spec.kind, cards, number, low, color, parity))
        out.append(LayDown(tuple(groups), index + 1 if game.names_phase_when_laid else None))
    return out


def candidates(game: Game, rng: random.Random) -> list[Action]:
    """Actions of every kind for the player to move, most of them not legal now."""
    n = game.num_players
    hand = list(game.seats[game.current].hand) if not game.is_over else []
    count = game.rules.phase_count
    cards = [WILD, *rng.sample(list(DECK_COUNTS), 5), *hand]
    out: list[Action] = [Draw(), TakeDiscard(), Declare(rng.randint(0, count + 1))]
    out += [GiveWild(p) for p in range(n + 1)]
    out += [Discard(card) for card in cards] + [Discard(SKIP, p) for p in (None, *range(n + 1))]
    if game.rules.anti_phase == "on":
        out += [Discard(ANTI, p) for p in (None, *range(n + 1))] + [Save(ANTI)]
    out += [Save(card) for card in cards] + [TakeSaved(card) for card in cards] + [GiveUp()]
    for card in cards:
        for group in range(len(game.melds) + 1):
            out.append(Hit(card, group, rng.choice((None, rng.randint(0, 13)))))
    for index in range(count):
        out.append(sample_lay(game.phase_of(index), rng, rng.choice((None, index + 1))))
        out += odd_lays(game, index)
    return out


def check_refusal(error: Exception, seen: set[Refusal]) -> None:
    assert isinstance(error, RefusalError), error
    assert isinstance(error.code, Refusal), error
    assert str(error), error.code
    assert not KEY_HINT.search(str(error)), str(error)
    seen.add(error.code)


def try_choices(view: PlayerView, rng: random.Random, seen: set[Refusal]) -> None:
    hand = list(view.hand)
    picks = [
        [],
        rng.sample(hand, min(len(hand), rng.randint(1, 7))),
        rng.sample(list(DECK_COUNTS), 3),
    ]
    for cards in picks:
        try:
            lay_down_choices(view, cards)
        except ChoiceError as error:
            check_refusal(error, seen)
    for card in hand[:4] + rng.sample(list(DECK_COUNTS), 1):
        try:
            hit_choices(view, card)
        except ChoiceError as error:
            check_refusal(error, seen)


def try_refusals(game: Game, rng: random.Random, seen: set[Refusal]) -> None:
    views = [game.view(seat) for seat in range(game.num_players)]
    tried: list[Action | str] = [*candidates(game, rng)]
    if not game.is_over:
        tried += refused_actions(game, rng)
    for action in tried:
        for judge in (game, rng.choice(views)):
            try:
                judge.check(game.parse_action(action) if isinstance(action, str) else action)
            except (IllegalActionError, InvalidActionError) as error:
                check_refusal(error, seen)
            except ValueError:
                pass  # text naming no card ("R13", a CardError): read, not judged
    for view in views:
        try_choices(view, rng, seen)


def walk(name: str, players: int, seed: int, seen: set[Refusal]) -> None:
    """One short game (its first two phases), its refusals tried at some positions."""
    rng = random.Random(f"{name}-{seed}")
    game = Game(players, rules=preset(name).with_options(phases=(1, 2)), seed=seed)
    unusual = False  # right after a save or a give-up: their refusals are tried too
    while not game.is_over:
        if rng.random() < CHECK_RATE or game.stage in RARE_STAGES or unusual:
            try_refusals(game, rng, seen)
        action = choose(game, rng)
        unusual = isinstance(action, Save | GiveUp)
        game.apply(action)
    try_refusals(game, rng, seen)


#: refusals that need a position random play seldom makes (a floating hand, an empty pile),
#: or that only the server raises (SELECT_ONE); mypy sees that every raise names a code
RARE = {
    Refusal.SELECT_ONE,
    Refusal.NO_LAY_DOWN,
    Refusal.ALREADY_SKIPPED,
    Refusal.TOO_MANY_WAYS,
    Refusal.DISCARD_EMPTY,
    Refusal.DRAW_PILE_EMPTY,
    Refusal.FLOATING_MUST_DRAW,
    Refusal.FLOATING_MUST_TAKE,
    Refusal.FLOATING_MUST_HIT,
    Refusal.BAD_GROUP,
    # the Anti-phase card as the last card (test_s4_anti_phase checks these codes)
    Refusal.NAME_ANTI_TARGET,
    Refusal.ANTI_SELF,
    # save piles holding all a deal can spare (test_s4_save_pile checks it)
    Refusal.SAVE_PILES_FULL,
    # the RL environments' own (test_rl_kernel checks it)
    Refusal.NOT_IN_MASK,
}


def test_every_refusal_carries_a_code_and_a_plain_message() -> None:
    seen: set[Refusal] = set()
    for name, players, seed in WALKS:
        walk(name, players, seed, seen)
    assert set(Refusal) - seen <= RARE, set(Refusal) - seen - RARE


@pytest.mark.parametrize(
    "error",
    [
        IllegalActionError(Refusal.DISCARD_EMPTY, "the discard pile is empty"),
        InvalidActionError("there is no group g9 on the table"),
        ChoiceError(Refusal.NOTHING_SELECTED, "select the cards to lay down first"),
        NotHeldError("you do not hold R1"),
    ],
)
def test_a_refusal_keeps_its_code_through_pickle(error: RefusalError) -> None:
    """A process pool sends errors back pickled: the code must survive."""
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert (again.code, str(again)) == (error.code, str(error))


def test_refusal_codes_are_stable_strings() -> None:
    assert all(code.value == code.name.lower() for code in Refusal)
    assert Refusal("must_draw_first") is Refusal.MUST_DRAW_FIRST
    assert InvalidActionError("x").code is Refusal.MALFORMED

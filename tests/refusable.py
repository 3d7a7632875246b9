"""Actions that must be refused in a position, built by construction, for the property
tests and the refusal tests."""

from __future__ import annotations

import random
from collections import Counter

from phase10 import (
    DECK_COUNTS,
    SKIP,
    Action,
    Card,
    Declare,
    Discard,
    Draw,
    Game,
    GiveWild,
    Group,
    GroupKind,
    Hit,
    LayDown,
    Phase,
    Stage,
    TakeDiscard,
)
from phase10.core.cards import COLORS, WILD, Parity

__all__ = ["refused_actions", "sample_group", "sample_lay"]


def sample_group(kind: GroupKind, size: int, rng: random.Random) -> Group:
    """Some valid group of that kind and size (its cards need not be in anyone's hand)."""
    color = rng.choice(COLORS)
    if kind is GroupKind.SET:
        number = rng.randint(1, 12)
        naturals = [Card.number_card(c, number) for c in COLORS for _ in range(2)]
        cards = naturals[: min(size, 8)] + [WILD] * max(0, size - 8)
        return Group.make(kind, cards)
    if kind.is_run:
        low = rng.randint(1, 13 - size)
        return Group.make(
            kind,
            [
                Card.number_card(color if kind is GroupKind.COLOR_RUN else rng.choice(COLORS), n)
                for n in range(low, low + size)
            ],
        )
    parity = rng.choice((Parity.EVEN, Parity.ODD)) if kind.needs_parity else None
    pool = [
        Card.number_card(c, n)
        for c in (COLORS if not kind.needs_color else (color,))
        for n in range(1, 13)
        if parity is None or Parity.of(n) is parity
    ]
    naturals = rng.sample(pool, min(size, len(pool)))
    return Group.make(kind, naturals + [WILD] * (size - len(naturals)))


def sample_lay(phase: Phase, rng: random.Random, number: int | None) -> LayDown:
    return LayDown(tuple(sample_group(s.kind, s.size, rng) for s in phase.groups), number)


def _shape(phase: Phase) -> list[GroupKind]:
    return sorted(spec.kind for spec in phase.groups)


def refused_actions(game: Game, rng: random.Random) -> list[Action | str]:
    """Actions and texts that must be refused in this position, by construction."""
    stage, seat = game.stage, game.current
    info = game.seats[seat]
    hand = Counter(info.hand)
    n = game.num_players
    out: list[Action | str] = []
    if stage is not Stage.DRAW:
        out.append(Draw())  # e.g. a draw in the PLAY stage
        out.append(TakeDiscard())
    elif game.discard_top is None or game.discard_top.is_skip:
        out.append(TakeDiscard())
    missing = [card for card in DECK_COUNTS if hand[card] == 0]
    if missing:
        card = rng.choice(missing)
        out.append(Discard(card, rng.randrange(n) if card.is_skip else None))
    out.append(Discard(SKIP, seat))  # never skip yourself
    out.append(Discard(SKIP, n + rng.randrange(3)))  # nobody sits there
    pending = [p for p in range(n) if game.seats[p].pending_skip and p != seat]
    if pending and game.rules.skip_target.value == "choose":
        out.append(Discard(SKIP, rng.choice(pending)))
    some_card = rng.choice(info.hand) if info.hand else rng.choice(list(DECK_COUNTS))
    if info.laid is None:
        out.append(Hit(some_card, rng.randrange(len(game.melds) + 1)))  # hit before laying
    else:
        out.append(Hit(some_card, len(game.melds) + rng.randrange(3)))  # no such group
        misfits = [
            (card, gid)
            for card in set(info.hand)
            for gid, meld in enumerate(game.melds)
            if not meld.group.placements(card)
        ]
        if misfits:
            out.append(Hit(*rng.choice(misfits)))
    allowed = game.allowed_phases(seat)
    count = game.rules.phase_count
    others = [i for i in range(count) if i not in allowed]
    if others:
        index = rng.choice(others)
        out.append(sample_lay(game.phase_of(index), rng, index + 1))  # lay the wrong phase
        shapes = [_shape(game.phase_of(i)) for i in allowed]
        if _shape(game.phase_of(index)) not in shapes:
            out.append(sample_lay(game.phase_of(index), rng, None))
    out.append(sample_lay(game.phase_of(rng.randrange(count)), rng, count + 1 + rng.randrange(3)))
    if stage is not Stage.DECLARE:
        out.append(Declare(rng.randint(1, count)))
    else:
        done = sorted(info.completed)
        if done:
            out.append(Declare(rng.choice(done) + 1))
    out.append(Declare(rng.choice((0, count + 1))))
    if stage is not Stage.GIVE_WILD:
        out.append(GiveWild(rng.randrange(n)))
    out.append(GiveWild(n + rng.randrange(3)))
    out += rng.sample(
        [
            "jump",
            "draw 2",
            "take R7",
            "discard R13",
            "discard R7>p1",
            "discard",
            "hit R7",
            "hit W=13 g0",
            "hit R7=5 g0",
            "declare",
            "declare x",
            "give 1",
            "lay",
            "lay R7 + R8 + R9 + R10 + R11 + R12",
            "",
        ],
        3,
    )
    return out

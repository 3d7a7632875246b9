"""``Game.copy``: a whole, independent copy of a game (search and simulators rely on it)."""

from __future__ import annotations

import dataclasses
import random

from phase10.core import Game, parse_cards
from phase10.core.positions import copy_seat as _copy_seat
from phase10.core.state import Seat


def test_a_copy_has_every_field_and_goes_its_own_way() -> None:
    game = Game(3, seed=9)
    rng = random.Random(9)
    for _ in range(300):
        game.apply_unchecked(rng.choice(list(game.legal_actions)))
    game.view(1)  # fill the per-viewer caches a copy carries over
    twin = game.copy()
    assert twin.state() == game.state() and twin.view(1) == game.view(1)
    before = game.state()
    for _ in range(40):
        twin.apply_unchecked(rng.choice(list(twin.legal_actions)))
    assert game.state() == before and twin.state() != before
    # the same shuffles to come as the original's (its generator is copied)
    assert game.copy().rng.random() == game.copy().rng.random() == game.rng.random()


def test_a_seat_copy_leaves_no_field_out() -> None:
    seat = Seat("Ann", list(parse_cards("R1 W")), 25, 3, {0, 1, 2}, 3, 4, True, True)
    twin = _copy_seat(seat)
    for field in dataclasses.fields(Seat):
        if field.init:
            assert getattr(twin, field.name) == getattr(seat, field.name), field.name
    assert twin.hand is not seat.hand and twin.completed is not seat.completed

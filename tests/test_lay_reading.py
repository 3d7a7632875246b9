"""Reading a lay-down's text: its groups in any order, found as a matching of parts to the
phase's groups (eleven groups have 40 million orders: trying each had taken 30 s, on the
server's event loop, for one message)."""

from __future__ import annotations

import itertools
import random

import pytest

import phase10.core.actions as actions
from phase10.core import InvalidActionError, LayDown, Phase
from phase10.core.actions import parse_action
from phase10.core.groups import Group, GroupError, parse_group

CARDS = ["R1", "R2", "R3", "B3", "G3", "Y3", "R4", "B5", "W", "G7", "Y8", "R9", "x"]
PHASES = [
    "1 set of 3 + 1 run of 4",
    "2 sets of 1 + 1 even or odd of 1 + 1 color run of 2",
    "1 color even or odd of 1 + 1 run of 2 + 1 set of 1",
    "2 runs of 2 + 1 set of 2",
]


def _brute_force(phase: Phase, parts: list[str]) -> tuple[Group, ...] | None:
    """The old reading: every order of the phase's groups, its own first."""
    own = phase.groups
    orders = dict.fromkeys(itertools.permutations(own))
    for specs in [own, *(order for order in orders if order != own)]:
        groups: list[Group] = []
        for spec, part in zip(specs, parts, strict=True):
            try:
                groups.append(parse_group(spec.kind, part))
            except GroupError:
                break
        else:
            return tuple(groups)
    return None


@pytest.mark.parametrize("phrase", PHASES)
def test_the_first_order_that_reads_is_the_one_every_order_tried_finds(phrase: str) -> None:
    phase = Phase.parse(phrase)
    rng = random.Random(phrase)
    read = 0
    for _ in range(300):
        parts = [" ".join(rng.sample(CARDS, rng.randint(1, 3))) for _ in phase.groups]
        expected = _brute_force(phase, parts)
        try:
            action = parse_action("lay " + " + ".join(parts), phase)
        except InvalidActionError:
            assert expected is None
            continue
        read += 1
        assert isinstance(action, LayDown)
        assert action.groups == expected
    assert read > 0


def test_an_eleven_group_text_is_read_with_each_part_read_once_per_kind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    phase = Phase.parse("6 even or odd of 1 + 5 sets of 1")
    calls = 0
    real = actions.parse_group

    def counted(kind: object, text: str) -> Group:
        nonlocal calls
        calls += 1
        return real(kind, text)  # type: ignore[arg-type]

    monkeypatch.setattr(actions, "parse_group", counted)
    # ten parts read as either kind, the last as neither: every order fails
    garbage = "lay " + " + ".join(["R1"] * 10 + ["x"])
    with pytest.raises(InvalidActionError, match="'x' is not a card"):
        parse_action(garbage, phase)
    assert calls <= 11 * 2
    calls = 0
    good = "lay R1 + R3 + R5 + R7 + R9 + R11 + B2 + B4 + G6 + Y8 + G10"
    assert str(parse_action(good, phase)) == good
    assert calls <= 11 * 2

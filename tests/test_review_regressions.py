"""Regression tests for rule errors found by reviewing the engine against the rule book, docs/rules.md.

Each test is named after the rule-book section it defends.
"""

from __future__ import annotations

import copy

import pytest

from helpers import arranged, cards
from phase10 import (
    WILD,
    Advance,
    Arrangement,
    Game,
    GiveWild,
    Rules,
    RulesError,
    Stage,
    WildGiven,
    preset,
)


def test_s8_wild_deal_up_recognises_every_wild_turned_up() -> None:
    """A Wild equal to ``WILD`` but not the same object (a copy, an unpickled card) is
    still a Wild turned up: the dealer gives it away (rules §3 ``wild_deal_up``).
    """
    wild = copy.deepcopy(WILD)
    assert wild == WILD and wild is not WILD
    game = Game(
        2,
        rules=preset("wild-deal-up"),
        seed=3,
        dealer=1,
        arrangement=Arrangement(
            hands=(
                cards("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10"),
                cards("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10"),
            ),
            discard=(wild,),
        ),
    )
    assert game.stage is Stage.GIVE_WILD
    assert game.current == 1
    events = game.apply(GiveWild(0))
    assert events == [WildGiven(1, 0)]
    assert game.stage is Stage.WILD_DISCARD
    assert game.hand(0).count(WILD) == 1


@pytest.mark.parametrize("count", [0, -3, True])
def test_s8_phases_count_must_be_at_least_one(count: int) -> None:
    """``phases = N`` plays the first N phases: N = 0 (or less) is refused, not read as
    "all ten" (rules §8 ``phases``).
    """
    with pytest.raises(RulesError, match="first N phases"):
        Rules.from_dict({"phases": count})
    assert Rules.from_dict({"phases": 3}).phase_count == 3


def test_s8_ten_hands_refuses_players_on_different_phases() -> None:
    """With ``advance = "all"`` everyone plays the same phase every hand; a start with
    players on different phases would push some past the last phase while the game
    goes on (rules §5 "ten hands").
    """
    rules = Rules(advance=Advance.ALL, phases=(1, 2, 3))
    hands = ["R1 R2 R3 R4 R5 R6 R7 R8 R9 R10", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10"]
    with pytest.raises(ValueError, match="same phase"):
        arranged(hands, "G5", phases=[1, 3], rules=rules)
    game = arranged(hands, "G5", phases=[2, 2], rules=rules)
    assert [seat.phase for seat in game.seats] == [1, 1]

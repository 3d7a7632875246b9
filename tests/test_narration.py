"""The event log: one seat addressed as "You" at the source, and each discard told once."""

from __future__ import annotations

import random

from phase10 import (
    SKIP,
    WILD,
    CardHit,
    Declared,
    Discarded,
    Drew,
    Event,
    Floating,
    Game,
    GameEnded,
    GroupKind,
    HandStarted,
    LaidDown,
    Skipped,
    TieBreakStarted,
    TookDiscard,
    WentOut,
    WildGiven,
    parse_cards,
    parse_group,
    preset,
)
from phase10.core.narration import EventLog
from randomplay import play_game

R3, Y1 = parse_cards("R3 Y1")


def narrate(events: list[Event], *, you: int | None = 0, viewer: int | None = 0) -> list[str]:
    log = EventLog(["Ann", "Bob"], preset("floating"), viewer=viewer, you=you, verbose=True)
    log.feed(events)
    return log.lines


def test_you_are_told_in_the_second_person() -> None:
    sevens = parse_group(GroupKind.SET, "R7 B7 W")
    lines = narrate(
        [
            HandStarted(1, 0, (0, 1), 1, WILD),
            WildGiven(0, 1),
            WildGiven(0, 0),
            Declared(0, 2),
            Skipped(0),
            Drew(1, None),
            Discarded(1, SKIP, 0),
            TookDiscard(0, R3),
            LaidDown(0, 1, (sevens,), (0,)),
            CardHit(1, WILD, 0, None, sevens.hit(WILD)),
            Floating(0),
            TieBreakStarted((0, 1)),
            GameEnded((1, 0), "a shared win", (10, 10)),
        ]
    )
    assert lines == [
        "",
        "Hand 1: You deal; the turned-up card is W (a Wild)",
        "  deal: You give the turned-up Wild to Bob",
        "  deal: You keep the turned-up Wild",
        "  deal: You declare phase 2 (1 set of 3 + 1 run of 4)",
        "  turn 1: Your turn is passed (skipped)",
        "  turn 2: Bob draws a card",
        "  turn 2: Bob discards a Skip on you",
        "  turn 3: You take R3 from the discard pile",
        "  turn 3: You lay down phase 1 (2 sets of 3): R7 B7 W=7",
        "  turn 3: Bob hits W=7 on your set: R7 B7 W=7 W=7",
        "  turn 3: Your hand is empty: floating until a discard",
        "",
        "You and Bob completed the last phase with the same total: "
        "you play a tie-break hand on the last phase",
        "",
        "Winners: Bob and you (a shared win) with 10 points each after 1 hand",
    ]
    # without ``you`` the same events name every seat
    named = narrate([HandStarted(1, 0, (0, 1), 1, WILD), Skipped(0), WentOut(0)], you=None)
    assert named[1:] == [
        "Hand 1: Ann deals; the turned-up card is W (a Wild)",
        "  turn 1: Ann's turn is passed (skipped)",
        "  turn 1: Ann goes out",
    ]


def test_a_discard_that_ends_the_hand_is_told_once() -> None:
    """It was told twice: "Bob discards Y1", then "Bob discards Y1 and goes out"."""
    assert narrate([Drew(1, None), Discarded(1, Y1), WentOut(1)]) == [
        "  turn 1: Bob draws a card",
        "  turn 1: Bob discards Y1 and goes out",
    ]
    assert narrate([Drew(0, Y1), Discarded(0, Y1), WentOut(0)])[-1] == (
        "  turn 1: You discard Y1 and go out"
    )
    # a Skip discarded to go out skips nobody: one line too
    assert narrate([Discarded(1, SKIP, 0), WentOut(1)]) == ["  deal: Bob discards S and goes out"]
    # fed one event at a time, the discard is already told: the going out does not repeat it
    log = EventLog(["Ann", "Bob"], preset("official"), verbose=True)
    for event in (Drew(1, None), Discarded(1, Y1), WentOut(1)):
        log.feed([event])
    assert log.lines[1:] == ["  turn 1: Bob discards Y1", "  turn 1: Bob goes out"]


def test_no_line_of_a_whole_game_repeats_the_discard_before_it() -> None:
    found = 0
    for seed in range(4):
        game = play_game(
            Game(2, rules=preset("official").with_options(phases=(1,)), seed=seed),
            random.Random(seed),
        )
        for you in (None, 0):
            names = [seat.name for seat in game.seats]
            log = EventLog(names, game.rules, viewer=you, you=you, verbose=True)
            for start in range(0, len(game.history), 7):  # in batches, as a screen feeds it
                log.feed(game.history[start : start + 7])
            for before, line in zip(log.lines, log.lines[1:], strict=False):
                if line.endswith("and goes out") or line.endswith("and go out"):
                    found += "discard" in line
                    assert "discard" not in before or before.split(": ", 1)[1] not in line
    assert found


def test_a_player_hitting_their_own_group_is_not_named_twice() -> None:
    sevens = parse_group(GroupKind.SET, "R7 B7 W")
    events = [
        HandStarted(1, 0, (0, 1), 1, R3),
        LaidDown(1, 1, (sevens,), (0,)),
        CardHit(1, WILD, 0, None, sevens.hit(WILD)),
        CardHit(0, WILD, 0, None, sevens.hit(WILD).hit(WILD)),
    ]
    said = narrate(events, you=0)
    assert said[-2].endswith("Bob hits W=7 on their own set: R7 B7 W=7 W=7")
    assert said[-1].endswith("You hit W=7 on Bob's set: R7 B7 W=7 W=7 W=7")
    # and your own is yours, as ever
    assert narrate(events, you=1)[-2].endswith("You hit W=7 on your set: R7 B7 W=7 W=7")

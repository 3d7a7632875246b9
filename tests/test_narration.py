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
    assert narrate([Discarded(1, SKIP, 0), WentOut(1)]) == [
        "  deal: Bob discards a Skip and goes out"
    ]
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


def test_the_last_move_is_worded_for_the_seat_that_made_it_and_for_you() -> None:
    """What a table marks on a seat ("Bob drew a card") and beside your hand ("You were
    skipped"): one wording, the server's, for every move a hand can end on."""
    from phase10.core import ANTI, GaveUp, MovedDown, Refilled, Saved, TookSaved
    from phase10.core.narration import last_move

    names = ["Ann", "Bob", "Cy"]
    r7, y1 = parse_cards("R7 Y1")
    group = parse_group(GroupKind.SET, "R7 R7 W")
    cases: list[tuple[Event, tuple[int, str, str, str]]] = [
        (Drew(0, r7), (0, "draw", "drew R7", "drew R7")),
        (TookDiscard(1, y1), (1, "take", "took Y1", "took Y1")),
        (LaidDown(2, 1, (group,), (4,)), (2, "lay", "laid down phase 1", "laid down phase 1")),
        (CardHit(0, r7, 4, None, group), (0, "hit", "hit R7", "hit R7")),
        (Discarded(1, y1), (1, "discard", "discarded Y1", "discarded Y1")),
        (Discarded(1, SKIP, 2), (1, "skip", "skipped Cy", "skipped Cy")),
        (Discarded(1, ANTI, 0), (1, "anti", *["went out naming Ann with the Anti-phase card"] * 2)),
        (MovedDown(0, None, 1), (0, "moved-down", "had no phase to lose", "had no phase to lose")),
        (MovedDown(0, 3, 1), (0, "moved-down", *["moved down: phase 3 again"] * 2)),
        (Skipped(2), (2, "skipped", "was skipped", "were skipped")),
        (Declared(0, 4), (0, "declare", "declared phase 4", "declared phase 4")),
        (WildGiven(1, 2), (1, "give", "gave the Wild to Cy", "gave the Wild to Cy")),
        (Saved(0, r7), (0, "save", "saved R7", "saved R7")),
        (TookSaved(0, r7, public=True), (0, "take", *["took R7 back from the save pile"] * 2)),
        (GaveUp(2, 5, (4,), 7), (2, "give-up", "gave up phase 5", "gave up phase 5")),
        (Refilled(1, 3, None), (1, "draw", "drew 3 back up to ten", "drew 3 back up to ten")),
    ]
    for event, (seat, kind, text, own) in cases:
        moved = last_move([event], names, viewer=seat)
        assert moved is not None and (moved.seat, moved.kind, moved.text, moved.own) == (
            seat, kind, text, own), event  # fmt: skip
    # what another player may not see stays hidden; a hand nobody has moved in has none
    assert last_move([Drew(0, r7)], names, viewer=1).text == "drew a card"  # type: ignore[union-attr]
    assert last_move([Saved(0, r7)], names, viewer=1).text == "saved a card"  # type: ignore[union-attr]
    hand = HandStarted(2, 1, (0, 1, 2), 2, WILD)
    assert last_move([Drew(0, r7), hand], names, viewer=0) is None
    laid = last_move([LaidDown(2, 1, (group,), (4,)), WentOut(2)], names, viewer=None)
    assert laid is not None and laid.groups == (4,) and laid.to_dict()["groups"] == [4]

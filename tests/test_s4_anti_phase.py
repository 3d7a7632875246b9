"""docs/rules.md §4 "The Anti-phase card" (``anti_phase``, the Masters Edition's Anti-phase
for others), with its rows in §1 (the deck, its points), §5 (before the game's end is decided)
and §8 (the option, the preset, the readings)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers import arranged, assert_refused, greedy_action, of_type, play, play_until
from phase10 import (
    ANTI,
    PRESETS,
    CardError,
    Discard,
    Game,
    GameEnded,
    HandEnded,
    HandStarted,
    IllegalActionError,
    InvalidActionError,
    MovedDown,
    Refusal,
    Rules,
    RulesError,
    Save,
    TookDiscard,
    WentOut,
    deck_counts,
    parse_cards,
    preset,
)
from phase10.core.narration import EventLog

ANTI_RULES = Rules(anti_phase="on")
#: p0 lays phase 1, hits G1 and holds only the Anti-phase card; p1 is on phase 4
OUT_WITH_A = ("R1 B1 G1 R2 B2 G2 A", "R9 R10 R11 B4 B5 B6 Y7 Y8 G12 G11")


def test_s1_the_anti_phase_card_is_one_more_card_of_the_deck() -> None:
    assert str(ANTI) == "A" and parse_cards("a") == (ANTI,) and ANTI.points == 15
    assert ANTI.number is None and ANTI.color is None and not ANTI.is_wild
    assert Rules().deck_size == 108 and ANTI not in Rules().deck_counts
    assert ANTI_RULES.deck_size == 109 and ANTI_RULES.deck_counts[ANTI] == 1
    assert preset("anti-phase").deck_size == 107  # the Masters tin's 106 and the card
    with pytest.raises(ValueError, match="the deck holds no A"):
        arranged(OUT_WITH_A, "Y12", "G1")  # no such card without the option
    with pytest.raises(ValueError, match="holds only 1 A"):
        arranged(("A A R1", "R2"), "Y12", rules=ANTI_RULES)
    with pytest.raises(CardError, match="0 or 1 Anti-phase card"):
        deck_counts(antis=2)


def test_s4_going_out_with_the_anti_phase_card_names_who_moves_down() -> None:
    game = arranged(OUT_WITH_A, "Y12", "G1", phases=(1, 4), rules=ANTI_RULES)
    play(game, "draw; lay R1 B1 G1 + R2 B2 G2; hit G1 g0")
    assert game.hand(0) == (ANTI,)
    assert set(game.legal_actions) == {Discard(ANTI, 1)}
    assert_refused(
        game,
        "discard A",
        IllegalActionError,
        "name who moves down a phase (discard A>pN with N one of p1)",
    )
    assert_refused(game, "discard A>p0", IllegalActionError, "cannot move yourself down")
    assert_refused(game, "discard A>p5", InvalidActionError, "no player 5")
    events = play(game, "discard A>p1")
    assert of_type(events, WentOut) == [WentOut(0)]
    assert of_type(events, MovedDown) == [MovedDown(1, 3, named_by=0)]
    ended = of_type(events, HandEnded)[0]
    assert events.index(of_type(events, MovedDown)[0]) < events.index(ended)
    assert ended.phases_completed == (1, 2)  # p1 had 3 completed, now 2
    assert ended.moved_down == (1,)
    log = EventLog(["Ann", "Bob"], ANTI_RULES, viewer=1)
    log.feed(events)
    assert any("Ann discards A and goes out, naming Bob" in line for line in log.lines)
    assert game.seats[1].phase == 2 and game.seats[1].completed == {0, 1}  # phase 3 again
    assert game.seats[0].phase == 1  # p0 moved on as usual
    assert ended.points == (0, 70)


def test_s4_the_anti_phase_card_discarded_early_names_nobody_and_may_be_taken() -> None:
    hands = ("R1 B1 G1 R2 B2 G2 A Y5", "R9 R10 R11 B4 B5 B6 Y7 Y8 G12 G11")
    game = arranged(hands, "Y12", "G7 G8", rules=ANTI_RULES)
    play(game, "draw")
    assert Discard(ANTI) in game.legal_actions
    assert not any(a.target is not None for a in game.legal_actions if isinstance(a, Discard))
    assert_refused(game, "discard A>p1", IllegalActionError, "only when it is your last card")
    play(game, "discard A")
    assert game.discard_top == ANTI
    events = play(game, "take")
    assert of_type(events, TookDiscard) == [TookDiscard(1, ANTI)]
    assert ANTI in game.hand(1)


def test_s4_holding_the_anti_phase_card_at_the_hand_end_moves_you_down() -> None:
    hands = ("R1 B1 G1 R2 B2 G2", "R9 R10 R11 B4 B5 B6 Y7 Y8 G12 A")
    game = arranged(hands, "Y12", "G1", phases=(1, 3), rules=ANTI_RULES)
    events = play(game, "draw; lay R1 B1 G1 + R2 B2 G2; discard G1")
    assert of_type(events, MovedDown) == [MovedDown(1, 2, named_by=None)]
    assert game.seats[1].phase == 1 and of_type(events, HandEnded)[0].points == (0, 75)
    log = EventLog(["Ann", "Bob"], ANTI_RULES)
    log.feed(events)
    told = [line for line in log.lines if "moves down" in line]
    assert len(told) == 1 and "Bob moves down a phase, holding the Anti-phase card" in told[0]
    assert "phase 2 must be made again" in told[0]


def test_s4_a_player_with_no_completed_phase_loses_nothing() -> None:
    game = arranged(OUT_WITH_A, "Y12", "G1", rules=ANTI_RULES)
    events = play(game, "draw; lay R1 B1 G1 + R2 B2 G2; hit G1 g0; discard A>p1")
    assert of_type(events, MovedDown) == [MovedDown(1, None, named_by=0)]
    assert game.seats[1].phase == 0 and not game.seats[1].completed


def test_s4_the_anti_phase_card_is_never_part_of_a_group_and_is_never_saved() -> None:
    hands = ("R1 B1 A R2 B2 G2 G1", "R9 R10 R11 B4 B5 B6 Y7 Y8 G12 G11")
    game = arranged(
        hands, "Y12", "G9 G10", rules=preset("anti-phase").with_options(declare="laydown")
    )
    play(game, "draw")
    assert_refused(
        game, "lay 1: R1 B1 A + R2 B2 G2", InvalidActionError, "never be part of a group"
    )
    play(game, "lay 1: R1 B1 G1 + R2 B2 G2")
    assert_refused(game, "hit A g0", IllegalActionError, "A")
    assert_refused(game, "save A", IllegalActionError, "cannot be saved")
    assert Save(ANTI) not in game.legal_actions
    assert Save(parse_cards("G9")[0]) in game.legal_actions  # another card may be saved


def refusal_code(game: Game, text: str) -> Refusal | None:
    try:
        game.apply(text)
    except IllegalActionError as error:
        return error.code
    return None


def test_s4_the_refusals_have_their_own_codes() -> None:
    rules = preset("anti-phase").with_options(declare="laydown")
    game = arranged(OUT_WITH_A, "Y12", "G1 G9", phases=(1, 4), rules=rules)
    play(game, "draw")
    assert refusal_code(game, "save A") is Refusal.ANTI_NOT_SAVED
    assert refusal_code(game, "discard A>p1") is Refusal.ANTI_NAMES_NOBODY
    play(game, "lay 1: R1 B1 G1 + R2 B2 G2; hit G1 g0")
    assert refusal_code(game, "discard A") is Refusal.NAME_ANTI_TARGET
    assert refusal_code(game, "discard A>p0") is Refusal.ANTI_SELF


def test_s5_a_named_player_who_completed_the_last_phase_does_not_win() -> None:
    """Moving down comes before the game's end is decided (phases 1 and 2 only)."""
    rules = ANTI_RULES.with_options(phases=(1, 2))
    hands = ("R1 B1 G1 R2 B2 G2 A Y9", "R7 B7 G7 Y3 Y4 Y5 Y6 B11 G12 R12")
    game = arranged(hands, "Y12", "G1 G8 B1", phases=(1, 2), rules=rules)
    play(game, "draw; lay R1 B1 G1 + R2 B2 G2; discard Y9")
    play(game, "draw; lay R7 B7 G7 + Y3 Y4 Y5 Y6; discard B11")  # p1 made the last phase
    events = play(game, "draw; hit B1 g0; hit G1 g0; discard A>p1")
    assert of_type(events, MovedDown) == [MovedDown(1, 2, named_by=0)]
    assert of_type(events, GameEnded) == []  # p1 has phase 2 to make again
    assert of_type(events, HandStarted)[0].hand == 2 and not game.is_over


def test_s5_nobody_moves_down_in_a_tie_break_hand() -> None:
    ten_a, ten_b = "R5 R5 B5 B5 G5 R9 B9 G9", "G6 Y6 Y6 R6 R6 R10 B10 G10"
    for seed in range(1, 60):  # a tie-break deal that gives a tied player the card
        game = arranged(
            [ten_a + " R1", ten_b, "G1 G3"],
            "R12",
            "R11 Y12 Y1",
            phases=(10, 10, 4),
            scores=(45, 50, 0),
            rules=ANTI_RULES,
            seed=seed,
        )
        play(game, "draw; lay R5 R5 B5 B5 G5 + R9 B9 G9; discard R11")
        play(game, "draw; lay G6 Y6 Y6 R6 R6 + R10 B10 G10; discard Y12")
        if game.tie_break and any(ANTI in game.hand(p) for p in (0, 1)):
            break
    else:
        pytest.fail("no seed dealt the Anti-phase card into the tie-break hand")
    assert game.anti_targets(0) == game.anti_targets(1) == ()
    events = play_until(game, lambda g: False, greedy_action)
    assert of_type(events, MovedDown) == [] and game.is_over


def test_s8_anti_phase_is_an_option_with_a_preset_and_refused_with_ten_hands() -> None:
    assert PRESETS["anti-phase"] == preset("masters").with_options(anti_phase="on")
    assert Rules.from_dict(ANTI_RULES.to_dict()) == ANTI_RULES
    with pytest.raises(RulesError, match="anti_phase must be 'off'"):
        Rules(advance="all", anti_phase="on")
    with pytest.raises(RulesError, match="anti_phase must be one of 'off', 'on'"):
        Rules(anti_phase="sometimes")


def test_s8_random_anti_phase_games_keep_every_card() -> None:
    """Whole games under the preset: the deck's 107 cards always, and moves down happen."""
    moved = Counter[bool]()
    for seed in range(3):
        game = Game(3, rules=preset("anti-phase"), seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game.actions) < 3000:
            actions = list(game.legal_actions)
            progress = [a for a in actions if type(a).__name__ in ("LayDown", "Hit")]
            game.apply(rng.choice(progress if progress and rng.random() < 0.9 else actions))
            assert Counter(game.all_cards()) == Counter(dict(game.rules.deck_counts))
        moved.update(e.named_by is None for e in game.history if isinstance(e, MovedDown))
    assert moved  # the card did its work in these games

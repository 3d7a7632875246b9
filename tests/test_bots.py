"""The greedy and strong bots: only legal actions, only their view, sound play, seeds.

Every bot answers from a :class:`PlayerView`, which holds no reference to the game:
these tests check the answers are always legal, that two games differing only in
cards the bot cannot see get the same answers, and that the heuristics keep their
promises on arranged positions.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from helpers import arranged, edited
from phase10.bots import RandomPlayer, SimplePlayer, make_player, parse_bot_list, play_game
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.strong import DEFAULT_LEVEL, LEVELS, StrongPlayer
from phase10.core import (
    Action,
    Discard,
    Draw,
    Game,
    Hit,
    LayDown,
    PlayerView,
    Rules,
    Stage,
    TakeDiscard,
    parse_cards,
    preset,
)
from phase10.solver.batch import shared_checker


class Checked:
    """Every choice must be one of the view's legal actions; counts the choices."""

    def __init__(self, player: object) -> None:
        self.player = player
        self.choices = 0

    def choose(self, view: PlayerView) -> Action:
        action = self.player.choose(view)  # type: ignore[attr-defined]
        assert action in list(view.legal_actions), f"{action} is not legal here"
        self.choices += 1
        return action


GAMES = [
    ("official", 2, 0),
    ("official", 4, 1),
    ("official", 6, 2),
    ("masters", 3, 3),
    ("floating", 4, 4),
    ("wild-deal-up", 3, 5),
    ("skip-next", 4, 6),
    ("natural-per-phase", 3, 7),
    ("end-immediately", 2, 8),
    ("no-reshuffle", 4, 9),
    ("edition-3", 3, 10),
    ("edition-9", 2, 11),
]


@pytest.mark.parametrize(("rules", "players", "seed"), GAMES)
def test_greedy_plays_only_legal_actions_to_the_end(rules: str, players: int, seed: int) -> None:
    game = Game(players, rules=preset(rules), seed=seed)
    bots = [Checked(GreedyPlayer(random.Random(seed * 10 + i))) for i in range(players)]
    play_game(game, bots)
    assert game.is_over and game.winners
    assert all(bot.choices > 0 for bot in bots)


@pytest.mark.parametrize(("rules", "players", "seed"), GAMES[::2])
def test_strong_plays_only_legal_actions_to_the_end(rules: str, players: int, seed: int) -> None:
    game = Game(players, rules=preset(rules).with_options(phases=(1, 2, 8)), seed=seed)
    bots = [
        Checked(StrongPlayer(random.Random(seed), level=1 + seat % 4))
        if seat % 2 == 0
        else Checked(GreedyPlayer(random.Random(seed)))
        for seat in range(players)
    ]
    play_game(game, bots)
    assert game.is_over and game.winners


def test_bots_answer_the_same_when_only_hidden_cards_differ() -> None:
    """Two games identical except the opponents' hands and the draw pile: the same views,
    so the same answers from identically seeded bots, position after position.
    """
    game = Game(3, seed=21)
    checked = 0
    while not game.is_over and checked < 60:
        seat = game.current
        view = game.view(seat)
        other = next(s for s in range(3) if s != seat)

        def swap_hidden_card(state: dict[str, Any], other: int = other) -> None:
            """Swap one card between two hidden places: an opponent's hand and the draw pile."""
            if state["seats"][other]["hand"] and state["draw_pile"]:
                hand = state["seats"][other]["hand"].split()
                pile = state["draw_pile"].split()
                hand[0], pile[-1] = pile[-1], hand[0]
                state["seats"][other]["hand"] = " ".join(hand)
                state["draw_pile"] = " ".join(pile)

        twin = edited(game, swap_hidden_card)
        assert twin.view(seat) == view
        for make in (GreedyPlayer, lambda rng: StrongPlayer(rng, level=1)):
            assert make(random.Random(5)).choose(view) == make(random.Random(5)).choose(
                twin.view(seat)
            )
        game.apply(GreedyPlayer(random.Random(checked)).choose(view))
        checked += 1
    assert checked == 60


def test_a_seeded_game_between_strong_bots_is_reproducible() -> None:
    def play(seed: int) -> list[str]:
        game = Game(2, rules=preset("official").with_options(phases=(1, 2)), seed=seed)
        play_game(game, [StrongPlayer(random.Random(1)), StrongPlayer(random.Random(2), level=2)])
        return [str(action) for action in game.actions]

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_greedy_takes_a_discard_that_brings_its_phase_closer() -> None:
    game = arranged(["R7 B7 G3 Y9 R11 B12 G1 Y5 R2 B10", "R1 R1 R3 R4 R5 R6 B8 B9 G12 G10"], "G7")
    assert GreedyPlayer(random.Random(0)).choose(game.view(0)) == TakeDiscard()
    useless = arranged(
        ["R7 B7 G3 Y9 R11 B12 G1 Y5 R2 B10", "R1 R1 R3 R4 R5 R6 B8 B9 G12 G10"], "Y4"
    )
    assert GreedyPlayer(random.Random(0)).choose(useless.view(0)) == Draw()


def test_greedy_lays_down_as_much_as_it_can_then_hits() -> None:
    game = arranged(
        ["R7 B7 G7 Y7 R3 B3 W G9 Y12 R1", "R1 R2 R3 R4 R5 R6 B8 B9 G12 G10"], "B11", "Y8"
    )
    player = GreedyPlayer(random.Random(0))
    game.apply(player.choose(game.view(0)))  # draw Y8
    lay = player.choose(game.view(0))
    assert isinstance(lay, LayDown)
    assert len(lay.cards) == 7  # R7 B7 G7 Y7 + R3 B3 W
    game.apply(lay)
    after = player.choose(game.view(0))
    assert isinstance(after, Discard)  # nothing left can be hit


def test_greedy_discards_what_its_phase_needs_least_and_keeps_wilds() -> None:
    game = arranged(["R7 B7 G3 Y3 W R11 B12 G1 Y5 R2", "R1 R2 R3 R4 R5 R6 B8 B9 G12 G10"], "B4")
    player = GreedyPlayer(random.Random(0))
    game.apply(Draw())
    action = player.choose(game.view(0))
    assert isinstance(action, Discard)
    assert not action.card.is_wild
    assert action.card.number not in (7, 3)  # the pairs stay


def test_greedy_aims_a_skip_at_the_leader() -> None:
    game = arranged(
        [
            "S R7 B7 G3 Y3 R11 B12 G1 Y5 R2",
            "R1 R2 R3 R4 R5 R6 B8 B9 G12 G10",
            "R9 " * 0 + "Y1 Y2 Y3 Y4 Y6 Y7 Y8 Y9 Y10 Y11",
        ],
        "B4",
        phases=[1, 1, 5],
    )
    game.apply(Draw())
    action = GreedyPlayer(random.Random(0)).choose(game.view(0))
    assert action == Discard(action.card, 2) and action.card.is_skip


def test_greedy_does_not_feed_a_hit_to_the_next_player() -> None:
    """With the next player down and able to hit, it keeps the card they could hit."""
    game = arranged(
        ["R1 R1 B5 B5 G9 Y11 Y12 R12 G2 B10", "R7 B7 G7 R3 B3 Y3 G12 B12 Y10 R10"],
        "G4",
        "Y9 B9",
    )
    game.apply(Draw())
    game.apply(Discard(game.hand(0)[-1]))  # any card; now seat 1 lays down
    game.apply(Draw())
    game.apply(LayDown(GreedyPlayer(random.Random(0)).choose(game.view(1)).groups))  # type: ignore[attr-defined]
    view = game.view(1)
    while game.current == 1:
        game.apply(GreedyPlayer(random.Random(0)).choose(game.view(1)))
    game.apply(Draw())  # seat 0 draws B9
    action = GreedyPlayer(random.Random(0)).choose(game.view(0))
    assert isinstance(action, Discard)
    table = [meld.group for meld in game.view(0).melds]
    fits = [c for c in game.hand(0) if any(g.placements(c) for g in table)]
    if len(fits) < len(game.hand(0)):
        assert not any(g.placements(action.card) for g in table)
    assert view.stage is Stage.PLAY or view.stage is Stage.DRAW


def test_strong_levels_and_registry() -> None:
    assert set(LEVELS) == {1, 2, 3, 4}
    assert [LEVELS[n].futures for n in (1, 2, 3, 4)] == sorted(LEVELS[n].futures for n in LEVELS)
    assert [LEVELS[n].horizon for n in (1, 2, 3, 4)] == sorted(LEVELS[n].horizon for n in LEVELS)
    assert [LEVELS[n].noise for n in (4, 3, 2, 1)] == sorted(LEVELS[n].noise for n in LEVELS)
    assert [LEVELS[n].opponent_samples for n in (1, 2, 3, 4)] == sorted(
        LEVELS[n].opponent_samples for n in LEVELS
    )
    # level 4 searches wider than level 3 (four times the futures and samples) ...
    assert LEVELS[4].futures == 4 * LEVELS[3].futures
    assert LEVELS[4].opponent_samples == 4 * LEVELS[3].opponent_samples
    view = Game(2, seed=3).view(0)
    for level in LEVELS:
        bot = StrongPlayer(random.Random(0), level=level)
        checker = shared_checker(view.phase_of(0), view.rules.natural_min)
        assert bot._futures(view, 3, checker).shape == (LEVELS[level].futures, 3)
    # ... and the race to go out and aimed Skips make it measurably stronger
    assert [n for n in LEVELS if LEVELS[n].outs and LEVELS[n].aim_skips] == [4]
    assert isinstance(make_player("strong:2", random.Random(0)), StrongPlayer)
    assert make_player("strong", random.Random(0)).level == DEFAULT_LEVEL == 4  # type: ignore[attr-defined]
    assert isinstance(make_player("greedy", random.Random(0)), GreedyPlayer)
    with pytest.raises(ValueError, match="level is 1 to 4"):
        make_player("strong:9", random.Random(0))
    for spec in ("strong: 3", "STRONG:03", " strong:3 "):  # read as parse_bot_list reads them
        assert parse_bot_list(spec) == ["strong:3"]
        assert make_player(spec, random.Random(0)).level == 3  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="strong's level is 1 to 4, not '\u00b3'"):
        make_player("strong:\u00b3", random.Random(0))
    with pytest.raises(ValueError, match="unknown bot 'greedy:2'"):
        parse_bot_list("greedy:2")
    with pytest.raises(ValueError, match="level is 1 to 4"):
        StrongPlayer(random.Random(0), level=0)


def test_hits_come_before_the_discard_once_down() -> None:
    game = arranged(
        ["R7 B7 G7 R3 B3 W R8 R9 Y12 G1", "R1 R2 R4 R5 R6 B8 B9 G12 G10 Y1"], "B11", "G11 Y7 Y7"
    )
    me, other = GreedyPlayer(random.Random(0)), GreedyPlayer(random.Random(1))
    game.apply(Draw())  # G11
    lay = me.choose(game.view(0))
    assert isinstance(lay, LayDown)
    game.apply(lay)
    while game.current == 0:
        game.apply(me.choose(game.view(0)))
    while game.current == 1:
        game.apply(other.choose(game.view(1)))
    game.apply(Draw())  # Y7
    action = me.choose(game.view(0))
    assert isinstance(action, Hit) and str(action.card) == "Y7"


def test_declined_lists_the_discards_a_player_passed_over() -> None:
    from phase10.bots.knowledge import declined, known_held

    game = arranged(
        ["R7 B7 G3 Y9 R11 B12 G1 Y5 R2 B10", "R1 R1 R3 R4 R5 R6 B8 B9 G12 G10"],
        "G7",
        "Y4 Y6 S",
    )
    game.apply(TakeDiscard())  # seat 0 takes the G7
    game.apply(Discard(parse_cards("Y9")[0]))
    game.apply(Draw())  # seat 1 passes over the Y9
    game.apply(Discard(parse_cards("G12")[0]))
    view = game.view(0)
    assert [str(card) for card in declined(view, 1)] == ["Y9"]
    assert declined(view, 0) == []
    assert {
        seat: sorted(map(str, cards.elements())) for seat, cards in known_held(game.view(1)).items()
    } == {0: ["G7"]}


def test_strong_once_down_keeps_the_cards_that_can_still_go_out() -> None:
    """Down with a 5 (no group can ever take it) and Y11 G12 (a 10 away from the run), the
    strong bot throws the 5, though the greedy bot sheds a 10-point card instead."""
    hands = ["R3 R4 R5 R6 G7 B8 Y9 Y11 B5 G12", "R1 R1 B3 B4 G9 Y1 Y2 R12 G2 B10"]
    choices = {}
    for name, player in (
        ("strong", StrongPlayer(random.Random(0))),
        ("greedy", GreedyPlayer(random.Random(0))),
    ):
        game = arranged(hands, "Y5", "R2", phases=[4, 1])
        game.apply(Draw())  # R2
        lay = player.choose(game.view(0))
        assert isinstance(lay, LayDown) and len(lay.cards) == 8  # R2 to Y9
        game.apply(lay)
        action = player.choose(game.view(0))
        assert isinstance(action, Discard)
        choices[name] = str(action.card)
    assert choices["strong"] in ("R5", "B5")
    assert choices["greedy"] in ("Y11", "G12")


def test_turns_to_out_draws_hits_and_discards() -> None:
    from phase10.bots.strong import _turns_to_out
    from phase10.core import GroupKind, parse_group

    table = [parse_group(GroupKind.RUN, "R3 R4 R5 R6 G7 B8 Y9")]
    hand = parse_cards("Y11 G12")
    assert _turns_to_out(table, hand, parse_cards("B10 R1 R1")) == 0  # 10, 11, 12 all go
    assert _turns_to_out(table, hand, parse_cards("R1 W R5")) == 1  # R1 hit, then W=10
    assert _turns_to_out(table, hand, parse_cards("G5 B5 R5")) == 4  # never within 3 draws
    assert _turns_to_out(table, parse_cards("B5 G12"), parse_cards("B10 W W")) == 1


def test_strong_skips_the_player_about_to_go_out() -> None:
    """Not down itself, the strong bot skips the player down to one card; the greedy bot
    skips the leader in phases."""
    hands = [
        "S R11 B12 G1 Y5 R2 B10 G9 Y4 R6",
        "R1 R2 R3 R4 R5 R6 B8 B9 G12 G10",
        "R7 B7 G7 Y7 R3 B3 Y3 G3 B12 Y10",
    ]
    targets = {}
    for name, player in (
        ("strong", StrongPlayer(random.Random(0))),
        ("greedy", GreedyPlayer(random.Random(0))),
    ):
        game = arranged(hands, "Y6", "G1 Y1 R7 B1", phases=[1, 5, 1])
        game.apply(Draw())
        game.apply(Discard(parse_cards("R11")[0]))
        game.apply(Draw())
        game.apply(Discard(parse_cards("G12")[0]))
        other = GreedyPlayer(random.Random(1))
        while game.current == 2:
            game.apply(other.choose(game.view(2)))
        assert game.view(0).seats[2].laid is not None and len(game.hand(2)) == 1
        game.apply(Draw())
        action = player.choose(game.view(0))
        assert isinstance(action, Discard) and action.card.is_skip
        targets[name] = action.target
    assert targets == {"strong": 2, "greedy": 1}


def test_strong_counts_the_cards_still_missing_at_the_horizon() -> None:
    """Far from a run of 9, the chance of making it within the horizon hardly tells a hand
    one card closer from another; level 4 also counts the cards each future still misses
    at the horizon, so the closer hand is clearly ahead."""
    from phase10.solver import hand_counts

    game = arranged(
        ["R1 R2 R3 Y12 G12 B12 Y11 G11 R9 B9", "R1 R2 B3 B4 G9 Y1 Y2 R12 G2 B10"],
        "Y5",
        "G1 Y1 R7 B1",
        phases=[6, 1],
    )
    view = game.view(0)
    phase = view.phase_of(5)
    closer = hand_counts(parse_cards("R1 R2 R3 Y12 G12 B12 Y11 G11 R9 R4"))
    further = hand_counts(parse_cards("R1 R2 R3 Y12 G12 B12 Y11 G11 R9 B9"))
    natural_min = view.rules.natural_min
    plain = StrongPlayer(random.Random(0), level=3)._values(
        [closer, further], phase, natural_min, view
    )
    assert max(plain) < 0.3 and abs(plain[0] - plain[1]) < 0.3
    tail = StrongPlayer(random.Random(0), level=4)._values(
        [closer, further], phase, natural_min, view
    )
    assert tail[0] > tail[1] + 1.0
    assert LEVELS[4].tail > 0 and LEVELS[3].tail == 0


def test_strong_shares_its_denial_among_the_opponents() -> None:
    hands = ["R1 R2 R3 Y12 G12 B12 Y11 G11 R9 B9", "R1 R2 B3 B4 G9 Y1 Y2 R12 G2 B10"]
    two = arranged(hands, "Y5").view(0)
    four = arranged(
        [*hands, "G3 G4 G5 B6 B7 Y8 Y9 R10 R11 B1", "B2 B5 G6 G7 Y3 Y4 R6 R8 G8 Y6"], "Y5"
    ).view(0)
    level4, level3 = (
        StrongPlayer(random.Random(0), level=4),
        StrongPlayer(random.Random(0), level=3),
    )
    assert level3.denial_weight(two) == level3.denial_weight(four) == 0.5
    assert level4.denial_weight(two) == LEVELS[4].denial == 2.0
    assert level4.denial_weight(four) == pytest.approx(level4.denial_weight(two) / 3)


@pytest.mark.parametrize(
    "phases",
    [
        ["2 sets of 3"],
        ["1 run of 8"],
        ["7 cards of one color"],
        ["1 set of 5 + 1 set of 2", "2 sets of 4"],
        ["1 run of 4 + 4 cards of one color"],  # checked row by row in a batch
        ["1 color run of 4 + 3 sets of 2", "1 even or odd of 8"],  # (edition-3's, by row)
    ],
)
def test_the_opponent_model_counts_cards_missing_like_the_solver(phases: list[str]) -> None:
    """The strong bot guesses the next player's hands in a batch: its distance is the
    solver's exact count of cards missing, and a card brings a hand closer exactly when
    the solver says one card more leaves fewer missing."""
    import numpy as np

    from phase10.bots.strong import _closer, _distance
    from phase10.core import Phase
    from phase10.solver import BatchChecker, deal_counts, missing

    checkers = [BatchChecker(Phase.parse(text)) for text in phases]
    hands = deal_counts(np.random.default_rng(3), 120, 10)
    expected = [min(missing(c.phase, row) for c in checkers) for row in hands.tolist()]
    now = _distance(checkers, hands)
    assert now.tolist() == expected
    cards = parse_cards("R7 G7 B1 Y12 W")
    closer = _closer(checkers, hands, now, cards)
    for row, distance, flags in zip(hands.tolist(), expected, closer.tolist(), strict=True):
        for card, flag in zip(cards, flags, strict=True):
            row[card.index] += 1
            assert flag == (min(missing(c.phase, row) for c in checkers) < distance)
            row[card.index] -= 1


def test_strong_guesses_which_cards_help_the_next_player() -> None:
    """The next player's hand is hidden, so the bot samples it: a Wild brings every
    sampled hand closer to two sets of three (but those that hold them already), a Skip
    none, and a plain card fewer than a Wild."""
    game = arranged(
        ["R1 R2 R3 Y12 G12 B12 Y11 G11 R9 B9", "G5 B5 R8 Y8 B8 G2 Y4 R10 G11 Y6"],
        "Y7",
        "G3 B4",
        phases=[1, 1],
    )
    view = game.view(0)
    cards = parse_cards("W S R5")
    helps = StrongPlayer(random.Random(0))._helps_next(view, cards)
    assert helps == StrongPlayer(random.Random(0))._helps_next(view, cards)
    assert helps[cards[0]] > 0.5
    assert helps[cards[1]] == 0.0
    assert 0.0 < helps[cards[2]] < helps[cards[0]]


def test_the_hand_strength_example_compares_a_bot_with_greedy_on_the_same_deals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "bots" / "hand_strength.py"
    spec = importlib.util.spec_from_file_location("hand_strength", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "hand_strength", example)
    spec.loader.exec_module(example)
    first, seat = example.deal(7, 3)
    assert first == example.deal(7, 3)[0] and seat == 7 % 3
    assert len(first.hands) == 3 and all(len(hand) == 10 for hand in first.hands)
    assert all(1 <= phase <= 10 for phase in first.phases)
    found = example.main(["random", "--hands", "6", "--players", "3", "--seed", "2"])
    assert set(found) == {"random", "greedy", "edge"}
    for row in (found["random"], found["greedy"]):
        assert 0 <= row["laid"] <= 1 and 0 <= row["opponents"] <= 1
        assert row["gap"] == pytest.approx(row["laid"] - row["opponents"])
    # the same deals for both, so the edge is the difference of the gaps
    assert found["edge"]["gap"] == pytest.approx(found["random"]["gap"] - found["greedy"]["gap"])
    assert found["edge"]["points"] == pytest.approx(
        found["random"]["points"] - found["greedy"]["points"]
    )
    # a seat that goes out holds nothing, so it is never left with more than its opponents
    hands = example.measure("greedy", hands=6, players=3, seed=2, jobs=1)
    assert any(hand.went_out for hand in hands) and any(hand.points for hand in hands)
    assert all(hand.points <= 0 for hand in hands if hand.went_out)
    assert "edge over greedy, same deals" in capsys.readouterr().out
    assert set(example.main(["greedy", "--hands", "2"])) == {"greedy"}
    # --by-phase: the same hands, grouped by the phase the seat under test was dealt
    split = example.main(["random", "--hands", "12", "--players", "3", "--seed", "2", "--by-phase"])
    dealt = Counter(example.deal(2 + i, 3)[0].phases[(2 + i) % 3] for i in range(12))
    rows = {key: row for key, row in split.items() if key.startswith("phase ")}
    assert {key: row["hands"] for key, row in rows.items()} == {
        f"phase {phase}": hands for phase, hands in dealt.items()
    }
    for row in rows.values():
        assert row["difference"] == pytest.approx(row["laid"] - row["greedy_laid"])
    overall = sum(row["laid"] * row["hands"] for row in rows.values()) / 12
    assert overall == pytest.approx(split["random"]["laid"])
    assert "phase  hands     random  greedy  difference" in capsys.readouterr().out


def test_players_refuse_what_is_not_a_random_generator_or_a_level() -> None:
    for factory in (RandomPlayer, SimplePlayer, GreedyPlayer, StrongPlayer):
        with pytest.raises(TypeError, match=r"random.Random\(0\), not None"):
            factory(None)  # type: ignore[arg-type]
    for level in (True, 4.0, "4", 0, 5):
        with pytest.raises(ValueError, match="strong's level is 1 to 4"):
            StrongPlayer(random.Random(0), level=level)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown bot 'greedy:'"):
        make_player("greedy:", random.Random(0))
    with pytest.raises(ValueError, match="strong's level is 1 to 4, not ''"):
        make_player("strong:", random.Random(0))


# -- hands the bots' caution could hold up for ever --------------------------------------


def test_a_hand_held_up_by_the_bots_caution_still_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under "1 set of 11" one seat can wait for ever on a card another keeps back (and
    nobody gives up a Wild). Past a hand's length no seeded game reaches, the bots discard
    at random, so every card comes round and the hand ends. The threshold is lowered here
    so that the test is quick."""
    from phase10.bots import knowledge
    from phase10.sim.tournament import plan_games

    monkeypatch.setattr(knowledge, "STALLED_EVENTS", 150)
    rules = Rules.from_dict({"phase_list": ["1 set of 11"]})
    plan = plan_games(4, 4, seed=1)[3]  # the deal that held up before
    game = Game(4, rules=rules, seed=plan.seed)
    players = [GreedyPlayer(random.Random(seed)) for seed in plan.bot_seeds]
    play_game(game, players, max_actions=60_000)
    assert game.is_over


def test_stalled_is_false_for_every_hand_of_seeded_games() -> None:
    from phase10.bots.knowledge import STALLED_EVENTS

    for seed in range(6):
        game = Game(2 + seed % 3, seed=seed)
        players = [GreedyPlayer(random.Random(seat)) for seat in range(game.num_players)]
        longest = 0
        while not game.is_over:
            view = game.view(game.current)
            longest = max(longest, len(view.history))
            game.apply(players[game.current].choose(view))
        assert longest < STALLED_EVENTS / 4


def test_a_game_that_does_not_end_in_time_is_an_error() -> None:
    from phase10.bots import GameTooLongError

    game = Game(2, seed=1)
    players = [GreedyPlayer(random.Random(seat)) for seat in range(2)]
    with pytest.raises(GameTooLongError, match="did not end within 40 actions"):
        play_game(game, players, max_actions=40)
    assert len(game.actions) == 40


def test_a_tournament_game_that_does_not_end_names_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    from phase10.bots import simple
    from phase10.cli.app import app

    monkeypatch.setattr(simple, "MAX_ACTIONS", 30)
    result = CliRunner().invoke(
        app, ["tournament", "--bots", "greedy,random", "--games", "2", "--jobs", "1"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: game 1 (seed ")
    assert "did not end within 30 actions" in result.stderr


def test_target_phases_asks_a_spectator_for_the_seat() -> None:
    from phase10.bots.knowledge import target_phases

    game = Game(2, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        target_phases(game.view(None))
    assert target_phases(game.view(None), 0) == target_phases(game.view(0))


#: a game between the built-in bots whose actions are printed, one a line
_BOT_GAME = """
import random, sys
from phase10 import Game, Rules
from phase10.bots import make_player, play_game
game = Game(3, rules=Rules(phases=(1, 2)), seed=5)
bots = [make_player(spec, random.Random(i)) for i, spec in enumerate(sys.argv[1:])]
play_game(game, bots)
print("\\n".join(str(action) for action in game.actions))
"""


def test_python_o_plays_the_same_game() -> None:
    """No check the bots or the engine rely on is an assert that python -O would drop."""
    specs = ["strong:1", "greedy", "random"]
    runs = [
        subprocess.run(
            [sys.executable, *flags, "-c", _BOT_GAME, *specs],
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        ).stdout
        for flags in ([], ["-O"])
    ]
    assert runs[0] and runs[0] == runs[1]

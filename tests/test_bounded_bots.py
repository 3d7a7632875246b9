"""Bots and hints decide in bounded work under any phases: a budget of search steps, and
a plain move past it (phase10.core.budget, phase10.bots.bounded, phase10.kernel.bounded_steps).

Under "11 sets of 1" one decision of the strong bot had searched for minutes; these tests
count steps, never seconds."""

from __future__ import annotations

import importlib
import random

import pytest

import phase10.bots.bounded as bounded
import phase10.search.expert as expert_module
from phase10.bots import make_player
from phase10.bots.bounded import BOT_STEPS, PLAIN_STEPS, plain_move
from phase10.bots.hints import hint
from phase10.bots.strong import StrongPlayer
from phase10.core import (
    Discard,
    Draw,
    Game,
    LayDown,
    Phase,
    Rules,
    SearchLimitError,
    Stage,
    lay_downs,
    parse_cards,
)
from phase10.core.budget import StepBudget, current_budget, step_budget
from phase10.core.feasibility import wilds_needed
from phase10.core.labels import PROGRESS_STEPS, progress, stage_prompt
from phase10.core.records import GameRecord
from phase10.core.rules import NaturalMin
from phase10.kernel import KernelGame, available, bounded_steps
from phase10.search.review import ReviewError

review_module = importlib.import_module("phase10.search.review")

HOSTILE = ("11 sets of 1", "5 even or odd of 1", "3 runs of 2 + 2 sets of 1")
needs_kernel = pytest.mark.skipif(not available(), reason="the compiled kernel is not built")


def _house(phrase: str) -> Rules:
    return Rules(phase_list=(Phase.parse(phrase),) * 10)


def _play_seeded(game: Game, seat_bot: str, actions: int) -> None:
    players = [make_player(seat_bot, random.Random(seat)) for seat in range(game.num_players)]
    while not game.is_over and len(game.actions) < actions:
        game.apply(players[game.current].choose(game.view(game.current)))


# -- the budget -------------------------------------------------------------------------


def test_a_budget_counts_the_steps_of_every_search_inside() -> None:
    hand = parse_cards("R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11")
    with step_budget(10**9) as budget:
        list(lay_downs(Phase.parse("2 even or odd of 1"), hand, NaturalMin.GROUP))
        laid = budget.used
        wilds_needed(Phase.parse("3 sets of 2 + 1 run of 3"), hand)
    assert laid > 0 and budget.used > laid
    assert current_budget() is None  # (gone once the block is left)


def test_a_spent_budget_stops_the_search() -> None:
    phase = Phase.parse("5 even or odd of 1")
    hand = parse_cards("R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10 G11")
    with pytest.raises(SearchLimitError, match="ran out of its 500 steps"), step_budget(500):
        list(lay_downs(phase, hand, NaturalMin.GROUP))
    with pytest.raises(SearchLimitError), step_budget(20):
        wilds_needed(Phase.parse("6 sets of 1 + 1 run of 2"), hand)


def test_a_budget_inside_another_counts_against_both() -> None:
    with step_budget(100) as outer:
        outer.spend(60)
        with pytest.raises(SearchLimitError), step_budget(1000) as inner:
            inner.spend(50)  # the outer budget has 40 left
    assert inner.used == 50 and outer.used == 110


@pytest.mark.parametrize("steps", [0, -1, 2.5, True, "10"])
def test_a_budget_is_a_whole_number_of_steps(steps: object) -> None:
    with pytest.raises(ValueError, match="a step budget is a whole number from 1"):
        StepBudget(steps)  # type: ignore[arg-type]


# -- the bots -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bot", "phrase"),
    [("random", "5 even or odd of 1")]
    + [(bot, phrase) for bot in ("greedy", "strong") for phrase in HOSTILE],
)
def test_a_bot_decision_under_a_hostile_phase_stays_within_its_budget(
    bot: str, phrase: str
) -> None:
    game = Game(4, rules=_house(phrase), seed=2)
    players = [make_player(bot, random.Random(seat)) for seat in range(4)]
    # the plain move's own short lay-down search comes on top of the budget
    most = BOT_STEPS + 10 * (PLAIN_STEPS + 10) * len(game.rules.phase_list)
    ran_out = 0
    while not game.is_over and len(game.actions) < 30:
        view = game.view(game.current)
        with step_budget(10**15) as counted:
            action = players[game.current].choose(view)
        assert counted.used <= most
        ran_out += counted.used > BOT_STEPS
        game.apply(action)  # (legal, or apply raises)
    assert len(game.actions) == 30
    assert ran_out > 0  # (these phases do run the budget out)


def test_a_decision_past_its_budget_plays_the_plain_move(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(3, rules=_house("2 even or odd of 3 + 1 set of 2"), seed=5)
    views = []
    while not game.is_over and len(game.actions) < 60:
        view = game.view(game.current)
        views.append(view)
        game.apply(plain_move(view))
    searching = []
    for view in views:
        with step_budget(10**15) as counted:
            make_player("strong", random.Random(0)).choose(view)
        if counted.used > 1:
            searching.append(view)
    assert len(searching) > 10
    monkeypatch.setattr(bounded, "BOT_STEPS", 1)
    for view in searching:
        # past its one step the strong bot plays what plain_move does
        assert make_player("strong", random.Random(0)).choose(view) == plain_move(view)


@pytest.mark.parametrize(
    ("phrase", "made"),
    [(None, set()), ("3 sets of 1", {"LayDown", "Hit"}), ("11 sets of 1", set())],
)
def test_the_plain_move_is_legal_and_plays_a_game_on(phrase: str | None, made: set[str]) -> None:
    # (collecting nothing, plain moves make the official phases seldom: any game goes on)
    game = Game(3, rules=Rules() if phrase is None else _house(phrase), seed=11)
    kinds: set[str] = set()
    while not game.is_over and len(game.actions) < 300:
        action = plain_move(game.view(game.current))
        kinds.add(type(action).__name__)
        game.apply(action)  # (legal, or apply raises)
    assert {"Draw", "Discard"} | made <= kinds
    assert len(game.actions) == 300


@pytest.mark.parametrize(("seed", "lays"), [(3, False), (4, False), (5, True), (8, True)])
def test_the_plain_move_lays_a_phase_it_holds_and_sheds_the_costliest_card(
    seed: int, lays: bool
) -> None:
    game = Game(2, seed=seed)
    view = game.view(game.current)
    assert plain_move(view) == Draw()
    game.apply(Draw())
    action = plain_move(game.view(game.current))
    hand = game.view(game.current).hand
    if lays:  # (seeds 5 and 8 draw into phase 1)
        assert isinstance(action, LayDown)
    else:  # (seed 3 sheds a Skip, 15 points; seed 4 one of its 10-point cards)
        assert isinstance(action, Discard)
        assert action.card.points == max(c.points for c in hand if not c.is_wild)


def test_plain_move_refuses_a_player_whose_turn_it_is_not() -> None:
    game = Game(2, seed=3)
    with pytest.raises(ValueError, match="it is not their turn"):
        plain_move(game.view(1 - game.current))


def test_a_hint_under_a_hostile_phase_says_it_is_a_plain_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game(2, rules=_house("5 even or odd of 1"), seed=4)
    game.apply(Draw())
    monkeypatch.setattr("phase10.bots.hints.BOT_STEPS", 1)
    advice = hint(game.view(game.current))
    assert advice.steps[0].action == plain_move(game.view(game.current))
    assert "a plain move" in advice.steps[0].reason


# -- the kernel ----------------------------------------------------------------------------


@needs_kernel
def test_the_kernel_bound_stops_play_outs_and_says_so() -> None:
    play = KernelGame(Game(4, rules=_house("11 sets of 1"), seed=1))
    rngs = [random.Random(seat) for seat in range(4)]
    with pytest.raises(SearchLimitError, match="ran out of their 5000 steps"), bounded_steps(5000):
        play.play_greedy(rngs)


@needs_kernel
def test_the_kernel_bound_counts_and_leaves_later_calls_unbounded() -> None:
    game = Game(4, seed=1)
    with bounded_steps(10**9) as count:
        KernelGame(game).play_greedy([random.Random(seat) for seat in range(4)], 200)
    assert 0 < count.taken < 10**9 and not count.spent
    # outside a bound the kernel lists every lay-down, as the engine does
    played = Game(4, seed=1)
    _play_seeded(played, "greedy", 60)
    assert len(KernelGame(played).legal()) == played.legal_actions.count()


@needs_kernel
@pytest.mark.parametrize("steps", [-1, 1.5, True])
def test_the_kernel_bound_is_a_whole_number(steps: object) -> None:
    with (
        pytest.raises(ValueError, match="steps is a whole number from 0"),
        bounded_steps(
            steps  # type: ignore[arg-type]
        ),
    ):
        pass


@needs_kernel
def test_the_expert_past_its_kernel_bound_plays_the_strong_bot_s_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game(2, seed=8)
    _play_seeded(game, "greedy", 9)
    while game.view(game.current).stage is not Stage.PLAY:
        game.apply(plain_move(game.view(game.current)))
    view = game.view(game.current)
    expert = make_player("expert", random.Random(1))
    assert expert.weigh(view) is not None  # type: ignore[attr-defined]
    monkeypatch.setattr(expert_module, "KERNEL_STEPS", 1)
    expert = make_player("expert", random.Random(1))
    assert expert.weigh(view) is None  # type: ignore[attr-defined]
    # the strong bot underneath is seeded from the expert's generator
    strong = StrongPlayer(random.Random(random.Random(1).getrandbits(32)))
    expected = strong.choose(view)
    assert isinstance(expected, Discard)
    assert make_player("expert", random.Random(1)).choose(view) == expected


@needs_kernel
def test_a_review_whose_play_outs_run_past_the_bound_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game(["Ann", "Bob"], seed=2)
    _play_seeded(game, "greedy", 40)
    record = GameRecord.from_game(game)
    monkeypatch.setattr(review_module, "REVIEW_STEPS", 1000)  # (the bound it weighs under)
    with pytest.raises(ReviewError, match="take too long to play out: weighing the decision at"):
        review_module.review(record, 0)


@needs_kernel
def test_a_kernel_bound_inside_another_shares_it() -> None:
    rules = _house("11 sets of 1")
    rngs = [random.Random(seat) for seat in range(4)]
    outer_raises = pytest.raises(SearchLimitError, match="ran out of their 5000 steps")
    inner_raises = pytest.raises(SearchLimitError, match="ran out of their 5000 steps")
    with outer_raises, bounded_steps(5000), inner_raises, bounded_steps(10**9) as inner:
        assert inner.steps == 5000  # (the outer bound's)
        KernelGame(Game(4, rules=rules, seed=1)).play_greedy(rngs)
    # and a bound after them starts afresh
    with bounded_steps(10**9) as count:
        KernelGame(Game(4, seed=1)).play_greedy(rngs, 50)
    assert not count.spent and count.taken > 0


def test_the_progress_shown_with_each_state_gives_up_counting_in_words() -> None:
    phrases = ["11 sets of 1", "6 even or odd of 1 + 5 sets of 1", "5 even or odd of 1"]
    rules = Rules(phase_list=tuple(Phase.parse(p) for p in phrases), phase_order="any")
    game = Game(4, rules=rules, seed=0)
    view = game.view(game.current)
    with step_budget(10**12) as counted:
        shown = progress(view)
    assert counted.used <= PROGRESS_STEPS + 100
    assert shown is not None and shown.away is None and not shown.laid
    assert shown.label == "Phase 1: 11 sets of 1 — too many ways to count the cards missing"
    # the prompt still offers the lay-down: the engine answers whether it can be done
    game.apply(Draw())
    assert "Lay down your phase" in stage_prompt(game.view(game.current))
    # under the official phases the count is made, well within the bound
    official = Game(4, seed=0)
    with step_budget(10**12) as counted:
        shown = progress(official.view(0))
    assert shown is not None and isinstance(shown.away, int) and counted.used < 1000

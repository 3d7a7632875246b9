"""The expert bot (phase10.search): determinized search with the kernel's greedy play-outs,
and how it is found by name (its searched hints: test_searched_hints.py)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import phase10.kernel as kernel
import phase10.search.expert as expert_module
from phase10.bots import make_player, parse_bot_list, play_game
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.hints import hint
from phase10.bots.strong import StrongPlayer
from phase10.core import (
    Action,
    Discard,
    Draw,
    Game,
    LayDown,
    PlayerView,
    Rules,
    Stage,
    TakeDiscard,
    preset,
)
from phase10.core.events import Refilled
from phase10.core.feasibility import can_lay
from phase10.search import ExpertPlayer

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")


def _position(players: int, seed: int, actions: int) -> Game:
    game = Game(players, seed=seed)
    bots = [GreedyPlayer(random.Random(seed + seat)) for seat in range(players)]
    for _ in range(actions):
        game.apply(bots[game.current].choose(game.view(game.current)))
    return game


def _discard_position(players: int, seed: int) -> Game:
    game = Game(players, seed=seed)
    bots = [GreedyPlayer(random.Random(seed + seat)) for seat in range(players)]
    while True:
        view = game.view(game.current)
        action = bots[game.current].choose(view)
        if isinstance(action, Discard) and len(view.hand) > 4 and game.hand_number == 1:
            return game
        game.apply(action)


def _lay_down_position(players: int, seed: int) -> Game:
    """The first position of a greedy game where the hint lays a phase down."""
    game = Game(players, seed=seed)
    bots = [GreedyPlayer(random.Random(seed + seat)) for seat in range(players)]
    while True:
        view = game.view(game.current)
        if view.stage is Stage.PLAY and isinstance(hint(view).steps[0].action, LayDown):
            return game
        game.apply(bots[game.current].choose(view))


@pytest.mark.parametrize("players", [2, 4])
def test_the_expert_plays_whole_games_the_same_from_the_same_seed(players: int) -> None:
    rules = Rules(phases=(1, 2, 3))
    ends = []
    for _ in range(2):
        game = Game(players, seed=3, rules=rules)
        bots = [ExpertPlayer(random.Random(0), deals=6)] + [
            GreedyPlayer(random.Random(seat)) for seat in range(1, players)
        ]
        play_game(game, bots)  # every action checked legal by the engine
        assert game.is_over
        ends.append((game.actions, [seat.score for seat in game.seats]))
    assert ends[0] == ends[1]


@needs_kernel
def test_a_discard_is_weighed_over_every_discard() -> None:
    game = _discard_position(3, 21)
    view = game.view(game.current)
    weighing = ExpertPlayer(random.Random(1), deals=24).weigh(view)
    assert weighing is not None and weighing.deals == 24
    discards = {a for a in view.legal_actions if isinstance(a, Discard)}
    assert {option.action for option in weighing.options} == discards
    for option in weighing.options:
        assert 0.0 <= option.phase <= 1.0 and option.rivals >= 0.0
    # greedy's choice is among them, and the choice is legal
    assert weighing.options[weighing.greedy].action == GreedyPlayer(random.Random(1)).choose(view)
    assert weighing.action in discards


@needs_kernel
def test_the_greedy_choice_stands_unless_the_search_beats_its_noise() -> None:
    game = _discard_position(4, 8)
    view = game.view(game.current)
    stubborn = ExpertPlayer(random.Random(2), deals=16, margin=math.inf).weigh(view)
    assert stubborn is not None and stubborn.chosen == stubborn.greedy
    eager = ExpertPlayer(random.Random(2), deals=16, margin=-math.inf).weigh(view)
    assert eager is not None
    best = max(range(len(eager.options)), key=lambda i: eager.options[i].value)
    assert eager.chosen == best


@needs_kernel
@pytest.mark.parametrize("name", ["masters", "anti-phase"])
def test_discards_are_weighed_under_the_masters_rules(name: str) -> None:
    game = Game(3, seed=6, rules=preset(name))
    bots = [GreedyPlayer(random.Random(seat)) for seat in range(3)]
    while True:  # the first discard the greedy policy makes from a hand of 5 or more
        view = game.view(game.current)
        action = bots[game.current].choose(view)
        if isinstance(action, Discard) and view.stage is Stage.PLAY and len(view.hand) > 4:
            break
        game.apply(action)
    weighing = ExpertPlayer(random.Random(1), deals=8).weigh(view)
    assert weighing is not None
    discards = {a for a in view.legal_actions if isinstance(a, Discard)}
    assert {option.action for option in weighing.options} == discards


@needs_kernel
def test_take_or_draw_is_weighed_and_lay_downs_are_not() -> None:
    game = _position(2, 5, 0)
    view = game.view(game.current)
    assert view.stage is Stage.DRAW
    weighing = ExpertPlayer(random.Random(0), draws=True, deals=8).weigh(view)
    assert weighing is not None
    assert {type(option.action) for option in weighing.options} == {Draw, TakeDiscard}
    assert ExpertPlayer(random.Random(0), deals=8).weigh(view) is None  # not by default


def test_the_expert_plays_as_the_strong_bot_where_it_cannot_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    masters = Game(2, seed=4, rules=preset("masters"))
    view = masters.view(masters.current)
    assert view.stage is Stage.DECLARE  # declaring a phase is never searched
    assert ExpertPlayer(random.Random(0)).weigh(view) is None
    expert = ExpertPlayer(random.Random(0))
    assert expert.choose(view) in view.legal_actions
    assert isinstance(expert._strong, StrongPlayer)
    monkeypatch.setattr(expert_module, "available", lambda: False)
    official = Game(2, seed=4)
    plain = ExpertPlayer(random.Random(0))
    assert (
        plain.choose(official.view(official.current))
        in official.view(official.current).legal_actions
    )
    assert isinstance(plain._strong, StrongPlayer)


@needs_kernel
@pytest.mark.parametrize("closer", [0, 2])
def test_a_close_call_gets_a_closer_look(closer: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _discard_position(3, 21)
    view = game.view(game.current)
    searches: list[tuple[list[int], int]] = []
    search = kernel.KernelGame.search

    def counted(self: kernel.KernelGame, *args: Any, **kwargs: Any) -> Any:
        searches.append((list(args[2]), args[3]))
        return search(self, *args, **kwargs)

    monkeypatch.setattr(kernel.KernelGame, "search", counted)
    # an infinite margin: every lead is a close call, and the standing choice stays
    expert = ExpertPlayer(random.Random(1), deals=8, margin=math.inf, closer=closer)
    worst = Discard(view.hand[0])
    weighing = expert.weigh(view, standing=worst)
    assert weighing is not None and weighing.action == worst
    first, *more = searches
    assert first[1] == 8 and len(first[0]) == len(weighing.options)
    best = max(range(len(weighing.options)), key=lambda i: weighing.options[i].value)
    if closer == 0 or weighing.options[best].action == worst:
        assert more == []
    else:  # the standing choice and the leader, over twice the deals again
        assert more == [([first[0][weighing.greedy], first[0][best]], 16)]


@needs_kernel
def test_a_lay_down_is_weighed_against_waiting_over_the_same_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _lay_down_position(2, 8)
    view = game.view(game.current)
    plan = [step.action for step in hint(view).steps[:-1]]  # the lay-down and its hits
    searches: list[tuple[int, int, int]] = []  # (candidates, deals, seed) of each search
    search = kernel.KernelGame.search

    def counted(self: kernel.KernelGame, *args: Any, **kwargs: Any) -> Any:
        searches.append((len(args[2]), args[3], args[4]))
        return search(self, *args, **kwargs)

    monkeypatch.setattr(kernel.KernelGame, "search", counted)
    # nothing leads beyond an infinite margin: the lay-down stands, valued with its discard
    kept = ExpertPlayer(random.Random(0), deals=8, margin=math.inf).weigh_waiting(view, plan)
    assert kept is not None and kept.action == plan[0] and kept.deals == 8
    lay, wait = kept.options
    assert lay.action == plan[0] and lay.phase == 1.0  # (the phase is made, laid now)
    assert isinstance(wait.action, Discard) and wait.action in view.legal_actions
    # the lay-down's discards and the waiting ones (those that keep the phase in hand: one
    # here breaks it), played over the same deals
    (after, deals, seed), (now, again, same) = searches
    discards = [action for action in view.legal_actions if isinstance(action, Discard)]
    keeping = [action for action in discards if _keeps(view, action)]
    assert now == len(keeping) < len(discards) and 0 < after < now
    assert (deals, seed) == (again, same) == (8, seed)
    # at any margin, waiting is chosen exactly when it leads by a mistake's worth
    sure = ExpertPlayer(random.Random(0), deals=8, margin=-math.inf).weigh_waiting(view, plan)
    assert sure is not None
    lead = sure.options[1].value - sure.options[0].value
    assert (sure.action == sure.options[1].action) == (lead >= expert_module.MISTAKE)
    monkeypatch.setattr(expert_module, "MISTAKE", -math.inf)
    eager = ExpertPlayer(random.Random(0), deals=8, margin=-math.inf).weigh_waiting(view, plan)
    assert eager is not None and eager.action == wait.action and _keeps(view, wait.action)
    with pytest.raises(ValueError, match="a lay-down is weighed against waiting"):
        ExpertPlayer(random.Random(0)).weigh_waiting(view, [wait.action])


def _keeps(view: PlayerView, discard: Action) -> bool:
    """Whether the hand still holds its phase without the card ``discard`` drops."""
    assert isinstance(discard, Discard)
    rest = list(view.hand)
    rest.remove(discard.card)
    return can_lay(view.phase_of(view.seats[view.viewer or 0].phase), rest, view.rules.natural_min)


@needs_kernel
def test_the_expert_can_weigh_waiting_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    weighed: list[bool] = []  # whether each weighing chose to wait
    weigh = ExpertPlayer.weigh_waiting

    def counted(self: ExpertPlayer, *args: Any) -> Any:
        weighing = weigh(self, *args)
        if weighing is not None:  # (None: the lay-down and hits go out, nothing to weigh)
            weighed.append(isinstance(weighing.action, Discard))
        return weighing

    monkeypatch.setattr(ExpertPlayer, "weigh_waiting", counted)
    monkeypatch.setattr(expert_module, "MISTAKE", -math.inf)
    game = Game(2, seed=3, rules=Rules(phases=(1, 2, 3)))
    expert = ExpertPlayer(random.Random(0), deals=6, margin=-math.inf, waits=True)
    play_game(game, [expert, GreedyPlayer(random.Random(1))])  # every action checked legal
    assert game.is_over and any(weighed)  # (led at all, it waited; a tie leaves it laying)


def test_the_expert_is_found_by_name() -> None:
    assert isinstance(make_player("expert", random.Random(0)), ExpertPlayer)
    assert isinstance(make_player("Expert+nosave", random.Random(0)), ExpertPlayer)
    assert parse_bot_list("expert, greedy") == ["expert", "greedy"]
    with pytest.raises(ValueError, match="unknown bot"):
        make_player("expert:2", random.Random(0))


def test_a_player_who_gave_up_their_phase_is_not_settled_until_their_next_turn_ends() -> None:
    """Fresh cards after giving a phase up: that player has not yet had the chance to lay
    down from them, so a deal may give them a phase."""
    game = Game(3, seed=13, rules=Rules(give_up="keep"))
    bots = [GreedyPlayer(random.Random(13 * 10 + seat)) for seat in range(3)]
    refilled = 0
    while not game.is_over and refilled < 3:
        events = game.apply(bots[game.current].choose(game.view(game.current)))
        for event in events:
            if isinstance(event, Refilled) and not game.is_over:
                refilled += 1
                assert not expert_module._settled(game.view(game.current)) >> event.player & 1
    assert refilled == 3

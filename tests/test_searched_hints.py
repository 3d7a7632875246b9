"""Searched hints (phase10.search.hints): each step of the turn weighed as the review
weighs the decision, over the same deals, so a player who follows them is reviewed with
no mistakes."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import phase10.kernel as kernel
import phase10.search.decisions as decisions
import phase10.search.hints as hints_module
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.hints import hint, replanned
from phase10.core import Discard, Draw, Game, GameRecord, Hit, LayDown, Stage
from phase10.core.feasibility import can_lay
from phase10.search import searched_hint
from phase10.search.decisions import HandOver, decision_rng, view_after, weigh_decision
from phase10.search.review import review

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")


def _playing(players: int, seed: int, wanted: Any) -> Game:
    """The first position of a greedy game where ``wanted(view)`` holds."""
    game = Game(players, seed=seed)
    bots = [GreedyPlayer(random.Random(seed + seat)) for seat in range(players)]
    while True:
        view = game.view(game.current)
        if wanted(view):
            return game
        game.apply(bots[game.current].choose(view))


def _discarding(view: Any) -> bool:
    """A discard to choose in the first hand, with the phase not yet laid."""
    plan = hint(view).steps
    return view.stage is Stage.PLAY and len(view.hand) > 4 and isinstance(plan[0].action, Discard)


def _laying(view: Any) -> bool:
    return view.stage is Stage.PLAY and isinstance(hint(view).steps[0].action, LayDown)


@needs_kernel
def test_a_searched_hint_says_what_the_search_saw() -> None:
    game = _playing(3, 21, lambda view: view.stage is Stage.PLAY and len(view.hand) > 4)
    view = game.view(game.current)
    plain, searched = hint(view), searched_hint(view, deals=16)
    last = searched.steps[-1]
    assert isinstance(last.action, Discard) and last.action in view.legal_actions
    assert "played out over 16 sampled deals" in last.reason
    # how far the phase is: measured on the hand the searched steps leave
    assert searched == replanned(view, plain, searched.steps)
    if last.action != plain.steps[-1].action:  # the plan's own discard is told beside it
        told = plain.steps[-1].text
        assert f"(if you {told} instead: " in last.reason or last.reason.endswith(
            f"(or {told}: about as good)"
        )
    with pytest.raises(ValueError, match="whose turn"):
        searched_hint(game.view((game.current + 1) % 3))


@needs_kernel
def test_the_strong_bot_s_choice_stands_unless_the_search_beats_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _playing(2, 5, _discarding)
    view = game.view(game.current)
    planned = hint(view).steps[-1]
    # nothing beats it beyond an infinite margin: the strong bot's discard is the hint
    monkeypatch.setattr(decisions, "MARGIN", math.inf)
    monkeypatch.setattr(hints_module, "MARGIN", math.inf)
    weighed = weigh_decision(view, None, decision_rng(view), 16)
    strong = weighed.action(weighed.prior)
    kept = searched_hint(view, deals=16).steps[-1]
    assert kept.action == strong and "played out over 16 sampled deals" in kept.reason
    if strong != planned.action:  # what the plan's own discard gives is said beside it
        # (nothing leads beyond an infinite margin: the two are within the noise)
        assert kept.reason.endswith(f"(or {planned.text}: about as good)")
    # at no margin the best on the deals is the hint, whatever stood
    monkeypatch.setattr(decisions, "MARGIN", -math.inf)
    monkeypatch.setattr(hints_module, "MARGIN", -math.inf)
    eager = weigh_decision(view, None, decision_rng(view), 16)
    assert eager.values is not None
    best = eager.action(int(eager.values.mean(axis=0).argmax()))
    assert searched_hint(view, deals=16).steps[-1].action == best


@needs_kernel
def test_a_hint_says_when_to_keep_the_phase_in_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _playing(2, 8, _laying)
    view = game.view(game.current)
    plain = hint(view)
    weigh = hints_module.weigh_decision

    def waiting(*args: Any) -> Any:  # the search's best: the best discard keeping the phase
        weighed = weigh(*args)
        if weighed.search.view == view:
            drops = [
                j
                for j in range(len(weighed.candidates))
                if isinstance(weighed.action(j), Discard) and _keeps(view, weighed.action(j))
            ]
            weighed.best = max(drops, key=lambda j: weighed.values[:, j].mean())
        return weighed

    monkeypatch.setattr(hints_module, "weigh_decision", waiting)
    (step,) = searched_hint(view, deals=8).steps
    assert isinstance(step.action, Discard) and _keeps(view, step.action)
    assert step.reason.startswith("keep your phase in hand this turn and lay it down later. ")
    assert "Over 8 sampled deals of the cards you cannot see, " in step.reason
    assert plain.steps[0].action != step.action


def _keeps(view: Any, discard: Any) -> bool:
    rest = list(view.hand)
    rest.remove(discard.card)
    return can_lay(view.phase_of(view.seats[view.viewer].phase), rest, view.rules.natural_min)


@needs_kernel
def test_each_step_of_a_hinted_turn_is_the_hint_given_once_the_steps_before_are_made() -> None:
    game = Game(2, seed=7)
    bots = [GreedyPlayer(random.Random(7 + seat)) for seat in range(2)]
    checked = 0
    while game.hand_number == 1:
        view = game.view(game.current)
        if view.stage is Stage.PLAY and view.seats[game.current].laid is None:
            steps = searched_hint(view).steps
            if isinstance(steps[0].action, LayDown) and len(steps) > 1:
                after = game.copy()
                for k, step in enumerate(steps[:-1]):  # as the player follows them
                    after.apply(step.action)
                    again = searched_hint(after.view(after.current)).steps
                    assert [s.action for s in again] == [s.action for s in steps[k + 1 :]]
                checked += 1
        game.apply(bots[game.current].choose(view))
    assert checked


@needs_kernel
def test_a_player_who_follows_every_hint_is_reviewed_with_no_mistakes() -> None:
    """The hint and the review weigh each decision on the same deals (seeded by the
    position), so the review finds each hinted move the best."""
    game = Game(["You", "Bob"], seed=11)
    bob = GreedyPlayer(random.Random(11))
    hinted = 0
    while game.hand_number <= 2 and not game.is_over:
        view = game.view(game.current)
        if game.current == 0:
            game.apply(searched_hint(view, deals=16).steps[0].action)
            hinted += 1
        else:
            game.apply(bob.choose(view))
    done = review(GameRecord.from_game(game), "You", deals=16, win_deals=4)
    assert hinted > 20 and len(done.decisions) > 10
    assert [d for d in done.decisions if d.played != d.best] == []
    assert not done.mistakes


@needs_kernel
def test_the_view_after_a_lay_down_or_a_hit_is_the_game_s() -> None:
    seen = 0
    for seed in range(6):
        game = Game(3, seed=seed)
        bots = [GreedyPlayer(random.Random(seed + seat)) for seat in range(3)]
        while game.hand_number <= 2 and not game.is_over:
            view = game.view(game.current)
            for action in view.legal_actions:
                if view.stage is Stage.PLAY and isinstance(action, LayDown | Hit):
                    real = game.copy()
                    real.apply(action)
                    if real.hand_number == game.hand_number:
                        assert view_after(view, action) == real.view(game.current)
                        seen += 1
                    else:  # out by the move: the next deal is not the player's to know
                        with pytest.raises(HandOver, match="ends the hand"):
                            view_after(view, action)
                    break
            game.apply(bots[game.current].choose(view))
    assert seen > 10
    with pytest.raises(ValueError, match="spectator"):
        view_after(Game(2, seed=1).view(None), Draw())


def test_the_same_position_is_weighed_on_the_same_deals() -> None:
    game = Game(2, seed=3)
    view = game.view(0)
    assert decision_rng(view).random() == decision_rng(game.copy().view(0)).random()
    assert decision_rng(view).random() != decision_rng(view, seed=1).random()
    other = game.copy()
    other.apply(Draw())
    assert decision_rng(view).random() != decision_rng(other.view(0)).random()


@needs_kernel
def test_a_hit_the_search_puts_off_is_named_as_done_first_not_instead() -> None:
    # a greedy game (seed 3) where the plan hits Y4 and the search would discard at once
    game = Game(["Ann", "Bob"], seed=3)
    bots = [GreedyPlayer(random.Random(seat)) for seat in range(2)]
    for _ in range(215):
        game.apply(bots[game.current].choose(game.view(game.current)))
    view = game.view(game.current)
    assert isinstance(hint(view).steps[0].action, Hit)
    first = searched_hint(view, deals=16).steps[0]
    assert isinstance(first.action, Discard)
    # hitting, then discarding, is the other way: "first", not "instead"
    assert first.reason.endswith("(or first hit Y4 on your set of 4s: about as good)")


def test_a_count_of_deals_out_of_range_is_refused_plainly() -> None:
    game = Game(2, seed=1)
    game.apply(Draw())
    view = game.view(game.current)
    for deals in (0, -1, 513, 1.5, True, "48"):
        with pytest.raises(ValueError, match="deals is a whole number from 1 to 512"):
            searched_hint(view, deals=deals)  # type: ignore[arg-type]

"""Tournaments with the greedy bots in the compiled kernel (phase10.sim.kernel_play).

Every game must come out exactly as the Python bots play it (``kernel=False``): the same
winners, scores, phases, hands and number of actions, game for game; whole games of greedy
bots only run in the kernel, greedy seats beside other bots choose through it, and rules
whose greedy play the kernel lacks fall back to the Python bots.
"""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

import phase10.kernel as kernel
import phase10.sim.kernel_play as kernel_play
from phase10.bots import make_player
from phase10.cli.app import app
from phase10.core import Event, Rules, preset
from phase10.sim.tournament import plan_games, play_planned, run_tournament

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")


def _rules(name: str, phases: tuple[int, ...] | None) -> Rules:
    rules = preset(name)
    return rules if phases is None else rules.with_options(phases=phases)


@pytest.mark.parametrize(
    ("bots", "name", "phases", "games"),
    [
        (("greedy", "greedy"), "official", None, 2),  # whole games
        (("greedy",) * 4, "official", (1, 2, 3), 4),
        (("greedy",) * 3, "skip-next", (4, 5), 3),
        (("greedy",) * 3, "arkansas", (1, 2, 3), 2),  # phases in any order
        (("greedy", "greedy"), "floating", (1, 2), 2),
        (("greedy", "greedy"), "masters", (1, 2), 2),  # save piles
        (("greedy",) * 3, "anti-phase", (1, 2), 2),  # and the Anti-phase card
    ],
)
def test_all_greedy_games_in_the_kernel_are_the_python_games(
    bots: tuple[str, ...], name: str, phases: tuple[int, ...] | None, games: int
) -> None:
    rules = _rules(name, phases)
    fast = run_tournament(bots, games=games, rules=rules, seed=3)
    slow = run_tournament(bots, games=games, rules=rules, seed=3, kernel=False)
    assert fast == slow  # every game's winners, scores, phases, hands and actions
    assert [game.actions for game in fast.games] == [game.actions for game in slow.games]
    assert slow.kernel_games == 0
    supported = kernel.available() and kernel.greedy_unsupported(rules) is None
    assert fast.kernel_games == (games if supported else 0)
    assert fast.to_dict()["kernel_games"] == fast.kernel_games


@pytest.mark.parametrize(
    ("bots", "phases"),
    [
        (("random", "greedy", "greedy", "greedy"), (1, 2)),
        (("strong:1", "greedy"), (1,)),
        (("greedy", "greedy+nosave"), (1, 2)),  # a greedy bot with options: Python's
    ],
)
def test_greedy_seats_beside_other_bots_play_as_the_python_bot(
    bots: tuple[str, ...], phases: tuple[int, ...]
) -> None:
    rules = Rules(phases=phases)
    fast = run_tournament(bots, games=len(bots), rules=rules, seed=4)
    slow = run_tournament(bots, games=len(bots), rules=rules, seed=4, kernel=False)
    assert fast == slow
    assert fast.kernel_games == 0


def test_a_game_with_its_events_keeps_them_and_is_the_same_game() -> None:
    rules = Rules(phases=(1, 2))
    plan = plan_games(3, 1, seed=8)[0]
    fast_events: list[Event] = []
    slow_events: list[Event] = []
    fast = play_planned(plan, ("greedy",) * 3, rules, fast_events.extend)
    slow_plan = plan_games(3, 1, seed=8, kernel=False)[0]
    slow = play_planned(slow_plan, ("greedy",) * 3, rules, slow_events.extend)
    assert fast == slow and not fast.kernel
    assert fast_events == slow_events and len(fast_events) > fast.actions


@needs_kernel
def test_a_kernel_that_refuses_mid_game_hands_over_to_the_python_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bots, rules = ("random", "greedy", "greedy"), Rules(phases=(1, 2))
    slow = run_tournament(bots, games=3, rules=rules, seed=6, kernel=False)
    calls = 0
    apply = kernel.KernelGame.apply

    def refuse_later(self: kernel.KernelGame, action: kernel.convert.ActionKey) -> object:
        nonlocal calls
        calls += 1
        if calls % 40 == 0:
            raise ValueError("refused")
        return apply(self, action)

    monkeypatch.setattr(kernel.KernelGame, "apply", refuse_later)
    assert run_tournament(bots, games=3, rules=rules, seed=6) == slow
    assert calls >= 40


@needs_kernel
def test_only_plain_greedy_seats_under_rules_it_plays_go_to_the_kernel() -> None:
    def seats(rules: Rules, *specs: str) -> list[bool]:
        players = [make_player(spec, random.Random(0)) for spec in specs]
        return kernel_play.greedy_seats(players, rules)

    plain = seats(Rules(), "greedy", "Greedy", "strong:1", "greedy+noanti", "greedy+nosave")
    assert plain == [True, True, False, False, False]
    masters = seats(preset("anti-phase"), "greedy", "greedy+nosave", "greedy+noanti")
    assert masters == [True, False, False]


@needs_kernel
def test_the_footer_says_the_games_ran_in_the_compiled_kernel() -> None:
    def footer(bots: str) -> str:
        args = ["tournament", "--bots", bots, "--games", "2", "--phases", "1", "--jobs", "1"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        return " ".join(result.stdout.split())  # the footer wraps at 80 columns

    assert " games/s, 1 worker, process, compiled kernel)." in footer("greedy,greedy")
    assert "compiled kernel" not in footer("greedy,random")

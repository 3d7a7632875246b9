"""The kernel's greedy policy against the Python greedy bot (docs/kernel.md, "The greedy
policy").

From seeded engine games played by :class:`~phase10.bots.greedy.GreedyPlayer`, the kernel
must choose the bot's action at every decision, draw on the bot's generator exactly as
the bot does, and count the hand's events as the bot's view does; whole games with every
seat greedy in the kernel must play the same actions as the Python bots and end in the
same state. The rule options the kernel's greedy play lacks are refused by name.
"""

from __future__ import annotations

import random

import pytest

import phase10.kernel as kernel
from phase10.bots.greedy import GreedyPlayer
from phase10.core import Game, GiveUp, Rules, preset
from phase10.kernel import EngineGame, KernelGame, KernelUnsupported, greedy_unsupported
from phase10.kernel.convert import action_key

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")
GIVE_UP = action_key(GiveUp())[0]

#: presets the greedy policy plays in the kernel, each with a set of player counts
DECISION_GAMES = (
    ("official", 2, 1),
    ("official", 4, 2),
    ("wild-deal-up", 3, 3),
    ("skip-next", 5, 4),
    ("edition-5", 6, 5),
    ("island-paradise", 4, 6),
    ("no-reshuffle", 2, 7),
    ("natural-per-phase", 3, 8),
    ("floating", 5, 9),
    ("arkansas", 4, 10),
)
#: rule options the greedy policy plays in the kernel beyond its presets', over a preset
OPTION_GAMES: tuple[tuple[str, dict[str, str], int, int], ...] = (
    ("edition-5", {"natural_min": "phase"}, 4, 9),
    # every card could go down, and a card is kept: the engine's first such lay-down
    ("edition-5", {"going_out": "discard"}, 2, 1),
    ("edition-5", {"going_out": "discard"}, 5, 3),
    ("official", {"phase_order": "any", "declare": "deal"}, 3, 11),  # the Declare stage
    ("edition-5", {"phase_order": "any"}, 2, 12),
    ("official", {"give_up": "keep"}, 3, 13),  # a laid phase given up for fresh cards
    ("arkansas", {"give_up": "forfeit"}, 4, 14),  # never given up
)


def _rngs(players: int, seed: int) -> list[random.Random]:
    return [random.Random(seed * 10 + seat) for seat in range(players)]


@needs_kernel
@pytest.mark.parametrize(("name", "players", "seed"), DECISION_GAMES)
def test_every_decision_is_the_bots(name: str, players: int, seed: int) -> None:
    _every_decision(preset(name), players, seed, name)


@needs_kernel
@pytest.mark.parametrize(("name", "options", "players", "seed"), OPTION_GAMES)
def test_every_decision_is_the_bots_under_other_options(
    name: str, options: dict[str, str], players: int, seed: int
) -> None:
    _every_decision(preset(name).with_options(**options), players, seed, name)


def _every_decision(rules: Rules, players: int, seed: int, name: str) -> None:
    game = Game(players, seed=seed, rules=rules)
    bots = [GreedyPlayer(rng) for rng in _rngs(players, seed)]
    mirrors = _rngs(players, seed)
    play = KernelGame(game)
    decisions = 0
    while not game.is_over and decisions < 400:
        seat = game.current
        view = game.view(seat)
        assert play._kernel.hand_events == len(view.history)
        # the kernel kept in step, and every tenth decision one started afresh from the game
        fresh = KernelGame(game) if decisions % 10 == 0 else None
        before = mirrors[seat].getstate()
        chosen = play.greedy_action(seat, mirrors[seat])
        action = bots[seat].choose(view)
        assert chosen == action_key(action), (name, players, seed, decisions)
        assert mirrors[seat].getstate() == bots[seat].rng.getstate()
        if fresh is not None:
            twin = random.Random()
            twin.setstate(before)
            assert fresh.greedy_action(seat, twin) == chosen
        game.apply(action)
        play.apply(chosen)
        decisions += 1
    assert decisions >= 300 or game.is_over


@needs_kernel
@pytest.mark.parametrize(
    ("name", "seed"), [("official", 11), ("even-phases", 12), ("ten-hands", 13), ("edition-9", 14)]
)
def test_whole_greedy_games_end_as_the_bots_do(name: str, seed: int) -> None:
    for players in (2, 4, 6):
        game = Game(players, seed=seed + players, rules=preset(name))
        fast, slow = KernelGame(game), EngineGame(game)
        fast_rngs, slow_rngs = _rngs(players, seed), _rngs(players, seed)
        played, actions = fast.play_greedy(fast_rngs, record=True)
        assert fast.is_over
        assert slow.play_greedy(slow_rngs, record=True) == (played, actions)
        assert fast.state() == slow.state()
        assert [r.getstate() for r in fast_rngs] == [r.getstate() for r in slow_rngs]
        # the kernel's game replays in the engine action by action
        replay = EngineGame(game)
        for action in actions or []:
            replay.apply(action)
        assert replay.is_over and replay.state() == fast.state()


@needs_kernel
@pytest.mark.parametrize(
    ("name", "options", "players", "seed"),
    [
        ("natural-per-phase", {}, 3, 15),
        ("floating", {}, 4, 16),
        ("arkansas", {}, 2, 17),
        ("official", {"phase_order": "any", "declare": "deal", "deck": "masters"}, 5, 18),
        ("official", {"give_up": "keep"}, 4, 19),
    ],
)
def test_whole_greedy_games_under_other_options_end_as_the_bots_do(
    name: str, options: dict[str, str], players: int, seed: int
) -> None:
    game = Game(players, seed=seed, rules=preset(name).with_options(**options))
    fast, slow = KernelGame(game), EngineGame(game)
    fast_rngs, slow_rngs = _rngs(players, seed), _rngs(players, seed)
    played, actions = fast.play_greedy(fast_rngs, record=True)
    assert fast.is_over
    assert slow.play_greedy(slow_rngs, record=True) == (played, actions)
    assert fast.state() == slow.state()
    assert [r.getstate() for r in fast_rngs] == [r.getstate() for r in slow_rngs]
    if options.get("give_up") == "keep":
        assert (GIVE_UP,) in (actions or [])  # the policy's own choice was played


@needs_kernel
def test_play_greedy_stops_at_max_actions_and_goes_on() -> None:
    game = Game(3, seed=5)
    whole = KernelGame(game)
    _, everything = whole.play_greedy(_rngs(3, 5), record=True)
    parts = KernelGame(game)
    rngs = _rngs(3, 5)
    played, first = parts.play_greedy(rngs, 40, record=True)
    assert played == 40 and not parts.is_over
    _, rest = parts.play_greedy(rngs, record=True)
    assert (first or []) + (rest or []) == everything


@pytest.mark.parametrize(
    ("name", "option"),
    [
        ("masters", "save_pile"),
        ("anti-phase", "save_pile"),
    ],
)
def test_rules_without_kernel_greedy_play_are_refused_by_name(name: str, option: str) -> None:
    rules = preset(name)
    why = greedy_unsupported(rules)
    assert why is not None and option in why
    game = Game(3, seed=2, rules=rules)
    if kernel.available():
        play = KernelGame(game)
        with pytest.raises(KernelUnsupported, match=option):
            play.greedy_action(game.current, random.Random(1))
        with pytest.raises(KernelUnsupported, match=option):
            play.play_greedy(_rngs(3, 1))
    # the engine plays them with the Python bot
    slow = EngineGame(game)
    played, _ = slow.play_greedy(_rngs(3, 1), 30)
    assert played == 30


def test_anti_phase_card_alone_is_refused() -> None:
    why = greedy_unsupported(Rules().with_options(anti_phase="on"))
    assert why is not None and "anti_phase" in why


@pytest.mark.parametrize("use_kernel", [True, False])
def test_only_the_player_to_move_has_a_greedy_action(use_kernel: bool) -> None:
    if use_kernel and not kernel.available():
        pytest.skip("the kernel is not built")
    game = Game(3, seed=8)
    play = KernelGame(game) if use_kernel else EngineGame(game)
    other = (game.current + 1) % 3
    with pytest.raises(ValueError, match="not their turn"):
        play.greedy_action(other, random.Random(0))
    with pytest.raises(ValueError, match="one generator per seat"):
        play.play_greedy(_rngs(2, 0))


@needs_kernel
def test_greedy_playouts_are_the_engines() -> None:
    game = Game(2, seed=9)
    for _ in range(30):
        seat = game.current
        game.apply(GreedyPlayer(random.Random(seat)).choose(game.view(seat)))
    known: list[list[int]] = [[], []]  # mid-hand, from the same position
    fast = KernelGame(game).greedy_playouts(game.current, known, 2, seed=3)
    assert fast == EngineGame(game).greedy_playouts(game.current, known, 2, seed=3)
    assert all(winners for winners, _, _ in fast)

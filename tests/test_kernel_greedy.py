"""The kernel's greedy policy against the Python greedy bot (docs/kernel.md, "The greedy
policy").

From seeded engine games played by :class:`~phase10.bots.greedy.GreedyPlayer`, the kernel
must choose the bot's action at every decision, draw on the bot's generator exactly as
the bot does, and count the hand's events as the bot's view does; whole games with every
seat greedy in the kernel must play the same actions as the Python bots and end in the
same state. Under the Masters rules it saves cards, takes them back and plays the
Anti-phase card as the bot does.
"""

from __future__ import annotations

import random

import pytest

import phase10.kernel as kernel
from phase10.bots.greedy import GreedyPlayer
from phase10.core import ANTI, PRESETS, Arrangement, Game, GiveUp, Rules, parse_cards, preset
from phase10.kernel import EngineGame, KernelGame, greedy_unsupported
from phase10.kernel.convert import ActionKey, action_key

needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")
GIVE_UP = action_key(GiveUp())[0]
#: the kernel's action numbers for a discard, a save and a saved card taken back
DISCARD, SAVE, TAKE_SAVED = 2, 6, 7

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
    ("masters", 3, 20),
    ("masters-12-wilds", 5, 21),
    ("masters-variant-1", 2, 22),
    ("masters-variant-2", 4, 23),
    ("anti-phase", 6, 23),  # the Anti-phase card taken to go out with, naming a player
    ("anti-phase", 4, 39),  # the Anti-phase card kept to go out with
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
    ("masters", {"save_pile": "public"}, 5, 24),
    ("anti-phase", {"save_pile": "public", "give_up": "keep"}, 2, 5),
)


def _rngs(players: int, seed: int) -> list[random.Random]:
    return [random.Random(seed * 10 + seat) for seat in range(players)]


@needs_kernel
@pytest.mark.parametrize(("name", "players", "seed"), DECISION_GAMES)
def test_every_decision_is_the_bots(name: str, players: int, seed: int) -> None:
    chosen = _every_decision(Game(players, seed=seed, rules=preset(name)), seed, name)
    if preset(name).save_pile.value != "off":  # cards were saved and taken back
        assert {SAVE, TAKE_SAVED} <= {key[0] for key in chosen}
    if name == "anti-phase":  # and the Anti-phase card went out naming someone
        assert any(key[:2] == (DISCARD, ANTI.index) and key[2] >= 0 for key in chosen)


@needs_kernel
@pytest.mark.parametrize(("name", "options", "players", "seed"), OPTION_GAMES)
def test_every_decision_is_the_bots_under_other_options(
    name: str, options: dict[str, str], players: int, seed: int
) -> None:
    rules = preset(name).with_options(**options)
    _every_decision(Game(players, seed=seed, rules=rules), seed, name)


@needs_kernel
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 3)])
def test_every_decision_is_the_bots_with_saved_cards_that_score(players: int, seed: int) -> None:
    """Save piles to start with, scored at every hand's end: once down, saved cards that
    fit the table come back."""
    rules = preset("masters").with_options(saved_score="penalty")
    deck = [card for card, copies in rules.deck_counts.items() for _ in range(copies)]
    random.Random(seed).shuffle(deck)
    hands = tuple(tuple(deck[10 * p : 10 * p + 10]) for p in range(players))
    rest = deck[10 * players :]
    saved = tuple(tuple(rest[3 * p : 3 * p + 3]) for p in range(players))
    deal = Arrangement(hands=hands, discard=(rest[3 * players],), saved=saved)
    game = Game(players, seed=seed, rules=rules, arrangement=deal)
    chosen = _every_decision(game, seed, "penalty", limit=300)
    assert TAKE_SAVED in {key[0] for key in chosen}


@needs_kernel
@pytest.mark.parametrize(
    ("hand", "phase", "takes"),
    [
        ("R3 B3 G3 Y3 R7 B7 G7 W W", 1, True),  # every card laid down
        ("R1 R2 R3 R4 R5 R6 R7 B8 W", 4, True),  # B8 and the Wild laid on the run
        ("R3 B3 G3 R7 B7 G7 Y7 R9", 1, False),  # R9 would be left
        ("R1 R2 R3 R4 B5 B6 G7 G9 G9", 4, False),  # no run of 7
    ],
)
def test_the_anti_phase_card_is_taken_only_to_go_out_with_it(
    hand: str, phase: int, takes: bool
) -> None:
    rules = Rules(phases=(phase,), anti_phase="on", save_pile="private")
    other = parse_cards("Y10 Y11 G1 G2 B1 B2 Y5 Y6 G5 G6")
    deal = Arrangement(hands=(parse_cards(hand), other), discard=parse_cards("A"))
    game = Game(2, seed=1, rules=rules, arrangement=deal, dealer=1)
    chosen = _every_decision(game, 1, hand, limit=60)
    assert chosen[0] == ((1,) if takes else (0,))
    if takes:  # laid down, then out with it naming the other player
        assert chosen[-1] == (DISCARD, ANTI.index, 1) and game.is_over


def _every_decision(game: Game, seed: int, name: str, limit: int = 400) -> list[ActionKey]:
    """Play ``game`` by the Python bots, the kernel choosing alongside: the actions chosen."""
    players = game.num_players
    bots = [GreedyPlayer(rng) for rng in _rngs(players, seed)]
    mirrors = _rngs(players, seed)
    play = KernelGame(game)
    decisions, chosen_keys = 0, []
    while not game.is_over and decisions < limit:
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
        chosen_keys.append(chosen)
        decisions += 1
    assert decisions >= 300 or game.is_over
    return chosen_keys


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
        ("masters", {}, 4, 30),
        ("masters-variant-2", {}, 2, 31),
        ("anti-phase", {"save_pile": "public"}, 3, 32),
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


def test_every_preset_is_played_greedily_in_the_kernel() -> None:
    assert [name for name, rules in PRESETS.items() if greedy_unsupported(rules)] == []


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


@needs_kernel
@pytest.mark.parametrize("natural_min", ["group", "phase"])
def test_the_kernels_count_of_cards_missing_is_the_solvers(natural_min: str) -> None:
    """The count the greedy policy weighs every discard by (how many cards a hand still
    needs for a phase), for random hands of 1 to 16 cards and every phase of every preset:
    the kernel's, searched its own way for colour, parity and mixed phases, is
    :func:`phase10.core.feasibility.missing`'s."""
    from phase10.core import full_deck
    from phase10.core.feasibility import missing

    checked = 0
    for name in PRESETS:
        rules = preset(name).with_options(natural_min=natural_min)
        play = kernel.new_kernel(2, rules)
        deck = list(full_deck(rules.deck_counts))
        draw = random.Random(f"{name} {natural_min}")
        for index, phase in enumerate(rules.phase_sequence):
            for _ in range(40):
                hand = draw.sample(deck, draw.randrange(1, 17))
                cards = [card.index for card in hand]
                for limit in (0, 2, 30):
                    expected = missing(phase, hand, rules.natural_min, limit=limit)
                    assert play.missing(index, cards, limit) == expected, (name, str(phase), hand)
                    checked += 1
    assert checked == 3 * 40 * sum(len(rules.phase_sequence) for rules in PRESETS.values())


@needs_kernel
def test_the_kernels_count_of_cards_missing_refuses_bad_input() -> None:
    play = kernel.new_kernel(2, preset("edition-3"))
    with pytest.raises(ValueError, match="this game has phases 0 to 9, not 10"):
        play.missing(10, [1, 2], 3)
    with pytest.raises(ValueError, match="a limit from 0 to 999, not -1"):
        play.missing(0, [1, 2], -1)
    with pytest.raises(ValueError, match="no card has the index 51"):
        play.missing(0, [1, 51], 3)
    with pytest.raises(TypeError, match="a hand of card indices"):
        play.missing(0, 5, 3)

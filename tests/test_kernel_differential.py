"""The compiled kernel against the engine, action by action (docs/kernel.md).

From seeded engine games, the kernel and the engine take the same actions and must agree
after every one on the events it caused, the whole state (hands in order, both piles in
order, the table, every seat's score and phases, the random generator) and the legal
actions, in order. The games cover every preset the kernel plays, 2 to 6 players, whole
games to their end and tie-break hands, and 20,000 whole short games under every preset,
half of them with every seat the kernel's greedy policy, half random (about 200
CPU-seconds; ``make test-fast`` plays the first 2,000, ``PHASE10_WHOLE_GAMES=N`` plays N;
``python -m benchmarks kernel`` compares full-length games the same way, 100,000 actions
by default).

The same checks run with the kernel turned off, through the Python fallback.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest

import phase10.kernel as kernel
from phase10.core import PRESETS, Arrangement, Game, Rules, parse_cards, preset
from phase10.kernel import (
    EngineGame,
    KernelFallbackWarning,
    KernelGame,
    KernelUnsupported,
    check_rules,
    new_game,
    to_action,
)
from phase10.kernel.convert import (
    action_key,
    apply_state,
    event_key,
    lay_down_order,
    state_of,
)

ROOT = Path(__file__).resolve().parent.parent
SUPPORTED = tuple(PRESETS)  # the kernel plays every preset
#: the options the kernel plays besides the official ones, for the whole games below
OPTIONS: tuple[dict[str, str], ...] = (
    {},
    {"skip_target": "next"},
    {"empty_draw_pile": "end_hand"},
    {"end_when": "immediately"},
    {"advance": "all"},
    {"wild_deal_up": "dealer_chooses"},
    {"going_out": "discard"},
    {"phase_order": "any"},
    {"natural_min": "phase"},
    {"phase_order": "any", "declare": "deal", "deck": "masters"},
    {"save_pile": "public", "saved_score": "penalty"},
    {"give_up": "keep"},
    {"anti_phase": "on"},
)
needs_kernel = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")


def _play_both(
    play: KernelGame | EngineGame,
    game: Game,
    seed: int,
    max_actions: int,
    *,
    greedy: bool = False,
    kinds: Counter[int] | None = None,
    engine: bool = False,
) -> int:
    """Play the same actions on ``play`` and on a reference engine game; check they agree
    after each one. The actions are random, mostly lay-downs and hits when there are any so
    games end, or (``greedy``) the kernel's greedy policy in every seat. ``kinds`` counts
    the actions played by kind (the first number of an action key). With ``engine`` the
    reference (the Python fallback) is itself held to the engine's own game, through the
    engine's own actions, events and state."""
    reference = EngineGame(game)
    raw = game.copy() if engine else None
    chooser = random.Random(seed)
    for step in range(max_actions):
        assert play.state() == reference.state(), f"seed {seed}: states differ at action {step}"
        legal = reference.legal()
        if raw is not None:
            assert reference.state() == state_of(raw)
            assert Counter(legal) == Counter(action_key(a) for a in raw.legal_actions)
            lays = [key for key in legal if key[0] == 4]  # lay-downs first, in the kernel's order
            assert legal[: len(lays)] == sorted(lays, key=lay_down_order)
        assert play.legal() == legal, f"seed {seed}: legal actions differ at action {step}"
        if reference.is_over:
            assert play.is_over
            return step
        if greedy:
            key = play.greedy_action(play.current, chooser)
        else:
            eager = [key for key in legal if key[0] in (3, 4)]
            key = chooser.choice(eager if eager and chooser.random() < 0.9 else legal)
        if kinds is not None:
            kinds[key[0]] += 1
        events = play.apply(key)
        assert events == reference.apply(key), f"seed {seed}: events differ at action {step}"
        if raw is not None:
            assert events == [event_key(event) for event in raw.apply(to_action(key))]
    return max_actions


def _games(
    make: type[KernelGame] | type[EngineGame],
    actions: int,
    whole_games: int,
    ties_wanted: int,
    *,
    engine: bool = False,
) -> int:
    played = 0
    for index, name in enumerate(SUPPORTED):
        for players in range(2, 7):
            seed = 100 * index + players
            game = Game(players, seed=seed, rules=preset(name))
            played += _play_both(make(game), game, seed, actions, engine=engine)
    # whole short games from uneven scores: hands end, games end (at once too), tie-breaks
    ties = 0
    seed = 0
    while seed < whole_games or (ties < ties_wanted and seed < 400):
        options = OPTIONS[seed % len(OPTIONS)] if seed < whole_games else {}
        two = seed < whole_games and seed // len(OPTIONS) % 2 == 0
        phases = (seed % 9 + 1, seed % 9 + 2) if two else (seed % 10 + 1,)
        game = Game(2 + seed % 3, seed=seed, rules=Rules(phases=phases, **options))
        chooser = random.Random(seed)
        for seat in game.seats:
            seat.score = 5 * chooser.randrange(8)
        if two:  # player 0 alone on the last phase (ending at once needs one)
            game.seats[0].phase, game.seats[0].completed = 1, {0}
        play = make(game)
        played += _play_both(play, game, seed, 5000, engine=engine)
        assert play.is_over
        ties += bool(play.to_game().tie_break)
        seed += 1
    assert ties >= ties_wanted
    return played


@needs_kernel
def test_the_kernel_agrees_with_the_engine_action_by_action() -> None:
    assert _games(KernelGame, 60, 70, 2) > 8_000


#: whole short games the kernel and the engine play side by side, action by action, in
#: chunks the test workers share out: 20,000 in a test run (about 200 CPU-seconds), of
#: which the chunks past the first 2,000 games are marked slow (``make test-fast`` leaves
#: them out); PHASE10_WHOLE_GAMES=N plays N
def _whole_games() -> int:
    text = os.environ.get("PHASE10_WHOLE_GAMES", "20000")
    if not text.isdigit() or int(text) < 1:
        raise pytest.UsageError(f"PHASE10_WHOLE_GAMES is a number of games, not {text!r}")
    return int(text)


WHOLE_GAMES = _whole_games()
CHUNK = 200
FAST_CHUNKS = 2_000 // CHUNK
CHUNKS = [
    pytest.param(chunk, marks=pytest.mark.slow) if chunk >= FAST_CHUNKS else chunk
    for chunk in range(-(-WHOLE_GAMES // CHUNK))
]


def _short_game(number: int) -> tuple[Game, bool]:
    """Game ``number`` of the :data:`WHOLE_GAMES` and whether it is greedy in every seat
    (else random). The presets take turns; the rest is drawn from ``number``: 2 to 6
    players, uneven scores, one phase of the preset's list (one game in eight, two, so
    players move on between phases). Short games, so that twenty thousand fit in a test
    run; full-length games are above and in ``python -m benchmarks kernel``."""
    rules = preset(SUPPORTED[number % len(SUPPORTED)])
    draw = random.Random(number)
    numbers = rules.phase_numbers
    phases = tuple(draw.sample(numbers, 2 if draw.random() < 1 / 8 else 1))
    game = Game(draw.randrange(2, 7), seed=number, rules=dataclasses.replace(rules, phases=phases))
    for seat in game.seats:
        seat.score = 5 * draw.randrange(8)
    return game, draw.random() < 0.5


@needs_kernel
@pytest.mark.parametrize("chunk", CHUNKS)
def test_whole_games_under_every_preset_agree_action_by_action(chunk: int) -> None:
    kinds: Counter[int] = Counter()
    for number in range(chunk * CHUNK, min(WHOLE_GAMES, (chunk + 1) * CHUNK)):
        game, greedy = _short_game(number)
        play = KernelGame(game)
        assert _play_both(play, game, number, 20_000, greedy=greedy, kinds=kinds) > 0
        assert play.is_over, f"game {number} did not end in 20,000 actions"
    # draws, discard takes, discards, hits and lay-downs, in every chunk
    assert all(kinds[kind] > 0 for kind in (0, 1, 2, 3, 4)), kinds


def test_the_whole_games_cover_every_preset_both_ways_and_every_table_size() -> None:
    assert len(SUPPORTED) <= CHUNK
    greedy = players = 0
    for number in range(CHUNK):  # the first chunk: every preset, greedy and random games
        game, greedy_game = _short_game(number)
        rules = preset(SUPPORTED[number % len(SUPPORTED)])
        assert dataclasses.replace(game.rules, phases=rules.phases) == rules
        assert set(game.rules.phases) <= set(rules.phase_numbers)
        greedy += greedy_game
        players |= 1 << game.num_players
    assert 0.4 * CHUNK < greedy < 0.6 * CHUNK and players == 0b1111100


def test_the_python_fallback_agrees_with_the_engine_too() -> None:
    """The fallback a machine without the kernel plays through follows the engine's own
    game: its legal actions, its events and its state, action by action."""
    assert _games(EngineGame, 12, 14, 0, engine=True) > 1_500


@needs_kernel
def test_a_seeded_kernel_game_replays_exactly_in_the_engine() -> None:
    for seed, players in ((1, 2), (2, 4), (3, 6)):
        game = Game(players, seed=seed, rules=preset("short-5"))
        play = KernelGame(game)
        played, actions = play.play_random(seed, 1500, record=True)
        assert actions is not None and played == len(actions) > 100
        replay = game.copy()
        for key in actions:
            replay.apply(to_action(key))
        assert state_of(replay) == play.state()
        # the fallback's play-out chooses the same actions from the same seed
        fallback = EngineGame(game)
        assert fallback.play_random(seed, 1500, record=True) == (played, actions)
        assert fallback.state() == play.state()


@needs_kernel
def test_a_kernel_position_goes_back_to_the_engine() -> None:
    game = Game(3, seed=9)
    play = KernelGame(game)
    play.play_random(4, 300)
    back = play.to_game()
    assert state_of(back) == play.state()
    # and play goes on the same from there
    again = KernelGame(back)
    assert _play_both(again, back, 4, 200) == 200


def test_what_the_kernel_cannot_play_falls_back_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    for rules in PRESETS.values():
        check_rules(rules)
    # an arranged deal of 17 cards is more than the kernel's hands hold
    big = parse_cards("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 B1 B2 B3 B4 B5")
    deal = Arrangement(
        hands=(big, parse_cards("G1 G2 G3 G4 G5 G6 G7 G8 G9 G10")), discard=parse_cards("Y9")
    )
    game = Game(2, seed=1, arrangement=deal)
    if kernel.available():
        with pytest.raises(KernelUnsupported, match="player 0 holds 17 cards"):
            KernelGame(game)
    monkeypatch.setattr(kernel, "_warned", False)  # (turned off, it warns once)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        play = new_game(game)
    assert isinstance(play, EngineGame)
    assert any(issubclass(w.category, KernelFallbackWarning) for w in caught)


@needs_kernel
def test_bad_input_gets_a_clear_error() -> None:
    game = Game(2, seed=3)
    play = KernelGame(game)
    with pytest.raises(ValueError, match="not a legal action"):
        play.apply((2, 5, -1))  # a discard before drawing
    with pytest.raises(ValueError, match="no card has the index 77"):
        state = list(state_of(game))
        state[8] = (77,)
        play._kernel.load(tuple(state))
    for field, value, message in (
        (4, (0, 7), "players in hand: no seat 7"),
        (10, ((0, 4, (5, 7)),), "card 7 does not belong in place 1"),  # R6 R8: no run
        (10, ((0, 5, (48, 48)),), "a group of Wilds alone needs a value"),
    ):
        state = list(state_of(game))
        state[field] = value
        with pytest.raises(ValueError, match=message):
            play._kernel.load(tuple(state))
    assert play.state() == state_of(game)  # a refused state changes nothing
    with pytest.raises(ValueError, match="the kernel does not play"):
        action_key("draw")  # type: ignore[arg-type]  # (text is not an action)
    with pytest.raises(ValueError, match="not a kernel action"):
        to_action((99,))


def test_the_python_fallback_refuses_an_illegal_action_and_says_why() -> None:
    play = EngineGame(Game(2, seed=3))
    before = play.state()
    with pytest.raises(ValueError, match=r"not a legal action now: .*draw"):
        play.apply((2, 5, -1))  # a discard before drawing
    assert play.state() == before  # a refused action changes nothing
    over = EngineGame(Game(2, seed=4, rules=Rules(phases=(1,))))
    over.play_random(4)
    assert over.is_over
    with pytest.raises(ValueError, match="not a legal action now"):
        over.apply((0,))


def test_turned_off_the_kernel_falls_back_with_one_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel, "_MODULE", None)
    monkeypatch.setattr(kernel, "_ERROR", "turned off for a test")
    monkeypatch.setattr(kernel, "_warned", False)
    assert not kernel.available()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = new_game(Game(2, seed=1))
        new_game(Game(2, seed=2))
    assert isinstance(first, EngineGame)
    assert [str(w.message) for w in caught] == [
        "phase10.kernel: using the Python engine: turned off for a test"
    ]
    with pytest.raises(RuntimeError, match="not available"):
        KernelGame(Game(2, seed=1))


def test_the_environment_variable_turns_the_kernel_off() -> None:
    code = "import phase10.kernel as k; print(k.available(), k.load_error())"
    env = {**os.environ, "PHASE10_KERNEL": "off"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False turned off by PHASE10_KERNEL=off"


def test_a_failed_compile_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    import hatch_build

    monkeypatch.setenv("CC", "false")
    source = ROOT / "src" / "phase10" / "kernel" / "_kernel.c"
    error = hatch_build.compile_kernel(source, tmp_path / "_kernel.so")
    assert error is not None and "failed (exit status 1)" in error
    assert not (tmp_path / "_kernel.so").exists()


def test_apply_state_keeps_the_header() -> None:
    game = Game(["Ann", "Bob", "Cy"], seed=5, rules=preset("short-5"))
    back = apply_state(game, state_of(game))
    assert [s.name for s in back.seats] == ["Ann", "Bob", "Cy"]
    assert back.rules == game.rules and state_of(back) == state_of(game)


def _mid_game(players: int, seed: int) -> Game:
    play = EngineGame(Game(players, seed=seed))
    play.play_random(seed, 120)
    return play.to_game()


@needs_kernel
def test_a_determinization_keeps_what_the_viewer_knows_and_matches_the_engine() -> None:
    from collections import Counter

    for players, seed in ((2, 1), (4, 2), (6, 3)):
        game = _mid_game(players, seed)
        viewer = game.current
        known = [[card.index for card in seat.hand[:2]] for seat in game.seats]
        kernel_side = KernelGame(game).determinize(viewer, known, seed)
        engine_side = EngineGame(game).determinize(viewer, known, seed)
        assert kernel_side.state() == engine_side.state()
        dealt = kernel_side.to_game()
        assert dealt.hand(viewer) == game.hand(viewer)
        assert dealt.discard_pile == game.discard_pile and dealt.melds == game.melds
        assert Counter(dealt.all_cards()) == Counter(game.all_cards())
        assert len(dealt.draw_pile) == len(game.draw_pile)
        for player, seat in enumerate(dealt.seats):
            assert len(seat.hand) == len(game.seats[player].hand)
            assert not Counter(game.seats[player].hand[:2]) - Counter(seat.hand)
        assert dealt.draw_pile != game.draw_pile  # the unseen cards were dealt afresh


@needs_kernel
def test_batched_playouts_match_the_engine() -> None:
    game = _mid_game(3, 5)
    known = [[] for _ in game.seats]
    kernel_side = KernelGame(game).playouts(0, known, 4, 11, max_actions=150)
    assert kernel_side == EngineGame(game).playouts(0, known, 4, 11, max_actions=150)
    whole = KernelGame(game).playouts(0, known, 20, 12)
    assert all(winners and played > 0 for winners, _, played in whole)
    for play in (KernelGame(game), EngineGame(game)):
        with pytest.raises(ValueError, match="one list of card indices per seat"):
            play.playouts(0, [[]], 1, 1)
        with pytest.raises(ValueError, match=r"seat 1 holds \d+ cards, not the 11 listed"):
            play.playouts(0, [[], [48] * 11, []], 1, 1)  # (eleven Wilds in a hand of ten)
        with pytest.raises(ValueError, match="indices from 0 to 50"):
            play.playouts(0, [[], [51], []], 1, 1)
        with pytest.raises(ValueError, match="max_actions is -1"):
            play.playouts(0, known, 1, 1, max_actions=-5)
        with pytest.raises(ValueError, match="max_actions is -1"):
            play.play_random(1, max_actions=-5)


@needs_kernel
def test_the_kernel_refuses_what_the_engine_refuses_and_says_why() -> None:
    game = Game(2, seed=1)
    play, twin = KernelGame(game), EngineGame(game)
    assert (play.current, play.stage) == (twin.current, twin.stage) == (game.current, game.stage)
    before = play.state()
    for malformed in ((0, 5), (1, "x"), (2, 99), "draw"):
        with pytest.raises(ValueError, match="not a legal action now"):
            play.apply(malformed)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            twin.apply(malformed)  # type: ignore[arg-type]
    assert play.state() == before  # (nothing played)
    hand = play.state()[11][game.current][0]
    with pytest.raises(ValueError, match=r"not a legal action now: .*draw"):
        play.apply((2, hand[0], -1))  # a discard before drawing: the engine's own reason
    with pytest.raises(TypeError, match="a kernel game starts from a phase10 Game"):
        KernelGame("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a kernel game starts from a phase10 Game"):
        new_game(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        play.greedy_action(game.current, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="hands is 0"):
        play.search(game.current, [[], []], [0], 2, 1, hands=-1)
    with pytest.raises(ValueError, match="hands is 0"):
        twin.search(game.current, [[], []], [0], 2, 1, hands=-1)
    view = game.view(game.current)
    assert EngineGame.from_view(view).state() == KernelGame.from_view(view).state()


@needs_kernel
def test_groups_of_wilds_alone_under_natural_min_phase() -> None:
    rules = preset("natural-per-phase")
    other = parse_cards("R2 R3 R4 R5 R6 B8 B9 B10 B11 B12")
    for text, phase in (
        ("W W W R7 B7 G7 R1 B2 G3 Y4", 1),  # a set of Wilds beside a set of 7s
        ("W W W W R7 B7 G7 R1 Y9 Y4", 2),  # a run of Wilds beside a set
        ("W W W W W W R3 G3 B1 Y12", 10),  # a set of five Wilds beside R3 G3 W
    ):
        deal = Arrangement(
            hands=(parse_cards(text), other), discard=parse_cards("Y9"), phases=(phase, 1)
        )
        game = Game(2, seed=phase, rules=rules, arrangement=deal, dealer=1)
        game.apply("draw")
        reference, play = EngineGame(game), KernelGame(game)
        legal = reference.legal()
        assert play.legal() == legal
        wild_only = [key for key in legal if key[0] == 4 and any(len(g) == 3 for g in key[1])]
        assert wild_only, text
        play.apply(wild_only[-1])
        reference.apply(wild_only[-1])
        assert play.state() == reference.state()
        back = play.to_game()
        assert any(meld.group.natural_count == 0 for meld in back.melds)
        assert _play_both(KernelGame(back), back, phase, 150) > 0


@needs_kernel
def test_a_determinization_deals_private_save_piles_afresh() -> None:
    from collections import Counter

    play = EngineGame(Game(3, seed=6, rules=preset("masters")))
    play.play_random(6, 900)
    game = play.to_game()
    assert len(game.seats[0].saved) == 1
    viewer = 1  # player 0's save pile is private to them
    known: list[list[int]] = [[] for _ in game.seats]
    kernel_side = KernelGame(game).determinize(viewer, known, 3)
    assert kernel_side.state() == EngineGame(game).determinize(viewer, known, 3).state()
    dealt = kernel_side.to_game()
    assert Counter(dealt.all_cards()) == Counter(game.all_cards())
    assert dealt.seats[viewer].saved == game.seats[viewer].saved
    assert [len(s.saved) for s in dealt.seats] == [len(s.saved) for s in game.seats]

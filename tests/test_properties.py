"""Properties of seeded random legal play, for every preset.

Every game is played to its end by the policy in ``randomplay``. After every action:
the deck's cards (108, or the rules' deck) are all there, phases never go back, scores only grow, and each
hand's points are the points of the cards left in hand. On a sample of steps and
games: every refused action leaves the state unchanged, the legal actions all pass
``check`` without duplicates, views hide what they must, records replay and
snapshots restore to the same state and play on identically.

Games per run: ``FULL_GAMES_PER_PRESET`` full games and ``SHORT_GAMES_PER_PRESET``
games on one to three of the preset's phases, for each of the presets in
``phase10.PRESETS`` (28 presets: 28 * (3 + 69) = 2,016 complete games).
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10 import (
    DECK_COUNTS,
    PRESETS,
    Action,
    AntiPhase,
    Card,
    Dealt,
    Deck,
    Discard,
    Draw,
    Drew,
    Event,
    Game,
    GameEnded,
    GroupKind,
    HandEnded,
    Hit,
    IllegalActionError,
    InvalidActionError,
    LayDown,
    Meld,
    MovedDown,
    PlayerView,
    Reshuffled,
    Rules,
    Stage,
    dumps,
    dumps_snapshot,
    hand_points,
    loads,
    loads_snapshot,
    parse_cards,
    parse_group,
    snapshot,
)
from phase10.core.cards import WILD
from phase10.core.state import Seat
from randomplay import (
    MAX_ACTIONS,
    choose,
    dead_hand,
    fingerprint,
    legal_list,
    play_game,
    short_rules,
)
from refusable import refused_actions

PRESET_NAMES = tuple(PRESETS)
#: Full games (the preset's whole phase list) per preset and per run.
FULL_GAMES_PER_PRESET = 3
#: Games on one to three of the preset's phases, per preset and per run (Hypothesis examples).
SHORT_GAMES_PER_PRESET = 69
#: Games per run.
GAMES_PER_RUN = len(PRESET_NAMES) * (FULL_GAMES_PER_PRESET + SHORT_GAMES_PER_PRESET)

#: Chance that a step tries a few refused actions (``REFUSALS_PER_STEP`` of them).
ILLEGAL_RATE = 0.1
REFUSALS_PER_STEP = 4
#: A deep step tries every kind of refused action, checks every enumerated action and
#: the views; on a ``SNAPSHOT_RATE`` share of deep steps the whole snapshot is compared.
#: A game has at most ``DEEP_STEPS`` deep steps and ``SNAPSHOTS`` snapshot comparisons
#: (a snapshot holds the whole history: its cost grows with the game).
SNAPSHOT_RATE = 0.05
DEEP_STEPS = 150
#: A deep step compares ``hand_is_dead`` with the tests' own search, when that search finds
#: its answer within this many steps (a pool of ninety cards can take minutes otherwise).
DEAD_HAND_STEPS = 20_000
SNAPSHOTS = 3
#: How many actions a restored twin plays in lockstep with the original.
LOCKSTEP = 120

REFUSED = (IllegalActionError, InvalidActionError)

#: ``DECK_COUNTS`` by card index, as a plain dict: the same table, faster to build and
#: compare after every action (a Counter compares itself in Python, a dict in C).
DECK_INDEX_COUNTS = {card.index: copies for card, copies in DECK_COUNTS.items()}


#: the same for every deck (options ``deck`` and ``anti_phase``)
DECK_INDEX_COUNTS_OF = {
    (deck, anti): {
        card.index: copies for card, copies in Rules(deck=deck, anti_phase=anti).deck_counts.items()
    }
    for deck in Deck
    for anti in AntiPhase
}


def deck_index_counts(game: Game) -> dict[int, int]:
    """The deck the game's rules name (options ``deck`` and ``anti_phase``), by card index."""
    return DECK_INDEX_COUNTS_OF[game.rules.deck, game.rules.anti_phase]


def card_counts(game: Game) -> dict[int, int]:
    """``Counter(game.all_cards())`` by card index, as a plain dict."""
    return dict(Counter(map(attrgetter("index"), game.all_cards())))


# -- refused actions ----------------------------------------------------------------------


def assert_refused(game: Game, candidates: list[Action | str], full: bool) -> None:
    """Each candidate is refused and leaves the game as it was (``full``: the whole snapshot)."""
    before = snapshot(game) if full else None
    mark = fingerprint(game)
    for candidate in candidates:
        try:
            game.apply(candidate)
        except REFUSED:
            pass
        else:
            raise AssertionError(f"{candidate} was accepted in {game!r}")
        if isinstance(candidate, Action):
            assert not game.is_legal(candidate), candidate
            assert candidate not in game.legal_actions, candidate
        if full:
            assert fingerprint(game) == mark, f"refusing {candidate} changed the game"
    assert fingerprint(game) == mark, "refusing an action changed the game"
    if before is not None:
        assert snapshot(game) == before


# -- enumeration and views ----------------------------------------------------------------


def assert_enumeration(game: Game, actions: list[Action]) -> None:
    assert game.legal_actions.count() == len(actions)
    assert bool(game.legal_actions) == bool(actions)
    for action in actions:
        assert game.check(action) == action, action
        assert action in game.legal_actions


def _hidden_cards_seen(view: PlayerView, viewer: int | None) -> list[Event]:
    """Events in the view that show a card another player holds secretly."""
    leaks: list[Event] = []
    for event in view.history:
        if isinstance(event, Dealt) and event.player != viewer and event.cards is not None:
            leaks.append(event)
        if isinstance(event, Drew) and event.player != viewer and event.card is not None:
            leaks.append(event)
    return leaks


def assert_views(game: Game, actions: list[Action], rng: random.Random) -> None:
    n = game.num_players
    viewers: list[int | None] = [*range(n), None]
    views = {viewer: game.view(viewer) for viewer in viewers}
    for viewer, view in views.items():
        assert view.hand == (game.hand(viewer) if viewer is not None else ())
        assert not hasattr(view, "draw_pile")
        assert view.draw_size == len(game.draw_pile)
        assert [s.hand_size for s in view.seats] == [len(s.hand) for s in game.seats]
        assert _hidden_cards_seen(view, viewer) == []
        if viewer == game.current and not game.is_over:
            assert legal_list(view) == actions
        else:
            assert legal_list(view) == []
    # Scramble everything the viewer may not see: the view must not change.
    hands = [list(seat.hand) for seat in game.seats]
    draw = list(game.draw_pile)
    try:
        for viewer in viewers:
            for p in range(n):
                game.seats[p].hand = list(hands[p])
            others = [p for p in range(n) if p != viewer]
            hidden = [card for p in others for card in hands[p]] + draw
            rng.shuffle(hidden)
            for p in others:
                game.seats[p].hand = [hidden.pop() for _ in hands[p]]
            game.draw_pile = hidden
            assert game.view(viewer) == views[viewer], f"p{viewer}'s view shows hidden cards"
    finally:
        for p in range(n):
            game.seats[p].hand = hands[p]
        game.draw_pile = draw


# -- the checked game ---------------------------------------------------------------------


@dataclass
class Twin:
    """A game restored from a snapshot, played in lockstep with the original."""

    game: Game
    rng: random.Random
    left: int


@dataclass
class Stats:
    actions: int = 0
    hands: int = 0
    refused: int = 0
    deep_steps: int = 0
    dead_checks: int = 0
    snapshots: int = 0
    twins: int = 0
    replays: int = 0
    kinds: Counter[str] = field(default_factory=Counter)


def _removed_by(action: Action) -> list[Card]:
    if isinstance(action, LayDown):
        return list(action.cards)
    if isinstance(action, (Hit, Discard)):
        return [action.card]
    return []


def assert_hand_end(
    game: Game,
    action: Action,
    events: list[Event],
    hands_before: list[list[Card]],
    scores_before: list[int],
    players_before: tuple[int, ...],
    tie_break_before: bool,
    actor: int,
) -> HandEnded | None:
    ended = [event for event in events if isinstance(event, HandEnded)]
    assert len(ended) <= 1
    if not ended:
        return None
    result = ended[0]
    assert Counter(game.all_cards()) == game.rules.deck_counts  # the new deal holds the deck
    left = [Counter(hand) for hand in hands_before]
    left[actor] -= Counter(_removed_by(action))
    for seat in range(game.num_players):
        if seat not in players_before:
            assert result.points[seat] is None
        elif seat == result.went_out:
            assert result.points[seat] == 0
            assert not left[seat], "the player who went out still holds cards"
        else:
            assert result.points[seat] == hand_points(left[seat].elements()), (seat, result)
    if tie_break_before:
        assert result.totals == tuple(scores_before)
    else:
        expected = tuple(s + (p or 0) for s, p in zip(scores_before, result.points, strict=True))
        assert result.totals == expected
    assert tuple(seat.score for seat in game.seats) == result.totals
    return result


def play_checked(
    rules: Rules, players: int, seed: int, *, deep: float = 0.0, replay: bool = True
) -> tuple[Game, Stats]:
    """Play one game to its end with the policy, checking every property on the way.

    ``deep`` is the share of steps that get the expensive checks; a game with deep steps
    also restores a snapshot and replays its record at random points.
    """
    game = Game(players, rules=rules, seed=seed)
    policy = random.Random(seed)
    checks = random.Random(seed ^ 0x5EED)
    stats = Stats()
    twin: Twin | None = None
    twin_at = checks.randrange(400) if deep else -1
    replay_at = checks.randrange(400) if deep else -1
    phases = [seat.phase for seat in game.seats]
    completed = [set(seat.completed) for seat in game.seats]
    assert Counter(game.all_cards()) == game.rules.deck_counts
    while not game.is_over:
        step = stats.actions
        actions = legal_list(game)
        assert actions, f"no legal action: {game!r}"
        assert len(set(actions)) == len(actions), "legal_actions repeats an action"
        deep_step = stats.deep_steps < DEEP_STEPS and deep > 0 and checks.random() < deep
        if deep_step or checks.random() < ILLEGAL_RATE:
            candidates = refused_actions(game, checks)
            if not deep_step:
                candidates = checks.sample(candidates, REFUSALS_PER_STEP)
            full = deep_step and stats.snapshots < SNAPSHOTS and checks.random() < SNAPSHOT_RATE
            assert_refused(game, candidates, full)
            stats.refused += len(candidates)
            stats.snapshots += full
        if deep_step:
            stats.deep_steps += 1
            assert_enumeration(game, actions)
            assert_views(game, actions, checks)
            if game.rules.empty_draw_pile.value == "reshuffle":
                # (a lay-down search of the whole pool that runs long is left unknown)
                known = dead_hand(game, max_steps=DEAD_HAND_STEPS)
                assert known is None or game.hand_is_dead() == known
                stats.dead_checks += known is not None
        if step == twin_at:
            restored = loads_snapshot(dumps_snapshot(game))
            assert snapshot(restored) == snapshot(game)
            twin_rng = random.Random()
            twin_rng.setstate(policy.getstate())
            twin = Twin(restored, twin_rng, LOCKSTEP)
            stats.twins += 1
        if step == replay_at:
            assert snapshot(loads(dumps(game)).replay()) == snapshot(game)
            stats.replays += 1
        hands_before = [list(seat.hand) for seat in game.seats]
        scores_before = [seat.score for seat in game.seats]
        players_before, tie_break_before, actor = game.players_in_hand, game.tie_break, game.current

        action = choose(game, policy, actions)
        events = game.apply(action)
        stats.actions += 1
        stats.kinds[type(action).__name__] += 1

        assert card_counts(game) == deck_index_counts(game), f"cards lost or made after {action}"
        # only the Anti-phase card moves a player down: the one phase its event names
        lost = {e.player: e.phase for e in events if isinstance(e, MovedDown)}
        for seat, info in enumerate(game.seats):
            gone = lost.get(seat)
            kept = completed[seat] - {gone - 1} if gone is not None else completed[seat]
            assert info.phase >= phases[seat] or seat in lost, "a phase went back"
            assert info.completed >= kept, "a completed phase was lost"
            assert gone is None or gone - 1 not in info.completed, "a phase lost is still made"
            assert info.score >= scores_before[seat], "a score went down"
            phases[seat], completed[seat] = info.phase, set(info.completed)
        if assert_hand_end(
            game,
            action,
            events,
            hands_before,
            scores_before,
            players_before,
            tie_break_before,
            actor,
        ):
            stats.hands += 1
        if twin is not None:
            twin_action = choose(twin.game, twin.rng)
            assert twin_action == action, "the restored game plays on differently"
            assert twin.game.apply(twin_action) == events
            twin.left -= 1
            if twin.left == 0 or game.is_over:
                assert snapshot(twin.game) == snapshot(game)
                twin = None
        assert stats.actions < MAX_ACTIONS, f"the game did not end: {game!r}"

    assert isinstance(game.history[-1], GameEnded)
    assert game.winners and set(game.winners) <= set(range(players))
    assert legal_list(game) == [] and not game.legal_actions
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(Draw())
    if replay:
        replayed = loads(dumps(game)).replay()
        assert replayed.winners == game.winners
        assert snapshot(replayed) == snapshot(game)
    return game, stats


def assert_final_phases(game: Game) -> None:
    """At the end: phases agree with what was completed, and the winners completed them all."""
    rules = game.rules
    count = rules.phase_count
    for seat in game.seats:
        if rules.advance.value == "all":
            assert seat.phase == count
        else:
            assert seat.phase == min(set(range(count + 1)) - seat.completed)
    if rules.advance.value != "all":
        assert all(len(game.seats[w].completed) == count for w in game.winners)


# -- the tests ----------------------------------------------------------------------------


def _full_game_seeds(name: str) -> list[tuple[int, int]]:
    """(players, seed) for a preset's full games: fixed seeds, 2 to 6 players in turn.
    The seeds come from the preset's name, so a preset added leaves the others' games alone."""
    index = zlib.crc32(name.encode()) % 997
    return [(2 + (index + k) % 5, index * 1000 + k) for k in range(FULL_GAMES_PER_PRESET)]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_full_games(name: str) -> None:
    """Full games on the preset's phase list; the first one checks everything at every step."""
    totals: Counter[str] = Counter()
    for k, (players, seed) in enumerate(_full_game_seeds(name)):
        game, stats = play_checked(PRESETS[name], players, seed, deep=0.2 if k == 0 else 0.0)
        assert stats.hands == game.hand_number
        if k == 0:  # the deep game restored a snapshot and replayed its record mid-game
            assert stats.twins == stats.replays == 1 and stats.snapshots >= 1
            assert stats.deep_steps > 50
            reshuffles = PRESETS[name].empty_draw_pile.value == "reshuffle"
            assert stats.dead_checks > stats.deep_steps // 2 or not reshuffles
        assert_final_phases(game)
        totals += stats.kinds
    # Random legal play exercises every kind of action the preset allows.
    assert totals["Draw"] and totals["Discard"] and totals["LayDown"] and totals["Hit"]


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=SHORT_GAMES_PER_PRESET, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_short_games(name: str, seed: int, players: int) -> None:
    """Games on one to three of the preset's phases; one in sixteen has deep steps."""
    seed = (seed + PRESET_NAMES.index(name) * 7919) % 2**32  # other deals for each preset
    rules = short_rules(PRESETS[name], random.Random(seed))
    deep = seed % 16 == 0
    game, stats = play_checked(
        rules, players, seed, deep=0.25 if deep else 0.0, replay=deep or seed % 8 == 0
    )
    assert game.is_over and stats.actions == len(game.actions)


def test_games_per_run() -> None:
    """The number of complete random games the two tests above play per run."""
    assert GAMES_PER_RUN >= 2000
    assert len(PRESET_NAMES) == len(PRESETS) >= 20


def test_refused_actions_are_refused_in_every_stage() -> None:
    """The refusal generator reaches every stage the presets have."""
    seen: set[Stage] = set()
    wild_up = next(
        seed
        for seed in range(1000)
        if Game(3, rules=PRESETS["wild-deal-up"], seed=seed).stage is Stage.GIVE_WILD
    )
    for name, seeds in (
        ("official", range(6)),
        ("masters", range(6)),
        ("wild-deal-up", [wild_up]),
        ("floating", range(6)),
    ):
        rng = random.Random(name)
        for seed in seeds:
            game = Game(3, rules=PRESETS[name], seed=seed)
            for step in range(40):
                seen.add(game.stage)
                assert_refused(game, refused_actions(game, rng), full=step % 10 == 0)
                game.apply(choose(game, rng))
    assert {Stage.DRAW, Stage.PLAY, Stage.DECLARE, Stage.GIVE_WILD, Stage.WILD_DISCARD} <= seen


def dead_position() -> Game:
    """Both players have laid "2 sets of 3" as sets of 5s and 7s that hold every 5, every 7
    and every Wild; they hold R1 B2 and G3 Y4. No card can ever be hit, so nobody can go out.
    """
    header: dict[str, Any] = {"rules": Rules(phases=(1,)), "seed": 1, "dealer": 1}
    groups = [
        (0, "R7 R7 B7 B7 W W"),
        (0, "R5 R5 B5 B5 W W"),
        (1, "G7 G7 Y7 Y7 W W"),
        (1, "G5 G5 Y5 Y5 W W"),
    ]
    melds = tuple(Meld(owner, parse_group(GroupKind.SET, text)) for owner, text in groups)
    seats = tuple(
        Seat(f"Player {p}", hand=list(parse_cards(hand)), laid=0)
        for p, hand in enumerate(("R1 B2", "G3 Y4"))
    )
    rest = Counter(DECK_COUNTS)
    rest -= Counter(card for seat in seats for card in seat.hand)
    rest -= Counter(card for meld in melds for card in meld.group.cards)
    loose = sorted(rest.elements(), key=lambda card: card.index)
    random.Random(1).shuffle(loose)
    state = replace(
        Game(2, **header).state(),
        melds=melds,
        seats=seats,
        discard_pile=tuple(loose[:1]),
        draw_pile=tuple(loose[1:]),
        current=0,
        stage=Stage.DRAW,
    )
    return Game.from_state(2, state, **header)


def test_a_hand_nobody_can_end_ends_when_the_draw_pile_runs_out() -> None:
    """Nobody can hit or lay down: the hand ends as if nobody went out, without a reshuffle."""
    game = dead_position()
    assert card_counts(game) == DECK_INDEX_COUNTS
    assert dead_hand(game) and game.hand_is_dead()
    play_game(game, random.Random(2), stop_after=400)
    first_hand = game.history[: game.history.index(game.hand_results[0]) + 1]
    assert not any(isinstance(event, Reshuffled) for event in first_hand)
    result = game.hand_results[0]
    assert result.went_out is None and "nobody can go out" in result.reason
    assert all(points is not None and points > 0 for points in result.points)


def test_dead_hand_is_rare_and_specific() -> None:
    """The dead-hand test used by the games above is false in live positions."""
    game = Game(4, seed=3)
    assert not dead_hand(game)
    play_game(game, random.Random(3), stop_after=400)
    assert not dead_hand(game)


def test_the_checks_catch_a_broken_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The invariants this module checks fail when the state is broken."""
    game = Game(3, seed=1)
    game.seats[0].hand.pop()
    assert Counter(game.all_cards()) != DECK_COUNTS
    assert card_counts(game) != DECK_INDEX_COUNTS
    game.seats[0].hand.append(WILD)
    assert card_counts(game) != DECK_INDEX_COUNTS
    game = Game(3, seed=1)
    mark = fingerprint(game)
    game.seats[1].hand.reverse()
    assert fingerprint(game) != mark
    game = Game(3, seed=1)
    monkeypatch.setattr(Dealt, "seen_by", lambda self, viewer: self)
    with pytest.raises(AssertionError):
        assert_views(game, legal_list(game), random.Random(0))

"""The built-in players: only legal actions, sensible choices, finished games, determinism."""

from __future__ import annotations

import random

import pytest

from phase10.bots import Player, RandomPlayer, SimplePlayer, phase_gap, play_game
from phase10.core import (
    Action,
    Arrangement,
    Declare,
    Discard,
    Draw,
    Game,
    GiveWild,
    GoingOut,
    Hit,
    LayDown,
    NaturalMin,
    Phase,
    PlayerView,
    Stage,
    TakeDiscard,
    parse_cards,
    preset,
)


class Checked:
    """Wraps a player: every choice must be one of the view's legal actions.

    For a :class:`SimplePlayer` it also checks the heuristic's promises against what
    the view offered: it lays down when it can, hits before it discards once its phase
    is down, discards a Skip when it holds one and a Wild only when it must.
    """

    def __init__(self, player: Player, simple: bool) -> None:
        self.player = player
        self.simple = simple
        self.choices = 0

    def choose(self, view: PlayerView) -> Action:
        assert view.viewer == view.current
        action = self.player.choose(view)
        legal = list(view.legal_actions)
        assert action in legal, f"{action} is not among {legal}"
        self.choices += 1
        if self.simple:
            self._check_heuristic(view, action, legal)
        return action

    @staticmethod
    def _check_heuristic(view: PlayerView, action: Action, legal: list[Action]) -> None:
        if any(isinstance(a, LayDown) for a in legal):
            assert isinstance(action, LayDown)
        if not isinstance(action, Discard) or view.stage is not Stage.PLAY:
            return
        last_card = view.rules.going_out is GoingOut.DISCARD and len(view.hand) == 1
        if not last_card:
            assert not any(isinstance(a, Hit) for a in legal), "it discarded a card it could hit"
        if any(isinstance(a, Discard) and a.card.is_skip for a in legal):
            assert action.card.is_skip
        if action.card.is_wild:
            assert all(a.card.is_wild for a in legal if isinstance(a, Discard))


GAMES = [
    ("official", 2, 0),
    ("official", 3, 1),
    ("official", 4, 2),
    ("official", 5, 3),
    ("official", 6, 4),
    ("masters", 3, 5),
    ("masters", 4, 6),
    ("arkansas", 2, 7),
    ("arkansas", 5, 8),
    ("floating", 4, 9),
    ("floating", 6, 10),
    ("wild-deal-up", 3, 11),
    ("wild-deal-up", 4, 12),
    ("skip-next", 4, 13),
    ("ten-hands", 5, 14),
    ("natural-per-phase", 3, 15),
    ("end-immediately", 2, 16),
    ("no-reshuffle", 4, 17),
    ("island-paradise", 4, 18),
    ("edition-3", 3, 19),
    ("edition-8", 2, 20),
]


@pytest.mark.parametrize(("rules", "players", "seed"), GAMES)
def test_simple_players_play_only_legal_actions_to_the_end(
    rules: str, players: int, seed: int
) -> None:
    game = Game(players, rules=preset(rules), seed=seed)
    bots = [
        Checked(SimplePlayer(random.Random(seed * 10 + i)), simple=True) for i in range(players)
    ]
    play_game(game, bots)
    assert game.is_over and game.winners
    assert len(game.all_cards()) == game.rules.deck_size
    assert all(bot.choices > 0 for bot in bots)


@pytest.mark.parametrize(("rules", "players", "seed"), GAMES)
def test_random_players_play_only_legal_actions(rules: str, players: int, seed: int) -> None:
    game = Game(players, rules=preset(rules), seed=seed)
    bots = [
        Checked(RandomPlayer(random.Random(seed * 10 + i)), simple=False) for i in range(players)
    ]
    for _ in range(250):
        if game.is_over:
            break
        game.apply(bots[game.current].choose(game.view(game.current)))
    assert sum(bot.choices for bot in bots) >= min(250, len(game.actions))
    assert len(game.actions) > 20
    assert len(game.all_cards()) == game.rules.deck_size


@pytest.mark.parametrize("seed", range(6))
def test_simple_players_finish_standard_four_player_games_in_sane_time(seed: int) -> None:
    game = Game(4, seed=seed)
    play_game(game, [SimplePlayer(random.Random(seed + i)) for i in range(4)])
    assert game.is_over
    assert 10 <= game.hand_number < 60
    winner = game.view(None).seats[game.winners[0]]
    assert len(winner.completed) == 10


def _actions(game_seed: int, player_seed: int, cls: type[RandomPlayer | SimplePlayer]) -> list[str]:
    game = Game(3, seed=game_seed)
    bots = [cls(random.Random(player_seed * 7 + i)) for i in range(3)]
    if cls is SimplePlayer:
        play_game(game, bots)
    else:
        for _ in range(150):
            game.apply(bots[game.current].choose(game.view(game.current)))
    return [str(action) for action in game.actions]


@pytest.mark.parametrize("cls", [SimplePlayer, RandomPlayer])
def test_players_are_deterministic_for_a_seed(cls: type[RandomPlayer | SimplePlayer]) -> None:
    first = _actions(3, 1, cls)
    assert first == _actions(3, 1, cls)
    assert first != _actions(4, 1, cls)


def test_random_player_depends_on_its_rng() -> None:
    assert _actions(3, 1, RandomPlayer) != _actions(3, 2, RandomPlayer)


def test_play_game_reports_every_event_and_checks_the_player_count() -> None:
    game = Game(2, seed=9)
    seen: list[object] = []
    play_game(game, [SimplePlayer(random.Random(1)), SimplePlayer(random.Random(2))], seen.extend)
    assert seen == game.history[len(game.history) - len(seen) :]
    assert type(seen[-1]).__name__ == "GameEnded"
    with pytest.raises(ValueError, match="2 players, not 3"):
        play_game(Game(2, seed=9), [SimplePlayer(random.Random(i)) for i in range(3)])


def test_a_player_with_nothing_to_do_says_so() -> None:
    game = Game(2, seed=1)
    idle = 1 - game.current
    with pytest.raises(ValueError, match="not their turn"):
        RandomPlayer(random.Random(0)).choose(game.view(idle))


# -- single decisions, from arranged deals --------------------------------------------


def _game(
    hand: str,
    discard: str,
    *,
    draw: str = "",
    rules: str = "official",
    phases: tuple[int, ...] | None = None,
) -> Game:
    """Ann (seat 0) plays first, with ``hand``; Bob holds a dull hand."""
    other = parse_cards("R1 B1 G2 Y2 R4 B4 G6 Y6 R8 B8")
    arrangement = Arrangement(
        hands=(parse_cards(hand), other),
        discard=parse_cards(discard),
        draw=parse_cards(draw),
        phases=phases,
    )
    return Game(["Ann", "Bob"], rules=preset(rules), seed=1, dealer=1, arrangement=arrangement)


def _choice(game: Game, seed: int = 0) -> Action:
    return SimplePlayer(random.Random(seed)).choose(game.view(game.current))


def test_takes_a_discard_that_helps_and_draws_otherwise() -> None:
    hand = "R7 B7 G3 G3 Y9 B11 R12 G10 Y5 B2"
    assert _choice(_game(hand, "G7")) == TakeDiscard()
    assert _choice(_game(hand, "Y10")) == Draw()
    assert _choice(_game(hand, "W")) == TakeDiscard()


def test_lays_down_the_way_with_most_cards_and_hits_before_discarding() -> None:
    game = _game("R7 B7 G7 Y7 R3 B3 G3 W Y9 B11", "Y12", draw="G9")
    game.apply(Draw())
    action = _choice(game)
    assert isinstance(action, LayDown) and len(action.cards) == 8
    game.apply(action)
    game.apply(_choice(game))  # Ann keeps playing: Y9 G9 B11 left, nothing fits
    assert game.current == 1


def test_hits_every_card_it_can() -> None:
    game = _game("R7 B7 G7 R3 B3 G3 Y7 Y9 B11 R12", "Y12", draw="Y3")
    game.apply(Draw())
    game.apply("lay R7 B7 G7 + R3 B3 G3")
    hits = []
    while isinstance(action := _choice(game), Hit):
        hits.append(str(action.card))
        game.apply(action)
    assert sorted(hits) == ["Y3", "Y7"]
    assert isinstance(action, Discard) and action.card.points == 10


def test_discards_a_skip_at_the_player_closest_to_winning() -> None:
    hands = (
        parse_cards("S W R1 B3 G5 Y8 R10 B12 G11 Y2"),
        parse_cards("R1 B1 G2 Y2 R4 B4 G6 Y6 R8 B8"),
        parse_cards("R2 B2 G4 Y4 R6 B6 G8 Y8 R9 B9"),
    )
    arrangement = Arrangement(hands=hands, discard=parse_cards("Y12"), phases=(1, 6, 2))
    game = Game(["Ann", "Bob", "Cy"], seed=1, dealer=2, arrangement=arrangement)
    game.apply(Draw())
    assert _choice(game) == Discard(parse_cards("S")[0], 1)


@pytest.mark.parametrize("seed", range(4))
def test_keeps_its_wild_and_sheds_a_high_single(seed: int) -> None:
    game = _game("W R1 B3 G5 Y8 R10 B12 G11 Y2 R6", "Y12", draw="B9")
    game.apply(Draw())
    action = _choice(game, seed)
    assert isinstance(action, Discard)
    assert not action.card.is_wild and action.card.points == 10


def test_gives_a_turned_up_wild_to_itself() -> None:
    game = _game("R1 B3 G5 Y8 R10 B12 G11 Y2 R5 B6", "W", rules="wild-deal-up")
    assert game.stage is Stage.GIVE_WILD
    assert _choice(game) == GiveWild(game.dealer)


def test_declares_the_phase_its_hand_is_closest_to() -> None:
    game = _game("R1 B2 G3 Y4 R5 B6 G7 R11 B12 Y9", "Y10", rules="masters")
    assert game.stage is Stage.DECLARE
    assert _choice(game) == Declare(4)


@pytest.mark.parametrize(("rules", "laid"), [("official", 11), ("floating", 10)])
def test_under_floating_rules_it_keeps_a_card_to_go_out_with(rules: str, laid: int) -> None:
    game = _game("R1 B2 G3 Y4 R5 B6 G7 R8 B9 G10", "Y12", draw="Y11", rules=rules, phases=(4, 1))
    game.apply(Draw())
    action = _choice(game)
    assert isinstance(action, LayDown) and len(action.cards) == laid


@pytest.mark.parametrize(
    ("phase", "hand", "gap"),
    [
        ("2 sets of 3", "R7 B7 G7 R3 B3 G3", 0),
        ("2 sets of 3", "R7 B7 G7 R3 B3 Y9", 1),
        ("2 sets of 3", "R7 B7 W W Y9 G2", 1),
        ("1 set of 3 + 1 run of 4", "R7 B7 W G3 G4 W G6", 0),
        ("1 run of 7", "R1 B2 G3 Y4 R5 B6 G9", 1),
        ("7 cards of one color", "R1 R2 R3 R4 R5 B6 W", 1),
        ("1 even or odd of 8", "R2 B4 G6 Y8 R10 B12 W W", 0),
        ("1 color run of 4", "R1 R2 B3 R4", 1),
    ],
)
def test_phase_gap_counts_the_cards_still_needed(phase: str, hand: str, gap: int) -> None:
    assert phase_gap(Phase.parse(phase), parse_cards(hand), NaturalMin.GROUP) == gap


def test_phase_gap_reads_the_natural_card_rule() -> None:
    phase, hand = Phase.parse("2 sets of 3"), parse_cards("R7 B7 G7 W W W")
    assert phase_gap(phase, hand, NaturalMin.GROUP) == 1
    assert phase_gap(phase, hand, NaturalMin.PHASE) == 0

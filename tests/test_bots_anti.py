"""The bots, the hints and the solver play the Anti-phase card (rules ``anti_phase``) sensibly:
thrown away at once, kept only to go out with soon, taken only to go out with it at once,
and named at the player it hurts most."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from helpers import arranged
from phase10.bots import play_game
from phase10.bots.anti import victim
from phase10.bots.hints import hint, plan_turn
from phase10.bots.registry import make_player, parse_bot_list
from phase10.bots.saving import keeper_value, save_pick
from phase10.bots.simple import Player, SimplePlayer
from phase10.cli.app import app
from phase10.core import (
    ANTI,
    ANTI_INDEX,
    Action,
    AntiPhase,
    Discard,
    Discarded,
    Draw,
    Event,
    Game,
    GroupKind,
    LayDown,
    MovedDown,
    Phase,
    Rules,
    Stage,
    TakeDiscard,
    parse_cards,
    parse_group,
    preset,
)
from phase10.sim.odds import phase_odds
from phase10.sim.tournament import run_tournament
from phase10.solver import BatchChecker, counts_matrix
from phase10.solver.tactics import best_hits, outs, unseen_counts

# phase 1 of the standard list is "2 sets of 3"
RULES = Rules(anti_phase=AntiPhase.ON)
BOTS = ("simple", "greedy", "strong:1", "strong")
SPARE = ("R2 R4 R6 R8 R10 R12 B2 B4 B6 B8", "G2 G4 G6 G8 G10 G12 Y4 Y6 Y8 Y10")


def bot(spec: str, seed: int = 0) -> Player:
    if spec == "simple":
        return SimplePlayer(random.Random(seed))
    return make_player(spec, random.Random(seed))


def finish_turn(game: Game, player: Player) -> tuple[list[Action], list[Event]]:
    """Let ``player`` play the current turn to its end: its actions and their events."""
    seat = game.current
    hand = game.hand_number
    actions: list[Action] = []
    events: list[Event] = []
    while not game.is_over and game.current == seat and game.hand_number == hand:
        action = player.choose(game.view(seat))
        actions.append(action)
        events += game.apply(action)
        if isinstance(action, Discard):
            break
    return actions, events


def going_out_game() -> Game:
    """Ann lays 2 sets of 3 with the Y7 she draws and is left with the Anti-phase card.
    Bob has no phase to lose; Cy and Dan have two each, Dan the lower score."""
    return arranged(
        ("R7 B7 G7 R3 B3 W A", *SPARE, "Y1 Y2 Y3 G1 G3 B1 B5 B9 B10 B12"),
        "Y5",
        "Y7",
        phases=[1, 1, 3, 3],
        scores=[0, 0, 80, 40],
        names=["Ann", "Bob", "Cy", "Dan"],
        rules=RULES,
    )


@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_throws_the_card_away_first(spec: str) -> None:
    """Not down, Ann discards the Anti-phase card before the Skip or anything else."""
    game = arranged(("R7 B7 R3 B3 Y9 G12 R1 G5 S A", *SPARE), "Y5", "Y2", rules=RULES)
    game.apply(Draw())
    assert bot(spec).choose(game.view(0)) == Discard(ANTI)


@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_goes_out_with_it_naming_the_leader(spec: str) -> None:
    game = going_out_game()
    actions, events = finish_turn(game, bot(spec))
    assert isinstance(actions[-2], LayDown)
    assert actions[-1] == Discard(ANTI, 3)
    assert MovedDown(3, 2, 0) in events
    assert game.seats[3].phase == 1  # Dan's phase 2 must be made again


def test_the_named_player_has_a_phase_to_lose() -> None:
    """Bob, on no phase, is named only when nobody else can be."""
    game = going_out_game()
    view = game.view(0)
    assert victim(view, (1, 2)) == 2  # Cy has more phases, if a higher score
    assert victim(view, (1,)) == 1


@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_takes_it_only_to_go_out_with_it(spec: str) -> None:
    names = ["Ann", "Bob", "Cy"]
    out = arranged(
        ("R7 B7 G7 Y7 R3 B3 G3 Y3 W W", *SPARE), "A", phases=[1, 3, 3], scores=[0, 50, 10],
        names=names, rules=RULES,
    )  # fmt: skip
    actions, events = finish_turn(out, bot(spec))
    assert actions[0] == TakeDiscard()
    assert actions[-1] == Discard(ANTI, 2)
    assert MovedDown(2, 2, 0) in events
    stuck = arranged(("R7 B7 G7 Y7 R3 B3 G3 Y9 G12 R1", *SPARE), "A", rules=RULES)
    assert bot(spec).choose(stuck.view(0)) == Draw()


def test_a_bot_told_to_ignore_the_card_does_not_take_it() -> None:
    game = arranged(("R7 B7 G7 Y7 R3 B3 G3 Y3 W W", *SPARE), "A", phases=[1, 3, 3], rules=RULES)
    assert make_player("strong:1+noanti", random.Random(0)).choose(game.view(0)) == Draw()
    assert parse_bot_list("Strong+NoAnti, greedy+noanti+nosave") == [
        "strong+noanti",
        "greedy+nosave+noanti",
    ]


@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_keeps_it_to_go_out_with_but_not_under_threat(spec: str) -> None:
    """Down with the Anti-phase card and Y9, Ann keeps the card to go out with; but
    not once Bob is down with two cards and may go out first."""
    game = arranged(("R7 B7 G7 R3 B3 W A", *SPARE), "Y5", "Y9", rules=RULES)
    actions, _ = finish_turn(game, bot(spec))
    assert isinstance(actions[-2], LayDown)
    assert actions[-1] == Discard(parse_cards("Y9")[0])
    threat = arranged(
        ("R7 B7 G7 R3 B3 W A", "R5 B5 G5 R9 B9 G9 Y1 G2"), "Y5", "Y12 Y11", dealer=0, rules=RULES
    )
    sets = (parse_group(GroupKind.SET, "R5 B5 G5"), parse_group(GroupKind.SET, "R9 B9 G9"))
    for action in (Draw(), LayDown(sets), Discard(parse_cards("Y12")[0])):
        threat.apply(action)
    actions, _ = finish_turn(threat, bot(spec))
    assert actions[-1] == Discard(ANTI)


def test_hints_explain_the_card() -> None:
    early = arranged(("R7 B7 R3 B3 Y9 G12 R1 G5 S A", *SPARE), "Y5", "Y2", rules=RULES)
    early.apply(Draw())
    last = hint(early.view(0)).steps[-1]
    assert last.action == Discard(ANTI)
    assert "moves you down a phase" in last.reason
    game = going_out_game()
    game.apply(Draw())
    last = hint(game.view(0)).steps[-1]
    assert last.action == Discard(ANTI, 3)
    assert last.text == "go out with the Anti-phase card: Dan moves down a phase"
    assert last.reason == "Dan has the most phases completed (2) and the lowest score of those (40)"
    take = arranged(("R7 B7 G7 Y7 R3 B3 G3 Y3 W W", *SPARE), "A", phases=[1, 3, 2], rules=RULES)
    (step,) = hint(take.view(0)).steps
    assert step.action == TakeDiscard()
    assert "go out with the Anti-phase card this turn" in step.reason
    deck = RULES.deck_counts
    keep = plan_turn(None, parse_cards("A Y9"), [parse_group(GroupKind.SET, "R7 B7 G7")], deck=deck)
    assert keep.steps[-1].action == Discard(parse_cards("Y9")[0])
    assert "the Anti-phase card stays" in keep.steps[-1].reason
    threatened = plan_turn(None, parse_cards("A Y9"), threatened=True, deck=deck)
    assert threatened.steps[-1].action == Discard(ANTI)


def test_the_card_is_never_saved() -> None:
    rules = preset("anti-phase")
    game = arranged(("R7 B7 R3 B3 Y9 G12 R1 G5 B11 A", *SPARE[:1]), "Y5", rules=rules)
    while game.stage is not Stage.PLAY:
        game.apply(bot("greedy").choose(game.view(game.current)))
    view = game.view(game.current)
    assert keeper_value(ANTI, parse_cards("R7"), [Phase.parse("2 sets of 3")]) == -1
    assert save_pick(view, view.hand, ANTI, None) is None


def test_the_solver_never_counts_the_card() -> None:
    run = parse_group(GroupKind.RUN, "R4 R5 R6")
    assert best_hits([run], parse_cards("A Y7")) == list(best_hits([run], parse_cards("Y7")))
    assert best_hits([run], [ANTI]) == []
    phase = Phase.parse("2 sets of 3")
    hand = parse_cards("R7 B7 G7 R3 B3 Y9 G12 R1 G5 B6")
    unseen = unseen_counts(hand, deck=RULES.deck_counts)
    assert unseen[ANTI_INDEX] == 1
    assert ANTI not in [card for card, _ in outs(phase, hand, unseen)]
    checker = BatchChecker(phase)
    assert checker(counts_matrix([parse_cards("R7 B7 A R3 B3 W")])).tolist() == [False]
    assert checker(counts_matrix([parse_cards("R7 B7 G7 A R3 B3 W")])).tolist() == [True]


def test_odds_deal_the_card_among_the_others() -> None:
    phases = [Phase.parse("2 sets of 3")]
    with_anti = phase_odds(phases, deals=2000, seed=3, deck="masters", anti_phase=True)
    without = phase_odds(phases, deals=2000, seed=3, deck="masters")
    assert with_anti.to_dict()["anti_phase"] is True
    assert with_anti.phases[0].hits != without.phases[0].hits
    # every card of a deal of 107 is dealt: the Anti-phase card too
    assert phase_odds(phases, deals=1, cards=107, deck="masters", anti_phase=True).deals == 1
    with pytest.raises(ValueError, match="from 1 to 106"):
        phase_odds(phases, deals=1, cards=107, deck="masters")


def test_every_bot_finishes_anti_phase_games() -> None:
    """Every bot plays only legal actions (play_game checks each) to the games' end."""
    rules = preset("anti-phase").with_options(phases=(1, 2))
    result = run_tournament("random,greedy,strong:1+noanti", games=3, rules=rules, seed=2, jobs=1)
    assert [entry.games for entry in result.entries] == [3, 3, 3]
    assert not any(game.forfeit for game in result.games)
    game = Game(3, rules=rules, seed=4)
    play_game(game, [bot("simple"), bot("greedy+noanti"), bot("strong")])
    assert game.is_over
    assert any(isinstance(event, Discarded) and event.card.is_anti for event in game.history)


def test_the_hint_command_knows_the_card() -> None:
    table = ["--table", "set: R7 B7 G7"]
    result = CliRunner().invoke(app, ["hint", "down", "A", "Y9", *table, "--anti-phase"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("discard Y9: the Anti-phase card stays, to go out with")
    refused = CliRunner().invoke(app, ["hint", "down", "A", "Y9", *table])
    assert refused.exit_code == 2
    assert "the Anti-phase card (A) is in the deck only with --anti-phase" in refused.output

"""Hints from a view and from a bare hand, and ``phase10 hint``."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from helpers import arranged
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.hints import Advice, hint, plan_turn
from phase10.bots.strong import StrongPlayer
from phase10.cli.app import app
from phase10.core import (
    Arrangement,
    Declare,
    Discard,
    Draw,
    Game,
    GroupKind,
    Hit,
    LayDown,
    Phase,
    Rules,
    Stage,
    TakeDiscard,
    parse_cards,
    parse_group,
    preset,
)
from phase10.solver import missing
from phase10.solver.tactics import completion_probability, view_unseen_counts

runner = CliRunner()


def test_plan_turn_lays_hits_and_discards_in_order() -> None:
    advice = plan_turn(
        Phase.parse("1 set of 3 + 1 run of 4"),
        parse_cards("R7 B7 G7 W G3 G4 G6 Y9 B11 S"),
        [parse_group(GroupKind.RUN, "R8 R9 R10")],
    )
    kinds = [type(step.action) for step in advice.steps]
    assert kinds == [LayDown, Hit, Discard]
    assert str(advice.steps[1].action) == "hit B11 g0"
    assert advice.steps[2].action == Discard(parse_cards("S")[0])
    assert advice.phase is None  # the phase goes down this turn


def test_plan_turn_far_from_the_phase_reports_outs_and_odds() -> None:
    phase = Phase.parse("2 sets of 3")
    advice = plan_turn(phase, parse_cards("R7 B7 G7 R3 B3 Y9 G12 R1 G5 B6 Y11"))
    assert [type(step.action) for step in advice.steps] == [Discard]
    assert advice.steps[0].action.card.number not in (7, 3)
    assert advice.missing == 1
    assert {str(card) for card, _ in advice.outs} == {"R3", "B3", "G3", "Y3", "W"}
    assert 0 < advice.odds[0] < advice.odds[1] < advice.odds[2] < 1
    data = advice.to_dict()
    assert data["missing"] == 1 and len(data["odds"]) == 3 and data["steps"][0]["reason"]
    # each step both ways: the engine's notation to send, and words to show
    assert [step["action"] for step in data["steps"]] == [str(s.action) for s in advice.steps]
    assert [step["text"] for step in data["steps"]] == [s.text for s in advice.steps]


def test_a_down_player_keeps_a_card_to_discard() -> None:
    advice = plan_turn(None, parse_cards("R8"), [parse_group(GroupKind.RUN, "R5 R6 R7")])
    assert [str(step.action) for step in advice.steps] == ["discard R8"]


def test_hint_for_every_stage_is_a_legal_first_step() -> None:
    """Across seeded games under several rule sets, the first step of every hint is legal:
    150 decisions under each, every stage those rules have among them."""
    expected = {
        "official": {"draw", "play"},
        "masters": {"declare", "draw", "play"},
        "wild-deal-up": {"give_wild", "wild_discard", "draw", "play"},
        "floating": {"draw", "play"},
    }
    for (rules, stages_wanted), seed in zip(expected.items(), range(1, 5), strict=True):
        game = Game(3, rules=preset(rules), seed=seed)
        players = [GreedyPlayer(random.Random(seat)) for seat in range(3)]
        stages = set()
        for _ in range(150):
            view = game.view(game.current)
            advice = hint(view)
            assert advice.steps and view.is_legal(advice.steps[0].action), str(advice)
            assert all(step.reason for step in advice.steps)
            stages.add(str(view.stage))
            game.apply(players[game.current].choose(view))
        assert stages == stages_wanted, rules


def test_a_floating_player_is_told_to_hit_its_last_card() -> None:
    """Floating (the hand emptied by hits), a drawn card that fits must be hit, not kept
    back to discard as a player who is not floating would."""
    rules = Rules.from_dict({"phase_list": ["1 set of 3"], "going_out": "discard"})
    deal = Arrangement(
        hands=(
            parse_cards("R7 R7 B7 B7 G7 G7 Y7 W W W"),
            parse_cards("G1 G2 G3 G4 B9 B9 R11 R12 Y5 Y6"),
        ),
        discard=parse_cards("G8"),
        draw=parse_cards("W G10 Y7"),
    )
    game = Game(["Ann", "Bob"], rules=rules, seed=1, dealer=1, arrangement=deal)
    game.apply("draw")
    game.apply(next(a for a in game.legal_actions if isinstance(a, LayDown) and len(a.cards) == 11))
    game.apply("draw")
    game.apply("discard G10")
    game.apply("draw")  # Ann floats, and draws Y7, which fits her set
    view = game.view(0)
    assert view.seats[0].floating and [str(card) for card in view.hand] == ["Y7"]
    advice = hint(view)
    assert [str(step.action) for step in advice.steps] == ["hit Y7 g0"]
    assert view.is_legal(advice.steps[0].action)


def test_hint_explains_taking_a_useful_discard() -> None:
    game = arranged(["R7 B7 G3 Y9 R11 B12 G1 Y5 R2 B10", "R1 R1 R3 R4 R5 R6 B8 B9 G12 G10"], "G7")
    advice = hint(game.view(0))
    assert advice.steps[0].action == TakeDiscard()
    assert "G7 brings 2 sets of 3 from" in advice.steps[0].reason
    useless = arranged(
        ["R7 B7 G3 Y9 R11 B12 G1 Y5 R2 B10", "R1 R1 R3 R4 R5 R6 B8 B9 G12 G10"], "Y4"
    )
    assert hint(useless.view(0)).steps[0].action == Draw()


def test_hint_after_taking_a_discard_measures_the_hand_left_after_discarding() -> None:
    game = arranged(["R7 B7 G3 Y9 R11 B12 G1 Y5 R2 B10", "R1 R1 R3 R4 R5 R6 B8 B9 G12 G10"], "G7")
    view = game.view(0)
    advice = hint(view)
    assert advice.steps[0].action == TakeDiscard()
    phase, unseen = Phase.parse("2 sets of 3"), view_unseen_counts(view)
    taken = parse_cards("R7 B7 G7 G3 Y9 R11 B12 G1 Y5 R2 B10")
    # Ten cards are kept for the next draw, not eleven: any loose card may go, but the
    # odds are those of a ten-card hand, lower than keeping all eleven.
    kept = parse_cards("R7 B7 G7 G3 Y9 R11 G1 Y5 R2 B10")
    assert advice.missing == 2
    assert advice.odds == tuple(
        pytest.approx(completion_probability(phase, kept, unseen, n)) for n in (1, 2, 3)
    )
    assert advice.odds[1] < completion_probability(phase, taken, unseen, 2)
    # counted exactly over every pair of draws from the 97 unseen cards
    assert advice.odds[1] == pytest.approx(0.1218, abs=1e-4)


def test_hint_aims_a_skip_at_the_leader() -> None:
    game = arranged(
        [
            "S R7 B7 G3 Y3 R11 B12 G1 Y5 R2",
            "R1 R2 R3 R4 R5 R6 B8 B9 G12 G10",
            "Y1 Y2 Y3 Y4 Y6 Y7 Y8 Y9 Y10 Y11",
        ],
        "B4",
        phases=[1, 1, 5],
    )
    game.apply(Draw())
    step = hint(game.view(0)).steps[-1]
    assert step.action == Discard(parse_cards("S")[0], 2)
    assert "closest to winning" in step.reason
    # in words, the player by name: never the engine's "discard S>p2"
    name = game.view(0).seats[2].name
    assert str(step).startswith(f"discard the Skip on {name}: {name} is the closest to winning")
    assert "(s)" not in str(hint(game.view(0)))


def test_a_skip_hint_says_why_its_player_leads_or_that_nobody_does() -> None:
    hands = [
        "S R7 B7 G3 Y3 R11 B12 G1 Y5 R2",
        "R1 R2 R3 R4 R5 R6 B8 B9 G12 G10",
        "Y1 Y2 Y3 Y4 Y6 Y7 Y8 Y9 Y10 Y11",
    ]
    level = arranged(hands, "B4")
    level.apply(Draw())
    step = hint(level.view(0)).steps[-1]
    assert isinstance(step.action, Discard) and step.action.card.is_skip
    name = level.view(0).seats[step.action.target or 0].name
    # (everyone on phase 1 with ten cards and no points: "the closest to winning" would mislead)
    assert (
        step.reason == f"everyone is level, so any of them will do ({name} misses their next turn)"
    )
    ahead = arranged(hands, "B4", phases=[1, 3, 1])
    ahead.apply(Draw())
    step = hint(ahead.view(0)).steps[-1]
    assert step.action == Discard(parse_cards("S")[0], 1)
    leader = ahead.view(0).seats[1].name
    assert step.reason == f"{leader} is the closest to winning (2 phases done)"


def test_hint_heads_up_skips_the_only_opponent_and_says_what_a_skip_on_top_means() -> None:
    game = arranged(
        ["R3 B3 G3 Y3 R5 B5 G5 Y8 W S", "R1 R2 R4 R6 B8 B9 G12 G10 Y1 Y2"], "G11", "R12 Y9"
    )
    game.apply(Draw())
    advice = hint(game.view(0))
    # with one opponent, nobody to choose between: no "closest to winning"
    assert str(advice.steps[-1]) == "discard the Skip on Player 1: Player 1 misses their next turn"
    for step in advice.steps:
        game.apply(step.action)
    assert game.current == 0  # (Player 1 skipped)
    # the Skip on the discard pile cannot be taken, as the engine's legal actions say
    assert (
        str(hint(game.view(0)))
        == "draw from the pile: the Skip cannot be taken from the discard pile"
    )


def test_hint_says_when_the_last_card_goes_out() -> None:
    game = arranged(
        ["R3 B3 G3 Y3 R5 B5 G5 Y5 W W", "R1 R2 R4 R6 B8 B9 G12 G10 Y1 Y2"], "G11", "R12"
    )
    game.apply(Draw())
    steps = hint(game.view(0)).steps
    assert isinstance(steps[0].action, LayDown) and len(steps) == 2
    assert (
        str(steps[1])
        == "discard R12: it is your last card, and discarding it goes out and ends the hand"
    )


def test_hint_declares_the_closest_phase() -> None:
    game = Game(3, rules=preset("masters"), seed=5)
    view = game.view(game.current)
    assert view.stage is Stage.DECLARE
    step = hint(view).steps[0]
    assert isinstance(step.action, Declare) and view.is_legal(step.action)
    assert step.text == f"declare phase {step.action.phase}"
    assert "card(s)" not in step.reason and " away)" in step.reason


def test_hint_refuses_when_it_is_not_your_turn() -> None:
    game = Game(3, seed=1)
    other = (game.current + 1) % 3
    with pytest.raises(ValueError, match="whose turn it is"):
        hint(game.view(other))


def test_cli_hint() -> None:
    result = runner.invoke(
        app,
        [
            "hint",
            "2",
            "R7",
            "B7",
            "G7",
            "W",
            "G3",
            "G4",
            "G6",
            "Y9",
            "B11",
            "S",
            "--table",
            "run: R8 R9 R10",
        ],
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("lay down R7 B7 G7 + G3 G4 W G6")
    assert lines[1].startswith("hit B11 on the run 8-10")
    assert lines[2].startswith("discard the Skip:")


def test_cli_hint_json_and_errors() -> None:
    result = runner.invoke(app, ["hint", "1", "R7 B7 R3 B3 Y9 G12 R1 G5 B6 Y11 G2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["phase"] == "2 sets of 3" and data["missing"] == 2 and data["steps"]
    bad = runner.invoke(app, ["hint", "1", "R7", "--table", "R3 B8"])
    assert bad.exit_code == 2 and "is not a group of any kind" in bad.output
    worse = runner.invoke(app, ["hint", "1", "R7", "--table", "flush: R3 R4 R5"])
    assert worse.exit_code == 2 and "'flush' is not a kind of group" in worse.output
    too_many = runner.invoke(app, ["hint", "1", "R7 R7", "--table", "set: R7 B7 W"])
    assert too_many.exit_code == 2 and "the deck holds only 2 R7" in too_many.output
    down = runner.invoke(app, ["hint", "down", "R8 Y2", "--table", "run: R5 R6 R7"])
    assert (
        down.exit_code == 0
        and down.output.splitlines()[0] == "hit R8 on the run 5-7: sheds 5 points onto R5 R6 R7"
    )


def test_plan_turn_measures_the_hand_left_after_the_discard() -> None:
    phase = Phase.parse("2 sets of 3")
    advice = plan_turn(phase, parse_cards("R7 B7 G7 R3 B3 R5 B5 R9 B9 R11 B11"))
    assert str(advice.steps[-1].action) == "discard R11"
    outs = {str(card): n for card, n in advice.outs}
    assert "R11" not in outs and "B11" not in outs
    assert outs["R3"] == 1 and outs["W"] == 8
    # 1 R3 + 1 B3 + 2 G3 + 2 Y3, the same for 5 and 9, and 8 Wilds among 97 unseen cards
    assert advice.odds[0] == pytest.approx(26 / 97)
    far = plan_turn(Phase.parse("1 set of 11"), parse_cards("R7 R7"))
    assert str(far.steps[-1].action) == "discard R7"
    assert "1 card further" in far.steps[-1].reason
    assert far.missing == 10
    wilds = plan_turn(Phase.parse("2 sets of 3"), parse_cards("W W"))
    assert str(wilds.steps[-1].action) == "discard W"
    assert wilds.steps[-1].reason == "every card in hand is a Wild, and one must go (25 points)"


def test_cli_hint_counts_the_discarded_card_as_seen() -> None:
    result = runner.invoke(app, ["hint", "1", "R7 B7 G7 R3 B3 R5 B5 R9 B9 R11 B11"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("discard R11")
    assert "R11" not in lines[2] and "B11" not in lines[2]
    assert lines[3].startswith("chance to hold it by drawing alone: 27% within 1 draw")
    far = runner.invoke(app, ["hint", "1 set of 11", "R7", "R7"])
    assert far.output.splitlines()[1] == "1 set of 11 after this turn: 10 cards away"


def test_the_distance_line_says_when_it_is_counted_after_the_turn() -> None:
    """A hint that takes the discard counts the phase with that card (and the turn's
    discard): the line says so, so that it does not read as a contradiction of the hand's
    own distance. A hint to draw counts the hand held now, and says nothing more."""
    take = hint(Game(2, seed=0).view(0))
    assert isinstance(take.steps[0].action, TakeDiscard) and take.after_steps
    assert str(take).splitlines()[1] == "2 sets of 3: ready to lay down after this move"
    assert take.to_dict()["after_steps"] is True
    game = Game(3, seed=4)
    draw = hint(game.view(game.current))
    assert isinstance(draw.steps[0].action, Draw) and not draw.after_steps
    assert str(draw).splitlines()[1] == "2 sets of 3: 1 card away"
    assert draw.phase is not None
    assert missing(draw.phase, list(game.view(game.current).hand)) == 1
    # ready once the turn's discard is made (a hint that keeps the phase in hand): next turn
    waiting = replace(take, steps=(Advice(Discard(parse_cards("R7")[0]), "kept", "discard R7"),))
    assert str(waiting).splitlines()[1] == "2 sets of 3: ready to lay down next turn"


def test_a_down_player_keeps_back_a_card_that_fits_to_go_out() -> None:
    run = [parse_group(GroupKind.RUN, "R1 R2 R3 R4")]
    alone = plan_turn(None, parse_cards("R5"), run)
    assert [str(step.action) for step in alone.steps] == ["discard R5"]
    assert "cannot be hit" not in alone.steps[0].reason
    assert alone.steps[0].reason.startswith("it could be hit onto R1 R2 R3 R4, but it is kept back")
    for cards in ("R5 W", "R6 R5"):
        advice = plan_turn(None, parse_cards(cards), run)
        assert [type(step.action) for step in advice.steps] == [Hit, Discard], cards
        assert advice.steps[1].reason.startswith("it could be hit onto R1 R2 R3 R4 R5, but"), cards
    stuck = plan_turn(None, parse_cards("R6 Y9"), run)
    assert [str(step.action) for step in stuck.steps] == ["discard R6"]
    assert stuck.steps[0].reason.startswith("it cannot be hit anywhere")
    wild = plan_turn(None, parse_cards("R7 B7 W"), [])
    assert str(wild.steps[0].action) == "discard R7"
    assert wild.steps[0].reason == (
        "it cannot be hit anywhere, and it is as costly to keep as any (5 points) but for the "
        "Wild, kept since a Wild fits almost any group"
    )


def test_cli_hint_down_gives_a_true_discard_reason() -> None:
    result = runner.invoke(app, ["hint", "down", "R5", "W", "--table", "run: R1 R2 R3 R4"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "hit R5 on the run 1-4: sheds 5 points onto R1 R2 R3 R4",
        "discard the Wild: it could be hit onto R1 R2 R3 R4 R5, but it is kept back to discard: "
        "discarding the last card goes out",
    ]


def test_cli_hint_refuses_more_than_a_hand() -> None:
    result = runner.invoke(app, ["hint", "1", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12"])
    assert result.exit_code == 2
    assert "a hand holds at most 11 cards (ten dealt and one drawn), not 12" in result.output
    assert runner.invoke(app, ["hint", "1", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11"]).exit_code == 0


@pytest.mark.parametrize("number", ["-1", "0", "11"])
def test_cli_hint_names_the_phase_numbers(number: str) -> None:
    result = runner.invoke(app, ["hint", "--", number, "R7"])
    assert result.exit_code == 2
    assert f"phase numbers run from 1 to 10 (the standard list), not {number}" in result.output


def test_cli_hint_explains_negative_numbers_and_refuses_unknown_options() -> None:
    negative = runner.invoke(app, ["hint", "-1", "R7"])  # no "--" needed
    assert negative.exit_code == 2
    assert "phase numbers run from 1 to 10 (the standard list), not -1" in negative.output
    card = runner.invoke(app, ["hint", "1", "R7", "-3"])
    assert card.exit_code == 2 and "'-3' is not a card" in card.output
    phrase = runner.invoke(app, ["hint", "-2 sets of 3", "R7"])
    assert phrase.exit_code == 2 and "no such option" not in phrase.output
    for typo in (["--tabel", "run: R3 R4 R5"], ["-x"], ["--jsn"]):
        result = runner.invoke(app, ["hint", "1", "R7", *typo])
        assert result.exit_code == 2, typo
        assert f"no such option: {typo[0]} (see phase10 hint --help)" in result.output, typo
    fine = runner.invoke(app, ["hint", "1", "R7 B7 R3 B3 Y9 G12 R1 G5 B6 Y11 G2", "--json"])
    assert fine.exit_code == 0 and json.loads(fine.output)["missing"] == 2


def test_cli_hint_refuses_an_all_wild_table_group_unless_the_rules_allow_one() -> None:
    args = ["hint", "down", "R3", "B9", "--table", "set: W=3 W=3 W=3"]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2
    assert "W=3 W=3 W=3 is all Wilds" in refused.output and "--natural-min phase" in refused.output
    allowed = runner.invoke(app, [*args, "--natural-min", "phase"])
    assert allowed.exit_code == 0 and allowed.output.startswith("hit R3 on the set of 3s")


def test_cli_hint_never_rounds_a_real_chance_to_nothing() -> None:
    """Three draws can make phase 10 here only with Wilds, most of them gone: well under 1%,
    but not 0%."""
    result = runner.invoke(
        app,
        ["hint", "10", "R1 B1 G1 R2 B2 R12 B12 G9 Y7 Y5 S", "--discards", "W W W W W W W W"],
    )
    assert result.exit_code == 0, result.output
    assert "<1% within 3 draws" in result.output
    data = json.loads(
        runner.invoke(
            app,
            ["hint", "10", "R1 B1 G1 R2 B2 R12 B12 G9 Y7 Y5 S", "--discards", "W W W W W W W W",
             "--json"],
        ).output
    )  # fmt: skip
    assert 0 < data["odds"][2]["probability"] < 0.005


def test_a_replanned_hint_measures_the_phase_on_the_hand_its_own_steps_leave() -> None:
    """A searched hint may discard another card than the plan (or draw where it took):
    how far the phase is, its outs and odds are measured again, as the plan's are."""
    from dataclasses import replace

    from phase10.bots.hints import Advice, replanned
    from phase10.solver import missing

    game = Game(2, seed=21)
    bots = [GreedyPlayer(random.Random(21 + seat)) for seat in range(2)]
    while True:
        view = game.view(game.current)
        plain = hint(view) if view.stage is Stage.PLAY else None
        if plain and len(plain.steps) == 1 and isinstance(plain.steps[0].action, Discard):
            break
        game.apply(bots[game.current].choose(view))
    assert replanned(view, plain, plain.steps) == plain  # (its own steps: as it was)
    own = plain.steps[0].action
    assert isinstance(own, Discard) and plain.phase is not None
    # the plan's own discard, measured the replanning way: the same as the plan measured it
    again = replanned(view, replace(plain, steps=()), plain.steps)
    assert again == plain
    changed = 0
    for card in {card for card in view.hand if card != own.card}:
        other = replanned(view, plain, [Advice(Discard(card), "the search's", str(card))])
        rest = list(view.hand)
        rest.remove(card)
        assert other.phase == plain.phase
        assert other.missing == missing(plain.phase, rest, view.rules.natural_min)
        changed += (other.missing, other.odds) != (plain.missing, plain.odds)
    assert changed  # (some other discard leaves the phase further, or its odds other)


def _bob_down_before_ann(ann: str) -> Game:
    """Bob plays first and lays down, Cy (more phases done) does not; then Ann, holding
    ``ann``, draws."""
    game = arranged(
        [ann, "R1 B1 G1 R4 B4 Y4 B8 B9 G12 G10", "Y1 Y2 Y3 Y4 Y6 Y7 Y8 Y9 Y10 Y11"],
        "B5",
        "G6 R6 B6",
        phases=[1, 1, 3],
        dealer=0,
        names=["Ann", "Bob", "Cy"],
    )
    for action in ["draw", "lay R1 B1 G1 + R4 B4 Y4", "discard G12", "draw", "discard Y11"]:
        game.apply(action)
    game.apply(Draw())
    return game


def test_a_skip_hint_aims_at_whoever_could_end_the_hand_first() -> None:
    game = _bob_down_before_ann("S R7 B7 G3 Y3 R11 B12 G1 Y5 R2")
    step = hint(game.view(0)).steps[-1]
    assert step.action == Discard(parse_cards("S")[0], 1)
    assert step.reason == "Bob is down with 4 cards and could go out before you lay down"
    # the strong bot aims its Skips the same way
    assert StrongPlayer(random.Random(0)).choose(game.view(0)) == step.action
    # once you are down, the Skip goes to whoever could still make their phase
    game = _bob_down_before_ann("S R7 B7 G7 R3 B3 G3 G1 Y5 R2")
    told = "Cy is not down yet and could still make their phase this hand"
    # the plan lays the phase first: the Skip is aimed as it will be, once down
    planned = hint(game.view(0)).steps
    assert isinstance(planned[0].action, LayDown)
    assert planned[-1].action == Discard(parse_cards("S")[0], 2) and planned[-1].reason == told
    game.apply("lay R3 B3 G3 + R7 B7 G7")
    step = hint(game.view(0)).steps[-1]
    assert step.action == Discard(parse_cards("S")[0], 2)
    assert step.reason == told


def test_a_discard_is_the_costliest_only_when_no_other_card_costs_as_much() -> None:
    def reason(cards: str) -> str:
        advice = plan_turn(Phase.parse("2 sets of 3"), parse_cards(cards))
        return advice.steps[-1].reason

    assert reason("R7 B7 G7 R3 B3 W Y11 R4") == (
        "it cannot be hit anywhere, and it is the costliest to keep (10 points)"
    )
    assert reason("R7 B7 G7 R3 B3 W Y9 R4") == (
        "it cannot be hit anywhere, and it is as costly to keep as any (5 points)"
    )


def test_wrong_kinds_of_input_are_named_plainly() -> None:
    from phase10.core import Game, Phase, parse_cards
    from phase10.solver.tactics import best_lay_down, completion_probability

    with pytest.raises(TypeError, match=r"a hint is for a player's view \(game.view\(seat\)\)"):
        hint(Game(2, seed=1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"such as parse_cards\('R7 R7 R7'\), not a string"):
        best_lay_down(Phase.parse("1 set of 3"), "R7 R7 R7")
    with pytest.raises(ValueError, match=r"unseen is 51 counts, one per card index .* not None"):
        completion_probability(Phase.parse("1 set of 3"), parse_cards("R7 R7"), None)  # type: ignore[arg-type]


def test_outs_leave_out_cards_another_player_is_known_to_hold() -> None:
    """Ann took the turned-up Wild: it is in her hand, not to be drawn, so the hint counts
    one Wild fewer among the outs (and the odds)."""
    from phase10.core import WILD
    from phase10.solver.tactics import view_unseen_counts

    game = arranged(
        ["R1 R2 R3 B5 B6 B7 G9 Y10 Y11 Y12", "B1 B1 B3 G4 G5 G6 R8 R9 Y1 Y2"],
        "W",
        "R4 R5 R6 R7",
        names=["Ann", "Bob"],
    )
    game.apply("take")
    game.apply("discard Y12")
    game.apply("draw")
    view = game.view(1)
    outs = dict(hint(view).outs)
    assert outs[WILD] == view_unseen_counts(view)[WILD.index] - 1

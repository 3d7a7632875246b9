"""The ``legal`` block and ``progress`` of each state message: the engine's legal actions,
grouped and labelled, every player named by name, bounded work (docs/server-protocol.md)."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest

from helpers import arranged
from phase10.bots import make_player
from phase10.core import (
    PHASE_LISTS,
    PRESETS,
    Action,
    AntiPhase,
    DeclareWhen,
    Draw,
    Game,
    LayDown,
    NaturalMin,
    PhaseOrder,
    PlayerView,
    Rules,
    Stage,
    parse_action,
    parse_cards,
)
from phase10.server.legal import LAY_SCAN, LAY_WAYS, legal_block, progress_block

NAMES = ["Ann", "Bob", "Cy", "Dee"]
#: every preset, and house phase lists with one numbered card per phase (all-Wild groups)
RULES = {name: rules for name, rules in PRESETS.items()} | {
    f"{name}+natural-per-phase": Rules(phase_list=PHASE_LISTS[name], natural_min=NaturalMin.PHASE)
    for name in ("edition-1", "edition-3", "edition-8", "edition-10")
}

#: the block's flat lists of choices
CHOICE_LISTS = (
    "draw",
    "declare",
    "give",
    "discards",
    "skips",
    "anti",
    "saves",
    "take_saved",
    "give_up",
)


def block_actions(block: dict[str, Any]) -> list[str]:
    """Every action the block offers, lay-downs included (repeats kept, to be counted)."""
    texts = [entry["action"] for key in CHOICE_LISTS for entry in block[key]]
    texts += [hit["action"] for group in block["hits"] for hit in group["hits"]]
    texts += [way["action"] for way in block["lay"]["ways"]]
    return texts


def labels(block: dict[str, Any]) -> list[str]:
    found = [block["prompt"]]
    for key in CHOICE_LISTS:
        found += [entry["label"] for entry in block[key]]
    for group in block["hits"]:
        found += [group["title"], *(hit["label"] for hit in group["hits"])]
    found += [way["label"] for way in block["lay"]["ways"]]
    return found


def read(view: PlayerView, text: str, phase: int | None = None) -> Action:
    """An offered action read back (a lay-down against the phase it lays)."""
    if phase is None and text.startswith("lay "):
        [index] = view.allowed_phases(view.current)
        phase = index + 1
    return parse_action(text, None if phase is None else view.phase_of(phase - 1))


def check_block(view: PlayerView) -> bool:
    """The block equals the engine's legal actions for the viewer; True when its lay-downs
    are complete (otherwise each listed one is legal and the rest match)."""
    block = legal_block(view)
    assert block is not None
    offered = block_actions(block)
    assert len(offered) == len(set(offered)), "an action is offered twice"
    for text in labels(block):
        assert not re.search(r"\bp\d\b|\bseat\b|\bg\d+\b", text), text
    if not view.is_my_turn:
        assert offered == [] and block["turn"] is False
        return True
    assert block["turn"] is True
    lay = block["lay"]
    if lay["complete"]:
        expected = {str(action) for action in view.legal_actions}
        assert set(offered) == expected
        assert lay["total"] == sum(1 for text in expected if text.startswith("lay "))
    else:
        assert 0 < len(lay["ways"]) <= LAY_WAYS < lay["total"] or not lay["counted"]
        others = [text for text in offered if not text.startswith("lay ")]
        assert all(view.is_legal(read(view, text)) for text in others)
        skipped = (str(a) for a in view.legal_actions if not isinstance(a, LayDown))
        assert set(others) == set(skipped)
    for way in lay["ways"]:
        cards = sorted(parse_cards(" ".join(way["cards"])), key=lambda c: c.sort_key)
        action = read(view, way["action"], way["phase"])
        assert isinstance(action, LayDown)
        assert cards == sorted(action.cards, key=lambda c: c.sort_key)
    for group in block["hits"]:
        owner = view.seats[group["owner"]].name
        assert group["title"].startswith("Your" if group["owner"] == view.viewer else owner)
        for hit in group["hits"]:
            assert hit["end"] in ({"low", "high"} if "run" in group["title"] else {None})
    for skip in block["skips"]:
        assert skip["label"] == f"Skip {view.seats[skip['seat']].name}"
    for anti in block["anti"]:
        name = view.seats[anti["seat"]].name
        assert anti["label"] == f"Go out with A: {name} moves down a phase"
    return bool(lay["complete"])


def play_positions(rules: Rules, seed: int, players: int, actions: int) -> int:
    """Random play from a seeded deal, checking every seat's block at every position."""
    game = Game(NAMES[:players], rules=rules, seed=seed)
    rng = random.Random(seed)
    bots = {seat: make_player("greedy" if seat % 2 else "random", rng) for seat in range(players)}
    checked = 0
    for _ in range(actions):
        for seat in range(players):
            check_block(game.view(seat))
        checked += 1
        if game.is_over:
            break
        view = game.view(game.current)
        progress = progress_block(view)
        assert progress is not None and progress["label"].startswith(
            "Phase" if progress["phase"] else "every"
        )
        game.apply(bots[game.current].choose(view))
    return checked


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_block_is_the_engines_legal_actions_on_every_preset(name: str) -> None:
    rules = RULES[name]
    checked = sum(play_positions(rules, seed, 2 + seed % 3, 160) for seed in range(3))
    assert checked > 150


def test_spectators_get_no_block_and_labels_name_players() -> None:
    game = Game(["Ann", "Bob", "Cy"], rules=PRESETS["wild-deal-up"], seed=11)
    assert legal_block(game.view(None)) is None and progress_block(game.view(None)) is None
    # a Skip for each player who may be skipped, each named
    skip = arranged(
        [
            "S R1 R2 R3 R4 B9 B10 G11 Y12 R12",
            "R5 R6 R7 R8 R9 B1 B2 B3 B4 B5",
            "G1 G2 G3 G4 G5 G6 G7 G8 G9 G10",
        ],
        "Y3",
        "G2",
        names=["Ann", "Bob", "Cy"],
    )
    skip.apply("draw")
    block = legal_block(skip.view(0))
    assert block is not None
    assert [(s["action"], s["label"]) for s in block["skips"]] == [
        ("discard S>p1", "Skip Bob"),
        ("discard S>p2", "Skip Cy"),
    ]
    # no phase to lay down in that hand, so the prompt does not offer one
    assert block["prompt"] == "Discard a card to end your turn"
    other = legal_block(skip.view(1))
    assert (
        other is not None
        and other["turn"] is False
        and other["prompt"] == "Waiting for Ann to play"
    )


def test_prompt_offers_a_lay_down_only_when_one_can_be_made() -> None:
    def prompt(hand: str) -> str:
        game = arranged([hand, "R5 R6 R7 R8 R9 B1 B2 B3 B4 B5"], "Y3", "G2", names=["Ann", "Bob"])
        game.apply("draw")
        block = legal_block(game.view(0))
        assert block is not None
        return str(block["prompt"])

    assert prompt("R1 B1 G1 R4 B4 Y4 B9 B10 G11 Y12") == (
        "Lay down your phase, or discard a card to end your turn"
    )
    assert prompt("R1 B1 G3 R4 B5 Y6 B9 B10 G11 Y12") == "Discard a card to end your turn"


def test_prompt_offers_hits_only_when_a_card_fits() -> None:
    def prompt(hand: str) -> str:
        game = arranged([hand, "R5 R6 R7 R8 R9 B2 B3 B5 B6 B8"], "Y3", "G2", names=["Ann", "Bob"])
        game.apply("draw")
        game.apply("lay R1 B1 G1 + R4 B4 Y4")
        block = legal_block(game.view(0))
        assert block is not None
        return str(block["prompt"])

    assert prompt("R1 B1 G1 R4 B4 Y4 Y1 B10 G11 Y12") == (
        "Hit cards onto the groups on the table, or discard a card to end your turn"
    )
    assert prompt("R1 B1 G1 R4 B4 Y4 B9 B10 G11 Y12") == "Discard a card to end your turn"


def test_hits_are_grouped_by_group_with_run_ends() -> None:
    game = arranged(
        ["R7 B7 G7 R2 B2 G2 Y9 W R11 Y5", "R1 B1 G1 R4 R5 R6 R7 B12 G12 Y7"],
        "Y3",
        "G8 B3",
        names=["Ann", "Bob"],
        rules=PRESETS["official"],
        phases=[1, 2],
    )
    game.apply("draw")
    game.apply("lay R2 B2 G2 + R7 B7 G7")
    game.apply("discard Y9")
    game.apply("draw")
    game.apply("lay R1 B1 G1 + R4 R5 R6 R7")
    block = legal_block(game.view(1))
    assert block is not None and block["lay"]["ways"] == []
    by_group = {group["title"]: group for group in block["hits"]}
    assert set(by_group) >= {"Your run 4-7", "Ann's set of 7s"}
    ends = {(h["card"], h["end"]) for h in by_group["Your run 4-7"]["hits"]}
    assert ends == {("B3", "low")}
    [seven] = by_group["Ann's set of 7s"]["hits"]
    assert seven == {
        "action": "hit Y7 g1",
        "label": "Hit Y7 on Ann's set of 7s",
        "card": "Y7",
        "end": None,
    }
    progress = progress_block(game.view(1))
    assert progress == {
        "phase": 2,
        "text": "1 set of 3 + 1 run of 4",
        "laid": True,
        "away": None,
        "label": "Phase 2: 1 set of 3 + 1 run of 4 — laid down",
    }


def test_progress_counts_the_cards_away() -> None:
    game = arranged(
        ["R7 B7 G7 R2 B2 Y9 Y10 R11 Y5 G1", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10"],
        "Y3",
        "G8",
        names=["Ann", "Bob"],
    )
    progress = progress_block(game.view(0))
    assert progress is not None
    assert (progress["phase"], progress["away"]) == (1, 1)
    assert progress["label"] == "Phase 1: 2 sets of 3 — 1 card away"


ANY_ORDER = Rules(phase_order=PhaseOrder.ANY, declare=DeclareWhen.LAYDOWN)


@pytest.mark.parametrize(
    ("rules", "hand"),
    [
        (ANY_ORDER, "W W W R4 R4 B4 B4 G4 G4 Y4 Y4"),
        (
            Rules(
                phase_list=PHASE_LISTS["edition-1"],
                phase_order=PhaseOrder.ANY,
                declare=DeclareWhen.LAYDOWN,
                natural_min=NaturalMin.PHASE,
            ),
            "W W W W W W G2 G12 B6 R9 G4",
        ),
    ],
)
def test_many_ways_are_cut_to_the_best_and_stay_cheap(rules: Rules, hand: str) -> None:
    game = Game(["Ann", "Bob"], rules=rules, seed=1)
    game.apply("draw")
    view = dataclasses.replace(game.view(game.current), hand=parse_cards(hand))
    assert view.stage is Stage.PLAY
    block = legal_block(view)
    assert block is not None
    lay = block["lay"]
    assert lay["complete"] is False and 0 < len(lay["ways"]) <= LAY_WAYS
    cards = [tuple(sorted(way["cards"])) for way in lay["ways"]]
    assert len(set(zip(cards, (w["phase"] for w in lay["ways"]), strict=True))) == len(cards)
    sizes = [len(way["cards"]) for way in lay["ways"]]
    assert sizes == sorted(sizes, reverse=True)
    for way in lay["ways"]:
        assert view.is_legal(read(view, way["action"], way["phase"]))
    # bounded by counts, not time (benchmarks time it): the scan stopped early
    assert lay["counted"] is False and lay["total"] <= LAY_SCAN


def test_saves_taking_saved_cards_and_giving_up_are_offered_with_labels() -> None:
    """Masters Variant #2: after laying down, Ann may give up her phase; she may save a
    card instead of discarding (once a hand) and take it back instead of drawing."""
    game = arranged(
        ["R1 G1 Y1 B2 G2 Y2 G5 G6 Y9 Y11", "R5 R6 R7 R8 R9 B1 R2 B3 B4 B5"],
        "Y3",
        "G3 G4 G7 G8 G9 G10 G11",
        rules=PRESETS["masters-variant-2"],
        names=["Ann", "Bob"],
    )

    def block(seat: int = 0) -> dict[str, Any]:
        check_block(game.view(seat))  # every list is the engine's legal actions
        found = legal_block(game.view(seat))
        assert found is not None
        return found

    assert (block()["saves"], block()["take_saved"], block()["give_up"]) == ([], [], [])
    game.apply("draw")
    assert [s["action"] for s in block()["saves"]][:2] == ["save R1", "save G1"]
    assert block()["give_up"] == []  # nothing laid yet
    game.apply("lay 1: R1 G1 Y1 + B2 G2 Y2")
    now = block()
    assert now["give_up"] == [{"action": "give-up", "label": "Give up your phase"}]
    assert {"action": "save G5", "label": "Save G5", "card": "G5"} in now["saves"]
    game.apply("give-up")
    assert block()["give_up"] == [] and block()["lay"]["ways"] == []
    game.apply("save G5")
    assert block(1)["saves"] == [] and block(1)["draw"]  # Bob may not save before drawing
    game.apply("draw")
    game.apply("discard B5")
    assert block()["take_saved"] == [
        {"action": "take-saved G5", "label": "Take G5 from your save pile", "card": "G5"}
    ]
    game.apply("take-saved G5")
    # one save a hand: G5 may not go back on the pile this hand
    assert game.view(0).saved == () and block()["saves"] == []


def test_the_anti_phase_card_names_a_player_only_as_the_last_card() -> None:
    """Discarded early the A is a plain discard; as Ann's last card it goes out and names
    whom it moves down, each other player listed under ``anti`` (not as a Skip)."""
    game = arranged(
        [
            "R1 R2 R3 R4 R5 R6 R7 R8 R9 A",
            "B1 B2 B3 B4 B5 B6 B8 B10 Y11 Y12",
            "G1 G2 G4 G5 G7 Y3 Y5 Y7 Y9 R12",
        ],
        "Y3",
        "G10",
        rules=Rules(anti_phase=AntiPhase.ON),
        phases=[6, 4, 2],
        names=["Ann", "Bob", "Cy"],
    )
    game.apply("draw")
    assert check_block(game.view(0))
    block = legal_block(game.view(0))
    assert block is not None and block["anti"] == [] and block["skips"] == []
    assert {"action": "discard A", "label": "Discard A", "card": "A"} in block["discards"]
    game.apply("lay R1 R2 R3 R4 R5 R6 R7 R8 R9")
    game.apply("hit G10 g0")
    assert check_block(game.view(0))
    block = legal_block(game.view(0))
    assert block is not None and block["discards"] == [] and block["skips"] == []
    assert block["anti"] == [
        {
            "action": "discard A>p1",
            "label": "Go out with A: Bob moves down a phase",
            "card": "A",
            "seat": 1,
        },
        {
            "action": "discard A>p2",
            "label": "Go out with A: Cy moves down a phase",
            "card": "A",
            "seat": 2,
        },
    ]


def test_a_hint_names_its_steps_as_the_legal_block_does_and_the_cards_they_play() -> None:
    """The hint message's steps carry the cards each plays (for the browser's "select its
    cards") and, for a step playable now, the label the legal block's entries use (a way
    to lay down is offered beside the block's ways in the same words)."""
    from phase10.core.labels import action_label
    from phase10.server.messages import HintAnswer
    from phase10.server.work import hint_job

    game = Game(2, seed=40)  # (Ann's first turn: a hand that lays its phase with two Wilds)
    game.apply(Draw())
    view = game.view(0)
    answer = hint_job(view, 8)
    HintAnswer.model_validate(answer | {"version": 1})  # (the published schema)
    steps = answer["hint"]["steps"]
    laid = next(a for a in view.legal_actions if str(a) == steps[0]["action"])
    assert isinstance(laid, LayDown)
    assert steps[0]["label"] == action_label(view, laid)
    assert "W=" in steps[0]["label"]  # (each Wild with what it stands for, as the ways say)
    assert sorted(steps[0]["cards"]) == sorted(str(card) for card in laid.cards)
    assert steps[-1]["action"].startswith("discard ") and len(steps[-1]["cards"]) == 1


def test_ways_to_lay_down_as_good_as_each_other_come_lowest_numbers_first() -> None:
    game = arranged(
        ["B8 Y8 R7 G7 R3 B3 G3 W Y12 G12", "R5 R6 R7 R8 R9 B1 B2 B4 B5 B6"],
        "Y4",
        "G1",
        names=["Ann", "Bob"],
    )
    game.apply("draw")
    block = legal_block(game.view(0))
    assert block is not None
    actions = [way["action"] for way in block["lay"]["ways"]]
    sevens, eights = "lay R3 B3 G3 + R7 G7 W", "lay R3 B3 G3 + B8 Y8 W"
    assert {sevens, eights} <= set(actions)
    # the same cards' count and points: by number, where the engine's text puts 8s first
    assert actions.index(sevens) < actions.index(eights)
    # more points shed come first all the same
    assert actions.index("lay R3 B3 G3 + G12 Y12 W") < actions.index(sevens)

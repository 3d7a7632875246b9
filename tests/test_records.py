"""Game records and snapshots: round trips, headers, refusals, replay and determinism."""

from __future__ import annotations

import dataclasses
import io
import json
import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, get_args

import pytest

from phase10 import (
    PRESETS,
    Action,
    Arrangement,
    Event,
    Game,
    GameRecord,
    RecordError,
    Reshuffled,
    Rules,
    SkipTarget,
    Stage,
    action_from_dict,
    action_to_dict,
    dump,
    dumps,
    dumps_snapshot,
    event_from_dict,
    event_to_dict,
    load,
    loads,
    loads_snapshot,
    parse_cards,
    preset,
    restore,
    snapshot,
)
from phase10.core.codec import ACTION_READERS, EVENT_READERS
from randomplay import choose, legal_list, play_game

# -- helpers ------------------------------------------------------------------------------


def played(preset_name: str = "official", players: int = 3, seed: int = 1, steps: int = 60) -> Game:
    """A seeded game after ``steps`` actions of random play (or its end)."""
    return play_game(
        Game(players, rules=preset(preset_name), seed=seed), random.Random(seed), stop_after=steps
    )


def finished(preset_name: str = "short-5", players: int = 3, seed: int = 2) -> Game:
    return play_game(Game(players, rules=preset(preset_name), seed=seed), random.Random(seed))


def reach(preset_name: str, players: int, wanted: Callable[[Game], bool]) -> Game:
    """The first position of seeded random play (over seeds 0, 1, ...) where ``wanted`` holds."""
    for seed in range(300):
        game = Game(players, rules=preset(preset_name), seed=seed)
        policy = random.Random(seed)
        while not game.is_over and len(game.actions) < 3000:
            if wanted(game) and game.actions:
                return game
            game.apply(choose(game, policy))
    raise LookupError(preset_name)


def record_dict(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(game))
    return data


def continue_both(first: Game, second: Game, seed: int, steps: int = 200) -> None:
    """Play both games on with one policy each from the same seed: they must stay identical."""
    one, two = random.Random(seed), random.Random(seed)
    for _ in range(steps):
        if first.is_over:
            break
        a, b = choose(first, one), choose(second, two)
        assert a == b
        assert first.apply(a) == second.apply(b)
    assert snapshot(first) == snapshot(second)


# -- records ------------------------------------------------------------------------------


def test_dumps_loads_round_trip() -> None:
    game = played(steps=80)
    text = dumps(game)
    record = loads(text)
    assert record.players == tuple(seat.name for seat in game.seats)
    assert record.rules == game.rules
    assert record.seed == game.seed
    assert record.dealer == game.first_dealer
    assert record.actions == tuple(str(action) for action in game.actions)
    assert record.arrangement is None
    assert dumps(record) == text
    assert loads(dumps(record, indent=None)) == record


def test_dump_load_through_files(tmp_path: Path) -> None:
    game = played("masters", 4, seed=3, steps=70)
    buffer = io.StringIO()
    dump(game, buffer)
    assert buffer.getvalue().endswith("\n")
    buffer.seek(0)
    record = load(buffer)
    path = tmp_path / "game.json"
    with path.open("w") as fp:
        dump(record, fp)
    with path.open() as fp:
        again = load(fp)
    assert again == record
    assert snapshot(again.replay()) == snapshot(game)


def test_record_header() -> None:
    game = played()
    data = record_dict(game)
    assert data["format"] == "phase10-record"
    assert data["version"] == 1
    assert datetime.fromisoformat(data["date"]).tzinfo is not None
    assert data["rules"] == Rules().to_dict()
    assert data["result"]["winners"] is None
    assert data["result"]["totals"] == [seat.score for seat in game.seats]
    assert data["players"] == ["Player 0", "Player 1", "Player 2"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "pgn"}, "not a phase10-record"),
        ({"format": "phase10-snapshot"}, "not a phase10-record"),
        ({"format": None}, "not a phase10-record"),
        ({"version": 2}, "version 2 is not supported"),
        ({"version": "1"}, "version '1' is not supported"),
        ({"version": None}, "version None is not supported"),
    ],
)
def test_wrong_format_or_version_is_refused(change: dict[str, Any], message: str) -> None:
    data = record_dict(played()) | change
    with pytest.raises(RecordError, match=message):
        loads(json.dumps(data))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not JSON"),
        ("{", "not JSON"),
        ('{"format": "phase10-record",', "not JSON"),
        ("[1, 2]", "a record is a JSON object"),
        ('"phase10-record"', "a record is a JSON object"),
    ],
)
def test_malformed_json_is_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text)
    with pytest.raises(RecordError, match=message):
        loads_snapshot(text)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": None}, "malformed"),
        ({"seed": "seven"}, "malformed"),
        ({"rules": {"skip_target": "everyone"}}, "skip_target must be one of"),
        ({"rules": {"jokers": 2}}, "unknown rules option 'jokers'"),
        ({"rules": {"phase_list": "no-such-list"}}, "no phase list named"),
    ],
)
def test_malformed_fields_are_refused(change: dict[str, Any], message: str) -> None:
    data = record_dict(played()) | change
    with pytest.raises(RecordError, match=message):
        loads(json.dumps(data))


def test_missing_fields_are_named() -> None:
    data = record_dict(played())
    for key in ("players", "seed", "dealer"):
        broken = {k: v for k, v in data.items() if k != key}
        with pytest.raises(RecordError, match=f"no '{key}'"):
            loads(json.dumps(broken))


def test_an_illegal_action_is_named_by_its_number() -> None:
    game = played(steps=30)
    data = record_dict(game)
    actions = list(data["actions"])
    number = next(i for i, text in enumerate(actions, start=1) if text in ("draw", "take"))
    data["actions"] = [*actions[:number], "draw", *actions[number:]]
    record = loads(json.dumps(data))
    with pytest.raises(RecordError, match=rf"action {number + 1} \('draw'\) does not apply"):
        record.replay()
    data["actions"] = [*actions[:5], "dance", *actions[5:]]
    with pytest.raises(RecordError, match=r"action 6 \('dance'\) does not apply: unknown action"):
        loads(json.dumps(data)).replay()
    assert snapshot(record.replay(upto=number)) == snapshot(loads(dumps(game)).replay(upto=number))


def test_replay_of_a_finished_game_reproduces_the_winners() -> None:
    game = finished()
    assert game.is_over
    data = record_dict(game)
    assert data["result"] == {
        "winners": list(game.winners),
        "totals": [seat.score for seat in game.seats],
    }
    replayed = loads(json.dumps(data)).replay()
    assert replayed.winners == game.winners
    assert replayed.history == game.history
    assert snapshot(replayed) == snapshot(game)
    others = [seat for seat in range(3) if seat not in game.winners]
    data["result"]["winners"] = others[:1]
    with pytest.raises(RecordError, match="the record says"):
        loads(json.dumps(data)).replay()


def test_replay_refuses_totals_that_are_not_the_replays() -> None:
    game = finished()
    data = record_dict(game)
    data["result"]["totals"][0] += 5
    record = loads(json.dumps(data))
    with pytest.raises(RecordError, match=r"the record's totals are \[.*\], but the replay gives"):
        record.replay()
    # a partial replay stops short of the result, so it cannot check it
    assert snapshot(record.replay(upto=len(game.actions) - 1)) == snapshot(
        loads(dumps(game)).replay(upto=len(game.actions) - 1)
    )
    with pytest.raises(RecordError, match="the record's totals"):
        record.replay(upto=len(game.actions))


def test_replay_refuses_changed_totals_of_a_game_in_progress() -> None:
    data = record_dict(played(steps=200))
    assert data["result"]["winners"] is None
    data["result"]["totals"][1] += 10
    with pytest.raises(RecordError, match="the record's totals"):
        loads(json.dumps(data)).replay()


def test_replay_refuses_winners_of_a_game_the_actions_do_not_finish() -> None:
    game = finished()
    data = record_dict(game)
    data["actions"] = data["actions"][:-1]
    with pytest.raises(RecordError, match="won, but its actions do not finish the game"):
        loads(json.dumps(data)).replay()


def test_replay_refuses_a_game_in_progress_that_the_actions_finish() -> None:
    data = record_dict(finished())
    data["result"]["winners"] = None
    with pytest.raises(RecordError, match="says the game is in progress, but its actions finish"):
        loads(json.dumps(data)).replay()


def test_replay_of_a_record_without_result_checks_none() -> None:
    game = finished()
    record = dataclasses.replace(loads(dumps(game)), winners=None, totals=None)
    assert record.replay().winners == game.winners


def test_replay_upto_gives_each_earlier_position() -> None:
    game = Game(4, rules=preset("floating"), seed=9)
    policy = random.Random(9)
    marks: dict[int, dict[str, Any]] = {0: snapshot(game)}
    for step in range(1, 90):
        game.apply(choose(game, policy))
        if step % 10 == 0:
            marks[step] = snapshot(game)
    record = loads(dumps(game))
    for step, mark in marks.items():
        assert snapshot(record.replay(upto=step)) == mark


@pytest.mark.parametrize("name", ["official", "masters", "wild-deal-up", "ten-hands", "edition-3"])
def test_records_replay_under_every_kind_of_rules(name: str) -> None:
    game = played(name, 5, seed=4, steps=400)
    record = loads(dumps(game))
    assert record.rules == PRESETS[name]
    assert snapshot(record.replay()) == snapshot(game)


def test_record_keeps_names_dealer_and_seed() -> None:
    game = Game(["Ann", "Bø", "Chloé"], seed=123, dealer=2)
    game.apply("draw")
    record = loads(dumps(game))
    assert record.players == ("Ann", "Bø", "Chloé")
    assert record.dealer == 2 and record.seed == 123
    assert record.replay().dealer == 2


def test_records_of_arranged_games_replay() -> None:
    arrangement = Arrangement(
        hands=(
            parse_cards("R7 B7 G7 R3 B3 W Y9 Y10 G12 S"),
            parse_cards("R1 R2 R4 B5 B6 G8 G9 Y11 Y12 W"),
            parse_cards("G1 G2 G3 G4 Y5 Y6 Y7 R8 R9 R10"),
        ),
        discard=parse_cards("B12 Y3"),
        draw=parse_cards("G3 W S"),
        phases=(1, 2, 4),
        scores=(0, 35, 110),
    )
    game = Game(3, seed=5, dealer=2, arrangement=arrangement)
    assert game.current == 0 and game.discard_top == parse_cards("Y3")[0]
    for text in ("take", "lay R7 B7 G7 + R3 B3 Y3 W", "discard S>p2", "draw"):
        game.apply(text)
    play_game(game, random.Random(5), stop_after=150)
    record = loads(dumps(game))
    assert record.arrangement == arrangement
    assert record_dict(game)["arrangement"]["draw"] == "G3 W S"
    replayed = record.replay()
    assert replayed.hand_results[:1] == game.hand_results[:1]
    assert snapshot(replayed) == snapshot(game)


# -- snapshots ----------------------------------------------------------------------------

STAGES: list[tuple[str, Stage, int]] = [
    ("official", Stage.DRAW, 3),
    ("official", Stage.PLAY, 4),
    ("masters", Stage.DECLARE, 5),
    ("wild-deal-up", Stage.GIVE_WILD, 3),
    ("wild-deal-up", Stage.WILD_DISCARD, 2),
    ("skip-next", Stage.GAME_OVER, 2),
]


@pytest.mark.parametrize(("name", "stage", "players"), STAGES, ids=[s.value for _, s, _ in STAGES])
def test_snapshot_round_trip_in_each_stage(name: str, stage: Stage, players: int) -> None:
    if stage is Stage.GAME_OVER:
        game = finished(name, players, seed=6)
    else:
        game = reach(name, players, lambda g: g.stage is stage and g.hand_number > 1)
    assert game.stage is stage
    text = dumps_snapshot(game)
    restored = loads_snapshot(text)
    assert restored.stage is stage
    assert snapshot(restored) == snapshot(game)
    assert dumps_snapshot(restored) == text
    assert restored.history == game.history and restored.actions == game.actions
    assert [s.hand for s in restored.seats] == [s.hand for s in game.seats]
    assert restored.draw_pile == game.draw_pile and restored.rng.getstate() == game.rng.getstate()
    assert legal_list(restored) == legal_list(game)
    continue_both(game, restored, seed=len(game.actions))


def test_snapshot_continues_through_reshuffles_identically() -> None:
    """The random generator's state is in the snapshot: later reshuffles come out the same."""
    game = reach("official", 2, lambda g: len(g.draw_pile) < 5 and g.stage is Stage.DRAW)
    restored = restore(json.loads(dumps_snapshot(game)))
    before = sum(isinstance(event, Reshuffled) for event in game.history)
    continue_both(game, restored, seed=7, steps=60)
    assert sum(isinstance(event, Reshuffled) for event in game.history) > before


def test_snapshot_header_is_checked() -> None:
    game = played()
    data = snapshot(game)
    assert data["format"] == "phase10-snapshot" and data["version"] == 1
    with pytest.raises(RecordError, match="not a phase10-snapshot"):
        restore(data | {"format": "phase10-record"})
    with pytest.raises(RecordError, match="version 9 is not supported"):
        restore(data | {"version": 9})
    with pytest.raises(RecordError, match="not a phase10-snapshot"):
        loads_snapshot(dumps(game))
    with pytest.raises(RecordError, match="not a phase10-record"):
        loads(dumps_snapshot(game))


def test_malformed_snapshot_state_is_refused() -> None:
    data = snapshot(played())
    broken = data | {"state": {k: v for k, v in data["state"].items() if k != "draw_pile"}}
    with pytest.raises(RecordError, match="malformed"):
        restore(broken)
    bad_card = data | {"state": data["state"] | {"draw_pile": "R7 Q9"}}
    with pytest.raises(RecordError, match="malformed"):
        restore(bad_card)


def test_snapshot_date_is_left_out() -> None:
    game = played()
    assert snapshot(game)["record"]["date"] is None
    assert snapshot(game) == snapshot(game)


# -- actions and events as dicts ----------------------------------------------------------


def test_actions_round_trip_as_dicts() -> None:
    seen: set[str] = set()
    for name in ("official", "masters-variant-2", "wild-deal-up", "masters", "natural-per-phase"):
        game = Game(4, rules=preset(name), seed=11)
        policy = random.Random(11)
        while not game.is_over and len(game.actions) < 600:
            for action in legal_list(game):
                data = action_to_dict(action)
                assert json.loads(json.dumps(data)) == data
                assert action_from_dict(data) == action
                seen.add(data["type"])
            game.apply(choose(game, policy))
    assert seen == {"Draw", "TakeDiscard", "LayDown", "Hit", "Discard", "Declare", "GiveWild"} | {
        "Save",
        "TakeSaved",
        "GiveUp",
    }
    with pytest.raises(RecordError, match="unknown action type"):
        action_from_dict({"type": "Shuffle"})


def test_events_round_trip_as_dicts() -> None:
    game = finished("wild-deal-up", 4, seed=3)
    kinds = set()
    for event in game.history:
        data = event_to_dict(event)
        assert event_from_dict(json.loads(json.dumps(data))) == event
        kinds.add(data["type"])
    assert {"HandStarted", "Dealt", "Drew", "LaidDown", "CardHit", "HandEnded"} <= kinds
    with pytest.raises(RecordError, match="unknown event type"):
        event_from_dict({"type": "Earthquake"})


def test_every_kind_of_action_and_event_has_a_reader() -> None:
    # the writers are checked by mypy (a match over the closed union); the readers by name
    assert set(ACTION_READERS) == {kind.__name__ for kind in get_args(Action)}
    assert set(EVENT_READERS) == {kind.__name__ for kind in get_args(Event)}


# -- determinism --------------------------------------------------------------------------


def test_same_seed_and_actions_give_the_same_game() -> None:
    first = played("official", 4, seed=21, steps=300)
    second = Game(4, seed=21)
    for action in first.actions:
        second.apply(action)
    assert second.history == first.history
    assert snapshot(second) == snapshot(first)
    third = played("official", 4, seed=21, steps=300)
    assert third.history == first.history


def test_different_seeds_give_different_deals() -> None:
    deals = {tuple(tuple(Game(3, seed=seed).hand(p)) for p in range(3)) for seed in range(60)}
    assert len(deals) == 60
    assert Game(3, seed=1).draw_pile != Game(3, seed=2).draw_pile


def test_the_dealer_is_drawn_from_the_seed() -> None:
    dealers = {Game(4, seed=seed).first_dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert all(Game(4, seed=s).first_dealer == Game(4, seed=s).first_dealer for s in range(10))
    drawn = Game(4, seed=5)
    other = (drawn.first_dealer + 1) % 4
    given = Game(4, seed=5, dealer=other)
    # Giving the dealer changes who is dealt what, not the shuffle.
    assert given.first_dealer == other and given.current == (other + 1) % 4
    assert given.draw_pile == drawn.draw_pile and given.discard_pile == drawn.discard_pile
    assert given.rng.getstate() == drawn.rng.getstate()
    assert sorted(given.hand(0) + given.hand(1) + given.hand(2) + given.hand(3), key=str) == sorted(
        drawn.hand(0) + drawn.hand(1) + drawn.hand(2) + drawn.hand(3), key=str
    )


def test_records_carry_option_changes() -> None:
    rules = Rules(skip_target=SkipTarget.NEXT, phases=(2, 3))
    game = play_game(Game(3, rules=rules, seed=8), random.Random(8), stop_after=50)
    record = loads(dumps(game))
    assert record.rules == rules and record.rules.phases == (2, 3)
    assert snapshot(record.replay()) == snapshot(game)


def test_a_game_record_can_be_built_by_hand() -> None:
    record = GameRecord(players=("A", "B"), rules=Rules(), seed=3, dealer=0, actions=("draw",))
    game = record.replay()
    assert len(game.actions) == 1 and game.stage is Stage.PLAY
    assert loads(dumps(record)) == record


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"seed": ' + "9" * 5000 + "}", "a number of more than 4300 digits"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_json_no_reader_can_take_is_a_record_error(text: str, words: str) -> None:
    """A record file is anyone's: whatever its JSON holds, reading it gives a RecordError
    in words (the command line turns it into an error line), never another exception."""
    from phase10.core.snapshots import loads_snapshot
    from phase10.dice import loads as dice_loads

    for read in (loads, loads_snapshot, dice_loads):
        with pytest.raises(RecordError, match=words):
            read(text)


def test_a_record_saved_with_a_byte_order_mark_reads() -> None:
    game = Game(2, seed=3)
    text = dumps(GameRecord.from_game(game))
    assert loads("\ufeff" + text) == loads(text)

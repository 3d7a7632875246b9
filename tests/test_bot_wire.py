"""The bot protocol's typed models (phase10.bots.wire): the committed schemas and the
document's tables are generated from them, and everything the engine sends or accepts
matches them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from phase10 import PRESETS, Game, Rules, action_to_dict
from phase10.bots import formats, wire
from phase10.bots.program import (
    ANSWER_PROBLEMS,
    PROBLEMS,
    hello_message,
    turn_message,
)
from randomplay import choose

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_schemas_and_tables_are_generated_from_the_models() -> None:
    """Run `python -m phase10.bots.wire` (or `make schemas`) after changing a model."""
    for path, content in wire.generated_files(ROOT).items():
        assert path.exists(), f"{path} is missing: run python -m phase10.bots.wire"
        assert path.read_text() == content, f"{path} is stale: run python -m phase10.bots.wire"


def test_the_check_mode_names_a_stale_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "bot-protocol.md").write_text(
        "<!-- generated: quit -->\nold\n<!-- end -->\n"
    )
    assert wire.main(["--check", "--root", str(tmp_path)]) == 1
    assert "stale" in capsys.readouterr().err
    assert wire.main(["--root", str(tmp_path)]) == 0
    assert wire.main(["--check", "--root", str(tmp_path)]) == 0
    text = (tmp_path / "docs" / "bot-protocol.md").read_text()
    assert "| `type` | `quit` | required |" in text and "old" not in text
    schema = json.loads((tmp_path / "docs/schemas/bot/turn.json").read_text())
    assert schema["x-protocol-version"] == 1 and schema["$id"].endswith("/turn.json")


def test_every_field_of_every_message_is_described() -> None:
    for model in [*wire.MESSAGES.values(), *formats.EVENTS.values(), *wire.ACTIONS.values(),
                  formats.ViewData, formats.SeatData, formats.GroupData, formats.TableGroup,
                  formats.RulesData, wire.LayDownGroup]:  # fmt: skip
        assert model.__doc__, model
        for name, field in model.model_fields.items():
            typed = name in ("type", "player", "card", "phase", "players", "winners", "dealer")
            assert field.description or typed, f"{model.__name__}.{name} has no description"


def test_the_error_tables_hold_every_problem_the_engine_raises() -> None:
    doc = (ROOT / "docs" / "bot-protocol.md").read_text()
    for problem in (*PROBLEMS.values(), *ANSWER_PROBLEMS.values()):
        assert f"`{problem.say(**problem.example)}`" in doc
    source = (ROOT / "src" / "phase10" / "bots" / "program.py").read_text()
    # every BotError is raised through the table: no message is written anywhere else
    assert source.count("BotError(f") == 1 and source.count("BotStartError(f") == 1


@pytest.mark.parametrize("name", ["official", "masters", "floating", "wild-deal-up", "arkansas"])
def test_everything_the_engine_sends_matches_the_models(name: str) -> None:
    """Hello and turn messages of a whole short game, each legal action's text and object
    form as an answer."""
    rules = Rules.from_dict({**PRESETS[name].to_dict(), "phases": [1, 2]})
    game = Game(["Ann", "Bob", "Cy"], rules=rules, seed=11)
    rng = random.Random(3)
    stages = set()
    for _ in range(400):
        if game.is_over:
            break
        view = game.view(game.current)
        stages.add(view.stage)
        wire.Hello.model_validate(hello_message(view, 10.0))
        turn = wire.Turn.model_validate(turn_message(view))
        assert turn.view.stage == view.stage
        for action in view.legal_actions:
            wire.Answer.model_validate({"action": str(action)})
            wire.Answer.model_validate({"action": action_to_dict(action)})
        game.apply(choose(game, rng))
    assert len(stages) >= 2


@pytest.mark.parametrize(
    ("message", "model"),
    [
        ({"type": "ready", "protocol": 2}, wire.Ready),
        ({"type": "hello"}, wire.Ready),
        ({"action": 42}, wire.Answer),
        ({"action": {"type": "Jump"}}, wire.Answer),
        ({"action": {"type": "Hit", "card": "W", "group": -1}}, wire.Answer),
        ({"type": "error", "message": "x", "code": "nope", "attempts_left": 1}, wire.ErrorMessage),
    ],
)
def test_the_models_refuse_what_the_protocol_refuses(
    message: dict[str, Any], model: type[Any]
) -> None:
    with pytest.raises(ValidationError):
        model.model_validate(message)


def test_unknown_fields_are_ignored_by_the_models() -> None:
    ready = wire.Ready.model_validate({"type": "ready", "name": "x", "colour": "blue"})
    assert ready.name == "x"


def test_what_the_engine_writes_is_what_it_reads() -> None:
    """The written form the engine sends (legal actions, a table group's text) reads back
    to the same action and group, and writes no implied Wild value; a group's faces give
    each Wild of a run its value."""
    from phase10 import GroupKind, parse_group

    rng = random.Random(5)
    seen_melds = seen_run_wilds = 0
    for seed in range(3):
        game = Game(2, rules=Rules(phases=(2, 3)), seed=seed)
        while not game.is_over and len(game.actions) < 300:
            view = game.view(game.current)
            for action in view.legal_actions:
                assert game.parse_action(str(action)) == action
            for meld in turn_message(view)["view"]["melds"]:
                group = parse_group(GroupKind(meld["group"]["kind"]), meld["text"])
                assert group.written() == meld["text"] and "W=" not in meld["text"]
                # the faces name each Wild of a run by its place, and read back the same
                assert parse_group(group.kind, meld["faces"]) == group
                if group.kind is GroupKind.RUN:
                    assert "W" not in meld["faces"].replace("W=", "")
                    seen_run_wilds += "W=" in meld["faces"]
                seen_melds += 1
            game.apply(choose(game, rng))
    assert seen_melds > 0 and seen_run_wilds > 0


def test_the_rules_descriptions_name_the_defaults_of_the_core() -> None:
    """Each rules option's description marks ``Rules()``'s value as the default."""
    import re

    defaults = Rules().to_dict()
    for name, field in formats.RulesData.model_fields.items():
        if name in ("phase_list", "phases"):
            continue
        found = re.search(r"``(\w+)``[^`]*?the\s+default", field.description or "")
        assert found and found.group(1) == defaults[name], name

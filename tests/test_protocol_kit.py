"""The conformance kit (`phase10 protocol-test`) and the Node.js example bot."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phase10.cli.app import app
from phase10.cli.protocol_test import RULE_SETS, run_checks

ROOT = Path(__file__).resolve().parents[1]
NODE_BOT = ROOT / "examples" / "bots" / "node" / "bot.js"
PYTHON_BOT = ROOT / "examples" / "bots" / "random_bot.py"
runner = CliRunner()

#: a bot that deviates as its command line says: "shape" answers its first turn with
#: {"move": ...}, "illegal" with a discard before the draw, "ready" says its name is 5,
#: "crash" exits at its third turn; otherwise it plays the first legal action
DEVIANT_BOT = r"""
import json, sys
how = sys.argv[1]
turns = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": 5 if how == "ready" else "deviant"}), flush=True)
    elif kind == "turn":
        turns += 1
        if how == "crash" and turns == 3:
            sys.exit(4)
        if turns == 1 and how == "shape":
            print(json.dumps({"move": "draw"}), flush=True)
        elif turns == 1 and how == "illegal":
            print(json.dumps({"action": "discard " + message["view"]["hand"].split()[0]}), flush=True)
        print(json.dumps({"action": message["legal"][0]}), flush=True)
    elif kind == "quit":
        break
"""


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node.js is not installed (make nodejs installs Debian's nodejs)")
    return node


def test_the_node_example_bot_follows_the_protocol_under_every_rule_set() -> None:
    result = runner.invoke(app, ["protocol-test", _node(), str(NODE_BOT), "--timeout", "20"])
    assert result.exit_code == 0, result.output
    for name in RULE_SETS:
        assert f"{name} (" in result.output
    assert "stages declare, draw, play: ok" in result.output
    assert "stages draw, give_wild, play, wild_discard: ok" in result.output
    assert "The bot follows the bot protocol under every rule set." in result.output


def test_the_python_example_bot_follows_the_protocol() -> None:
    reports = run_checks([sys.executable, str(PYTHON_BOT)], rule_sets=["masters"])
    assert [report.deviations for report in reports] == [[]]


@pytest.mark.parametrize(
    ("how", "deviation"),
    [
        ("shape", 'the answer {"move": "draw"} was refused: answer with {"action"'),
        ("shape", '{"move": "draw"} does not match answer.json: action: Field required'),
        ("illegal", "was refused: you must draw a card (or take the top discard) first"),
        ("ready", "does not match ready.json: name: Input should be a valid string"),
        ("crash", "the bot failed: bot 'deviant' "),
        ("crash", "exited with code 4 instead of answering a turn"),
    ],
)
def test_each_deviation_is_reported_and_fails_the_check(
    tmp_path: Path, how: str, deviation: str
) -> None:
    bot = tmp_path / "deviant.py"
    bot.write_text(DEVIANT_BOT)
    result = runner.invoke(
        app, ["protocol-test", f"{sys.executable} {bot} {how}", "--rules", "official"]
    )
    assert result.exit_code == 1, result.output
    assert deviation in result.output
    assert re.search(r"\b\d+ deviations? from the bot protocol\.", result.output), result.output


def test_a_bot_that_dies_before_answering_is_said_to_have_made_no_decision(
    tmp_path: Path,
) -> None:
    bot = tmp_path / "dead.py"
    bot.write_text("import sys\nsys.exit('no phase10 here')\n")
    result = runner.invoke(app, ["protocol-test", f"{sys.executable} {bot}", "--rules", "masters"])
    assert result.exit_code == 1, result.output
    assert "masters (" in result.output and "1 game, 0 decisions made, stages none" in result.output
    assert "exited with code 1 instead of answering the hello" in result.output
    assert "no phase10 here" in result.output  # its stderr
    assert "never reached" not in result.output  # (it failed: that says it)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["protocol-test", "python bot.py", "--rules", "chess"], "no rule set named 'chess'"),
        (["protocol-test", "python 'bot.py"], "cannot read the command"),
        (["protocol-test", "python", "--timeout", "0"], "--timeout is a number of seconds"),
        (["protocol-test", "no-such-bot-program --x"], "cannot start 'no-such-bot-program'"),
    ],
)
def test_bad_input_is_refused(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr

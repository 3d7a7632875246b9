"""Every ``$ phase10 ...`` example in the README and the docs prints what it shows.

Timing lines ("40 games in 2.0 s ...") are left out of the comparison, and an example
that ends with ``...`` is compared up to there. Commands run with ``--jobs 1``: their
results are the same whatever the jobs.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phase10.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
FILES = ("README.md", "docs/odds.md", "docs/tournaments.md", "docs/dice.md", "docs/dice-odds.md")
TIMING = re.compile(r" in [\d.]+ s \(")
EXIT = re.compile(r';\s*echo "exit \$\?"$')


@dataclass(frozen=True)
class Example:
    where: str
    command: str
    expected: list[str]


def examples() -> list[Example]:
    found = []
    for name in FILES:
        lines = (ROOT / name).read_text().splitlines()
        index = 0
        while index < len(lines):
            line = lines[index]
            index += 1
            if not line.startswith("$ phase10 "):
                continue
            where = f"{name}:{index}"
            command = line[2:]
            while command.endswith("\\"):
                command = command[:-1] + " " + lines[index].strip()
                index += 1
            expected = []
            while index < len(lines) and not lines[index].startswith(("$ ", "```")):
                expected.append(lines[index].rstrip())
                index += 1
            found.append(Example(where, command, expected))
    return found


EXAMPLES = examples()


def test_the_examples_are_found() -> None:
    assert len(EXAMPLES) >= 18
    assert any(example.command.startswith("phase10 tournament") for example in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=[example.where for example in EXAMPLES])
def test_console_example(example: Example) -> None:
    command = EXIT.sub("", example.command)
    args = shlex.split(command)[1:]
    if "--jobs" in args:
        args[args.index("--jobs") + 1] = "1"
    elif args[0] in {"tournament", "simulate", "odds"}:
        args += ["--jobs", "1"]
    result = CliRunner().invoke(app, args)
    expected = list(example.expected)
    while expected and not expected[-1]:
        expected.pop()
    if command != example.command:  # ends with: echo "exit $?"
        assert expected.pop() == f"exit {result.exit_code}"
    else:
        assert result.exit_code in (0, 2), result.output
    if "--json" in args:
        assert matches(json.loads("\n".join(expected)), json.loads(result.output))
        return
    got = [line.rstrip() for line in result.output.splitlines()]
    while got and not got[-1]:
        got.pop()
    if expected and expected[-1].strip() == "...":
        expected.pop()
        got = got[: len(expected)]
    assert [line for line in got if not TIMING.search(line)] == [
        line for line in expected if not TIMING.search(line)
    ]


def matches(shown: object, real: object, key: str = "") -> bool:
    """Whether JSON shortened for the docs agrees with the real output: ``"..."`` stands
    for the rest of a list, the other keys of an object (as the key ``"..."``), or the
    rest of a string (``"text (...)"``); how long the run took is left out.
    """
    if key in {"seconds", "games_per_second"}:
        return isinstance(real, (int, float))
    if isinstance(shown, dict):
        if not isinstance(real, dict):
            return False
        keys = [k for k in shown if k != "..."]
        if "..." not in shown and set(keys) != set(real):
            return False
        return all(k in real and matches(shown[k], real[k], k) for k in keys)
    if isinstance(shown, list):
        if not isinstance(real, list):
            return False
        if shown and shown[-1] == "...":
            shown = shown[:-1]
            real = real[: len(shown)]
        return len(shown) == len(real) and all(
            matches(a, b, key) for a, b in zip(shown, real, strict=True)
        )
    if isinstance(shown, str) and shown.endswith("(...)") and isinstance(real, str):
        return real.startswith(shown.removesuffix("(...)"))
    return shown == real

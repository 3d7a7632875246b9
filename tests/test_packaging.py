"""The extras agree: `make test` installs (through the `test` extra) every library any
other extra brings, so the checks see the code as users run it, and `all` is all of them.
The version is written once, in the package, and the build reads it from there."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import phase10

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _names(requirements: list[str]) -> set[str]:
    return {
        re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower() for requirement in requirements
    }


def test_the_test_and_all_extras_hold_every_other_extra() -> None:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    extras, base = project["optional-dependencies"], _names(project["dependencies"])
    test, everything = _names(extras["test"]) | base, _names(extras["all"]) | base
    for name, requirements in extras.items():
        if name in ("test", "all"):
            continue
        assert _names(requirements) <= test, f"the test extra lacks {_names(requirements) - test}"
        if name != "bench":  # the load clients are not part of the game
            assert _names(requirements) <= everything, (
                f"the all extra lacks {_names(requirements) - everything}"
            )


def test_the_version_is_written_once_in_the_package() -> None:
    config = tomllib.loads(PYPROJECT.read_text())
    assert "version" not in config["project"]
    assert "version" in config["project"]["dynamic"]
    source = PYPROJECT.parent / config["tool"]["hatch"]["version"]["path"]
    written = re.findall(r'^__version__ = "([^"]+)"$', source.read_text(), re.MULTILINE)
    assert written == [phase10.__version__]

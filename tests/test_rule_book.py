"""The rule book, docs/rules.md: every "§n" the repository cites names one of its sections,
no rule reference points outside the repository, and every rules option, each of its
values and every preset is written down in it (so a new option cannot go undocumented).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from enum import Enum
from pathlib import Path

import pytest

from phase10.core import PHASE_LISTS, PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
RULE_BOOK = ROOT / "docs" / "rules.md"
#: where rule references are looked for, and the files read there
FOLDERS = ("src", "tests", "docs", "benchmarks", "examples")
TOP_FILES = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")
SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".toml", ".txt"}
#: copied libraries and generated files, not written by the project
SKIPPED = ("vendor", "__pycache__", "__snapshots__", "images", "rl_golden")

SECTION = re.compile(r"^## (\d+)\. (.+)$", re.MULTILINE)
CITED = re.compile(r"§\s*(\d+)")
#: the old rule book beside the source texts, or the source texts themselves
OUTSIDE = re.compile(r"RULES\s*§|RULES\.md|seeds/\d|\.\./shared/")


def _sections() -> dict[int, str]:
    """The rule book's sections by number: their text, heading included."""
    text = RULE_BOOK.read_text(encoding="utf-8")
    starts = list(SECTION.finditer(text))
    return {
        int(match.group(1)): text[match.start() : nxt.start() if nxt else len(text)]
        for match, nxt in zip(starts, [*starts[1:], None], strict=True)
    }


def _files() -> Iterator[Path]:
    for name in TOP_FILES:
        if (ROOT / name).exists():
            yield ROOT / name
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in SUFFIXES and not set(path.relative_to(ROOT).parts) & set(SKIPPED):
                yield path


def _lines(pattern: re.Pattern[str]) -> Iterator[tuple[str, int, re.Match[str]]]:
    """Every match of ``pattern`` in the project's own files: (file, line number, match)."""
    for path in _files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in pattern.finditer(line):
                yield str(path.relative_to(ROOT)), number, match


def _table_rows(section: str) -> dict[str, str]:
    """The rows of the tables in ``section`` by the code span that opens them."""
    rows: dict[str, str] = {}
    for line in section.splitlines():
        match = re.match(r"^\| `([^`]+)` \|", line)
        if match:
            rows.setdefault(match.group(1), line)
    return rows


def test_the_rule_book_has_sections_1_to_8() -> None:
    sections = _sections()
    assert sorted(sections) == list(range(1, 9))
    titles = {n: text.splitlines()[0] for n, text in sections.items()}
    assert titles[1] == "## 1. Cards"
    assert titles[7] == "## 7. What each player knows"
    assert titles[8] == "## 8. Variations"


def test_every_section_reference_names_a_section_of_the_rule_book() -> None:
    sections = _sections()
    cited = list(_lines(CITED))
    assert len(cited) > 40  # the code, tests and docs cite the rule book throughout
    wrong = [
        f"{path}:{line}: {m.group(0)}" for path, line, m in cited if int(m.group(1)) not in sections
    ]
    assert wrong == [], "references to sections the rule book does not have"


def test_no_rule_reference_points_outside_the_repository() -> None:
    outside = [f"{path}:{line}: {m.group(0)}" for path, line, m in _lines(OUTSIDE)]
    assert outside == []


def test_every_rules_option_has_a_row_with_every_value_default_first() -> None:
    rows = _table_rows(_sections()[8])
    defaults = Rules()
    for field in dataclasses.fields(Rules):
        if not field.init:
            continue
        assert field.name in rows, f"rules §8 has no row for the option {field.name}"
        row = rows[field.name]
        values = row.split("|")[2].strip()
        default = getattr(defaults, field.name)
        if isinstance(default, Enum):
            for member in type(default):
                assert f"`{member.value}`" in values, f"{field.name}: {member.value} not listed"
            assert values.startswith(f"`{default.value}`"), f"{field.name}: default not first"
    assert rows["phase_list"].split("|")[2].strip().startswith("`standard`")


def test_every_other_value_of_every_option_is_explained() -> None:
    """Beyond §8's table, every value other than the default is explained where the rule
    book says what it does, written as ``option = "value"``."""
    text = RULE_BOOK.read_text(encoding="utf-8")
    explained = text[: text.index("### The presets")]
    defaults = Rules()
    for field in dataclasses.fields(Rules):
        default = getattr(defaults, field.name)
        if isinstance(default, Enum):
            for member in type(default):
                if member is not default:
                    assert f'`{field.name} = "{member.value}"`' in explained, member


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_has_a_row_saying_what_it_sets(name: str) -> None:
    text = _sections()[8]
    presets = text[text.index("### The presets") :].split("\n### ")[0]
    rows = [line for line in presets.splitlines() if line.startswith("| `")]
    row = next((line for line in rows if f"`{name}`" in line.split("|")[1]), None)
    assert row is not None, f"rules §8 does not describe the preset {name}"
    rules, defaults = PRESETS[name], Rules()
    said = row.split("|")[2]
    for field in dataclasses.fields(Rules):
        if not field.init or getattr(rules, field.name) == getattr(defaults, field.name):
            continue
        value = getattr(rules, field.name)
        if isinstance(value, Enum):
            assert f'`{field.name} = "{value.value}"`' in said, (name, field.name)
        elif field.name == "phases":
            assert f"`phases = {value}`" in said, (name, field.name)
        else:
            same = [n for n, phases in PHASE_LISTS.items() if phases == value]
            listed = name if name in same else same[0]  # edition-12 repeats edition-8
            assert f'`phase_list = "{listed}"`' in said or (
                listed == name and "the list of the same name" in said
            ), (name, field.name)

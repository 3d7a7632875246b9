"""The terminal game's record of finished games (results.jsonl): a failed append leaves
no half line behind, and a damaged line or byte spoils only itself."""

from __future__ import annotations

import errno
import os
from dataclasses import replace
from pathlib import Path

import pytest

from phase10.tui import stats
from phase10.tui.stats import GameResult, read_results, record_result

GAME = GameResult("7:ab", "greedy", 1, True, 40, 1, 1, 1, "official, phase 1")


def test_a_full_disk_mid_line_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "results.jsonl"
    assert record_result(GAME, path) is None
    before = path.read_bytes()
    real_write = os.write

    def half_then_full(handle: int, data: bytes) -> int:
        if len(data) > 10:
            return real_write(handle, data[:10])  # a part goes down
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(stats.os, "write", half_then_full)
    said = record_result(replace(GAME, game="8:cd"), path)
    assert said == f"could not record the game in {path}: No space left on device"
    assert path.read_bytes() == before  # no half line
    monkeypatch.undo()
    assert record_result(replace(GAME, game="9:ef"), path) is None
    rows, bad = read_results(path)
    assert [row.game for row in rows] == ["7:ab", "9:ef"] and bad == 0


def test_a_line_left_unended_or_a_damaged_byte_spoils_only_itself(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    assert record_result(GAME, path) is None
    with path.open("ab") as file:
        file.write(b"\xff\xfe not a line\n" + b'{"game": "torn", "diffic')  # no end
    assert record_result(replace(GAME, game="8:cd"), path) is None  # on a line of its own
    rows, bad = read_results(path)
    assert [row.game for row in rows] == ["7:ab", "8:cd"] and bad == 2

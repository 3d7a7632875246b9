"""Saved games and settings are written whole or not at all, and leave no temporary
files behind: not on a failed write, not on a hangup mid-save, not after a kill."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from phase10.tui import terminal
from phase10.tui.files import SAVE_PREFIX, STALE_AFTER, WRITING, write_atomically
from phase10.tui.preferences import Preferences, save_preferences
from phase10.tui.saves import unfinished_games
from phase10.tui.session import Session, Settings


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "autosave.json"
    write_atomically(target, "old\n", prefix=SAVE_PREFIX)

    def refuse(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space"):
        write_atomically(target, "new\n", prefix=SAVE_PREFIX)
    assert target.read_text() == "old\n"
    assert [path.name for path in tmp_path.iterdir()] == ["autosave.json"]


def test_a_write_sweeps_only_stale_temporaries_of_its_own_kind(tmp_path: Path) -> None:
    old = time.time() - STALE_AFTER - 60
    stale_new, stale_legacy = tmp_path / ".save-ab12.tmp", tmp_path / ".save-cd34.json"
    fresh, settings = tmp_path / ".save-ef56.tmp", tmp_path / ".settings-gh78"
    game = tmp_path / "phase10-20261127-4.json"
    for path in (stale_new, stale_legacy, fresh, settings, game):
        path.write_text("{}")
    for path in (stale_new, stale_legacy, settings, game):
        os.utime(path, (old, old))

    write_atomically(tmp_path / "autosave.json", "{}\n", prefix=SAVE_PREFIX)

    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == sorted([fresh.name, settings.name, game.name, "autosave.json"])


def test_a_write_through_a_link_keeps_the_link_and_the_permissions(tmp_path: Path) -> None:
    # a player who keeps the real save elsewhere (a synced folder) and links it in
    elsewhere = tmp_path / "synced" / "game.json"
    elsewhere.parent.mkdir()
    elsewhere.write_text("old\n")
    elsewhere.chmod(0o640)
    link = tmp_path / "game.json"
    link.symlink_to(elsewhere)
    write_atomically(link, "new\n", prefix=SAVE_PREFIX)
    assert link.is_symlink()
    assert elsewhere.read_text() == "new\n"
    assert elsewhere.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in elsewhere.parent.iterdir()) == ["game.json"]


def test_saves_and_settings_leave_only_their_files(tmp_path: Path) -> None:
    autosave = tmp_path / "autosave.json"
    session = Session.new(Settings(opponents=1, difficulty="random", seed=3), autosave=autosave)
    assert session.save() == autosave
    assert save_preferences(Preferences(), tmp_path / "settings.json") is None
    assert sorted(path.name for path in tmp_path.iterdir()) == ["autosave.json", "settings.json"]
    assert Session.load(autosave).game.seed == 3


def test_the_hangup_exit_waits_for_a_save_in_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    exits: list[int] = []
    monkeypatch.setattr(terminal.os, "_exit", exits.append)
    WRITING.acquire()  # a save under way
    leaving = threading.Thread(target=terminal._leave)  # (the default on_lost)
    try:
        leaving.start()
        leaving.join(0.3)
        assert exits == [] and leaving.is_alive()
    finally:
        WRITING.release()
    leaving.join(5)
    assert exits == [terminal.HUNG_UP]
    WRITING.release()  # (the real exit never returns; this one gives the lock back)


def test_a_stray_temporary_is_not_listed_as_an_unfinished_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path))
    games = tmp_path / "games"
    session = Session.new(Settings(opponents=1, difficulty="random", seed=5), autosave=None)
    kept = session.save(games / "phase10-20261127-5.json")
    assert kept is not None
    (games / ".save-k2j4.json").write_text(kept.read_text())  # (an earlier version's, whole)
    assert [game.path for game in unfinished_games(None)] == [kept]


def test_a_copy_of_the_autosave_leaves_the_game_listed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+S keeps a copy identical to the autosave: the game is listed once, as the
    autosave, and a copy of an earlier moment of it is not listed."""
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path))
    autosave = tmp_path / "autosave.json"
    session = Session.new(Settings(opponents=1, difficulty="random", seed=8), autosave=autosave)
    earlier = session.save(tmp_path / "games" / "phase10-1-8.json")
    if session.game.current == session.human:
        session.apply("draw")
    else:
        session.play_bot()
    session.save()
    copy = session.save(tmp_path / "games" / "phase10-2-8.json")
    assert earlier is not None and copy is not None
    assert [game.path for game in unfinished_games(autosave)] == [autosave]
    assert [game.path for game in unfinished_games(None)] == [copy]


def test_what_a_full_disk_kept_from_saving_is_kept_on_the_way_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saves that failed during the game (a full disk) are tried again on quitting, and a
    finished game's result and copy for replay with them; what still fails is said."""
    import random

    from phase10.bots.greedy import GreedyPlayer
    from phase10.core import Rules
    from phase10.core.records import loads
    from phase10.tui import session as session_module
    from phase10.tui.app import PlayApp
    from phase10.tui.history import finished_games
    from phase10.tui.stats import read_results

    monkeypatch.setenv("PHASE10_HOME", str(tmp_path))
    autosave = tmp_path / "autosave.json"
    settings = Settings(opponents=1, difficulty="greedy", seed=6, rules=Rules(phases=(1,)))
    session = Session.new(settings, autosave=autosave)
    assert autosave.exists()
    real_write = session_module.write_atomically

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(session_module, "write_atomically", full)
    me = GreedyPlayer(random.Random(1))
    while not session.game.is_over:  # the whole game on a full disk
        if session.human_to_move:
            session.apply(me.choose(session.view))
        else:
            session.play_bot()
    assert session.save_error == f"could not save to {autosave}: No space left on device"
    app = PlayApp(session=session, autosave=autosave)
    app.remember = True
    assert app.keep_on_leaving() == session.save_error  # still full: said
    monkeypatch.setattr(session_module, "write_atomically", real_write)  # room again
    assert app.keep_on_leaving() is None
    assert loads(autosave.read_text()).actions == session.record().actions  # every move
    assert app.finished_path is not None and len(finished_games()) == 1
    rows, bad = read_results()
    assert len(rows) == 1 and bad == 0


def test_a_second_game_saving_to_the_same_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games on one autosave would write over each other's moves: while one holds
    it, a second `phase10 play` is refused, saying what to do; one process may start
    one game after another on it."""
    import subprocess
    import sys

    from typer.testing import CliRunner

    from phase10.cli.app import app
    from phase10.tui.files import SaveInUse, claim

    pytest.importorskip("fcntl")
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path))
    autosave = tmp_path / "autosave.json"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; "
         "from phase10.tui.files import claim; "
         f"claim(Path({str(autosave)!r})); print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(SaveInUse, match="another phase10 game is saving to"):
            claim(autosave)
        refused = CliRunner().invoke(app, ["play", "--quick"])
        assert refused.exit_code == 2
        assert "two games saving to one file would lose each other's moves" in refused.stderr
        assert "--save-file FILE" in refused.stderr
    finally:
        holder.communicate("")  # (it ends: its hold goes with it)
    claim(autosave)
    claim(autosave)  # the same process, a game after another: still its own


def test_a_data_directory_that_is_a_file_is_said_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from phase10.cli.app import app

    home = tmp_path / "afile"
    home.write_text("")
    monkeypatch.setenv("PHASE10_HOME", str(home))
    refused = CliRunner().invoke(app, ["play", "--quick"])
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"error: the data directory {home} is a file, not a folder: set PHASE10_HOME to a folder\n"
    )

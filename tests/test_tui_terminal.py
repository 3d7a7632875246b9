"""The real program in a pseudo-terminal: keys in, the screen read back through a terminal
emulator (pyte), the autosave checked afterwards.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte
import pytest

from phase10.core import Discarded, Drew
from phase10.core.records import loads

COLUMNS, LINES = 120, 40
TIMEOUT = 30.0


class Terminal:
    """A child process on a pseudo-terminal, with everything it wrote fed to a screen."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.screen = pyte.Screen(COLUMNS, LINES)
        self.stream = pyte.ByteStream(self.screen)
        self.output = bytearray()

    def read(self, wait: float = 0.05) -> bool:
        """Take in what the program has written so far; False once it has exited."""
        try:
            data = self.child.read_nonblocking(65536, timeout=wait)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.output += data
        self.stream.feed(data)
        return True

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, what: str, test: Callable[[str], bool]) -> str:
        """Poll the screen until ``test`` holds for its text (or fail after the timeout)."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            alive = self.read()
            if test(self.text):
                return self.text
            if not alive:
                break
        raise AssertionError(f"the screen never showed {what}:\n{self.text}")

    def wait_for_exit(self) -> int:
        deadline = time.monotonic() + TIMEOUT
        while self.read() and time.monotonic() < deadline:
            pass
        self.child.expect(pexpect.EOF, timeout=TIMEOUT)
        self.output += self.child.before or b""
        self.child.close()
        assert self.child.exitstatus is not None, "the program did not exit by itself"
        return self.child.exitstatus


def test_playing_a_few_turns_by_keys_in_a_real_terminal(tmp_path: Path) -> None:
    save = tmp_path / "auto.json"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "COLUMNS": str(COLUMNS),
        "LINES": str(LINES),
        "PHASE10_HOME": str(tmp_path),
    }
    args = ["-m", "phase10.cli", "play", "--quick", "--opponents", "1"]
    args += ["--difficulty", "random", "--seed", "3", "--delay", "0", "--save-file", str(save)]
    try:
        child = pexpect.spawn(sys.executable, args, env=env, dimensions=(LINES, COLUMNS))
    except (OSError, pexpect.ExceptionPexpect) as error:  # pragma: no cover
        pytest.skip(f"cannot spawn a pseudo-terminal: {error}")
    terminal = Terminal(child)
    try:
        first = terminal.wait_for("the person's turn", lambda text: "Draw a card (d)" in text)
        assert "Your hand" in first and "Ann" in first
        child.send("d")
        terminal.wait_for("the prompt after drawing", lambda text: "Draw a card (d)" not in text)
        child.send("1")
        child.send("x")
        terminal.wait_for(
            "the person's next turn",
            lambda text: "Draw a card (d)" in text and "You discard" in text,
        )
        child.send("?")
        terminal.wait_for("a hint", lambda text: "Hint:" in text)
        child.send("q")
        status = terminal.wait_for_exit()
    finally:
        if child.isalive():
            child.terminate(force=True)
    printed = terminal.output.decode("utf-8", "replace")
    assert status == 0, printed[-2000:]
    assert "Game saved in" in printed
    assert "To go on with it, run:" in printed
    assert f"-m phase10.cli play --resume --save-file {save}" in printed
    assert "; phase10 play" not in printed  # phase10 may not be on PATH

    record = loads(save.read_text(encoding="utf-8"))
    assert record.tag("controllers") == "human,random"
    game = record.replay()
    mine = [event for event in game.history if getattr(event, "player", None) == 0]
    assert any(isinstance(event, Drew) for event in mine)
    assert any(isinstance(event, Discarded) for event in mine)
    assert not game.is_over


def spawn(tmp_path: Path, *args: str) -> Terminal:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "PHASE10_HOME": str(tmp_path),
    }
    command = ["-m", "phase10.cli", "play", *args]
    try:
        child = pexpect.spawn(sys.executable, command, env=env, dimensions=(LINES, COLUMNS))
    except (OSError, pexpect.ExceptionPexpect) as error:  # pragma: no cover
        pytest.skip(f"cannot spawn a pseudo-terminal: {error}")
    return Terminal(child)


def test_quit_then_a_new_game_keeps_the_old_one_to_resume(tmp_path: Path) -> None:
    quick = ["--quick", "--opponents", "1", "--difficulty", "random", "--delay", "0"]
    terminal = spawn(tmp_path, *quick, "--seed", "3")
    try:
        terminal.wait_for("the person's turn", lambda text: "Draw a card (d)" in text)
        terminal.child.send("d")
        terminal.wait_for("the prompt after drawing", lambda text: "Draw a card (d)" not in text)
        terminal.child.send("q")
        assert terminal.wait_for_exit() == 0
        # a new game on the new-game screen: it asks, and keeps the first game
        terminal = spawn(tmp_path, "--delay", "0")
        terminal.wait_for("the new-game screen", lambda text: "Saved game: hand 1" in text)
        terminal.child.send("\x13")  # Ctrl+S: Play
        terminal.wait_for("the question", lambda text: "game in progress" in text)
        terminal.child.send("\r")  # the first choice: start the new game
        terminal.wait_for("the new game", lambda text: "Your hand" in text)
        terminal.child.send("q")
        assert terminal.wait_for_exit() == 0
        # next time both are offered
        terminal = spawn(tmp_path, "--delay", "0")
        terminal.wait_for("both games", lambda text: "2 unfinished games" in text)
        terminal.child.send("\x12")  # Ctrl+R: Resume lists them
        terminal.wait_for("the list", lambda text: "Go on with which game?" in text)
        terminal.child.send("\x1b")
        terminal.child.send("\x1b")
        assert terminal.wait_for_exit() == 0
    finally:
        if terminal.child.isalive():
            terminal.child.terminate(force=True)
    kept = list((tmp_path / "games").glob("*.json"))
    assert len(kept) == 1 and loads(kept[0].read_text()).seed == 3

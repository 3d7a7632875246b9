"""The terminal game ends once its terminal hangs up (phase10.tui.terminal)."""

from __future__ import annotations

import io
import os
import sys
import threading

import pytest

from phase10.tui.terminal import terminal_lost, watch_terminal


def test_the_watch_calls_on_lost_once_the_terminal_hangs_up() -> None:
    main, side = os.openpty()
    lost = threading.Event()
    try:
        thread = watch_terminal(side, interval=0.01, on_lost=lost.set)
        assert thread is not None and thread.daemon
        assert not terminal_lost(side) and not lost.is_set()
        os.close(main)  # the window closes: the terminal hangs up
        assert lost.wait(10)
        thread.join(10)
        assert not thread.is_alive()  # it watches no more once it has called on_lost
    finally:
        os.close(side)


def test_no_watch_without_a_terminal() -> None:
    read, write = os.pipe()
    try:
        assert watch_terminal(read, on_lost=lambda: None) is None
    finally:
        os.close(read)
        os.close(write)
    assert watch_terminal(-1, on_lost=lambda: None) is None


def test_no_watch_when_standard_input_is_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO()))  # as CliRunner has it
    assert watch_terminal(on_lost=lambda: None) is None
    monkeypatch.setattr(sys, "stdin", None)
    assert watch_terminal(on_lost=lambda: None) is None

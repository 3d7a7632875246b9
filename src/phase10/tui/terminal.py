"""Ending a terminal game whose terminal is gone.

A closed window or a dropped connection hangs the terminal up. The process is told by
SIGHUP, but not always: run under ``make``, which does not pass the signal on, it never
hears. Textual's input thread then reads end-of-file in a busy loop and the app can never
draw or exit, so the game would spin a CPU core until someone kills it. A small thread
watches the terminal instead and ends the process once it has hung up. Every move is
saved as it is made (atomically, and the process never ends mid-save), so nothing is
lost; the game goes on with ``phase10 play --resume``.
"""

from __future__ import annotations

import os
import sys
import termios
import threading
import time
from collections.abc import Callable

from .files import WRITING

__all__ = ["terminal_lost", "watch_terminal"]

#: the exit status of a process ended by its terminal's hangup (128 + SIGHUP)
HUNG_UP = 129


def terminal_lost(fd: int) -> bool:
    """Whether the terminal on ``fd`` has hung up (or ``fd`` is no longer open).

    >>> import os
    >>> main, side = os.openpty()
    >>> terminal_lost(side)
    False
    >>> os.close(main)
    >>> terminal_lost(side)
    True
    >>> os.close(side)
    """
    try:
        termios.tcgetattr(fd)
    except (termios.error, OSError):
        return True
    return False


def _leave() -> None:
    WRITING.acquire(timeout=10)  # (not in the middle of a save, which would leave its temp)
    os._exit(HUNG_UP)  # (the app's own exit needs the terminal it has lost)


def watch_terminal(
    fd: int | None = None, interval: float = 1.0, on_lost: Callable[[], None] = _leave
) -> threading.Thread | None:
    """Watch the terminal on ``fd`` (standard input) every ``interval`` seconds from a
    daemon thread, and call ``on_lost`` (end the process) once it has hung up. None, and
    no thread, when ``fd`` is not a terminal to begin with."""
    if fd is None:
        try:
            fd = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):  # none, or no file (a test's stand-in)
            return None
    if fd < 0 or not os.isatty(fd) or terminal_lost(fd):
        return None

    def watch() -> None:
        while not terminal_lost(fd):
            time.sleep(interval)
        on_lost()

    thread = threading.Thread(target=watch, name="phase10-terminal-watch", daemon=True)
    thread.start()
    return thread

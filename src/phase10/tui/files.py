"""Writing the terminal game's files (saved games, settings) so that none is ever half
written.

Each file is written to a temporary file beside it and then renamed over it, which the
operating system does in one step: a reader sees the old file or the new one, never a
mix. The write holds :data:`WRITING`, which the hangup watch (:mod:`phase10.tui.terminal`)
takes before it ends the process, so the process never ends between the two steps and
leaves its temporary file behind. A temporary file left by a process killed outright is
swept away by the next write to the same folder, once it is an hour old.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> write_atomically(folder / "game.json", '{"moves": 3}\\n', prefix=".save-")
>>> (folder / "game.json").read_text()
'{"moves": 3}\\n'
>>> sorted(path.name for path in folder.iterdir())
['game.json']
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import IO, Final

__all__ = [
    "SAVE_PREFIX",
    "STALE_AFTER",
    "WRITING",
    "SaveInUse",
    "claim",
    "copy_aside",
    "write_atomically",
]

#: held while a file is being written; whoever ends the process abruptly takes it first
WRITING: Final = threading.Lock()
#: how a saved game's temporary file is named
SAVE_PREFIX: Final = ".save-"
#: seconds after which a temporary file is taken as left by a process that was killed
STALE_AFTER: Final = 3600.0


def write_atomically(path: Path, text: str, *, prefix: str) -> None:
    """Write ``text`` to ``path`` in one step, through a temporary file named ``prefix``
    and something random in the same folder (made if missing). An :class:`OSError`
    leaves the old file as it was and no temporary file behind. A symbolic link is
    followed (its target is written, the link kept), and the old file's permissions kept."""
    path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    with WRITING:
        _sweep(path.parent, prefix)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            with contextlib.suppress(FileNotFoundError):
                os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def _sweep(folder: Path, prefix: str) -> None:
    """Remove this kind of temporary file older than :data:`STALE_AFTER` from ``folder``."""
    now = time.time()
    for stray in folder.glob(f"{prefix}*"):  # (earlier versions' ended .json or nothing)
        try:
            if now - stray.stat().st_mtime > STALE_AFTER:
                stray.unlink()
        except OSError:  # (gone already, or not ours to remove)
            continue


class SaveInUse(Exception):
    """Another game saves to this file: two would overwrite each other's moves."""


#: the locks this process holds, by the file each guards (each for as long as it runs)
_CLAIMED: dict[Path, IO[bytes]] = {}


def claim(path: Path) -> None:
    """Hold ``path`` for this process until it ends (an advisory lock on a hidden file
    beside it), so that a second game saving to the same file is refused rather than
    writing over the first one's moves. Raises :class:`SaveInUse` when another process
    holds it; where locks cannot be taken (no such folder yet, a read-only one, a system
    without ``fcntl``), nothing is held and saving says what is wrong in its turn."""
    try:
        import fcntl
    except ImportError:  # (not on this system)
        return
    lock = path.with_name(f".{path.name}.lock")
    if lock.resolve() in _CLAIMED:  # (this process's already: a game after another)
        return
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        handle = open(os.open(lock, os.O_RDWR | os.O_CREAT, 0o600), "r+b")  # noqa: SIM115
    except OSError:
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise SaveInUse(
            f"another phase10 game is saving to {path}: two games saving to one file would "
            "lose each other's moves. Go on there, or quit it first; to play another game "
            "alongside, give this one a file of its own: --save-file FILE"
        ) from None
    except OSError:  # (a file system without locks)
        handle.close()
        return
    _CLAIMED[lock.resolve()] = handle


def copy_aside(path: Path, folder: Path) -> Path:
    """``path`` copied byte for byte into ``folder`` (made if need be), named as unreadable
    (``autosave-unreadable-20261128-142301.json``), never over another file: a save this
    version cannot read, kept before a new game takes its place. Raises OSError."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = folder / f"{path.stem}-unreadable-{stamp}{path.suffix}"
    number = 1
    while kept.exists():
        number += 1
        kept = folder / f"{path.stem}-unreadable-{stamp}-{number}{path.suffix}"
    shutil.copyfile(path, kept)
    return kept

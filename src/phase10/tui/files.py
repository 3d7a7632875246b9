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

import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Final

__all__ = ["SAVE_PREFIX", "STALE_AFTER", "WRITING", "write_atomically"]

#: held while a file is being written; whoever ends the process abruptly takes it first
WRITING: Final = threading.Lock()
#: how a saved game's temporary file is named
SAVE_PREFIX: Final = ".save-"
#: seconds after which a temporary file is taken as left by a process that was killed
STALE_AFTER: Final = 3600.0


def write_atomically(path: Path, text: str, *, prefix: str) -> None:
    """Write ``text`` to ``path`` in one step, through a temporary file named ``prefix``
    and something random in the same folder (made if missing). An :class:`OSError`
    leaves the old file as it was and no temporary file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with WRITING:
        _sweep(path.parent, prefix)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
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

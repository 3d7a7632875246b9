"""The ``phase10`` command line: ``check``, ``score``, ``phases``, ``rules``, ``demo``.

It needs the ``cli`` extra (typer and rich); :func:`main` says so plainly when they
are missing. The modules that compute the answers (:mod:`.hands`, :mod:`.demo`) need
neither.
"""

from __future__ import annotations

import errno
import os
import sys

__all__ = ["MISSING_EXTRA", "main"]

#: What :func:`main` prints when typer or rich is not installed.
MISSING_EXTRA = "the command line needs the 'cli' extra: pip install 'phase10[cli]'"
_EXTRA_MODULES = frozenset({"typer", "rich", "click"})
#: write errors that mean the output has nowhere to go
_FULL = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO})


def main(argv: list[str] | None = None) -> None:
    """Run the command line on ``argv`` (default: the process's arguments); exits."""
    try:
        from .app import app
    except ImportError as error:
        if (error.name or "").partition(".")[0] not in _EXTRA_MODULES:
            raise
        print(MISSING_EXTRA, file=sys.stderr)
        raise SystemExit(1) from None
    try:
        app(args=argv, prog_name="phase10")
    except OSError as error:
        if error.errno not in _FULL:
            raise
        # The output could not be written (a full disk, /dev/full): say so in one line,
        # and send what is still buffered nowhere, so that exiting does not fail again.
        print(f"error: cannot write the output: {error.strerror}", file=sys.stderr)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None

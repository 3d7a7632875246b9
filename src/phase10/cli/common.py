"""What every command shares: how it fails on bad input, how it prints JSON and how it
names a command to type next."""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer

from phase10.core import is_plain_number
from phase10.core.codec import RecordError

__all__ = [
    "MAX_DELAY",
    "check_output_file",
    "command_from_here",
    "count",
    "fail",
    "plot_format",
    "print_json",
    "read_dice_phase",
    "refuse_unknown_options",
]


def command_from_here(script: str, arguments: str) -> str:
    """The command to type for ``phase10 ARGUMENTS``, written so that it works from here:
    ``phase10`` only when that is what the shell finds, else the script's own path (``make
    play`` runs ``.venv/bin/phase10``, which is not on PATH until the virtualenv is
    activated), or ``python -m phase10.cli`` when run as a module."""
    path = Path(script)
    if path.name != "phase10":  # run as python -m phase10.cli
        return f"{_shown(Path(sys.executable))} -m phase10.cli {arguments}"
    found = shutil.which("phase10")
    if found is not None and Path(found).resolve() == path.resolve():
        return f"phase10 {arguments}"
    return f"{_shown(path)} {arguments}"


def _shown(path: Path) -> str:
    """A path as short as it can be written from the current directory."""
    try:
        return str(path.absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(path.absolute())


#: the longest pause before or after a computer's move, in seconds (inf would never end)
MAX_DELAY = 60.0


def fail(message: str) -> NoReturn:
    """Print ``error: message`` to standard error and exit with status 2 (bad input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def fail_unsaved(problem: str, path: Path) -> NoReturn:
    """On leaving a game whose last moves could not be saved (a full disk, still): say so,
    and what the file holds, and exit with status 1."""
    typer.echo(
        f"error: the game's last moves could not be saved ({problem}); {path} holds it "
        "as it was at the last save that worked",
        err=True,
    )
    raise typer.Exit(1)


def read_dice_phase(text: str) -> int:
    """A Phase 10 Dice phase's number, 1 to 10, from the command line (exit 2 if not)."""
    if not is_plain_number(text.strip().lstrip("-")):
        fail(f"{text!r} is not a phase: give its number, 1 to 10")
    number = int(text)
    if not 1 <= number <= 10:
        fail(f"phases run from 1 to 10, not {number}")
    return number


def refuse_unknown_options(command: str, arguments: Iterable[str]) -> None:
    """Fail on an option typo among the arguments of a command that reads unknown options
    as arguments (so that a phase number may be negative, and be told why it is wrong).
    """
    for text in arguments:
        if re.match(r"--?[A-Za-z]", text):  # not a negative number
            fail(f"no such option: {text} (see phase10 {command} --help)")


def count(number: int, noun: str) -> str:
    """``"1 game"``, ``"40 games"``, ``"1,000,000 deals"``."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2))


def check_output_file(path: Path, option: str) -> None:
    """Fail with a clear message unless ``path`` is a file this process can write (checked
    before a long run, so the run's results are not lost to a bad path at its end).
    An existing file is left as it was; a new one is not left behind.
    """
    if path.is_dir():
        fail(f"{option}: {str(path)!r} is a folder, not a file")
    if not path.parent.is_dir():
        fail(f"{option}: there is no folder {str(path.parent)!r}")
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as error:
        fail(f"{option}: cannot write {str(path)!r}: {error.strerror or error}")
    if not existed:
        path.unlink(missing_ok=True)


def plot_format(path: Path) -> str:
    """The file type a ``--plot`` chart is written as: the name's suffix, which must be one
    matplotlib writes (``.png`` when the name has none); :class:`ValueError` if it is not.
    """
    from matplotlib.figure import Figure

    formats = Figure().canvas.get_supported_filetypes()
    suffix = path.suffix.lower().removeprefix(".") or "png"
    if suffix not in formats:
        raise ValueError(
            f"--plot writes .{', .'.join(sorted(formats))} files (.png when the name has no "
            f"ending), not {path.name!r}"
        )
    return suffix


@contextmanager
def reading_record(file: Path) -> Iterator[None]:
    """Fail (exit 2) with what is wrong when reading the game record ``file`` fails: no
    such file, unreadable, not UTF-8, or not a record."""
    try:
        yield
    except FileNotFoundError:
        fail(f"there is no file {file}")
    except OSError as error:
        fail(f"cannot read {file}: {error.strerror}")
    except UnicodeDecodeError:
        fail(f"{file} is not a game record: it is not UTF-8 text")
    except RecordError as error:
        fail(f"{file} is not a game record: {error}")

"""The person's settings, remembered between games in ``settings.json`` in the data directory:
colour-blind mode, how the hand is sorted, how fast the computer plays, the opponents'
difficulty and number, undo, and the name at the table. Flags on the command line override
them for one game; a file that cannot be read is reported and the defaults are used (a
setting that cannot be used alone goes back to its default, the others kept).

>>> prefs = Preferences.from_dict({"colour_blind": True, "sort_by": "colour"})
>>> prefs.colour_blind, prefs.sort_by, prefs.bot_delay
(True, 'colour', 0.4)
>>> Preferences.from_dict({"sort_by": "size"})
Traceback (most recent call last):
...
phase10.tui.preferences.PreferencesError: sort_by is 'number' or 'colour', not 'size'
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from phase10.bots.registry import DEFAULT_BOT

from .files import write_atomically
from .session import SessionError, Settings, data_dir

__all__ = [
    "BOT_SPEEDS",
    "Preferences",
    "PreferencesError",
    "load_preferences",
    "next_speed",
    "preferences_path",
    "save_preferences",
]

#: the pauses after each computer move that the speed key steps through (seconds, name)
BOT_SPEEDS = ((0.0, "instant"), (0.4, "normal"), (1.0, "slow"))
#: the longest pause a settings file may ask for (as ``phase10 play --delay``)
MAX_DELAY = 60.0


class PreferencesError(ValueError):
    """A settings file that cannot be used (its message says which setting and why)."""


@dataclass(frozen=True, slots=True)
class Preferences:
    """What is remembered; the defaults are those of ``phase10 play`` without flags."""

    name: str = "You"
    opponents: int = 3
    difficulty: str = DEFAULT_BOT
    undo: bool = True
    colour_blind: bool = False
    sort_by: str = "number"
    bot_delay: float = 0.4

    @staticmethod
    def from_dict(data: Any) -> Preferences:
        """Read the settings; a missing one takes its default, an unknown one is ignored
        (a newer version may write more), a bad one raises :class:`PreferencesError`."""
        if not isinstance(data, dict):
            raise PreferencesError("the settings file must hold a JSON object")
        known = {item.name for item in fields(Preferences)}
        values = {key: value for key, value in data.items() if key in known}
        prefs = replace(Preferences(), **values)
        prefs.check()
        return prefs

    def check(self) -> None:
        for name in ("name", "difficulty"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise PreferencesError(f"{name} must be some text, not {getattr(self, name)!r}")
        for name in ("undo", "colour_blind"):
            if not isinstance(getattr(self, name), bool):
                raise PreferencesError(f"{name} is true or false, not {getattr(self, name)!r}")
        if (
            not isinstance(self.opponents, int)
            or isinstance(self.opponents, bool)
            or not 1 <= self.opponents <= 5
        ):
            raise PreferencesError(f"opponents is 1 to 5, not {self.opponents!r}")
        try:
            Settings(self.name, self.opponents, self.difficulty, undo=self.undo).validate()
        except SessionError as error:
            raise PreferencesError(str(error)) from None
        if self.sort_by not in ("number", "colour"):
            raise PreferencesError(f"sort_by is 'number' or 'colour', not {self.sort_by!r}")
        delay = self.bot_delay
        if (
            not isinstance(delay, (int, float))
            or isinstance(delay, bool)
            or not math.isfinite(delay)
            or not 0 <= delay <= MAX_DELAY
        ):
            raise PreferencesError(f"bot_delay is 0 to {MAX_DELAY:g} seconds, not {delay!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def preferences_path() -> Path:
    return data_dir() / "settings.json"


def load_preferences(path: Path | None = None) -> tuple[Preferences, str | None]:
    """The remembered settings, and why they could not be read (None: they could, or there
    are none yet). Never raises: unreadable settings give the defaults and a message."""
    path = path or preferences_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Preferences(), None
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        return Preferences(), f"could not read the settings in {path} ({reason}): using defaults"
    try:
        data = json.loads(text)
        return Preferences.from_dict(data), None
    except json.JSONDecodeError as error:
        problem = f"it is not JSON: {error.msg} at line {error.lineno}"
    except PreferencesError as error:
        problem = str(error)
        if isinstance(data, dict):  # one bad setting: the others are kept
            kept, dropped = _salvage(data)
            whose = "its" if len(dropped) == 1 else "their"
            return kept, (
                f"the settings in {path} are partly unusable ({problem}): "
                f"{', '.join(dropped)} back to {whose} default, the others kept"
            )
    return Preferences(), f"the settings in {path} are unusable ({problem}): using defaults"


def _salvage(data: dict[str, Any]) -> tuple[Preferences, list[str]]:
    """The usable settings of ``data`` over the defaults, and the names of those left out."""
    prefs, dropped = Preferences(), []
    for item in fields(Preferences):
        if item.name not in data:
            continue
        candidate = replace(prefs, **{item.name: data[item.name]})
        try:
            candidate.check()
        except PreferencesError:
            dropped.append(item.name)
            continue
        prefs = candidate
    return prefs, dropped


def save_preferences(prefs: Preferences, path: Path | None = None) -> str | None:
    """Write the settings atomically; returns why they could not be (None: saved)."""
    path = path or preferences_path()
    try:
        text = json.dumps(prefs.to_dict(), indent=2) + "\n"
        write_atomically(path, text, prefix=".settings-")
    except OSError as error:
        return f"could not save the settings to {path}: {error.strerror or error}"
    return None


def next_speed(delay: float) -> tuple[float, str]:
    """The speed after ``delay`` in :data:`BOT_SPEEDS`, round again after the last.

    >>> next_speed(0.4), next_speed(1.0), next_speed(7.0)
    ((1.0, 'slow'), (0.0, 'instant'), (0.0, 'instant'))
    """
    for index, (seconds, _) in enumerate(BOT_SPEEDS):
        if delay < seconds or math.isclose(delay, seconds):
            if math.isclose(delay, seconds):
                return BOT_SPEEDS[(index + 1) % len(BOT_SPEEDS)]
            return BOT_SPEEDS[index]
    return BOT_SPEEDS[0]

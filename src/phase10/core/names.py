"""Players' names: one reading for every interface, so that no name can pass for another.

A name is shown beside cards, in logs and in lists of seats, often on one line with
other text. :func:`check_name` gives the form it is kept in (NFC, trimmed, inner
spaces made single) and refuses what could deceive: control and format characters
(bidirectional overrides, zero-width characters, U+0085), invisible fillers, stacks of
combining marks, the markers the interfaces add to names ("(you)", "▶"), and a name
another player at the table already has, whatever its case or width.

>>> check_name("  Ann  Lee ")
'Ann Lee'
>>> check_name("Bob (you)")
Traceback (most recent call last):
...
phase10.core.names.PlayerNameError: a name cannot contain '(you)': the table shows it beside names
>>> check_name("ann", taken=["Ann", "Bob"])
Traceback (most recent call last):
...
phase10.core.names.NameTakenError: the name 'ann' is taken at this table
>>> check_name("Al\\u202eice")
Traceback (most recent call last):
...
phase10.core.names.PlayerNameError: a name cannot hold the invisible or control character U+202E
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Final

__all__ = [
    "MAX_NAME_LENGTH",
    "NAME_MARKERS",
    "NameTakenError",
    "PlayerNameError",
    "check_name",
    "name_key",
]

#: the longest name, in characters once normalised
MAX_NAME_LENGTH: Final = 24
#: what the interfaces write beside or before a name: a name holding one would pass for it
NAME_MARKERS: Final = ("(you)", "(host)", "(bot)", "(away)", "▶", "★")
#: categories refused anywhere in a name: control, format (bidi overrides, zero-width),
#: surrogates, private use, unassigned, and line and paragraph separators
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern)
_INVISIBLE: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: combining marks one character may carry (more stack up over the lines around it)
_MAX_MARKS: Final = 2


class PlayerNameError(ValueError):
    """A name refused; the message says why, in words a player understands."""


class NameTakenError(PlayerNameError):
    """A name another player at the table already has (in any case or width)."""


def name_key(name: str) -> str:
    """The form two names are compared in: the same letters in any case or width match."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(text: object, taken: Iterable[str] = ()) -> str:
    """The name as it is kept, or :class:`PlayerNameError` saying why it is refused.

    ``taken`` are the names already at the table (compared by :func:`name_key`).
    """
    if not isinstance(text, str):
        raise PlayerNameError(f"a name is text, not {type(text).__name__}")
    name = unicodedata.normalize("NFC", text)
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _INVISIBLE:
            raise PlayerNameError(
                f"a name cannot hold the invisible or control character U+{ord(char):04X}"
            )
    name = " ".join(name.split())  # every run of spaces (of any width) becomes one space
    if not name:
        raise PlayerNameError("a name needs at least one letter, digit or sign")
    if len(name) > MAX_NAME_LENGTH:
        raise PlayerNameError(f"a name has at most {MAX_NAME_LENGTH} characters, not {len(name)}")
    if not any(unicodedata.category(char)[0] in "LNPS" for char in name):
        raise PlayerNameError("a name needs at least one letter, digit or sign")
    marks = 0
    for char in name:
        marks = marks + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if marks > _MAX_MARKS:
            raise PlayerNameError(f"a name cannot stack more than {_MAX_MARKS} accents on a letter")
    key = name_key(name)
    for marker in NAME_MARKERS:
        if name_key(marker) in key:
            raise PlayerNameError(
                f"a name cannot contain {marker!r}: the table shows it beside names"
            )
    if any(name_key(other) == key for other in taken):
        raise NameTakenError(f"the name {name!r} is taken at this table")
    return name

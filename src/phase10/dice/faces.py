"""Phase 10 Dice: the ten dice, their faces and the notation of a face (docs/dice.md §1).

Six high dice show 5 to 10 and four low dice show 1, 2, 3, 4 and two Wilds; every face has
one of four colours. A face is written as its colour's letter and its value: ``O10``, ``B4``,
``GW`` (a green Wild). The colours of each die's faces are a data table, :data:`DICE`, as
published for the physical dice: a corrected table is a one-line change.

>>> face = Face.parse("o10")
>>> face, str(face), face.points
(Face.parse('O10'), 'O10', 10)
>>> parse_faces("R5 GW b4")
(Face.parse('R5'), Face.parse('GW'), Face.parse('B4'))
>>> assign_dice(parse_faces("G10 G10"))
(4, 0)
>>> assign_dice(parse_faces("G10 G10 G10"))
Traceback (most recent call last):
...
phase10.dice.faces.DiceError: no roll shows G10 G10 G10: only 2 dice have a G10 face
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from phase10.core.matching import match

__all__ = [
    "DICE",
    "DICE_COUNT",
    "HIGH_DICE",
    "LOW_DICE",
    "Colour",
    "DiceError",
    "Die",
    "Face",
    "assign_dice",
    "format_faces",
    "parse_faces",
]


class DiceError(ValueError):
    """Dice or faces written in a notation the game cannot read, or that no roll shows."""


class Colour(StrEnum):
    """The four colours of the dice's faces (orange, where the cards have yellow)."""

    RED = "R"
    ORANGE = "O"
    GREEN = "G"
    BLUE = "B"

    @property
    def display_name(self) -> str:
        return self.name.lower()


#: a Wild's value: it stands for any number in sets and runs, and scores nothing
WILD_VALUE: Final = 0

_NOTATION = re.compile(r"^([ROGB])(10|[1-9]|W)$")


@dataclass(frozen=True, slots=True, order=True)
class Face:
    """One face of a die: a colour and a value from 1 to 10, or a Wild (value 0)."""

    colour: Colour
    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise DiceError(f"a face's colour is R, O, G or B, not {self.colour!r}")
        if not isinstance(self.value, int) or not 0 <= self.value <= 10:
            raise DiceError(f"a face's value runs from 1 to 10 (0 for a Wild), not {self.value!r}")

    @property
    def is_wild(self) -> bool:
        return self.value == WILD_VALUE

    @property
    def points(self) -> int:
        """What the face scores when used in a phase: its value; a Wild scores 0."""
        return self.value

    @staticmethod
    def parse(text: str) -> Face:
        """Read a face: a colour letter R, O, G or B, then 1-10 or W; case is ignored."""
        if not isinstance(text, str):
            raise DiceError(f"a face is written as text such as 'O10', not {text!r}")
        match = _NOTATION.match(text.strip().upper())
        if match is None:
            raise DiceError(
                f"{text.strip()!r} is not a die face: write a colour letter R, O, G or B and "
                "a value 1-10 or W (like O10, B4 or GW)"
            )
        value = WILD_VALUE if match.group(2) == "W" else int(match.group(2))
        return Face(Colour(match.group(1)), value)

    def __str__(self) -> str:
        return f"{self.colour.value}{'W' if self.is_wild else self.value}"

    def __repr__(self) -> str:
        return f"Face.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Die:
    """One of the ten dice: its name (``H1``-``H6`` high, ``L1``-``L4`` low) and six faces."""

    name: str
    faces: tuple[Face, ...]

    @property
    def is_high(self) -> bool:
        return self.name.startswith("H")


def _die(name: str, values: str, colours: str) -> Die:
    faces = tuple(
        Face.parse(colour + value)
        for value, colour in zip(values.split(), colours.split(), strict=True)
    )
    return Die(name, faces)


_HIGH = "5 6 7 8 9 10"
_LOW = "1 2 3 4 W W"

#: The ten dice, as published for the physical game: (name, values, colours in face order).
DICE: Final[tuple[Die, ...]] = (
    _die("H1", _HIGH, "R O B G O G"),
    _die("H2", _HIGH, "G R G O B R"),
    _die("H3", _HIGH, "O B R B G O"),
    _die("H4", _HIGH, "R G O B R B"),
    _die("H5", _HIGH, "B B R O R G"),
    _die("H6", _HIGH, "B O G R G O"),
    _die("L1", _LOW, "B G O G R O"),
    _die("L2", _LOW, "R B G O B O"),
    _die("L3", _LOW, "O R R B G B"),
    _die("L4", _LOW, "G O B R R G"),
)
#: How many dice a turn rolls.
DICE_COUNT: Final = len(DICE)
#: The indices of the high and the low dice in :data:`DICE`.
HIGH_DICE: Final = tuple(i for i, die in enumerate(DICE) if die.is_high)
LOW_DICE: Final = tuple(i for i, die in enumerate(DICE) if not die.is_high)

_SEPARATORS = re.compile(r"[\s,]+")


def parse_faces(text: str | Iterable[str]) -> tuple[Face, ...]:
    """Read faces separated by spaces or commas, in any case (each token checked)."""
    if isinstance(text, str):
        tokens = [token for token in _SEPARATORS.split(text) if token]
    elif isinstance(text, Iterable):
        tokens = [token for token in text if not isinstance(token, str) or token.strip()]
    else:
        raise DiceError(f"faces are written as text such as 'O10 B4 GW', not {text!r}")
    return tuple(Face.parse(token) for token in tokens)


def format_faces(faces: Iterable[Face]) -> str:
    """Faces in notation, separated by spaces (the inverse of :func:`parse_faces`)."""
    return " ".join(str(face) for face in faces)


def _match(faces: Sequence[Face], dice: Sequence[int]) -> list[int] | None:
    """A die for each face (Kuhn's augmenting paths over at most ten dice), or None."""
    owner = match(range(len(faces)), dice, lambda face, die: faces[face] in DICE[die].faces)
    if owner is None:  # (die -> face index)
        return None
    by_face = {face: die for die, face in owner.items()}
    return [by_face[face] for face in range(len(faces))]


def assign_dice(
    faces: Sequence[Face], dice: Sequence[int] = tuple(range(DICE_COUNT))
) -> tuple[int, ...]:
    """The die showing each face (indices into :data:`DICE`), chosen among ``dice``; a
    :class:`DiceError` naming the faces when no roll of those dice can show them all."""
    if len(faces) > len(dice):
        raise DiceError(f"{len(faces)} faces, but only {len(dice)} dice to show them")
    found = _match(faces, dice)
    if found is not None:
        return tuple(found)
    counts = Counter(faces)

    def article(face: Face) -> str:  # "an R1", "an O10" (said "ar", "oh"), "a G10"
        return "an" if face.colour in (Colour.RED, Colour.ORANGE) else "a"

    for face, count in counts.items():
        carriers = sum(1 for die in dice if face in DICE[die].faces)
        if count > carriers:
            shown = format_faces([face] * count)
            dice_word = "die has" if carriers == 1 else "dice have"
            if carriers == 0:
                raise DiceError(f"no roll shows {face}: no die has {article(face)} {face} face")
            raise DiceError(
                f"no roll shows {shown}: only {carriers} {dice_word} {article(face)} {face} face"
            )
    raise DiceError(f"no roll of the dice shows {format_faces(faces)} together")

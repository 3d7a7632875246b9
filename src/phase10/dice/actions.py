"""Phase 10 Dice actions, as frozen values with a text form that parses back (docs/dice.md §3).

==================  ===========================================================
text                action
==================  ===========================================================
``roll``            roll every die not set aside (a turn's first roll: all ten)
``keep H3 L1``      set dice aside, named by die (``H1``-``H6``, ``L1``-``L4``)
``unkeep H3``       take dice set aside back, to be rolled again
``score``           complete the phase the best-scoring way the dice allow
``score H1 H2 ...`` complete the phase with these dice (exactly the phase's count)
``pass``            end the turn without the phase (only when the dice do not make it)
==================  ===========================================================

Dice may also be named by the face they show (``keep O10 B4``) when the dice showing
are known (:meth:`DiceGame.parse_action <phase10.dice.game.DiceGame.parse_action>`): a face
names a die when just one die that may be named shows it (or every such die is named);
where two dice show it, name the die. The text form always names dice.

>>> parse_action("KEEP h3 l1")
Keep(dice=(2, 6))
>>> str(parse_action("score l4 h1"))
'score H1 L4'
>>> from phase10.dice.faces import parse_faces
>>> showing = parse_faces("R5 G5 B7 B7 R9 G9 B1 B2 OW GW")
>>> str(parse_action("keep R9 GW", showing))
'keep H5 L4'
>>> parse_action("keep B7", showing)
Traceback (most recent call last):
...
phase10.dice.errors.InvalidDiceActionError: 2 dice you may keep show B7 (H3 and H4): name the one you mean, like 'keep H3'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from .errors import InvalidDiceActionError
from .faces import DICE, DiceError, Face

__all__ = [
    "DiceAction",
    "Keep",
    "Pass",
    "Roll",
    "Score",
    "Unkeep",
    "die_index",
    "die_names",
    "parse_action",
]

_NAMES = {die.name: index for index, die in enumerate(DICE)}


def die_index(name: str) -> int:
    """The index in :data:`~phase10.dice.faces.DICE` of the die named ``name`` (any case)."""
    index = _NAMES.get(name.strip().upper()) if isinstance(name, str) else None
    if index is None:
        raise InvalidDiceActionError(
            f"{name!r} is not a die: the dice are H1-H6 (high) and L1-L4 (low)"
        )
    return index


def die_names(dice: Sequence[int]) -> str:
    """``"H3 L1"``: the dice's names, separated by spaces."""
    return " ".join(DICE[index].name for index in dice)


def _dice(dice: Sequence[int], verb: str) -> tuple[int, ...]:
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Sequence):
        raise InvalidDiceActionError(f"{verb} names dice by index, not {dice!r}")
    for index in dice:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(DICE):
            raise InvalidDiceActionError(f"a die's index runs from 0 to 9, not {index!r}")
    if len(set(dice)) != len(dice):
        twice = next(DICE[i].name for i, n in Counter(dice).items() if n > 1)
        raise InvalidDiceActionError(f"{twice} is named twice")
    return tuple(sorted(dice))


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll every die not set aside (the turn's first roll rolls all ten)."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Keep:
    """Set dice aside (indices into :data:`~phase10.dice.faces.DICE`, in order)."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", _dice(self.dice, "keep"))
        if not self.dice:
            raise InvalidDiceActionError("name the dice to keep, like 'keep H3 L1'")

    def __str__(self) -> str:
        return f"keep {die_names(self.dice)}"


@dataclass(frozen=True, slots=True)
class Unkeep:
    """Take dice set aside back, so that the next roll rolls them."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", _dice(self.dice, "unkeep"))
        if not self.dice:
            raise InvalidDiceActionError("name the dice to take back, like 'unkeep H3'")

    def __str__(self) -> str:
        return f"unkeep {die_names(self.dice)}"


@dataclass(frozen=True, slots=True)
class Score:
    """Complete the phase: with ``dice`` (exactly the phase's count), or, when ``dice`` is
    None, the best-scoring way the ten dice showing allow."""

    dice: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.dice is not None:
            object.__setattr__(self, "dice", _dice(self.dice, "score"))

    def __str__(self) -> str:
        return "score" if self.dice is None else f"score {die_names(self.dice)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without completing the phase (the dice do not make it)."""

    def __str__(self) -> str:
        return "pass"


#: Every dice action (a closed union: a ``match`` over it ends in ``assert_never``).
DiceAction: TypeAlias = Roll | Keep | Unkeep | Score | Pass

_SEPARATORS = re.compile(r"[\s,]+")
_USAGE = "roll, keep DICE, unkeep DICE, score, score DICE or pass (dice like H3 L1)"
_WHERE = {"keep": "you may keep", "unkeep": "set aside", "score": "showing"}


def parse_action(
    text: str,
    showing: Sequence[Face | None] | None = None,
    kept: Collection[int] = (),
) -> DiceAction:
    """Read an action from its text. Faces (``keep O10``) are read against ``showing``
    (the face of each die, None before it is rolled) and ``kept`` (the dice set aside)."""
    if not isinstance(text, str):
        raise InvalidDiceActionError(f"an action's text must be a string, not {text!r}")
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    tokens = [token for token in _SEPARATORS.split(rest.strip()) if token]
    if verb in ("roll", "pass"):
        if tokens:
            raise InvalidDiceActionError(
                f"{verb!r} takes nothing after it, not {rest.strip()!r}"
                + (" (set aside the dice you do not want rolled)" if verb == "roll" else "")
            )
        return Roll() if verb == "roll" else Pass()
    if verb in ("keep", "unkeep", "score"):
        if not tokens:
            if verb == "score":
                return Score()
            raise InvalidDiceActionError(f"name the dice to {verb}, like '{verb} H3 L1'")
        dice = _read_dice(verb, tokens, showing, kept)
        if verb == "keep":
            return Keep(dice)
        return Unkeep(dice) if verb == "unkeep" else Score(dice)
    raise InvalidDiceActionError(f"unknown action {text.strip()!r}; actions are: {_USAGE}")


def _read_dice(
    verb: str, tokens: list[str], showing: Sequence[Face | None] | None, kept: Collection[int]
) -> tuple[int, ...]:
    named: list[int] = []
    faces: list[Face] = []
    for token in tokens:
        if token.upper() in _NAMES:
            named.append(_NAMES[token.upper()])
            continue
        try:
            faces.append(Face.parse(token))
        except DiceError:
            raise InvalidDiceActionError(
                f"{token!r} is neither a die (H1-H6, L1-L4) nor a face (like O10, B4, GW)"
            ) from None
    if faces:
        if showing is None or all(face is None for face in showing):
            raise InvalidDiceActionError(
                f"{faces[0]} names a die by its face, but no dice are showing: name the die"
            )
        if verb == "keep":
            candidates = [i for i in range(len(DICE)) if i not in kept]
        elif verb == "unkeep":
            candidates = [i for i in range(len(DICE)) if i in kept]
        else:
            candidates = list(range(len(DICE)))
        candidates = [i for i in candidates if i not in named]
        for face, count in Counter(faces).items():
            named += _dice_showing(verb, face, count, [i for i in candidates if showing[i] == face])
    return _dice(named, verb)


def _dice_showing(verb: str, face: Face, count: int, showing: list[int]) -> list[int]:
    """The dice ``count`` tokens ``face`` name among the dice ``showing`` it."""
    where = _WHERE[verb]
    if len(showing) < count:
        found = (
            "no die"
            if not showing
            else f"only {len(showing)} {'die' if len(showing) == 1 else 'dice'}"
        )
        raise InvalidDiceActionError(
            f"{found} {where} {'shows' if len(showing) < 2 else 'show'} {face}"
            + ("" if count == 1 else f" ({count} named)")
        )
    # a score uses a die's face alone; elsewhere the die matters (its other faces roll)
    alike = verb == "score" or len({DICE[i].faces for i in showing}) == 1
    if len(showing) > count and not alike:
        names = " and ".join(DICE[i].name for i in showing)
        raise InvalidDiceActionError(
            f"{len(showing)} dice {where} show {face} ({names}): name the one you mean, "
            f"like '{verb} {DICE[showing[0]].name}'"
        )
    return showing[:count]

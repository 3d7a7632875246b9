"""Why a Phase 10 Dice action was refused (docs/dice.md §3). Both kinds are :class:`ValueError`.

* :class:`InvalidDiceActionError`: malformed: it cannot be read, or names dice that do not
  exist or that no die showing matches.
* :class:`IllegalDiceActionError`: well formed, but against the rules now ("roll first").

Either way the game is left exactly as it was. Every refusal carries a stable
:class:`DiceRefusal` code beside its plain-English message.

>>> from phase10.dice.game import DiceGame
>>> game = DiceGame(["Ann", "Bob"], seed=3)
>>> try:
...     game.apply("keep H1")
... except IllegalDiceActionError as error:
...     print(error.code.value, "-", error)
roll_first - roll the dice first: a turn starts with a roll of all ten
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "DiceActionError",
    "DiceRefusal",
    "IllegalDiceActionError",
    "InvalidDiceActionError",
]


class DiceRefusal(StrEnum):
    """Why a dice action was refused: one code per distinct refusal (stable values)."""

    #: the action cannot be read, or names dice no die showing matches
    MALFORMED = "malformed"
    #: the game has ended
    GAME_OVER = "game_over"
    #: keep, unkeep, score or pass before the turn's first roll
    ROLL_FIRST = "roll_first"
    #: a roll, keep or unkeep after the turn's third roll
    NO_ROLLS_LEFT = "no_rolls_left"
    #: a keep of a die already set aside
    ALREADY_KEPT = "already_kept"
    #: an unkeep of a die that is not set aside
    NOT_KEPT = "not_kept"
    #: a score of dice that do not make the player's phase
    NOT_THE_PHASE = "not_the_phase"
    #: a score naming more or fewer dice than the phase uses
    WRONG_COUNT = "wrong_count"
    #: a pass when the dice make the phase (a phase made is completed)
    PHASE_MADE = "phase_made"


class DiceActionError(ValueError):
    """A refused dice action: ``code`` says which rule, the message says why in words."""

    code: DiceRefusal

    def __init__(self, code: DiceRefusal, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[object, ...]:
        return _rebuild, (type(self), self.code, str(self))


def _rebuild(cls: type[DiceActionError], code: DiceRefusal, message: str) -> DiceActionError:
    error = cls.__new__(cls)
    DiceActionError.__init__(error, code, message)
    return error


class InvalidDiceActionError(DiceActionError):
    """An action that cannot be read; its code is :attr:`DiceRefusal.MALFORMED`."""

    def __init__(self, message: str) -> None:
        super().__init__(DiceRefusal.MALFORMED, message)


class IllegalDiceActionError(DiceActionError):
    """A well-formed action the rules do not allow now."""

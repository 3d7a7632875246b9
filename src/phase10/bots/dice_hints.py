"""A Phase 10 Dice hint: what the optimal dice bot would do now, the dice it would have set
aside before the next roll, and why. The terminal game's ``?`` and the browser's Hint
button show this same hint.

>>> from phase10.dice import DiceGame
>>> game = DiceGame(["Ann", "Bob"], seed=4)
>>> _ = game.apply("roll")
>>> hint = dice_hint(game.view(game.current))
>>> str(hint.action), hint.keep
('keep H1 H3 H4 H6 L4', (0, 2, 3, 5, 9))
>>> hint_text(hint)
'Hint: keep H1 H3 H4 H6 L4, roll the rest. The phase is made this turn 98% of the time, the best chance.'
>>> dice_hint(game.view(1 - game.current))
Traceback (most recent call last):
...
ValueError: a hint is for the player to move
"""

from __future__ import annotations

from phase10.dice import DiceView, die_names

from .dice import DiceHint, OptimalDicePlayer

__all__ = ["dice_hint", "hint_text"]


def dice_hint(view: DiceView) -> DiceHint:
    """The hint for the player whose view this is (the exact solver's keep: a lookup once
    the phase's tables are computed); ValueError when it is not their turn."""
    if not view.is_my_turn:
        raise ValueError("a hint is for the player to move")
    return OptimalDicePlayer().hint(view)


def hint_text(hint: DiceHint) -> str:
    """The hint in one sentence, its dice by name (``Hint: keep H1 H3, roll the rest. ...``)."""
    if hint.keep is None:
        return f"Hint: {hint.action}. {hint.reason}"
    kept = die_names(hint.keep) or "nothing"
    return f"Hint: keep {kept}, roll the rest. {hint.reason}"

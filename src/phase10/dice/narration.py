"""Dice game events in plain words, for replays and logs.

>>> from phase10.dice.game import DiceGame
>>> from phase10.dice.state import DiceSetup
>>> game = DiceGame(["Ann", "Bob"], seed=1, setup=DiceSetup(order=(1, 0)))
>>> _ = game.apply("roll")
>>> for line in narrate(game.history, ["Ann", "Bob"]):
...     print(line)
Turn order: Bob, Ann
Bob, phase 1 (2 sets of 3):
  roll 1: H1 O6, H2 B9, H3 O5, H4 O7, H5 B5, H6 R8, L1 G4, L2 O4, L3 BW, L4 R4
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import assert_never

from .actions import die_names
from .events import (
    BonusKind,
    DiceEvent,
    DiceGameEnded,
    DiceGameStarted,
    EarnedBonus,
    FailedPhase,
    KeptDice,
    LastRoundStarted,
    OrderRolled,
    Penalised,
    Rolled,
    ScoredPhase,
    TurnStarted,
    UnkeptDice,
)
from .faces import DICE, Face, format_faces
from .phases import dice_phase

__all__ = ["describe", "narrate"]

_BONUS = {BonusKind.FIVE_PHASE: "Five Phase Bonus", BonusKind.FIRST_FINISH: "First Finish Bonus"}


def _dice(dice: Sequence[int], faces: Sequence[Face]) -> str:
    return ", ".join(f"{DICE[i].name} {face}" for i, face in zip(dice, faces, strict=True))


def _verb(name: str, verb: str) -> str:
    """``verb`` for ``name``: "Bob wins", but "You win" (the terminal's player is "You").

    >>> _verb("Bob", "earns"), _verb("You", "earns")
    ('earns', 'earn')
    """
    return verb.removesuffix("s") if name == "You" else verb


def _names(players: Iterable[int], names: Sequence[str]) -> str:
    return ", ".join(names[p] for p in players)


def describe(event: DiceEvent, names: Sequence[str]) -> str:
    """One line for an event (indented two spaces inside a turn)."""
    match event:
        case OrderRolled(round_, players, values):
            rolls = ", ".join(f"{names[p]} {v}" for p, v in zip(players, values, strict=True))
            return f"Order roll{' again' if round_ > 1 else ''}: {rolls}"
        case DiceGameStarted(order, solitaire):
            return f"Solitaire: {names[0]}" if solitaire else f"Turn order: {_names(order, names)}"
        case TurnStarted(player, phase, last_try):
            last = ", last try" if last_try else ""
            return f"{names[player]}, phase {phase} ({dice_phase(phase)}){last}:"
        case Rolled(_, roll, dice, faces):
            return f"  roll {roll}: {_dice(dice, faces) if dice else 'no dice'}"
        case KeptDice(_, dice, faces):
            return f"  keeps {_dice(dice, faces)}"
        case UnkeptDice(_, dice, faces):
            return f"  takes back {_dice(dice, faces)}"
        case ScoredPhase(_, phase, dice, groups, points, total):
            shown = " + ".join(format_faces(group) for group in groups)
            return (
                f"  completes phase {phase} with {shown} ({die_names(dice)}): "
                f"{points} points, total {total}"
            )
        case FailedPhase(_, phase, _failures):
            return f"  does not make phase {phase}"
        case EarnedBonus(player, kind, points, total):
            earns = _verb(names[player], "earns")
            return f"  {names[player]} {earns} the {_BONUS[kind]}: +{points}, total {total}"
        case LastRoundStarted(finisher, players):
            return f"{names[finisher]} completed phase 10: a last try for {_names(players, names)}"
        case Penalised(player, failures, points, total):
            turns = "turn" if failures == 1 else "turns"
            return f"{names[player]}: {points} for {failures} failed {turns}, total {total}"
        case DiceGameEnded(winners, totals, reason):
            who = " and ".join(names[p] for p in winners)
            scores = ", ".join(f"{name} {total}" for name, total in zip(names, totals, strict=True))
            verb = _verb(who, "wins") if len(winners) == 1 else "share the win"
            return f"Game over ({reason}): {who} {verb}. Totals: {scores}"
        case _:
            assert_never(event)


def narrate(events: Iterable[DiceEvent], names: Sequence[str]) -> list[str]:
    """The lines for ``events``, in order."""
    return [describe(event, names) for event in events]

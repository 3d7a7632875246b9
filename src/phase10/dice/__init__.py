"""Phase 10 Dice, a game of its own beside the card game (docs/dice.md): the dice and their
faces, the phases and the best-scoring way dice make one."""

from __future__ import annotations

from .faces import (
    DICE,
    DICE_COUNT,
    HIGH_DICE,
    LOW_DICE,
    Colour,
    DiceError,
    Die,
    Face,
    assign_dice,
    format_faces,
    parse_faces,
)
from .phases import PHASES, DicePhase, GroupKind, Way, best_way, dice_phase

__all__ = [
    "DICE",
    "DICE_COUNT",
    "HIGH_DICE",
    "LOW_DICE",
    "PHASES",
    "Colour",
    "DiceError",
    "DicePhase",
    "Die",
    "Face",
    "GroupKind",
    "Way",
    "assign_dice",
    "best_way",
    "dice_phase",
    "format_faces",
    "parse_faces",
]

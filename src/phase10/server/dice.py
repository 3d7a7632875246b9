"""A table of kind ``dice``: Phase 10 Dice (phase10.dice, docs/dice.md) at the server.

Such a table has the same seats, invitations, spectators, rejoining and storage as a card
table; only its game is a :class:`~phase10.dice.DiceGame`. This module holds what differs:
the game a table deals, the bot that plays its open seats, and what each viewer receives
(the dice, each named in words, the score sheet and the log).

>>> game = new_dice_game(["Ann", "Bob"], 7)
>>> str(bot_action(game, game.current))
'roll'
>>> die_entries(game)[0]
{'die': 'H1', 'index': 0, 'high': True, 'face': None, 'kept': False, 'label': 'high die 1, not rolled'}
"""

from __future__ import annotations

import random
from typing import Any

from phase10.bots.dice import make_dice_player
from phase10.dice import (
    DICE,
    PHASES,
    DiceAction,
    DiceGame,
    DiceRecord,
    DiceStage,
    Face,
    dice_phase,
    narrate,
)

__all__ = [
    "DICE_BOT",
    "DICE_RULES_TEXT",
    "bot_action",
    "dice_block",
    "dice_log",
    "dice_phase_texts",
    "dice_record",
    "die_entries",
    "face_label",
    "new_dice_game",
]

#: the bot for a dice table's open seats (phase10.bots.dice): it keeps the dice of the
#: way the dice showing fill most and scores as soon as the phase is made
DICE_BOT = "greedy"

#: what a dice table's rules are, in sentences (docs/dice.md is the rule book)
DICE_RULES_TEXT = [
    "Ten dice: six high (5 to 10) and four low (1 to 4 and two Wilds), each face coloured.",
    "A turn is up to three rolls: set dice aside between rolls, or take them back.",
    "Dice that make your phase score their sum (a Wild scores 0); otherwise you pass "
    "and try the same phase next turn.",
    "Five Phase Bonus: +40 over 220 after phase 5. First Finish Bonus: +40 for the first "
    "to complete phase 10; then everyone else has a last try. The highest total wins.",
]


def new_dice_game(names: list[str], seed: int) -> DiceGame:
    return DiceGame(names, seed=seed)


def dice_phase_texts() -> list[str]:
    return [str(phase) for phase in PHASES]


def face_label(face: Face) -> str:
    """A face in words: ``orange 10``, ``green Wild``."""
    value = "Wild" if face.is_wild else str(face.value)
    return f"{face.colour.display_name} {value}"


def die_entries(game: DiceGame) -> list[dict[str, Any]]:
    """Each die: its name, its face, whether it is set aside, and all of it in words
    (``orange 10, high die 3, set aside``) for a screen reader."""
    entries = []
    for index, (die, face) in enumerate(zip(DICE, game.showing, strict=True)):
        high = die.name.startswith("H")
        which = f"{'high' if high else 'low'} die {die.name[1:]}"
        kept = index in game.kept
        if face is None:
            label = f"{which}, not rolled"
        else:
            label = f"{face_label(face)}, {which}" + (", set aside" if kept else "")
        entries.append(
            {
                "die": die.name,
                "index": index,
                "high": high,
                "face": None if face is None else str(face),
                "kept": kept,
                "label": label,
            }
        )
    return entries


def _prompt(game: DiceGame, seat: int | None) -> str:
    if game.is_over:
        return "The game is over"
    name = game.seats[game.current].name
    phase = f"phase {game.phase} ({dice_phase(game.phase)})"
    if seat != game.current:
        return f"Waiting for {name} ({phase})"
    match game.stage:
        case DiceStage.ROLL:
            return f"Your {phase}: roll all ten dice"
        case DiceStage.CHOOSE:
            made = " The dice make it: score, or roll for more." if game.way() else ""
            rolls = "roll" if game.rolls_left == 1 else "rolls"
            return (
                f"Your {phase}: set dice aside and roll the rest "
                f"({game.rolls_left} {rolls} left).{made}"
            )
        case _:
            return (
                f"Your {phase}: the dice make it, score it"
                if game.way()
                else f"Your {phase}: the dice do not make it, pass"
            )


def dice_block(game: DiceGame, seat: int | None) -> dict[str, Any]:
    """A state message's ``dice``: the view (without its history: the log tells it), each
    die in words, and what to do now."""
    view = game.view(seat).to_dict()
    del view["history"]
    return {
        "view": view,
        "dice": die_entries(game),
        "phase": None if game.is_over else str(dice_phase(game.phase)),
        "prompt": _prompt(game, seat),
    }


def dice_log(game: DiceGame, names: list[str], lines: int) -> list[str]:
    """The last ``lines`` lines of the game's story (the same for every viewer)."""
    return narrate(game.history[-lines:], names)  # one line an event


def dice_record(game: DiceGame, tags: dict[str, str]) -> dict[str, Any]:
    return DiceRecord.from_game(game, tags).to_dict()


def bot_action(game: DiceGame, seat: int, bots: str = DICE_BOT) -> DiceAction:
    """The next action of the dice bot ``bots`` (phase10.bots.dice) for ``seat``, from the
    seat's view alone (one action at a time: a keep or an unkeep, then the roll)."""
    player = make_dice_player(bots, random.Random(len(game.actions)))
    return player.choose(game.view(seat))

"""A table of kind ``dice``: Phase 10 Dice (phase10.dice, docs/dice.md) at the server.

Such a table has the same seats, invitations, spectators, rejoining and storage as a card
table; only its game is a :class:`~phase10.dice.DiceGame`. This module holds what differs:
the game a table deals, the bots that may play its open seats (the dice bots of
phase10.bots.dice), and what each viewer receives (the dice, each named in words, the
score sheet and the log).

>>> game = new_dice_game(["Ann", "Bob"], 7)
>>> str(bot_action(game, game.current, "optimal"))
'roll'
>>> die_entries(game)[0]
{'die': 'H1', 'index': 0, 'high': True, 'face': None, 'kept': False, 'label': 'high die 1, not rolled'}
>>> dice_table_bot(" Greedy "), table_bot("Strong:4"), table_bot("optimal")
('greedy', 'strong', 'optimal')
>>> dice_table_bot("strong")
Traceback (most recent call last):
...
ValueError: bots: a dice table's bots are random, greedy..., not 'strong'
"""

from __future__ import annotations

import random
from typing import Any

from phase10.bots.dice import DEFAULT_DICE_BOT, DICE_BOT_NAMES, make_dice_player
from phase10.bots.dice_hints import dice_hint, hint_text
from phase10.bots.registry import BOT_HELP, builtin_bot
from phase10.dice import (
    DICE,
    PHASES,
    DiceAction,
    DiceGame,
    DiceRecord,
    DiceStage,
    DiceView,
    Face,
    dice_phase,
    narrate,
)

__all__ = [
    "DICE_BOT",
    "DICE_RULES_TEXT",
    "STAND_IN_DICE_BOT",
    "bot_action",
    "card_table_bot",
    "dice_block",
    "dice_bot_choices",
    "dice_hint_message",
    "dice_log",
    "dice_phase_texts",
    "dice_record",
    "dice_table_bot",
    "die_entries",
    "face_label",
    "new_dice_game",
    "quick_dice_bot",
    "table_bot",
    "view_action",
]

#: the bot of a new dice table's open seats unless its host chooses another (one of
#: phase10.bots.dice's ``DICE_BOT_NAMES``): the bots' own default
DICE_BOT = DEFAULT_DICE_BOT
#: the dice bot that plays the turns of a person away or out of time (it answers at once)
STAND_IN_DICE_BOT = "greedy"

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


def bot_action(game: DiceGame, seat: int, bots: str) -> DiceAction:
    """The next action of the dice bot ``bots`` (phase10.bots.dice) for ``seat``, from the
    seat's view alone (one action at a time: a keep or an unkeep, then the roll)."""
    return view_action(game.view(seat), bots, len(game.actions))


def view_action(view: DiceView, bots: str, number: int) -> DiceAction:
    """The dice bot ``bots``'s action for ``view``, the game's ``number``-th: seeded by it,
    so a resumed game goes on as it would have."""
    return make_dice_player(bots, random.Random(number)).choose(view)


def quick_dice_bot(bots: str) -> bool:
    """Whether the dice bot decides within a millisecond or so (the server plays it on its
    event loop; any other bot thinks in a solver worker)."""
    return bool(getattr(make_dice_player(bots, random.Random(0)), "instant", False))


def dice_hint_message(view: DiceView) -> dict[str, Any]:
    """The ``dice_hint`` message for the player to move: the hint of the terminal game's
    ``?`` (:func:`phase10.bots.dice_hints.dice_hint`), its dice by index and by name."""
    hint = dice_hint(view)
    keep = None if hint.keep is None else list(hint.keep)
    return {
        "type": "dice_hint",
        "text": hint_text(hint),
        "hint": {
            "action": str(hint.action),
            "keep": keep,
            "keep_dice": None if keep is None else [DICE[i].name for i in keep],
            "reason": hint.reason,
        },
    }


def _choices() -> str:
    return ", ".join(DICE_BOT_NAMES)


def table_bot(spec: object) -> str:
    """A bot for a table's open seats written the one way: a built-in card bot
    (phase10.bots.registry) or a dice bot (phase10.bots.dice); which fits the table is
    checked with its kind (:func:`dice_table_bot`, :func:`card_table_bot`)."""
    try:
        return builtin_bot(spec)
    except ValueError:
        name = spec.strip().lower() if isinstance(spec, str) else None
        if name in DICE_BOT_NAMES:
            return name
        raise ValueError(
            f"unknown bot {spec!r}: choose from {BOT_HELP} at a card table, "
            f"{_choices()} at a dice table"
        ) from None


def dice_table_bot(spec: str) -> str:
    """``spec`` if it names a dice bot (any case); ValueError listing the dice bots."""
    name = spec.strip().lower()
    if name not in DICE_BOT_NAMES:
        raise ValueError(f"bots: a dice table's bots are {_choices()}, not {spec!r}")
    return name


def card_table_bot(spec: str) -> str:
    """``spec`` if it names a built-in card bot; ValueError listing them."""
    try:
        return builtin_bot(spec)
    except ValueError:
        raise ValueError(f"bots: a card table's bots are {BOT_HELP}, not {spec!r}") from None


def dice_bot_choices() -> list[dict[str, str]]:
    """Every dice bot, weakest first, as a form offers it (``spec`` and ``label``)."""
    return [
        {"spec": name, "label": name.capitalize() + (" (default)" if name == DICE_BOT else "")}
        for name in DICE_BOT_NAMES
    ]

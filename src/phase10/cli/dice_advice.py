"""``phase10 dice hint`` and ``phase10 dice odds``: the exact dice solver on the command line
(docs/dice-odds.md).

The commands are plain functions; :func:`register` adds them to the ``dice`` command group
(``cli/dice.py`` calls it).

Exit codes: 0 success, 2 bad input (the message names what was wrong).

>>> keep = read_kept("H1, O5", parse_faces("R5 G5 O5 R9 R9 G7 B1 B2 GW B3"))
>>> keep.positions, [DICE[keep.dice[i]].name for i in keep.positions]
((0, 2), ['H1', 'H3'])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from phase10.dice import DICE, DiceError, Face, assign_dice, dice_phase, parse_faces
from phase10.solver.dice import (
    Advice,
    KeepOption,
    Objective,
    Strategy,
    TurnOdds,
    advise,
    odds_table,
    phase_odds,
)

from .common import fail, print_json, read_dice_phase, refuse_unknown_options

__all__ = ["Kept", "hint", "odds", "read_kept", "register"]

#: how many other keeps a hint lists (besides keeping all and keeping none)
SHOWN_OPTIONS = 5
_DIE_NAME = re.compile(r"^[HL][1-9]$", re.IGNORECASE)


@dataclass(frozen=True)
class Kept:
    """The dice set aside (positions among the faces) and the die showing each face."""

    positions: tuple[int, ...]
    dice: tuple[int, ...]


def read_kept(text: str, faces: Sequence[Face]) -> Kept:
    """Read ``--kept``: die names (``H1``) or faces (``O10``) among those showing, separated
    by commas or spaces; a :class:`DiceError` names a token that is not one of them."""
    names = {die.name: i for i, die in enumerate(DICE)}
    fixed: dict[int, int] = {}  # position -> die
    by_face: list[int] = []
    for token in (t for t in re.split(r"[\s,]+", text) if t):
        if _DIE_NAME.match(token):
            die = names.get(token.upper())
            if die is None:
                raise DiceError(f"{token!r} is not a die: the dice are H1-H6 and L1-L4")
            if die in fixed.values():
                raise DiceError(f"{token.upper()} is named twice in --kept")
            place = _place(die, faces, fixed)
            if place is None:
                raise DiceError(f"{token.upper()} shows none of the faces given")
            fixed[place] = die
            continue
        face = Face.parse(token)
        taken = set(fixed) | set(by_face)
        place = next((i for i, f in enumerate(faces) if f == face and i not in taken), None)
        if place is None:
            other = "other " if face in faces else ""
            raise DiceError(f"--kept {face}: no {other}{face} is showing")
        by_face.append(place)
    rest = [i for i in range(len(faces)) if i not in fixed]
    free = [d for d in range(len(DICE)) if d not in fixed.values()]
    owners = dict(fixed)
    for i, die in zip(rest, assign_dice([faces[i] for i in rest], free), strict=True):
        owners[i] = die
    return Kept(tuple(sorted({*fixed, *by_face})), tuple(owners[i] for i in range(len(faces))))


def _place(die: int, faces: Sequence[Face], fixed: dict[int, int]) -> int | None:
    """A position whose face ``die`` can show, leaving the other faces to the other dice."""
    for i, face in enumerate(faces):
        if i in fixed or face not in DICE[die].faces:
            continue
        rest = [f for j, f in enumerate(faces) if j != i and j not in fixed]
        free = [d for d in range(len(DICE)) if d != die and d not in fixed.values()]
        try:
            assign_dice(rest, free)
        except DiceError:
            continue
        return i
    return None


def _option_json(advice: Advice, option: KeepOption) -> dict[str, Any]:
    rolled = [i for i in range(len(advice.faces)) if i not in option.keep]
    return {
        "keep": [str(advice.faces[i]) for i in option.keep],
        "keep_dice": [DICE[advice.dice[i]].name for i in option.keep],
        "roll": [str(advice.faces[i]) for i in rolled],
        "roll_dice": [DICE[advice.dice[i]].name for i in rolled],
        "probability": option.probability,
        "points": option.points,
    }


def _shown(advice: Advice) -> list[KeepOption]:
    """The best keeps, then keeping everything (stopping) and keeping nothing if not among them."""
    shown = list(advice.options[: SHOWN_OPTIONS + 1])
    everything = len(advice.faces)
    least = min(len(option.keep) for option in advice.options)
    for option in advice.options:
        if option not in shown and len(option.keep) in (everything, least):
            shown.append(option)
    return shown


def _describe(advice: Advice, option: KeepOption) -> str:
    if len(option.keep) == len(advice.faces):
        what = "keep all ten (stop)" if advice.rolls_left == 1 else "keep all ten (roll none now)"
    elif not option.keep:
        what = "roll all ten"
    else:
        kept = " ".join(str(advice.faces[i]) for i in option.keep)
        what = f"keep {kept}, roll {len(advice.faces) - len(option.keep)}"
    points = "" if option.points is None else f", {option.points:.2f} points expected"
    return f"{what}: {100 * option.probability:.2f}% to complete it{points}"


def hint(
    phase: Annotated[
        str,
        typer.Argument(metavar="PHASE", help="The phase's number, 1 to 10.", show_default=False),
    ],
    dice: Annotated[
        list[str],
        typer.Argument(
            metavar="DICE",
            help="The ten faces showing, like O10 B4 GW ... (commas are fine).",
            show_default=False,
        ),
    ],
    rolls_left: Annotated[
        int,
        typer.Option(
            "--rolls-left",
            metavar="N",
            help="Rolls left this turn: 2 after the first roll, 1 after the second, 0 after the "
            "third.",
            show_default=False,
        ),
    ],
    kept: Annotated[
        str,
        typer.Option(
            "--kept",
            metavar="DICE",
            help="Dice set aside, by die (H1,L2) or face (O10): with 2 rolls left they stay "
            "aside; with 1 they may be taken back.",
        ),
    ] = "",
    objective: Annotated[
        Objective,
        typer.Option("--objective", help="Keep for the chance of completing the phase, or points."),
    ] = Objective.PROBABILITY,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """Which dice to keep: the keep with the best chance of completing PHASE this turn (or the
    most points expected), and how it compares with the others, under optimal play after."""
    refuse_unknown_options("dice hint", (phase, *dice))
    number = read_dice_phase(phase)
    try:
        faces = parse_faces(" ".join(dice))
        if len(faces) != len(DICE):
            raise DiceError(f"name all {len(DICE)} faces showing, not {len(faces)}")
        assign_dice(faces)
        aside = read_kept(kept, faces)
        advice = advise(
            number,
            faces,
            rolls_left=rolls_left,
            kept=aside.positions,
            objective=objective,
            dice=aside.dice,
        )
    except DiceError as error:
        fail(str(error))
    chosen = dice_phase(number)
    if as_json:
        print_json(
            {
                "phase": number,
                "needs": str(chosen),
                "rolls_left": rolls_left,
                "objective": objective.value,
                "made_now": None
                if advice.made is None
                else {"score": advice.made.score, "dice": [str(f) for f in advice.made.used]},
                "best": _option_json(advice, advice.best),
                "options": [_option_json(advice, option) for option in advice.options],
            }
        )
        return
    if rolls_left == 0:
        if advice.made is None:
            typer.echo(f"no roll left: the dice do not make phase {number} ({chosen})")
        else:
            typer.echo(
                f"no roll left: score phase {number} ({chosen}) with "
                f"{' '.join(str(f) for f in advice.made.used)}, {advice.made.score} points"
            )
        return
    rolls = "1 roll" if rolls_left == 1 else f"{rolls_left} rolls"
    typer.echo(f"phase {number} ({chosen}), {rolls} left, best for {objective.value}:")
    best = advice.best
    names = " ".join(DICE[advice.dice[i]].name for i in best.keep)
    typer.echo(f"  {_describe(advice, best)}" + (f"  [{names}]" if best.keep else ""))
    back = [DICE[die].name for die in advice.take_back]
    if back:
        typer.echo(f"  (take back {' '.join(back)})")
    if advice.made is not None:
        typer.echo(f"  (the dice make it now: {advice.made.score} points if you stop)")
    others = _shown(advice)[1:]
    if others:
        typer.echo("other keeps, played as well after:")
        for option in others:
            typer.echo(f"  {_describe(advice, option)}")


def _percent(value: float) -> str:
    return f"{100 * value:.2f}%"


def _row_json(row: TurnOdds) -> dict[str, Any]:
    return {
        "phase": row.phase,
        "strategy": row.strategy.value,
        "objective": row.objective.value,
        "probability": row.probability,
        "points": row.points,
    }


def odds(
    as_json: Annotated[bool, typer.Option("--json", help="Print the table as JSON.")] = False,
) -> None:
    """The chance of completing each phase in one turn and the points expected, under optimal
    play (for the chance, and for points) and two simple strategies; exact, not sampled."""
    if as_json:
        print_json([_row_json(row) for row in odds_table()])
        return
    headings = (
        ("best chance", Strategy.OPTIMAL, Objective.PROBABILITY),
        ("most points", Strategy.OPTIMAL, Objective.POINTS),
        ("greedy", Strategy.GREEDY, Objective.PROBABILITY),
        ("one roll", Strategy.ONE_ROLL, Objective.PROBABILITY),
    )
    typer.echo("phase  " + "".join(f"{title:<18}" for title, _, _ in headings).rstrip())
    typer.echo("       " + "chance   points   " * (len(headings) - 1) + "chance   points")
    for phase in range(1, 11):  # a row as soon as it is worked out (phase 8's take longest)
        rows = phase_odds(phase)
        cells = []
        for _, strategy, objective in headings:
            row = next(r for r in rows if (r.strategy, r.objective) == (strategy, objective))
            cells.append(f"{_percent(row.probability):>6} {row.points:>8.2f}")
        typer.echo(f"{phase:>5}  " + "   ".join(cells))
    typer.echo(
        "\nOne turn of three rolls, exact. Points: the phase's score if made, 0 if not.\n"
        "best chance, most points: the keeps that maximise each, every roll; greedy: the dice\n"
        "of the target the dice showing fill most; one roll: no reroll."
    )


def register(group: typer.Typer) -> None:
    """Add ``hint`` and ``odds`` to the ``dice`` command group (hint takes unknown options as
    arguments, so that a negative phase number is explained)."""
    group.command(name="hint", context_settings={"ignore_unknown_options": True})(hint)
    group.command(name="odds")(odds)

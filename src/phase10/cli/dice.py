"""``phase10 dice ...``: Phase 10 Dice on the command line (docs/dice.md).

:data:`dice_app` is the ``dice`` command group, added to the main app in ``app.py``. Another
module adds a command to it the way ``app.py`` adds its own: a plain function with typer
annotations in that module, registered at the end of this one (see there).

Exit codes: 0 success (``check``: the dice make the phase), 1 ``check``: they do not,
2 bad input (the message names what was wrong).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from phase10.core.codec import RecordError
from phase10.dice import (
    DiceActionError,
    DiceError,
    Face,
    assign_dice,
    best_way,
    dice_phase,
    format_faces,
    loads,
    narrate,
    parse_faces,
)

from .common import fail, print_json, read_dice_phase, refuse_unknown_options

__all__ = ["check", "check_dice", "dice_app", "replay"]

dice_app = typer.Typer(
    name="dice",
    help="Phase 10 Dice: play it, check a roll against a phase, replay a recorded game, which "
    "dice to keep (hint), the odds of each phase in one turn, and the computer players against "
    "each other (tournament).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def check_dice(phase: int, faces: tuple[Face, ...]) -> dict[str, Any]:
    """The report ``phase10 dice check`` prints: whether ``faces`` make ``phase`` and the
    best-scoring way (the dice used, group by group, and their points).

    >>> report = check_dice(1, parse_faces("R5 O5 GW B9 R9 G9 B2"))
    >>> report["complete"], report["score"], report["dice"], report["unused"]
    (True, 37, ['R5', 'O5', 'GW', 'R9', 'G9', 'B9'], ['B2'])
    """
    chosen = dice_phase(phase)
    way = best_way(chosen, faces)
    unused = list(faces)
    for face in way.used if way is not None else ():
        unused.remove(face)
    return {
        "phase": chosen.number,
        "needs": str(chosen),
        "complete": way is not None,
        "score": 0 if way is None else way.score,
        "dice": [] if way is None else [str(face) for face in way.used],
        "groups": [] if way is None else [[str(face) for face in group] for group in way.groups],
        "unused": [] if way is None else [str(face) for face in unused],
    }


@dice_app.command(context_settings={"ignore_unknown_options": True})
def check(
    phase: Annotated[
        str,
        typer.Argument(metavar="PHASE", help="The phase's number, 1 to 10.", show_default=False),
    ],
    dice: Annotated[
        list[str],
        typer.Argument(
            metavar="DICE",
            help="The faces showing, like O10 B4 GW (1 to 10 of them; commas are fine).",
            show_default=False,
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """Say whether DICE make PHASE, and the best-scoring way they do.

    Exit 0 if they do, 1 if not, 2 on bad input (a face no die shows, more of a face than
    the dice have). With --json: {"complete": ..., "score": N, "dice": [...], ...}.
    """
    refuse_unknown_options("dice check", (phase, *dice))
    number = read_dice_phase(phase)
    try:
        faces = parse_faces(" ".join(dice))
        if not faces:
            raise DiceError("name the faces showing, like O10 B4 GW")
        assign_dice(faces)
    except DiceError as error:
        fail(str(error))
    report = check_dice(number, faces)
    if as_json:
        print_json(report)
    elif report["complete"]:
        groups = " + ".join(" ".join(group) for group in report["groups"])
        typer.echo(
            f"yes: {format_faces(faces)} make phase {number} ({report['needs']}), "
            f"{report['score']} points"
        )
        typer.echo(f"  {groups}")
        if report["unused"]:
            typer.echo(f"  not used: {' '.join(report['unused'])}")
    else:
        typer.echo(f"no: {format_faces(faces)} do not make phase {number} ({report['needs']})")
    if not report["complete"]:
        raise typer.Exit(1)


@dice_app.command()
def replay(
    file: Annotated[
        Path | None,
        typer.Argument(
            metavar="FILE",
            help="A dice game record (JSON); without it, the last game you finished in "
            "phase10 dice play.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Print a recorded dice game turn by turn."""
    if file is None:
        try:
            import platformdirs  # noqa: F401  (where the data directory is)
        except ImportError:
            fail("name a record FILE (the games you finished are found with the tui extra)")
        from phase10.tui.dice_session import finished_dice_dir, finished_dice_games

        kept = finished_dice_games()
        if not kept:
            fail(f"no finished dice game is kept in {finished_dice_dir()} yet: name a record FILE")
        file = kept[0]
    try:
        record = loads(file.read_text(encoding="utf-8"))
        game = record.replay()
    except FileNotFoundError:
        fail(f"there is no file {file}")
    except IsADirectoryError:
        fail(f"{file} is a folder, not a dice game record")
    except OSError as error:
        fail(f"cannot read {file}: {error.strerror}")
    except UnicodeDecodeError:
        fail(f"{file} is not a dice game record: it is not UTF-8 text")
    except (RecordError, DiceActionError, DiceError) as error:
        fail(f"{file} is not a dice game record: {error}")
    for line in narrate(game.history, [seat.name for seat in game.seats]):
        typer.echo(line)
    if not game.is_over:
        typer.echo(f"(the record stops here: {game.seats[game.current].name} to move)")


# Commands defined in other modules join the group here (hint reads negative numbers as bad
# input to explain, so it takes unknown options as arguments, as ``check`` does).
from .dice_advice import register as _register_advice  # noqa: E402
from .dice_play import play as _play  # noqa: E402
from .dice_play import tournament as _tournament  # noqa: E402

_register_advice(dice_app)
dice_app.command(name="play")(_play)
dice_app.command(name="tournament")(_tournament)

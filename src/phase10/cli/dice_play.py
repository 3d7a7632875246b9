"""``phase10 dice play`` (the terminal game) and ``phase10 dice tournament`` (bots against
each other), registered in the ``dice`` command group (``dice.py``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from phase10.bots.dice import DEFAULT_DICE_BOT, DICE_BOT_HELP, DICE_BOT_NAMES

from .common import (
    MAX_DELAY,
    check_output_file,
    command_from_here,
    fail,
    fail_unsaved,
    print_json,
)

__all__ = ["play", "tournament"]


def tournament(
    bots: Annotated[
        str,
        typer.Option(
            "--bots", metavar="BOTS", help=f"Comma-separated, one a seat: {DICE_BOT_HELP}."
        ),
    ] = "greedy,random",
    games: Annotated[
        int, typer.Option("--games", metavar="N", help="Games to play (1 to 10,000,000).")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Game n is seeded S + n.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
) -> None:
    """Play dice bots against each other: each one's win rate and mean total."""
    from phase10.sim.dice import dice_tournament

    specs = [part.strip().lower() for part in bots.split(",")]
    for spec in specs:
        if not spec:
            fail(f"a bot's name is missing in {bots!r}: choose from {DICE_BOT_HELP}")
        if spec not in DICE_BOT_NAMES:
            fail(f"unknown dice bot {spec!r} in --bots: choose from {DICE_BOT_HELP}")
    try:
        result = dice_tournament(specs, games=games, seed=seed)
    except ValueError as error:
        fail(str(error))
    if as_json:
        print_json(result.to_dict())
        return
    typer.echo(f"{games} game{'s' if games != 1 else ''}, seeds {seed} to {seed + games - 1}")
    typer.echo(f"{'seat':<5} {'bot':<8} {'wins':>7} {'win rate':>9} {'mean total':>11}")
    for row in result.rows:
        typer.echo(
            f"{row.seat + 1:<5} {row.bot:<8} {row.wins:>7g} {row.win_rate:>9.1%} "
            f"{row.mean_total:>11.1f}"
        )


def play(
    opponents: Annotated[
        int,
        typer.Option("--opponents", metavar="N", help="Computer opponents, 0 (solitaire) to 7."),
    ] = 1,
    bot: Annotated[
        str,
        typer.Option("--bot", metavar="BOT", help=f"The opponents: {DICE_BOT_HELP}."),
    ] = DEFAULT_DICE_BOT,
    name: Annotated[
        str, typer.Option("--name", metavar="NAME", help="Your name at the table.")
    ] = "You",
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="The game's seed (default: random).")
    ] = None,
    new: Annotated[
        bool,
        typer.Option("--new", help="Start a new game even if one is saved (that one is kept)."),
    ] = False,
    save_file: Annotated[
        Path | None,
        typer.Option(
            "--save-file",
            metavar="FILE",
            help="Where the game is saved after every action (default: dice-autosave.json "
            "in the data directory, or $PHASE10_HOME).",
        ),
    ] = None,
    delay: Annotated[
        float,
        typer.Option("--delay", metavar="SECONDS", help="Pause after each computer action."),
    ] = 0.4,
    colour_blind: Annotated[
        bool, typer.Option("--colour-blind", help="Show a mark for each colour too.")
    ] = False,
) -> None:
    """Play Phase 10 Dice in the terminal, against the computer or alone.

    The game is saved after every action: quit (q) any time, and the next
    phase10 dice play goes on with it. Keys: 1-0 keep a die, r roll, s score, p pass,
    ? hint, c colour-blind mode, q quit.
    """
    try:
        import textual  # noqa: F401
    except ImportError:
        fail("the terminal game needs Textual: pip install 'phase10[tui]'")
    from phase10.tui.dice_app import DiceApp
    from phase10.tui.dice_session import DiceSession, dice_autosave, dice_games_dir, keep_copy
    from phase10.tui.files import SaveInUse, claim, copy_aside
    from phase10.tui.session import SessionError
    from phase10.tui.terminal import watch_terminal

    if not 0 <= delay <= MAX_DELAY:  # also refuses nan
        fail(f"the delay is 0 to {MAX_DELAY:g} seconds, not {delay}")
    if save_file is not None:
        check_output_file(save_file, "--save-file")
    autosave = save_file if save_file is not None else dice_autosave()
    try:
        claim(autosave)
    except SaveInUse as error:
        fail(str(error))
    session = None
    if autosave.exists():
        try:
            saved: DiceSession | None = DiceSession.load(autosave, autosave)
        except SessionError as error:
            if not new:
                fail(f"{error} (start afresh with --new, or choose another --save-file)")
            try:  # (a newer release's save, a damaged one: kept as it is, then replaced)
                kept_aside = copy_aside(autosave, dice_games_dir())
            except OSError as failure:
                fail(f"{error}, and it could not be kept aside: {failure.strerror}")
            typer.echo(f"{error}: it is kept, as it was, in {kept_aside}.", err=True)
            saved = None
        if saved is not None and not saved.game.is_over:
            if not new:
                session = saved
            elif (kept := keep_copy(saved)) is not None:
                typer.echo(f"The saved game is kept in {kept}.", err=True)
    resumed = session is not None
    if session is None:
        try:
            session = DiceSession.new(
                name, opponents=opponents, bot=bot, seed=seed, autosave=autosave
            )
        except SessionError as error:
            fail(str(error))
    watch_terminal()  # a hung-up terminal ends the game (it is saved after every move)
    app = DiceApp(session, bot_delay=delay, colour_blind=colour_blind, resumed=resumed)
    app.run()
    session = app.session  # (n at a game's end starts another)
    unsaved = session.save_again()
    if unsaved is not None:  # (said in the game too; the file is behind the game)
        fail_unsaved(unsaved, autosave)
    if session.game.is_over and not session.save_error:
        again = command_from_here(sys.argv[0], "dice replay")
        typer.echo(f"Game finished and kept for replay. To see it turn by turn, run:\n  {again}")
    elif session.game.is_over:
        typer.echo(f"Game finished; its record is in {autosave}.")
    else:
        tail = "dice play" + (f" --save-file {save_file}" if save_file else "")
        again = command_from_here(sys.argv[0], tail)
        # the command on a line of its own: a narrow terminal never breaks it mid-word
        typer.echo(f"Game saved in {autosave}. To go on with it, run:\n  {again}")

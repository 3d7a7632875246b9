"""``phase10 play`` and ``phase10 replay``: the terminal game and the record viewer.

Both need the ``tui`` extra (Textual); without it they say how to install it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from phase10.bots.registry import BOT_HELP, DEFAULT_BOT
from phase10.core import PRESETS, preset

from .common import (
    MAX_DELAY,
    check_output_file,
    command_from_here,
    fail,
    fail_unsaved,
    reading_record,
)

__all__ = ["play", "replay"]

ColourBlind = Annotated[
    bool | None,
    typer.Option(
        "--colour-blind/--no-colour-blind",
        help="Show a letter and a mark on every colour (default: as last time).",
    ),
]


def _need_textual() -> None:
    try:
        import textual  # noqa: F401
    except ImportError:
        fail("the terminal game needs Textual: pip install 'phase10[tui]'")


def play(
    opponents: Annotated[
        int | None,
        typer.Option(
            "--opponents",
            metavar="N",
            help="Computer opponents (1-5; default: as last time, or 3).",
        ),
    ] = None,
    difficulty: Annotated[
        str | None,
        typer.Option(
            "--difficulty",
            metavar="BOT",
            help=f"The opponents: {BOT_HELP} (default: as last time, or {DEFAULT_BOT}).",
        ),
    ] = None,
    rules_name: Annotated[
        str, typer.Option("--rules", metavar="PRESET", help="A rules preset (see: phase10 rules).")
    ] = "official",
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="The game's seed (default: random).")
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", metavar="NAME", help="Your name at the table (default: as last time, or You)."
        ),
    ] = None,
    undo: Annotated[
        bool | None,
        typer.Option(
            "--undo/--no-undo", help="Allow taking back your own moves (default: as last time)."
        ),
    ] = None,
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="Skip the new-game screen: play these settings now (a game in progress is "
            "kept: Resume on the new-game screen lists it).",
        ),
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on with the saved game (see --save-file).")
    ] = False,
    save_file: Annotated[
        Path | None,
        typer.Option(
            "--save-file",
            metavar="FILE",
            help="Where the game is saved after every move (default: autosave.json in "
            "the data directory, or $PHASE10_HOME).",
        ),
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            "--delay",
            metavar="SECONDS",
            help="Pause after each computer move (0 to 60 s; default: as last time, or 0.4).",
        ),
    ] = None,
    colour_blind: ColourBlind = None,
) -> None:
    """Play Phase 10 in the terminal against computer opponents.

    The game is saved after every move; quit any time and go on with --resume (or
    Resume, Ctrl+R, on the new-game screen). Your settings (name, opponents, difficulty,
    undo, colour-blind mode, the hand's order, the computer's speed) are remembered for
    the next game; a flag given here overrides them.
    Press k at the table for the keys.
    """
    _need_textual()
    from phase10.tui.app import PlayApp
    from phase10.tui.files import SaveInUse, claim
    from phase10.tui.preferences import load_preferences
    from phase10.tui.session import Session, SessionError, Settings, data_dir
    from phase10.tui.terminal import watch_terminal

    if rules_name not in PRESETS:
        fail(f"no rules preset named {rules_name!r}; presets: {', '.join(PRESETS)}")
    home = data_dir()
    if home.exists() and not home.is_dir():  # (every file of the game goes in it)
        fail(f"the data directory {home} is a file, not a folder: set PHASE10_HOME to a folder")
    prefs, problem = load_preferences()
    if problem is not None:
        typer.echo(f"Note: {problem}.", err=True)
    delay = prefs.bot_delay if delay is None else delay
    if not 0 <= delay <= MAX_DELAY:  # also refuses nan
        fail(f"the delay is 0 to {MAX_DELAY:g} seconds, not {delay}")
    if save_file is not None:
        check_output_file(save_file, "--save-file")
    autosave = save_file if save_file is not None else home / "autosave.json"
    try:
        claim(autosave)
    except SaveInUse as error:
        fail(str(error))
    settings = Settings(
        name=prefs.name if name is None else name,
        opponents=prefs.opponents if opponents is None else opponents,
        difficulty=prefs.difficulty if difficulty is None else difficulty,
        rules=preset(rules_name),
        seed=seed,
        undo=prefs.undo if undo is None else undo,
    )
    session = None
    try:
        if resume:
            session = Session.load(autosave, autosave=autosave)
        else:
            settings.validate()
    except SessionError as error:
        fail(str(error))
    from phase10.solver.blas import set_blas_threads

    set_blas_threads(1)  # the bots check hands faster on one thread
    app = PlayApp(
        settings,
        start=quick,
        session=session,
        autosave=autosave,
        preset_name=rules_name,
        bot_delay=delay,
        colour_blind=prefs.colour_blind if colour_blind is None else colour_blind,
    )
    app.sort_by = prefs.sort_by
    app.remember = True
    app.settings_problem = problem
    watch_terminal()  # a hung-up terminal ends the game (it is saved after every move)
    app.run()
    unsaved = app.keep_on_leaving()
    if app.session is not None and app.session.autosave is not None:
        if unsaved is not None:  # (said in the game too; the file is behind the game)
            fail_unsaved(unsaved, app.session.autosave)
        if app.session.game.is_over and app.finished_path is not None:
            again = command_from_here(sys.argv[0], "replay")
            typer.echo(
                f"Game finished and kept in {app.finished_path}. To replay it, run:\n  {again}"
            )
        elif app.session.game.is_over:
            typer.echo(f"Game finished; its record is in {app.session.autosave}.")
        else:
            again = play_command(sys.argv[0], save_file)
            # the command on a line of its own: a narrow terminal never breaks it mid-word
            typer.echo(f"Game saved in {app.session.autosave}. To go on with it, run:\n  {again}")


def play_command(script: str, save_file: Path | None = None) -> str:
    """The command that resumes the card game, written to work from here."""
    tail = "play --resume" + (f" --save-file {save_file}" if save_file is not None else "")
    return command_from_here(script, tail)


def replay(
    file: Annotated[
        Path | None,
        typer.Argument(
            metavar="FILE",
            help="A game record (JSON); without it, the last game you finished in phase10 play.",
            show_default=False,
        ),
    ] = None,
    reveal: Annotated[
        bool, typer.Option("--reveal/--public", help="Show every hand, or only what all can see.")
    ] = True,
    colour_blind: ColourBlind = None,
) -> None:
    """Step through a saved game record, action by action (arrows, Home/End, n/b for hands);
    r reviews a player's decisions against the expert's, m/M step to its mistakes."""
    _need_textual()
    from phase10.core.records import loads
    from phase10.tui.preferences import load_preferences
    from phase10.tui.replay import ReplayApp
    from phase10.tui.terminal import watch_terminal

    if file is None:
        from phase10.tui.history import finished_dir, finished_games
        from phase10.tui.session import data_dir

        finished = finished_games()
        if not finished:
            autosave = data_dir() / "autosave.json"
            aside = f" (a game in progress is saved in {autosave})" if autosave.exists() else ""
            fail(f"no finished game is kept in {finished_dir()} yet: name a record FILE{aside}")
        file = finished[0].path
    with reading_record(file):
        record = loads(file.read_text(encoding="utf-8"))
        games = ReplayApp.read(record, reveal=reveal)
    if colour_blind is None:  # as the games are played (a bad settings file: plain colours)
        colour_blind = load_preferences()[0].colour_blind
    watch_terminal()
    ReplayApp(record, games, reveal=reveal, colour_blind=colour_blind, path=file).run()

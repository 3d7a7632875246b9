"""``phase10 tournament`` and ``phase10 simulate``: many games between bots, summed up.

The games are played by :mod:`phase10.sim.tournament`; this module reads the options,
shows a progress bar (on stderr, only in a terminal), prints the tables or the JSON and
draws the chart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from phase10.bots import GameTooLongError
from phase10.bots.protocol import BotError
from phase10.bots.registry import BOT_HELP
from phase10.core import PRESETS, Rules, RulesError, is_plain_number
from phase10.sim.ray_backend import RayBackendError
from phase10.sim.stats import RATING_ANCHOR
from phase10.sim.tournament import (
    RATING_METHOD,
    TIE_RULE,
    EntryStats,
    TournamentResult,
    run_tournament,
)

from .common import check_output_file, count, plot_format
from .common import fail as _fail
from .common import print_json as _print_json

__all__ = ["parse_phase_numbers", "plot_result", "simulate", "tournament"]


class Backend(StrEnum):
    PROCESS = "process"  #: worker processes on this machine
    RAY = "ray"  #: Ray tasks on a local instance or a cluster


BotsOption = Annotated[
    str,
    typer.Option(
        "--bots",
        metavar="BOTS",
        help=f"One bot per seat, comma-separated: {BOT_HELP}, or cmd:PROGRAM; a built-in "
        "bot may end in +nosave (never uses a save pile) or +noanti (plays the Anti-phase "
        "card like any other card). E.g. strong,greedy,greedy,greedy.",
        show_default=False,
    ),
]
GamesOption = Annotated[int, typer.Option("--games", metavar="N", help="How many games.")]
SeedOption = Annotated[int, typer.Option("--seed", metavar="N", help="The master seed.")]
JobsOption = Annotated[
    int,
    typer.Option("--jobs", metavar="N", help="Worker processes (0: one per CPU; 1: no workers)."),
]
RulesOption = Annotated[
    str, typer.Option("--rules", metavar="PRESET", help="A rules preset (see: phase10 rules).")
]
PhasesOption = Annotated[
    str | None,
    typer.Option(
        "--phases",
        metavar="LIST",
        help="Play only these phases of the rules' list, e.g. 1-3 or 1,5 (quick games).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the full result as JSON.")]
BotTimeoutOption = Annotated[
    float,
    typer.Option(
        "--bot-timeout",
        metavar="SECONDS",
        help="Seconds a program bot (cmd:) has for each answer; one that fails forfeits the game.",
    ),
]


def parse_phase_numbers(text: str, highest: int | None = None) -> tuple[int, ...]:
    """Phase numbers from ``"1-3"``, ``"1,5"`` or ``"2, 4-6"``; none above ``highest``
    (the length of the phase list) when it is given.

    >>> parse_phase_numbers("2, 4-6")
    (2, 4, 5, 6)
    >>> parse_phase_numbers("x")
    Traceback (most recent call last):
    ...
    ValueError: phases are numbers and ranges like 1-3 or 1,5, not 'x'
    >>> parse_phase_numbers("1-99999999999", highest=10)
    Traceback (most recent call last):
    ...
    ValueError: phases picks phases by number from 1 to 10, not 99999999999
    """
    numbers: list[int] = []
    for part in text.split(","):
        low, dash, high = (side.strip() for side in part.partition("-"))
        if not _is_number(low) or (dash and not _is_number(high)):
            raise ValueError(f"phases are numbers and ranges like 1-3 or 1,5, not {text!r}")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"the range {part.strip()!r} runs backwards: write it low-high")
        if highest is not None and last > highest:
            # checked before the range is built: 1-99999999999 would fill the memory
            raise ValueError(f"phases picks phases by number from 1 to {highest}, not {last}")
        numbers.extend(range(first, last + 1))
    return tuple(numbers)


def _is_number(text: str) -> bool:
    """Plain ASCII digits, few enough for ``int`` (which refuses over 4,300 of them)."""
    return is_plain_number(text) and len(text) <= 100


def _read_rules(rules_name: str, phases: str | None) -> Rules:
    if rules_name not in PRESETS:
        _fail(f"no rules preset named {rules_name!r}; presets: {', '.join(PRESETS)}")
    rules = PRESETS[rules_name]
    if phases is not None:
        try:
            rules = rules.with_options(
                phases=parse_phase_numbers(phases, highest=len(rules.phase_list))
            )
        except (RulesError, ValueError) as error:
            _fail(str(error))
    return rules


class _Rate(ProgressColumn):
    """Games per second since the start."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:.1f} games/s")


@contextmanager
def _progress_bar(total: int) -> Iterator[Callable[[int], None] | None]:
    """A transient progress bar on stderr when it is a terminal; else no callback."""
    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    columns = (
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        _Rate(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("games", total=total)
        yield lambda done: bar.update(task, completed=done)


def _play(
    bots: str,
    *,
    games: int,
    players: int | None,
    rules: Rules,
    seed: int,
    jobs: int,
    backend: Backend,
    address: str | None,
    rotate: bool,
    duplicate: bool,
    bot_timeout: float = 10.0,
    save_to: Path | None = None,
) -> TournamentResult:
    if games < 1:
        _fail(f"play at least 1 game, not {games}")
    try:
        with _progress_bar(games) as progress:
            return run_tournament(
                bots,
                games=games,
                players=players,
                rules=rules,
                seed=seed,
                jobs=jobs,
                backend=backend.value,
                address=address,
                rotate=rotate,
                duplicate=duplicate,
                progress=progress,
                bot_timeout=bot_timeout,
                save_to=save_to,
            )
    except (ValueError, RayBackendError, BotError, GameTooLongError) as error:
        _fail(str(error))
    except OSError as error:  # (--save-games: a full disk, a folder taken away)
        _fail(f"cannot keep a game's record: {error.strerror or error} ({error.filename})")


# -- output ----------------------------------------------------------------------------


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _table(rows: tuple[EntryStats, ...], first: str, seats: bool = False) -> Table:
    table = Table(box=box.SIMPLE, pad_edge=False, collapse_padding=True)
    # Only a long bot name (a cmd: command) folds; figures are never cut short.
    longest = max((len(row.name) for row in rows), default=0)
    table.add_column(first, overflow="fold", min_width=min(longest, 12))
    if seats:
        table.add_column("seat", justify="right", no_wrap=True)
    for column in ("games", "wins", "win rate", "95% CI, %", "score", "phases", "rating"):
        ci = column.startswith("95%")
        table.add_column(
            column, justify="left" if ci else "right", no_wrap=True, min_width=11 if ci else None
        )
    for seat, row in enumerate(rows):
        wins = f"{row.wins:g}" if row.wins == int(row.wins) else f"{row.wins:.2f}"
        cells = [
            str(row.games),
            wins,
            _percent(row.win_rate),
            f"{100 * row.ci_low:.1f}-{100 * row.ci_high:.1f}",
            f"{row.mean_score:.1f}",
            f"{row.mean_phases:.2f}",
            f"{row.rating:.0f}",
        ]
        table.add_row(row.name, *([str(seat)] if seats else []), *cells)
    return table


def _print_table(console: Console, table: Table) -> None:
    """Print a table whole: into a file or a pipe as wide as it needs (the console's
    default there is 80 columns), on a terminal as wide as the terminal."""
    if not console.is_terminal:
        options = console.options.update(max_width=10_000)
        needed = Measurement.get(console, options, table).maximum
        if needed > console.width:
            console = Console(highlight=False, width=needed, file=console.file)
    console.print(table)


def _rules_name(rules_name: str, phases: str | None) -> str:
    return f"{rules_name}, phases {phases}" if phases else rules_name


def _footer(result: TournamentResult) -> list[str]:
    workers = f"{result.jobs} worker{'s' if result.jobs != 1 else ''}"
    where = ""  # all-greedy games run in the compiled kernel: say so, it explains the speed
    if result.kernel_games == len(result.games):
        where = ", compiled kernel"
    elif result.kernel_games:
        where = f", {result.kernel_games} in the compiled kernel"
    return [
        f"Hands per game {result.mean_hands:.1f}, actions per game {result.mean_actions:.0f}; "
        f"{count(len(result.games), 'game')} in {result.seconds:.1f} s "
        f"({result.games_per_second:.1f} games/s, {workers}, {result.backend}{where}).",
        f"Score and phases are means at the game's end; {TIE_RULE}.",
        f"Ratings: {RATING_METHOD}.",
    ]


def _seating_line(result: TournamentResult, asked_duplicate: bool) -> str:
    n = result.rotations
    if result.duplicate:
        deals = len(result.games) // n
        return (
            f"Seats rotated through {n} seatings; duplicate deals: {count(deals, 'deal')}, "
            f"each played once in every seating."
        )
    why = (
        f"{count(len(result.games), 'game')} is not a multiple of {n}"
        if asked_duplicate
        else "duplicate deals off"
    )
    return f"Seats rotated through {n} seatings; a fresh deal every game ({why})."


def _print_tournament(
    result: TournamentResult, rules_name: str, phases: str | None, asked_duplicate: bool
) -> None:
    console = Console(highlight=False)
    versus = ", ".join(result.bots)
    console.print(
        f"Tournament: {versus}; {count(len(result.games), 'game')}, {result.players} players, "
        f"seed {result.seed}, rules {_rules_name(rules_name, phases)}",
        soft_wrap=True,
    )
    console.print(_seating_line(result, asked_duplicate), soft_wrap=True)
    _print_table(console, _table(result.entries, "entry"))
    if len(result.by_bot) < len(result.entries):
        console.print("By bot (every entry of a bot together):")
        _print_table(console, _table(result.by_bot, "bot"))
    for line in _forfeit_lines(result):
        console.print(line, soft_wrap=True)
    for line in _footer(result):
        console.print(line, soft_wrap=True)


def _forfeit_lines(result: TournamentResult) -> list[str]:
    """A line per forfeited game: who failed and the first line of why; the rest of why
    (the last lines the bot wrote to its stderr) under the first game that failed so."""
    forfeits = result.forfeits
    if not forfeits:
        return []
    names = result.names
    lines = [f"Forfeits: {count(len(forfeits), 'game')} (a program bot failed; the game stopped):"]
    told: set[str] = set()
    for game in forfeits:
        assert game.forfeit is not None
        first, *rest = (game.forfeit_reason or "").splitlines() or [""]
        lines.append(f"  game {game.index + 1}: {names[game.forfeit]} forfeited: {first}")
        if rest and game.forfeit_reason not in told:
            told.add(game.forfeit_reason or "")
            lines.extend(f"    {line}" for line in rest)
    return lines


def plot_result(result: TournamentResult, path: Path) -> None:
    """Draw win rates with their 95% intervals (per entry) and ratings (per bot) to ``path``."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10, 0.6 * max(len(result.entries), 3) + 1.6), layout="constrained")
    rates, ratings = figure.subplots(1, 2, width_ratios=(3, 2))
    names = list(result.names)[::-1]
    entries = list(result.entries)[::-1]
    values = [100 * e.win_rate for e in entries]
    errors = [
        [100 * (e.win_rate - e.ci_low) for e in entries],
        [100 * (e.ci_high - e.win_rate) for e in entries],
    ]
    rates.barh(names, values, xerr=errors, capsize=4, color="tab:blue")
    rates.axvline(100 / result.players, color="grey", linestyle="--", label="equal share")
    rates.set_xlabel("win rate, % (95% interval)")
    rates.set_xlim(0, 100)
    rates.legend(loc="lower right")
    bots = list(result.by_bot)[::-1]
    spread = max(100.0, *(abs(b.rating - RATING_ANCHOR) + 60 for b in bots))
    bars = ratings.barh(
        [b.name for b in bots],
        [b.rating - RATING_ANCHOR for b in bots],
        left=RATING_ANCHOR,
        color="tab:orange",
    )
    ratings.bar_label(bars, labels=[f"{b.rating:.0f}" for b in bots], padding=3)
    ratings.set_xlim(RATING_ANCHOR - spread, RATING_ANCHOR + spread)
    ratings.axvline(RATING_ANCHOR, color="grey", linestyle="--")
    ratings.set_xlabel("rating (Bradley-Terry, Elo scale, mean 1500)")
    figure.suptitle(
        f"{', '.join(result.bots)}: {count(len(result.games), 'game')}, seed {result.seed}"
        + (", duplicate deals" if result.duplicate else "")
    )
    figure.savefig(path, format=plot_format(path))


def _check_plot_path(path: Path) -> None:
    try:
        plot_format(path)
    except ValueError as error:
        _fail(str(error))
    check_output_file(path, "--plot")


# -- the commands ----------------------------------------------------------------------


def tournament(
    bots: BotsOption,
    games: GamesOption = 100,
    players: Annotated[
        int | None,
        typer.Option("--players", metavar="N", help="Players per game (default: one per bot)."),
    ] = None,
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    rules_name: RulesOption = "official",
    phases: PhasesOption = None,
    backend: Annotated[
        Backend, typer.Option("--backend", help="Worker processes here, or Ray tasks.")
    ] = Backend.PROCESS,
    address: Annotated[
        str | None,
        typer.Option(
            "--address",
            metavar="ADDR",
            help="With --backend ray: the cluster (host:port, ray://host:port or auto); default a "
            "local Ray.",
        ),
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="Replay each deal in every seating (when GAMES is a multiple of the players).",
        ),
    ] = True,
    as_json: JsonOption = False,
    bot_timeout: BotTimeoutOption = 10.0,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", metavar="FILE", help="Draw win rates and ratings to FILE.png."),
    ] = None,
    save_games: Annotated[
        Path | None,
        typer.Option(
            "--save-games",
            metavar="DIR",
            help="Keep each game's record in DIR (game-00001.json, ...), for phase10 review "
            "and phase10 replay.",
        ),
    ] = None,
) -> None:
    """Play bots against each other, seats rotated and deals duplicated; show who wins.

    Game g seats the bots rotated by g places, so each bot sits in each seat equally
    often; with duplicate deals the games of one rotation cycle share a deal. Each game
    is fixed by --seed and its number: the result is the same whatever --jobs or
    --backend. Win rates come with 95% Wilson intervals; a shared win counts 1/k. A
    program bot that crashes, answers badly or runs out of --bot-timeout forfeits that
    game (it stops there, the others ranked as they stood) and the tournament goes on.
    """
    rules = _read_rules(rules_name, phases)
    if address is not None and backend is not Backend.RAY:
        _fail("--address is for --backend ray")
    if jobs < 0:
        _fail(f"--jobs is 0 (one per CPU) or more, not {jobs}")
    if plot is not None:
        _check_plot_path(plot)
    result = _play(
        bots,
        games=games,
        players=players,
        rules=rules,
        seed=seed,
        jobs=jobs,
        backend=backend,
        address=address,
        rotate=True,
        duplicate=duplicate,
        bot_timeout=bot_timeout,
        save_to=save_games,
    )
    # The results first: a chart that cannot be written does not lose them.
    if as_json:
        _print_json(result.to_dict())
    else:
        _print_tournament(result, rules_name, phases, duplicate)
    if plot is not None:
        try:
            plot_result(result, plot)
        except OSError as error:
            _fail(f"--plot: cannot write {str(plot)!r}: {error.strerror or error}")
        if not as_json:
            typer.echo(f"Chart: {plot}")


def simulate(
    bots: BotsOption,
    games: GamesOption = 100,
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    rules_name: RulesOption = "official",
    phases: PhasesOption = None,
    as_json: JsonOption = False,
    log: Annotated[
        bool, typer.Option("--log", help="Print a line per game: winner, scores, hands.")
    ] = False,
) -> None:
    """Play plain games between bots in fixed seats (a fresh deal each) and sum them up."""
    rules = _read_rules(rules_name, phases)
    if jobs < 0:
        _fail(f"--jobs is 0 (one per CPU) or more, not {jobs}")
    result = _play(
        bots,
        games=games,
        players=None,
        rules=rules,
        seed=seed,
        jobs=jobs,
        backend=Backend.PROCESS,
        address=None,
        rotate=False,
        duplicate=False,
    )
    if as_json:
        _print_json(result.to_dict())
        return
    console = Console(highlight=False)
    names = result.names
    if log:
        for game in result.games:
            winners = " and ".join(names[e] for e in game.winners)
            scores = ", ".join(f"{names[e]} {s}" for e, s in enumerate(game.scores))
            phases_done = ", ".join(map(str, game.phases))
            hands = f"{game.hands} hand{'s' if game.hands != 1 else ''}"
            console.print(
                f"game {game.index + 1}: winner {winners}; scores {scores}; "
                f"phases {phases_done}; {hands}, {game.actions} actions",
                soft_wrap=True,
            )
    console.print(
        f"Simulation: {', '.join(result.bots)}; {count(len(result.games), 'game')}, seed {result.seed}, "
        f"rules {_rules_name(rules_name, phases)}; fixed seats, a fresh deal every game",
        soft_wrap=True,
    )
    _print_table(console, _table(result.entries, "bot", seats=True))
    for line in [*_forfeit_lines(result), *_footer(result)]:
        console.print(line, soft_wrap=True)

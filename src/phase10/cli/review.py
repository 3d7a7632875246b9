"""``phase10 review RECORD``: where a player lost ground, and what the expert would have done.

Each decision of the player is weighed by :func:`phase10.search.review` from that player's
view alone; the biggest losses are listed as mistakes, with a summary per hand, and
``--plot`` draws every player's estimated chance to win through the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from phase10.core import is_plain_number
from phase10.core.records import loads

from .common import check_output_file, fail, plot_format, print_json, reading_record

if TYPE_CHECKING:
    from phase10.search.review import Review

__all__ = ["chart_lines", "plot_review", "review"]


def review(
    file: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON).")],
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            "-p",
            metavar="NAME",
            help="Whose decisions, by name or seat (default: the one person who played, else You, else seat 0).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    every: Annotated[
        bool, typer.Option("--all", help="List every decision weighed, not only the mistakes.")
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Draw every player's chance to win through the game to this file.",
        ),
    ] = None,
    deals: Annotated[
        int, typer.Option(min=1, max=512, help="Sampled deals per decision, to the hand's end.")
    ] = 48,
    win_deals: Annotated[
        int, typer.Option(min=1, max=512, help="Sampled deals played to the game's end.")
    ] = 32,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of the sampled deals.")] = 0,
    cache: Annotated[
        bool,
        typer.Option(
            "--cache/--no-cache", help="Keep the review beside the record (NAME.review.json)."
        ),
    ] = True,
) -> None:
    """Review a player's decisions in a game record against the expert bot's."""
    from phase10.search.review import ReviewError, cached_review, find_player
    from phase10.solver.blas import single_blas_thread

    if plot is not None:
        try:
            plot_format(plot)
        except ValueError as error:
            fail(str(error))
        check_output_file(plot, "--plot")
    with reading_record(file):
        record = loads(file.read_text(encoding="utf-8"))
    seat: str | int | None = (
        int(player) if player is not None and is_plain_number(player) else player
    )
    console = Console(stderr=True)
    try:
        find_player(record, seat)
        # the search's small checks: more BLAS threads only wait on each other
        with _progress(console, not as_json) as progress, single_blas_thread():
            done = cached_review(
                file,
                record,
                seat,
                deals=deals,
                win_deals=win_deals,
                seed=seed,
                progress=progress,
                cache=cache,
            )
    except ReviewError as error:
        fail(str(error))
    if plot is not None:
        plot_review(done, plot)
    if as_json:
        print_json(done.to_dict())
        return
    _print_review(done, Console(), plot, every=every)


@contextmanager
def _progress(console: Console, show: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error while the review runs (none off a terminal)."""
    if not (show and console.is_terminal):
        yield None
        return
    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("review", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _print_review(done: Review, console: Console, plot: Path | None, *, every: bool) -> None:
    mistakes = done.mistakes
    console.print(f"[bold]Review of {done.name}[/bold]: {len(done.decisions)} decisions weighed")
    console.print(done.note, style="dim")
    if not mistakes:
        console.print("No mistakes: the expert found nothing clearly better at any decision.")
    else:
        console.print(f"\n[bold]Mistakes ({len(mistakes)})[/bold], the costliest first:")
    for d in mistakes:
        console.print(
            f"  hand {d.hand}, step {d.step}: [red]{d.played}[/red]; the expert: "
            f"[green]{d.best}[/green] (lost {d.loss:.2f})",
            highlight=False,
        )
        console.print(f"    {d.reason}", style="dim", highlight=False)
    if every:
        _print_every(done, console)
    hands = Table(title="Hand by hand", box=box.SIMPLE)
    for column in ("hand", "decisions", "mistakes", "lost", "phase", "points", "win chance"):
        hands.add_column(column, justify="right")
    for h in done.hands:
        made = "" if h.made_phase is None else ("made" if h.made_phase else "missed")
        hands.add_row(
            str(h.hand),
            str(h.decisions),
            str(h.mistakes),
            f"{h.lost:.2f}",
            made,
            "" if h.points is None else str(h.points),
            ""
            if h.win_before is None or h.win_after is None
            else f"{h.win_before:.0%} → {h.win_after:.0%}",
        )
    console.print(hands)
    console.print(
        "lost: value given up against the expert's choice (a phase of your own made this "
        "hand counts 1). Step N is the game after N actions: phase10 replay shows it.",
        style="dim",
    )
    if plot is not None:
        console.print(f"Chart written to {plot}")


def _print_every(done: Review, console: Console) -> None:
    table = Table(title="Every decision", box=box.SIMPLE)
    for column in ("hand", "step", "played", "the expert", "lost", "phase", "win"):
        table.add_column(column, justify="left" if column in ("played", "the expert") else "right")
    for d in done.decisions:
        mark = " ✗" if d.mistake else ""
        table.add_row(
            str(d.hand),
            str(d.step),
            d.played + mark,
            "" if d.best == d.played else d.best,
            f"{d.loss:.2f}",
            f"{d.after_played.phase:.0%}",
            f"{d.after_played.win:.0%}",
        )
    console.print(table)
    console.print(
        "✗: a mistake. phase: how often the player makes their phase this hand after the "
        "move played; win: their chance to win the game after it.",
        style="dim",
    )


def plot_review(done: Review, path: Path) -> None:
    """Every player's estimated chance to win at each of the reviewed player's decisions,
    the hands marked, the mistakes dotted, to ``path``."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10, 4.8), layout="constrained")
    axes = figure.subplots()
    steps = [p.step for p in done.chances]
    lines = {}
    for seat, (name, wins) in enumerate(zip(done.players, chart_lines(done), strict=True)):
        lines[seat] = dict(zip(steps, wins, strict=True))
        width = 2.6 if seat == done.player else 1.4
        axes.plot(steps, wins, label=name, linewidth=width)
    mine = lines[done.player]
    flagged = [d for d in done.decisions if d.mistake and d.step in mine]
    if flagged:
        axes.scatter(
            [d.step for d in flagged],
            [mine[d.step] for d in flagged],
            color="red",
            zorder=3,
            label=f"mistakes ({done.name})",
        )
    starts: dict[int, int] = {}
    for point in done.chances:
        starts.setdefault(point.hand, point.step)
    for step in starts.values():
        axes.axvline(step, color="grey", linewidth=0.5, linestyle=":")
    top = axes.secondary_xaxis("top")
    top.set_xticks(list(starts.values()), [str(hand) for hand in starts], fontsize=7)
    top.set_xlabel("hand", fontsize=8)
    axes.set_ylim(0, 100)
    axes.set_xlabel("actions played")
    axes.set_ylabel(f"chance to win, % (mean of {SMOOTHING} decisions, then the result)")
    axes.set_title(f"Chances to win through the game, as {done.name} could see them")
    axes.legend(loc="upper left", fontsize=8)
    figure.savefig(path, format=plot_format(path))


#: the chart's lines are running means over this many decisions (each point alone is a
#: few dozen play-outs: a line of them is mostly noise)
SMOOTHING = 5


def chart_lines(done: Review) -> list[list[float]]:
    """Each player's line on the chart, in %: the chances at each decision as running
    means (:data:`SMOOTHING`), then the game's result where the review ends on it, as it
    is (no estimate: 100 for a winner, 0 for the others)."""
    points = list(done.chances)
    result = points.pop() if points and all(w in (0.0, 1.0) for w in points[-1].wins) else None
    return [
        _smoothed([100 * p.wins[seat] for p in points])
        + ([] if result is None else [100 * result.wins[seat]])
        for seat in range(len(done.players))
    ]


def _smoothed(values: list[float]) -> list[float]:
    """Running means over :data:`SMOOTHING` values, centred (shorter at the ends)."""
    half = SMOOTHING // 2
    out = []
    for i in range(len(values)):
        window = values[max(0, i - half) : i + half + 1]
        out.append(sum(window) / len(window))
    return out

"""``phase10 odds``: how often a fresh deal already holds each phase.

The phases come from a shipped list (``--list``), from phrases (``--phase``, a
house list numbered in the order given) or from a rules preset's phase sequence
(``--rules`` alone); the natural-card rule from ``--natural-min`` or the preset, and the
deck from ``--deck`` or the preset.

>>> chosen = choose_phases(None, [], None)
>>> chosen.name, len(chosen.phases), chosen.numbers[-1], chosen.natural_min.value
('standard', 10, 10, 'group')
>>> choose_phases(None, [], "masters").deck.value
'masters'
>>> chosen = choose_phases(None, [], "even-phases")
>>> chosen.numbers, str(chosen.phases[0])
((2, 4, 6, 8, 10), '1 set of 3 + 1 run of 4')
>>> [str(p) for p in choose_phases(None, ["3 sets of 3", "1 run of 10"], None).phases]
['3 sets of 3', '1 run of 10']
>>> percent(0.18247), percent(0.0032521), percent(0.0), one_in(0.0032521), one_in(0.5)
('18.25%', '0.325%', '0%', '307', '2.0')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from phase10.core import HAND_SIZE, PRESETS, AntiPhase, Deck, NaturalMin, Phase, Rules
from phase10.core.phase_lists import PHASE_LISTS
from phase10.sim.odds import DECK_SIZE, OddsResult, phase_odds

from .common import check_output_file, count, plot_format
from .common import fail as _fail
from .common import print_json as _print_json
from .hands import read_phase

__all__ = ["PhaseChoice", "choose_phases", "odds", "odds_table", "one_in", "percent", "plot_odds"]

#: Deals when ``--deals`` is not given: 95% intervals of ±0.31 percentage points at worst.
DEFAULT_DEALS = 100_000
#: The file types ``--plot`` writes (by the file's suffix; no suffix: PNG).


@dataclass(frozen=True, slots=True)
class PhaseChoice:
    """The phases to deal for, their numbers, the list's name, the natural-card rule and
    the deck."""

    name: str
    phases: tuple[Phase, ...]
    numbers: tuple[int, ...]
    natural_min: NaturalMin
    deck: Deck = Deck.STANDARD
    #: the preset's deck holds the Anti-phase card too
    anti_phase: bool = False


def choose_phases(
    list_name: str | None,
    phrases: Sequence[str],
    rules_name: str | None,
    natural_min: NaturalMin | None = None,
    deck: Deck | None = None,
) -> PhaseChoice:
    """The phases and rules that ``--list``, ``--phase``, ``--rules``, ``--natural-min`` and
    ``--deck`` ask for.

    Raises :class:`ValueError` with the reason (both ``--list`` and ``--phase``, an
    unknown list or preset, a phrase that does not read).
    """
    if list_name is not None and phrases:
        raise ValueError("give either --list or --phase, not both")
    if rules_name is not None and rules_name not in PRESETS:
        raise ValueError(f"no rules preset named {rules_name!r}; presets: {', '.join(PRESETS)}")
    rules = PRESETS[rules_name] if rules_name is not None else Rules()
    rule = natural_min if natural_min is not None else rules.natural_min
    dealt = deck if deck is not None else rules.deck
    anti = rules.anti_phase is AntiPhase.ON
    if phrases:
        phases: list[Phase] = []
        for number, phrase in enumerate(phrases, start=1):
            try:
                phases.append(read_phase(phrase))
            except ValueError as error:
                raise ValueError(f"--phase {number}: {error}") from None
        numbers = tuple(range(1, len(phases) + 1))
        return PhaseChoice("custom", tuple(phases), numbers, rule, dealt, anti)
    if list_name is not None:
        if list_name not in PHASE_LISTS:
            known = ", ".join(PHASE_LISTS)
            raise ValueError(f"no phase list named {list_name!r}; known lists: {known}")
        chosen = PHASE_LISTS[list_name]
        numbers = tuple(range(1, len(chosen) + 1))
        return PhaseChoice(list_name, chosen, numbers, rule, dealt, anti)
    name = dict(rules.describe())["phase_list"]
    numbers = rules.phase_numbers
    return PhaseChoice(name, rules.phase_sequence, numbers, rule, dealt, anti)


def percent(probability: float, like: float | None = None) -> str:
    """A probability as a percentage: two decimals, and below 1% three significant figures
    (or as many decimals as ``like``'s), so a rare phase never reads as 0.

    >>> percent(0.000015), percent(0.0000027, like=0.000015)
    ('0.00150%', '0.00027%')
    """
    if probability == 0:
        return "0%"
    shown = (probability if like is None or like == 0 else like) * 100
    digits = 2 if shown >= 1 else max(2, 2 - math.floor(math.log10(shown)))
    return f"{probability * 100:.{digits}f}%"


def one_in(probability: float) -> str:
    """``"1 in N"``'s N: whole above 100, one decimal below; ``"never"`` for 0."""
    if probability == 0:
        return "never"
    odds = 1 / probability
    return f"{odds:,.0f}" if odds >= 100 else f"{odds:.1f}"


def _title(result: OddsResult, name: str) -> str:
    return f"{name} list: {count(result.deals, 'deal')} of {count(result.cards, 'card')}"


def odds_table(result: OddsResult, name: str) -> Table:
    """The rich table ``phase10 odds`` prints."""
    if result.natural_min is NaturalMin.GROUP:
        rule = "a numbered card in every group"
    else:
        rule = "one numbered card per phase"
    anti = "; the Anti-phase card in the deck" if result.anti_phase else ""
    table = Table(
        title=_title(result, name),
        caption=f"seed {result.seed}; {rule}{anti}; 95% Wilson intervals",
        box=box.SIMPLE,
    )
    table.add_column("#", justify="right")
    table.add_column("phase")
    table.add_column("probability", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("1 in", justify="right")
    for entry in result.phases:
        low, high = entry.ci95
        table.add_row(
            str(entry.number),
            str(entry.phase),
            percent(entry.probability),
            # digits as the estimate's (the upper bound's when nothing was found)
            f"{percent(low, entry.probability)} – {percent(high, entry.probability or high)}",
            one_in(entry.probability),
        )
    return table


def plot_odds(result: OddsResult, name: str, path: Path) -> None:
    """A horizontal bar chart of the odds with their 95% intervals, written to ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    entries = result.phases
    labels = [f"{entry.number}. {entry.phase}" for entry in entries]
    values = [entry.probability * 100 for entry in entries]
    lows = [value - entry.ci95[0] * 100 for value, entry in zip(values, entries, strict=True)]
    highs = [entry.ci95[1] * 100 - value for value, entry in zip(values, entries, strict=True)]
    figure = Figure(figsize=(8, 1.2 + 0.45 * len(entries)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    positions = list(range(len(entries)))
    axes.barh(positions, values, xerr=[lows, highs], color="#3a7dc9", ecolor="#222222", capsize=3)
    axes.set_yticks(positions, labels)
    axes.invert_yaxis()
    axes.set_xlabel("probability that the deal holds the phase (%), with 95% CI")
    axes.set_xlim(0, max(max(values) * 1.18, 1.0))
    for position, value, entry in zip(positions, values, entries, strict=True):
        axes.annotate(
            percent(entry.probability),
            (value, position),
            va="center",
            fontsize=8,
            xytext=(4, 0),
            textcoords="offset points",
        )
    axes.set_title(_title(result, name))
    figure.savefig(path, format=plot_format(path), dpi=120)


def odds(
    list_name: Annotated[
        str | None,
        typer.Option(
            "--list",
            metavar="NAME",
            help="A shipped phase list (default: standard).",
            show_default=False,
        ),
    ] = None,
    phrases: Annotated[
        list[str] | None,
        typer.Option(
            "--phase",
            metavar="PHRASE",
            help="A phase of a house list, like '1 set of 4 + 1 run of 5'; repeat for more.",
            show_default=False,
        ),
    ] = None,
    deals: Annotated[
        int, typer.Option("--deals", metavar="N", help="How many deals to make.")
    ] = DEFAULT_DEALS,
    cards: Annotated[
        int, typer.Option("--cards", metavar="N", help=f"Cards per deal (1-{DECK_SIZE}).")
    ] = HAND_SIZE,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="The seed of the deals.")] = 0,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", metavar="J", help="Worker processes (0: one per CPU); the answer is the same."
        ),
    ] = 1,
    rules_name: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="PRESET",
            help="A rules preset: its natural-card rule and deck, and its phases unless --list "
            "or --phase is given.",
            show_default=False,
        ),
    ] = None,
    natural_min: Annotated[
        NaturalMin | None,
        typer.Option(
            "--natural-min",
            help="A numbered card in every group, or one in the whole phase "
            "(default: the rules' choice, group).",
            show_default=False,
        ),
    ] = None,
    deck: Annotated[
        Deck | None,
        typer.Option(
            "--deck",
            help="The deck dealt from: its Wilds and Skips (default: the rules' choice, standard).",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE.png",
            help="Also draw a bar chart with the 95% intervals.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """The probability that a fresh deal already holds each phase, with a 95% interval.

    Every phase is checked on the same DEALS random deals of CARDS cards from the
    full deck (108 cards, or the one --deck or the preset names). The seed alone fixes the answer, whatever --jobs is.
    """
    try:
        chosen = choose_phases(list_name, phrases or [], rules_name, natural_min, deck)
        if plot is not None:
            plot_format(plot)
    except ValueError as error:
        _fail(str(error))
    if plot is not None:
        check_output_file(plot, "--plot")
    progress = Progress(
        TextColumn("dealing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("deals"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not Console(stderr=True).is_terminal,  # nothing on a log or a pipe
    )
    try:
        with progress:
            task = progress.add_task("dealing", total=deals)
            result = phase_odds(
                chosen.phases,
                deals=deals,
                cards=cards,
                seed=seed,
                jobs=jobs,
                natural_min=chosen.natural_min,
                deck=chosen.deck,
                anti_phase=chosen.anti_phase,
                numbers=chosen.numbers,
                progress=lambda done: progress.advance(task, done),
            )
    except ValueError as error:
        _fail(str(error))
    # The answer first: a chart that cannot be written does not lose it.
    if as_json:
        _print_json({**result.to_dict(), "list": chosen.name})
    else:
        Console(highlight=False).print(odds_table(result, chosen.name))
    if plot is not None:
        try:
            plot_odds(result, chosen.name, plot)
        except OSError as error:
            _fail(f"--plot: cannot write {str(plot)!r}: {error.strerror or error}")

"""The ``phase10`` commands (typer and rich: the ``cli`` extra).

Exit codes: 0 success (``check``: the cards hold the phase), 1 ``check``: they do
not, 2 bad input (the message names what was wrong).
"""

from __future__ import annotations

import textwrap
import typing
from enum import Enum
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from phase10 import __version__
from phase10.core import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESET_NOTES,
    PRESETS,
    NaturalMin,
    Rules,
    hand_points,
)
from phase10.core.phase_lists import PHASE_LIST_NOTES, PHASE_LISTS
from phase10.core.rules_text import explain_rules

from .common import fail as _fail
from .common import print_json as _print_json
from .common import refuse_unknown_options
from .demo import demo_log
from .hands import check_hand, read_cards, read_phase

__all__ = ["app"]

app = typer.Typer(
    name="phase10",
    help=(
        "Phase 10, the card game: play it in the terminal (phase10 play) or host it in the "
        "browser (phase10 serve), against computer players or friends; hints, odds, "
        "tournaments, replays and reviews."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

#: What each rules option means, for ``phase10 rules``.
OPTION_MEANINGS = {
    "phase_list": "the phases played (see: phase10 phases --all)",
    "phases": "which of the list's phases are played, by number",
    "advance": "after a hand, who advances: those who laid their phase, or all",
    "phase_order": "the phases in order, or any not yet completed",
    "declare": "any order: name the phase after the deal, or when laying it",
    "going_out": "the last card leaves any way, or only by a discard",
    "wild_deal_up": "a Wild turned up: the first player may take it, or the dealer gives it",
    "skip_target": "a Skip skips the player its discarder chooses, or the next",
    "natural_min": "a numbered card in every group, or one in the whole phase",
    "end_when": "the game ends with the hand, or when the lone leader lays the last phase",
    "empty_draw_pile": "an empty draw pile: reshuffle the discards, or end the hand",
    "deck": "the deck's Wilds and Skips: standard 8 and 4, masters 8 and 2, or 12 and 2",
    "save_pile": "a card may be saved once a hand and taken back later: off, private or public",
    "saved_score": "saved cards at a hand's end: never scored, or scored as penalty points",
    "give_up": "Variant #2: a laid phase may be given up for a fresh hand (forfeit or keep)",
    "anti_phase": "an Anti-phase card (A) in the deck: who goes out with it names a player "
    "who moves down a phase",
}
_CHOICES = {"phase_list": "another list, or phrases", "phases": "phase numbers"}

CardsArgument = Annotated[
    list[str],
    typer.Argument(
        metavar="CARDS",
        help="Cards like R7 B12 W S: several words or one quoted string; commas are fine.",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")]


def _console() -> Console:
    return Console(highlight=False)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"phase10 {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Phase 10, the card game: play it in the terminal (phase10 play) or host it in the
    browser (phase10 serve), against computer players or friends; hints, odds,
    tournaments, replays and reviews."""


@app.command(context_settings={"ignore_unknown_options": True})  # PHASE may be -1: say why
def check(
    phase: Annotated[
        str,
        typer.Argument(
            metavar="PHASE",
            help="A phase number (1-10 in the standard list) or a phrase like "
            "'1 set of 3 + 1 run of 4'.",
            show_default=False,
        ),
    ],
    cards: CardsArgument,
    list_name: Annotated[
        str, typer.Option("--list", metavar="NAME", help="The phase list a phase number refers to.")
    ] = "standard",
    natural_min: Annotated[
        NaturalMin,
        typer.Option(
            "--natural-min", help="A numbered card in every group, or one in the whole phase."
        ),
    ] = NaturalMin.GROUP,
    as_json: JsonOption = False,
) -> None:
    """Say whether CARDS hold PHASE, and the way to lay it down that lays the most cards.

    Exit 0 if they do, 1 if not, 2 on bad input. With --json, "groups" lists each
    group's cards (a Wild is "W") and "described" the same groups with every Wild's
    value ("R7 B7 W=7"); both are empty when the cards do not hold the phase.
    """
    refuse_unknown_options("check", (phase, *cards))
    try:
        chosen = read_phase(phase, list_name)
        hand = read_cards(cards)
    except ValueError as error:
        _fail(str(error))
    report = check_hand(chosen, hand, natural_min)
    if as_json:
        _print_json(report)
    elif report["complete"]:
        typer.echo(f"yes: {' '.join(report['cards'])} hold {report['phase']}")
        for kind, described in zip(report["kinds"], report["described"], strict=True):
            typer.echo(f"  {kind}: {described}")
        left = " ".join(report["left"]) or "nothing"
        typer.echo(f"  left in hand: {left} ({report['left_points']} points)")
    else:
        typer.echo(f"no: {' '.join(report['cards'])} do not hold {report['phase']}")
    if not report["complete"]:
        raise typer.Exit(1)


@app.command()
def score(cards: CardsArgument, as_json: JsonOption = False) -> None:
    """The points CARDS count if left in hand: 1-9 five, 10-12 ten, Skip 15, the
    Anti-phase card (A) 15, Wild 25."""
    try:
        hand = read_cards(cards, limit=None)
    except ValueError as error:
        _fail(str(error))
    points = hand_points(hand)
    if as_json:
        _print_json({"points": points})
    else:
        typer.echo(f"{' '.join(map(str, hand))}: {points} points")


@app.command()
def phases(
    list_name: Annotated[
        str, typer.Option("--list", metavar="NAME", help="The phase list to show.")
    ] = "standard",
    show_all: Annotated[
        bool, typer.Option("--all", help="List every phase list's name and first phase instead.")
    ] = False,
) -> None:
    """Print a phase list, numbered (the standard list unless --list names another)."""
    if show_all:
        # the editions' lists have no name of their own: their first phases tell them apart
        width = max(map(len, PHASE_LISTS))
        for name, listed in PHASE_LISTS.items():
            note = PHASE_LIST_NOTES.get(name)
            typer.echo(f"{name:<{width}}  {f'{note}; ' if note else ''}phase 1: {listed[0]}")
        typer.echo("(phase10 phases --list NAME prints one whole)")
        return
    if list_name not in PHASE_LISTS:
        _fail(f"no phase list named {list_name!r}; known lists: {', '.join(PHASE_LISTS)}")
    note = PHASE_LIST_NOTES.get(list_name)
    typer.echo(f"{list_name}: {note}" if note else list_name)
    for number, phase in enumerate(PHASE_LISTS[list_name], start=1):
        typer.echo(f"{number:>3}. {phase}")


@app.command()
def rules(
    preset_name: Annotated[
        str | None, typer.Option("--preset", metavar="NAME", help="Show this preset's options.")
    ] = None,
) -> None:
    """List the rules presets and the options they set; --preset shows one preset."""
    console = _console()
    official = dict(Rules().describe())
    if preset_name is not None:
        if preset_name not in PRESETS:
            _fail(f"no rules preset named {preset_name!r}; presets: {', '.join(PRESETS)}")
        console.print(f"{preset_name}: {PRESET_NOTES[preset_name]}", soft_wrap=True)
        table = Table("option", "value", "official", box=box.SIMPLE)
        for option, value in PRESETS[preset_name].describe():
            default = official[option]
            table.add_row(option, value, "" if value == default else default)
        console.print(table)
        console.print("In words (docs/rules.md has every reading):")
        width = max(40, min(console.width, 100) - 1)
        for sentence in explain_rules(PRESETS[preset_name]):
            text = textwrap.fill(sentence, width, initial_indent="  - ", subsequent_indent="    ")
            console.print(text, soft_wrap=True)
        return
    console.print("Presets (phase10 rules --preset NAME, phase10 demo --rules NAME):")
    width = max(map(len, PRESETS))
    for name, note in PRESET_NOTES.items():
        console.print(f"  {name:<{width}}  {note}", soft_wrap=True)
    hints = typing.get_type_hints(Rules)
    table = Table(
        "option", "values (* official)", "meaning", box=box.SIMPLE, pad_edge=False, title="Options"
    )
    for option, default in Rules().describe():
        kind = hints.get(option)
        if isinstance(kind, type) and issubclass(kind, Enum):
            values = [str(member.value) for member in kind]
            choices = ", ".join(f"{v}*" if v == default else v for v in values)
        else:
            choices = f"{default}*, or {_CHOICES.get(option, 'another value')}"
        table.add_row(option, choices, OPTION_MEANINGS.get(option, ""))
    console.print(table)


@app.command()
def demo(
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="The game's seed.")] = 1,
    players: Annotated[
        int, typer.Option("--players", metavar="N", help="How many players (2-6).")
    ] = 4,
    rules_name: Annotated[
        str, typer.Option("--rules", metavar="PRESET", help="A rules preset (see: phase10 rules).")
    ] = "official",
    quiet: Annotated[bool, typer.Option("--quiet", help="Print only the final result.")] = False,
) -> None:
    """Watch a complete seeded game between simple computer players, hand by hand."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        _fail(f"the demo is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if rules_name not in PRESETS:
        _fail(f"no rules preset named {rules_name!r}; presets: {', '.join(PRESETS)}")
    typer.echo("\n".join(demo_log(seed, players, rules_name, quiet=quiet)))


from .odds import odds as _odds  # noqa: E402

app.command(name="odds")(_odds)

from .tournament import simulate as _simulate  # noqa: E402
from .tournament import tournament as _tournament  # noqa: E402

app.command(name="tournament")(_tournament)
app.command(name="simulate")(_simulate)

from .hint import hint as _hint  # noqa: E402

# A negative phase number or card is bad input to explain, not an unknown option: the
# command itself refuses what is left of unknown options.
app.command(name="hint", context_settings={"ignore_unknown_options": True})(_hint)

from .play import play as _play  # noqa: E402
from .play import replay as _replay  # noqa: E402

app.command(name="play")(_play)
app.command(name="replay")(_replay)

from .review import review as _review  # noqa: E402

app.command(name="review")(_review)

from .protocol_test import protocol_test as _protocol_test  # noqa: E402
from .serve import serve as _serve  # noqa: E402

app.command(name="serve")(_serve)
app.command(name="protocol-test")(_protocol_test)

from .dice import dice_app as _dice_app  # noqa: E402

app.add_typer(_dice_app, name="dice")

"""``phase10 hint``: advice for a hand that has just drawn, with the table it plays on.

>>> from phase10.core import GroupKind
>>> read_table_group("R3 R4 W").kind is GroupKind.RUN
True
>>> str(read_table_group("set: R7 B7 W"))
'R7 B7 W'
>>> read_table_group("R3 B8")
Traceback (most recent call last):
...
ValueError: 'R3 B8' is not a group of any kind; write it like 'run: R3 R4 R5' or 'set: R7 B7 W'
>>> read_table_group("R9 B9 A")
Traceback (most recent call last):
...
ValueError: 'R9 B9 A' is not a group: the Anti-phase card can never be part of one
"""

from __future__ import annotations

from typing import Annotated

import typer

from phase10.bots.hints import plan_turn
from phase10.core import (
    AntiPhase,
    Deck,
    Group,
    GroupError,
    GroupKind,
    NaturalMin,
    Rules,
    check_deck_can_hold,
    parse_cards,
    parse_group,
)

from .hands import read_cards, read_phase

__all__ = ["hint", "read_table_group"]

# Tried in this order when a table group is written without its kind.
_KIND_ORDER = (
    GroupKind.SET,
    GroupKind.RUN,
    GroupKind.COLOR_RUN,
    GroupKind.COLOR,
    GroupKind.COLOR_EVEN_ODD,
    GroupKind.EVEN_ODD,
)
_KIND_WORDS = {
    "set": GroupKind.SET,
    "run": GroupKind.RUN,
    "color": GroupKind.COLOR,
    "colour": GroupKind.COLOR,
    "even_odd": GroupKind.EVEN_ODD,
    "even-odd": GroupKind.EVEN_ODD,
    "color_run": GroupKind.COLOR_RUN,
    "color-run": GroupKind.COLOR_RUN,
    "color_even_odd": GroupKind.COLOR_EVEN_ODD,
    "color-even-odd": GroupKind.COLOR_EVEN_ODD,
}


def read_table_group(text: str) -> Group:
    """A group on the table, ``kind: cards`` or just the cards (the kind is then the
    first that fits: set, run, colour run, colour, colour even/odd, even/odd).
    """
    head, colon, rest = text.partition(":")
    if colon:
        kind = _KIND_WORDS.get(head.strip().lower())
        if kind is None:
            known = ", ".join(sorted(_KIND_WORDS))
            raise ValueError(f"{head.strip()!r} is not a kind of group; use one of: {known}")
        try:
            return parse_group(kind, rest)
        except (GroupError, ValueError) as error:
            raise ValueError(str(error)) from None
    try:
        named = parse_cards(text)
    except ValueError:
        named = ()  # said below: the text is no group
    if any(card.is_anti for card in named):
        raise ValueError(f"{text!r} is not a group: the Anti-phase card can never be part of one")
    for kind in _KIND_ORDER:
        try:
            return parse_group(kind, text)
        except (GroupError, ValueError):
            continue
    raise ValueError(
        f"{text!r} is not a group of any kind; write it like 'run: R3 R4 R5' or 'set: R7 B7 W'"
    )


def hint(
    phase: Annotated[
        str,
        typer.Argument(
            metavar="PHASE",
            help="The phase you are making: a number (in --list) or a phrase; 'down' if it is "
            "already laid.",
            show_default=False,
        ),
    ],
    cards: Annotated[
        list[str],
        typer.Argument(
            metavar="CARDS",
            help="Your hand after drawing, like R7 B12 W S (A: the Anti-phase card).",
            show_default=False,
        ),
    ],
    table: Annotated[
        list[str] | None,
        typer.Option(
            "--table",
            metavar="GROUP",
            help="A group on the table, like 'run: R3 R4 R5' (repeat for each; the advice names "
            "it by what it holds: the run 3-5). Without a kind, the group is the "
            "first kind its cards make: set, run, color run, color, color even/odd, even/odd.",
        ),
    ] = None,
    discards: Annotated[
        str,
        typer.Option("--discards", metavar="CARDS", help="The discard pile, for the odds."),
    ] = "",
    list_name: Annotated[
        str, typer.Option("--list", metavar="NAME", help="The phase list a phase number refers to.")
    ] = "standard",
    natural_min: Annotated[
        NaturalMin,
        typer.Option(
            "--natural-min", help="A numbered card in every group, or one in the whole phase."
        ),
    ] = NaturalMin.GROUP,
    deck: Annotated[
        Deck,
        typer.Option("--deck", help="The deck (rules §1): its Wilds and Skips, for the odds."),
    ] = Deck.STANDARD,
    anti_phase: Annotated[
        bool,
        typer.Option(
            "--anti-phase",
            help="The deck holds the Anti-phase card (A): it may be in your hand or seen.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the advice as JSON.")] = False,
) -> None:
    """Advise a hand that has drawn: what to lay, what to hit, what to discard and why,
    then how far the phase is (cards missing, outs, the chance within 1-3 draws).
    """
    from .common import fail as _fail
    from .common import print_json as _print_json
    from .common import refuse_unknown_options

    refuse_unknown_options("hint", (phase, *cards))
    try:
        aim = None if phase.strip().lower() == "down" else read_phase(phase, list_name)
        anti = AntiPhase.ON if anti_phase else AntiPhase.OFF
        if not anti_phase and any(
            card.is_anti for card in parse_cards(" ".join([*cards, discards]))
        ):
            raise ValueError("the Anti-phase card (A) is in the deck only with --anti-phase")
        counts = Rules(deck=deck, anti_phase=anti).deck_counts
        hand = read_cards(cards, deck=counts)
        groups = [read_table_group(text) for text in table or []]
        if natural_min is NaturalMin.GROUP:
            for group in groups:
                if not group.natural_count:
                    raise ValueError(
                        f"{group.describe()} is all Wilds, which no table holds when every "
                        "group needs a numbered card (--natural-min phase allows it)"
                    )
        seen = read_cards([discards], limit=None, deck=counts) if discards.strip() else ()
        everything = [*hand, *seen, *(card for group in groups for card in group.cards)]
        check_deck_can_hold(everything, counts)
        if not any(card.is_anti for card in everything):
            counts = Rules(deck=deck).deck_counts
    except ValueError as error:
        _fail(str(error))
    advice = plan_turn(aim, hand, groups, natural_min, seen=seen, deck=counts)
    if as_json:
        _print_json(advice.to_dict())
    else:
        typer.echo(str(advice))

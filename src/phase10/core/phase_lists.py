"""The phase lists that ship with the engine (docs/rules.md §2).

The standard list is the default. ``island-paradise`` is the one list that a published
overview of the game's editions names; the others are the edition lists it gives without
a name, numbered in the order they appear there (``edition-1`` ... ``edition-12``).

>>> len(PHASE_LISTS["standard"]), str(PHASE_LISTS["standard"][7])
(10, '7 cards of one color')
>>> str(phase_list("island-paradise")[0])
'1 run of 7'
>>> sorted(PHASE_LISTS)[:3]
['edition-1', 'edition-10', 'edition-11']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final

from .phases import Phase, PhaseParseError

__all__ = ["PHASE_LISTS", "PHASE_LIST_NOTES", "STANDARD_PHASES", "parse_phase_list", "phase_list"]


def parse_phase_list(phrases: Iterable[str]) -> tuple[Phase, ...]:
    """Read a list of phase phrases (at least one).

    >>> [str(p) for p in parse_phase_list(["2 sets of 3", "1 run of 7"])]
    ['2 sets of 3', '1 run of 7']
    """
    if isinstance(phrases, str) or not isinstance(phrases, Iterable):
        raise PhaseParseError(f"a phase list is a list of phrases, not {phrases!r}")
    phases: list[Phase] = []
    for number, phrase in enumerate(phrases, start=1):
        try:
            phases.append(Phase.parse(phrase))
        except PhaseParseError as error:
            raise PhaseParseError(f"phase {number}: {error}") from None
    if not phases:
        raise PhaseParseError("a phase list needs at least one phase")
    return tuple(phases)


_SOURCE: Final[dict[str, tuple[str, ...]]] = {
    "standard": (
        "2 sets of 3", "1 set of 3 + 1 run of 4", "1 set of 4 + 1 run of 4", "1 run of 7",
        "1 run of 8", "1 run of 9", "2 sets of 4", "7 cards of one color",
        "1 set of 5 + 1 set of 2", "1 set of 5 + 1 set of 3",
    ),
    "edition-1": (
        "3 sets of 3", "4 sets of 2", "1 set of 5 + 1 run of 4", "2 sets of 3 + 1 run of 3",
        "1 set of 3 + 1 run of 6", "2 runs of 4", "1 run of 4 + 4 cards of one color",
        "1 run of 5 of one color", "8 cards of one color", "9 cards of one color",
    ),
    "island-paradise": (
        "1 run of 7", "1 set of 2 + 2 sets of 3", "1 run of 6 + 1 set of 2",
        "3 sets of 2 + 1 set of 3", "1 set of 3 + 1 run of 6", "2 runs of 4",
        "3 cards of one color + 1 set of 4", "8 cards of one color",
        "4 cards of one color + 1 set of 5", "9 cards of one color",
    ),
    "edition-2": (
        "6 cards of one color", "7 cards of one color", "4 cards of one color + 5 cards of one color",
        "2 sets of 3", "1 run of 8", "1 run of 9", "1 set of 4 + 1 run of 4",
        "10 cards of even or odd", "1 set of 4 + 1 run of 6", "1 set of 5 + 1 run of 4",
    ),
    "edition-3": (
        "1 even or odd of 8", "1 even or odd of 9", "1 color run of 3 + 2 sets of 2",
        "7 of one color", "1 color run of 5 + 2 sets of 2",
        "1 color even or odd of 3 + 1 color even or odd of 4", "1 color run of 4 + 1 set of 4",
        "1 color run of 4 + 3 sets of 2", "1 run of 3 + 2 sets of 3",
        "1 run of 3 + 1 set of 4 + 1 set of 3",
    ),
    "edition-4": (
        "3 of one color + 3 of one color + 4 of one color", "1 color run of 3 + 2 sets of 2",
        "7 of one color", "1 set of 3 + 1 set of 3", "1 set of 4 + 1 set of 2", "1 set of 5",
        "2 color even or odd of 4", "1 run of 9", "1 color run of 5 + 2 sets of 2",
        "1 color run of 6 + 1 set of 2",
    ),
    "edition-5": (
        "1 run of 3 + 3 sets of 2", "1 run of 8", "1 run of 9", "1 color run of 3 + 1 set of 3",
        "1 set of 2 + 2 sets of 3", "1 set of 2 + 1 set of 3 + 1 set of 4",
        "4 of one color + 6 of one color", "5 of one color + 5 of one color",
        "1 run of 5 + 1 set of 3 + 1 set of 2", "1 run of 3 + 1 set of 4 + 1 set of 3",
    ),
    "edition-6": (
        "1 even or odd of 9", "1 even or odd of 10", "1 run of 8", "1 run of 10", "2 sets of 3",
        "2 sets of 4", "1 color run of 4", "1 color run of 3 + 3 of one color",
        "1 set of 3 + 1 run of 4", "1 set of 4 + 1 run of 6",
    ),
    "edition-7": (
        "1 set of 4 + 1 set of 2", "2 sets of 3", "1 run of 7", "1 run of 8",
        "1 set of 2 + 2 sets of 3", "1 set of 5", "1 run of 9", "1 run of 6 + 2 sets of 2",
        "1 run of 8 + 1 set of 2", "1 set of 4 + 1 run of 6",
    ),
    "edition-8": (
        "1 set of 2 + 1 run of 6", "1 even or odd of 9", "1 even or odd of 10",
        "1 color run of 3 + 1 set of 3", "1 set of 3 + 1 run of 5", "1 set of 5 + 1 run of 4",
        "1 color run of 5", "1 color even or odd of 3 + 1 color even or odd of 5", "5 sets of 2",
        "2 sets of 3 + 2 sets of 2",
    ),
    "edition-9": (
        "1 even or odd of 8", "1 color run of 3 + 1 set of 3", "1 even or odd of 9",
        "1 color run of 4", "1 even or odd of 10", "1 color run of 5", "1 color even or odd of 5",
        "1 color run of 5 + 1 set of 2", "1 color even or odd of 6",
        "1 color run of 5 + 3 of one color",
    ),
    "edition-10": (
        "1 set of 3 + 1 run of 5", "1 run of 4 + 1 set of 3 + 1 set of 2",
        "1 run of 3 + 1 set of 3 + 2 sets of 2", "1 color run of 4",
        "1 color run of 4 + 1 set of 2", "1 color run of 4 + 2 sets of 2", "1 set of 5 + 1 run of 4",
        "1 color even or odd of 5", "1 color even or odd of 6",
        "1 color run of 3 + 3 of one color + 1 set of 2",
    ),
    "edition-11": (
        "1 run of 7", "1 set of 4 + 1 set of 3", "1 color run of 5 + 1 set of 2",
        "1 even or odd of 10", "2 runs of 5", "3 sets of 3", "1 color run of 4 + 1 set of 3",
        "1 color even or odd of 3 + 1 color even or odd of 4", "1 run of 7 + 1 set of 2",
        "1 color run of 5 + 1 set of 3",
    ),
    # The source prints edition-8's list a second time, last; it ships under its own name too.
    "edition-12": (
        "1 set of 2 + 1 run of 6", "1 even or odd of 9", "1 even or odd of 10",
        "1 color run of 3 + 1 set of 3", "1 set of 3 + 1 run of 5", "1 set of 5 + 1 run of 4",
        "1 color run of 5", "1 color even or odd of 3 + 1 color even or odd of 5", "5 sets of 2",
        "2 sets of 3 + 2 sets of 2",
    ),
}  # fmt: skip

#: Every shipped phase list by name, in the order of the source text.
PHASE_LISTS: Final[Mapping[str, tuple[Phase, ...]]] = MappingProxyType(
    {name: parse_phase_list(phrases) for name, phrases in _SOURCE.items()}
)
#: A word on a list, where there is one to say.
PHASE_LIST_NOTES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "standard": "the official list (also the Masters edition's)",
        "island-paradise": "Phase 10 Island Paradise",
        "edition-12": "edition-8's list again, as the source prints it twice",
    }
)
STANDARD_PHASES: Final = PHASE_LISTS["standard"]


def phase_list(name: str) -> tuple[Phase, ...]:
    """A shipped phase list by name; an unknown name gets the list of known ones."""
    try:
        return PHASE_LISTS[name]
    except KeyError:
        known = ", ".join(PHASE_LISTS)
        raise KeyError(f"no phase list named {name!r}; known lists: {known}") from None

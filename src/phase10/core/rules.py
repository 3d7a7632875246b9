"""The rules object: every option of docs/rules.md §8 as a field, and the named presets.

>>> rules = Rules()
>>> rules.skip_target, rules.natural_min, len(rules.phase_sequence)
(<SkipTarget.CHOOSE: 'choose'>, <NaturalMin.GROUP: 'group'>, 10)
>>> [str(p) for p in preset("even-phases").phase_sequence][:2]
['1 set of 3 + 1 run of 4', '1 run of 7']
>>> Rules.from_dict(Rules(skip_target=SkipTarget.NEXT).to_dict()) == Rules(skip_target=SkipTarget.NEXT)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from .cards import STANDARD_SKIPS, STANDARD_WILDS, Card, deck_counts
from .phase_lists import PHASE_LISTS, STANDARD_PHASES, parse_phase_list
from .phases import Phase, PhaseParseError

__all__ = [
    "HAND_SIZE",
    "MAX_HAND",
    "MAX_PHASES",
    "PRESETS",
    "PRESET_NOTES",
    "Advance",
    "AntiPhase",
    "Deck",
    "DeclareWhen",
    "EmptyDrawPile",
    "EndWhen",
    "GivingUp",
    "GoingOut",
    "NaturalMin",
    "PhaseOrder",
    "Rules",
    "RulesError",
    "SavePile",
    "SavedScore",
    "SkipTarget",
    "WildDealUp",
    "natural_min_of",
    "preset",
    "rules_name",
]


#: The longest phase list (rules §8: a list holds one to ten phrases).
MAX_PHASES: Final = 10
#: The cards dealt to each player (rules §3).
HAND_SIZE: Final = 10
#: The most cards a hand can ever hold: the ten dealt and one drawn (or given).
MAX_HAND: Final = HAND_SIZE + 1


class RulesError(ValueError):
    """A rules object that cannot be played: a bad option value or a contradiction."""


class Advance(StrEnum):
    COMPLETED = "completed"  #: only players who laid their phase down advance (official)
    ALL = "all"  #: "ten hands": everyone advances every hand


class PhaseOrder(StrEnum):
    SEQUENCE = "sequence"  #: phases in order (official)
    ANY = "any"  #: any phase not yet completed (Masters edition, Arkansas rules)


class DeclareWhen(StrEnum):
    """When a player names the phase they attempt, if phases may be made in any order."""

    DEAL = "deal"  #: name the phase after the deal and keep to it for the hand
    LAYDOWN = "laydown"  #: name the phase when laying it down


class GoingOut(StrEnum):
    ANY = "any"  #: the hand empties by laying down, hitting or discarding (official)
    DISCARD = "discard"  #: the last card must leave by a discard ("floating")


class WildDealUp(StrEnum):
    FIRST_PLAYER = "first_player"  #: the first player may take it like any discard (official)
    DEALER_CHOOSES = "dealer_chooses"  #: the dealer gives it to a player, who discards a card


class SkipTarget(StrEnum):
    CHOOSE = "choose"  #: the discarder names any other player without a pending skip (official)
    NEXT = "next"  #: the next player in seat order is skipped


class NaturalMin(StrEnum):
    GROUP = "group"  #: every group needs a numbered card
    PHASE = "phase"  #: one numbered card in the whole phase (the sheet's literal wording)


def natural_min_of(value: object) -> NaturalMin:
    """``value`` as a :class:`NaturalMin`: the member itself or its text.

    >>> natural_min_of("phase")
    <NaturalMin.PHASE: 'phase'>
    >>> natural_min_of("groups")
    Traceback (most recent call last):
    ...
    ValueError: natural_min is 'group' or 'phase', not 'groups'
    """
    if isinstance(value, NaturalMin):
        return value
    try:
        return NaturalMin(value)  # type: ignore[arg-type]  # any value: refused below
    except ValueError:
        raise ValueError(f"natural_min is 'group' or 'phase', not {value!r}") from None


class EndWhen(StrEnum):
    HAND_END = "hand_end"  #: the game ends at the end of the hand (official)
    IMMEDIATELY = "immediately"  #: a lone player on the last phase who lays it down wins at once


class Deck(StrEnum):
    """Which printing's deck is shuffled: all have two of each numbered card (rules §1, §8)."""

    STANDARD = "standard"  #: 8 Wilds and 4 Skips: 108 cards (official)
    MASTERS = "masters"  #: 8 Wilds and 2 Skips: 106 cards (the Masters Edition tin)
    MASTERS_12_WILDS = "masters_12_wilds"  #: 12 Wilds and 2 Skips: 110 cards (another printing)

    @property
    def wilds(self) -> int:
        """How many Wilds this deck holds."""
        return _DECK_WILDS_SKIPS[self][0]

    @property
    def skips(self) -> int:
        """How many Skips this deck holds."""
        return _DECK_WILDS_SKIPS[self][1]


_DECK_WILDS_SKIPS: Final[dict[Deck, tuple[int, int]]] = {
    Deck.STANDARD: (STANDARD_WILDS, STANDARD_SKIPS),
    Deck.MASTERS: (8, 2),
    Deck.MASTERS_12_WILDS: (12, 2),
}


#: each deck's copies of each card value, with and without the Anti-phase card, read-only
#: and shared (a rules object is pickled)
_DECK_COUNTS: Final[dict[tuple[Deck, int], Mapping[Card, int]]] = {
    (deck, antis): MappingProxyType(deck_counts(deck.wilds, deck.skips, antis))
    for deck in Deck
    for antis in (0, 1)
}


class SavePile(StrEnum):
    """Whether a player may end a turn by saving a card on their own save pile (rules §4)."""

    OFF = "off"  #: no save piles (official)
    PRIVATE = "private"  #: others see how many cards a player has saved, not which (Masters)
    PUBLIC = "public"  #: everyone sees every save pile


class SavedScore(StrEnum):
    """Whether saved cards count as penalty points at a hand's end (rules §4)."""

    NONE = "none"  #: saved cards are not in the hand: they never score
    PENALTY = "penalty"  #: they score like cards in hand at every hand's end


class GivingUp(StrEnum):
    """Masters Variant #2: a player whose phase is down may give it up (rules §4)."""

    OFF = "off"  #: no giving up (official, Masters)
    FORFEIT = "forfeit"  #: the given-up phase is not completed
    KEEP = "keep"  #: the given-up phase stays completed


class AntiPhase(StrEnum):
    """The Masters' Anti-phase card (rules §4): one more card in the deck."""

    OFF = "off"  #: no Anti-phase card (official, Masters)
    ON = "on"  #: the deck holds one Anti-phase card


class EmptyDrawPile(StrEnum):
    RESHUFFLE = "reshuffle"  #: shuffle the discard pile, all but its top card, into a new pile
    END_HAND = "end_hand"  #: the hand ends as if nobody went out


_ENUMS: Final[dict[str, type[StrEnum]]] = {
    "advance": Advance,
    "phase_order": PhaseOrder,
    "declare": DeclareWhen,
    "going_out": GoingOut,
    "wild_deal_up": WildDealUp,
    "skip_target": SkipTarget,
    "natural_min": NaturalMin,
    "end_when": EndWhen,
    "empty_draw_pile": EmptyDrawPile,
    "deck": Deck,
    "save_pile": SavePile,
    "saved_score": SavedScore,
    "give_up": GivingUp,
    "anti_phase": AntiPhase,
}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option; the defaults are the official game (rules §8).

    ``phase_list`` is the full list; ``phases`` picks which of its phases are played,
    by their 1-based numbers, in order (empty: all of them).
    """

    phase_list: tuple[Phase, ...] = STANDARD_PHASES
    phases: tuple[int, ...] = ()
    advance: Advance = Advance.COMPLETED
    phase_order: PhaseOrder = PhaseOrder.SEQUENCE
    declare: DeclareWhen = DeclareWhen.LAYDOWN
    going_out: GoingOut = GoingOut.ANY
    wild_deal_up: WildDealUp = WildDealUp.FIRST_PLAYER
    skip_target: SkipTarget = SkipTarget.CHOOSE
    natural_min: NaturalMin = NaturalMin.GROUP
    end_when: EndWhen = EndWhen.HAND_END
    empty_draw_pile: EmptyDrawPile = EmptyDrawPile.RESHUFFLE
    deck: Deck = Deck.STANDARD
    save_pile: SavePile = SavePile.OFF
    saved_score: SavedScore = SavedScore.NONE
    give_up: GivingUp = GivingUp.OFF
    anti_phase: AntiPhase = AntiPhase.OFF
    phase_sequence: tuple[Phase, ...] = field(init=False, repr=False, compare=False)
    #: :meth:`to_dict`'s options, written once (every view sent to a client holds them)
    _options: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, enum in _ENUMS.items():
            value = getattr(self, name)
            if not isinstance(value, enum):
                try:
                    object.__setattr__(self, name, enum(value))
                except ValueError:
                    choices = ", ".join(repr(member.value) for member in enum)
                    raise RulesError(f"{name} must be one of {choices}, not {value!r}") from None
        if not self.phase_list or not all(isinstance(p, Phase) for p in self.phase_list):
            raise RulesError("phase_list must be a non-empty tuple of phases")
        if len(self.phase_list) > MAX_PHASES:
            raise RulesError(
                f"a phase list has at most {MAX_PHASES} phases, not {len(self.phase_list)}"
            )
        object.__setattr__(self, "phase_list", tuple(self.phase_list))
        if not isinstance(self.phases, (tuple, list, range)):
            raise RulesError(f"phases must be a tuple of phase numbers, not {self.phases!r}")
        object.__setattr__(self, "phases", tuple(self.phases))
        for number in self.phases:
            if (
                not isinstance(number, int)
                or isinstance(number, bool)
                or not 1 <= number <= len(self.phase_list)
            ):
                raise RulesError(
                    f"phases picks phases by number from 1 to {len(self.phase_list)}, "
                    f"not {number!r}"
                )
        if len(set(self.phases)) != len(self.phases):
            twice = next(n for n in self.phases if self.phases.count(n) > 1)
            raise RulesError(f"phases names phase {twice} twice")
        for phase in self.phase_list:
            if phase.min_cards > 11:
                raise RulesError(f"{phase} needs {phase.min_cards} cards; a hand holds at most 11")
        sequence = tuple(self.phase_list[n - 1] for n in self.phases) or self.phase_list
        object.__setattr__(self, "phase_sequence", sequence)
        options = {name: getattr(self, name).value for name in _ENUMS}
        object.__setattr__(self, "_options", options)
        if self.advance is Advance.ALL and self.phase_order is PhaseOrder.ANY:
            raise RulesError("advance='all' plays the phases in order; it cannot go with any order")
        if self.advance is Advance.ALL and self.end_when is EndWhen.IMMEDIATELY:
            raise RulesError("advance='all' always plays every hand; end_when must be 'hand_end'")
        if self.advance is Advance.ALL and self.give_up is not GivingUp.OFF:
            raise RulesError("advance='all' moves everyone on every hand; give_up must be 'off'")
        if self.advance is Advance.ALL and self.anti_phase is AntiPhase.ON:
            raise RulesError("advance='all' moves everyone on every hand; anti_phase must be 'off'")

    @property
    def deck_counts(self) -> Mapping[Card, int]:
        """How many copies of each card value :attr:`deck` holds, the Anti-phase card
        included when :attr:`anti_phase` is on (see :func:`deck_counts`)."""
        return _DECK_COUNTS[self.deck, 1 if self.anti_phase is AntiPhase.ON else 0]

    @property
    def deck_size(self) -> int:
        """How many cards the deck holds.

        >>> Rules().deck_size, preset("masters").deck_size, preset("anti-phase").deck_size
        (108, 106, 107)
        """
        return sum(self.deck_counts.values())

    @property
    def phase_numbers(self) -> tuple[int, ...]:
        """The numbers (in :attr:`phase_list`, from 1) of the phases played, in order.

        >>> preset("even-phases").phase_numbers, len(Rules().phase_numbers)
        ((2, 4, 6, 8, 10), 10)
        """
        return self.phases or tuple(range(1, len(self.phase_list) + 1))

    @property
    def phase_count(self) -> int:
        """How many phases a player must complete."""
        return len(self.phase_sequence)

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like the constructor)."""
        known = {item.name for item in dataclasses.fields(self) if item.init}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise RulesError(
                f"unknown rules option {unknown[0]!r}; options: {', '.join(sorted(known))}"
            )
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back."""
        phase_list = [str(phase) for phase in self.phase_list]
        return {"phase_list": phase_list, "phases": list(self.phases), **self._options}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Rules:
        """Read rules from a dict like :meth:`to_dict`'s; missing options take their defaults.

        ``phase_list`` is a list of phrases or the name of a shipped list.
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"rules are read from a dict of options, not {data!r}")
        known = {"phase_list", "phases", *_ENUMS}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                f"unknown rules option {unknown[0]!r}; options: {', '.join(sorted(known))}"
            )
        options: dict[str, Any] = {name: data[name] for name in _ENUMS if name in data}
        if "phase_list" in data:
            phrases = data["phase_list"]
            if isinstance(phrases, str):
                if phrases not in PHASE_LISTS:
                    raise RulesError(
                        f"no phase list named {phrases!r}; known: {', '.join(PHASE_LISTS)}"
                    )
                options["phase_list"] = PHASE_LISTS[phrases]
            else:
                try:
                    options["phase_list"] = parse_phase_list(phrases)
                except PhaseParseError as error:
                    raise RulesError(str(error)) from None
        if "phases" in data:
            phases = data["phases"]
            if isinstance(phases, int):
                if isinstance(phases, bool) or phases < 1:
                    raise RulesError(f"phases = N plays the first N phases; N >= 1, not {phases!r}")
                phases = range(1, phases + 1)
            options["phases"] = phases
        return Rules(**options)

    def describe(self) -> list[tuple[str, str]]:
        """(option, value) pairs for display, the phase list by name where it is a shipped one."""
        name = next((n for n, lst in PHASE_LISTS.items() if lst == self.phase_list), "custom")
        rows = [("phase_list", name), ("phases", ",".join(map(str, self.phases)) or "all")]
        rows += [(option, getattr(self, option).value) for option in _ENUMS]
        return rows


#: The Masters Edition: any phase, named after the deal, its tin's deck and a save pile.
_MASTERS: Final = Rules(
    phase_order=PhaseOrder.ANY,
    declare=DeclareWhen.DEAL,
    deck=Deck.MASTERS,
    save_pile=SavePile.PRIVATE,
)

_PRESETS: dict[str, tuple[Rules, str]] = {
    "official": (Rules(), "the official 40th-anniversary rules (the default)"),
    "ten-hands": (Rules(advance=Advance.ALL), "everyone advances every hand; lowest total wins"),
    "short-5": (Rules(phases=(1, 2, 3, 4, 5)), "play only phases 1-5"),
    "even-phases": (Rules(phases=(2, 4, 6, 8, 10)), "play only phases 2, 4, 6, 8 and 10"),
    "odd-phases": (Rules(phases=(1, 3, 5, 7, 9)), "play only phases 1, 3, 5, 7 and 9"),
    "masters": (
        _MASTERS,
        "any phase not yet completed, named after the deal; a save pile; 8 Wilds and 2 Skips",
    ),
    "masters-12-wilds": (
        _MASTERS.with_options(deck=Deck.MASTERS_12_WILDS),
        "masters with the printing of 12 Wilds and 2 Skips",
    ),
    "masters-variant-1": (
        _MASTERS.with_options(declare=DeclareWhen.LAYDOWN),
        "masters with the phase named when it is laid down",
    ),
    "masters-variant-2": (
        _MASTERS.with_options(declare=DeclareWhen.LAYDOWN, give_up=GivingUp.FORFEIT),
        "masters variant #1, and a laid-down phase may be given up for a fresh hand",
    ),
    "anti-phase": (
        _MASTERS.with_options(anti_phase=AntiPhase.ON),
        "masters with an Anti-phase card: go out with it to move a player down a phase",
    ),
    "arkansas": (
        Rules(phase_order=PhaseOrder.ANY, declare=DeclareWhen.LAYDOWN),
        "any phase not yet completed, named when laid down",
    ),
    "floating": (Rules(going_out=GoingOut.DISCARD), "the last card must leave by a discard"),
    "wild-deal-up": (
        Rules(wild_deal_up=WildDealUp.DEALER_CHOOSES),
        "a Wild turned up goes to a player the dealer chooses",
    ),
    "skip-next": (Rules(skip_target=SkipTarget.NEXT), "a Skip always skips the next player"),
    "natural-per-phase": (
        Rules(natural_min=NaturalMin.PHASE),
        "one numbered card per phase, not per group (all-Wild groups allowed)",
    ),
    "end-immediately": (
        Rules(end_when=EndWhen.IMMEDIATELY),
        "a lone player on the last phase wins the moment it is laid down",
    ),
    "no-reshuffle": (
        Rules(empty_draw_pile=EmptyDrawPile.END_HAND),
        "when the draw pile runs out the hand ends as if nobody went out",
    ),
}
for _name, _phases in PHASE_LISTS.items():
    if _name != "standard":
        _PRESETS[_name] = (Rules(phase_list=_phases), f"the {_name} phase list")

#: Every named preset.
PRESETS: Final[Mapping[str, Rules]] = MappingProxyType({n: r for n, (r, _) in _PRESETS.items()})
#: One line on each preset.
PRESET_NOTES: Final[Mapping[str, str]] = MappingProxyType({n: t for n, (_, t) in _PRESETS.items()})


def preset(name: str) -> Rules:
    """The named preset; an unknown name gets the list of known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"no rules preset named {name!r}; presets: {', '.join(PRESETS)}") from None


def rules_name(rules: Rules) -> str:
    """The rules in a few words: the preset they are, with the phases played when only
    some are, else "house rules".

    >>> rules_name(Rules()), rules_name(preset("masters"))
    ('official', 'masters')
    >>> rules_name(Rules(phases=(1, 2, 3))), rules_name(Rules(phases=(4,)))
    ('official, phases 1-3', 'official, phase 4')
    >>> rules_name(Rules(skip_target=SkipTarget.NEXT, phases=(2, 5)))
    'skip-next, phases 2,5'
    >>> from phase10.core import Phase
    >>> rules_name(Rules(phase_list=(Phase.parse("1 set of 11"),)))
    'house rules'
    """
    for name, known in PRESETS.items():
        if known == rules:
            return name
    for name, known in PRESETS.items():
        if not known.phases and replace(rules, phases=()) == known:
            numbers = rules.phases
            if len(numbers) == 1:
                return f"{name}, phase {numbers[0]}"
            run = numbers == tuple(range(numbers[0], numbers[-1] + 1))
            shown = f"{numbers[0]}-{numbers[-1]}" if run else ",".join(map(str, numbers))
            return f"{name}, phases {shown}"
    return "house rules"

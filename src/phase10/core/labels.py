"""Plain words for a player's legal choices and for how far their phase is: what every
interface shows.

Like the narration (:mod:`phase10.core.narration`) these are sentences, not rules: the
engine says which actions are legal, and this module only names them, players by their
names (never by seat numbers), groups by their owner and what they hold.

>>> from phase10.core.game import Game
>>> game = Game(["Ann", "Bob"], seed=3)
>>> view = game.view(game.current)
>>> [action_label(view, action) for action in view.legal_actions]
['Draw from the pile', 'Take Y10']
>>> stage_prompt(view)
'Draw a card, or take Y10 from the discard pile'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import assert_never

from .actions import (
    Action,
    Declare,
    Discard,
    Draw,
    GiveUp,
    GiveWild,
    Hit,
    LayDown,
    Save,
    TakeDiscard,
    TakeSaved,
)
from .budget import step_budget
from .cards import Card, Color
from .errors import SearchLimitError
from .feasibility import missing
from .groups import Group
from .phases import GroupKind
from .rules import SkipTarget
from .state import Stage
from .views import PlayerView
from .words import plural

__all__ = [
    "RULE_OPTIONS",
    "Progress",
    "action_label",
    "action_text",
    "card_words",
    "group_text",
    "group_title",
    "hit_end",
    "lay_down_text",
    "option_label",
    "option_value_label",
    "plural",
    "progress",
    "stage_prompt",
    "view_action_text",
]

#: each rules option that is a choice among names, as a menu asks it: its question and
#: each value in words (``Rules.describe`` gives the names the records and flags use)
RULE_OPTIONS: dict[str, tuple[str, dict[str, str]]] = {
    "advance": (
        "Who advances after a hand",
        {"completed": "those who laid their phase", "all": "everyone (ten hands)"},
    ),
    "phase_order": (
        "Phase order",
        {"sequence": "in order, from the first", "any": "any phase not yet made"},
    ),
    "declare": (
        "Any order: name the phase",
        {"deal": "after the deal", "laydown": "when laying it down"},
    ),
    "going_out": (
        "Going out",
        {"any": "with any last card", "discard": "only by a discard (floating)"},
    ),
    "wild_deal_up": (
        "A Wild turned up",
        {"first_player": "the first player may take it", "dealer_chooses": "the dealer gives it"},
    ),
    "skip_target": (
        "A Skip skips",
        {"choose": "whom its discarder names", "next": "the next player"},
    ),
    "natural_min": (
        "Numbered cards needed",
        {"group": "one in every group", "phase": "one in the whole phase"},
    ),
    "end_when": (
        "The game ends",
        {"hand_end": "at the end of the hand", "immediately": "when the last phase is laid"},
    ),
    "empty_draw_pile": (
        "Empty draw pile",
        {"reshuffle": "reshuffle the discards", "end_hand": "the hand ends"},
    ),
    "deck": (
        "The deck",
        {
            "standard": "8 Wilds, 4 Skips (108 cards)",
            "masters": "8 Wilds, 2 Skips (Masters, 106)",
            "masters_12_wilds": "12 Wilds, 2 Skips (Masters, 110)",
        },
    ),
    "save_pile": (
        "Save pile",
        {"off": "none", "private": "others see how many", "public": "face up"},
    ),
    "saved_score": (
        "Saved cards at a hand's end",
        {"none": "do not count", "penalty": "count as penalty points"},
    ),
    "give_up": (
        "Give up a laid phase",
        {"off": "never", "forfeit": "yes, it is not completed", "keep": "yes, it stays completed"},
    ),
    "anti_phase": (
        "Anti-phase card",
        {"off": "none", "on": "one in the deck"},
    ),
}


def option_label(name: str) -> str:
    """A rules option as a menu asks it.

    >>> option_label("skip_target"), option_label("some_new_option")
    ('A Skip skips', 'Some new option')
    """
    known = RULE_OPTIONS.get(name)
    return known[0] if known else name.replace("_", " ").capitalize()


def option_value_label(name: str, value: str) -> str:
    """A rules option's value in words.

    >>> option_value_label("skip_target", "next"), option_value_label("phase_order", "odd")
    ('the next player', 'odd')
    """
    known = RULE_OPTIONS.get(name)
    return known[1].get(str(value), str(value)) if known else str(value).replace("_", " ")


_COLOR_NAMES = {Color.RED: "red", Color.BLUE: "blue", Color.GREEN: "green", Color.YELLOW: "yellow"}


def group_text(group: Group) -> str:
    """What a group is, in words: ``set of 7s``, ``run 4-7``, ``red group``, ``even group``,
    ``red run 4-7``, ``red even group``."""
    color = f"{_COLOR_NAMES[group.color]} " if group.color is not None else ""
    parity = f"{group.parity.value} " if group.parity is not None else ""
    match group.kind:
        case GroupKind.SET:
            return f"set of {group.number}s"
        case GroupKind.RUN | GroupKind.COLOR_RUN:
            low = group.low or 0
            return f"{color}run {low}-{low + len(group.cards) - 1}"
        case GroupKind.COLOR | GroupKind.EVEN_ODD | GroupKind.COLOR_EVEN_ODD:
            return f"{color}{parity}group"
        case _:
            assert_never(group.kind)


def group_title(view: PlayerView, group_id: int) -> str:
    """A table group named by its owner: ``Ann's run 4-7``, ``your set of 7s``."""
    meld = view.melds[group_id]
    owner = "your" if meld.owner == view.viewer else f"{view.seats[meld.owner].name}'s"
    return f"{owner} {group_text(meld.group)}"


def hit_end(view: PlayerView, hit: Hit) -> str | None:
    """Which end of a run a hit goes on (``low``, ``high``), None for any other group."""
    group = view.melds[hit.group].group
    if group.low is None:
        return None
    number = hit.number if hit.card.is_wild else hit.card.number
    return "low" if number is not None and number < group.low else "high"


def lay_down_text(view: PlayerView, action: LayDown) -> str:
    """The groups of a lay-down in words with their cards: ``set of 3s (R3 G3 B3) + ...``."""
    prefix = f"Phase {action.phase}: " if action.phase is not None else ""
    return prefix + " + ".join(f"{group_text(g)} ({g.describe()})" for g in action.groups)


def card_words(card: Card) -> str:
    """A card as a sentence names it: ``R7``, ``the Wild``, ``the Skip``, ``the Anti-phase card``."""
    if card.is_wild:
        return "the Wild"
    if card.is_skip:
        return "the Skip"
    if card.is_anti:
        return "the Anti-phase card"
    return str(card)


def action_text(
    action: Action,
    *,
    names: Sequence[str] = (),
    groups: Sequence[str] = (),
    me: int | None = None,
    top: Card | None = None,
) -> str:
    """An action in words, as advice says it, from what is known about the table: ``names``
    of the seats, ``groups`` (each table group named, like ``Ann's run 4-7``), the advised
    player ``me`` and the top discard. What is not known is left out, never written in
    engine notation.

    >>> from phase10.core.actions import parse_action
    >>> names = ["Ann", "Bob"]
    >>> action_text(parse_action("discard S>p1"), names=names)
    'discard the Skip on Bob'
    >>> action_text(parse_action("hit W=9 g0"), groups=["Ann's run 4-8"])
    "hit the Wild as a 9 on Ann's run 4-8"
    >>> action_text(parse_action("take"), top=Card.parse("Y10"))
    'take Y10 from the discard pile'
    >>> action_text(parse_action("give p0"), names=names, me=0)
    'keep the Wild'
    """
    match action:
        case Draw():
            return "draw from the pile"
        case TakeDiscard():
            return f"take {card_words(top) if top is not None else 'the top discard'} from the discard pile"
        case Declare():
            return f"declare phase {action.phase}"
        case GiveWild() if action.player == me:
            return "keep the Wild"
        case GiveWild():
            return f"give the Wild to {_seat_name(names, action.player)}"
        case LayDown():
            prefix = f"phase {action.phase}: " if action.phase is not None else ""
            return "lay down " + prefix + " + ".join(g.written() for g in action.groups)
        case Hit():
            value = ""
            if action.card.is_wild and action.number is not None:
                value = f" as {'an' if action.number in (8, 11) else 'a'} {action.number}"
            where = groups[action.group] if action.group < len(groups) else "a group"
            return f"hit {card_words(action.card)}{value} on {where}"
        case Discard() if action.target is not None and action.card.is_anti:
            named = _seat_name(names, action.target)
            return f"go out with the Anti-phase card: {named} moves down a phase"
        case Discard() if action.target is not None:
            return f"discard the Skip on {_seat_name(names, action.target)}"
        case Discard():
            return f"discard {card_words(action.card)}"
        case Save():
            return f"save {card_words(action.card)} on your save pile"
        case TakeSaved():
            return f"take {card_words(action.card)} back from your save pile"
        case GiveUp():
            return "give up your phase and draw back up to ten"
        case _:
            assert_never(action)


def _seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"player {seat}"


def view_action_text(view: PlayerView, action: Action) -> str:
    """:func:`action_text` for a player's view: seats by name, groups by owner and kind."""
    return action_text(
        action,
        names=[seat.name for seat in view.seats],
        groups=[group_title(view, gid) for gid in range(len(view.melds))],
        me=view.viewer,
        top=view.discard_top,
    )


def action_label(view: PlayerView, action: Action) -> str:
    """A legal action of the viewer's, in words (players by name)."""
    names = [seat.name for seat in view.seats]
    me = view.viewer
    match action:
        case Draw():
            return "Draw from the pile"
        case TakeDiscard():
            return f"Take {view.discard_top}"
        case Declare():
            return f"Phase {action.phase}: {view.phase_of(action.phase - 1)}"
        case GiveWild() if action.player == me:
            return "Keep the Wild"
        case GiveWild():
            return f"Give the Wild to {names[action.player]}"
        case LayDown():
            return lay_down_text(view, action)
        case Hit():
            card = f"W={action.number}" if action.card.is_wild and action.number else action.card
            end = hit_end(view, action)
            where = f", {end} end" if end is not None else ""
            return f"Hit {card} on {group_title(view, action.group)}{where}"
        case Discard() if action.target is not None and action.card.is_anti:
            return f"Go out with A: {names[action.target]} moves down a phase"
        case Discard() if action.target is not None:
            return f"Skip {names[action.target]}"
        case Discard() if action.card.is_skip and me is not None:
            targets = view.skip_targets(me)
            if view.rules.skip_target is SkipTarget.NEXT and targets:
                return f"Discard S (skips {names[targets[0]]})"
            return "Discard S (skips nobody)"
        case Discard():
            return f"Discard {action.card}"
        case Save():
            return f"Save {action.card}"
        case TakeSaved():
            return f"Take {action.card} from your save pile"
        case GiveUp():
            return "Give up your phase"
        case _:
            assert_never(action)


def stage_prompt(view: PlayerView, keys: Mapping[str, str] | None = None) -> str:
    """What the viewer is asked to do now, in plain words.

    ``keys`` names the key (or button) for each kind of action (``draw``, ``take``,
    ``lay``, ``hit``, ``discard``, ``declare``, ``give``, ``save``, ``take_saved``); each
    part of the sentence is followed by its key in brackets. Without them no key is named.
    Saving a card and taking one back are mentioned when the engine allows them.

    >>> from phase10.core.game import Game
    >>> view = Game(["Ann", "Bob"], seed=3).view(1)
    >>> stage_prompt(view, {"draw": "d", "take": "t"})
    'Draw a card (d), or take Y10 from the discard pile (t)'
    """
    named = keys or {}

    def key(kind: str) -> str:
        return f" ({named[kind]})" if kind in named else ""

    if view.is_over:
        return "The game is over"
    names = [seat.name for seat in view.seats]
    if not view.is_my_turn:
        waiting = {
            Stage.GIVE_WILD: "to give the turned-up Wild",
            Stage.DECLARE: "to declare a phase",
        }.get(view.stage, "to play")
        return f"Waiting for {names[view.current]} {waiting}"
    me = view.viewer
    assert me is not None
    # each action the prompt names is checked alone: listing every legal action would list
    # every lay-down, which a house phase of many tiny groups makes countless
    playing = view.stage in (Stage.DRAW, Stage.PLAY)
    distinct = set(view.hand) if playing else set()
    discard = f"discard a card to end your turn{key('discard')}"
    if any(view.is_legal(Save(card)) for card in distinct):
        discard = f"discard{key('discard')} or save{key('save')} a card to end your turn"
    if view.seats[me].refill:
        discard += ", then draw back up to ten"
    if any(
        view.is_legal(Discard(card, target))
        for card in distinct
        if card.is_anti
        for target in range(view.num_players)
    ):
        discard = (
            f"go out with the Anti-phase card{key('discard')}: "
            "name the player who moves down a phase"
        )
    match view.stage:
        case Stage.GIVE_WILD:
            return f"Give the turned-up Wild to a player, or keep it{key('give')}"
        case Stage.DECLARE:
            return f"Declare the phase you attempt this hand{key('declare')}"
        case Stage.DRAW:
            top = view.discard_top
            take = f"take {top} from the discard pile{key('take')}"
            back = ""
            if any(view.is_legal(TakeSaved(card)) for card in set(view.saved)):
                back = f", or take a card back from your save pile{key('take_saved')}"
            if view.can_take() and view.can_draw():
                return f"Draw a card{key('draw')}, {'' if back else 'or '}{take}{back}"
            return (_upper_first(take) if view.can_take() else f"Draw a card{key('draw')}") + back
        case Stage.WILD_DISCARD:
            return f"Discard a card for the Wild you were given{key('discard')}"
        case Stage.PLAY if (
            view.seats[me].laid is None and not view.seats[me].refill and _can_lay(view)
        ):
            return f"Lay down your phase{key('lay')}, or {discard}"
        case Stage.PLAY if view.seats[me].laid is not None and _can_hit(view):
            return f"Hit cards onto the groups on the table{key('hit')}, or {discard}"
        case Stage.PLAY:
            return _upper_first(discard)
        case Stage.GAME_OVER:  # pragma: no cover (answered above)
            return "The game is over"
        case _:
            assert_never(view.stage)


def _upper_first(text: str) -> str:
    """The text with its first letter upper case (and the rest as it was: card names)."""
    return text[:1].upper() + text[1:]


def _can_hit(view: PlayerView) -> bool:
    """Whether some card in the viewer's hand fits a group on the table (the viewer has
    laid down: no lay-down is searched for)."""
    return any(isinstance(action, Hit) for action in view.legal_actions)


def _can_lay(view: PlayerView) -> bool:
    """Whether the viewer holds a phase they may lay down now (so a prompt offers it
    only when it can be done)."""
    found = progress(view)
    # (a count given up on may still be ready: offered, the engine answers)
    if found is None or found.phase is None or found.laid:
        return False
    return found.away in (0, None)


#: the phase search steps :func:`progress` may take: about 15 ms at worst, where a step
#: is costliest (a flow of cards to groups under house phases of many tiny groups); the
#: count of the cards missing under the presets' phases takes at most about 360
PROGRESS_STEPS = 1_000


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a player is from their phase this hand, from the solver."""

    #: the phase's number (1-based), or None when every phase is done
    phase: int | None
    text: str
    laid: bool
    #: cards still missing from the closest try (0: it can be laid now; None once laid,
    #: or when the phases have too many ways to count within :data:`PROGRESS_STEPS`)
    away: int | None

    @property
    def label(self) -> str:
        if self.phase is None:
            return self.text
        head = f"Phase {self.phase}: {self.text}"
        if self.laid:
            return f"{head} — laid down"
        if self.away == 0:
            return f"{head} — ready to lay down"
        if self.away is None:
            return f"{head} — too many ways to count the cards missing"
        return f"{head} — {self.away} card{'s' if self.away != 1 else ''} away"

    def to_dict(self) -> dict[str, object]:
        return {
            "phase": self.phase,
            "text": self.text,
            "laid": self.laid,
            "away": self.away,
            "label": self.label,
        }


def progress(view: PlayerView) -> Progress | None:
    """The viewer's phase this hand and how many cards they still miss for it: the one
    laid down, else the closest of those they may lay (every phase not yet completed
    while a phase is still to be declared). None for a spectator."""
    me = view.viewer
    if me is None:
        return None
    seat = view.seats[me]
    if seat.laid is not None:
        return Progress(seat.laid + 1, str(view.phase_of(seat.laid)), True, None)
    allowed = view.allowed_phases(me)
    if not allowed and view.stage is Stage.DECLARE and view.declares_after_deal:
        allowed = tuple(i for i in range(view.rules.phase_count) if i not in seat.completed)
    if not allowed:
        return Progress(None, "every phase is done", False, None)
    natural_min = view.rules.natural_min
    try:
        # (servers build this for every state they send: some house phases would make
        # the count take seconds)
        with step_budget(PROGRESS_STEPS):
            gaps = [(missing(view.phase_of(i), view.hand, natural_min), i) for i in allowed]
    except SearchLimitError:
        return Progress(allowed[0] + 1, str(view.phase_of(allowed[0])), False, None)
    away, index = min(gaps)
    return Progress(index + 1, str(view.phase_of(index)), False, away)

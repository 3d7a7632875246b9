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

from dataclasses import dataclass
from typing import assert_never

from .actions import Action, Declare, Discard, Draw, GiveWild, Hit, LayDown, TakeDiscard
from .cards import Color
from .feasibility import missing
from .groups import Group
from .phases import GroupKind
from .rules import SkipTarget
from .state import Stage
from .views import PlayerView

__all__ = [
    "Progress",
    "action_label",
    "group_text",
    "group_title",
    "hit_end",
    "lay_down_text",
    "progress",
    "stage_prompt",
]

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
        case Discard() if action.target is not None:
            return f"Skip {names[action.target]}"
        case Discard() if action.card.is_skip and me is not None:
            targets = view.skip_targets(me)
            if view.rules.skip_target is SkipTarget.NEXT and targets:
                return f"Discard S (skips {names[targets[0]]})"
            return "Discard S (skips nobody)"
        case Discard():
            return f"Discard {action.card}"
        case _:
            assert_never(action)


def stage_prompt(view: PlayerView) -> str:
    """What the viewer is asked to do now, in plain words (no keys or buttons named)."""
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
    match view.stage:
        case Stage.GIVE_WILD:
            return "Give the turned-up Wild to a player, or keep it"
        case Stage.DECLARE:
            return "Declare the phase you attempt this hand"
        case Stage.DRAW:
            top = view.discard_top
            if view.can_take() and view.can_draw():
                return f"Draw a card, or take {top} from the discard pile"
            return f"Take {top} from the discard pile" if view.can_take() else "Draw a card"
        case Stage.WILD_DISCARD:
            return "Discard a card for the Wild you were given"
        case Stage.PLAY if view.seats[me].laid is None and _can_lay(view):
            return "Lay down your phase, or discard a card to end your turn"
        case Stage.PLAY if view.seats[me].laid is not None and _can_hit(view):
            return "Hit cards onto the groups on the table, or discard a card to end your turn"
        case Stage.PLAY:
            return "Discard a card to end your turn"
        case Stage.GAME_OVER:  # pragma: no cover (answered above)
            return "The game is over"
        case _:
            assert_never(view.stage)


def _can_hit(view: PlayerView) -> bool:
    """Whether some card in the viewer's hand fits a group on the table (the viewer has
    laid down: no lay-down is searched for)."""
    return any(isinstance(action, Hit) for action in view.legal_actions)


def _can_lay(view: PlayerView) -> bool:
    """Whether the viewer holds a phase they may lay down now (so a prompt offers it
    only when it can be done)."""
    found = progress(view)
    return found is not None and found.away == 0


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a player is from their phase this hand, from the solver."""

    #: the phase's number (1-based), or None when every phase is done
    phase: int | None
    text: str
    laid: bool
    #: cards still missing from the closest try (0: it can be laid now; None once laid)
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
    gaps = [(missing(view.phase_of(i), view.hand, natural_min), i) for i in allowed]
    away, index = min(gaps)
    return Progress(index + 1, str(view.phase_of(index)), False, away)

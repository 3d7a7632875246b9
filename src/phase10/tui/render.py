"""How cards, groups and seats look on screen (rich text, no widgets).

In colour-blind mode every colour also shows its letter and a mark of its own:

>>> from phase10.core import Card
>>> card_label(Card.parse("R7"), colour_blind=True)
'R7●'
>>> card_label(Card.parse("R7")), card_label(Card.parse("W")), card_label(Card.parse("S"))
('7', 'W', 'S')
"""

from __future__ import annotations

from rich.text import Text

from phase10.core import Card, Color, Group, Meld, PlayerView, Refusal, RefusalError, Stage
from phase10.core.feasibility import missing

__all__ = [
    "CARD_STYLES",
    "MARKS",
    "card_label",
    "card_text",
    "group_text",
    "my_phase_text",
    "plural",
    "refusal_text",
    "seat_phase_text",
]

#: a mark per colour, told apart by shape alone
MARKS = {Color.RED: "●", Color.BLUE: "■", Color.GREEN: "▲", Color.YELLOW: "◆"}

CARD_STYLES = {
    Color.RED: "bold white on #c62828",
    Color.BLUE: "bold white on #1565c0",
    Color.GREEN: "bold white on #2e7d32",
    Color.YELLOW: "bold black on #f9a825",
}
WILD_STYLE = "bold white on #6a1b9a"
SKIP_STYLE = "bold white on #37474f"


def card_label(card: Card, *, colour_blind: bool = False) -> str:
    """The card's face: its number (with letter and mark in colour-blind mode), W or S."""
    if card.is_wild:
        return "W"
    if card.is_skip:
        return "S"
    assert card.color is not None
    if colour_blind:
        return f"{card.color.value}{card.number}{MARKS[card.color]}"
    return str(card.number)


def card_style(card: Card) -> str:
    if card.is_wild:
        return WILD_STYLE
    if card.is_skip:
        return SKIP_STYLE
    assert card.color is not None
    return CARD_STYLES[card.color]


def card_text(card: Card, *, colour_blind: bool = False, note: str = "") -> Text:
    """One card as a coloured chip, `` 7 ``; ``note`` follows it (a Wild's value)."""
    text = Text(f" {card_label(card, colour_blind=colour_blind)}{note} ", style=card_style(card))
    return text


def group_text(group: Group, *, colour_blind: bool = False) -> Text:
    """A table group, each Wild showing the value it stands for (``W=7``)."""
    text = Text()
    for position, card in enumerate(group.cards):
        if position:
            text.append(" ")
        note = ""
        if card.is_wild:
            note = "=" + group.wild_value(position)
        text.append_text(card_text(card, colour_blind=colour_blind, note=note))
    return text


def meld_title(view: PlayerView, group_id: int, meld: Meld) -> str:
    """``g1 Ann's run`` (group ids count from 0, as in the action text)."""
    owner = "your" if meld.owner == view.viewer else f"{view.seats[meld.owner].name}'s"
    kind = meld.group.kind.value.replace("_", " ").replace("color", "colour")
    return f"g{group_id} {owner} {kind}"


def seat_phase_text(view: PlayerView, seat: int) -> str:
    """The phase a seat works on (or how many are done when any order is allowed)."""
    info = view.seats[seat]
    count = view.rules.phase_count
    if view.rules.phase_order.value == "any":
        return f"{len(info.completed)}/{count} done"
    if info.phase >= count:
        return "all done"
    laid = " down" if info.laid is not None else ""
    return f"{info.phase + 1}{laid}"


def plural(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``.

    >>> plural(1, "card"), plural(0, "card")
    ('1 card', '0 cards')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def my_phase_text(view: PlayerView) -> str:
    """The person's phase, its groups and how many cards they are missing (the solver's
    count: each missing card could be a Wild), or that it is down."""
    me = view.viewer
    assert me is not None
    info = view.seats[me]
    if info.laid is not None:
        return f"Phase {info.laid + 1} is down ({view.phase_of(info.laid)}): hit, then go out"
    allowed = view.allowed_phases(me)
    if not allowed:
        if len(info.completed) >= view.rules.phase_count:
            return "Every phase is done"
        return "Your phase: declare one this hand" if view.stage is Stage.DECLARE else ""

    def need(index: int) -> int:
        return missing(view.phase_of(index), view.hand, view.rules.natural_min)

    best = min(allowed, key=need)
    count = need(best)
    label = "Your phase" if len(allowed) == 1 else "Closest phase"
    state = "you can lay it down (l)" if count == 0 else f"{plural(count, 'card')} missing"
    return f"{label} {best + 1}: {view.phase_of(best)} · {state}"


def stage_prompt(view: PlayerView) -> str:
    """What the person is asked to do now."""
    if view.is_over:
        return "The game is over."
    if not view.is_my_turn:
        name = view.seats[view.current].name
        return f"{name} is thinking…"
    match view.stage:
        case Stage.DRAW:
            top = view.discard_top
            take = f" or take {top} (t)" if view.can_take() else ""
            return f"Your turn: draw (d){take}."
        case Stage.PLAY:
            me = view.viewer
            assert me is not None
            if view.seats[me].laid is None:
                return "Select cards (space or click): lay down (l), discard one (x)."
            return "Select a card: hit it on a group (h or click the group), or discard (x)."
        case Stage.DECLARE:
            return "Declare the phase you attempt this hand (e)."
        case Stage.GIVE_WILD:
            return "Give the turned-up Wild to a player (g)."
        case _:
            return "Discard a card (x)."


#: a refusal's plain message as this screen says it, with the keys that do what it asks
_WITH_KEYS: dict[Refusal, str] = {
    Refusal.MUST_DRAW_FIRST: "draw a card (d) or take the discard (t) first",
    Refusal.NOTHING_SELECTED: "select the cards to lay down first (space, or click them)",
    Refusal.MUST_DECLARE: "declare the phase you attempt this hand first (e)",
    Refusal.MUST_GIVE_WILD: "give the turned-up Wild to a player first (g)",
    Refusal.MUST_DISCARD: "discard a card for the Wild you were given (x)",
    Refusal.LAY_DOWN_FIRST: "lay down your phase (l) before you hit cards onto groups",
    Refusal.ALREADY_LAID: "you have laid down your phase this hand: hit cards onto groups (h)",
}
#: the key added after a refusal whose message names cards
_KEY_AFTER: dict[Refusal, str] = {
    Refusal.FLOATING_MUST_DRAW: "d",
    Refusal.FLOATING_MUST_TAKE: "t",
    Refusal.FLOATING_MUST_HIT: "h",
}


def refusal_text(error: Exception) -> str:
    """Why an action was refused, with this screen's keys (the engine's message names none).

    >>> from phase10.core import IllegalActionError
    >>> refusal_text(IllegalActionError(Refusal.MUST_DRAW_FIRST, "you must draw a card first"))
    'draw a card (d) or take the discard (t) first'
    >>> refusal_text(IllegalActionError(Refusal.FLOATING_MUST_HIT, "you are floating: hit R5"))
    'you are floating: hit R5 (h)'
    >>> refusal_text(ValueError("the save file cannot be written"))
    'the save file cannot be written'
    """
    if not isinstance(error, RefusalError):
        return str(error)
    if error.code in _WITH_KEYS:
        return _WITH_KEYS[error.code]
    if error.code in _KEY_AFTER:
        return f"{error} ({_KEY_AFTER[error.code]})"
    return str(error)

"""How cards, groups and seats look on screen (rich text, no widgets).

In colour-blind mode every colour also shows its letter and a mark of its own:

>>> from phase10.core import Card
>>> card_label(Card.parse("R7"), colour_blind=True)
'R7●'
>>> [card_label(Card.parse(text)) for text in ("R7", "W", "S", "A")]
['7', 'W', 'S', 'A']
"""

from __future__ import annotations

from rich.text import Text

from phase10.core import (
    Card,
    CardHit,
    Color,
    Discarded,
    Drew,
    Group,
    LaidDown,
    Meld,
    PlayerView,
    Refusal,
    RefusalError,
    Stage,
    TookDiscard,
)
from phase10.core.feasibility import missing
from phase10.core.labels import stage_prompt
from phase10.core.words import plural

__all__ = [
    "CARD_STYLES",
    "MARKS",
    "card_label",
    "card_text",
    "group_text",
    "last_turn",
    "my_phase_text",
    "plural",
    "refusal_text",
    "seat_phase_text",
    "turn_prompt",
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
#: the Anti-phase card: a colour no other card has; without colour (NO_COLOR, a monochrome
#: terminal) its letter tells it apart (underline and reverse are the cursor's marks)
ANTI_STYLE = "bold black on #00bcd4"


def card_label(card: Card, *, colour_blind: bool = False) -> str:
    """The card's face: its number (with letter and mark in colour-blind mode), W, S or A
    (the Anti-phase card), as the action text writes them."""
    if not card.is_natural:
        return str(card)
    assert card.color is not None
    if colour_blind:
        return f"{card.color.value}{card.number}{MARKS[card.color]}"
    return str(card.number)


def card_style(card: Card) -> str:
    if card.is_wild:
        return WILD_STYLE
    if card.is_skip:
        return SKIP_STYLE
    if card.is_anti:
        return ANTI_STYLE
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


def meld_title(view: PlayerView, group_id: int, meld: Meld, *, you: int | None = None) -> str:
    """``g1 Ann's run`` (group ids count from 0, as in the action text); the groups of seat
    ``you`` (default: the viewer) are "your" groups.

    >>> from phase10.core import Game, Group, GroupKind, Meld, parse_cards
    >>> view = Game(["You", "Ann"], seed=2).view(None)
    >>> meld = Meld(1, Group.make(GroupKind.SET, parse_cards("R7 B7 G7")))
    >>> meld_title(view, 0, meld), meld_title(view, 0, meld, you=1)
    ("g0 Ann's set", 'g0 your set')
    """
    me = view.viewer if you is None else you
    owner = "your" if meld.owner == me else f"{view.seats[meld.owner].name}'s"
    kind = meld.group.kind.value.replace("_", " ").replace("color", "colour")
    return f"g{group_id} {owner} {kind}"


def seat_phase_text(view: PlayerView, seat: int) -> str:
    """The phase a seat works on (or how many are done when any order is allowed)."""
    info = view.seats[seat]
    count = view.rules.phase_count
    if view.rules.phase_order.value == "any":
        # the phase declared after the deal is public (rules §8), and so is one laid down
        done = f"{len(info.completed)}/{count}"
        if info.laid is not None:
            return f"{done} · {info.laid + 1} down"
        if info.declared is not None:
            return f"{done} · {info.declared + 1} declared"
        return f"{done} done"
    # the phase laid this hand, also once the hand has ended and the next phase is theirs
    # (a replay at the hand's last move, the final table), unless every phase is done
    if info.laid is not None and not (view.is_over and info.phase >= count):
        return f"{info.laid + 1} down"
    if info.phase >= count:
        return "all done"
    return f"{info.phase + 1}"


def my_phase_text(view: PlayerView) -> str:
    """The person's phase, its groups and how many cards they are missing (the solver's
    count: each missing card could be a Wild), or that it is down."""
    me = view.viewer
    assert me is not None
    info = view.seats[me]
    if view.is_over:  # (no turn is left to hit or go out in)
        return f"Phases done: {len(info.completed)} of {view.rules.phase_count}"
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


#: the keys the turn prompt names for each kind of action (phase10.core.labels.stage_prompt)
PROMPT_KEYS = {
    "draw": "d",
    "take": "t",
    "lay": "l",
    "hit": "h",
    "discard": "x",
    "declare": "e",
    "give": "g",
    "save": "S",
    "take_saved": "T",
}


def turn_prompt(view: PlayerView) -> str:
    """What the person is asked to do now, with this screen's keys (the words are the
    engine's labels, as every interface shows them)."""
    return stage_prompt(view, PROMPT_KEYS) + "."


def last_turn(view: PlayerView) -> tuple[set[int], bool]:
    """What the latest turn of this hand changed on the table: the groups it laid down or
    hit (their ids), and whether the discard pile's top is the card it discarded.

    >>> from phase10.core import Game
    >>> game = Game(["Ann", "Bob"], seed=3)
    >>> last_turn(game.view(0))
    (set(), False)
    >>> _ = game.apply("draw")
    >>> _ = game.apply(f"discard {game.hand(1)[0]}")
    >>> last_turn(game.view(0))
    (set(), True)
    """
    events = list(view.history)
    starts = [i for i, event in enumerate(events) if isinstance(event, Drew | TookDiscard)]
    groups: set[int] = set()
    discarded = False
    for event in events[starts[-1] if starts else len(events) :]:
        if isinstance(event, LaidDown):
            groups.update(event.group_ids)
        elif isinstance(event, CardHit):
            groups.add(event.group)
        elif isinstance(event, Discarded):
            discarded = view.discard_top == event.card
    return groups, discarded


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
    >>> refusal_text(IllegalActionError(Refusal.MUST_DRAW_FIRST, "... (cannot be taken)"))
    'draw a card first (d): the top discard cannot be taken'
    >>> refusal_text(IllegalActionError(Refusal.FLOATING_MUST_HIT, "you are floating: hit R5"))
    'you are floating: hit R5 (h)'
    >>> refusal_text(ValueError("the save file cannot be written"))
    'the save file cannot be written'
    """
    if not isinstance(error, RefusalError):
        return str(error)
    if error.code is Refusal.MUST_DRAW_FIRST and "cannot be taken" in str(error):
        return "draw a card first (d): the top discard cannot be taken"
    if error.code in _WITH_KEYS:
        return _WITH_KEYS[error.code]
    if error.code in _KEY_AFTER:
        return f"{error} ({_KEY_AFTER[error.code]})"
    return str(error)

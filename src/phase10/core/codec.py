"""The core's JSON codec: strict readers, and cards, groups, actions and events as JSON.

Records, snapshots and views write their parts with these functions and read them
back with the strict readers, which refuse a value of the wrong type rather than
convert it, raising :class:`RecordError` with the name of what was read.

Every action and event has its own writer and its own reader, written out here: the
JSON form of each is stated once, field by field. The writers ``match`` on the closed
unions :data:`~phase10.core.actions.Action` and :data:`~phase10.core.events.Event` and
end in :func:`~typing.assert_never`, so mypy names them when a new kind is added (and
the tests name a missing reader).

>>> from phase10.core.cards import WILD
>>> action_to_dict(Hit(WILD, 2, 9))
{'type': 'Hit', 'card': 'W', 'group': 2, 'number': 9}
>>> action_from_dict({"type": "Hit", "card": "W", "group": 2, "number": 9})
Hit(card=Card.parse('W'), group=2, number=9)
>>> event_from_dict({"type": "Drew", "player": 1, "card": "R7"})
Drew(player=1, card=Card.parse('R7'))
>>> event_from_dict({"type": "Drew", "player": True, "card": None})
Traceback (most recent call last):
...
phase10.core.codec.RecordError: Drew.player must be a whole number, not True
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeVar, assert_never

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
from .cards import Card, Color, Parity, format_cards, parse_cards
from .events import (
    CardHit,
    Dealt,
    Declared,
    Discarded,
    Drew,
    Event,
    Floating,
    GameEnded,
    GaveUp,
    HandEnded,
    HandStarted,
    LaidDown,
    MovedDown,
    Refilled,
    Reshuffled,
    Saved,
    Skipped,
    TieBreakStarted,
    TookDiscard,
    TookSaved,
    WentOut,
    WildGiven,
)
from .groups import Group, parse_group
from .phases import GroupKind
from .state import Meld

__all__ = [
    "ACTION_READERS",
    "EVENT_READERS",
    "GROUP_VALUES",
    "RecordCommon",
    "RecordError",
    "action_from_dict",
    "action_to_dict",
    "check_header",
    "check_result",
    "event_from_dict",
    "event_to_dict",
    "group_from_dict",
    "group_to_dict",
    "meld_from_dict",
    "meld_to_dict",
    "read_bool",
    "read_cards",
    "read_int",
    "read_ints",
    "read_json",
    "read_list",
    "read_object",
    "read_optional_int",
    "read_record_common",
    "read_str",
    "result_to_dict",
]

T = TypeVar("T")


class RecordError(ValueError):
    """A record or snapshot that cannot be read, or that does not replay as it says."""


# -- reading JSON values strictly: a wrong type is refused, never converted -------------


def read_int(value: Any, what: str) -> int:
    """``value`` if it is a whole number (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{what} must be a whole number, not {value!r}")
    return value


def read_optional_int(value: Any, what: str) -> int | None:
    return None if value is None else read_int(value, what)


def read_ints(value: Any, what: str) -> tuple[int, ...]:
    return tuple(read_int(item, what) for item in read_list(value, what))


def read_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{what} must be true or false, not {value!r}")
    return value


def read_str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be text, not {value!r}")
    return value


def read_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list, not {value!r}")
    return value


def read_object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RecordError(f"{what} must be a JSON object, not {value!r}")
    return value


def read_cards(value: Any, what: str) -> tuple[Card, ...]:
    """Cards written as one text, ``"R7 B7 W"``."""
    return parse_cards(read_str(value, what))


def read_json(text: str) -> Mapping[str, Any]:
    """A JSON object from text (a record or a snapshot)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise RecordError(f"a record is JSON text, not {type(text).__name__}")
    if isinstance(text, str):
        text = text.removeprefix("\ufeff")  # (a byte order mark some editors write)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordError(f"not JSON: {error}") from None
    except RecursionError:
        raise RecordError("not a record: its JSON is nested too deeply to read") from None
    except ValueError:  # a number of more digits than Python reads
        most = sys.get_int_max_str_digits()
        raise RecordError(f"not a record: it holds a number of more than {most} digits") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def check_header(data: Mapping[str, Any], expected: str, version: int) -> None:
    """Refuse anything but a JSON object of format ``expected`` and this ``version``."""
    if not isinstance(data, Mapping):
        raise RecordError(f"a {expected} is a JSON object, not {type(data).__name__}")
    if data.get("format") != expected:
        raise RecordError(f"not a {expected} (format is {data.get('format')!r})")
    if data.get("version") != version:
        raise RecordError(
            f"{expected} version {data.get('version')!r} is not supported (this reads {version})"
        )


# -- what the card game's and the dice game's records share ------------------------------


class RecordCommon(NamedTuple):
    """The header and result every game record holds, whatever the game."""

    players: tuple[str, ...]
    seed: int
    actions: tuple[str, ...]
    date: str | None
    winners: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    tags: tuple[tuple[str, str], ...]


def read_record_common(data: Mapping[str, Any]) -> RecordCommon:
    """A record's shared fields (KeyError for a missing one, RecordError for a bad one)."""
    result = read_object(data.get("result") or {}, "result")
    winners, totals, date = result.get("winners"), result.get("totals"), data.get("date")
    tags = read_object(data.get("tags") or {}, "tags")
    return RecordCommon(
        players=tuple(
            read_str(name, "a player's name") for name in read_list(data["players"], "players")
        ),
        seed=read_int(data["seed"], "seed"),
        actions=tuple(
            read_str(action, "an action")
            for action in read_list(data.get("actions", []), "actions")
        ),
        date=None if date is None else read_str(date, "date"),
        winners=None if winners is None else read_ints(winners, "winners"),
        totals=None if totals is None else read_ints(totals, "totals"),
        tags=tuple(
            (read_str(name, "a tag's name"), read_str(value, f"tag {name!r}"))
            for name, value in tags.items()
        ),
    )


def result_to_dict(
    winners: tuple[int, ...] | None, totals: tuple[int, ...] | None
) -> dict[str, Any] | None:
    """A record's ``result``: None for a record that states none."""
    if totals is None:
        return None
    return {"winners": None if winners is None else list(winners), "totals": list(totals)}


def check_result(
    said_winners: tuple[int, ...] | None,
    said_totals: tuple[int, ...] | None,
    *,
    over: bool,
    winners: tuple[int, ...],
    totals: tuple[int, ...],
) -> None:
    """Refuse a stated result that is not the replayed game's (``over``, ``winners``,
    ``totals``): winners of a game the actions do not finish, a game in progress they
    finish, other winners or other totals. A record that states no result claims nothing."""
    if said_winners is None and said_totals is None:
        return
    if said_winners is not None and not over:
        raise RecordError(
            f"the record says {list(said_winners)} won, but its actions do not finish the game"
        )
    if said_winners is None and over:
        raise RecordError(
            f"the record says the game is in progress, but its actions finish it "
            f"({list(winners)} won)"
        )
    if said_winners is not None and winners != said_winners:
        raise RecordError(
            f"the record says {list(said_winners)} won, but the replay gives {list(winners)}"
        )
    if said_totals is not None and totals != said_totals:
        raise RecordError(
            f"the record's totals are {list(said_totals)}, but the replay gives {list(totals)}"
        )


# -- groups and table groups ------------------------------------------------------------


def group_to_dict(group: Group) -> dict[str, Any]:
    return {
        "kind": group.kind.value,
        "cards": format_cards(group.cards),
        "number": group.number,
        "low": group.low,
        "color": group.color.value if group.color else None,
        "parity": group.parity.value if group.parity else None,
    }


#: a group's values, given in its object form beside ``cards`` (never beside ``text``)
GROUP_VALUES = ("number", "low", "color", "parity")


def group_from_dict(data: Any) -> Group:
    """Read a group written by :func:`group_to_dict` (checked as :meth:`Group.make` checks).

    A group is given by its ``cards`` (each Wild a bare ``W``, the values it stands for in
    ``number``, ``low``, ``color`` and ``parity``, needed only when no numbered card implies
    them) or by its ``text``, written as in a lay-down (``"G3 G4 W G6"``, ``"W=3 W W"``),
    with no values beside it; never both.

    >>> group_from_dict({"kind": "run", "cards": "W W W", "low": 3}).written()
    'W=3 W=4 W=5'
    >>> group_from_dict({"kind": "run", "text": "W=3 W W"}).written()
    'W=3 W=4 W=5'
    >>> group_from_dict({"kind": "run", "text": "G3 G4 W G6", "cards": "G3 G4 W G6"})
    Traceback (most recent call last):
    ...
    phase10.core.codec.RecordError: a group gives its cards or its text, not both
    """
    data = read_object(data, "a group")
    kind = GroupKind(read_str(data.get("kind"), "a group's kind"))
    if data.get("text") is not None:
        if data.get("cards") is not None:
            raise RecordError("a group gives its cards or its text, not both")
        given = [name for name in GROUP_VALUES if data.get(name) is not None]
        if given:
            raise RecordError(
                f"a group given as text says its values in the text (W=5, W=R), not in {given[0]!r}"
            )
        return parse_group(kind, read_str(data["text"], "a group's text"))
    cards = read_str(data.get("cards"), "a group's cards")
    if "W=" in cards.upper():
        raise RecordError(
            f"a group's cards are card names, each Wild a bare W ({cards!r}): give the "
            "Wilds' values in number, low, color or parity, or write the group as text"
        )
    number = read_optional_int(data.get("number"), "a set's number")
    color = data.get("color")
    parity = data.get("parity")
    return Group.make(
        kind,
        parse_cards(cards),
        number=number,
        low=read_optional_int(data.get("low"), "a run's lowest number"),
        color=Color(read_str(color, "a group's colour")) if color else None,
        parity=Parity(read_str(parity, "a group's parity")) if parity else None,
    )


def meld_to_dict(meld: Meld) -> dict[str, Any]:
    return {"owner": meld.owner, "group": group_to_dict(meld.group)}


def meld_from_dict(data: Any) -> Meld:
    data = read_object(data, "a table group")
    return Meld(read_int(data["owner"], "a table group's owner"), group_from_dict(data["group"]))


# -- actions ----------------------------------------------------------------------------


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action as a JSON-ready dict: ``{"type": "Hit", "card": "W", "group": 2, "number": 9}``."""
    match action:
        case Draw():
            return {"type": "Draw"}
        case TakeDiscard():
            return {"type": "TakeDiscard"}
        case LayDown():
            groups = [group_to_dict(group) for group in action.groups]
            return {"type": "LayDown", "groups": groups, "phase": action.phase}
        case Hit():
            card = str(action.card)
            return {"type": "Hit", "card": card, "group": action.group, "number": action.number}
        case Discard():
            return {"type": "Discard", "card": str(action.card), "target": action.target}
        case Declare():
            return {"type": "Declare", "phase": action.phase}
        case GiveWild():
            return {"type": "GiveWild", "player": action.player}
        case Save():
            return {"type": "Save", "card": str(action.card)}
        case TakeSaved():
            return {"type": "TakeSaved", "card": str(action.card)}
        case GiveUp():
            return {"type": "GiveUp"}
        case _:
            assert_never(action)


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Read an action written by :func:`action_to_dict`."""
    data = read_object(data, "an action")
    name = str(data.get("type"))
    reader = ACTION_READERS.get(name)
    if reader is None:
        raise RecordError(f"unknown action type {data.get('type')!r}")
    try:
        return reader(_Fields(name, data))
    except RecordError:
        raise
    except ValueError as error:  # the action refuses its fields (a Skip's target on an R7)
        raise RecordError(f"{name} is malformed: {error}") from None


#: each action's reader, by the name its JSON gives as ``type``
ACTION_READERS: Mapping[str, Callable[[_Fields], Action]] = {
    "Draw": lambda f: Draw(),
    "TakeDiscard": lambda f: TakeDiscard(),
    "LayDown": lambda f: LayDown(f.groups("groups"), f.optional_number("phase")),
    "Hit": lambda f: Hit(f.card("card"), f.number("group"), f.optional_number("number")),
    "Discard": lambda f: Discard(f.card("card"), f.optional_number("target")),
    "Declare": lambda f: Declare(f.number("phase")),
    "GiveWild": lambda f: GiveWild(f.number("player")),
    "Save": lambda f: Save(f.card("card")),
    "TakeSaved": lambda f: TakeSaved(f.card("card")),
    "GiveUp": lambda f: GiveUp(),
}


# -- events -----------------------------------------------------------------------------


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as a JSON-ready dict: ``{"type": "Drew", "player": 0, "card": "R7"}``."""
    match event:
        case HandStarted():
            return {
                "type": "HandStarted",
                "hand": event.hand,
                "dealer": event.dealer,
                "players": list(event.players),
                "first_player": event.first_player,
                "discard_top": str(event.discard_top),
                "tie_break": event.tie_break,
            }
        case Dealt():
            cards = None if event.cards is None else [str(card) for card in event.cards]
            return {"type": "Dealt", "player": event.player, "cards": cards}
        case Declared():
            return {"type": "Declared", "player": event.player, "phase": event.phase}
        case WildGiven():
            return {"type": "WildGiven", "dealer": event.dealer, "player": event.player}
        case Reshuffled():
            return {"type": "Reshuffled", "cards": event.cards}
        case Drew():
            card = None if event.card is None else str(event.card)
            return {"type": "Drew", "player": event.player, "card": card}
        case TookDiscard():
            return {"type": "TookDiscard", "player": event.player, "card": str(event.card)}
        case LaidDown():
            return {
                "type": "LaidDown",
                "player": event.player,
                "phase": event.phase,
                "groups": [group_to_dict(group) for group in event.groups],
                "group_ids": list(event.group_ids),
            }
        case CardHit():
            return {
                "type": "CardHit",
                "player": event.player,
                "card": str(event.card),
                "group": event.group,
                "number": event.number,
                "group_after": group_to_dict(event.group_after),
            }
        case Discarded():
            return {
                "type": "Discarded",
                "player": event.player,
                "card": str(event.card),
                "target": event.target,
            }
        case Saved() | TookSaved():
            card = None if event.card is None else str(event.card)
            kind = type(event).__name__
            return {"type": kind, "player": event.player, "card": card, "public": event.public}
        case GaveUp():
            return {
                "type": "GaveUp",
                "player": event.player,
                "phase": event.phase,
                "group_ids": list(event.group_ids),
                "cards": event.cards,
            }
        case MovedDown():
            return {
                "type": "MovedDown",
                "player": event.player,
                "phase": event.phase,
                "named_by": event.named_by,
            }
        case Refilled():
            cards = None if event.cards is None else [str(card) for card in event.cards]
            return {
                "type": "Refilled",
                "player": event.player,
                "count": event.count,
                "cards": cards,
            }
        case Skipped():
            return {"type": "Skipped", "player": event.player}
        case Floating():
            return {"type": "Floating", "player": event.player}
        case WentOut():
            return {"type": "WentOut", "player": event.player}
        case HandEnded():
            return {
                "type": "HandEnded",
                "hand": event.hand,
                "went_out": event.went_out,
                "reason": event.reason,
                "points": list(event.points),
                "totals": list(event.totals),
                "advanced": list(event.advanced),
                "phases_completed": list(event.phases_completed),
                "cards_left": list(event.cards_left),
                "moved_down": list(event.moved_down),
            }
        case TieBreakStarted():
            return {"type": "TieBreakStarted", "players": list(event.players)}
        case GameEnded():
            return {
                "type": "GameEnded",
                "winners": list(event.winners),
                "reason": event.reason,
                "totals": list(event.totals),
            }
        case _:
            assert_never(event)


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Read an event written by :func:`event_to_dict`."""
    data = read_object(data, "an event")
    name = str(data.get("type"))
    reader = EVENT_READERS.get(name)
    if reader is None:
        raise RecordError(f"unknown event type {data.get('type')!r}")
    return reader(_Fields(name, data))


def _hand_started(f: _Fields) -> HandStarted:
    return HandStarted(
        f.number("hand"),
        f.number("dealer"),
        f.numbers("players"),
        f.number("first_player"),
        f.card("discard_top"),
        f.flag("tie_break", default=False),
    )


def _hand_ended(f: _Fields) -> HandEnded:
    return HandEnded(
        f.number("hand"),
        f.optional_number("went_out"),
        f.text("reason"),
        f.optional_numbers("points"),
        f.numbers("totals"),
        f.numbers("advanced"),
        f.numbers("phases_completed"),
        f.numbers("cards_left", default=()),
        f.numbers("moved_down", default=()),
    )


#: each event's reader, by the name its JSON gives as ``type``
EVENT_READERS: Mapping[str, Callable[[_Fields], Event]] = {
    "HandStarted": _hand_started,
    "Dealt": lambda f: Dealt(f.number("player"), f.optional_cards("cards")),
    "Declared": lambda f: Declared(f.number("player"), f.number("phase")),
    "WildGiven": lambda f: WildGiven(f.number("dealer"), f.number("player")),
    "Reshuffled": lambda f: Reshuffled(f.number("cards")),
    "Drew": lambda f: Drew(f.number("player"), f.optional_card("card")),
    "TookDiscard": lambda f: TookDiscard(f.number("player"), f.card("card")),
    "LaidDown": lambda f: LaidDown(
        f.number("player"), f.number("phase"), f.groups("groups"), f.numbers("group_ids")
    ),
    "CardHit": lambda f: CardHit(
        f.number("player"),
        f.card("card"),
        f.number("group"),
        f.optional_number("number"),
        f.group("group_after"),
    ),
    "Discarded": lambda f: Discarded(
        f.number("player"), f.card("card"), f.optional_number("target")
    ),
    "Saved": lambda f: Saved(
        f.number("player"), f.optional_card("card"), f.flag("public", default=False)
    ),
    "TookSaved": lambda f: TookSaved(
        f.number("player"), f.optional_card("card"), f.flag("public", default=False)
    ),
    "GaveUp": lambda f: GaveUp(
        f.number("player"), f.number("phase"), f.numbers("group_ids"), f.number("cards")
    ),
    "MovedDown": lambda f: MovedDown(
        f.number("player"), f.optional_number("phase"), f.optional_number("named_by")
    ),
    "Refilled": lambda f: Refilled(
        f.number("player"), f.number("count"), f.optional_cards("cards")
    ),
    "Skipped": lambda f: Skipped(f.number("player")),
    "Floating": lambda f: Floating(f.number("player")),
    "WentOut": lambda f: WentOut(f.number("player")),
    "HandEnded": _hand_ended,
    "TieBreakStarted": lambda f: TieBreakStarted(f.numbers("players")),
    "GameEnded": lambda f: GameEnded(f.numbers("winners"), f.text("reason"), f.numbers("totals")),
}


# -- one action's or event's fields -----------------------------------------------------

_ABSENT: Any = object()


class _Fields:
    """The fields of one action or event, each read strictly and named ``Type.field`` in
    any error. A field that may be null reads as None when absent; a field with a
    default takes it when absent; any other field is required.
    """

    __slots__ = ("data", "type")

    def __init__(self, type_name: str, data: Mapping[str, Any]) -> None:
        self.type = type_name
        self.data = data

    def _read(self, name: str, read: Callable[[Any, str], T], default: Any = _ABSENT) -> T:
        """Field ``name`` read with ``read``; absent, it takes ``default`` if there is one
        (a value given as null, or absent without a default, is missing)."""
        what = f"{self.type}.{name}"
        value = self.data.get(name, _ABSENT)
        if value is _ABSENT:
            if default is not _ABSENT:
                return default  # type: ignore[no-any-return]  # the field's own default
            value = None
        if value is None:
            raise RecordError(f"{what} is missing")
        try:
            return read(value, what)
        except RecordError:
            raise
        except ValueError as error:  # a card or group that cannot be read
            raise RecordError(f"{what} is malformed: {error}") from None

    def _optional(self, name: str, read: Callable[[Any, str], T]) -> T | None:
        return None if self.data.get(name) is None else self._read(name, read)

    def number(self, name: str) -> int:
        return self._read(name, read_int)

    def optional_number(self, name: str) -> int | None:
        return self._optional(name, read_int)

    def text(self, name: str) -> str:
        return self._read(name, read_str)

    def flag(self, name: str, *, default: bool) -> bool:
        return self._read(name, read_bool, default)

    def card(self, name: str) -> Card:
        return self._read(name, _card)

    def optional_card(self, name: str) -> Card | None:
        return self._optional(name, _card)

    def group(self, name: str) -> Group:
        return self._read(name, _group)

    def numbers(self, name: str, *, default: tuple[int, ...] = _ABSENT) -> tuple[int, ...]:
        return self._read(name, _read_ints, default)

    def optional_numbers(self, name: str) -> tuple[int | None, ...]:
        return self._read(name, _read_optional_ints)

    def optional_cards(self, name: str) -> tuple[Card, ...] | None:
        return self._optional(name, _read_cards)

    def groups(self, name: str) -> tuple[Group, ...]:
        return self._read(name, _read_groups)


def _card(value: Any, what: str) -> Card:
    return Card.parse(read_str(value, what))


def _group(value: Any, what: str) -> Group:
    try:
        return group_from_dict(value)
    except (KeyError, ValueError) as error:
        raise RecordError(f"{what} is malformed: {error}") from None


def _tuple_of(
    read: Callable[[Any, str], T], *, nullable: bool = False
) -> Callable[[Any, str], tuple[T, ...]]:
    """A reader of a list of values, each read with ``read`` (a null one is missing unless
    ``nullable``). The value at fault is named by its index: the names are built only once
    a value is refused."""

    def read_item(item: Any, what: str) -> T:
        if item is None and not nullable:
            raise RecordError(f"{what} is missing")
        return read(item, what)

    def read_all(value: Any, what: str) -> tuple[T, ...]:
        items = read_list(value, what)
        try:
            return tuple(read_item(item, what) for item in items)
        except ValueError:
            return tuple(read_item(item, f"{what}[{i}]") for i, item in enumerate(items))

    return read_all


_read_ints = _tuple_of(read_int)
_read_optional_ints = _tuple_of(read_optional_int, nullable=True)
_read_cards = _tuple_of(_card)
_read_groups = _tuple_of(_group)

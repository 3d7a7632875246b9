"""Game records (like PGN) and full state snapshots, both JSON.

A **record** is the header (format, rules, seed, players, first dealer, any
arranged deal) and the actions in their text form; replaying it reproduces the
game bit for bit. :meth:`GameRecord.replay` refuses a record whose actions do not
apply, or whose stated result (winners, totals) is not the one its actions reach.

A **snapshot** (:mod:`phase10.core.snapshots`, its functions re-exported here) is
the whole state of a game, random generator included, with its record;
:func:`restore` accepts only a state that the record's replay reaches exactly.

>>> from phase10.core.game import Game
>>> game = Game(["Ann", "Bob"], seed=11)
>>> _ = game.apply("draw")
>>> text = dumps(game)
>>> replayed = loads(text).replay()
>>> replayed.hand(0) == game.hand(0) and replayed.history == game.history
True
>>> restored = loads_snapshot(dumps_snapshot(game))
>>> snapshot(restored) == snapshot(game)
True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any

from . import events as events_module
from .actions import Action, Declare, Discard, Draw, GiveWild, Hit, LayDown, TakeDiscard
from .cards import Card, Color, Parity, parse_cards
from .errors import IllegalActionError, InvalidActionError
from .events import Event
from .game import Arrangement, Game
from .groups import Group
from .phases import GroupKind
from .rules import Rules, RulesError
from .state import Meld

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "SNAPSHOT_FORMAT",
    "GameRecord",
    "RecordError",
    "action_from_dict",
    "action_to_dict",
    "dump",
    "dumps",
    "dumps_snapshot",
    "event_from_dict",
    "event_to_dict",
    "load",
    "loads",
    "loads_snapshot",
    "restore",
    "snapshot",
]

RECORD_FORMAT = "phase10-record"
SNAPSHOT_FORMAT = "phase10-snapshot"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A record or snapshot that cannot be read, or that does not replay as it says."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The header and actions of a game: enough to replay it exactly."""

    players: tuple[str, ...]
    rules: Rules
    seed: int
    dealer: int
    actions: tuple[str, ...] = ()
    arrangement: Arrangement | None = None
    date: str | None = None
    winners: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None
    #: free-form name/value pairs about the game (like PGN tags): who played each seat, ...
    tags: tuple[tuple[str, str], ...] = ()

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of tag ``name`` (``default`` when the record has none)."""
        return dict(self.tags).get(name, default)

    @staticmethod
    def from_game(game: Game, tags: Mapping[str, str] | None = None) -> GameRecord:
        return GameRecord(
            players=tuple(seat.name for seat in game.seats),
            rules=game.rules,
            seed=game.seed,
            dealer=game.first_dealer,
            actions=tuple(str(action) for action in game.actions),
            arrangement=game.arrangement,
            date=datetime.now(UTC).replace(microsecond=0).isoformat(),
            winners=game.winners if game.is_over else None,
            totals=tuple(seat.score for seat in game.seats),
            tags=tuple((tags or {}).items()),
        )

    def new_game(self) -> Game:
        """The game as it stood before the first action.

        Raises :class:`RecordError` if the header does not make a game (a dealer who is no
        seat, an arrangement the deck cannot hold, ...).
        """
        try:
            return Game(
                list(self.players),
                rules=self.rules,
                seed=self.seed,
                dealer=self.dealer,
                arrangement=self.arrangement,
            )
        except ValueError as error:
            raise RecordError(f"the record's header does not make a game: {error}") from None

    def replay(self, upto: int | None = None) -> Game:
        """Play the record's actions (the first ``upto`` of them) and return the game.

        Raises :class:`RecordError` naming the first action that does not apply. A replay of
        every action (``upto`` None, or at least the number of actions) also checks the
        result the record states, if it states one (``winners`` or ``totals``): the record
        is refused if its winners or totals are not the replay's, if it names winners of a
        game the actions do not finish, or states a game in progress that they finish. A
        partial replay cannot check the final result and does not.
        """
        game = self.new_game()
        for number, text in enumerate(self.actions[:upto], start=1):
            try:
                game.apply(text)
            except (IllegalActionError, InvalidActionError) as error:
                raise RecordError(f"action {number} ({text!r}) does not apply: {error}") from None
        if upto is None or upto >= len(self.actions):
            self._check_result(game)
        return game

    def _check_result(self, game: Game) -> None:
        """Refuse a stated result that is not the replayed game's."""
        if self.winners is None and self.totals is None:
            return  # a record with no result (one built by hand) claims nothing
        if self.winners is not None and not game.is_over:
            raise RecordError(
                f"the record says {list(self.winners)} won, but its actions do not finish the game"
            )
        if self.winners is None and game.is_over:
            raise RecordError(
                "the record says the game is in progress, but its actions finish it "
                f"({list(game.winners)} won)"
            )
        if self.winners is not None and game.winners != self.winners:
            raise RecordError(
                f"the record says {list(self.winners)} won, but the replay gives "
                f"{list(game.winners)}"
            )
        totals = tuple(seat.score for seat in game.seats)
        if self.totals is not None and totals != self.totals:
            raise RecordError(
                f"the record's totals are {list(self.totals)}, but the replay gives {list(totals)}"
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "date": self.date,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "dealer": self.dealer,
            "arrangement": _arrangement_to_dict(self.arrangement),
            "actions": list(self.actions),
            "result": None
            if self.totals is None
            else {
                "winners": None if self.winners is None else list(self.winners),
                "totals": list(self.totals),
            },
            "tags": dict(self.tags),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> GameRecord:
        _check_header(data, RECORD_FORMAT)
        try:
            result = _dict(data.get("result") or {}, "result")
            winners = result.get("winners")
            totals = result.get("totals")
            date = data.get("date")
            tags = _dict(data.get("tags") or {}, "tags")
            return GameRecord(
                players=tuple(
                    _str(name, "a player's name") for name in _list(data["players"], "players")
                ),
                rules=Rules.from_dict(_dict(data.get("rules") or {}, "rules")),
                seed=_int(data["seed"], "seed"),
                dealer=_int(data["dealer"], "dealer"),
                actions=tuple(
                    _str(action, "an action")
                    for action in _list(data.get("actions", []), "actions")
                ),
                arrangement=_arrangement_from_dict(data.get("arrangement")),
                date=None if date is None else _str(date, "date"),
                winners=None if winners is None else _ints(winners, "winners"),
                totals=None if totals is None else _ints(totals, "totals"),
                tags=tuple(
                    (_str(name, "a tag's name"), _str(value, f"tag {name!r}"))
                    for name, value in tags.items()
                ),
            )
        except KeyError as error:
            raise RecordError(f"the record has no {error.args[0]!r}") from None
        except (TypeError, ValueError, RulesError) as error:
            raise RecordError(f"the record is malformed: {error}") from None


def dumps(game_or_record: Game | GameRecord, *, indent: int | None = 2) -> str:
    """A game's record as JSON text."""
    record = (
        game_or_record
        if isinstance(game_or_record, GameRecord)
        else GameRecord.from_game(game_or_record)
    )
    return json.dumps(record.to_dict(), indent=indent)


def loads(text: str) -> GameRecord:
    """Read a record from JSON text."""
    return GameRecord.from_dict(_json(text))


def dump(game_or_record: Game | GameRecord, fp: IO[str]) -> None:
    fp.write(dumps(game_or_record))
    fp.write("\n")


def load(fp: IO[str]) -> GameRecord:
    return loads(fp.read())


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action as a JSON-ready dict: ``{"type": "Hit", "card": "W", "group": 2, "number": 9}``."""
    data: dict[str, Any] = {"type": type(action).__name__}
    for item in dataclasses.fields(action):
        data[item.name] = _encode(getattr(action, item.name))
    return data


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Read an action written by :func:`action_to_dict`."""
    data = _dict(data, "an action")
    cls = _ACTION_TYPES.get(str(data.get("type")))
    if cls is None:
        raise RecordError(f"unknown action type {data.get('type')!r}")
    values = _fields_from_dict(cls, data)
    try:
        return cls(**values)
    except ValueError as error:
        raise RecordError(f"{cls.__name__} is malformed: {error}") from None


# -- events -----------------------------------------------------------------------------

_EVENT_TYPES: dict[str, type[Event]] = {
    name: cls
    for name in events_module.__all__
    if isinstance(cls := getattr(events_module, name), type)
    and issubclass(cls, Event)
    and cls is not Event
}


_ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls for cls in (Draw, TakeDiscard, LayDown, Hit, Discard, Declare, GiveWild)
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as a JSON-ready dict: ``{"type": "Drew", "player": 0, "card": "R7"}``."""
    cls = type(event)
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = [item.name for item in dataclasses.fields(cls)]
    data: dict[str, Any] = {"type": cls.__name__}
    for name in names:
        data[name] = _encode(getattr(event, name))
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Read an event written by :func:`event_to_dict`."""
    data = _dict(data, "an event")
    cls = _EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        raise RecordError(f"unknown event type {data.get('type')!r}")
    return cls(**_fields_from_dict(cls, data))


#: each event's field names, in order
_NAMES: dict[type[Any], list[str]] = {}
#: each action's and event's fields: name, annotation, whether required, and the class name
_FIELDS: dict[type[Any], list[tuple[str, str, bool, str]]] = {}


def _fields_from_dict(cls: type[Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of an action or event, each checked against its type (a missing field with
    a default takes it).
    """
    values: dict[str, Any] = {}
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = [
            (item.name, str(item.type), item.default is dataclasses.MISSING, f"{cls.__name__}.")
            for item in dataclasses.fields(cls)
        ]
    for name, annotation, required, prefix in fields:
        if name in data or required:
            what = prefix + name
            try:
                values[name] = _decode(data.get(name), annotation, what)
            except RecordError:
                raise
            except ValueError as error:
                raise RecordError(f"{what} is malformed: {error}") from None
    return values


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Group):
        return _group_to_dict(value)
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


def _decode(value: Any, annotation: str, what: str) -> Any:
    """Read a JSON value as the type its field is annotated with (``int | None``,
    ``tuple[Card, ...]``, ``Group``, ...), refusing any other type.
    """
    optional = annotation.endswith(" | None")
    annotation = annotation.removesuffix(" | None")
    if value is None:
        if optional:
            return None
        raise RecordError(f"{what} is missing")
    if annotation.startswith("tuple["):
        item = annotation.removeprefix("tuple[").removesuffix(", ...]")
        elements = _list(value, what)
        try:
            return tuple(_decode(element, item, what) for element in elements)
        except ValueError:
            # name the element at fault (building each name up front costs every read)
            return tuple(
                _decode(element, item, f"{what}[{i}]") for i, element in enumerate(elements)
            )
    if annotation == "Group":
        try:
            return _group_from_dict(value)
        except (KeyError, ValueError) as error:
            raise RecordError(f"{what} is malformed: {error}") from None
    if annotation == "Card":
        return Card.parse(_str(value, what))
    if annotation == "int":
        return _int(value, what)
    if annotation == "bool":
        return _bool(value, what)
    if annotation == "str":
        return _str(value, what)
    raise AssertionError(f"no reader for {annotation}")  # pragma: no cover


# -- pieces -----------------------------------------------------------------------------


def _cards(cards: Any) -> str:
    return " ".join(str(card) for card in cards)


def _group_to_dict(group: Group) -> dict[str, Any]:
    return {
        "kind": group.kind.value,
        "cards": _cards(group.cards),
        "number": group.number,
        "low": group.low,
        "color": group.color.value if group.color else None,
        "parity": group.parity.value if group.parity else None,
    }


def _group_from_dict(data: Mapping[str, Any]) -> Group:
    data = _dict(data, "a group")
    kind = GroupKind(_str(data.get("kind"), "a group's kind"))
    number = _optional_int(data.get("number"), "a set's number")
    color = data.get("color")
    parity = data.get("parity")
    return Group.make(
        kind,
        _card_text(data.get("cards"), "a group's cards"),
        number=number if kind is GroupKind.SET else None,
        low=_optional_int(data.get("low"), "a run's lowest number"),
        color=Color(_str(color, "a group's colour")) if color else None,
        parity=Parity(_str(parity, "a group's parity")) if parity else None,
    )


def _meld_from_dict(data: Mapping[str, Any]) -> Meld:
    data = _dict(data, "a table group")
    return Meld(_int(data["owner"], "a table group's owner"), _group_from_dict(data["group"]))


def _arrangement_to_dict(arrangement: Arrangement | None) -> dict[str, Any] | None:
    if arrangement is None:
        return None
    return {
        "hands": [_cards(hand) for hand in arrangement.hands],
        "discard": _cards(arrangement.discard),
        "draw": _cards(arrangement.draw),
        "phases": None if arrangement.phases is None else list(arrangement.phases),
        "scores": None if arrangement.scores is None else list(arrangement.scores),
    }


def _arrangement_from_dict(data: Mapping[str, Any] | None) -> Arrangement | None:
    if data is None:
        return None
    data = _dict(data, "arrangement")
    phases, scores = data.get("phases"), data.get("scores")
    return Arrangement(
        hands=tuple(_card_text(hand, "a hand") for hand in _list(data["hands"], "hands")),
        discard=_card_text(data["discard"], "the discard pile"),
        draw=_card_text(data.get("draw", ""), "the draw pile"),
        phases=None if phases is None else _ints(phases, "the arrangement's phases"),
        scores=None if scores is None else _ints(scores, "the arrangement's scores"),
    )


# -- reading JSON values strictly: a wrong type is refused, never converted -------------


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{what} must be a whole number, not {value!r}")
    return value


def _optional_int(value: Any, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _ints(value: Any, what: str) -> tuple[int, ...]:
    return tuple(_int(item, what) for item in _list(value, what))


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{what} must be true or false, not {value!r}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be text, not {value!r}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list, not {value!r}")
    return value


def _dict(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RecordError(f"{what} must be a JSON object, not {value!r}")
    return value


def _card_text(value: Any, what: str) -> tuple[Card, ...]:
    """Cards written as one text, ``"R7 B7 W"``."""
    return parse_cards(_str(value, what))


def _json(text: str) -> Mapping[str, Any]:
    if not isinstance(text, (str, bytes, bytearray)):
        raise RecordError(f"a record is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordError(f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def _check_header(data: Mapping[str, Any], expected: str) -> None:
    if not isinstance(data, Mapping):
        raise RecordError(f"a {expected} is a JSON object, not {type(data).__name__}")
    if data.get("format") != expected:
        raise RecordError(f"not a {expected} (format is {data.get('format')!r})")
    if data.get("version") != RECORD_VERSION:
        raise RecordError(
            f"{expected} version {data.get('version')!r} is not supported (this reads {RECORD_VERSION})"
        )


# The snapshot functions live in their own module, which reads JSON with the helpers
# above: imported last, once those exist, and re-exported so that imports keep working.
from .snapshots import dumps_snapshot, loads_snapshot, restore, snapshot  # noqa: E402

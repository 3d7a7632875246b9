"""Game records (like PGN) and full state snapshots, both JSON.

A **record** is the header (format, rules, seed, players, first dealer, any
arranged deal) and the actions in their text form; replaying it reproduces the
game bit for bit. A **snapshot** is the whole state of a game in progress,
random generator included, for saving and resuming without replaying.

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
from .events import Event, HandEnded
from .game import Arrangement, Game, _Hand
from .groups import Group
from .phases import GroupKind
from .rules import Rules, RulesError
from .state import Meld, Seat, Stage

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

    @staticmethod
    def from_game(game: Game) -> GameRecord:
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
        )

    def new_game(self) -> Game:
        """The game as it stood before the first action."""
        return Game(
            list(self.players),
            rules=self.rules,
            seed=self.seed,
            dealer=self.dealer,
            arrangement=self.arrangement,
        )

    def replay(self, upto: int | None = None) -> Game:
        """Play the record's actions (the first ``upto`` of them) and return the game.

        Raises :class:`RecordError` naming the first action that does not apply, or if the
        finished game's result differs from the one recorded.
        """
        game = self.new_game()
        for number, text in enumerate(self.actions[:upto], start=1):
            try:
                game.apply(text)
            except (IllegalActionError, InvalidActionError) as error:
                raise RecordError(f"action {number} ({text!r}) does not apply: {error}") from None
        if upto is None and self.winners is not None and game.winners != self.winners:
            raise RecordError(
                f"the record says {self.winners} won, but the replay gives {game.winners}"
            )
        return game

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
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> GameRecord:
        _check_header(data, RECORD_FORMAT)
        try:
            result = data.get("result") or {}
            winners = result.get("winners")
            totals = result.get("totals")
            return GameRecord(
                players=tuple(str(name) for name in data["players"]),
                rules=Rules.from_dict(data.get("rules") or {}),
                seed=int(data["seed"]),
                dealer=int(data["dealer"]),
                actions=tuple(str(action) for action in data.get("actions", ())),
                arrangement=_arrangement_from_dict(data.get("arrangement")),
                date=data.get("date"),
                winners=None if winners is None else tuple(int(w) for w in winners),
                totals=None if totals is None else tuple(int(t) for t in totals),
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


# -- snapshots --------------------------------------------------------------------------


def snapshot(game: Game) -> dict[str, Any]:
    """The whole state of a game as a JSON-ready dict (:func:`restore` reads it back)."""
    version, internal, gauss = game.rng.getstate()
    return {
        "format": SNAPSHOT_FORMAT,
        "version": RECORD_VERSION,
        "record": GameRecord.from_game(game).to_dict() | {"date": None},
        "state": {
            "rng": [version, list(internal), gauss],
            "hand_number": game.hand_number,
            "dealer": game.dealer,
            "current": game.current,
            "stage": game.stage.value,
            "players_in_hand": list(game.players_in_hand),
            "tie_break": game.tie_break,
            "winners": list(game.winners),
            "draw_pile": _cards(game.draw_pile),
            "discard_pile": _cards(game.discard_pile),
            "melds": [{"owner": m.owner, "group": _group_to_dict(m.group)} for m in game.melds],
            "seats": [_seat_to_dict(seat) for seat in game.seats],
            "declare_queue": list(game._hand.declare_queue),
            "first_player": game._hand.first_player,
            "hand_start": game.hand_start,
            "history": [event_to_dict(event) for event in game.history],
            "actions": [action_to_dict(action) for action in game.actions],
        },
    }


def restore(data: Mapping[str, Any]) -> Game:
    """A game in exactly the state a :func:`snapshot` describes."""
    _check_header(data, SNAPSHOT_FORMAT)
    record = GameRecord.from_dict(data["record"])
    try:
        state = data["state"]
        game = record.new_game()
        version, internal, gauss = state["rng"]
        game.rng.setstate((version, tuple(internal), gauss))
        game.hand_number = int(state["hand_number"])
        game.dealer = int(state["dealer"])
        game.current = int(state["current"])
        game.stage = Stage(state["stage"])
        game.players_in_hand = tuple(int(p) for p in state["players_in_hand"])
        game.tie_break = bool(state["tie_break"])
        game.winners = tuple(int(w) for w in state["winners"])
        game.draw_pile = list(parse_cards(state["draw_pile"]))
        game.discard_pile = list(parse_cards(state["discard_pile"]))
        game.melds = [Meld(int(m["owner"]), _group_from_dict(m["group"])) for m in state["melds"]]
        game.seats = [_seat_from_dict(seat) for seat in state["seats"]]
        game._hand = _Hand([int(p) for p in state["declare_queue"]], int(state["first_player"]))
        game.hand_start = int(state["hand_start"])
        game.history = [event_from_dict(event) for event in state["history"]]
        game.hand_results = [event for event in game.history if isinstance(event, HandEnded)]
        game.actions = [action_from_dict(action) for action in state["actions"]]
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"the snapshot is malformed: {error}") from None
    return game


def dumps_snapshot(game: Game, *, indent: int | None = None) -> str:
    return json.dumps(snapshot(game), indent=indent)


def loads_snapshot(text: str) -> Game:
    return restore(_json(text))


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action as a JSON-ready dict: ``{"type": "Hit", "card": "W", "group": 2, "number": 9}``."""
    data: dict[str, Any] = {"type": type(action).__name__}
    for item in dataclasses.fields(action):
        data[item.name] = _encode(getattr(action, item.name))
    return data


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Read an action written by :func:`action_to_dict`."""
    cls = _ACTION_TYPES.get(str(data.get("type")))
    if cls is None:
        raise RecordError(f"unknown action type {data.get('type')!r}")
    values = {
        item.name: _decode(data.get(item.name), str(item.type)) for item in dataclasses.fields(cls)
    }
    return cls(**values)


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
    data: dict[str, Any] = {"type": type(event).__name__}
    for item in dataclasses.fields(event):
        data[item.name] = _encode(getattr(event, item.name))
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Read an event written by :func:`event_to_dict`."""
    cls = _EVENT_TYPES.get(str(data.get("type")))
    if cls is None:
        raise RecordError(f"unknown event type {data.get('type')!r}")
    values = {}
    for item in dataclasses.fields(cls):
        values[item.name] = _decode(data.get(item.name), str(item.type))
    return cls(**values)


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Group):
        return _group_to_dict(value)
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


def _decode(value: Any, annotation: str) -> Any:
    if value is None:
        return None
    if "Group" in annotation:
        return (
            tuple(_group_from_dict(g) for g in value)
            if "tuple" in annotation
            else _group_from_dict(value)
        )
    if "Card" in annotation:
        return parse_cards(value) if "tuple" in annotation else Card.parse(value)
    if "tuple" in annotation:
        return tuple(value)
    return value


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
    return Group.make(
        GroupKind(data["kind"]),
        parse_cards(data["cards"]),
        number=data.get("number") if GroupKind(data["kind"]) is GroupKind.SET else None,
        low=data.get("low"),
        color=Color(data["color"]) if data.get("color") else None,
        parity=Parity(data["parity"]) if data.get("parity") else None,
    )


def _seat_to_dict(seat: Seat) -> dict[str, Any]:
    return {
        "name": seat.name,
        "hand": _cards(seat.hand),
        "score": seat.score,
        "phase": seat.phase,
        "completed": sorted(seat.completed),
        "laid": seat.laid,
        "declared": seat.declared,
        "pending_skip": seat.pending_skip,
        "floating": seat.floating,
    }


def _seat_from_dict(data: Mapping[str, Any]) -> Seat:
    return Seat(
        name=str(data["name"]),
        hand=list(parse_cards(data["hand"])),
        score=int(data["score"]),
        phase=int(data["phase"]),
        completed={int(i) for i in data["completed"]},
        laid=None if data["laid"] is None else int(data["laid"]),
        declared=None if data["declared"] is None else int(data["declared"]),
        pending_skip=bool(data["pending_skip"]),
        floating=bool(data["floating"]),
    )


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
    return Arrangement(
        hands=tuple(parse_cards(hand) for hand in data["hands"]),
        discard=parse_cards(data["discard"]),
        draw=parse_cards(data.get("draw", "")),
        phases=None if data.get("phases") is None else tuple(int(p) for p in data["phases"]),
        scores=None if data.get("scores") is None else tuple(int(s) for s in data["scores"]),
    )


def _json(text: str) -> Mapping[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def _check_header(data: Mapping[str, Any], expected: str) -> None:
    if data.get("format") != expected:
        raise RecordError(f"not a {expected} (format is {data.get('format')!r})")
    if data.get("version") != RECORD_VERSION:
        raise RecordError(
            f"{expected} version {data.get('version')!r} is not supported (this reads {RECORD_VERSION})"
        )

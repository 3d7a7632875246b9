"""Snapshots: the whole state of a game in progress, random generator included, as JSON,
for saving and resuming without replaying.

>>> from phase10.core.game import Game
>>> game = Game(["Ann", "Bob"], seed=11)
>>> _ = game.apply("draw")
>>> data = snapshot(game)
>>> snapshot(restore(data)) == data
True
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from .cards import DECK_COUNTS
from .events import HandEnded, HandStarted
from .game import Game, _Hand
from .records import (
    RECORD_VERSION,
    SNAPSHOT_FORMAT,
    GameRecord,
    RecordError,
    _bool,
    _card_text,
    _cards,
    _check_header,
    _dict,
    _group_to_dict,
    _int,
    _ints,
    _json,
    _list,
    _meld_from_dict,
    _optional_int,
    _str,
    action_from_dict,
    action_to_dict,
    event_from_dict,
    event_to_dict,
)
from .state import Seat, Stage

__all__ = ["dumps_snapshot", "loads_snapshot", "restore", "snapshot"]


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
    """A game in exactly the state a :func:`snapshot` describes.

    Raises :class:`RecordError` for a snapshot that is malformed (a missing key, a value of
    the wrong type) or inconsistent (its cards are not the deck's 108, a seat or phase that
    does not exist, actions that are not its record's).
    """
    _check_header(data, SNAPSHOT_FORMAT)
    if "record" not in data:
        raise RecordError("the snapshot is malformed: it has no 'record'")
    record = GameRecord.from_dict(data["record"])
    game = record.new_game()
    try:
        state = _dict(data["state"], "state")
        version, internal, gauss = _list(state["rng"], "rng")
        if gauss is not None and not isinstance(gauss, float):
            raise RecordError(f"the random state's last value must be a number, not {gauss!r}")
        game.rng.setstate((version, tuple(_list(internal, "rng")), gauss))
        game.hand_number = _int(state["hand_number"], "hand_number")
        game.dealer = _int(state["dealer"], "dealer")
        game.current = _int(state["current"], "current")
        game.stage = Stage(_str(state["stage"], "stage"))
        game.players_in_hand = _ints(state["players_in_hand"], "players_in_hand")
        game.tie_break = _bool(state["tie_break"], "tie_break")
        game.winners = _ints(state["winners"], "winners")
        game.draw_pile = list(_card_text(state["draw_pile"], "draw_pile"))
        game.discard_pile = list(_card_text(state["discard_pile"], "discard_pile"))
        game.melds = [_meld_from_dict(meld) for meld in _list(state["melds"], "melds")]
        game.seats = [_seat_from_dict(seat) for seat in _list(state["seats"], "seats")]
        game._hand = _Hand(
            list(_ints(state["declare_queue"], "declare_queue")),
            _int(state["first_player"], "first_player"),
        )
        game.hand_start = _int(state["hand_start"], "hand_start")
        game.history = [event_from_dict(event) for event in _list(state["history"], "history")]
        game.hand_results = [event for event in game.history if isinstance(event, HandEnded)]
        game.actions = [action_from_dict(action) for action in _list(state["actions"], "actions")]
    except KeyError as error:
        raise RecordError(f"the snapshot is malformed: it has no {error.args[0]!r}") from None
    except (TypeError, ValueError, OverflowError) as error:
        raise RecordError(f"the snapshot is malformed: {error}") from None
    _check_state(game, record)
    return game


def _check_state(game: Game, record: GameRecord) -> None:
    """Refuse a snapshot whose parts do not fit together: a card too many or missing, a seat
    that does not exist, a phase out of range, actions that are not the record's, ...
    """

    def fail(text: str) -> RecordError:
        return RecordError(f"the snapshot is inconsistent: {text}")

    n = game.num_players
    count = game.rules.phase_count
    names = tuple(seat.name for seat in game.seats)
    if names != record.players:
        raise fail(f"its seats {list(names)} are not the record's players {list(record.players)}")
    hand = game.players_in_hand
    if not hand or list(hand) != sorted(set(hand)) or not set(hand) <= set(range(n)):
        raise fail(f"the players in the hand {list(hand)} are not distinct seats in order")
    for what, player in (
        ("dealer", game.dealer),
        ("player to move", game.current),
        ("first player", game._hand.first_player),
        *(("player still to declare", p) for p in game._hand.declare_queue),
        *(("owner of a table group", meld.owner) for meld in game.melds),
    ):
        if player not in hand:
            raise fail(f"the {what} ({player}) is not in the hand {list(hand)}")
    if game.stage is Stage.DECLARE and game._hand.declare_queue[:1] != [game.current]:
        raise fail("the player to move is not the next to declare")
    winners = game.winners
    if len(set(winners)) != len(winners) or not set(winners) <= set(range(n)):
        raise fail(f"the winners {list(winners)} are not distinct seats")
    if (game.stage is Stage.GAME_OVER) != bool(winners):
        raise fail("a finished game has winners and a game in progress has none")
    if record.winners is not None and record.winners != winners:
        raise fail(f"its record says {list(record.winners)} won, its state {list(winners)}")
    scores = tuple(seat.score for seat in game.seats)
    if record.totals is not None and record.totals != scores:
        raise fail(f"its record's totals {list(record.totals)} are not the scores {list(scores)}")
    for number, seat in enumerate(game.seats):
        phases = [*seat.completed, *(p for p in (seat.laid, seat.declared) if p is not None)]
        if not all(0 <= p < count for p in phases) or not 0 <= seat.phase <= count:
            raise fail(f"seat {number} names a phase outside 1 to {count}")
        if number not in hand and seat.hand:
            raise fail(f"seat {number} holds cards but is not in the hand")
    held = Counter(game.all_cards())
    wrong = [
        f"{held[card]} {card} (the deck has {copies})"
        for card, copies in DECK_COUNTS.items()
        if held[card] != copies
    ]
    if wrong:
        raise fail(
            f"its cards are not the deck's 108: it holds {sum(held.values())}, with "
            + ", ".join(wrong[:4])
            + (", ..." if len(wrong) > 4 else "")
        )
    start = game.history[game.hand_start] if 0 <= game.hand_start < len(game.history) else None
    if not isinstance(start, HandStarted) or start.hand != game.hand_number:
        raise fail(f"its history does not start hand {game.hand_number} at {game.hand_start}")
    if any(isinstance(event, HandStarted) for event in game.history[game.hand_start + 1 :]):
        raise fail("its history starts a later hand than the current one")
    if tuple(str(action) for action in game.actions) != record.actions:
        raise fail("its actions are not its record's")


def dumps_snapshot(game: Game, *, indent: int | None = None) -> str:
    return json.dumps(snapshot(game), indent=indent)


def loads_snapshot(text: str) -> Game:
    return restore(_json(text))


# -- seats as JSON ---------------------------------------------------------------------


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
    data = _dict(data, "a seat")
    return Seat(
        name=_str(data["name"], "a seat's name"),
        hand=list(_card_text(data["hand"], "a seat's hand")),
        score=_int(data["score"], "a seat's score"),
        phase=_int(data["phase"], "a seat's phase"),
        completed=set(_ints(data["completed"], "a seat's completed phases")),
        laid=_optional_int(data["laid"], "a seat's laid phase"),
        declared=_optional_int(data["declared"], "a seat's declared phase"),
        pending_skip=_bool(data["pending_skip"], "a seat's pending_skip"),
        floating=_bool(data["floating"], "a seat's floating"),
    )

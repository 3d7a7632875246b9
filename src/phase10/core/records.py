"""Game records (like PGN), as JSON.

A **record** is the header (format, rules, seed, players, first dealer, any
arranged deal) and the actions in their text form; replaying it reproduces the
game bit for bit. :meth:`GameRecord.replay` refuses a record whose actions do not
apply, or whose stated result (winners, totals) is not the one its actions reach.

A **snapshot** (:mod:`phase10.core.snapshots`) is the whole state of a game, random
generator included, with its record; the JSON forms of actions and events, and the
strict readers both use, are in :mod:`phase10.core.codec` (the action and event codecs
are re-exported here).

>>> from phase10.core.game import Game
>>> game = Game(["Ann", "Bob"], seed=11)
>>> _ = game.apply("draw")
>>> text = dumps(game)
>>> replayed = loads(text).replay()
>>> replayed.hand(0) == game.hand(0) and replayed.history == game.history
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any

from .cards import format_cards
from .codec import (
    RecordError,
    action_from_dict,
    action_to_dict,
    check_header,
    check_result,
    event_from_dict,
    event_to_dict,
    read_cards,
    read_int,
    read_ints,
    read_json,
    read_list,
    read_object,
    read_record_common,
    result_to_dict,
)
from .errors import IllegalActionError, InvalidActionError
from .game import Arrangement, Game, GameState
from .rules import Rules, RulesError

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RESHUFFLES_TAG",
    "SNAPSHOT_FORMAT",
    "GameRecord",
    "RecordError",
    "action_from_dict",
    "action_to_dict",
    "dump",
    "dumps",
    "event_from_dict",
    "event_to_dict",
    "load",
    "loads",
    "reshuffle_unseen",
]

RECORD_FORMAT = "phase10-record"
SNAPSHOT_FORMAT = "phase10-snapshot"
RECORD_VERSION = 1

#: the tag listing where an undo reshuffled the unseen cards, ``point:salt,...`` (``point``:
#: the actions played before it); a record carrying it replays only with the reshuffles
RESHUFFLES_TAG = "undo_reshuffles"


def reshuffle_unseen(game: Game, salt: int) -> None:
    """Put the draw pile in a fresh order and reseed the game's chance from ``salt``.

    An interface with undo calls this after taking moves back, so that taking a move back
    shows nothing of what was to come: drawing again gives a card from a reshuffled pile,
    and later shuffles and deals differ. Only unseen cards move; every hand, group and the
    discard pile stay as they were. The record notes it (:data:`RESHUFFLES_TAG`).

    >>> game = Game(["Ann", "Bob"], seed=1)
    >>> pile, hands = list(game.draw_pile), [game.hand(0), game.hand(1)]
    >>> reshuffle_unseen(game, 7)
    >>> sorted(map(str, game.draw_pile)) == sorted(map(str, pile)), game.draw_pile != pile
    (True, True)
    >>> [game.hand(0), game.hand(1)] == hands
    True
    """
    rng = random.Random(f"{game.seed}:undo:{salt}")
    rng.shuffle(game.draw_pile)
    game.rng.seed(rng.getrandbits(64))


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

    def reshuffles(self) -> tuple[tuple[int, int], ...]:
        """Where undo reshuffled the unseen cards: (actions played before it, salt) pairs,
        from the :data:`RESHUFFLES_TAG` tag (none without it).

        Raises :class:`RecordError` if the tag cannot be read.

        >>> def tagged(text: str) -> GameRecord:
        ...     return GameRecord(("Ann", "Bob"), Rules(), 1, 0, tags=((RESHUFFLES_TAG, text),))
        >>> tagged("3:17,9:5").reshuffles()
        ((3, 17), (9, 5))
        >>> tagged("3").reshuffles()
        Traceback (most recent call last):
        ...
        phase10.core.codec.RecordError: the record's undo_reshuffles tag is unreadable: '3' ...
        """
        text = self.tag(RESHUFFLES_TAG) or ""
        found = []
        for part in filter(None, text.split(",")):
            point, colon, salt = part.partition(":")
            try:
                if not colon:
                    raise ValueError(part)
                found.append((int(point), int(salt)))
            except ValueError:
                raise RecordError(
                    f"the record's {RESHUFFLES_TAG} tag is unreadable: {part!r} (write point:salt)"
                ) from None
        return tuple(found)

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

    def new_game(self, state: GameState | None = None) -> Game:
        """The game as it stood before the first action, or with the record's header in
        ``state`` (:meth:`Game.from_state`: the state is not checked).

        Raises :class:`RecordError` if the header does not make a game (a dealer who is no
        seat, an arrangement the deck cannot hold, ...).
        """
        header: dict[str, Any] = {
            "rules": self.rules,
            "seed": self.seed,
            "dealer": self.dealer,
            "arrangement": self.arrangement,
        }
        try:
            if state is not None:
                return Game.from_state(list(self.players), state, **header)
            return Game(list(self.players), **header)
        except ValueError as error:
            raise RecordError(f"the record's header does not make a game: {error}") from None

    def replay(self, upto: int | None = None) -> Game:
        """Play the record's actions (the first ``upto`` of them) and return the game.

        Where undo reshuffled the unseen cards (:meth:`reshuffles`) the replay reshuffles
        them the same way. Raises :class:`RecordError` naming the first action that does not
        apply. A replay of
        every action (``upto`` None, or at least the number of actions) also checks the
        result the record states, if it states one (``winners`` or ``totals``): the record
        is refused if its winners or totals are not the replay's, if it names winners of a
        game the actions do not finish, or states a game in progress that they finish. A
        partial replay cannot check the final result and does not.
        """
        game = self.new_game()
        reshuffles = self.reshuffles()
        actions = self.actions[:upto]
        for number, text in enumerate(actions, start=1):
            self._reshuffle(game, number - 1, reshuffles)
            try:
                game.apply(text)
            except (IllegalActionError, InvalidActionError) as error:
                raise RecordError(f"action {number} ({text!r}) does not apply: {error}") from None
        # an undo back to the last action reshuffled too: the game goes on from there
        self._reshuffle(game, len(actions), reshuffles)
        if upto is None or upto >= len(self.actions):
            self._check_result(game)
        return game

    @staticmethod
    def _reshuffle(game: Game, point: int, reshuffles: tuple[tuple[int, int], ...]) -> None:
        """Redo the undo reshuffles made with ``point`` actions played."""
        for where, salt in reshuffles:
            if where == point:
                reshuffle_unseen(game, salt)

    def _check_result(self, game: Game) -> None:
        """Refuse a stated result that is not the replayed game's."""
        totals = tuple(seat.score for seat in game.seats)
        check_result(
            self.winners, self.totals, over=game.is_over, winners=game.winners, totals=totals
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
            "result": result_to_dict(self.winners, self.totals),
            "tags": dict(self.tags),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> GameRecord:
        check_header(data, RECORD_FORMAT, RECORD_VERSION)
        try:
            common = read_record_common(data)
            return GameRecord(
                players=common.players,
                rules=Rules.from_dict(read_object(data.get("rules") or {}, "rules")),
                seed=common.seed,
                dealer=read_int(data["dealer"], "dealer"),
                actions=common.actions,
                arrangement=_arrangement_from_dict(data.get("arrangement")),
                date=common.date,
                winners=common.winners,
                totals=common.totals,
                tags=common.tags,
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
    return GameRecord.from_dict(read_json(text))


def dump(game_or_record: Game | GameRecord, fp: IO[str]) -> None:
    fp.write(dumps(game_or_record))
    fp.write("\n")


def load(fp: IO[str]) -> GameRecord:
    return loads(fp.read())


def _arrangement_to_dict(arrangement: Arrangement | None) -> dict[str, Any] | None:
    if arrangement is None:
        return None
    return {
        "hands": [format_cards(hand) for hand in arrangement.hands],
        "discard": format_cards(arrangement.discard),
        "draw": format_cards(arrangement.draw),
        "phases": None if arrangement.phases is None else list(arrangement.phases),
        "scores": None if arrangement.scores is None else list(arrangement.scores),
        "saved": None
        if arrangement.saved is None
        else [format_cards(p) for p in arrangement.saved],
    }


def _arrangement_from_dict(data: Mapping[str, Any] | None) -> Arrangement | None:
    if data is None:
        return None
    data = read_object(data, "arrangement")
    phases, scores, saved = data.get("phases"), data.get("scores"), data.get("saved")
    return Arrangement(
        hands=tuple(read_cards(hand, "a hand") for hand in read_list(data["hands"], "hands")),
        discard=read_cards(data["discard"], "the discard pile"),
        draw=read_cards(data.get("draw", ""), "the draw pile"),
        phases=None if phases is None else read_ints(phases, "the arrangement's phases"),
        scores=None if scores is None else read_ints(scores, "the arrangement's scores"),
        saved=None
        if saved is None
        else tuple(read_cards(pile, "a save pile") for pile in read_list(saved, "saved")),
    )

"""Dice game records, as JSON: the header (players, seed, any set-up) and the actions in
their text form; replaying a record reproduces the game exactly (docs/dice.md §3).

:meth:`DiceRecord.replay` refuses a record whose actions do not apply, or whose stated
result (winners, totals) is not the one its actions reach.

>>> from phase10.dice.game import DiceGame
>>> game = DiceGame(["Ann", "Bob"], seed=11)
>>> for action in ("roll", "keep H1 H2", "roll", "roll"):
...     _ = game.apply(action)
>>> replayed = loads(dumps(game)).replay()
>>> replayed.history == game.history and replayed.showing == game.showing
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any

from phase10.core.codec import (
    RecordError,
    check_header,
    check_result,
    read_ints,
    read_json,
    read_list,
    read_object,
    read_record_common,
    read_str,
    result_to_dict,
)

from .errors import DiceActionError
from .faces import DiceError
from .game import DiceGame
from .state import DiceSetup

__all__ = [
    "DICE_RECORD_FORMAT",
    "DICE_RECORD_VERSION",
    "DiceRecord",
    "RecordError",
    "dump",
    "dumps",
    "load",
    "loads",
]

DICE_RECORD_FORMAT = "phase10-dice-record"
DICE_RECORD_VERSION = 1


@dataclass(frozen=True, slots=True)
class DiceRecord:
    """The header and actions of a dice game: enough to replay it exactly."""

    players: tuple[str, ...]
    seed: int
    actions: tuple[str, ...] = ()
    setup: DiceSetup | None = None
    date: str | None = None
    winners: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None
    tags: tuple[tuple[str, str], ...] = ()

    @staticmethod
    def from_game(game: DiceGame, tags: Mapping[str, str] | None = None) -> DiceRecord:
        return DiceRecord(
            players=tuple(seat.name for seat in game.seats),
            seed=game.seed,
            actions=tuple(str(action) for action in game.actions),
            setup=game.setup,
            date=datetime.now(UTC).replace(microsecond=0).isoformat(),
            winners=game.winners if game.is_over else None,
            totals=game.totals(),
            tags=tuple((tags or {}).items()),
        )

    def new_game(self) -> DiceGame:
        """The game as it stood before the first action (a :class:`RecordError` when the
        header does not make one)."""
        try:
            return DiceGame(list(self.players), seed=self.seed, setup=self.setup)
        except ValueError as error:
            raise RecordError(f"the record's header does not make a game: {error}") from None

    def replay(self, upto: int | None = None) -> DiceGame:
        """Play the record's actions (the first ``upto``) and return the game; a replay of
        them all also checks the result the record states, if it states one."""
        game = self.new_game()
        for number, text in enumerate(self.actions[:upto], start=1):
            try:
                game.apply(text)
            except (DiceActionError, DiceError) as error:
                raise RecordError(f"action {number} ({text!r}) does not apply: {error}") from None
        if upto is None or upto >= len(self.actions):
            self._check_result(game)
        return game

    def _check_result(self, game: DiceGame) -> None:
        check_result(
            self.winners, self.totals, over=game.is_over, winners=game.winners, totals=game.totals()
        )

    def to_dict(self) -> dict[str, Any]:
        setup = self.setup
        return {
            "format": DICE_RECORD_FORMAT,
            "version": DICE_RECORD_VERSION,
            "date": self.date,
            "players": list(self.players),
            "seed": self.seed,
            "setup": None
            if setup is None
            else {
                "order": None if setup.order is None else list(setup.order),
                "phases": None if setup.phases is None else list(setup.phases),
                "totals": None if setup.totals is None else list(setup.totals),
                "rolls": list(setup.rolls_text()),
            },
            "actions": list(self.actions),
            "result": result_to_dict(self.winners, self.totals),
            "tags": dict(self.tags),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> DiceRecord:
        check_header(data, DICE_RECORD_FORMAT, DICE_RECORD_VERSION)
        try:
            common = read_record_common(data)
            return DiceRecord(
                players=common.players,
                seed=common.seed,
                actions=common.actions,
                setup=_setup_from_dict(data.get("setup")),
                date=common.date,
                winners=common.winners,
                totals=common.totals,
                tags=common.tags,
            )
        except KeyError as error:
            raise RecordError(f"the record has no {error.args[0]!r}") from None
        except RecordError:
            raise
        except (TypeError, ValueError) as error:
            raise RecordError(f"the record is malformed: {error}") from None


#: the fields of a record's ``setup`` (as :meth:`DiceRecord.to_dict` writes them)
_SETUP_KEYS = frozenset({"order", "phases", "totals", "rolls"})


def _setup_from_dict(data: Any) -> DiceSetup | None:
    if data is None:
        return None
    data = read_object(data, "setup")
    unknown = sorted(set(data) - _SETUP_KEYS)
    if unknown:  # (a misspelt key would otherwise be dropped without a word)
        raise RecordError(
            f"unknown set-up field {unknown[0]!r}; fields: {', '.join(sorted(_SETUP_KEYS))}"
        )

    def ints(name: str) -> tuple[int, ...] | None:
        value = data.get(name)
        return None if value is None else read_ints(value, f"the set-up's {name}")

    rolls = tuple(
        read_str(roll, "a set-up roll") for roll in read_list(data.get("rolls", []), "rolls")
    )
    return DiceSetup(order=ints("order"), phases=ints("phases"), totals=ints("totals"), rolls=rolls)


def dumps(game_or_record: DiceGame | DiceRecord, *, indent: int | None = 2) -> str:
    """A game's record as JSON text."""
    record = (
        game_or_record
        if isinstance(game_or_record, DiceRecord)
        else DiceRecord.from_game(game_or_record)
    )
    return json.dumps(record.to_dict(), indent=indent)


def loads(text: str) -> DiceRecord:
    """Read a record from JSON text (a :class:`RecordError` says what is wrong)."""
    return DiceRecord.from_dict(read_json(text))


def dump(game_or_record: DiceGame | DiceRecord, fp: IO[str]) -> None:
    fp.write(dumps(game_or_record))
    fp.write("\n")


def load(fp: IO[str]) -> DiceRecord:
    return loads(fp.read())

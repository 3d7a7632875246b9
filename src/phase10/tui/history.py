"""Finished games, kept for replay: the last :data:`KEPT` games finished in the terminal
game, in the data directory's ``finished/``.

The autosave is the next game's as soon as one starts, so a finished game is copied here
when it ends; F3 lists them (newest first) and ``phase10 replay`` with no file opens the
newest. A game is kept once, however often its end is shown, and the oldest beyond
:data:`KEPT` are removed with their reviews.

>>> import random, tempfile
>>> from phase10.bots import make_player
>>> from phase10.tui.session import Settings
>>> session = Session.new(Settings(opponents=1, difficulty="greedy", seed=5), autosave=None)
>>> me = make_player("greedy", random.Random(0))
>>> while not session.game.is_over:
...     _ = session.apply(me.choose(session.view)) if session.human_to_move else session.play_bot()
>>> folder = Path(tempfile.mkdtemp())
>>> path = keep_finished(session, folder)
>>> keep_finished(session, folder) == path, [game.path for game in finished_games(folder)] == [path]
(True, True)
>>> finished_games(folder)[0].label  # doctest: +ELLIPSIS
'... · official · Ann won · against Ann (greedy) · your total ...'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final

from phase10.bots.seats import HUMAN
from phase10.core.narration import and_list
from phase10.core.records import GameRecord, RecordError, loads
from phase10.core.rules import rules_name

from .session import Session, data_dir

__all__ = [
    "KEPT",
    "FinishedGame",
    "drop_oldest",
    "finished_dir",
    "finished_games",
    "game_digest",
    "keep_finished",
    "newest_first",
]

#: how many finished games are kept (the oldest beyond go, with their reviews)
KEPT: Final = 50


def finished_dir() -> Path:
    return data_dir() / "finished"


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game on disk, described for a menu."""

    path: Path
    record: GameRecord
    #: the person's seat (None: the record names no single person)
    seat: int | None
    label: str


def game_digest(seed: int, players: Sequence[str], actions: Sequence[str]) -> str:
    """What names a kept game's file: the same game (a card or a dice game) is kept once."""
    moves = "\n".join([str(seed), *players, *actions])
    return hashlib.sha256(moves.encode()).hexdigest()[:12]


def keep_finished(session: Session, folder: Path | None = None) -> Path:
    """Keep the finished game of ``session`` in ``folder`` (default :func:`finished_dir`;
    once: a game kept already is not written again) and drop the oldest beyond
    :data:`KEPT`. Returns where it is kept. Raises OSError if it cannot be written."""
    if not session.game.is_over:
        raise ValueError("the game is not over")
    record = session.record()
    folder = folder if folder is not None else finished_dir()
    digest = game_digest(record.seed, record.players, record.actions)
    kept = sorted(folder.glob(f"phase10-*-{digest}.json")) if folder.is_dir() else []
    if kept:
        return kept[0]
    stamp = (record.date or "game").replace(":", "").replace("-", "")
    path = session.save(folder / f"phase10-{stamp}-{digest}.json")
    assert path is not None
    drop_oldest(folder)
    return path


def newest_first(folder: Path, pattern: str = "phase10-*.json") -> list[Path]:
    """The records in ``folder`` named like ``pattern``, newest first (reviews left out)."""
    if not folder.is_dir():
        return []
    named = [p for p in folder.glob(pattern) if not p.name.endswith(".review.json")]
    return sorted(named, key=lambda p: (p.stat().st_mtime, p.name), reverse=True)


def drop_oldest(folder: Path, pattern: str = "phase10-*.json") -> None:
    """Remove the records beyond the newest :data:`KEPT` in ``folder``, with their reviews."""
    for old in newest_first(folder, pattern)[KEPT:]:
        old.unlink(missing_ok=True)
        old.with_name(f"{old.stem}.review.json").unlink(missing_ok=True)


def finished_games(folder: Path | None = None) -> list[FinishedGame]:
    """The finished games kept in ``folder`` (default :func:`finished_dir`), newest first
    (a file that cannot be read is left out)."""
    found = []
    for path in newest_first(folder if folder is not None else finished_dir()):
        try:
            record = loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, RecordError):
            continue
        if record.winners is None:
            continue
        seat = _person(record)
        found.append(FinishedGame(path, record, seat, _label(record, seat)))
    return found


def _person(record: GameRecord) -> int | None:
    tag = record.tag("controllers")
    kinds = [part.strip() for part in tag.split(",")] if tag else []
    return kinds.index(HUMAN) if kinds.count(HUMAN) == 1 else None


def _label(record: GameRecord, seat: int | None) -> str:
    """``27 Nov 14:05 · official · Ann won · against Ann and Bob (greedy) · your total 145``.

    >>> from phase10.core import Rules
    >>> record = GameRecord(("You", "Ann", "Bob"), Rules(), 1, 0, (), date="", winners=(0, 2),
    ...                     totals=(40, 95, 40), tags=(("controllers", "human,greedy,greedy"),))
    >>> _label(record, 0)
    'undated · official · you and Bob share the win · against Ann and Bob (greedy) · your total 40'
    """
    winners = [record.players[i] if i != seat else "you" for i in record.winners or ()]
    if winners == ["you"]:
        result = "you won"
    else:
        result = and_list(winners) + (" won" if len(winners) == 1 else " share the win")
    parts = [_when(record.date), rules_name(record.rules), result]
    if seat is not None:
        tag = record.tag("controllers") or ""
        bots = sorted({kind.strip() for kind in tag.split(",")} - {HUMAN, ""})
        others = and_list([name for i, name in enumerate(record.players) if i != seat])
        parts.append(f"against {others}" + (f" ({', '.join(bots)})" if bots else ""))
        if record.totals:
            parts.append(f"your total {record.totals[seat]}")
    return " · ".join(parts)


def _when(date: str | None) -> str:
    """A record's date in local time, ``27 Nov 14:05`` (the year when not this one)."""
    if not date:
        return "undated"
    try:
        moment = datetime.fromisoformat(date).astimezone()
    except ValueError:
        return date
    shown = "%d %b %H:%M" if moment.year == datetime.now().year else "%d %b %Y %H:%M"
    return moment.strftime(shown)

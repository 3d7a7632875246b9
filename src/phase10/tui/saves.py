"""Saved games: the autosave, and the unfinished games kept under ``games/``.

A game is never lost: before a new game takes the autosave's place, an unfinished game
there is copied to ``games/`` in the data directory, and the new-game screen offers
every unfinished game to go on with. A file there this version cannot read (a newer
release's save, a damaged one) is copied as it is, and the player is told where.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from phase10.core.records import GameRecord
from phase10.core.rules import rules_name

from .files import copy_aside
from .session import HUMAN, Session, SessionError, data_dir, save_copy

__all__ = [
    "Kept",
    "SavedGame",
    "games_dir",
    "keep_unfinished",
    "load_unfinished",
    "unfinished_games",
]

#: how many kept games the new-game screen reads (newest first)
MAX_LISTED = 30


def games_dir() -> Path:
    return data_dir() / "games"


@dataclass(frozen=True, slots=True)
class SavedGame:
    """An unfinished game on disk, described for a menu."""

    path: Path
    record: GameRecord
    label: str

    def same_game_before(self, other: SavedGame) -> bool:
        """Whether this is an earlier moment of ``other`` (a stale copy not worth listing)."""
        mine, theirs = self.record, other.record
        return (
            self.path != other.path
            and (mine.seed, mine.players, mine.rules) == (theirs.seed, theirs.players, theirs.rules)
            and theirs.actions[: len(mine.actions)] == mine.actions
        )


def describe(session: Session) -> str:
    """``hand 3 against 2 (greedy), your score 45 · official``."""
    view = session.view
    bots = ", ".join(sorted(set(session.controllers) - {HUMAN}))
    return (
        f"hand {view.hand_number} against {len(session.names) - 1} ({bots}), "
        f"your score {view.seats[session.human].score} · {rules_name(view.rules)}"
    )


def load_unfinished(path: Path) -> tuple[Session, str] | None:
    """The unfinished game saved at ``path`` and its description (None: finished or unreadable)."""
    try:
        session = Session.load(path)
    except SessionError:
        return None
    if session.game.is_over:
        return None
    return session, describe(session)


def unfinished_games(autosave: Path | None) -> list[SavedGame]:
    """The autosave (if unfinished) first, then the kept games, newest first."""
    found: list[SavedGame] = []
    paths = [autosave] if autosave is not None else []
    kept = games_dir()
    if kept.is_dir():
        named = [path for path in kept.glob("*.json") if not path.name.startswith(".")]
        copies = sorted(named, key=lambda p: p.stat().st_mtime, reverse=True)
        paths += copies[:MAX_LISTED]
    for path in paths:
        loaded = load_unfinished(path)
        if loaded is None:
            continue
        session, label = loaded
        found.append(SavedGame(path, session.record(), label))
    listed: list[SavedGame] = []
    for game in found:
        # an earlier moment of another game is left out; of copies at the same moment
        # (a Ctrl+S copy of the autosave, say) the first, the autosave or the newest, stays
        later = any(game.same_game_before(o) and not o.same_game_before(game) for o in found)
        if not later and not any(game.same_game_before(o) for o in listed):
            listed.append(game)
    return listed


@dataclass(frozen=True, slots=True)
class Kept:
    """Where a game about to be replaced was kept."""

    path: Path
    #: why it could not be read ("": it could, and is offered to go on with): a save of a
    #: newer release, or a damaged file, kept byte for byte all the same
    unreadable: str = ""


def keep_unfinished(autosave: Path | None) -> Kept | None:
    """Copy an unfinished game at ``autosave`` to ``games/`` before it is replaced; a file
    there this version cannot read is copied as it is (nothing is lost unseen).

    Returns where it was kept (None: nothing to keep). Raises OSError if it cannot be.
    """
    if autosave is None or not autosave.exists():
        return None
    try:
        session = Session.load(autosave)
    except SessionError as error:
        return Kept(copy_aside(autosave, games_dir()), str(error))
    if session.game.is_over:
        return None
    return Kept(save_copy(session))

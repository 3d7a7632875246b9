"""The person's win/loss record: each finished game appended as one line of ``results.jsonl``
in the data directory, and the statistics drawn from it (games, wins and win rate for each
difficulty, best and average score, phases completed).

>>> rows = [GameResult("g1", "greedy", 3, True, 120, 10, 10, 9),
...         GameResult("g2", "greedy", 3, False, 310, 7, 10, 9),
...         GameResult("g3", "strong", 1, False, 200, 9, 10, 12)]
>>> [(line.difficulty, line.games, line.wins, line.win_rate) for line in summarise(rows)]
[('all', 3, 1, '33%'), ('greedy', 2, 1, '50%'), ('strong', 1, 0, '0%')]
>>> summarise(rows)[1].best, summarise(rows)[1].average, summarise(rows)[0].phases
(120, 215, '26 of 30')
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import MISSING, asdict, dataclass, fields
from pathlib import Path

from rich.table import Table

from phase10.core import GameEnded
from phase10.core.labels import plural
from phase10.core.records import GameRecord
from phase10.core.rules import rules_name

from .session import HUMAN, Session, data_dir

__all__ = [
    "GameResult",
    "StatsLine",
    "read_results",
    "record_result",
    "results_path",
    "stats_table",
    "summarise",
]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game as the person played it."""

    #: the game's seed and a digest of its moves: a game is recorded once, however often
    #: its end is shown
    game: str
    difficulty: str
    opponents: int
    won: bool
    score: int
    #: phases the person completed, of ``phase_count``
    phases: int
    phase_count: int
    hands: int
    #: the rules in a few words (``phase10.core.rules_name``; "" in records made before
    #: they were kept)
    rules: str = ""

    @staticmethod
    def of(session: Session, event: GameEnded) -> GameResult:
        record = session.record()
        me = session.human
        bots = sorted({who for who in session.controllers if who != HUMAN})
        seat = session.game.view(me).seats[me]
        return GameResult(
            game=_game_key(record),
            difficulty=", ".join(bots),
            opponents=len(session.controllers) - 1,
            won=me in event.winners,
            score=event.totals[me],
            phases=len(seat.completed),
            phase_count=session.game.rules.phase_count,
            hands=len(session.game.view(me).hand_results),
            rules=rules_name(session.game.rules),
        )


def _game_key(record: GameRecord) -> str:
    moves = "\n".join([*record.players, *map(str, record.actions)])
    return f"{record.seed}:{hashlib.sha256(moves.encode()).hexdigest()[:16]}"


def results_path() -> Path:
    return data_dir() / "results.jsonl"


def read_results(path: Path | None = None) -> tuple[list[GameResult], int]:
    """Every recorded game, and how many lines could not be read (skipped, never fatal)."""
    path = path or results_path()
    try:
        # (a damaged byte spoils its own line only: the others are read)
        lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return [], 0
    except OSError:
        return [], 1
    found: list[GameResult] = []
    bad = 0
    needed = [item.name for item in fields(GameResult) if item.default is MISSING]
    optional = [item.name for item in fields(GameResult) if item.default is not MISSING]
    for line in filter(str.strip, lines):
        try:
            data = json.loads(line)
            given = {name: data[name] for name in needed}
            given |= {name: data[name] for name in optional if name in data}
            found.append(GameResult(**given))
        except (ValueError, KeyError, TypeError):
            bad += 1
    return found, bad


def record_result(result: GameResult, path: Path | None = None) -> str | None:
    """Append a finished game (once: a game already recorded is not added again).
    Returns why it could not be recorded (None: it was, or it already is)."""
    path = path or results_path()
    known, _ = read_results(path)
    if any(old.game == result.game for old in known):
        return None
    line = (json.dumps(asdict(result)) + "\n").encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # private, like the saved games and settings beside it
        handle = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError as error:
        return f"could not record the game in {path}: {error.strerror or error}"
    try:
        size = os.fstat(handle).st_size
        if size and os.pread(handle, 1, size - 1) != b"\n":  # a line left unended
            line = b"\n" + line
        try:
            _write_all(handle, line)
        except OSError:
            os.ftruncate(handle, size)  # (a full disk: no half line left behind)
            raise
    except OSError as error:
        return f"could not record the game in {path}: {error.strerror or error}"
    finally:
        os.close(handle)
    return None


def _write_all(handle: int, data: bytes) -> None:
    while data:
        data = data[os.write(handle, data) :]


@dataclass(frozen=True, slots=True)
class StatsLine:
    difficulty: str
    games: int
    wins: int
    best: int
    average: int
    phases: str

    @property
    def win_rate(self) -> str:
        return f"{self.wins / self.games:.0%}" if self.games else "-"


def _line(difficulty: str, rows: Sequence[GameResult]) -> StatsLine:
    scores = [row.score for row in rows]
    return StatsLine(
        difficulty=difficulty,
        games=len(rows),
        wins=sum(row.won for row in rows),
        best=min(scores),
        average=round(sum(scores) / len(scores)),
        phases=f"{sum(r.phases for r in rows)} of {sum(r.phase_count for r in rows)}",
    )


def summarise(rows: Sequence[GameResult]) -> list[StatsLine]:
    """All games, then each difficulty under each rules (scores under different rules do
    not compare; a low score is good: best is the lowest).

    >>> from dataclasses import replace
    >>> row = GameResult("1:a", "greedy", 1, True, 40, 10, 10, 9, "official")
    >>> [line.difficulty for line in summarise([row, replace(row, game="2:b", rules="short-5")])]
    ['all', 'greedy', 'greedy · short-5']
    """
    if not rows:
        return []
    kinds = sorted({(row.difficulty, row.rules) for row in rows})
    return [_line("all", rows)] + [
        _line(
            difficulty if rules in ("", "official") else f"{difficulty} · {rules}",
            [row for row in rows if (row.difficulty, row.rules) == (difficulty, rules)],
        )
        for difficulty, rules in kinds
    ]


def stats_table(rows: Sequence[GameResult], unreadable: int = 0) -> Table | str:
    """The statistics page's table (a sentence when no game has finished yet)."""
    note = f" ({plural(unreadable, 'unreadable line')} skipped)" if unreadable else ""
    if not rows:
        return "No finished game yet: each game you finish is recorded here." + note
    table = Table(
        box=None,
        header_style="bold",
        caption="score: your total at the end (lower is better)" + note,
    )
    for column in ("against", "games", "wins", "win rate", "best", "average", "phases"):
        table.add_column(column, justify="left" if column == "against" else "right")
    for line in summarise(rows):
        table.add_row(
            line.difficulty,
            str(line.games),
            str(line.wins),
            line.win_rate,
            str(line.best),
            str(line.average),
            line.phases,
        )
    return table

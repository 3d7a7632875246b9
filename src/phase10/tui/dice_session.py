"""A dice game in the terminal: the game, who plays each seat, and its autosave.

The person sits in seat 0; every other seat is a dice bot. The record (a
:class:`~phase10.dice.DiceRecord`, tagged with the bots) is written after every action,
atomically, so quitting never loses the game; ``load`` goes on with it.

>>> session = DiceSession.new("Ann", opponents=1, bot="greedy", seed=4)
>>> session.game.seats[1].name, session.bots
('Greedy 1', (None, 'greedy'))
>>> DiceSession.load_text(session.record_text()).bots
(None, 'greedy')
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from phase10.bots.dice import DICE_BOT_NAMES, DicePlayer, make_dice_player
from phase10.core.codec import RecordError
from phase10.dice import (
    MAX_PLAYERS,
    DiceAction,
    DiceActionError,
    DiceError,
    DiceEvent,
    DiceGame,
    DiceRecord,
    dumps,
    loads,
)

from .files import SAVE_PREFIX, write_atomically
from .history import drop_oldest, game_digest, newest_first
from .session import SessionError, data_dir

__all__ = [
    "DICE_AUTOSAVE",
    "DiceSession",
    "dice_autosave",
    "dice_games_dir",
    "finished_dice_dir",
    "finished_dice_games",
    "keep_copy",
    "keep_finished",
]

#: the autosave's file name in the data directory
DICE_AUTOSAVE = "dice-autosave.json"
#: the person's seat
YOU = 0


def dice_autosave() -> Path:
    return data_dir() / DICE_AUTOSAVE


@dataclass
class DiceSession:
    """A dice game being played: ``bots`` names each seat's bot (None: the person)."""

    game: DiceGame
    bots: tuple[str | None, ...]
    autosave: Path | None = None
    #: why the last save failed (None: it did not)
    save_error: str | None = None
    players: dict[int, DicePlayer] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for seat, spec in enumerate(self.bots):
            if spec is not None:
                self.players[seat] = make_dice_player(spec, random.Random(0))

    @staticmethod
    def new(
        name: str,
        *,
        opponents: int,
        bot: str,
        seed: int | None = None,
        autosave: Path | None = None,
    ) -> DiceSession:
        """A new game: the person against ``opponents`` (0: solitaire) bots named ``bot``."""
        if not isinstance(opponents, int) or not 0 <= opponents <= MAX_PLAYERS - 1:
            raise SessionError(
                f"a dice game has 0 (solitaire) to {MAX_PLAYERS - 1} computer opponents, "
                f"not {opponents}"
            )
        spec = bot.strip().lower()
        if spec not in DICE_BOT_NAMES:
            raise SessionError(f"unknown dice bot {bot!r}: choose from {', '.join(DICE_BOT_NAMES)}")
        if not name.strip():
            raise SessionError("your name cannot be empty")
        names = [name.strip()] + [f"{spec.capitalize()} {n}" for n in range(1, opponents + 1)]
        try:
            game = DiceGame(names, seed=seed)
            session = DiceSession(game, (None,) + (spec,) * opponents, autosave)
        except ValueError as error:
            raise SessionError(str(error)) from None
        session.save()
        return session

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.game.seats]

    @property
    def bot_to_move(self) -> bool:
        return not self.game.is_over and self.bots[self.game.current] is not None

    def bot_action(self) -> DiceAction:
        """The bot to move's choice (its generator seeded from the game, so a resumed game
        goes on as it would have)."""
        seat = self.game.current
        player = self.players[seat]
        rng = getattr(player, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(f"{self.game.seed}:{seat}:{len(self.game.actions)}")
        return player.choose(self.game.view(seat))

    def apply(self, action: DiceAction) -> list[DiceEvent]:
        """Apply an action (refusals raise :class:`DiceActionError`) and save; the action
        that ends the game also keeps it for replay (when there is an autosave)."""
        events = self.game.apply(action)
        self.save()
        if self.game.is_over and self.autosave is not None and self.save_error is None:
            try:
                keep_finished(self)
            except OSError as error:
                self.save_error = f"the game could not be kept for replay: {error.strerror}"
        return events

    def save_again(self) -> str | None:
        """On the way out, save once more if the last save failed (a full disk may have
        room now), and keep a finished game for replay with it; why the autosave still
        is not saved (None: it holds every move)."""
        if self.save_error is None or self.autosave is None:
            return None
        if self.save() is None:
            return self.save_error
        if self.game.is_over:
            try:
                keep_finished(self)
            except OSError as error:  # (the autosave holds it: said as the game ends)
                self.save_error = f"the game could not be kept for replay: {error.strerror}"
        return None

    def record(self) -> DiceRecord:
        bots = ",".join(spec or "" for spec in self.bots)
        return DiceRecord.from_game(self.game, {"bots": bots})

    def record_text(self) -> str:
        return dumps(self.record())

    def save(self, path: Path | None = None) -> Path | None:
        """Write the record atomically to ``path`` (default: the autosave); a failure is
        kept in :attr:`save_error` (the game goes on)."""
        target = path if path is not None else self.autosave
        if target is None:
            return None
        try:
            write_atomically(target, self.record_text() + "\n", prefix=SAVE_PREFIX)
        except OSError as error:
            self.save_error = f"the game could not be saved to {target}: {error.strerror}"
            return None
        self.save_error = None
        return target

    @staticmethod
    def load_text(text: str, autosave: Path | None = None) -> DiceSession:
        """The game a record's text holds (a :class:`SessionError` says what is wrong)."""
        try:
            record = loads(text)
            game = record.replay()
        except (RecordError, DiceActionError, DiceError) as error:
            raise SessionError(f"not a dice game: {error}") from None
        tags = dict(record.tags)
        bots = tuple(spec or None for spec in tags.get("bots", "").split(","))
        if len(bots) != game.num_players or bots[YOU] is not None:
            raise SessionError("not a dice game of the terminal: its seats are not tagged")
        try:
            return DiceSession(game, bots, autosave)
        except ValueError as error:
            raise SessionError(f"not a dice game of the terminal: {error}") from None

    @staticmethod
    def load(path: Path, autosave: Path | None = None) -> DiceSession:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SessionError(f"there is no saved dice game at {path}") from None
        except (OSError, UnicodeDecodeError) as error:
            raise SessionError(f"cannot read {path}: {error}") from None
        return DiceSession.load_text(text, autosave)


def keep_copy(session: DiceSession) -> Path | None:
    """Keep an unfinished game under ``dice-games/`` before a new one takes its place."""
    if session.game.is_over:
        return None
    path = dice_games_dir() / f"dice-{session.game.seed}-{len(session.game.actions)}.json"
    return session.save(path)


def dice_games_dir() -> Path:
    """Where unfinished dice games are kept when a new game takes the autosave's place."""
    return data_dir() / "dice-games"


def finished_dice_dir() -> Path:
    return data_dir() / "dice-finished"


def keep_finished(session: DiceSession, folder: Path | None = None) -> Path:
    """Keep a finished game in ``folder`` (default :func:`finished_dice_dir`) for replay,
    once, and drop the oldest beyond :data:`~phase10.tui.history.KEPT`. Raises OSError if
    it cannot be written.

    >>> import tempfile
    >>> session = DiceSession.new("Ann", opponents=1, bot="greedy", seed=4)
    >>> from phase10.bots.dice import make_dice_player
    >>> me = make_dice_player("greedy", random.Random(0))
    >>> while not session.game.is_over:
    ...     _ = session.apply(session.bot_action() if session.bot_to_move
    ...                       else me.choose(session.game.view(0)))
    >>> folder = Path(tempfile.mkdtemp())
    >>> keep_finished(session, folder) == keep_finished(session, folder)
    True
    >>> len(finished_dice_games(folder))
    1
    """
    if not session.game.is_over:
        raise ValueError("the game is not over")
    folder = folder if folder is not None else finished_dice_dir()
    record = session.record()
    digest = game_digest(record.seed, record.players, record.actions)
    kept = sorted(folder.glob(f"dice-*-{digest}.json")) if folder.is_dir() else []
    if kept:
        return kept[0]
    path = folder / f"dice-{session.game.seed}-{digest}.json"
    write_atomically(path, dumps(record) + "\n", prefix=SAVE_PREFIX)
    drop_oldest(folder, "dice-*.json")
    return path


def finished_dice_games(folder: Path | None = None) -> list[Path]:
    """The finished dice games kept, newest first."""
    return newest_first(folder if folder is not None else finished_dice_dir(), "dice-*.json")

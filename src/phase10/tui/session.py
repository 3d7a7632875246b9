"""A game against the computer, without any screen: who plays each seat, undo, saving.

The terminal game drives a :class:`Session`; so can a test or a script. The engine
alone decides what is legal: a session only asks it, and keeps the record.

>>> session = Session.new(Settings(opponents=1, difficulty="random", seed=4), autosave=None)
>>> session.names
('You', 'Ann')
>>> while not session.human_to_move:
...     _ = session.play_bot()
>>> _ = session.apply("draw")
>>> session.can_undo, session.undo(), session.game.view(0).stage.value
(True, 1, 'draw')
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from phase10.bots.registry import BOT_HELP, DEFAULT_BOT, builtin_bot
from phase10.bots.seats import (
    HUMAN,
    SEAT_NAMES,
    BotTurn,
    bot_turn,
    controllers_tag,
    read_controllers,
    seat_bots,
)
from phase10.bots.simple import Player
from phase10.core import Action, Event, Game, HandEnded, PlayerView, Rules
from phase10.core.choices import ChoiceError, hit_choices, lay_down_choices
from phase10.core.names import NameTakenError, PlayerNameError, check_name
from phase10.core.records import (
    RESHUFFLES_TAG,
    GameRecord,
    RecordError,
    dumps,
    loads,
    reshuffle_unseen,
)

from .files import SAVE_PREFIX, write_atomically

__all__ = [
    "HUMAN",
    "OPPONENT_NAMES",
    "ChoiceError",
    "Session",
    "SessionError",
    "Settings",
    "data_dir",
    "hit_choices",
    "lay_down_choices",
    "replay_record",
    "reshuffle_unseen",
]

#: the computer players' names, in seat order after yours
OPPONENT_NAMES = SEAT_NAMES[:5]


class SessionError(ValueError):
    """A request the session cannot carry out (nothing was changed)."""


def read_reshuffles(record: GameRecord) -> list[tuple[int, int]]:
    """The reshuffles a record's undos made: (actions played before it, salt)."""
    try:
        return list(record.reshuffles())
    except RecordError as error:
        raise SessionError(str(error)) from None


def replay_record(
    record: GameRecord,
    upto: int | None = None,
    reshuffles: Sequence[tuple[int, int]] | None = None,
    on_action: Callable[[int, Game], None] | None = None,
) -> Game:
    """Replay a session's record (its first ``upto`` actions), redoing each undo's reshuffle
    where it was made. ``on_action(number, game)`` is called before each action.
    Raises :class:`SessionError` naming an action that does not apply.
    """
    if reshuffles is None:
        reshuffles = read_reshuffles(record)
    try:
        game = record.new_game()
    except RecordError as error:
        raise SessionError(str(error)) from None
    actions = record.actions[:upto]
    for number, text in enumerate(actions):
        for point, salt in reshuffles:
            if point == number:
                reshuffle_unseen(game, salt)
        if on_action is not None:
            on_action(number, game)
        try:
            game.apply(text)
        except ValueError as error:
            raise SessionError(f"action {number + 1} ({text!r}) does not apply: {error}") from None
    for point, salt in reshuffles:
        if point == len(actions):
            reshuffle_unseen(game, salt)
    return game


def data_dir() -> Path:
    """Where games are saved: ``$PHASE10_HOME`` or the user's data directory."""
    home = os.environ.get("PHASE10_HOME")
    if home:
        return Path(home)
    import platformdirs

    return Path(platformdirs.user_data_dir("phase10", appauthor=False))


@dataclass(frozen=True, slots=True)
class Settings:
    """A new game's choices (the new-game screen fills these in)."""

    name: str = "You"
    opponents: int = 3
    #: the opponents' bot (phase10.bots.registry.BOT_KINDS: ``random``, ``greedy``,
    #: ``strong``, ``strong:1``-``4``)
    difficulty: str = DEFAULT_BOT
    rules: Rules = field(default_factory=Rules)
    seed: int | None = None
    undo: bool = True

    def validate(self) -> None:
        self.player_name()
        if not isinstance(self.opponents, int) or not 1 <= self.opponents <= 5:
            raise SessionError(f"play against 1 to 5 opponents, not {self.opponents!r}")
        self.opponent_bot()

    def opponent_bot(self) -> str:
        """The opponents' bot spec, written the one way."""
        try:
            return builtin_bot(self.difficulty)
        except ValueError:
            raise SessionError(
                f"unknown difficulty {self.difficulty!r}: choose {BOT_HELP}"
            ) from None

    def player_name(self) -> str:
        """The name as the game keeps it (read as every interface reads names)."""
        if not isinstance(self.name, str) or not self.name.strip():
            raise SessionError("your name must not be empty")
        try:
            return check_name(self.name, OPPONENT_NAMES[: self.opponents])
        except NameTakenError:
            name = " ".join(self.name.split())
            raise SessionError(f"{name!r} is an opponent's name: choose another") from None
        except PlayerNameError as error:
            raise SessionError(str(error)) from None


class Session:
    """One person (seat ``human``) against bots, with undo and an autosaved record.

    ``controllers`` names who plays each seat: :data:`HUMAN` or a bot spec.
    """

    def __init__(
        self,
        game: Game,
        controllers: Sequence[str],
        *,
        undo: bool = True,
        autosave: Path | None = None,
        undo_points: Sequence[int] = (),
        reshuffles: Sequence[tuple[int, int]] = (),
        rng: random.Random | None = None,
    ) -> None:
        if len(controllers) != game.num_players:
            raise SessionError(f"name a controller for each of the {game.num_players} seats")
        humans = [seat for seat, who in enumerate(controllers) if who == HUMAN]
        if len(humans) != 1:
            raise SessionError("exactly one seat is played by a person")
        self.game = game
        self.controllers = tuple(controllers)
        self.human = humans[0]
        self.undo_allowed = undo
        self.autosave = autosave
        #: the number of actions played before each of the person's actions
        self.undo_points = list(undo_points)
        #: each undo's reshuffle of the unseen cards: (actions before it, salt)
        self.reshuffles = list(reshuffles)
        #: where an undo's fresh salt comes from (injected for tests; secrets otherwise)
        self.rng = rng if rng is not None else random.Random(secrets.randbits(64))
        #: why the last autosave failed (None: it did not)
        self.save_error: str | None = None
        self.bots: dict[int, Player] = {}
        self._make_bots()

    # -- making one -------------------------------------------------------------------

    @staticmethod
    def new(
        settings: Settings, *, autosave: Path | None, rng: random.Random | None = None
    ) -> Session:
        """A new game from the settings (raises :class:`SessionError` for bad ones);
        ``rng`` salts each undo's reshuffle (default: seeded from :mod:`secrets`)."""
        settings.validate()
        names = (settings.player_name(), *OPPONENT_NAMES[: settings.opponents])
        try:
            game = Game(list(names), rules=settings.rules, seed=settings.seed)
        except ValueError as error:
            raise SessionError(str(error)) from None
        controllers = (HUMAN, *[settings.opponent_bot()] * settings.opponents)
        session = Session(game, controllers, undo=settings.undo, autosave=autosave, rng=rng)
        try:
            session.save()
        except OSError as error:
            raise SessionError(f"cannot save to {autosave}: {error.strerror or error}") from None
        return session

    @staticmethod
    def load(path: Path, *, autosave: Path | None = None) -> Session:
        """Resume the game saved at ``path`` (a game record with the session's tags).

        Raises :class:`SessionError` if there is none or it cannot be read.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SessionError(f"there is no saved game at {path}") from None
        except OSError as error:
            raise SessionError(f"cannot read {path}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise SessionError(f"{path} is not a saved game: it is not UTF-8 text") from None
        try:
            record = loads(text)
        except RecordError as error:
            raise SessionError(f"{path} is not a saved game: {error}") from None
        return Session.from_record(record, autosave=autosave)

    @staticmethod
    def from_record(record: GameRecord, *, autosave: Path | None = None) -> Session:
        tag = record.tag("controllers")
        if tag is None:
            # a record from elsewhere: you take the first seat, greedy bots the others
            controllers = [HUMAN] + ["greedy"] * (len(record.players) - 1)
        else:
            try:
                controllers = list(read_controllers(tag, len(record.players), humans=1))
            except ValueError as error:
                raise SessionError(str(error)) from None
        human = controllers.index(HUMAN)
        points: list[int] = []
        hands_ended = [0]

        def note_turn(number: int, game: Game) -> None:
            if len(game.hand_results) != hands_ended[0]:  # (undo stops at a hand's end)
                points.clear()
                hands_ended[0] = len(game.hand_results)
            if game.current == human:
                points.append(number)

        reshuffles = read_reshuffles(record)
        game = replay_record(record, reshuffles=reshuffles, on_action=note_turn)
        if len(game.hand_results) != hands_ended[0]:  # (the last action ended a hand)
            points.clear()
        try:
            return Session(
                game,
                controllers,
                undo=record.tag("undo", "on") == "on",
                autosave=autosave,
                undo_points=points,
                reshuffles=reshuffles,
            )
        except ValueError as error:
            raise SessionError(f"cannot play the record's bots: {error}") from None

    def _make_bots(self) -> None:
        self.bots = seat_bots(self.controllers, self.game.seed)

    # -- questions --------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.game.seats)

    @property
    def view(self) -> PlayerView:
        """What the person may know."""
        return self.game.view(self.human)

    @property
    def human_to_move(self) -> bool:
        return not self.game.is_over and self.game.current == self.human

    @property
    def bot_to_move(self) -> bool:
        return not self.game.is_over and self.game.current != self.human

    @property
    def can_undo(self) -> bool:
        return self.undo_allowed and bool(self.undo_points)

    # -- moves ------------------------------------------------------------------------

    def apply(self, action: Action | str) -> list[Event]:
        """The person's action, checked by the engine (raises and changes nothing if illegal)."""
        if not self.human_to_move:
            raise SessionError(
                "it is not your turn" if not self.game.is_over else "the game is over"
            )
        before = len(self.game.actions)
        events = self.game.apply(action)
        self.undo_points.append(before)
        self._after(events)
        return events

    def _after(self, events: Sequence[Event]) -> None:
        """Autosave; and at a hand's end, forget the undo points before it: the end
        showed every hand, and undo must not replay a hand knowing them."""
        if any(isinstance(event, HandEnded) for event in events):
            self.undo_points.clear()
        self._autosave()

    def table_at_hand_end(self) -> PlayerView:
        """The person's view of the table as the last action ended its hand: the engine
        deals the next hand in the same step, so the game is played again up to that
        action, which stops before the deal (:meth:`Game.table_as_hand_ends`)."""
        if not self.game.actions:
            raise SessionError("no action has been played")
        count = len(self.game.actions)
        before = replay_record(self.record(), upto=count - 1)
        return before.table_as_hand_ends(self.game.actions[-1]).view(self.human)

    def bot_turn(self) -> BotTurn:
        """The bot to move, seeded for this decision (phase10.bots.seats): ``choose()`` may
        run in another thread, and its answer belongs to this game at this point only."""
        if not self.bot_to_move:
            raise SessionError("no computer player is to move")
        # after an undo the bots are reseeded too: the same moves need not come again
        salt = f":undo{self.reshuffles[-1][1]}" if self.reshuffles else ""
        return bot_turn(self.game, self.bots, salt=salt)

    def bot_action(self) -> Action:
        """The action the bot to move chooses (from its own view only); applies nothing."""
        return self.bot_turn().choose()

    def apply_bot(self, action: Action) -> list[Event]:
        """Apply a bot's chosen action (checked like any other)."""
        if not self.bot_to_move:
            raise SessionError("no computer player is to move")
        events = self.game.apply(action)
        self._after(events)
        return events

    def play_bot(self) -> list[Event]:
        """Let the bot to move choose and play one action."""
        return self.apply_bot(self.bot_action())

    def undo(self) -> int:
        """Take back your last action (and the computer's moves since). Returns the number
        of actions taken back; raises :class:`SessionError` when there is none to undo.
        """
        if not self.undo_allowed:
            raise SessionError("undo is off for this game")
        if not self.undo_points:
            if self.game.hand_results:
                raise SessionError(
                    "undo goes back to the start of a hand at most: the last hand's end "
                    "showed every hand"
                    if not self.game.is_over
                    else "the game is over: its last hand's end showed every hand"
                )
            raise SessionError("there is no action of yours to undo")
        point = self.undo_points.pop()
        taken = len(self.game.actions) - point
        # the cards nobody has seen are reshuffled, so an undo never previews the future
        self.reshuffles = [made for made in self.reshuffles if made[0] < point]
        self.reshuffles.append((point, self.rng.getrandbits(64)))
        self.game = replay_record(self.record(), upto=point)
        self._make_bots()
        self._autosave()
        return taken

    # -- saving -----------------------------------------------------------------------

    def _autosave(self) -> None:
        """Save after a move; a failure is kept in :attr:`save_error` (the game goes on)."""
        try:
            self.save()
        except OSError as error:
            self.save_error = f"could not save to {self.autosave}: {error.strerror or error}"
        else:
            self.save_error = None

    def save_again(self) -> str | None:
        """Save once more if the last save failed (a full disk may have room now); why it
        still cannot be (None: the autosave holds every move)."""
        if self.save_error is not None:
            self._autosave()
        return self.save_error

    def record(self) -> GameRecord:
        """The game as a standard record, tagged with who plays each seat."""
        tags = {
            "controllers": controllers_tag(self.controllers),
            "undo": "on" if self.undo_allowed else "off",
        }
        if self.reshuffles:
            tags[RESHUFFLES_TAG] = ",".join(f"{point}:{salt}" for point, salt in self.reshuffles)
        return GameRecord.from_game(self.game, tags)

    def save(self, path: Path | None = None) -> Path | None:
        """Write the record to ``path`` (default: the autosave file), atomically.

        Returns the path written, or None when there is nowhere to save.
        """
        target = path if path is not None else self.autosave
        if target is None:
            return None
        target = Path(target)
        write_atomically(target, dumps(self.record()) + "\n", prefix=SAVE_PREFIX)
        return target


def save_copy(session: Session) -> Path:
    """Save the game under the data directory's ``games/`` with a name of its own."""
    record = session.record()
    stamp = (record.date or "game").replace(":", "").replace("-", "")
    path = data_dir() / "games" / f"phase10-{stamp}-{session.game.seed}.json"
    number = 1
    while path.exists():  # never over another copy: each may be a game of its own
        number += 1
        path = path.with_name(f"phase10-{stamp}-{session.game.seed}-{number}.json")
    saved = session.save(path)
    assert saved is not None
    return saved

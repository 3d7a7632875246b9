"""Who plays each seat of a game, and how a bot's turn is run: one rule for every interface.

The terminal game and the server both seat bots beside people. They must agree, so a
record played in one replays in the other and a resumed game goes on as it would have:

* a seat is played by a person (:data:`HUMAN`) or by a bot spec (``greedy``, ``strong:2``),
  written in a record's ``controllers`` tag (:func:`controllers_tag`, :func:`read_controllers`);
* each bot is made from the game's seed and its seat (:func:`seat_bots`), and reseeded
  before every decision from the seed, the seat and the number of actions so far
  (:func:`bot_turn`), so its choices never depend on when or where it runs;
* a bot's answer is applied only if the game has not moved on meanwhile
  (:meth:`BotTurn.is_current`): an undo, a new game or another player's action drops it;
* a bot may decide the rest of its turn at once, on a copy of the game (:func:`plan_turn`):
  reseeded as above, it makes the very choices it would have made one at a time;
* bots take the names in :data:`SEAT_NAMES` that nobody at the table has.

>>> from phase10.core import Game
>>> game = Game(["You", "Ann"], seed=5)
>>> bots = seat_bots(["human", "greedy"], game.seed)
>>> controllers_tag(["human", "greedy"]), read_controllers("human,greedy", players=2)
('human,greedy', ('human', 'greedy'))
>>> _ = game.apply("draw"); _ = game.apply(f"discard {game.hand(0)[0]}")
>>> turn = bot_turn(game, bots)
>>> turn.seat, turn.is_current(game), str(turn.choose())
(1, True, 'draw')
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from phase10.core import Action, Game, IllegalActionError, InvalidActionError, PlayerView
from phase10.core.names import name_key

from .registry import builtin_bot, make_player, reseed
from .simple import Player

__all__ = [
    "HUMAN",
    "SEAT_NAMES",
    "BotTurn",
    "answers_at_once",
    "bot_names",
    "bot_turn",
    "controllers_tag",
    "plan_turn",
    "read_controllers",
    "seat_bots",
]

#: the controller of a seat a person plays
HUMAN = "human"
#: the names bots take at a table, in seat order, skipping those the people chose
SEAT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def seat_bots(controllers: Sequence[str], seed: int) -> dict[int, Player]:
    """A bot for every seat not played by a person, each seeded from the game and its seat."""
    return {
        seat: make_player(spec, random.Random(f"{seed}:{seat}"))
        for seat, spec in enumerate(controllers)
        if spec != HUMAN
    }


def answers_at_once(player: Player) -> bool:
    """Whether the bot decides within a millisecond or so (it may run on an event loop);
    a searching bot, or a program, runs in a thread. Bots say so with ``instant``."""
    return bool(getattr(player, "instant", False))


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot asked to act: its choice belongs to this game at this version only."""

    game: Game
    seat: int
    version: int
    player: Player
    view: PlayerView

    def choose(self) -> Action:
        """The bot's action (from its own view only); may run in another thread."""
        return self.player.choose(self.view)

    def is_current(self, game: Game) -> bool:
        """Whether an answer may still be applied to ``game`` (the same game, with no
        action played since: a late answer after an undo or a new game is dropped)."""
        return (
            game is self.game
            and len(game.actions) == self.version
            and game.current == self.seat
            and not game.is_over
        )


def bot_turn(
    game: Game, bots: Mapping[int, Player], player: Player | None = None, *, salt: str = ""
) -> BotTurn:
    """The turn of the bot to move (``player`` instead of the seat's own bot: a stand-in),
    reseeded for this decision (``salt`` is added to the seed: a game after an undo)."""
    seat = game.current
    chosen = bots[seat] if player is None else player
    reseed(chosen, f"{game.seed}:{seat}:{len(game.actions)}{salt}")
    return BotTurn(game, seat, len(game.actions), chosen, game.view(seat))


def plan_turn(turn: BotTurn, twin: Game, seconds: float, *, salt: str = "") -> list[Action]:
    """``turn``'s action, then the bot's next ones while its turn goes on, played on
    ``twin`` (a copy of ``turn.game`` made for this, which it changes), for as long as its
    thinking has taken under ``seconds``: one hand-off to a thread for a whole turn rather
    than one per decision. Reseeded as :func:`bot_turn` does (with ``salt``), the bot makes
    the choices it would have made one at a time; each still has to pass the engine when
    it is played.

    >>> from phase10.core import Game
    >>> game = Game(["You", "Ann"], seed=5)
    >>> bots = seat_bots(["greedy", "greedy"], game.seed)
    >>> planned = plan_turn(bot_turn(game, bots), game.copy(), 1.0)
    >>> one_at_a_time = []
    >>> while game.current == 0:
    ...     one_at_a_time.append(bot_turn(game, bots).choose())
    ...     _ = game.apply(one_at_a_time[-1])
    >>> planned == one_at_a_time, str(planned[0]), str(planned[-1]).split()[0]
    (True, 'draw', 'discard')
    """
    started = time.perf_counter()
    actions = [turn.choose()]
    while time.perf_counter() - started < seconds:
        try:
            twin.apply(actions[-1])
        except (IllegalActionError, InvalidActionError):
            break  # (the real game refuses it too, and says so)
        if twin.is_over or twin.current != turn.seat:
            break
        actions.append(bot_turn(twin, {turn.seat: turn.player}, salt=salt).choose())
    return actions


def controllers_tag(controllers: Sequence[str]) -> str:
    """The ``controllers`` tag of a record: who played each seat, comma-separated."""
    return ",".join(controllers)


def read_controllers(
    tag: str, players: int, *, humans: int | None = None, programs: bool = False
) -> tuple[str, ...]:
    """The seats' controllers from a record's tag, checked: one per player, ``humans``
    people if given, and bots that are built in (a record may come from anywhere: it
    must not name a program to run, unless ``programs``). ValueError says what is wrong.

    >>> read_controllers("human,Strong:04", players=2)
    ('human', 'strong')
    >>> read_controllers("human,cmd:rm -rf /", players=2)
    Traceback (most recent call last):
    ...
    ValueError: the record's controllers name a program: only built-in bots are played
    """
    found = [part.strip() for part in tag.split(",")]
    if len(found) != players:
        raise ValueError(f"the record's controllers name {len(found)} seats, not {players}")
    if humans is not None and found.count(HUMAN) != humans:
        raise ValueError(f"the record's controllers name {found.count(HUMAN)} people, not {humans}")
    controllers: list[str] = []
    for spec in found:
        if spec == HUMAN:
            controllers.append(spec)
        elif spec.lower().startswith("cmd:"):
            if not programs:
                raise ValueError(
                    "the record's controllers name a program: only built-in bots are played"
                )
            controllers.append(spec)
        else:
            try:
                controllers.append(builtin_bot(spec))
            except ValueError as error:
                raise ValueError(f"the record's controllers cannot be played: {error}") from None
    return tuple(controllers)


def bot_names(taken: Iterable[str], count: int) -> list[str]:
    """``count`` names from :data:`SEAT_NAMES` that none of ``taken`` has (in any case)."""
    used = {name_key(name) for name in taken}
    free = [name for name in SEAT_NAMES if name_key(name) not in used]
    if len(free) < count:  # six people named like the bots: number the rest
        free += [f"Bot {n}" for n in range(1, count + 1) if name_key(f"Bot {n}") not in used]
    return free[:count]

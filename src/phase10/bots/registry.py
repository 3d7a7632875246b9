"""Bots by name, so commands and tournaments can say ``strong:3`` or ``greedy``.

>>> import random
>>> player = make_player("random", random.Random(1))
>>> type(player).__name__
'RandomPlayer'
>>> make_player("clever", random.Random(1))
Traceback (most recent call last):
...
ValueError: unknown bot 'clever': choose from random, greedy, strong, strong:1 to strong:4, or cmd:PROGRAM
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable

from .greedy import GreedyPlayer
from .simple import Player, RandomPlayer

__all__ = ["BOT_NAMES", "make_player", "parse_bot_list", "reseed"]

#: the built-in bots
BOT_NAMES = ("random", "greedy", "strong")
STRONG_LEVELS = range(1, 5)
_HELP = "choose from random, greedy, strong, strong:1 to strong:4, or cmd:PROGRAM"

Factory = Callable[[random.Random], Player]


def _factories() -> dict[str, Factory]:
    return {
        "random": RandomPlayer,
        "greedy": GreedyPlayer,
    }


def make_player(spec: str, rng: random.Random) -> Player:
    """A new player for ``spec``: a built-in name (``random``, ``greedy``, ``strong``,
    ``strong:LEVEL``) or ``cmd:PROGRAM ARGS`` for an out-of-process bot speaking the
    JSON-lines protocol. Raises :class:`ValueError` naming the choices.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a bot is named by text, not {spec!r}")
    name, colon, argument = spec.strip().partition(":")
    name = name.lower()
    if name == "cmd":
        from .protocol import SubprocessPlayer

        try:
            command = shlex.split(argument)
        except ValueError as error:  # an unclosed quote
            raise ValueError(f"cannot read the command in {spec!r}: {error}") from None
        if not command:
            raise ValueError("cmd: needs a program to run, e.g. 'cmd:python my_bot.py'")
        return SubprocessPlayer(command)
    if name == "strong":
        from .strong import DEFAULT_LEVEL, StrongPlayer

        level = DEFAULT_LEVEL
        if colon:
            read = _strong_level(argument)
            if read is None:
                raise ValueError(f"strong's level is 1 to 4, not {argument.strip()!r}")
            level = read
        return StrongPlayer(rng, level=level)
    factory = _factories().get(name)
    if factory is None or colon:
        raise ValueError(f"unknown bot {spec!r}: {_HELP}")
    return factory(rng)


def parse_bot_list(text: str) -> list[str]:
    """Split ``"strong,greedy,greedy"`` into bot specs, checking each name and writing it
    one way (a built-in bot in lower case, a level without leading zeros, the default
    level as plain ``strong``), so that one bot is never counted as two. A command
    (``cmd:PROGRAM ARGS``) is kept as written; commas separate bots, so it has none.

    >>> parse_bot_list("strong:2, GREEDY,greedy, strong:04")
    ['strong:2', 'greedy', 'greedy', 'strong']
    """
    specs = [part.strip() for part in text.split(",")]
    if not any(specs):
        raise ValueError("name at least one bot, e.g. 'greedy,random'")
    if not all(specs):
        raise ValueError(
            f"a bot's name is missing in {text.strip()!r}: name one between every comma"
        )
    return [_canonical_spec(spec) for spec in specs]


def _canonical_spec(spec: str) -> str:
    """``spec`` written the one way :func:`parse_bot_list` writes it; unknown names refused."""
    from .strong import DEFAULT_LEVEL

    name, colon, argument = spec.partition(":")
    name = name.strip().lower()
    if name == "cmd" and argument.strip():
        return f"cmd:{argument.strip()}"
    if name == "strong":
        if not colon:
            return "strong"
        level = _strong_level(argument)
        if level is not None:
            return "strong" if level == DEFAULT_LEVEL else f"strong:{level}"
        raise ValueError(f"strong's level is 1 to 4, not {argument.strip()!r} (in {spec!r})")
    if name in BOT_NAMES and not colon:
        return name
    raise ValueError(f"unknown bot {spec!r}: {_HELP}")


def reseed(player: Player, key: str) -> None:
    """Seed a built-in player's generator from ``key`` before one decision.

    Seeding each decision from the game's seed, the seat and the number of actions
    so far makes a resumed, replayed or undone game go on exactly as it would have.
    """
    rng = getattr(player, "rng", None)
    if isinstance(rng, random.Random):
        rng.seed(key)


def _strong_level(text: str) -> int | None:
    """The level in ``strong:LEVEL`` (spaces and leading zeros allowed), or None."""
    text = text.strip()
    if text.isascii() and text.isdecimal() and int(text) in STRONG_LEVELS:
        return int(text)
    return None

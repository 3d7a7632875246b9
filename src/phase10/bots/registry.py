"""Bots by name, so commands and tournaments can say ``strong:3`` or ``greedy``.

>>> import random
>>> player = make_player("random", random.Random(1))
>>> type(player).__name__
'RandomPlayer'
>>> make_player("strong:3+nosave", random.Random(1)).saves
False
>>> make_player("greedy+noanti", random.Random(1)).anti
False
>>> make_player("clever", random.Random(1))
Traceback (most recent call last):
...
ValueError: unknown bot 'clever': choose from random, greedy, strong (level 4), strong:1 to strong:4 or expert, or cmd:PROGRAM
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points

from .greedy import GreedyPlayer
from .program import SubprocessPlayer
from .simple import Player, RandomPlayer

__all__ = [
    "BOT_HELP",
    "BOT_KINDS",
    "BOT_NAMES",
    "DEFAULT_BOT",
    "BotKind",
    "bot_choices",
    "builtin_bot",
    "make_player",
    "parse_bot_list",
    "reseed",
]

#: the built-in bots
BOT_NAMES = ("random", "greedy", "strong", "expert")
STRONG_LEVELS = range(1, 5)


@dataclass(frozen=True, slots=True)
class BotKind:
    """A built-in opponent, as every interface offers it: its spec (how records, the
    server and tournaments write it) and its label (how menus show it)."""

    spec: str
    label: str


#: every built-in opponent a person can choose, weakest first (``strong`` is level 4)
BOT_KINDS = (
    BotKind("random", "Random (plays any legal move)"),
    BotKind("greedy", "Easy: greedy"),
    BotKind("strong:1", "Strong, level 1"),
    BotKind("strong:2", "Strong, level 2"),
    BotKind("strong:3", "Strong, level 3"),
    BotKind("strong", "Strong, level 4"),
    BotKind("expert", "Expert: strong, checked by search"),
)
#: the opponent a new game gets unless asked otherwise
DEFAULT_BOT = "strong"


def bot_choices(default: str) -> list[tuple[str, str]]:
    """Every built-in opponent as a menu offers it, ``(label, spec)``, weakest first, the
    menu's own default marked (the terminal game's is :data:`DEFAULT_BOT`; a browser
    table's is the server's own).

    >>> bot_choices("greedy")[1]
    ('Easy: greedy (default)', 'greedy')
    """
    return [
        (kind.label + (" (default)" if kind.spec == default else ""), kind.spec)
        for kind in BOT_KINDS
    ]


#: the built-in bots, for help texts
BOT_HELP = "random, greedy, strong (level 4), strong:1 to strong:4 or expert"
_HELP = f"choose from {BOT_HELP}, or cmd:PROGRAM"
#: the options a built-in bot's spec may end in, after a ``+``: ``nosave`` never uses
#: the save pile (to measure what it is worth: ``strong+nosave``, ``greedy+nosave``);
#: ``noanti`` plays the Anti-phase card like any other card (``strong+noanti``; the
#: random bot plays every card alike anyway)
BOT_OPTIONS = ("nosave", "noanti")

Factory = Callable[..., Player]
#: the entry-point group of bots that live above this layer: the expert searches with the
#: compiled kernel (phase10.kernel), which itself stands on these bots, so it is found by
#: name (pyproject.toml, ``[project.entry-points."phase10.bots"]``), not imported here
ENTRY_POINTS = "phase10.bots"


def _factories() -> dict[str, Factory]:
    return {
        "random": RandomPlayer,
        "greedy": GreedyPlayer,
        "expert": _entry_point_factory("expert"),
    }


def _entry_point_factory(name: str) -> Factory:
    def make(rng: random.Random, **options: bool) -> Player:
        found = entry_points(group=ENTRY_POINTS, name=name)
        if not found:
            raise ValueError(
                f"the {name} bot is not installed: reinstall phase10 (make install) so that "
                f"its entry point {ENTRY_POINTS}:{name} is registered"
            )
        factory: Factory = next(iter(found)).load()
        return factory(rng, **options)

    return make


def make_player(spec: str, rng: random.Random, *, bot_timeout: float | None = None) -> Player:
    """A new player for ``spec``: a built-in name (``random``, ``greedy``, ``strong``,
    ``strong:LEVEL``, ``expert``) or ``cmd:PROGRAM ARGS`` for an out-of-process bot
    speaking the JSON-lines protocol, given ``bot_timeout`` seconds per answer (default 10).
    Raises :class:`ValueError` naming the choices.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a bot is named by text, not {spec!r}")
    name, colon, argument = spec.strip().partition(":")
    name = name.lower()
    if name == "cmd":
        try:
            command = shlex.split(argument)
        except ValueError as error:  # an unclosed quote
            raise ValueError(f"cannot read the command in {spec!r}: {error}") from None
        if not command:
            raise ValueError("cmd: needs a program to run, e.g. 'cmd:python my_bot.py'")
        if bot_timeout is None:
            return SubprocessPlayer(command)
        return SubprocessPlayer(command, timeout=bot_timeout)
    spec_text = spec
    spec, options = _options(spec)
    name, colon, argument = spec.strip().partition(":")
    name = name.lower()
    saves = "nosave" not in options
    anti = "noanti" not in options
    if name == "strong":
        from .strong import DEFAULT_LEVEL, StrongPlayer

        level = DEFAULT_LEVEL
        if colon:
            read = _strong_level(argument)
            if read is None:
                raise ValueError(f"strong's level is 1 to 4, not {argument.strip()!r}")
            level = read
        return StrongPlayer(rng, level=level, saves=saves, anti=anti)
    factory = _factories().get(name)
    if factory is None or colon:
        raise ValueError(f"unknown bot {spec_text!r}: {_HELP}")
    if factory is RandomPlayer:
        return RandomPlayer(rng, saves=saves)
    return factory(rng, saves=saves, anti=anti)


def _options(spec: str) -> tuple[str, tuple[str, ...]]:
    """``spec`` less its ``+OPTION`` endings, and those options (lower case, each once, in
    :data:`BOT_OPTIONS` order); ValueError for an unknown one.
    """
    name, *rest = spec.split("+")
    options = {option.strip().lower() for option in rest}
    unknown = sorted(options - set(BOT_OPTIONS))
    if unknown:
        raise ValueError(
            f"unknown bot option {unknown[0]!r} in {spec.strip()!r}: "
            f"options are {', '.join('+' + o for o in BOT_OPTIONS)}"
        )
    return name, tuple(option for option in BOT_OPTIONS if option in options)


def parse_bot_list(text: str) -> list[str]:
    """Split ``"strong,greedy,greedy"`` into bot specs, checking each name and writing it
    one way (a built-in bot in lower case, a level without leading zeros, the default
    level as plain ``strong``), so that one bot is never counted as two. A command
    (``cmd:PROGRAM ARGS``) is kept as written; commas separate bots, so it has none.

    >>> parse_bot_list("strong:2, GREEDY,greedy, strong:04, Strong+NoSave")
    ['strong:2', 'greedy', 'greedy', 'strong', 'strong+nosave']
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
    if spec.strip().lower().startswith("cmd:"):
        argument = spec.strip()[4:].strip()
        if argument:
            return f"cmd:{argument}"
        raise ValueError(f"unknown bot {spec!r}: {_HELP}")
    spec, options = _options(spec)
    suffix = "".join(f"+{option}" for option in options)
    return _canonical_name(spec) + suffix


def _canonical_name(spec: str) -> str:
    """A built-in bot's name and level written the one way."""
    from .strong import DEFAULT_LEVEL

    name, colon, argument = spec.partition(":")
    name = name.strip().lower()
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


def builtin_bot(spec: object) -> str:
    """``spec`` written the one way, if it names a built-in bot (never a program: a
    client's or a file's word must not start one); ValueError naming the choices.

    >>> builtin_bot("Strong:04"), builtin_bot("strong:2"), builtin_bot(" greedy ")
    ('strong', 'strong:2', 'greedy')
    >>> builtin_bot("cmd:rm -rf /")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'cmd:rm -rf /': choose from random, greedy, strong (level 4), strong:1 to strong:4 or expert
    """
    if not isinstance(spec, str) or spec.strip().lower().startswith("cmd:") or "," in spec:
        raise ValueError(f"unknown bot {spec!r}: choose from {BOT_HELP}")
    return _canonical_spec(spec)


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

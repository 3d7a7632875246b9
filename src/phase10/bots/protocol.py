"""Bots in any language: JSON lines over a program's stdin and stdout (like chess's UCI).

The engine side is :class:`SubprocessPlayer`, a :class:`~phase10.bots.Player` that runs
a program and asks it for each decision; the bot side is :func:`serve`, which turns any
Python player into such a program. The messages, one JSON object per line:

======================  ==========================================================
engine → bot            bot → engine
======================  ==========================================================
``hello``               ``{"type": "ready", "name": ..., "author": ...}``
``turn`` (view, legal)  ``{"action": "discard R7"}`` or ``{"action": {...}}``
``error`` (message)     another answer, while ``attempts_left`` > 0
``game_over``           nothing
``quit``                nothing: the bot exits
======================  ==========================================================

``docs/bot-protocol.md`` describes every message. A built-in bot runs over the protocol
with ``python -m phase10.bots.protocol greedy --seed 7``:

>>> import io, json
>>> from phase10.core import Game
>>> from phase10.bots import RandomPlayer
>>> import random
>>> game = Game(2, seed=1)
>>> view = game.view(game.current)
>>> lines = [
...     {"type": "hello", "protocol": 1, "seat": view.viewer, "players": 2, "rules": {}},
...     {"type": "turn", "view": view.to_dict(), "legal": [str(a) for a in view.legal_actions]},
...     {"type": "quit"},
... ]
>>> out = io.StringIO()
>>> serve(RandomPlayer(random.Random(0)), io.StringIO("".join(json.dumps(m) + "\\n" for m in lines)), out)
>>> [json.loads(line) for line in out.getvalue().splitlines()]
[{'type': 'ready', 'name': 'RandomPlayer', 'author': 'phase10', 'protocol': 1}, {'action': 'take'}]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Mapping, Sequence
from typing import IO, Any

from phase10.core import PlayerView

# the engine side lives in .program (the registry makes cmd: players from it); its names
# are imported here too, where they have always been
from .program import (
    MAX_ATTEMPTS,
    PROTOCOL_VERSION,
    BotError,
    SubprocessPlayer,
    _clip,
    finish_game,
    parse_view_action,
)
from .registry import BOT_HELP, make_player
from .simple import Player

__all__ = [
    "MAX_ATTEMPTS",
    "PROTOCOL_VERSION",
    "BotError",
    "SubprocessPlayer",
    "finish_game",
    "main",
    "parse_view_action",
    "serve",
]


# -- the bot side -----------------------------------------------------------------------


def serve(
    player: Player,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    *,
    name: str | None = None,
    author: str = "phase10",
) -> None:
    """Run ``player`` as a protocol bot: read the engine's messages from ``stdin`` (default
    ``sys.stdin``) and answer on ``stdout`` until ``quit`` or the end of input.

    Each ``turn``'s view is rebuilt exactly with :meth:`PlayerView.from_dict`. After an
    ``error`` (which a correct player never gets) the message goes to stderr and the player
    is asked again while attempts are left. A line that is not JSON is reported on stderr
    and skipped; a turn whose view cannot be read raises :class:`ValueError`.
    """
    source = sys.stdin if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout

    def send(message: Mapping[str, Any]) -> None:
        sink.write(json.dumps(message) + "\n")
        sink.flush()

    view: PlayerView | None = None
    for line in source:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            print(f"ignoring a line that is not JSON: {_clip(line.strip())}", file=sys.stderr)
            continue
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "hello":
            send(
                {
                    "type": "ready",
                    "name": name or type(player).__name__,
                    "author": author,
                    "protocol": PROTOCOL_VERSION,
                }
            )
        elif kind == "turn":
            try:
                view = PlayerView.from_dict(message["view"])
            except (KeyError, TypeError, ValueError) as error:
                raise ValueError(f"cannot read the engine's turn: {error}") from None
            send({"action": str(player.choose(view))})
        elif kind == "error":
            print(f"the engine refused the answer: {message.get('message')}", file=sys.stderr)
            left = message.get("attempts_left", 0)
            if view is not None and isinstance(left, int) and left > 0:
                send({"action": str(player.choose(view))})
        elif kind == "quit":
            return
        elif kind != "game_over":
            print(f"ignoring an unknown message: {_clip(line.strip())}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m phase10.bots.protocol greedy --seed 7``: a built-in bot over the protocol."""
    parser = argparse.ArgumentParser(
        prog="python -m phase10.bots.protocol",
        description="Run a built-in bot over the JSON-lines bot protocol (stdin/stdout).",
    )
    parser.add_argument("bot", help=BOT_HELP)
    parser.add_argument("--seed", type=int, default=0, help="the bot's random seed (default 0)")
    parser.add_argument("--name", help="the name the bot gives in its ready message")
    args = parser.parse_args(argv)
    if args.bot.strip().lower().startswith("cmd:"):
        parser.error("run a program bot directly, not through cmd:")
    try:
        player = make_player(args.bot, random.Random(args.seed))
    except ValueError as error:  # the choices, less the program bots this command refuses
        parser.error(str(error).replace(", or cmd:PROGRAM", ""))
    out = sys.stdout
    sys.stdout = sys.stderr  # a stray print() must not break the protocol
    try:
        serve(player, sys.stdin, out, name=args.name or args.bot)
    except ValueError as error:  # the engine sent what no turn can be read from
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        sys.stdout = out
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

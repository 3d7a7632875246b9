"""The WebSocket protocol's client messages (validated strictly with pydantic) and error codes.

docs/server-protocol.md describes every message and every code. Types are never
converted: ``"version": "5"`` or ``true`` where a number belongs is refused, as is JSON
nested deeper than a message can be.

>>> parse_client_message('{"type": "action", "action": "draw", "version": 5}').version
5
>>> parse_client_message('{"type": "action", "action": "draw", "version": "5"}')
Traceback (most recent call last):
...
phase10.server.protocol.ProtocolError: invalid message: version: Input should be a valid integer
>>> parse_client_message("[" * 2000 + "]" * 2000)
Traceback (most recent call last):
...
phase10.server.protocol.ProtocolError: the message is not valid JSON: depth limit exceeded...
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from phase10.bots.registry import builtin_bot

__all__ = [
    "ERRORS",
    "MAX_MESSAGE_BYTES",
    "ClientMessage",
    "ProtocolError",
    "error_message",
    "excerpt",
    "parse_client_message",
]

#: the largest message a client may send, in bytes
MAX_MESSAGE_BYTES = 4096
#: the most characters of anything a client sent that an error message repeats
EXCERPT = 80

#: every error code the server sends, with what it means
ERRORS: dict[str, str] = {
    "no_such_table": "there is no table with this id (the socket is closed)",
    "bad_json": "the message is not a JSON object",
    "too_large": f"the message is longer than {MAX_MESSAGE_BYTES} bytes",
    "invalid_message": "the message does not match any message type (see the details)",
    "rate_limited": "too many messages: this one was dropped",
    "too_many_connections": "too many connections: from your address, or to this table",
    "not_joined": "send hello first",
    "already_joined": "hello was already sent on this connection",
    "bad_token": "the token belongs to no seat at this table",
    "seat_gone": "this seat link no longer holds a seat: its player left or was replaced",
    "spectator": "spectators cannot play",
    "not_host": "only the table's host can do that",
    "no_such_seat": "that seat cannot be changed so (no such seat, an open seat, or yours)",
    "not_started": "the game has not started",
    "already_started": "the game has already started",
    "game_over": "the game is over",
    "game_not_over": "the game is not over yet",
    "not_your_turn": "it is another player's turn",
    "stale": "the action was chosen on another version of the game (version mismatch)",
    "invalid_action": "the action's text cannot be read",
    "illegal_action": "the action breaks a rule (the message says which)",
    "not_held": "the message names cards you do not hold",
    "no_choice": "the selected cards make no legal lay-down or hit",
    "no_hint": "there is no hint now",
    "busy": "the server is still working on your last hint or choices: ask again soon",
    "too_slow": "working that out took too long and was stopped",
    "server_error": "the server could not answer this; the problem was logged",
    # over HTTP only
    "bad_name": "the name cannot be used (the message says why)",
    "name_taken": "another player at the table has that name",
    "seeded_table": "the table's deal comes from a seed its host chose: it is for its host and bots",
    "server_full": "the server holds as many tables as it can: try again later",
}


class ProtocolError(Exception):
    """A message refused with an error code; nothing was changed.

    ``reason`` is the engine's :class:`~phase10.core.Refusal` code when the engine refused
    (``illegal_action``, ``invalid_action``, ``not_held``, ``no_choice``), sent as the
    error's ``reason`` so a client can tell refusals apart without reading the message.
    """

    def __init__(self, code: str, message: str | None = None, reason: str | None = None) -> None:
        if code not in ERRORS:
            raise ValueError(f"no error code {code!r}")
        super().__init__(message or ERRORS[code])
        self.code = code
        self.message = message or ERRORS[code]
        self.reason = reason


def error_message(
    code: str, message: str | None = None, reason: str | None = None
) -> dict[str, Any]:
    """The ``error`` message sent to a client (``reason`` only when the engine gave one).

    >>> error_message("illegal_action", "the discard pile is empty", "discard_empty")
    {'type': 'error', 'code': 'illegal_action', 'message': 'the discard pile is empty', 'reason': 'discard_empty'}
    """
    sent: dict[str, Any] = {"type": "error", "code": code, "message": message or ERRORS[code]}
    if reason is not None:
        sent["reason"] = str(reason)
    return sent


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """At most ``limit`` characters of ``text`` (what a client sent is never echoed whole).

    >>> excerpt("x" * 100, 10)
    'xxxxxxxxxx… (100 characters)'
    """
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=64)] | None = None


class Start(_Message):
    type: Literal["start"]


class SetBots(_Message):
    type: Literal["bots"]
    #: a built-in bot (never a program), written the one way (phase10.bots.registry)
    bots: Annotated[str, Field(max_length=24), AfterValidator(builtin_bot)]


Seat = Annotated[int, Field(ge=0, le=5)]


class RemovePlayer(_Message):
    type: Literal["remove_player"]
    seat: Seat


class SeatBot(_Message):
    type: Literal["seat_bot"]
    seat: Seat


class HandOver(_Message):
    type: Literal["hand_over"]
    seat: Seat


class Leave(_Message):
    type: Literal["leave"]


class Act(_Message):
    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=400)]
    #: the state version the action was chosen on (optional): a mismatch is refused
    version: Annotated[int, Field(ge=0)] | None = None


class Choices(_Message):
    type: Literal["choices"]
    kind: Literal["lay", "hit"]
    cards: Annotated[str, Field(max_length=200)]


class Hint(_Message):
    type: Literal["hint"]


class Rematch(_Message):
    type: Literal["rematch"]
    #: the host starts the rematch without waiting for the others
    force: bool = False


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello
    | Start
    | SetBots
    | RemovePlayer
    | SeatBot
    | HandOver
    | Leave
    | Act
    | Choices
    | Hint
    | Rematch
    | Ping,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
TYPES = "hello, start, bots, remove_player, seat_bot, hand_over, leave, action, choices, hint, rematch, ping"
#: the messages only the host may send
HOST_ONLY = frozenset({"start", "bots", "remove_player", "seat_bot", "hand_over"})


def parse_client_message(text: str | bytes) -> Any:
    """One client message, validated; raises :class:`ProtocolError` with the code."""
    if len(text) > MAX_MESSAGE_BYTES or (
        isinstance(text, str) and len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES
    ):
        raise ProtocolError("too_large")
    try:
        # orjson: strict JSON (no NaN), and nesting deeper than 1024 is an error, not a crash
        data = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise ProtocolError("bad_json", f"the message is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        loc = first.get("loc", ())
        where = ".".join(str(part) for part in loc[1:])  # loc[0] is the message's type
        detail = f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
        if first.get("type") == "union_tag_invalid":
            detail = f"no message type {excerpt(str(data.get('type')), 24)!r}; the types: {TYPES}"
        elif first.get("type") == "union_tag_not_found":
            detail = f"a message needs a type: {TYPES}"
        raise ProtocolError("invalid_message", f"invalid message: {excerpt(detail, 200)}") from None
